//! A system file's table: its moves (each of the file's moves, a push, initiative, a resource
//! changed by hand, the end of a turn), their throws and bands, and the resources and turn they
//! change.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::read::{self, Reading, Throw};
use super::template::{self, Filled};
use super::{
    Amount, Change, Character, ChoiceDef, DieDef, Holder, MoveDef, Rules, Turn, Unchecked,
};
use crate::odds::notation::Notation;
use crate::rules::bounds::Bounded;
use crate::rules::play::{MadeBy, Seat, TrackerRow, name_at, no_roll, seat_of, single};
use crate::rules::refusal::refuse;
use crate::rules::{ClassId, Odds, Outcome, Refusal, RollPlan, Step};

/// A move at a system-file table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum Move {
    /// One of the file's moves, by name, for a character, with the form's choices (a choice
    /// not given is its default).
    Make {
        /// Who makes it (a seat).
        actor: usize,
        /// The move's name in the system file.
        name: String,
        /// Each choice by name: a trait's name, a number, or an option's label.
        #[serde(default)]
        choices: BTreeMap<String, Picked>,
    },
    /// Pushes the actor's last throw: the dice not showing a kept face are thrown again.
    Push {
        /// Whose last throw.
        actor: usize,
    },
    /// Everyone's initiative, thrown at once (a table whose turn goes by initiative).
    Initiative,
    /// The game master changes a resource by hand: harm healed, a clock ticking.
    Adjust {
        /// Whose (None: the scene's).
        #[serde(default)]
        actor: Option<usize>,
        /// The resource.
        resource: String,
        /// By how much.
        by: i64,
    },
    /// Ends the acting character's turn.
    EndTurn,
}

/// A choice's value in a move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Picked {
    /// A number choice.
    Number(i64),
    /// A trait's name, or an option's label.
    Name(String),
}

/// The last throw of a move, kept so it can be pushed.
#[derive(Clone, Debug, PartialEq)]
pub struct LastThrow {
    /// Who threw it.
    pub actor: usize,
    /// The move.
    pub name: String,
    /// The throw as filled in: its notation, whether it was the move's own, what it is read
    /// against.
    pub main: String,
    /// Whether `main` is the move's own throw.
    pub with_dice: bool,
    /// What it is read against.
    pub against: Option<String>,
    /// The numbers the bands compare with (choices, traits), as they were.
    pub numbers: BTreeMap<String, i64>,
    /// Every face, main then against.
    pub faces: Vec<u32>,
    /// Whether it was pushed already.
    pub pushed: bool,
}

/// A system-file table: the file, the cast, everyone's resources, the turn.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The system file.
    pub rules: Rules,
    /// Who sits at the table, in seat order.
    pub cast: Vec<Character>,
    /// Each character's resources, by name.
    pub tracks: Vec<BTreeMap<String, i64>>,
    /// The scene's resources, by name.
    pub scene: BTreeMap<String, i64>,
    /// The round (0 before the first initiative where initiative is thrown).
    pub round: u32,
    /// The seats in turn order (the scene's, or by initiative).
    pub order: Vec<usize>,
    /// Whose turn it is: a place in `order`.
    pub turn: usize,
    /// The last throw, for a push.
    pub last: Option<LastThrow>,
}

/// A move's throw, filled in for its actor and choices: what `$name` stands for there.
pub(super) struct Filling {
    numbers: BTreeMap<String, i64>,
    words: BTreeMap<String, String>,
    costs: Vec<Change>,
    said: Vec<String>,
}

impl Filling {
    pub(super) fn lookup(&self, n: &str) -> Option<Filled> {
        if let Some(w) = self.words.get(n) {
            return Some(Filled::Words(w.clone()));
        }
        self.numbers.get(n).map(|v| Filled::Number(*v))
    }
}

/// A band's threshold: a number, or a choice or trait of the move by name, among `numbers`.
pub(super) fn amount_in(numbers: &BTreeMap<String, i64>, a: &Amount) -> i64 {
    match a {
        Amount::Number(n) => *n,
        Amount::Named(n) => numbers.get(n).copied().unwrap_or(0),
    }
}

