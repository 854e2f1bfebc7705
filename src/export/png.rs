//! The chart as PNG, drawn by a small pixel renderer on the SVG's layout:
//! lanes, grid, predicted outlines, actual solid bars, legend swatches.
//! Text is drawn in a 3×5 pixel font (digits, lower-case letters, a few
//! signs): axis labels, lanes and the legend; bar labels are in the SVG only.

use super::axis;
use super::gantt::{Gantt, Status};
use super::palette;
use super::svg::{legend, Layout, Swatch, CANCELLED, FAILED};
use crate::report::units;

/// An RGB image.
pub struct Canvas {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

type Rgb = (u8, u8, u8);

impl Canvas {
    pub fn new(width: u32, height: u32, bg: Rgb) -> Canvas {
        let n = (width as usize) * (height as usize);
        let mut pixels = Vec::with_capacity(n * 3);
        for _ in 0..n {
            pixels.extend_from_slice(&[bg.0, bg.1, bg.2]);
        }
        Canvas {
            width,
            height,
            pixels,
        }
    }

    pub fn pixel(&self, x: u32, y: u32) -> Option<Rgb> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y as usize * self.width as usize + x as usize) * 3;
        Some((self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]))
    }

    fn put(&mut self, x: i64, y: i64, c: Rgb, alpha: f64) {
        if x < 0 || y < 0 || x >= i64::from(self.width) || y >= i64::from(self.height) {
            return;
        }
        let i = (y as usize * self.width as usize + x as usize) * 3;
        let mix = |old: u8, new: u8| {
            (f64::from(old) * (1.0 - alpha) + f64::from(new) * alpha).round() as u8
        };
        self.pixels[i] = mix(self.pixels[i], c.0);
        self.pixels[i + 1] = mix(self.pixels[i + 1], c.1);
        self.pixels[i + 2] = mix(self.pixels[i + 2], c.2);
    }

    /// Fills `[x0, x1) × [y0, y1)`, rounded to pixels, at least one wide.
    pub fn fill(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, c: Rgb, alpha: f64) {
        let (x0, y0) = (x0.round() as i64, y0.round() as i64);
        let x1 = (x1.round() as i64).max(x0 + 1);
        let y1 = (y1.round() as i64).max(y0 + 1);
        for y in y0..y1 {
            for x in x0..x1 {
                self.put(x, y, c, alpha);
            }
        }
    }

    /// White marks over `[x0, x1) × [y0, y1)` that tell apart functions
    /// sharing a colour.
    pub fn pattern(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, p: palette::Pattern) {
        let (x0, y0) = (x0.round() as i64, y0.round() as i64);
        let (x1, y1) = (x1.round() as i64, y1.round() as i64);
        for y in y0..y1 {
            for x in x0..x1 {
                let on = match p {
                    palette::Pattern::Solid => false,
                    palette::Pattern::Hatched => (x + y).rem_euclid(6) == 0,
                    palette::Pattern::Crossed => {
                        (x + y).rem_euclid(6) == 0 || (x - y).rem_euclid(6) == 0
                    }
                    palette::Pattern::Dotted => x.rem_euclid(4) == 1 && y.rem_euclid(4) == 1,
                };
                if on {
                    self.put(x, y, (255, 255, 255), 0.8);
                }
            }
        }
    }

    pub fn outline(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, c: Rgb) {
        let x1 = x1.max(x0 + 1.0);
        self.fill(x0, y0, x1, y0 + 1.0, c, 1.0);
        self.fill(x0, y1 - 1.0, x1, y1, c, 1.0);
        self.fill(x0, y0, x0 + 1.0, y1, c, 1.0);
        self.fill(x1 - 1.0, y0, x1, y1, c, 1.0);
    }

    /// Text in the 3×5 digit font, each font pixel `scale` pixels wide.
    pub fn text(&mut self, x: f64, y: f64, s: &str, c: Rgb, scale: i64) {
        let (mut cx, y) = (x.round() as i64, y.round() as i64);
        for ch in s.chars() {
            if let Some(rows) = glyph(ch) {
                for (ry, bits) in rows.iter().enumerate() {
                    for rx in 0..3 {
                        if bits & (0b100 >> rx) != 0 {
                            for dy in 0..scale {
                                for dx in 0..scale {
                                    self.put(
                                        cx + rx * scale + dx,
                                        y + ry as i64 * scale + dy,
                                        c,
                                        1.0,
                                    );
                                }
                            }
                        }
                    }
                }
            }
            cx += 4 * scale;
        }
    }

    pub fn encode(&self) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        {
            let mut enc = ::png::Encoder::new(&mut out, self.width, self.height);
            enc.set_color(::png::ColorType::Rgb);
            enc.set_depth(::png::BitDepth::Eight);
            let mut w = enc.write_header().map_err(|e| e.to_string())?;
            w.write_image_data(&self.pixels)
                .map_err(|e| e.to_string())?;
        }
        Ok(out)
    }
}

