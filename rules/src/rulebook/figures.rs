//! Moving figures round the ring: the figure parameter of an action (`figure = "figure in
//! knight(current), prince"`, with `steps = "1..5"` a distance), the `step F by N` effect
//! with displacement, and their notation (`move knight@5 2`, `move king 3`).

use grail_engine::game::EventSink;
use grail_engine::seats::Direction;
use grail_schema::model::{ActionDef, Sp};

use super::Rulebook;
use super::args::Args;
use super::compile::{Compiler, Kind, Scope};
use super::model::{Effect, Members, Param, Who};
use super::state::{Event, State};
use super::syntax::{Ast, Node};

fn opposite(d: Direction) -> Direction {
    match d {
        Direction::Clockwise => Direction::CounterClockwise,
        Direction::CounterClockwise => Direction::Clockwise,
    }
}

impl Compiler<'_> {
    /// `figure = "figure in knight(current) or prince"` and `steps = "1..5"` (a negative lower
    /// bound steps backward too; 0 never).
    pub fn figure_param(&mut self, def: &ActionDef) -> Option<Param> {
        let fig = def.figure.as_ref()?;
        if def.card.is_some() {
            return self.card_figure_param(def);
        }
        if def.row.is_some() || def.seat.is_some() {
            let msg = "an action takes one parameter: `card`, `row`, `seat` or `figure` (or a card and a figure)".into();
            self.error("invalid-value", msg, &fig.loc, fig.loc.span.clone());
            return None;
        }
        self.figure_part(def)
    }

    /// The figure parameter and its distances, whatever else the action takes.
    pub fn figure_part(&mut self, def: &ActionDef) -> Option<Param> {
        let fig = def.figure.as_ref()?;
        let node = self.parameter(fig, "figure")?;
        let mut refs = Vec::new();
        for part in split_list(&node) {
            refs.push(self.figure_ref(part, fig, super::compile::NO_SCOPE)?);
        }
        let steps = match &def.steps {
            Some(s) => self.steps_range(s)?,
            None => Vec::new(),
        };
        Some(Param::Figure { refs, steps })
    }

    fn steps_range(&mut self, s: &Sp<String>) -> Option<Vec<i8>> {
        let bad = |c: &mut Self| {
            let msg = format!(
                "`steps` is a range like `1..5` (or `-5..5` to step backward too, or `1..5 either way` for 1, -1, 2, -2, …), not `{}`",
                s.value
            );
            c.error("invalid-value", msg, &s.loc, s.loc.span.clone());
            None
        };
        // Nearest first, each distance forward and then back.
        if let Some(range) = s.value.trim().strip_suffix("either way") {
            let Some((lo, hi)) = range.split_once("..") else {
                return bad(self);
            };
            let (Ok(lo), Ok(hi)) = (lo.trim().parse::<i8>(), hi.trim().parse::<i8>()) else {
                return bad(self);
            };
            if lo < 1 || lo > hi {
                return bad(self);
            }
            return Some((lo..=hi).flat_map(|n| [n, -n]).collect());
        }
        let Some((lo, hi)) = s.value.split_once("..") else {
            return bad(self);
        };
        let (Ok(lo), Ok(hi)) = (lo.trim().parse::<i8>(), hi.trim().parse::<i8>()) else {
            return bad(self);
        };
        if hi < 1 || lo > hi {
            return bad(self);
        }
        // Forward distances first, then backward ones, each rising.
        let forward = lo.max(1)..=hi;
        let backward = 1..=(-lo).max(0);
        Some(forward.chain(backward.map(|n| -n)).collect())
    }

    /// `step figure by steps`: needs the ring's `forward` and `displace`.
    pub fn step_effect(
        &mut self,
        figure: &Node,
        by: &Node,
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<Effect> {
        let ready = self
            .board
            .as_ref()
            .map(|b| b.forward.is_some() && b.displace.is_some());
        if ready != Some(true) {
            let at = self.span(s, &figure.span);
            let msg = "`step` needs a ring with `forward` and `displace` directions".to_string();
            self.error("missing-field", msg, &s.loc, at);
            return None;
        }
        let figure = self.typed(figure, s, scope, Kind::Int)?;
        let by = self.typed(by, s, scope, Kind::Int)?;
        Some(Effect::Step {
            figure: figure.into(),
            by: by.into(),
        })
    }
}

/// The figure references of a parameter, joined by `or` (`knight(current) or prince`).
fn split_list(node: &Node) -> Vec<&Node> {
    match &node.ast {
        Ast::Bin(super::syntax::Op::Or, l, r) => {
            let mut out = split_list(l);
            out.extend(split_list(r));
            out
        }
        _ => vec![node],
    }
}

impl Rulebook {
    /// Every figure-and-distance binding, in order: the references as listed, each kind's
    /// figures on the ring by id, each one's distances as declared.
    pub(super) fn figure_bindings(
        &self,
        state: &State,
        refs: &[(usize, Who)],
        steps: &[i8],
        mut f: impl FnMut(Args) -> bool,
    ) {
        let (Some(board), Some(fig)) = (&self.board, &state.figures.0) else {
            return;
        };
        for &(kind, who) in refs {
            let owner = match who {
                Who::Current => Some(usize::from(state.current)),
                _ => None,
            };
            for m in board.members(fig, kind, owner) {
                if fig.ring.seat_of(m).is_none() {
                    continue;
                }
                if steps.is_empty() {
                    if !f(Args::of_figure(m, 0)) {
                        return;
                    }
                    continue;
                }
                for &n in steps {
                    if !f(Args::of_figure(m, n)) {
                        return;
                    }
                }
            }
        }
    }

