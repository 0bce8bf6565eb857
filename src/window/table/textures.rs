//! The table's textures, made in code (no image files, no licences): green felt with its fibres
//! and mottling, and wood with its grain. Deterministic, so screenshots compare.

use crate::dice::Canvas;
use crate::dice::grain::{fractal, hash};

fn shade(color: [f32; 3], by: f32) -> [u8; 4] {
    let c = |x: f32| (x * by * 255.0).clamp(0.0, 255.0).round() as u8;
    [c(color[0]), c(color[1]), c(color[2]), 255]
}

fn paint(size: usize, pixel: impl Fn(f32, f32) -> [u8; 4]) -> Canvas {
    let mut canvas = Canvas::new(size, size, [0, 0, 0, 255]);
    for y in 0..size {
        for x in 0..size {
            let (u, v) = (
                (x as f32 + 0.5) / size as f32,
                (y as f32 + 0.5) / size as f32,
            );
            let i = (y * size + x) * 4;
            canvas.rgba[i..i + 4].copy_from_slice(&pixel(u, v));
        }
    }
    canvas
}

/// Green baize: broad mottling and fine fibres, tiling.
pub fn felt(size: usize, color: [f32; 3]) -> Canvas {
    paint(size, |u, v| {
        let mottle = fractal(u, v, 4, 3, 11);
        let fibre = fractal(u, v, 64, 2, 29);
        let grain = hash((u * size as f32) as i32, (v * size as f32) as i32, 7);
        shade(
            color,
            0.82 + 0.22 * mottle + 0.16 * fibre + 0.08 * (grain - 0.5),
        )
    })
}

/// Wood: growth rings stretched along u (the length of a board), wavy, with fine pores.
pub fn wood(size: usize, color: [f32; 3]) -> Canvas {
    paint(size, |u, v| {
        // Rings run along u: v bent by slow noise, so they wander as in a plank.
        let wave = fractal(u, v, 2, 2, 41);
        let rings = ((v * 9.0 + wave * 1.6) * std::f32::consts::TAU).sin() * 0.5 + 0.5;
        let streak = fractal(u, v, 4, 3, 53);
        let pore = hash((u * size as f32) as i32 / 4, (v * size as f32) as i32, 61);
        shade(
            color,
            0.8 + 0.16 * rings.powf(4.0) + 0.12 * streak + 0.05 * (pore - 0.5),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spread(c: &Canvas) -> (u8, u8) {
        let greens = c.rgba.chunks(4).map(|p| p[1]);
        (greens.clone().min().unwrap_or(0), greens.max().unwrap_or(0))
    }

    #[test]
    fn textures_vary_and_tile_without_a_seam() {
        for canvas in [felt(64, [0.06, 0.26, 0.15]), wood(64, [0.36, 0.2, 0.1])] {
            let (lo, hi) = spread(&canvas);
            assert!(hi - lo > 8, "a texture has some variation: {lo}..{hi}");
            // The left column continues from the right one: no seam where the texture repeats.
            let px = |x: usize, y: usize| i32::from(canvas.rgba[(y * 64 + x) * 4 + 1]);
            let seam: i32 = (0..64).map(|y| (px(0, y) - px(63, y)).abs()).sum::<i32>() / 64;
            let inside: i32 = (0..64).map(|y| (px(31, y) - px(32, y)).abs()).sum::<i32>() / 64;
            assert!(seam <= inside + 6, "seam {seam} vs inside {inside}");
        }
        assert_eq!(
            felt(16, [0.1, 0.2, 0.3]).rgba,
            felt(16, [0.1, 0.2, 0.3]).rgba
        );
    }
}
