//! `grail lint` on packs that load but that their rulebook refuses to compile: broken Artus
//! boards and cards (a plate missing, a Prince off the board, a ring card with no Prince to
//! crown, a card no action plays), Artus mods whose plate positions or Knight counts by player
//! count do not add up, or that break what the rule text takes for granted (`[checks.*]`:
//! rounds that do not use up the cards, a ring supply that can run dry), King Arthur and
//! Quests mods the rules cannot play (hands the cards cannot fill, effects and overrides the
//! rules do not have), and game descriptions for the generic rulebook with misspelt names and
//! mixed-up kinds. Each mistake is one error, where it is made or where the description reads
//! it.
//! Fixtures in `tests/lint/`, each a mod extending a bundled pack (one folder per rulebook
//! mistake, so a port of a game onto the generic rulebook can adapt them one by one) or a
//! small game of its own; snapshots of what lint prints.

use std::path::Path;

use grail_cli::render;

/// Lints the fixture as `grail lint` does (load, then compile with the rulebook); asserts the
/// codes and snapshots the text.
fn check(case: &str, codes: &[&str]) {
    let loaded = lint_case(case, codes);
    assert!(
        loaded.pack.is_none(),
        "a pack the rulebook refuses is an error"
    );
}

/// [`check`] for findings that are warnings: the pack is still played.
fn check_warned(case: &str, codes: &[&str]) {
    let loaded = lint_case(case, codes);
    assert!(loaded.pack.is_some(), "warnings leave the pack usable");
}

fn lint_case(case: &str, codes: &[&str]) -> grail_schema::Loaded {
    // Paths relative to this crate (the test's working directory), so snapshots read the same
    // on every machine.
    let reports = grail_cli::lint::lint(
        &[Path::new("lint").join(case)],
        &grail_cli::content::Content::folder("../content"),
    );
    let loaded = &reports[0].loaded;
    let mut found: Vec<&str> = loaded.diagnostics.iter().map(|d| d.code).collect();
    found.sort();
    found.dedup();
    let text = render::to_string(&loaded.sources, &loaded.diagnostics);
    assert_eq!(found, codes, "codes reported for `{case}`:\n{text}");
    insta::assert_snapshot!(case, text);
    reports.into_iter().next().unwrap().loaded
}

/// A ring needs one plate per seat: one error at the plates, not one per read of a plate.
#[test]
fn a_plate_missing() {
    check("artus-plate-missing", &["board-mismatch"]);
}

/// Plates sit by `position`; a mod that puts two plates on one position and leaves another
/// empty is refused where it does so.
#[test]
fn two_plates_on_one_position() {
    check(
        "artus-plate-position",
        &["duplicate-position", "missing-position"],
    );
}

/// A mod that allows five players must say how many Knights each takes with five.
#[test]
fn a_player_count_without_its_knights() {
    check("artus-five-uncounted", &["missing-player-count"]);
}

/// Each figure that does not fit is named at its card.
#[test]
fn princes_off_the_board_or_on_one_seat() {
    check("artus-prince-off-board", &["no-such-seat", "seat-taken"]);
}

/// Artus' `[checks.cards-played]`, made at the end of random games.
#[test]
fn rounds_that_leave_cards_unplayed() {
    check("artus-rounds", &["check-failed"]);
}

/// A pack of before plates had positions: one `missing-position` at the first plate, nothing
/// else that reads the plates; and a card's `effects`, which a description never reads.
#[test]
fn plates_without_positions_and_effects_nothing_reads() {
    check(
        "ring-plates-unpositioned",
        &["missing-position", "unused-field"],
    );
}

/// A mod's advanced game without the scoring pile its base now fills: the error also points
/// at the zone the check reads that no card can ever reach.
#[test]
fn an_advanced_game_missing_the_zone_its_base_fills() {
    check("artus-old-advanced", &["check-failed"]);
}

/// A card whose attributes promise a distance its action never lists: one `unreachable` at
/// the action's `steps`, pointing at the mod's `high = 9`.
#[test]
fn a_card_that_rides_further_than_its_action() {
    check("artus-long-ride", &["unreachable"]);
}

/// A param given per player count where one number for every count is read (a zone's
/// `marks`): refused where it is read.
#[test]
fn seals_given_per_player_count() {
    check("seals-by-players", &["param-type"]);
}

/// The same with `rounds` given per player count: the end reads the count's value, and the
/// note points at the mod's `[params.by-players]`.
#[test]
fn rounds_by_player_count_that_leave_cards_unplayed() {
    check("artus-rounds-by-players", &["check-failed"]);
}

