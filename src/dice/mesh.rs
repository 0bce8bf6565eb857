//! Render meshes with numbers: each face maps into its own cell of a generated texture atlas,
//! which holds the face's number (three corner numbers on a d4), drawn upright in the face.

#[cfg(feature = "window")]
use bevy::asset::RenderAssetUsages;
#[cfg(feature = "window")]
use bevy::image::{Image, ImageAddressMode, ImageSampler, ImageSamplerDescriptor};
#[cfg(feature = "window")]
use bevy::mesh::{Indices, Mesh, PrimitiveTopology};
#[cfg(feature = "window")]
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use glam::Vec3;

use super::Canvas;
use super::DieKind;
use super::geometry::{Face, Polyhedron};
use super::marks::{FaceMarks, Mark};
use super::style::{DieStyle, Typeface};

/// Pixels per face cell of the atlas: large enough that a numeral stays sharp when the die
/// fills the screen (its mipmaps keep it clean when the die is small).
const CELL: usize = 256;
/// How much of a cell's half-width a face's farthest vertex reaches.
const FILL: f32 = 0.47;

fn grid(faces: usize) -> (usize, usize) {
    let cols = (faces as f32).sqrt().ceil() as usize;
    (cols, faces.div_ceil(cols))
}

/// The 2D frame of a face: centre, in-plane right and up (right × up = outward normal), and
/// the scale that maps the face into its cell.
struct FaceFrame {
    centre: Vec3,
    right: Vec3,
    up: Vec3,
    radius: f32,
}

impl FaceFrame {
    fn new(kind: DieKind, shape: &Polyhedron, face: &Face) -> FaceFrame {
        let centre = shape.face_centre(face);
        let at = |i: usize| shape.vertices[face.vertices[i]];
        let toward = match kind {
            // A d6's number faces an edge; a d10's its apex (the vertex farthest from the centre).
            DieKind::D6 | DieKind::D2 | DieKind::D3 | DieKind::Fate => (at(0) + at(1)) / 2.0,
            // A d10's, and every belt die's (kites and triangles about an axis): its apex.
            apexed
                if matches!(apexed, DieKind::D10 | DieKind::D10Tens)
                    || apexed.other_size().is_some() =>
            {
                face.vertices
                    .iter()
                    .map(|&i| shape.vertices[i])
                    .max_by(|a, b| (*a - centre).length().total_cmp(&(*b - centre).length()))
                    .unwrap_or(at(0))
            }
            _ => at(0),
        };
        let n = face.normal;
        let up = (toward - centre).reject_from(n).normalize();
        let right = up.cross(n);
        let radius = face
            .vertices
            .iter()
            .map(|&i| (shape.vertices[i] - centre).length())
            .fold(0.0, f32::max);
        FaceFrame {
            centre,
            right,
            up,
            radius,
        }
    }

    /// Face-plane coordinates of a point, in units of the face's radius (−1..1).
    fn local(&self, p: Vec3) -> (f32, f32) {
        let d = p - self.centre;
        (
            d.dot(self.right) / self.radius,
            d.dot(self.up) / self.radius,
        )
    }
}

fn cell_origin(kind: DieKind, index: usize) -> (usize, usize) {
    let (cols, _) = grid(kind.faces() as usize);
    ((index % cols) * CELL, (index / cols) * CELL)
}

/// Pixel position in the atlas of face-local coordinates of face `index`.
fn atlas_px(kind: DieKind, index: usize, (x, y): (f32, f32)) -> (f32, f32) {
    let (ox, oy) = cell_origin(kind, index);
    let half = CELL as f32 / 2.0;
    (
        ox as f32 + half + x * FILL * CELL as f32,
        oy as f32 + half - y * FILL * CELL as f32,
    )
}

/// How far in from its edges a face starts to curve (a fraction of centre-to-vertex).
const EDGE_ROUNDING: f32 = 0.14;
/// How far the normals at a face's corners lean towards the corner (0 flat, 1 fully radial).
const CORNER_LEAN: f32 = 0.45;

