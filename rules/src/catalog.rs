//! What each rulebook expects of its pack, for the loader and `grail lint` to check.

use grail_engine::cond::Type;
use grail_engine::diag::Diagnostic;
use grail_schema::{ConditionSpec, Pack, ParamKind, ParamSpec, RulesSpec, SetSpec};

pub use crate::quests::SPEC as QUESTS;

/// Every rulebook this build knows.
pub fn catalog() -> &'static [RulesSpec] {
    &[VIRTUES, QUESTS, RULEBOOK]
}

/// The sets a rulebook needs that hold no card: such a pack would load, and every game of
/// it would run to its turn limit with nothing to do. (A product set is as full as its
/// factors, which are checked themselves.)
pub(crate) fn empty_sets(pack: &Pack, spec: &RulesSpec) -> Vec<Diagnostic> {
    pack.sets
        .iter()
        .filter(|set| spec.sets.iter().any(|s| s.id == set.id))
        .filter(|set| set.product.is_empty() && set.cards.iter().all(|c| c.copies == 0))
        .map(|set| {
            Diagnostic::error(
                "empty-set",
                format!(
                    "the `{}` rules need cards in set `{}`, and it has none",
                    spec.id, set.id
                ),
            )
            .at(set.loc.source, set.loc.span.clone(), "no cards")
        })
        .collect()
}

/// The generic rulebook: the pack's description declares what it reads.
pub const RULEBOOK: RulesSpec = RulesSpec {
    id: grail_schema::GENERIC_RULEBOOK,
    params: &[],
    sets: &[],
    conditions: &[],
};

