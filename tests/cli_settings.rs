//! The options every planning command shares: `--model`, `--test-drive-m`,
//! `--scheduler ideal`, and that each model kind keeps its own models.

mod common;

use std::path::Path;
use std::process::Output;

use common::{flowcast, flowcast_command};

fn ok(args: &[&str]) -> String {
    let out = flowcast(args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{args:?}: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

const WORKFLOW: &str = r#"
[workflow]
seed = 3

[steps]
x = "matrix(rnorm(60 * 8), 60, 8)"
pcs = "prcomp(x)"
burn = { for = "k in 1:4", do = "spin(0.02)" }
rows = { for = "i in 1:60", do = "mean(x[i, ])" }
"#;

fn setup() -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let wf = dir.path().join("w.toml");
    std::fs::write(&wf, WORKFLOW).unwrap();
    let h = dir.path().join("h.sqlite");
    let s = |p: &Path| p.display().to_string();
    (dir, s(&wf), s(&h))
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).expect("json")
}

#[test]
fn ideal_plans_with_the_previous_runs_measured_costs() {
    let (_d, wf, h) = setup();
    let run_json = || {
        json(&ok(&[
            "run",
            &wf,
            "--headless",
            "--json",
            "-p",
            "2",
            "--history",
            &h,
        ]))
    };
    let run = run_json();
    let plan_with = |scheduler: &str| {
        json(&ok(&[
            "plan",
            &wf,
            "-p",
            "2",
            "--scheduler",
            scheduler,
            "--json",
            "--history",
            &h,
        ]))
    };
    let ideal = plan_with("ideal");
    let emcp = plan_with("emcp");
    for step in ["pcs", "burn", "rows"] {
        let measured = run["steps"][step]["actual_s"].as_f64().unwrap();
        let planned = ideal["planned_s"][step].as_f64().unwrap();
        assert!(
            (measured - planned).abs() < 1e-9,
            "{step}: {measured} vs {planned}"
        );
        // The oracle plans with measured costs but reports the models'
        // predictions, so it cannot flatter their error.
        assert_eq!(
            ideal["predicted_s"][step], emcp["predicted_s"][step],
            "{step}"
        );
        assert_eq!(emcp["planned_s"][step], emcp["predicted_s"][step], "{step}");
    }
    // The same through `[workflow] scheduler`.
    let text = std::fs::read_to_string(&wf).unwrap();
    std::fs::write(
        &wf,
        text.replace("seed = 3", "seed = 3\nscheduler = \"ideal\""),
    )
    .unwrap();
    let again = run_json();
    assert_eq!(again["scheduler"], "ideal");
    assert_eq!(
        again["steps"]["burn"]["predicted_s"],
        emcp["predicted_s"]["burn"]
    );
}

#[test]
fn each_model_kind_keeps_its_own_models() {
    let (_d, wf, h) = setup();
    let args = |model: &'static str| {
        vec![
            "run",
            wf.as_str(),
            "--headless",
            "-p",
            "2",
            "--history",
            h.as_str(),
            "--model",
            model,
        ]
    };
    ok(&args("loglinear"));
    let show = ok(&["model", "show", "--history", &h]);
    assert!(show.starts_with("cost models: loglinear"), "{show}");
    assert!(show.contains("prcomp"), "{show}");
    let loglinear_before = show.clone();
    ok(&args("paper"));
    let paper = ok(&["model", "show", "--history", &h, "--model", "paper"]);
    assert!(paper.starts_with("cost models: paper"), "{paper}");
    let row = paper.lines().find(|l| l.starts_with("prcomp")).unwrap();
    assert!(row.contains("paper"), "{row}");
    // The paper run did not overwrite the loglinear models: the default
    // view still shows loglinear models, one observation behind the paper's
    // (which learnt from both runs' observations).
    let show = ok(&["model", "show", "--history", &h]);
    let row = show.lines().find(|l| l.starts_with("prcomp")).unwrap();
    assert!(row.contains("loglinear"), "{row}");
    let observations = |table: &str| -> u64 {
        let row = table.lines().find(|l| l.starts_with("prcomp")).unwrap();
        row.split_whitespace().nth(2).unwrap().parse().unwrap()
    };
    assert_eq!(observations(&show), observations(&loglinear_before));
    assert_eq!(observations(&paper), observations(&show) + 1);
    let bad = flowcast(&["run", &wf, "--headless", "--model", "nn", "--history", &h]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown cost model `nn`"));
}

#[test]
fn test_drive_m_must_be_positive() {
    let (_d, wf, h) = setup();
    ok(&[
        "run",
        &wf,
        "--headless",
        "-p",
        "2",
        "--history",
        &h,
        "--test-drive-m",
        "40",
    ]);
    let bad = flowcast(&["plan", &wf, "--test-drive-m", "0"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--test-drive-m must be at least 1"));
}

#[test]
fn processes_running_at_once_share_one_history() {
    let (_d, wf, h) = setup();
    let children: Vec<_> = (0..4)
        .map(|i| {
            let model = if i % 2 == 0 { "loglinear" } else { "paper" };
            flowcast_command()
                .args([
                    "run",
                    &wf,
                    "--headless",
                    "-p",
                    "2",
                    "--history",
                    &h,
                    "--model",
                    model,
                ])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("start flowcast")
        })
        .collect();
    // All four run at once; then collect them.
    let children: Vec<Output> = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    for c in &children {
        assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
        assert!(
            !String::from_utf8_lossy(&c.stderr).contains("warning"),
            "{}",
            String::from_utf8_lossy(&c.stderr)
        );
    }
    let history = flowcast::cost::History::open(&h).unwrap();
    let runs = history.runs(None).unwrap();
    assert_eq!(runs.len(), 4);
    for r in runs {
        assert_eq!(history.tasks(r.id).unwrap().len(), 4);
    }
    assert!(history.integrity_check().unwrap());
}
