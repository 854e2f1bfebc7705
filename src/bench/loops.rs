//! `flowcast bench loops`: each do-all loop of a workflow timed under
//! every policy (static blocks of equal count, static blocks of equal
//! predicted cost, cyclic, guided) on the same inputs, against the policy
//! flowcast chooses for it: from its shape alone (a first run), and from
//! the blocks a run of equal-count blocks measured (a trained history
//! whose shape inference could not tell). Issue 16's target: the chosen
//! policy within 1.1x of the best.

use std::collections::HashMap;
use std::fmt::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::cost;
use crate::cost::Profile;
use crate::exec::loop_policy::run_loop;
use crate::exec::RunOptions;
use crate::graph::TaskGraph;
use crate::kernels::Value;
use crate::sched::loop_policy::{self, with_concurrency};
use crate::sched::{LoopKind, LoopPolicy};
use crate::workflow::Workflow;

pub struct Options {
    pub files: Vec<PathBuf>,
    pub runs: usize,
    pub workers: usize,
    pub seed: i64,
}

/// One measured way of running a loop.
struct Measured {
    label: String,
    policy: LoopPolicy,
    profile: Profile,
    seconds: f64,
}

pub fn run_loops(opts: &Options) -> Result<String, String> {
    let mut out = String::new();
    for file in &opts.files {
        let (wf, graph) = crate::pipeline::load_checked(file)?;
        let _ = writeln!(out, "{}:", file.display());
        bench_file(&wf, &graph, opts, &mut out)?;
    }
    Ok(out)
}

fn bench_file(
    wf: &Workflow,
    graph: &TaskGraph,
    opts: &Options,
    out: &mut String,
) -> Result<(), String> {
    let p = opts.workers.max(1);
    let runs = opts.runs.max(1);
    let seed = wf.seed.unwrap_or(opts.seed);
    // Every value once, work-stealing: the loops' inputs and the values
    // each policy must reproduce.
    let cancel = AtomicBool::new(false);
    let report = crate::exec::run(wf, graph, &RunOptions::new(p, seed), &|_| {}, &cancel)?;
    let values: HashMap<String, Arc<Value>> = graph
        .tasks
        .iter()
        .filter_map(|t| {
            let v = report.outcomes.get(t.id)?.value.as_ref().ok()?;
            Some((t.name.clone(), Arc::clone(v)))
        })
        .collect();
    for task in graph.tasks.iter().filter(|t| t.iterations.is_some()) {
        let n = task.iterations.as_ref().map_or(0, Vec::len);
        let inputs: HashMap<String, Arc<Value>> = task
            .deps
            .iter()
            .filter_map(|&d| {
                let name = &graph.tasks[d].name;
                values.get(name).map(|v| (name.clone(), Arc::clone(v)))
            })
            .collect();
        let Some(expected) = values.get(&task.name) else {
            let _ = writeln!(out, "  loop `{}` failed in the reference run", task.name);
            continue;
        };
        let shape = cost::shape_profile(task);
        let time = |policy: LoopPolicy, profile: &Profile| -> Result<(f64, Vec<_>), String> {
            let mut times = Vec::with_capacity(runs);
            let mut blocks = Vec::new();
            for _ in 0..runs {
                let run = run_loop(wf, graph, task.id, &inputs, seed, policy, profile)?;
                if run.value != **expected {
                    return Err(format!(
                        "loop `{}`: the {} policy gave another value",
                        task.name,
                        policy.kind.name()
                    ));
                }
                times.push(run.seconds);
                blocks = run.blocks;
            }
            times.sort_by(f64::total_cmp);
            Ok((times[times.len() / 2], blocks))
        };
        let all = |kind| LoopPolicy { kind, threads: p };
        let mut measured = Vec::new();
        let (even, even_blocks) = time(all(LoopKind::Static), &Profile::FLAT)?;
        measured.push(Measured {
            label: "static, equal count".into(),
            policy: all(LoopKind::Static),
            profile: Profile::FLAT,
            seconds: even,
        });
        if !shape.is_flat() {
            measured.push(Measured {
                label: "static, equal cost".into(),
                policy: all(LoopKind::Static),
                profile: shape.clone(),
                seconds: time(all(LoopKind::Static), &shape)?.0,
            });
        }
        for kind in [LoopKind::Cyclic, LoopKind::Guided] {
            measured.push(Measured {
                label: kind.name().into(),
                policy: all(kind),
                profile: shape.clone(),
                seconds: time(all(kind), &shape)?.0,
            });
        }
        let best = measured
            .iter()
            .map(|m| m.seconds)
            .fold(f64::INFINITY, f64::min);
        let _ = writeln!(
            out,
            "  loop `{}`: {n} iterations on {p} workers, median of {runs}",
            task.name
        );
        for m in &measured {
            let _ = writeln!(
                out,
                "    {:<24} {:>9.3} s {:>6.2}x",
                m.label,
                m.seconds,
                m.seconds / best
            );
        }
        // The choices: from the shape alone, and from the blocks the
        // equal-count run measured, as a history would hold them.
        let timeline: Vec<_> = even_blocks
            .iter()
            .map(|(r, _, s, e)| (r.clone(), s.as_secs_f64(), e.as_secs_f64()))
            .collect();
        let past = with_concurrency(&timeline);
        let choices = [
            (
                "first run, from the shapes",
                loop_policy::choose(n, p, &shape, &[]),
            ),
            (
                "from measured blocks only",
                loop_policy::choose(n, p, &Profile::FLAT, &past),
            ),
        ];
        for (how, (policy, profile)) in choices {
            let known = measured
                .iter()
                .find(|m| m.policy == policy && m.profile == profile)
                .map(|m| m.seconds);
            let seconds = match known {
                Some(s) => s,
                None => time(policy, &profile)?.0,
            };
            let _ = writeln!(
                out,
                "    chosen ({how}): {} on {} {:>9.3} s {:>6.2}x the best",
                policy.kind.name(),
                policy.threads,
                seconds,
                seconds / best
            );
        }
    }
    Ok(())
}
