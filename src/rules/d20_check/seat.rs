//! `d20-check` at the table: checks of every action type (Standard, Bonus, Save, Extended,
//! Group), Play the Odds on mundane actions, resource dice up or down their chain, and side
//! initiative, which the GM declares when things get dicey and ends when they calm down.
//! Outside initiative there is no turn order: any character may make any check.

use crate::rules::Refusal;
use crate::rules::bounds::Bounded;
use crate::rules::refusal::refuse;
use serde::{Deserialize, Serialize};

use super::{Action, Edge, GroupRule, Initiative, ResourceState, Side, Table};
use crate::rules::play::{Seat, TrackerRow, name_at, no_roll, seat_of, single};
use crate::rules::{ClassId, Odds, Outcome, RollPlan, Step};

/// The DC of a check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum DcChoice {
    /// A row of the DC table with the GM's modifier.
    Named(String, i64),
    /// A number the GM gives.
    Number(i64),
    /// The Defense Class of the character opposing the check (an attack's target): the
    /// scene's `defense`.
    Defense(usize),
    /// The opposed check the GM rolled for this character against the roller
    /// ([`Move::Opposed`]): its total is the DC.
    Opposed(usize),
}

/// The text's action types.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum CheckType {
    /// Attacking, defending, maneuvering, spellcasting: the character's action.
    #[default]
    Standard,
    /// An extra check from momentum: does not use the action.
    Bonus,
    /// A reaction check: on any side's turn, does not use the action.
    Save,
    /// One check of a task that takes several.
    Extended {
        /// The scene's task.
        task: String,
    },
}

/// A `d20-check` move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum Move {
    /// The GM declares initiative: from now on the sides take turns.
    DeclareInitiative,
    /// The sides' initiative throw for a round.
    Initiative,
    /// The GM ends initiative: checks without turn order again.
    EndInitiative,
    /// A check.
    Check {
        /// Who rolls.
        actor: usize,
        /// The action type.
        #[serde(default)]
        kind: CheckType,
        /// A named modifier of the actor (STR, DEX...).
        #[serde(default)]
        modifier: Option<String>,
        /// The DC.
        dc: DcChoice,
        /// Advantage or disadvantage.
        #[serde(default)]
        edge: Edge,
        /// On a mundane action (DC 0): roll against DC 2 to improve the performance.
        #[serde(default)]
        play_the_odds: bool,
    },
    /// A Group check: the leader and helpers.
    Group {
        /// Who leads.
        leader: usize,
        /// Who helps (able to do the task).
        helpers: Vec<usize>,
        /// The named modifier each uses, where it has it.
        #[serde(default)]
        modifier: Option<String>,
        /// The DC.
        dc: DcChoice,
        /// Advantage or disadvantage from the situation.
        #[serde(default)]
        edge: Edge,
    },
    /// An opposed check the GM rolls for a character (the guard who searches): d20 +
    /// proficiency + modifier, whose total, within the DC range, is the DC of the next check
    /// of the character it opposes (the one who hides). It uses nobody's action.
    Opposed {
        /// Who the GM rolls for.
        by: usize,
        /// Whose check it opposes.
        against: usize,
        /// A named modifier of `by`'s.
        #[serde(default)]
        modifier: Option<String>,
        /// Advantage or disadvantage.
        #[serde(default)]
        edge: Edge,
    },
    /// A use of a resource die (not an action: torches burn as they burn).
    Resource {
        /// Whose.
        actor: usize,
        /// Which resource.
        name: String,
    },
}

impl Table {
    /// Whether a character has a modifier of that name.
    fn has_modifier(&self, actor: usize, name: &str) -> bool {
        self.characters[actor]
            .modifiers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
    }

