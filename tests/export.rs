//! The exporters on one deterministic chart: every format is parsed back
//! and checked for one bar per task, the legend, units and fields.

#[path = "tui_support/mod.rs"]
mod support;

use flowcast::export::{self, Format};
use flowcast::report::gantt::{Gantt, Status};

#[test]
fn planned_chart_has_a_slot_per_task_and_the_plan_makespan() {
    let g = support::planned();
    assert_eq!(g.rows.len(), 5);
    assert!(g.rows.iter().all(|r| r.predicted.len() == 1));
    // Critical path x -> pcs -> top is 2.25 s; x -> spectrum is 2.5 s.
    assert!(
        g.predicted_makespan >= 2.5 - 1e-12,
        "{}",
        g.predicted_makespan
    );
    assert!(g.rows.iter().all(|r| r.actual.is_none()));
}

#[test]
fn events_fill_in_the_actual_run() {
    let g = support::finished();
    let fit = &g.rows[3];
    assert_eq!(fit.status(), Status::Failed);
    assert_eq!(
        fit.actual.as_ref().and_then(|a| a.message.as_deref()),
        Some("singular fit")
    );
    let spectrum = &g.rows[1];
    assert_eq!(spectrum.status(), Status::Done);
    // 20% slower than planned, by construction.
    let e = spectrum.error_percent().unwrap();
    assert!((e - 20.0).abs() < 1e-6, "{e}");
}

#[test]
fn gantt_round_trips_through_json() {
    let g = support::finished();
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("run.gantt.json");
    export::export(&g, Format::Json, &p).unwrap();
    let back: Gantt = export::load(&p).unwrap();
    assert_eq!(back, g);
}

#[test]
fn svg_parses_and_has_one_bar_per_task_and_a_legend() {
    let g = support::finished();
    let text = String::from_utf8(export::render(&g, Format::Svg).unwrap()).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("SVG is XML");
    let rects = |class: &str| {
        doc.descendants()
            .filter(|n| n.has_tag_name("rect") && n.attribute("class") == Some(class))
            .map(|n| n.attribute("data-task").unwrap_or_default().to_string())
            .collect::<Vec<_>>()
    };
    let names: Vec<String> = g.rows.iter().map(|r| r.name.clone()).collect();
    assert_eq!(rects("predicted"), names);
    assert_eq!(rects("actual"), names);
    assert_eq!(rects("lane").len(), 2);
    let legend: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("legend"))
        .flat_map(|n| n.descendants())
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(
        legend,
        [
            "predicted",
            "failed",
            "rnorm",
            "eigen",
            "prcomp",
            "lm",
            "sum"
        ]
    );
    let failed = doc
        .descendants()
        .filter(|n| n.attribute("data-status") == Some("failed"))
        .count();
    assert_eq!(failed, 1);
    // Ticks read as seconds from 0.
    assert!(
        text.contains(">0s</text>") || text.contains(">0.0s</text>"),
        "no 0 tick"
    );
}

