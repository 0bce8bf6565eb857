//! The window: opens, renders the lit table, saves a screenshot, exits.

use std::path::Path;
use std::process::Command;

fn has_display() -> bool {
    std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some()
}

fn xvfb_available() -> bool {
    Command::new("sh")
        .args(["-c", "command -v xvfb-run"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// How many different colours a picture has (a blank frame has one or two).
pub fn distinct_colours(pixels: &[[u8; 3]]) -> usize {
    let mut distinct = pixels.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    distinct.len()
}

/// Decodes an 8-bit RGB(A) PNG into (width, height, rgb pixels).
pub fn read_png(path: &Path) -> (u32, u32, Vec<[u8; 3]>) {
    let file = std::fs::File::open(path)
        .unwrap_or_else(|e| panic!("no screenshot at {}: {e}", path.display()));
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let channels = info.color_type.samples();
    assert!(
        channels >= 3 && info.bit_depth == png::BitDepth::Eight,
        "{:?} {:?}",
        info.color_type,
        info.bit_depth
    );
    let pixels = buf[..info.buffer_size()]
        .chunks(channels)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    (info.width, info.height, pixels)
}

#[test]
fn the_table_renders_under_xvfb() {
    let _lane = crate::beside_real_time();
    let dir = std::env::temp_dir().join(format!("dicetable-window-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let shot = dir.join("table.png");
    let shot_arg = shot.display().to_string();
    let args = [
        "--width",
        "960",
        "--height",
        "600",
        "--exit-after-frames",
        "5",
        "--screenshot",
        shot_arg.as_str(),
    ];
    if play(&args).is_none() {
        return;
    }
    let (w, h, pixels) = read_png(&shot);
    assert_eq!((w, h), (960, 600));
    // Not blank: many distinct colours and real contrast.
    let distinct = distinct_colours(&pixels);
    assert!(distinct > 50, "only {distinct} colours: blank?");
    // The felt shows: a good share of the picture is felt green (the overlays take the sides).
    let felt = pixels
        .iter()
        .filter(|p| {
            let [r, g, b] = p.map(i32::from);
            g > 60 && g > r + 25 && g > b + 25
        })
        .count();
    assert!(
        felt * 20 > pixels.len(),
        "only {felt} of {} pixels are felt green",
        pixels.len()
    );
    // Lit: the picture is neither black nor washed out.
    let mean: f64 = pixels
        .iter()
        .map(|p| f64::from(p[0]) + f64::from(p[1]) + f64::from(p[2]))
        .sum::<f64>()
        / (3.0 * pixels.len() as f64);
    assert!((25.0..230.0).contains(&mean), "mean brightness {mean}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `dicetable play` under Xvfb (or the display) with arguments; its stdout.
fn play(args: &[&str]) -> Option<String> {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    window(&all)
}

/// Runs a window command of `dicetable` under Xvfb (or the display); its stdout.
fn window(args: &[&str]) -> Option<String> {
    if !has_display() && !xvfb_available() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have Xvfb: ./check installs it"
        );
        eprintln!("skipped: no display and no xvfb-run (./check installs Xvfb)");
        return None;
    }
    let bin = env!("CARGO_BIN_EXE_dicetable");
    let mut command = if has_display() {
        Command::new(bin)
    } else {
        let mut c = Command::new("xvfb-run");
        c.args(["-a", "-s", "-screen 0 1280x800x24", bin]);
        c
    };
    let out = command
        .args(args)
        .env("DICETABLE_DATA_DIR", crate::test_data_dir())
        .output()
        .expect("run dicetable");
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn a_throw_in_the_window_is_the_same_throw_as_roll() {
    let _lane = crate::beside_real_time();
    for (notation, seed) in [("2d6+d20+d%+d4", "21"), ("3d6!", "4")] {
        let Some(stdout) = play(&[
            "--width",
            "480",
            "--height",
            "300",
            "--roll",
            notation,
            "--seed",
            seed,
            "--exit-after-frames",
            "2",
        ]) else {
            return;
        };
        let line = stdout
            .lines()
            .find(|l| l.starts_with("rolled "))
            .unwrap_or_else(|| panic!("no result in: {stdout}"));
        let headless = crate::dicetable(&["roll", notation, "--seed", seed, "--json"]);
        let j: serde_json::Value = serde_json::from_slice(&headless.stdout).expect("json");
        let faces: Vec<Vec<u64>> = j["dice"]
            .as_array()
            .expect("dice")
            .iter()
            .map(|d| {
                d["faces"]
                    .as_array()
                    .expect("faces")
                    .iter()
                    .filter_map(|f| f.as_u64())
                    .collect()
            })
            .collect();
        let expected = format!("faces {faces:?} total {}", j["total"]);
        assert!(
            line.ends_with(&expected),
            "window: {line}\nheadless: {expected}"
        );
    }
}

#[test]
fn every_scene_plays_its_default_move_in_the_window() {
    let _lane = crate::beside_real_time();
    let dir = std::env::temp_dir().join(format!("dicetable-scenes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let scenes = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    for (file, expect) in [
        (
            "d4-pool-goblin-ambush.ron",
            "played Vex the Rogue: attack, Finesse with dagger at Goblin",
        ),
        (
            "action-dice-knight-and-magician.ron",
            "played Sir Aldric: Sword with 2 action dice",
        ),
        (
            "step-dice-vault.ron",
            "played Ana: Locks vs Very Challenging",
        ),
        ("open-d6-fred-and-peter.ron", "played initiative"),
        (
            "d20-check-crypt.ron",
            "played Ash: Standard check (STR) vs Controlled",
        ),
    ] {
        let shot = dir.join(file.replace(".ron", ".png"));
        let (scene, shot_arg) = (scenes.join(file), shot.display().to_string());
        let scene_arg = scene.display().to_string();
        let args = [
            "--width",
            "960",
            "--height",
            "600",
            "--scene",
            &scene_arg,
            "--seed",
            "5",
            "--throw",
            "--screenshot",
            &shot_arg,
            "--exit-after-frames",
            "3",
        ];
        let Some(stdout) = play(&args) else { return };
        let line = stdout
            .lines()
            .find(|l| l.starts_with("played "))
            .unwrap_or_else(|| panic!("{file}: no move played in: {stdout}"));
        assert!(line.starts_with(expect), "{file}: {line}");
        assert!(line.contains("seed 5: throws [["), "{file}: {line}");
        let (_, _, pixels) = read_png(&shot);
        let distinct = distinct_colours(&pixels);
        assert!(distinct > 50, "{file}: only {distinct} colours");
        // The same seed plays the same move to the same faces, in a small window: it is only
        // read, and draws a sixteenth of the pixels (its picture replaces the one looked at).
        let mut small = args;
        small[1] = "240";
        small[3] = "150";
        let again = play(&small).unwrap_or_default();
        assert!(
            again.lines().any(|l| l == line),
            "{file}: replay differs: {again}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_demo_plays_its_steps_in_the_window_with_the_recorded_seeds() {
    let _lane = crate::beside_real_time();
    let dir = std::env::temp_dir().join(format!("dicetable-demo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let shot = dir.join("demo.png");
    let shot_arg = shot.display().to_string();
    let Some(stdout) = window(&[
        "demo",
        "d4-pool",
        "--steps",
        "4",
        "--width",
        "960",
        "--height",
        "600",
        "--screenshot",
        &shot_arg,
        "--exit-after-frames",
        "3",
    ]) else {
        return;
    };
    let played: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("played "))
        .collect();
    assert_eq!(played.len(), 4, "{stdout}");
    // Step 4 is the text's 4d4 + 1d4 = 14 at load 2, thrown with its recorded seed 8: the same
    // faces as the headless `demo --check` (and `session`) throw for that seed.
    assert!(
        played[3].ends_with("seed 8: throws [[4, 1, 3, 2, 4]] -> hit (14)"),
        "{}",
        played[3]
    );
    let check = crate::dicetable(&["demo", "d4-pool", "--check"]);
    assert!(crate::stdout(&check).contains("throw (d4 pool): [4, 1, 3, 2, 4]\n   seed 8"));
    let (_, _, pixels) = read_png(&shot);
    let distinct = distinct_colours(&pixels);
    assert!(distinct > 50, "only {distinct} colours");
    let _ = std::fs::remove_dir_all(&dir);
}
