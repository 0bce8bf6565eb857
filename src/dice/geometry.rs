//! The polyhedra: one vertex list per die, from which faces, face normals and face values are
//! derived (and, elsewhere, the render mesh and the collider), so they can never disagree.
//!
//! Units are centimetres. Sizes follow real dice: a d6 is 1.6 cm across.

use glam::{Quat, Vec3};

use super::DieKind;

/// The golden ratio, for the dodecahedron and the icosahedron.
const PHI: f32 = 1.618_034;

/// One flat face.
#[derive(Clone, Debug, PartialEq)]
pub struct Face {
    /// Indices into the vertex list, counter-clockwise seen from outside.
    pub vertices: Vec<usize>,
    /// Outward unit normal.
    pub normal: Vec3,
    /// The value read when this face is up (for a d4: when this face is down, the value of the
    /// vertex opposite it, which is the number at the top).
    pub value: u32,
}

/// A die's shape: vertices and faces.
#[derive(Clone, Debug, PartialEq)]
pub struct Polyhedron {
    /// Vertex positions about the centre of mass, cm.
    pub vertices: Vec<Vec3>,
    /// Faces with their values.
    pub faces: Vec<Face>,
    /// For a d4, the value of each vertex (the number printed next to it on every face).
    pub vertex_values: Vec<u32>,
}

impl Polyhedron {
    /// The shape of a kind of die.
    pub fn of(kind: DieKind) -> Polyhedron {
        match kind {
            DieKind::D4 => tetrahedron(),
            DieKind::D6 | DieKind::D2 | DieKind::D3 | DieKind::Fate => cube(),
            DieKind::D8 => octahedron(),
            DieKind::D10 | DieKind::D10Tens => trapezohedron(),
            DieKind::D12 => dodecahedron(),
            DieKind::D20 => icosahedron(),
            again if again.body() != again => Polyhedron::of(again.body()),
            other => belt_die(other.faces()),
        }
    }

    /// Distance from the centre to the nearest face plane (the inradius).
    pub fn inradius(&self) -> f32 {
        self.faces
            .iter()
            .map(|f| self.vertices[f.vertices[0]].dot(f.normal))
            .fold(f32::INFINITY, f32::min)
    }

    /// Distance from the centre to the farthest vertex.
    pub fn circumradius(&self) -> f32 {
        self.vertices.iter().map(|v| v.length()).fold(0.0, f32::max)
    }

    /// Volume, cm³ (sum of the pyramids from the centre to each face).
    pub fn volume(&self) -> f32 {
        self.faces
            .iter()
            .map(|f| {
                let c = self.vertices[f.vertices[0]];
                let area: f32 = (1..f.vertices.len() - 1)
                    .map(|i| {
                        let (a, b) = (
                            self.vertices[f.vertices[i]],
                            self.vertices[f.vertices[i + 1]],
                        );
                        (a - c).cross(b - c).length() / 2.0
                    })
                    .sum();
                area * c.dot(f.normal) / 3.0
            })
            .sum()
    }

    /// The centroid of a face.
    pub fn face_centre(&self, face: &Face) -> Vec3 {
        face.vertices
            .iter()
            .map(|&i| self.vertices[i])
            .sum::<Vec3>()
            / face.vertices.len() as f32
    }

    /// The largest distance of any vertex of a face from the face's plane (0 for a flat face).
    pub fn face_flatness(&self, face: &Face) -> f32 {
        let d = self.vertices[face.vertices[0]].dot(face.normal);
        face.vertices
            .iter()
            .map(|&i| (self.vertices[i].dot(face.normal) - d).abs())
            .fold(0.0, f32::max)
    }

    /// The face whose outward normal, after `rotation`, points most nearly along `direction`,
    /// and the angle between them in degrees.
    pub fn face_towards(&self, rotation: Quat, direction: Vec3) -> (usize, f32) {
        let mut best = (0, -2.0f32);
        for (i, f) in self.faces.iter().enumerate() {
            let d = (rotation * f.normal).dot(direction);
            if d > best.1 {
                best = (i, d);
            }
        }
        (best.0, best.1.clamp(-1.0, 1.0).acos().to_degrees())
    }
}