#[test]
fn trace_has_one_complete_event_per_task_per_process_and_names_threads() {
    let g = support::finished();
    let text = String::from_utf8(export::render(&g, Format::Trace).unwrap()).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let events = v["traceEvents"].as_array().unwrap();
    for pid in [1, 2] {
        let mut names: Vec<&str> = events
            .iter()
            .filter(|e| e["ph"] == "X" && e["pid"] == pid)
            .map(|e| e["name"].as_str().unwrap())
            .collect();
        names.sort_unstable();
        assert_eq!(names, ["fit", "pcs", "spectrum", "top", "x"], "pid {pid}");
        let threads: Vec<&str> = events
            .iter()
            .filter(|e| e["ph"] == "M" && e["name"] == "thread_name" && e["pid"] == pid)
            .map(|e| e["args"]["name"].as_str().unwrap())
            .collect();
        assert_eq!(threads, ["worker 0", "worker 1"]);
        assert!(events
            .iter()
            .any(|e| e["ph"] == "M" && e["name"] == "process_name" && e["pid"] == pid));
    }
    // Microseconds: spectrum was planned to take 2 s and took 2.4 s.
    let spectrum = |pid: i64| {
        events
            .iter()
            .find(|e| e["ph"] == "X" && e["pid"] == pid && e["name"] == "spectrum")
            .unwrap()["dur"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(spectrum(1), 2_000_000.0);
    assert_eq!(spectrum(2), 2_400_000.0);
}

#[test]
fn png_decodes_with_the_expected_size_and_draws_bars() {
    let g = support::finished();
    let bytes = export::render(&g, Format::Png).unwrap();
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let layout = flowcast::export::svg::Layout::new(&g);
    // Issue 14, item 11: the SVG's picture, at twice its size.
    let scale = f64::from(flowcast::export::png::SCALE);
    assert_eq!(info.width, (layout.width * scale) as u32);
    assert_eq!(info.height, (layout.height(2) * scale).ceil() as u32);
    // The middle of spectrum's actual bar is spectrum's colour (eigen, second function).
    let canvas = flowcast::export::png::draw(&g).unwrap();
    let a = g.rows[1].actual.as_ref().unwrap();
    let x = (layout.x(a.start) + layout.x(a.end)) / 2.0 * scale;
    let band = (layout.lane - 8.0) / 2.0;
    let y = (layout.lane_y(a.worker.unwrap()) + 5.0 + band * 1.5) * scale;
    assert_eq!(
        canvas.pixel(x as u32, y as u32),
        Some(flowcast::report::palette::colour(1))
    );
    // Text is drawn from a real font: the legend's "predicted" and the
    // lane's "worker 0" (the SVG's words, not the bitmap font's "w0").
    let dark = |x0: f64, y0: f64, w: u32, h: u32| {
        (0..w)
            .flat_map(|dx| (0..h).map(move |dy| (dx, dy)))
            .filter(|&(dx, dy)| {
                canvas
                    .pixel((x0 * scale) as u32 + dx, (y0 * scale) as u32 + dy)
                    .is_some_and(|(r, g, b)| u32::from(r) + u32::from(g) + u32::from(b) < 200)
            })
            .count()
    };
    let (lx, ly) = (layout.left + 20.0, layout.legend_y(2));
    assert!(dark(lx, ly, 120, 24) > 40, "no legend text");
    let lane = layout.lane_y(0) + layout.lane / 2.0 - 8.0;
    let worker0 = dark(8.0, lane, 110, 24);
    assert!(worker0 > 40, "{worker0} text pixels");
    // Antialiased, as a rasteriser draws type: greys between ink and paper.
    let greys = canvas
        .pixels
        .chunks_exact(3)
        .filter(|p| p[0] == p[1] && p[1] == p[2] && p[0] > 40 && p[0] < 200)
        .count();
    assert!(greys > 100, "{greys}");
}

#[test]
fn mermaid_lists_every_task_in_milliseconds() {
    let g = support::finished();
    let text = String::from_utf8(export::render(&g, Format::Mermaid).unwrap()).unwrap();
    assert!(text.starts_with("gantt\n"));
    assert!(text.contains("dateFormat x"));
    let spectrum = &g.rows[1].predicted[0];
    let times = format!(
        ", {}, {}",
        (spectrum.start * 1000.0).round(),
        (spectrum.end * 1000.0).round()
    );
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("spectrum :p") && l.ends_with(&times)),
        "{text}"
    );
    // The failed task is marked critical in the actual section.
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("fit :crit, a")),
        "{text}"
    );
    assert_eq!(text.matches("section predicted").count(), 2);
}

#[test]
fn csv_has_a_row_per_block_with_error() {
    let g = support::finished();
    let text = String::from_utf8(export::render(&g, Format::Csv).unwrap()).unwrap();
    let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(lines[0].join(","), export::csv::HEADER);
    // Each of the 5 tasks: its planned block and the block it ran.
    assert_eq!(lines.len(), 1 + 2 * 5, "{text}");
    let rows = |task: &str| -> Vec<&Vec<&str>> { lines.iter().filter(|l| l[0] == task).collect() };
    let spectrum = rows("spectrum");
    assert_eq!(spectrum.len(), 2);
    assert_eq!(spectrum[0][1..4], ["eigen", "call", "plan"]);
    assert_eq!(spectrum[0][9], "planned");
    assert_eq!(spectrum[1][3], "run");
    assert_eq!(spectrum[1][9], "done");
    assert_eq!(spectrum[1][10], "20.0");
    assert_eq!(rows("fit")[1][9], "failed");
}

