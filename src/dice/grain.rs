//! The grain of a stone or wood die, laid into its atlas: stone speckled, wood streaked with
//! its rings. Deterministic (the same pixels on every client and in every release), and never so
//! close to the numerals' colour that they read below 4.5:1 (or below the plain body, were it
//! lower).

use super::Canvas;
use super::style::{DieStyle, MIN_CONTRAST, Material, Rgb};

/// A small, fast hash of a lattice point to 0..1 (the noise's randomness, fixed forever).
pub(crate) fn hash(x: i32, y: i32, salt: u32) -> f32 {
    let mut h = (x as u32).wrapping_mul(0x8da6_b343)
        ^ (y as u32).wrapping_mul(0xd816_3841)
        ^ salt.wrapping_mul(0xcb1a_b31f);
    h ^= h >> 13;
    h = h.wrapping_mul(0x5bd1_e995);
    h ^= h >> 15;
    (h & 0xffff) as f32 / 65535.0
}

/// Smooth value noise at a point, tiling every `period` lattice cells.
fn noise(x: f32, y: f32, period: i32, salt: u32) -> f32 {
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = (x - x0, y - y0);
    let smooth = |t: f32| t * t * (3.0 - 2.0 * t);
    let (sx, sy) = (smooth(fx), smooth(fy));
    let at = |dx: i32, dy: i32| {
        hash(
            (x0 as i32 + dx).rem_euclid(period),
            (y0 as i32 + dy).rem_euclid(period),
            salt,
        )
    };
    let top = at(0, 0) + (at(1, 0) - at(0, 0)) * sx;
    let bottom = at(0, 1) + (at(1, 1) - at(0, 1)) * sx;
    top + (bottom - top) * sy
}

/// Noise summed over `octaves` doublings, 0..1, tiling over the texture.
pub(crate) fn fractal(u: f32, v: f32, base: i32, octaves: u32, salt: u32) -> f32 {
    let (mut sum, mut weight, mut total) = (0.0, 1.0, 0.0);
    for o in 0..octaves {
        let period = base << o;
        sum += noise(u * period as f32, v * period as f32, period, salt + o) * weight;
        total += weight;
        weight *= 0.5;
    }
    sum / total
}

/// How many shades of its body a grained atlas has (so that its PNG stays indexed: these
/// shades by 16 blends toward the ink make its 256 colours).
pub const SHADES: usize = 16;

/// The grid the grain's broad figure is worked out on, pixels (bilinear between): the clouds,
/// rings and streaks change over tens of pixels; flecks and pores are per pixel.
const STEP: usize = 4;

/// The shades of `style`'s body its grain takes, from the plain body (0) to the most grain
/// shows ([`SHADES`] − 1); None for a material without grain.
pub fn shades(style: DieStyle) -> Option<Vec<[u8; 3]>> {
    let strength = style.material.surface().grain;
    if strength <= 0.0 {
        return None;
    }
    // Toward black or white, whichever shows more: as far as the numerals still read at least
    // as well as on the plain body, or at MIN_CONTRAST; eased into that reach rather than cut
    // at it, so a grain near its limit shows no flat plateaus.
    let (to, reach) = direction(Rgb(style.body), Rgb(style.ink));
    // Toward the ink's side (light flecks in a dark stone under light numerals) the grain is
    // half as strong, so the body keeps its tone and only its figure shows.
    let toward_ink = (to.luminance() > Rgb(style.body).luminance())
        == (Rgb(style.ink).luminance() > Rgb(style.body).luminance());
    let strength = if toward_ink { strength / 2.0 } else { strength };
    let eased = |raw: f32| {
        if reach >= 1.0 {
            raw
        } else {
            reach * (raw / reach.max(1e-3)).tanh()
        }
    };
    Some(
        (0..SHADES)
            .map(|k| {
                let amount = eased(strength * k as f32 / (SHADES - 1) as f32);
                Rgb(style.body).toward(to, f64::from(amount)).0
            })
            .collect(),
    )
}

/// Lays `style`'s grain over the body of `canvas` (an atlas drawn in `style.body`, before its
/// numerals): each pixel one of its [`shades`]; nothing for a material without grain.
pub fn lay(canvas: &mut Canvas, style: DieStyle) {
    let Some(shades) = shades(style) else {
        return;
    };
    let (w, h) = (canvas.width, canvas.height);
    let size = w.max(h) as f32;
    // The broad figure on a coarse grid, one row and column past the edge.
    let (gw, gh) = (w / STEP + 2, h / STEP + 2);
    let grid: Vec<f32> = (0..gh)
        .flat_map(|gy| (0..gw).map(move |gx| (gx, gy)))
        .map(|(gx, gy)| {
            let (u, v) = ((gx * STEP) as f32 / size, (gy * STEP) as f32 / size);
            broad(style.material, u, v)
        })
        .collect();
    for y in 0..h {
        let (gy, fy) = (y / STEP, (y % STEP) as f32 / STEP as f32);
        for x in 0..w {
            let (gx, fx) = (x / STEP, (x % STEP) as f32 / STEP as f32);
            let at = |dx: usize, dy: usize| grid[(gy + dy) * gw + gx + dx];
            let top = at(0, 0) + (at(1, 0) - at(0, 0)) * fx;
            let bottom = at(0, 1) + (at(1, 1) - at(0, 1)) * fx;
            let shown = (top + (bottom - top) * fy + fine(style.material, x, y)).clamp(0.0, 1.0);
            let level = (shown * (SHADES - 1) as f32).round() as usize;
            let i = (y * w + x) * 4;
            canvas.rgba[i..i + 3].copy_from_slice(&shades[level]);
        }
    }
}

