//! The dice tray on its table: green felt, wooden walls, a warm key light with soft shadows.

use bevy::light::CascadeShadowConfigBuilder;
use bevy::prelude::*;

use crate::physics::tray;

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(Color::srgb(0.07, 0.06, 0.06)));
    app.insert_resource(GlobalAmbientLight {
        color: Color::srgb(1.0, 0.92, 0.82),
        brightness: 350.0,
        ..default()
    });
    app.add_systems(Startup, (spawn_table, spawn_tray, spawn_lights));
}

/// The colours of the scene's materials.
struct Palette;

impl Palette {
    const FELT: Color = Color::srgb(0.06, 0.26, 0.15);
    const TRAY_WOOD: Color = Color::srgb(0.36, 0.20, 0.10);
    const TABLE_WOOD: Color = Color::srgb(0.22, 0.13, 0.08);
}

fn wood(color: Color) -> StandardMaterial {
    StandardMaterial {
        base_color: color,
        perceptual_roughness: 0.55,
        reflectance: 0.35,
        ..default()
    }
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
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let top = materials.add(wood(Palette::TABLE_WOOD));
    let y = -tray::BASE_THICKNESS - 1.0;
    commands.spawn((
        Name::new("Table top"),
        block(
            &mut meshes,
            top,
            Vec3::new(220.0, 2.0, 140.0),
            Vec3::new(0.0, y, 0.0),
        ),
    ));
}

fn spawn_tray(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let felt = materials.add(StandardMaterial {
        base_color: Palette::FELT,
        perceptual_roughness: 1.0,
        reflectance: 0.05,
        ..default()
    });
    let walls = materials.add(wood(Palette::TRAY_WOOD));
    let (w, d, t) = (tray::INNER_WIDTH, tray::INNER_DEPTH, tray::WALL_THICKNESS);
    let base = tray::BASE_THICKNESS;
    commands.spawn((
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
        commands.spawn((
            Name::new("Tray wall"),
            block(&mut meshes, walls.clone(), size, centre),
        ));
    }
}

fn spawn_lights(mut commands: Commands) {
    commands.spawn((
        Name::new("Key light"),
        DirectionalLight {
            color: Color::srgb(1.0, 0.94, 0.85),
            illuminance: 9_000.0,
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_xyz(-20.0, 70.0, -28.0).looking_at(Vec3::ZERO, Vec3::Y),
        CascadeShadowConfigBuilder {
            num_cascades: 1,
            maximum_distance: 160.0,
            ..default()
        }
        .build(),
    ));
    commands.spawn((
        Name::new("Fill light"),
        PointLight {
            color: Color::srgb(1.0, 0.85, 0.7),
            intensity: 3_000_000.0,
            range: 200.0,
            shadow_maps_enabled: false,
            ..default()
        },
        Transform::from_xyz(20.0, 45.0, -20.0),
    ));
}
