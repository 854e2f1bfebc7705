//! Widgets rendered into a bare buffer and compared cell by cell (symbols;
//! colours are checked where they carry meaning), plus areas too small to
//! hold anything.

use crate::support;

use flowcast::report::gantt::Status;
use flowcast::sched::Scheduler;
use flowcast::tui::footer::Footer;
use flowcast::tui::gantt::{GanttChart, Geometry, Lanes};
use flowcast::tui::header::Header;
use flowcast::tui::{App, RunState};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

fn app() -> App {
    let mut app = App::new("demo", Scheduler::Mcp, 2);
    app.gantt = support::finished();
    app.run = 3;
    app.state = RunState::Failed;
    app
}

/// The rendered symbols only, so expectations can be written as text.
fn symbols(buf: &Buffer) -> Buffer {
    let mut plain = Buffer::empty(buf.area);
    for (dst, src) in plain.content.iter_mut().zip(&buf.content) {
        dst.set_symbol(src.symbol());
    }
    plain
}

fn render(w: impl Widget, width: u16, height: u16) -> Buffer {
    let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
    w.render(buf.area, &mut buf);
    buf
}

#[test]
fn header_shows_plan_state_and_makespans() {
    let mut a = app();
    a.stored = Some(57);
    let buf = render(Header(&a), 60, 2);
    let expected = Buffer::with_lines([
        " demo mcp p=2 run 3 (#57) failed",
        " predicted 3.00s  actual 3.60s",
    ]);
    assert_eq!(symbols(&buf), symbols(&expected_sized(expected, 60, 2)));
}

#[test]
fn header_of_a_file_that_never_loaded_names_no_run_and_no_prediction() {
    let mut a = App::new("bad", Scheduler::Emcp, 2);
    a.state = RunState::Invalid;
    a.error = Some("error: unexpected end of expression\n  --> bad.toml:2:9 (step `a`)".into());
    let buf = render(Header(&a), 60, 3);
    let expected = Buffer::with_lines([
        " bad emcp p=2 invalid",
        "",
        " bad.toml:2:9 (step `a`): unexpected end of expression",
    ]);
    assert_eq!(symbols(&buf), symbols(&expected_sized(expected, 60, 3)));
    // Quitting then exits as `flowcast run` does on an invalid workflow.
    assert_eq!(a.exit_code(), 2);
}

/// `Buffer::with_lines` sizes to the longest line; pad to the widget's area.
fn expected_sized(b: Buffer, width: u16, height: u16) -> Buffer {
    let mut out = Buffer::empty(Rect::new(0, 0, width, height));
    out.merge(&b);
    out
}

#[test]
fn header_while_running_shows_elapsed_and_eta() {
    use flowcast::exec::Event;
    use std::time::Duration;
    let mut a = app();
    a.gantt = support::planned();
    a.state = RunState::Running;
    // x took 0.6 s; spectrum has run 0.4 s of its planned 2 s. w1 has not
    // started pcs (1.5 s) and fit (1 s): they end 2.5 s from now.
    for e in [
        Event::Started {
            task: 0,
            worker: 0,
            at: Duration::ZERO,
        },
        Event::Finished {
            task: 0,
            worker: 0,
            at: Duration::from_secs_f64(0.6),
        },
        Event::Started {
            task: 1,
            worker: 0,
            at: Duration::from_secs_f64(0.6),
        },
    ] {
        a.gantt.apply(&e);
    }
    a.now = 1.0;
    a.watching = true;
    let buf = render(Header(&a), 60, 2);
    let expected = Buffer::with_lines([
        " demo mcp p=2 run 3 running · watching",
        " predicted 3.00s  elapsed 1.00s  ETA 2.50s",
    ]);
    assert_eq!(symbols(&buf), symbols(&expected_sized(expected, 60, 2)));
    // Narrower: whole fields go, the least useful first.
    let buf = render(Header(&a), 30, 2);
    let expected = Buffer::with_lines([" demo mcp p=2 run 3 running", " elapsed 1.00s  ETA 2.50s"]);
    assert_eq!(symbols(&buf), symbols(&expected_sized(expected, 30, 2)));
}

#[test]
fn footer_lists_the_keys() {
    let a = app();
    let buf = render(Footer(&a), 80, 1);
    let expected = Buffer::with_lines([
        " r rerun s scheduler p/P workers e export w watch Tab view ? help q quit",
    ]);
    assert_eq!(symbols(&buf), symbols(&expected_sized(expected, 80, 1)));
}

