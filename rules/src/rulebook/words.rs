//! The description's expressions in words, for players: help, refusals, the scoring line.
//! A guard reads `count(adversary-supply) > 0 and fullest(columns) < $column_limit`; a player
//! reads "adversary-supply holds a card and the number of cards in the fullest row of columns
//! is less than 4". Rendered from the parsed text (which keeps the names and `$params`), each
//! function by a phrase; a name the language does not know is a zone, a counter or an
//! attribute of the pack, told apart by [`Named`]. Nothing rendered here is rule language: an
//! unknown function is said as "the f of x", never `f(x)`.

use super::Rulebook;
use super::conjuncts::chain as expr_chain;
use super::eval::Ctx;
use super::model::Action as ActionDef;
use super::syntax::{self, Ast, Line, Node, Op, Statement, chain};

/// What a name of the pack is, as the description declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Named {
    Zone,
    Counter,
    Attribute,
    /// A kind of figure (`knight`) or a role (`king`).
    Figure,
    Other,
}

/// Renders expressions in words, given what the pack's names are and its params' values.
pub(super) struct Words<'a> {
    pub named: &'a dyn Fn(&str) -> Named,
    /// A `$param`'s value, when it is one number for every player count.
    pub param: &'a dyn Fn(&str) -> Option<i64>,
}

/// A name as words: `moves_knight` → "moves knight" (ids with dashes stay as shown).
fn plain(name: &str) -> String {
    name.replace('_', " ")
}

