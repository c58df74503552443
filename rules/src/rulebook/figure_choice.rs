//! Choosing figures by where they stand (`choose` on an action), and reading the plates under
//! figures (`sum`, `most`, `best_figure` over `plates(…)`):
//!
//! ```toml
//! [actions.claim]
//! verb = "play"
//! card = "card in hand(current)"
//! choose = { figures = "pawn(current)", over = "spots", meets = "condition(card)", verb = "score" }
//! do = """
//! move card to played
//! add sum(value, plates(chosen)) to points(current) if chosen
//! add forfeit(card) to points(current) if not chosen
//! """
//! ```
//!
//! A figure's *situation* is the card of `over` (a product of the ring's plates and seats)
//! combining the plate in front of it and the seat under it. Playing the action, when the
//! situations of the figures can meet the condition, the player chooses figures meeting it with
//! none to spare as the next move (`score pawn@3 pawn@9`): the engine's payment solver runs over
//! the figures' situations as it does over a hand, in its order, and figures in one situation
//! are alike, so a choice names the lowest-numbered figures of each situation it takes. When
//! none meets it, the action is played at once without a choice (`chosen` is false).

use grail_engine::cond::solve::{self, Payment};
use grail_engine::diag::no_such;
use grail_schema::model::{ActionDef, ChooseDef, Sp};

use super::Rulebook;
use super::args::Args;
use super::compile::{Compiler, Kind, Scope};
use super::eval::Ctx;
use super::model::{Board, Choose, Expr, FigureExpr, Fold, Meets, Over, PlateRead, Who};
use super::state::{Action, Chosen, Figures, PAY, State};
use super::syntax::{self, Ast, Node};

/// Card types per set are at most 64 (filters are 64-bit masks). Situations are counted into
/// all 64, as a hand of that many types would be, so the solver lists the choices in the
/// order it lists them for such a hand.
const TYPES: usize = 64;

