//! The numbers on the dice, rasterised from a real typeface (DejaVu Sans Condensed Bold, shipped
//! with its licence under `assets/fonts/`) into the dice textures: each label is drawn upright
//! into a coverage mask at the size it will have, then turned into place with bilinear sampling.

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};

/// The typeface of the numerals: bold and condensed, so "18" fits a d20's face at a size that
/// reads, and its 6 and 9 are open and distinct.
pub const TYPEFACE: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansCondensed-Bold.ttf");

/// The parsed typeface (None only if the embedded file were broken: then dice have no numbers
/// and a test fails, rather than the table panicking).
fn typeface() -> Option<&'static FontRef<'static>> {
    static FONT: OnceLock<Option<FontRef<'static>>> = OnceLock::new();
    FONT.get_or_init(|| FontRef::try_from_slice(TYPEFACE).ok())
        .as_ref()
}

/// Whether the typeface the dice carry draws `c` (a game's own marks may only use such glyphs).
pub fn has_glyph(c: char) -> bool {
    typeface().is_some_and(|font| font.glyph_id(c).0 != 0)
}

/// An RGBA8 image being drawn.
pub struct Canvas {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// Pixels, row by row, 4 bytes each.
    pub rgba: Vec<u8>,
}

/// A coverage mask (0..1 per pixel) of a label drawn upright, with the pixel at its centre.
struct Mask {
    width: usize,
    height: usize,
    coverage: Vec<f32>,
}

impl Mask {
    /// Bilinear coverage at a point in mask pixels (0 outside).
    fn sample(&self, x: f32, y: f32) -> f32 {
        let (x, y) = (x - 0.5, y - 0.5);
        let (x0, y0) = (x.floor(), y.floor());
        let (fx, fy) = (x - x0, y - y0);
        let at = |xi: f32, yi: f32| -> f32 {
            if xi < 0.0 || yi < 0.0 || xi >= self.width as f32 || yi >= self.height as f32 {
                0.0
            } else {
                self.coverage[yi as usize * self.width + xi as usize]
            }
        };
        let top = at(x0, y0) * (1.0 - fx) + at(x0 + 1.0, y0) * fx;
        let bottom = at(x0, y0 + 1.0) * (1.0 - fx) + at(x0 + 1.0, y0 + 1.0) * fx;
        top * (1.0 - fy) + bottom * fy
    }
}

