//! Parsing: text → [`Expr`]. The pest grammar lives in `grammar.pest`; this module turns its
//! parse tree into the syntax tree and its failures into [`CondError`]s with a span.

use pest::Parser as _;
use pest::iterators::Pair;

use super::CondError;
use super::ast::{
    ArithOp, CmpOp, Expr, ExprKind, Filter, FilterKind, Literal, LiteralKind, Name, Span,
};
use crate::diag::did_you_mean;

#[derive(pest_derive::Parser)]
#[grammar = "cond/grammar.pest"]
struct ConditionParser;

/// Longest condition accepted; conditions are one-liners, this only guards the parser.
pub const MAX_LEN: usize = 4096;
/// Deepest nesting of parentheses and prefix operators accepted, so that no input can
/// exhaust the stack of the recursive-descent parser.
pub const MAX_DEPTH: usize = 48;

/// Most operators (`+ - * and or & | = <` …, each run of operator signs counted once) in one
/// condition. A chain of `+` or `and` is a tree as deep as it is long, and the checker,
/// compiler and solvers walk it recursively: within [`MAX_LEN`] a chain could still be
/// thousands deep and exhaust a thread's stack, so it is bounded here, before parsing.
pub const MAX_OPERATORS: usize = 128;

const FUNCTIONS: [&str; 4] = ["count", "sum", "distinct", "cards"];

/// Parses a condition or an integer expression. Errors carry a span into `src`.
pub fn parse(src: &str) -> Result<Expr, CondError> {
    guard(src)?;
    let mut pairs =
        ConditionParser::parse(Rule::condition, src).map_err(|e| syntax_error(src, e))?;
    let condition = pairs
        .next()
        .expect("the grammar's start rule always yields one pair");
    let expr = condition
        .into_inner()
        .next()
        .expect("condition holds an expr");
    build_expr(expr)
}

fn guard(src: &str) -> Result<(), CondError> {
    if src.len() > MAX_LEN {
        return Err(error(
            "condition-too-long",
            0..0,
            format!(
                "this condition is {} bytes long; the limit is {MAX_LEN}",
                src.len()
            ),
            "too long",
        )
        .with_help(
            "write it shorter: one filter picks many cards (`color=red | color=blue`), one \
             comparison covers many cases (`count(color=red) >= 1`)"
                .into(),
        ));
    }
    let (mut depth, mut deepest, mut prefix_run, mut at) = (0usize, 0usize, 0usize, 0usize);
    let bytes = src.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            b'-' | b'!' if i == 0 || !is_word_byte(bytes[i - 1]) => prefix_run += 1,
            b'n' if src[i..].starts_with("not") && (i == 0 || !is_word_byte(bytes[i - 1])) => {
                prefix_run += 1
            }
            b' ' | b'\t' | b'\r' | b'\n' | b'o' | b't' => {}
            _ => prefix_run = 0,
        }
        if depth + prefix_run > deepest {
            deepest = depth + prefix_run;
            at = i;
        }
    }
    if deepest > MAX_DEPTH {
        return Err(error(
            "condition-too-deep",
            at..at + 1,
            format!("this condition nests more than {MAX_DEPTH} levels deep"),
            "too deep here",
        )
        .with_help(
            "drop parentheses that group nothing: `and` binds tighter than `or`, `&` than `|`"
                .into(),
        ));
    }
    let mut operators = 0usize;
    let mut in_run = false;
    for (i, &b) in bytes.iter().enumerate() {
        let sign = matches!(
            b,
            b'+' | b'-' | b'*' | b'/' | b'&' | b'|' | b'=' | b'<' | b'>' | b'!'
        );
        let word = |w: &str| {
            src[i..].starts_with(w)
                && (i == 0 || !is_word_byte(bytes[i - 1]))
                && bytes
                    .get(i + w.len())
                    .is_none_or(|&n| !is_word_byte(n) && n != b'-')
        };
        if (sign && !in_run) || (b == b'a' && word("and")) || (b == b'o' && word("or")) {
            operators += 1;
            if operators > MAX_OPERATORS {
                return Err(error(
                    "condition-too-long",
                    i..i + 1,
                    format!("this condition has more than {MAX_OPERATORS} operators"),
                    "too many here",
                )
                .with_help(
                    "write it shorter: one filter picks many cards (`value>=3`), one \
                     comparison covers many cases (`count(color=red) >= 1`)"
                        .into(),
                ));
            }
        }
        in_run = sign;
    }
    Ok(())
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b')' || b == b'$'
}