/// A move's throw from its templates, with `lookup` filling them in; the game's own dice
/// (`2d{Ability}`) from `rules`.
pub(super) fn throw_of(
    rules: &Unchecked,
    m: &MoveDef,
    lookup: &impl Fn(&str) -> Option<Filled>,
) -> Result<Throw, Refusal> {
    let parse = |text: &str| -> Result<Notation, Refusal> {
        Notation::parse(text).map_err(|e| refuse!(Choice, "\"{text}\": {e}"))
    };
    let parse_template = |template: &str| parse(&template::fill(template, lookup)?);
    let text = template::fill(&m.throw, lookup)?;
    if let Some(own) = own_dice(rules, &text)? {
        let with_dice = !own.is_empty();
        let (text, own) = match (with_dice, &m.if_no_dice) {
            (false, Some(instead)) => {
                let instead = template::fill(instead, lookup)?;
                let dice = own_dice(rules, &instead)?.unwrap_or_default();
                (instead, dice)
            }
            _ => (text, own),
        };
        if own.is_empty() {
            return Err(refuse!(Choice, "\"{text}\" throws no dice"));
        }
        let plain: Vec<String> = own
            .iter()
            .map(|d| format!("1d{}", d.shape.faces()))
            .collect();
        return Ok(Throw {
            main: parse(&plain.join("+"))?,
            with_dice,
            against: None,
            cap: None,
            own,
            result: m.result.clone(),
            // Written as thrown: the kinds of die with none in the pool left out.
            written: text
                .split('+')
                .filter(|t| !t.trim().starts_with("0d"))
                .collect::<Vec<_>>()
                .join("+"),
        });
    }
    // A pool of no dice is thrown as `if_no_dice` says: one the notation refuses (`0d6kh1`
    // keeps 1 of 0), or one that throws nothing.
    let zero_pool = text.starts_with("0d")
        || text
            .char_indices()
            .any(|(i, c)| !c.is_ascii_digit() && text[i + c.len_utf8()..].starts_with("0d"));
    let (main, with_dice) = match &m.if_no_dice {
        Some(instead) if zero_pool => (parse_template(instead)?, false),
        Some(instead) => {
            let own = parse(&text)?;
            if own.dice().is_empty() {
                (parse_template(instead)?, false)
            } else {
                (own, true)
            }
        }
        None => (parse(&text)?, true),
    };
    let against = m.against.as_deref().map(parse_template).transpose()?;
    Ok(Throw::numbered(main, with_dice, against, m.cap))
}

/// The game's own dice a filled-in throw names, die by die (`2d{Ability}+1d{Difficulty}`:
/// two Ability dice, one Difficulty die); None for a throw of numbered dice. A throw naming
/// the game's dice is only such dice added up.
pub(super) fn own_dice(rules: &Unchecked, text: &str) -> Result<Option<Vec<DieDef>>, Refusal> {
    if !text.contains("d{") {
        return Ok(None);
    }
    let mut out = Vec::new();
    for term in text.split('+') {
        let term = term.trim();
        let parsed = term
            .split_once("d{")
            .and_then(|(count, rest)| Some((count.trim(), rest.strip_suffix('}')?)));
        let Some((count, name)) = parsed else {
            return Err(refuse!(
                Choice,
                "\"{text}\": a throw of the game's own dice adds up such dice only (2d{{Ability}}+1d{{Difficulty}}); \"{term}\" is not one"
            ));
        };
        let count: u32 = if count.is_empty() {
            1
        } else {
            count
                .parse()
                .map_err(|_| refuse!(Choice, "\"{term}\": \"{count}\" is not a count of dice"))?
        };
        let die = rules
            .die_named(name)
            .ok_or_else(|| refuse!(Choice, "\"{term}\": the game has no die named \"{name}\""))?;
        if count > crate::dice::MOST_IN_A_THROW as u32 {
            return Err(refuse!(
                Choice,
                "\"{term}\" is more dice than the tray holds ({})",
                crate::dice::MOST_IN_A_THROW
            ));
        }
        out.extend(std::iter::repeat_n(die.clone(), count as usize));
    }
    Ok(Some(out))
}

/// A move read: its throw, its reading, its band.
pub(super) struct Read {
    pub(super) reading: Reading,
    pub(super) band: usize,
    pub(super) numbers: BTreeMap<String, i64>,
    pub(super) main: String,
    /// The throw as the file writes it (its own dice by name), for the outcome's lines.
    pub(super) written: String,
    pub(super) against: Option<String>,
    /// What the move (its options, or its push) costs.
    pub(super) costs: Vec<Change>,
}

