//! One door into the five rulesets: load their rule files into a [`Rulebook`], parse an action
//! for any ruleset id into an [`AnyAction`], then check, plan, price and resolve it.

use crate::rules::Refusal;
use crate::rules::refusal::refuse;
use std::path::Path;

use super::data::{DataError, builtin_rules, load_ron, parse_ron, rules_file_name};
use super::scene::SceneRules;
use super::{
    Odds, RollPlan, RulesError, RulesetId, Step, action_dice, d4_pool, d20_check, open_d6,
    step_dice,
};

/// The rule files of all five rulesets.
#[derive(Clone, Debug, PartialEq)]
pub struct Rulebook {
    /// `assets/rules/d4-pool.ron`
    pub d4_pool: d4_pool::Rules,
    /// `assets/rules/action-dice.ron`
    pub action_dice: action_dice::Rules,
    /// `assets/rules/step-dice.ron`
    pub step_dice: step_dice::Rules,
    /// `assets/rules/open-d6.ron`
    pub open_d6: open_d6::Rules,
    /// `assets/rules/d20-check.ron`
    pub d20_check: d20_check::Rules,
}

impl Rulebook {
    /// The shipped rule files, compiled in: read once per process (rooms opening, a scene
    /// panel saying how its rules differ, each frame), then copied.
    pub fn builtin() -> Result<Self, DataError> {
        static SHIPPED: std::sync::OnceLock<Result<Rulebook, DataError>> =
            std::sync::OnceLock::new();
        SHIPPED
            .get_or_init(|| {
                Rulebook {
                    d4_pool: builtin_rules(RulesetId::D4Pool)?,
                    action_dice: builtin_rules(RulesetId::ActionDice)?,
                    step_dice: builtin_rules(RulesetId::StepDice)?,
                    open_d6: builtin_rules(RulesetId::OpenD6)?,
                    d20_check: builtin_rules(RulesetId::D20Check)?,
                }
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
        Rulebook {
            d4_pool: load_ron(&file(RulesetId::D4Pool))?,
            action_dice: load_ron(&file(RulesetId::ActionDice))?,
            step_dice: load_ron(&file(RulesetId::StepDice))?,
            open_d6: load_ron(&file(RulesetId::OpenD6))?,
            d20_check: load_ron(&file(RulesetId::D20Check))?,
        }
        .validated(|id| file(id).display().to_string())
    }

    /// The file name each ruleset's rules come from, for messages.
    pub fn file_of(id: RulesetId) -> String {
        rules_file_name(id)
    }
}

/// An action of any ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyAction {
    /// A `d4-pool` action.
    D4Pool(d4_pool::Action),
    /// An `action-dice` action.
    ActionDice(action_dice::Action),
    /// A `step-dice` action roll.
    StepDice(step_dice::Action),
    /// An `open-d6` check.
    OpenD6(open_d6::Action),
    /// A `d20-check` check or resource use.
    D20Check(d20_check::Action),
}

impl AnyAction {
    /// Parses the action RON of a ruleset; errors name `--action`, the line and column.
    pub fn parse(id: RulesetId, text: &str) -> Result<AnyAction, DataError> {
        let name = format!("--action for {id}");
        Ok(match id {
            RulesetId::D4Pool => AnyAction::D4Pool(parse_ron(&name, text)?),
            RulesetId::ActionDice => AnyAction::ActionDice(parse_ron(&name, text)?),
            RulesetId::StepDice => AnyAction::StepDice(parse_ron(&name, text)?),
            RulesetId::OpenD6 => AnyAction::OpenD6(parse_ron(&name, text)?),
            RulesetId::D20Check => AnyAction::D20Check(parse_ron(&name, text)?),
        })
    }

