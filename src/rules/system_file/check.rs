//! What RON cannot check of a system file, checked when it is read (its error becomes RON's,
//! at the file's line and column): names unique and known, every number and list within its
//! bounds, every throw notation the table can throw and work out exactly, every move's last
//! band catching whatever the others do not.

use crate::rules::Refusal;
use crate::rules::refusal::refuse;
use std::collections::BTreeSet;

use super::template::{self, Filled, Term};
use super::{Amount, ChoiceDef, Condition, MOST_NUMBER, MoveDef, Turn, Unchecked};
use crate::odds::notation::Notation;
use crate::rules::ruleset::Oversized;

/// The most traits, resources or moves a file has.
const MOST_ITEMS: usize = 32;
/// The most choices, bands or options a move has.
const MOST_PER_MOVE: usize = 12;
/// The most characters of a name or a line.
const MOST_CHARS: usize = 400;

fn number(what: &str, n: i64) -> Result<(), Refusal> {
    if n.abs() > MOST_NUMBER {
        return Err(refuse!(
            Scene,
            "{what} is {n}: a system file's numbers are within ±{MOST_NUMBER}"
        ));
    }
    Ok(())
}

fn name(what: &str, n: &str) -> Result<(), Refusal> {
    if n.trim().is_empty() {
        return Err(refuse!(Scene, "{what} has no name"));
    }
    if n.chars().count() > MOST_CHARS {
        return Err(refuse!(
            Scene,
            "{what}'s name is over {MOST_CHARS} characters"
        ));
    }
    Ok(())
}

fn unique<'a>(what: &str, names: impl Iterator<Item = &'a str>) -> Result<(), Refusal> {
    let mut seen = BTreeSet::new();
    for n in names {
        if !seen.insert(n) {
            return Err(refuse!(Scene, "two {what} are named \"{n}\""));
        }
    }
    Ok(())
}

fn at_most(what: &str, count: usize, most: usize) -> Result<(), Refusal> {
    if count > most {
        return Err(refuse!(
            Scene,
            "{count} {what}: a system file has at most {most}"
        ));
    }
    Ok(())
}

/// Every check of a system file.
pub fn system(s: &Unchecked) -> Result<(), Refusal> {
    name("the system", &s.name)?;
    for (what, text) in [("credit", &s.credit), ("about", &s.about)] {
        if text.chars().count() > 4 * MOST_CHARS {
            return Err(refuse!(
                Scene,
                "its {what} is over {} characters",
                4 * MOST_CHARS
            ));
        }
    }
    at_most("traits", s.traits.len(), MOST_ITEMS)?;
    at_most("resources", s.resources.len(), MOST_ITEMS)?;
    at_most("moves", s.moves.len(), MOST_ITEMS)?;
    if s.moves.is_empty() {
        return Err(refuse!(Scene, "a system has at least one move"));
    }
    for t in &s.traits {
        name("a trait", &t.name)?;
        number(&format!("trait {}'s least", t.name), t.least)?;
        number(&format!("trait {}'s most", t.name), t.most)?;
        if t.least > t.most {
            return Err(refuse!(
                Scene,
                "trait {}: its least {} is above its most {}",
                t.name,
                t.least,
                t.most
            ));
        }
    }
    for r in &s.resources {
        name("a resource", &r.name)?;
        number(&format!("resource {}'s least", r.name), r.least)?;
        number(&format!("resource {}'s most", r.name), r.most)?;
        if !(r.least <= r.start && r.start <= r.most) {
            return Err(refuse!(
                Scene,
                "resource {} starts at {}, outside its bounds {} to {}",
                r.name,
                r.start,
                r.least,
                r.most
            ));
        }
    }
    unique(
        "traits or resources",
        s.traits
            .iter()
            .map(|t| t.name.as_str())
            .chain(s.resources.iter().map(|r| r.name.as_str())),
    )?;
    unique("moves", s.moves.iter().map(|m| m.name.as_str()))?;
    at_most("dice of the game's own", s.dice.len(), MOST_PER_MOVE)?;
    unique("dice", s.dice.iter().map(|d| d.name.as_str()))?;
    for m in &s.moves {
        a_move(s, m).map_err(|e| refuse!(Scene, "move \"{}\": {e}", m.name))?;
    }
    if let Turn::Initiative(t) = &s.turn {
        let filled = template::fill(t, |n| s.trait_named(n).map(|d| Filled::Number(d.most)))
            .map_err(|e| refuse!(Scene, "the initiative throw: {e}"))?;
        let n = Notation::parse(&filled)
            .map_err(|e| refuse!(Scene, "the initiative throw \"{filled}\": {e}"))?;
        super::read::plain_dice(&n).map_err(|e| refuse!(Scene, "the initiative throw: {e}"))?;
    }
    Ok(())
}

