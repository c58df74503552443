//! The parser's tests (`syntax.rs`): statements, expressions and where errors point.

use super::*;

#[test]
fn guards_read_zones_and_order() {
    let n = expression("value(card) > last(value, trails(current, color(card)))").unwrap();
    let Ast::Bin(Op::Gt, left, right) = n.ast else {
        panic!("{n:?}")
    };
    assert_eq!(left.span, 0..11);
    assert!(matches!(&right.ast, Ast::Call(f, args) if f == "last" && args.len() == 2));
}

#[test]
fn kebab_names_and_minus_differ() {
    let n = expression("count(knight-deck) - 1").unwrap();
    let Ast::Bin(Op::Sub, left, _) = n.ast else {
        panic!()
    };
    assert!(matches!(&left.ast, Ast::Call(_, a) if a[0].ast == Ast::Name("knight-deck".into())));
}

#[test]
fn statements_keep_their_place() {
    let lines = statements("shuffle deck\n  deal $n from deck to hand(each)\n").unwrap();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1].span, 15..46);
    let err = statements("shuffle deck\nburn deck").unwrap_err();
    assert_eq!(err.span, 13..17);
}

/// `turn up Z` and `turn down Z`; any other word after `turn` is refused where it stands.
#[test]
fn turning_a_pile_up_or_down() {
    let lines = statements("turn up first(current)\nturn down stages(each)").unwrap();
    assert!(matches!(
        &lines[0].statement,
        Statement::Turn { up: true, .. }
    ));
    assert!(matches!(
        &lines[1].statement,
        Statement::Turn { up: false, .. }
    ));
    // A name at the end of a line ends there, not at the line break after it.
    let lines = statements("turn up discards\ndraw 1 from deck to hand(current)").unwrap();
    let Statement::Turn { zone, .. } = &lines[0].statement else {
        panic!("a turn");
    };
    assert_eq!(zone.span, 8..16);
    let err = statements("turn sideways first(current)").unwrap_err();
    assert_eq!(err.span, 5..6);
    assert!(err.message.contains("`up` or `down`"), "{}", err.message);
}

/// `draw N at random from Z to Z2`: `at random` after the count; `at` alone is refused.
#[test]
fn a_draw_at_random() {
    let lines = statements("draw 2 at random from hand(P) to discards").unwrap();
    assert!(matches!(
        &lines[0].statement,
        Statement::Draw { random: true, .. }
    ));
    let lines = statements("draw 2 from hand(P) to discards").unwrap();
    assert!(matches!(
        &lines[0].statement,
        Statement::Draw { random: false, .. }
    ));
    let err = statements("draw 2 at once from hand(P) to discards").unwrap_err();
    assert!(err.message.contains("`random`"), "{}", err.message);
}

/// `for each P in <seats> from <seat>:`: the seat the round starts at, when named.
#[test]
fn a_round_of_seats_from_one() {
    let lines = statements("for each P in each from left(sponsor): add 1 to gold(P)").unwrap();
    let Statement::ForEach { seats, from, .. } = &lines[0].statement else {
        panic!("a for each");
    };
    assert_eq!(seats.ast, Ast::Name("each".into()));
    assert_eq!(from.as_ref().map(|f| f.span.clone()), Some(24..37));
    let lines = statements("for each P in others: add 1 to gold(P)").unwrap();
    assert!(matches!(
        &lines[0].statement,
        Statement::ForEach { from: None, .. }
    ));
}

/// `show Z to S`: a zone, then the seat it is shown to.
#[test]
fn showing_a_pile_to_a_seat() {
    let lines = statements("show stage1(sponsor) to current").unwrap();
    let Statement::Show { zone, to } = &lines[0].statement else {
        panic!("a show");
    };
    assert_eq!((zone.span.clone(), to.span.clone()), (5..20, 24..31));
    let err = statements("show stage1(sponsor) current").unwrap_err();
    assert!(err.message.contains("`to`"), "{}", err.message);
}

/// `*` and `/` bind alike, left to right: `a / b * c / d` is `((a / b) * c) / d`.
#[test]
fn products_and_quotients_from_the_left() {
    let n = expression("a / b * c / d").unwrap();
    let Ast::Bin(Op::Div, left, d) = n.ast else {
        panic!("{n:?}")
    };
    assert_eq!(d.ast, Ast::Name("d".into()));
    let Ast::Bin(Op::Mul, left, _) = left.ast else {
        panic!("{left:?}")
    };
    assert!(matches!(left.ast, Ast::Bin(Op::Div, ..)));
}

/// `if(c, a, b)` is a value inside an effect; `if` alone guards the effect line.
#[test]
fn if_is_a_value_or_a_guard() {
    let lines =
        statements("draw if(done(rest), 2, 1) from deck to hand(current) if 1 = 1").unwrap();
    let Statement::Draw { count, .. } = &lines[0].statement else {
        panic!("{lines:?}")
    };
    assert!(matches!(&count.ast, Ast::Call(f, a) if f == "if" && a.len() == 3));
    assert!(lines[0].guard.is_some());
    assert!(expression("if").is_err());
}

/// Nesting is counted by every kind that recurses, and refused one level past the limit,
/// before the parser goes deeper; at the limit it parses.
#[test]
fn nesting_is_bounded_before_it_recurses() {
    for (open, close) in [("(", ")"), ("not ", ""), ("-", ""), ("max(0, ", ")")] {
        let nest = |n: usize| format!("{}1{}", open.repeat(n), close.repeat(n));
        assert!(expression(&nest(MAX_DEPTH)).is_ok(), "{open}");
        let err = expression(&nest(MAX_DEPTH + 1)).unwrap_err();
        assert_eq!(err.code, "expression-too-deep", "{open}");
        let err = expression(&nest(100_000)).unwrap_err();
        assert_eq!(err.code, "expression-too-deep", "{open}");
    }
    let line = format!(
        "draw {}1{} from deck to hand(current)",
        "(".repeat(60),
        ")".repeat(60)
    );
    assert_eq!(statements(&line).unwrap_err().code, "expression-too-deep");
}

/// A chain is as deep a tree as it is long: its parts are counted, an effect line's
/// together with its guard.
#[test]
fn length_is_bounded() {
    // `1 + 1 + …` with n terms has 2n - 1 parts.
    let chain = |n: usize| format!("1{}", " + 1".repeat(n - 1));
    assert!(expression(&chain(MAX_NODES / 2)).is_ok());
    assert_eq!(
        expression(&chain(MAX_NODES / 2 + 1)).unwrap_err().code,
        "expression-too-long"
    );
    assert_eq!(
        expression(&format!("1 = 1{}", " and 1 = 1".repeat(10_000)))
            .unwrap_err()
            .code,
        "expression-too-long"
    );
    let guarded = format!(
        "draw 1 from deck to hand(current) if {}",
        chain(MAX_NODES / 2)
    );
    assert_eq!(
        statements(&guarded).unwrap_err().code,
        "expression-too-long"
    );
}
