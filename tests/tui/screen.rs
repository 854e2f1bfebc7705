//! Whole screens on a `TestBackend`, snapshot-tested with insta (run with
//! `INSTA_UPDATE=no` in CI: a changed screen fails until reviewed).

use crate::support;

use flowcast::sched::Scheduler;
use flowcast::tui::{Action, App, ErrorFrom, HistoryRow, ModelRow, RunState};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn app() -> App {
    let mut app = App::new("demo", Scheduler::Mcp, 2);
    app.gantt = support::finished();
    app.run = 1;
    app.state = RunState::Failed;
    app.error = Some("step `fit`: singular fit".into());
    app
}

fn screen(app: &App, width: u16, height: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(width, height)).unwrap();
    t.draw(|f| f.render_widget(app, f.area())).unwrap();
    t.backend().to_string()
}

#[test]
fn gantt_view() {
    insta::assert_snapshot!(screen(&app(), 80, 16));
}

#[test]
fn gantt_view_with_a_selected_task() {
    let mut a = app();
    a.update(Action::SelectNext);
    a.update(Action::SelectNext);
    a.update(Action::SelectNext);
    a.update(Action::SelectNext);
    insta::assert_snapshot!(screen(&a, 80, 16));
}

#[test]
fn gantt_view_zoomed_and_panned() {
    let mut a = app();
    a.update(Action::ZoomIn);
    a.update(Action::PanRight);
    insta::assert_snapshot!(screen(&a, 80, 16));
}

#[test]
fn task_table_with_selection() {
    let mut a = app();
    a.update(Action::NextView);
    a.update(Action::SelectNext);
    a.update(Action::SelectNext);
    insta::assert_snapshot!(screen(&a, 80, 14));
}

#[test]
fn models_view_empty_and_filled() {
    let mut a = app();
    a.update(Action::NextView);
    a.update(Action::NextView);
    insta::assert_snapshot!("models_empty", screen(&a, 60, 8));
    a.models = vec![
        ModelRow {
            function: "eigen".into(),
            observations: 12,
            mean_error_percent: Some(8.5),
            model: "ann".into(),
            errors: vec![0.5, -0.3, 0.1, 0.05, -0.02],
        },
        ModelRow {
            function: "lm".into(),
            observations: 0,
            mean_error_percent: None,
            model: "untrained".into(),
            errors: Vec::new(),
        },
    ];
    insta::assert_snapshot!("models_filled", screen(&a, 60, 8));
}

#[test]
fn history_view_lists_runs_newest_first() {
    let mut a = app();
    a.history = vec![
        HistoryRow {
            run: 1,
            scheduler: "emcp".into(),
            workers: 2,
            predicted: 3.0,
            actual: Some(3.3),
            state: "done".into(),
        },
        HistoryRow {
            run: 2,
            scheduler: "mcp".into(),
            workers: 4,
            predicted: 2.0,
            // Stopped short of the plan: no prediction error to show.
            actual: Some(0.5),
            state: "cancelled".into(),
        },
    ];
    a.update(Action::PrevView);
    insta::assert_snapshot!(screen(&a, 70, 8));
}

#[test]
fn help_overlay() {
    let mut a = app();
    a.update(Action::ToggleHelp);
    insta::assert_snapshot!(screen(&a, 80, 24));
}

#[test]
fn running_with_now_line_and_message() {
    let mut a = app();
    a.state = RunState::Running;
    a.error = None;
    a.message = Some("exported demo-run1.svg".into());
    // x has finished, spectrum is running, the rest wait.
    let spectrum = a.gantt.rows[1].actual.as_mut().unwrap();
    spectrum.status = flowcast::report::gantt::Status::Running;
    spectrum.end = spectrum.start;
    for r in &mut a.gantt.rows[2..] {
        r.actual = None;
    }
    a.gantt.actual_makespan = None;
    a.now = 1.2;
    insta::assert_snapshot!(screen(&a, 80, 16));
}

#[test]
fn many_workers_in_a_short_terminal() {
    let mut a = App::new("many", Scheduler::Emcp, 16);
    a.gantt = support::many(2_000, 16, 0.01);
    a.state = RunState::Done;
    insta::assert_snapshot!(screen(&a, 60, 12));
}

#[test]
fn tiny_terminals_do_not_panic() {
    let a = app();
    for (w, h) in [(1, 1), (20, 5), (5, 20), (2, 2), (40, 12), (3, 1), (1, 3)] {
        let _ = screen(&a, w, h);
        let mut help = a.clone();
        help.help = true;
        let _ = screen(&help, w, h);
        let mut table = a.clone();
        table.update(Action::NextView);
        let _ = screen(&table, w, h);
        for _ in 0..2 {
            table.update(Action::NextView);
            let _ = screen(&table, w, h);
        }
        let mut running = a.clone();
        running.state = RunState::Running;
        running.message = Some("a message".into());
        running.update(Action::Resize(w, h));
        running.update(Action::ToggleHelp);
        running.update(Action::LanesDown);
        let _ = screen(&running, w, h);
    }
}

/// Issue 14, item 9: 80x24 is the first-class size.
#[test]
fn first_class_size_80x24() {
    let mut a = app();
    insta::assert_snapshot!("gantt_80x24", screen(&a, 80, 24));
    a.update(Action::NextView);
    insta::assert_snapshot!("tasks_80x24", screen(&a, 80, 24));
}

