//! The app's state machine: each action's effect on the state and the
//! effects it asks for, without a terminal or a thread.

use crate::support;

use std::path::PathBuf;
use std::time::Duration;

use flowcast::exec::{Event, RunReport, StepOutcome};
use flowcast::sched::Scheduler;
use flowcast::tui::{Action, App, Effect, RunState, View};
use flowcast::watch::Changed;

fn running() -> App {
    let mut a = App::new("demo", Scheduler::Emcp, 2);
    a.update(Action::RunPlanned {
        run: 1,
        gantt: support::planned(),
    });
    a
}

#[test]
fn keys_that_change_the_plan_ask_for_a_rerun() {
    let mut a = running();
    assert_eq!(a.update(Action::CycleScheduler), [Effect::Rerun]);
    assert_eq!(a.scheduler, Scheduler::Mcp);
    assert_eq!(a.update(Action::MoreWorkers), [Effect::Rerun]);
    assert_eq!(a.workers, 3);
    a.update(Action::FewerWorkers);
    a.update(Action::FewerWorkers);
    assert_eq!(a.workers, 1);
    // Already at one worker: nothing to rerun.
    assert!(a.update(Action::FewerWorkers).is_empty());
    assert_eq!(a.workers, 1);
}

#[test]
fn scheduler_cycles_through_all() {
    let mut a = running();
    let mut seen = vec![a.scheduler];
    for _ in 0..Scheduler::ALL.len() {
        a.update(Action::CycleScheduler);
        seen.push(a.scheduler);
    }
    assert_eq!(seen.first(), seen.last());
    seen.pop();
    seen.sort_by_key(|s| s.name());
    seen.dedup();
    assert_eq!(seen.len(), Scheduler::ALL.len());
}

#[test]
fn events_of_an_old_run_are_ignored() {
    let mut a = running();
    a.update(Action::RunPlanned {
        run: 2,
        gantt: support::planned(),
    });
    a.update(Action::RunEvent {
        run: 1,
        event: Event::Started {
            task: 0,
            worker: 0,
            at: Duration::ZERO,
        },
    });
    assert!(a.gantt.rows[0].actual.is_none());
    a.update(Action::RunEvent {
        run: 2,
        event: Event::Started {
            task: 0,
            worker: 1,
            at: Duration::ZERO,
        },
    });
    assert_eq!(a.gantt.rows[0].actual.as_ref().unwrap().worker, Some(1));
}

#[test]
fn a_failed_run_records_history_and_the_error() {
    let mut a = running();
    a.update(Action::RunFinished {
        run: 1,
        result: Err("cannot start 2 workers".into()),
        failure: None,
    });
    assert_eq!(a.state, RunState::Failed);
    assert_eq!(a.error.as_deref(), Some("cannot start 2 workers"));
    assert_eq!(a.history.len(), 1);
    assert_eq!(a.history[0].state, "failed");
    // Once recorded, the run is known by its history id, the one
    // `flowcast export --run` takes; a stale id is ignored.
    a.update(Action::Stored { run: 1, id: 41 });
    assert_eq!((a.stored, a.history[0].run), (Some(41), 41));
    a.update(Action::Stored { run: 0, id: 7 });
    assert_eq!(a.stored, Some(41));
    // A stale finish does not touch the state.
    a.update(Action::RunPlanned {
        run: 2,
        gantt: support::planned(),
    });
    a.update(Action::RunFinished {
        run: 1,
        result: Err("old".into()),
        failure: None,
    });
    assert_eq!(a.state, RunState::Running);
}

#[test]
fn file_changes_reload_only_while_watching() {
    let mut a = running();
    let change = || {
        Action::FileChanged(Changed {
            paths: vec![PathBuf::from("/w/fig1.toml")],
        })
    };
    assert!(a.update(change()).is_empty());
    assert_eq!(a.update(Action::ToggleWatch), [Effect::Watch(true)]);
    assert_eq!(a.update(change()), [Effect::Reload]);
    assert_eq!(a.message.as_deref(), Some("changed: fig1.toml"));
    // A bad save keeps the last good workflow and shows why.
    assert!(a
        .update(Action::Reloaded(Err("error: object `y` not found".into())))
        .is_empty());
    assert_eq!(a.error.as_deref(), Some("error: object `y` not found"));
    // A good one clears the error and reruns.
    assert_eq!(
        a.update(Action::Reloaded(Ok("fig1".into()))),
        [Effect::Rerun]
    );
    assert_eq!(a.error, None);
    assert_eq!(a.update(Action::ToggleWatch), [Effect::Watch(false)]);
}

