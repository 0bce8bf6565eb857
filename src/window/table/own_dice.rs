//! The window's own dice: chosen in the free-roll panel, kept in the data folder between runs
//! (`dice.ron`, beside the history), thrown for the window's free rolls, and chosen for its
//! member in a room it joins. A broken file is reported and the dice are plain until chosen
//! again; a file that cannot be written is reported and the choice holds for this run.

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use crate::dice::looks::DicePainter;
use crate::dice::style::DiceLook;
use crate::rules::data::{DataError, load_ron};
use crate::window::PlayOptions;

/// The file the window keeps its own dice in, in the data folder.
pub const FILE: &str = "dice.ron";

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OwnDice>();
    app.add_message::<DiceChosen>();
    app.add_systems(Startup, load_own_dice.in_set(OwnDiceLoaded));
}

/// The startup work that reads the window's own dice (what needs them runs after it).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct OwnDiceLoaded;

/// The window's own dice were chosen (None: plain dice): a room the window is in logs the
/// choice for its member.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct DiceChosen(pub Option<DiceLook>);

/// The window's own dice, and where they are kept.
#[derive(Resource, Default, Debug)]
pub struct OwnDice {
    /// The dice chosen (None: the table's plain light and dark dice).
    pub look: Option<DiceLook>,
    /// Where they are kept (None: `--no-history`, this run only).
    file: Option<PathBuf>,
    /// What went wrong reading or keeping them, for the panel.
    pub problem: Option<String>,
    /// The look the picker shows on the felt while it is open (its live die), before it is
    /// chosen.
    pub preview: Option<DiceLook>,
}

impl OwnDice {
    /// The painter of the window's free rolls: its own dice (None: plain dice).
    pub fn painter(&self) -> Option<DicePainter> {
        self.look
            .map(|look| DicePainter::new(Some(look), Vec::new()))
    }

    /// Chooses `look` (None: plain dice) and keeps it for the next run.
    pub fn choose(&mut self, look: Option<DiceLook>) {
        self.look = look;
        self.problem = self
            .file
            .as_deref()
            .and_then(|file| keep(file, look).err())
            .map(|e| format!("{e}: the dice hold for this run"));
    }
}

/// The dice kept in `file`: None where there is no file yet.
pub fn read(file: &Path) -> Result<Option<DiceLook>, DataError> {
    if !file.exists() {
        return Ok(None);
    }
    load_ron::<Option<DiceLook>>(file)
}

/// Keeps `look` in `file` (written beside it and moved in place, so a crash never leaves half
/// a file).
pub fn keep(file: &Path, look: Option<DiceLook>) -> Result<(), String> {
    let text = ron::ser::to_string_pretty(&look, ron::ser::PrettyConfig::default())
        .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    }
    let fresh = file.with_extension("ron.new");
    std::fs::write(
        &fresh,
        format!("// The window's own dice (dicetable play).\n{text}\n"),
    )
    .and_then(|()| std::fs::rename(&fresh, file))
    .map_err(|e| format!("cannot write {}: {e}", file.display()))
}

/// The dice `--dice` gives for this run, else those kept in the data folder.
fn load_own_dice(options: Res<PlayOptions>, mut own: ResMut<OwnDice>) {
    own.file = options.history_dir.as_ref().map(|dir| dir.join(FILE));
    if let Some(look) = options.dice {
        own.look = Some(look);
        return;
    }
    let Some(file) = own.file.clone() else {
        return;
    };
    match read(&file) {
        Ok(look) => own.look = look,
        Err(e) => {
            eprintln!("warning: {e}; the window's dice are plain until chosen again");
            own.problem = Some(e.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::style::{Material, Rgb, Typeface};

    #[test]
    fn the_dice_are_kept_between_runs_and_a_broken_file_is_reported() {
        let dir = std::env::temp_dir().join(format!("dicetable-own-dice-{}", std::process::id()));
        let file = dir.join(FILE);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(read(&file).map_err(|e| e.to_string()), Ok(None));
        let stone = DiceLook {
            body: Rgb([30, 64, 170]),
            ink: Rgb([255, 255, 255]),
            material: Material::Stone,
            pips: false,
            typeface: Typeface::Sans,
        };
        assert_eq!(keep(&file, Some(stone)), Ok(()));
        assert_eq!(read(&file).map_err(|e| e.to_string()), Ok(Some(stone)));
        let mut own = OwnDice {
            look: Some(stone),
            file: Some(file.clone()),
            problem: None,
            preview: None,
        };
        own.choose(None);
        assert_eq!(read(&file).map_err(|e| e.to_string()), Ok(None));
        assert_eq!(own.painter(), None);
        std::fs::write(&file, "Some((body: \"#12\", ink: \"#ffffff\"))").expect("written");
        let e = read(&file).expect_err("broken");
        assert!(
            e.to_string()
                .contains("'#12' is not a colour: write #rrggbb"),
            "{e}"
        );
        assert_eq!(e.line, 1, "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