/// What cards do is their attributes, read by the guards: an attribute misspelt in a guard
/// (did-you-mean), and a card that chooses Knights by its condition without one.
#[test]
fn broken_card_effects() {
    check("artus-effects", &["missing-condition", "unknown-attribute"]);
}

/// ... and one round too many: the last has no card to play.
#[test]
fn rounds_with_nothing_left_to_play() {
    check("artus-too-many-rounds", &["check-failed"]);
}

/// A game that never ends cannot have its end checked: said at the check, not passed over.
#[test]
fn a_check_at_an_end_never_reached() {
    check("rulebook-checks", &["check-failed"]);
}

/// Artus' setup checks: the King starts crowned, and the supply cannot run dry.
#[test]
fn a_ring_supply_that_can_run_dry_and_no_king() {
    check("artus-rings", &["check-failed"]);
}

/// `at = "$crown_plate"`: the plate is named by a param, refused where the mod gives it.
#[test]
fn a_crown_plate_that_does_not_exist() {
    check("artus-crown", &["unknown-name"]);
}

/// The setup deals `hand_size` knight cards to each seat; five players need more than the
/// game has.
#[test]
fn hands_the_cards_cannot_fill() {
    check("hand-too-large", &["too-many-cards"]);
}

/// A mod for six players whose Knights do not fit the board with five, and leave none to sit
/// with six once the score markers are taken.
#[test]
fn knights_that_do_not_fit_the_board() {
    check("artus-crowded", &["no-figures", "seats-short"]);
}

/// A ring of the wrong size: one error at the seats (and one for the plates to spare).
#[test]
fn a_board_of_one_seat() {
    check("artus-one-seat", &["board-mismatch", "board-size"]);
}

/// An either-colour ring card written with no colour: no action's guard takes it.
#[test]
fn a_ring_card_of_no_colour() {
    check("artus-ring-card-twice", &["unreachable"]);
}

/// While the one bronze Prince is King, a bronze ring card has no figure its guard takes.
#[test]
fn a_ring_card_with_no_prince_to_crown() {
    check("artus-lone-bronze", &["no-target"]);
}

/// A player alone: the bot's worth divides by `players - 1`.
#[test]
fn artus_alone() {
    check("artus-solo", &["divide-by-zero"]);
}

#[test]
fn an_event_effect_the_quests_rules_do_not_have() {
    check("quests-event-effect", &["unknown-effect"]);
}

#[test]
fn an_override_the_quests_rules_do_not_read() {
    check("quests-override", &["unused-override"]);
}

/// The generic rulebook checks every name of a game description, with did-you-mean (the
/// misspelt step leaves the real one, and so its action, in no stage).
#[test]
fn misspelt_names_in_a_game_description() {
    check(
        "rulebook-names",
        &[
            "unknown-action",
            "unknown-name",
            "unknown-step",
            "unknown-zone",
            "unreachable",
        ],
    );
}

/// ... and the kind of every expression, and that cards stay within their set.
#[test]
fn mixed_up_kinds_in_a_game_description() {
    check(
        "rulebook-types",
        &["invalid-expression", "type-mismatch", "zone-set-mismatch"],
    );
}

/// An action taking a card and a figure (a card script) with a row besides, on cards that
/// carry marks, or with a payment; `others(…)` where there is no `P`: each refused where it
/// is written.
#[test]
fn a_card_and_a_figure_where_they_cannot_go() {
    check(
        "rulebook-card-figure",
        &["invalid-expression", "invalid-value"],
    );
}

/// Several sets in one zone: a union's card sent back to a member's zone, and a union whose
/// sets give one attribute different values.
#[test]
fn unions_of_sets_where_they_cannot_go() {
    check(
        "rulebook-unions",
        &["incompatible-sets", "zone-set-mismatch"],
    );
}

/// King Arthur's content rulebook with slips in its description: each is reported where it
/// is, with did-you-mean for the names.
#[test]
fn a_broken_king_arthur_description() {
    check(
        "king-arthur-rulebook-broken",
        &["missing-condition", "unknown-zone", "zone-set-mismatch"],
    );
}

/// Queries answered in words, written wrong: each refused where it is written.
#[test]
fn answers_in_words_written_wrong() {
    check(
        "rulebook-texts",
        &["invalid-expression", "type-mismatch", "unknown-name"],
    );
}

