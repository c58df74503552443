//! Properties of the condition language over random conditions and random hands:
//! printing then parsing gives the same tree; the compiled program agrees with the plain
//! reference evaluator; the solver finds exactly the legal payments brute force finds.

use crate::support::*;
use grail_engine::cond::ast::{
    ArithOp, CmpOp, Expr, ExprKind, Filter, FilterKind, Literal, LiteralKind, Name,
};
use grail_engine::cond::{self, Params, Type, ceiling, reference, solve};
use proptest::prelude::*;

fn e(kind: ExprKind) -> Expr {
    Expr { kind, span: 0..0 }
}

fn name(s: &str) -> Name {
    Name {
        text: s.into(),
        span: 0..0,
    }
}

fn test(attr: &str, op: CmpOp, value: LiteralKind) -> Filter {
    Filter {
        kind: FilterKind::Test {
            attr: name(attr),
            op,
            value: Literal {
                kind: value,
                span: 0..0,
            },
        },
        span: 0..0,
    }
}

fn any_cmp() -> impl Strategy<Value = CmpOp> {
    prop_oneof![
        Just(CmpOp::Eq),
        Just(CmpOp::Ne),
        Just(CmpOp::Lt),
        Just(CmpOp::Le),
        Just(CmpOp::Gt),
        Just(CmpOp::Ge)
    ]
}

fn eq_ne() -> impl Strategy<Value = CmpOp> {
    prop_oneof![Just(CmpOp::Eq), Just(CmpOp::Ne)]
}

/// Filters that check against the fixture universe.
fn filter() -> impl Strategy<Value = Filter> {
    let ids: Vec<String> = adversaries().types.iter().map(|t| t.id.clone()).collect();
    let leaf = prop_oneof![
        Just(Filter {
            kind: FilterKind::All,
            span: 0..0
        }),
        (eq_ne(), prop::sample::select(COLORS.to_vec())).prop_map(|(op, c)| test(
            "color",
            op,
            LiteralKind::Sym(c.into())
        )),
        (eq_ne(), prop::sample::select(KINDS.to_vec())).prop_map(|(op, k)| test(
            "kind",
            op,
            LiteralKind::Sym(k.into())
        )),
        (any_cmp(), 0i64..7).prop_map(|(op, v)| test("value", op, LiteralKind::Int(v))),
        (eq_ne(), prop::sample::select(ids)).prop_map(|(op, id)| test(
            "id",
            op,
            LiteralKind::Sym(id)
        )),
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|f| Filter {
                kind: FilterKind::Not(Box::new(f)),
                span: 0..0
            }),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Filter {
                kind: FilterKind::And(Box::new(a), Box::new(b)),
                span: 0..0
            }),
            (inner.clone(), inner).prop_map(|(a, b)| Filter {
                kind: FilterKind::Or(Box::new(a), Box::new(b)),
                span: 0..0
            }),
        ]
    })
}

fn number() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        (-3i64..12).prop_map(|i| e(ExprKind::Int(i))),
        Just(e(ExprKind::Param("p".into()))),
        filter().prop_map(|f| e(ExprKind::Count(f))),
        filter().prop_map(|f| e(ExprKind::Sum(None, f))),
        filter().prop_map(|f| e(ExprKind::Sum(Some(name("value")), f))),
        (
            prop::sample::select(vec!["color", "kind", "value", "id"]),
            filter()
        )
            .prop_map(|(a, f)| e(ExprKind::Distinct(name(a), f))),
    ];
    leaf.prop_recursive(3, 10, 2, |inner| {
        prop_oneof![
            (
                prop_oneof![Just(ArithOp::Add), Just(ArithOp::Sub), Just(ArithOp::Mul)],
                inner.clone(),
                inner.clone()
            )
                .prop_map(|(op, a, b)| e(ExprKind::Arith(
                    op,
                    Box::new(a),
                    Box::new(b)
                ))),
            // The parser reads `-3` as a literal, so a minus before a literal is not generated.
            inner
                .prop_filter("no minus before a literal", |x| !matches!(
                    x.kind,
                    ExprKind::Int(_)
                ))
                .prop_map(|x| e(ExprKind::Neg(Box::new(x)))),
        ]
    })
}