fn changes(s: &Unchecked, list: &[super::Change]) -> Result<(), Refusal> {
    for c in list {
        if s.resource(&c.resource).is_none() {
            return Err(refuse!(
                Scene,
                "\"{}\" is no resource of the system",
                c.resource
            ));
        }
        number(&format!("a change of {}", c.resource), c.by)?;
    }
    Ok(())
}

fn a_move(s: &Unchecked, m: &MoveDef) -> Result<(), Refusal> {
    name("a move", &m.name)?;
    at_most("choices", m.choices.len(), MOST_PER_MOVE)?;
    at_most("bands", m.bands.len(), MOST_PER_MOVE)?;
    unique("choices", m.choices.iter().map(ChoiceDef::name))?;
    for c in &m.choices {
        name("a choice", c.name())?;
        if c.name().contains(['.', '$', '(', ')', '+', '-']) {
            return Err(refuse!(
                Scene,
                "choice \"{}\": a name has no . $ ( ) + or -",
                c.name()
            ));
        }
        match c {
            ChoiceDef::Trait { of, .. } => {
                for t in of {
                    if s.trait_named(t).is_none() {
                        return Err(refuse!(
                            Scene,
                            "choice \"{}\" offers \"{t}\", which is no trait",
                            c.name()
                        ));
                    }
                }
                if of.is_empty() && s.traits.is_empty() {
                    return Err(refuse!(
                        Scene,
                        "choice \"{}\" offers a trait, and the system has none",
                        c.name()
                    ));
                }
            }
            ChoiceDef::Number {
                least,
                most,
                default,
                ..
            } => {
                for (what, n) in [("least", least), ("most", most), ("default", default)] {
                    number(&format!("choice {}'s {what}", c.name()), *n)?;
                }
                if !(least <= default && default <= most) {
                    return Err(refuse!(
                        Scene,
                        "choice \"{}\": its default {default} is outside {least} to {most}",
                        c.name()
                    ));
                }
            }
            ChoiceDef::Options { options, .. } => {
                at_most("options", options.len(), MOST_PER_MOVE)?;
                if options.is_empty() {
                    return Err(refuse!(Scene, "choice \"{}\" has no options", c.name()));
                }
                for o in options {
                    name("an option", &o.label)?;
                    if let Filled::Number(n) = o.filled() {
                        number(&format!("option {}", o.label), n)?;
                    }
                    changes(s, &o.costs)?;
                }
            }
        }
    }
    changes(s, &m.costs)?;
    if m.bands.is_empty() {
        return Err(refuse!(Scene, "a move has at least one band"));
    }
    for (i, b) in m.bands.iter().enumerate() {
        name("a band", &b.name)?;
        changes(s, &b.changes)?;
        let last = i + 1 == m.bands.len();
        if last && !b.when.is_empty() {
            return Err(refuse!(
                Scene,
                "its last band \"{}\" has conditions; the last band has none, so every throw falls in a band",
                b.name
            ));
        }
        for c in &b.when {
            match c {
                Condition::AtLeast(a) | Condition::AtMost(a) => amount(s, m, a)?,
                Condition::Faces { face, at_least } => {
                    if *face == 0 || *face > 100 || *at_least > 100 {
                        return Err(refuse!(
                            Scene,
                            "band \"{}\": Faces(face: {face}, at_least: {at_least}) is out of bounds",
                            b.name
                        ));
                    }
                }
                Condition::Match if m.against.is_none() => {
                    return Err(refuse!(
                        Scene,
                        "band \"{}\" asks for a match, and the move throws nothing to read against",
                        b.name
                    ));
                }
                Condition::Match
                | Condition::WithDice
                | Condition::Count { .. }
                | Condition::CountAtMost { .. } => {}
            }
        }
    }
    if let Some(cap) = m.cap {
        number("its cap", cap)?;
    }
    own_dice_move(s, m)?;
    if let Some(p) = &m.push {
        name("its push", &p.label)?;
        if p.keep_at_least == 0 || p.keep_at_least > 100 {
            return Err(refuse!(
                Scene,
                "its push keeps faces of {} or more: out of bounds",
                p.keep_at_least
            ));
        }
        changes(s, &p.costs)?;
        for f in &p.per_face {
            if s.resource(&f.resource).is_none() {
                return Err(refuse!(
                    Scene,
                    "\"{}\" is no resource of the system",
                    f.resource
                ));
            }
            number("a push's cost per face", f.by)?;
        }
    }
    for template in std::iter::once(&m.throw)
        .chain(&m.if_no_dice)
        .chain(&m.against)
    {
        for h in template::placeholders(template)? {
            for (_, term) in &h.terms {
                if let Term::Name(n) = term
                    && known(s, m, n).is_none()
                {
                    return Err(refuse!(
                        Scene,
                        "\"{template}\" names {n}, which is no trait, resource or choice of the move"
                    ));
                }
            }
        }
    }
    throws(s, m)
}

