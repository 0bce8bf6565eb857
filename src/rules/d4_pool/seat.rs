//! `d4-pool` at the table: Aspect rolls on one's own turn, responses on another's (the kinds the
//! costs table marks `off_turn`), rolls the GM calls for, and ending the turn.

use crate::rules::Refusal;
use crate::rules::bounds::Bounded;
use crate::rules::refusal::refuse;
use serde::{Deserialize, Serialize};

use super::{Action, Effect, Imposed, Table, Target};
use crate::rules::play::{MadeBy, Seat, TrackerRow, name_at, no_roll, seat_of, single};
use crate::rules::{Odds, Outcome, RollPlan, Step};

/// The costs table's kind of a Team Action.
pub(super) const TEAM_ACTION: &str = "team action";

/// Where a roll's total goes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Aim {
    /// Just the total.
    #[default]
    None,
    /// Against a DC.
    Dc(i64),
    /// An attack on a character: damage = total − its Evasion.
    Attack(usize),
}

/// A `d4-pool` move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum Move {
    /// An Aspect roll of a kind from the costs table: on the actor's turn, or on another's when
    /// the kind is a valid response there.
    Act {
        /// Who acts.
        actor: usize,
        /// The Aspect.
        aspect: String,
        /// A weapon, whose dice join the pool.
        #[serde(default)]
        weapon: Option<String>,
        /// The action's kind, a key of the costs table ("attack", "reaction"...).
        kind: String,
        /// DC, an attack, or nothing.
        #[serde(default)]
        target: Aim,
        /// Sources of Advantage.
        #[serde(default)]
        advantages: Vec<String>,
        /// Sources of Disadvantage.
        #[serde(default)]
        disadvantages: Vec<String>,
    },
    /// A roll the GM calls for: at least 1d4, allowed whatever the load; it uses and raises the
    /// load only when the rules say GM rolls use it.
    GmCall {
        /// Who rolls.
        actor: usize,
        /// The Aspect.
        aspect: String,
        /// DC or nothing.
        #[serde(default)]
        target: Aim,
        /// Sources of Advantage.
        #[serde(default)]
        advantages: Vec<String>,
        /// Sources of Disadvantage.
        #[serde(default)]
        disadvantages: Vec<String>,
        /// Whether this roll uses (and raises) the Action Load: the GM decides each time;
        /// none follows the rules' `gm_rolls_use_load`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        uses_load: Option<bool>,
    },
    /// A Team Action: an Aspect acts (Aspect − Load > 0, the team action's cost added) to put
    /// Disadvantage (or Advantage) on another creature's next action this round. Nothing is
    /// thrown; the roll it acts on counts it as a source of its own.
    TeamAction {
        /// Who acts.
        actor: usize,
        /// The Aspect it acts with.
        aspect: String,
        /// Whose next roll it acts on.
        on: usize,
        /// Disadvantage (the text's example) or Advantage.
        #[serde(default)]
        effect: Effect,
    },
    /// Ends the active creature's turn (at any time, even with actions left).
    EndTurn,
}

