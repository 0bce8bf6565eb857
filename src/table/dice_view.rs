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
                    perceptual_roughness: 0.35,
                    reflectance: 0.45,
                    ..default()
                })
            })
            .clone();
        (mesh, material)
    }
}

/// A die on screen at a pose.
pub fn die_visual(
    pose: &DiePose,
    mesh: Handle<Mesh>,
    material: Handle<StandardMaterial>,
) -> impl Bundle {
    (
        Name::new(format!("{} #{}", pose.kind.name(), pose.index)),
        Mesh3d(mesh),
        MeshMaterial3d(material),
        Transform::from_translation(pose.translation).with_rotation(pose.rotation),
    )
}
