//! The numbers on the dice, rasterised from a real typeface (DejaVu Sans Condensed Bold, Serif
//! Condensed Bold or Sans Mono Bold, shipped with their licence under `assets/fonts/`) into the
//! dice textures: each label is drawn upright into a coverage mask at the size it will have, then
//! turned into place with bilinear sampling.

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use serde::{Deserialize, Serialize};

/// The numerals' typeface: one of the three the binary carries (DejaVu, under
/// `assets/fonts/` with its licence), so every client draws the same letters without asking the
/// system for fonts.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Typeface {
    /// DejaVu Sans Condensed Bold: the dice's numerals as they have always been drawn.
    #[default]
    Sans,
    /// DejaVu Serif Condensed Bold: numerals with serifs, as on many older dice.
    Serif,
    /// DejaVu Sans Mono Bold: even-width numerals, as on engraved or casino dice.
    Mono,
}

impl Typeface {
    /// Every typeface, in the order pickers list them.
    pub const ALL: [Typeface; 3] = [Typeface::Sans, Typeface::Serif, Typeface::Mono];

    /// Its name on the wire and in files.
    pub fn name(self) -> &'static str {
        match self {
            Typeface::Sans => "sans",
            Typeface::Serif => "serif",
            Typeface::Mono => "mono",
        }
    }

    /// Its name in a picker.
    pub fn title(self) -> &'static str {
        match self {
            Typeface::Sans => "Sans (condensed)",
            Typeface::Serif => "Serif",
            Typeface::Mono => "Mono",
        }
    }

    /// The typeface named `name`, if any.
    pub fn named(name: &str) -> Option<Typeface> {
        Typeface::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Whether it is the default (what the wire leaves out).
    pub fn is_sans(&self) -> bool {
        *self == Typeface::Sans
    }
}

/// The first typeface of the numerals: bold and condensed, so "18" fits a d20's face at a size
/// that reads, and its 6 and 9 are open and distinct. It carries the most symbols, so a glyph
/// another typeface lacks is drawn from it.
pub const TYPEFACE: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansCondensed-Bold.ttf");
/// Numerals with serifs.
const SERIF: &[u8] = include_bytes!("../../assets/fonts/DejaVuSerifCondensed-Bold.ttf");
/// Even-width numerals.
const MONO: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansMono-Bold.ttf");