fn error(code: &'static str, span: Span, message: impl Into<String>, label: &str) -> CondError {
    CondError {
        code,
        span,
        message: message.into(),
        label: label.into(),
        help: None,
    }
}

fn syntax_error(src: &str, e: pest::error::Error<Rule>) -> CondError {
    let at = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let expected = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => describe_expected(positives),
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    let found = match src[at..].chars().next() {
        None => "the end of the condition".to_string(),
        Some(c) => format!(
            "`{}`",
            src[at..]
                .split_whitespace()
                .next()
                .unwrap_or(&c.to_string())
        ),
    };
    let end = (at + src[at..].chars().next().map_or(0, char::len_utf8)).max(at);
    let mut err = error(
        "condition-syntax",
        at..end,
        format!("expected {expected}, found {found}"),
        "unexpected here",
    );
    if src[at..].starts_with("&&") || src[at..].starts_with("||") {
        err.help = Some(
            "combine conditions with `and` / `or`; `&` and `|` combine filters inside a function"
                .into(),
        );
    } else if src[at..].starts_with('&') || src[at..].starts_with('|') {
        err.help = Some("`&` and `|` combine filters inside count(…), sum(…); between conditions write `and` / `or`".into());
    }
    err
}

fn describe_expected(rules: &[Rule]) -> String {
    let mut words: Vec<&str> = Vec::new();
    for rule in rules {
        let word = match rule {
            Rule::cmp_op => "a comparison (>=, <=, =, !=, <, >)",
            Rule::and_op | Rule::or_op => "`and`, `or`",
            Rule::add_op | Rule::mul_op => "an operator",
            Rule::expr | Rule::or_expr | Rule::and_expr | Rule::not_expr | Rule::cmp_expr => {
                "a condition"
            }
            Rule::sum_expr
            | Rule::product
            | Rule::unary
            | Rule::primary
            | Rule::int
            | Rule::call
            | Rule::param => "a number, a parameter or a function such as count(…)",
            Rule::filter | Rule::f_and | Rule::f_unary | Rule::test | Rule::bare | Rule::all => {
                "a filter such as color=red or *"
            }
            Rule::literal | Rule::symbol | Rule::quoted => "a value",
            Rule::ident => "a name",
            Rule::EOI => "the end of the condition",
            Rule::f_and_op | Rule::f_or_op => "`&`, `|`",
            _ => "something else",
        };
        if !words.contains(&word) {
            words.push(word);
        }
    }
    match words.len() {
        0 => "something else".into(),
        1 => words[0].into(),
        _ => {
            let last = words.pop().unwrap_or_default();
            format!("{} or {last}", words.join(", "))
        }
    }
}

fn span(pair: &Pair<'_, Rule>) -> Span {
    let s = pair.as_span();
    s.start()..s.end()
}

