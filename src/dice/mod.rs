//! The dice as objects: their shapes, face values, numbered render meshes, and the one function
//! that reads a settled orientation into a face value.

pub mod geometry;
mod glyphs;
pub mod grain;
pub mod looks;
pub mod marks;
pub mod mesh;
pub mod style;

pub use glyphs::{Canvas, TYPEFACE};

use std::sync::OnceLock;

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

use geometry::Polyhedron;

/// A physical die. A d100 is thrown as a `D10Tens` (00-90) and a `D10` (0-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum DieKind {
    /// Tetrahedron, read at the top vertex.
    D4,
    /// Cube.
    D6,
    /// Octahedron.
    D8,
    /// Pentagonal trapezohedron numbered 0-9 (0 reads 10 on its own).
    D10,
    /// Pentagonal trapezohedron numbered 00-90, the tens die of a d100.
    D10Tens,
    /// Dodecahedron.
    D12,
    /// Icosahedron.
    D20,
    /// A cube marked 1, 1, 1, 2, 2, 2: the d2 (read by its face, 1 to 6, and counted by its
    /// mark).
    D2,
    /// A cube marked 1, 1, 2, 2, 3, 3, each number on opposite faces: the d3.
    D3,
    /// A Fate die: a cube marked −, −, blank, blank, +, + (−1, 0, +1), each mark on opposite
    /// faces.
    Fate,
    /// A d10's trapezohedron numbered 1-5 twice: the d5.
    D5,
    /// A heptagonal trapezohedron (14 kites) numbered 1-7 twice: the d7.
    D7,
    /// An 18-kite trapezohedron numbered 1-9 twice: the d9.
    D9,
    /// A 22-kite trapezohedron numbered 1-11 twice: the d11.
    D11,
    /// A 26-kite trapezohedron numbered 1-13 twice: the d13.
    D13,
    /// A heptagonal trapezohedron, 14 kites.
    D14,
    /// A 30-kite trapezohedron numbered 1-15 twice: the d15.
    D15,
    /// An octagonal bipyramid, 16 triangles.
    D16,
    /// An enneagonal trapezohedron, 18 kites.
    D18,
    /// An 11-gonal trapezohedron, 22 kites.
    D22,
    /// A dodecagonal bipyramid, 24 triangles.
    D24,
    /// A 13-gonal trapezohedron, 26 kites.
    D26,
    /// A 14-gonal bipyramid, 28 triangles.
    D28,
    /// A 15-gonal trapezohedron, 30 kites.
    D30,
    /// A d18 thrown again while it shows 18: the d17 (no isohedral solid has 17 faces, and 34
    /// kites roll too long to read).
    D17,
    /// A d20 thrown again while it shows 20: the d19.
    D19,
    /// A d22 thrown again while it shows 22: the d21.
    D21,
    /// A d24 thrown again while it shows 24: the d23.
    D23,
    /// A d26 thrown again while it shows 26: the d25.
    D25,
    /// A d28 thrown again while it shows 28: the d27.
    D27,
    /// A d30 thrown again while it shows 30: the d29.
    D29,
}

/// The dice of the sizes no Platonic solid has, with their sizes: each an isohedral solid (every
/// face alike, so fair by its symmetry, and measured so in the fairness lab). An isohedral solid
/// has an even number of faces, so an odd size to 15 is the solid of twice as many faces, marked
/// twice, as a d3 is a marked d6; an odd size from 17 is the next die up thrown again while it
/// shows its largest number ([`DieKind::thrown_again_above`]), as players throw a d20 for a d19.
pub const OTHER_SIZES: [(DieKind, u32); 21] = [
    (DieKind::D5, 5),
    (DieKind::D7, 7),
    (DieKind::D9, 9),
    (DieKind::D11, 11),
    (DieKind::D13, 13),
    (DieKind::D14, 14),
    (DieKind::D15, 15),
    (DieKind::D16, 16),
    (DieKind::D18, 18),
    (DieKind::D22, 22),
    (DieKind::D24, 24),
    (DieKind::D26, 26),
    (DieKind::D28, 28),
    (DieKind::D30, 30),
    (DieKind::D17, 17),
    (DieKind::D19, 19),
    (DieKind::D21, 21),
    (DieKind::D23, 23),
    (DieKind::D25, 25),
    (DieKind::D27, 27),
    (DieKind::D29, 29),
];

