//! The dice tray on its table: textured green felt, wooden walls with grain, a warm key light
//! with soft shadows, an environment light for the dice's gloss. A wall that stands between
//! the camera and a die fades, so no die is hidden.

use bevy::light::{CascadeShadowConfigBuilder, DirectionalLightShadowMap};
use bevy::math::Dir3A;
use bevy::math::bounding::{Aabb3d, RayCast3d};
use bevy::prelude::*;

use super::camera::TableCamera;
use super::dice_view::DieOnTable;
use super::textures;
use crate::dice::mesh::mipmapped_image;
use crate::physics::tray;

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(Color::srgb(0.07, 0.06, 0.06)));
    app.insert_resource(GlobalAmbientLight {
        color: Color::srgb(1.0, 0.92, 0.82),
        brightness: 180.0,
        ..default()
    });
    app.insert_resource(DirectionalLightShadowMap { size: 2048 });
    app.add_systems(Startup, (spawn_table, spawn_tray, spawn_lights));
    app.add_systems(
        Update,
        (fade_walls_hiding_dice, light_the_camera_with_the_room)
            .in_set(crate::window::AppSystems::Present),
    );
}

/// The colours of the scene's materials (linear-ish sRGB fractions).
struct Palette;

impl Palette {
    const FELT: [f32; 3] = [0.07, 0.30, 0.17];
    const TRAY_WOOD: [f32; 3] = [0.46, 0.26, 0.13];
    const TABLE_WOOD: [f32; 3] = [0.26, 0.15, 0.09];
}

/// Texels of the generated textures (square).
const TEXTURE_SIZE: usize = 512;

fn wood(images: &mut Assets<Image>, color: [f32; 3], repeat: Vec2) -> StandardMaterial {
    StandardMaterial {
        base_color_texture: Some(
            images.add(mipmapped_image(&textures::wood(TEXTURE_SIZE, color), true)),
        ),
        uv_transform: bevy::math::Affine2::from_scale(repeat),
        perceptual_roughness: 0.45,
        reflectance: 0.4,
        ..default()
    }
}

/// A box whose texture is laid on in world centimetres (one tile every `tile` cm), with the grain
/// along its longer horizontal side on every face, so wood reads as boards, not stretched.
fn planked_box(size: Vec3, centre: Vec3, tile: f32) -> Mesh {
    let mut mesh = Mesh::from(Cuboid::from_size(size));
    let along_x = size.x >= size.z;
    let positions: Vec<[f32; 3]> = match mesh.attribute(Mesh::ATTRIBUTE_POSITION) {
        Some(bevy::mesh::VertexAttributeValues::Float32x3(p)) => p.clone(),
        _ => Vec::new(),
    };
    let normals: Vec<[f32; 3]> = match mesh.attribute(Mesh::ATTRIBUTE_NORMAL) {
        Some(bevy::mesh::VertexAttributeValues::Float32x3(n)) => n.clone(),
        _ => Vec::new(),
    };
    let uvs: Vec<[f32; 2]> = positions
        .iter()
        .zip(&normals)
        .map(|(p, n)| {
            let w = Vec3::from_array(*p) + centre;
            let (a, b) = if n[1].abs() > 0.5 {
                if along_x { (w.x, w.z) } else { (w.z, w.x) }
            } else if n[0].abs() > 0.5 {
                (w.z, w.y)
            } else {
                (w.x, w.y)
            };
            [a / tile, b / tile]
        })
        .collect();
    mesh.insert_attribute(Mesh::ATTRIBUTE_UV_0, uvs);
    mesh
}

/// A block of the scene: a cuboid mesh placed with its centre at `centre`.
fn block(
    meshes: &mut Assets<Mesh>,
    material: Handle<StandardMaterial>,
    size: Vec3,
    centre: Vec3,
) -> impl Bundle {
    (
        Mesh3d(meshes.add(Cuboid::from_size(size))),
        MeshMaterial3d(material),
        Transform::from_translation(centre),
    )
}

fn spawn_table(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let top = materials.add(wood(&mut images, Palette::TABLE_WOOD, Vec2::new(3.0, 2.0)));
    let y = -tray::BASE_THICKNESS - 1.0;
    commands.spawn((
        Scenery,
        Name::new("Table top"),
        block(
            &mut meshes,
            top,
            Vec3::new(220.0, 2.0, 140.0),
            Vec3::new(0.0, y, 0.0),
        ),
    ));
}

/// The table and the tray (hidden in stream mode, which shows the dice alone).
#[derive(Component, Debug, Clone, Copy)]
pub struct Scenery;

/// A wall of the tray, as a box, with a material of its own so it can fade alone.
#[derive(Component, Debug, Clone, Copy)]
pub struct TrayWall(Aabb3d);

impl TrayWall {
    /// True if the segment from `from` to `to` passes through the wall.
    fn blocks(&self, from: Vec3, to: Vec3) -> bool {
        let Ok(direction) = Dir3A::new((to - from).into()) else {
            return false;
        };
        RayCast3d::new(from, direction, from.distance(to))
            .aabb_intersection_at(&self.0)
            .is_some()
    }
}