/// A parsed typeface (None only if an embedded file were broken: then dice have no numbers
/// and a test fails, rather than the table panicking).
fn typeface(face: Typeface) -> Option<&'static FontRef<'static>> {
    static FONTS: OnceLock<[Option<FontRef<'static>>; 3]> = OnceLock::new();
    let fonts = FONTS
        .get_or_init(|| [TYPEFACE, SERIF, MONO].map(|bytes| FontRef::try_from_slice(bytes).ok()));
    fonts[face as usize].as_ref()
}

/// Whether the dice draw `c` in any typeface (a game's own marks may only use such glyphs: the
/// first typeface has them all, and lends a glyph to the others where they lack it).
pub fn has_glyph(c: char) -> bool {
    typeface(Typeface::Sans).is_some_and(|font| font.glyph_id(c).0 != 0)
}

/// The typeface that draws `c` in `face`, and its font: its own, else the first typeface's.
fn font_for(c: char, face: Typeface) -> Option<(Typeface, &'static FontRef<'static>)> {
    match typeface(face) {
        Some(font) if font.glyph_id(c).0 != 0 => Some((face, font)),
        _ => typeface(Typeface::Sans).map(|font| (Typeface::Sans, font)),
    }
}

/// How tall a digit of `font` is, per pixel of its em (its cap height, about 0.73 in DejaVu).
fn digit_per_px(font: &FontRef<'_>) -> f32 {
    font.outline_glyph(font.glyph_id('0').with_scale(100.0))
        .map_or(0.73, |zero| zero.px_bounds().height() / 100.0)
        .max(0.1)
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

/// `text`'s glyphs laid out on a baseline at y = 0 in typeface `face`, each font scaled so its
/// digits are `height` tall (a glyph lent by the first typeface matches the others' digits).
fn lay_out(text: &str, height: f32, face: Typeface) -> Option<Vec<ab_glyph::OutlinedGlyph>> {
    let mut x = 0.0;
    let mut previous: Option<(ab_glyph::GlyphId, Typeface)> = None;
    let mut outlines = Vec::new();
    for c in text.chars() {
        let (from, font) = font_for(c, face)?;
        let scale = PxScale::from(height / digit_per_px(font));
        let scaled = font.as_scaled(scale);
        let id = font.glyph_id(c);
        if let Some((p, before)) = previous
            && before == from
        {
            x += scaled.kern(p, id);
        }
        if let Some(o) = scaled.outline_glyph(id.with_scale_and_position(scale, point(x, 0.0))) {
            outlines.push(o);
        }
        x += scaled.h_advance(id);
        previous = Some((id, from));
    }
    Some(outlines)
}

/// How wide laid-out glyphs are, in pixels.
fn width(outlines: &[ab_glyph::OutlinedGlyph]) -> f32 {
    let lo = outlines
        .iter()
        .map(|o| o.px_bounds().min.x)
        .fold(f32::MAX, f32::min);
    let hi = outlines
        .iter()
        .map(|o| o.px_bounds().max.x)
        .fold(f32::MIN, f32::max);
    (hi - lo).max(0.0)
}

/// Draws `text` upright with its digits `height` pixels tall, centred in a mask; `underline`
/// adds the bar that tells a 6 from a 9. A typeface wider than the first is drawn no wider than
/// the first would draw the same text (a little shorter), so every label fits its face as the
/// dice's first numerals do.
fn label_mask(text: &str, height: f32, underline: bool, face: Typeface) -> Option<Mask> {
    let mut outlines = lay_out(text, height, face)?;
    if face != Typeface::Sans {
        let (own, first) = (
            width(&outlines),
            width(&lay_out(text, height, Typeface::Sans)?),
        );
        if own > first && own > 0.0 {
            outlines = lay_out(text, height * first / own, face)?;
        }
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
    /// `angle` radians counter-clockwise, in typeface `face`; `underline` marks a 6 or 9.
    pub fn draw_text(
        &mut self,
        text: &str,
        centre: (f32, f32),
        height: f32,
        angle: f32,
        color: [u8; 4],
        (underline, face): (bool, Typeface),
    ) {
        let Some(mask) = label_mask(text, height, underline, face) else {
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
        draw_in(t, angle, underline, Typeface::Sans)
    }

    fn draw_in(t: &str, angle: f32, underline: bool, face: Typeface) -> Canvas {
        let mut c = Canvas::new(80, 120, [0, 0, 0, 255]);
        c.draw_text(
            t,
            (40.0, 60.0),
            60.0,
            angle,
            [255, 255, 255, 255],
            (underline, face),
        );
        c
    }

    #[test]
    fn every_typeface_loads_and_every_digit_draws_ink_and_differs() {
        let mut faces_seen = Vec::new();
        for face in Typeface::ALL {
            assert!(
                typeface(face).is_some(),
                "{face:?}: the embedded typeface parses"
            );
            let mut seen = Vec::new();
            for d in '0'..='9' {
                let c = draw_in(&d.to_string(), 0.0, false, face);
                assert!(
                    inked(&c) > 300,
                    "{face:?} {d} draws too little: {}",
                    inked(&c)
                );
                assert!(
                    !seen.contains(&c.rgba),
                    "{face:?} {d} looks like another digit"
                );
                seen.push(c.rgba);
            }
            assert!(
                !faces_seen.contains(&seen),
                "{face:?} draws as another typeface"
            );
            faces_seen.push(seen);
        }
    }

    #[test]
    fn digits_are_as_tall_as_asked_in_every_typeface() {
        for face in Typeface::ALL {
            let c = draw_in("8", 0.0, false, face);
            let rows: Vec<usize> = (0..c.height)
                .filter(|y| (0..c.width).any(|x| c.rgba[(y * c.width + x) * 4] > 128))
                .collect();
            let tall = rows.last().copied().unwrap_or(0) - rows.first().copied().unwrap_or(0) + 1;
            assert!(
                (58..=63).contains(&tall),
                "{face:?}: an 8 asked 60 px tall is {tall}"
            );
        }
    }

    #[test]
    fn a_symbol_another_typeface_lacks_is_drawn_from_the_first() {
        // DejaVu Serif has no dingbat star: the sans lends it, at the same size.
        let star = '✶';
        assert!(has_glyph(star));
        assert_eq!(
            draw_in(&star.to_string(), 0.0, false, Typeface::Serif).rgba,
            draw_in(&star.to_string(), 0.0, false, Typeface::Sans).rgba
        );
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
