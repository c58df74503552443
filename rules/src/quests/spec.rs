//! What the quests rulebook expects of its pack.

use grail_schema::{ParamKind, ParamSpec, RulesSpec, SetSpec};

const fn int(name: &'static str, min: i64, max: i64, doc: &'static str) -> ParamSpec {
    ParamSpec {
        name,
        kind: ParamKind::Int { min, max },
        doc,
    }
}

const fn flag(name: &'static str, doc: &'static str) -> ParamSpec {
    ParamSpec {
        name,
        kind: ParamKind::Bool,
        doc,
    }
}

pub const SPEC: RulesSpec = RulesSpec {
    id: "quests",
    params: &[
        int("hand_size", 0, 60, "adventure cards dealt to each player"),
        int("hand_limit", 1, 60, "the most cards a player may hold"),
        int(
            "quest_draw",
            0,
            10,
            "cards each questor draws before the quest begins",
        ),
        int(
            "stage_draw",
            0,
            10,
            "cards drawn by each survivor of a foe stage and by a test's winner",
        ),
        int(
            "sponsor_draw_per_stage",
            0,
            10,
            "after a quest the sponsor draws the cards he used plus this many per stage",
        ),
        int(
            "shields_per_stage",
            0,
            10,
            "shields per stage for each player who completes a quest",
        ),
        int("tests_per_quest", 0, 8, "the most tests in one quest"),
        int(
            "amours_per_quest",
            0,
            10,
            "the most Amours a player may play per quest or tournament",
        ),
        int(
            "weapon_copies",
            1,
            10,
            "the most weapons of one type on a foe, or from a player per stage or round",
        ),
        int(
            "lone_min_bid",
            0,
            60,
            "the lone questor's bid on a test that prints no minimum",
        ),
        int(
            "opening_min_bid",
            0,
            60,
            "the least first bid in competitive bidding on a test that prints no minimum",
        ),
        ParamSpec {
            name: "test_bidding",
            kind: ParamKind::Choice(&["one-pass", "until-one-left"]),
            doc: "one pass of bids from the sponsor's left, or around until one bidder is left",
        },
        int(
            "tournament_min_entrants",
            1,
            32,
            "a tournament is held with at least this many entrants",
        ),
        int("tournament_draw", 0, 10, "cards each entrant draws"),
        int(
            "shields_per_entrant",
            0,
            10,
            "the tournament winner's shields per entrant (plus the card's bonus)",
        ),
        int(
            "tiebreak_rounds",
            0,
            10,
            "extra rounds the tied players of a tournament play",
        ),
        flag(
            "final_tournament",
            "players who become Knights of the Round Table in one turn play a final tournament",
        ),
        flag(
            "allies_during_tests",
            "a bidder may put allies from hand into play at his turn to bid",
        ),
        flag(
            "amour_during_tests",
            "a bidder may put an Amour from hand into play at his turn to bid",
        ),
        flag(
            "partner_same_player",
            "a situational value counts only allies in the same player's area",
        ),
        ParamSpec {
            name: "next_turn_after_quest",
            kind: ParamKind::Choice(&["sponsor-left", "drawer-left"]),
            doc: "whose turn follows a sponsored quest",
        },
        int(
            "turn_limit",
            1,
            1_000_000,
            "turns after which the game ends without a winner (a simulation guard)",
        ),
        int(
            "bot_shield_worth",
            0,
            100_000,
            "greedy bot: worth of a shield it earns, in hundredths of a card",
        ),
        int(
            "bot_opponent_shield_worth",
            0,
            100_000,
            "greedy bot: worth of a shield an opponent earns, counted against it",
        ),
        int(
            "bot_card_worth",
            0,
            100_000,
            "greedy bot: worth of a card in hand",
        ),
        int(
            "bot_bp_worth",
            0,
            100_000,
            "greedy bot: extra worth of a card in hand per battle point",
        ),
        int(
            "bot_beaten_pct",
            0,
            100,
            "greedy bot: the chance it gives a foe stage it has committed enough to beat",
        ),
        int(
            "bot_ally_bp_worth",
            0,
            100_000,
            "greedy bot: worth of an ally in play per battle point",
        ),
        int(
            "bot_ally_bid_worth",
            0,
            100_000,
            "greedy bot: worth of an ally in play per free bid",
        ),
    ],
    sets: &[
        SetSpec {
            id: "adventure",
            doc: "the Adventure deck: `kind` (weapon, foe, test, ally, amour), `bp`, `bids`, `min_bid`; overrides over `when_over`",
        },
        SetSpec {
            id: "story",
            doc: "the Story deck: `kind` (quest, tournament, event), quests' `stages`, tournaments' `bonus`, events' `effects`",
        },
        SetSpec {
            id: "ranks",
            doc: "the rank cards in rank order: `bp` and the `shields` to advance",
        },
    ],
    conditions: &[],
};
