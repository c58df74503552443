//! A condition in plain words, for players: `sum(color=red) >= 8` reads "red cards worth 8
//! or more in total", `cards(value>=3, value>=4)` "two different cards: one of value 3 or
//! more and one of value 4 or more".
//!
//! It reads the parsed tree of a condition that has passed [`super::check`] (the checked tree
//! has folded the pack's constants, and `$power` reads better than its slot), with the
//! [`Universe`] telling number attributes from lists. Every construct has a wording; a
//! filter that has no good one is quoted as written.

use super::Universe;
use super::ast::{ArithOp, CmpOp, Expr, ExprKind, Filter, FilterKind, Literal, LiteralKind};
use super::universe::Domain;

/// The condition `expr` in words. `names` gives the card types' names in the order of
/// `universe.types` (`id=queen-iseult` reads "Queen Iseult"); ids stand for missing names.
pub fn words(expr: &Expr, universe: &Universe, names: &[&str]) -> String {
    Words { universe, names }.expr(expr)
}

/// `text` parsed and put in words; `None` when it does not parse.
pub fn describe(text: &str, universe: &Universe, names: &[&str]) -> Option<String> {
    super::parse(text).ok().map(|e| words(&e, universe, names))
}

struct Words<'u> {
    universe: &'u Universe,
    names: &'u [&'u str],
}

/// Which cards a filter picks, as words around the noun "card".
#[derive(Clone, Debug)]
enum Phrase {
    /// `pre` card(s) `post`: "red cards of value 5".
    Cards { pre: Vec<String>, post: Vec<String> },
    /// Cards of any of these kinds.
    Either(Vec<Phrase>),
}

impl Phrase {
    fn any() -> Phrase {
        Phrase::Cards {
            pre: Vec::new(),
            post: Vec::new(),
        }
    }
    fn post(text: String) -> Phrase {
        Phrase::Cards {
            pre: Vec::new(),
            post: vec![text],
        }
    }
    /// "red cards", or "red card" for one.
    fn noun(&self, plural: bool) -> String {
        match self {
            Phrase::Cards { pre, post } => {
                let mut parts = pre.clone();
                parts.push(if plural { "cards" } else { "card" }.into());
                if !post.is_empty() {
                    parts.push(post.join(" and "));
                }
                parts.join(" ")
            }
            Phrase::Either(options) if options.iter().all(Phrase::is_adjectives) => {
                let adjectives: Vec<String> = options.iter().map(|o| o.adjectives()).collect();
                let noun = if plural { "cards" } else { "card" };
                format!("{} {noun}", list(&adjectives, "or"))
            }
            Phrase::Either(options) => {
                let nouns: Vec<String> = options.iter().map(|o| o.noun(plural)).collect();
                list(&nouns, "or")
            }
        }
    }
    /// The words after "one" in `cards(…)`: "green", "of value 3 or more", "red card of value 5".
    fn one(&self) -> String {
        match self {
            Phrase::Cards { pre, post } if pre.is_empty() && post.is_empty() => {
                "of any kind".into()
            }
            Phrase::Cards { pre, post } if post.is_empty() => pre.join(" "),
            Phrase::Cards { pre, post } if pre.is_empty() => post.join(" and "),
            _ => self.noun(false),
        }
    }
    fn is_adjectives(&self) -> bool {
        matches!(self, Phrase::Cards { pre, post } if !pre.is_empty() && post.is_empty())
    }
    fn adjectives(&self) -> String {
        match self {
            Phrase::Cards { pre, .. } => pre.join(" "),
            Phrase::Either(_) => String::new(),
        }
    }
}