impl Words<'_> {
    /// A condition as a sentence.
    pub(super) fn sentence(&self, n: &Node) -> String {
        match &n.ast {
            Ast::Bin(Op::And, ..) => {
                let mut parts = Vec::new();
                chain(n, Op::And, &mut parts);
                let said: Vec<String> = parts.iter().map(|p| self.clause(p)).collect();
                join(&said, "and")
            }
            _ => self.clause(n),
        }
    }

    /// One conjunct: an `or` inside an `and` reads "either … or …".
    fn clause(&self, n: &Node) -> String {
        match &n.ast {
            Ast::Bin(Op::Or, ..) => {
                let mut parts = Vec::new();
                chain(n, Op::Or, &mut parts);
                let said: Vec<String> = parts.iter().map(|p| self.clause(p)).collect();
                format!("either {}", join(&said, "or"))
            }
            Ast::Bin(Op::And, ..) => format!("both {}", self.sentence(n)),
            Ast::Not(inner) => self.negated(inner),
            Ast::Bin(op, l, r) if comparison(*op) => self.compared(*op, l, r),
            Ast::Call(f, args) => match (f.as_str(), &args[..]) {
                ("empty", [x]) => format!("{} is empty", self.value(x)),
                ("step", steps) => {
                    let names: Vec<String> = steps.iter().map(|s| self.value(s)).collect();
                    format!("it is the {} step", join(&names, "or"))
                }
                ("done", [a]) => format!("{} was done this turn", self.value(a)),
                ("marked", [x]) => format!("{} carries a mark", self.value(x)),
                ("mine", [x]) => format!("{} carries your mark", self.value(x)),
                ("paying", [a]) => format!("you are paying for {}", self.value(a)),
                _ => format!("{} is not 0", self.value(n)),
            },
            Ast::Name(name) if name == "chosen" => "figures were chosen".into(),
            // A condition the pack names (`keep = "finishable"`): said by its name.
            Ast::Name(name)
                if (self.named)(name) == Named::Other
                    && !seat_word(name)
                    && !super::counters::BUILT_IN_NUMBERS.contains(&name.as_str()) =>
            {
                format!("{} holds", plain(name))
            }
            _ => format!("{} is not 0", self.value(n)),
        }
    }

    /// An effect line in words, with its `if`.
    pub(super) fn line(&self, line: &Line) -> String {
        let said = self.statement(&line.statement);
        match &line.guard {
            Some(g) => format!("{said}, if {}", self.sentence(g)),
            None => said,
        }
    }

    fn statement(&self, s: &Statement) -> String {
        let v = |n: &Node| self.value(n);
        let cards = |n: &Node| match &n.ast {
            Ast::Num(1) => "1 card".to_string(),
            _ => format!("{} cards", v(n)),
        };
        match s {
            Statement::Shuffle(z) => {
                // `shuffle A(each) and B(each)`: each zone named.
                let mut zones = Vec::new();
                chain(z, Op::And, &mut zones);
                let said: Vec<String> = zones.iter().map(|z| v(z)).collect();
                format!("shuffle {}", join(&said, "and"))
            }
            Statement::Deal { count, from, to } => {
                format!("deal {} from {} to {}", cards(count), v(from), v(to))
            }
            Statement::Move {
                card,
                from: None,
                to,
            } => format!("put {} into {}", v(card), v(to)),
            Statement::Move {
                card,
                from: Some(from),
                to,
            } => format!("put {} from {} into {}", v(card), v(from), v(to)),
            Statement::Draw {
                count,
                random,
                from,
                to,
            } => format!(
                "draw {}{} from {} into {}",
                cards(count),
                if *random { " at random" } else { "" },
                v(from),
                v(to)
            ),
            Statement::Reveal { from, into, until } => format!(
                "turn up cards from {} into their rows of {} until {}",
                v(from),
                v(into),
                self.sentence(until)
            ),
            Statement::Mark(x) => format!("put your mark on {}", v(x)),
            Statement::Turn { zone, up: true } => format!("turn {} face up", v(zone)),
            Statement::Turn { zone, up: false } => format!("turn {} face down", v(zone)),
            Statement::Show { zone, to } => format!("show {} to {} alone", v(zone), v(to)),
            Statement::Award { zone, to } => format!(
                "give each row of {} whose cards all carry marks to {} of the player who marked them",
                v(zone),
                v(to)
            ),
            Statement::Place { figure, seat } => format!("place {} on {}", v(figure), v(seat)),
            Statement::Step { figure, by } => {
                format!("move {} {} seats round the ring", v(figure), v(by))
            }
            Statement::Add { amount, to } => format!("add {} to {}", v(amount), v(to)),
            Statement::Give { role, to } => format!("make {} the {}", v(to), plain_of(role)),
            Statement::Tally { kind, .. } => {
                format!("count it as {} in the balance report", plain_of(kind))
            }
            Statement::Set { counter, value } => format!("set {} to {}", v(counter), v(value)),
            Statement::ForEach { seats, from, body } => match from {
                Some(from) => format!(
                    "for each player P of {}, from {}: {}",
                    v(seats),
                    v(from),
                    self.statement(body)
                ),
                None => format!(
                    "for each player P of {}: {}",
                    v(seats),
                    self.statement(body)
                ),
            },
        }
    }

    /// `not X`, said the other way round where it can be.
    fn negated(&self, n: &Node) -> String {
        match &n.ast {
            Ast::Bin(op, l, r) if comparison(*op) => self.compared(flipped(*op), l, r),
            Ast::Call(f, args) => match (f.as_str(), &args[..]) {
                ("empty", [x]) => format!("{} is not empty", self.value(x)),
                ("step", _) => format!("it is not so that {}", self.clause(n)),
                ("marked", [x]) => format!("{} carries no mark", self.value(x)),
                ("mine", [x]) => format!("{} does not carry your mark", self.value(x)),
                _ => format!("{} is 0", self.value(n)),
            },
            _ => format!("it is not so that {}", self.clause(n)),
        }
    }

    fn compared(&self, op: Op, l: &Node, r: &Node) -> String {
        // A count against none: the zone holds a card, or holds none.
        if let (Ast::Call(f, args), Ast::Num(k)) = (&l.ast, &r.ast)
            && f == "count"
            && let [zone] = &args[..]
        {
            let z = self.value(zone);
            match (op, k) {
                (Op::Gt, 0) | (Op::Ge, 1) | (Op::Ne, 0) => return format!("{z} holds a card"),
                (Op::Eq, 0) | (Op::Lt, 1) | (Op::Le, 0) => return format!("{z} is empty"),
                _ => {}
            }
        }
        let verb = match op {
            Op::Eq => "is",
            Op::Ne => "is not",
            Op::Lt => "is less than",
            Op::Le => "is at most",
            Op::Gt => "is more than",
            _ => "is at least",
        };
        format!("{} {verb} {}", self.value(l), self.value(r))
    }

    /// A value as a noun phrase.
    pub(super) fn value(&self, n: &Node) -> String {
        match &n.ast {
            Ast::Num(v) => v.to_string(),
            Ast::Param(p) => match (self.param)(p) {
                Some(v) => v.to_string(),
                None => format!("the {}", plain(p)),
            },
            Ast::Name(name) => self.name(name),
            Ast::Field(action, param) => {
                format!("the {} given to {} this turn", plain(param), plain(action))
            }
            Ast::Not(_) => format!("whether {}", self.clause(n)),
            Ast::Bin(op, l, r) => match op {
                Op::Add => format!("{} plus {}", self.value(l), self.value(r)),
                Op::Sub => match &l.ast {
                    Ast::Num(0) => format!("minus {}", self.value(r)),
                    _ => format!("{} minus {}", self.value(l), self.value(r)),
                },
                Op::Mul => format!("{} times {}", self.value(l), self.value(r)),
                Op::Div => format!("{} divided by {}", self.value(l), self.value(r)),
                _ => format!("whether {}", self.clause(n)),
            },
            Ast::Call(f, args) => self.call(f, args),
        }
    }

    fn name(&self, name: &str) -> String {
        match name {
            "card" => "the card".into(),
            "figure" => "the figure".into(),
            "seat" => "the seat".into(),
            "row" => "the row".into(),
            "steps" => "the distance".into(),
            "target" => "the player chosen".into(),
            "number" => "the number chosen".into(),
            "current" => "you".into(),
            "P" => "the player".into(),
            "others" => "the other players".into(),
            "each" => "every player".into(),
            "turn" => "the turn number".into(),
            "players" => "the number of players".into(),
            "chosen" => "the figures chosen".into(),
            "taken" => "the moves made at this step".into(),
            _ => match (self.named)(name) {
                Named::Figure => format!("the {}", plain(name)),
                _ => plain(name),
            },
        }
    }

    /// Whose something is: "your", "the figure's", "P2's".
    fn whose(&self, n: &Node) -> String {
        match &n.ast {
            Ast::Name(s) if s == "current" => "your".into(),
            Ast::Name(s) if s == "others" => "the other players'".into(),
            Ast::Name(s) if s == "each" => "every player's".into(),
            _ => format!("{}'s", self.value(n)),
        }
    }

    fn call(&self, f: &str, args: &[Node]) -> String {
        let v = |i: usize| args.get(i).map_or_else(String::new, |a| self.value(a));
        let attr = |i: usize| match args.get(i).map(|a| &a.ast) {
            Some(Ast::Name(a)) => plain(a),
            _ => v(i),
        };
        match (f, args.len()) {
            ("count", 1) => format!("the number of cards in {}", v(0)),
            ("sum", 2) => format!("the total {} of {}", attr(0), v(1)),
            ("most", 2) => format!("the highest {} in {}", attr(0), v(1)),
            ("best_figure", 2) => format!("the one with the highest {} in {}", attr(0), v(1)),
            ("total", 2) => format!("the total {} of {}", attr(0), v(1)),
            ("fullest", 1) => format!("the number of cards in the fullest row of {}", v(0)),
            ("nonempty", 1) => format!("the number of rows of {} that hold a card", v(0)),
            ("last", 2) => format!("the {} of the last card of {}", attr(0), v(1)),
            ("top_card", 1) => format!("the last card of {}", v(0)),
            ("rising", 6 | 7) => format!(
                "whether {} groups can be made from {}, each one card where {} and others \
                 where {}, no two the same, each worth more in {} than the last{}, the first \
                 more than {}",
                v(0),
                v(2),
                self.sentence(&args[3]),
                self.sentence(&args[4]),
                v(5),
                if args.len() == 7 {
                    format!(", the first the group begun in {}", v(6))
                } else {
                    String::new()
                },
                v(1)
            ),
            ("top", 3) => format!("the total of the {} highest {} in {}", v(0), attr(1), v(2)),
            ("min", 2) => format!("the smaller of {} and {}", v(0), v(1)),
            ("max", 2) => format!("the larger of {} and {}", v(0), v(1)),
            ("if", 3) => format!("{} if {}, else {}", v(1), self.sentence(&args[0]), v(2)),
            ("div", 2) => format!("{} divided by {}", v(0), v(1)),
            ("mod", 2) => format!("the remainder of {} divided by {}", v(0), v(1)),
            ("odds", 2) => format!(
                "the chance, in thousandths, that a margin of {} holds up (odds times e every {})",
                v(0),
                v(1)
            ),
            ("plate", 1) => format!("the plate at {}", v(0)),
            // Figures by kind (`plates(knight(current))`), though a zone share the name.
            ("plates", 1) => match &args[0].ast {
                Ast::Call(kind, owner) if owner.len() == 1 => {
                    let whose = self.whose(&owner[0]);
                    format!("the plates under {whose} {} figures", plain(kind))
                }
                Ast::Name(kind) => format!("the plates under the {} figures", plain(kind)),
                _ => format!("the plates under {}", v(0)),
            },
            ("seat", 1) => format!("the seat of {}", v(0)),
            ("occupant", 1) => format!("the figure on {}", v(0)),
            ("owner", 1) => format!("the owner of {}", v(0)),
            ("holder", 1) => format!("the {}", attr(0)),
            ("card", 1) => format!("the card of {}", v(0)),
            ("placed", 1) => format!("the {} placed", v(0)),
            ("unplaced", 1) => format!("the {} not yet placed", v(0)),
            ("left", 1) => format!("the player to the left of {}", v(0)),
            ("right", 1) => format!("the player to the right of {}", v(0)),
            ("highest", 1) => format!("the player with the most {}", v(0)),
            ("lowest", 1) => format!("the player with the fewest {}", v(0)),
            ("marks", 1) => format!("the marks {} may still place", v(0)),
            ("best", 2) => format!("the best {} of a card in {}", v(1), v(0)),
            ("cheapest", 3) => format!("the cheapest payment from {} meeting {}", v(1), v(0)),
            _ => match (self.named)(f) {
                // `hand(current)`: "your hand"; `columns(blue)`: "columns blue".
                Named::Zone | Named::Counter => match args {
                    [] => plain(f),
                    [owner, rest @ ..] => {
                        // A row by its key (`blue`), or by a value: "in the row of …".
                        let row: Vec<String> = (rest.iter())
                            .map(|r| match &r.ast {
                                Ast::Name(_) => self.value(r),
                                _ => format!("in the row of {}", self.value(r)),
                            })
                            .collect();
                        let mut out = match &owner.ast {
                            Ast::Name(n) if (self.named)(n) == Named::Other && !seat_word(n) => {
                                format!("{} {}", plain(f), self.value(owner))
                            }
                            _ => format!("{} {}", self.whose(owner), plain(f)),
                        };
                        if !row.is_empty() {
                            out = format!("{out} {}", row.join(" "));
                        }
                        out
                    }
                },
                // `knight(current)`: "your knight figures".
                Named::Figure => match args {
                    [owner] => format!("{} {} figures", self.whose(owner), plain(f)),
                    _ => format!("the {} figures", plain(f)),
                },
                Named::Attribute => match args {
                    [x] => format!("the {} of {}", plain(f), self.value(x)),
                    // `bp(card, quest + allies(P))`: in the situation those zones make.
                    [x, zones] => {
                        let mut parts = Vec::new();
                        chain(zones, Op::Add, &mut parts);
                        let said: Vec<String> = parts.iter().map(|z| self.value(z)).collect();
                        format!(
                            "the {} of {} with what lies in {}",
                            plain(f),
                            self.value(x),
                            join(&said, "and")
                        )
                    }
                    _ => format!("the {}", plain(f)),
                },
                _ => {
                    let said: Vec<String> = args.iter().map(|a| self.value(a)).collect();
                    match said.is_empty() {
                        true => format!("the {}", plain(f)),
                        false => format!("the {} of {}", plain(f), join(&said, "and")),
                    }
                }
            },
        }
    }
}

