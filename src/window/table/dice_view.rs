//! How dice look on the table: one mesh per kind, one material per kind and style, shown for
//! each new throw and placed where the physics says each die is.

use std::collections::HashMap;

use bevy::prelude::*;

use super::throwing::TableSimulator;
use crate::dice::DieKind;
use crate::dice::marks::FaceMarks;
use crate::dice::mesh::{die_atlas, die_mesh};
use crate::dice::style::DieStyle;
use crate::window::AppSystems;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<DiceLook>();
    app.init_resource::<DiceOnScreen>();
    app.add_systems(
        Update,
        (show_new_throw, move_dice_on_screen)
            .chain()
            .in_set(AppSystems::Settle),
    );
}

/// The asset stores a die's look is made into.
pub type DiceAssets<'w> = (
    ResMut<'w, Assets<Mesh>>,
    ResMut<'w, Assets<Image>>,
    ResMut<'w, Assets<StandardMaterial>>,
);

/// The dice on screen: the throw they show, and their entities in throw order.
#[derive(Resource, Default)]
struct DiceOnScreen {
    throw: u64,
    dice: Vec<Entity>,
}

/// Meshes and materials of the dice, made once and shared.
#[derive(Resource, Default)]
pub struct DiceLook {
    meshes: HashMap<DieKind, Handle<Mesh>>,
    materials: HashMap<(DieKind, DieStyle, Option<FaceMarks>), Handle<StandardMaterial>>,
}

impl DiceLook {
    /// The render parts of a die in a style, its faces numbered or marked (made on first use).
    pub fn parts(
        &mut self,
        kind: DieKind,
        style: DieStyle,
        marks: Option<&FaceMarks>,
        meshes: &mut Assets<Mesh>,
        images: &mut Assets<Image>,
        materials: &mut Assets<StandardMaterial>,
    ) -> (Handle<Mesh>, Handle<StandardMaterial>) {
        let mesh = self.mesh(kind, meshes);
        let material = self
            .materials
            .entry((kind, style, marks.cloned()))
            .or_insert_with(|| die_material(kind, style, marks, images, materials))
            .clone();
        (mesh, material)
    }

    /// The render mesh of a die kind (made on first use).
    pub fn mesh(&mut self, kind: DieKind, meshes: &mut Assets<Mesh>) -> Handle<Mesh> {
        self.meshes
            .entry(kind)
            .or_insert_with(|| meshes.add(die_mesh(kind)))
            .clone()
    }
}

/// A die's material in a style, its faces numbered or marked, made now and kept by no cache
/// (freed with the last die that wears it: the picker's live dice, whose looks come and go).
pub fn die_material(
    kind: DieKind,
    style: DieStyle,
    marks: Option<&FaceMarks>,
    images: &mut Assets<Image>,
    materials: &mut Assets<StandardMaterial>,
) -> Handle<StandardMaterial> {
    // Plastic is polished acrylic: smooth and fairly reflective, so the key light and the
    // environment leave sharp highlights on the faces and edges. (A clear coat layer looked the
    // same at this size and doubled the dice's shading cost under software rendering.) Every
    // material as `Material::surface` says.
    let surface = style.material.surface();
    materials.add(StandardMaterial {
        base_color: Color::srgba(1.0, 1.0, 1.0, surface.opacity),
        base_color_texture: Some(images.add(die_atlas(kind, style, marks))),
        perceptual_roughness: surface.roughness,
        metallic: surface.metalness,
        reflectance: 0.55,
        alpha_mode: if surface.opacity < 1.0 {
            AlphaMode::Blend
        } else {
            AlphaMode::Opaque
        },
        ..default()
    })
}

/// A die shown on the table: its place in the throw.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct DieOnTable {
    /// Index of the die in its throw.
    pub index: usize,
    /// Its kind.
    pub kind: DieKind,
    /// Centre to farthest corner, cm (what the camera keeps in view).
    pub radius: f32,
    /// Its colours (the value label above it wears them).
    pub style: DieStyle,
}

/// A die on screen at a pose.
fn die_visual(
    die: DieOnTable,
    (translation, rotation): (Vec3, Quat),
    mesh: Handle<Mesh>,
    material: Handle<StandardMaterial>,
) -> impl Bundle {
    (
        Name::new(format!("{} #{}", die.kind.name(), die.index)),
        die,
        Mesh3d(mesh),
        MeshMaterial3d(material),
        Transform::from_translation(translation).with_rotation(rotation),
    )
}

/// A new throw left the hand: its dice replace the last throw's on screen.
fn show_new_throw(
    mut commands: Commands,
    mut physics: NonSendMut<TableSimulator>,
    mut on_screen: ResMut<DiceOnScreen>,
    mut look: ResMut<DiceLook>,
    mut assets: DiceAssets,
) {
    let number = physics.throws_started();
    if number == on_screen.throw {
        return;
    }
    let Some(throw) = physics.shown().cloned() else {
        return;
    };
    for e in on_screen.dice.drain(..) {
        commands.entity(e).despawn();
    }
    let poses = physics.poses();
    on_screen.dice = throw
        .dice
        .iter()
        .zip(poses)
        .enumerate()
        .map(|(index, (&(kind, style), pose))| {
            let marks = throw.marks.get(index).and_then(Option::as_ref);
            let (mesh, material) = look.parts(
                kind,
                style,
                marks,
                &mut assets.0,
                &mut assets.1,
                &mut assets.2,
            );
            let die = DieOnTable {
                index,
                kind,
                radius: kind.shape().circumradius(),
                style,
            };
            commands.spawn(die_visual(die, pose, mesh, material)).id()
        })
        .collect();
    on_screen.throw = number;
}

/// The dice on screen follow the physics.
fn move_dice_on_screen(
    mut physics: NonSendMut<TableSimulator>,
    on_screen: Res<DiceOnScreen>,
    mut shown: Query<&mut Transform>,
) {
    if on_screen.dice.is_empty() {
        return;
    }
    for (&entity, (translation, rotation)) in on_screen.dice.iter().zip(physics.poses()) {
        if let Ok(mut t) = shown.get_mut(entity) {
            *t = Transform::from_translation(translation).with_rotation(rotation);
        }
    }
}