    /// Each ruleset's default (example) action, as written in `docs/command-line.md`.
    pub fn example(id: RulesetId) -> &'static str {
        match id {
            RulesetId::D4Pool => {
                r#"(aspect: 4, load: 1, advantages: ["torch"], disadvantages: ["dark"], extra: ["d8"], target: Dc(12))"#
            }
            RulesetId::ActionDice => {
                "(kind: Skill, action_dice: 2, dice: 3, extra: 0, two_die: false, target: Some(15))"
            }
            RulesetId::StepDice => {
                r#"(ability: ["d8", "d6"], difficulty: "Hard", position: Advantage)"#
            }
            RulesetId::OpenD6 => "(roll: Standard, skill: 10, difficulty: 13)",
            RulesetId::D20Check => "(proficiency: 3, modifier: 2, dc: 15, edge: Advantage)",
        }
    }

    /// The ruleset this action belongs to.
    pub fn id(&self) -> RulesetId {
        match self {
            AnyAction::D4Pool(_) => RulesetId::D4Pool,
            AnyAction::ActionDice(_) => RulesetId::ActionDice,
            AnyAction::StepDice(_) => RulesetId::StepDice,
            AnyAction::OpenD6(_) => RulesetId::OpenD6,
            AnyAction::D20Check(_) => RulesetId::D20Check,
        }
    }

    /// Whether the action may be taken, and if not, why.
    pub fn check(&self, book: &Rulebook) -> Result<(), RulesError> {
        self.reason(book).map_err(RulesError::from)
    }

    fn reason(&self, book: &Rulebook) -> Result<(), Refusal> {
        match self {
            AnyAction::D4Pool(a) => a.check(&book.d4_pool),
            AnyAction::ActionDice(a) => a.check(),
            AnyAction::StepDice(a) => a.check(&book.step_dice),
            AnyAction::OpenD6(_) => Ok(()),
            AnyAction::D20Check(a) => a.check(&book.d20_check),
        }
    }

    /// The first throw.
    pub fn plan(&self, book: &Rulebook) -> Result<RollPlan, RulesError> {
        self.check(book)?;
        let plan = match self {
            AnyAction::D4Pool(a) => Ok(a.plan(&book.d4_pool)),
            AnyAction::ActionDice(a) => Ok(a.plan(&book.action_dice)),
            AnyAction::StepDice(a) => a.plan(&book.step_dice),
            AnyAction::OpenD6(a) => Ok(a.plan()),
            AnyAction::D20Check(a) => a.plan(&book.d20_check),
        };
        plan.map_err(RulesError::from)
    }

    /// The exact odds (also for an action not allowed now: the odds say what it would be).
    pub fn odds(&self, book: &Rulebook) -> Result<Odds, RulesError> {
        let odds = match self {
            AnyAction::D4Pool(a) => Ok(a.odds(&book.d4_pool)),
            AnyAction::ActionDice(a) => a.check().map(|()| a.odds(&book.action_dice)),
            AnyAction::StepDice(a) => a.odds(&book.step_dice),
            AnyAction::OpenD6(a) => Ok(a.odds()),
            AnyAction::D20Check(a) => a.odds(&book.d20_check),
        };
        odds.map_err(RulesError::from)
    }

    /// Reads every throw so far (the first plan's faces, then each follow-up's).
    pub fn resolve(&self, book: &Rulebook, throws: &[Vec<u32>]) -> Result<Step, RulesError> {
        self.read(book, throws).map_err(RulesError::from)
    }

    fn read(&self, book: &Rulebook, throws: &[Vec<u32>]) -> Result<Step, Refusal> {
        let single = || -> Result<&[u32], Refusal> {
            match throws {
                [one] => Ok(one.as_slice()),
                [] => Err(refuse!(Faces, "no dice have been thrown yet")),
                _ => Err(refuse!(
                    Faces,
                    "{} throws for an action of one throw",
                    throws.len()
                )),
            }
        };
        match self {
            AnyAction::D4Pool(a) => a.resolve(&book.d4_pool, single()?),
            AnyAction::ActionDice(a) => a.resolve(&book.action_dice, single()?),
            AnyAction::StepDice(a) => a.resolve(&book.step_dice, single()?),
            AnyAction::OpenD6(a) => a.resolve(&book.open_d6, throws),
            AnyAction::D20Check(a) => a.resolve(&book.d20_check, single()?),
        }
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