fn condition() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        (any_cmp(), number(), number()).prop_map(|(op, a, b)| e(ExprKind::Compare(
            op,
            Box::new(a),
            Box::new(b)
        ))),
        prop::collection::vec(filter(), 1..4).prop_map(|fs| e(ExprKind::Cards(fs))),
        any::<bool>().prop_map(|b| e(ExprKind::Bool(b))),
        Just(e(ExprKind::Param("flag".into()))),
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|x| e(ExprKind::Not(Box::new(x)))),
            (inner.clone(), inner.clone())
                .prop_map(|(a, b)| e(ExprKind::And(Box::new(a), Box::new(b)))),
            (inner.clone(), inner).prop_map(|(a, b)| e(ExprKind::Or(Box::new(a), Box::new(b)))),
        ]
    })
}

fn params() -> Params {
    Params::default()
        .argument("p", Type::Int)
        .argument("flag", Type::Bool)
}

/// A hand of at most `max` cards over the fixture's types.
fn small_hand(max: usize) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(0usize..15, 0..=max).prop_map(|cards| {
        let mut counts = vec![0u8; 15];
        for t in cards {
            counts[t] += 1;
        }
        counts
    })
}

fn items(counts: &[u8]) -> Vec<usize> {
    counts
        .iter()
        .enumerate()
        .flat_map(|(t, &c)| std::iter::repeat_n(t, c as usize))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn printing_then_parsing_gives_the_same_tree(expr in condition()) {
        let printed = expr.to_string();
        let parsed = cond::parse(&printed);
        // A tree past the language's size limits is refused by the parser, as it must be
        // (issue 27): not a round trip to check.
        prop_assume!(!matches!(&parsed, Err(e) if e.code.starts_with("condition-too-")));
        let parsed = parsed.map_err(|e| TestCaseError::fail(format!("{printed}: {e:?}")))?;
        prop_assert_eq!(parsed.without_spans(), expr, "printed as {}", printed);
    }

    #[test]
    fn parsing_never_panics(src in ".{0,120}") {
        if let Ok(expr) = cond::parse(&src) {
            let u = adversaries();
            if let Ok(checked) = cond::check(&expr, &u, &params()) {
                let program = cond::compile(&checked, &u);
                let _ = program.value(&DECK, &[1, 0]);
            }
        }
    }

    #[test]
    fn parsing_condition_like_text_never_panics(
        parts in prop::collection::vec(prop::sample::select(vec![
            "sum(", "count(", "cards(", "distinct(", ")", "(", ",", "color", "=", "red", ">=", "3", "-", "*",
            "&", "|", "!", " and ", " or ", "not ", "$p", "value", "\"x", "\"", "99999999999999999999", "id=",
        ]), 0..40)
    ) {
        let src: String = parts.concat();
        let _ = cond::parse(&src);
    }

    #[test]
    fn compiled_programs_agree_with_the_reference(expr in condition(), hand in small_hand(10), p in -2i64..10, flag in 0i64..2) {
        let u = adversaries();
        let checked = cond::check(&expr, &u, &params()).map_err(|e| TestCaseError::fail(format!("{expr}: {e:?}")))?;
        let program = cond::compile(&checked, &u);
        let want = reference::eval(&expr, &u, &[("p", p), ("flag", flag)], &items(&hand)) != 0;
        prop_assert_eq!(program.test(&hand, &[p, flag]), want, "{} on {}", expr, describe(&u, &hand));
    }

    #[test]
    fn solver_finds_exactly_the_legal_payments(expr in condition(), hand in small_hand(6), p in 0i64..8, flag in 0i64..2) {
        let u = adversaries();
        let checked = cond::check(&expr, &u, &params()).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        let program = cond::compile(&checked, &u);
        let mut found = Vec::new();
        let finished = solve::payments(&program, &hand, &[p, flag], |pay| {
            found.push(pay.counts().to_vec());
            true
        });
        prop_assert!(finished);
        let mut brute = reference::brute_force_payments(&expr, &u, &[("p", p), ("flag", flag)], &hand);
        let mut sorted = found.clone();
        sorted.sort();
        brute.sort();
        prop_assert_eq!(&sorted, &brute, "{} on {}", expr, describe(&u, &hand));
        // Each payment once.
        sorted.dedup();
        prop_assert_eq!(sorted.len(), found.len());
        prop_assert_eq!(solve::exists(&program, &hand, &[p, flag]), !brute.is_empty());
    }

    #[test]
    fn cheapest_is_the_minimum_over_all_legal_payments(expr in condition(), hand in small_hand(6), p in 0i64..8) {
        let u = adversaries();
        let checked = cond::check(&expr, &u, &params()).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        let program = cond::compile(&checked, &u);
        let cost = compile("sum(value)", &u, &Params::default());
        let brute = reference::brute_force_payments(&expr, &u, &[("p", p), ("flag", 1)], &hand);
        let best = brute.iter().map(|pay| cost.value(pay, &[])).min();
        prop_assert_eq!(solve::cheapest(&program, &hand, &[p, 1], &cost).map(|(c, _)| c), best);
    }
}