impl Table {
    /// A table at its start: resources where the file (or the character) starts them, the
    /// scene's order, round 1 (0 where initiative is thrown first).
    pub fn new(rules: Rules, cast: Vec<Character>) -> Table {
        let tracks = cast
            .iter()
            .map(|c| {
                rules
                    .resources
                    .iter()
                    .filter(|r| r.per == Holder::Character)
                    .map(|r| {
                        (
                            r.name.clone(),
                            c.start.get(&r.name).copied().unwrap_or(r.start),
                        )
                    })
                    .collect()
            })
            .collect();
        let scene = rules
            .resources
            .iter()
            .filter(|r| r.per == Holder::Scene)
            .map(|r| (r.name.clone(), r.start))
            .collect();
        let round = u32::from(!matches!(rules.turn, Turn::Initiative(_)));
        Table {
            order: (0..cast.len()).collect(),
            rules,
            cast,
            tracks,
            scene,
            round,
            turn: 0,
            last: None,
        }
    }

    /// The seat whose turn it is (None: free play, or initiative not thrown yet).
    pub fn acting(&self) -> Option<usize> {
        match self.rules.turn {
            Turn::Free => None,
            _ if self.round == 0 => None,
            _ => self.order.get(self.turn).copied(),
        }
    }

    /// The name of the character in seat `i`, as the table's sentences give it.
    pub(super) fn name(&self, i: usize) -> String {
        name_at(&self.names(), i)
    }

    /// The file's move called `name`, or a refusal naming the moves there are.
    pub(super) fn move_def(&self, name: &str) -> Result<&MoveDef, Refusal> {
        self.rules.move_named(name).ok_or_else(|| {
            let names: Vec<&str> = self.rules.moves.iter().map(|m| m.name.as_str()).collect();
            refuse!(
                Unknown,
                "\"{name}\" is no move of {}; its moves are {}",
                self.rules.name,
                names.join(", ")
            )
        })
    }

    /// What `$name` stands for when `actor` makes `def` with `choices`.
    pub(super) fn filling(
        &self,
        actor: usize,
        def: &MoveDef,
        choices: &BTreeMap<String, Picked>,
    ) -> Result<Filling, Refusal> {
        let c = self
            .cast
            .get(actor)
            .ok_or_else(|| refuse!(Unknown, "there is no character {actor}"))?;
        let mut f = Filling {
            numbers: BTreeMap::new(),
            words: BTreeMap::new(),
            costs: def.costs.clone(),
            said: Vec::new(),
        };
        for t in &self.rules.traits {
            f.numbers.insert(
                t.name.clone(),
                c.trait_value(&self.rules, &t.name).unwrap_or(t.least),
            );
        }
        for (k, v) in self
            .tracks
            .get(actor)
            .into_iter()
            .flatten()
            .chain(&self.scene)
        {
            f.numbers.insert(k.clone(), *v);
        }
        if let Some(unknown) = choices
            .keys()
            .find(|k| !def.choices.iter().any(|c| c.name() == k.as_str()))
        {
            return Err(refuse!(Choice, "{} has no choice \"{unknown}\"", def.name));
        }
        for choice in &def.choices {
            let picked = choices.get(choice.name());
            match choice {
                ChoiceDef::Trait { name, label, of } => {
                    let offered: Vec<&str> =
                        self.rules.offered(of).map(|t| t.name.as_str()).collect();
                    let chosen = match picked {
                        None => best_trait(&self.rules, c, &offered),
                        Some(Picked::Name(n)) if offered.contains(&n.as_str()) => n.clone(),
                        Some(p) => {
                            return Err(refuse!(
                                Choice,
                                "{label}: {} is not one of {}",
                                shown(p),
                                offered.join(", ")
                            ));
                        }
                    };
                    let value = c.trait_value(&self.rules, &chosen).unwrap_or(0);
                    f.said.push(format!("{chosen} {value:+}"));
                    f.numbers.insert(name.clone(), value);
                }
                ChoiceDef::Number {
                    name,
                    label,
                    default,
                    ..
                } => {
                    let value = match picked {
                        None => *default,
                        Some(Picked::Number(n)) => *n,
                        Some(p) => {
                            return Err(refuse!(Choice, "{label} is a number, not {}", shown(p)));
                        }
                    };
                    // A number said unless it is a default of 0 (no forward, no bonus).
                    if (value, *default) != (0, 0) {
                        f.said.push(format!("{label} {value}"));
                    }
                    f.numbers.insert(name.clone(), value);
                }
                ChoiceDef::Options {
                    name,
                    label,
                    options,
                } => {
                    let option = match picked {
                        None => options.first(),
                        Some(Picked::Name(n)) => options.iter().find(|o| &o.label == n),
                        Some(Picked::Number(_)) => None,
                    }
                    .ok_or_else(|| {
                        let labels: Vec<&str> = options.iter().map(|o| o.label.as_str()).collect();
                        refuse!(
                            Choice,
                            "{label}: {} is not one of {}",
                            picked.map(shown).unwrap_or_default(),
                            labels.join(", ")
                        )
                    })?;
                    if picked.is_some() && Some(option) != options.first() {
                        f.said.push(option.label.clone());
                    }
                    match option.filled() {
                        Filled::Number(n) => {
                            f.numbers.insert(name.clone(), n);
                        }
                        Filled::Words(w) => {
                            f.words.insert(name.clone(), w);
                        }
                    }
                    f.costs.extend(option.costs.iter().cloned());
                }
            }
        }
        Ok(f)
    }