/// The vertex arrays of a die's render mesh: what the window draws and the web page draws too.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MeshArrays {
    /// Vertex positions, cm, in the die's geometry frame.
    pub positions: Vec<[f32; 3]>,
    /// Vertex normals.
    pub normals: Vec<[f32; 3]>,
    /// Atlas coordinates (0..1, v down).
    pub uvs: Vec<[f32; 2]>,
    /// Triangles, three indices each.
    pub indices: Vec<u32>,
}

/// The render mesh of a die: each face is its flat centre (a fan to an inset ring) and a rim out
/// to the true edges whose normals lean towards the corners, so light rolls over the edges as
/// on a tumbled die while the silhouette stays exactly the collider's. UVs map into the atlas.
pub fn die_mesh_arrays(kind: DieKind) -> MeshArrays {
    // A die thrown again above its size is its body, numbered as it is (a d17 is a d18).
    let kind = kind.body();
    let shape = kind.shape();
    let (cols, rows) = grid(kind.faces() as usize);
    let (w, h) = ((cols * CELL) as f32, (rows * CELL) as f32);
    let (mut positions, mut normals, mut uvs, mut indices) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (i, face) in shape.faces.iter().enumerate() {
        let frame = FaceFrame::new(kind, shape, face);
        let base = positions.len() as u32;
        let mut push = |p: Vec3, normal: Vec3| {
            let (px, py) = atlas_px(kind, i, frame.local(p));
            positions.push(p.to_array());
            normals.push(normal.to_array());
            uvs.push([px / w, py / h]);
        };
        push(frame.centre, face.normal);
        for &v in &face.vertices {
            let p = shape.vertices[v];
            push(
                frame.centre + (p - frame.centre) * (1.0 - EDGE_ROUNDING),
                face.normal,
            );
        }
        for &v in &face.vertices {
            let p = shape.vertices[v];
            let lean = face
                .normal
                .lerp(p.normalize_or_zero(), CORNER_LEAN)
                .normalize_or_zero();
            push(p, lean);
        }
        let n = face.vertices.len() as u32;
        let (inner, outer) = (base + 1, base + 1 + n);
        for k in 0..n {
            let next = (k + 1) % n;
            indices.extend([base, inner + k, inner + next]);
            indices.extend([inner + k, outer + k, outer + next]);
            indices.extend([inner + k, outer + next, inner + next]);
        }
    }
    MeshArrays {
        positions,
        normals,
        uvs,
        indices,
    }
}

/// The render mesh of a die, from [`die_mesh_arrays`].
#[cfg(feature = "window")]
pub fn die_mesh(kind: DieKind) -> Mesh {
    let a = die_mesh_arrays(kind);
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, a.positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, a.normals)
    .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, a.uvs)
    .with_inserted_indices(Indices::U32(a.indices))
}

/// The atlas of a die in a style as a PNG file (for the web page): indexed colour, its palette
/// the atlas's own colours where it has at most 256 or else the 256 blends of its body and ink
/// (a numeral's edges are such blends; no pixel moves more than [`BLEND_ERROR`]), about half
/// the bytes of RGB; opaque RGB where neither fits.
pub fn atlas_png(
    kind: DieKind,
    style: DieStyle,
    marks: Option<&FaceMarks>,
) -> Result<Vec<u8>, String> {
    let canvas = atlas_pixels(kind, style, marks);
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, canvas.width as u32, canvas.height as u32);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::High);
    let indexed = indexed(&canvas.rgba)
        .or_else(|| blends(&canvas.rgba, style))
        .or_else(|| grained_blends(&canvas.rgba, style));
    let (colour, data) = match indexed {
        Some((palette, indices)) => {
            encoder.set_palette(palette);
            (png::ColorType::Indexed, indices)
        }
        None => {
            let rgb = canvas
                .rgba
                .chunks(4)
                .flat_map(|p| [p[0], p[1], p[2]])
                .collect();
            (png::ColorType::Rgb, rgb)
        }
    };
    encoder.set_color(colour);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer.write_image_data(&data).map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(out)
}

