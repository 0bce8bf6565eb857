//! The window app's logic on Bevy's `MinimalPlugins`, as in Bevy's `tests/how_to_test_apps.rs`:
//! no window, no renderer. A move drafted, thrown on the felt's physics through the roll path,
//! its outcome applied and kept in the history; faces that do not fit the plan refused; the free
//! roll's odds worked out off the frame; the window's throws the same as the headless ones.

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;

use super::table::{
    ActionRequest, RollHistory, TablePlay, TableRoll, TableSimulator, ThrowNotation, ThrowSettled,
    Thrower,
};
use super::ui::{FreeOdds, FreeRoll, MoveDraft};
use super::{PlayOptions, headless_plugin};
use crate::odds::notation::Notation;
use crate::record::Cocked;
use crate::roll::RollError;
use crate::rules::RulesError;
use crate::rules::play::Move;
use crate::script::{Faces, play_move};

/// Updates a test may take to settle a throw: 60 a simulated second, far more than any throw.
const MAX_UPDATES: u32 = 60 * 120;

/// The window's logic in an app without a window, its clock stepped by hand (a sixtieth of a
/// second an update: two of the felt's 120 Hz steps).
fn app() -> App {
    app_with(PlayOptions::default())
}

/// [`app`], opened with these options (`play --roll CODE`, `--listen ADDR`).
fn app_with(options: PlayOptions) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins);
    app.insert_resource(options);
    app.add_plugins(headless_plugin);
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / 60.0,
    )));
    app.update();
    app
}

/// Seats a scene at the app's table, and lets the draft catch up.
fn seat(app: &mut App, file: &str) {
    let scene = crate::rules::testing::scene(file);
    app.world_mut()
        .resource_mut::<TablePlay>()
        .seat(&scene, 1)
        .unwrap_or_else(|e| panic!("{e}"));
    app.update();
}

/// The move the builder has drafted.
fn drafted(app: &App) -> Move {
    app.world()
        .resource::<MoveDraft>()
        .mv
        .clone()
        .expect("drafted")
}

/// Asks the window's table to play `mv` with `seed`, as the builder's Throw button does.
fn throw_move(app: &mut App, mv: Move, seed: u64) {
    app.world_mut().write_message(ActionRequest {
        mv,
        seed,
        swing: None,
        replay_of: None,
        caller: Default::default(),
    });
    app.update();
}

/// True while anything on the table moves or waits for dice.
fn busy(app: &App) -> bool {
    let world = app.world();
    world.resource::<TablePlay>().in_flight()
        || world.resource::<TableRoll>().in_flight()
        || world.non_send::<TableSimulator>().busy()
}

/// Updates until the table is still.
fn settle(app: &mut App) {
    for _ in 0..MAX_UPDATES {
        app.update();
        if !busy(app) {
            return;
        }
    }
    panic!("the table did not settle in {MAX_UPDATES} updates");
}

#[test]
fn a_drafted_move_is_thrown_resolved_applied_and_kept() {
    let mut app = app();
    seat(&mut app, "d4-pool-goblin-ambush.ron");
    let draft = app.world().resource::<MoveDraft>();
    let mv = draft.mv.clone().expect("the scene's first move is drafted");
    assert!(draft.ready(), "the draft is allowed");
    let preview = draft.preview().expect("its verdict and odds");
    let odds = preview.odds.clone().expect("odds").expect("it throws dice");
    assert!(
        odds.p_success.is_some(),
        "the chance of success before the throw"
    );
    let before = app
        .world()
        .resource::<TablePlay>()
        .state
        .clone()
        .expect("seated");
    throw_move(&mut app, mv.clone(), 7);
    assert!(busy(&app), "the dice are in the air");
    settle(&mut app);
    // The same move with the same seed, played headless as `session` plays it.
    let mut headless = before.clone();
    let report = play_move(&mut headless, &mv, Faces::Physical(7));
    let play = app.world().resource::<TablePlay>();
    let current = play.current.as_ref().expect("the move");
    assert_eq!(current.error, None);
    let outcome = current.outcome().expect("resolved");
    assert_eq!(current.faces(), report.throws.as_slice(), "the same faces");
    assert_eq!(Some(outcome), report.outcome.as_ref(), "the same outcome");
    assert_eq!(current.effects, report.said, "the same changes");
    assert_eq!(play.state.as_ref(), Some(&headless), "the same table after");
    assert_ne!(play.state.as_ref(), Some(&before), "the turn economy moved");
    let history = app.world().resource::<RollHistory>();
    assert_eq!(history.entries.len(), 1);
    let entry = &history.entries[0];
    assert_eq!(entry.what, current.title);
    assert_eq!(
        (entry.seed, entry.faces.as_slice()),
        (7, report.throws.as_slice())
    );
    assert_eq!(entry.result, outcome.class);
    assert_eq!(entry.record.total, Some(outcome.total.into()));
    assert!(entry.luck.is_some(), "its luck from the odds shown before");
}