impl Table {
    /// The rules action a roll makes at the table as it is.
    fn rules_action(&self, m: &Move) -> Result<Option<(usize, String, Action)>, Refusal> {
        let names = self.names();
        let (actor, aspect, weapon, kind, target, adv, dis, gm) = match m {
            Move::EndTurn => return Ok(None),
            Move::TeamAction {
                actor,
                aspect,
                on,
                effect,
            } => return self.team_action(*actor, aspect, *on, *effect).map(Some),
            Move::Act {
                actor,
                aspect,
                weapon,
                kind,
                target,
                advantages,
                disadvantages,
            } => (
                *actor,
                aspect,
                weapon.as_deref(),
                kind.clone(),
                target,
                advantages,
                disadvantages,
                false,
            ),
            Move::GmCall {
                actor,
                aspect,
                target,
                advantages,
                disadvantages,
                ..
            } => (
                *actor,
                aspect,
                None,
                "GM-called roll".to_string(),
                target,
                advantages,
                disadvantages,
                true,
            ),
        };
        seat_of(&names, actor)?;
        let mut a = self.action(actor, aspect, weapon)?;
        if !gm && kind == TEAM_ACTION && self.rules.generation >= crate::record::LINKED_TEAM_ACTIONS
        {
            return Err(refuse!(
                Choice,
                "a Team Action is a move of its own (Team action): it throws nothing and puts \
                 its Disadvantage, or Advantage, on the next roll of the creature it acts on"
            ));
        }
        if !gm && !self.rules.costs.contains_key(&kind) {
            let kinds: Vec<&str> = self.rules.costs.keys().map(String::as_str).collect();
            return Err(refuse!(
                Choice,
                "'{kind}' is not a kind of action; the costs table has {}",
                kinds.join(", ")
            ));
        }
        a.gm_call = gm;
        if let Move::GmCall { uses_load, .. } = m {
            a.gm_uses_load = *uses_load;
        }
        a.cost = if gm { 0 } else { self.rules.cost_of(&kind) };
        if gm && a.uses_load(&self.rules) {
            a.cost = 1;
        }
        a.advantages = adv.clone();
        a.disadvantages = dis.clone();
        if !gm {
            self.add_imposed(actor, &mut a);
        }
        a.target = match target {
            Aim::None => Target::None,
            Aim::Dc(dc) => Target::Dc(*dc),
            Aim::Attack(i)
                if *i == actor && self.rules.generation >= crate::record::CLOSE_READING =>
            {
                return Err(refuse!(
                    Target,
                    "an attack is aimed at another character: {} cannot attack themself",
                    self.characters[actor].name
                ));
            }
            Aim::Attack(i) => Target::Evasion(
                self.characters
                    .get(*i)
                    .ok_or_else(|| refuse!(Unknown, "the target is not at the table"))?
                    .evasion,
            ),
        };
        Ok(Some((actor, kind, a)))
    }
}

impl Table {
    /// A Team Action's Aspect, checked as any action of its kind (on another's turn too when the
    /// costs table marks it `off_turn`), aimed at another creature not already under it.
    fn team_action(
        &self,
        actor: usize,
        aspect: &str,
        on: usize,
        effect: Effect,
    ) -> Result<(usize, String, Action), Refusal> {
        let names = self.names();
        seat_of(&names, actor)?;
        seat_of(&names, on)?;
        let kind = TEAM_ACTION.to_string();
        if !self.rules.costs.contains_key(&kind) {
            return Err(refuse!(
                Choice,
                "this table's costs table has no team action"
            ));
        }
        if on == actor {
            return Err(refuse!(
                Target,
                "a Team Action acts on another creature's roll: {} cannot aim it at themself",
                names[actor]
            ));
        }
        if self.imposed.iter().any(|i| i.by == actor && i.on == on) {
            return Err(refuse!(
                Already,
                "{}'s team action already waits on {}'s next roll (the same source counts once)",
                names[actor],
                names[on]
            ));
        }
        // "Multiple effects from the same ability, feature, or condition do not stack": a
        // second ally's Team Action of the same effect on the same roll adds nothing (the
        // "Watch My Back" example: two allies give +1d4 once). Earlier tables keyed the
        // source by ally.
        if self.rules.generation >= crate::record::ONE_SOURCE_TEAM_ACTIONS
            && let Some(first) = self
                .imposed
                .iter()
                .find(|i| i.on == on && i.effect == effect)
        {
            return Err(refuse!(
                Already,
                "{}'s team action already gives {}'s next roll {}: Team Actions are one feature, \
                 and the same feature does not stack",
                names[first.by],
                names[on],
                effect.word()
            ));
        }
        let mut a = self.action(actor, aspect, None)?;
        a.cost = self.rules.cost_of(&kind);
        Ok((actor, kind, a))
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
            .map(|(i, c)| TrackerRow {
                name: c.name.clone(),
                acting: i == self.active,
                status: [
                    format!("Action Load {}", self.loads[i]),
                    format!("Evasion {}", c.evasion),
                ]
                .into_iter()
                .chain(self.imposed.iter().filter(|m| m.on == i).map(|m| {
                    format!(
                        "next roll: {} ({})",
                        m.effect.word(),
                        self.team_source(m.by)
                    )
                }))
                .collect(),
            })
            .collect()
    }