impl Compiler<'_> {
    /// An action's `choose`, which it cannot have beside a payment.
    pub(super) fn action_choice(&mut self, def: &ActionDef, scope: Scope) -> Option<Choose> {
        let c = def.choose.as_ref()?;
        if def.pay.is_some() {
            let msg = "an action costs a payment or chooses figures, not both: give each an action of its own".to_string();
            self.error(
                "invalid-value",
                msg,
                &c.figures.loc,
                c.figures.loc.span.clone(),
            );
            return None;
        }
        self.choose(c, scope)
    }

    /// `choose = { … }`: the figures' kind, the situations set and its table, the condition.
    pub(super) fn choose(&mut self, def: &ChooseDef, scope: Scope) -> Option<Choose> {
        let node = match syntax::expression(&def.figures.value) {
            Ok(n) => n,
            Err(e) => {
                self.syntax_error(&def.figures, e);
                return None;
            }
        };
        if self.board.is_none() {
            let msg = "`choose` chooses figures on a ring: the description needs a zone with `layout = \"ring\"`".to_string();
            self.error(
                "missing-field",
                msg,
                &def.figures.loc,
                def.figures.loc.span.clone(),
            );
            return None;
        }
        let (kind, who) = self.figure_ref(&node, &def.figures, scope)?;
        if who == Who::Player {
            let at = self.span(&def.figures, &node.span);
            let msg = "the figures are chosen by the player to move: `(current)`".to_string();
            self.error("invalid-expression", msg, &def.figures.loc, at);
            return None;
        }
        let set = self.set_index(&def.over)?;
        let situation = self.situations(&def.over, set)?;
        let node = match syntax::expression(&def.meets.value) {
            Ok(n) => n,
            Err(e) => {
                self.syntax_error(&def.meets, e);
                return None;
            }
        };
        let (meets, card) = self.meets(&node, set, 0, &def.meets, scope)?;
        if card.as_ref().is_some_and(|c| !matches!(c, Expr::Card)) {
            let at = self.span(&def.meets, &node.span);
            let msg = "a choice meets the action's own card: `condition(card)`".to_string();
            self.error("invalid-expression", msg, &def.meets.loc, at);
            return None;
        }
        let verb = def.verb.as_ref().map_or("choose", |v| v.value.as_str());
        if let Some(v) = &def.verb
            && (verb.is_empty()
                || verb.contains(char::is_whitespace)
                || verb == "pass"
                || verb == "pay")
        {
            let msg = format!(
                "the verb of a choice is one word other than `pass` and `pay`, not `{verb}`"
            );
            self.error("invalid-value", msg, &v.loc, v.loc.span.clone());
            return None;
        }
        Some(Choose {
            kind,
            set,
            who,
            situation,
            meets,
            verb: verb.to_string(),
            name: def
                .name
                .as_ref()
                .map_or("figures", |n| n.value.as_str())
                .to_string(),
        })
    }

    /// The situation of every plate and seat: `over` must be the product of the ring's plates
    /// and seats (in either order).
    fn situations(&mut self, over: &Sp<String>, set: usize) -> Option<Vec<u8>> {
        let board = self.board.as_ref()?;
        let seats_id = self.sets[board.seats_set].id.clone();
        let plates = board
            .plates
            .as_ref()
            .map(|p| (p.set, self.sets[p.set].cards.len()));
        let pack_set = self.pack.sets.iter().find(|s| s.id == self.sets[set].id);
        let factors: Vec<&str> = pack_set.map_or(Vec::new(), |s| {
            s.product.iter().map(String::as_str).collect()
        });
        let Some((plates_set, count)) = plates else {
            let msg = format!(
                "a figure's situation is its plate and seat, and ring `{}` has no plates",
                board.name
            );
            self.error("missing-field", msg, &over.loc, over.loc.span.clone());
            return None;
        };
        let plates_id = self.sets[plates_set].id.clone();
        let plate_first = match factors.as_slice() {
            [a, b] if *a == plates_id && *b == seats_id => true,
            [a, b] if *a == seats_id && *b == plates_id => false,
            _ => {
                let msg = format!(
                    "`{}` must be the product of the ring's plates and seats (`product = [\"{plates_id}\", \"{seats_id}\"]`): a figure's situation is the plate in front of it and the seat under it",
                    over.value
                );
                self.error("invalid-value", msg, &over.loc, over.loc.span.clone());
                return None;
            }
        };
        let pack_set = pack_set?;
        let seats = board.seats;
        let mut table = Vec::with_capacity(count * seats);
        for p in 0..count {
            for s in 0..seats {
                let members = if plate_first { [p, s] } else { [s, p] };
                table.push(pack_set.product_type(&members).unwrap_or(0));
            }
        }
        Some(table)
    }

    /// `chosen` outside an action with `choose`.
    pub(super) fn chosen_outside(&mut self, node: &Node, s: &Sp<String>) {
        let at = self.span(s, &node.span);
        let msg = "`chosen` reads the figures chosen by the action's `choose`, and this is no action with one".to_string();
        self.error("unknown-name", msg, &s.loc, at);
    }

    /// `sum(attr, plates(chosen))`, `most(attr, plates(F))`, `best_figure(attr, plates(F))`;
    /// `None`: none of them (`sum` over a kind is the ring's own read).
    pub(super) fn plate_call(
        &mut self,
        node: &Node,
        f: &str,
        args: &[Node],
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<Option<(Expr, Kind)>> {
        let fold = match f {
            "sum" => Fold::Sum,
            "most" => Fold::Most,
            "best_figure" => Fold::BestFigure,
            _ => return None,
        };
        let of_chosen = |n: &Node| matches!(&n.ast, Ast::Call(p, inner) if p == "plates" && matches!(inner.as_slice(), [Node { ast: Ast::Name(c), .. }] if c == "chosen"));
        if fold == Fold::Sum && !args.get(1).is_some_and(of_chosen) {
            return None;
        }
        let shape = match args {
            [
                Node {
                    ast: Ast::Name(attr),
                    span,
                },
                Node {
                    ast: Ast::Call(p, inner),
                    ..
                },
            ] if p == "plates" && inner.len() == 1 => Some((attr, span.clone(), &inner[0])),
            _ => None,
        };
        let Some((attr, attr_span, figs)) = shape else {
            let at = self.span(s, &node.span);
            let msg = format!(
                "`{f}` reads the plates under figures: `{f}(value, plates(knight(current)))`"
            );
            self.error("invalid-expression", msg, &s.loc, at);
            return Some(None);
        };
        let Some(set) = self
            .board
            .as_ref()
            .and_then(|b| b.plates.as_ref())
            .map(|p| p.set)
        else {
            let at = self.span(s, &node.span);
            let msg = format!("`{f}` reads plates, and the ring has none");
            self.error("missing-field", msg, &s.loc, at);
            return Some(None);
        };
        let over = match &figs.ast {
            Ast::Name(c) if c == "chosen" => {
                if !scope.chosen {
                    self.chosen_outside(figs, s);
                    return Some(None);
                }
                Over::Chosen
            }
            _ => {
                let Some((kind, who)) = self.figure_ref(figs, s, scope) else {
                    return Some(None);
                };
                Over::Kind(kind, who)
            }
        };
        let Some(a) = self.sets[set].attrs.iter().position(|x| x == attr) else {
            let at = self.span(s, &attr_span);
            let msg = no_such(
                "plate attribute",
                attr,
                self.sets[set].attrs.iter().map(String::as_str),
            );
            self.error("unknown-attribute", msg, &s.loc, at);
            return Some(None);
        };
        let read = PlateRead {
            attr: a,
            over,
            fold,
        };
        Some(Some((Expr::Figures(FigureExpr::Plates(read)), Kind::Int)))
    }
}

