//! The observation a search bot plays in: the game as one seat may know it, every card that
//! seat cannot see (by its zone's `visible`, a pile turned up or shown to it) dealt anew.

use grail_engine::game::Seat;
use grail_engine::rng::GameRng;

use super::Rulebook;
use super::model::TYPE_MASK;
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
            // A card a role names stays where it is: who holds the role is known to all
            // ("the king (whoever has the crown)"), and so is that nobody does.
            let roles = self.role_types(set);
            let role_card = |c: &u16| roles.contains(&(c & TYPE_MASK));
            let mut pool: Vec<u16> = hidden
                .iter()
                .flat_map(|&p| state.piles[p].iter().copied())
                .filter(|c| !role_card(c))
                .collect();
            pool.sort_unstable();
            rng.shuffle(&mut pool);
            if self.has_unions() {
                self.deal_by_types(&mut view, &hidden, pool, &role_card);
                continue;
            }
            let mut cards = pool.into_iter();
            for &p in &hidden {
                view.piles[p].retain(role_card);
                let n = state.piles[p].len() - view.piles[p].len();
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

    /// The types of set `set` that a role's card is (`[roles.*] holds`).
    fn role_types(&self, set: usize) -> Vec<u16> {
        (self.card_roles.iter())
            .flat_map(|r| &r.lies)
            .filter(|&&(z, _)| self.zones[z].set == set)
            .map(|&(_, t)| t)
            .collect()
    }
}