/// Draws `text` upright with its digits `height` pixels tall, centred in a mask; `underline`
/// adds the bar that tells a 6 from a 9.
fn label_mask(text: &str, height: f32, underline: bool) -> Option<Mask> {
    let font = typeface()?;
    // The digits' height is the font's cap height, about 0.73 of its em in DejaVu: measure it.
    let probe = font.as_scaled(PxScale::from(100.0));
    let zero = probe.outline_glyph(font.glyph_id('0').with_scale(100.0))?;
    let digit_per_px = zero.px_bounds().height() / 100.0;
    let scale = PxScale::from(height / digit_per_px.max(0.1));
    let scaled = font.as_scaled(scale);
    // Lay the glyphs out on a baseline at y = 0.
    let mut x = 0.0;
    let mut previous = None;
    let mut outlines = Vec::new();
    for c in text.chars() {
        let id = font.glyph_id(c);
        if let Some(p) = previous {
            x += scaled.kern(p, id);
        }
        if let Some(o) = scaled.outline_glyph(id.with_scale_and_position(scale, point(x, 0.0))) {
            outlines.push(o);
        }
        x += scaled.h_advance(id);
        previous = Some(id);
    }
    let (mut lo_x, mut lo_y, mut hi_x, mut hi_y) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for o in &outlines {
        let b = o.px_bounds();
        lo_x = lo_x.min(b.min.x);
        lo_y = lo_y.min(b.min.y);
        hi_x = hi_x.max(b.max.x);
        hi_y = hi_y.max(b.max.y);
    }
    if outlines.is_empty() {
        return None;
    }
    let bar = (height * 0.1).max(1.0);
    let gap = height * 0.12;
    let pad = 2.0;
    let text_w = hi_x - lo_x;
    let text_h = hi_y - lo_y;
    let extra = if underline { gap + bar } else { 0.0 };
    // Centre on the digits, not on digits and bar, so a 6 sits where other numbers do; the mask
    // is symmetric about that centre.
    let half_h = text_h / 2.0 + extra + pad;
    let width = (text_w + 2.0 * pad).ceil() as usize;
    let height_px = (2.0 * half_h).ceil() as usize;
    let mut mask = Mask {
        width,
        height: height_px,
        coverage: vec![0.0; width * height_px],
    };
    let (ox, oy) = (pad - lo_x, height_px as f32 / 2.0 - (lo_y + hi_y) / 2.0);
    for o in &outlines {
        let b = o.px_bounds();
        let (bx, by) = ((b.min.x + ox) as i64, (b.min.y + oy) as i64);
        o.draw(|gx, gy, c| {
            let (px, py) = (bx + i64::from(gx), by + i64::from(gy));
            if px >= 0 && py >= 0 && (px as usize) < mask.width && (py as usize) < mask.height {
                let cell = &mut mask.coverage[py as usize * mask.width + px as usize];
                *cell = (*cell + c).min(1.0);
            }
        });
    }
    if underline {
        let top = hi_y + oy + gap;
        for py in 0..mask.height {
            let cover = ((py as f32 + 1.0).min(top + bar) - (py as f32).max(top)).clamp(0.0, 1.0);
            if cover > 0.0 {
                for px in 0..mask.width {
                    let cx = (px as f32 + 0.5 - pad).clamp(0.0, text_w) - (px as f32 + 0.5 - pad);
                    let edge = (1.0 - cx.abs()).clamp(0.0, 1.0);
                    let cell = &mut mask.coverage[py * mask.width + px];
                    *cell = (*cell + cover * edge).min(1.0);
                }
            }
        }
    }
    Some(mask)
}

impl Canvas {
    /// A canvas filled with one colour.
    pub fn new(width: usize, height: usize, fill: [u8; 4]) -> Canvas {
        Canvas {
            width,
            height,
            rgba: fill
                .iter()
                .copied()
                .cycle()
                .take(width * height * 4)
                .collect(),
        }
    }

    /// Draws `text` centred at `centre` (pixels), its digits `height` pixels tall, turned by
    /// `angle` radians counter-clockwise; `underline` marks a 6 or 9.
    pub fn draw_text(
        &mut self,
        text: &str,
        centre: (f32, f32),
        height: f32,
        angle: f32,
        color: [u8; 4],
        underline: bool,
    ) {
        let Some(mask) = label_mask(text, height, underline) else {
            return;
        };
        let (sin, cos) = angle.sin_cos();
        let reach = ((mask.width.pow(2) + mask.height.pow(2)) as f32).sqrt() / 2.0 + 2.0;
        let (x_lo, x_hi) = (
            (centre.0 - reach).max(0.0) as usize,
            ((centre.0 + reach).max(0.0) as usize).min(self.width),
        );
        let (y_lo, y_hi) = (
            (centre.1 - reach).max(0.0) as usize,
            ((centre.1 + reach).max(0.0) as usize).min(self.height),
        );
        let (mx, my) = (mask.width as f32 / 2.0, mask.height as f32 / 2.0);
        for py in y_lo..y_hi {
            for px in x_lo..x_hi {
                // Pixel centre to mask coordinates: undo the turn (image y points down, so a
                // counter-clockwise turn on screen is clockwise in these coordinates).
                let dx = px as f32 + 0.5 - centre.0;
                let dy = py as f32 + 0.5 - centre.1;
                let (ux, uy) = (dx * cos - dy * sin, dx * sin + dy * cos);
                let coverage = mask.sample(ux + mx, uy + my);
                if coverage > 0.0 {
                    let i = (py * self.width + px) * 4;
                    for (channel, ink) in self.rgba[i..i + 4].iter_mut().zip(color) {
                        let old = f32::from(*channel);
                        *channel = (old + (f32::from(ink) - old) * coverage).round() as u8;
                    }
                }
            }
        }
    }
}

