//! Colours by function, shared by every drawer so a function has the same
//! colour in the SVG, the PNG and the terminal.

/// Eight colours told apart by most eyes (Okabe–Ito, with grey).
pub const COLOURS: [(u8, u8, u8); 8] = [
    (0, 114, 178),
    (230, 159, 0),
    (0, 158, 115),
    (204, 121, 167),
    (86, 180, 233),
    (213, 94, 0),
    (240, 228, 66),
    (120, 120, 120),
];

pub fn colour(index: usize) -> (u8, u8, u8) {
    COLOURS[index % COLOURS.len()]
}

pub fn hex(index: usize) -> String {
    let (r, g, b) = colour(index);
    format!("#{r:02x}{g:02x}{b:02x}")
}
