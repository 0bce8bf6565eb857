//! The table of a scene: one ruleset's turn economy for the scene's characters, behind one type,
//! and a summary of it for the turn tracker (round, whose turn, what each character has left).

use super::Rulebook;
use super::RulesetId;
use super::ruleset::Ruleset;
use super::scene::Scene;

pub use super::TableState;

impl TableState {
    /// Seats a scene's cast with its rules: its own where it has them, else the rulebook's;
    /// `seed` breaks ties the rules leave to chance. (Every client seats a scene here, so every
    /// one plays by the scene's rules.)
    pub fn new(scene: &Scene, book: &Rulebook, seed: u64) -> TableState {
        let book = &scene.rulebook(book);
        each_of!(Cast, &scene.cast, |cast, R, _id| R::wrap_table(R::seat(
            R::rules_in(book).clone(),
            cast.clone(),
            &scene.setup,
            seed
        )))
    }

    /// The table played by the rules of generation `generation` (a room's log made by an
    /// earlier build is played as it was: [`crate::record::rules_generation`]).
    pub fn played_by(mut self, generation: u32) -> TableState {
        each_of!(TableState, &mut self, |t, R, _id| R::play_by(t, generation));
        self
    }

    /// The ruleset.
    pub fn ruleset(&self) -> RulesetId {
        each_of!(TableState, self, |_t, R, id| id)
    }
}

/// The version of [`TableState::canonical_state`]. Room logs chain a hash of it after every
/// entry, so its bytes for a given table never change within a version; a log names the
/// version its digests are of (by its format: [`crate::online`]'s `state_version`).
pub const STATE_VERSION: u32 = 2;

impl TableState {
    /// The table's state as room logs hash it, version [`STATE_VERSION`].
    pub fn canonical_state(&self) -> String {
        self.canonical_state_of(STATE_VERSION)
    }

    /// The table's state as version `version` writes it, compact JSON with its keys sorted,
    /// defined here, by the rules, so that what a command prints (`session --json`) is free to
    /// change without breaking `verify` of any stored log:
    /// - version 1 (the first room logs): the heading, the tracker rows, the notes (the rules'
    ///   words) and the turn economy;
    /// - version 2: the version and the turn economy, typed: no sentence, so rewording a rule's
    ///   words changes no digest.
    pub fn canonical_state_of(&self, version: u32) -> String {
        if version < 2 {
            return serde_json::json!({
                "heading": self.heading(),
                "tracker": self.tracker(),
                "notes": self.notes(),
                "state": self.state_json(),
            })
            .to_string();
        }
        serde_json::json!({
            "version": version,
            "ruleset": self.ruleset(),
            "state": self.state_json(),
        })
        .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{book, scene};
    use crate::rules::{action_dice, d4_pool, open_d6};
    use std::path::Path;

    /// A room's log made before a rules generation plays by the rules it was played by: an
    /// unaimed dodge (taken by the first rules) still opens an old action-dice room, and an
    /// ambusher's stance is still charged in the next round there; a new table reads the texts
    /// as the current generation does.
    #[test]
    fn a_table_plays_by_the_rules_of_its_generation() {
        use crate::record::{RULES_GENERATION, build_id, rules_generation};
        use crate::rules::play::Move;
        assert_eq!(
            rules_generation("dicetable 0.1.0 physics 5 x86_64-linux"),
            1
        );
        assert_eq!(rules_generation(&build_id()), RULES_GENERATION);
        let dodge = Move::ActionDice(action_dice::seat::Move::Defend {
            actor: 0,
            skill: "Dodge".into(),
            action_dice: 1,
            extra: 0,
            against: None,
            as_action: false,
        });
        let now = TableState::new(&scene("action-dice-knight-and-magician.ron"), &book(), 1);
        assert!(now.allowed(&dodge).is_err(), "a dodge names whose attacks");
        let then = now.clone().played_by(1);
        assert_eq!(then.allowed(&dodge), Ok(()));
        let surprise = Move::OpenD6(open_d6::seat::Move::SurpriseRound {
            ambushers: vec![0, 1],
        });
        let shots = |generation: u32| {
            let mut t = TableState::new(&scene("open-d6-fred-and-peter.ron"), &book(), 1)
                .played_by(generation);
            crate::rules::testing::play(&mut t, &surprise, &[]);
            match t {
                TableState::OpenD6(t) => t.shots.clone(),
                _ => Vec::new(),
            }
        };
        assert_eq!(shots(RULES_GENERATION), vec![3, 2, 0, 0]);
        assert_eq!(shots(1), vec![3, 3, 0, 0]);
    }

    #[test]
    fn the_canonical_state_is_pinned() {
        // Version 1's bytes for a freshly seated table: every stored room log hashes these.
        let t = TableState::new(&scene("step-dice-vault.ron"), &book(), 1);
        assert_eq!(
            t.canonical_state_of(1),
            include_str!("../../tests/fixtures/step-dice-vault.state-v1.json").trim_end()
        );
        // Version 2's: the typed state alone, which every room log of format 2 hashes.
        let v2 = t.canonical_state_of(2);
        if std::env::var_os("DICETABLE_WRITE_FIXTURES").is_some() {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/step-dice-vault.state-v2.json");
            std::fs::write(path, format!("{v2}\n")).expect("the fixture is written");
        }
        assert_eq!(
            v2,
            include_str!("../../tests/fixtures/step-dice-vault.state-v2.json").trim_end()
        );
        assert!(!v2.contains("turn"), "no sentence of the tracker: {v2}");
    }

    #[test]
    fn d4_pool_tracker_follows_action_load() {
        let mut t = TableState::new(&scene("d4-pool-goblin-ambush.ron"), &book(), 1);
        assert_eq!(t.heading(), "Round 1: Vex the Rogue's turn");
        assert_eq!(
            t.tracker()[0].status[0],
            "Action Load -1",
            "Vex resets to -APB"
        );
        if let TableState::D4Pool(table) = &mut t {
            let a = table.action(0, "Finesse", Some("dagger")).expect("action");
            table.apply(0, &a);
            table.end_turn();
        }
        let rows = t.tracker();
        assert_eq!(rows[0].status[0], "Action Load 0");
        assert!(rows[1].acting && !rows[0].acting);
    }

    #[test]
    fn open_d6_tracker_counts_shots() {
        let mut t = TableState::new(&scene("open-d6-fred-and-peter.ron"), &book(), 1);
        assert_eq!(t.heading(), "Roll initiative (or a surprise round)");
        if let TableState::OpenD6(table) = &mut t {
            // Fred 8+(3-1)=10, Mia 9+(2-2)-1 stance=8, Peter 7+(6-1)=12; goons 5.
            table.start_round(&[3, 1, 2, 2, 6, 1]).expect("faces");
        }
        assert_eq!(t.heading(), "Round 1, shot 12: Peter");
        let rows = t.tracker();
        assert_eq!(
            rows.iter()
                .map(|r| r.status[0].as_str())
                .collect::<Vec<_>>(),
            vec!["shots 10", "shots 8", "shots 12", "shots 5"]
        );
        assert!(rows[2].acting);
    }

    #[test]
    fn every_scene_has_a_tracker_row_per_character() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
        for file in super::super::scene::scene_files(&dir) {
            let s = Scene::load(&file).unwrap_or_else(|e| panic!("{e}"));
            let t = TableState::new(&s, &book(), 3);
            assert_eq!(t.ruleset(), s.ruleset());
            let rows = t.tracker();
            assert_eq!(
                rows.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(),
                s.names()
            );
            assert!(rows.iter().all(|r| !r.status.is_empty()));
            assert!(!t.heading().is_empty());
            // Every scene's first move is allowed, throws dice and has odds.
            let m = t.default_move();
            assert!(t.allowed(&m).is_ok(), "{}: {m:?}", s.name);
            assert!(!t.plan(&m).expect("plan").dice.is_empty());
            assert!(t.odds(&m).expect("odds").is_some());
        }
    }

