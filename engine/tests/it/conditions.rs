//! The condition language and the payment solver, held to what a rule text asks of them:
//! "pay adversary cards with a total worth of 5", "one value 3 or more and one value 4 or
//! more", "two value 3 or more, or the red 5", "overpay only when necessary".

use crate::support::*;
use grail_engine::cond::solve::Satisfiable;
use grail_engine::cond::{self, Params, Type, solve};

/// Every legal payment, described.
fn payments(src: &str, cards: &[(&str, u8)]) -> Vec<String> {
    let u = adversaries();
    let program = condition(src, &u);
    let mut out = Vec::new();
    assert!(solve::payments(&program, &hand(&u, cards), &[], |p| {
        out.push(describe(&u, p.counts()));
        true
    }));
    out.sort();
    out
}

#[test]
fn sums_the_declared_value_of_matching_cards() {
    let u = adversaries();
    let beast = condition("sum(color=red) >= 8", &u);
    assert!(beast.test(&hand(&u, &[("red-4", 1), ("red-3", 1), ("red-2", 1)]), &[]));
    assert!(!beast.test(&hand(&u, &[("red-4", 1), ("red-3", 1), ("blue-4", 1)]), &[]));
    let sum = compile("sum(value, color!=red)", &u, &Params::default());
    assert_eq!(
        sum.value(
            &hand(&u, &[("red-4", 1), ("blue-3", 2), ("yellow-1", 1)]),
            &[]
        ),
        7
    );
}

#[test]
fn counts_distinct_values_and_distinct_cards() {
    let u = adversaries();
    let kinds = compile("distinct(kind)", &u, &Params::default());
    assert_eq!(
        kinds.value(&hand(&u, &[("red-4", 2), ("blue-3", 1)]), &[]),
        2
    );
    let knight = condition("cards(value>=3, value>=4)", &u);
    // One card cannot serve both filters.
    assert!(!knight.test(&hand(&u, &[("red-4", 1)]), &[]));
    assert!(knight.test(&hand(&u, &[("red-4", 2)]), &[]));
    assert!(knight.test(&hand(&u, &[("red-4", 1), ("yellow-3", 1)]), &[]));
    assert!(!knight.test(&hand(&u, &[("yellow-3", 2)]), &[]));
}

#[test]
fn total_worth_payments_leave_no_card_out() {
    // Excalibur-like: "a total worth of 5": 3 + 3 is legal, 3 + 2 + 1 is not (the 1 is
    // superfluous), 4 + 1 is legal, 5 alone is legal.
    let legal = payments(
        "sum(*) >= 5",
        &[
            ("blue-3", 2),
            ("green-2", 1),
            ("yellow-1", 1),
            ("blue-4", 1),
        ],
    );
    assert_eq!(
        legal,
        [
            "blue-3 blue-4",
            "blue-3 green-2",
            "blue-3×2",
            "blue-4 green-2",
            "blue-4 yellow-1"
        ]
    );
    assert!(!legal.contains(&"blue-3 green-2 yellow-1".to_string()));
}

#[test]
fn any_n_cards_means_exactly_n() {
    let legal = payments(
        "count(*) >= 2",
        &[("blue-3", 1), ("green-2", 1), ("yellow-1", 1)],
    );
    assert_eq!(
        legal,
        ["blue-3 green-2", "blue-3 yellow-1", "green-2 yellow-1"]
    );
}

#[test]
fn one_each_of_three_colours() {
    let legal = payments(
        "cards(color=green, color=blue, color=yellow)",
        &[
            ("green-2", 1),
            ("green-4", 1),
            ("blue-1", 1),
            ("yellow-3", 1),
            ("red-5", 1),
        ],
    );
    assert_eq!(
        legal,
        ["blue-1 green-2 yellow-3", "blue-1 green-4 yellow-3"]
    );
}

#[test]
fn either_branch_but_never_the_red_five_with_company() {
    let src = "count(value>=3) >= 2 or cards(color=red & value=5)";
    let legal = payments(src, &[("red-5", 1), ("red-4", 1), ("blue-3", 1)]);
    // "the red 5 alone already qualifies", so red 5 + another card is not a legal payment.
    assert_eq!(legal, ["blue-3 red-4", "red-5"]);
}

#[test]
fn colour_restricted_sums_take_only_that_colour() {
    let legal = payments(
        "sum(color=green) >= 6",
        &[("green-4", 1), ("green-2", 1), ("green-3", 1), ("red-5", 1)],
    );
    // A red card never helps a green total, so it is never part of a legal payment.
    assert_eq!(legal, ["green-2 green-4", "green-3 green-4"]);
}

