//! Terminal input to [`Action`]s: the only place that knows the key map.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEventKind};

use super::app::Action;

pub fn action(event: &Event) -> Option<Action> {
    match event {
        Event::Key(k) if k.kind != KeyEventKind::Release => key(k),
        Event::Resize(w, h) => Some(Action::Resize(*w, *h)),
        Event::Mouse(m) => match m.kind {
            MouseEventKind::ScrollUp => Some(Action::SelectPrev),
            MouseEventKind::ScrollDown => Some(Action::SelectNext),
            _ => None,
        },
        _ => None,
    }
}

pub fn key(k: &KeyEvent) -> Option<Action> {
    if k.modifiers.contains(KeyModifiers::CONTROL) {
        return matches!(k.code, KeyCode::Char('c')).then_some(Action::Quit);
    }
    Some(match k.code {
        KeyCode::Char('q') => Action::Quit,
        KeyCode::Char('r') => Action::Rerun,
        KeyCode::Char('s') => Action::CycleScheduler,
        KeyCode::Char('p') => Action::FewerWorkers,
        KeyCode::Char('P') => Action::MoreWorkers,
        KeyCode::Char('e') => Action::Export,
        KeyCode::Char('w') => Action::ToggleWatch,
        KeyCode::Tab => Action::NextView,
        KeyCode::BackTab => Action::PrevView,
        KeyCode::Char('?') => Action::ToggleHelp,
        KeyCode::Char('+' | '=') => Action::ZoomIn,
        KeyCode::Char('-') => Action::ZoomOut,
        KeyCode::Left | KeyCode::Char('h') => Action::PanLeft,
        KeyCode::Right | KeyCode::Char('l') => Action::PanRight,
        KeyCode::Down | KeyCode::Char('j') => Action::SelectNext,
        KeyCode::Up | KeyCode::Char('k') => Action::SelectPrev,
        KeyCode::Esc => Action::Back,
        _ => return None,
    })
}