/// Choices of figures and reads of plates with slips: a misspelt kind or set (did-you-mean),
/// situations that are not the ring's plates by its seats, `chosen` where nothing is chosen, a
/// misspelt plate attribute, a choice beside a payment (whose hand the conditions do not range
/// over either), and `pay` as a choice's verb.
#[test]
fn choices_of_figures_where_they_cannot_go() {
    check(
        "rulebook-choose",
        &[
            "invalid-value",
            "type-mismatch",
            "unknown-attribute",
            "unknown-name",
            "unknown-set",
        ],
    );
}

#[test]
fn totals_of_a_counter_the_figures_do_not_carry() {
    check("rulebook-totals", &["unknown-name"]);
}

/// A move that never ends (a draw through a supply refilled from where it draws to) lints
/// clean as a description; lint's seeded random games find it, at the action's lines.
#[test]
fn a_draw_that_never_ends() {
    check("rulebook-endless-draw", &["runaway-move"]);
}

/// A division by zero met in play: an error at the action, not a silent 0.
#[test]
fn a_division_by_an_empty_pile() {
    check("rulebook-divide-at-play", &["divide-by-zero"]);
}

/// Arithmetic that leaves the range of a pack's numbers: an error, not saturation.
#[test]
fn a_counter_without_bound() {
    check("rulebook-counter-overflow", &["number-out-of-range"]);
}

/// A turn nobody can take once the hands are spent: found by playing, at the step.
#[test]
fn a_turn_nobody_can_take() {
    check("rulebook-stuck-turn", &["game-stuck"]);
}

/// A stage before the turns that nobody can finish: the check at the end cannot be made, and
/// the error says where the game stuck, with the stage's own steps.
#[test]
fn a_stage_nobody_can_finish() {
    check("rulebook-stuck-stage", &["check-failed"]);
}

/// A step that repeats without end: lint's random games never end; a warning at the step.
#[test]
fn a_step_that_repeats_without_end() {
    check_warned("rulebook-repeat-forever", &["game-too-long"]);
}

/// Seats written wrong: an owner that is no seat, `P` where no seat is given, a `for each`
/// over what is not a set of seats or inside another, a seat function given two seats, `set`
/// of no counter, `next` on a stage before the turns, a `who` or `target` over what is not a
/// set of seats, a loop on a number, a seat number past the players. Each one error, where it
/// is written.
/// A number parameter written wrong: a range upside down, a bound read from the game, one
/// past the largest number, a number beside a card, and `number` read where none is named.
#[test]
fn numbers_written_wrong() {
    check("rulebook-numbers", &["invalid-value", "unknown-name"]);
}

#[test]
fn seats_written_wrong() {
    check(
        "rulebook-seats",
        &[
            "invalid-expression",
            "invalid-value",
            "no-such-player",
            "type-mismatch",
            "unknown-name",
        ],
    );
}

/// A seat expression that comes to no seat in play: lint's seeded games find the move that
/// fails, at its action's lines, not a pile or counter past the seats.
#[test]
fn a_seat_past_the_table() {
    check("rulebook-seat-at-play", &["no-such-player"]);
}

/// `figure in knight(others)`: one error, naming how another player's Knights are written,
/// not one for each line of the action that reads its card.
#[test]
fn another_players_knight_written_as_others() {
    check("artus-others-knight", &["invalid-expression"]);
}

/// A step other seats decide (`who`) offering an action paid for from the player to move's
/// cards (`knights(current)`): one error at the payment's zone.
#[test]
fn a_payment_asked_of_other_seats() {
    check("rulebook-asked-payment", &["invalid-value"]);
}

/// Stages entered from steps, written wrong (issue 28): an unknown stage, the turn, a stage
/// played before the turns; a dispatch keyed by a name its attribute does not have or by a
/// word for a number; a step that both dispatches and offers actions, `stages` without
/// `dispatch`, a step offering nothing; two stages entering each other; a stage nobody
/// enters; `repeat` on a stage before the turns, and without `while`. Each one error.
#[test]
fn stages_entered_wrong() {
    check(
        "rulebook-stages",
        &[
            "dispatch-uncovered",
            "invalid-value",
            "missing-field",
            "stage-cycle",
            "unknown-stage",
            "unreachable",
        ],
    );
}

/// A dispatch leaving values of its attribute without a stage: a warning, and the pack plays.
#[test]
fn a_dispatch_that_misses_values() {
    check_warned("rulebook-dispatch-uncovered", &["dispatch-uncovered"]);
}

