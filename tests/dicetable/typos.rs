//! A misspelt field is refused wherever a person writes one, by name and with the nearest field
//! the place has: a move, a script's step, a scene, a system file (here, through `session`,
//! exit 2); a move on a room's socket and an API body are refused the same way by their
//! readers (`online::protocol` and `stream::api` tests). Ignored, a misspelt field silently
//! changes what a move does (`use_load: false` read as the default).

use std::path::{Path, PathBuf};

use super::{dicetable, stderr};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `session` of `scene` with `script` (both texts, written to `dir`): its exit code and what it
/// said on standard error.
fn session(dir: &Path, scene: &str, script: &str) -> (Option<i32>, String) {
    let scene_file = dir.join("scene.ron");
    let script_file = dir.join("script.ron");
    std::fs::write(&scene_file, scene).expect("written");
    std::fs::write(&script_file, script).expect("written");
    let out = dicetable(&[
        "session",
        "--scene",
        scene_file.to_str().expect("a path"),
        "--script",
        script_file.to_str().expect("a path"),
    ]);
    (out.status.code(), stderr(&out))
}

/// A file of the repository, as it ships.
pub(crate) fn shipped(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).expect("a shipped file")
}

#[test]
fn a_misspelt_field_is_refused_by_name_in_scripts_moves_scenes_and_system_files() {
    let _lane = crate::beside_real_time();
    let dir: PathBuf = std::env::temp_dir().join(format!("dicetable-typos-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let goblins = shipped("scenes/d4-pool-goblin-ambush.ron");
    let end_turn = "(seed: 1, steps: [(move: D4Pool(EndTurn))])";
    // Each right as written first: only the slip is refused.
    assert_eq!(session(&dir, &goblins, end_turn).0, Some(0));

    let cases = [
        (
            "a move",
            goblins.clone(),
            r#"(seed: 1, steps: [(move: D4Pool(GmCall(actor: 1, aspect: "Might", use_load: false)))])"#.to_string(),
            "no field `use_load` in `GmCall`; did you mean `uses_load`?",
        ),
        (
            "a script's step",
            goblins.clone(),
            "(seed: 1, steps: [(moev: D4Pool(EndTurn))])".to_string(),
            "no field `moev` in `ScriptStep`; did you mean `move`?",
        ),
        (
            "a scene",
            goblins.replacen("description:", "descripton:", 1),
            end_turn.to_string(),
            "no field `descripton` in `Scene`; did you mean `description`?",
        ),
    ];
    for (kind, scene, script, says) in cases {
        let (code, said) = session(&dir, &scene, &script);
        assert_eq!(code, Some(2), "{kind}: {said}");
        assert!(said.contains(says), "{kind}: {said:?} should say {says:?}");
        assert!(
            said.lines().count() <= 2 && said.len() < 400,
            "{kind}: one short error: {said:?}"
        );
    }

    // A system file the scene names beside it, with `traits` spelt `trait`.
    std::fs::create_dir_all(dir.join("rules")).expect("a folder");
    let system = shipped("scenes/rules/highest-d6.ron").replacen("traits:", "trait:", 1);
    std::fs::write(dir.join("rules/highest-d6.ron"), system).expect("written");
    let scene = shipped("scenes/system-highest-d6.ron");
    let (code, said) = session(
        &dir,
        &scene,
        "(seed: 1, steps: [(move: SystemFile(EndTurn))])",
    );
    assert_eq!(code, Some(2), "{said}");
    assert!(
        said.contains("no field `trait`") && said.contains("did you mean `traits`?"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
