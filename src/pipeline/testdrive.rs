//! The loop test drive (paper section IV): a loop of at least p·M
//! iterations first runs its first iterations, as soon as what it reads is
//! computed; the measured time, blended with the loop's model (see
//! [`crate::cost::testdrive`]), is the cost emcp re-plans the rest with.
//!
//! The paper times the first iteration alone. Here the first iteration of a
//! loop over a large matrix pays for cold caches and first allocations (fig1:
//! 17 ms against 3 ms for the others, which made the first run's prediction
//! of the loop six times too long), so the test drive runs the first two
//! iterations, in order on one worker, and takes the faster. It then runs
//! one iteration at each quarter of the range and the last: a loop whose
//! iteration i reads i elements is measured as such, not by its two
//! cheapest iterations (issue 16: that put a whole triangular loop on one
//! worker). The samples scale the loop's cost profile from shape
//! inference, or, without one, fit a line through them.
//!
//! The paper ran the drives as a stage of their own and planned the rest
//! when the stage had drained: a long call taken to fill the stage held
//! every other worker idle (a second of sixteen workers on the 16-core
//! machine). Here the drive is one item of the whole plan, the rest of its
//! loop waits for it alone, and when it has run the runtime re-plans what
//! has not started from the state of the run ([`crate::sched::runtime`]).

use std::collections::HashMap;

use crate::cost::{self, testdrive, Predictor};
use crate::graph::{TaskGraph, TaskId};
use crate::sched::runtime::Estimator;

/// The loops emcp test-drives on `p` workers with parameter `m`: those of
/// at least p·M iterations.
pub fn test_driven(graph: &TaskGraph, p: usize, m: usize) -> Vec<TaskId> {
    graph
        .tasks
        .iter()
        .filter(|t| {
            t.iterations
                .as_ref()
                .is_some_and(|it| cost::needs_test_drive(it.len(), p, m))
        })
        .map(|t| t.id)
        .collect()
}

/// The runtime's estimator for `drives`: a drive's fastest iteration
/// blended with its loop's model, as it stands before the run.
pub fn estimator(graph: &TaskGraph, predictor: &Predictor, drives: &[TaskId]) -> Estimator {
    let models: HashMap<TaskId, Option<testdrive::ModelEstimate>> = drives
        .iter()
        .map(|&d| (d, predictor.loop_estimate(&graph.tasks[d])))
        .collect();
    Box::new(move |node, fastest| {
        testdrive::per_iteration(fastest, models.get(&node).copied().flatten())
    })
}
