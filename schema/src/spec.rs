//! What a rulebook module expects of its pack, declared by the rules crate and checked here,
//! so lint can report a misspelt param without this crate depending on the rules.
//!
//! A rules module declares one `const SPEC: RulesSpec`; the caller of the loader passes every
//! rulebook it knows as a slice (see [`crate::Loader::with_rules`]).

use grail_engine::cond::Type;

/// The id of the one generic rulebook (`rules = "rulebook"`): it reads the game description
/// in the pack (`[zones.*]`, `[actions.*]` …), so its spec lists nothing and the pack declares
/// its own params and sets.
pub const GENERIC_RULEBOOK: &str = "rulebook";

#[derive(Clone, Copy, Debug)]
pub struct RulesSpec {
    /// The id a pack names in `[pack] rules = "…"`.
    pub id: &'static str,
    /// Every param the rulebook reads; a pack must give each, and no others.
    pub params: &'static [ParamSpec],
    /// Every card set the rulebook uses; a pack must declare each. Other sets draw a warning.
    pub sets: &'static [SetSpec],
    /// Every named condition the rulebook evaluates.
    pub conditions: &'static [ConditionSpec],
}

#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    pub name: &'static str,
    pub kind: ParamKind,
    /// What the param means, for `grail` help texts and lint messages.
    pub doc: &'static str,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Int {
        min: i64,
        max: i64,
    },
    Bool,
    Text,
    /// One of these strings.
    Choice(&'static [&'static str]),
    /// An integer that may depend on the player count: a plain value, or one per count in
    /// `[params.by-players]` (read with `Pack::param_for_players`).
    ByPlayers {
        min: i64,
        max: i64,
    },
}

#[derive(Clone, Copy, Debug)]
pub struct SetSpec {
    pub id: &'static str,
    pub doc: &'static str,
}

#[derive(Clone, Copy, Debug)]
pub struct ConditionSpec {
    pub name: &'static str,
    /// A condition (`Bool`) or an integer expression (`Int`).
    pub ty: Type,
    /// The runtime arguments the rulebook passes, in order.
    pub args: &'static [&'static str],
    pub doc: &'static str,
}

impl ParamKind {
    pub fn describe(&self) -> String {
        match self {
            ParamKind::Int { min, max } => format!("an integer from {min} to {max}"),
            ParamKind::Bool => "true or false".into(),
            ParamKind::Text => "a string".into(),
            ParamKind::Choice(options) => format!("one of {}", quoted(options)),
            ParamKind::ByPlayers { min, max } => {
                format!("an integer from {min} to {max}, or one per player count")
            }
        }
    }
}

pub(crate) fn quoted(items: &[&str]) -> String {
    items
        .iter()
        .map(|s| format!("\"{s}\""))
        .collect::<Vec<_>>()
        .join(", ")
}