    fn actor(&self, m: &Move) -> Option<usize> {
        match m {
            Move::Act { actor, .. }
            | Move::GmCall { actor, .. }
            | Move::TeamAction { actor, .. } => Some(*actor),
            Move::EndTurn => None,
        }
    }

    fn made_by(&self, m: &Move) -> MadeBy {
        match m {
            Move::Act { actor, .. } | Move::TeamAction { actor, .. } => MadeBy::PlayerOf(*actor),
            // The game master calls for a roll, and passes the turn.
            Move::GmCall { .. } | Move::EndTurn => MadeBy::Gamemaster,
        }
    }

    fn numbers(&self, m: &Move) -> Vec<Bounded> {
        match m {
            Move::Act {
                target,
                advantages,
                disadvantages,
                ..
            }
            | Move::GmCall {
                target,
                advantages,
                disadvantages,
                ..
            } => {
                let mut numbers = vec![
                    Bounded::count("advantages", advantages.len() as u64),
                    Bounded::count("disadvantages", disadvantages.len() as u64),
                ];
                if let Aim::Dc(dc) = target {
                    numbers.push(Bounded::number("DC", *dc));
                }
                numbers
            }
            Move::TeamAction { .. } | Move::EndTurn => Vec::new(),
        }
    }

    fn allowed(&self, m: &Move) -> Result<(), Refusal> {
        match self.rules_action(m)? {
            None => Ok(()),
            Some((actor, kind, a)) => self.check(actor, &a, &kind),
        }
    }

    fn plan(&self, m: &Move) -> Result<RollPlan, Refusal> {
        Ok(match self.rules_action(m)? {
            Some((_, _, a)) if !matches!(m, Move::TeamAction { .. }) => a.plan(&self.rules),
            _ => RollPlan::new("no roll"),
        })
    }

    fn odds(&self, m: &Move) -> Result<Option<Odds>, Refusal> {
        if matches!(m, Move::TeamAction { .. }) {
            self.rules_action(m)?;
            return Ok(None);
        }
        Ok(self.rules_action(m)?.map(|(_, _, a)| a.odds(&self.rules)))
    }

    fn resolve(&self, m: &Move, throws: &[Vec<u32>]) -> Result<Step, Refusal> {
        match self.rules_action(m)? {
            None => Ok(no_roll("turn_ended", "turn ended", "the turn ends".into())),
            Some(_) if matches!(m, Move::TeamAction { .. }) => {
                Ok(no_roll("team_action", "team action", self.describe(m)))
            }
            Some((_, _, a)) => a.resolve(&self.rules, single(throws)?),
        }
    }

