//! The writers of a run's [`Gantt`] chart: SVG, PNG, Chrome trace JSON
//! (Perfetto), Mermaid gantt and CSV, and a past run's chart read back from
//! the history. The chart itself lives in [`crate::report::gantt`], below
//! this module, because the TUI draws it too and must not depend on a
//! sibling; nothing here knows about the terminal.

pub mod csv;
pub mod mermaid;
pub mod png;
pub mod stored;
pub mod svg;
pub mod trace;

use std::path::Path;

use crate::report::gantt::Gantt;

/// An export format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
    /// Chrome trace event JSON, for Perfetto or `chrome://tracing`.
    Trace,
    Mermaid,
    Csv,
    /// The [`Gantt`] itself as JSON, to export again later.
    Json,
}

impl Format {
    pub const ALL: [Format; 6] = [
        Format::Svg,
        Format::Png,
        Format::Trace,
        Format::Mermaid,
        Format::Csv,
        Format::Json,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Format::Svg => "svg",
            Format::Png => "png",
            Format::Trace => "trace",
            Format::Mermaid => "mermaid",
            Format::Csv => "csv",
            Format::Json => "json",
        }
    }

    /// The file extension written by default.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Svg => "svg",
            Format::Png => "png",
            Format::Trace => "trace.json",
            Format::Mermaid => "mmd",
            Format::Csv => "csv",
            Format::Json => "gantt.json",
        }
    }

    /// A format by name (`svg`, `png`, `trace`, `mermaid`, `csv`, `json`).
    pub fn parse(s: &str) -> Option<Format> {
        let s = s.to_ascii_lowercase();
        match s.as_str() {
            "chrome" | "perfetto" => Some(Format::Trace),
            "mmd" => Some(Format::Mermaid),
            _ => Format::ALL.into_iter().find(|f| f.name() == s),
        }
    }

    /// The format a path's extension asks for.
    pub fn from_path(path: &Path) -> Option<Format> {
        let name = path.file_name()?.to_str()?.to_ascii_lowercase();
        if name.ends_with(".trace.json") {
            return Some(Format::Trace);
        }
        if name.ends_with(".gantt.json") {
            return Some(Format::Json);
        }
        Format::parse(path.extension()?.to_str()?)
    }
}

/// The chart in `format`, as bytes.
pub fn render(g: &Gantt, format: Format) -> Result<Vec<u8>, String> {
    Ok(match format {
        Format::Svg => svg::render(g).into_bytes(),
        Format::Png => png::render(g)?,
        Format::Trace => trace::render(g).into_bytes(),
        Format::Mermaid => mermaid::render(g).into_bytes(),
        Format::Csv => csv::render(g).into_bytes(),
        Format::Json => serde_json::to_vec_pretty(g).map_err(|e| e.to_string())?,
    })
}

/// Writes the chart in `format` to `path`.
pub fn export(g: &Gantt, format: Format, path: &Path) -> Result<(), String> {
    let bytes = render(g, format)?;
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Reads a chart written with [`Format::Json`].
pub fn load(path: &Path) -> Result<Gantt, String> {
    let text = crate::regular_file::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Gantt::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))
}
