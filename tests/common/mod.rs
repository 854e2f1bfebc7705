//! Shared helpers for the integration tests: running the binary, calling
//! kernels directly, loading the R fixtures, comparing numbers.
#![allow(dead_code)]

pub mod r_json;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;

use flowcast::kernels::{registry, Args, Ctx, KernelError, Rng, Value};

/// The `flowcast` binary. Runs record history, so it goes under the
/// target's temporary directory rather than the user's data directory;
/// and every run runs, reusing no values kept beside the fixtures (the
/// cache's own tests name a directory with `--cache`).
pub fn flowcast_command() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_flowcast"));
    c.env(
        "XDG_DATA_HOME",
        concat!(env!("CARGO_TARGET_TMPDIR"), "/xdg-data"),
    );
    c.env("FLOWCAST_CACHE", "off");
    c
}

/// Runs `flowcast args` to completion.
pub fn flowcast(args: &[&str]) -> Output {
    flowcast_command()
        .args(args)
        .output()
        .expect("run flowcast")
}

/// Runs `flowcast args` to completion under `ulimit -v kb`: what it may
/// map, stacks and heap together, as the issue 13 checks limit it.
pub fn flowcast_in_address_space(kb: u64, args: &[&str]) -> Output {
    let c = flowcast_command();
    let mut sh = Command::new("sh");
    sh.arg("-c")
        .arg(format!("ulimit -v {kb} && exec \"$0\" \"$@\""))
        .arg(c.get_program())
        .args(args);
    for (k, v) in c.get_envs() {
        if let Some(v) = v {
            sh.env(k, v);
        }
    }
    sh.output().expect("run flowcast")
}

/// Calls built-in `name` with (name, value) arguments, as `name(...)` in a
/// workflow would, drawing random numbers from `set.seed(seed)`.
pub fn call_seeded(
    name: &str,
    args: Vec<(Option<&str>, Value)>,
    seed: i64,
) -> Result<Value, KernelError> {
    let kernel = registry()
        .get(name)
        .unwrap_or_else(|| panic!("no kernel named {name}"));
    let given = args
        .iter()
        .map(|(n, v)| (n.map(str::to_string), v))
        .collect();
    let args = Args::match_call(kernel.name, kernel.params, given)
        .map_err(|e| KernelError::new(e.message))?;
    let mut rng = Rng::from_seed(seed);
    let cancel = AtomicBool::new(false);
    let mut ctx = Ctx {
        rng: &mut rng,
        base_dir: Path::new(env!("CARGO_MANIFEST_DIR")),
        cancel: &cancel,
        warnings: Vec::new(),
        closure: None,
        closure2: None,
        integers: Vec::new(),
        messages: Default::default(),
    };
    (kernel.eval)(&args, &mut ctx)
}

pub fn call(name: &str, args: Vec<(Option<&str>, Value)>) -> Result<Value, KernelError> {
    call_seeded(name, args, 42)
}

/// Positional argument.
pub fn pos(v: Value) -> (Option<&'static str>, Value) {
    (None, v)
}

/// Named argument.
pub fn named(n: &'static str, v: Value) -> (Option<&'static str>, Value) {
    (Some(n), v)
}

pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/r")
}

/// A fixture written by `tests/fixtures/r/<name>.R`.
pub fn fixture(name: &str) -> serde_json::Value {
    let path = fixtures_dir().join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Relative closeness with an absolute floor for values near zero.
pub fn close(a: f64, b: f64, rel: f64) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    if a == b {
        return true;
    }
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-300) || (a - b).abs() <= rel * 1e-3
}

#[track_caller]
pub fn assert_all_close(actual: &[f64], expected: &[f64], rel: f64) {
    assert_eq!(actual.len(), expected.len(), "length differs");
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert!(close(*a, *e, rel), "element {i}: got {a:e}, R gives {e:e}");
    }
}

/// A number as `--out` JSON writes it: R's NA, NaN and infinities are
/// strings there.
/// A fixture's number or vector of numbers (R's NA, NaN and Inf as text).
pub fn vec_of(j: &serde_json::Value) -> Vec<f64> {
    let num = |v: &serde_json::Value| json_num(v).unwrap_or_else(|| panic!("not a number: {v}"));
    match j {
        serde_json::Value::Array(a) => a.iter().map(num).collect(),
        other => vec![num(other)],
    }
}

/// A fixture's matrix: `{"dim": [r, c], "data": [...]}`, column-major.
pub fn mat_of(j: &serde_json::Value) -> nalgebra::DMatrix<f64> {
    let dim = vec_of(&j["dim"]);
    nalgebra::DMatrix::from_vec(dim[0] as usize, dim[1] as usize, vec_of(&j["data"]))
}

pub fn json_num(j: &serde_json::Value) -> Option<f64> {
    match j {
        serde_json::Value::Number(n) => n.as_f64(),
        serde_json::Value::String(s) => match s.as_str() {
            "NA" | "NaN" => Some(f64::NAN),
            "Inf" => Some(f64::INFINITY),
            "-Inf" => Some(f64::NEG_INFINITY),
            _ => None,
        },
        _ => None,
    }
}