/// The most a pixel may move when it is put on the nearest of the 256 blends of body and ink.
pub const BLEND_ERROR: u8 = 3;

/// Opaque RGBA pixels of an atlas as the 256 blends from its body to its ink (a numeral's edge
/// is a blend of the two) and one index a pixel: each pixel the nearest blend, none moved more
/// than [`BLEND_ERROR`] in any channel (None if one would).
fn blends(rgba: &[u8], style: DieStyle) -> Option<(Vec<u8>, Vec<u8>)> {
    let body = style.body.map(f32::from);
    let ink = style.ink.map(f32::from);
    let d = [ink[0] - body[0], ink[1] - body[1], ink[2] - body[2]];
    let len2 = d.iter().map(|c| c * c).sum::<f32>().max(1.0);
    let palette: Vec<[u8; 3]> = (0..=255u8)
        .map(|k| {
            let t = f32::from(k) / 255.0;
            [0, 1, 2].map(|c| (body[c] + d[c] * t).round().clamp(0.0, 255.0) as u8)
        })
        .collect();
    let mut indices = Vec::with_capacity(rgba.len() / 4);
    for p in rgba.chunks(4) {
        let along: f32 = (0..3).map(|c| (f32::from(p[c]) - body[c]) * d[c]).sum();
        let k = ((along / len2).clamp(0.0, 1.0) * 255.0).round() as u8;
        let near = palette[usize::from(k)];
        if (0..3).any(|c| p[c].abs_diff(near[c]) > BLEND_ERROR) {
            return None;
        }
        indices.push(k);
    }
    Some((palette.concat(), indices))
}

/// The most a pixel of a grained atlas may move when it is put on the nearest of its 256
/// colours (a numeral's edge over a shade of the grain, in 16 steps).
pub const GRAINED_BLEND_ERROR: u8 = 12;

/// A grained atlas (stone, wood) as its grain's 16 shades of the body by 16 blends of each
/// toward the ink, and one index a pixel (None past [`GRAINED_BLEND_ERROR`]): its PNG stays
/// indexed, a fifth of the bytes of full colour.
fn grained_blends(rgba: &[u8], style: DieStyle) -> Option<(Vec<u8>, Vec<u8>)> {
    const STEPS: usize = 16;
    let shades = super::grain::shades(style)?;
    let ink = style.ink.map(f32::from);
    let palette: Vec<[u8; 3]> = shades
        .iter()
        .flat_map(|shade| {
            (0..STEPS).map(move |k| {
                let t = k as f32 / (STEPS - 1) as f32;
                [0, 1, 2].map(|c| {
                    let from = f32::from(shade[c]);
                    (from + (ink[c] - from) * t).round().clamp(0.0, 255.0) as u8
                })
            })
        })
        .collect();
    let exact: std::collections::HashMap<[u8; 3], u8> = palette
        .iter()
        .enumerate()
        .map(|(i, c)| (*c, i as u8))
        .collect();
    let mut indices = Vec::with_capacity(rgba.len() / 4);
    for p in rgba.chunks(4) {
        let pixel = [p[0], p[1], p[2]];
        if let Some(&i) = exact.get(&pixel) {
            indices.push(i);
            continue;
        }
        // A numeral's edge: the nearest blend over each shade.
        let mut best = (u8::MAX, 0u8);
        for (g, shade) in shades.iter().enumerate() {
            let d = [0, 1, 2].map(|c| ink[c] - f32::from(shade[c]));
            let len2 = d.iter().map(|c| c * c).sum::<f32>().max(1.0);
            let along: f32 = (0..3)
                .map(|c| (f32::from(pixel[c]) - f32::from(shade[c])) * d[c])
                .sum();
            let k = ((along / len2).clamp(0.0, 1.0) * (STEPS - 1) as f32).round() as usize;
            let index = g * STEPS + k;
            let near = palette[index];
            let error = (0..3)
                .map(|c| pixel[c].abs_diff(near[c]))
                .max()
                .unwrap_or(0);
            if error < best.0 {
                best = (error, index as u8);
            }
        }
        if best.0 > GRAINED_BLEND_ERROR {
            return None;
        }
        indices.push(best.1);
    }
    Some((palette.concat(), indices))
}

