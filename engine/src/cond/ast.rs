//! The syntax tree of a condition, exactly as written (names are still strings), and its
//! canonical printer. `parse(&e.to_string())` gives back `e` (up to spans).

use std::fmt;
use std::ops::Range;

pub type Span = Range<usize>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    Bool(bool),
    Int(i64),
    /// `$name`: a pack parameter or a rules argument.
    Param(String),
    Not(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Compare(CmpOp, Box<Expr>, Box<Expr>),
    Arith(ArithOp, Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
    /// `count(filter)`: how many items match.
    Count(Filter),
    /// `sum(filter)` (the value attribute) or `sum(attr, filter)`.
    Sum(Option<Name>, Filter),
    /// `distinct(attr, filter)`: how many different values of `attr` the matching items show.
    Distinct(Name, Filter),
    /// `cards(f1, f2, …)`: there are distinct items matching each filter.
    Cards(Vec<Filter>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    pub kind: FilterKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FilterKind {
    /// `*`, or an omitted filter: every item.
    All,
    /// `attr op value`, e.g. `color=red`, `value>=3`.
    Test {
        attr: Name,
        op: CmpOp,
        value: Literal,
    },
    Not(Box<Filter>),
    And(Box<Filter>, Box<Filter>),
    Or(Box<Filter>, Box<Filter>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Literal {
    pub kind: LiteralKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiteralKind {
    Int(i64),
    /// A name from the attribute's domain (`red`, `dark-power`, `"3-6"`).
    Sym(String),
    Param(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
}

impl CmpOp {
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
    /// The comparison with its sides swapped: `a < b` is `b > a`.
    pub fn mirrored(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            other => other,
        }
    }
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }
}

impl ArithOp {
    pub fn symbol(self) -> &'static str {
        match self {
            ArithOp::Add => "+",
            ArithOp::Sub => "-",
            ArithOp::Mul => "*",
        }
    }
    /// Saturating, so no content can overflow the evaluator.
    pub fn apply(self, a: i64, b: i64) -> i64 {
        match self {
            ArithOp::Add => a.saturating_add(b),
            ArithOp::Sub => a.saturating_sub(b),
            ArithOp::Mul => a.saturating_mul(b),
        }
    }
}

impl Expr {
    /// The same tree with every span zeroed, to compare trees regardless of layout.
    pub fn without_spans(&self) -> Expr {
        let kind = match &self.kind {
            ExprKind::Bool(b) => ExprKind::Bool(*b),
            ExprKind::Int(i) => ExprKind::Int(*i),
            ExprKind::Param(p) => ExprKind::Param(p.clone()),
            ExprKind::Not(e) => ExprKind::Not(Box::new(e.without_spans())),
            ExprKind::Neg(e) => ExprKind::Neg(Box::new(e.without_spans())),
            ExprKind::And(a, b) => {
                ExprKind::And(Box::new(a.without_spans()), Box::new(b.without_spans()))
            }
            ExprKind::Or(a, b) => {
                ExprKind::Or(Box::new(a.without_spans()), Box::new(b.without_spans()))
            }
            ExprKind::Compare(op, a, b) => ExprKind::Compare(
                *op,
                Box::new(a.without_spans()),
                Box::new(b.without_spans()),
            ),
            ExprKind::Arith(op, a, b) => ExprKind::Arith(
                *op,
                Box::new(a.without_spans()),
                Box::new(b.without_spans()),
            ),
            ExprKind::Count(f) => ExprKind::Count(f.without_spans()),
            ExprKind::Sum(a, f) => {
                ExprKind::Sum(a.as_ref().map(Name::without_span), f.without_spans())
            }
            ExprKind::Distinct(a, f) => ExprKind::Distinct(a.without_span(), f.without_spans()),
            ExprKind::Cards(fs) => ExprKind::Cards(fs.iter().map(Filter::without_spans).collect()),
        };
        Expr { kind, span: 0..0 }
    }

    /// Binding strength, for printing the fewest parentheses that keep the tree.
    fn precedence(&self) -> u8 {
        match self.kind {
            ExprKind::Or(..) => 1,
            ExprKind::And(..) => 2,
            ExprKind::Not(..) => 3,
            ExprKind::Compare(..) => 4,
            ExprKind::Arith(ArithOp::Add | ArithOp::Sub, ..) => 5,
            ExprKind::Arith(ArithOp::Mul, ..) => 6,
            ExprKind::Neg(..) => 7,
            _ => 8,
        }
    }
}

impl Name {
    fn without_span(&self) -> Name {
        Name {
            text: self.text.clone(),
            span: 0..0,
        }
    }
}

impl Filter {
    pub fn all() -> Filter {
        Filter {
            kind: FilterKind::All,
            span: 0..0,
        }
    }
    pub fn without_spans(&self) -> Filter {
        let kind = match &self.kind {
            FilterKind::All => FilterKind::All,
            FilterKind::Test { attr, op, value } => FilterKind::Test {
                attr: attr.without_span(),
                op: *op,
                value: Literal {
                    kind: value.kind.clone(),
                    span: 0..0,
                },
            },
            FilterKind::Not(f) => FilterKind::Not(Box::new(f.without_spans())),
            FilterKind::And(a, b) => {
                FilterKind::And(Box::new(a.without_spans()), Box::new(b.without_spans()))
            }
            FilterKind::Or(a, b) => {
                FilterKind::Or(Box::new(a.without_spans()), Box::new(b.without_spans()))
            }
        };
        Filter { kind, span: 0..0 }
    }
    fn precedence(&self) -> u8 {
        match self.kind {
            FilterKind::Or(..) => 1,
            FilterKind::And(..) => 2,
            _ => 3,
        }
    }
}

/// Writes `e`, in parentheses when it binds looser than its place needs.
fn child(f: &mut fmt::Formatter<'_>, e: &Expr, min: u8) -> fmt::Result {
    if e.precedence() < min {
        write!(f, "({e})")
    } else {
        write!(f, "{e}")
    }
}

fn filter_child(f: &mut fmt::Formatter<'_>, x: &Filter, min: u8) -> fmt::Result {
    if x.precedence() < min {
        write!(f, "({x})")
    } else {
        write!(f, "{x}")
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.precedence();
        match &self.kind {
            ExprKind::Bool(b) => write!(f, "{b}"),
            ExprKind::Int(i) => write!(f, "{i}"),
            ExprKind::Param(name) => write!(f, "${name}"),
            ExprKind::Not(e) => {
                f.write_str("not ")?;
                child(f, e, p)
            }
            ExprKind::Neg(e) => {
                f.write_str("-")?;
                // `-(3)` must not print as `-3`, which reads back as a literal.
                let min = if matches!(e.kind, ExprKind::Int(_) | ExprKind::Neg(_)) {
                    9
                } else {
                    p
                };
                child(f, e, min)
            }
            ExprKind::And(a, b) | ExprKind::Or(a, b) => {
                let word = if matches!(self.kind, ExprKind::And(..)) {
                    "and"
                } else {
                    "or"
                };
                child(f, a, p)?;
                write!(f, " {word} ")?;
                child(f, b, p + 1)
            }
            ExprKind::Compare(op, a, b) => {
                child(f, a, p + 1)?;
                write!(f, " {} ", op.symbol())?;
                child(f, b, p + 1)
            }
            ExprKind::Arith(op, a, b) => {
                child(f, a, p)?;
                write!(f, " {} ", op.symbol())?;
                child(f, b, p + 1)
            }
            ExprKind::Count(filter) => write!(f, "count({filter})"),
            ExprKind::Sum(None, filter) => write!(f, "sum({filter})"),
            ExprKind::Sum(Some(attr), filter) if filter.kind == FilterKind::All => {
                write!(f, "sum({})", attr.text)
            }
            ExprKind::Sum(Some(attr), filter) => write!(f, "sum({}, {filter})", attr.text),
            ExprKind::Distinct(attr, filter) if filter.kind == FilterKind::All => {
                write!(f, "distinct({})", attr.text)
            }
            ExprKind::Distinct(attr, filter) => write!(f, "distinct({}, {filter})", attr.text),
            ExprKind::Cards(filters) => {
                f.write_str("cards(")?;
                for (i, filter) in filters.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{filter}")?;
                }
                f.write_str(")")
            }
        }
    }
}

impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.precedence();
        match &self.kind {
            FilterKind::All => f.write_str("*"),
            FilterKind::Test { attr, op, value } => {
                write!(f, "{}{}{}", attr.text, op.symbol(), value)
            }
            FilterKind::Not(x) => {
                f.write_str("!")?;
                filter_child(f, x, 3)
            }
            FilterKind::And(a, b) | FilterKind::Or(a, b) => {
                let sep = if matches!(self.kind, FilterKind::And(..)) {
                    " & "
                } else {
                    " | "
                };
                filter_child(f, a, p)?;
                f.write_str(sep)?;
                filter_child(f, b, p + 1)
            }
        }
    }
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            LiteralKind::Int(i) => write!(f, "{i}"),
            LiteralKind::Param(name) => write!(f, "${name}"),
            LiteralKind::Sym(s) if is_plain_symbol(s) => f.write_str(s),
            LiteralKind::Sym(s) => write!(f, "\"{s}\""),
        }
    }
}

/// Whether a symbol can be written without quotes.
pub fn is_plain_symbol(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !matches!(s, "true" | "false")
}