#[test]
fn challenge_with_one_suit_plus_wilds_overpaying_only_with_doubles() {
    let u = knights();
    let params = Params::default().argument("power", Type::Int);
    let challenge = compile(
        "distinct(suit, suit != wild) <= 1 and sum(strength) >= $power",
        &u,
        &params,
    );
    let legal = |cards: &[(&str, u8)], power: i64| {
        let mut out = Vec::new();
        solve::payments(&challenge, &hand(&u, cards), &[power], |p| {
            out.push(describe(&u, p.counts()));
            true
        });
        out.sort();
        out
    };
    // Value 3 with only doubles: double + double (4) is legal.
    assert_eq!(legal(&[("red-2", 2)], 3), ["red-2×2"]);
    // Double + single + single (4) is not: a single can be dropped.
    let with_singles = legal(&[("red-2", 1), ("red-1", 2)], 3);
    assert_eq!(with_singles, ["red-1 red-2"]);
    // One colour only; wild cards join any colour and may be played alone.
    assert_eq!(
        legal(&[("red-1", 1), ("orange-1", 1), ("wild", 1)], 2),
        ["orange-1 wild", "red-1 wild"]
    );
    assert_eq!(legal(&[("wild", 2)], 2), ["wild×2"]);
    assert!(legal(&[("red-1", 1), ("orange-1", 2)], 3).is_empty());
}

#[test]
fn a_pack_option_can_switch_overpaying_off() {
    let u = knights();
    let src = "distinct(suit, suit != wild) <= 1 and sum(strength) >= $power and ($overpay or sum(strength) <= $power)";
    for (overpay, expected) in [(1, vec!["red-2×2"]), (0, vec![])] {
        let params = Params::default()
            .constant("overpay", Type::Bool, overpay)
            .argument("power", Type::Int);
        let program = compile(src, &u, &params);
        let mut out = Vec::new();
        solve::payments(&program, &hand(&u, &[("red-2", 2)]), &[3], |p| {
            out.push(describe(&u, p.counts()));
            true
        });
        assert_eq!(out, expected, "overpay = {overpay}");
    }
}

#[test]
fn cheapest_payment_gives_up_the_fewest_points() {
    let u = adversaries();
    let program = condition("sum(*) >= 5", &u);
    let cost = compile("sum(value)", &u, &Params::default());
    // Legal: red-5 (5 points), blue-3×2 (6), red-4 + blue-3 (7).
    let h = hand(&u, &[("red-4", 1), ("blue-3", 2), ("red-5", 1)]);
    let (points, payment) = solve::cheapest(&program, &h, &[], &cost).unwrap();
    assert_eq!(
        (points, describe(&u, payment.counts()).as_str()),
        (5, "red-5")
    );
    let h = hand(&u, &[("red-4", 1), ("blue-3", 2)]);
    let (points, payment) = solve::cheapest(&program, &h, &[], &cost).unwrap();
    assert_eq!(
        (points, describe(&u, payment.counts()).as_str()),
        (6, "blue-3×2")
    );
    assert!(solve::cheapest(&program, &hand(&u, &[("yellow-1", 4)]), &[], &cost).is_none());
}

#[test]
fn unmeetable_conditions_say_why() {
    let u = adversaries();
    let why = |src: &str| {
        let program = condition(src, &u);
        match solve::satisfiable(&program, src, &DECK, &[]).answer {
            Satisfiable::Never(why) => Some(why),
            Satisfiable::Yes => None,
            other => panic!("`{src}` should be decided: {other:?}"),
        }
    };
    assert_eq!(
        why("sum(color=red) >= 40").as_deref(),
        Some("`sum(color=red)` is at most 31 even with every card, but must be >= 40")
    );
    assert_eq!(why("sum(color=red) >= 8"), None);
    assert!(
        why("cards(color=red & value=1)")
            .unwrap()
            .contains("not enough distinct cards")
    );
    assert!(
        why("count(*) >= 3 and count(*) <= 2")
            .unwrap()
            .contains("cannot both hold")
    );
    assert_eq!(why("count(*) = 3"), None);
}

/// A condition that neither grows nor shrinks as cards are added defeats the payment search's
/// pruning; over the 44-card deck its budget runs out. Reading only counts and sums, it is
/// still decided, by the values they can take.
#[test]
fn a_product_of_counts_is_decided_by_the_values_it_can_take() {
    let u = adversaries();
    let decide = |src: &str| solve::satisfiable(&condition(src, &u), src, &DECK, &[]);
    let square = decide("count(*) * count(*) = 7");
    assert!(
        matches!(&square.answer, Satisfiable::Never(why) if why.contains("every value")),
        "{square:?}"
    );
    assert!(
        square.steps > solve::NODE_BUDGET,
        "the search alone gave up"
    );
    assert!(square.steps <= solve::DECIDE_BUDGET);
    assert_eq!(decide("count(*) * count(*) = 9").answer, Satisfiable::Yes);
    assert_eq!(
        decide("count(color=red) * sum(color=blue) = 2 * 13").answer,
        Satisfiable::Yes
    );
}