#[test]
fn gantt_draws_predicted_above_actual_per_worker() {
    let a = app();
    let buf = render(GanttChart(&a), 34, 6);
    let lines: Vec<String> = (0..6)
        .map(|y| (0..34).map(|x| buf[(x, y)].symbol().to_string()).collect())
        .collect();
    // Legend, then lane 0 (predicted, actual), lane 1, then the axis.
    assert!(lines[0].starts_with("░ predicted █ actual"), "{lines:#?}");
    assert!(lines[1].starts_with("w0 ░"), "{lines:#?}");
    // The actual line is unlabelled and starts with x's bar.
    assert!(lines[2].starts_with("   █"), "{lines:#?}");
    // Where two bars meet in a cell, the cell takes the bigger one's colour
    // rather than the "many tasks" shade.
    assert!(!lines[2].contains('▒'), "{lines:#?}");
    assert!(lines[3].starts_with("w1 "), "{lines:#?}");
    assert!(lines[5].starts_with("   ╵0s"), "{lines:#?}");
    // x runs first on worker 0: the first cell of its actual bar has
    // rnorm's colour (function 0).
    assert_eq!(buf[(3, 2)].fg, flowcast::tui::theme::function(0));
    // The run took 20% longer than planned, so predicted bars end before
    // the actual ones: the last predicted cell of lane 0 is left of the
    // last actual one.
    let last = |y: usize, c: char| {
        lines[y]
            .chars()
            .collect::<Vec<_>>()
            .iter()
            .rposition(|&x| x == c)
            .unwrap()
    };
    assert!(last(1, '░') < last(2, '█'), "{lines:#?}");
}

#[test]
fn selected_task_is_highlighted() {
    use flowcast::tui::theme::HIGHLIGHT;
    let mut a = app();
    a.selected = Some(1); // spectrum
    let buf = render(GanttChart(&a), 34, 6);
    let highlighted = buf.content.iter().filter(|c| c.fg == HIGHLIGHT).count();
    assert!(highlighted > 0);
    a.selected = None;
    let buf = render(GanttChart(&a), 34, 6);
    assert!(buf.content.iter().all(|c| c.fg != HIGHLIGHT));
}

#[test]
fn now_line_while_running() {
    let mut a = app();
    a.state = RunState::Running;
    for r in &mut a.gantt.rows {
        r.actual = None;
    }
    a.gantt.actual_makespan = None;
    a.now = a.gantt.predicted_makespan / 2.0;
    let buf = render(GanttChart(&a), 34, 6);
    let col: Vec<u16> = (0..34).filter(|&x| buf[(x, 2)].symbol() == "│").collect();
    assert_eq!(col.len(), 1, "one now line");
    // Halfway along the 31-column plot.
    assert_eq!(col[0], 3 + 15);
}

#[test]
fn a_running_task_extends_to_now() {
    let mut a = app();
    a.state = RunState::Running;
    let row = &mut a.gantt.rows[1];
    row.actual.as_mut().unwrap().status = Status::Running;
    let end_before = row.actual.as_ref().unwrap().end;
    a.now = end_before + 0.5;
    let wide = render(GanttChart(&a), 60, 6);
    a.now = end_before;
    let narrow = render(GanttChart(&a), 60, 6);
    let filled = |b: &Buffer| b.content.iter().filter(|c| c.symbol() != " ").count();
    assert!(filled(&wide) > filled(&narrow));
}

#[test]
fn thousands_of_tasks_aggregate_per_cell_with_bounded_work() {
    let mut a = App::new("many", Scheduler::Emcp, 4);
    a.gantt = support::many(5_000, 4, 0.001);
    a.state = RunState::Done;
    let area = Rect::new(0, 0, 100, 12);
    let geo = Geometry::new(&a, area).expect("room for the chart");
    let lanes = Lanes::new(&a, &geo);
    // Every bar is narrower than a cell: each costs at most the two cells
    // it straddles, whatever the number of tasks per cell.
    let bars = 2 * 5_000;
    assert!(lanes.visits <= 2 * bars, "{} visits", lanes.visits);
    assert!(lanes.width() < 100);
    let buf = render(GanttChart(&a), 100, 12);
    // Cells hold many tasks each: drawn as aggregates, not as bars.
    assert!(buf.content.iter().any(|c| c.symbol() == "▒"));
    // Twice the tasks over the same time: no more cells drawn.
    let drawn = |b: &Buffer| b.content.iter().filter(|c| c.symbol() != " ").count();
    let mut b2 = a.clone();
    b2.gantt = support::many(10_000, 4, 0.0005);
    let buf2 = render(GanttChart(&b2), 100, 12);
    assert!(
        drawn(&buf2) <= drawn(&buf) + 4,
        "{} vs {}",
        drawn(&buf2),
        drawn(&buf)
    );
}