impl Words<'_> {
    fn expr(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Bool(true) => "always".into(),
            ExprKind::Bool(false) => "never".into(),
            ExprKind::Param(name) => format!("`${name}` is on"),
            ExprKind::Not(inner) => format!("not ({})", self.expr(inner)),
            ExprKind::And(a, b) => format!("{} and {}", self.part(a, true), self.part(b, true)),
            ExprKind::Or(a, b) => format!("{}, or {}", self.part(a, false), self.part(b, false)),
            ExprKind::Compare(op, a, b) => self.compare(*op, a, b),
            ExprKind::Cards(filters) => self.cards(filters),
            // A number standing for itself: a cost, a score.
            _ => self.number(e),
        }
    }

    /// One side of `and`/`or`: an `or` inside an `and` is bracketed with "either".
    fn part(&self, e: &Expr, in_and: bool) -> String {
        match &e.kind {
            ExprKind::Or(..) if in_and => format!("either {}", self.expr(e)),
            _ => self.expr(e),
        }
    }

    fn compare(&self, op: CmpOp, a: &Expr, b: &Expr) -> String {
        // The cards on the left, the bound on the right: `3 <= count(*)` is `count(*) >= 3`.
        let (op, a, b) = if is_bound(a) && !is_bound(b) {
            (op.mirrored(), b, a)
        } else {
            (op, a, b)
        };
        if is_bound(b) {
            let bound = self.number(b);
            let one = matches!(b.kind, ExprKind::Int(1));
            match &a.kind {
                ExprKind::Count(f) if op != CmpOp::Ne => {
                    let quantity = match op {
                        CmpOp::Ge => "at least",
                        CmpOp::Le => "at most",
                        CmpOp::Eq => "exactly",
                        CmpOp::Gt => "more than",
                        _ => "fewer than",
                    };
                    let noun = self.filter(f).noun(!one);
                    return format!("{quantity} {bound} {noun}");
                }
                ExprKind::Sum(attr, f) => {
                    let cards = self.filter(f).noun(true);
                    let amount = amount(op, &bound);
                    return match self.summed(attr.as_ref().map(|n| n.text.as_str())) {
                        None => format!("{cards} worth {amount} in total"),
                        Some(attr) => format!("{cards} with a total {attr} of {amount}"),
                    };
                }
                ExprKind::Distinct(attr, f) if op != CmpOp::Ne => {
                    let quantity = match op {
                        CmpOp::Ge => "at least",
                        CmpOp::Le => "at most",
                        CmpOp::Eq => "exactly",
                        CmpOp::Gt => "more than",
                        _ => "fewer than",
                    };
                    let (cards, note) = self.among(&attr.text, f);
                    let many = match b.kind {
                        ExprKind::Int(n) => number_word(n),
                        _ => bound,
                    };
                    let attr = attr_words(&attr.text);
                    let attr = if one { attr } else { plural(&attr) };
                    return format!("{cards} of {quantity} {many} {attr}{note}");
                }
                _ => {}
            }
        }
        let verb = match op {
            CmpOp::Ge => "is at least",
            CmpOp::Le => "is at most",
            CmpOp::Eq => "is",
            CmpOp::Gt => "is more than",
            CmpOp::Lt => "is less than",
            CmpOp::Ne => "is not",
        };
        format!("{} {verb} {}", self.number(a), self.number(b))
    }

    /// The attribute a sum names, in words; `None` for the set's value ("worth"), which
    /// `sum(filter)` adds up without naming it.
    fn summed(&self, attr: Option<&str>) -> Option<String> {
        attr.map(attr_words)
    }

    /// The cards `distinct(attr, f)` looks at, and a note for the values it leaves out:
    /// `distinct(suit, suit != wild)` is "cards" "(not counting wild)".
    fn among(&self, attr: &str, f: &Filter) -> (String, String) {
        if let FilterKind::Test {
            attr: tested,
            op: CmpOp::Ne,
            value,
        } = &f.kind
            && tested.text == attr
        {
            let left_out = literal(value, tested.text != "id");
            return ("cards".into(), format!(" (not counting {left_out})"));
        }
        (self.filter(f).noun(true), String::new())
    }

    fn cards(&self, filters: &[Filter]) -> String {
        if let [only] = filters {
            return format!("a {}", self.filter(only).noun(false));
        }
        let ones: Vec<String> = filters
            .iter()
            .map(|f| format!("one {}", self.filter(f).one()))
            .collect();
        format!(
            "{} different cards: {}",
            number_word(filters.len() as i64),
            list(&ones, "and")
        )
    }

    /// A number in words: "the number of red cards", "the total worth of cards", `$power`.
    fn number(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Int(n) => n.to_string(),
            ExprKind::Param(name) => format!("${name}"),
            ExprKind::Count(f) => format!("the number of {}", self.filter(f).noun(true)),
            ExprKind::Sum(attr, f) => {
                let cards = self.filter(f).noun(true);
                match self.summed(attr.as_ref().map(|n| n.text.as_str())) {
                    None => format!("the total worth of {cards}"),
                    Some(attr) => format!("the total {attr} of {cards}"),
                }
            }
            ExprKind::Distinct(attr, f) => {
                let (cards, note) = self.among(&attr.text, f);
                let attr = plural(&attr_words(&attr.text));
                format!("the number of different {attr} among {cards}{note}")
            }
            ExprKind::Arith(op, a, b) => {
                let word = match op {
                    ArithOp::Add => "plus",
                    ArithOp::Sub => "minus",
                    ArithOp::Mul => "times",
                };
                format!("{} {word} {}", self.number(a), self.number(b))
            }
            ExprKind::Neg(a) => format!("minus {}", self.number(a)),
            // A condition where a number belongs does not check; quote it as written.
            _ => format!("`{e}`"),
        }
    }

    fn filter(&self, f: &Filter) -> Phrase {
        match &f.kind {
            FilterKind::All => Phrase::any(),
            FilterKind::Test { attr, op, value } => self.test(&attr.text, *op, value),
            FilterKind::Not(inner) => match &inner.kind {
                FilterKind::Test { attr, op, value } => self.test(&attr.text, negated(*op), value),
                _ => Phrase::post(format!("other than {}", self.filter(inner).noun(true))),
            },
            FilterKind::And(a, b) => match (self.filter(a), self.filter(b)) {
                (
                    Phrase::Cards { pre, post },
                    Phrase::Cards {
                        pre: pre_b,
                        post: post_b,
                    },
                ) => Phrase::Cards {
                    pre: pre.into_iter().chain(pre_b).collect(),
                    post: post.into_iter().chain(post_b).collect(),
                },
                _ => Phrase::post(format!("matching `{f}`")),
            },
            FilterKind::Or(..) => {
                let mut options = Vec::new();
                flatten_or(f, &mut options);
                // Several values of one list attribute: "with named foe dragon or all".
                if let Some((attr, values)) = self.one_attribute(&options) {
                    return Phrase::post(format!(
                        "with {} {}",
                        attr_words(attr),
                        list(&values, "or")
                    ));
                }
                Phrase::Either(options.iter().map(|o| self.filter(o)).collect())
            }
        }
    }

    /// When every option is `attr=value` for one list attribute: the attribute and values.
    fn one_attribute<'f>(&self, options: &[&'f Filter]) -> Option<(&'f str, Vec<String>)> {
        let mut name = None;
        let mut values = Vec::new();
        for option in options {
            let FilterKind::Test {
                attr,
                op: CmpOp::Eq,
                value,
            } = &option.kind
            else {
                return None;
            };
            if name.is_some_and(|n| n != attr.text) || !self.is_list(&attr.text, value) {
                return None;
            }
            name = Some(attr.text.as_str());
            values.push(if attr.text == "id" {
                self.card_name(value)
            } else {
                literal(value, true)
            });
        }
        name.map(|n| (n, values))
    }

    /// The name of the card type an `id=` test names, else the id as written.
    fn card_name(&self, value: &Literal) -> String {
        let id = literal(value, false);
        self.universe
            .type_index(&id)
            .and_then(|t| self.names.get(t))
            .map_or(id, |name| (*name).to_string())
    }

    /// Whether `attr` holds names (`color`, `id`) rather than numbers.
    fn is_list(&self, attr: &str, value: &Literal) -> bool {
        match self.universe.attr_index(attr) {
            Some(i) => matches!(self.universe.attrs[i].domain, Domain::Symbols(_)),
            None => matches!(value.kind, LiteralKind::Sym(_)),
        }
    }

    fn test(&self, attr: &str, op: CmpOp, value: &Literal) -> Phrase {
        if attr == "id" {
            let id = self.card_name(value);
            return match op {
                CmpOp::Eq => Phrase::Cards {
                    pre: vec![id],
                    post: Vec::new(),
                },
                _ => Phrase::post(format!("other than {id}")),
            };
        }
        if self.is_list(attr, value) {
            let name = literal(value, true);
            let attr = attr_words(attr);
            // A yes/no attribute is a property the card has or lacks: "cards with carpet".
            return match (op, name.as_str()) {
                (CmpOp::Eq, "yes") | (CmpOp::Ne, "no") => Phrase::post(format!("with {attr}")),
                (CmpOp::Eq, "no") | (CmpOp::Ne, "yes") => Phrase::post(format!("without {attr}")),
                (CmpOp::Eq, _) => Phrase::Cards {
                    pre: vec![name],
                    post: Vec::new(),
                },
                _ => Phrase::post(format!("whose {attr} is not {name}")),
            };
        }
        let bound = literal(value, false);
        Phrase::post(format!("of {} {}", attr_words(attr), amount(op, &bound)))
    }
}