fn spawn_tray(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let felt = materials.add(StandardMaterial {
        base_color_texture: Some(images.add(mipmapped_image(
            &textures::felt(TEXTURE_SIZE, Palette::FELT),
            true,
        ))),
        uv_transform: bevy::math::Affine2::from_scale(Vec2::new(2.0, 1.5)),
        perceptual_roughness: 1.0,
        reflectance: 0.05,
        ..default()
    });
    let (w, d, t) = (tray::INNER_WIDTH, tray::INNER_DEPTH, tray::WALL_THICKNESS);
    let base = tray::BASE_THICKNESS;
    commands.spawn((
        Scenery,
        Name::new("Felt"),
        block(
            &mut meshes,
            felt,
            Vec3::new(w, base, d),
            Vec3::new(0.0, -base / 2.0, 0.0),
        ),
    ));
    let height = tray::WALL_HEIGHT + base;
    let y = tray::WALL_HEIGHT - height / 2.0;
    let long = Vec3::new(w + 2.0 * t, height, t);
    let short = Vec3::new(t, height, d);
    for (size, centre) in [
        (long, Vec3::new(0.0, y, -(d + t) / 2.0)),
        (long, Vec3::new(0.0, y, (d + t) / 2.0)),
        (short, Vec3::new(-(w + t) / 2.0, y, 0.0)),
        (short, Vec3::new((w + t) / 2.0, y, 0.0)),
    ] {
        let material = materials.add(wood(&mut images, Palette::TRAY_WOOD, Vec2::ONE));
        commands.spawn((
            Scenery,
            Name::new("Tray wall"),
            TrayWall(Aabb3d::new(centre, size / 2.0)),
            Mesh3d(meshes.add(planked_box(size, centre, 24.0))),
            MeshMaterial3d(material),
            Transform::from_translation(centre),
        ));
    }
}

/// Opacity of a wall that hides a die.
const FADED_WALL: f32 = 0.28;

/// A wall fades while it stands between the camera and a die (any part of it: its centre or
/// its top), and comes back when it no longer does.
fn fade_walls_hiding_dice(
    camera: Query<&GlobalTransform, With<TableCamera>>,
    dice: Query<&GlobalTransform, With<DieOnTable>>,
    walls: Query<(&TrayWall, &MeshMaterial3d<StandardMaterial>)>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let Ok(eye) = camera.single().map(GlobalTransform::translation) else {
        return;
    };
    for (wall, material) in &walls {
        let hides = dice.iter().any(|die| {
            let p = die.translation();
            wall.blocks(eye, p) || wall.blocks(eye, p + Vec3::Y * 0.8)
        });
        let alpha = if hides { FADED_WALL } else { 1.0 };
        let Some(current) = materials.get(&material.0) else {
            continue;
        };
        if (current.base_color.alpha() - alpha).abs() < 1e-3 {
            continue;
        }
        if let Some(mut m) = materials.get_mut(&material.0) {
            m.base_color = m.base_color.with_alpha(alpha);
            m.alpha_mode = if hides {
                AlphaMode::Blend
            } else {
                AlphaMode::Opaque
            };
        }
    }
}

fn spawn_lights(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    commands.spawn((
        Name::new("Key light"),
        DirectionalLight {
            color: Color::srgb(1.0, 0.94, 0.85),
            illuminance: 8_000.0,
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_xyz(-24.0, 60.0, -30.0).looking_at(Vec3::ZERO, Vec3::Y),
        CascadeShadowConfigBuilder {
            num_cascades: 1,
            maximum_distance: 120.0,
            ..default()
        }
        .build(),
    ));
    commands.spawn((
        Name::new("Fill light"),
        PointLight {
            color: Color::srgb(1.0, 0.85, 0.7),
            intensity: 2_000_000.0,
            range: 200.0,
            shadow_maps_enabled: false,
            ..default()
        },
        Transform::from_xyz(20.0, 45.0, -20.0),
    ));
    // The room around the table, for the dice's reflections and soft fill from every side.
    commands.insert_resource(EnvironmentLight(EnvironmentMapLight {
        intensity: 700.0,
        ..EnvironmentMapLight::hemispherical_gradient(
            &mut images,
            Color::srgb(0.95, 0.92, 0.86),
            Color::srgb(0.35, 0.28, 0.22),
            Color::srgb(0.10, 0.08, 0.06),
        )
    }));
}

/// The environment light, put on the table camera when it exists.
#[derive(Resource, Clone)]
pub struct EnvironmentLight(pub EnvironmentMapLight);

/// An environment light is a component of the view: the table camera gets the room's.
fn light_the_camera_with_the_room(
    mut commands: Commands,
    room: Option<Res<EnvironmentLight>>,
    cameras: Query<Entity, (With<TableCamera>, Without<EnvironmentMapLight>)>,
) {
    let Some(room) = room else {
        return;
    };
    for camera in &cameras {
        commands.entity(camera).insert(room.0.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wall_blocks_only_the_sight_lines_through_it() {
        let wall = TrayWall(Aabb3d::new(
            Vec3::new(0.0, 2.0, 14.0),
            Vec3::new(20.0, 2.0, 1.0),
        ));
        // From high in front, a die just behind the front wall, low: hidden.
        assert!(wall.blocks(Vec3::new(0.0, 10.0, 60.0), Vec3::new(0.0, 0.8, 12.0)));
        // From straight above: not hidden.
        assert!(!wall.blocks(Vec3::new(0.0, 60.0, 12.0), Vec3::new(0.0, 0.8, 12.0)));
        // A die in the middle of the tray seen from a steep camera: not hidden.
        assert!(!wall.blocks(Vec3::new(0.0, 55.0, 20.0), Vec3::new(0.0, 0.8, 0.0)));
    }
}