/// An obligation a seat cannot always meet (discard down to the limit, but only gold may be
/// discarded): lint's random games find a hand of copper over the limit; a warning at the step.
#[test]
fn an_obligation_that_cannot_be_met() {
    check_warned("rulebook-obligation-unmet", &["obligation-unmet"]);
}

/// Standing actions written wrong (issue 28): one also listed in a step, a window that is a
/// number, one taking a payment. Each one error, where it is written.
#[test]
fn standing_actions_written_wrong() {
    check("rulebook-standing", &["invalid-value", "type-mismatch"]);
}

/// A standing action whose window never opens in play: lint's random games never offer it;
/// a warning at its lines, and the pack plays.
#[test]
fn a_standing_action_with_no_window() {
    check_warned("rulebook-standing-never", &["standing-never-offered"]);
}

/// `turn up` of a zone every seat sees already (issue 30, per-pile visibility): a warning
/// at the zone it names, and the pack plays.
#[test]
fn turning_up_a_public_zone() {
    check_warned("rulebook-turn-public", &["turn-public"]);
}

/// Ladders written wrong (issue 30, ranks with carried-over points): a rank counter that does
/// not exist, one of another owner, `needs` without `climbs`, a rank needing no points. Each
/// one error, where it is written.
#[test]
fn ladders_written_wrong() {
    check(
        "rulebook-ladder",
        &["invalid-value", "missing-field", "unknown-name"],
    );
}

/// A situational read (issue 30, a foe stronger when the quest names it) of a zone whose set
/// is not among the card set's `when_over`: one error at the zone.
#[test]
fn a_situation_of_the_wrong_cards() {
    check("rulebook-situational", &["invalid-expression"]);
}

/// Overrides on cards whose attribute no expression reads in a situation: they would change
/// nothing; an error at each override.
#[test]
fn overrides_nothing_reads() {
    check("rulebook-unused-override", &["unused-override"]);
}

/// `keep`, `rising` and a one-seat `who` written wrong (issue 30, whether a hand can
/// sponsor): a `keep` that is a number, `rising` with five arguments and with a group begun
/// in a zone of another set, and a `who` that is a condition. Each one error, where it is
/// written.
#[test]
fn keep_rising_and_one_decider_written_wrong() {
    check("rulebook-keep", &["invalid-expression", "type-mismatch"]);
}

/// A step's word for passing written wrong: on a step that cannot be passed, two words, and
/// the verb of the step's own action. Each one error, where it is written.
#[test]
fn words_for_passing_written_wrong() {
    check("rulebook-pass-word", &["invalid-value"]);
}

/// An action naming a player and a card of theirs written wrong: a number besides, and cards
/// that carry marks. Each one error, where it is written.
#[test]
fn a_player_and_a_card_written_wrong() {
    check("rulebook-player-card", &["invalid-value"]);
}

/// `show Z to S` written wrong: a condition where the seat goes and a line without `to` (each
/// an error), and a zone every seat sees already (a warning).
#[test]
fn showing_a_pile_written_wrong() {
    check(
        "rulebook-show",
        &["invalid-expression", "turn-public", "type-mismatch"],
    );
}

/// A text going through the seats written wrong: `{for P in others}` and a `{for P in each}`
/// without its `{end}`. Each one error, where it is written.
#[test]
fn a_text_through_the_seats_written_wrong() {
    check("rulebook-text-seats", &["invalid-expression"]);
}

/// `missing` written wrong: on an action that takes no card, and a hole without its `}`. Each
/// one error, where it is written.
#[test]
fn words_for_a_card_not_held_written_wrong() {
    check("rulebook-missing", &["invalid-expression", "invalid-value"]);
}

/// Named texts written wrong: a name a zone has, a key of two words, two texts reading each
/// other. Each one error, where it is written or read.
#[test]
fn named_texts_written_wrong() {
    check(
        "rulebook-named-texts",
        &["expression-too-deep", "invalid-name"],
    );
}

/// `for each … from <seat>` written wrong: a condition where the seat goes, and nothing after
/// `from`. Each one error, where it is written.
#[test]
fn a_round_from_a_seat_written_wrong() {
    check(
        "rulebook-for-each-from",
        &["invalid-expression", "type-mismatch"],
    );
}

/// A sum over every seat written wrong: a condition summed, and two expressions where one
/// goes. Each one error, where it is written.
#[test]
fn a_sum_over_the_seats_written_wrong() {
    check(
        "rulebook-sum-each",
        &["invalid-expression", "type-mismatch"],
    );
}