impl DieKind {
    /// Every kind: the polyhedra in size order, then the marked cubes, then the dice of other
    /// sizes (appended, so a replay code's die numbers keep their meaning).
    pub const ALL: [DieKind; 31] = [
        DieKind::D4,
        DieKind::D6,
        DieKind::D8,
        DieKind::D10,
        DieKind::D10Tens,
        DieKind::D12,
        DieKind::D20,
        DieKind::D2,
        DieKind::D3,
        DieKind::Fate,
        DieKind::D5,
        DieKind::D7,
        DieKind::D9,
        DieKind::D11,
        DieKind::D13,
        DieKind::D14,
        DieKind::D15,
        DieKind::D16,
        DieKind::D18,
        DieKind::D22,
        DieKind::D24,
        DieKind::D26,
        DieKind::D28,
        DieKind::D30,
        DieKind::D17,
        DieKind::D19,
        DieKind::D21,
        DieKind::D23,
        DieKind::D25,
        DieKind::D27,
        DieKind::D29,
    ];

    /// The size of a die of another size (a d5 ... a d30): the numbers it shows, 1 to it.
    pub fn other_size(self) -> Option<u32> {
        OTHER_SIZES
            .iter()
            .find(|(kind, _)| *kind == self)
            .map(|(_, size)| *size)
    }

    /// Whether each number is on two faces (an odd size to 15, on a solid of twice its faces).
    pub fn is_marked_twice(self) -> bool {
        self.other_size().is_some_and(|n| n % 2 == 1) && self.thrown_again_above().is_none()
    }

    /// The largest number of a die that is the next die up thrown again while it shows more
    /// (a d17 is a d18 thrown again on 18): the size, for the odd sizes from 17.
    pub fn thrown_again_above(self) -> Option<u32> {
        self.other_size().filter(|&n| n % 2 == 1 && n >= 17)
    }

    /// The die whose solid it is thrown as: itself, or the next die up for a die thrown again
    /// above its size (a d19 is a d20's icosahedron).
    pub fn body(self) -> DieKind {
        match self.thrown_again_above() {
            Some(n) => DieKind::for_sides(n + 1).unwrap_or(self),
            None => self,
        }
    }

    /// Whether a die settled on `value` is thrown again: a face above the size of a die thrown
    /// again above it (a d17 showing 18).
    pub fn throws_again_on(self, value: u32) -> bool {
        self.thrown_again_above().is_some_and(|n| value > n)
    }

    /// How it is thrown, for a record's reader and the docs: "a d18 thrown again on 18" for a
    /// die thrown again above its size, `None` for a die that is its own solid.
    pub fn thrown_as(self) -> Option<String> {
        let n = self.thrown_again_above()?;
        Some(format!("a d{} thrown again on {}", n + 1, n + 1))
    }

    /// The numbers a die of the rules reads from it: its size (a d5's 5, not its ten faces).
    pub fn rules_size(self) -> u32 {
        self.other_size().unwrap_or_else(|| self.faces())
    }

    /// Whether it is a cube marked with other values than 1 to 6 (a d2, a d3, a Fate die):
    /// the same body as a d6, thrown the same way.
    pub fn is_marked_cube(self) -> bool {
        matches!(self, DieKind::D2 | DieKind::D3 | DieKind::Fate)
    }

    /// The dice thrown on their own (a tens d10 only comes with a d100).
    pub const SINGLES: [DieKind; 6] = [
        DieKind::D4,
        DieKind::D6,
        DieKind::D8,
        DieKind::D10,
        DieKind::D12,
        DieKind::D20,
    ];