/// Builds faces from the vertex list and the outward face directions: each face holds the
/// vertices farthest along its direction, ordered counter-clockwise around it.
fn faces_from_normals(vertices: &[Vec3], normals: &[Vec3]) -> Vec<Face> {
    normals
        .iter()
        .map(|n| {
            let n = n.normalize();
            let max = vertices.iter().map(|v| v.dot(n)).fold(f32::MIN, f32::max);
            let mut idx: Vec<usize> = (0..vertices.len())
                .filter(|&i| vertices[i].dot(n) > max - 1e-4)
                .collect();
            let centre = idx.iter().map(|&i| vertices[i]).sum::<Vec3>() / idx.len() as f32;
            let u = (vertices[idx[0]] - centre).normalize();
            let w = n.cross(u);
            idx.sort_by(|&a, &b| {
                let (pa, pb) = (vertices[a] - centre, vertices[b] - centre);
                let aa = pa.dot(w).atan2(pa.dot(u));
                let ab = pb.dot(w).atan2(pb.dot(u));
                aa.total_cmp(&ab)
            });
            Face {
                vertices: idx,
                normal: n,
                value: 0,
            }
        })
        .collect()
}

/// The outward normals of the convex hull's faces, found from the vertices alone: every plane
/// through three vertices that has all vertices on one side.
fn hull_normals(vertices: &[Vec3]) -> Vec<Vec3> {
    let mut normals: Vec<Vec3> = Vec::new();
    let n = vertices.len();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let (a, b, c) = (vertices[i], vertices[j], vertices[k]);
                let cross = (b - a).cross(c - a);
                if cross.length() < 1e-6 {
                    continue;
                }
                let mut normal = cross.normalize();
                if normal.dot(a) < 0.0 {
                    normal = -normal;
                }
                let supporting = vertices.iter().all(|v| normal.dot(*v - a) < 1e-4);
                if supporting && !normals.iter().any(|m| m.dot(normal) > 0.9999) {
                    normals.push(normal);
                }
            }
        }
    }
    normals
}

/// Gives opposite faces values summing to `sum`: `low_values[i]` goes to the i-th face (in
/// list order) of each opposite pair met first.
fn number_opposites(faces: &mut [Face], low_values: &[u32], sum: u32) {
    let mut next = low_values.iter();
    let mut done = vec![false; faces.len()];
    for i in 0..faces.len() {
        if done[i] {
            continue;
        }
        let j = (0..faces.len())
            .find(|&j| j != i && faces[j].normal.dot(faces[i].normal) < -0.999)
            .unwrap_or(i);
        let v = next.next().copied().unwrap_or(0);
        faces[i].value = v;
        faces[j].value = sum - v;
        done[i] = true;
        done[j] = true;
    }
}

fn tetrahedron() -> Polyhedron {
    // Edge 2.0 cm: the vertices of a cube of half-size 1/√2, alternate corners.
    let s = std::f32::consts::FRAC_1_SQRT_2;
    let vertices: Vec<Vec3> = [
        (1.0, 1.0, 1.0),
        (1.0, -1.0, -1.0),
        (-1.0, 1.0, -1.0),
        (-1.0, -1.0, 1.0),
    ]
    .iter()
    .map(|&(x, y, z)| Vec3::new(x, y, z) * s)
    .collect();
    let vertex_values = vec![1, 2, 3, 4];
    // Each face is opposite one vertex; it reads that vertex's value when it lies face down.
    let normals: Vec<Vec3> = vertices.iter().map(|v| -*v).collect();
    let mut faces = faces_from_normals(&vertices, &normals);
    for (f, value) in faces.iter_mut().zip(&vertex_values) {
        f.value = *value;
    }
    Polyhedron {
        vertices,
        faces,
        vertex_values,
    }
}

fn cube() -> Polyhedron {
    let h = 0.8;
    let mut vertices = Vec::new();
    for x in [-h, h] {
        for y in [-h, h] {
            for z in [-h, h] {
                vertices.push(Vec3::new(x, y, z));
            }
        }
    }
    let normals = [
        Vec3::X,
        Vec3::Y,
        Vec3::Z,
        Vec3::NEG_X,
        Vec3::NEG_Y,
        Vec3::NEG_Z,
    ];
    let mut faces = faces_from_normals(&vertices, &normals);
    // 1, 2, 3 meet at one corner, counter-clockwise (the usual right-handed die).
    number_opposites(&mut faces, &[1, 2, 3], 7);
    Polyhedron {
        vertices,
        faces,
        vertex_values: vec![],
    }
}

