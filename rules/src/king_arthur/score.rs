//! Scoring ("each player adds the values of his adventure cards and his adversary cards"),
//! the tie-break, and the greedy bot's estimate of a position.

use grail_engine::cond::solve;
use grail_engine::game::{Outcome, Seat, Tally};

use super::KingArthur;
use super::state::{Mode, Phase, State};

impl KingArthur {
    /// Adventure points plus what the adversaries in hand score.
    pub(crate) fn score(&self, state: &State, seat: Seat) -> i64 {
        let adventures: i64 = (0..self.adventures.len())
            .filter(|&a| state.adventures[a] == Some(seat as u8))
            .map(|a| self.adventures[a].points)
            .sum();
        adventures
            + self
                .hand_score
                .value(state.player(seat as u8).adversaries.as_slice(), &[])
    }

    pub(crate) fn final_outcome(&self, state: &State) -> Option<Outcome> {
        let end = state.end?;
        let seats = 0..state.players.len();
        let scores: Vec<i64> = seats.clone().map(|p| self.score(state, p)).collect();
        let best = scores.iter().copied().max().unwrap_or(0);
        let mut winners: Vec<Seat> = seats.filter(|&p| scores[p] == best).collect();
        // "If players tie for the most points, the player among them with the most knight
        // cards in his hand is the winner. If there is still a tie, they share the victory."
        if self.n.tiebreak_knights_in_hand && winners.len() > 1 {
            let tiebreak = |p: Seat| {
                self.tiebreak
                    .value(state.player(p as u8).knights.as_slice(), &[])
            };
            let most = winners.iter().map(|&p| tiebreak(p)).max().unwrap_or(0);
            winners.retain(|&p| tiebreak(p) == most);
        }
        let tallies = state
            .taken
            .iter()
            .map(|&(a, turn, seat)| Tally {
                kind: "adventure".into(),
                item: self.adventures[a as usize].id.clone(),
                turn: turn + 1,
                seat: Some(seat as Seat),
            })
            .collect();
        Some(Outcome {
            scores,
            winners,
            end: end.key().into(),
            turns: state.turn,
            tallies,
        })
    }

    /// The greedy bot's view of how well `seat` stands: its score, plus part of the worth of
    /// its knight cards and of the best adventure it could take now. The weights are the
    /// pack's `bot_*` params.
    pub(crate) fn evaluate(&self, state: &State, seat: Seat) -> f64 {
        let me = state.player(seat as u8);
        let mut value = self.score(state, seat) as f64;
        let strength: i64 = me
            .knights
            .iter()
            .map(|(t, n)| i64::from(n) * self.strength[t as usize])
            .sum();
        value += strength as f64 * self.n.bot_knight_worth_pct as f64 / 100.0;
        let ready = self.best_adventure_gain(state, me.adversaries.as_slice());
        value += ready as f64 * self.n.bot_ready_adventure_pct as f64 / 100.0;
        // A chosen but unpaid challenge or adventure counts as done at its cheapest price.
        if state.current as Seat == seat {
            match state.phase {
                Phase::PayChallenge { target, mode } => {
                    let price = self.price(target, mode);
                    let worth = self.power[target as usize] as f64;
                    let kept = if mode == Mode::Seal { 0.5 } else { 1.0 };
                    value +=
                        worth * kept - price as f64 * self.n.bot_knight_worth_pct as f64 / 100.0;
                }
                Phase::PayAdventure { adventure } => {
                    let a = &self.adventures[adventure as usize];
                    if let Some((cost, _)) = solve::cheapest(
                        &a.condition,
                        me.adversaries.as_slice(),
                        &[],
                        &self.payment_cost,
                    ) {
                        value += (a.points - cost) as f64;
                    }
                }
                _ => {}
            }
        }
        value
    }

    /// Points minus adversary value given up, for the best adventure the hand can take now.
    fn best_adventure_gain(&self, state: &State, hand: &[u8]) -> i64 {
        let mut best = 0;
        for (i, adventure) in self.adventures.iter().enumerate() {
            if state.adventures[i].is_none()
                && adventure.points > best
                && solve::exists(&adventure.condition, hand, &[])
            {
                if let Some((cost, _)) =
                    solve::cheapest(&adventure.condition, hand, &[], &self.payment_cost)
                {
                    best = best.max(adventure.points - cost);
                }
            }
        }
        best
    }
}
