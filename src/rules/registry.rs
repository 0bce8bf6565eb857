//! The one list of rulesets, made into the program's types.
//!
//! `rules/mod.rs` calls `rulesets!` once with every ruleset: its module, its variant name and
//! its id. From that list come the ruleset's module, [`super::RulesetId`], the [`super::Rulebook`]
//! of every rule file, and the enums that carry one ruleset's value through code that knows no
//! ruleset: [`super::Cast`], [`super::SceneRules`], [`super::TableState`], [`super::Move`] and
//! [`super::AnyAction`]. Code that needs the ruleset behind such a value matches it with
//! `each_of!` (or `paired!`, `each_table!`) or dispatches an id with `for_ruleset!`, and calls the ruleset's
//! [`super::ruleset::Ruleset`] and [`super::play::Seat`] implementations: no code outside a
//! ruleset's folder names a ruleset (`tests/dicetable/architecture.rs` counts).

/// Declares every ruleset from one list; each entry is
/// `/// doc` `module::Variant = "id"`, where `module::Variant` implements
/// [`super::ruleset::Ruleset`].
macro_rules! rulesets {
    (@with ($d:tt) $( $(#[$doc:meta])* $module:ident :: $Variant:ident = $id:literal ),+ $(,)?) => {
        /// The rulesets, by the ids used in the CLI, the RON files and the UI.
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
            serde::Serialize, serde::Deserialize,
        )]
        pub enum RulesetId {
            $( $(#[$doc])* #[serde(rename = $id)] $Variant, )+
        }

        impl RulesetId {
            /// Every ruleset, in the order of the list (the order the docs list them).
            pub const ALL: [RulesetId; [$($id),+].len()] = [$(RulesetId::$Variant),+];

            /// The id as written in files and on the command line.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( RulesetId::$Variant => $id, )+
                }
            }
        }

        /// The rule files of every ruleset, each field named as the ruleset's module.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Rulebook {
            $(
                #[doc = concat!("`assets/rules/", $id, ".ron`")]
                pub $module: <$module::$Variant as $crate::rules::ruleset::Ruleset>::Rules,
            )+
        }

        impl Rulebook {
            /// Reads each ruleset's rules from the text `text_of` gives for it (its file's
            /// name for errors, and the text).
            pub(crate) fn read_each(
                mut text_of: impl FnMut(RulesetId) -> Result<(String, std::borrow::Cow<'static, str>), $crate::rules::data::DataError>,
            ) -> Result<Rulebook, $crate::rules::data::DataError> {
                Ok(Rulebook {
                    $(
                        $module: {
                            let (name, text) = text_of(RulesetId::$Variant)?;
                            $crate::rules::data::parse_ron(&name, &text)?
                        },
                    )+
                })
            }
        }

        /// The characters of a scene, by ruleset.
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        pub enum Cast {
            $(
                #[doc = concat!("`", $id, "` characters.")]
                $Variant(Vec<<$module::$Variant as $crate::rules::ruleset::Ruleset>::Character>),
            )+
        }

        /// A scene's own rules: a file of the ruleset's rules (as `assets/rules/<ruleset>.ron`),
        /// or those rules written in the scene. A scene read from a file has its file's rules
        /// read into it, so it carries them wherever it goes (a room's log, a record).
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        pub enum SceneRules {
            /// A rules file, its path relative to the scene file's folder.
            File(String),
            $(
                #[doc = concat!("`", $id, "` rules.")]
                $Variant(<$module::$Variant as $crate::rules::ruleset::Ruleset>::Rules),
            )+
        }

        /// The turn economy of a scene: one ruleset's table.
        #[derive(Clone, Debug, PartialEq)]
        pub enum TableState {
            $(
                #[doc = concat!("A table of `", $id, "`.")]
                $Variant(Box<<$module::$Variant as $crate::rules::ruleset::Ruleset>::Table>),
            )+
        }

        /// One move at the table, of one ruleset.
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
        pub enum Move {
            $(
                #[doc = concat!("A move of `", $id, "`.")]
                $Variant($crate::rules::ruleset::MoveOf<$module::$Variant>),
            )+
        }

        /// An action of any ruleset, outside a table.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum AnyAction {
            $(
                #[doc = concat!("An action of `", $id, "`.")]
                $Variant(<$module::$Variant as $crate::rules::ruleset::Ruleset>::Action),
            )+
        }

        $(
            impl $module::$Variant {
                /// This ruleset's rules in a rulebook.
                pub(crate) fn rules_in(book: &Rulebook) -> &<Self as $crate::rules::ruleset::Ruleset>::Rules {
                    &book.$module
                }

                /// This ruleset's rules in a rulebook, to put a scene's own in their place.
                pub(crate) fn rules_in_mut(book: &mut Rulebook) -> &mut <Self as $crate::rules::ruleset::Ruleset>::Rules {
                    &mut book.$module
                }

                /// This ruleset's rules as a scene's own.
                pub(crate) fn wrap_rules(rules: <Self as $crate::rules::ruleset::Ruleset>::Rules) -> SceneRules {
                    SceneRules::$Variant(rules)
                }

                /// This ruleset's table as the table of a scene.
                pub(crate) fn wrap_table(table: <Self as $crate::rules::ruleset::Ruleset>::Table) -> TableState {
                    TableState::$Variant(Box::new(table))
                }

                /// This ruleset's action as an action of any ruleset.
                pub(crate) fn wrap_action(action: <Self as $crate::rules::ruleset::Ruleset>::Action) -> AnyAction {
                    AnyAction::$Variant(action)
                }
            }
        )+

        /// Runs `body` with `R` the ruleset of an id:
        /// `for_ruleset!(id, |R| R::EXAMPLE_ACTION)`.
        macro_rules! for_ruleset {
            ($d which:expr, |$d R:ident| $d body:expr) => {
                match $d which {
                    $(
                        $crate::rules::RulesetId::$Variant => {
                            #[allow(unused)]
                            type $d R = $crate::rules::$module::$Variant;
                            $d body
                        }
                    )+
                }
            };
        }

        /// Matches a value of one of the enums of rulesets (`Cast`, `SceneRules`,
        /// `TableState`, `Move`, `AnyAction`), running `body` with `x` its ruleset's value, `R`
        /// the ruleset and `id` its id:
        /// `each_of!(Cast, &scene.cast, |cast, R, id| ...)`. `else pattern => expr` answers
        /// a variant of no ruleset (`SceneRules::File`).
        macro_rules! each_of {
            ($d E:ident, $d value:expr, |$d x:ident, $d R:ident, $d id:ident| $d body:expr $d(, else $d rest:pat => $d other:expr)?) => {
                match $d value {
                    $(
                        $crate::rules::$d E::$Variant($d x) => {
                            #[allow(unused)]
                            type $d R = $crate::rules::$module::$Variant;
                            #[allow(unused)]
                            let $d id = $crate::rules::RulesetId::$Variant;
                            $d body
                        }
                    )+
                    $d( $d rest => $d other, )?
                }
            };
        }

        /// Pairs a table with a move of its own ruleset and runs `body` on the pair, with `R`
        /// the ruleset and `wrap` the function that makes the ruleset's move a [`Move`]; a move
        /// of another ruleset (a script written for another scene) is
        /// `RulesError::OtherRuleset`.
        macro_rules! paired {
            ($d state:expr, $d m:expr, |$d t:ident, $d mv:ident, $d R:ident| $d body:expr) => {
                match ($d state, $d m) {
                    $(
                        ($crate::rules::TableState::$Variant($d t), $crate::rules::Move::$Variant($d mv)) => {
                            #[allow(unused)]
                            type $d R = $crate::rules::$module::$Variant;
                            $d body
                        }
                    )+
                    #[allow(unreachable_patterns)]
                    (t, m) => Err($crate::rules::RulesError::OtherRuleset {
                        mv: m.ruleset(),
                        table: t.ruleset(),
                    }),
                }
            };
        }

        /// Runs `body` on the table of whatever ruleset, with `wrap` the function that makes
        /// its move a [`Move`]: `each_table!(state, |t, wrap| t.end_turn_move().map(wrap))`.
        macro_rules! each_table {
            ($d state:expr, |$d t:ident, $d wrap:ident| $d body:expr) => {
                match $d state {
                    $(
                        $crate::rules::TableState::$Variant($d t) => {
                            #[allow(unused)]
                            let $d wrap = $crate::rules::Move::$Variant;
                            $d body
                        }
                    )+
                }
            };
        }

        $( pub mod $module; )+
    };
    ($($list:tt)+) => {
        rulesets!(@with ($) $($list)+);
    };
}