/// Conditions that limit how many groups a payment may use and otherwise only grow, the
/// shape `solve::exists` decides by trying the largest multisets within the limit.
fn group_limited() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["color", "kind", "value", "id"]),
        prop::sample::select(vec!["*", "color != red", "value >= 2", "kind = beast"]),
        prop::sample::select(vec!["<=", "<"]),
        0i64..4,
        any::<bool>(),
        prop::sample::select(vec![
            "sum(*) >= $p",
            "count(color=red) >= $p",
            "sum(value, kind!=beast) > $p",
            "cards(value>=3, value>=2)",
            "cards(color=yellow, value=5)",
            "count(*) >= $p and sum(color=blue) >= 2",
            "$flag",
        ]),
    )
        .prop_map(|(attr, filter, op, k, reversed, grows)| {
            let limit = if reversed {
                let op = if op == "<=" { ">=" } else { ">" };
                format!("{k} {op} distinct({attr}, {filter})")
            } else {
                format!("distinct({attr}, {filter}) {op} {k}")
            };
            format!("{limit} and {grows}")
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn exists_within_a_group_limit_agrees_with_brute_force(src in group_limited(), hand in small_hand(8), p in 0i64..9, flag in 0i64..2) {
        let u = adversaries();
        let expr = cond::parse(&src).map_err(|e| TestCaseError::fail(format!("{src}: {e:?}")))?;
        let checked = cond::check(&expr, &u, &params()).map_err(|e| TestCaseError::fail(format!("{src}: {e:?}")))?;
        let program = cond::compile(&checked, &u);
        let brute = reference::brute_force_payments(&expr, &u, &[("p", p), ("flag", flag)], &hand);
        prop_assert_eq!(solve::exists(&program, &hand, &[p, flag]), !brute.is_empty(), "{} on {}", src, describe(&u, &hand));
    }

    /// The sum-threshold fast path lists what the general search would: every legal payment,
    /// once, in the documented order (types in universe order, fewer copies first).
    #[test]
    fn payments_within_a_group_limit_are_the_legal_ones_in_order(src in group_limited(), hand in small_hand(8), p in 0i64..9, flag in 0i64..2) {
        prop_assert_payments_in_order(&src, &hand, p, flag)?;
    }

    #[test]
    fn payments_of_sum_thresholds_are_the_legal_ones_in_order(src in sum_thresholds(), hand in small_hand(8), p in 0i64..9, flag in 0i64..2) {
        prop_assert_payments_in_order(&src, &hand, p, flag)?;
    }
}

fn sum_thresholds() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "sum(*) >= $p",
        "count(*) >= $p",
        "sum(color=red) > $p",
        "count(value>=3) >= 2 and sum(value) >= $p",
        "sum(value, kind!=beast) >= $p and count(color=blue) >= 1",
        "$flag and count(*) >= 2",
        // Filters that share no type: planned as a count of one per filter.
        "cards(color=red, color=blue, color=green)",
        "cards(value=1, value>=4) and sum(*) >= $p",
        "cards(color=red, value=5, color=green) and $flag",
    ])
    .prop_map(str::to_string)
}