impl Rulebook {
    /// What a name of the description is.
    pub(super) fn named(&self, name: &str) -> Named {
        if self.zones.iter().any(|z| z.name == name) {
            return Named::Zone;
        }
        let board = self.board.as_ref();
        if self.counters.iter().any(|c| c.name == name)
            || board.is_some_and(|b| b.counters.iter().any(|c| c == name))
        {
            return Named::Counter;
        }
        if board.is_some_and(|b| {
            b.kinds.iter().any(|k| k.name == name) || b.roles.iter().any(|r| r.name == name)
        }) {
            return Named::Figure;
        }
        if self.sets.iter().any(|s| s.attrs.iter().any(|a| a == name)) {
            return Named::Attribute;
        }
        Named::Other
    }

    /// An expression of the description, written as `text`, in words: a condition as a
    /// sentence, else a value. Text that does not parse (never, for a compiled description)
    /// is given back as it is.
    pub(super) fn in_words(&self, text: &str, condition: bool) -> String {
        self.with_words(|words| match syntax::expression(text) {
            Ok(n) if condition => words.sentence(&n),
            Ok(n) => words.value(&n),
            Err(_) => text.to_string(),
        })
    }

    /// Effect lines, as written, in words: one sentence per line.
    pub(super) fn lines_in_words(&self, text: &str) -> Vec<String> {
        self.with_words(|words| match syntax::statements(text) {
            Ok(lines) => lines.iter().map(|l| words.line(l)).collect(),
            Err(_) => text.lines().map(str::to_string).collect(),
        })
    }