    /// The check a character rolls with a named modifier: the roller who names it must have
    /// it; a group's helper without it rolls without it.
    fn check_action(
        &self,
        actor: usize,
        modifier: Option<&str>,
        dc: &DcChoice,
        edge: Edge,
        play_the_odds: bool,
        roller_names_it: bool,
    ) -> Result<Action, Refusal> {
        seat_of(&Seat::names(self), actor)?;
        // A helper of a group without the named modifier rolls without it (the move's
        // description says so); the roller who names it must have it (`action` refuses).
        let modifier = modifier.filter(|m| roller_names_it || self.has_modifier(actor, m));
        let mut a = self.action(actor, modifier, 0, edge)?;
        match dc {
            DcChoice::Number(n) => a.dc = Some(*n),
            DcChoice::Defense(_) | DcChoice::Opposed(_) => {
                return Err(refuse!(NotNow, "the DC is read before the check"));
            }
            DcChoice::Named(name, gm) => {
                a.dc = None;
                a.difficulty = Some(name.clone());
                a.gm_modifier = *gm;
            }
        }
        a.play_the_odds = play_the_odds;
        Ok(a)
    }

    /// The DC a check of `roller` is against, as a number where it is read from the table: an
    /// opponent's Defense Class, or the opposed check the GM rolled against the roller.
    fn read_dc(&self, roller: usize, dc: &DcChoice) -> Result<DcChoice, Refusal> {
        let names = Seat::names(self);
        match dc {
            DcChoice::Defense(i) => {
                seat_of(&names, *i)?;
                if *i == roller {
                    return Err(refuse!(
                        Target,
                        "a Defense Class opposes another's check: {} cannot check against their own",
                        names[roller]
                    ));
                }
                self.characters[*i]
                    .defense
                    .map(DcChoice::Number)
                    .ok_or_else(|| {
                        refuse!(
                            Unable,
                            "{} has no Defense Class: the scene gives it none (defense: 12)",
                            names[*i]
                        )
                    })
            }
            DcChoice::Opposed(i) => {
                seat_of(&names, *i)?;
                self.opposed
                    .iter()
                    .find(|o| o.by == *i && o.against == roller)
                    .map(|o| DcChoice::Number(o.dc))
                    .ok_or_else(|| {
                        refuse!(
                            NotNow,
                            "no opposed check of {}'s waits for {}'s check: the GM rolls it first \
                             (Opposed check)",
                            names[*i],
                            names[roller]
                        )
                    })
            }
            other => Ok(other.clone()),
        }
    }

    /// The GM's opposed check for `by` against `against`: a check with no DC of its own.
    fn opposed_action(
        &self,
        by: usize,
        against: usize,
        modifier: Option<&str>,
        edge: Edge,
    ) -> Result<Action, Refusal> {
        let names = Seat::names(self);
        seat_of(&names, by)?;
        seat_of(&names, against)?;
        if by == against {
            return Err(refuse!(
                Target,
                "an opposed check is rolled for an opponent: {} cannot oppose themself",
                names[by]
            ));
        }
        self.action(by, modifier, self.rules.dc_min, edge)
    }

    /// The opposed check a move is, if it is one.
    fn opposed_of(&self, m: &Move) -> Result<Option<(usize, usize, Action)>, Refusal> {
        match m {
            Move::Opposed {
                by,
                against,
                modifier,
                edge,
            } => Ok(Some((
                *by,
                *against,
                self.opposed_action(*by, *against, modifier.as_deref(), *edge)?,
            ))),
            _ => Ok(None),
        }
    }

    /// The opposed check's total, the DC it sets (within the DC range), and its lines.
    fn opposed_total(&self, a: &Action, faces: &[u32]) -> Result<(i64, Vec<String>), Refusal> {
        let n = if a.edge == Edge::None { 1 } else { 2 };
        if faces.len() != n || faces.iter().any(|f| !(1..=20).contains(f)) {
            return Err(refuse!(Faces, "{faces:?} are not the faces of {n} d20"));
        }
        let kept = match a.edge {
            Edge::Disadvantage => faces.iter().copied().min(),
            _ => faces.iter().copied().max(),
        }
        .unwrap_or(0);
        let total = i64::from(kept) + a.proficiency + a.modifier;
        let dc = total.clamp(self.rules.dc_min, self.rules.dc_max);
        let mut lines = vec![format!(
            "d20 {faces:?}{} {:+} proficiency {:+} modifier = {total}",
            edge_words(a.edge),
            a.proficiency,
            a.modifier
        )];
        if dc != total {
            lines.push(format!(
                "a DC is from {} to {}: DC {dc}",
                self.rules.dc_min, self.rules.dc_max
            ));
        }
        Ok((dc, lines))
    }

