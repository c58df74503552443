//! Scoring (F: "players count the total points value of all their treasure and
//! honor/dishonor to determine first place"), the Sin bonus when Camelot falls, the outcome,
//! and the rulebook's invariants.

use grail_engine::counts::Counts;
use grail_engine::game::{Outcome, Seat as EngineSeat, Tally};

use super::Virtues;
use super::state::{End, NoteKind, Seat, Stage, State, Step, has};

const ACTIONS: [&str; 6] = ["embark", "pray", "feast", "tax", "joust", "duel"];

impl Virtues {
    /// Treasure and honor/dishonor points.
    pub(crate) fn score(&self, state: &State, seat: Seat) -> i64 {
        let p = state.player(seat);
        self.treasure_points(&p.treasures)
            + i64::from(p.honor) * self.honor.honor_points
            + i64::from(p.dishonor) * self.honor.dishonor_points
    }

    pub(crate) fn treasure_points(&self, treasures: &Counts) -> i64 {
        treasures
            .iter()
            .map(|(t, n)| i64::from(n) * self.treasure_points[usize::from(t)])
            .sum()
    }

    /// F: "If Camelot falls, pair each of your sin cards with a treasure card you have. This
    /// treasure card gives double victory points. A treasure card may only benefit from one
    /// sin card in this way." Each knight pairs his Sins with his best treasures.
    pub(crate) fn sin_bonus(&self, virtues: &Counts, treasures: &Counts) -> i64 {
        let pairs = self
            .sin_pairs
            .value(&virtues.as_slice()[..self.virtues.len()], &[])
            .max(0);
        let mut points: Vec<i64> = treasures
            .cards()
            .map(|t| self.treasure_points[usize::from(t)])
            .filter(|&p| p > 0)
            .collect();
        points.sort_unstable_by(|a, b| b.cmp(a));
        let paired: i64 = points.iter().take(pairs as usize).sum();
        paired * (self.n.sin_multiplier - 1)
    }

    pub(crate) fn final_score(&self, state: &State, seat: Seat, end: End) -> i64 {
        let p = state.player(seat);
        let mut score = self.score(state, seat);
        if end == End::Falls {
            score += self.sin_bonus(&p.virtues, &p.treasures);
        }
        score
    }

    /// [`Self::final_score`] part by part (the Sin bonus only once Camelot has fallen).
    pub(crate) fn breakdown(&self, state: &State) -> Vec<(EngineSeat, Vec<(String, i64)>)> {
        (0..state.count() as Seat)
            .map(|seat| {
                let p = state.player(seat);
                let mut parts = vec![
                    ("treasures".to_string(), self.treasure_points(&p.treasures)),
                    (
                        format!("honor ({} × {})", p.honor, self.honor.honor_points),
                        i64::from(p.honor) * self.honor.honor_points,
                    ),
                    (
                        format!("dishonor ({} × {})", p.dishonor, self.honor.dishonor_points),
                        i64::from(p.dishonor) * self.honor.dishonor_points,
                    ),
                ];
                if state.end == Some(End::Falls) {
                    parts.push((
                        "treasures doubled by Sins (Camelot fell)".to_string(),
                        self.sin_bonus(&p.virtues, &p.treasures),
                    ));
                }
                (EngineSeat::from(seat), parts)
            })
            .collect()
    }

