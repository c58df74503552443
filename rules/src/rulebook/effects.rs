//! Running effect lines: the common ones of moves in [`Rulebook::run`]'s loop, the rest
//! (the setup's, shuffles, deals, figures, roles) out of line in `run_other`. A new effect
//! goes in one of the two matches.

use grail_engine::game::EventSink;

use super::Rulebook;
use super::args::Args;
use super::eval::Ctx;
use super::model::{CounterRef, Effect, SeatSet, TYPE_MASK, Who};
use super::state::{Event, State};

/// What effect lines act on: the action's arguments and the pile its card lies in, at setup
/// the decks a script stacks (none in a move), and inside a `for each` the seat `P` names.
#[derive(Clone, Copy)]
pub(super) struct Subject<'s> {
    pub args: Args,
    pub pile: Option<usize>,
    pub stack: &'s [(usize, Vec<u16>)],
    /// `P` of a `for each` line; `None` elsewhere (where `P` is not written).
    pub player: Option<usize>,
}

impl<'s> Subject<'s> {
    /// The setup's lines: no card, no row, the stacked decks.
    pub(super) fn setup(stack: &'s [(usize, Vec<u16>)]) -> Self {
        Subject {
            args: Args::NONE,
            pile: None,
            stack,
            player: None,
        }
    }
}

