//! The cards of every zone a payment is made from, kept counted by type in the state and
//! brought up to date as cards come and go: a listing asks "what does the payer hold?" for
//! every step it enters, and counting the pile each time cost as much as the answer.
//!
//! The counts are [`Derived`](grail_engine::derived::Derived): no digest or equality sees
//! them. Cards moved one at a time update them in place ([`Rulebook::put`],
//! [`Rulebook::take_card`], [`Rulebook::pop_card`]); anything that rewrites piles wholesale
//! (setting up, a script's position, an observation's re-deal, a refill) counts again.
//! `check_invariants` holds them to a fresh count after every move of the property tests.

use grail_engine::counts::Counts;

use super::Rulebook;
use super::eval::Ctx;
use super::model::{Action, Zone, ZoneRef};
use super::state::{Held, State};

/// No counts kept for this pile.
const NOT_HELD: u16 = u16::MAX;

/// Which piles of a game at the most players keep counts (`zone_by_pile`: the zone of each):
/// the piles of the one-pile zones some action pays from, a slot each in pile order.
pub(super) fn slots(zones: &[Zone], actions: &[Action], zone_by_pile: &[u16]) -> Vec<u16> {
    let counted = |z: usize| {
        zones.get(z).is_some_and(|zone| zone.rows == 1)
            && actions
                .iter()
                .filter_map(|a| a.pay.as_ref())
                .any(|p| p.from.zone == z && p.from.row.is_none())
    };
    let mut next = 0u16;
    zone_by_pile
        .iter()
        .map(|&z| {
            if counted(usize::from(z)) && next < NOT_HELD - 1 {
                next += 1;
                next - 1
            } else {
                NOT_HELD
            }
        })
        .collect()
}

impl Rulebook {
    /// The slot of a pile's counts, if it keeps them.
    #[inline]
    fn held_slot(&self, pile: usize) -> Option<usize> {
        match self.held_slots.get(pile) {
            Some(&s) if s != NOT_HELD => Some(usize::from(s)),
            _ => None,
        }
    }

    /// The counts kept for a whole one-pile zone, if it keeps them.
    #[inline]
    pub(super) fn held<'s>(&self, z: &ZoneRef, ctx: &Ctx<'s>) -> Option<&'s Counts> {
        if z.row.is_some() {
            return None;
        }
        let piles = self.piles_of(z, ctx);
        if piles.len() != 1 {
            return None;
        }
        ctx.state.held.get(self.held_slot(piles.start)?)
    }

    /// Empty counts for every counted pile of a game of `players`.
    pub(super) fn no_held(&self, players: usize) -> Held {
        let piles = self.table_piles + players * self.seat_piles;
        let n = self.held_slots[..piles.min(self.held_slots.len())]
            .iter()
            .filter(|&&s| s != NOT_HELD)
            .count();
        vec![Counts::new(); n]
    }

    /// A card has come into a pile.
    #[inline]
    pub(super) fn note_put(&self, state: &mut State, pile: usize, card: u16) {
        if let Some(s) = self.held_slot(pile)
            && card < 64
            && let Some(h) = state.held.get_mut(s)
        {
            h.add(card as u8, 1);
        }
    }

    /// Takes the entry at `i` out of a pile.
    pub(super) fn take_card(&self, state: &mut State, pile: usize, i: usize) -> u16 {
        // The cards above it move down one by one (see `put`).
        let cards = &mut state.piles[pile];
        let card = cards[i];
        for j in i + 1..cards.len() {
            cards[j - 1] = cards[j];
        }
        cards.pop();
        self.note_taken(state, pile, card);
        card
    }

    /// Takes a pile's last entry (a stack's top).
    pub(super) fn pop_card(&self, state: &mut State, pile: usize) -> Option<u16> {
        let card = state.piles[pile].pop()?;
        self.note_taken(state, pile, card);
        Some(card)
    }

    #[inline]
    fn note_taken(&self, state: &mut State, pile: usize, card: u16) {
        if let Some(s) = self.held_slot(pile)
            && card < 64
            && let Some(h) = state.held.get_mut(s)
        {
            h.remove(card as u8, 1);
        }
    }

    /// Counts one pile again (after it was rewritten as a whole, or a card in it marked).
    pub(super) fn recount_pile(&self, state: &mut State, pile: usize) {
        if let Some(s) = self.held_slot(pile) {
            let mut counts = Counts::new();
            for &c in &state.piles[pile] {
                if c < 64 {
                    counts.add(c as u8, 1);
                }
            }
            if let Some(h) = state.held.get_mut(s) {
                *h = counts;
            }
        }
    }

    /// Counts every counted pile again.
    pub(super) fn recount(&self, state: &mut State) {
        *state.held = self.no_held(usize::from(state.players));
        for p in 0..state.piles.len() {
            self.recount_pile(state, p);
        }
    }

    /// Whether the kept counts are those of the piles (for `check_invariants`).
    pub(super) fn check_held(&self, state: &State) -> Result<(), String> {
        let mut fresh = state.clone();
        self.recount(&mut fresh);
        for p in 0..state.piles.len() {
            if let Some(s) = self.held_slot(p)
                && state.held.get(s) != fresh.held.get(s)
            {
                return Err(format!(
                    "the counts kept for {} are not its cards",
                    self.pile_name(p)
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::Rulebook;
    use grail_engine::game::{NoEvents, Rules, Setup};
    use grail_engine::rng::GameRng;

    /// King Arthur's description (basic or seals), played by the generic rulebook.
    fn king_arthur(variant: Option<&str>) -> Rulebook {
        super::super::random_games::bundled("king-arthur", variant)
    }

    #[test]
    fn the_kept_counts_follow_every_move_and_observation() {
        for variant in [None, Some("seals")] {
            let rules = king_arthur(variant);
            assert!(
                rules.held_slots.iter().any(|&s| s != super::NOT_HELD),
                "knights and adversaries are paid from"
            );
            for seed in 0..12 {
                let players = 2 + (seed as usize) % 4;
                let mut state = rules.setup(&Setup::new(players, seed)).unwrap();
                let mut rng = GameRng::new(seed);
                let mut legal = Vec::new();
                while rules.to_move(&state).is_some() {
                    rules.check_held(&state).unwrap();
                    let seat = rng.index(players);
                    let view = rules.observation(&state, seat, &mut rng);
                    rules.check_held(&view).unwrap();
                    rules.legal_actions(&state, &mut legal);
                    let i = rng.index(legal.len());
                    rules.apply(&mut state, &legal[i], &mut NoEvents);
                }
                rules.check_held(&state).unwrap();
            }
        }
    }

    #[test]
    fn counts_that_are_not_the_cards_break_the_invariants() {
        let rules = king_arthur(None);
        let mut state = rules.setup(&Setup::new(3, 1)).unwrap();
        assert_eq!(rules.check_invariants(&state), Ok(()));
        state.held[0].add(0, 1);
        let err = rules.check_invariants(&state).unwrap_err();
        assert!(err.contains("counts kept"), "{err}");
    }
}