    fn apply_move(
        &mut self,
        m: &Move,
        _: &[Vec<u32>],
        _: &Outcome,
    ) -> Result<Vec<String>, Refusal> {
        let Some((actor, kind, a)) = self.rules_action(m)? else {
            self.end_turn();
            return Ok(vec![format!(
                "round {}: {}'s turn, Action Load {}",
                self.round, self.characters[self.active].name, self.loads[self.active]
            )]);
        };
        let before = self.loads[actor];
        self.apply(actor, &a);
        let name = self.characters[actor].name.clone();
        let mut said = vec![if before == self.loads[actor] {
            format!("{name}'s Action Load stays {before} ({kind}: the GM's roll ignores it)")
        } else {
            format!(
                "{name}'s Action Load {before} -> {} ({kind}, cost {})",
                self.loads[actor], a.cost
            )
        }];
        match m {
            Move::TeamAction { on, effect, .. } => {
                self.imposed.push(Imposed {
                    by: actor,
                    on: *on,
                    effect: *effect,
                });
                said.push(format!(
                    "{}'s next roll this round has {} ({})",
                    self.characters[*on].name,
                    effect.word(),
                    self.team_source(actor)
                ));
            }
            Move::Act { .. } => {
                let used: Vec<String> = self
                    .imposed
                    .iter()
                    .filter(|i| i.on == actor)
                    .map(|i| format!("{} ({})", self.team_source(i.by), i.effect.word()))
                    .collect();
                if !used.is_empty() {
                    self.imposed.retain(|i| i.on != actor);
                    said.push(format!("{name}'s roll counted {}", used.join(", ")));
                }
            }
            _ => {}
        }
        Ok(said)
    }

    fn end_turn_move(&self) -> Option<Move> {
        Some(Move::EndTurn)
    }

    fn describe(&self, m: &Move) -> String {
        let names = self.names();
        let who = |i: usize| name_at(&names, i);
        let aim = |target: &Aim| match target {
            Aim::None => String::new(),
            Aim::Dc(dc) => format!(" vs DC {dc}"),
            Aim::Attack(i) => format!(" at {}", who(*i)),
        };
        match m {
            Move::Act {
                actor,
                aspect,
                weapon,
                kind,
                target,
                ..
            } => format!(
                "{}: {kind}, {aspect}{}{}",
                who(*actor),
                weapon
                    .as_ref()
                    .map(|w| format!(" with {w}"))
                    .unwrap_or_default(),
                aim(target)
            ),
            Move::GmCall {
                actor,
                aspect,
                target,
                ..
            } => format!(
                "{}: the GM calls for a {aspect} roll{}",
                who(*actor),
                aim(target)
            ),
            Move::TeamAction {
                actor,
                aspect,
                on,
                effect,
            } => format!(
                "{}: team action ({aspect}), {} on {}'s next roll",
                who(*actor),
                effect.word(),
                who(*on)
            ),
            Move::EndTurn => format!("{} ends the turn", who(self.active)),
        }
    }

