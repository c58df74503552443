//! Scoring ("each player adds the values of his adventure cards and his adversary cards"),
//! the tie-break, and the greedy bot's estimate of a position.

use grail_engine::cond::solve;
use grail_engine::counts::Counts;
use grail_engine::game::{Outcome, Seat, Tally};

use super::KingArthur;
use super::state::{Mode, Phase, State};

impl KingArthur {
    /// Adventure points plus what the adversaries in hand score.
    pub(crate) fn score(&self, state: &State, seat: Seat) -> i64 {
        let (adventures, adversaries) = self.score_parts(state, seat);
        adventures + adversaries
    }

    /// The score's two parts: the adventures taken and the adversary cards in hand.
    pub(crate) fn score_parts(&self, state: &State, seat: Seat) -> (i64, i64) {
        let adventures: i64 = (0..self.adventures.len())
            .filter(|&a| state.adventures[a] == Some(seat as u8))
            .map(|a| self.adventures[a].points)
            .sum();
        let adversaries = self
            .hand_score
            .value(state.player(seat as u8).adversaries.as_slice(), &[]);
        (adventures, adversaries)
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

    /// Every knight and adversary card is somewhere exactly once, every seal is in its
    /// owner's area or on a card, every adventure is on the table or with one player.
    pub(crate) fn conservation(&self, state: &State) -> Result<(), String> {
        let mut knights = Counts::from_types(state.knight_supply.as_slice());
        knights.add_all(&Counts::from_types(state.knight_discard.as_slice()));
        let mut adversaries = Counts::from_types(state.adversary_supply.as_slice());
        adversaries.add_all(&state.adversaries_out);
        for slot in state.columns.iter().flatten() {
            adversaries.add(slot.card, 1);
        }
        for player in &state.players {
            knights.add_all(&player.knights);
            adversaries.add_all(&player.adversaries);
        }
        for (set, counted, what) in [
            (&self.knights, &knights, "knight"),
            (&self.adversaries, &adversaries, "adversary"),
        ] {
            for (t, &copies) in set.copies.iter().enumerate() {
                let found = counted.get(t as u8);
                if found != copies {
                    return Err(format!(
                        "{found} {what} cards `{}` in play, the pack has {copies}",
                        set.ids[t]
                    ));
                }
            }
        }
        for (seat, player) in state.players.iter().enumerate() {
            let placed = state
                .columns
                .iter()
                .flatten()
                .filter(|s| s.seal == Some(seat as u8))
                .count();
            if usize::from(player.seals) + placed != usize::from(self.n.seals_per_player) {
                return Err(format!(
                    "P{} has {} seals and {placed} placed, not {}",
                    seat + 1,
                    player.seals,
                    self.n.seals_per_player
                ));
            }
        }
        let taken = state.adventures.iter().flatten().count();
        if taken + state.adventures_left() != self.adventures.len() || state.taken.len() != taken {
            return Err("an adventure was lost or taken twice".into());
        }
        Ok(())
    }
}
