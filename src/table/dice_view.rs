//! How dice look on the table: one mesh per kind, one material per kind and style, placed where
//! the physics says each die is.

use std::collections::HashMap;

use bevy::prelude::*;

use crate::dice::DieKind;
use crate::dice::mesh::{DieStyle, die_atlas, die_mesh};
use crate::physics::headless::DiePose;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<DiceLook>();
}

/// Meshes and materials of the dice, made once and shared.
#[derive(Resource, Default)]
pub struct DiceLook {
    meshes: HashMap<DieKind, Handle<Mesh>>,
    materials: HashMap<(DieKind, DieStyle), Handle<StandardMaterial>>,
}

impl DiceLook {
    /// The render parts of a die in a style (made on first use).
    pub fn parts(
        &mut self,
        kind: DieKind,
        style: DieStyle,
        meshes: &mut Assets<Mesh>,
        images: &mut Assets<Image>,
        materials: &mut Assets<StandardMaterial>,
    ) -> (Handle<Mesh>, Handle<StandardMaterial>) {
        let mesh = self
            .meshes
            .entry(kind)
            .or_insert_with(|| meshes.add(die_mesh(kind)))
            .clone();
        let material = self
            .materials
            .entry((kind, style))
            .or_insert_with(|| {
                materials.add(StandardMaterial {
                    base_color_texture: Some(images.add(die_atlas(kind, style))),
                    // Polished acrylic: smooth and fairly reflective, so the key light and the
                    // environment leave sharp highlights on the faces and edges. (A clear coat
                    // layer looked the same at this size and doubled the dice's shading cost
                    // under software rendering.)
                    perceptual_roughness: 0.18,
                    reflectance: 0.55,
                    ..default()
                })
            })
            .clone();
        (mesh, material)
    }
}

/// A die shown on the table: its place in the throw.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct DieOnTable {
    /// Index of the die in its throw.
    pub index: usize,
    /// Its kind.
    pub kind: crate::dice::DieKind,
    /// Centre to farthest corner, cm (what the camera keeps in view).
    pub radius: f32,
    /// Its colours (the value label above it wears them).
    pub style: DieStyle,
}

/// A die on screen at a pose.
pub fn die_visual(
    pose: &DiePose,
    style: DieStyle,
    mesh: Handle<Mesh>,
    material: Handle<StandardMaterial>,
) -> impl Bundle {
    (
        Name::new(format!("{} #{}", pose.kind.name(), pose.index)),
        DieOnTable {
            index: pose.index,
            kind: pose.kind,
            radius: pose.kind.shape().circumradius(),
            style,
        },
        Mesh3d(mesh),
        MeshMaterial3d(material),
        Transform::from_translation(pose.translation).with_rotation(pose.rotation),
    )
}