fn octahedron() -> Polyhedron {
    let a = 1.0;
    let vertices = vec![
        Vec3::new(a, 0.0, 0.0),
        Vec3::new(-a, 0.0, 0.0),
        Vec3::new(0.0, a, 0.0),
        Vec3::new(0.0, -a, 0.0),
        Vec3::new(0.0, 0.0, a),
        Vec3::new(0.0, 0.0, -a),
    ];
    let mut normals = Vec::new();
    for y in [1.0, -1.0] {
        for (x, z) in [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)] {
            normals.push(Vec3::new(x, y, z));
        }
    }
    let mut faces = faces_from_normals(&vertices, &normals);
    number_opposites(&mut faces, &[1, 3, 5, 7], 9);
    Polyhedron {
        vertices,
        faces,
        vertex_values: vec![],
    }
}

/// Equator ring radius, cm, and ring height of the d10.
const D10_RING_RADIUS: f32 = 0.95;
const D10_RING_HEIGHT: f32 = 0.1;

/// The apex height of an `m`-gonal trapezohedron whose kites are flat, given the two rings
/// (radius `r`, at heights ±`z`, the lower ring turned by half a step): the d10's is `m` = 5.
pub fn trapezohedron_apex_height(m: u32, r: f32, z: f32) -> f32 {
    let step = 360.0 / m as f32;
    let at =
        |deg: f32, y: f32| Vec3::new(r * deg.to_radians().cos(), y, r * deg.to_radians().sin());
    let (u0, l0, u1) = (at(0.0, z), at(step / 2.0, -z), at(step, z));
    // The plane through U0, L0, U1 meets the axis at the apex.
    let n = (l0 - u0).cross(u1 - u0);
    n.dot(u0) / n.y
}

fn trapezohedron() -> Polyhedron {
    let (r, z) = (D10_RING_RADIUS, D10_RING_HEIGHT);
    let h = trapezohedron_apex_height(5, r, z);
    let mut vertices = vec![Vec3::new(0.0, h, 0.0), Vec3::new(0.0, -h, 0.0)];
    for k in 0..5 {
        let a = (72.0 * k as f32).to_radians();
        vertices.push(Vec3::new(r * a.cos(), z, r * a.sin()));
    }
    for k in 0..5 {
        let a = (72.0 * k as f32 + 36.0).to_radians();
        vertices.push(Vec3::new(r * a.cos(), -z, r * a.sin()));
    }
    // Upper kites: top apex, U_k, L_k, U_k+1; their normals, and the opposite (lower) ones.
    let mut normals = Vec::new();
    for k in 0..5 {
        let (top, u0, l0, u1) = (
            vertices[0],
            vertices[2 + k],
            vertices[7 + k],
            vertices[2 + (k + 1) % 5],
        );
        let n = (u1 - l0).cross(top - l0).normalize();
        let n = if n.dot(u0 + l0 + u1 + top) < 0.0 {
            -n
        } else {
            n
        };
        normals.push(n);
    }
    let lower: Vec<Vec3> = normals.iter().map(|n| -*n).collect();
    normals.extend(lower);
    let mut faces = faces_from_normals(&vertices, &normals);
    // Even numbers around the top apex, odd around the bottom; opposite faces sum to 9.
    number_opposites(&mut faces, &[0, 8, 6, 4, 2], 9);
    Polyhedron {
        vertices,
        faces,
        vertex_values: vec![],
    }
}

/// The ratio of apex height to ring radius every trapezohedron die keeps: the d10's, so a d14
/// or a d30 stands as tall for its width as a d10 and rolls as one does.
fn trapezohedron_stature() -> f32 {
    trapezohedron_apex_height(5, D10_RING_RADIUS, D10_RING_HEIGHT) / D10_RING_RADIUS
}

