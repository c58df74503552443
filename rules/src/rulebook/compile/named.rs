//! `[expressions]`: named expressions. `bar = "max(…)"` names an expression; `"strength(S)"
//! = "rank(S) * 5 + sum(bp, arms(S))"` one with parameters. Wherever an expression reads the
//! name (with as many arguments as it has parameters), the named expression stands there,
//! each parameter replaced by what the call gives it, and is checked and compiled in that
//! place: one meaning, written once.

use grail_schema::model::Sp;

use super::{Compiler, FUNCTIONS, Kind, SEAT_FUNCTIONS, Scope};
use crate::rulebook::model::Expr;
use crate::rulebook::syntax::{self, Ast, Node};

/// The most named expressions one expression may reach through others (`a` reading `b`
/// reading `c` …): the trees they make stay small enough to walk.
pub const MOST_NESTED: usize = 6;

/// The most parts the named expressions read in one place may make together (each may read
/// others many times: without a bound, six of them could make trillions).
pub const MOST_PARTS: usize = 16 * syntax::MAX_NODES;

/// A named expression: its name, its parameters and its body, parsed.
pub struct Named {
    pub name: String,
    pub params: Vec<String>,
    pub body: Node,
}

impl Named {
    /// A parameter read inside a function that binds a name of its own (`best(Z, …)` each
    /// card as `card`; `each`, `others`, `highest`, `lowest` each seat as `P`) whose
    /// argument reads that name: put in there, it would read the function's, not the
    /// caller's. The parameter, the name and the function.
    fn captures(&self, args: &[Node]) -> Option<(String, &'static str, &'static str)> {
        let reads = |arg: &Node, name: &str| mentions(arg, name);
        let mut found = None;
        binders(&self.body, None, &mut |param, (bound, binder)| {
            if found.is_none()
                && let Some(i) = self.params.iter().position(|p| p == param)
                && args.get(i).is_some_and(|a| reads(a, bound))
            {
                found = Some((param.to_string(), bound, binder));
            }
        });
        found
    }

    /// The body read at a call (placed at `span`), each parameter replaced by its argument.
    fn placed(&self, args: &[Node], span: &std::ops::Range<usize>) -> Node {
        let mut body = self.body.clone();
        let with: Vec<(String, Node)> = self
            .params
            .iter()
            .cloned()
            .zip(args.iter().cloned())
            .collect();
        substitute(&mut body, &with, span);
        body
    }
}

