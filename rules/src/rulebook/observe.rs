//! The observation a search bot plays in: the game as one seat may know it, every card that
//! seat cannot see (by its zone's `visible`, a pile turned up or shown to it) dealt anew.

use grail_engine::game::Seat;
use grail_engine::rng::GameRng;

use super::Rulebook;
use super::state::State;

impl Rulebook {
    /// What `seat` may know: the cards of every pile it cannot see are re-dealt at random
    /// (from type order, so the result does not depend on where they truly are), each pile
    /// keeping its size; the generator is replaced.
    pub(super) fn observation(&self, state: &State, seat: Seat, rng: &mut GameRng) -> State {
        let mut view = state.clone();
        view.rng = rng.fork();
        // Its hidden cards are dealt anew: the listing made for the true state may not fit.
        view.listed.fresh = false;
        // A set each seat has its own copy of is re-dealt seat by seat (and the table's
        // piles of it apart): a seat's unseen cards stay among that seat's piles.
        let groups = (0..self.sets.len()).flat_map(|set| {
            let own = self
                .zones
                .iter()
                .any(|z| z.set == set && z.starts && z.owned);
            let owners: Vec<Option<Option<usize>>> = if own {
                (0..usize::from(state.players))
                    .map(|o| Some(Some(o)))
                    .chain([Some(None)])
                    .collect()
            } else {
                vec![None]
            };
            owners.into_iter().map(move |o| (set, o))
        });
        for (set, owner) in groups {
            let hidden: Vec<usize> = (0..state.piles.len())
                .filter(|&p| {
                    let (zone, pile_seat, _) = self.locate(p);
                    !self.sees(state, p, Some(seat))
                        && self.zones[zone].set == set
                        && owner.is_none_or(|o| pile_seat == o)
                })
                .collect();
            let mut pool: Vec<u16> = hidden
                .iter()
                .flat_map(|&p| state.piles[p].iter().copied())
                .collect();
            pool.sort_unstable();
            rng.shuffle(&mut pool);
            if self.has_unions() {
                self.deal_by_types(&mut view, &hidden, pool);
                continue;
            }
            let mut cards = pool.into_iter();
            for &p in &hidden {
                let n = state.piles[p].len();
                view.piles[p].clear();
                for c in cards.by_ref().take(n) {
                    view.piles[p].push(c);
                }
                if self.zones[self.locate(p).0].layout == grail_schema::model::Layout::Hand {
                    view.piles[p].sort_unstable();
                }
            }
        }
        self.recount(&mut view);
        view
    }
}