    /// Steps a figure `by` seats (backward when negative); whoever sits where it lands is
    /// displaced to the next empty seat the ring's `displace` way.
    /// Out of line: inlined, `run` read the ring's directions and decoded the distance on
    /// entry for every move, stepping or not.
    #[inline(never)]
    pub(super) fn step_figure(
        &self,
        state: &mut State,
        figure: i64,
        by: i64,
        events: &mut impl EventSink<Event>,
    ) {
        let (Some(board), Some(f)) = (&self.board, &mut state.figures.0) else {
            return;
        };
        let (Some(forward), Some(displace)) = (board.forward, board.displace) else {
            return;
        };
        let Some(figure) = u8::try_from(figure)
            .ok()
            .filter(|&m| f.ring.seat_of(m).is_some())
        else {
            return;
        };
        let from = f.ring.seat_of(figure).unwrap_or(0);
        let dir = if by >= 0 { forward } else { opposite(forward) };
        let to = f.ring.step(from, by.unsigned_abs() as usize, dir);
        let landing = f.ring.move_to(figure, to, displace);
        events.emit(|| Event::FigureMoved { figure, from, to });
        if let Some(d) = landing.displaced {
            events.emit(|| Event::FigureMoved {
                figure: d.figure,
                from: d.from,
                to: d.to,
            });
        }
    }

    /// How a figure is written: a role's holder by the role (`king`), else its kind (owned
    /// figures) or card name (drawn from a set) at its seat: `knight@5`, `silver@14`.
    pub(super) fn figure_text(&self, state: &State, figure: u8) -> String {
        let (Some(board), Some(f)) = (&self.board, &state.figures.0) else {
            return "?".into();
        };
        if let Some(r) = f.roles.iter().position(|&m| m == figure) {
            return board.roles[r].name.clone();
        }
        let (k, _, i) = board.figure(f, figure);
        let name = match &board.kinds[k].members {
            Members::Cards { names, .. } => names.get(i).cloned().unwrap_or_default(),
            Members::Each { .. } => board.kinds[k].name.clone(),
        };
        match f.ring.seat_of(figure) {
            Some(s) => format!("{name}@{s}"),
            None => name,
        }
    }

    /// A figure in the log, wherever it stands: `P1 knight`, `bronze`, `king (silver)`.
    pub(super) fn figure_label(&self, state: &State, figure: u8) -> String {
        let (Some(board), Some(f)) = (&self.board, &state.figures.0) else {
            return "?".into();
        };
        let name = board.figure_name(&self.sets, f, figure);
        match f.roles.iter().position(|&m| m == figure) {
            Some(r) => format!("{} ({name})", board.roles[r].name),
            None => name,
        }
    }

    pub(super) fn figure_notation(
        &self,
        state: &State,
        verb: &str,
        args: Args,
        with_steps: bool,
    ) -> String {
        let figure = self.figure_text(state, args.figure());
        if with_steps {
            format!("{verb} {figure} {}", args.steps())
        } else {
            format!("{verb} {figure}")
        }
    }

    /// A figure named in a move that is of a kind the parameter takes from the player to
    /// move, but another seat's: `knight@10 is P2's: you may only move your own Knights`.
    fn someone_elses(&self, state: &State, refs: &[(usize, Who)], word: &str) -> Option<String> {
        let (board, f) = (self.board.as_ref()?, state.figures.0.as_ref()?);
        let (_, m) = f
            .ring
            .figures()
            .find(|&(_, m)| self.figure_text(state, m) == word)?;
        let (kind, owner, _) = board.figure(f, m);
        let owner = owner.filter(|&o| o != usize::from(state.current))?;
        refs.iter()
            .any(|&(k, who)| k == kind && who == Who::Current)
            .then(|| {
                let name = &board.kinds[kind].name;
                let mut chars = name.chars();
                let noun: String = chars
                    .next()
                    .map(|c| c.to_uppercase().chain(chars).collect())?;
                Some(format!(
                    "`{word}` is P{}'s: you may only move your own {noun}s",
                    owner + 1
                ))
            })
            .flatten()
    }

    /// Reads `knight@5 2` (or `king 3`) after the verb: one of the parameter's figures as
    /// the notation writes it, and a distance when the action has one.
    pub(super) fn parse_figure<'w>(
        &self,
        state: &State,
        verb: &str,
        refs: &[(usize, Who)],
        with_steps: bool,
        words: &mut impl Iterator<Item = &'w str>,
    ) -> Result<Args, String> {
        let form = if with_steps {
            format!("`{verb} <figure> <steps>`")
        } else {
            format!("`{verb} <figure>`")
        };
        let Some(word) = words.next() else {
            return Err(format!("`{verb}` needs a figure: {form}"));
        };
        let mut candidates = Vec::new();
        self.figure_bindings(state, refs, &[], |args| {
            candidates.push(args.figure());
            true
        });
        let Some(&figure) = candidates
            .iter()
            .find(|&&m| self.figure_text(state, m) == word)
        else {
            if let Some(why) = self.someone_elses(state, refs, word) {
                return Err(why);
            }
            let names: Vec<String> = candidates
                .iter()
                .map(|&m| self.figure_text(state, m))
                .collect();
            return Err(grail_engine::diag::no_such(
                "figure",
                word,
                names.iter().map(String::as_str),
            ));
        };
        let steps = if with_steps {
            let Some(n) = words.next() else {
                return Err(format!("`{verb}` needs a distance: {form}"));
            };
            n.parse::<i8>()
                .map_err(|_| format!("`{n}` is not a distance: {form}"))?
        } else {
            0
        };
        if let Some(extra) = words.next() {
            return Err(format!("{form}: `{extra}` is one word too many"));
        }
        Ok(Args::of_figure(figure, steps))
    }
}