    /// The shape (computed once).
    pub fn shape(self) -> &'static Polyhedron {
        static SHAPES: OnceLock<Vec<Polyhedron>> = OnceLock::new();
        let shapes =
            SHAPES.get_or_init(|| DieKind::ALL.iter().map(|k| Polyhedron::of(*k)).collect());
        &shapes[DieKind::ALL.iter().position(|k| *k == self).unwrap_or(0)]
    }

    /// The number of faces.
    pub fn faces(self) -> u32 {
        match self {
            DieKind::D4 => 4,
            DieKind::D6 | DieKind::D2 | DieKind::D3 | DieKind::Fate => 6,
            DieKind::D8 => 8,
            DieKind::D10 | DieKind::D10Tens => 10,
            DieKind::D12 => 12,
            DieKind::D20 => 20,
            again if again.thrown_again_above().is_some() => again.body().faces(),
            other => match other.other_size().unwrap_or(6) {
                n if n % 2 == 1 => 2 * n,
                n => n,
            },
        }
    }

    /// A d4 is read from the face it lies on (the number at its top vertex).
    pub fn reads_face_down(self) -> bool {
        self == DieKind::D4
    }

    /// How a face value is printed: the mark on that face.
    pub fn label(self, value: u32) -> String {
        let marked = |marks: [&str; 6]| {
            let index = value.clamp(1, 6) as usize - 1;
            marks[index].to_string()
        };
        match self {
            DieKind::D10Tens => format!("{}0", value),
            // Each mark on opposite faces (a cube's opposite faces add up to 7), as real
            // d3s and Fate dice are marked; `odds::notation` reads the same marks.
            DieKind::D2 => marked(["1", "2", "1", "2", "2", "1"]),
            DieKind::D3 => marked(["1", "2", "3", "3", "2", "1"]),
            DieKind::Fate => marked(["−", "", "+", "+", "", "−"]),
            twice if twice.is_marked_twice() => {
                let n = twice.other_size().unwrap_or(1);
                (value.saturating_sub(1) % n + 1).to_string()
            }
            _ => value.to_string(),
        }
    }

    /// The places of the tray it takes ([`tray_places`]): two for the large dice of 18 faces
    /// or more.
    pub fn tray_places(self) -> usize {
        let body = self.body();
        if body.other_size().is_some() && body.faces() >= 18 {
            2
        } else {
            1
        }
    }

    /// The characters of the die's longest number ("30": 2), so every face's number is drawn
    /// at one size.
    pub fn longest_label(self) -> usize {
        self.shape()
            .faces
            .iter()
            .map(|f| self.label(f.value).chars().count())
            .max()
            .unwrap_or(1)
    }

    /// What a settled face reads, as shown over the die: its mark, and a Fate die's blank as 0.
    pub fn reading(self, value: u32) -> String {
        match self.label(value).as_str() {
            "" => "0".to_string(),
            mark => mark.to_string(),
        }
    }

    /// The die for a size of the rules (`None` for sizes no physical die has).
    pub fn for_sides(sides: u32) -> Option<DieKind> {
        Some(match sides {
            4 => DieKind::D4,
            6 => DieKind::D6,
            8 => DieKind::D8,
            10 => DieKind::D10,
            12 => DieKind::D12,
            20 => DieKind::D20,
            other => {
                return OTHER_SIZES
                    .iter()
                    .find(|(_, size)| *size == other)
                    .map(|(kind, _)| *kind);
            }
        })
    }

    /// The stable id of a kind in roll records, replay codes and the web page: "d4" ... "d20",
    /// "d10t" for the tens die of a d100.
    pub fn id(self) -> &'static str {
        match self {
            DieKind::D4 => "d4",
            DieKind::D6 => "d6",
            DieKind::D8 => "d8",
            DieKind::D10 => "d10",
            DieKind::D10Tens => "d10t",
            DieKind::D12 => "d12",
            DieKind::D20 => "d20",
            DieKind::D2 => "d2",
            DieKind::D3 => "d3",
            DieKind::Fate => "dF",
            DieKind::D5 => "d5",
            DieKind::D7 => "d7",
            DieKind::D9 => "d9",
            DieKind::D11 => "d11",
            DieKind::D13 => "d13",
            DieKind::D14 => "d14",
            DieKind::D15 => "d15",
            DieKind::D16 => "d16",
            DieKind::D18 => "d18",
            DieKind::D22 => "d22",
            DieKind::D24 => "d24",
            DieKind::D26 => "d26",
            DieKind::D28 => "d28",
            DieKind::D30 => "d30",
            DieKind::D17 => "d17",
            DieKind::D19 => "d19",
            DieKind::D21 => "d21",
            DieKind::D23 => "d23",
            DieKind::D25 => "d25",
            DieKind::D27 => "d27",
            DieKind::D29 => "d29",
        }
    }

    /// The kind of an id written by [`DieKind::id`].
    pub fn from_id(id: &str) -> Option<DieKind> {
        DieKind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// A short name: "d20", "d10 (tens)" (the id, but for the tens die).
    pub fn name(self) -> &'static str {
        match self {
            DieKind::D10Tens => "d10 (tens)",
            other => other.id(),
        }
    }

    /// Parses "d4" ... "d20", and the marked cubes "d2", "d3", "dF" (a tens die is not thrown
    /// on its own).
    pub fn parse(text: &str) -> Result<DieKind, String> {
        let lower = text.trim().to_ascii_lowercase();
        let marked = [DieKind::D2, DieKind::D3, DieKind::Fate]
            .into_iter()
            .find(|k| k.id().to_ascii_lowercase() == lower);
        marked
            .or_else(|| {
                lower
                    .strip_prefix('d')
                    .and_then(|n| n.parse().ok())
                    .and_then(DieKind::for_sides)
            })
            .ok_or_else(|| format!("'{text}' is not a die here: use d2 to d30 or dF"))
    }
}

