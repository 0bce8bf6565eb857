//! The table of a scene: one ruleset's turn economy for the scene's characters, behind one type,
//! and a summary of it for the turn tracker (round, whose turn, what each character has left).

use super::engine::Rulebook;
use super::scene::{Cast, Scene};
use super::{RulesetId, action_dice, d4_pool, d20_check, open_d6, step_dice};

/// The turn economy of a scene.
#[derive(Clone, Debug, PartialEq)]
pub enum TableState {
    /// Action Load.
    D4Pool(d4_pool::Table),
    /// Action dice per round.
    ActionDice(action_dice::Table),
    /// Standard turn, teamwork, grit.
    StepDice(step_dice::Table),
    /// Initiative shots.
    OpenD6(open_d6::Table),
    /// Side initiative, resource dice.
    D20Check(d20_check::Table),
}

/// One character's line in the turn tracker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackerRow {
    /// The character.
    pub name: String,
    /// Whether it is this character's turn (or shot, or side).
    pub acting: bool,
    /// What it has left, in the ruleset's words.
    pub status: Vec<String>,
}

impl TableState {
    /// Seats a scene's cast with the rulebook's rules; `seed` breaks ties the rules leave to chance.
    pub fn new(scene: &Scene, book: &Rulebook, seed: u64) -> TableState {
        match &scene.cast {
            Cast::D4Pool(c) => {
                TableState::D4Pool(d4_pool::Table::new(book.d4_pool.clone(), c.clone()))
            }
            Cast::ActionDice(c) => TableState::ActionDice(action_dice::Table::new(
                book.action_dice.clone(),
                c.clone(),
                seed,
            )),
            Cast::StepDice(c) => {
                TableState::StepDice(step_dice::Table::new(book.step_dice.clone(), c.clone()))
            }
            Cast::OpenD6(c) => {
                TableState::OpenD6(open_d6::Table::new(book.open_d6.clone(), c.clone()))
            }
            Cast::D20Check(c) => {
                TableState::D20Check(d20_check::Table::new(book.d20_check.clone(), c.clone()))
            }
        }
    }

    /// The ruleset.
    pub fn ruleset(&self) -> RulesetId {
        match self {
            TableState::D4Pool(_) => RulesetId::D4Pool,
            TableState::ActionDice(_) => RulesetId::ActionDice,
            TableState::StepDice(_) => RulesetId::StepDice,
            TableState::OpenD6(_) => RulesetId::OpenD6,
            TableState::D20Check(_) => RulesetId::D20Check,
        }
    }

    /// The round (0 before the first initiative, where the rules roll one).
    pub fn round(&self) -> u32 {
        match self {
            TableState::D4Pool(t) => t.round,
            TableState::ActionDice(t) => t.round,
            TableState::StepDice(t) => t.round,
            TableState::OpenD6(t) => t.round,
            TableState::D20Check(t) => t.round,
        }
    }

    /// What the tracker's heading says: whose turn, the shot, the side, the declaration order.
    pub fn heading(&self) -> String {
        match self {
            TableState::D4Pool(t) => {
                format!("Round {}: {}'s turn", t.round, t.characters[t.active].name)
            }
            TableState::StepDice(t) => {
                format!("Round {}: {}'s turn", t.round, t.characters[t.active].name)
            }
            TableState::ActionDice(t) => {
                let order: Vec<&str> = t
                    .declaration_order()
                    .iter()
                    .map(|&i| t.characters[i].name.as_str())
                    .collect();
                format!("Round {}: declare in order {}", t.round, order.join(", "))
            }
            TableState::OpenD6(t) => match t.current_shot() {
                None if t.round == 0 => "Roll initiative".to_string(),
                None => format!("Round {} is over: roll initiative", t.round),
                Some(shot) => {
                    let who: Vec<&str> = t
                        .acting_now()
                        .iter()
                        .map(|&i| t.characters[i].name.as_str())
                        .collect();
                    format!("Round {}, shot {shot}: {}", t.round, who.join(", then "))
                }
            },
            TableState::D20Check(t) => match t.side_to_act() {
                None if t.round == 0 => "Roll initiative".to_string(),
                None => format!("Round {} is over: roll initiative", t.round),
                Some(side) => format!("Round {}: the {side:?} side acts", t.round),
            },
        }
    }