    fn turn_allows(&self, actor: usize) -> Result<(), Refusal> {
        match (&self.rules.turn, self.acting()) {
            (Turn::Free, _) => Ok(()),
            (Turn::Initiative(_), None) => Err(refuse!(NotNow, "roll initiative first")),
            (_, Some(a)) if a == actor => Ok(()),
            (_, Some(a)) => Err(refuse!(NotTheirTurn, "it is {}'s turn", self.name(a))),
            (_, None) => Err(refuse!(NotNow, "nobody's turn")),
        }
    }

    /// Reads a move of the file from its one throw.
    fn read_make(
        &self,
        actor: usize,
        def: &MoveDef,
        choices: &BTreeMap<String, Picked>,
        faces: &[u32],
    ) -> Result<Read, Refusal> {
        let f = self.filling(actor, def, choices)?;
        let throw = throw_of(&self.rules, def, &|n| f.lookup(n))?;
        let reading = throw.read(faces).map_err(|e| refuse!(Faces, "{e}"))?;
        let band = read::band_of(&def.bands, &reading, &|a| amount_in(&f.numbers, a));
        Ok(Read {
            reading,
            band,
            main: throw.main.source().to_string(),
            written: throw.written.clone(),
            against: throw.against.as_ref().map(|a| a.source().to_string()),
            numbers: f.numbers,
            costs: f.costs,
        })
    }

    fn outcome(&self, def: &MoveDef, r: &Read) -> Outcome {
        let band = &def.bands[r.band.min(def.bands.len() - 1)];
        let mut lines = vec![format!("{}: {}", r.written, r.reading.shown)];
        if let Some(a) = &r.against {
            let faces: Vec<String> = r.reading.against_faces.iter().map(u32::to_string).collect();
            lines.push(format!(
                "{a} shows {}: {} beats {} of them",
                faces.join(" and "),
                r.reading.total,
                r.reading.value
            ));
        }
        let mut tags = Vec::new();
        if !band.says.is_empty() {
            tags.push(band.says.clone());
        }
        for c in &band.when {
            match c {
                super::Condition::Faces { face, at_least } => {
                    tags.push(format!("{at_least} or more dice show {face}"))
                }
                super::Condition::Match => tags.push("a match".to_string()),
                super::Condition::Count { value, at_least } => {
                    tags.push(format!("{value} {at_least} or more"))
                }
                super::Condition::CountAtMost { value, at_most } => {
                    tags.push(format!("{value} {at_most} or less"))
                }
                _ => {}
            }
        }
        Outcome {
            total: r.reading.value,
            success: band.success,
            class: band.name.clone(),
            // The band's name is the game's own id for it, held in the log with the game.
            class_id: ClassId::named(&band.name),
            lines,
            tags,
            facts: Vec::new(),
        }
    }

    fn initiative_throws(&self) -> Result<Vec<Throw>, Refusal> {
        let Turn::Initiative(template) = &self.rules.turn else {
            return Err(refuse!(
                Unable,
                "{} has no initiative: {}",
                self.rules.name,
                turn_words(&self.rules.turn)
            ));
        };
        (0..self.cast.len())
            .map(|i| {
                let c = &self.cast[i];
                let text = template::fill(template, |n| {
                    c.trait_value(&self.rules, n)
                        .or_else(|| self.resource_value(Some(i), n))
                        .map(Filled::Number)
                })?;
                let main =
                    Notation::parse(&text).map_err(|e| refuse!(Choice, "\"{text}\": {e}"))?;
                Ok(Throw::numbered(main, true, None, None))
            })
            .collect()
    }

    /// Each character's initiative, from one throw of everyone's dice.
    fn read_initiative(&self, faces: &[u32]) -> Result<Vec<(usize, Reading)>, Refusal> {
        let mut out = Vec::new();
        let mut at = 0;
        for (i, t) in self.initiative_throws()?.into_iter().enumerate() {
            let n = t.main.dice().len();
            let slice = faces
                .get(at..at + n)
                .ok_or_else(|| refuse!(Faces, "{} faces for everyone's initiative", faces.len()))?;
            out.push((i, t.read(slice).map_err(|e| refuse!(Faces, "{e}"))?));
            at += n;
        }
        if at != faces.len() {
            return Err(refuse!(
                Faces,
                "{} faces for everyone's initiative of {at} dice",
                faces.len()
            ));
        }
        Ok(out)
    }

