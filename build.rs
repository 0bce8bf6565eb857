//! Lists the scenes that ship with the program, every `.ron` file under `scenes/`, for
//! `rules::scene::SHIPPED` to compile in: a scene added to the folder ships without a line of
//! code naming it.

use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let scenes = root.join("scenes");
    println!("cargo::rerun-if-changed=scenes");
    let mut files = Vec::new();
    ron_files(&scenes, &mut files);
    files.sort();
    let mut list = String::from("&[\n");
    for file in &files {
        let name = file
            .strip_prefix(&scenes)
            .expect("under scenes/")
            .to_string_lossy()
            .replace('\\', "/");
        // The path is joined at compile time from the crate's folder, not written out here: a
        // target directory shared by checkouts in other folders keeps reading this one's files.
        list.push_str(&format!(
            "    ({name:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), {:?}))),\n",
            format!("/scenes/{name}")
        ));
    }
    list.push_str("]\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    std::fs::write(out.join("shipped_scenes.rs"), list).expect("OUT_DIR is writable");
}

fn ron_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            ron_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "ron") {
            out.push(path);
        }
    }
}