    /// The checks a move rolls, each with its roller, in throw order.
    fn rolls(&self, m: &Move) -> Result<Vec<(usize, Action)>, Refusal> {
        Ok(match m {
            Move::Check {
                actor,
                modifier,
                dc,
                edge,
                play_the_odds,
                ..
            } => {
                let dc = self.read_dc(*actor, dc)?;
                vec![(
                    *actor,
                    self.check_action(
                        *actor,
                        modifier.as_deref(),
                        &dc,
                        *edge,
                        *play_the_odds,
                        true,
                    )?,
                )]
            }
            Move::Group {
                leader,
                helpers,
                modifier,
                dc,
                edge,
            } => match (self.rules.group, &self.read_dc(*leader, dc)?) {
                (GroupRule::HelpGivesAdvantage, dc) => {
                    let edge = if helpers.is_empty() {
                        *edge
                    } else {
                        edge.with(Edge::Advantage)
                    };
                    vec![(
                        *leader,
                        self.check_action(*leader, modifier.as_deref(), dc, edge, false, true)?,
                    )]
                }
                (GroupRule::HalfSucceed, dc) => std::iter::once(leader)
                    .chain(helpers)
                    .map(|&a| {
                        self.check_action(a, modifier.as_deref(), dc, *edge, false, a == *leader)
                            .map(|c| (a, c))
                    })
                    .collect::<Result<_, _>>()?,
            },
            Move::Resource { actor, name } => {
                seat_of(&Seat::names(self), *actor)?;
                vec![(*actor, self.resource_action(*actor, name)?)]
            }
            _ => vec![],
        })
    }

    /// Whether a check of `kind` by `actor` is taken on its turn (during initiative).
    fn turn_check(&self, actor: usize, kind: &CheckType) -> Result<(), Refusal> {
        if !self.initiative {
            return Ok(());
        }
        let c = &self.characters[actor];
        match kind {
            CheckType::Save => Ok(()),
            CheckType::Bonus => match self.side_to_act() {
                Some(side) if side == c.side => Ok(()),
                Some(side) => Err(refuse!(
                    NotTheirTurn,
                    "a Bonus check comes on one's own side's turn; the {side:?} side acts"
                )),
                None => Err(refuse!(NotNow, "roll initiative first")),
            },
            CheckType::Standard | CheckType::Extended { .. } => self.check(actor),
        }
    }

    fn task(&self, name: &str) -> Result<usize, Refusal> {
        self.tasks
            .iter()
            .position(|t| t.task.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let names: Vec<&str> = self.tasks.iter().map(|t| t.task.name.as_str()).collect();
                if names.is_empty() {
                    refuse!(Unknown, "the scene has no task '{name}' (it lists none)")
                } else {
                    refuse!(
                        Unknown,
                        "the scene has no task '{name}'; it has {}",
                        names.join(", ")
                    )
                }
            })
    }

    fn uses_action(m: &Move) -> Vec<usize> {
        match m {
            Move::Check {
                actor,
                kind: CheckType::Standard | CheckType::Extended { .. },
                ..
            } => vec![*actor],
            Move::Group {
                leader, helpers, ..
            } => std::iter::once(*leader)
                .chain(helpers.iter().copied())
                .collect(),
            _ => vec![],
        }
    }

    fn initiative_outcome(&self, throws: &[Vec<u32>]) -> Result<Step, Refusal> {
        let faces = throws
            .last()
            .ok_or_else(|| refuse!(Faces, "no dice have been thrown yet"))?;
        let mut after = self.clone();
        let plan = self.initiative_plan();
        let side_total = |side: Side, label: &str| {
            let dice: Vec<u32> = plan
                .dice
                .iter()
                .zip(faces)
                .filter(|(d, _)| d.label.starts_with(label))
                .map(|(_, f)| *f)
                .collect();
            let best = dice.iter().copied().max().unwrap_or(0);
            let total = i64::from(best) + self.initiative_modifier(side);
            let line = format!(
                "{label} {dice:?}{} {:+} = {total}",
                if dice.len() > 1 { " (advantage)" } else { "" },
                self.initiative_modifier(side),
            );
            (line, total)
        };
        let (players, p) = side_total(Side::Players, "players");
        let (gm, g) = side_total(Side::Gamemaster, "gamemaster");
        match after.resolve_initiative(faces)? {
            Initiative::Tie => Ok(Step::ThrowMore(RollPlan {
                purpose: "initiative tied: both sides roll again".into(),
                ..plan
            })),
            Initiative::First(side) => Ok(Step::Done(Outcome {
                total: p - g,
                success: Some(side == Side::Players),
                class: format!("the {side:?} side declares first"),
                class_id: ClassId::new(match side {
                    Side::Players => "players_first",
                    Side::Gamemaster => "gamemaster_first",
                }),
                lines: vec![players, gm],
                tags: vec![format!("round {}", after.round)],
                facts: Vec::new(),
            })),
        }
    }
}