/// The ring height that gives an `m`-gonal trapezohedron of ring radius `r` the d10's stature
/// (found by halving: the apex rises with the ring height).
fn trapezohedron_ring_height(m: u32, r: f32) -> f32 {
    let target = trapezohedron_stature() * r;
    let (mut low, mut high) = (0.0f32, r);
    for _ in 0..60 {
        let mid = (low + high) / 2.0;
        if trapezohedron_apex_height(m, r, mid) > target {
            high = mid;
        } else {
            low = mid;
        }
    }
    (low + high) / 2.0
}

/// An `m`-gonal trapezohedron (`m` odd: 2`m` kites, each opposite a parallel one, so the die
/// comes to rest with a face up), numbered 1 to 2`m`: the odd numbers around the top apex, each
/// face's opposite summing to 2`m` + 1.
fn trapezohedron_die(m: u32, r: f32) -> Polyhedron {
    let z = trapezohedron_ring_height(m, r);
    let h = trapezohedron_apex_height(m, r, z);
    let count = m as usize;
    let step = 360.0 / m as f32;
    let mut vertices = vec![Vec3::new(0.0, h, 0.0), Vec3::new(0.0, -h, 0.0)];
    for k in 0..count {
        let a = (step * k as f32).to_radians();
        vertices.push(Vec3::new(r * a.cos(), z, r * a.sin()));
    }
    for k in 0..count {
        let a = (step * k as f32 + step / 2.0).to_radians();
        vertices.push(Vec3::new(r * a.cos(), -z, r * a.sin()));
    }
    let mut normals = Vec::new();
    for k in 0..count {
        let (top, u0, l0, u1) = (
            vertices[0],
            vertices[2 + k],
            vertices[2 + count + k],
            vertices[2 + (k + 1) % count],
        );
        let n = (u1 - l0).cross(top - l0).normalize();
        normals.push(if n.dot(u0 + l0 + u1 + top) < 0.0 {
            -n
        } else {
            n
        });
    }
    let lower: Vec<Vec3> = normals.iter().map(|n| -*n).collect();
    normals.extend(lower);
    numbered_belt(vertices, &normals, m)
}

/// An `m`-gonal bipyramid (`m` even: 2`m` triangles, each opposite a parallel one), as tall
/// as it is wide like the octahedron, numbered 1 to 2`m`: the odd numbers around the top apex,
/// each face's opposite summing to 2`m` + 1.
fn bipyramid_die(m: u32, r: f32) -> Polyhedron {
    let count = m as usize;
    let step = std::f32::consts::TAU / m as f32;
    let mut vertices = vec![Vec3::new(0.0, r, 0.0), Vec3::new(0.0, -r, 0.0)];
    for k in 0..count {
        let a = step * k as f32;
        vertices.push(Vec3::new(r * a.cos(), 0.0, r * a.sin()));
    }
    let mut normals = Vec::new();
    for k in 0..count {
        let (top, a, b) = (vertices[0], vertices[2 + k], vertices[2 + (k + 1) % count]);
        let n = (b - a).cross(top - a).normalize();
        normals.push(if n.dot(a + b + top) < 0.0 { -n } else { n });
    }
    let lower: Vec<Vec3> = normals.iter().map(|n| Vec3::new(n.x, -n.y, n.z)).collect();
    normals.extend(lower);
    numbered_belt(vertices, &normals, m)
}

/// A belt die's faces from its `m` upper normals and then its `m` lower ones, numbered 1 to 2`m`:
/// the odd numbers round the top apex, each face's opposite making 2`m` + 1.
fn numbered_belt(vertices: Vec<Vec3>, normals: &[Vec3], m: u32) -> Polyhedron {
    let mut faces = faces_from_normals(&vertices, normals);
    let odd: Vec<u32> = (0..m).map(|k| 2 * k + 1).collect();
    number_opposites(&mut faces, &odd, 2 * m + 1);
    Polyhedron {
        vertices,
        faces,
        vertex_values: vec![],
    }
}

