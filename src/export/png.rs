//! The chart as PNG: the SVG's own picture, rasterised by resvg with an
//! embedded DejaVu Sans, so the PNG and the SVG have one layout, one title
//! and the same labels (a bitmap font used to give the PNG crude letters,
//! "w0" for "worker 0" and another title). It is drawn at twice the SVG's
//! size, so the text reads at 2000 pixels wide.

use std::sync::{Arc, OnceLock};

use crate::report::gantt::Gantt;

/// DejaVu Sans (Bitstream Vera licence, `assets/fonts/`): the PNG's text
/// must not depend on which fonts a machine has.
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Pixels per SVG unit.
pub const SCALE: f32 = 2.0;

/// Past this many pixels (a chart of hundreds of workers) the PNG is drawn
/// at the SVG's own size, so memory stays bounded.
const MOST_PIXELS: f64 = 40e6;

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

fn options() -> &'static resvg::usvg::Options<'static> {
    static OPTIONS: OnceLock<resvg::usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut fonts = resvg::usvg::fontdb::Database::new();
        fonts.load_font_data(FONT.to_vec());
        fonts.set_sans_serif_family("DejaVu Sans");
        resvg::usvg::Options {
            font_family: "DejaVu Sans".into(),
            fontdb: Arc::new(fonts),
            ..resvg::usvg::Options::default()
        }
    })
}

/// The pixels of `svg` at `scale` pixels per unit, on white.
pub fn rasterise(svg: &str, scale: f32) -> Result<Canvas, String> {
    let tree = resvg::usvg::Tree::from_str(svg, options()).map_err(|e| e.to_string())?;
    let size = tree.size();
    let mut scale = scale;
    if f64::from(size.width() * scale) * f64::from(size.height() * scale) > MOST_PIXELS {
        scale = 1.0;
    }
    let (w, h) = (
        (size.width() * scale).ceil() as u32,
        (size.height() * scale).ceil() as u32,
    );
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w.max(1), h.max(1))
        .ok_or_else(|| format!("cannot draw a {w}x{h} picture"))?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    // Opaque on white: the premultiplied colour is the colour.
    let pixels = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    Ok(Canvas {
        width: pixmap.width(),
        height: pixmap.height(),
        pixels,
    })
}

/// The picture, as pixels (for tests and for [`render`]).
pub fn draw(g: &Gantt) -> Result<Canvas, String> {
    rasterise(&super::svg::render(g), SCALE)
}

pub fn render(g: &Gantt) -> Result<Vec<u8>, String> {
    draw(g)?.encode()
}
