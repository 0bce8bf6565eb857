//! Where dicetable keeps what it writes for the user: one data folder (the lasting history, the
//! scenes written out for editing, a window's keys to its names in rooms). A leaf: it imports
//! nothing of the crate, so the rules (scenes), the history and the window share it.

use std::path::PathBuf;

/// The user's data folder: `DICETABLE_DATA_DIR` when set (the tests' own folders), else the
/// platform's (`~/.local/share/dicetable` on Linux). None where the platform names none.
pub fn data_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("DICETABLE_DATA_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "dicetable").map(|p| p.data_dir().to_path_buf())
}
