//! The end ("The player with the most prestige points is the winner. In the event of a tie
//! then there are multiple winners."), the greedy bot's estimate, and the invariants.

use grail_engine::counts::Counts;
use grail_engine::game::{Outcome, Seat, Tally};

use super::Artus;
use super::pack::deck_counts;
use super::state::{Phase, RecordKind, State};

impl Artus {
    pub(crate) fn final_outcome(&self, state: &State) -> Option<Outcome> {
        if state.phase != Phase::Over {
            return None;
        }
        let scores: Vec<i64> = state.players.iter().map(|p| p.score).collect();
        let best = scores.iter().copied().max().unwrap_or(0);
        let winners = (0..scores.len()).filter(|&p| scores[p] == best).collect();
        let tallies = state
            .records
            .iter()
            .map(|r| {
                let (kind, item) = match r.kind {
                    RecordKind::Met => ("scoring card met", &self.cards[usize::from(r.item)].id),
                    RecordKind::Penalty => {
                        ("scoring card penalty", &self.cards[usize::from(r.item)].id)
                    }
                    RecordKind::Crowned => ("crowned", &self.princes[usize::from(r.item)].id),
                };
                Tally {
                    kind: kind.into(),
                    item: item.clone(),
                    turn: r.turn + 1,
                    seat: Some(Seat::from(r.seat)),
                }
            })
            .collect();
        Some(Outcome {
            scores,
            winners,
            end: "rounds-played".into(),
            turns: state.turns,
            tallies,
        })
    }

    /// A player's standing by the score rules: points, plus part of what the plates under
    /// his Knights are worth (leaving a seat or a scoring card scores its plate).
    fn standing(&self, state: &State, seat: u8) -> f64 {
        let plates: i64 = state
            .knight_seats(seat)
            .map(|(_, s)| self.value_at(state, s))
            .sum();
        state.player(seat).score as f64 + plates as f64 * self.n.bot_seat_worth_pct as f64 / 100.0
    }

    /// The greedy bot's view: its standing against the mean of its rivals'.
    pub(crate) fn evaluate(&self, state: &State, seat: Seat) -> f64 {
        let me = self.standing(state, seat as u8);
        let others = state.players.len() - 1;
        if others == 0 {
            return me;
        }
        let rivals: f64 = (0..state.players.len() as u8)
            .filter(|&q| usize::from(q) != seat)
            .map(|q| self.standing(state, q))
            .sum::<f64>()
            / others as f64;
        me - rivals * self.n.bot_rival_pct as f64 / 100.0
    }

    /// One figure per seat; the crown plate at the King's seat; every ring on a figure or in
    /// the supply; every card in a hand, a pile or set aside; the round count in step with
    /// the turns, and at the end every card played.
    pub(crate) fn conservation(&self, state: &State) -> Result<(), String> {
        if !state.ring.is_consistent() {
            return Err(format!(
                "the ring's seats and figures disagree: {:?}",
                state.ring
            ));
        }
        for f in 0..state.princes {
            if state.ring.seat_of(f).is_none() {
                return Err(format!(
                    "Prince {} is not on the board",
                    self.princes[usize::from(f)].id
                ));
            }
        }
        if state.table != state.king_seat() {
            return Err(format!(
                "the crown plate is at seat {} but the King sits on seat {}",
                state.table,
                state.king_seat()
            ));
        }
        if self.plate_at(state, state.king_seat()) != self.board.crown {
            return Err("the King's seat does not face the crown plate".into());
        }
        let on_figures: u32 = state.rings.iter().map(|&r| u32::from(r)).sum();
        if on_figures + u32::from(state.supply) != u32::from(self.n.rings) {
            return Err(format!(
                "{on_figures} rings on figures and {} in the supply, but the game has {}",
                state.supply, self.n.rings
            ));
        }
        for (p, &r) in state.rings.iter().enumerate().take(self.princes.len()) {
            if p as u8 != state.king && r >= self.n.crown_rings {
                return Err(format!(
                    "Prince {} holds {r} rings but is not King",
                    self.princes[p].id
                ));
            }
        }
        let full = deck_counts(&self.cards, &self.decks);
        for (seat, player) in state.players.iter().enumerate() {
            let mut held = player.hand;
            held.add_all(&player.played);
            for pile in player.piles.iter() {
                held.add_all(&Counts::from_types(pile.as_slice()));
            }
            if held != full {
                return Err(format!(
                    "P{} holds, has played and has in piles {held:?}, not the decks {full:?}",
                    seat + 1
                ));
            }
        }
        let n = state.players.len() as u32;
        if state.turns / n != u32::from(state.round) && state.phase != Phase::Over {
            return Err(format!(
                "{} turns played but round {} under way",
                state.turns,
                state.round + 1
            ));
        }
        if state.phase == Phase::Over {
            if state.round != self.n.rounds || state.turns != n * u32::from(self.n.rounds) {
                return Err(format!(
                    "the game ended after {} rounds ({} turns), not {}",
                    state.round, state.turns, self.n.rounds
                ));
            }
            for (seat, player) in state.players.iter().enumerate() {
                if !player.hand.is_empty() || player.piles.total() > 0 {
                    return Err(format!("P{} has cards left at the end", seat + 1));
                }
            }
        }
        Ok(())
    }
}