/// A move throwing the game's own dice reads what their faces count, and nothing else: its
/// result is a value they count; it has no dice against it, cap or push, and no band reads
/// faces by number. A move of numbered dice counts no values.
fn own_dice_move(s: &Unchecked, m: &MoveDef) -> Result<(), Refusal> {
    let counted = |value: &str| {
        s.dice
            .iter()
            .any(|d| d.faces.iter().any(|f| f.counts.contains_key(value)))
    };
    let own = m.throw.contains("d{");
    let conditions = m
        .bands
        .iter()
        .flat_map(|b| b.when.iter().map(move |c| (b, c)));
    if !own {
        if let Some(r) = &m.result {
            return Err(refuse!(
                Scene,
                "its result is \"{r}\", and it throws none of the game's own dice (write them 2d{{Name}})"
            ));
        }
        for (b, c) in conditions {
            if let Condition::Count { value, .. } | Condition::CountAtMost { value, .. } = c {
                return Err(refuse!(
                    Scene,
                    "band \"{}\" counts {value}, and the move throws none of the game's own dice",
                    b.name
                ));
            }
        }
        return Ok(());
    }
    match &m.result {
        None => {
            return Err(refuse!(
                Scene,
                "it throws the game's own dice and names no result: say which value it is (result: Some(\"success\"))"
            ));
        }
        Some(r) if !counted(r) => {
            return Err(refuse!(
                Scene,
                "its result is \"{r}\", which no face of the game's dice counts"
            ));
        }
        Some(_) => {}
    }
    if m.against.is_some() || m.cap.is_some() || m.push.is_some() {
        return Err(refuse!(
            Scene,
            "a throw of the game's own dice is read by what its faces count: it has no against, cap or push"
        ));
    }
    for (b, c) in conditions {
        match c {
            Condition::Faces { .. } | Condition::Match => {
                return Err(refuse!(
                    Scene,
                    "band \"{}\" reads faces by number, and the move throws the game's own dice: count values instead (Count(value: \"success\", at_least: 1))",
                    b.name
                ));
            }
            Condition::Count { value, .. } | Condition::CountAtMost { value, .. }
                if !counted(value) =>
            {
                return Err(refuse!(
                    Scene,
                    "band \"{}\" counts \"{value}\", which no face of the game's dice counts",
                    b.name
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// What a name in a move is: a number (true) or an option's words (false).
fn known(s: &Unchecked, m: &MoveDef, n: &str) -> Option<bool> {
    match m.choices.iter().find(|c| c.name() == n) {
        Some(ChoiceDef::Options { options, .. }) => Some(
            options
                .iter()
                .all(|o| matches!(o.filled(), Filled::Number(_))),
        ),
        Some(_) => Some(true),
        None => (s.trait_named(n).is_some() || s.resource(n).is_some()).then_some(true),
    }
}

fn amount(s: &Unchecked, m: &MoveDef, a: &Amount) -> Result<(), Refusal> {
    match a {
        Amount::Number(n) => number("a band's threshold", *n),
        Amount::Named(n) => match known(s, m, n) {
            Some(true) => Ok(()),
            Some(false) => Err(refuse!(
                Scene,
                "a band compares with {n}, an option's words, not a number"
            )),
            None => Err(refuse!(
                Scene,
                "a band compares with {n}, which is no trait, resource or choice of the move"
            )),
        },
    }
}

/// Throws every move's notation can come to, at the least and the most of every number and
/// with each option: each must parse, be plain dice, and have odds the table works out.
fn throws(s: &Unchecked, m: &MoveDef) -> Result<(), Refusal> {
    let option_sets: Vec<&[super::OptionDef]> = m
        .choices
        .iter()
        .filter_map(|c| match c {
            ChoiceDef::Options { options, .. } => Some(options.as_slice()),
            _ => None,
        })
        .collect();
    for most in [false, true] {
        // Each option of each choice once, the others at their first.
        let mut picks: Vec<Vec<usize>> = vec![vec![0; option_sets.len()]];
        for (k, set) in option_sets.iter().enumerate() {
            for i in 1..set.len() {
                let mut p = vec![0; option_sets.len()];
                p[k] = i;
                picks.push(p);
            }
        }
        for pick in picks {
            let lookup = |n: &str| -> Option<Filled> {
                let mut options = 0;
                for c in &m.choices {
                    match c {
                        ChoiceDef::Options { name, .. } if name == n => {
                            return Some(option_sets[options][pick[options]].filled());
                        }
                        ChoiceDef::Options { .. } => options += 1,
                        ChoiceDef::Number {
                            name,
                            least,
                            most: top,
                            ..
                        } if name == n => {
                            return Some(Filled::Number(if most { *top } else { *least }));
                        }
                        ChoiceDef::Trait { name, of, .. } if name == n => {
                            let values = s.offered(of).map(|t| if most { t.most } else { t.least });
                            return if most { values.max() } else { values.min() }
                                .map(Filled::Number);
                        }
                        _ => {}
                    }
                }
                if let Some(t) = s.trait_named(n) {
                    return Some(Filled::Number(if most { t.most } else { t.least }));
                }
                s.resource(n)
                    .map(|r| Filled::Number(if most { r.most } else { r.least }))
            };
            let t = super::seat::throw_of(s, m, &lookup)?;
            t.within_reach()?;
        }
    }
    Ok(())
}

/// The limits an uploaded system file is held to beyond [`system`] (a stored room's file is
/// read by [`system`] alone, so it still opens): names of at most
/// [`crate::rules::scene::NAME_CHARS`] characters, and at most [`MOST_PER_MOVE`] costs,
/// changes and conditions in each list, so that no move changes a thousand things a throw.
pub fn upload(s: &Unchecked) -> Result<(), Oversized> {
    use crate::rules::scene::NAME_CHARS;
    let long = |what: &str, name: &str| -> Result<(), Oversized> {
        if name.chars().count() > NAME_CHARS {
            return Err(Oversized {
                what: format!("{what}'s name is over {NAME_CHARS} characters"),
                near: name.to_string(),
            });
        }
        Ok(())
    };
    let many = |what: &str, count: usize, near: &str| -> Result<(), Oversized> {
        if count > MOST_PER_MOVE {
            return Err(Oversized {
                what: format!(
                    "{count} {what}: a list of a system file holds at most {MOST_PER_MOVE}"
                ),
                near: near.to_string(),
            });
        }
        Ok(())
    };
    for t in &s.traits {
        long("a trait", &t.name)?;
    }
    for r in &s.resources {
        long("a resource", &r.name)?;
    }
    for m in &s.moves {
        long("a move", &m.name)?;
        many("costs of a move", m.costs.len(), &m.name)?;
        for c in &m.choices {
            long("a choice", c.name())?;
            if let ChoiceDef::Options { options, .. } = c {
                for o in options {
                    long("an option", &o.label)?;
                    many("costs of an option", o.costs.len(), &o.label)?;
                }
            }
        }
        for b in &m.bands {
            long("a band", &b.name)?;
            many("changes of a band", b.changes.len(), &b.name)?;
            many("conditions of a band", b.when.len(), &b.name)?;
        }
    }
    Ok(())
}