fn build_expr(pair: Pair<'_, Rule>) -> Result<Expr, CondError> {
    let sp = span(&pair);
    match pair.as_rule() {
        Rule::expr => build_expr(only_child(pair)),
        Rule::or_expr | Rule::and_expr => fold_logic(pair),
        Rule::not_expr => {
            let mut inner = pair.into_inner();
            let first = inner.next().expect("not_expr is never empty");
            if first.as_rule() == Rule::not_op {
                let operand = build_expr(inner.next().expect("not is followed by an operand"))?;
                Ok(Expr {
                    kind: ExprKind::Not(Box::new(operand)),
                    span: sp,
                })
            } else {
                build_expr(first)
            }
        }
        Rule::cmp_expr => {
            let mut inner = pair.into_inner();
            let left = build_expr(inner.next().expect("comparison has a left side"))?;
            match inner.next() {
                None => Ok(left),
                Some(op) => {
                    let right = build_expr(inner.next().expect("comparison has a right side"))?;
                    let kind =
                        ExprKind::Compare(cmp_op(op.as_str()), Box::new(left), Box::new(right));
                    Ok(Expr { kind, span: sp })
                }
            }
        }
        Rule::sum_expr | Rule::product => fold_arith(pair),
        Rule::unary => {
            let mut inner = pair.into_inner();
            let first = inner.next().expect("unary is never empty");
            match first.as_rule() {
                Rule::neg_op => {
                    let operand = build_expr(inner.next().expect("minus has an operand"))?;
                    // `- 3` is the number -3, written with a space.
                    let kind = match operand.kind {
                        ExprKind::Int(i) if i != i64::MIN => ExprKind::Int(-i),
                        _ => ExprKind::Neg(Box::new(operand)),
                    };
                    Ok(Expr { kind, span: sp })
                }
                _ => build_expr(first),
            }
        }
        Rule::primary => build_expr(only_child(pair)),
        Rule::int => Ok(Expr {
            kind: ExprKind::Int(int(&pair)?),
            span: sp,
        }),
        Rule::bool_lit => Ok(Expr {
            kind: ExprKind::Bool(pair.as_str() == "true"),
            span: sp,
        }),
        Rule::param => Ok(Expr {
            kind: ExprKind::Param(pair.as_str()[1..].to_string()),
            span: sp,
        }),
        Rule::call => build_call(pair),
        rule => unreachable!("expression rule {rule:?} is handled above"),
    }
}