    fn charted_value(&self, m: &Move, outcome: &Outcome) -> Option<i64> {
        matches!(m, Move::Act { .. } | Move::GmCall { .. }).then_some(outcome.total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RulesError;
    use crate::rules::play::Move as AnyMove;
    use crate::rules::table::TableState;
    use crate::rules::testing::{end_turn, play, table};
    use crate::rules::{Refusal, RefusalKind};

    fn act(actor: usize, aspect: &str, kind: &str, target: Aim) -> AnyMove {
        AnyMove::D4Pool(Move::Act {
            actor,
            aspect: aspect.into(),
            weapon: None,
            kind: kind.into(),
            target,
            advantages: vec![],
            disadvantages: vec![],
        })
    }

    #[test]
    fn a_pool_past_the_tray_is_refused_before_anything_is_thrown() {
        let mut t = table("d4-pool-goblin-ambush.ron");
        if let TableState::D4Pool(d4) = &mut t {
            d4.characters[0].aspects.insert("Finesse".into(), 100);
        }
        let mut big = act(0, "Finesse", "aspect check", Aim::Dc(10));
        assert_eq!(t.plan(&big).map(|p| p.dice.len()), Ok(100));
        if let AnyMove::D4Pool(Move::Act { advantages, .. }) = &mut big {
            advantages.push("high ground".into());
        }
        let err = t.plan(&big).expect_err("101 dice");
        assert_eq!(err, RulesError::TooManyDice { dice: 101 });
        assert_eq!(err.code(), crate::errors::ErrorCode::TooManyDice);
        assert_eq!(
            err.to_string(),
            "the move throws 101 dice at once (a d100 is two, a d9, d11, d13, d15, d17, d18 or d21 to d30 two); a throw holds at most 100"
        );
        assert_eq!(t.odds(&big).err(), Some(err));
    }

    #[test]
    fn a_negative_aspect_only_answers_the_gm() {
        // The Goblin's Sorcery is −1: the scene seats it, it never acts on its own, and a roll
        // the GM calls for with it throws 1d4.
        let mut t = table("d4-pool-goblin-ambush.ron");
        assert_eq!(
            t.allowed(&act(3, "Sorcery", "reaction", Aim::None)),
            Err(RulesError::Refused(Refusal::new(
                RefusalKind::Unable,
                "Aspect -1: a negative Aspect never acts on its own; only a roll the GM calls \
                 for uses it (at least 1d4)"
            )))
        );
        let call = AnyMove::D4Pool(Move::GmCall {
            actor: 3,
            aspect: "Sorcery".into(),
            target: Aim::Dc(3),
            advantages: vec![],
            disadvantages: vec![],
            uses_load: None,
        });
        assert_eq!(t.plan(&call).map(|p| p.dice.len()), Ok(1));
        let (o, _) = play(&mut t, &call, &[&[2]]);
        assert_eq!((o.total, o.success), (2, Some(false)));
    }

    fn loads(t: &TableState) -> Vec<i32> {
        match t {
            TableState::D4Pool(d4) => d4.loads.clone(),
            _ => panic!("not a d4-pool table"),
        }
    }

    #[test]
    fn vex_stabs_the_goblin_and_loads_rise() {
        let mut t = table("d4-pool-goblin-ambush.ron");
        // Vex's turn: load reset to −1 (Action Point Bonus 1). Finesse 6 with the dagger at
        // the goblin (Evasion 11): 6d4 + d4.
        let stab = t.default_move();
        assert_eq!(
            t.describe(&stab),
            "Vex the Rogue: attack, Finesse with dagger at Goblin"
        );
        assert_eq!(t.plan(&stab).map(|p| p.dice.len()), Ok(7));
        let (o, said) = play(&mut t, &stab, &[&[4, 4, 4, 1, 1, 1, 3]]);
        assert_eq!((o.total, o.class.as_str()), (18, "hit"));
        assert!(o.tags.contains(&"damage 7".to_string()), "{o:?}");
        assert_eq!(
            said,
            vec!["Vex the Rogue's Action Load -1 -> 0 (attack, cost 1)"]
        );
        // Nobody attacks themselves (it was rolled and its load paid).
        assert_eq!(
            t.allowed(&act(0, "Finesse", "attack", Aim::Attack(0))),
            Err(RulesError::Refused(Refusal::new(
                RefusalKind::Target,
                "an attack is aimed at another character: Vex the Rogue cannot attack themself"
            )))
        );
        // Pim may not take an Aspect check on Vex's turn.
        let mut pim = act(1, "Finesse", "aspect check", Aim::Dc(12));
        let err = t.allowed(&pim).expect_err("not Pim's turn");
        assert_eq!(
            err,
            RulesError::Refused(Refusal::new(
                RefusalKind::NotTheirTurn,
                "it is Vex the Rogue's turn: Pim can only respond (assist, counter, reaction, team action), not take an aspect check"
            ))
        );
        // As a reaction it may: Finesse 4 + 2 advantages − 1 disadvantage = 5d4 (the trap).
        if let AnyMove::D4Pool(Move::Act {
            kind,
            advantages,
            disadvantages,
            ..
        }) = &mut pim
        {
            *kind = "reaction".into();
            *advantages = vec!["torch".into(), "advice".into(), "Torch ".into()];
            *disadvantages = vec!["dark".into()];
        }
        assert_eq!(t.plan(&pim).map(|p| p.dice.len()), Ok(5), "a source once");
        let (o, _) = play(&mut t, &pim, &[&[1, 2, 3, 4, 1]]);
        assert_eq!((o.total, o.success), (11, Some(false)));
        end_turn(&mut t).expect("d4-pool turns end");
        assert_eq!(loads(&t)[1], 0, "Pim's own turn resets its load to −0");
        for _ in 0..3 {
            end_turn(&mut t).expect("turn");
        }
        assert_eq!(t.heading(), "Round 2: Vex the Rogue's turn");
    }

    /// Point 7: any valid response may be taken on another's turn: the text's goblin attacks an
    /// ally and a character at load 1 uses a Team Action (cost 1) to impose Disadvantage.
    #[test]
    fn a_team_action_on_another_turn_raises_the_load() {
        let mut t = table("d4-pool-goblin-ambush.ron");
        for _ in 0..3 {
            end_turn(&mut t).expect("turn");
        }
        assert_eq!(t.heading(), "Round 1: Goblin's turn");
        // Bram has acted before (load 1).
        if let TableState::D4Pool(d4) = &mut t {
            d4.loads[2] = 1;
        }
        for kind in ["assist", "counter", "reaction"] {
            assert!(
                t.allowed(&act(2, "Presence", kind, Aim::None)).is_ok(),
                "{kind} is a valid response"
            );
        }
        assert!(
            t.allowed(&act(2, "Presence", "attack", Aim::Attack(3)))
                .is_err()
        );
        // A Team Action is its own move, linked to the roll it hinders (not an Aspect roll).
        assert_eq!(
            t.allowed(&act(2, "Presence", "team action", Aim::None)),
            Err(RulesError::Refused(Refusal::new(
                RefusalKind::Choice,
                "a Team Action is a move of its own (Team action): it throws nothing and puts \
                 its Disadvantage, or Advantage, on the next roll of the creature it acts on"
            )))
        );
        let (_, said) = play(
            &mut t,
            &AnyMove::D4Pool(Move::TeamAction {
                actor: 2,
                aspect: "Presence".into(),
                on: 3,
                effect: Effect::Disadvantage,
            }),
            &[],
        );
        assert_eq!(said[0], "Bram's Action Load 1 -> 2 (team action, cost 1)");
        // A table of the rules before rolled it, with nothing linked (its logs replay so).
        let mut before = t.clone().played_by(crate::record::CLOSE_READING);
        assert_eq!(
            before.allowed(&act(2, "Presence", "team action", Aim::None)),
            Ok(())
        );
        play(
            &mut before,
            &act(2, "Presence", "team action", Aim::None),
            &[&[2, 2]],
        );
        // Presence 4 at load 2 rolls 2d4 now: reacting leaves fewer dice for later.
        assert_eq!(
            t.plan(&act(2, "Presence", "reaction", Aim::None))
                .map(|p| p.dice.len()),
            Ok(2)
        );
    }

    /// Point 8: a roll the GM calls for is at least 1d4, allowed whatever the load, and (by
    /// default) neither shrinks with the load nor raises it.
    #[test]
    fn gm_called_rolls_ignore_the_load_by_default() {
        let mut t = table("d4-pool-goblin-ambush.ron");
        end_turn(&mut t).expect("turn"); // Pim's turn, load 0
        if let TableState::D4Pool(d4) = &mut t {
            d4.loads[1] = 5;
        }
        let might = act(1, "Might", "aspect check", Aim::None);
        assert!(t.allowed(&might).is_err(), "Might 2 at load 5 cannot act");
        let gm = AnyMove::D4Pool(Move::GmCall {
            actor: 1,
            aspect: "Might".into(),
            target: Aim::Dc(4),
            advantages: vec![],
            disadvantages: vec!["slippery".into(), "heavy".into(), "dark".into()],
            uses_load: None,
        });
        assert!(t.allowed(&gm).is_ok(), "the GM calls, whatever the load");
        // Might 2 − 3 disadvantages would be −1: at least 1d4.
        assert_eq!(t.plan(&gm).map(|p| p.dice.len()), Ok(1));
        let (o, said) = play(&mut t, &gm, &[&[4]]);
        assert_eq!((o.total, o.success), (4, Some(true)));
        assert_eq!(
            said,
            vec!["Pim's Action Load stays 5 (GM-called roll: the GM's roll ignores it)"]
        );
        // With the setting on, the load shrinks the pool and rises by one.
        if let TableState::D4Pool(d4) = &mut t {
            d4.rules.gm_rolls_use_load = true;
            d4.loads[1] = 1;
        }
        let wits = AnyMove::D4Pool(Move::GmCall {
            actor: 1,
            aspect: "Wits".into(),
            target: Aim::None,
            advantages: vec![],
            disadvantages: vec![],
            uses_load: None,
        });
        assert_eq!(t.plan(&wits).map(|p| p.dice.len()), Ok(4), "Wits 5 − 1");
        let (_, said) = play(&mut t, &wits, &[&[1, 1, 1, 1]]);
        assert_eq!(
            said,
            vec!["Pim's Action Load 1 -> 2 (GM-called roll, cost 1)"]
        );
    }

    /// "GM-initiated rolls may or may not consider Action Load — this is up to the GM": each
    /// call says so, whatever the table's setting.
    #[test]
    fn the_gm_decides_each_time_whether_a_called_roll_uses_the_load() {
        let mut t = table("d4-pool-goblin-ambush.ron");
        end_turn(&mut t).expect("turn"); // Pim's turn
        if let TableState::D4Pool(d4) = &mut t {
            d4.loads[1] = 2;
        }
        let call = |uses_load| {
            AnyMove::D4Pool(Move::GmCall {
                actor: 1,
                aspect: "Wits".into(),
                target: Aim::Dc(8),
                advantages: vec![],
                disadvantages: vec![],
                uses_load,
            })
        };
        // The table ignores the load; this call uses it: Wits 5 − 2 = 3d4, and the load rises.
        assert_eq!(t.plan(&call(Some(true))).map(|p| p.dice.len()), Ok(3));
        let (o, said) = play(&mut t, &call(Some(true)), &[&[4, 3, 1]]);
        assert_eq!((o.total, o.success), (8, Some(true)));
        assert_eq!(
            said,
            vec!["Pim's Action Load 2 -> 3 (GM-called roll, cost 1)"]
        );
        // On a table whose GM rolls use the load, this call ignores it: 5d4, load kept.
        if let TableState::D4Pool(d4) = &mut t {
            d4.rules.gm_rolls_use_load = true;
        }
        assert_eq!(t.plan(&call(None)).map(|p| p.dice.len()), Ok(2));
        assert_eq!(t.plan(&call(Some(false))).map(|p| p.dice.len()), Ok(5));
        let (_, said) = play(&mut t, &call(Some(false)), &[&[1, 1, 1, 1, 1]]);
        assert_eq!(
            said,
            vec!["Pim's Action Load stays 3 (GM-called roll: the GM's roll ignores it)"]
        );
    }

    /// The text's goblin attacks an ally; Bram, at load 1, uses a Team Action (cost 1) to impose
    /// Disadvantage, and the goblin's attack is rolled with it: one source, then gone.
    #[test]
    fn a_team_actions_disadvantage_is_counted_by_the_roll_it_hinders() {
        let mut t = table("d4-pool-goblin-ambush.ron");
        for _ in 0..3 {
            end_turn(&mut t).expect("turn");
        }
        if let TableState::D4Pool(d4) = &mut t {
            d4.loads[2] = 1;
        }
        let team = |actor, on| {
            AnyMove::D4Pool(Move::TeamAction {
                actor,
                aspect: "Presence".into(),
                on,
                effect: Effect::Disadvantage,
            })
        };
        assert_eq!(
            t.allowed(&team(2, 2)),
            Err(RulesError::Refused(Refusal::new(
                RefusalKind::Target,
                "a Team Action acts on another creature's roll: Bram cannot aim it at themself"
            )))
        );
        assert_eq!(t.plan(&team(2, 3)).map(|p| p.dice.len()), Ok(0));
        let (o, said) = play(&mut t, &team(2, 3), &[]);
        assert_eq!(o.class, "team action");
        assert_eq!(
            said,
            vec![
                "Bram's Action Load 1 -> 2 (team action, cost 1)",
                "Goblin's next roll this round has Disadvantage (Bram's team action)"
            ]
        );
        assert_eq!(
            t.allowed(&team(2, 3)),
            Err(RulesError::Refused(Refusal::new(
                RefusalKind::Already,
                "Bram's team action already waits on Goblin's next roll (the same source counts \
                 once)"
            )))
        );
        // "Multiple effects from the same ability, feature, or condition do not stack": Pim's
        // Team Action would give the goblin's roll Disadvantage from the same feature again.
        assert_eq!(
            t.allowed(&team(1, 3)),
            Err(RulesError::Refused(Refusal::new(
                RefusalKind::Already,
                "Bram's team action already gives Goblin's next roll Disadvantage: Team Actions \
                 are one feature, and the same feature does not stack"
            )))
        );
        assert!(
            t.tracker()[3]
                .status
                .contains(&"next roll: Disadvantage (Bram's team action)".to_string())
        );
        // The goblin attacks Vex: Finesse 4 − 1 Disadvantage = 3d4.
        let mut attack = AnyMove::D4Pool(Move::Act {
            actor: 3,
            aspect: "Finesse".into(),
            weapon: None,
            kind: "attack".into(),
            target: Aim::Attack(0),
            advantages: vec![],
            disadvantages: vec!["Bram's team action".into()],
        });
        assert_eq!(t.plan(&attack).map(|p| p.dice.len()), Ok(3), "counted once");
        let (_, said) = play(&mut t, &attack, &[&[3, 2, 1]]);
        assert_eq!(
            said,
            vec![
                "Goblin's Action Load 0 -> 1 (attack, cost 1)",
                "Goblin's roll counted Bram's team action (Disadvantage)"
            ]
        );
        // Gone with that roll: at load 1 the next is Finesse 4 − 1 = 3d4, with no Disadvantage.
        if let AnyMove::D4Pool(Move::Act { disadvantages, .. }) = &mut attack {
            disadvantages.clear();
        }
        assert_eq!(t.plan(&attack).map(|p| p.dice.len()), Ok(3));
    }

    #[test]
    fn load_can_stop_an_aspect() {
        let mut t = table("d4-pool-goblin-ambush.ron");
        end_turn(&mut t).expect("turn"); // Pim, load 0
        // Might 2: after two actions the load is 2 and Might − 2 = 0 cannot act.
        play(
            &mut t,
            &act(1, "Might", "aspect check", Aim::None),
            &[&[1, 1]],
        );
        play(&mut t, &act(1, "Might", "aspect check", Aim::None), &[&[1]]);
        let err = t
            .allowed(&act(1, "Might", "aspect check", Aim::None))
            .expect_err("load 2");
        assert_eq!(
            err,
            RulesError::Refused(Refusal::new(
                RefusalKind::Spent,
                "Aspect 2 minus Action Load 2 is 0: this Aspect cannot act until the load drops"
            ))
        );
        assert!(
            t.allowed(&act(1, "Wits", "aspect check", Aim::None))
                .is_ok(),
            "Wits 5 − 2 still acts"
        );
        let err = t
            .allowed(&act(1, "Wits", "juggling", Aim::None))
            .expect_err("no such kind");
        assert_eq!(
            err,
            RulesError::Refused(Refusal::new(
                RefusalKind::Choice,
                "'juggling' is not a kind of action; the costs table has aspect check, assist, attack, counter, minor action, reaction, team action"
            ))
        );
    }
}