/// Opaque RGBA pixels as a palette (RGB triples) and one index a pixel, if they have at most
/// 256 colours.
fn indexed(rgba: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    let mut palette: Vec<[u8; 3]> = Vec::new();
    let mut seen: std::collections::HashMap<[u8; 3], u8> = std::collections::HashMap::new();
    let mut indices = Vec::with_capacity(rgba.len() / 4);
    for p in rgba.chunks(4) {
        let c = [p[0], p[1], p[2]];
        let index = match seen.get(&c) {
            Some(&i) => i,
            None => {
                let i = u8::try_from(palette.len()).ok()?;
                palette.push(c);
                seen.insert(c, i);
                i
            }
        };
        indices.push(index);
    }
    Some((palette.concat(), indices))
}

/// Where a belt die's number goes on its face and how tall it is: the height along the face's
/// up axis (in face radii) and the height as a fraction of a cell. Every face of a belt die is
/// alike and numbered with `digits` digits at most, so the number is as tall as a d10's where
/// the face allows, else as tall as fits side by side with a margin where the narrow kite or
/// triangle is widest (a d30's numbers are smaller than a d10's, and sit near its equator).
fn belt_label_place(
    shape: &Polyhedron,
    face: &Face,
    frame: &FaceFrame,
    digits: usize,
) -> (f32, f32) {
    let corners: Vec<(f32, f32)> = face
        .vertices
        .iter()
        .map(|&i| frame.local(shape.vertices[i]))
        .collect();
    // The face's width along its right axis at height y, in face radii.
    let width_at = |y: f32| {
        let crossings: Vec<f32> = (0..corners.len())
            .filter_map(|k| {
                let (a, b) = (corners[k], corners[(k + 1) % corners.len()]);
                ((a.1 <= y) != (b.1 <= y)).then(|| a.0 + (b.0 - a.0) * (y - a.1) / (b.1 - a.1))
            })
            .collect();
        if crossings.len() < 2 {
            return 0.0;
        }
        crossings.iter().copied().fold(f32::MIN, f32::max)
            - crossings.iter().copied().fold(f32::MAX, f32::min)
    };
    // A digit of the condensed bold faces is about 0.56 of its height wide; the number takes
    // 70% of the width it stands in, and its box is 1.3 of its height tall (an underline).
    let fits = |y: f32, height: f32| {
        let tall = height / FILL;
        let needed = 0.56 * digits.max(1) as f32 * tall / 0.7;
        (0..=4).all(|k| width_at(y + tall * 1.3 * (k as f32 / 4.0 - 0.5)) >= needed)
    };
    let mut best = (0.0, 0.05);
    for step in 0..=40 {
        let y = -1.0 + step as f32 / 20.0;
        let mut height = 0.36f32;
        while height > best.1 && !fits(y, height) {
            height -= 0.005;
        }
        if height > best.1 {
            best = (y, height);
        }
    }
    best
}

/// How tall a d4's corner numbers are drawn, as a share of a cell.
const D4_LABEL_HEIGHT: f32 = 0.19;

/// Where a belt die's number goes and how tall ([`belt_label_place`]); `None` for the other
/// dice, whose numbers sit by rule.
fn belt_place(
    kind: DieKind,
    shape: &Polyhedron,
    face: &Face,
    frame: &FaceFrame,
    digits: usize,
) -> Option<(f32, f32)> {
    kind.other_size()
        .is_some()
        .then(|| belt_label_place(shape, face, frame, digits))
}