/// The solid of `faces` faces (even, 10 to 30) a die of another size is made on: a
/// trapezohedron when half the faces are odd, else a bipyramid; wider as it has more faces, so
/// each face keeps room for its number.
pub fn belt_die(faces: u32) -> Polyhedron {
    let m = faces / 2;
    // The d10's ring radius for ten faces, growing with the faces' count up to the d18's
    // (2.55 cm across): a hundred dice any larger do not all find room to lie flat in the tray
    // (the settle bench: 100 d22 at 2.8 cm across left one seed in ten unsettled).
    let r = (D10_RING_RADIUS * (faces as f32 / 10.0).sqrt()).min(1.275);
    if m % 2 == 1 {
        trapezohedron_die(m, r)
    } else {
        bipyramid_die(m, r)
    }
}

fn dodecahedron() -> Polyhedron {
    let s = 0.55;
    let ip = 1.0 / PHI;
    let mut vertices = Vec::new();
    for x in [-1.0, 1.0] {
        for y in [-1.0, 1.0] {
            for z in [-1.0, 1.0] {
                vertices.push(Vec3::new(x, y, z));
            }
        }
    }
    for a in [-1.0, 1.0] {
        for b in [-1.0, 1.0] {
            vertices.push(Vec3::new(0.0, a * ip, b * PHI));
            vertices.push(Vec3::new(a * ip, b * PHI, 0.0));
            vertices.push(Vec3::new(a * PHI, 0.0, b * ip));
        }
    }
    let vertices: Vec<Vec3> = vertices.into_iter().map(|v| v * s).collect();
    let normals = hull_normals(&vertices);
    let mut faces = faces_from_normals(&vertices, &normals);
    number_opposites(&mut faces, &[1, 2, 3, 4, 5, 6], 13);
    Polyhedron {
        vertices,
        faces,
        vertex_values: vec![],
    }
}

fn icosahedron_vertices() -> Vec<Vec3> {
    let mut v = Vec::new();
    for a in [-1.0, 1.0] {
        for b in [-1.0, 1.0] {
            v.push(Vec3::new(0.0, a, b * PHI));
            v.push(Vec3::new(a, b * PHI, 0.0));
            v.push(Vec3::new(b * PHI, 0.0, a));
        }
    }
    v
}

