//! What each rulebook expects of its pack, for the loader and `grail lint` to check.
//!
//! (Written with the pack format; the king-arthur rulebook module may take its spec over.)

use grail_engine::cond::Type;
use grail_schema::{ConditionSpec, ParamKind, ParamSpec, RulesSpec, SetSpec};

pub use crate::quests::SPEC as QUESTS;

/// Every rulebook this build knows.
pub fn catalog() -> &'static [RulesSpec] {
    &[KING_ARTHUR, QUESTS]
}

pub const KING_ARTHUR: RulesSpec = RulesSpec {
    id: "king-arthur",
    params: &[
        ParamSpec {
            name: "hand_size",
            kind: ParamKind::Int { min: 1, max: 20 },
            doc: "knight cards dealt to each player",
        },
        ParamSpec {
            name: "column_limit",
            kind: ParamKind::Int { min: 1, max: 20 },
            doc: "drawing adversaries stops when one column holds this many",
        },
        ParamSpec {
            name: "column_attribute",
            kind: ParamKind::Text,
            doc: "the adversary attribute that sorts adversaries into columns",
        },
        ParamSpec {
            name: "knight_draw",
            kind: ParamKind::Int { min: 0, max: 10 },
            doc: "knight cards drawn as the last action of a turn",
        },
        ParamSpec {
            name: "rest_draw",
            kind: ParamKind::Int { min: 0, max: 10 },
            doc: "knight cards drawn by a player who neither challenged nor took an adventure",
        },
        ParamSpec {
            name: "end_when_adventures_left",
            kind: ParamKind::Int { min: 0, max: 64 },
            doc: "the game ends at once when only this many adventures are left",
        },
        ParamSpec {
            name: "challenge_overpay",
            kind: ParamKind::Bool,
            doc: "a challenge may exceed the adversary's value (R1); false: it must match (R2)",
        },
        ParamSpec {
            name: "tiebreak_knights_in_hand",
            kind: ParamKind::Bool,
            doc: "ties go to the player with the most knight cards in hand",
        },
        ParamSpec {
            name: "seals_per_player",
            kind: ParamKind::Int { min: 0, max: 10 },
            doc: "seals each player starts with; 0 plays without seals",
        },
        ParamSpec {
            name: "double_challenge_factor",
            kind: ParamKind::Int { min: 1, max: 10 },
            doc: "a double challenge needs this many times the adversary's value",
        },
        ParamSpec {
            name: "turn_limit",
            kind: ParamKind::Int {
                min: 1,
                max: 100_000,
            },
            doc: "turns without anyone able to act after which the game ends as a stalemate",
        },
        ParamSpec {
            name: "bot_knight_worth_pct",
            kind: ParamKind::Int { min: 0, max: 1000 },
            doc: "greedy bot: points per 100 strength of knight cards in hand",
        },
        ParamSpec {
            name: "bot_ready_adventure_pct",
            kind: ParamKind::Int { min: 0, max: 1000 },
            doc: "greedy bot: percentage of the best affordable adventure's net points",
        },
    ],
    sets: &[
        SetSpec {
            id: "knights",
            doc: "the knight cards players challenge with",
        },
        SetSpec {
            id: "adversaries",
            doc: "the adversaries laid out in columns and won by challenges",
        },
        SetSpec {
            id: "adventures",
            doc: "the adventures bought with adversaries; `condition` and `points` on each",
        },
        SetSpec {
            id: "seals",
            doc: "the seals of the seal variant, one colour per player",
        },
    ],
    conditions: &[
        ConditionSpec {
            name: "challenge",
            ty: Type::Bool,
            args: &["power"],
            doc: "whether knights may challenge an adversary of the given power",
        },
        ConditionSpec {
            name: "payment_cost",
            ty: Type::Int,
            args: &[],
            doc: "what paying these adversaries costs, for choosing the cheapest payment",
        },
        ConditionSpec {
            name: "hand_score",
            ty: Type::Int,
            args: &[],
            doc: "points the adversaries in a hand score at game end",
        },
        ConditionSpec {
            name: "tiebreak",
            ty: Type::Int,
            args: &[],
            doc: "the tie-break measure of a hand of knights",
        },
    ],
};
