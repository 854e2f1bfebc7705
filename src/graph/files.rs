//! Dependences through files: a step that reads (`read.csv`) a file another
//! step writes (`write.csv`) comes after the writer, as a step that reads a
//! value comes after the step that makes it.
//!
//! What cannot be ordered is an error at analysis: a step writing over the
//! workflow file; two steps writing one file; a step writing a file that
//! it, or a step it depends on, reads (it would write over its own input).

use std::path::PathBuf;

use crate::diagnostic::Diagnostic;
use crate::regular_file::normal;
use crate::workflow::files::{step_files, StepFiles};
use crate::workflow::Workflow;

use super::TaskId;

/// Whether `to` is `from` or one of the steps `from` depends on, directly
/// or not.
fn reaches(deps: &[Vec<TaskId>], from: TaskId, to: TaskId) -> bool {
    let mut seen = vec![false; deps.len()];
    let mut stack = vec![from];
    while let Some(i) = stack.pop() {
        if i == to {
            return true;
        }
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        stack.extend(deps[i].iter().copied());
    }
    false
}

/// Adds each file dependence to `deps`; the errors, one per step at most.
pub fn add_dependences(wf: &Workflow, deps: &mut [Vec<TaskId>]) -> Vec<Diagnostic> {
    let base = wf.base_dir();
    let files: Vec<StepFiles> = wf
        .steps
        .iter()
        .map(|s| step_files(&s.body, &base))
        .collect();
    let reads: Vec<Vec<PathBuf>> = files
        .iter()
        .map(|f| f.paths.iter().map(|p| normal(p)).collect())
        .collect();
    let workflow = normal(&wf.file.path);
    let mut errors = Vec::new();
    let mut writers: Vec<(PathBuf, TaskId)> = Vec::new();
    for (w, f) in files.iter().enumerate() {
        let step = &wf.steps[w];
        let fail =
            |msg: String| Diagnostic::new(&wf.file, Some(step.name_span), msg).in_step(&step.name);
        'paths: for (shown, path) in f.written.iter().map(|p| (p, normal(p))) {
            let shown = shown.display();
            if path == workflow {
                errors.push(fail(format!(
                    "step `{}` writes over the workflow file `{shown}`",
                    step.name
                )));
                break;
            }
            if let Some((_, other)) = writers.iter().find(|(p, _)| *p == path) {
                errors.push(fail(format!(
                    "steps `{}` and `{}` both write `{shown}`",
                    wf.steps[*other].name, step.name
                )));
                break;
            }
            writers.push((path.clone(), w));
            for (r, read) in reads.iter().enumerate() {
                if !read.contains(&path) {
                    continue;
                }
                if reaches(deps, w, r) {
                    let msg = if r == w {
                        format!("step `{}` writes `{shown}`, a file it reads", step.name)
                    } else {
                        format!(
                            "step `{}` writes `{shown}`, which step `{}` reads before it: \
                             it would write over its own input",
                            step.name, wf.steps[r].name
                        )
                    };
                    errors.push(fail(msg));
                    break 'paths;
                }
                if !deps[r].contains(&w) {
                    deps[r].push(w);
                    deps[r].sort_unstable();
                }
            }
        }
    }
    errors
}

/// The files the workflow's steps write (resolved), for shape inference:
/// `read.csv` of one of them cannot look at it before the run.
pub fn written(wf: &Workflow) -> Vec<PathBuf> {
    let base = wf.base_dir();
    wf.steps
        .iter()
        .flat_map(|s| step_files(&s.body, &base).written)
        .map(|p| normal(&p))
        .collect()
}
