//! Several endings (`[endings.<reason>]`): further ways a game ends besides `[end]`, each with
//! its own winners (the best score, all, none, or the seats where a condition holds) and its
//! own score. Asked in the order written, before `[end]`'s own: after a turn, or after every
//! move with `now = true`. Compiled and played here; `flow.rs` asks, `rules_impl.rs` reads
//! the outcome.

use grail_engine::game::Seat;

use super::Rulebook;
use super::args::Args;
use super::compile::{Compiler, NO_SCOPE, Scope};
use super::eval::Ctx;
use super::model::Expr;
use super::state::{Ended, State};

/// Most endings: the state keeps which one in a byte.
pub const MAX_ENDINGS: usize = 64;

/// One `[endings.<reason>]`, compiled.
#[derive(Debug)]
pub struct Ending {
    pub reason: String,
    pub when: Expr,
    pub now: bool,
    pub winners: Winners,
    pub score: Option<Expr>,
}

#[derive(Debug)]
pub enum Winners {
    /// The best score (`[end] tiebreak` breaking a tie).
    Best,
    All,
    None,
    /// Every seat where a condition over `P` holds.
    Where(Expr),
}

impl Compiler<'_> {
    /// `[endings.*]`.
    pub fn endings(&mut self) -> Vec<Ending> {
        let defs = &self.pack.rulebook.endings;
        if let Some((at, _)) = defs.0.get(MAX_ENDINGS) {
            let msg = format!(
                "{} endings; a description has at most {MAX_ENDINGS}",
                defs.0.len()
            );
            self.error("over-limit", msg, &at.loc, at.loc.span.clone());
            return Vec::new();
        }
        let each = Scope {
            player: true,
            ..NO_SCOPE
        };
        let mut out = Vec::new();
        for (name, def) in defs.iter() {
            let when = self.expression(&def.when, NO_SCOPE, true);
            let winners = match def.winners.as_ref() {
                None => Some(Winners::Best),
                Some(w) => match w.value.trim() {
                    "best" => Some(Winners::Best),
                    "all" => Some(Winners::All),
                    "none" => Some(Winners::None),
                    word if word.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') => {
                        let msg = format!(
                            "`{word}` is no way to win: `winners` is `best` (the default), \
                             `all`, `none`, or a condition over `P` (`count(hand(P)) = 0`)"
                        );
                        self.error("invalid-value", msg, &w.loc, w.loc.span.clone());
                        None
                    }
                    _ => self.expression(w, each, true).map(Winners::Where),
                },
            };
            let score = match &def.score {
                Some(s) => self.expression(s, each, false).map(Some),
                None => Some(None),
            };
            if let (Some(when), Some(winners), Some(score)) = (when, winners, score) {
                out.push(Ending {
                    reason: name.value.clone(),
                    when,
                    now: def.now.as_ref().is_some_and(|n| n.value),
                    winners,
                    score,
                });
            }
        }
        out
    }
}

impl Rulebook {
    /// The first ending whose condition holds, of those asked after a turn or, with `now`,
    /// of those asked after every move.
    #[inline]
    pub(super) fn ending_reached(&self, state: &State, now: bool) -> Option<Ended> {
        if self.endings.is_empty() {
            return None;
        }
        let ctx = Ctx::current(state, Args::NONE);
        (self.endings.iter())
            .position(|e| e.now == now && self.eval(&e.when, &ctx) != 0)
            .map(|i| Ended::Ending(i as u8))
    }

    /// The ending a game ended by, if one of `[endings.*]`.
    pub(super) fn ending_of(&self, state: &State) -> Option<&Ending> {
        match state.ended {
            Some(Ended::Ending(i)) => self.endings.get(usize::from(i)),
            _ => None,
        }
    }

    /// Who wins a game over by an ending of `[endings.*]`; `None`: the best score decides.
    pub(super) fn ending_winners(&self, state: &State) -> Option<Vec<Seat>> {
        let seats = 0..usize::from(state.players);
        match &self.ending_of(state)?.winners {
            Winners::Best => None,
            Winners::All => Some(seats.collect()),
            Winners::None => Some(Vec::new()),
            Winners::Where(cond) => Some(
                seats
                    .filter(|&p| {
                        let ctx = Ctx {
                            state,
                            player: p,
                            args: Args::NONE,
                        };
                        self.eval(cond, &ctx) != 0
                    })
                    .collect(),
            ),
        }
    }
}