#[test]
fn zoom_and_pan_stay_inside_the_run() {
    let mut a = running();
    a.state = RunState::Done;
    let h = a.horizon();
    assert_eq!(a.window(), (0.0, h));
    a.update(Action::ZoomIn);
    let (from, to) = a.window();
    assert!((to - from - h / 2.0).abs() < 1e-9);
    for _ in 0..100 {
        a.update(Action::PanRight);
    }
    let (_, to) = a.window();
    assert!((to - h).abs() < 1e-9, "panned past the end");
    for _ in 0..100 {
        a.update(Action::PanLeft);
    }
    assert_eq!(a.window().0, 0.0);
    for _ in 0..10 {
        a.update(Action::ZoomOut);
    }
    assert_eq!(a.window(), (0.0, h));
}

/// Issue 14, item 4: with watch off, a saved edit was not seen by `r`,
/// which reran the copy loaded before. `r` reads the file, then reruns.
#[test]
fn r_reloads_the_workflow_from_disk_and_then_reruns() {
    let mut a = running();
    assert!(!a.watching);
    // `r` reads the file again and runs every step (issue 15).
    assert_eq!(a.update(Action::Rerun), [Effect::Force, Effect::Reload]);
    assert_eq!(
        a.update(Action::Reloaded(Ok("demo".into()))),
        [Effect::Rerun]
    );
    // An invalid file keeps the last good workflow and says so.
    assert!(a.update(Action::Reloaded(Err("bad".into()))).is_empty());
    assert_eq!(a.error.as_deref(), Some("bad"));
}

/// Issue 14, item 10: twenty presses of ← moved 0.08 s; one press moves a
/// tenth of what is shown, whatever the zoom.
#[test]
fn a_pan_moves_a_tenth_of_the_view() {
    let mut a = running();
    a.state = RunState::Done;
    let h = a.horizon();
    for zoom in 1..=3 {
        a.update(Action::ZoomIn);
        let (from, to) = a.window();
        let width = to - from;
        assert!((width - h / f64::from(1 << zoom)).abs() < 1e-9);
        a.update(Action::PanLeft);
        a.update(Action::PanLeft);
        let (from, _) = a.window();
        a.update(Action::PanRight);
        let (moved, _) = a.window();
        assert!((moved - from - width * 0.1).abs() < 1e-9, "zoom {zoom}");
    }
}

#[test]
fn fit_shows_the_whole_run() {
    let mut a = running();
    a.state = RunState::Done;
    let h = a.horizon();
    for _ in 0..5 {
        a.update(Action::ZoomIn);
    }
    a.update(Action::PanRight);
    assert_ne!(a.window(), (0.0, h));
    a.update(Action::Fit);
    assert_eq!(a.window(), (0.0, h));
}

#[test]
fn zoom_keeps_the_selected_task_in_view() {
    let mut a = running();
    a.gantt = support::finished();
    a.state = RunState::Done;
    // The last task ends the run: zooming about the middle would lose it.
    let last = a.gantt.rows.len() - 1;
    for _ in 0..=last {
        a.update(Action::SelectNext);
    }
    assert_eq!(a.selected, Some(last));
    let bar = a.gantt.rows[last].actual.clone().unwrap();
    let centre = (bar.start + bar.end) / 2.0;
    for _ in 0..4 {
        a.update(Action::ZoomIn);
        let (from, to) = a.window();
        assert!(from <= centre && centre <= to, "{from}..{to} lost {centre}");
    }
}

#[test]
fn the_help_scrolls_on_a_short_screen_and_not_past_its_end() {
    let mut a = running();
    a.update(Action::Resize(40, 12));
    a.update(Action::ToggleHelp);
    let selected = a.selected;
    for _ in 0..100 {
        a.update(Action::SelectNext);
    }
    // Scrolling the help does not move the selection under it.
    assert_eq!(a.selected, selected);
    let most = a.help_offset;
    assert!(most > 0);
    a.update(Action::LanesDown);
    assert_eq!(a.help_offset, most);
    a.update(Action::LanesUp);
    a.update(Action::SelectPrev);
    assert!(a.help_offset < most);
    // Reopened, it starts at the top.
    a.update(Action::ToggleHelp);
    a.update(Action::ToggleHelp);
    assert_eq!(a.help_offset, 0);
}