fn icosahedron() -> Polyhedron {
    let vertices: Vec<Vec3> = icosahedron_vertices()
        .into_iter()
        .map(|v| v * 0.53)
        .collect();
    let normals = hull_normals(&vertices);
    let mut faces = faces_from_normals(&vertices, &normals);
    number_opposites(&mut faces, &(1..=10).collect::<Vec<u32>>(), 21);
    Polyhedron {
        vertices,
        faces,
        vertex_values: vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [DieKind; 6] = DieKind::SINGLES;

    #[test]
    fn face_counts_and_vertex_counts() {
        let expect = [
            (4, 4, 3),
            (6, 8, 4),
            (8, 6, 3),
            (10, 12, 4),
            (12, 20, 5),
            (20, 12, 3),
        ];
        for (kind, (faces, vertices, per_face)) in ALL.into_iter().zip(expect) {
            let p = Polyhedron::of(kind);
            assert_eq!(p.faces.len(), faces, "{kind:?}");
            assert_eq!(p.vertices.len(), vertices, "{kind:?}");
            assert!(
                p.faces.iter().all(|f| f.vertices.len() == per_face),
                "{kind:?}"
            );
        }
    }

    #[test]
    fn every_face_is_flat_and_faces_outward_counter_clockwise() {
        for kind in DieKind::ALL {
            let p = Polyhedron::of(kind);
            for f in &p.faces {
                assert!(
                    p.face_flatness(f) < 1e-5,
                    "{kind:?} face {} not flat: {}",
                    f.value,
                    p.face_flatness(f)
                );
                let c = p.face_centre(f);
                assert!(c.dot(f.normal) > 0.0, "{kind:?} normal points inward");
                let (a, b, d) = (
                    p.vertices[f.vertices[0]],
                    p.vertices[f.vertices[1]],
                    p.vertices[f.vertices[2]],
                );
                assert!(
                    (b - a).cross(d - a).dot(f.normal) > 0.0,
                    "{kind:?} face {} is clockwise",
                    f.value
                );
            }
        }
    }

    #[test]
    fn d10_kites_are_planar_with_the_computed_apex() {
        let h = trapezohedron_apex_height(5, D10_RING_RADIUS, D10_RING_HEIGHT);
        assert!(h > 0.9 && h < 1.3, "apex {h}");
        let p = Polyhedron::of(DieKind::D10);
        for f in &p.faces {
            assert!(
                p.face_flatness(f) < 1e-6,
                "kite {} bends by {}",
                f.value,
                p.face_flatness(f)
            );
        }
        // A wrong apex would bend the kites: the test must be able to fail.
        let mut bent = p.clone();
        bent.vertices[0].y *= 1.05;
        assert!(bent.faces.iter().any(|f| bent.face_flatness(f) > 1e-3));
    }

    #[test]
    fn values_and_opposite_sums() {
        for (kind, sum) in [
            (DieKind::D6, 7),
            (DieKind::D8, 9),
            (DieKind::D10, 9),
            (DieKind::D12, 13),
            (DieKind::D20, 21),
        ] {
            let p = Polyhedron::of(kind);
            let mut values: Vec<u32> = p.faces.iter().map(|f| f.value).collect();
            values.sort_unstable();
            let expected: Vec<u32> = if kind == DieKind::D10 {
                (0..10).collect()
            } else {
                (1..=p.faces.len() as u32).collect()
            };
            assert_eq!(values, expected, "{kind:?}");
            for f in &p.faces {
                let opposite = p
                    .faces
                    .iter()
                    .find(|g| g.normal.dot(f.normal) < -0.999)
                    .expect("opposite face");
                assert_eq!(f.value + opposite.value, sum, "{kind:?}");
            }
        }
        // d4: faces read the vertex opposite them, so the three faces meeting at a vertex all
        // show that vertex's value at the top.
        let p = Polyhedron::of(DieKind::D4);
        for (f, face) in p.faces.iter().enumerate() {
            let top = (0..4)
                .find(|v| !face.vertices.contains(v))
                .expect("opposite vertex");
            assert_eq!(face.value, p.vertex_values[top], "face {f}");
        }
    }

    /// The solids of the other sizes: a trapezohedron of 2m kites (m odd) or a bipyramid of
    /// 2m triangles (m even), each face opposite a parallel one whose number completes the sum.
    #[test]
    fn the_belt_dice_are_trapezohedra_and_bipyramids_with_opposite_sums() {
        for faces in [10u32, 14, 16, 18, 22, 24, 26, 28, 30] {
            let p = belt_die(faces);
            let m = faces / 2;
            let (per_face, vertices) = if m % 2 == 1 {
                (4, 2 * m + 2)
            } else {
                (3, m + 2)
            };
            assert_eq!(p.faces.len() as u32, faces);
            assert_eq!(p.vertices.len() as u32, vertices, "d{faces}");
            assert!(p.faces.iter().all(|f| f.vertices.len() == per_face));
            let mut values: Vec<u32> = p.faces.iter().map(|f| f.value).collect();
            values.sort_unstable();
            assert_eq!(values, (1..=faces).collect::<Vec<u32>>(), "d{faces}");
            for f in &p.faces {
                assert!(p.face_flatness(f) < 1e-5, "d{faces} bends");
                let opposite = p
                    .faces
                    .iter()
                    .find(|g| g.normal.dot(f.normal) < -0.999)
                    .expect("a parallel opposite face");
                assert_eq!(f.value + opposite.value, faces + 1, "d{faces}");
            }
        }
        // The ten-kite belt is the d10's solid, numbered 1-10.
        let (d10, ten) = (Polyhedron::of(DieKind::D10), belt_die(10));
        for (a, b) in d10.vertices.iter().zip(&ten.vertices) {
            assert!((*a - *b).length() < 1e-5, "{a} {b}");
        }
    }

    #[test]
    fn real_proportions() {
        let p = Polyhedron::of(DieKind::D6);
        assert!((p.volume() - 1.6f32.powi(3)).abs() < 1e-3);
        for kind in DieKind::ALL {
            let p = Polyhedron::of(kind);
            let across = 2.0 * p.circumradius();
            assert!(
                (1.4..2.9).contains(&across),
                "{kind:?} is {across} cm across"
            );
        }
    }
}