/// How tall a face's number is drawn, as a share of its cell: set per solid, and for a belt
/// die as large as its narrow face allows (`belt`, from [`belt_label_place`]).
fn label_height(kind: DieKind, label: &str, belt: Option<(f32, f32)>) -> f32 {
    match kind {
        DieKind::D6 | DieKind::D2 | DieKind::D3 => 0.5,
        // − and + are wide and low: larger, to read as well as the numbers.
        DieKind::Fate => 0.7,
        DieKind::D8 => 0.34,
        DieKind::D10 => 0.36,
        DieKind::D10Tens => 0.28,
        DieKind::D12 => 0.36,
        DieKind::D20 => {
            if label.len() > 1 {
                0.24
            } else {
                0.3
            }
        }
        DieKind::D4 => D4_LABEL_HEIGHT,
        _ => belt.map_or(0.2, |(_, height)| height),
    }
}

/// How large a die's numbers are, for the readability table of `bench --atlases`
/// (docs/fairness.md): the smallest number's height on the die and the die's width, in mm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NumeralSize {
    /// The height its smallest number is drawn at on the die, mm.
    pub smallest_mm: f32,
    /// The die across (twice its circumradius), mm.
    pub die_mm: f32,
}

impl NumeralSize {
    /// The smallest number's height as a share of the die's width: how large it looks beside
    /// the die, whatever the die's size on screen.
    pub fn share_of_die(&self) -> f32 {
        self.smallest_mm / self.die_mm
    }
}

/// The size of a die's numbers as its atlas draws them: a share of a cell is a share of the
/// face's radius (the cell holds the face at `FILL` of its half-width), so a number `h` of a
/// cell tall is `h × radius / FILL` on the die.
pub fn numeral_size(kind: DieKind) -> NumeralSize {
    let kind = kind.body();
    let shape = kind.shape();
    let digits = kind.longest_label();
    let smallest_cm = shape
        .faces
        .iter()
        .filter(|face| !kind.label(face.value).is_empty())
        .map(|face| {
            let frame = FaceFrame::new(kind, shape, face);
            let label = kind.label(face.value);
            let belt = belt_place(kind, shape, face, &frame, digits);
            label_height(kind, &label, belt) * frame.radius / FILL
        })
        .fold(f32::INFINITY, f32::min);
    NumeralSize {
        smallest_mm: smallest_cm * 10.0,
        die_mm: shape.circumradius() * 20.0,
    }
}

/// Draws a game's own mark centred at `centre` (atlas pixels) on face `index`, `height`
/// pixels tall for text, turned by `angle`; pips spread over a square face.
fn draw_mark(
    canvas: &mut Canvas,
    kind: DieKind,
    index: usize,
    mark: &Mark,
    (centre, height, angle): ((f32, f32), f32, f32),
    (ink, face): ([u8; 4], Typeface),
) {
    match mark {
        Mark::Blank => {}
        Mark::Pips(n) => {
            let radius = CELL as f32 * if *n > 6 { 0.055 } else { 0.07 };
            for (x, y) in Mark::pip_places(*n) {
                canvas.draw_disc(atlas_px(kind, index, (x, y)), radius, ink);
            }
        }
        Mark::Symbol(text) | Mark::Word(text) => {
            // A word of several letters is drawn smaller so that it keeps inside its face.
            let letters = text.chars().count() as f32;
            let squeeze = if matches!(mark, Mark::Word(_)) && letters > 2.0 {
                2.0 / letters.sqrt().max(1.0) / 1.2
            } else if letters > 1.0 {
                0.85
            } else {
                1.0
            };
            canvas.draw_text(text, centre, height * squeeze, angle, ink, (false, face));
        }
    }
}