/// Rows of a 3-pixel-wide glyph, top to bottom, high bit on the left.
/// Letters are lower case; upper case is drawn as lower.
fn glyph(c: char) -> Option<[u8; 5]> {
    Some(match c.to_ascii_lowercase() {
        '0' => [7, 5, 5, 5, 7],
        '1' => [2, 6, 2, 2, 7],
        '2' => [7, 1, 7, 4, 7],
        '3' => [7, 1, 3, 1, 7],
        '4' => [5, 5, 7, 1, 1],
        '5' => [7, 4, 7, 1, 7],
        '6' => [7, 4, 7, 5, 7],
        '7' => [7, 1, 1, 2, 2],
        '8' => [7, 5, 7, 5, 7],
        '9' => [7, 5, 7, 1, 7],
        '.' => [0, 0, 0, 0, 2],
        '-' => [0, 0, 7, 0, 0],
        '_' => [0, 0, 0, 0, 7],
        '(' => [1, 2, 2, 2, 1],
        ')' => [4, 2, 2, 2, 4],
        '%' => [5, 1, 2, 4, 5],
        'a' => [0, 3, 5, 5, 3],
        'b' => [4, 6, 5, 5, 6],
        'c' => [0, 3, 4, 4, 3],
        'd' => [1, 3, 5, 5, 3],
        'e' => [0, 2, 7, 4, 3],
        'f' => [1, 2, 7, 2, 2],
        'g' => [0, 3, 5, 3, 6],
        'h' => [4, 6, 5, 5, 5],
        'i' => [2, 0, 2, 2, 2],
        'j' => [1, 0, 1, 5, 2],
        'k' => [4, 5, 6, 5, 5],
        'l' => [6, 2, 2, 2, 7],
        'm' => [0, 0, 7, 7, 5],
        'n' => [0, 6, 5, 5, 5],
        'o' => [0, 2, 5, 5, 2],
        'p' => [0, 6, 5, 6, 4],
        'q' => [0, 3, 5, 3, 1],
        'r' => [0, 5, 6, 4, 4],
        's' => [0, 3, 4, 1, 6],
        't' => [2, 7, 2, 2, 1],
        'u' => [0, 5, 5, 5, 3],
        'v' => [0, 5, 5, 5, 2],
        'w' => [0, 5, 5, 7, 7],
        'x' => [0, 5, 2, 2, 5],
        'y' => [0, 5, 5, 3, 6],
        'z' => [0, 7, 1, 4, 7],
        _ => return None,
    })
}

