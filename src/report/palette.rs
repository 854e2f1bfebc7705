//! Colours by function, shared by every drawer so a function has the same
//! colour in the SVG, the PNG and the terminal.
//!
//! A fixed list of eight cycled, so a run of ten functions showed two
//! pairs the legend could not tell apart. The colours are generated
//! instead: hues a golden angle apart in OKLCH (a perceptual space, so
//! equal steps look equal), over three lightness levels, each at the most
//! chroma sRGB holds. The first [`DISTINCT`] are told apart; past them the
//! colours repeat, and a [`Pattern`] says which repeat it is.

/// How many functions get colours of their own.
pub const DISTINCT: usize = 20;

/// The golden angle, degrees: each hue is as far as can be from the ones
/// before it, however many there are.
const GOLDEN_ANGLE: f64 = 137.507_764;

/// Lightness levels, cycled: light, dark and pale, so neighbours in hue
/// differ in lightness too.
const LIGHTNESS: [f64; 3] = [0.68, 0.52, 0.82];

const CHROMA: f64 = 0.15;

/// The first hue: a blue.
const FIRST_HUE: f64 = 250.0;

/// What sets apart functions that share a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pattern {
    Solid,
    /// Diagonal stripes.
    Hatched,
    /// Crossed stripes.
    Crossed,
    Dotted,
}

/// The function at `index`'s pattern: solid for the first [`DISTINCT`].
pub fn pattern(index: usize) -> Pattern {
    match (index / DISTINCT) % 4 {
        0 => Pattern::Solid,
        1 => Pattern::Hatched,
        2 => Pattern::Crossed,
        _ => Pattern::Dotted,
    }
}

/// The colour of the function at `index`, as 8-bit sRGB.
pub fn colour(index: usize) -> (u8, u8, u8) {
    let (l, c, h) = oklch(index);
    let (r, g, b) = oklab_to_linear_srgb(l, c * h.cos(), c * h.sin());
    (to_8bit(r), to_8bit(g), to_8bit(b))
}

/// The colour in OKLCH: lightness, chroma, hue in radians.
pub fn oklch(index: usize) -> (f64, f64, f64) {
    let i = index % DISTINCT;
    let l = LIGHTNESS[i % LIGHTNESS.len()];
    let h = (FIRST_HUE + i as f64 * GOLDEN_ANGLE)
        .rem_euclid(360.0)
        .to_radians();
    // The most chroma, up to CHROMA, that sRGB can show at this hue.
    let mut c = CHROMA;
    while c > 0.0 {
        let (r, g, b) = oklab_to_linear_srgb(l, c * h.cos(), c * h.sin());
        if [r, g, b].iter().all(|v| (-1e-9..=1.0 + 1e-9).contains(v)) {
            break;
        }
        c -= 0.005;
    }
    (l, c.max(0.0), h)
}

/// Text that reads on the colour: black on light colours, white on dark.
pub fn text_on(index: usize) -> (u8, u8, u8) {
    if oklch(index).0 >= 0.6 {
        (0, 0, 0)
    } else {
        (255, 255, 255)
    }
}

pub fn hex(index: usize) -> String {
    let (r, g, b) = colour(index);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Björn Ottosson's OKLab to linear sRGB.
fn oklab_to_linear_srgb(l: f64, a: f64, b: f64) -> (f64, f64, f64) {
    let l_ = l + 0.396_337_777_4 * a + 0.215_803_757_3 * b;
    let m_ = l - 0.105_561_345_8 * a - 0.063_854_172_8 * b;
    let s_ = l - 0.089_484_177_5 * a - 1.291_485_548 * b;
    let (l3, m3, s3) = (l_.powi(3), m_.powi(3), s_.powi(3));
    (
        4.076_741_662_1 * l3 - 3.307_711_591_3 * m3 + 0.230_969_929_2 * s3,
        -1.268_438_004_6 * l3 + 2.609_757_401_1 * m3 - 0.341_319_396_5 * s3,
        -0.004_196_086_3 * l3 - 0.703_418_614_7 * m3 + 1.707_614_701 * s3,
    )
}

fn to_8bit(linear: f64) -> u8 {
    let x = linear.clamp(0.0, 1.0);
    let encoded = if x <= 0.003_130_8 {
        12.92 * x
    } else {
        1.055 * x.powf(1.0 / 2.4) - 0.055
    };
    (encoded * 255.0).round() as u8
}
