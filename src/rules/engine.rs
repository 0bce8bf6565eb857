//! One door into the rulesets: load their rule files into a [`Rulebook`], parse an action
//! for any ruleset id into an [`AnyAction`], then check, plan, price and resolve it.

use std::borrow::Cow;
use std::path::Path;

use super::data::{DataError, parse_ron, rules_file_name};
use super::ruleset::Ruleset;
use super::scene::SceneRules;
use super::{Odds, Refusal, RollPlan, RulesError, RulesetId, Step};

pub use super::{AnyAction, Rulebook};

/// The shipped rule file of a ruleset, as compiled in.
pub fn builtin_rules_text(id: RulesetId) -> &'static str {
    for_ruleset!(id, |R| R::SHIPPED_RULES)
}

/// Parses the compiled-in rule file of a ruleset.
pub fn builtin_rules<T: serde::de::DeserializeOwned>(id: RulesetId) -> Result<T, DataError> {
    parse_ron(&rules_file_name(id), builtin_rules_text(id))
}

impl Rulebook {
    /// The shipped rule files, compiled in: read once per process (rooms opening, a scene
    /// panel saying how its rules differ, each frame), then copied.
    pub fn builtin() -> Result<Self, DataError> {
        static SHIPPED: std::sync::OnceLock<Result<Rulebook, DataError>> =
            std::sync::OnceLock::new();
        SHIPPED
            .get_or_init(|| {
                Rulebook::read_each(|id| {
                    Ok((rules_file_name(id), Cow::Borrowed(builtin_rules_text(id))))
                })?
                .validated(rules_file_name)
            })
            .clone()
    }

    /// Checks the rules that RON cannot (ranges, tables); errors name the file.
    fn validated(self, file: impl Fn(RulesetId) -> String) -> Result<Self, DataError> {
        for id in RulesetId::ALL {
            SceneRules::shipped(&self, id)
                .validate()
                .map_err(|e| DataError::whole(&file(id), e.text))?;
        }
        Ok(self)
    }

    /// Reads `<dir>/<id>.ron` for every ruleset (a table's own edited rules).
    pub fn load_dir(dir: &Path) -> Result<Self, DataError> {
        let file = |id: RulesetId| dir.join(format!("{id}.ron"));
        Rulebook::read_each(|id| {
            let path = file(id);
            let name = path.display().to_string();
            let text = std::fs::read_to_string(&path)
                .map_err(|e| DataError::whole(&name, format!("cannot read: {e}")))?;
            Ok((name, Cow::Owned(text)))
        })?
        .validated(|id| file(id).display().to_string())
    }

    /// The file name each ruleset's rules come from, for messages.
    pub fn file_of(id: RulesetId) -> String {
        rules_file_name(id)
    }
}

impl AnyAction {
    /// Parses the action RON of a ruleset; errors name `--action`, the line and column.
    pub fn parse(id: RulesetId, text: &str) -> Result<AnyAction, DataError> {
        let name = format!("--action for {id}");
        Ok(for_ruleset!(id, |R| R::wrap_action(parse_ron(
            &name, text
        )?)))
    }

    /// Each ruleset's default (example) action, as written in `docs/command-line.md`.
    pub fn example(id: RulesetId) -> &'static str {
        for_ruleset!(id, |R| R::EXAMPLE_ACTION)
    }

    /// The ruleset this action belongs to.
    pub fn id(&self) -> RulesetId {
        each_of!(AnyAction, self, |_a, R, id| id)
    }

    /// Whether the action may be taken, and if not, why.
    pub fn check(&self, book: &Rulebook) -> Result<(), RulesError> {
        each_of!(AnyAction, self, |a, R, _id| R::check_action(
            a,
            R::rules_in(book)
        ))
        .map_err(RulesError::from)
    }

    /// The first throw.
    pub fn plan(&self, book: &Rulebook) -> Result<RollPlan, RulesError> {
        self.check(book)?;
        each_of!(AnyAction, self, |a, R, _id| R::plan_action(
            a,
            R::rules_in(book)
        ))
        .map_err(RulesError::from)
    }

    /// The exact odds (also for an action not allowed now: the odds say what it would be).
    pub fn odds(&self, book: &Rulebook) -> Result<Odds, RulesError> {
        each_of!(AnyAction, self, |a, R, _id| R::action_odds(
            a,
            R::rules_in(book)
        ))
        .map_err(RulesError::from)
    }

    /// Reads every throw so far (the first plan's faces, then each follow-up's).
    pub fn resolve(&self, book: &Rulebook, throws: &[Vec<u32>]) -> Result<Step, RulesError> {
        let read: Result<Step, Refusal> = each_of!(AnyAction, self, |a, R, _id| {
            R::resolve_action(a, R::rules_in(book), throws)
        });
        read.map_err(RulesError::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_rulebook_loads_and_matches_the_asset_files() {
        let book = Rulebook::builtin().unwrap_or_else(|e| panic!("{e}"));
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rules");
        if dir.is_dir() {
            assert_eq!(
                Rulebook::load_dir(&dir).unwrap_or_else(|e| panic!("{e}")),
                book
            );
        }
    }

    #[test]
    fn rules_that_parse_but_make_no_sense_are_refused() {
        let mut book = Rulebook::builtin().unwrap_or_else(|e| panic!("{e}"));
        book.d20_check.resource_chain = vec![crate::rules::Die(8), crate::rules::Die(6)];
        let err = book
            .clone()
            .validated(rules_file_name)
            .expect_err("must fail");
        assert_eq!(err.file, "assets/rules/d20-check.ron");
        let mut book = Rulebook::builtin().unwrap_or_else(|e| panic!("{e}"));
        book.open_d6.friction.pop();
        let err = book.validated(rules_file_name).expect_err("must fail");
        assert!(err.message.contains("face 6"), "{err}");
    }

    #[test]
    fn every_example_action_parses_plans_and_has_odds() {
        let book = Rulebook::builtin().unwrap_or_else(|e| panic!("{e}"));
        for id in RulesetId::ALL {
            let action =
                AnyAction::parse(id, AnyAction::example(id)).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(action.id(), id);
            let plan = action.plan(&book).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert!(!plan.dice.is_empty());
            let odds = action.odds(&book).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert!(odds.p_success.is_some(), "{id} has a success chance");
        }
    }

    #[test]
    fn bad_action_ron_names_the_place() {
        let err = AnyAction::parse(
            RulesetId::OpenD6,
            "(roll: Sideways, skill: 10, difficulty: 13)",
        )
        .expect_err("must fail");
        assert_eq!(err.line, 1);
        assert!(err.to_string().contains("Sideways"), "{err}");
        let err = AnyAction::parse(RulesetId::D4Pool, "(aspect: 4, target: Dc(\"x\"))")
            .expect_err("must fail");
        assert!(err.column > 1, "{err}");
    }

    #[test]
    fn resolve_checks_the_number_of_throws() {
        let book = Rulebook::builtin().unwrap_or_else(|e| panic!("{e}"));
        let a = AnyAction::parse(RulesetId::D20Check, AnyAction::example(RulesetId::D20Check))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(a.resolve(&book, &[]).is_err());
        assert!(a.resolve(&book, &[vec![3, 4], vec![1]]).is_err());
        assert!(matches!(
            a.resolve(&book, &[vec![3, 19]]),
            Ok(Step::Done(_))
        ));
    }
}