#[test]
fn selection_stays_on_a_task() {
    let mut a = running();
    assert_eq!(a.selected, None);
    a.update(Action::SelectPrev);
    assert_eq!(a.selected, Some(0));
    for _ in 0..20 {
        a.update(Action::SelectNext);
    }
    assert_eq!(a.selected, Some(a.gantt.rows.len() - 1));
    a.update(Action::Back);
    assert_eq!(a.selected, None);
}

#[test]
fn views_cycle_both_ways_and_help_toggles() {
    let mut a = running();
    a.update(Action::PrevView);
    assert_eq!(a.view, View::History);
    a.update(Action::NextView);
    assert_eq!(a.view, View::Gantt);
    a.update(Action::ToggleHelp);
    assert!(a.help);
    a.update(Action::Back);
    assert!(!a.help);
    a.update(Action::Quit);
    assert!(a.quit);
}

#[test]
fn export_reports_where_it_wrote() {
    let mut a = running();
    assert_eq!(a.update(Action::Export), [Effect::Export]);
    a.update(Action::Exported(Ok(vec![PathBuf::from("demo-run1.svg")])));
    assert_eq!(a.message.as_deref(), Some("exported demo-run1.svg"));
}

/// A finished run of the support graph's five steps, the first
/// `reused` of them taken from the cache.
fn finished(run: usize, reused: usize) -> Action {
    let outcomes = (0..5)
        .map(|i| {
            let value = std::sync::Arc::new(flowcast::kernels::Value::Num(vec![1.0]));
            if i < reused {
                return StepOutcome::reused(value, Vec::new());
            }
            StepOutcome {
                value: Ok(value),
                worker: Some(0),
                start: Duration::from_millis(i as u64),
                end: Duration::from_millis(i as u64 + 1),
                busy: Duration::from_millis(1),
                path: None,
                blocks: Vec::new(),
                reused: false,
                warnings: Vec::new(),
                lanes: Vec::new(),
            }
        })
        .collect();
    Action::RunFinished {
        run,
        result: Ok(RunReport {
            outcomes,
            makespan: Duration::from_millis(5),
            workers: 2,
            seed: 1,
            cancelled: false,
            streams: Vec::new(),
        }),
        failure: None,
    }
}

#[test]
fn the_cached_count_is_about_the_last_run_only() {
    let mut a = running();
    a.update(finished(1, 3));
    assert_eq!(
        a.message.as_deref(),
        Some("2 ran, 3 cached (unchanged); r re-runs everything")
    );
    // `r` runs everything: the footer must not still say steps were cached.
    a.update(Action::RunPlanned {
        run: 2,
        gantt: support::planned(),
    });
    a.update(finished(2, 0));
    assert_eq!(a.message, None);
    // A message of the user's own doing stays through a run's finish.
    a.update(Action::Exported(Ok(vec![PathBuf::from("demo-run2.svg")])));
    a.update(Action::RunPlanned {
        run: 3,
        gantt: support::planned(),
    });
    a.update(finished(3, 0));
    assert_eq!(a.message.as_deref(), Some("exported demo-run2.svg"));
}

#[test]
fn every_footer_and_help_key_maps_to_an_action() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use flowcast::tui::keys;
    for c in [
        'r', 's', 'p', 'P', 'e', 'w', '?', 'q', '+', '-', '0', 'j', 'k', 'h', 'l',
    ] {
        let k = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        assert!(keys::key(&k).is_some(), "{c}");
    }
    for code in [
        KeyCode::Tab,
        KeyCode::BackTab,
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Esc,
    ] {
        assert!(
            keys::key(&KeyEvent::new(code, KeyModifiers::NONE)).is_some(),
            "{code:?}"
        );
    }
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(matches!(keys::key(&ctrl_c), Some(Action::Interrupt)));
}

#[test]
fn a_watch_that_cannot_start_is_switched_off() {
    let mut a = running();
    a.update(Action::ToggleWatch);
    assert!(a.watching);
    a.update(Action::WatchFailed("cannot watch /gone: not found".into()));
    assert!(!a.watching);
    assert_eq!(a.message.as_deref(), Some("cannot watch /gone: not found"));
}

/// Issue 14, item 14: Ctrl-C quits with status 130, as shells expect; `q`
/// with 0.
#[test]
fn ctrl_c_quits_with_status_130() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    let action = flowcast::tui::keys::key(&ctrl_c).expect("Ctrl-C is a key");
    let mut a = running();
    a.update(action);
    assert!(a.quit);
    assert_eq!(a.exit_code(), 130);
    let mut a = running();
    a.update(Action::Quit);
    assert!(a.quit);
    assert_eq!(a.exit_code(), 0);
}