/// The picture, as pixels (for tests and for [`render`]).
pub fn draw(g: &Gantt) -> Canvas {
    let l = Layout::new(g);
    let workers = g.workers.max(1);
    let mut c = Canvas::new(
        l.width as u32,
        l.height(workers).ceil() as u32,
        (255, 255, 255),
    );
    let functions = g.functions();
    let index = |f: &str| functions.iter().position(|x| *x == f).unwrap_or(0);
    let right = l.width - l.right;
    let actual = g
        .actual_makespan
        .map(|a| format!("  actual {}", units::seconds(a)))
        .unwrap_or_default();
    let title = format!(
        "{}  {}  {} workers  predicted {}{actual}",
        g.workflow,
        g.scheduler,
        workers,
        units::seconds(g.predicted_makespan)
    );
    c.text(l.left, 14.0, &title, (0, 0, 0), 2);
    for w in 0..workers {
        let y = l.lane_y(w);
        if w % 2 == 0 {
            c.fill(l.left, y, right, y + l.lane, (244, 244, 244), 1.0);
        }
        c.text(8.0, y + l.lane / 2.0 - 5.0, &format!("w{w}"), (0, 0, 0), 2);
    }
    let step = axis::tick_step(l.span, 10);
    let axis_y = l.lane_y(workers);
    for t in axis::ticks(0.0, l.span, step) {
        let x = l.x(t);
        c.fill(x, l.top, x + 1.0, axis_y + 4.0, (204, 204, 204), 1.0);
        let text = axis::label(t, step);
        c.text(
            x - text.len() as f64 * 4.0,
            axis_y + 8.0,
            &text,
            (0, 0, 0),
            2,
        );
    }
    c.fill(l.left, axis_y, right, axis_y + 1.0, (51, 51, 51), 1.0);
    let band = (l.lane - 8.0) / 2.0;
    for r in &g.rows {
        let f = index(&r.function);
        let col = palette::colour(f);
        for s in &r.predicted {
            let y = l.lane_y(s.worker) + 3.0;
            c.fill(l.x(s.start), y, l.x(s.end), y + band, col, 0.15);
            c.outline(l.x(s.start), y, l.x(s.end), y + band, col);
        }
        let status = r.status();
        for a in r.actual_bars() {
            let y = l.lane_y(a.worker) + 5.0 + band;
            let (x0, x1) = (l.x(a.start), l.x(a.end));
            if status == Status::Cancelled {
                c.fill(x0, y, x1, y + band, col, 0.45);
                c.outline(x0, y, x1, y + band, CANCELLED);
            } else {
                c.fill(x0, y, x1, y + band, col, 1.0);
                c.pattern(x0, y, x1, y + band, palette::pattern(f));
            }
            if status == Status::Failed {
                c.outline(x0, y, x1, y + band, FAILED);
            }
            // The name where it fits: 8 px a character at scale 2.
            let width = 8.0 * r.name.chars().count() as f64;
            if x1 - x0 >= width + 8.0 && band >= 12.0 {
                let ink = palette::text_on(f);
                c.text(x0 + 4.0, y + band / 2.0 - 5.0, &r.name, ink, 2);
            }
        }
    }
    let ly = l.legend_y(workers);
    for (i, (swatch, name)) in legend(g).iter().enumerate() {
        let x = l.left + ((i % 5) as f64) * 170.0;
        let y = ly + (i / 5) as f64 * l.legend_row;
        match swatch {
            Swatch::Predicted => c.outline(x, y, x + 14.0, y + 12.0, (51, 51, 51)),
            Swatch::Failed => c.outline(x, y, x + 14.0, y + 12.0, FAILED),
            Swatch::Cancelled => {
                c.fill(x, y, x + 14.0, y + 12.0, CANCELLED, 0.45);
                c.outline(x, y, x + 14.0, y + 12.0, CANCELLED);
            }
            Swatch::Function(f) => {
                c.fill(x, y, x + 14.0, y + 12.0, palette::colour(*f), 1.0);
                c.pattern(x, y, x + 14.0, y + 12.0, palette::pattern(*f));
            }
        }
        // 8 px a character: what fits before the next swatch.
        let text: String = name.chars().take(17).collect();
        c.text(x + 20.0, y + 1.0, &text, (0, 0, 0), 2);
    }
    c
}

pub fn render(g: &Gantt) -> Result<Vec<u8>, String> {
    draw(g).encode()
}
