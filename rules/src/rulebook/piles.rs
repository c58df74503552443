//! Pile addressing (a zone, seat and row to a pile, and back) and the helpers that put,
//! shift, shuffle and stack cards in piles.

use grail_engine::game::EventSink;
use grail_schema::model::Layout;

use super::Rulebook;
use super::args::Args;
use super::eval::Ctx;
use super::model::{Expr, TYPE_MASK, ZoneRef};
use super::state::{Event, State};

impl Rulebook {
    /// The pile of `zone`, seat `seat` (ignored for table zones), row `row`.
    pub(super) fn pile(&self, zone: usize, seat: usize, row: usize) -> usize {
        let z = &self.zones[zone];
        if z.owned {
            self.table_piles + seat * self.seat_piles + z.first + row
        } else {
            z.first + row
        }
    }

    /// The piles of `zone` for seat `seat` (the table's for a table zone): its rows.
    pub(super) fn seat_rows(&self, zone: usize, seat: usize) -> std::ops::Range<usize> {
        let p = self.pile(zone, seat, 0);
        p..p + self.zones[zone].rows
    }

    /// The piles an effect on `zone` reaches: with `each` (`Z(each)`), every seat's rows in
    /// seat order; else `named`, the piles the reference names.
    pub(super) fn piles_reached(
        &self,
        zone: usize,
        each: bool,
        named: std::ops::Range<usize>,
        players: u8,
    ) -> impl Iterator<Item = usize> + '_ {
        let seats = if each { usize::from(players) } else { 1 };
        (0..seats).flat_map(move |seat| match each {
            true => self.seat_rows(zone, seat),
            false => named.clone(),
        })
    }

    /// Which zone a pile belongs to, without the division [`Rulebook::locate`] needs.
    #[inline]
    pub(super) fn zone_of(&self, pile: usize) -> usize {
        match self.zone_by_pile.get(pile).map(|&z| usize::from(z)) {
            Some(z) if z < self.zones.len() => z,
            _ => self.locate(pile).0,
        }
    }

    /// Which zone, seat and row a pile is.
    pub(super) fn locate(&self, pile: usize) -> (usize, Option<usize>, usize) {
        let (seat, offset, slot) = if pile < self.table_piles {
            (None, pile, pile)
        } else {
            let p = pile - self.table_piles;
            let offset = p % self.seat_piles.max(1);
            (
                Some(p / self.seat_piles.max(1)),
                offset,
                self.table_piles + offset,
            )
        };
        match self.pile_zones.get(slot).map(|&z| usize::from(z)) {
            Some(z) if z < self.zones.len() => {
                (z, seat, offset.saturating_sub(self.zones[z].first))
            }
            _ => (0, seat, 0),
        }
    }

    /// The piles a zone reference covers: one row, or all rows of the zone.
    #[inline(always)]
    pub(super) fn piles_of(&self, z: &ZoneRef, ctx: &Ctx) -> std::ops::Range<usize> {
        match &z.row {
            Some(row) => self.row_pile(z, row, ctx),
            None => {
                let zone = &self.zones[z.zone];
                let p = if zone.owned {
                    self.table_piles + self.seat_of(z.who, ctx) * self.seat_piles + zone.first
                } else {
                    zone.first
                };
                p..p + zone.rows
            }
        }
    }

    /// [`Rulebook::piles_of`] for one row of a zone, named by an expression.
    #[inline(never)]
    fn row_pile(&self, z: &ZoneRef, row: &Expr, ctx: &Ctx) -> std::ops::Range<usize> {
        let seat = self.seat_of(z.who, ctx);
        let r = self
            .eval(row, ctx)
            .clamp(0, self.zones[z.zone].rows as i64 - 1) as usize;
        let p = self.pile(z.zone, seat, r);
        p..p + 1
    }

    pub(super) fn put(&self, state: &mut State, pile: usize, card: u16) {
        let zone = self.zone_of(pile);
        let z = &self.zones[zone];
        if z.tally.is_some() {
            state
                .tallies
                .push((zone as u16, card, state.turn, state.current));
        }
        self.note_put(state, pile, card);
        // A card laid on an emptied pile that was turned up is laid face down.
        if z.turned && state.piles[pile].is_empty() {
            state.face_up.turn(pile, false);
            state.shown.forget(pile);
        }
        let cards = &mut state.piles[pile];
        cards.push(card);
        if z.layout == Layout::Hand {
            // Kept in type order, the card after its equals: the few cards above it move up
            // one by one (a hand is short; a call to `memmove` cost more than the moves). On
            // the slice, whose length stays in a register: no bounds check per card.
            let cards = cards.as_mut_slice();
            let mut i = cards.len() - 1;
            while i > 0 && cards[i - 1] > card {
                cards[i] = cards[i - 1];
                i -= 1;
            }
            cards[i] = card;
        }
    }

    /// The row of `zone` a card put into it without a row named lands in: in a zone kept in
    /// rows, the row of the card's `by` value; else its one pile.
    #[inline(always)]
    pub(super) fn row_for(&self, zone: usize, card: u16) -> usize {
        let z = &self.zones[zone];
        match z.by {
            None => 0,
            Some(by) => {
                let v = self.sets[z.set].values[by][usize::from(card & TYPE_MASK)];
                v.clamp(0, z.rows as i64 - 1) as usize
            }
        }
    }

    /// Where a card put into `to` lands: the row `to` names, else [`Rulebook::row_for`].
    #[inline(always)]
    pub(super) fn landing(&self, to: &ZoneRef, ctx: &Ctx, card: u16) -> usize {
        let p = self.piles_of(to, ctx).start;
        if to.row.is_some() {
            p
        } else {
            p + self.row_for(to.zone, card)
        }
    }

    /// Moves the top card of pile `from` to `to`, into its row when `into` is a zone kept in
    /// rows and `to` its first row.
    pub(super) fn shift(
        &self,
        state: &mut State,
        from: usize,
        to: usize,
        into: Option<usize>,
        events: &mut impl EventSink<Event>,
    ) -> bool {
        let Some(card) = self.pop_card(state, from) else {
            return false;
        };
        self.land(state, card, from, to, into, events);
        true
    }

    /// A card taken from pile `from` laid on `to` (into its row of zone `into`, if given).
    #[inline]
    pub(super) fn land(
        &self,
        state: &mut State,
        card: u16,
        from: usize,
        to: usize,
        into: Option<usize>,
        events: &mut impl EventSink<Event>,
    ) {
        let to = into.map_or(to, |z| to + self.row_for(z, card));
        self.put(state, to, card);
        events.emit(|| Event::Moved {
            card,
            from: from as u32,
            to: to as u32,
        });
    }

    /// A draw's two piles, and the zone kept in rows its cards go to their rows of (`to`
    /// with no row named).
    #[inline]
    pub(super) fn draw_ends(
        &self,
        from: &ZoneRef,
        to: &ZoneRef,
        ctx: &Ctx,
    ) -> (usize, usize, Option<usize>) {
        let into = (to.row.is_none() && self.zones[to.zone].by.is_some()).then_some(to.zone);
        (
            self.piles_of(from, ctx).start,
            self.piles_of(to, ctx).start,
            into,
        )
    }

    /// Shuffles a pile; a script's stacked cards then go on top, the first named drawn first.
    /// Each is taken from the rest at its topmost copy, so the rest keeps its shuffled order.
    pub(super) fn shuffle_pile(
        state: &mut State,
        p: usize,
        stack: &[(usize, Vec<u16>)],
        events: &mut impl EventSink<Event>,
    ) {
        state.rng.shuffle(&mut state.piles[p]);
        Self::stack_pile(state, p, stack);
        events.emit(|| Event::Shuffled { pile: p as u32 });
    }

    /// Puts a script's stacked cards of pile `p` on top, the first named drawn first.
    pub(super) fn stack_pile(state: &mut State, p: usize, stack: &[(usize, Vec<u16>)]) {
        if let Some((_, cards)) = stack.iter().find(|(s, _)| *s == p) {
            let pile = &mut state.piles[p];
            let mut found = Vec::with_capacity(cards.len());
            for &c in cards {
                if let Some(i) = pile.iter().rposition(|&x| x == c) {
                    pile.remove(i);
                    found.push(c);
                }
            }
            pile.extend(found.iter().rev());
        }
    }

    /// The pile a move's effects take its card from: [`Rulebook::card_pile`], except that a
    /// zone of one pile (a hand) is not searched. The effects that take the card (`move`,
    /// `mark`) look for it there and do nothing without it, as they do without a pile; the
    /// search, a branch per card nothing predicts, was a tenth of a move's time.
    #[inline]
    pub(super) fn move_pile(&self, state: &State, a: usize, args: Args) -> Option<usize> {
        let entry = u16::try_from(args.card()).ok()?;
        let z = self.actions[a].param.card_zone()?;
        let ctx = Ctx::current(state, args);
        let mut piles = self.piles_of(z, &ctx);
        if piles.len() == 1 {
            return Some(piles.start);
        }
        piles.find(|&p| state.piles[p].contains(&entry))
    }

    /// The pile the card parameter of action `a` lies in. Inlined into every move: a move
    /// without a card (a draw, card -1) returns at the first test.
    #[inline]
    pub(super) fn card_pile(&self, state: &State, a: usize, args: Args) -> Option<usize> {
        let entry = u16::try_from(args.card()).ok()?;
        let z = self.actions[a].param.card_zone()?;
        let ctx = Ctx::current(state, args);
        self.piles_of(z, &ctx)
            .find(|&p| state.piles[p].contains(&entry))
    }
}