/// `solve::payments` lists exactly the brute-force legal payments, in order.
fn prop_assert_payments_in_order(
    src: &str,
    hand: &[u8],
    p: i64,
    flag: i64,
) -> Result<(), TestCaseError> {
    let program = compiled(src)?;
    let u = adversaries();
    let expr = cond::parse(src).map_err(|e| TestCaseError::fail(format!("{src}: {e:?}")))?;
    let mut found = Vec::new();
    let finished = solve::payments(&program, hand, &[p, flag], |pay| {
        found.push(pay.counts().to_vec());
        true
    });
    prop_assert!(finished);
    let mut brute = reference::brute_force_payments(&expr, &u, &[("p", p), ("flag", flag)], hand);
    brute.sort();
    prop_assert_eq!(&found, &brute, "{} on {}", src, describe(&u, hand));
    Ok(())
}

fn compiled(src: &str) -> Result<cond::Program, TestCaseError> {
    let u = adversaries();
    // A condition longer than the language takes is refused when written, never decided:
    // not a case of these properties (the deepest adversarial ones come out too long).
    let expr = cond::parse(src).map_err(|e| match e.code {
        "condition-too-long" => TestCaseError::reject(format!("{src}: {}", e.message)),
        _ => TestCaseError::fail(format!("{src}: {e:?}")),
    })?;
    let checked = cond::check(&expr, &u, &params())
        .map_err(|e| TestCaseError::fail(format!("{src}: {e:?}")))?;
    Ok(cond::compile(&checked, &u))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    /// Whenever `largest_argument` answers, a payment exists exactly for the values up to it.
    #[test]
    fn the_largest_argument_agrees_with_exists(src in group_limited(), hand in small_hand(8), flag in 0i64..2) {
        let program = compiled(&src)?;
        if let Some(dearest) = ceiling::largest_argument(&program, &hand, &[0, flag], 0) {
            for p in -2i64..16 {
                prop_assert_eq!(
                    solve::exists(&program, &hand, &[p, flag]),
                    dearest.is_some_and(|d| p <= d),
                    "{} with $p = {} on {}", src, p, describe(&adversaries(), &hand)
                );
            }
        }
    }
}

#[test]
fn the_largest_argument_answers_a_one_colour_threshold_and_declines_an_exact_one() {
    let hand = {
        let mut h = vec![0u8; 15];
        h[..4].copy_from_slice(&[2, 1, 0, 3]);
        h
    };
    let threshold = compiled("distinct(color) <= 1 and sum(value) >= $p").unwrap();
    let dearest = ceiling::largest_argument(&threshold, &hand, &[0, 0], 0);
    assert!(matches!(dearest, Some(Some(_))), "{dearest:?}");
    // `= $p` also shrinks as the argument grows: no single ceiling describes it.
    let exact = compiled("sum(value) = $p").unwrap();
    assert_eq!(ceiling::largest_argument(&exact, &hand, &[0, 0], 0), None);
}

/// Filters that overlap one another in many ways: thresholds on the value, colours, and their
/// unions, so `cards(…)` with many of them is a hard matching.
fn overlapping_filter() -> impl Strategy<Value = String> {
    prop_oneof![
        (1i64..6).prop_map(|v| format!("value>={v}")),
        (1i64..6).prop_map(|v| format!("value<={v}")),
        prop::sample::select(COLORS.to_vec()).prop_map(|c| format!("color={c}")),
        (prop::sample::select(COLORS.to_vec()), 1i64..6)
            .prop_map(|(c, v)| format!("color={c} | value>={v}")),
        Just("*".to_string()),
    ]
}

fn many_filters() -> impl Strategy<Value = String> {
    prop::collection::vec(overlapping_filter(), 8..=24)
        .prop_map(|fs| format!("cards({})", fs.join(", ")))
}

/// A hand of up to `max` cards, each type at most `copies` times.
fn hand_of(max: usize, copies: u8) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec((0usize..15, 1u8..=copies), 0..=max).prop_map(|cards| {
        let mut counts = vec![0u8; 15];
        for (t, c) in cards {
            counts[t] = counts[t].max(c);
        }
        counts
    })
}