/// Draws the atlas of a die in a style, as RGBA8 pixels with its size: its numbers, or the
/// marks of a game's own die where `marks` gives them.
pub fn atlas_pixels(kind: DieKind, style: DieStyle, marks: Option<&FaceMarks>) -> Canvas {
    // A die thrown again above its size wears its body's numbers: a d17's d18 shows its 18.
    let kind = kind.body();
    // A style with pips puts them on its d6 (a game's own marks come first).
    let pips = style.marks_for(kind);
    let marks = marks.or(pips.as_ref());
    let shape = kind.shape();
    let (cols, rows) = grid(kind.faces() as usize);
    let rgba = |c: [u8; 3]| [c[0], c[1], c[2], 255];
    let mut canvas = Canvas::new(cols * CELL, rows * CELL, rgba(style.body));
    super::grain::lay(&mut canvas, style);
    let ink = rgba(style.ink);
    let cell = CELL as f32;
    // One size for every number of the die: the longest's.
    let digits = kind.longest_label();
    for (i, face) in shape.faces.iter().enumerate() {
        let frame = FaceFrame::new(kind, shape, face);
        if kind == DieKind::D4 {
            // A number at each corner, upright towards that corner.
            for &v in &face.vertices {
                let (x, y) = frame.local(shape.vertices[v]);
                let angle = y.atan2(x) - std::f32::consts::FRAC_PI_2;
                let at = atlas_px(kind, i, (x * 0.52, y * 0.52));
                if let Some(marks) = marks {
                    let mark = marks.of(shape.vertex_values[v]);
                    let place = (at, cell * D4_LABEL_HEIGHT, angle);
                    draw_mark(&mut canvas, kind, i, &mark, place, (ink, style.typeface));
                    continue;
                }
                canvas.draw_text(
                    &shape.vertex_values[v].to_string(),
                    at,
                    cell * D4_LABEL_HEIGHT,
                    angle,
                    ink,
                    (false, style.typeface),
                );
            }
            continue;
        }
        let label = kind.label(face.value);
        // A belt die's number sits where its narrow face is widest, as large as fits there.
        let belt = belt_place(kind, shape, face, &frame, digits);
        let height = label_height(kind, &label, belt) * cell;
        // Triangles carry their number a little below the centroid's vertex side.
        let centre = match (belt, face.vertices.len()) {
            (Some((y, _)), _) => atlas_px(kind, i, (0.0, y)),
            (None, 3) => atlas_px(kind, i, (0.0, -0.05)),
            _ => atlas_px(kind, i, (0.0, 0.0)),
        };
        if let Some(marks) = marks {
            let mark = marks.of(face.value);
            let place = (centre, height, 0.0);
            draw_mark(&mut canvas, kind, i, &mark, place, (ink, style.typeface));
            continue;
        }
        let underline = matches!(label.as_str(), "6" | "9");
        canvas.draw_text(
            &label,
            centre,
            height,
            0.0,
            ink,
            (underline, style.typeface),
        );
    }
    canvas
}

/// The atlas with its whole mipmap chain (each level a 2×2 box average of the one above, in
/// linear light), level after level: a small or tilted die samples a level of its own size
/// instead of skipping texels, so its numerals stay smooth rather than sparkling.
pub fn mip_chain(canvas: &Canvas) -> (Vec<u8>, u32) {
    let to_linear = |c: u8| (f32::from(c) / 255.0).powf(2.2);
    let to_srgb = |l: f32| (l.max(0.0).powf(1.0 / 2.2) * 255.0).round() as u8;
    let mut data = canvas.rgba.clone();
    let mut level: Vec<f32> = canvas
        .rgba
        .chunks(4)
        .flat_map(|p| {
            [
                to_linear(p[0]),
                to_linear(p[1]),
                to_linear(p[2]),
                f32::from(p[3]),
            ]
        })
        .collect();
    let (mut w, mut h) = (canvas.width, canvas.height);
    let mut levels = 1;
    while w > 1 || h > 1 {
        let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
        let mut next = vec![0.0; nw * nh * 4];
        for y in 0..nh {
            for x in 0..nw {
                for c in 0..4 {
                    let at =
                        |sx: usize, sy: usize| level[(sy.min(h - 1) * w + sx.min(w - 1)) * 4 + c];
                    next[(y * nw + x) * 4 + c] = (at(2 * x, 2 * y)
                        + at(2 * x + 1, 2 * y)
                        + at(2 * x, 2 * y + 1)
                        + at(2 * x + 1, 2 * y + 1))
                        / 4.0;
                }
            }
        }
        data.extend(next.chunks(4).flat_map(|p| {
            [
                to_srgb(p[0]),
                to_srgb(p[1]),
                to_srgb(p[2]),
                p[3].round() as u8,
            ]
        }));
        (level, w, h) = (next, nw, nh);
        levels += 1;
    }
    (data, levels)
}