/// Settles the throw the move in play asks for, showing the faces `faces(dice)` gives for its
/// number of dice (given faces, as a test gives them, in place of the physics' own).
fn settle_as(app: &mut App, faces: impl FnOnce(usize) -> Vec<u32>) {
    let order = {
        let play = app.world().resource::<TablePlay>();
        let roll = play.current.as_ref().and_then(|c| c.roll());
        roll.expect("rolling")
            .next_order()
            .expect("a throw asked for")
    };
    let shown = faces(order.dice.len());
    app.world_mut().write_message(ThrowSettled {
        thrower: Thrower::Scene,
        record: order.settled_as(shown),
    });
    app.update();
}

#[test]
fn faces_that_do_not_fit_the_plan_are_refused_and_change_nothing() {
    let mut app = app();
    seat(&mut app, "d4-pool-goblin-ambush.ron");
    let mv = drafted(&app);
    let before = app.world().resource::<TablePlay>().state.clone();
    throw_move(&mut app, mv, 7);
    // A throw of the dice asked for, with its seed, but showing 9 on d4s.
    settle_as(&mut app, |dice| vec![9; dice]);
    let play = app.world().resource::<TablePlay>();
    let current = play.current.as_ref().expect("the move");
    assert_eq!(
        current.error,
        Some(RollError::Rules(RulesError::Refused(
            crate::rules::Refusal::new(
                crate::rules::RefusalKind::Faces,
                "face 9 is not on a d4 (d4)"
            )
        )))
    );
    assert!(!current.in_flight(), "the move stopped");
    assert_eq!(current.outcome(), None);
    assert_eq!(play.state, before, "nothing was applied");
    assert!(app.world().resource::<RollHistory>().entries.is_empty());
    // The physics' own throw settles later: it is not read into the stopped move.
    settle(&mut app);
    assert!(app.world().resource::<RollHistory>().entries.is_empty());
}