/// What cannot be decided within the budget says so: never a silent pass.
#[test]
fn a_check_that_runs_out_of_steps_gives_up_visibly() {
    let u = adversaries();
    // Never met (47 is prime and above the deck's 44 cards), but telling which colours a
    // choice shows is beyond the values walk.
    let src = "count(*) * distinct(color) = 47";
    let decision = solve::satisfiable(&condition(src, &u), src, &DECK, &[]);
    assert_eq!(decision.answer, Satisfiable::GaveUp);
    assert_eq!(decision.steps, solve::NODE_BUDGET);
    // Runtime arguments missing: nothing to decide, and no work done.
    let u = knights();
    let src = "sum(strength) >= $power";
    let program = cond::compile(
        &cond::check(
            &cond::parse(src).unwrap(),
            &u,
            &Params::default().argument("power", Type::Int),
        )
        .unwrap(),
        &u,
    );
    let decision = solve::satisfiable(&program, src, &[2; 7], &[]);
    assert_eq!(decision.answer, Satisfiable::NeedsArguments);
}

fn check_error(src: &str) -> cond::CondError {
    let expr = cond::parse(src).unwrap();
    let params = Params::default()
        .argument("power", Type::Int)
        .constant("limit", Type::Int, 4);
    let mut errors = cond::check(&expr, &adversaries(), &params).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    errors.remove(0)
}

#[test]
fn cards_takes_at_most_64_filters() {
    let src = format!("cards({})", vec!["*"; 65].join(", "));
    let e = check_error(&src);
    assert_eq!((e.code, e.span.clone()), ("too-many-filters", 0..src.len()));
    let src = format!("cards({})", vec!["*"; 64].join(", "));
    assert!(
        cond::check(
            &cond::parse(&src).unwrap(),
            &adversaries(),
            &Params::default()
        )
        .is_ok()
    );
}

#[test]
fn names_are_checked_with_suggestions() {
    let e = check_error("sum(colour=red) >= 8");
    assert_eq!((e.code, e.span.clone()), ("unknown-attribute", 4..10));
    assert_eq!(e.help.as_deref(), Some("did you mean `color`?"));
    let e = check_error("sum(color=rde) >= 8");
    assert_eq!((e.code, e.span.clone()), ("unknown-value", 10..13));
    assert_eq!(e.help.as_deref(), Some("did you mean `red`?"));
    let e = check_error("count(color>red) >= 1");
    assert_eq!(e.code, "condition-type");
    let e = check_error("sum(kind) >= 1");
    assert!(e.message.contains("cannot be summed"), "{}", e.message);
    let e = check_error("count(*) >= $pwer");
    assert_eq!(
        (e.code, e.help.as_deref()),
        ("unknown-parameter", Some("did you mean `$power`?"))
    );
    let e = check_error("count(value >= $power) >= 1");
    assert!(e.message.contains("filter cannot use it"), "{}", e.message);
    let e = check_error("count(*) and true");
    assert_eq!((e.code, e.span.clone()), ("condition-type", 0..8));
    let e = check_error("count(id=rde-4) >= 1");
    assert_eq!(
        (e.code, e.help.as_deref()),
        ("unknown-value", Some("did you mean `red-4`?"))
    );
}

#[test]
fn constants_fold_into_filters() {
    let u = adversaries();
    let params = Params::default().constant("limit", Type::Int, 4);
    let program = compile("count(value >= $limit) >= 1", &u, &params);
    assert!(program.test(&hand(&u, &[("red-4", 1)]), &[]));
    assert!(!program.test(&hand(&u, &[("red-3", 1)]), &[]));
}

#[test]
fn expectation_of_a_number_or_a_condition_is_checked() {
    let u = adversaries();
    let checked = cond::check(&cond::parse("sum(value)").unwrap(), &u, &Params::default()).unwrap();
    assert_eq!(checked.expect(Type::Int), Ok(()));
    assert_eq!(
        checked.expect(Type::Bool).unwrap_err().code,
        "condition-type"
    );
}

#[test]
fn failing_part_quotes_the_first_conjunct_that_does_not_hold() {
    let u = adversaries();
    let src = "count(color=red) <= 1 and sum(*) >= 5";
    let program = condition(src, &u);
    let two_reds = hand(&u, &[("red-4", 1), ("red-3", 1)]);
    assert_eq!(
        solve::failing_part(&program, src, &two_reds, &[]).as_deref(),
        Some("`count(color=red) <= 1` does not hold: 2 against 1")
    );
    let short = hand(&u, &[("red-3", 1), ("blue-1", 1)]);
    assert_eq!(
        solve::failing_part(&program, src, &short, &[]).as_deref(),
        Some("`sum(*) >= 5` does not hold: 4 against 5")
    );
    let cards = "cards(value>=3, value>=4)";
    let knight = condition(cards, &u);
    assert_eq!(
        solve::failing_part(&knight, cards, &hand(&u, &[("yellow-3", 2)]), &[]).as_deref(),
        Some("`cards(value>=3, value>=4)` does not hold")
    );
    let met = hand(&u, &[("red-4", 1), ("blue-1", 1)]);
    assert_eq!(solve::failing_part(&program, src, &met, &[]), None);
}