/// A loop's blocks as the CSV, JSON, trace and Mermaid write them.
fn loop_on_two_workers() -> Gantt {
    use flowcast::report::gantt::{Actual, Row, Slot};
    let block = |worker, start, end, iterations| Slot {
        worker,
        start,
        end,
        iterations: Some(iterations),
    };
    Gantt {
        workflow: "burn".into(),
        scheduler: "dynamic".into(),
        workers: 2,
        rows: vec![Row {
            name: "burn".into(),
            function: "spin".into(),
            kind: "loop".into(),
            predicted: vec![block(0, 0.0, 1.0, (0, 4)), block(1, 0.0, 1.0, (4, 8))],
            actual: Some(Actual {
                worker: Some(0),
                start: 0.0,
                end: 1.1,
                status: Status::Done,
                message: None,
                chunks: vec![block(0, 0.0, 1.1, (0, 5)), block(1, 0.0, 0.9, (5, 8))],
                lanes: Vec::new(),
                warnings: Vec::new(),
            }),
        }],
        predicted_makespan: 1.0,
        actual_makespan: Some(1.1),
        ..Gantt::default()
    }
}

/// Issue 14, item 12: the CSV had one row per task, so a loop that ran on
/// two workers showed one; iterations are numbered from 1 everywhere.
#[test]
fn a_loop_on_two_workers_is_a_csv_row_per_block_numbered_from_1() {
    let text =
        String::from_utf8(export::render(&loop_on_two_workers(), Format::Csv).unwrap()).unwrap();
    let runs: Vec<Vec<&str>> = text
        .lines()
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|l| l[3] == "run")
        .collect();
    assert_eq!(runs.len(), 2, "{text}");
    // worker, first_iteration, last_iteration
    assert_eq!([runs[0][4], runs[0][7], runs[0][8]], ["0", "1", "5"]);
    assert_eq!([runs[1][4], runs[1][7], runs[1][8]], ["1", "6", "8"]);
}

#[test]
fn json_numbers_iterations_from_1_and_reads_charts_stored_before() {
    let g = loop_on_two_workers();
    let text = String::from_utf8(export::render(&g, Format::Json).unwrap()).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let chunk = &doc["rows"][0]["actual"]["chunks"][1];
    assert_eq!(
        chunk["iterations"],
        serde_json::json!({"first": 6, "last": 8})
    );
    let planned = &doc["rows"][0]["predicted"][0];
    assert_eq!(
        planned["iterations"],
        serde_json::json!({"first": 1, "last": 4})
    );
    let back: Gantt = serde_json::from_str(&text).unwrap();
    assert_eq!(back, g);
    // Stored before: the 0-based half-open pair.
    let mut old = doc.clone();
    let row = &mut old["rows"][0];
    row["predicted"][0]["iterations"] = serde_json::json!([0, 4]);
    row["predicted"][1]["iterations"] = serde_json::json!([4, 8]);
    row["actual"]["chunks"][0]["iterations"] = serde_json::json!([0, 5]);
    row["actual"]["chunks"][1]["iterations"] = serde_json::json!([5, 8]);
    let back: Gantt = serde_json::from_value(old).unwrap();
    assert_eq!(back, g);
}

#[test]
fn trace_and_mermaid_number_iterations_from_1() {
    let g = loop_on_two_workers();
    let trace = String::from_utf8(export::render(&g, Format::Trace).unwrap()).unwrap();
    assert!(trace.contains("\"6..8\""), "{trace}");
    let mermaid = String::from_utf8(export::render(&g, Format::Mermaid).unwrap()).unwrap();
    assert!(mermaid.contains("burn [6..8]"), "{mermaid}");
}

#[test]
fn formats_by_name_and_extension() {
    use std::path::Path;
    assert_eq!(Format::parse("SVG"), Some(Format::Svg));
    assert_eq!(Format::parse("perfetto"), Some(Format::Trace));
    assert_eq!(
        Format::from_path(Path::new("a/run.trace.json")),
        Some(Format::Trace)
    );
    assert_eq!(
        Format::from_path(Path::new("run.mmd")),
        Some(Format::Mermaid)
    );
    assert_eq!(
        Format::from_path(Path::new("run.gantt.json")),
        Some(Format::Json)
    );
    assert_eq!(Format::from_path(Path::new("run.txt")), None);
}

#[test]
fn export_to_a_missing_directory_is_an_error_not_a_panic() {
    let g = support::finished();
    // A directory of our own, so no path left on the machine can exist.
    let dir = tempfile::tempdir().expect("temp dir");
    let err = export::export(&g, Format::Svg, &dir.path().join("missing/dir/x.svg")).unwrap_err();
    assert!(err.contains("cannot write"), "{err}");
}