fn only_child(pair: Pair<'_, Rule>) -> Pair<'_, Rule> {
    pair.into_inner()
        .next()
        .expect("wrapper rules hold exactly one child")
}

fn fold_logic(pair: Pair<'_, Rule>) -> Result<Expr, CondError> {
    let is_and = pair.as_rule() == Rule::and_expr;
    let mut inner = pair
        .into_inner()
        .filter(|p| !matches!(p.as_rule(), Rule::and_op | Rule::or_op));
    let mut acc = build_expr(inner.next().expect("at least one operand"))?;
    for next in inner {
        let right = build_expr(next)?;
        let sp = acc.span.start..right.span.end;
        let kind = if is_and {
            ExprKind::And(Box::new(acc), Box::new(right))
        } else {
            ExprKind::Or(Box::new(acc), Box::new(right))
        };
        acc = Expr { kind, span: sp };
    }
    Ok(acc)
}

fn fold_arith(pair: Pair<'_, Rule>) -> Result<Expr, CondError> {
    let mut inner = pair.into_inner();
    let mut acc = build_expr(inner.next().expect("at least one operand"))?;
    while let Some(op) = inner.next() {
        let op = match op.as_str() {
            "+" => ArithOp::Add,
            "-" => ArithOp::Sub,
            _ => ArithOp::Mul,
        };
        let right = build_expr(inner.next().expect("an operator has a right operand"))?;
        let sp = acc.span.start..right.span.end;
        acc = Expr {
            kind: ExprKind::Arith(op, Box::new(acc), Box::new(right)),
            span: sp,
        };
    }
    Ok(acc)
}

fn int(pair: &Pair<'_, Rule>) -> Result<i64, CondError> {
    pair.as_str().parse::<i64>().map_err(|_| {
        error(
            "number-too-large",
            span(pair),
            format!("the number {} is too large", pair.as_str()),
            "too large",
        )
        .with_help(
            "a pack's numbers lie within ±1,000,000,000, so no sum of cards reaches a larger one"
                .into(),
        )
    })
}

fn cmp_op(text: &str) -> CmpOp {
    match text {
        "=" | "==" => CmpOp::Eq,
        "!=" => CmpOp::Ne,
        "<" => CmpOp::Lt,
        "<=" => CmpOp::Le,
        ">" => CmpOp::Gt,
        _ => CmpOp::Ge,
    }
}

/// An argument as written: either a filter or a bare name (an attribute, for sum/distinct).
enum Arg<'i> {
    Bare(Name),
    Filter(Pair<'i, Rule>),
}

fn build_call(pair: Pair<'_, Rule>) -> Result<Expr, CondError> {
    let sp = span(&pair);
    let mut inner = pair.into_inner();
    let name = inner.next().expect("a call starts with its name");
    let name_span = span(&name);
    let args: Vec<Arg<'_>> = inner.map(classify_arg).collect();
    let bad_args = |usage: &str| {
        error(
            "condition-arguments",
            sp.clone(),
            format!("wrong arguments for {}(…)", name.as_str()),
            "here",
        )
        .with_help(format!("write {usage}"))
    };
    let kind = match name.as_str() {
        "count" => match args.len() {
            0 => ExprKind::Count(Filter::all()),
            1 => ExprKind::Count(filter_arg(args.into_iter().next().expect("one argument"))?),
            _ => return Err(bad_args("count(filter), e.g. count(color=red)")),
        },
        "sum" => {
            let mut args = args.into_iter();
            match (args.next(), args.next(), args.next()) {
                (None, ..) => ExprKind::Sum(None, Filter::all()),
                (Some(Arg::Bare(attr)), None, _) => ExprKind::Sum(Some(attr), Filter::all()),
                (Some(first), None, _) => ExprKind::Sum(None, filter_arg(first)?),
                (Some(Arg::Bare(attr)), Some(filter), None) => {
                    ExprKind::Sum(Some(attr), filter_arg(filter)?)
                }
                _ => {
                    return Err(bad_args(
                        "sum(filter) or sum(attribute, filter), e.g. sum(color=red)",
                    ));
                }
            }
        }
        "distinct" => {
            let mut args = args.into_iter();
            match (args.next(), args.next(), args.next()) {
                (Some(Arg::Bare(attr)), None, _) => ExprKind::Distinct(attr, Filter::all()),
                (Some(Arg::Bare(attr)), Some(filter), None) => {
                    ExprKind::Distinct(attr, filter_arg(filter)?)
                }
                _ => {
                    return Err(bad_args(
                        "distinct(attribute) or distinct(attribute, filter), e.g. distinct(color)",
                    ));
                }
            }
        }
        "cards" => {
            if args.is_empty() {
                return Err(bad_args(
                    "cards(filter, filter, …), e.g. cards(value>=3, value>=4)",
                ));
            }
            ExprKind::Cards(args.into_iter().map(filter_arg).collect::<Result<_, _>>()?)
        }
        other => {
            let mut err = error(
                "unknown-function",
                name_span,
                format!("unknown function `{other}`"),
                "not a function of the condition language",
            );
            err.help = Some(match did_you_mean(other, FUNCTIONS) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!("the functions are {}", FUNCTIONS.join(", ")),
            });
            return Err(err);
        }
    };
    Ok(Expr { kind, span: sp })
}

trait WithHelp {
    fn with_help(self, help: String) -> Self;
}

impl WithHelp for CondError {
    fn with_help(mut self, help: String) -> Self {
        self.help = Some(help);
        self
    }
}