/// Issue 14, item 9: at 40x12 the numbers go before the step, function
/// and status columns, the header drops whole fields, and the footer keeps
/// help and quit.
#[test]
fn a_40x12_terminal_keeps_what_names_a_task() {
    let mut a = app();
    a.state = RunState::Running;
    a.error = None;
    let spectrum = a.gantt.rows[1].actual.as_mut().unwrap();
    spectrum.status = flowcast::report::gantt::Status::Running;
    spectrum.end = spectrum.start;
    for r in &mut a.gantt.rows[2..] {
        r.actual = None;
    }
    a.gantt.actual_makespan = None;
    a.now = 1.0;
    insta::assert_snapshot!("gantt_40x12", screen(&a, 40, 12));
    a.update(Action::NextView);
    let s = screen(&a, 40, 12);
    insta::assert_snapshot!("tasks_40x12", s);
    let lines: Vec<&str> = s.lines().collect();
    let header = lines.iter().find(|l| l.contains("step")).unwrap();
    for column in ["step", "function", "status"] {
        assert!(header.contains(column), "{column} dropped: {header}");
    }
    assert!(!header.contains("error"), "{header}");
    // Whole fields or none: no "ETA 2" for "ETA 2.60s".
    assert!(!lines[1].contains("predicted"), "{}", lines[1]);
    assert!(lines[1].contains("elapsed 1.00s"), "{}", lines[1]);
    assert!(s.contains("? help") && s.contains("q quit"), "{s}");
}

/// Issue 14, item 9: "q quit" was clipped off the help box.
#[test]
fn the_help_shows_quit_at_any_size_and_scrolls() {
    for (w, h) in [(80, 24), (40, 12), (30, 8)] {
        let mut a = app();
        a.update(Action::Resize(w, h));
        a.update(Action::ToggleHelp);
        let s = screen(&a, w, h);
        assert!(s.contains("quit"), "{w}x{h}:\n{s}");
    }
    let mut a = app();
    a.update(Action::Resize(40, 12));
    a.update(Action::ToggleHelp);
    insta::assert_snapshot!("help_40x12", screen(&a, 40, 12));
    for _ in 0..100 {
        a.update(Action::SelectNext);
    }
    let s = screen(&a, 40, 12);
    assert!(s.contains("several tasks in one cell"), "{s}");
    assert!(s.contains("↑↓"), "{s}");
}

/// The error box says whose error it is: a failed run's chart is that run,
/// a file that did not load leaves the last good chart, or none.
#[test]
fn the_error_box_says_what_failed_and_what_the_chart_shows() {
    let multi = "error: boom\n  --> wf.toml:7:29 (step `b`)".to_string();
    let title = |a: &App| {
        let s = screen(a, 100, 40);
        [
            "the run failed",
            "the workflow is invalid: showing the last good one",
            "the workflow is invalid ",
        ]
        .into_iter()
        .filter(|t| s.contains(t))
        .collect::<Vec<_>>()
    };
    let mut a = app();
    a.set_error(ErrorFrom::Run, multi.clone());
    assert_eq!(title(&a), ["the run failed"]);
    a.set_error(ErrorFrom::Load, multi.clone());
    assert_eq!(
        title(&a),
        ["the workflow is invalid: showing the last good one"]
    );
    let mut fresh = App::new("demo", Scheduler::Mcp, 2);
    fresh.set_error(ErrorFrom::Load, multi);
    assert_eq!(title(&fresh), ["the workflow is invalid "]);
}

/// A file with several errors: the diagnostics are longer than the screen
/// leaves, and no box was drawn at all, so the header's one line (cut at
/// the screen's edge) was all a user could read. The box now shows the
/// first lines whole, and says how many more there are.
#[test]
fn diagnostics_longer_than_the_screen_are_shown_in_part() {
    let one = |k: usize| {
        format!(
            "error: invalid step name: `s{k}` is not a syntactic R name (use letters, digits)\n  \
             --> wf.toml:{k}:1 (step `s{k}`)\n  |\n{k} | s{k} = \"1\"\n  | ^^\n"
        )
    };
    let errors: String = (1..=6).map(one).collect::<Vec<_>>().join("\n") + "\n6 errors in wf.toml";
    let lines = errors.lines().count();
    let mut a = App::new("demo", Scheduler::Mcp, 2);
    a.state = RunState::Invalid;
    a.set_error(ErrorFrom::Load, errors);
    let s = screen(&a, 100, 24);
    assert!(s.contains("the workflow is invalid "), "{s}");
    assert!(
        s.contains("invalid step name: `s1` is not a syntactic R name (use letters, digits)"),
        "{s}"
    );
    assert!(s.contains("--> wf.toml:1:1 (step `s1`)"), "{s}");
    // 24 rows: 3 of header, the tabs, 6 of view, the footer; the box's
    // frame leaves 11 rows, the last of them the count of the rest.
    let more = format!("… {} more lines", lines - 10);
    assert!(s.contains(&more), "{more:?} in\n{s}");
    assert!(!s.contains("6 errors in wf.toml"), "{s}");
}

/// On a narrow screen the task table cut names silently: `clusters` showed
/// as `cluster` and `spectrum` as `spectru`, which read as the names of
/// other steps. A name that does not fit its column ends in `…` now.
#[test]
fn names_cut_to_a_narrow_table_say_so() {
    let mut a = app();
    a.gantt.rows[0].name = "clusters_of_the_trial".into();
    a.gantt.rows[0].function = "kmeans_by_hand".into();
    a.update(Action::NextView);
    let s = screen(&a, 60, 10);
    let row = s
        .lines()
        .find(|l| l.contains("cluste"))
        .unwrap_or_else(|| panic!("a row for the step in\n{s}"));
    // The step's column is 7 cells here, the function's 7.
    assert!(row.contains("cluste… kmeans… "), "{row:?}\n{s}");
    assert!(s.contains("spectr… eigen "), "{s}");
    assert!(s.contains("step    functi… workers"), "{s}");
    // Names that fit are whole.
    assert!(s.contains("pcs     prcomp "), "{s}");
}
