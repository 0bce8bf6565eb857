//! A small stroke font for the numbers on the dice, drawn anti-aliased into the dice textures.
//! Generated here, so no font file (and no font licence) is involved.

/// Glyph box: 4 units wide, 6 high, y up.
const GLYPH_WIDTH: f32 = 4.0;
const GLYPH_HEIGHT: f32 = 6.0;
const ADVANCE: f32 = 5.2;
const STROKE: f32 = 0.95;

/// The polylines of a digit.
fn strokes(c: char) -> Vec<Vec<(f32, f32)>> {
    let p = |pts: &[(f32, f32)]| pts.to_vec();
    match c {
        '0' => vec![p(&[
            (1.0, 0.0),
            (3.0, 0.0),
            (4.0, 1.2),
            (4.0, 4.8),
            (3.0, 6.0),
            (1.0, 6.0),
            (0.0, 4.8),
            (0.0, 1.2),
            (1.0, 0.0),
        ])],
        '1' => vec![
            p(&[(0.8, 4.8), (2.2, 6.0), (2.2, 0.0)]),
            p(&[(0.8, 0.0), (3.6, 0.0)]),
        ],
        '2' => vec![p(&[
            (0.0, 4.8),
            (1.0, 6.0),
            (3.0, 6.0),
            (4.0, 4.8),
            (4.0, 3.8),
            (0.0, 0.0),
            (4.0, 0.0),
        ])],
        '3' => vec![
            p(&[
                (0.0, 4.9),
                (1.0, 6.0),
                (3.0, 6.0),
                (4.0, 5.0),
                (4.0, 4.0),
                (3.0, 3.1),
                (1.4, 3.1),
            ]),
            p(&[
                (3.0, 3.1),
                (4.0, 2.1),
                (4.0, 1.0),
                (3.0, 0.0),
                (1.0, 0.0),
                (0.0, 1.1),
            ]),
        ],
        '4' => vec![p(&[(3.0, 0.0), (3.0, 6.0), (0.0, 2.0), (4.0, 2.0)])],
        '5' => vec![p(&[
            (4.0, 6.0),
            (0.3, 6.0),
            (0.0, 3.4),
            (2.8, 3.6),
            (4.0, 2.5),
            (4.0, 1.1),
            (3.0, 0.0),
            (1.0, 0.0),
            (0.0, 1.0),
        ])],
        '6' => vec![p(&[
            (3.6, 6.0),
            (1.6, 6.0),
            (0.0, 4.4),
            (0.0, 1.1),
            (1.0, 0.0),
            (3.0, 0.0),
            (4.0, 1.1),
            (4.0, 2.5),
            (3.0, 3.6),
            (1.0, 3.6),
            (0.0, 2.5),
        ])],
        '7' => vec![p(&[(0.0, 6.0), (4.0, 6.0), (1.4, 0.0)])],
        '8' => vec![
            p(&[
                (1.0, 6.0),
                (3.0, 6.0),
                (4.0, 5.0),
                (4.0, 4.1),
                (3.0, 3.1),
                (1.0, 3.1),
                (0.0, 4.1),
                (0.0, 5.0),
                (1.0, 6.0),
            ]),
            p(&[
                (1.0, 3.1),
                (0.0, 2.1),
                (0.0, 1.0),
                (1.0, 0.0),
                (3.0, 0.0),
                (4.0, 1.0),
                (4.0, 2.1),
                (3.0, 3.1),
            ]),
        ],
        '9' => strokes('6')
            .into_iter()
            .map(|line| {
                line.into_iter()
                    .map(|(x, y)| (GLYPH_WIDTH - x, GLYPH_HEIGHT - y))
                    .collect()
            })
            .collect(),
        _ => vec![],
    }
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

fn segment_distance(p: (f32, f32), a: (f32, f32), b: (f32, f32)) -> f32 {
    let (abx, aby) = (b.0 - a.0, b.1 - a.1);
    let (apx, apy) = (p.0 - a.0, p.1 - a.1);
    let len2 = abx * abx + aby * aby;
    let t = if len2 > 0.0 {
        ((apx * abx + apy * aby) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (dx, dy) = (apx - t * abx, apy - t * aby);
    (dx * dx + dy * dy).sqrt()
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

    /// Fills a rectangle.
    pub fn fill_rect(&mut self, x0: usize, y0: usize, w: usize, h: usize, color: [u8; 4]) {
        for y in y0..(y0 + h).min(self.height) {
            for x in x0..(x0 + w).min(self.width) {
                let i = (y * self.width + x) * 4;
                self.rgba[i..i + 4].copy_from_slice(&color);
            }
        }
    }

    /// Draws `text` (digits) centred at `centre` (pixels), `height` pixels tall, turned by `angle`
    /// radians counter-clockwise; `underline` marks a 6 or 9.
    pub fn draw_text(
        &mut self,
        text: &str,
        centre: (f32, f32),
        height: f32,
        angle: f32,
        color: [u8; 4],
        underline: bool,
    ) {
        let n = text.chars().count() as f32;
        let total = n * GLYPH_WIDTH + (n - 1.0).max(0.0) * (ADVANCE - GLYPH_WIDTH);
        let mut lines: Vec<Vec<(f32, f32)>> = Vec::new();
        for (i, c) in text.chars().enumerate() {
            let x0 = -total / 2.0 + i as f32 * ADVANCE;
            for line in strokes(c) {
                lines.push(
                    line.into_iter()
                        .map(|(x, y)| (x + x0, y - GLYPH_HEIGHT / 2.0))
                        .collect(),
                );
            }
        }
        if underline {
            let y = -GLYPH_HEIGHT / 2.0 - 1.4;
            lines.push(vec![(-total / 2.0, y), (total / 2.0, y)]);
        }
        let scale = height / GLYPH_HEIGHT;
        let (sin, cos) = angle.sin_cos();
        let reach = (total.max(GLYPH_HEIGHT + 3.0) / 2.0 + STROKE) * scale * 1.5;
        let (x_lo, x_hi) = (
            (centre.0 - reach).max(0.0) as usize,
            ((centre.0 + reach) as usize).min(self.width),
        );
        let (y_lo, y_hi) = (
            (centre.1 - reach).max(0.0) as usize,
            ((centre.1 + reach) as usize).min(self.height),
        );
        for py in y_lo..y_hi {
            for px in x_lo..x_hi {
                // Pixel centre to glyph units: undo the turn (image y points down).
                let dx = (px as f32 + 0.5 - centre.0) / scale;
                let dy = -(py as f32 + 0.5 - centre.1) / scale;
                let g = (dx * cos + dy * sin, -dx * sin + dy * cos);
                let d = lines
                    .iter()
                    .flat_map(|l| l.windows(2).map(|w| segment_distance(g, w[0], w[1])))
                    .fold(f32::MAX, f32::min);
                let coverage = ((STROKE / 2.0 - d) * scale + 0.5).clamp(0.0, 1.0);
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

    #[test]
    fn every_digit_draws_ink_and_differs() {
        let mut seen = Vec::new();
        for d in '0'..='9' {
            let mut c = Canvas::new(32, 48, [0, 0, 0, 255]);
            c.draw_text(
                &d.to_string(),
                (16.0, 24.0),
                36.0,
                0.0,
                [255, 255, 255, 255],
                false,
            );
            assert!(inked(&c) > 40, "{d} draws too little");
            assert!(!seen.contains(&c.rgba), "{d} looks like another digit");
            seen.push(c.rgba);
        }
    }

    #[test]
    fn six_turned_half_way_is_nine_and_underlines_show() {
        let draw = |t: &str, angle: f32, underline: bool| {
            let mut c = Canvas::new(40, 60, [0, 0, 0, 255]);
            c.draw_text(
                t,
                (20.0, 30.0),
                30.0,
                angle,
                [255, 255, 255, 255],
                underline,
            );
            c
        };
        let nine = draw("9", 0.0, false);
        let six_turned = draw("6", std::f32::consts::PI, false);
        let differing = nine
            .rgba
            .iter()
            .zip(&six_turned.rgba)
            .filter(|(a, b)| a.abs_diff(**b) > 60)
            .count();
        assert!(
            differing < 40,
            "a turned 6 should look like a 9 ({differing} bytes differ)"
        );
        assert!(inked(&draw("6", 0.0, true)) > inked(&draw("6", 0.0, false)) + 10);
    }
}