fn classify_arg(pair: Pair<'_, Rule>) -> Arg<'_> {
    // filter > f_and > f_unary > bare: a lone name with nothing around it.
    let sp = span(&pair);
    let mut node = pair.clone();
    loop {
        let mut inner = node.clone().into_inner();
        match (node.as_rule(), inner.next(), inner.next()) {
            (Rule::bare, Some(ident), None) => {
                return Arg::Bare(Name {
                    text: ident.as_str().to_string(),
                    span: sp,
                });
            }
            (Rule::filter | Rule::f_and | Rule::f_unary, Some(only), None) => node = only,
            _ => return Arg::Filter(pair),
        }
    }
}

fn filter_arg(arg: Arg<'_>) -> Result<Filter, CondError> {
    match arg {
        Arg::Filter(pair) => build_filter(pair),
        Arg::Bare(name) => Err(bare_name_error(&name)),
    }
}

fn bare_name_error(name: &Name) -> CondError {
    error(
        "condition-filter",
        name.span.clone(),
        format!("expected a filter, found the bare name `{}`", name.text),
        "not a filter",
    )
    .with_help(
        "a filter compares an attribute with a value: write e.g. color=red, value>=3, or * for \
         every card"
            .into(),
    )
}

fn build_filter(pair: Pair<'_, Rule>) -> Result<Filter, CondError> {
    let sp = span(&pair);
    match pair.as_rule() {
        Rule::filter | Rule::f_and => {
            let is_and = pair.as_rule() == Rule::f_and;
            let mut inner = pair
                .into_inner()
                .filter(|p| !matches!(p.as_rule(), Rule::f_and_op | Rule::f_or_op));
            let mut acc = build_filter(inner.next().expect("at least one operand"))?;
            for next in inner {
                let right = build_filter(next)?;
                let sp = acc.span.start..right.span.end;
                let kind = if is_and {
                    FilterKind::And(Box::new(acc), Box::new(right))
                } else {
                    FilterKind::Or(Box::new(acc), Box::new(right))
                };
                acc = Filter { kind, span: sp };
            }
            Ok(acc)
        }
        Rule::f_unary => {
            let mut inner = pair.into_inner();
            let first = inner.next().expect("f_unary is never empty");
            if first.as_rule() == Rule::f_not_op {
                let operand = build_filter(inner.next().expect("! has an operand"))?;
                Ok(Filter {
                    kind: FilterKind::Not(Box::new(operand)),
                    span: sp,
                })
            } else {
                build_filter(first)
            }
        }
        Rule::all => Ok(Filter {
            kind: FilterKind::All,
            span: sp,
        }),
        Rule::bare => {
            let ident = only_child(pair);
            Err(bare_name_error(&Name {
                text: ident.as_str().to_string(),
                span: sp,
            }))
        }
        Rule::test => {
            let mut inner = pair.into_inner();
            let attr = inner.next().expect("a test names an attribute");
            let op = inner.next().expect("a test has an operator");
            let lit = only_child(inner.next().expect("a test has a value"));
            let lit_span = span(&lit);
            let kind = match lit.as_rule() {
                Rule::int => LiteralKind::Int(int(&lit)?),
                Rule::param => LiteralKind::Param(lit.as_str()[1..].to_string()),
                Rule::quoted => {
                    let s = lit.as_str();
                    LiteralKind::Sym(s[1..s.len() - 1].to_string())
                }
                _ => LiteralKind::Sym(lit.as_str().to_string()),
            };
            Ok(Filter {
                kind: FilterKind::Test {
                    attr: Name {
                        text: attr.as_str().to_string(),
                        span: span(&attr),
                    },
                    op: cmp_op(op.as_str()),
                    value: Literal {
                        kind,
                        span: lit_span,
                    },
                },
                span: sp,
            })
        }
        rule => unreachable!("filter rule {rule:?} is handled above"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(src: &str) -> String {
        parse(src)
            .map(|e| e.to_string())
            .unwrap_or_else(|e| panic!("{src}: {e:?}"))
    }

    #[test]
    fn prints_canonically() {
        assert_eq!(round_trip("sum(color=red)>=8"), "sum(color=red) >= 8");
        assert_eq!(
            round_trip("cards(value>=3,value>=4)"),
            "cards(value>=3, value>=4)"
        );
        assert_eq!(
            round_trip("count(value >= 3) >= 2 or cards(color = red & value = 5)"),
            "count(value>=3) >= 2 or cards(color=red & value=5)"
        );
    }

    #[test]
    fn keeps_grouping_that_matters() {
        assert_eq!(
            round_trip("not (count() >= 1 and sum() < 2)"),
            "not (count(*) >= 1 and sum(*) < 2)"
        );
        assert_eq!(
            round_trip("(1 - 2) - 3 = 1 - (2 - 3)"),
            "1 - 2 - 3 = 1 - (2 - 3)"
        );
        assert_eq!(
            round_trip("count(!(color=red | color=blue) & value>1) > 0"),
            "count(!(color=red | color=blue) & value>1) > 0"
        );
        assert_eq!(round_trip("- 3 < -(4)"), "-3 < -4");
        assert_eq!(round_trip("-count(*) < 0"), "-count(*) < 0");
    }

    #[test]
    fn reads_bare_attributes_in_sum_and_distinct() {
        let e = parse("sum(strength, suit=red) >= $power and distinct(suit) <= 1").unwrap();
        assert_eq!(
            e.to_string(),
            "sum(strength, suit=red) >= $power and distinct(suit) <= 1"
        );
    }

    #[test]
    fn explains_syntax_errors_with_a_span() {
        let e = parse("sum(color=red) >= ").unwrap_err();
        assert_eq!(e.code, "condition-syntax");
        assert_eq!(e.span, 18..18);
        assert!(e.message.starts_with("expected a number"), "{}", e.message);
        let e = parse("summ(color=red) >= 8").unwrap_err();
        assert_eq!((e.code, e.span.clone()), ("unknown-function", 0..4));
        assert_eq!(e.help.as_deref(), Some("did you mean `sum`?"));
        let e = parse("count(color) >= 1").unwrap_err();
        assert_eq!((e.code, e.span.clone()), ("condition-filter", 6..11));
        let e = parse("count(color=red) >= 1 && true").unwrap_err();
        assert!(e.help.unwrap().contains("`and`"));
    }

    #[test]
    fn refuses_deep_and_huge_inputs_without_recursing() {
        let deep = format!("{}1{}", "(".repeat(100), ")".repeat(100));
        assert_eq!(parse(&deep).unwrap_err().code, "condition-too-deep");
        let nots = format!("{}true", "not ".repeat(100));
        assert_eq!(parse(&nots).unwrap_err().code, "condition-too-deep");
        assert_eq!(
            parse(&"1+".repeat(5000)).unwrap_err().code,
            "condition-too-long"
        );
        assert_eq!(
            parse("99999999999999999999 > 1").unwrap_err().code,
            "number-too-large"
        );
    }

    /// A chain of `+` (or `and`) is a tree as deep as it is long: past [`MAX_OPERATORS`] it
    /// is refused before parsing, and one at the limit parses and prints on a small stack.
    #[test]
    fn long_chains_are_refused_before_they_are_parsed() {
        let long = format!("count(*){} >= 1", "+1".repeat(2000));
        assert!(long.len() < MAX_LEN);
        let err = parse(&long).unwrap_err();
        assert_eq!(err.code, "condition-too-long", "{err:?}");
        let and = format!("count(*) >= 1{}", " and count(*) >= 1".repeat(150));
        assert_eq!(parse(&and).unwrap_err().code, "condition-too-long");
        let most = format!("count(*){} >= 1", "+1".repeat(MAX_OPERATORS - 3));
        std::thread::Builder::new()
            .stack_size(512 * 1024)
            .spawn(move || round_trip(&most))
            .unwrap()
            .join()
            .unwrap();
        // Dashes inside names are operators only to this count: a long filter still fits.
        assert!(parse("count(color=red-ish | color=blue-ish) >= 1").is_ok());
    }
}