    fn odds_of(
        &self,
        throw: &Throw,
        fixed: &[Option<u32>],
        def: &MoveDef,
        numbers: &BTreeMap<String, i64>,
    ) -> Result<Odds, Refusal> {
        let (dist, bands) = read::exact(throw, fixed, &def.bands, &|a| amount_in(numbers, a))?;
        let measure = match (&throw.against, &throw.result) {
            (Some(_), _) => "dice beaten",
            (None, Some(value)) if !throw.own.is_empty() => value.as_str(),
            (None, _) => "result",
        };
        let mut odds = Odds::of(measure, dist);
        let mut success: Option<crate::odds::Prob> = None;
        for (b, p) in def.bands.iter().zip(bands) {
            if b.success == Some(true) {
                success = Some(success.map_or(p.clone(), |s| s.plus(&p)));
            }
            odds = odds.class(&b.name, p);
        }
        if def.bands.iter().any(|b| b.success.is_some()) {
            odds.p_success = Some(success.unwrap_or_else(crate::odds::Prob::zero));
        }
        Ok(odds)
    }
}

impl Table {
    /// The odds of everyone's initiative: who goes first (the highest, ties to the earlier
    /// seat), and the highest initiative's distribution; None where the throws together are
    /// too many to read one by one.
    fn initiative_odds(&self) -> Result<Option<Odds>, Refusal> {
        let throws = self.initiative_throws()?;
        let counts: Vec<usize> = throws.iter().map(|t| t.main.dice().len()).collect();
        let mut first = vec![0u128; throws.len()];
        let mut highest: BTreeMap<i64, u128> = BTreeMap::new();
        let mut failed = None;
        let denom = read::each_throw_of(&throws, |faces, weight| {
            let mut at = 0;
            let mut best: Option<(i64, usize)> = None;
            for (i, (t, n)) in throws.iter().zip(&counts).enumerate() {
                match t.read(&faces[at..at + n]) {
                    Ok(r) if best.is_none_or(|(v, _)| r.value > v) => best = Some((r.value, i)),
                    Ok(_) => {}
                    Err(e) => failed = Some(e),
                }
                at += n;
            }
            if let Some((v, i)) = best {
                first[i] += weight;
                *highest.entry(v).or_default() += weight;
            }
        })?;
        if let Some(e) = failed {
            return Err(e);
        }
        let Some(denom) = denom else { return Ok(None) };
        let mut odds = Odds::of("highest initiative", read::weighed(highest, denom));
        for (i, w) in first.into_iter().enumerate() {
            odds = odds.class(
                &format!("{} goes first", self.name(i)),
                read::chance(w, denom),
            );
        }
        Ok(Some(odds))
    }
}

/// The actor's best trait of those offered (the first of the best): what a trait choice is
/// when the move does not say.
pub(super) fn best_trait(rules: &Rules, c: &Character, offered: &[&str]) -> String {
    let mut best: Option<(&str, i64)> = None;
    for t in offered {
        let v = c.trait_value(rules, t).unwrap_or(0);
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((t, v));
        }
    }
    best.map(|(t, _)| t.to_string()).unwrap_or_default()
}

fn shown(p: &Picked) -> String {
    match p {
        Picked::Number(n) => n.to_string(),
        Picked::Name(s) => format!("\"{s}\""),
    }
}

/// How a table's turns pass, in words.
pub(super) fn turn_words(t: &Turn) -> String {
    match t {
        Turn::Free => "anyone moves whenever the story says".into(),
        Turn::InOrder => "each character in the order of the scene".into(),
        Turn::Initiative(n) => format!("by initiative ({n}), highest first"),
    }
}

impl Seat for Table {
    type Move = Move;

    fn names(&self) -> Vec<&str> {
        self.cast.iter().map(|c| c.name.as_str()).collect()
    }

    fn round(&self) -> u32 {
        self.round
    }

    fn game(&self) -> Option<(&str, &str)> {
        Some((self.rules.name.as_str(), self.rules.about.as_str()))
    }