#[test]
fn a_loops_blocks_are_drawn_on_their_workers() {
    let mut a = App::new("loop", Scheduler::Emcp, 2);
    a.gantt = support::looped();
    a.state = RunState::Done;
    let buf = render(GanttChart(&a), 60, 8);
    let line = |y: u16| -> String { (0..60).map(|x| buf[(x, y)].symbol().to_string()).collect() };
    // Legend, then per lane: predicted, actual (x3 rows per lane with 6 rows).
    let text: Vec<String> = (0..8).map(line).collect();
    let w0 = text.iter().position(|l| l.starts_with("w0")).unwrap();
    let w1 = text.iter().position(|l| l.starts_with("w1")).unwrap();
    // The loop ran half on each worker: both actual lines have its bar.
    assert!(text[w0 + 1].contains("scores"), "{text:#?}");
    assert!(text[w1 + 1].contains("scores"), "{text:#?}");
}

#[test]
fn tiny_areas_do_not_panic() {
    let a = app();
    for (w, h) in [
        (0, 0),
        (1, 1),
        (2, 1),
        (3, 2),
        (4, 1),
        (5, 3),
        (20, 5),
        (7, 40),
    ] {
        let _ = render(GanttChart(&a), w, h);
        let _ = render(Header(&a), w, h);
        let _ = render(Footer(&a), w, h);
        let _ = render(&a, w, h);
        let mut help = a.clone();
        help.help = true;
        let _ = render(&help, w, h);
    }
}

#[test]
fn a_loops_unreported_blocks_show_as_running_on_their_workers() {
    use flowcast::exec::Event;
    use std::time::Duration;
    let mut a = App::new("loop", Scheduler::Emcp, 2);
    let mut g = support::looped();
    let workers: Vec<usize> = g.rows[1].predicted.iter().map(|s| s.worker).collect();
    assert!(workers.contains(&0) && workers.contains(&1), "{workers:?}");
    // The loop has started and no block has ended yet.
    g.rows[1].actual = None;
    g.actual_makespan = None;
    g.apply(&Event::Started {
        task: 1,
        worker: 0,
        at: Duration::from_secs_f64(0.5),
    });
    a.gantt = g;
    a.state = RunState::Running;
    a.now = 1.2;
    let buf = render(GanttChart(&a), 60, 8);
    let line = |y: u16| -> String { (0..60).map(|x| buf[(x, y)].symbol().to_string()).collect() };
    let text: Vec<String> = (0..8).map(line).collect();
    let w1 = text.iter().position(|l| l.starts_with("w1")).unwrap();
    // w1's actual line shows its block running, though not reported yet.
    assert!(text[w1 + 1].contains('█'), "{text:#?}");
    // Before the loop started, nothing runs there.
    a.now = 0.4;
    a.gantt.rows[1].actual = None;
    let buf = render(GanttChart(&a), 60, 8);
    let w1_line: String = (0..60)
        .map(|x| buf[(x, (w1 + 1) as u16)].symbol().to_string())
        .collect();
    assert!(!w1_line.contains('█'), "{w1_line}");
}

#[test]
fn a_legend_too_long_for_the_screen_counts_what_it_leaves_out() {
    let mut a = app();
    a.gantt = support::many(12, 2, 1.0);
    for (i, r) in a.gantt.rows.iter_mut().enumerate() {
        r.function = format!("function_{i}");
    }
    let buf = render(GanttChart(&a), 60, 6);
    let legend: String = (0..60).map(|x| buf[(x, 0)].symbol().to_string()).collect();
    let legend = legend.trim_end();
    // "░ predicted █ actual " is 21 cells and each entry 3 + 10 more: two
    // whole entries fit beside the count of the other ten.
    assert!(legend.ends_with(" ■ function_1 +10 more"), "{legend:?}");
    // Wide enough for all, there is no count.
    let buf = render(GanttChart(&a), 200, 6);
    let legend: String = (0..200).map(|x| buf[(x, 0)].symbol().to_string()).collect();
    assert!(legend.trim_end().ends_with(" ■ function_11"), "{legend:?}");
}

