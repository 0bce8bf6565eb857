//! `step-dice` at the table: the active character's action roll, teamwork (a quick roll that
//! may add a die to the helped character's next roll this round, and grit to the helper), and
//! the standard turn passing round the table.

use crate::rules::Refusal;
use crate::rules::bounds::Bounded;
use crate::rules::refusal::refuse;
use serde::{Deserialize, Serialize};

use super::{Position, Table};
use crate::rules::play::{MadeBy, Seat, TrackerRow, name_at, no_roll, seat_of, single};
use crate::rules::{ClassId, Die, Odds, Outcome, RollPlan, Step};

/// A `step-dice` move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum Move {
    /// The active character's action roll.
    Act {
        /// Who acts.
        actor: usize,
        /// The skill set (None: unskilled, a Novice d4 at Disadvantage).
        #[serde(default)]
        skill: Option<String>,
        /// The difficulty rating.
        difficulty: String,
        /// The position.
        #[serde(default)]
        position: Position,
        /// Boost dice the player invokes.
        #[serde(default)]
        boosts: Vec<Die>,
    },
    /// Teamwork: the helper sacrifices its action for a quick roll; success adds a die of the
    /// helper's skill size to the helped character's next roll this round.
    Help {
        /// Who helps.
        helper: usize,
        /// Whom.
        helped: usize,
        /// The helper's skill set (None: unskilled, a Novice d4 at Disadvantage).
        #[serde(default)]
        skill: Option<String>,
        /// A harder rating the director sets (None: Challenging).
        #[serde(default)]
        difficulty: Option<String>,
    },
    /// A Quick Action Roll the director calls for: one skill die against one difficulty die,
    /// no boosts or position, success or failure only. Anyone may be asked at any time; it
    /// does not use the round's action (teamwork, which does, is [`Move::Help`]).
    QuickRoll {
        /// Who rolls.
        actor: usize,
        /// The skill set (None: unskilled, a Novice d4 at Disadvantage).
        #[serde(default)]
        skill: Option<String>,
        /// The difficulty rating.
        difficulty: String,
    },
    /// An easy challenge, with no risk of failure: the director rules that it succeeds
    /// automatically. Nothing is thrown; the actor's action for the round is used.
    Easy {
        /// Who acts.
        actor: usize,
    },
    /// Ends the active character's turn.
    EndTurn,
}

impl Table {
    fn rules_action(&self, m: &Move) -> Result<Option<super::Action>, Refusal> {
        let names = self.names();
        match m {
            Move::Act {
                actor,
                skill,
                difficulty,
                position,
                boosts,
            } => {
                seat_of(&names, *actor)?;
                self.action(*actor, skill.as_deref(), difficulty, *position, boosts)
                    .map(Some)
            }
            Move::Help {
                helper,
                helped,
                skill,
                difficulty,
            } => {
                seat_of(&names, *helper)?;
                seat_of(&names, *helped)?;
                let die = difficulty
                    .as_deref()
                    .map(|d| self.rules.difficulty(d))
                    .transpose()?;
                self.teamwork_roll(*helper, skill.as_deref(), die).map(Some)
            }
            Move::QuickRoll {
                actor,
                skill,
                difficulty,
            } => {
                seat_of(&names, *actor)?;
                self.quick_roll(*actor, skill.as_deref(), difficulty)
                    .map(Some)
            }
            Move::Easy { actor, .. } => seat_of(&names, *actor).map(|_| None),
            Move::EndTurn => Ok(None),
        }
    }
}

impl Seat for Table {
    type Move = Move;

    fn names(&self) -> Vec<&str> {
        self.characters.iter().map(|c| c.name.as_str()).collect()
    }

    fn round(&self) -> u32 {
        self.round
    }

    fn heading(&self) -> String {
        format!(
            "Round {}: {}'s turn",
            self.round, self.characters[self.active].name
        )
    }