/// Every step's value of a finished run, printed, by step name: two runs
/// gave the same values exactly when these are equal.
pub fn step_values(
    g: &flowcast::graph::TaskGraph,
    r: &flowcast::exec::RunReport,
) -> std::collections::HashMap<String, String> {
    g.tasks
        .iter()
        .map(|t| {
            let v = r.outcomes[t.id].value.as_ref().expect("ran");
            (t.name.clone(), format!("{v:?}"))
        })
        .collect()
}

/// `w.toml` in a temporary directory, with `steps` under `[steps]` (the
/// first step on line 2).
pub fn steps_workflow(steps: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.toml");
    std::fs::write(&path, format!("[steps]\n{steps}\n")).unwrap();
    (dir, path)
}

/// What `flowcast check` prints (stderr then stdout) for a workflow of
/// `steps`, which it must accept.
pub fn checked(steps: &str) -> String {
    let (_dir, path) = steps_workflow(steps);
    let out = flowcast(&["check", path.to_str().unwrap()]);
    let all = text(&out.stderr) + &text(&out.stdout);
    assert!(out.status.success(), "{all}");
    all
}

/// A process's output as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Writes `body` to `w.toml` in a fresh directory: (dir guard, path).
pub fn workflow_file(body: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.toml");
    std::fs::write(&path, body).unwrap();
    (dir, path)
}

/// A path as a command-line argument.
pub fn arg(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The odd values every library test tries in each argument: empty,
/// missing, negative, zero, not finite, of the wrong type.
pub const ODD_VALUES: &[&str] = &[
    "NULL",
    "numeric(0)",
    "NA",
    "-1",
    "0",
    "1",
    "c(NaN, Inf)",
    "TRUE",
    "list(1)",
    "\"a\"",
];

/// Each of `calls` with its `X` replaced by each of `odd`, run as step `a`
/// after `before` (steps, each line ending in a newline): a value or an
/// error, never a panic or an internal error.
pub fn assert_odd_inputs_do_not_panic(before: &str, calls: &[&str], odd: &[&str]) {
    for call in calls {
        for x in odd {
            let expr = call.replace('X', x);
            let (_dir, path) = steps_workflow(&format!("{before}a = '{expr}'"));
            let all = run_here(&path);
            assert!(!all.contains("panicked"), "{expr}: {all}");
            assert!(!all.contains("internal error"), "{expr}: {all}");
        }
    }
}

/// What `flowcast run --headless` reports of the workflow at `path` (its
/// diagnostics, each failure, the table of values), computed in this
/// process from the models' priors: the odd-input sweeps make thousands
/// of runs, and a process with a history of its own for each was most of
/// the test suite's time. A panic anywhere comes back as "panicked".
pub fn run_here(path: &Path) -> String {
    use flowcast::exec::RunOptions;
    use flowcast::pipeline::{self, Learning};
    use flowcast::sched::Scheduler;
    let path = path.to_path_buf();
    let run = move || {
        let (wf, graph) = match pipeline::load_checked(&path) {
            Ok(x) => x,
            Err(diagnostics) => return diagnostics,
        };
        let mut learning = Learning::none();
        let opts = RunOptions::new(2, wf.seed.unwrap_or(1));
        let cancel = AtomicBool::new(false);
        let on_event = |_: flowcast::exec::Event| {};
        match pipeline::run(
            &wf,
            &graph,
            &mut learning,
            &opts,
            Scheduler::Emcp,
            &on_event,
            &cancel,
        ) {
            Err(e) => format!("error: {e}"),
            Ok(done) => {
                let mut out: Vec<String> = done.warnings.clone();
                let report = &done.report;
                out.extend(
                    report
                        .failures(&graph, &wf.file)
                        .iter()
                        .map(ToString::to_string),
                );
                out.push(flowcast::report::table::render(
                    &graph,
                    report,
                    &done.plan.predicted_as_ran(report),
                    done.plan.predicted_makespan(),
                ));
                out.join("\n")
            }
        }
    };
    // The stack the binary's main thread has: deep expressions are walked
    // on it.
    let thread = std::thread::Builder::new()
        .stack_size(flowcast::workflow::depth::WALK_STACK)
        .spawn(run)
        .expect("a thread for the run");
    thread.join().unwrap_or_else(|p| {
        let why = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        format!("panicked: {why}")
    })
}

/// Each case's steps, run after `before` (steps, each line ending in a
/// newline), fail with the case's words in the output: what flowcast does
/// not do is refused saying why, never run as something else, and never
/// by a panic or an internal error.
#[track_caller]
pub fn assert_refused_saying(before: &str, cases: &[(&str, &str)]) {
    for (steps, says) in cases {
        let steps = format!("{before}{steps}");
        let (_dir, path) = steps_workflow(&steps);
        let out = flowcast(&["run", "--headless", "--no-cache", arg(&path)]);
        let all = text(&out.stderr) + &text(&out.stdout);
        assert!(!out.status.success(), "{steps}: {all}");
        assert!(!all.contains("panicked"), "{steps}: {all}");
        assert!(!all.contains("internal error"), "{steps}: {all}");
        assert!(all.contains(says), "{steps}: expected {says:?} in {all}");
    }
}
