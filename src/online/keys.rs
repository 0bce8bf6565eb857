//! The keys to the names a window took in rooms, kept in `member-keys.json` in the data
//! directory (readable by its user only), so the window comes back under its name after a
//! restart. A key lost is a name lost: the game master's passcode is not needed to take another.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The file's name in the data directory.
pub const FILE: &str = "member-keys.json";

fn file(dir: &Path) -> PathBuf {
    dir.join(FILE)
}

/// Where a room's name is kept: the room's address and the name.
fn slot(url: &str, name: &str) -> String {
    format!("{url} {name}")
}

fn read(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_to_string(file(dir))
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

/// The key kept for `name` in the room at `url`.
pub fn load(dir: &Path, url: &str, name: &str) -> Option<String> {
    read(dir).remove(&slot(url, name))
}

/// Keeps the key for `name` in the room at `url` (written whole to a new file, then moved into
/// place, so a crash leaves the old file or the new one).
pub fn save(dir: &Path, url: &str, name: &str, key: &str) -> std::io::Result<()> {
    let mut keys = read(dir);
    if keys.get(&slot(url, name)).map(String::as_str) == Some(key) {
        return Ok(());
    }
    keys.insert(slot(url, name), key.to_string());
    std::fs::create_dir_all(dir)?;
    let text = serde_json::to_string_pretty(&keys).map_err(std::io::Error::other)?;
    write_private(&file(dir), text.as_bytes())
}

/// Writes a secret to `path`, readable by its owner only: whole to a new file beside it
/// (`NAME.new`), synced, then moved into place, so a crash leaves the old file or the new one.
pub fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut fresh = path.as_os_str().to_owned();
    fresh.push(".new");
    let fresh = PathBuf::from(fresh);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut out = options.open(&fresh)?;
    out.write_all(bytes)?;
    out.sync_all()?;
    std::fs::rename(fresh, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_kept_per_room_and_name() {
        let dir = std::env::temp_dir().join(format!(
            "dicetable-keys-{}-{}",
            std::process::id(),
            rand::random::<u32>()
        ));
        let url = "ws://127.0.0.1:7480/crypt";
        assert_eq!(load(&dir, url, "Pat"), None);
        save(&dir, url, "Pat", "00ff").expect("saves");
        save(&dir, url, "Sam", "11ee").expect("saves");
        assert_eq!(load(&dir, url, "Pat").as_deref(), Some("00ff"));
        assert_eq!(load(&dir, "ws://127.0.0.1:7480/den", "Pat"), None);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.join(FILE))
                .expect("kept")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
