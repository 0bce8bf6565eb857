//! `play --stream`: the window for those who capture it instead of using the overlay page. No
//! panels, no table: the dice over a chroma-key colour, and the outcome in a large banner.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::window::PlayOptions;
use crate::window::table::{RollHistory, Scenery, TablePlay, TableRoll, TableSimulator};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        PostStartup,
        (fill_with_chroma, hide_the_table).run_if(streaming),
    );
    app.add_systems(EguiPrimaryContextPass, draw_banner.run_if(streaming));
}

/// True in stream mode.
pub fn streaming(options: Res<PlayOptions>) -> bool {
    options.stream.is_some()
}

/// Parses `--chroma`: "green", "magenta", "blue" or "#rrggbb".
pub fn parse_chroma(text: &str) -> Result<[u8; 3], String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "green" => Ok([0, 177, 64]),
        "magenta" => Ok([255, 0, 255]),
        "blue" => Ok([0, 71, 187]),
        other => crate::net::feed::parse_hex(other).ok_or_else(|| {
            format!("'{text}' is not a chroma colour: use green, magenta, blue or #rrggbb")
        }),
    }
}

fn fill_with_chroma(options: Res<PlayOptions>, mut clear: ResMut<ClearColor>) {
    if let Some([r, g, b]) = options.stream {
        clear.0 = Color::srgb_u8(r, g, b);
    }
}

fn hide_the_table(mut scenery: Query<&mut Visibility, With<Scenery>>) {
    for mut v in &mut scenery {
        *v = Visibility::Hidden;
    }
}

/// Who rolls and what for while the dice fly; the total and outcome once they settle.
fn draw_banner(
    mut contexts: EguiContexts,
    history: Res<RollHistory>,
    physics: NonSend<TableSimulator>,
    table: Res<TableRoll>,
    play: Res<TablePlay>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let rolling = physics.busy() || table.in_flight() || play.in_flight();
    let Some(last) = history.entries.last() else {
        return Ok(());
    };
    let record = &last.record;
    let byline = match (&record.who, &record.label) {
        (Some(w), Some(l)) => format!("{w}: {l}"),
        (Some(w), None) => format!("{w}: {}", last.what),
        (None, Some(l)) => l.clone(),
        (None, None) => last.what.clone(),
    };
    let result = match (&record.total, &record.outcome) {
        _ if rolling => "…".to_string(),
        (Some(t), Some(o)) => format!("{t}  {o}"),
        (Some(t), None) => t.to_string(),
        (None, Some(o)) => o.clone(),
        (None, None) => last.result.clone(),
    };
    let height = ctx.content_rect().height();
    egui::Area::new("stream-banner".into())
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -height * 0.04])
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(egui::Color32::from_rgba_unmultiplied(12, 10, 16, 225))
                .corner_radius(12.0)
                .inner_margin(egui::Margin::symmetric(28, 14))
                .show(ui, |ui| {
                    ui.vertical_centered(|ui| {
                        ui.label(
                            egui::RichText::new(byline)
                                .size((height * 0.035).max(16.0))
                                .color(egui::Color32::from_rgb(236, 228, 210)),
                        );
                        ui.label(
                            egui::RichText::new(result)
                                .size((height * 0.09).max(32.0))
                                .strong()
                                .color(egui::Color32::WHITE),
                        );
                    });
                });
        });
    Ok(())
}