    /// One row per character, in seat order.
    pub fn tracker(&self) -> Vec<TrackerRow> {
        match self {
            TableState::D4Pool(t) => t
                .characters
                .iter()
                .enumerate()
                .map(|(i, c)| TrackerRow {
                    name: c.name.clone(),
                    acting: i == t.active,
                    status: vec![
                        format!("Action Load {}", t.loads[i]),
                        format!("Evasion {}", c.evasion),
                    ],
                })
                .collect(),
            TableState::ActionDice(t) => t
                .characters
                .iter()
                .zip(&t.budgets)
                .map(|(c, b)| {
                    let mut status = vec![format!(
                        "action dice {}/{}",
                        b.general,
                        c.action_dice
                            + if b.noncombat {
                                t.rules.noncombat_dice
                            } else {
                                0
                            }
                    )];
                    for (pool, left) in c
                        .limited
                        .iter()
                        .zip(&b.limited)
                        .chain(c.specialized.iter().zip(&b.specialized))
                    {
                        status.push(format!("{} {left}/{}", pool.name, pool.count));
                    }
                    if b.noncombat {
                        status.push("noncombat".into());
                    }
                    TrackerRow {
                        name: c.name.clone(),
                        acting: false,
                        status,
                    }
                })
                .collect(),
            TableState::StepDice(t) => t
                .characters
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let mut status = vec![
                        format!("grit {}", t.grit[i]),
                        if t.acted[i] {
                            "acted".into()
                        } else {
                            "ready".into()
                        },
                    ];
                    if !t.help[i].is_empty() {
                        let dice: Vec<String> = t.help[i].iter().map(ToString::to_string).collect();
                        status.push(format!("teamwork {}", dice.join(" ")));
                    }
                    TrackerRow {
                        name: c.name.clone(),
                        acting: i == t.active,
                        status,
                    }
                })
                .collect(),
            TableState::OpenD6(t) => {
                let now = t.acting_now();
                t.characters
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let mut status = vec![format!("shots {}", t.shots[i])];
                        status.push(if c.villain {
                            "villain".into()
                        } else {
                            "hero".into()
                        });
                        if !c.named {
                            status.push("unnamed group".into());
                        }
                        if t.focused[i] {
                            status.push("focused".into());
                        }
                        TrackerRow {
                            name: c.name.clone(),
                            acting: now.first() == Some(&i),
                            status,
                        }
                    })
                    .collect()
            }
            TableState::D20Check(t) => {
                let side = t.side_to_act();
                t.characters
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let mut status = vec![
                            format!("{:?}", c.side),
                            if t.acted[i] {
                                "acted".into()
                            } else {
                                "ready".into()
                            },
                        ];
                        for (name, die) in &t.resources[i] {
                            status.push(match die {
                                Some(d) => format!("{name} {d}"),
                                None => format!("{name} spent"),
                            });
                        }
                        TrackerRow {
                            name: c.name.clone(),
                            acting: side == Some(c.side) && !t.acted[i],
                            status,
                        }
                    })
                    .collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn scene(file: &str) -> Scene {
        Scene::load(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("scenes")
                .join(file),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    fn book() -> Rulebook {
        Rulebook::builtin().unwrap_or_else(|e| panic!("{e}"))
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
        assert_eq!(t.heading(), "Roll initiative");
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
        }
    }

    #[test]
    fn d20_and_action_dice_and_step_dice_headings() {
        let t = TableState::new(&scene("d20-check-crypt.ron"), &book(), 1);
        assert_eq!(t.heading(), "Roll initiative");
        assert!(t.tracker()[0].status.contains(&"torches d6".to_string()));
        let t = TableState::new(&scene("action-dice-knight-and-magician.ron"), &book(), 1);
        // Left: Aldric 4, Mirelle 3, Policeman 2, Mugger 1: fewest first.
        assert_eq!(
            t.heading(),
            "Round 1: declare in order Mugger, Policeman, Mirelle the Magician, Sir Aldric"
        );
        assert_eq!(
            t.tracker()[0].status,
            vec!["action dice 3/3".to_string(), "riding die 1/1".to_string()]
        );
        let t = TableState::new(&scene("step-dice-vault.ron"), &book(), 1);
        assert_eq!(t.tracker()[1].status[0], "grit 1");
    }
}