/// The atlas as a Bevy image, mipmapped and sampled anisotropically (faces are seen at a slant).
#[cfg(feature = "window")]
pub fn die_atlas(kind: DieKind, style: DieStyle, marks: Option<&FaceMarks>) -> Image {
    mipmapped_image(&atlas_pixels(kind, style, marks), false)
}

/// A drawn canvas as a mipmapped sRGB image: anisotropically filtered (a die's faces are seen
/// at a slant), or, with `repeat`, tiled (the felt and the wood).
#[cfg(feature = "window")]
pub fn mipmapped_image(canvas: &Canvas, repeat: bool) -> Image {
    let (data, levels) = mip_chain(canvas);
    let mut image = Image::new_uninit(
        Extent3d {
            width: canvas.width as u32,
            height: canvas.height as u32,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    image.texture_descriptor.mip_level_count = levels;
    image.data = Some(data);
    let mut sampler = ImageSamplerDescriptor::linear();
    if repeat {
        // The felt and the wood fill most of the view: plain trilinear filtering (anisotropic
        // sampling of a whole screen of them costs too much under software rendering).
        sampler.address_mode_u = ImageAddressMode::Repeat;
        sampler.address_mode_v = ImageAddressMode::Repeat;
    } else {
        sampler.set_anisotropic_filter(4);
    }
    image.sampler = ImageSampler::Descriptor(sampler);
    image
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_web_atlas_is_the_drawn_atlas_within_a_blend_step_in_fewer_bytes() {
        for kind in DieKind::ALL {
            let style = DieStyle::IVORY;
            let png = atlas_png(kind, style, None).unwrap_or_else(|e| panic!("{kind:?}: {e}"));
            let mut decoder = png::Decoder::new(std::io::Cursor::new(&png));
            decoder.set_transformations(png::Transformations::EXPAND);
            let mut reader = decoder.read_info().expect("a header");
            let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
            let info = reader.next_frame(&mut buf).expect("a frame");
            let drawn = atlas_pixels(kind, style, None);
            assert_eq!(
                (info.width as usize, info.height as usize),
                (drawn.width, drawn.height)
            );
            let rgb: Vec<u8> = drawn
                .rgba
                .chunks(4)
                .flat_map(|p| [p[0], p[1], p[2]])
                .collect();
            let out = &buf[..info.buffer_size()];
            assert_eq!(out.len(), rgb.len(), "{kind:?}");
            let moved = out.iter().zip(&rgb).map(|(a, b)| a.abs_diff(*b)).max();
            assert!(
                moved <= Some(BLEND_ERROR),
                "{kind:?}: a pixel moved {moved:?}"
            );
            assert_eq!(info.color_type, png::ColorType::Rgb, "{kind:?} expanded");
            // Indexed: a byte a pixel before compression, each atlas under 30 KB.
            assert!(png.len() < 30_000, "{kind:?}: {} bytes", png.len());
        }
    }

    #[test]
    fn mesh_uvs_stay_inside_each_faces_cell() {
        for kind in DieKind::ALL {
            let shape = kind.shape();
            let (cols, rows) = grid(kind.faces() as usize);
            for (i, face) in shape.faces.iter().enumerate() {
                let frame = FaceFrame::new(kind, shape, face);
                let (ox, oy) = cell_origin(kind, i);
                for &v in &face.vertices {
                    let (px, py) = atlas_px(kind, i, frame.local(shape.vertices[v]));
                    assert!(px >= ox as f32 && px <= (ox + CELL) as f32, "{kind:?}");
                    assert!(py >= oy as f32 && py <= (oy + CELL) as f32, "{kind:?}");
                }
                // right × up is the outward normal, so numbers are not mirrored.
                assert!(
                    frame.right.cross(frame.up).dot(face.normal) > 0.99,
                    "{kind:?}"
                );
            }
            assert!(cols * rows >= shape.faces.len());
            let mesh = die_mesh_arrays(kind);
            assert_eq!(
                mesh.positions.len(),
                shape
                    .faces
                    .iter()
                    .map(|f| 2 * f.vertices.len() + 1)
                    .sum::<usize>()
            );
        }
    }

    /// How large the numbers are drawn (the readability table of docs/fairness.md): today's
    /// smallest, the d20's two-digit numbers, are 3.1 mm on a 2 cm die; the narrow faces of the
    /// larger other sizes take 2.6 mm (d15, d30) to 3.8 mm (d16, d18), and none less than 2.5.
    #[test]
    fn every_dies_numbers_are_drawn_at_least_two_and_a_half_mm_tall() {
        let d20 = numeral_size(DieKind::D20);
        assert!((d20.smallest_mm - 3.1).abs() < 0.05, "{d20:?}");
        for kind in DieKind::ALL {
            let size = numeral_size(kind);
            assert!(size.smallest_mm >= 2.5, "{kind:?}: {size:?}");
            assert_eq!(size, numeral_size(kind.body()), "{kind:?} wears its body's");
        }
    }

    #[test]
    fn every_face_cell_carries_ink() {
        for kind in DieKind::ALL {
            let canvas = atlas_pixels(kind, DieStyle::IVORY, None);
            for i in 0..kind.faces() as usize {
                let (ox, oy) = cell_origin(kind, i);
                let mut inked = 0;
                for y in oy..oy + CELL {
                    for x in ox..ox + CELL {
                        let p = &canvas.rgba[(y * canvas.width + x) * 4..][..3];
                        if p[0] < 100 {
                            inked += 1;
                        }
                    }
                }
                // A Fate die's blank faces are blank; a belt die's narrow faces take smaller
                // numbers (a d15's 1 on the d30's kite).
                let blank = kind.label(kind.shape().faces[i].value).is_empty();
                let least = if kind.other_size().is_some() { 80 } else { 150 };
                assert_eq!(
                    inked > least,
                    !blank,
                    "{kind:?} face {i} has {inked} ink pixels"
                );
            }
        }
    }
}

#[cfg(test)]
mod look {
    use super::*;

    /// `DICETABLE_ATLAS_DIR=/tmp/atlas cargo test --lib write_atlases -- --ignored` writes each
    /// die's atlas as a PNG, to look at the numerals.
    #[test]
    #[ignore = "writes files; run by hand to look at the atlases"]
    fn write_atlases() {
        let Ok(dir) = std::env::var("DICETABLE_ATLAS_DIR") else {
            return;
        };
        for kind in DieKind::ALL {
            let canvas = atlas_pixels(kind, DieStyle::IVORY, None);
            let path = std::path::Path::new(&dir).join(format!("{kind:?}.png"));
            let file = std::fs::File::create(path).expect("create");
            let mut encoder = png::Encoder::new(file, canvas.width as u32, canvas.height as u32);
            encoder.set_color(png::ColorType::Rgba);
            let mut writer = encoder.write_header().expect("header");
            writer.write_image_data(&canvas.rgba).expect("write");
        }
    }

    #[test]
    fn the_mip_chain_halves_down_to_one_pixel() {
        let canvas = Canvas::new(6, 3, [200, 100, 50, 255]);
        let (data, levels) = mip_chain(&canvas);
        // 6×3, 3×1, 1×1.
        assert_eq!(levels, 3);
        assert_eq!(data.len(), (18 + 3 + 1) * 4);
        // A flat colour stays that colour at every level.
        assert_eq!(&data[data.len() - 4..], &[200, 100, 50, 255]);
    }
}