/// A run that re-planned: the chart marks the moment in the lanes and the
/// legend says what the mark means; a run that did not shows neither.
#[test]
fn gantt_marks_each_replan() {
    let mut a = app();
    let plain = render(GanttChart(&a), 80, 8);
    let text =
        |buf: &Buffer| -> String { buf.content.iter().map(|c| c.symbol().to_string()).collect() };
    assert!(!text(&plain).contains('┆'));
    assert!(!text(&plain).contains("re-planned"));
    a.gantt.replans.push(1.0);
    let marked = render(GanttChart(&a), 80, 8);
    assert!(text(&marked).contains("re-planned"), "{}", text(&marked));
    let marks = marked.content.iter().filter(|c| c.symbol() == "┆").count();
    assert!(marks >= 2, "{marks} marks");
}

/// A task that raised warnings is marked `!` in the task table, and the
/// selected task's line under the chart shows the first warning's text.
#[test]
fn warnings_are_marked_in_the_table_and_shown_for_the_selected_task() {
    use flowcast::tui::table::TaskTable;
    let mut a = app();
    a.state = RunState::Done;
    let row = 1;
    if let Some(actual) = a.gantt.rows[row].actual.as_mut() {
        actual.status = Status::Done;
        actual.message = None;
        actual.warnings = vec!["In sqrt(x) : NaNs produced".into()];
    }
    let text = |buf: &Buffer| {
        let w = buf.area.width as usize;
        let cells: Vec<&str> = buf.content.iter().map(|c| c.symbol()).collect();
        cells
            .chunks(w)
            .map(|l| l.concat())
            .collect::<Vec<String>>()
            .join("\n")
    };
    let table = text(&render(TaskTable(&a), 80, 6));
    let marked: Vec<&str> = table.lines().filter(|l| l.contains("done !")).collect();
    assert_eq!(marked.len(), 1, "{table}");
    assert!(marked[0].contains(&a.gantt.rows[row].name), "{table}");
    a.selected = Some(row);
    let chart = text(&render(GanttChart(&a), 120, 14));
    assert!(
        chart.contains("! warning: In sqrt(x) : NaNs produced"),
        "{chart}"
    );
}

#[test]
fn a_call_held_narrow_to_measure_its_speedup_says_so_when_selected() {
    let mut a = app();
    let name = a.gantt.rows[1].name.clone();
    a.gantt.measuring = vec![name.clone()];
    a.selected = Some(1);
    let chart = text(&render(GanttChart(&a), 160, 14));
    let line = chart.lines().find(|l| l.contains('▶')).expect("the ▶ line");
    assert!(line.contains(&name), "{chart}");
    assert!(
        line.contains("on one worker this run, to measure its speedup"),
        "{chart}"
    );
    a.selected = Some(0);
    let chart = text(&render(GanttChart(&a), 160, 14));
    assert!(!chart.contains("to measure its speedup"), "{chart}");
}

/// The buffer's symbols as lines of text.
fn text(buf: &Buffer) -> String {
    let w = buf.area.width as usize;
    let cells: Vec<&str> = buf.content.iter().map(|c| c.symbol()).collect();
    cells
        .chunks(w)
        .map(|l| l.concat())
        .collect::<Vec<String>>()
        .join("\n")
}

/// The table line of the step named `name`.
fn line_of<'a>(table: &'a str, name: &str) -> &'a str {
    table
        .lines()
        .find(|l| l.starts_with(&format!("{name} ")))
        .unwrap_or_else(|| panic!("no row {name}:\n{table}"))
}