/// Most physical dice one throw puts in the tray (a d100 is two: its tens and its units), for
/// every command, the window, the roll API, rooms and the rules' moves alike: every die kind
/// settles at this count for every seed measured (`dicetable bench --settle`, docs/performance.md).
pub const MOST_IN_A_THROW: usize = 100;

/// The places of the tray's [`MOST_IN_A_THROW`] a throw of these physical dice takes: one a die,
/// two for a die of 18 faces or more (2.55 cm across, where the others are 2 cm at most: a
/// hundred of them do not all find room to lie flat, and 50 always do, `bench --settle`).
pub fn tray_places(dice: &[DieKind]) -> usize {
    dice.iter().map(|d| d.tray_places()).sum()
}

/// Checks a throw of `count` physical dice against [`MOST_IN_A_THROW`]: the one check of the cap,
/// wherever a throw comes from (a move's plan, a notation, a record). Err carries the count.
pub fn fits_a_throw(count: usize) -> Result<(), usize> {
    if count > MOST_IN_A_THROW {
        Err(count)
    } else {
        Ok(())
    }
}

/// The physical dice that dice of the rules of these sizes put in the tray (a d100 is two; a size
/// with no physical die counts one, refused later for its shape).
pub fn physical_count(sides: impl IntoIterator<Item = u32>) -> usize {
    sides
        .into_iter()
        .map(|s| physical_dice(s).map_or(1, |d| tray_places(&d)))
        .sum()
}

/// A die of the rules or the notation that no physical die makes (a d31).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a d{0} has no physical die: dicetable throws d2 to d30, d100 and dF")]
pub struct NoPhysicalDie(pub u32);

/// The physical dice that make one numbered die of the rules: a d100 is a tens d10 and a d10.
/// (The notation's d2, d3 and dF are marked cubes: `DieKind::D2`, `D3`, `Fate`.)
pub fn physical_dice(sides: u32) -> Result<Vec<DieKind>, NoPhysicalDie> {
    match sides {
        100 => Ok(vec![DieKind::D10Tens, DieKind::D10]),
        s => DieKind::for_sides(s)
            .map(|k| vec![k])
            .ok_or(NoPhysicalDie(s)),
    }
}

/// The sizes of the rules' dice a list of physical dice makes, in order: a tens d10 and the d10
/// after it are one d100.
pub fn rules_sides(dice: &[DieKind]) -> Vec<u32> {
    let mut sides = Vec::new();
    let mut i = 0;
    while i < dice.len() {
        if dice[i] == DieKind::D10Tens && dice.get(i + 1) == Some(&DieKind::D10) {
            sides.push(100);
            i += 2;
        } else {
            sides.push(dice[i].rules_size());
            i += 1;
        }
    }
    sides
}

/// The faces of the rules' dice of sizes `sides` from their physical dice's values, in order
/// (each value read by [`rules_face`]). Values missing at the end read 0, which no die shows.
pub fn rules_faces(sides: &[u32], values: &[u32]) -> Vec<u32> {
    let mut values = values.iter().copied();
    sides
        .iter()
        .map(|&s| {
            let count = physical_dice(s).map_or(1, |d| d.len());
            let parts: Vec<u32> = values.by_ref().take(count).collect();
            if parts.len() == count {
                rules_face(s, &parts)
            } else {
                0
            }
        })
        .collect()
}

/// The face of a rules die from its physical dice's face values: a d10's 0 reads 10; a d100 is
/// tens + units, and 00 with 0 reads 100.
pub fn rules_face(sides: u32, values: &[u32]) -> u32 {
    match (sides, values) {
        (10, [0]) => 10,
        (100, [tens, units]) => match tens * 10 + units {
            0 => 100,
            v => v,
        },
        // A die of an odd size has each number on two faces (a d5's faces are 1-10).
        (s, [v, ..]) if DieKind::for_sides(s).is_some_and(DieKind::is_marked_twice) && *v > 0 => {
            (v - 1) % s + 1
        }
        (_, [v, ..]) => *v,
        _ => 0,
    }
}

