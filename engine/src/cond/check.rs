//! Checking: every attribute name, value, parameter and type against the [`Universe`] and
//! [`Params`], with did-you-mean help. The result is a resolved tree ([`Checked`]) with
//! attribute and type indices instead of names, ready to compile.

use super::ast::{ArithOp, CmpOp, Expr, ExprKind, Filter, FilterKind, LiteralKind, Name, Span};
use super::{CondError, Domain, Params, Universe, Value};
use crate::diag::did_you_mean;

/// The most filters `cards(…)` takes: as many as a condition has item types.
pub const MAX_CARDS_FILTERS: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// A condition: true or false.
    Bool,
    /// A whole number.
    Int,
}

impl Type {
    fn noun(self) -> &'static str {
        match self {
            Type::Bool => "a condition (true or false)",
            Type::Int => "a number",
        }
    }
}

/// A condition whose names all resolved. Compile it with [`super::compile`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub ty: Type,
    pub(crate) root: Node,
    /// Number of runtime arguments the rules must pass.
    pub args: usize,
}

impl Checked {
    /// Fails unless the expression has type `want` (a rule that needs a condition was given a
    /// number, or the other way round).
    pub fn expect(&self, want: Type) -> Result<(), CondError> {
        if self.ty == want {
            return Ok(());
        }
        Err(CondError {
            code: "condition-type",
            span: self.root.span.clone(),
            message: format!("expected {}, found {}", want.noun(), self.ty.noun()),
            label: format!("this is {}", self.ty.noun()),
            help: Some(match want {
                Type::Bool => "compare it with something, e.g. `count(*) >= 2`".into(),
                Type::Int => "write a number such as `sum(value)` or `count(*)`".into(),
            }),
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Node {
    pub kind: NodeKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum NodeKind {
    /// A literal or pack constant (booleans as 0/1).
    Const(i64),
    /// A runtime argument, by slot.
    Arg(usize),
    Not(Box<Node>),
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
    Cmp(CmpOp, Box<Node>, Box<Node>),
    Arith(ArithOp, Box<Node>, Box<Node>),
    Neg(Box<Node>),
    Count(RFilter),
    /// Sum of an integer attribute over the matching items.
    Sum(usize, RFilter),
    Distinct(AttrRef, RFilter),
    Cards(Vec<RFilter>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AttrRef {
    /// The item type itself (`id=red-5`).
    Id,
    Attr(usize),
}

/// A filter with names resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RFilter {
    All,
    Id {
        equal: bool,
        ty: usize,
    },
    Test {
        attr: usize,
        op: CmpOp,
        value: Value,
    },
    Not(Box<RFilter>),
    And(Box<RFilter>, Box<RFilter>),
    Or(Box<RFilter>, Box<RFilter>),
}

impl RFilter {
    /// Whether items of type `ty` match. Items lacking the attribute never match a test.
    pub(crate) fn matches(&self, universe: &Universe, ty: usize) -> bool {
        match self {
            RFilter::All => true,
            RFilter::Id { equal, ty: want } => (ty == *want) == *equal,
            RFilter::Test { attr, op, value } => match (universe.value(ty, *attr), value) {
                (Some(Value::Int(have)), Value::Int(want)) => op.holds(have, *want),
                (Some(Value::Sym(have)), Value::Sym(want)) => {
                    op.holds(i64::from(have), i64::from(*want))
                }
                _ => false,
            },
            RFilter::Not(f) => !f.matches(universe, ty),
            RFilter::And(a, b) => a.matches(universe, ty) && b.matches(universe, ty),
            RFilter::Or(a, b) => a.matches(universe, ty) || b.matches(universe, ty),
        }
    }
}

/// Resolves `expr` against a universe and parameters. Reports every problem it finds.
pub fn check(expr: &Expr, universe: &Universe, params: &Params) -> Result<Checked, Vec<CondError>> {
    let mut checker = Checker {
        universe,
        params,
        errors: Vec::new(),
    };
    let result = checker.expr(expr);
    match result {
        Some((root, ty)) if checker.errors.is_empty() => Ok(Checked {
            ty,
            root,
            args: params.decls.iter().filter(|d| d.constant.is_none()).count(),
        }),
        _ => Err(checker.errors),
    }
}

struct Checker<'a> {
    universe: &'a Universe,
    params: &'a Params,
    errors: Vec<CondError>,
}

fn err(
    code: &'static str,
    span: Span,
    message: String,
    label: impl Into<String>,
    help: Option<String>,
) -> CondError {
    CondError {
        code,
        span,
        message,
        label: label.into(),
        help,
    }
}

impl<'a> Checker<'a> {
    fn expr(&mut self, e: &Expr) -> Option<(Node, Type)> {
        let node = |kind| Node {
            kind,
            span: e.span.clone(),
        };
        Some(match &e.kind {
            ExprKind::Bool(b) => (node(NodeKind::Const(i64::from(*b))), Type::Bool),
            ExprKind::Int(i) => (node(NodeKind::Const(*i)), Type::Int),
            ExprKind::Param(name) => {
                let (kind, ty) = self.param(name, &e.span)?;
                (node(kind), ty)
            }
            ExprKind::Not(x) => {
                let x = self.typed(x, Type::Bool, "`not` negates a condition");
                (node(NodeKind::Not(Box::new(x?))), Type::Bool)
            }
            ExprKind::And(a, b) | ExprKind::Or(a, b) => {
                let word = if matches!(e.kind, ExprKind::And(..)) {
                    "and"
                } else {
                    "or"
                };
                let why = format!("`{word}` joins two conditions");
                let a = self.typed(a, Type::Bool, &why);
                let b = self.typed(b, Type::Bool, &why);
                let (a, b) = (Box::new(a?), Box::new(b?));
                let kind = if word == "and" {
                    NodeKind::And(a, b)
                } else {
                    NodeKind::Or(a, b)
                };
                (node(kind), Type::Bool)
            }
            ExprKind::Compare(op, a, b) => {
                let why = format!("`{}` compares two numbers", op.symbol());
                let a = self.typed(a, Type::Int, &why);
                let b = self.typed(b, Type::Int, &why);
                (
                    node(NodeKind::Cmp(*op, Box::new(a?), Box::new(b?))),
                    Type::Bool,
                )
            }
            ExprKind::Arith(op, a, b) => {
                let why = format!("`{}` works on numbers", op.symbol());
                let a = self.typed(a, Type::Int, &why);
                let b = self.typed(b, Type::Int, &why);
                (
                    node(NodeKind::Arith(*op, Box::new(a?), Box::new(b?))),
                    Type::Int,
                )
            }
            ExprKind::Neg(x) => {
                let x = self.typed(x, Type::Int, "`-` negates a number");
                (node(NodeKind::Neg(Box::new(x?))), Type::Int)
            }
            ExprKind::Count(f) => (node(NodeKind::Count(self.filter(f)?)), Type::Int),
            ExprKind::Sum(attr, f) => {
                let attr = match attr {
                    Some(name) => self.int_attr(name),
                    None => self.value_attr(&e.span),
                };
                let f = self.filter(f);
                (node(NodeKind::Sum(attr?, f?)), Type::Int)
            }
            ExprKind::Distinct(attr, f) => {
                let attr = self.attr(attr);
                let f = self.filter(f);
                (node(NodeKind::Distinct(attr?, f?)), Type::Int)
            }
            ExprKind::Cards(filters) if filters.len() > MAX_CARDS_FILTERS => {
                self.errors.push(err(
                    "too-many-filters",
                    e.span.clone(),
                    format!(
                        "`cards(…)` takes at most {MAX_CARDS_FILTERS} filters; this one has {}",
                        filters.len()
                    ),
                    "too many filters",
                    Some("to ask for many cards alike, count them: `count(filter) >= n`".into()),
                ));
                return None;
            }
            ExprKind::Cards(filters) => {
                let resolved: Vec<Option<RFilter>> =
                    filters.iter().map(|f| self.filter(f)).collect();
                let resolved: Option<Vec<RFilter>> = resolved.into_iter().collect();
                (node(NodeKind::Cards(resolved?)), Type::Bool)
            }
        })
    }

    /// Checks `e` and that it has type `want`.
    fn typed(&mut self, e: &Expr, want: Type, why: &str) -> Option<Node> {
        let (node, ty) = self.expr(e)?;
        if ty != want {
            let help = match want {
                Type::Bool => Some("compare it with something, e.g. `count(*) >= 2`".to_string()),
                Type::Int => None,
            };
            self.errors.push(err(
                "condition-type",
                e.span.clone(),
                format!("expected {}, found {}", want.noun(), ty.noun()),
                format!("this is {}; {why}", ty.noun()),
                help,
            ));
            return None;
        }
        Some(node)
    }

    fn param(&mut self, name: &str, span: &Span) -> Option<(NodeKind, Type)> {
        match self.params.get(name) {
            Some(decl) => Some(match decl.constant {
                Some(value) => (NodeKind::Const(value), decl.ty),
                None => (
                    NodeKind::Arg(self.params.argument_slot(name).unwrap_or(0)),
                    decl.ty,
                ),
            }),
            None => {
                let names = self.params.decls.iter().map(|d| d.name.as_str());
                let help = match did_you_mean(name, names) {
                    Some(s) => Some(format!("did you mean `${s}`?")),
                    None if self.params.decls.is_empty() => {
                        Some("no parameters are available here".into())
                    }
                    None => Some(format!(
                        "the parameters here are {}",
                        self.params
                            .decls
                            .iter()
                            .map(|d| format!("${}", d.name))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                };
                self.errors.push(err(
                    "unknown-parameter",
                    span.clone(),
                    format!("unknown parameter `${name}`"),
                    "not declared",
                    help,
                ));
                None
            }
        }
    }

    fn attr(&mut self, name: &Name) -> Option<AttrRef> {
        if name.text == "id" {
            return Some(AttrRef::Id);
        }
        match self.universe.attr_index(&name.text) {
            Some(i) => Some(AttrRef::Attr(i)),
            None => {
                let names = self
                    .universe
                    .attrs
                    .iter()
                    .map(|a| a.name.as_str())
                    .chain(["id"]);
                let help = match did_you_mean(&name.text, names) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => format!("the attributes here are {}", self.attr_list()),
                };
                self.errors.push(err(
                    "unknown-attribute",
                    name.span.clone(),
                    format!("unknown attribute `{}`", name.text),
                    "not declared for these cards",
                    Some(help),
                ));
                None
            }
        }
    }

    fn attr_list(&self) -> String {
        let mut names: Vec<&str> = self
            .universe
            .attrs
            .iter()
            .map(|a| a.name.as_str())
            .collect();
        names.push("id");
        names.join(", ")
    }

    fn int_attr(&mut self, name: &Name) -> Option<usize> {
        match self.attr(name)? {
            AttrRef::Attr(i) if matches!(self.universe.attrs[i].domain, Domain::Int { .. }) => {
                Some(i)
            }
            _ => {
                self.errors.push(err(
                    "condition-type",
                    name.span.clone(),
                    format!(
                        "`{}` holds names, not numbers, so it cannot be summed",
                        name.text
                    ),
                    "not a number attribute",
                    Some("count such cards with count(…) instead".into()),
                ));
                None
            }
        }
    }

    fn value_attr(&mut self, span: &Span) -> Option<usize> {
        if self.universe.value_attr.is_none() {
            self.errors.push(err(
                "no-value-attribute",
                span.clone(),
                "sum(filter) adds up the cards' value attribute, but these cards declare none"
                    .into(),
                "which attribute?",
                Some(
                    "name the attribute to add up, sum(attribute, filter), or name the set's value \
                     attribute in its [sets.X] table: value = \"…\""
                        .into(),
                ),
            ));
        }
        self.universe.value_attr
    }

    fn filter(&mut self, f: &Filter) -> Option<RFilter> {
        Some(match &f.kind {
            FilterKind::All => RFilter::All,
            FilterKind::Not(x) => RFilter::Not(Box::new(self.filter(x)?)),
            FilterKind::And(a, b) | FilterKind::Or(a, b) => {
                let a = self.filter(a);
                let b = self.filter(b);
                let (a, b) = (Box::new(a?), Box::new(b?));
                if matches!(f.kind, FilterKind::And(..)) {
                    RFilter::And(a, b)
                } else {
                    RFilter::Or(a, b)
                }
            }
            FilterKind::Test { attr, op, value } => {
                let attr_ref = self.attr(attr)?;
                let literal = match &value.kind {
                    LiteralKind::Param(name) => match self.params.get(name) {
                        Some(decl) if decl.constant.is_some() => {
                            LiteralKind::Int(decl.constant.unwrap_or_default())
                        }
                        Some(_) => {
                            self.errors.push(err(
                                "condition-filter",
                                value.span.clone(),
                                format!("`${name}` is passed in while playing, so a filter cannot use it"),
                                "not a constant",
                                Some("filters compare with fixed values; compare outside, e.g. sum(value) >= $x".into()),
                            ));
                            return None;
                        }
                        None => {
                            self.param(name, &value.span)?;
                            return None;
                        }
                    },
                    other => other.clone(),
                };
                match attr_ref {
                    AttrRef::Id => {
                        let equal = self.name_op(*op, attr, "id")?;
                        let ids = self.type_ids();
                        let LiteralKind::Sym(id) = &literal else {
                            return self.expected_name(value.span.clone(), "id", ids);
                        };
                        match self.universe.type_index(id) {
                            Some(ty) => RFilter::Id { equal, ty },
                            None => return self.unknown_value(value.span.clone(), id, "id", ids),
                        }
                    }
                    AttrRef::Attr(index) => match &self.universe.attrs[index].domain {
                        Domain::Symbols(names) => {
                            self.name_op(*op, attr, &attr.text)?;
                            let names: Vec<&str> = names.iter().map(String::as_str).collect();
                            let LiteralKind::Sym(sym) = &literal else {
                                return self.expected_name(value.span.clone(), &attr.text, names);
                            };
                            match names.iter().position(|n| n == sym) {
                                Some(i) => RFilter::Test {
                                    attr: index,
                                    op: *op,
                                    value: Value::Sym(i as u16),
                                },
                                None => {
                                    return self.unknown_value(
                                        value.span.clone(),
                                        sym,
                                        &attr.text,
                                        names,
                                    );
                                }
                            }
                        }
                        Domain::Int { .. } => match literal {
                            LiteralKind::Int(v) => RFilter::Test {
                                attr: index,
                                op: *op,
                                value: Value::Int(v),
                            },
                            _ => {
                                self.errors.push(err(
                                    "condition-type",
                                    value.span.clone(),
                                    format!(
                                        "`{}` holds numbers; expected a number here",
                                        attr.text
                                    ),
                                    "not a number",
                                    None,
                                ));
                                return None;
                            }
                        },
                    },
                }
            }
        })
    }

    fn type_ids(&self) -> Vec<&'a str> {
        let universe: &'a Universe = self.universe;
        universe.types.iter().map(|t| t.id.as_str()).collect()
    }

    /// Names compare only for (in)equality; returns whether the test is `=`.
    fn name_op(&mut self, op: CmpOp, attr: &Name, what: &str) -> Option<bool> {
        match op {
            CmpOp::Eq => Some(true),
            CmpOp::Ne => Some(false),
            _ => {
                self.errors.push(err(
                    "condition-type",
                    attr.span.clone(),
                    format!(
                        "`{what}` holds names, which have no order; `{}` cannot compare them",
                        op.symbol()
                    ),
                    "compared with an ordering",
                    Some("use = or !=".into()),
                ));
                None
            }
        }
    }

    fn expected_name<T>(&mut self, span: Span, attr: &str, names: Vec<&str>) -> Option<T> {
        self.errors.push(err(
            "condition-type",
            span,
            format!("`{attr}` holds names; expected one of them here"),
            "not a name",
            Some(format!("the names are {}", listing(&names))),
        ));
        None
    }

    fn unknown_value<T>(
        &mut self,
        span: Span,
        value: &str,
        attr: &str,
        names: Vec<&str>,
    ) -> Option<T> {
        let help = match did_you_mean(value, names.iter().copied()) {
            Some(s) => format!("did you mean `{s}`?"),
            None => format!("`{attr}` is one of {}", listing(&names)),
        };
        self.errors.push(err(
            "unknown-value",
            span,
            format!("`{value}` is not a value of `{attr}`"),
            "unknown value",
            Some(help),
        ));
        None
    }
}

/// A readable list of names, shortened when long.
fn listing(names: &[&str]) -> String {
    const SHOWN: usize = 12;
    if names.len() <= SHOWN {
        names.join(", ")
    } else {
        format!("{}, … ({} in all)", names[..SHOWN].join(", "), names.len())
    }
}