/// `draw N at random` written wrong: `at` without `random`, and a draw into a zone of another
/// set. Each one error, where it is written.
#[test]
fn a_draw_at_random_written_wrong() {
    check(
        "rulebook-draw-at-random",
        &["invalid-expression", "zone-set-mismatch"],
    );
}

/// Named expressions written wrong: a name a counter has, a key that is not a name, one that
/// reads itself, a call with the wrong number of arguments, a body reading a name that means
/// nothing (shown where it is read, naming the expression), and five reading each other eight
/// times over (8^5 parts, refused before they are made). Each one error.
#[test]
fn named_expressions_written_wrong() {
    check(
        "rulebook-named-expressions",
        &[
            "expression-too-deep",
            "expression-too-long",
            "invalid-expression",
            "invalid-name",
            "unknown-name",
        ],
    );
}

/// The top card of a zone and a tally under a kind of several words, written wrong: `top` of
/// a number, a card added to a number, a kind left unclosed and an empty kind. Each one error,
/// where it is written.
#[test]
fn a_top_card_and_a_tally_kind_written_wrong() {
    check(
        "rulebook-top-card",
        &["invalid-expression", "type-mismatch"],
    );
}

/// What the table lists, written wrong: a listing that is no word of the three, and a
/// counter's names that are not a list of words. Each one error, where it is written.
#[test]
fn a_table_listing_written_wrong() {
    check("rulebook-table-listing", &["invalid-value", "wrong-type"]);
}

/// A zone whose table shows an attribute its cards lack: one error, naming the nearest.
#[test]
fn a_table_showing_an_attribute_cards_lack() {
    check("rulebook-table-shows", &["unknown-attribute"]);
}

/// A named expression's argument read where the expression binds the same name to something
/// else: a card's value put inside `best(…)`, a seat put inside `each(…)`. Each one error,
/// where it is called; a `card` bound inside the argument itself is not one.
#[test]
fn a_named_expressions_argument_captured_by_its_body() {
    check("rulebook-named-capture", &["invalid-expression"]);
}

/// A card moved by its id written wrong: a number moved, a card taken from a zone of another
/// set, moved into a zone of another set, and an id no set has (told the nearest card's).
/// Each one error, where it is written.
#[test]
fn a_card_moved_by_its_id_written_wrong() {
    check(
        "rulebook-move-named",
        &["type-mismatch", "unknown-name", "zone-set-mismatch"],
    );
}

/// The end screen's words for the score's parts (`[end] parts`) must name each term of the
/// score once: three words for a score of two parts is one error, at `parts`.
#[test]
fn words_for_more_parts_than_the_score_has() {
    check("rulebook-score-parts", &["invalid-value"]);
}

/// Zones started wrong (issue 31, a deck split into piles as it starts): a card its set does
/// not have, a card starting in two zones, a list of none. Each one error, where it is
/// written.
#[test]
fn zones_started_wrong() {
    check(
        "rulebook-start",
        &["duplicate-id", "invalid-value", "unknown-card"],
    );
}

/// A zone's `start` that is neither `"all"` nor a list of cards: one error, saying both.
#[test]
fn a_zone_started_with_a_word() {
    check("rulebook-start-word", &["invalid-value"]);
}

/// A table head line, shown to every seat, that reads the cards of zones only some seats
/// see (a hand's values, a face-down pile's top card): a warning for each zone, none for a
/// hand's count or a public zone's cards; the pack is still played.
#[test]
fn a_head_line_that_tells_too_much() {
    check_warned("rulebook-status-hidden", &["status-hidden"]);
}

/// A role held by whoever holds a card (`[roles.*] holds`), written wrong: a card no seat's
/// zone holds (with the card meant), and a role of a card that names a figure as well. Each
/// one error, where it is written.
#[test]
fn roles_of_cards_written_wrong() {
    check("rulebook-card-role", &["invalid-value", "unknown-card"]);
}

/// A role naming neither a figure nor a card: `figure` and `start` missing, each error
/// saying that a card's role names `holds` instead.
#[test]
fn a_role_of_nothing() {
    check("rulebook-role-missing", &["missing-field"]);
}

/// The word between a move's player and its card (`before_card`), written wrong: on an
/// action naming no player, and as two words. Each one error, at the word.
#[test]
fn a_word_before_the_card_written_wrong() {
    check("rulebook-before-card", &["invalid-value"]);
}