/// Conditions built to defeat pruning: products and differences of counts (neither growing
/// nor shrinking), many overlapping `cards(…)` filters, and deep nesting of both.
fn adversarial() -> impl Strategy<Value = String> {
    let count = || overlapping_filter().prop_map(|f| format!("count({f})"));
    let leaf = prop_oneof![
        (
            count(),
            count(),
            0i64..40,
            prop::sample::select(vec!["=", "!=", "<", ">="])
        )
            .prop_map(|(a, b, k, op)| format!("{a} * {b} {op} {k}")),
        (count(), count(), 0i64..10).prop_map(|(a, b, k)| format!("{a} - {b} = {k}")),
        many_filters(),
        (overlapping_filter(), 1i64..5).prop_map(|(f, k)| format!("distinct(value, {f}) = {k}")),
    ];
    leaf.prop_recursive(4, 8, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|x| format!("not ({x})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) and ({b})")),
            (inner.clone(), inner).prop_map(|(a, b)| format!("({a}) or ({b})")),
        ]
    })
}

fn parsed(src: &str) -> Result<cond::Expr, TestCaseError> {
    cond::parse(src).map_err(|e| TestCaseError::fail(format!("{src}: {e:?}")))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// `cards(…)` with up to 24 overlapping filters: the compiled matching agrees with the
    /// reference's item-by-item matching, within its polynomial step bound.
    #[test]
    fn many_overlapping_filters_agree_with_the_reference(src in many_filters(), hand in hand_of(15, 4)) {
        let u = adversaries();
        let program = compiled(&src)?;
        let want = reference::eval(&parsed(&src)?, &u, &[], &items(&hand)) != 0;
        prop_assert_eq!(program.test(&hand, &[0, 0]), want, "{} on {}", src, describe(&u, &hand));
        // The same matching, counting its steps, over the filters' type masks.
        let ExprKind::Cards(filters) = parsed(&src)?.kind else { unreachable!("a cards(…) call") };
        let masks: Vec<u64> = filters
            .iter()
            .map(|f| (0..15).filter(|&t| reference::filter_matches(f, &u, &[], t)).fold(0, |m, t| m | 1 << t))
            .collect();
        let held = (0..15).filter(|&t| hand[t] > 0).fold(0u64, |m, t| m | 1 << t);
        let mut steps = 0;
        let met = cond::compile::distinct_representatives(&masks, held, &hand, &mut steps);
        prop_assert_eq!(met, want);
        prop_assert!(steps <= cond::compile::matching_budget(masks.len()), "{} steps", steps);
    }

    /// On decks small enough to try every sub-multiset, the lint's question is answered (no
    /// giving up) and agrees with brute force; the values walk agrees too where it applies.
    #[test]
    fn adversarial_conditions_are_decided_like_brute_force(src in adversarial(), deck in hand_of(7, 2)) {
        let u = adversaries();
        let program = compiled(&src)?;
        let expr = parsed(&src)?;
        let any = !reference::brute_force_payments(&expr, &u, &[], &deck).is_empty();
        let decision = solve::satisfiable(&program, &src, &deck, &[0, 0]);
        let answer = match decision.answer {
            solve::Satisfiable::Yes => true,
            solve::Satisfiable::Never(_) => false,
            other => return Err(TestCaseError::fail(format!("{src}: {other:?}"))),
        };
        prop_assert_eq!(answer, any, "{} on {}", src, describe(&u, &deck));
        if let Some(by_values) = solve::exists_by_values(&program, &deck, &[0, 0]) {
            prop_assert_eq!(by_values, any, "by values: {} on {}", src, describe(&u, &deck));
        }
    }
}

proptest! {
    // Each case may spend the whole budget (a second or so): few cases.
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Over the full 44-card deck (too many sub-multisets to try), every adversarial condition
    /// is answered within the decision's step budget, counted, not timed.
    #[test]
    fn adversarial_conditions_stay_within_the_step_budget(src in adversarial()) {
        let program = compiled(&src)?;
        let decision = solve::satisfiable(&program, &src, &DECK, &[0, 0]);
        prop_assert!(decision.steps <= solve::DECIDE_BUDGET, "{}: {:?}", src, decision);
        let effort = solve::payments_counted(&program, &DECK, &[0, 0], |_| true);
        prop_assert!(effort.nodes <= solve::NODE_BUDGET, "{}: {:?}", src, effort);
    }
}
