//! The chart as SVG: a lane per worker, a time axis with readable ticks,
//! predicted bars as outlines above actual bars drawn solid, colours by
//! function, a legend, and labels where they fit.

use std::fmt::Write;

use crate::report::gantt::{Gantt, Status};
use crate::report::{axis, palette, units};

/// The chart's geometry in SVG units (the PNG is this picture rasterised).
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub width: f64,
    pub left: f64,
    pub right: f64,
    pub top: f64,
    pub lane: f64,
    pub axis: f64,
    pub legend_row: f64,
    pub legend_rows: usize,
    pub span: f64,
}

/// What a legend entry stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swatch {
    /// A planned bar: an outline.
    Predicted,
    /// A failed task's bar: a red outline.
    Failed,
    /// A cancelled task's bar: faded, with a dashed outline.
    Cancelled,
    /// Bars of the function with this palette index.
    Function(usize),
}

/// The legend, shared by the SVG and the PNG: the plan's outline, failed
/// and cancelled bars when the run has any, then a swatch per function.
/// Actual bars are drawn in their function's colour, so they need none.
pub fn legend(g: &Gantt) -> Vec<(Swatch, String)> {
    let mut items = vec![(Swatch::Predicted, "predicted".to_string())];
    for (status, swatch) in [
        (Status::Failed, Swatch::Failed),
        (Status::Cancelled, Swatch::Cancelled),
    ] {
        if g.rows.iter().any(|r| r.status() == status) {
            items.push((swatch, status.as_str().to_string()));
        }
    }
    for (i, f) in g.functions().iter().enumerate() {
        items.push((Swatch::Function(i), clip(f, LEGEND_CHARS)));
    }
    items
}

/// The most of a function's name the legend shows. A chart read back may
/// name a function with 100,000 characters, whose text resvg took 25 s
/// to lay out for a PNG; a bar's tooltip still names it in full.
const LEGEND_CHARS: usize = 60;
/// The most of the workflow's name the title shows.
const TITLE_CHARS: usize = 200;

/// `text` cut to `n` characters, the last of them `…` when cut.
fn clip(text: &str, n: usize) -> String {
    if text.chars().count() <= n {
        text.to_string()
    } else {
        text.chars().take(n.saturating_sub(1)).collect::<String>() + "…"
    }
}

/// The stroke that marks a failed bar.
pub const FAILED: (u8, u8, u8) = (208, 0, 0);
/// The outline of a cancelled bar.
pub const CANCELLED: (u8, u8, u8) = (110, 110, 110);

impl Layout {
    pub fn new(g: &Gantt) -> Layout {
        let legend_items = legend(g).len();
        let per_row = 5;
        Layout {
            width: 1000.0,
            left: 80.0,
            right: 20.0,
            top: 40.0,
            lane: 44.0,
            axis: 30.0,
            legend_row: 22.0,
            // A line more names the steps taken from the cache.
            legend_rows: legend_items.div_ceil(per_row) + usize::from(!g.cached().is_empty()),
            span: g.horizon().max(1e-9),
        }
    }

    pub fn height(&self, workers: usize) -> f64 {
        self.top
            + self.lane * workers.max(1) as f64
            + self.axis
            + self.legend_row * self.legend_rows as f64
            + 10.0
    }

    pub fn x(&self, t: f64) -> f64 {
        self.left + (self.width - self.left - self.right) * (t / self.span).clamp(0.0, 1.0)
    }

    /// Top of the predicted band of a lane (the actual band sits below it).
    pub fn lane_y(&self, worker: usize) -> f64 {
        self.top + self.lane * worker as f64
    }

    pub fn legend_y(&self, workers: usize) -> f64 {
        self.top + self.lane * workers.max(1) as f64 + self.axis
    }
}

/// `s` as SVG text. XML 1.0 allows no control character but tab and line
/// breaks, nor U+FFFE and U+FFFF (a workflow named `"a\u001b"`, or a
/// step's error quoting one, made an SVG no reader opens, and the PNG
/// failed on it), so those are spelt out as the terminal shows them.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' | '\n' | '\r' => out.push(c),
            '\u{fffe}' | '\u{ffff}' => out.extend(c.escape_unicode()),
            c => crate::printable::push_printable(&mut out, c),
        }
    }
    out
}