#[test]
fn the_window_plays_a_scene_by_its_own_rules() {
    // Ana's Locks d10 against Hard d8, both showing 5: a tie. The shipped vault gives it to
    // her; the dangerous vault's rules file gives it to the world.
    let tie = |file: &str| {
        let mut app = app();
        seat(&mut app, file);
        let mv: Move = crate::rules::data::parse_ron(
            "move",
            r#"StepDice(Act(actor: 0, skill: "Locks", difficulty: "Hard"))"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        throw_move(&mut app, mv, 7);
        settle_as(&mut app, |_| vec![5, 5]);
        let play = app.world().resource::<TablePlay>();
        let outcome = play.current.as_ref().and_then(|c| c.outcome());
        outcome.map(|o| (o.total, o.success))
    };
    assert_eq!(tie("step-dice-vault.ron"), Some((0, Some(true))));
    assert_eq!(tie("step-dice-vault-dangerous.ron"), Some((0, Some(false))));
}

#[test]
fn a_free_roll_in_the_window_is_the_roll_of_the_command_line() {
    // Open-ended dice, a fraction kept exact, and a roll of no dice (read at once).
    for text in ["2d6!+1d8", "3d6/2", "0d6+3"] {
        let mut app = app();
        let notation = Notation::parse(text).expect("parses");
        app.world_mut().write_message(ThrowNotation {
            notation: notation.clone(),
            seed: 5,
            swing: None,
            cocked: Cocked::Rethrow,
            caller: Default::default(),
        });
        app.update();
        settle(&mut app);
        let (rolled, record) =
            crate::roll::headless::record_notation(&notation, 5, None, Cocked::Rethrow)
                .expect("rolls headless");
        let table = app.world().resource::<TableRoll>();
        assert_eq!(table.chains(), rolled.roll.chains(), "{text}");
        assert_eq!(table.total, record.total, "{text}");
        assert!(table.total.is_some(), "{text}");
        let history = app.world().resource::<RollHistory>();
        assert_eq!(history.entries.len(), 1, "{text}");
        assert_eq!(
            history.entries[0].record.digest, record.digest,
            "{text}: the same poses"
        );
        assert_eq!(history.entries[0].record.code(), record.code(), "{text}");
    }
}

#[test]
fn a_replay_code_throws_again_with_its_own_cocked_dice_policy() {
    // A roll whose dice land cocked somewhere, thrown with `--cocked nudge`: its faces under
    // nudge differ from a re-throw's, so a replay that ignored the policy would not match.
    let notation = Notation::parse("12d6").expect("parses");
    let (seed, nudged) = (0..400)
        .find_map(|seed| {
            let roll = |cocked| {
                crate::roll::headless::record_notation(&notation, seed, None, cocked)
                    .expect("rolls headless")
                    .1
            };
            let nudged = roll(Cocked::Nudge);
            (nudged.faces != roll(Cocked::Rethrow).faces).then_some((seed, nudged))
        })
        .expect("a seed whose dice land cocked");
    let mut app = app_with(PlayOptions {
        roll: Some(nudged.code()),
        ..PlayOptions::default()
    });
    settle(&mut app);
    let history = app.world().resource::<RollHistory>();
    assert_eq!(history.entries.len(), 1, "seed {seed}");
    let replayed = &history.entries[0].record;
    assert_eq!(replayed.cocked, Cocked::Nudge);
    assert_eq!(
        (&replayed.faces, &replayed.digest),
        (&nudged.faces, &nudged.digest),
        "seed {seed}: the faces and poses of the nudged roll"
    );
    assert_eq!(replayed.code(), nudged.code());
}

/// POSTs `body` to `url` in a thread of its own: the status and the JSON answer, once it comes.
fn post_in_background(url: String, body: &'static str) -> std::thread::JoinHandle<(u16, String)> {
    std::thread::spawn(move || {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into();
        let mut answer = agent
            .post(&url)
            .header("content-type", "application/json")
            .send(body)
            .unwrap_or_else(|e| panic!("POST {url}: {e}"));
        let status = answer.status().as_u16();
        (
            status,
            answer.body_mut().read_to_string().unwrap_or_default(),
        )
    })
}

/// Updates the app until `asked` has its answer.
fn answer_of(
    app: &mut App,
    asked: std::thread::JoinHandle<(u16, String)>,
) -> (u16, serde_json::Value) {
    for _ in 0..MAX_UPDATES {
        if asked.is_finished() {
            break;
        }
        app.update();
        std::thread::sleep(Duration::from_millis(2));
    }
    let (status, text) = asked.join().expect("answered");
    (status, serde_json::from_str(&text).unwrap_or_default())
}

#[test]
fn the_roll_api_rolls_off_the_frames_and_the_table_shows_the_same_roll() {
    let mut app = app_with(PlayOptions {
        listen: Some(std::net::SocketAddr::from(([127, 0, 0, 1], 0))),
        ..PlayOptions::default()
    });
    let addr = app.world().resource::<super::stream::Listening>().0;
    let url = format!("http://{addr}/api/roll");
    // A move stopped at the table first: its error is the move's, never an API roll's answer.
    seat(&mut app, "d4-pool-goblin-ambush.ron");
    let mv = drafted(&app);
    throw_move(&mut app, mv, 7);
    settle_as(&mut app, |dice| vec![9; dice]);
    settle(&mut app);
    let stopped = app
        .world()
        .resource::<TablePlay>()
        .current
        .as_ref()
        .and_then(|c| c.error.clone());
    assert!(stopped.is_some(), "the move stopped");
    // A notation the roll path refuses is answered with its own code, and nothing is thrown.
    let (status, answer) = answer_of(
        &mut app,
        post_in_background(url.clone(), r#"{"notation":"2d31"}"#),
    );
    assert_eq!(
        (status, answer["code"].as_str()),
        (422, Some("no_such_die")),
        "{answer}"
    );
    let (status, answer) = answer_of(
        &mut app,
        post_in_background(url.clone(), r#"{"notation":"60d6+41d8"}"#),
    );
    assert_eq!(
        (status, answer["code"].as_str()),
        (422, Some("too_many_dice")),
        "{answer}"
    );
    assert!(app.world().resource::<RollHistory>().entries.is_empty());
    // A good one: rolled as `roll` rolls it, shown on the felt, the same record in the history.
    let (status, answer) = answer_of(
        &mut app,
        post_in_background(url, r#"{"notation":"2d6!+1","seed":11,"who":"Vex"}"#),
    );
    assert_eq!(status, 200, "{answer}");
    let notation = Notation::parse("2d6!+1").expect("parses");
    let (_, mut record) =
        crate::roll::headless::record_notation(&notation, 11, None, Cocked::Rethrow)
            .expect("rolls headless");
    record.who = Some("Vex".into());
    assert_eq!(answer["code"].as_str(), Some(record.code().as_str()));
    assert_eq!(
        answer["record"]["digest"].as_str(),
        Some(record.digest.as_str())
    );
    let history = app.world().resource::<RollHistory>();
    assert_eq!(history.entries.len(), 1);
    assert_eq!(
        history.entries[0].record.digest, record.digest,
        "the felt showed the same roll"
    );
    assert_eq!(history.entries[0].record.who.as_deref(), Some("Vex"));
    // At a room (`play --join`), the room's server seeds every throw: the API is refused.
    app.world_mut()
        .insert_resource(super::table::RemoteDriven::default());
    let url = format!("http://{addr}/api/roll");
    let (status, answer) = answer_of(&mut app, post_in_background(url, r#"{"notation":"d6"}"#));
    assert_eq!(
        (status, answer["code"].as_str()),
        (409, Some("at_a_room")),
        "{answer}"
    );
    assert_eq!(app.world().resource::<RollHistory>().entries.len(), 1);
}

#[test]
fn the_free_roll_odds_are_worked_out_off_the_frame() {
    let mut app = app();
    app.world_mut()
        .resource_mut::<FreeRoll>()
        .set_text("{3d6,0d0}>=10");
    let mut updates = 0;
    while app.world().resource::<FreeRoll>().dist().is_none() {
        assert!(updates < MAX_UPDATES, "the odds never came");
        app.update();
        updates += 1;
    }
    let free = app.world().resource::<FreeRoll>();
    assert!(matches!(free.odds, FreeOdds::Ready { .. }));
    let expected = Notation::parse("{3d6,0d0}>=10").expect("parses");
    assert_eq!(free.dist(), Some(&expected.distribution().expect("odds")));
    assert_eq!(
        expected.p_success().map(|p| p.exact()),
        Some("5/8".to_string()),
        "3d6 of 10 or more: 135 of 216"
    );
}

/// The window's own dice, kept in its data folder, come down for its free rolls (a roll of
/// the history's replays keeps the look it had); with none kept, the table's plain dice.
#[test]
fn a_free_roll_comes_in_the_windows_own_dice_kept_between_runs() {
    use crate::dice::style::{DiceLook, Material, Rgb, Typeface};
    let dir = std::env::temp_dir().join(format!("dicetable-window-dice-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let stone = DiceLook {
        body: Rgb([30, 64, 170]),
        ink: Rgb([255, 255, 255]),
        material: Material::Stone,
        pips: false,
        typeface: Typeface::Sans,
    };
    super::table::own_dice_file(&dir, Some(stone)).expect("kept");
    let looks = |history_dir: Option<std::path::PathBuf>| {
        let mut app = app_with(PlayOptions {
            history_dir,
            ..PlayOptions::default()
        });
        app.world_mut().write_message(ThrowNotation {
            notation: Notation::parse("2d6").expect("notation"),
            seed: 5,
            swing: None,
            cocked: Cocked::Rethrow,
            caller: Default::default(),
        });
        app.update();
        let physics = app.world().non_send::<TableSimulator>();
        physics
            .shown()
            .map(|t| t.dice.iter().map(|(_, style)| *style).collect::<Vec<_>>())
            .unwrap_or_default()
    };
    assert_eq!(looks(Some(dir.clone())), vec![stone.drawn(); 2]);
    assert_eq!(
        looks(None),
        vec![
            crate::dice::style::DieStyle::IVORY,
            crate::dice::style::DieStyle::ONYX
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