    /// The renderer for this description's names and params.
    fn with_words<R>(&self, f: impl FnOnce(&Words) -> R) -> R {
        let named = |n: &str| self.named(n);
        let param = |p: &str| self.explain.param(p);
        f(&Words {
            named: &named,
            param: &param,
        })
    }

    /// A `repeat` in words: "while <condition>", or a number of times.
    pub(super) fn repeat_in_words(&self, text: &str) -> String {
        match text.trim().strip_prefix("while") {
            Some(rest) if rest.starts_with(char::is_whitespace) => {
                format!("while {}", self.in_words(rest.trim(), true))
            }
            _ => self.in_words(text, false),
        }
    }

    /// Why action `a`'s guard refuses a move, in words: the first of its conjuncts that is
    /// false (the whole guard when its parts cannot be told apart).
    pub(super) fn guard_in_words(&self, a: &ActionDef, ctx: &Ctx) -> String {
        let Some(g) = &a.guard else {
            return String::new();
        };
        let Ok(node) = syntax::expression(&g.text) else {
            return g.text.clone();
        };
        let (mut said, mut compiled) = (Vec::new(), Vec::new());
        chain(&node, Op::And, &mut said);
        expr_chain(&g.expr, &mut compiled);
        let at = (said.len() == compiled.len())
            .then(|| compiled.iter().position(|e| self.eval(e, ctx) == 0))
            .flatten();
        let mut text = self.with_words(|w| w.sentence(at.map_or(&node, |i| said[i])));
        // A comparison says what it compared: "(4 against 6)".
        let expr = at.map_or(&g.expr, |i| compiled[i]).written();
        if let super::model::Expr::Bin(op, l, r) = expr
            && !matches!(op, Op::And | Op::Or)
        {
            let (l, r) = (self.eval(l, ctx), self.eval(r, ctx));
            text.push_str(&format!(" ({l} against {r})"));
        }
        text
    }
}