fn dc_words(dc: &DcChoice, names: &[&str]) -> String {
    match dc {
        DcChoice::Named(n, 0) => n.clone(),
        DcChoice::Named(n, g) => format!("{n} {g:+}"),
        DcChoice::Number(n) => format!("DC {n}"),
        DcChoice::Defense(i) => format!("{}'s Defense Class", name_at(names, *i)),
        DcChoice::Opposed(i) => format!("{}'s opposed check", name_at(names, *i)),
    }
}

fn edge_words(edge: Edge) -> &'static str {
    match edge {
        Edge::None => "",
        Edge::Advantage => " with advantage",
        Edge::Disadvantage => " with disadvantage",
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
        if !self.initiative {
            return "No initiative: any character may check".to_string();
        }
        match self.side_to_act() {
            None if self.round == 0 => "Initiative declared: roll it".to_string(),
            None => format!("Round {} is over: roll initiative", self.round),
            Some(side) => format!("Round {}: the {side:?} side acts", self.round),
        }
    }

    fn tracker(&self) -> Vec<TrackerRow> {
        let side = self.side_to_act();
        self.characters
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let mut status = vec![format!("{:?}", c.side)];
                if let Some(defense) = c.defense {
                    status.push(format!("Defense Class {defense}"));
                }
                if self.initiative {
                    status.push(if self.acted[i] { "acted" } else { "ready" }.into());
                }
                for (name, die) in &self.resources[i] {
                    let up = self.direction_of(i, name) == super::Direction::Up;
                    status.push(match die {
                        Some(d) => format!("{name} {d}{}", if up { " (steps up)" } else { "" }),
                        None => format!("{name} spent"),
                    });
                }
                TrackerRow {
                    name: c.name.clone(),
                    acting: self.initiative && side == Some(c.side) && !self.acted[i],
                    status,
                }
            })
            .collect()
    }

    fn notes(&self) -> Vec<String> {
        let names = Seat::names(self);
        let opposed = self.opposed.iter().map(|o| {
            format!(
                "{}'s opposed check: DC {} for {}'s next check against it",
                name_at(&names, o.by),
                o.dc,
                name_at(&names, o.against)
            )
        });
        self.tasks
            .iter()
            .map(|t| {
                format!(
                    "Task {}: {}/{} successes, {}/{} failures ({})",
                    t.task.name,
                    t.successes,
                    t.task.successes,
                    t.failures,
                    t.task.failures,
                    t.state()
                )
            })
            .chain(opposed)
            .collect()
    }

    fn actor(&self, m: &Move) -> Option<usize> {
        match m {
            Move::Check { actor, .. } | Move::Resource { actor, .. } => Some(*actor),
            Move::Group { leader, .. } => Some(*leader),
            Move::Opposed { by, .. } => Some(*by),
            _ => None,
        }
    }

    fn numbers(&self, m: &Move) -> Vec<Bounded> {
        let dc = |dc: &DcChoice| match dc {
            DcChoice::Named(_, gm) => Some(Bounded::number("the GM's modifier to the DC", *gm)),
            DcChoice::Number(n) => Some(Bounded::number("DC", *n)),
            DcChoice::Defense(_) | DcChoice::Opposed(_) => None,
        };
        match m {
            Move::Check { dc: d, .. } => dc(d).into_iter().collect(),
            Move::Group { helpers, dc: d, .. } => {
                std::iter::once(Bounded::count("helpers", helpers.len() as u64))
                    .chain(dc(d))
                    .collect()
            }
            Move::DeclareInitiative
            | Move::Initiative
            | Move::EndInitiative
            | Move::Opposed { .. }
            | Move::Resource { .. } => Vec::new(),
        }
    }

    fn allowed(&self, m: &Move) -> Result<(), Refusal> {
        self.opposed_of(m)?;
        for (_, a) in self.rolls(m)? {
            a.check(&self.rules)?;
        }
        match m {
            Move::DeclareInitiative if self.initiative => {
                Err(refuse!(NotNow, "initiative is declared already"))
            }
            Move::EndInitiative if !self.initiative => {
                Err(refuse!(NotNow, "initiative is not declared"))
            }
            Move::Initiative => {
                if !self.initiative {
                    return Err(refuse!(
                        NotNow,
                        "the GM declares initiative first, when things get dicey"
                    ));
                }
                match self.side_to_act() {
                    Some(side) => Err(refuse!(
                        NotNow,
                        "the round is on: the {side:?} side still has to act"
                    )),
                    None => Ok(()),
                }
            }
            Move::Check { actor, kind, .. } => {
                if let CheckType::Extended { task } = kind {
                    let t = &self.tasks[self.task(task)?];
                    if t.state() != "under way" {
                        return Err(refuse!(NotNow, "the task {} is {}", t.task.name, t.state()));
                    }
                }
                self.turn_check(*actor, kind)
            }
            Move::Group {
                leader, helpers, ..
            } => {
                let names = Seat::names(self);
                if helpers.contains(leader) {
                    return Err(refuse!(Target, "the leader does not help itself"));
                }
                for (i, &h) in helpers.iter().enumerate() {
                    seat_of(&names, h)?;
                    // One roll each: a helper listed twice would be counted twice.
                    if helpers[..i].contains(&h)
                        && self.rules.generation >= crate::record::CLOSE_READING
                    {
                        return Err(refuse!(
                            Target,
                            "{} is listed twice among the helpers",
                            names[h]
                        ));
                    }
                    if self.characters[h].side != self.characters[*leader].side {
                        return Err(refuse!(Target, "{} is on the other side", names[h]));
                    }
                }
                if self.initiative {
                    self.turn_check(*leader, &CheckType::Standard)?;
                    for &h in helpers {
                        if self.acted[h] {
                            return Err(refuse!(NotTheirTurn, "{} has acted this round", names[h]));
                        }
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn plan(&self, m: &Move) -> Result<RollPlan, Refusal> {
        if *m == Move::Initiative {
            return Ok(self.initiative_plan());
        }
        let names = Seat::names(self);
        if let Some((by, _, a)) = self.opposed_of(m)? {
            let n = if a.edge == Edge::None { 1 } else { 2 };
            return Ok(RollPlan::new("opposed check").with(
                n,
                20,
                crate::rules::DieRole::Check,
                &format!("{} d20", names[by]),
            ));
        }
        let mut plan = RollPlan::new("no roll");
        for (k, (who, a)) in self.rolls(m)?.iter().enumerate() {
            let mut p = a.plan(&self.rules)?;
            if matches!(m, Move::Group { .. }) {
                for d in &mut p.dice {
                    d.label = format!("{} {}", names[*who], d.label);
                }
            }
            if k == 0 {
                plan.purpose = p.purpose.clone();
            }
            plan.dice.extend(p.dice);
        }
        Ok(plan)
    }

    fn odds(&self, m: &Move) -> Result<Option<Odds>, Refusal> {
        if *m == Move::Initiative {
            let p = self.initiative_odds();
            let mut odds = Odds::of("players − gamemaster", self.initiative_difference())
                .class("players declare first (ties rolled again)", p.clone())
                .class("gamemaster declares first", p.complement());
            odds.target = Some(1);
            odds.p_success = Some(p);
            return Ok(Some(odds));
        }
        if let Some((_, _, a)) = self.opposed_of(m)? {
            let (lo, hi) = (self.rules.dc_min, self.rules.dc_max);
            let dc = a
                .edge
                .d20()
                .map(|v| (v + a.proficiency + a.modifier).clamp(lo, hi));
            return Ok(Some(Odds::of("the DC it sets", dc)));
        }
        let rolls = self.rolls(m)?;
        if let (Move::Group { .. }, GroupRule::HalfSucceed) = (m, self.rules.group) {
            let n = rolls.len() as i64;
            let mut count = crate::odds::Dist::constant(0);
            for (_, a) in &rolls {
                count = count.add(&a.success_dist(&self.rules)?);
            }
            let need = (n + 1) / 2;
            let p = count.p_where(|c| c >= need);
            let mut odds = Odds::of("members who succeed", count)
                .class("the group succeeds", p.clone())
                .class("the group fails", p.complement());
            odds.target = Some(need);
            odds.p_success = Some(p);
            return Ok(Some(odds));
        }
        match rolls.first() {
            Some((_, a)) => a.odds(&self.rules).map(Some),
            None => Ok(None),
        }
    }

    fn resolve(&self, m: &Move, throws: &[Vec<u32>]) -> Result<Step, Refusal> {
        let names = Seat::names(self);
        match m {
            Move::Initiative => return self.initiative_outcome(throws),
            Move::DeclareInitiative => {
                return Ok(no_roll(
                    "initiative_declared",
                    "initiative declared",
                    "things get dicey: the GM declares initiative".into(),
                ));
            }
            Move::EndInitiative => {
                return Ok(no_roll(
                    "initiative_ended",
                    "initiative ended",
                    "things calm down: checks without turn order".into(),
                ));
            }
            _ => {}
        }
        if let Some((by, against, a)) = self.opposed_of(m)? {
            let faces = single(throws)?;
            let (dc, mut lines) = self.opposed_total(&a, faces)?;
            lines.push(format!(
                "DC {dc} for {}'s check against {}",
                names[against], names[by]
            ));
            return Ok(Step::Done(Outcome {
                total: dc,
                success: None,
                class: "opposed check".into(),
                class_id: ClassId::new("opposed_check"),
                lines,
                tags: vec![format!("DC {dc}")],
                facts: Vec::new(),
            }));
        }
        let rolls = self.rolls(m)?;
        let faces: &[u32] = match throws {
            [] => &[],
            _ => single(throws)?,
        };
        let mut outcomes = Vec::new();
        let mut at = 0;
        for (_, a) in &rolls {
            let n = a.plan(&self.rules)?.dice.len();
            let mine = faces
                .get(at..at + n)
                .ok_or_else(|| refuse!(Faces, "too few faces for the check"))?;
            at += n;
            match a.resolve(&self.rules, mine)? {
                Step::Done(o) => outcomes.push(o),
                Step::ThrowMore(p) => return Ok(Step::ThrowMore(p)),
            }
        }
        if at != faces.len() {
            return Err(refuse!(Faces, "{} faces for {at} dice", faces.len()));
        }
        if let (Move::Group { .. }, GroupRule::HalfSucceed) = (m, self.rules.group) {
            let succeeded = outcomes.iter().filter(|o| o.success == Some(true)).count();
            let need = rolls.len().div_ceil(2);
            let ok = succeeded >= need;
            let mut lines = Vec::new();
            for ((who, _), o) in rolls.iter().zip(&outcomes) {
                lines.push(format!("{}: {} ({})", names[*who], o.class, o.total));
            }
            lines.push(format!(
                "{succeeded} of {} succeed; at least {need} needed",
                rolls.len()
            ));
            return Ok(Step::Done(Outcome {
                total: succeeded as i64,
                success: Some(ok),
                class: if ok {
                    "the group succeeds"
                } else {
                    "the group fails"
                }
                .into(),
                class_id: ClassId::new(if ok { "group_succeeds" } else { "group_fails" }),
                lines,
                tags: outcomes.iter().flat_map(|o| o.tags.clone()).collect(),
                facts: Vec::new(),
            }));
        }
        outcomes
            .into_iter()
            .next()
            .map(Step::Done)
            .ok_or_else(|| refuse!(Faces, "nothing to resolve"))
    }

    fn apply_move(
        &mut self,
        m: &Move,
        throws: &[Vec<u32>],
        outcome: &Outcome,
    ) -> Result<Vec<String>, Refusal> {
        let names: Vec<String> = Seat::names(self).into_iter().map(String::from).collect();
        let mut said = Vec::new();
        match m {
            Move::DeclareInitiative => {
                self.initiative = true;
                self.first = None;
                said.push("initiative declared: roll it".into());
            }
            Move::EndInitiative => {
                self.initiative = false;
                self.first = None;
                self.acted.iter_mut().for_each(|a| *a = false);
                said.push("initiative ends: no turn order".into());
            }
            Move::Initiative => {
                let faces = throws
                    .last()
                    .ok_or_else(|| refuse!(Faces, "no initiative dice"))?;
                if let Initiative::First(side) = self.resolve_initiative(faces)? {
                    said.push(format!(
                        "round {}: the {side:?} side declares first",
                        self.round
                    ));
                }
            }
            Move::Resource { actor, name } => {
                let face = throws
                    .first()
                    .and_then(|f| f.first())
                    .copied()
                    .ok_or_else(|| refuse!(Unknown, "no resource die thrown"))?;
                let up = self.direction_of(*actor, name) == super::Direction::Up;
                let state = self.apply_resource(*actor, name, face)?;
                said.push(format!(
                    "{}'s {name}: {}",
                    names[*actor],
                    match state {
                        ResourceState::Holds => "the die holds".to_string(),
                        ResourceState::StepsTo(d) if up => format!("steps up to {d}"),
                        ResourceState::StepsTo(d) => format!("steps down to {d}"),
                        ResourceState::Spent => "spent".to_string(),
                    }
                ));
            }
            Move::Check {
                actor, kind, dc, ..
            } => {
                if let DcChoice::Opposed(by) = dc {
                    self.opposed
                        .retain(|o| !(o.by == *by && o.against == *actor));
                }
                if let CheckType::Extended { task } = kind {
                    let i = self.task(task)?;
                    let t = &mut self.tasks[i];
                    if outcome.success == Some(true) {
                        t.successes += 1;
                    } else {
                        t.failures += 1;
                    }
                    said.push(format!(
                        "task {}: {}/{} successes, {}/{} failures ({})",
                        t.task.name,
                        t.successes,
                        t.task.successes,
                        t.failures,
                        t.task.failures,
                        t.state()
                    ));
                }
                if !self.initiative {
                    said.push(format!(
                        "{} checks (no initiative: no turn used)",
                        names[*actor]
                    ));
                } else if Self::uses_action(m).is_empty() {
                    said.push(format!(
                        "{}'s {} check does not use the action",
                        names[*actor],
                        if *kind == CheckType::Save {
                            "Save"
                        } else {
                            "Bonus"
                        }
                    ));
                }
            }
            Move::Group {
                leader,
                dc: DcChoice::Opposed(by),
                ..
            } => self
                .opposed
                .retain(|o| !(o.by == *by && o.against == *leader)),
            Move::Group { .. } => {}
            Move::Opposed { by, against, .. } => {
                let dc = outcome.total;
                self.opposed
                    .retain(|o| !(o.by == *by && o.against == *against));
                self.opposed.push(super::OpposedDc {
                    by: *by,
                    against: *against,
                    dc,
                });
                said.push(format!(
                    "{}'s opposed check sets DC {dc} for {}'s next check against {}",
                    names[*by], names[*against], names[*by]
                ));
            }
        }
        if self.initiative {
            let users = Self::uses_action(m);
            for &a in &users {
                self.apply(a);
            }
            if !users.is_empty() {
                let who: Vec<&str> = users.iter().map(|&a| names[a].as_str()).collect();
                said.push(format!("{} acted this round", who.join(" and ")));
                if self.first.is_none() {
                    said.push("everyone has acted: roll initiative for the next round".into());
                }
            }
        }
        Ok(said)
    }

    fn describe(&self, m: &Move) -> String {
        self.describe_move(m)
    }

    fn charted_value(&self, m: &Move, outcome: &Outcome) -> Option<i64> {
        match m {
            Move::Check { .. } | Move::Group { .. } => Some(outcome.total),
            _ => None,
        }
    }
}

mod words;

#[cfg(test)]
mod tests;
