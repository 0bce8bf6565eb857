//! A system file's resources at the table: whose each is, what it holds, whether a move's costs
//! fit their bounds, and the changes applied within them.

use std::collections::BTreeMap;

use super::seat::Table;
use super::{Change, Holder};
use crate::rules::Refusal;
use crate::rules::refusal::refuse;

impl Table {
    /// The value of a resource of `actor` (or the scene's).
    pub(super) fn resource_value(&self, actor: Option<usize>, name: &str) -> Option<i64> {
        let def = self.rules.resource(name)?;
        match def.per {
            Holder::Scene => self.scene.get(name).copied(),
            Holder::Character => actor.and_then(|a| self.tracks.get(a)?.get(name).copied()),
        }
    }

    /// Whose a resource is, in words before its name: "Nyx's " (nothing for the scene's).
    pub(super) fn whose(&self, per: Holder, actor: Option<usize>) -> String {
        match (per, actor) {
            (Holder::Character, Some(a)) => format!("{}'s ", self.name(a)),
            _ => String::new(),
        }
    }

    /// Whether `changes` fit their resources' bounds (costs must; refused if not).
    pub(super) fn costs_fit(
        &self,
        actor: Option<usize>,
        changes: &[Change],
    ) -> Result<(), Refusal> {
        let mut after: BTreeMap<&str, i64> = BTreeMap::new();
        for c in changes {
            let def = self
                .rules
                .resource(&c.resource)
                .ok_or_else(|| refuse!(Unknown, "no resource {}", c.resource))?;
            let now = match after.get(c.resource.as_str()) {
                Some(v) => *v,
                None => self.resource_value(actor, &c.resource).ok_or_else(|| {
                    refuse!(
                        Unknown,
                        "{} is the scene's or a character's; nobody's here",
                        c.resource
                    )
                })?,
            };
            let next = now.saturating_add(c.by);
            if next < def.least || next > def.most {
                let whose = self.whose(def.per, actor);
                return Err(refuse!(
                    Spent,
                    "{whose}{} is {now}: {} {} would take it to {next}, outside {} to {}",
                    c.resource,
                    if c.by < 0 { "spending" } else { "adding" },
                    c.by.abs(),
                    def.least,
                    def.most
                ));
            }
            after.insert(&c.resource, next);
        }
        Ok(())
    }

    /// Applies `changes`, each kept within its bounds; says what changed.
    pub(super) fn change(&mut self, actor: Option<usize>, changes: &[Change]) -> Vec<String> {
        let mut said = Vec::new();
        for c in changes {
            let Some(def) = self.rules.resource(&c.resource).cloned() else {
                continue;
            };
            let whose = self.whose(def.per, actor);
            let slot = match def.per {
                Holder::Scene => self.scene.get_mut(&c.resource),
                Holder::Character => {
                    actor.and_then(|a| self.tracks.get_mut(a)?.get_mut(&c.resource))
                }
            };
            let Some(slot) = slot else { continue };
            let before = *slot;
            let wanted = before.saturating_add(c.by);
            *slot = wanted.clamp(def.least, def.most);
            let bound = if *slot != wanted { " (its bound)" } else { "" };
            said.push(format!(
                "{whose}{} from {before} to {}{bound}",
                c.resource, *slot
            ));
        }
        said
    }
}