impl Rulebook {
    fn owner(who: Who, state: &State) -> Option<usize> {
        match who {
            Who::Current => Some(usize::from(state.current)),
            _ => None,
        }
    }

    /// The pending action's choice and its card, if the action awaited is a choice of figures.
    fn pending_choice(&self, state: &State) -> Option<(&Choose, i32)> {
        let (a, args) = state.pending?;
        let choose = self.actions[usize::from(a)].choose.as_ref()?;
        Some((choose, args.card() & i32::from(super::model::TYPE_MASK)))
    }

    /// The situations of the figures chosen from, counted by type.
    fn situation_counts(&self, c: &Choose, state: &State, only: u64) -> [u8; TYPES] {
        let mut counts = [0u8; TYPES];
        let (Some(board), Some(f)) = (&self.board, &state.figures.0) else {
            return counts;
        };
        for m in board.members(f, c.kind, Self::owner(c.who, state)) {
            if only & (1 << m) == 0 {
                continue;
            }
            if let Some(t) = situation_of(board, f, c, m) {
                let n = &mut counts[usize::from(t) % TYPES];
                *n = n.saturating_add(1);
            }
        }
        counts
    }

    /// Whether action `a`, played with `arg`, has figures to choose: then the choice is its
    /// next move; else it is carried out at once.
    pub(super) fn must_choose(&self, state: &State, a: usize, args: Args) -> bool {
        let action = &self.actions[a];
        let Some(c) = &action.choose else {
            return false;
        };
        let card = args.card();
        let Some(program) = Self::program_for(&c.meets, card & i32::from(super::model::TYPE_MASK))
        else {
            return false;
        };
        let counts = self.situation_counts(c, state, u64::MAX);
        solve::exists(program, &counts[..], &[])
    }

    /// Every choice for the pending action, in the solver's order, as a payment of situations.
    pub(super) fn choices(&self, state: &State, mut f: impl FnMut(&Payment)) {
        let Some((c, card)) = self.pending_choice(state) else {
            return;
        };
        let Some(program) = Self::program_for(&c.meets, card) else {
            return;
        };
        let counts = self.situation_counts(c, state, u64::MAX);
        solve::payments(program, &counts[..], &[], |p| {
            f(p);
            true
        });
    }