impl Compiler<'_> {
    /// `[expressions]`, parsed; a name another part of the language has, or a key that is
    /// not `name` or `name(P1, P2 …)`, is an error where it is written.
    pub fn named_expressions(&mut self) -> Vec<Named> {
        let mut out: Vec<Named> = Vec::new();
        for (key, value) in self.pack.rulebook.expressions.iter() {
            let (name, params) = match syntax::expression(&key.value).map(|n| n.ast) {
                Ok(Ast::Name(name)) => (name, Vec::new()),
                Ok(Ast::Call(name, args)) => {
                    let params: Option<Vec<String>> = (args.iter())
                        .map(|a| match &a.ast {
                            Ast::Name(p) => Some(p.clone()),
                            _ => None,
                        })
                        .collect();
                    match params {
                        Some(p) => (name, p),
                        None => {
                            self.bad_key(key);
                            continue;
                        }
                    }
                }
                _ => {
                    self.bad_key(key);
                    continue;
                }
            };
            if let Some(taken) = self.name_taken(&name) {
                let msg =
                    format!("`{name}` is {taken}: a named expression needs a name of its own");
                self.error("invalid-name", msg, &key.loc, key.loc.span.clone());
                continue;
            }
            let body = match syntax::expression(&value.value) {
                Ok(body) => body,
                Err(e) => {
                    self.syntax_error(value, e);
                    continue;
                }
            };
            out.push(Named { name, params, body });
        }
        out
    }

    fn bad_key(&mut self, key: &Sp<String>) {
        let msg = format!(
            "`{}` is not a name for an expression: write `name` or `name(S, T)` (its parameters)",
            key.value
        );
        self.error("invalid-name", msg, &key.loc, key.loc.span.clone());
    }

    /// `[texts]`: a name of its own (no zone, counter, function, attribute or named
    /// expression has it: a hole `{name}` would read either), else an error where written.
    pub fn named_texts(&mut self) -> Vec<(String, Sp<String>)> {
        let mut out = Vec::new();
        for (key, value) in self.pack.rulebook.texts.iter() {
            let name = key.value.trim();
            let word = syntax::expression(name).is_ok_and(|n| matches!(n.ast, Ast::Name(_)));
            let taken = match self.name_taken(name) {
                Some(t) => Some(t),
                None if self.named.iter().any(|d| d.name == name) => Some("a named expression"),
                None => None,
            };
            let msg = match (word, taken) {
                (false, _) => format!("`{name}` is not a name for a text: one word, `phase`"),
                (true, Some(t)) => {
                    format!("`{name}` is {t}: a named text needs a name of its own")
                }
                (true, None) => {
                    out.push((name.to_string(), value.clone()));
                    continue;
                }
            };
            self.error("invalid-name", msg, &key.loc, key.loc.span.clone());
        }
        out
    }

    /// What else a name means, if anything: a zone, a counter, a function of the language.
    fn name_taken(&self, name: &str) -> Option<&'static str> {
        if self.zones.iter().any(|z| z.name == name) {
            return Some("a zone");
        }
        if self.counter_defs.iter().any(|c| c.name == name) {
            return Some("a counter");
        }
        if FUNCTIONS.contains(&name) || SEAT_FUNCTIONS.contains(&name) {
            return Some("a function of the language");
        }
        let attribute = self.sets.iter().any(|s| s.attrs.iter().any(|a| a == name));
        attribute.then_some("a card attribute")
    }

    /// The node with the named expression it reads in its place, compiled there; `None` when
    /// it reads none.
    pub(super) fn named_expr(
        &mut self,
        node: &Node,
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<Option<(Expr, Kind)>> {
        let (name, args) = match &node.ast {
            Ast::Name(n) => (n, &[][..]),
            Ast::Call(n, args) => (n, &args[..]),
            _ => return None,
        };
        let k = self.named.iter().position(|d| d.name == *name)?;
        let params = self.named[k].params.len();
        let at = self.span(s, &node.span);
        if args.len() != params {
            let msg = format!(
                "`{name}` is a named expression of {params} parameter{}: `{name}{}`",
                if params == 1 { "" } else { "s" },
                match params {
                    0 => String::new(),
                    _ => format!("({})", self.named[k].params.join(", ")),
                }
            );
            self.error("invalid-expression", msg, &s.loc, at);
            return Some(None);
        }
        if self.expanding.contains(&k) || self.expanding.len() >= MOST_NESTED {
            let msg = match self.expanding.contains(&k) {
                true => format!("the named expression `{name}` reads itself"),
                false => format!(
                    "`{name}` is reached through {MOST_NESTED} named expressions: at most {MOST_NESTED} deep"
                ),
            };
            self.error("expression-too-deep", msg, &s.loc, at);
            return Some(None);
        }
        if self.expanding.is_empty() {
            self.expanded_parts = 0;
        }
        self.expanded_parts += parts(&self.named[k].body);
        if self.expanded_parts > MOST_PARTS {
            let msg = format!(
                "the named expressions read here make more than {MOST_PARTS} parts: keep a running value in a counter instead"
            );
            self.error("expression-too-long", msg, &s.loc, at);
            return Some(None);
        }
        // The body, its parameters replaced, every part placed at the call: what goes wrong
        // in it is shown where it is read. The arguments are read where they are written,
        // so the named expressions they read are put in first: `ready(highest(ready(P)))`
        // reads `ready` twice, not from inside itself.
        let args: Vec<Node> = args.iter().map(|a| self.put_in(a)).collect();
        if let Some((param, bound, binder)) = self.named[k].captures(&args) {
            let msg = format!(
                "the argument given for `{param}` reads `{bound}`, but `{name}` reads `{param}` \
                 inside `{binder}(…)`, where `{bound}` is each {} it walks in turn: it would \
                 not be the one meant here; read it outside `{binder}`",
                if bound == "card" { "card" } else { "seat" }
            );
            self.error("invalid-expression", msg, &s.loc, at);
            return Some(None);
        }
        let body = self.named[k].placed(&args, &node.span);
        self.expanding.push(k);
        let before = self.diags.len();
        let compiled = self.expr(&body, s, scope);
        self.expanding.pop();
        // Said where it is read, and of which expression.
        for d in &mut self.diags[before..] {
            if !d.message.contains("named expression") {
                d.message
                    .push_str(&format!(" (in the named expression `{name}`)"));
            }
        }
        Some(compiled)
    }
}