    fn tracker(&self) -> Vec<TrackerRow> {
        self.characters
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let mut status = vec![
                    format!("grit {}", self.grit[i]),
                    if self.acted[i] { "acted" } else { "ready" }.into(),
                ];
                if !self.help[i].is_empty() {
                    let dice: Vec<String> = self.help[i].iter().map(ToString::to_string).collect();
                    status.push(format!("teamwork {} (this round)", dice.join(" ")));
                }
                TrackerRow {
                    name: c.name.clone(),
                    acting: i == self.active,
                    status,
                }
            })
            .collect()
    }

    fn actor(&self, m: &Move) -> Option<usize> {
        match m {
            Move::Act { actor, .. } => Some(*actor),
            Move::Help { helper, .. } => Some(*helper),
            Move::QuickRoll { actor, .. } | Move::Easy { actor, .. } => Some(*actor),
            Move::EndTurn => None,
        }
    }

    fn made_by(&self, m: &Move) -> MadeBy {
        match m {
            Move::Act { actor, .. } | Move::QuickRoll { actor, .. } => MadeBy::PlayerOf(*actor),
            Move::Help { helper, .. } => MadeBy::PlayerOf(*helper),
            // Whether a challenge is easy enough to need no roll is the game master's call.
            Move::Easy { .. } | Move::EndTurn => MadeBy::Gamemaster,
        }
    }

    fn numbers(&self, m: &Move) -> Vec<Bounded> {
        match m {
            Move::Act { boosts, .. } => vec![Bounded::count("boosts", boosts.len() as u64)],
            Move::Help { .. } | Move::QuickRoll { .. } | Move::Easy { .. } | Move::EndTurn => {
                Vec::new()
            }
        }
    }

    fn allowed(&self, m: &Move) -> Result<(), Refusal> {
        let action = self.rules_action(m)?;
        match m {
            Move::Act { actor, .. } | Move::Easy { actor, .. } => self.check(*actor)?,
            Move::Help { helper, helped, .. } => {
                let names = self.names();
                if helper == helped {
                    return Err(refuse!(Target, "a character cannot help itself"));
                }
                if *helped != self.active {
                    return Err(refuse!(
                        Target,
                        "teamwork helps the character whose turn it is ({})",
                        name_at(&names, self.active)
                    ));
                }
                if self.acted[*helped] {
                    return Err(refuse!(
                        NotTheirTurn,
                        "{} has already rolled this round",
                        name_at(&names, *helped)
                    ));
                }
            }
            Move::QuickRoll { .. } | Move::EndTurn => {}
        }
        match action {
            Some(a) => a.check(&self.rules),
            None => Ok(()),
        }
    }

    fn plan(&self, m: &Move) -> Result<RollPlan, Refusal> {
        match self.rules_action(m)? {
            Some(a) => a.plan(&self.rules),
            None => Ok(RollPlan::new("no roll")),
        }
    }

    fn odds(&self, m: &Move) -> Result<Option<Odds>, Refusal> {
        self.rules_action(m)?
            .map(|a| a.odds(&self.rules))
            .transpose()
    }

    fn resolve(&self, m: &Move, throws: &[Vec<u32>]) -> Result<Step, Refusal> {
        match (self.rules_action(m)?, throws) {
            (None, _) if matches!(m, Move::Easy { .. }) => Ok(Step::Done(Outcome {
                total: 0,
                success: Some(true),
                class: "automatic success".into(),
                class_id: ClassId::new("automatic_success"),
                lines: vec![
                    "an easy challenge, with no risk of failure: it succeeds without a roll".into(),
                ],
                tags: vec![],
                facts: Vec::new(),
            })),
            (None, _) => Ok(no_roll("turn_ended", "turn ended", "the turn ends".into())),
            (Some(a), _) => a.resolve(&self.rules, single(throws)?),
        }
    }

    fn apply_move(
        &mut self,
        m: &Move,
        _: &[Vec<u32>],
        outcome: &Outcome,
    ) -> Result<Vec<String>, Refusal> {
        let names: Vec<String> = self.names().into_iter().map(String::from).collect();
        let action = self.rules_action(m)?;
        Ok(match (m, action) {
            (Move::Act { actor, .. }, Some(_)) => {
                let used = self.help[*actor].len();
                self.apply(*actor);
                let mut said = vec![format!("{} has used this round's action", names[*actor])];
                if used > 0 {
                    said.push(format!(
                        "{used} teamwork {} used",
                        if used == 1 { "die" } else { "dice" }
                    ));
                }
                said
            }
            (Move::Help { helper, helped, .. }, Some(roll)) => {
                let success = outcome.success == Some(true);
                self.apply_teamwork(*helper, *helped, &roll, success);
                vec![if success {
                    format!(
                        "{} adds a {} to {}'s ability pool this round and earns grit ({} now)",
                        names[*helper],
                        roll.ability
                            .first()
                            .map(ToString::to_string)
                            .unwrap_or_default(),
                        names[*helped],
                        self.grit[*helper]
                    )
                } else {
                    format!(
                        "{}'s help came to nothing (its action is spent)",
                        names[*helper]
                    )
                }]
            }
            (Move::Easy { actor, .. }, None) => {
                self.apply(*actor);
                vec![format!(
                    "{} succeeds automatically and has used this round's action",
                    names[*actor]
                )]
            }
            (Move::QuickRoll { actor, .. }, Some(_)) => vec![format!(
                "{}'s quick action roll: {} (the round's action is not used)",
                names[*actor],
                if outcome.success == Some(true) {
                    "success"
                } else {
                    "failure"
                }
            )],
            _ => {
                self.end_turn();
                vec![format!(
                    "round {}: {}'s turn",
                    self.round, self.characters[self.active].name
                )]
            }
        })
    }

    fn end_turn_move(&self) -> Option<Move> {
        Some(Move::EndTurn)
    }

    fn describe(&self, m: &Move) -> String {
        let names = self.names();
        let who = |i: usize| name_at(&names, i);
        match m {
            Move::Act {
                actor,
                skill,
                difficulty,
                position,
                boosts,
            } => format!(
                "{}: {} vs {difficulty} ({position:?}){}",
                who(*actor),
                skill.as_deref().unwrap_or("unskilled"),
                if boosts.is_empty() {
                    String::new()
                } else {
                    let b: Vec<String> = boosts.iter().map(ToString::to_string).collect();
                    format!(" with boosts {}", b.join(" "))
                }
            ),
            Move::Help {
                helper,
                helped,
                skill,
                difficulty,
            } => format!(
                "{} helps {} with {}{}",
                who(*helper),
                who(*helped),
                skill.as_deref().unwrap_or("no skill (unskilled)"),
                difficulty
                    .as_ref()
                    .map(|d| format!(" ({d})"))
                    .unwrap_or_default()
            ),
            Move::QuickRoll {
                actor,
                skill,
                difficulty,
            } => format!(
                "{}: quick action roll, {} vs {difficulty}",
                who(*actor),
                skill.as_deref().unwrap_or("unskilled")
            ),
            Move::Easy { actor } => format!("{}: an easy action", who(*actor)),
            Move::EndTurn => format!("{} ends the turn", who(self.active)),
        }
    }

    fn charted_value(&self, m: &Move, outcome: &Outcome) -> Option<i64> {
        matches!(
            m,
            Move::Act { .. } | Move::Help { .. } | Move::QuickRoll { .. }
        )
        .then_some(outcome.total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RulesError;
    use crate::rules::play::Move as AnyMove;
    use crate::rules::testing::{end_turn, play, table};
    use crate::rules::{Refusal, RefusalKind};

    fn help(difficulty: Option<&str>) -> AnyMove {
        AnyMove::StepDice(Move::Help {
            helper: 1,
            helped: 0,
            skill: Some("Locks".into()),
            difficulty: difficulty.map(String::from),
        })
    }

    #[test]
    fn a_quick_action_roll_is_a_move_of_its_own_and_difficulties_are_the_ratings() {
        let mut t = table("step-dice-vault.ron");
        let quick = |actor: usize, skill: &str, difficulty: &str| {
            AnyMove::StepDice(Move::QuickRoll {
                actor,
                skill: Some(skill.into()),
                difficulty: difficulty.into(),
            })
        };
        // Cass (not the active character) is asked: Talk d12 against Hard (d8), 5 − 6 = −1.
        let q = quick(2, "Talk", "Hard");
        assert_eq!(t.plan(&q).map(|p| p.dice.len()), Ok(2));
        let (o, said) = play(&mut t, &q, &[&[5, 6]]);
        assert_eq!(
            (o.total, o.success, o.class.as_str()),
            (-1, Some(false), "failure")
        );
        assert_eq!(
            said,
            vec!["Cass's quick action roll: failure (the round's action is not used)"]
        );
        // Her action is still hers, and a tie succeeds: 4 − 4.
        let (o, _) = play(&mut t, &quick(2, "Lore", "d8"), &[&[4, 4]]);
        assert_eq!((o.total, o.success), (0, Some(true)));
        assert_eq!(t.tracker()[2].status[1], "ready");
        // No difficulty below Challenging (d4), and no die no rating uses.
        for (difficulty, why) in [
            ("d2", "a d2 is no difficulty"),
            ("d20", "a d20 is no difficulty"),
        ] {
            let err = t
                .allowed(&quick(2, "Lore", difficulty))
                .expect_err(difficulty);
            assert_eq!(
                err,
                RulesError::Refused(Refusal::new(
                    RefusalKind::Unknown,
                    format!(
                        "{why}: the ratings are Challenging (d4), Very Challenging (d6), Hard \
                         (d8), Very Hard (d10), Extremely Hard (d12)"
                    )
                ))
            );
        }
        assert_eq!(
            t.allowed(&quick(2, "Brawl", "Hard")),
            Err(RulesError::Refused(Refusal::new(
                RefusalKind::Unknown,
                "Cass has no skill set 'Brawl' (a quick action roll compares raw ability: use \
                 one of Talk, Lore)"
            )))
        );
    }

    /// "If the challenge is easy, with no risk of failure, the action should succeed
    /// automatically": no roll, the action used.
    #[test]
    fn an_easy_challenge_succeeds_without_a_roll() {
        let mut t = table("step-dice-vault.ron");
        let easy = AnyMove::StepDice(Move::Easy { actor: 0 });
        assert_eq!(t.plan(&easy).map(|p| p.dice.len()), Ok(0));
        assert!(matches!(t.odds(&easy), Ok(None)));
        let (o, said) = play(&mut t, &easy, &[]);
        assert_eq!(
            (o.success, o.class.as_str()),
            (Some(true), "automatic success")
        );
        assert_eq!(
            said,
            vec!["Ana succeeds automatically and has used this round's action"]
        );
        assert_eq!(t.tracker()[0].status[1], "acted");
        assert_eq!(
            t.allowed(&easy),
            Err(RulesError::Refused(Refusal::new(
                RefusalKind::NotTheirTurn,
                "Ana has used this round's action"
            )))
        );
        assert_eq!(
            t.allowed(&AnyMove::StepDice(Move::Easy { actor: 1 })),
            Err(RulesError::Refused(Refusal::new(
                RefusalKind::NotTheirTurn,
                "it is Ana's turn"
            )))
        );
    }

    /// Unskilled rolls are a Novice d4 "always made with a disadvantage", quick ones and
    /// teamwork too (no boosts or positioning, but the unskilled rule stays).
    #[test]
    fn unskilled_quick_rolls_and_unskilled_teamwork_throw_a_d4_at_disadvantage() {
        let mut t = table("step-dice-vault.ron");
        let quick = AnyMove::StepDice(Move::QuickRoll {
            actor: 2,
            skill: None,
            difficulty: "Challenging".into(),
        });
        let plan = t.plan(&quick).expect("plan");
        assert_eq!(
            plan.dice
                .iter()
                .map(|d| (d.sides, d.label.as_str()))
                .collect::<Vec<_>>(),
            vec![(4, "ability d4"), (4, "difficulty d4"), (4, "position d4")]
        );
        // d4 − the higher of two d4 ≥ 0: Σ P(max ≤ a) = (1 + 4 + 9 + 16)/64 = 30/64.
        let odds = t.odds(&quick).expect("odds").expect("some");
        assert_eq!(odds.p_success.map(|p| p.exact()), Some("15/32".into()));
        assert_eq!(
            t.describe(&quick),
            "Cass: quick action roll, unskilled vs Challenging"
        );
        let (o, _) = play(&mut t, &quick, &[&[3, 1, 4]]);
        assert_eq!((o.total, o.success), (-1, Some(false)));
        // Cass helps Ana unskilled: the same roll; success adds a d4 and earns grit.
        let help = AnyMove::StepDice(Move::Help {
            helper: 2,
            helped: 0,
            skill: None,
            difficulty: None,
        });
        assert_eq!(
            t.describe(&help),
            "Cass helps Ana with no skill (unskilled)"
        );
        let (o, said) = play(&mut t, &help, &[&[4, 2, 3]]);
        assert_eq!((o.total, o.success), (1, Some(true)));
        assert_eq!(
            said,
            vec!["Cass adds a d4 to Ana's ability pool this round and earns grit (1 now)"]
        );
        assert_eq!(t.tracker()[0].status[2], "teamwork d4 (this round)");
    }

    fn pick(position: Position) -> AnyMove {
        AnyMove::StepDice(Move::Act {
            actor: 0,
            skill: Some("Locks".into()),
            difficulty: "Hard".into(),
            position,
            boosts: vec![],
        })
    }

    #[test]
    fn teamwork_then_the_action_roll() {
        let mut t = table("step-dice-vault.ron");
        // Bo helps Ana: a quick Locks d6 against Challenging d4.
        let (o, said) = play(&mut t, &help(None), &[&[5, 2]]);
        assert_eq!(o.success, Some(true));
        assert_eq!(
            said,
            vec!["Bo adds a d6 to Ana's ability pool this round and earns grit (2 now)"]
        );
        // Ana's action roll: Locks d10 + the teamwork d6 against Hard d8 at Advantage.
        let plan = t.plan(&pick(Position::Advantage)).expect("plan");
        let labels: Vec<&str> = plan.dice.iter().map(|d| d.label.as_str()).collect();
        assert_eq!(
            labels,
            vec![
                "ability d10",
                "extra ability d6",
                "difficulty d8",
                "position d8"
            ]
        );
        // Highest ability 7, lowest difficulty 3 (advantage): result 4, effect 5.
        let (o, _) = play(&mut t, &pick(Position::Advantage), &[&[7, 2, 3, 8]]);
        assert_eq!((o.total, o.success), (4, Some(true)));
        assert_eq!(t.tracker()[0].status, vec!["grit 0", "acted"]);
        // Bo helped, so Bo's own turn has no action left.
        end_turn(&mut t).expect("turn");
        let bo = AnyMove::StepDice(Move::Act {
            actor: 1,
            skill: Some("Brawl".into()),
            difficulty: "Hard".into(),
            position: Position::Neutral,
            boosts: vec![],
        });
        let err = t.allowed(&bo).expect_err("Bo helped");
        assert_eq!(
            err,
            RulesError::Refused(Refusal::new(
                RefusalKind::NotTheirTurn,
                "Bo has used this round's action"
            ))
        );
        end_turn(&mut t).expect("turn");
        end_turn(&mut t).expect("turn");
        assert_eq!(t.heading(), "Round 2: Ana's turn");
        assert_eq!(t.tracker()[1].status, vec!["grit 2", "ready"]);
    }

    /// Point 14: teamwork dice last for the helped character's next roll this round only, and
    /// the director may make the help harder than Challenging.
    #[test]
    fn teamwork_dice_are_lost_at_the_end_of_the_round_and_help_can_be_harder() {
        let mut t = table("step-dice-vault.ron");
        // Very Hard help: Bo's Locks d6 against a d10.
        let hard = help(Some("Very Hard"));
        let plan = t.plan(&hard).expect("plan");
        assert_eq!(
            plan.dice.iter().map(|d| d.sides).collect::<Vec<_>>(),
            vec![6, 10]
        );
        let odds = t.odds(&hard).expect("odds").expect("some");
        // d6 − d10 ≥ 0: (1+2+3+4+5+6)/60 = 21/60 = 7/20.
        assert_eq!(odds.p_success.map(|p| p.exact()), Some("7/20".into()));
        assert_eq!(t.describe(&hard), "Bo helps Ana with Locks (Very Hard)");
        let (o, _) = play(&mut t, &hard, &[&[6, 3]]);
        assert_eq!(o.success, Some(true));
        assert_eq!(t.tracker()[0].status[2], "teamwork d6 (this round)");
        // Ana does not roll; the round ends and the teamwork die is gone.
        for _ in 0..3 {
            end_turn(&mut t).expect("turn");
        }
        assert_eq!(t.heading(), "Round 2: Ana's turn");
        assert_eq!(t.tracker()[0].status, vec!["grit 0", "ready"]);
        assert_eq!(
            t.plan(&pick(Position::Neutral)).map(|p| p.dice.len()),
            Ok(2)
        );
        // Help easier than Challenging is not a thing: it stays a d4.
        let err = t
            .allowed(&help(Some("Trivial")))
            .expect_err("no such rating");
        assert_eq!(
            err,
            RulesError::Refused(Refusal::new(
                RefusalKind::Unknown,
                "unknown difficulty 'Trivial': use one of Challenging (d4), Very Challenging (d6), Hard (d8), Very Hard (d10), Extremely Hard (d12)"
            ))
        );
    }
}