/// A number the cards are held to: a literal, a parameter, or arithmetic of them.
fn is_bound(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Param(_) => true,
        ExprKind::Neg(a) => is_bound(a),
        ExprKind::Arith(_, a, b) => is_bound(a) && is_bound(b),
        _ => false,
    }
}

fn flatten_or<'f>(f: &'f Filter, out: &mut Vec<&'f Filter>) {
    match &f.kind {
        FilterKind::Or(a, b) => {
            flatten_or(a, out);
            flatten_or(b, out);
        }
        _ => out.push(f),
    }
}

/// `!(value >= 3)` is `value < 3`.
fn negated(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Ge => CmpOp::Lt,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
    }
}

/// "3 or more", "exactly 3", "less than $limit".
fn amount(op: CmpOp, bound: &str) -> String {
    match op {
        CmpOp::Ge => format!("{bound} or more"),
        CmpOp::Le => format!("{bound} or less"),
        CmpOp::Eq => bound.to_string(),
        CmpOp::Gt => format!("more than {bound}"),
        CmpOp::Lt => format!("less than {bound}"),
        CmpOp::Ne => format!("other than {bound}"),
    }
}

/// A value as players read it: `dark-power` is "dark power"; ids stay as written.
fn literal(value: &Literal, spaced: bool) -> String {
    match &value.kind {
        LiteralKind::Int(n) => n.to_string(),
        LiteralKind::Param(name) => format!("${name}"),
        LiteralKind::Sym(s) if spaced => s.replace('-', " "),
        LiteralKind::Sym(s) => s.clone(),
    }
}