/// The extreme the grain moves the body toward, and how far it may go (0..1): away from the
/// ink it may go all the way (the contrast only grows); toward it, only as far as the numerals
/// keep [`MIN_CONTRAST`] (or the plain body's contrast, were it lower). Of the two, the one
/// that changes the body's luminance more, so a near-black stone shows light flecks.
fn direction(body: Rgb, ink: Rgb) -> (Rgb, f32) {
    let floor = body.contrast(ink).min(MIN_CONTRAST);
    let reach = |to: Rgb| {
        let (mut low, mut high) = (0.0, 1.0);
        if body.toward(to, 1.0).contrast(ink) >= floor {
            return 1.0;
        }
        for _ in 0..16 {
            let mid = (low + high) / 2.0;
            if body.toward(to, mid).contrast(ink) >= floor {
                low = mid;
            } else {
                high = mid;
            }
        }
        low
    };
    let shown = |to: Rgb, t: f64| (body.toward(to, t).luminance() - body.luminance()).abs();
    let (black, white) = (Rgb([0, 0, 0]), Rgb([255, 255, 255]));
    let (to_black, to_white) = (reach(black), reach(white));
    if shown(black, to_black) >= shown(white, to_white) {
        (black, to_black as f32)
    } else {
        (white, to_white as f32)
    }
}

/// How much of the grain's broad figure shows at a point (its clouds, rings and streaks).
fn broad(material: Material, u: f32, v: f32) -> f32 {
    match material {
        Material::Stone => {
            // Broad clouds and a finer mottle, as in granite.
            let cloud = fractal(u, v, 6, 3, 101);
            let mottle = fractal(u, v, 48, 2, 113);
            1.1 * cloud.powf(1.5) + 0.45 * mottle
        }
        Material::Wood => {
            // Rings run along u, bent by slow noise, streaked.
            let wave = fractal(u, v, 3, 2, 131);
            let rings = ((v * 14.0 + wave * 2.2) * std::f32::consts::TAU).sin() * 0.5 + 0.5;
            let streak = fractal(u * 0.25, v * 4.0, 16, 2, 137);
            0.6 * rings.powf(3.0) + 0.3 * streak
        }
        Material::Plastic | Material::Translucent | Material::Metal => 0.0,
    }
}

/// What the grain adds at a pixel of its own: stone's sharp flecks, wood's pores.
fn fine(material: Material, x: usize, y: usize) -> f32 {
    let (x, y) = (x as i32, y as i32);
    match material {
        Material::Stone if hash(x / 2, y / 2, 127) > 0.94 => 0.8,
        Material::Wood => 0.15 * hash(x / 6, y, 139),
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::style::Typeface;

    fn style(material: Material, body: [u8; 3], ink: [u8; 3]) -> DieStyle {
        DieStyle {
            body,
            ink,
            material,
            pips: false,
            typeface: Typeface::Sans,
        }
    }

    #[test]
    fn stone_and_wood_are_grained_without_losing_contrast_and_others_are_plain() {
        let looks = [
            ([200, 190, 170], [30, 30, 30]),
            ([60, 40, 30], [240, 230, 200]),
            ([42, 42, 48], [240, 240, 240]),
            ([255, 255, 255], [90, 90, 90]),
        ];
        for (body, ink) in looks {
            for material in Material::ALL {
                let s = style(material, body, ink);
                let mut canvas = Canvas::new(256, 128, [body[0], body[1], body[2], 255]);
                lay(&mut canvas, s);
                let pixels: Vec<Rgb> = canvas
                    .rgba
                    .chunks(4)
                    .map(|p| Rgb([p[0], p[1], p[2]]))
                    .collect();
                let changed = pixels.iter().filter(|p| p.0 != body).count();
                if material.surface().grain > 0.0 {
                    assert!(
                        changed > pixels.len() / 3,
                        "{material:?}: {changed} grained"
                    );
                } else {
                    assert_eq!(changed, 0, "{material:?}");
                }
                let plain = Rgb(body).contrast(Rgb(ink));
                let worst = pixels
                    .iter()
                    .map(|p| p.contrast(Rgb(ink)))
                    .fold(f64::MAX, f64::min);
                assert!(worst >= plain.min(MIN_CONTRAST), "{material:?}: {worst}");
            }
        }
    }

    /// A grained atlas keeps to 256 colours (its PNG indexed: a fifth of full colour's bytes),
    /// each numeral's edge within a few steps of its drawn colour, light numerals on dark wood
    /// and dark on light stone alike.
    #[test]
    fn a_grained_atlas_stays_an_indexed_png() {
        use crate::dice::DieKind;
        use crate::dice::mesh::atlas_png;
        for (material, body, ink) in [
            (Material::Stone, [200, 190, 170], [30, 30, 30]),
            (Material::Wood, [107, 62, 31], [240, 224, 192]),
            (Material::Stone, [42, 42, 48], [240, 240, 240]),
        ] {
            for kind in [DieKind::D6, DieKind::D20] {
                let png = atlas_png(kind, style(material, body, ink), None).expect("a PNG");
                // IHDR's colour type: 3, indexed.
                assert_eq!(png[25], 3, "{material:?} {kind:?}");
            }
        }
    }
}