/// A task that ran on more workers than the column can list keeps those
/// that fit and counts the rest: cut by the table, seven workers read as
/// two (`249,393`), which is not where it ran.
#[test]
fn a_task_on_more_workers_than_the_column_lists_counts_the_rest() {
    use flowcast::tui::table::TaskTable;
    let mut a = app();
    let spread = |a: &mut App, row: usize, first: usize, rest: &[usize]| {
        let actual = a.gantt.rows[row].actual.as_mut().unwrap();
        actual.worker = Some(first);
        actual.lanes = rest.to_vec();
    };
    spread(&mut a, 1, 249, &[393, 582, 677, 687, 870, 906]);
    spread(&mut a, 2, 10, &[11, 12]);
    spread(&mut a, 3, 0, &[1]);
    let table = text(&render(TaskTable(&a), 80, 6));
    let cells = |name: &str| -> Vec<String> {
        line_of(&table, name)
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    assert_eq!(cells("spectrum")[2..4], ["249", "+6"], "{table}");
    assert_eq!(cells("pcs")[2..4], ["10", "+2"], "{table}");
    // What fits is listed whole.
    assert_eq!(cells("fit")[2], "0,1", "{table}");
}

/// The history's p column holds any p a run can have.
#[test]
fn history_shows_every_digit_of_p() {
    use flowcast::tui::history::History;
    use flowcast::tui::HistoryRow;
    let mut a = app();
    a.history = vec![HistoryRow {
        run: 7,
        scheduler: "emcp".into(),
        workers: 1000,
        predicted: 0.25,
        actual: Some(1.42),
        state: "done".into(),
    }];
    let view = text(&render(History(&a), 70, 3));
    let row: Vec<&str> = view.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!(row[..3], ["#7", "emcp", "1000"], "{view}");
}

/// A legend with no room for its functions gives their count whole, or
/// nothing: never cut to `+12 m`.
#[test]
fn a_legend_count_is_whole_or_left_out() {
    let mut a = app();
    a.gantt = support::many(12, 2, 1.0);
    a.gantt.replans.push(1.0);
    for (i, r) in a.gantt.rows.iter_mut().enumerate() {
        r.function = format!("function_{i}");
    }
    let legend = |width: u16| -> String {
        let buf = render(GanttChart(&a), width, 6);
        let line: String = (0..width)
            .map(|x| buf[(x, 0)].symbol().to_string())
            .collect();
        line.trim_end().to_string()
    };
    // "░ predicted █ actual ┆ re-planned " is 34 cells.
    assert_eq!(legend(40), "░ predicted █ actual ┆ re-planned");
    assert_eq!(legend(43), "░ predicted █ actual ┆ re-planned  +12 more");
}

/// Before its first plan a run has predicted nothing: the header does not
/// say `predicted 0s`.
#[test]
fn header_while_planning_claims_no_prediction() {
    let mut a = App::new("demo", Scheduler::Emcp, 2);
    a.update(flowcast::tui::Action::Planning { run: 1 });
    let buf = render(Header(&a), 60, 2);
    let expected = Buffer::with_lines([" demo emcp p=2 run 1 planning", ""]);
    assert_eq!(symbols(&buf), symbols(&expected_sized(expected, 60, 2)));
}

/// With few runs the sparkline is no wider than they need, so an 80-column
/// screen shows a model's whole name (`hclust<dist>[average]`, not
/// `hclust<dist>[a`).
#[test]
fn models_keep_their_names_whole_at_80_columns() {
    use flowcast::tui::models::Models;
    use flowcast::tui::ModelRow;
    let mut a = app();
    a.models = vec![ModelRow {
        function: "hclust<dist>[average]".into(),
        observations: 1,
        mean_error_percent: Some(223.0),
        model: "loglinear".into(),
        errors: vec![2.23],
    }];
    let view = text(&render(Models(&a), 80, 3));
    let row: Vec<&str> = view.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!(
        row[..3],
        ["hclust<dist>[average]", "loglinear", "1"],
        "{view}"
    );
}

/// A step that failed quickly beside a long one on the same worker shares
/// its cell: the cell is marked failed, not drawn as the long step's done
/// bar, so the chart shows what failed at any zoom.
#[test]
fn a_short_failed_step_shows_in_a_shared_cell() {
    let mut a = app();
    a.gantt = support::many(2, 1, 1.0);
    let spans = [(0.0, 0.999, Status::Done), (0.999, 1.0, Status::Failed)];
    for (r, (start, end, status)) in a.gantt.rows.iter_mut().zip(spans) {
        r.predicted[0].start = start;
        r.predicted[0].end = end;
        let actual = r.actual.as_mut().unwrap();
        (actual.start, actual.end, actual.status) = (start, end, status);
    }
    a.gantt.predicted_makespan = 1.0;
    a.gantt.actual_makespan = Some(1.0);
    // 21 cells of plot: the last holds 98% of t0 and 2% of t1.
    let buf = render(GanttChart(&a), 24, 6);
    let lanes = text(&buf);
    let run_line = lanes.lines().nth(2).unwrap();
    assert!(run_line.trim_end().ends_with('╳'), "{lanes}");
    assert_eq!(run_line.matches('╳').count(), 1, "{lanes}");
}