pub fn render(g: &Gantt) -> String {
    let l = Layout::new(g);
    let workers = g.workers.max(1);
    let h = l.height(workers);
    let functions = g.functions();
    let index = |f: &str| functions.iter().position(|x| *x == f).unwrap_or(0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11">"#,
        w = l.width
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    // Functions past the palette's distinct colours share a colour; a
    // pattern over their bars tells them apart.
    let _ = writeln!(
        s,
        r##"<defs><pattern id="hatched" width="6" height="6" patternUnits="userSpaceOnUse"><path d="M0,6 L6,0" stroke="#fff" stroke-width="1.5"/></pattern><pattern id="crossed" width="6" height="6" patternUnits="userSpaceOnUse"><path d="M0,6 L6,0 M0,0 L6,6" stroke="#fff" stroke-width="1.2"/></pattern><pattern id="dotted" width="5" height="5" patternUnits="userSpaceOnUse"><circle cx="2.5" cy="2.5" r="1.1" fill="#fff"/></pattern></defs>"##
    );
    let actual = g
        .actual_makespan
        .map(|a| format!(", actual {}", units::seconds(a)))
        .unwrap_or_default();
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" font-size="14" font-weight="bold">{} — {} on {} workers: predicted {}{}</text>"#,
        l.left,
        // Bounded as the legend's names are: a title of 100,000
        // characters took resvg 21 s.
        esc(&clip(&g.workflow, TITLE_CHARS)),
        esc(&clip(&g.scheduler, LEGEND_CHARS)),
        workers,
        units::seconds(g.predicted_makespan),
        actual
    );
    // Lanes.
    for w in 0..workers {
        let y = l.lane_y(w);
        let fill = if w % 2 == 0 { "#f4f4f4" } else { "#ffffff" };
        let _ = writeln!(
            s,
            r#"<rect class="lane" x="{}" y="{y}" width="{}" height="{}" fill="{fill}"/><text x="8" y="{}">worker {w}</text>"#,
            l.left,
            l.width - l.left - l.right,
            l.lane,
            y + l.lane / 2.0 + 4.0
        );
    }
    // Axis and grid.
    let step = axis::tick_step(l.span, 10);
    let axis_y = l.lane_y(workers);
    let _ = writeln!(
        s,
        r##"<g class="axis"><line x1="{}" y1="{axis_y}" x2="{}" y2="{axis_y}" stroke="#333"/>"##,
        l.left,
        l.width - l.right
    );
    for t in axis::ticks(0.0, l.span, step) {
        let x = l.x(t);
        let _ = writeln!(
            s,
            r##"<line x1="{x:.1}" y1="{}" x2="{x:.1}" y2="{}" stroke="#ccc"/><text x="{x:.1}" y="{}" text-anchor="middle">{}</text>"##,
            l.top,
            axis_y + 4.0,
            axis_y + 16.0,
            axis::label(t, step)
        );
    }
    let _ = writeln!(s, "</g>");
    // Bars: predicted outlines in the upper band, actual solid in the lower.
    let band = (l.lane - 8.0) / 2.0;
    let _ = writeln!(s, r#"<g class="bars">"#);
    for r in &g.rows {
        let f = index(&r.function);
        let c = palette::hex(f);
        for slot in &r.predicted {
            let (x0, x1) = (l.x(slot.start), l.x(slot.end));
            let y = l.lane_y(slot.worker) + 3.0;
            let what = match slot.iterations {
                Some((a, b)) => format!("{} [{}..{}]", r.name, a + 1, b),
                None => r.name.clone(),
            };
            let _ = writeln!(
                s,
                r#"<rect class="predicted" data-task="{n}" x="{x0:.1}" y="{y:.1}" width="{:.1}" height="{band:.1}" fill="{c}" fill-opacity="0.15" stroke="{c}" stroke-width="1.5"><title>{t}: predicted {}–{} ({})</title></rect>"#,
                (x1 - x0).max(1.0),
                units::seconds(slot.start),
                units::seconds(slot.end),
                esc(&r.function),
                n = esc(&r.name),
                t = esc(&what),
            );
            label(&mut s, &what, x0, x1, y + band / 2.0 + 4.0, "#333");
        }
        let Some(a) = &r.actual else { continue };
        for bar in r.actual_bars() {
            let (x0, x1) = (l.x(bar.start), l.x(bar.end));
            let y = l.lane_y(bar.worker) + 5.0 + band;
            let stroke = match a.status {
                Status::Failed => format!(r#" stroke="{}" stroke-width="2""#, rgb(FAILED)),
                Status::Cancelled => format!(
                    r#" fill-opacity="0.45" stroke="{}" stroke-width="1.5" stroke-dasharray="3 2""#,
                    rgb(CANCELLED)
                ),
                _ => String::new(),
            };
            let what = match bar.iterations {
                Some((i, j)) => format!("{} [{}..{}]", r.name, i + 1, j),
                None => r.name.clone(),
            };
            let _ = writeln!(
                s,
                r#"<rect class="actual" data-task="{n}" data-status="{st}" x="{x0:.1}" y="{y:.1}" width="{:.1}" height="{band:.1}" fill="{c}"{stroke}><title>{t}: {st} {}–{} ({})</title></rect>"#,
                (x1 - x0).max(1.0),
                units::seconds(bar.start),
                units::seconds(bar.end),
                esc(&r.function),
                n = esc(&r.name),
                t = esc(&what),
                st = a.status.as_str(),
            );
            overlay(&mut s, f, x0, y, (x1 - x0).max(1.0), band);
            let ink = rgb(palette::text_on(f));
            label(&mut s, &what, x0, x1, y + band / 2.0 + 4.0, &ink);
        }
    }
    let _ = writeln!(s, "</g>");
    // Each re-plan: a dashed line across the lanes.
    for &t in &g.replans {
        let x = l.x(t);
        let _ = writeln!(
            s,
            r##"<line class="replan" x1="{x:.1}" y1="{}" x2="{x:.1}" y2="{axis_y}" stroke="#e07000" stroke-width="1.5" stroke-dasharray="4 3"><title>re-planned at {}</title></line>"##,
            l.top,
            units::seconds(t)
        );
    }
    // Under MPI, each value that crossed ranks: a dark line along the foot
    // of the lane of the worker it went to or came from, while it moved.
    for t in &g.transfers {
        let (x0, x1) = (l.x(t.start), l.x(t.end));
        let y = l.lane_y(t.worker) + l.lane - 2.0;
        let _ = writeln!(
            s,
            r##"<line class="transfer" x1="{x0:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#1f3a93" stroke-width="3"><title>{}: rank {} → rank {}, {} in {}</title></line>"##,
            x1.max(x0 + 1.0),
            esc(&t.value),
            t.from,
            t.to,
            units::bytes(t.bytes as u64),
            units::seconds(t.end - t.start)
        );
    }
    // Legend: the plan's outline, failed and cancelled, then a swatch per
    // function.
    let ly = l.legend_y(workers);
    let _ = writeln!(s, r#"<g class="legend">"#);
    for (i, (swatch, name)) in legend(g).iter().enumerate() {
        let x = l.left + (i % 5) as f64 * 170.0;
        let y = ly + (i / 5) as f64 * l.legend_row;
        let style = match swatch {
            Swatch::Predicted => r##"fill="none" stroke="#333""##.to_string(),
            Swatch::Failed => format!(r#"fill="white" stroke="{}" stroke-width="2""#, rgb(FAILED)),
            Swatch::Cancelled => format!(
                r#"fill="{}" fill-opacity="0.45" stroke="{}" stroke-dasharray="3 2""#,
                rgb(CANCELLED),
                rgb(CANCELLED)
            ),
            Swatch::Function(f) => format!(r#"fill="{}""#, palette::hex(*f)),
        };
        let _ = writeln!(
            s,
            r#"<rect class="swatch" x="{x}" y="{y}" width="14" height="12" {style}/>"#
        );
        if let Swatch::Function(f) = swatch {
            overlay(&mut s, *f, x, y, 14.0, 12.0);
        }
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}">{}</text>"#,
            x + 20.0,
            y + 10.0,
            esc(name)
        );
    }
    let cached = g.cached();
    if !cached.is_empty() {
        let y = ly + (l.legend_rows - 1) as f64 * l.legend_row;
        let names = clip(&cached.join(", "), 120);
        let _ = writeln!(
            s,
            r##"<text class="cached" x="{}" y="{}" fill="#1f8a9e">cached, not run ({}): {}</text>"##,
            l.left,
            y + 10.0,
            cached.len(),
            esc(&names)
        );
    }
    let _ = writeln!(s, "</g>\n</svg>");
    s
}

fn rgb((r, g, b): (u8, u8, u8)) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The pattern of function `f` over a bar, when it has one.
fn overlay(s: &mut String, f: usize, x: f64, y: f64, w: f64, h: f64) {
    let id = match palette::pattern(f) {
        palette::Pattern::Solid => return,
        palette::Pattern::Hatched => "hatched",
        palette::Pattern::Crossed => "crossed",
        palette::Pattern::Dotted => "dotted",
    };
    let _ = writeln!(
        s,
        r#"<rect class="pattern" x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="url(#{id})"/>"#
    );
}

/// A label inside a bar when about 6.5 px per character fit.
fn label(s: &mut String, text: &str, x0: f64, x1: f64, y: f64, fill: &str) {
    if (x1 - x0) > text.chars().count() as f64 * 6.5 + 6.0 {
        let _ = writeln!(
            s,
            r#"<text class="label" x="{:.1}" y="{y:.1}" fill="{fill}">{}</text>"#,
            x0 + 3.0,
            esc(text)
        );
    }
}
