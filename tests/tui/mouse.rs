//! The mouse and the lanes: a click selects the bar (or table row) under
//! it, the wheel zooms about the pointer and pans with Shift, lanes scroll
//! when there are more workers than rows, and the history store's rows
//! replace the views' rows.

use crate::support;

use flowcast::sched::Scheduler;
use flowcast::tui::{Action, App, HistoryRow, ModelRow, RunState, View};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

fn done() -> App {
    let mut a = App::new("demo", Scheduler::Mcp, 2);
    a.update(Action::Resize(80, 20));
    a.update(Action::RunPlanned {
        run: 1,
        gantt: support::finished(),
    });
    a.state = RunState::Done;
    a
}

fn screen(a: &App) -> Buffer {
    let area = Rect::new(0, 0, a.size.0, a.size.1);
    let mut buf = Buffer::empty(area);
    a.render(area, &mut buf);
    buf
}

/// Where `text` starts on screen.
fn find(buf: &Buffer, text: &str) -> Option<(u16, u16)> {
    let w = buf.area.width;
    for y in 0..buf.area.height {
        let line: String = (0..w).map(|x| buf[(x, y)].symbol().to_string()).collect();
        if let Some(i) = line.find(text) {
            let col = line[..i].chars().count() as u16;
            return Some((col, y));
        }
    }
    None
}

#[test]
fn clicking_a_bar_selects_its_task() {
    let mut a = done();
    let buf = screen(&a);
    let (x, y) = find(&buf, "spectrum").expect("the bar is labelled");
    a.update(Action::Click(x + 2, y));
    assert_eq!(a.selected, Some(1));
    let (x, y) = find(&buf, "pcs").expect("the bar is labelled");
    a.update(Action::Click(x, y));
    assert_eq!(a.selected, Some(2));
    // The tabs line is not the chart: the selection stays.
    a.update(Action::Click(3, 3));
    assert_eq!(a.selected, Some(2));
}

#[test]
fn clicking_the_predicted_line_selects_the_planned_task() {
    let mut a = done();
    let buf = screen(&a);
    let (_, y) = find(&buf, "spectrum").unwrap();
    // The predicted line is the row above the actual bars; spectrum is
    // planned first on w0 after x, so the middle of w0's plan is spectrum.
    let (x0, _) = find(&buf, "w0").unwrap();
    a.update(Action::Click(x0 + 30, y - 1));
    assert_eq!(a.selected, Some(1));
}

#[test]
fn clicking_a_table_row_selects_it() {
    let mut a = done();
    a.update(Action::NextView);
    assert_eq!(a.view, View::Table);
    let buf = screen(&a);
    let (_, y) = find(&buf, "fit ").expect("the row is shown");
    a.update(Action::Click(2, y));
    assert_eq!(a.selected, Some(3));
}

#[test]
fn the_wheel_zooms_about_the_pointer_and_pans_with_shift() {
    let mut a = done();
    let buf = screen(&a);
    let (x, y) = find(&buf, "pcs").unwrap();
    let (from, to) = a.window();
    let t = |a: &App, x: u16| {
        // The time under column x, from the chart's own geometry.
        let (f, t) = a.window();
        let label = 3.0;
        f + (f64::from(x) - label + 0.5) / (80.0 - label) * (t - f)
    };
    let before = t(&a, x);
    a.update(Action::Scroll {
        x,
        y,
        up: true,
        pan: false,
    });
    assert_eq!(a.zoom, 2.0);
    let (f2, t2) = a.window();
    assert!((t2 - f2 - (to - from) / 2.0).abs() < 1e-9);
    assert!(
        (t(&a, x) - before).abs() < 1e-9,
        "the time under the pointer stays"
    );
    a.update(Action::Scroll {
        x,
        y,
        up: false,
        pan: true,
    });
    let (f3, _) = a.window();
    assert!(f3 > f2, "Shift-wheel down pans right");
    a.update(Action::Scroll {
        x,
        y,
        up: false,
        pan: false,
    });
    assert_eq!(a.zoom, 1.0);
    assert_eq!(a.window(), (from, to));
}

#[test]
fn lanes_scroll_when_workers_do_not_fit() {
    let mut a = App::new("many", Scheduler::Emcp, 16);
    a.update(Action::Resize(60, 14));
    a.update(Action::RunPlanned {
        run: 1,
        gantt: support::many(200, 16, 0.01),
    });
    let buf = screen(&a);
    assert!(find(&buf, "w0 ").is_some());
    assert!(find(&buf, "w15").is_none());
    a.update(Action::LanesDown);
    a.update(Action::LanesDown);
    a.update(Action::LanesDown);
    a.update(Action::LanesDown);
    let buf = screen(&a);
    assert!(find(&buf, "w15").is_some(), "the last lane can be reached");
    assert!(find(&buf, "w0 ").is_none());
    a.update(Action::LanesUp);
    a.update(Action::LanesUp);
    a.update(Action::LanesUp);
    a.update(Action::LanesUp);
    assert_eq!(a.lane_offset, 0);
    // Selecting a task on a hidden lane scrolls to it: task 15 runs on w15.
    for _ in 0..16 {
        a.update(Action::SelectNext);
    }
    assert_eq!(a.selected, Some(15));
    let buf = screen(&a);
    assert!(find(&buf, "w15").is_some());
}

#[test]
fn the_wheel_over_the_lane_names_scrolls_lanes() {
    let mut a = App::new("many", Scheduler::Emcp, 16);
    a.update(Action::Resize(60, 14));
    a.update(Action::RunPlanned {
        run: 1,
        gantt: support::many(200, 16, 0.01),
    });
    let (x, y) = find(&screen(&a), "w1 ").unwrap();
    a.update(Action::Scroll {
        x,
        y,
        up: false,
        pan: false,
    });
    assert!(a.lane_offset > 0);
    assert_eq!(a.zoom, 1.0);
}

#[test]
fn rows_from_the_store_replace_the_views_rows() {
    let mut a = done();
    a.update(Action::RunFinished {
        run: 1,
        result: Err("boom".into()),
        failure: None,
    });
    assert_eq!(a.history.len(), 1);
    let history = vec![HistoryRow {
        run: 41,
        scheduler: "emcp".into(),
        workers: 2,
        predicted: 1.0,
        actual: Some(1.5),
        state: "done".into(),
    }];
    let models = vec![ModelRow {
        function: "eigen".into(),
        observations: 3,
        mean_error_percent: Some(10.0),
        model: "loglinear".into(),
        errors: vec![0.5, 0.1],
    }];
    a.update(Action::Store {
        history: history.clone(),
        models: models.clone(),
    });
    assert_eq!(a.history, history);
    assert_eq!(a.models, models);
    a.view = View::Models;
    let buf = screen(&a);
    assert!(find(&buf, "▅▂").is_some(), "the error sparkline is drawn");
    assert!(find(&buf, "+10%").is_some(), "the last error");
}
