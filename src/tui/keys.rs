//! Terminal input to [`Action`]s: the only place that knows the key map.

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};

use super::app::Action;

pub fn action(event: &Event) -> Option<Action> {
    match event {
        Event::Key(k) if k.kind != KeyEventKind::Release => key(k),
        Event::Resize(w, h) => Some(Action::Resize(*w, *h)),
        Event::Mouse(m) => {
            let shift = m.modifiers.contains(KeyModifiers::SHIFT);
            let (x, y) = (m.column, m.row);
            let scroll = |up: bool, pan: bool| Some(Action::Scroll { x, y, up, pan });
            match m.kind {
                MouseEventKind::Down(MouseButton::Left) => Some(Action::Click(x, y)),
                MouseEventKind::ScrollUp => scroll(true, shift),
                MouseEventKind::ScrollDown => scroll(false, shift),
                MouseEventKind::ScrollLeft => scroll(true, true),
                MouseEventKind::ScrollRight => scroll(false, true),
                _ => None,
            }
        }
        _ => None,
    }
}

pub fn key(k: &KeyEvent) -> Option<Action> {
    if k.modifiers.contains(KeyModifiers::CONTROL) {
        return matches!(k.code, KeyCode::Char('c')).then_some(Action::Interrupt);
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
        KeyCode::Char('0') => Action::Fit,
        KeyCode::Left | KeyCode::Char('h') => Action::PanLeft,
        KeyCode::Right | KeyCode::Char('l') => Action::PanRight,
        KeyCode::Down | KeyCode::Char('j') => Action::SelectNext,
        KeyCode::Up | KeyCode::Char('k') => Action::SelectPrev,
        KeyCode::PageUp => Action::LanesUp,
        KeyCode::PageDown => Action::LanesDown,
        KeyCode::Esc => Action::Back,
        _ => return None,
    })
}