/// A bare name as words (`king` → "king"), else the value's words.
fn plain_of(n: &Node) -> String {
    match &n.ast {
        Ast::Name(name) => plain(name),
        _ => String::new(),
    }
}

/// The names that stand for a seat when they own a zone or counter.
fn seat_word(n: &str) -> bool {
    matches!(
        n,
        "current" | "P" | "others" | "each" | "card" | "figure" | "target"
    )
}

fn comparison(op: Op) -> bool {
    matches!(op, Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge)
}

fn flipped(op: Op) -> Op {
    match op {
        Op::Eq => Op::Ne,
        Op::Ne => Op::Eq,
        Op::Lt => Op::Ge,
        Op::Le => Op::Gt,
        Op::Gt => Op::Le,
        _ => Op::Lt,
    }
}

/// "a", "a and b", "a, b and c".
fn join(parts: &[String], word: &str) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {word} {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::super::syntax::expression;
    use super::*;

    fn said(text: &str) -> String {
        let named = |n: &str| match n {
            "adversary-supply" | "columns" | "hand" | "won" => Named::Zone,
            "points" | "rings" => Named::Counter,
            "value" | "moves_knight" => Named::Attribute,
            "knight" | "king" | "prince" => Named::Figure,
            _ => Named::Other,
        };
        let param = |p: &str| (p == "column_limit").then_some(4);
        let words = Words {
            named: &named,
            param: &param,
        };
        words.sentence(&expression(text).unwrap())
    }

    #[test]
    fn guards_read_as_sentences_without_rule_language() {
        assert_eq!(
            said("count(adversary-supply) > 0 and fullest(columns) < $column_limit"),
            "adversary-supply holds a card and the number of cards in the fullest row of \
             columns is less than 4"
        );
        assert_eq!(
            said("step(play) and moves_knight(card) = 1"),
            "it is the play step and the moves knight of the card is 1"
        );
        assert_eq!(
            said("not (figure = holder(king)) and rings(figure) >= 3"),
            "the figure is not the king and the figure's rings is at least 3"
        );
        assert_eq!(
            said("count(hand(current)) = 0 or empty(seat)"),
            "either your hand is empty or the seat is empty"
        );
    }

    /// Rule language a player should never be shown: a function of the language, a zone or
    /// counter read for a seat or a parameter, a `$param`, a place in the pack's files.
    fn raw(text: &str) -> Option<&'static str> {
        [
            "count(",
            "sum(",
            "fullest(",
            "step(",
            "most(",
            "total(",
            "best_figure(",
            "plate(",
            "holder(",
            "owner(",
            "nonempty(",
            "done(",
            "empty(",
            "min(",
            "max(",
            "(current)",
            "(P)",
            "(card)",
            "(figure)",
            "(seat)",
            "$",
            "rulebook.toml",
            "is false",
        ]
        .into_iter()
        .find(|m| text.contains(m))
    }

    /// The help, the prompt, what each legal move gives and costs, and the refusal of every
    /// move tried that is not legal, in every state of random games of every bundled
    /// description, hold no rule language.
    #[test]
    fn help_and_refusals_are_in_words() {
        use super::super::args::Args;
        use super::super::random_games::{bundled, play};
        use super::super::state::Action;
        for (game, variant) in [
            ("artus", None),
            ("artus", Some("advanced")),
            ("king-arthur", None),
            ("king-arthur", Some("seals")),
        ] {
            let rules = bundled(game, variant);
            let help = rules.help();
            assert_eq!(raw(&help), None, "{game} {variant:?} help: {help}");
            let mut legal = Vec::new();
            let (mut tried, mut costs) = (0, 0);
            for seed in 0..3 {
                play(&rules, 2 + seed as usize % 2, seed, |state, _, n| {
                    rules.list(state, &mut legal, false);
                    // The prompt, and what each move gives and costs in the menu.
                    let prompt = rules.step_prompt(state);
                    assert_eq!(raw(&prompt), None, "{game} move {n}: {prompt}");
                    for action in &legal {
                        let terms = rules.terms_of(state, action);
                        for said in terms.pays.iter().chain(&terms.note) {
                            assert_eq!(raw(said), None, "{game} move {n}: {said}");
                            costs += 1;
                        }
                    }
                    for a in 0..rules.actions.len() as u16 {
                        let args = [0, 3, 7, 12]
                            .into_iter()
                            .flat_map(|c| [Args::of_card(c), Args::of_place(usize::from(c))]);
                        for args in std::iter::once(Args::NONE).chain(args) {
                            let action = Action::new(a, args);
                            if legal.contains(&action) {
                                continue;
                            }
                            tried += 1;
                            let why = rules.refusal(state, &action);
                            assert_eq!(raw(&why), None, "{game} move {n}, {a}: {why}");
                        }
                    }
                });
            }
            assert!(tried > 1000, "{game}: {tried} refusals");
            // King Arthur's challenges and adventures are paid for: their costs were said.
            assert!(
                game != "king-arthur" || costs > 100,
                "{game}: {costs} costs"
            );
        }
    }

    /// A situational read says where the situation lies; `odds` says what it reckons.
    #[test]
    fn situations_and_odds_in_words() {
        assert_eq!(
            said("value(card, won + hand(current)) > 3"),
            "the value of the card with what lies in won and your hand is more than 3"
        );
        let odds = said("odds(value(card) - 3, 10) > 500");
        assert!(odds.starts_with("the chance, in thousandths,"), "{odds}");
        assert!(!odds.contains("odds("), "{odds}");
    }

    #[test]
    fn an_unknown_function_is_said_in_words_never_called() {
        let text = said("frobnicate(card, 3) > sum(value, won(P))");
        assert_eq!(
            text,
            "the frobnicate of the card and 3 is more than the total value of the player's won"
        );
        for raw in ["(", ")", "$", "sum", "count"] {
            assert!(!text.contains(raw), "{raw} in {text}");
        }
    }
}
