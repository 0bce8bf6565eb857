//! `play --print-ui`: where the overlays' controls are, printed whenever they move, so a test
//! (or a script) can drive the real window with `xdotool` by name instead of by guessed pixels.
//! Lines read `ui <name> <x> <y> <width> <height>` (logical pixels), then `ui end`.

use bevy_egui::egui;

fn key() -> egui::Id {
    egui::Id::new("dicetable ui map")
}

/// Notes where a named control is this frame.
pub fn mark(ui: &egui::Ui, name: impl Into<String>, rect: egui::Rect) {
    let name = name.into();
    ui.ctx().data_mut(|d| {
        d.get_temp_mut_or_default::<Vec<(String, egui::Rect)>>(key())
            .push((name, rect));
    });
}

/// Notes what a named text field holds this frame (printed as `ui-text <name> <text>`).
pub fn mark_text(ui: &egui::Ui, name: &str, text: &str) {
    let line = format!("ui-text {name} {text}\n");
    ui.ctx().data_mut(|d| {
        d.get_temp_mut_or_default::<Vec<String>>(text_key())
            .push(line);
    });
}

fn text_key() -> egui::Id {
    egui::Id::new("dicetable ui map texts")
}

/// Forgets last frame's places (at the start of drawing).
pub fn clear(ctx: &egui::Context) {
    ctx.data_mut(|d| {
        d.insert_temp(key(), Vec::<(String, egui::Rect)>::new());
        d.insert_temp(text_key(), Vec::<String>::new());
    });
}

/// The places noted this frame, one line each, sorted by name.
pub fn lines(ctx: &egui::Context) -> String {
    let mut places = ctx.data(|d| {
        d.get_temp::<Vec<(String, egui::Rect)>>(key())
            .unwrap_or_default()
    });
    places.sort_by(|a, b| a.0.cmp(&b.0));
    let texts = ctx.data(|d| d.get_temp::<Vec<String>>(text_key()).unwrap_or_default());
    texts.concat()
        + &places
            .iter()
            .map(|(name, r)| {
                format!(
                    "ui {name} {:.0} {:.0} {:.0} {:.0}\n",
                    r.min.x,
                    r.min.y,
                    r.width(),
                    r.height()
                )
            })
            .collect::<String>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_come_out_sorted_one_line_each() {
        let ctx = egui::Context::default();
        let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
            clear(ui.ctx());
            let at = |x, y, w, h| egui::Rect::from_min_size(egui::pos2(x, y), egui::vec2(w, h));
            mark(ui, "throw", at(10.0, 20.0, 30.0, 40.0));
            mark(ui, "history-0", at(1.0, 2.0, 3.0, 4.0));
            assert_eq!(
                lines(ui.ctx()),
                "ui history-0 1 2 3 4\nui throw 10 20 30 40\n"
            );
        });
        // The fonts' texture upload is not wanted here.
        out.textures_delta.clear();
    }
}