impl Compiler<'_> {
    /// `node` with the named expressions it reads put in place (their arguments first), as
    /// far as each is read rightly here: one read wrongly (the wrong arity, itself, too deep)
    /// is left as written, for the compiling to say so.
    fn put_in(&mut self, node: &Node) -> Node {
        let mut node = node.clone();
        if let Ast::Call(_, args) = &mut node.ast {
            for a in args.iter_mut() {
                *a = self.put_in(a);
            }
        }
        let (name, args) = match &node.ast {
            Ast::Name(n) => (n, &[][..]),
            Ast::Call(n, args) => (n, &args[..]),
            Ast::Bin(op, l, r) => {
                let (l, r) = (self.put_in(l), self.put_in(r));
                node.ast = Ast::Bin(*op, Box::new(l), Box::new(r));
                return node;
            }
            Ast::Not(x) => {
                node.ast = Ast::Not(Box::new(self.put_in(x)));
                return node;
            }
            Ast::Num(_) | Ast::Param(_) | Ast::Field(..) => return node,
        };
        let Some(k) = self.named.iter().position(|d| d.name == *name) else {
            return node;
        };
        let d = &self.named[k];
        if args.len() != d.params.len()
            || self.expanding.contains(&k)
            || self.expanding.len() >= MOST_NESTED
            || self.expanded_parts + parts(&d.body) > MOST_PARTS
        {
            return node;
        }
        self.expanded_parts += parts(&d.body);
        let body = d.placed(args, &node.span);
        self.expanding.push(k);
        let body = self.put_in(&body);
        self.expanding.pop();
        body
    }
}

/// Replaces the parameters `with` names in `node` by their arguments, and places every part
/// not taken from an argument at `span`.
fn substitute(node: &mut Node, with: &[(String, Node)], span: &std::ops::Range<usize>) {
    if let Ast::Name(n) = &node.ast
        && let Some((_, arg)) = with.iter().find(|(p, _)| p == n)
    {
        *node = arg.clone();
        return;
    }
    node.span = span.clone();
    match &mut node.ast {
        Ast::Call(_, args) => args.iter_mut().for_each(|a| substitute(a, with, span)),
        Ast::Bin(_, l, r) => {
            substitute(l, with, span);
            substitute(r, with, span);
        }
        Ast::Not(x) => substitute(x, with, span),
        Ast::Num(_) | Ast::Param(_) | Ast::Name(_) | Ast::Field(..) => {}
    }
}

/// The name argument `i` of a call to `f` binds, and the function: `best(Z, …)` each card as
/// `card`; `each`, `others`, `highest`, `lowest` each seat as `P`.
fn binding(f: &str, i: usize) -> Option<(&'static str, &'static str)> {
    match (f, i) {
        ("best", 1) => Some(("card", "best")),
        ("rising", 3..=5) => Some(("card", "rising")),
        ("each", 0) => Some(("P", "each")),
        ("others", 0) => Some(("P", "others")),
        ("highest", 0) => Some(("P", "highest")),
        ("lowest", 0) => Some(("P", "lowest")),
        _ => None,
    }
}

/// Calls `at` with each name read inside a function binding a name of its own, and the
/// innermost such binding (`card` by `best`, `P` by `each`, `others`, `highest`, `lowest`).
fn binders<'a>(
    node: &'a Node,
    inside: Option<(&'static str, &'static str)>,
    at: &mut impl FnMut(&'a str, (&'static str, &'static str)),
) {
    match &node.ast {
        Ast::Name(n) => {
            if let Some(binding) = inside {
                at(n, binding);
            }
        }
        Ast::Call(f, args) => {
            for (i, a) in args.iter().enumerate() {
                binders(a, binding(f, i).or(inside), at);
            }
        }
        Ast::Bin(_, l, r) => {
            binders(l, inside, at);
            binders(r, inside, at);
        }
        Ast::Not(x) => binders(x, inside, at),
        Ast::Num(_) | Ast::Param(_) | Ast::Field(..) => {}
    }
}

/// Whether `node` reads the name `name` where nothing inside it binds the name again (a
/// `card` inside its own `best(Z, …)` is that function's).
fn mentions(node: &Node, name: &str) -> bool {
    match &node.ast {
        Ast::Name(n) => n == name,
        Ast::Call(f, args) => (args.iter().enumerate()).any(|(i, a)| {
            binding(f, i).is_none_or(|(bound, _)| bound != name) && mentions(a, name)
        }),
        Ast::Bin(_, l, r) => mentions(l, name) || mentions(r, name),
        Ast::Not(x) => mentions(x, name),
        Ast::Num(_) | Ast::Param(_) | Ast::Field(..) => false,
    }
}

/// How many parts (values and operators) a parsed expression has.
fn parts(node: &Node) -> usize {
    1 + match &node.ast {
        Ast::Call(_, args) => args.iter().map(parts).sum(),
        Ast::Bin(_, l, r) => parts(l) + parts(r),
        Ast::Not(x) => parts(x),
        Ast::Num(_) | Ast::Param(_) | Ast::Name(_) | Ast::Field(..) => 0,
    }
}