impl Canvas {
    /// Draws a filled disc (a pip) of `radius` pixels centred at `centre`, its edge smoothed.
    pub fn draw_disc(&mut self, centre: (f32, f32), radius: f32, color: [u8; 4]) {
        let (x_lo, x_hi) = (
            (centre.0 - radius - 1.0).max(0.0) as usize,
            ((centre.0 + radius + 1.0).max(0.0) as usize).min(self.width),
        );
        let (y_lo, y_hi) = (
            (centre.1 - radius - 1.0).max(0.0) as usize,
            ((centre.1 + radius + 1.0).max(0.0) as usize).min(self.height),
        );
        for py in y_lo..y_hi {
            for px in x_lo..x_hi {
                let dx = px as f32 + 0.5 - centre.0;
                let dy = py as f32 + 0.5 - centre.1;
                let coverage = (radius + 0.5 - (dx * dx + dy * dy).sqrt()).clamp(0.0, 1.0);
                if coverage > 0.0 {
                    let i = (py * self.width + px) * 4;
                    for (channel, ink) in self.rgba[i..i + 4].iter_mut().zip(color) {
                        let old = f32::from(*channel);
                        *channel = (old + (f32::from(ink) - old) * coverage).round() as u8;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inked(c: &Canvas) -> usize {
        c.rgba.chunks(4).filter(|p| p[0] > 128).count()
    }

    fn draw(t: &str, angle: f32, underline: bool) -> Canvas {
        let mut c = Canvas::new(80, 120, [0, 0, 0, 255]);
        c.draw_text(
            t,
            (40.0, 60.0),
            60.0,
            angle,
            [255, 255, 255, 255],
            underline,
        );
        c
    }

    #[test]
    fn the_typeface_loads_and_every_digit_draws_ink_and_differs() {
        assert!(typeface().is_some(), "the embedded typeface parses");
        let mut seen = Vec::new();
        for d in '0'..='9' {
            let c = draw(&d.to_string(), 0.0, false);
            assert!(inked(&c) > 300, "{d} draws too little: {}", inked(&c));
            assert!(!seen.contains(&c.rgba), "{d} looks like another digit");
            seen.push(c.rgba);
        }
    }

    #[test]
    fn digits_are_as_tall_as_asked() {
        let c = draw("8", 0.0, false);
        let rows: Vec<usize> = (0..c.height)
            .filter(|y| (0..c.width).any(|x| c.rgba[(y * c.width + x) * 4] > 128))
            .collect();
        let tall = rows.last().copied().unwrap_or(0) - rows.first().copied().unwrap_or(0) + 1;
        assert!((58..=63).contains(&tall), "an 8 asked 60 px tall is {tall}");
    }

    #[test]
    fn six_turned_half_way_is_not_nine_but_underlines_tell_them_apart() {
        // In DejaVu a 9 is not exactly a turned 6, but close: the bar is what tells them apart
        // on a die, and it must add ink below the digit.
        assert!(inked(&draw("6", 0.0, true)) > inked(&draw("6", 0.0, false)) + 60);
        let turned = draw("6", std::f32::consts::PI, true);
        let upright = draw("6", 0.0, true);
        // Turned half way, the bar is above the digit: the top rows carry the ink.
        let ink_rows = |c: &Canvas, rows: std::ops::Range<usize>| {
            rows.map(|y| {
                (0..c.width)
                    .filter(|x| c.rgba[(y * c.width + x) * 4] > 128)
                    .count()
            })
            .sum::<usize>()
        };
        assert!(ink_rows(&turned, 0..25) > ink_rows(&upright, 0..25) + 60);
    }
}