impl Rulebook {
    /// Runs effect lines. The lines of moves are played in this loop; those of the setup and
    /// the rare ones (shuffles, deals, placing a figure, giving a role) out of line
    /// ([`Rulebook::run_other`]), which keeps the loop small.
    pub(super) fn run(
        &self,
        effects: &[Effect],
        state: &mut State,
        on: &Subject,
        events: &mut impl EventSink<Event>,
    ) {
        // No effect changes the seat deciding: read once, not per line.
        let player = on.player.unwrap_or(usize::from(state.decider()));
        'effects: for mut effect in effects {
            let ctx = Ctx {
                state,
                player,
                args: on.args,
            };
            // A line with `if` runs when its condition holds, in place (no call for it).
            while let Effect::If { cond, then } = effect {
                if self.arg(cond, &ctx) == 0 {
                    continue 'effects;
                }
                effect = then.as_ref();
            }
            match effect {
                Effect::Move { to } => {
                    let Some(from) = on.pile else {
                        continue;
                    };
                    let card = on.args.card() as u16;
                    let to = self.landing(to, &ctx, card);
                    // The first copy in the zone's order: the one laid first in a row.
                    if let Some(i) = state.piles[from].iter().position(|&c| c == card) {
                        self.move_card(state, (from, i), to, events);
                    }
                }
                Effect::Add { amount, to } => {
                    let amount = self.arg(amount, &ctx);
                    let (figure, seat) = match to {
                        CounterRef::Figure(_, f) => (self.operand(f, &ctx), 0),
                        CounterRef::Seat(_, who) => (-1, self.seat_of(*who, &ctx)),
                        CounterRef::Table(_) => (-1, 0),
                    };
                    self.add_to(state, to, amount, figure, seat);
                }
                Effect::Step { figure, by } => {
                    let (figure, by) = (self.arg(figure, &ctx), self.arg(by, &ctx));
                    self.step_figure(state, figure, by, events);
                }
                Effect::Draw { count, from, to } => {
                    let n = self.arg(count, &ctx);
                    // Into a zone kept in rows with no row named: each card into its row.
                    let (from, to, into) = self.draw_ends(from, to, &ctx);
                    // Only an empty stack is refilled: the call is skipped while it holds cards.
                    // Each card drawn is work: a draw through a supply that refills from
                    // where it draws to ends when the move's budget does (`fault.rs`).
                    for _ in 0..n {
                        if !super::fault::spend(1) {
                            break;
                        }
                        if state.piles[from].is_empty() {
                            self.refill(state, from, events);
                        }
                        if !self.shift(state, from, to, into, events) {
                            break;
                        }
                        if state.piles[from].is_empty() {
                            self.refill(state, from, events);
                        }
                    }
                }
                Effect::Reveal { from, into, until } => {
                    self.reveal(state, from, *into, until, events);
                }
                Effect::Mark => {
                    if let Some(from) = on.pile {
                        self.mark(state, from, on.args.card() as u16);
                    }
                }
                Effect::Award { zone, to } => self.award(state, *zone, *to, events),
                _ => self.run_other(effect, state, on, events),
            }
        }
    }

    /// Moves the card at `(pile, index)` to pile `to`, its mark dropped, and says so.
    #[inline]
    fn move_card(
        &self,
        state: &mut State,
        (from, i): (usize, usize),
        to: usize,
        events: &mut impl EventSink<Event>,
    ) {
        let card = state.piles[from][i];
        self.take_card(state, from, i);
        let card = self.unmark(state, card);
        self.put(state, to, card);
        events.emit(|| Event::Moved {
            card,
            from: from as u32,
            to: to as u32,
        });
    }

    /// The effect lines [`Rulebook::run`] leaves out of its loop (any `if` unwrapped).
    #[inline(never)]
    fn run_other(
        &self,
        effect: &Effect,
        state: &mut State,
        on: &Subject,
        events: &mut impl EventSink<Event>,
    ) {
        let ctx = Ctx {
            state,
            player: on.player.unwrap_or(usize::from(state.decider())),
            args: on.args,
        };
        match effect {
            Effect::MoveNamed { card, from, to } => {
                // No card (`top_card` of an empty zone): nothing moves.
                let Ok(t) = u16::try_from(self.eval(card, &ctx)).map(|c| c & TYPE_MASK) else {
                    return;
                };
                // Its first copy in the zone's piles, in their order (a mark ignored).
                let found = self.piles_of(from, &ctx).find_map(|p| {
                    let i = state.piles[p].iter().position(|&c| c & TYPE_MASK == t)?;
                    Some((p, i))
                });
                let Some((p, i)) = found else {
                    return;
                };
                let to = self.landing(to, &ctx, t);
                self.move_card(state, (p, i), to, events);
            }
            Effect::Shuffle(z) => {
                // `Z(each)`: every seat's, in seat order.
                let each = z.who == Who::Each;
                let named = self.piles_of(z, &ctx);
                for p in self.piles_reached(z.zone, each, named, state.players) {
                    Self::shuffle_pile(state, p, on.stack, events);
                }
            }
            Effect::ShuffleSeats(zones) => {
                // Seat by seat, each seat's zones in the order named.
                for seat in 0..usize::from(state.players) {
                    for &z in zones {
                        for p in self.seat_rows(z, seat) {
                            Self::shuffle_pile(state, p, on.stack, events);
                        }
                    }
                }
            }
            Effect::Deal { count, from, to } => {
                let n = self.arg(count, &ctx);
                // From a zone per seat (`deck(each)`): each seat from its own.
                let own = (from.who == Who::Each).then_some(from.zone);
                let table = if own.is_some() {
                    0
                } else {
                    self.piles_of(from, &ctx).start
                };
                'deal: for _ in 0..n {
                    if !super::fault::spend(u64::from(state.players)) {
                        break;
                    }
                    for seat in 0..usize::from(state.players) {
                        let from = own.map_or(table, |z| self.pile(z, seat, 0));
                        let into = self.zones[*to].by.map(|_| *to);
                        let to = self.pile(*to, seat, 0);
                        if !self.shift(state, from, to, into, events) && own.is_none() {
                            break 'deal;
                        }
                    }
                }
            }
            Effect::Turn { zone, up } => {
                // `Z(each)`: every seat's piles of the zone (a table zone's once).
                let each = zone.who == Who::Each && self.zones[zone.zone].owned;
                let named = self.piles_of(zone, &ctx);
                for p in self.piles_reached(zone.zone, each, named, state.players) {
                    if state.face_up.is_up(p) != *up {
                        state.face_up.turn(p, *up);
                        events.emit(|| Event::Turned {
                            pile: p as u32,
                            up: *up,
                        });
                    }
                }
            }
            Effect::DrawAtRandom { count, from, to } => {
                let n = self.arg(count, &ctx);
                let (from, to, into) = self.draw_ends(from, to, &ctx);
                for _ in 0..n {
                    let len = state.piles[from].len();
                    if len == 0 || !super::fault::spend(1) {
                        break;
                    }
                    let i = state.rng.index(len);
                    let card = self.take_card(state, from, i);
                    self.land(state, card, from, to, into, events);
                }
            }
            Effect::Show { zone, to } => {
                let seat = self.seat_of(*to, &ctx);
                for p in self.piles_of(zone, &ctx) {
                    if state.shown.show(p, seat) {
                        events.emit(|| Event::Shown {
                            pile: p as u32,
                            seat: seat as u8,
                        });
                    }
                }
            }
            Effect::Give { role, figure } => {
                let figure = self.arg(figure, &ctx);
                self.give(state, *role, figure);
            }
            Effect::Place { kind, seat } => {
                let seat = self.eval(seat, &ctx);
                self.place_figure(state, *kind, seat);
            }
            Effect::Set { value, to } => {
                let value = self.arg(value, &ctx);
                let seat = match to {
                    CounterRef::Seat(_, who) => self.seat_of(*who, &ctx),
                    _ => 0,
                };
                self.set_counter(state, to, value, seat);
            }
            Effect::Tally { entry, item } => {
                let card = item
                    .as_ref()
                    .and_then(|e| u16::try_from(self.eval(e, &ctx)).ok())
                    .unwrap_or(u16::MAX);
                let seat = ctx.player as u8;
                let at = (super::model::EFFECT_TALLY | *entry, card, state.turn, seat);
                state.tallies.push(at);
            }
            Effect::ForEach { seats, from, body } => {
                let body = std::slice::from_ref(body.as_ref());
                let start = match from {
                    None => usize::from(state.current) + usize::from(*seats == SeatSet::Others),
                    Some(from) => super::fault::seat(self.eval(from, &ctx), state.players),
                };
                for p in Self::seats_starting(*seats, start, state) {
                    if super::fault::failed() {
                        return;
                    }
                    let each = Subject {
                        player: Some(p),
                        ..*on
                    };
                    self.run(body, state, &each, events);
                }
            }
            // Played in `run`'s loop.
            Effect::If { .. }
            | Effect::Move { .. }
            | Effect::Add { .. }
            | Effect::Step { .. }
            | Effect::Draw { .. }
            | Effect::Reveal { .. }
            | Effect::Mark
            | Effect::Award { .. } => {
                let effect = std::slice::from_ref(effect);
                self.run(effect, state, on, events);
            }
        }
    }
}