/// What a die shows in an orientation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reading {
    /// Index of the face read.
    pub face: usize,
    /// Its value.
    pub value: u32,
    /// Angle in degrees between that face's normal and straight up (down for a d4): 0 when
    /// the die lies flat.
    pub tilt_degrees: f32,
}

/// Reads the face a die shows at rest in `rotation`: the face pointing up (for a d4, the face it
/// lies on, whose value is the number at the top vertex).
pub fn read(kind: DieKind, rotation: Quat) -> Reading {
    let direction = if kind.reads_face_down() {
        Vec3::NEG_Y
    } else {
        Vec3::Y
    };
    let shape = kind.shape();
    let (face, tilt) = shape.face_towards(rotation, direction);
    Reading {
        face,
        value: shape.faces[face].value,
        tilt_degrees: tilt,
    }
}

/// The rotation that lays `face` flat where it is read (up, or down for a d4), turned by
/// `spin` radians about the vertical.
pub fn rotation_showing(kind: DieKind, face: usize, spin: f32) -> Quat {
    let direction = if kind.reads_face_down() {
        Vec3::NEG_Y
    } else {
        Vec3::Y
    };
    let normal = kind.shape().faces[face].normal;
    Quat::from_rotation_y(spin) * Quat::from_rotation_arc(normal, direction)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_face_reads_back_in_every_rotation_about_the_vertical() {
        for kind in DieKind::ALL {
            let shape = kind.shape();
            for (i, face) in shape.faces.iter().enumerate() {
                for step in 0..24 {
                    let spin = step as f32 * std::f32::consts::TAU / 24.0;
                    let r = read(kind, rotation_showing(kind, i, spin));
                    assert_eq!(
                        (r.face, r.value),
                        (i, face.value),
                        "{kind:?} face {i} spin {step}"
                    );
                    assert!(r.tilt_degrees < 0.1, "{kind:?} tilt {}", r.tilt_degrees);
                }
            }
        }
    }

    #[test]
    fn a_die_on_an_edge_reads_as_tilted() {
        // A d6 balanced on an edge: 45° from either face.
        let r = read(
            DieKind::D6,
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
        );
        assert!((r.tilt_degrees - 45.0).abs() < 0.01);
    }

    #[test]
    fn d4_reads_the_top_vertex() {
        let shape = DieKind::D4.shape();
        for i in 0..4 {
            let rot = rotation_showing(DieKind::D4, i, 0.3);
            let top = shape
                .vertices
                .iter()
                .enumerate()
                .max_by(|a, b| (rot * *a.1).y.total_cmp(&(rot * *b.1).y))
                .map(|(v, _)| v);
            let reading = read(DieKind::D4, rot);
            assert_eq!(Some(reading.value), top.map(|v| shape.vertex_values[v]));
        }
    }

    #[test]
    fn d100_and_d10_faces() {
        assert_eq!(physical_dice(100), Ok(vec![DieKind::D10Tens, DieKind::D10]));
        assert_eq!(physical_dice(7), Ok(vec![DieKind::D7]));
        assert_eq!(physical_dice(17), Ok(vec![DieKind::D17]));
        assert_eq!(physical_dice(31), Err(NoPhysicalDie(31)));
        let kinds = [DieKind::D6, DieKind::D10Tens, DieKind::D10, DieKind::D10];
        assert_eq!(rules_sides(&kinds), vec![6, 100, 10]);
        assert_eq!(rules_faces(&[6, 100, 10], &[4, 0, 0, 0]), vec![4, 100, 10]);
        assert_eq!(
            rules_faces(&[6, 100], &[4, 9]),
            vec![4, 0],
            "a d100 short of a die"
        );
        assert_eq!(rules_face(100, &[0, 0]), 100);
        assert_eq!(rules_face(100, &[0, 7]), 7);
        assert_eq!(rules_face(100, &[9, 0]), 90);
        assert_eq!(rules_face(10, &[0]), 10);
        assert_eq!(rules_face(20, &[17]), 17);
        assert_eq!(DieKind::D10Tens.label(3), "30");
        assert_eq!(DieKind::D10Tens.label(0), "00");
    }

    /// Every size from 4 to 30 has a die of the rules (the d2 and d3 are the notation's marked
    /// cubes); an odd size to 15 is the solid of twice its faces, each number on two faces (one
    /// near each apex), read as the number.
    #[test]
    fn the_dice_of_other_sizes_and_their_marks() {
        let thrown: Vec<u32> = (2..=40).filter(|&n| physical_dice(n).is_ok()).collect();
        let expected: Vec<u32> = (4..=30).collect();
        assert_eq!(thrown, expected);
        for (kind, size) in OTHER_SIZES {
            if kind.thrown_again_above().is_some() {
                continue;
            }
            assert_eq!(DieKind::for_sides(size), Some(kind));
            assert_eq!(DieKind::from_id(&format!("d{size}")), Some(kind));
            assert_eq!(DieKind::parse(&format!("D{size}")), Ok(kind));
            assert_eq!(kind.rules_size(), size);
            let faces = if size % 2 == 1 { 2 * size } else { size };
            assert_eq!(
                (kind.faces(), kind.shape().faces.len() as u32),
                (faces, faces)
            );
            // Each number 1..=size on faces / size faces.
            let mut marks: Vec<u32> = kind
                .shape()
                .faces
                .iter()
                .map(|f| kind.label(f.value).parse().expect("a number"))
                .collect();
            marks.sort_unstable();
            let each = faces / size;
            let expect: Vec<u32> = (1..=size)
                .flat_map(|n| std::iter::repeat_n(n, each as usize))
                .collect();
            assert_eq!(marks, expect, "{kind:?}");
            // The rules read a face as its mark.
            for f in &kind.shape().faces {
                assert_eq!(
                    rules_face(size, &[f.value]).to_string(),
                    kind.label(f.value),
                    "{kind:?}"
                );
            }
        }
        assert_eq!(rules_sides(&[DieKind::D5, DieKind::D30]), vec![5, 30]);
        assert_eq!(rules_faces(&[5, 7], &[10, 8]), vec![5, 1]);
        assert_eq!(DieKind::D5.label(6), "1");
        // Two dice of one body: the d15 is the d30's, marked twice.
        assert_eq!(DieKind::D15.shape(), DieKind::D30.shape());
    }

    /// An odd size from 17 is the next die up, numbered as it is, thrown again while it shows
    /// its largest number: a d19 is a d20, a d17 a d18 (two of the tray's places, as the d18).
    #[test]
    fn the_odd_sizes_from_17_are_the_next_die_thrown_again() {
        let again: Vec<(DieKind, DieKind)> = OTHER_SIZES
            .iter()
            .filter(|(kind, _)| kind.thrown_again_above().is_some())
            .map(|(kind, _)| (*kind, kind.body()))
            .collect();
        assert_eq!(
            again,
            [
                (DieKind::D17, DieKind::D18),
                (DieKind::D19, DieKind::D20),
                (DieKind::D21, DieKind::D22),
                (DieKind::D23, DieKind::D24),
                (DieKind::D25, DieKind::D26),
                (DieKind::D27, DieKind::D28),
                (DieKind::D29, DieKind::D30),
            ]
        );
        for (kind, body) in again {
            let n = kind.rules_size();
            assert_eq!(kind.thrown_again_above(), Some(n));
            assert_eq!(body.rules_size(), n + 1);
            assert_eq!(kind.shape(), body.shape(), "{kind:?}");
            assert_eq!(kind.faces(), body.faces());
            assert!(!kind.is_marked_twice());
            assert_eq!(kind.tray_places(), body.tray_places());
            assert!(kind.throws_again_on(n + 1) && !kind.throws_again_on(n));
            assert_eq!(kind.label(n + 1), (n + 1).to_string());
            assert_eq!(rules_face(n, &[n]), n);
        }
        assert_eq!(DieKind::D19.tray_places(), 1);
        assert_eq!(DieKind::D17.tray_places(), 2);
        assert_eq!(
            DieKind::D17.thrown_as().as_deref(),
            Some("a d18 thrown again on 18")
        );
        assert_eq!(DieKind::D18.thrown_as(), None);
        assert!(!DieKind::D20.throws_again_on(20));
        assert_eq!(DieKind::parse("d19"), Ok(DieKind::D19));
        assert_eq!(
            physical_dice(31),
            Err(NoPhysicalDie(31)),
            "above 30 the notation writes it from dice there are"
        );
    }
}