    pub(crate) fn final_outcome(&self, state: &State) -> Option<Outcome> {
        let end = state.end?;
        let seats = 0..state.count() as Seat;
        let scores: Vec<i64> = seats
            .clone()
            .map(|p| self.final_score(state, p, end))
            .collect();
        let best = scores.iter().copied().max().unwrap_or(0);
        let winners: Vec<EngineSeat> = match end {
            // F: "Camelot is saved. All players win."
            End::Saved => seats.map(EngineSeat::from).collect(),
            End::AllDead => Vec::new(),
            End::Falls | End::Endures | End::TurnLimit => seats
                .filter(|&p| scores[usize::from(p)] == best)
                .map(EngineSeat::from)
                .collect(),
        };
        let tallies = state
            .log
            .iter()
            .map(|note| Tally {
                kind: note.kind.name().into(),
                item: match note.kind {
                    NoteKind::Action => ACTIONS
                        .get(usize::from(note.card))
                        .copied()
                        .unwrap_or("?")
                        .into(),
                    NoteKind::Death => if note.card == 1 { "duel" } else { "trial" }.into(),
                    NoteKind::Bestowed => if note.card == 1 { "dishonor" } else { "honor" }.into(),
                    NoteKind::Deal => "deal".into(),
                    NoteKind::Joust => if note.card == 1 {
                        "reward split"
                    } else {
                        "challenge"
                    }
                    .into(),
                    _ => self.quest_cards.ids[usize::from(note.card)].as_str().into(),
                },
                turn: note.turn + 1,
                seat: Some(EngineSeat::from(note.seat)),
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

    /// Every card is somewhere exactly once; exactly one knight holds the Crown, alive while
    /// anyone lives; no knight is on two quests, no dead knight on any; only the living
    /// decide, but for a dead knight's own quest expiry.
    pub(crate) fn invariants(&self, state: &State) -> Result<(), String> {
        let mut virtues = Counts::from_types(state.virtue_deck.as_slice());
        virtues.add_all(&Counts::from_types(state.virtue_discard.as_slice()));
        let mut treasures = Counts::from_types(state.treasure_deck.as_slice());
        let mut quests = Counts::from_types(state.quest_deck.as_slice());
        quests.add_all(&state.quests_done);
        let mut trials = Counts::from_types(state.trial_deck.as_slice());
        trials.add_all(&Counts::from_types(state.trial_discard.as_slice()));
        let (mut honor, mut dishonor) = (
            u32::from(state.honor_supply),
            u32::from(state.dishonor_supply),
        );
        for p in &state.players {
            virtues.add_all(&p.virtues);
            treasures.add_all(&p.treasures);
            honor += u32::from(p.honor);
            dishonor += u32::from(p.dishonor);
        }
        for slot in &state.layout {
            quests.add(slot.quest, 1);
        }
        if let Some(res) = &state.res {
            for spent in &res.spent {
                virtues.add_all(spent);
            }
            treasures.add_all(&res.pool);
            honor += u32::from(res.pool_honor);
            match res.step {
                Step::Trial { trial }
                | Step::Paying {
                    trial: Some(trial), ..
                } => trials.add(trial, 1),
                _ => {}
            }
        }
        for (set, counted, what) in [
            (&self.virtues, &virtues, "virtue"),
            (&self.treasures, &treasures, "treasure"),
            (&self.quest_cards, &quests, "quest"),
            (&self.trial_cards, &trials, "trial"),
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
        if honor != u32::from(self.honor.honor_copies)
            || dishonor != u32::from(self.honor.dishonor_copies)
        {
            return Err(format!(
                "{honor} honor and {dishonor} dishonor cards, the pack has {} and {}",
                self.honor.honor_copies, self.honor.dishonor_copies
            ));
        }
        let holders: Vec<Seat> = (0..state.count() as Seat)
            .filter(|&s| state.player(s).treasures.contains(self.crown))
            .collect();
        match holders.as_slice() {
            [king] if state.alive(*king) || state.living() == 0 => {}
            [king] => return Err(format!("the Crown is with P{}, who is dead", king + 1)),
            _ => return Err(format!("{} knights hold the Crown", holders.len())),
        }
        for s in 0..state.count() as Seat {
            let on = state.layout.iter().filter(|q| has(q.knights, s)).count();
            if on > 1 {
                return Err(format!("P{} is on {on} quests", s + 1));
            }
            if on == 1 && !state.alive(s) {
                return Err(format!("P{} is dead but on a quest", s + 1));
            }
        }
        for slot in &state.layout {
            if (slot.knights.count_ones() as u8) > self.quests[usize::from(slot.quest)].max_knights
            {
                return Err("a quest has more knights than it allows".into());
            }
        }
        let expiring = matches!(state.stage, Stage::Expire { .. });
        if state.layout.len() > state.count() && !expiring && !state.over() {
            return Err(format!(
                "{} quests in play for {} players outside an expiry",
                state.layout.len(),
                state.count()
            ));
        }
        if let Some(seat) = self.decider(state) {
            let own_expiry = expiring && seat == state.current && state.res.is_none();
            if !state.alive(seat) && !own_expiry {
                return Err(format!("P{}, who is dead, is asked to decide", seat + 1));
            }
        }
        Ok(())
    }
}
