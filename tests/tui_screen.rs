//! Whole screens on a `TestBackend`, snapshot-tested with insta (run with
//! `INSTA_UPDATE=no` in CI: a changed screen fails until reviewed).

#[path = "tui_support/mod.rs"]
mod support;

use flowcast::sched::Scheduler;
use flowcast::tui::{Action, App, HistoryRow, ModelRow, RunState};
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
            actual: None,
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
    spectrum.status = flowcast::export::Status::Running;
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
    for (w, h) in [(1, 1), (20, 5), (5, 20), (2, 2)] {
        let _ = screen(&a, w, h);
        let mut help = a.clone();
        help.help = true;
        let _ = screen(&help, w, h);
        let mut table = a.clone();
        table.update(Action::NextView);
        let _ = screen(&table, w, h);
    }
}