    fn heading(&self) -> String {
        match (&self.rules.turn, self.acting()) {
            (Turn::Free, _) => format!("{}: free play", self.rules.name),
            (_, Some(a)) => format!("Round {}: {}'s turn", self.round, self.name(a)),
            (_, None) => format!("{}: roll initiative", self.rules.name),
        }
    }

    fn tracker(&self) -> Vec<TrackerRow> {
        let acting = self.acting();
        self.cast
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let traits: Vec<String> = self
                    .rules
                    .traits
                    .iter()
                    .filter_map(|t| Some(format!("{} {}", t.name, c.traits.get(&t.name)?)))
                    .collect();
                let mut status = Vec::new();
                if !traits.is_empty() {
                    status.push(traits.join(" · "));
                }
                for r in self
                    .rules
                    .resources
                    .iter()
                    .filter(|r| r.per == Holder::Character)
                {
                    let v = self
                        .tracks
                        .get(i)
                        .and_then(|t| t.get(&r.name))
                        .copied()
                        .unwrap_or(r.start);
                    status.push(format!("{} {v} ({} to {})", r.name, r.least, r.most));
                }
                TrackerRow {
                    name: c.name.clone(),
                    acting: acting == Some(i),
                    status,
                }
            })
            .collect()
    }

    fn notes(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .rules
            .resources
            .iter()
            .filter(|r| r.per == Holder::Scene)
            .map(|r| {
                format!(
                    "{} {} ({} to {})",
                    r.name,
                    self.scene.get(&r.name).copied().unwrap_or(r.start),
                    r.least,
                    r.most
                )
            })
            .collect();
        if let Some(last) = &self.last
            && let Ok((_, def, push)) = self.pushable(last.actor)
        {
            out.push(format!(
                "{} may {} ({})",
                self.name(last.actor),
                push.label.to_lowercase(),
                def.name
            ));
        }
        out
    }

    fn actor(&self, m: &Move) -> Option<usize> {
        match m {
            Move::Make { actor, .. } | Move::Push { actor } => Some(*actor),
            Move::Adjust { actor, .. } => *actor,
            Move::Initiative | Move::EndTurn => None,
        }
    }

    fn made_by(&self, m: &Move) -> MadeBy {
        match m {
            Move::Make { actor, .. } | Move::Push { actor } => MadeBy::PlayerOf(*actor),
            // The acting character's player passes the turn when done (in order, or by
            // initiative); with no one acting, the game master does.
            Move::EndTurn => self.acting().map_or(MadeBy::Gamemaster, MadeBy::PlayerOf),
            // A resource changed by hand, and the initiative throw, are the game master's.
            Move::Adjust { .. } | Move::Initiative => MadeBy::Gamemaster,
        }
    }

    fn numbers(&self, m: &Move) -> Vec<Bounded> {
        match m {
            Move::Make { name, choices, .. } => {
                let Some(def) = self.rules.move_named(name) else {
                    return Vec::new();
                };
                def.choices
                    .iter()
                    .filter_map(|c| match (c, choices.get(c.name())) {
                        (
                            ChoiceDef::Number {
                                label, least, most, ..
                            },
                            Some(Picked::Number(n)),
                        ) => Some(Bounded::within(
                            label.clone(),
                            i128::from(*n),
                            *least,
                            *most,
                        )),
                        _ => None,
                    })
                    .collect()
            }
            Move::Adjust { by, .. } => vec![Bounded::number("by", *by)],
            _ => Vec::new(),
        }
    }

    fn allowed(&self, m: &Move) -> Result<(), Refusal> {
        match m {
            Move::Make {
                actor,
                name,
                choices,
            } => {
                seat_of(&self.names(), *actor)?;
                let def = self.move_def(name)?;
                self.turn_allows(*actor)?;
                let f = self.filling(*actor, def, choices)?;
                throw_of(&self.rules, def, &|n| f.lookup(n))?;
                self.costs_fit(Some(*actor), &f.costs)
            }
            Move::Push { actor } => {
                seat_of(&self.names(), *actor)?;
                let (_, _, push) = self.pushable(*actor)?;
                self.costs_fit(Some(*actor), &push.costs)
            }
            Move::Initiative => self.initiative_throws().map(|_| ()),
            Move::Adjust {
                actor,
                resource,
                by,
            } => {
                if let Some(a) = actor {
                    seat_of(&self.names(), *a)?;
                }
                let def = self.rules.resource(resource).ok_or_else(|| {
                    refuse!(
                        Unknown,
                        "\"{resource}\" is no resource of {}",
                        self.rules.name
                    )
                })?;
                match (def.per, actor) {
                    (Holder::Character, None) => {
                        Err(refuse!(Target, "{resource} is each character's: say whose"))
                    }
                    (Holder::Scene, Some(_)) => {
                        Err(refuse!(Target, "{resource} is the scene's, nobody's own"))
                    }
                    _ => self.costs_fit(
                        *actor,
                        &[Change {
                            resource: resource.clone(),
                            by: *by,
                        }],
                    ),
                }
            }
            Move::EndTurn => match self.rules.turn {
                Turn::Free => Err(refuse!(
                    NotNow,
                    "{} plays free: there is no turn to end",
                    self.rules.name
                )),
                _ if self.acting().is_none() => Err(refuse!(NotNow, "roll initiative first")),
                _ => Ok(()),
            },
        }
    }

    fn plan(&self, m: &Move) -> Result<RollPlan, Refusal> {
        match m {
            Move::Make {
                actor,
                name,
                choices,
            } => {
                let def = self.move_def(name)?;
                let f = self.filling(*actor, def, choices)?;
                let throw = throw_of(&self.rules, def, &|n| f.lookup(n))?;
                throw.plan(self.describe(m), &self.name(*actor))
            }
            Move::Push { actor } => {
                let (last, def, push) = self.pushable(*actor)?;
                let throw = Table::last_throw(last, def)?;
                let main_count = throw.main.dice().len();
                let kept = Table::kept(last, main_count, push.keep_at_least);
                let sides = throw.sides()?;
                let mut plan = RollPlan::new(self.describe(m));
                for (k, s) in kept.iter().zip(sides) {
                    if k.is_none() {
                        plan = plan.with(
                            1,
                            s,
                            crate::rules::DieRole::Pool,
                            &format!("{}'s d{s}", self.name(*actor)),
                        );
                    }
                }
                Ok(plan)
            }
            Move::Initiative => {
                let mut plan = RollPlan::new("everyone's initiative");
                for (i, t) in self.initiative_throws()?.iter().enumerate() {
                    for s in t.sides()? {
                        plan = plan.with(
                            1,
                            s,
                            crate::rules::DieRole::Initiative,
                            &format!("{}'s initiative", self.name(i)),
                        );
                    }
                }
                Ok(plan)
            }
            Move::Adjust { .. } | Move::EndTurn => Ok(RollPlan::new(self.describe(m))),
        }
    }

    fn odds(&self, m: &Move) -> Result<Option<Odds>, Refusal> {
        match m {
            Move::Make {
                actor,
                name,
                choices,
            } => {
                let def = self.move_def(name)?;
                let f = self.filling(*actor, def, choices)?;
                let throw = throw_of(&self.rules, def, &|n| f.lookup(n))?;
                let fixed = vec![None; throw.sides()?.len()];
                self.odds_of(&throw, &fixed, def, &f.numbers).map(Some)
            }
            Move::Push { actor } => {
                let (last, def, push) = self.pushable(*actor)?;
                let throw = Table::last_throw(last, def)?;
                let kept = Table::kept(last, throw.main.dice().len(), push.keep_at_least);
                self.odds_of(&throw, &kept, def, &last.numbers).map(Some)
            }
            Move::Initiative => self.initiative_odds(),
            Move::Adjust { .. } | Move::EndTurn => Ok(None),
        }
    }

    fn resolve(&self, m: &Move, throws: &[Vec<u32>]) -> Result<Step, Refusal> {
        match m {
            Move::Make {
                actor,
                name,
                choices,
            } => {
                let def = self.move_def(name)?;
                let r = self.read_make(*actor, def, choices, single(throws)?)?;
                Ok(Step::Done(self.outcome(def, &r)))
            }
            Move::Push { actor } => {
                let (last, ..) = self.pushable(*actor)?;
                let def = self.move_def(&last.name)?;
                let r = self.read_push(*actor, single(throws)?)?;
                Ok(Step::Done(self.outcome(def, &r)))
            }
            Move::Initiative => {
                let read = self.read_initiative(single(throws)?)?;
                let best = read.iter().map(|(_, r)| r.value).max().unwrap_or(0);
                let lines = read
                    .iter()
                    .map(|(i, r)| format!("{}: {}", self.name(*i), r.shown))
                    .collect();
                Ok(Step::Done(Outcome {
                    total: best,
                    success: None,
                    class: "initiative".into(),
                    class_id: ClassId::new("initiative"),
                    lines,
                    tags: Vec::new(),
                    facts: Vec::new(),
                }))
            }
            Move::Adjust { .. } => Ok(no_roll(
                "changed_by_hand",
                "changed by hand",
                self.describe(m),
            )),
            Move::EndTurn => Ok(no_roll("turn_ended", "turn ended", self.describe(m))),
        }
    }

    fn apply_move(
        &mut self,
        m: &Move,
        throws: &[Vec<u32>],
        _outcome: &Outcome,
    ) -> Result<Vec<String>, Refusal> {
        match m {
            Move::Make {
                actor,
                name,
                choices,
            } => {
                let faces = single(throws)?;
                let def = self.move_def(name)?;
                let r = self.read_make(*actor, def, choices, faces)?;
                let changes = def.bands[r.band].changes.clone();
                let mut said = self.change(Some(*actor), &r.costs);
                said.extend(self.change(Some(*actor), &changes));
                self.last = Some(LastThrow {
                    actor: *actor,
                    name: name.clone(),
                    main: r.main,
                    with_dice: r.reading.with_dice,
                    against: r.against,
                    numbers: r.numbers,
                    faces: faces.to_vec(),
                    pushed: false,
                });
                Ok(said)
            }
            Move::Push { actor } => {
                let again = single(throws)?;
                let r = self.read_push(*actor, again)?;
                let (_, def, push) = self.pushable(*actor)?;
                let changes = def.bands[r.band].changes.clone();
                let per_face: Vec<Change> = push
                    .per_face
                    .iter()
                    .flat_map(|fc| {
                        let n = again.iter().filter(|f| **f == fc.face).count() as i64;
                        (n > 0).then(|| Change {
                            resource: fc.resource.clone(),
                            by: fc.by.saturating_mul(n),
                        })
                    })
                    .collect();
                let mut said = self.change(Some(*actor), &r.costs);
                said.extend(self.change(Some(*actor), &per_face));
                said.extend(self.change(Some(*actor), &changes));
                if let Some(last) = &mut self.last {
                    last.faces = [r.reading.main_faces, r.reading.against_faces].concat();
                    last.pushed = true;
                }
                Ok(said)
            }
            Move::Initiative => {
                let mut read: Vec<(usize, i64)> = self
                    .read_initiative(single(throws)?)?
                    .into_iter()
                    .map(|(i, r)| (i, r.value))
                    .collect();
                read.sort_by_key(|(i, v)| (std::cmp::Reverse(*v), *i));
                self.order = read.iter().map(|(i, _)| *i).collect();
                self.turn = 0;
                self.round += 1;
                let names: Vec<String> = self.order.iter().map(|i| self.name(*i)).collect();
                Ok(vec![format!("Round {}: {}", self.round, names.join(", "))])
            }
            Move::Adjust {
                actor,
                resource,
                by,
            } => Ok(self.change(
                *actor,
                &[Change {
                    resource: resource.clone(),
                    by: *by,
                }],
            )),
            Move::EndTurn => {
                let ended = self.acting().map(|a| self.name(a)).unwrap_or_default();
                self.last = None;
                self.turn += 1;
                if self.turn >= self.order.len() {
                    self.turn = 0;
                    self.round += 1;
                }
                let next = self.acting().map(|a| self.name(a)).unwrap_or_default();
                Ok(vec![format!(
                    "{ended}'s turn ends; round {}: {next}'s turn",
                    self.round
                )])
            }
        }
    }

    fn end_turn_move(&self) -> Option<Move> {
        (self.rules.turn != Turn::Free).then_some(Move::EndTurn)
    }

    fn describe(&self, m: &Move) -> String {
        match m {
            Move::Make {
                actor,
                name,
                choices,
            } => {
                let said = self
                    .rules
                    .move_named(name)
                    .and_then(|def| self.filling(*actor, def, choices).ok())
                    .map(|f| f.said)
                    .unwrap_or_default();
                if said.is_empty() {
                    format!("{}: {name}", self.name(*actor))
                } else {
                    format!("{}: {name} ({})", self.name(*actor), said.join(", "))
                }
            }
            Move::Push { actor } => match self.pushable(*actor) {
                Ok((last, _, push)) => {
                    format!("{}: {} ({})", self.name(*actor), push.label, last.name)
                }
                Err(_) => format!("{}: push", self.name(*actor)),
            },
            Move::Initiative => "Everyone rolls initiative".into(),
            Move::Adjust {
                actor,
                resource,
                by,
            } => match actor {
                Some(a) => format!("{}'s {resource} {by:+} (by hand)", self.name(*a)),
                None => format!("{resource} {by:+} (by hand)"),
            },
            Move::EndTurn => match self.acting() {
                Some(a) => format!("{} ends the turn", self.name(a)),
                None => "End turn".into(),
            },
        }
    }
}