    /// The figures standing for a choice of situations: per situation, the lowest-numbered
    /// figures in it.
    fn figures_for(&self, c: &Choose, state: &State, action: &Action) -> u64 {
        let (Some(board), Some(f)) = (&self.board, &state.figures.0) else {
            return 0;
        };
        let mut need = [0u8; TYPES];
        self.paid.each(&action.paid, |t, n| need[t % TYPES] = n);
        let mut mask = 0u64;
        for m in board.members(f, c.kind, Self::owner(c.who, state)) {
            if let Some(t) = situation_of(board, f, c, m) {
                let n = &mut need[usize::from(t) % TYPES];
                if *n > 0 {
                    *n -= 1;
                    mask |= 1 << m;
                }
            }
        }
        mask
    }

    /// Before the pending action's effects run: the figures its choice names.
    pub(super) fn take_choice(&self, state: &mut State, action: &Action) {
        if let Some((c, _)) = self.pending_choice(state) {
            let figures = self.figures_for(c, state, action);
            state.chosen = Chosen {
                made: true,
                figures,
            };
        }
    }

    /// `score knight@3 knight@9`: the chosen figures by seat.
    pub(super) fn choice_notation(&self, state: &State, action: &Action) -> Option<String> {
        if action.action != PAY {
            return None;
        }
        let (c, _) = self.pending_choice(state)?;
        let f = state.figures.0.as_ref()?;
        let mask = self.figures_for(c, state, action);
        let mut seats: Vec<(u8, u8)> = (0..64u8)
            .filter(|&m| mask & (1 << m) != 0)
            .filter_map(|m| f.ring.seat_of(m).map(|s| (s, m)))
            .collect();
        seats.sort_unstable();
        let mut text = c.verb.clone();
        for (_, m) in seats {
            text.push(' ');
            text.push_str(&self.figure_text(state, m));
        }
        Some(text)
    }

    /// Reads `score knight@3 knight@9` while a choice is awaited; a choice's verb at any other
    /// time says when it is used. `None`: not a choice.
    pub(super) fn parse_choice(&self, state: &State, text: &str) -> Option<Result<Action, String>> {
        let mut words = text.split_whitespace();
        let verb = words.next()?;
        let Some((c, _)) = self.pending_choice(state) else {
            let (a, c) = self
                .actions
                .iter()
                .find_map(|a| a.choose.as_ref().filter(|c| c.verb == verb).map(|c| (a, c)))?;
            if self.actions.iter().any(|x| x.name == verb) {
                return None;
            }
            return Some(Err(format!(
                "`{}` chooses the figures for a move just made (`{} …`); there is nothing to choose now",
                c.verb, a.name
            )));
        };
        if verb != c.verb {
            return None;
        }
        Some(self.read_choice(state, c, words))
    }