    #[test]
    fn moves_of_another_ruleset_are_refused() {
        let t = TableState::new(&scene("d20-check-crypt.ron"), &book(), 1);
        let other = TableState::new(&scene("step-dice-vault.ron"), &book(), 1).default_move();
        let refused = t.allowed(&other);
        assert_eq!(
            refused,
            Err(crate::rules::RulesError::OtherRuleset {
                mv: RulesetId::StepDice,
                table: RulesetId::D20Check
            })
        );
        assert_eq!(
            refused.map_err(|e| e.to_string()),
            Err("that move is one of step-dice, and this table plays d20-check".into())
        );
    }

    #[test]
    fn moves_read_and_write_as_ron() {
        let m = TableState::new(&scene("open-d6-fred-and-peter.ron"), &book(), 1).default_move();
        let text = ron::to_string(&m).expect("ron");
        assert_eq!(text, "OpenD6(Initiative)");
        let m: crate::rules::play::Move = crate::rules::data::parse_ron(
            "m",
            "D4Pool(Act(actor: 1, aspect: \"Wits\", kind: \"reaction\", weapon: \"sling\"))",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            m,
            crate::rules::play::Move::D4Pool(d4_pool::seat::Move::Act {
                actor: 1,
                aspect: "Wits".into(),
                weapon: Some("sling".into()),
                kind: "reaction".into(),
                target: d4_pool::seat::Aim::None,
                advantages: vec![],
                disadvantages: vec![],
            })
        );
    }

    #[test]
    fn d20_and_action_dice_and_step_dice_headings() {
        let t = TableState::new(&scene("d20-check-crypt.ron"), &book(), 1);
        assert_eq!(t.heading(), "No initiative: any character may check");
        assert!(t.tracker()[0].status.contains(&"torches d6".to_string()));
        let t = TableState::new(&scene("action-dice-knight-and-magician.ron"), &book(), 1);
        // Left: Aldric 4, Mirelle 3, Policeman 2, Mugger 1: fewest first.
        assert_eq!(
            t.heading(),
            "Round 1: declare in order Mugger, Policeman, Mirelle the Magician, Sir Aldric"
        );
        assert_eq!(
            t.tracker()[0].status,
            vec![
                "action dice 3/3".to_string(),
                "riding die 1/1".to_string(),
                "defence hand-to-hand 8, ranged 6".to_string()
            ]
        );
        let t = TableState::new(&scene("step-dice-vault.ron"), &book(), 1);
        assert_eq!(t.tracker()[1].status[0], "grit 1");
    }
}
