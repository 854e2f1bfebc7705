//! Each loop's policy before a run (issue 16, item 5), from what the
//! history measured of it: the blocks of its past runs say whether its
//! iterations' cost varies with the index and whether it kept scaling as
//! more of its blocks ran at once. A loop
//! never measured is chosen for from its shape alone (its test drive then
//! samples the range: see [`crate::sched::runtime::drive_ranges`]).

use std::collections::HashMap;

use crate::cost::history::History;
use crate::cost::steps::RECENT_RUNS;
use crate::sched::loop_policy::{self, BlockTime};
use crate::sched::Dag;

/// Per loop step, the blocks its recent runs measured (each run's
/// concurrency read from its own blocks' overlaps).
pub fn past_blocks(h: &History, workflow: &str) -> HashMap<String, Vec<BlockTime>> {
    let mut out: HashMap<String, Vec<BlockTime>> = HashMap::new();
    let Ok(runs) = h.recent_runs(workflow, RECENT_RUNS) else {
        return out;
    };
    for run in &runs {
        // An unreadable run is no evidence.
        let Ok(tasks) = h.tasks(run.id) else { continue };
        for task in tasks.into_iter().filter(|t| !t.blocks.is_empty()) {
            let blocks: Vec<_> = task
                .blocks
                .iter()
                .map(|b| (b.iterations.clone(), b.start, b.end))
                .collect();
            out.entry(task.step)
                .or_default()
                .extend(loop_policy::with_concurrency(&blocks));
        }
    }
    out
}

/// Chooses every loop's policy in `dag` for `p` workers, and its profile
/// where only the measured blocks show one. Blocks that do not fit the
/// loop (its range was edited since) are not evidence.
pub fn choose_policies(dag: &mut Dag, past: &HashMap<String, Vec<BlockTime>>, p: usize) {
    for node in &mut dag.nodes {
        let Some(n) = node.iterations() else { continue };
        let blocks: &[BlockTime] = past
            .get(&node.name)
            .filter(|b| b.iter().all(|b| b.iterations.end <= n))
            .map_or(&[], Vec::as_slice);
        let (policy, profile) = loop_policy::choose(n, p, &node.profile, blocks);
        node.policy = Some(policy);
        node.profile = profile;
    }
}