    fn read_choice<'w>(
        &self,
        state: &State,
        c: &Choose,
        words: impl Iterator<Item = &'w str>,
    ) -> Result<Action, String> {
        let (Some(board), Some(f)) = (&self.board, &state.figures.0) else {
            return Err("there is no ring".into());
        };
        let mine: Vec<u8> = board
            .members(f, c.kind, Self::owner(c.who, state))
            .filter(|&m| f.ring.seat_of(m).is_some())
            .collect();
        let mut mask = 0u64;
        for word in words {
            let Some(&m) = mine.iter().find(|&&m| self.figure_text(state, m) == word) else {
                let elsewhere = f
                    .ring
                    .figures()
                    .find(|&(_, m)| self.figure_text(state, m) == word);
                if let Some((_, m)) = elsewhere {
                    let (k, owner, _) = board.figure(f, m);
                    let whose = owner.map_or(String::new(), |o| format!("P{}'s ", o + 1));
                    return Err(format!(
                        "`{word}` is {whose}{}: you choose among {}",
                        board.kinds[k].name,
                        self.choice_pool(c)
                    ));
                }
                let names: Vec<String> = mine.iter().map(|&m| self.figure_text(state, m)).collect();
                return Err(no_such("figure", word, names.iter().map(String::as_str)));
            };
            if mask & (1 << m) != 0 {
                return Err(format!("`{word}` is named twice"));
            }
            mask |= 1 << m;
        }
        if mask == 0 {
            return Err(format!(
                "`{}` which {}? e.g. `{} {}`",
                c.verb,
                c.name,
                c.verb,
                mine.first()
                    .map_or("<figure>".into(), |&m| self.figure_text(state, m))
            ));
        }
        let counts = self.situation_counts(c, state, mask);
        // The listed choice of these situations (the solver sizes its payments its own way).
        let mut listed = None;
        self.choices(state, |p| {
            let same = (0..TYPES).all(|t| p.counts().get(t).copied().unwrap_or(0) == counts[t]);
            if same && listed.is_none() {
                listed = Some(*p);
            }
        });
        let paid = listed.or_else(|| Payment::from_counts(&counts[..]));
        Ok(paid.map_or(Action::new(PAY, Args::NONE), |p| {
            Action::paying(self.paid.paid(&p))
        }))
    }

    /// "your own Knights", "the Princes".
    fn choice_pool(&self, c: &Choose) -> String {
        match c.who {
            Who::Current => format!("your own {}", c.name),
            _ => format!("the {}", c.name),
        }
    }

    /// Why a move is refused while a choice of figures is awaited. `None`: none is awaited.
    pub(super) fn choice_refusal(&self, state: &State, action: &Action) -> Option<String> {
        let (c, card) = self.pending_choice(state)?;
        if action.action != PAY {
            let (a, _) = state.pending?;
            let action = &self.actions[usize::from(a)];
            let what = match action.param.card_zone() {
                Some(z) if card >= 0 => format!(" for `{}`", self.card_id(z.zone, card as u16)),
                _ => String::new(),
            };
            let kind = self
                .board
                .as_ref()
                .map_or("figure", |b| b.kinds[c.kind].name.as_str());
            return Some(format!(
                "choose the {}{what}: `{} {kind}@<seat> …`",
                c.name, c.verb
            ));
        }
        let (program, source) = match &c.meets {
            Meets::Named {
                program, source, ..
            } => (&**program, source.as_str()),
            Meets::Own {
                programs, sources, ..
            } => {
                let t = usize::try_from(card).unwrap_or(usize::MAX);
                let program = programs.get(t).and_then(Option::as_ref)?;
                (program, sources[t].as_str())
            }
        };
        let paid = self.paid.of(&action.paid)?;
        let counts = paid.counts();
        if !program.test(counts, &[]) {
            let said = self.explain.condition(c.set, source);
            return Some(format!(
                "those {} do not meet the card's condition: {said}",
                c.name
            ));
        }
        Some(format!(
            "one of those {} is not needed for the card's condition ({}): leave it out",
            c.name,
            self.explain.condition(c.set, source)
        ))
    }

    /// `sum`/`most`/`best_figure` of a plate attribute under figures.
    pub(super) fn plate_read(&self, r: &PlateRead, board: &Board, f: &Figures, ctx: &Ctx) -> i64 {
        let Some(plates) = &board.plates else {
            return 0;
        };
        let values = &self.sets[plates.set].values[r.attr];
        let (members, only) = match r.over {
            Over::Kind(kind, who) => {
                let owner = self.owner_of(who, ctx);
                (board.members(f, kind, owner), u64::MAX)
            }
            Over::Chosen => {
                let total: u8 = f.size.iter().sum();
                (0..total, ctx.state.chosen.figures)
            }
        };
        let mut sum = 0;
        let mut best: Option<(i64, u8)> = None;
        for m in members.filter(|&m| m < 64 && only & (1 << m) != 0) {
            let Some(v) = f
                .ring
                .seat_of(m)
                .and_then(|s| board.plate_at(f, usize::from(s)))
                .map(|p| values[usize::from(p)])
            else {
                continue;
            };
            sum += v;
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, m));
            }
        }
        match r.fold {
            Fold::Sum => sum,
            Fold::Most => best.map_or(0, |(v, _)| v),
            Fold::BestFigure => best.map_or(-1, |(_, m)| i64::from(m)),
        }
    }
}

/// The situation of figure `m` (none off the ring).
fn situation_of(board: &Board, f: &Figures, c: &Choose, m: u8) -> Option<u8> {
    let s = usize::from(f.ring.seat_of(m)?);
    let plate = usize::from(board.plate_at(f, s)?);
    c.situation.get(plate * board.seats + s).copied()
}