fn attr_words(attr: &str) -> String {
    attr.replace(['_', '-'], " ")
}

fn plural(noun: &str) -> String {
    if noun.ends_with('s') {
        format!("{noun}es")
    } else {
        format!("{noun}s")
    }
}

fn number_word(n: i64) -> String {
    const WORDS: [&str; 11] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    usize::try_from(n)
        .ok()
        .and_then(|i| WORDS.get(i))
        .map_or_else(|| n.to_string(), |w| (*w).to_string())
}

/// "a", "a or b", "a, b and c".
fn list(items: &[String], last: &str) -> String {
    match items {
        [] => String::new(),
        [only] => only.clone(),
        [init @ .., tail] => format!("{} {last} {tail}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cond::{Attr, ItemType};

    fn universe() -> Universe {
        let attrs = vec![
            Attr {
                name: "color".into(),
                domain: Domain::Symbols(vec!["red".into(), "green".into(), "blue".into()]),
            },
            Attr {
                name: "kind".into(),
                domain: Domain::Symbols(vec!["dark-power".into(), "monster".into()]),
            },
            Attr {
                name: "value".into(),
                domain: Domain::Int { min: 1, max: 5 },
            },
            Attr {
                name: "strength".into(),
                domain: Domain::Int { min: 1, max: 2 },
            },
            Attr {
                name: "suit".into(),
                domain: Domain::Symbols(vec!["red".into(), "merlin".into()]),
            },
            Attr {
                name: "named_foe".into(),
                domain: Domain::Symbols(vec!["dragon".into(), "all".into()]),
            },
            Attr {
                name: "carpet".into(),
                domain: Domain::Symbols(vec!["yes".into(), "no".into()]),
            },
        ];
        Universe {
            attrs,
            types: vec![ItemType {
                id: "red-5".into(),
                values: vec![None; 7],
            }],
            value_attr: Some(2),
        }
    }

    fn said(text: &str) -> String {
        describe(text, &universe(), &["Red Dragon"]).expect("parses")
    }

    #[test]
    fn the_issue_examples_read_as_the_issue_says() {
        assert_eq!(
            said("sum(color=red) >= 8"),
            "red cards worth 8 or more in total"
        );
        assert_eq!(
            said("cards(value>=3, value>=4)"),
            "two different cards: one of value 3 or more and one of value 4 or more"
        );
        assert_eq!(
            said("distinct(suit, suit != merlin) <= 1"),
            "cards of at most one suit (not counting merlin)"
        );
        assert_eq!(said("count(*) >= 2"), "at least 2 cards");
    }

    #[test]
    fn counts_read_as_quantities() {
        assert_eq!(said("count(color=red) >= 1"), "at least 1 red card");
        assert_eq!(said("count() <= 3"), "at most 3 cards");
        assert_eq!(said("count(*) = 2"), "exactly 2 cards");
        assert_eq!(said("count(*) > 1"), "more than 1 card");
        assert_eq!(
            said("count(value>=3) < 2"),
            "fewer than 2 cards of value 3 or more"
        );
        assert_eq!(said("2 <= count(*)"), "at least 2 cards");
        assert_eq!(said("count(*) != 2"), "the number of cards is not 2");
        assert_eq!(said("count(*) >= $n"), "at least $n cards");
    }

    #[test]
    fn sums_read_as_worth_or_as_a_total_of_their_attribute() {
        assert_eq!(said("sum(*) >= 12"), "cards worth 12 or more in total");
        assert_eq!(said("sum() = 5"), "cards worth 5 in total");
        assert_eq!(
            said("sum(value, color=blue) < 4"),
            "blue cards with a total value of less than 4"
        );
        assert_eq!(
            said("sum(strength) >= $power"),
            "cards with a total strength of $power or more"
        );
        assert_eq!(
            said("sum(strength) <= 3"),
            "cards with a total strength of 3 or less"
        );
        assert_eq!(said("sum(*) > 2"), "cards worth more than 2 in total");
        assert_eq!(said("sum(*) != 2"), "cards worth other than 2 in total");
    }

    #[test]
    fn distinct_counts_kinds_of_values() {
        assert_eq!(
            said("distinct(color) >= 3"),
            "cards of at least three colors"
        );
        assert_eq!(said("distinct(kind) = 1"), "cards of exactly one kind");
        assert_eq!(
            said("distinct(color, value>=2) > 1"),
            "cards of value 2 or more of more than one color"
        );
        assert_eq!(
            said("distinct(color) != 2"),
            "the number of different colors among cards is not 2"
        );
    }

    #[test]
    fn cards_names_one_card_per_filter() {
        assert_eq!(
            said("cards(color=green, color=blue, color=red)"),
            "three different cards: one green, one blue and one red"
        );
        assert_eq!(
            said("cards(kind=dark-power, kind=monster)"),
            "two different cards: one dark power and one monster"
        );
        assert_eq!(said("cards(color=red & value=5)"), "a red card of value 5");
        assert_eq!(
            said("cards(*, color=red & value=5)"),
            "two different cards: one of any kind and one red card of value 5"
        );
    }

    #[test]
    fn filters_of_every_shape() {
        assert_eq!(said("count(value=5) >= 1"), "at least 1 card of value 5");
        assert_eq!(
            said("count(value<=2) >= 1"),
            "at least 1 card of value 2 or less"
        );
        assert_eq!(
            said("count(value>2) >= 1"),
            "at least 1 card of value more than 2"
        );
        assert_eq!(
            said("count(value!=2) >= 1"),
            "at least 1 card of value other than 2"
        );
        assert_eq!(
            said("count(value>=$limit) >= 1"),
            "at least 1 card of value $limit or more"
        );
        assert_eq!(
            said("count(carpet=yes) >= 2"),
            "at least 2 cards with carpet"
        );
        assert_eq!(
            said("count(carpet!=yes) = 1"),
            "exactly 1 card without carpet"
        );
        assert_eq!(
            said("count(carpet=no) >= 1"),
            "at least 1 card without carpet"
        );
        assert_eq!(
            said("count(color!=red) >= 1"),
            "at least 1 card whose color is not red"
        );
        assert_eq!(
            said("count(!color=red) >= 1"),
            "at least 1 card whose color is not red"
        );
        assert_eq!(
            said("count(!(value>=3)) >= 1"),
            "at least 1 card of value less than 3"
        );
        assert_eq!(
            said("count(!(color=red | color=blue)) >= 1"),
            "at least 1 card other than cards with color red or blue"
        );
        assert_eq!(
            said("count(named_foe=dragon | named_foe=all) >= 1"),
            "at least 1 card with named foe dragon or all"
        );
        assert_eq!(
            said("count(color=red | value=5) >= 2"),
            "at least 2 red cards or cards of value 5"
        );
        assert_eq!(
            said("count(color=red | kind=monster) >= 2"),
            "at least 2 red or monster cards"
        );
        assert_eq!(said("count(id=red-5) >= 1"), "at least 1 Red Dragon card");
        assert_eq!(
            said("count(id!=red-5) >= 1"),
            "at least 1 card other than Red Dragon"
        );
        assert_eq!(said("count(id=blue-1) >= 1"), "at least 1 blue-1 card");
        assert_eq!(
            said("count(id=red-5 | id=blue-1) >= 1"),
            "at least 1 card with id Red Dragon or blue-1"
        );
        assert_eq!(
            said("count((color=red | color=blue) & value=5) >= 1"),
            "at least 1 card with color red or blue and of value 5"
        );
        assert_eq!(
            said("count((color=red | value=5) & kind=monster) >= 1"),
            "at least 1 card matching `(color=red | value=5) & kind=monster`"
        );
    }

    #[test]
    fn combinations_constants_and_numbers() {
        assert_eq!(
            said("count(value>=3) >= 2 or cards(color=red & value=5)"),
            "at least 2 cards of value 3 or more, or a red card of value 5"
        );
        assert_eq!(
            said("distinct(color) >= 3 and sum(*) >= 10"),
            "cards of at least three colors and cards worth 10 or more in total"
        );
        assert_eq!(
            said("count(*) >= 1 and (sum(*) >= 3 or $overpay)"),
            "at least 1 card and either cards worth 3 or more in total, or `$overpay` is on"
        );
        assert_eq!(said("not count(*) >= 2"), "not (at least 2 cards)");
        assert_eq!(said("true"), "always");
        assert_eq!(said("false"), "never");
        assert_eq!(said("sum(value)"), "the total value of cards");
        assert_eq!(said("sum(color=red)"), "the total worth of red cards");
        assert_eq!(said("count(*)"), "the number of cards");
        assert_eq!(
            said("count(*) * distinct(value) = 7"),
            "the number of cards times the number of different values among cards is 7"
        );
        assert_eq!(
            said("sum(*) - count(*) >= -1"),
            "the total worth of cards minus the number of cards is at least -1"
        );
        assert_eq!(
            said("count(*) + 1 > sum(strength)"),
            "the number of cards plus 1 is more than the total strength of cards"
        );
        assert_eq!(
            said("-count(*) < 0"),
            "minus the number of cards is less than 0"
        );
    }
}