#[test]
fn axis_ticks_are_round_numbers() {
    use flowcast::report::axis;
    assert_eq!(axis::tick_step(10.0, 10), 1.0);
    assert_eq!(axis::tick_step(7.3, 10), 1.0);
    assert_eq!(axis::tick_step(0.37, 10), 0.05);
    assert_eq!(axis::ticks(0.0, 2.0, 0.5), [0.0, 0.5, 1.0, 1.5, 2.0]);
    assert_eq!(axis::label(1.5, 0.5), "1.5s");
    assert_eq!(axis::label(150.0, 30.0), "2m30s");
}

#[test]
fn record_runs_and_charts_a_workflow() {
    let wf = flowcast::workflow::Workflow {
        file: flowcast::diagnostic::SourceFile::new("empty.toml", ""),
        name: "empty".into(),
        seed: None,
        processors: None,
        scheduler: None,
        m: None,
        out: None,
        steps: Vec::new(),
        functions: Vec::new(),
    };
    let graph = flowcast::graph::TaskGraph { tasks: Vec::new() };
    let g = flowcast::cli::chart::record(&wf, &graph, &[], 2, flowcast::sched::Scheduler::Emcp, 1)
        .unwrap();
    assert_eq!(g.workflow, "empty");
    assert_eq!(g.workers, 2);
    assert!(g.actual_makespan.is_some());
    // Every format still writes an empty chart.
    for f in Format::ALL {
        export::render(&g, f).unwrap();
    }
}

/// A re-plan is marked on the chart, and the predicted bars stay the
/// forecast made before the run: a re-plan covers only what had not
/// started, so drawn over the forecast it double-booked workers.
#[test]
fn a_replan_is_marked_and_keeps_the_forecast() {
    let mut g = support::planned();
    let before: Vec<_> = g.rows.iter().map(|r| r.predicted.clone()).collect();
    let makespan = g.predicted_makespan;
    let moved = flowcast::sched::Schedule {
        workers: 2,
        items: vec![flowcast::sched::Item {
            node: 0,
            iterations: None,
            worker: 1,
            start: 5.0,
            end: 6.0,
            lanes: Vec::new(),
        }],
    };
    g.apply(&flowcast::exec::Event::Replanned {
        at: std::time::Duration::from_millis(300),
        schedule: moved,
    });
    assert_eq!(g.replans, vec![0.3]);
    let after: Vec<_> = g.rows.iter().map(|r| r.predicted.clone()).collect();
    assert_eq!(after, before);
    assert_eq!(g.predicted_makespan, makespan);
}

/// Issue 14, item 8: failed and cancelled bars have legend entries of
/// their own, functions past the distinct colours a pattern, and no swatch
/// stands for nothing ("actual" was a grey box no bar used).
#[test]
fn the_legend_names_what_the_bars_show() {
    use flowcast::report::palette::DISTINCT;
    let mut g = support::many(DISTINCT + 3, 2, 0.1);
    for (i, r) in g.rows.iter_mut().enumerate() {
        r.function = format!("f{i}");
    }
    g.rows[0].actual.as_mut().unwrap().status = Status::Cancelled;
    g.rows[1].actual.as_mut().unwrap().status = Status::Failed;
    let text = String::from_utf8(export::render(&g, Format::Svg).unwrap()).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("SVG is XML");
    let legend: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("legend"))
        .flat_map(|n| n.descendants())
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(&legend[..3], ["predicted", "failed", "cancelled"]);
    assert!(!legend.contains(&"actual"));
    assert_eq!(legend.len(), 3 + DISTINCT + 3);
    // The three functions past the distinct colours: patterned in the
    // legend and on their bars.
    let patterned = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("pattern"))
        .count();
    assert_eq!(patterned, 2 * 3);
    // A finished run without failures has neither entry.
    let plain =
        String::from_utf8(export::render(&support::many(3, 2, 0.1), Format::Svg).unwrap()).unwrap();
    assert!(!plain.contains(">failed<") && !plain.contains(">cancelled<"));
    // The PNG draws the same legend: the chart is taller by its rows.
    let png = flowcast::export::png::draw(&g).unwrap();
    let layout = flowcast::export::svg::Layout::new(&g);
    let scale = f64::from(flowcast::export::png::SCALE);
    assert_eq!(png.height, (layout.height(2) * scale).ceil() as u32);
    assert_eq!(layout.legend_rows, (3 + DISTINCT + 3usize).div_ceil(5));
}