pub const VIRTUES: RulesSpec = RulesSpec {
    id: "virtues",
    params: &[
        ParamSpec {
            name: "starting_virtues",
            kind: ParamKind::Int { min: 0, max: 20 },
            doc: "virtue cards each knight is dealt",
        },
        ParamSpec {
            name: "starting_quests",
            kind: ParamKind::ByPlayers { min: 0, max: 20 },
            doc: "quest cards laid out before the first turn",
        },
        ParamSpec {
            name: "crown",
            kind: ParamKind::Text,
            doc: "the treasure card that is the Crown: the king holds it; never in the deck",
        },
        ParamSpec {
            name: "honor_card",
            kind: ParamKind::Text,
            doc: "the card of the honors set that is an Honor card",
        },
        ParamSpec {
            name: "dishonor_card",
            kind: ParamKind::Text,
            doc: "the card of the honors set that is a Dishonor card",
        },
        ParamSpec {
            name: "bestow_cards",
            kind: ParamKind::ByPlayers { min: 0, max: 5 },
            doc: "honor or dishonor cards the king bestows once per turn (0: he does not)",
        },
        ParamSpec {
            name: "pray_draw",
            kind: ParamKind::Int { min: 1, max: 5 },
            doc: "virtue cards a prayer draws",
        },
        ParamSpec {
            name: "pray_aid_draw",
            kind: ParamKind::ByPlayers { min: 0, max: 5 },
            doc: "more virtue cards a prayer draws when the knight discards a prayer aid",
        },
        ParamSpec {
            name: "tax_draw",
            kind: ParamKind::Int { min: 0, max: 5 },
            doc: "treasure cards drawn by taxing",
        },
        ParamSpec {
            name: "feast_offers",
            kind: ParamKind::ByPlayers { min: 0, max: 20 },
            doc: "offers each knight may make in one feast",
        },
        ParamSpec {
            name: "joust_prizes",
            kind: ParamKind::ByPlayers { min: 0, max: 1 },
            doc: "treasures each knight not on a quest may put up as a joust prize",
        },
        ParamSpec {
            name: "duel_questing_knights",
            kind: ParamKind::Bool,
            doc: "whether a knight on a quest may be challenged to a duel",
        },
        ParamSpec {
            name: "joust_prize_from_deck",
            kind: ParamKind::Bool,
            doc: "whether a joust prize is drawn from the treasure deck (else put up from one's hand)",
        },
        ParamSpec {
            name: "ending_margin",
            kind: ParamKind::Int { min: -10, max: 50 },
            doc: "how far beyond the number of players the honor balance must go to end the game",
        },
        ParamSpec {
            name: "sin_multiplier",
            kind: ParamKind::Int { min: 1, max: 10 },
            doc: "what a treasure paired with a Sin card is worth, in multiples, when Camelot falls",
        },
        ParamSpec {
            name: "turn_limit",
            kind: ParamKind::Int {
                min: 1,
                max: 100_000,
            },
            doc: "turns after which the game ends as if the quest deck ran out (a safety cap)",
        },
        ParamSpec {
            name: "bot_virtue_pct",
            kind: ParamKind::Int { min: 0, max: 1000 },
            doc: "greedy bot: a virtue card in hand, in hundredths of a point",
        },
        ParamSpec {
            name: "bot_ready_quest_pct",
            kind: ParamKind::Int { min: 0, max: 1000 },
            doc: "greedy bot: share of a completable quest's reward it counts",
        },
        ParamSpec {
            name: "bot_prospect_pct",
            kind: ParamKind::Int { min: 0, max: 1000 },
            doc: "greedy bot: share of a quest's reward it counts per card it lacks less",
        },
        ParamSpec {
            name: "bot_other_quests_pct",
            kind: ParamKind::Int { min: 0, max: 1000 },
            doc: "greedy bot: share of the prospect of quests in reach other than its best one",
        },
        ParamSpec {
            name: "bot_win_pct",
            kind: ParamKind::Int { min: 0, max: 1000 },
            doc: "greedy bot: how much its estimated share of a win counts (100: a win is 100 points)",
        },
        ParamSpec {
            name: "bot_loyalty_pct",
            kind: ParamKind::Int { min: 0, max: 1000 },
            doc: "greedy bot: worth of each point of the kingdom's honor balance at the start (fading as the quest deck runs out)",
        },
        ParamSpec {
            name: "bot_lead_spread",
            kind: ParamKind::Int { min: 0, max: 100 },
            doc: "greedy bot: how many points of a lead are uncertain at the start of the game",
        },
        ParamSpec {
            name: "bot_death_cost",
            kind: ParamKind::Int { min: 0, max: 1000 },
            doc: "greedy bot: points that dying costs",
        },
    ],
    sets: &[
        SetSpec {
            id: "virtues",
            doc: "the virtue cards: dealt, prayed for, presented, shown in jousts and duels",
        },
        SetSpec {
            id: "treasures",
            doc: "the treasures, with `points`, and the Crown",
        },
        SetSpec {
            id: "honors",
            doc: "the face-up supply of Honor and Dishonor cards, with `points`",
        },
        SetSpec {
            id: "quests",
            doc: "the quests: `condition` over the virtues, `trials`, `knights`, reward and penalty `effects`",
        },
        SetSpec {
            id: "trials",
            doc: "the trial deck: `condition` over the virtues and `effects`",
        },
    ],
    conditions: &[
        ConditionSpec {
            name: "joust_card",
            ty: Type::Bool,
            args: &[],
            doc: "whether a virtue card opens and answers a joust round (tested card by card)",
        },
        ConditionSpec {
            name: "duel_card",
            ty: Type::Bool,
            args: &[],
            doc: "whether a virtue card opens and answers a duel round (tested card by card)",
        },
        ConditionSpec {
            name: "prayer_aid",
            ty: Type::Bool,
            args: &[],
            doc: "whether a virtue card may be discarded in a prayer to draw more (card by card)",
        },
        ConditionSpec {
            name: "sin_pairs",
            ty: Type::Int,
            args: &[],
            doc: "how many of a hand's treasures score multiplied when Camelot falls",
        },
    ],
};
