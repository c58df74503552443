//! The end of the game in numbers, and the laws every state keeps.

use grail_engine::counts::Counts;
use grail_engine::game::{Outcome, Seat, Tally};

use super::Quests;
use super::state::{Phase, State};

impl Quests {
    /// A player's score: every shield earned towards Knight of the Round Table.
    pub(crate) fn score(&self, s: &State, seat: Seat) -> i64 {
        let p = &s.players[seat];
        let reached = self
            .progress
            .get(usize::from(p.rank))
            .or(self.progress.last());
        i64::from(reached.copied().unwrap_or(0) + p.shields)
    }

    /// [`Self::score`] in its two parts: the shields the rank reached stands for, and the
    /// shields earned since.
    pub(crate) fn breakdown(&self, s: &State) -> Vec<(Seat, Vec<(String, i64)>)> {
        (0..s.seats())
            .map(|seat| {
                let p = &s.players[seat];
                let reached = self
                    .progress
                    .get(usize::from(p.rank))
                    .or(self.progress.last());
                let rank = self.rank_name(p.rank);
                let parts = vec![
                    (
                        format!("shields to reach {rank}"),
                        i64::from(reached.copied().unwrap_or(0)),
                    ),
                    ("shields since".to_string(), i64::from(p.shields)),
                ];
                (seat, parts)
            })
            .collect()
    }

    pub(crate) fn final_outcome(&self, s: &State) -> Option<Outcome> {
        let end = s.end?;
        let scores = (0..s.seats()).map(|p| self.score(s, p)).collect();
        let tallies = s
            .log
            .records()
            .iter()
            .map(|r| Tally {
                kind: r.kind.key().into(),
                item: self.story.ids[usize::from(r.card)].as_str().into(),
                turn: r.turn + 1,
                seat: r.seat.map(usize::from),
            })
            .collect();
        Some(Outcome {
            scores,
            winners: s.winners.iter().collect(),
            end: end.key().into(),
            turns: s.turn,
            tallies,
        })
    }

    /// Every adventure and story card is somewhere exactly once; nobody holds more than the
    /// hand limit when someone else decides; stages and commitments are well formed.
    pub(crate) fn conservation(&self, s: &State) -> Result<(), String> {
        let mut adventure = Counts::from_types(s.adventure_deck.as_slice());
        adventure.add_all(&Counts::from_types(s.adventure_discard.as_slice()));
        for p in &s.players {
            adventure.add_all(&p.hand);
            adventure.add_all(&p.allies);
            adventure.add_all(&p.amour);
        }
        for stage in &s.quest.built {
            adventure.add_all(stage);
        }
        for c in s.sealed.all_cards() {
            adventure.add_all(c);
        }
        let mut story = Counts::from_types(s.story_deck.as_slice());
        story.add_all(&Counts::from_types(s.story_discard.as_slice()));
        if let Some(c) = s.story {
            story.add(c, 1);
        }
        for (set, counted, what) in [
            (&self.adventure, &adventure, "adventure"),
            (&self.story, &story, "story"),
        ] {
            for (t, &copies) in set.copies.iter().enumerate() {
                let found = counted.get(t as u8);
                if found != copies {
                    return Err(format!(
                        "{found} {what} cards `{}` in the game, the pack has {copies}",
                        set.ids[t]
                    ));
                }
            }
        }
        let mut fresh = s.clone();
        self.refresh(&mut fresh);
        self.revalue(&mut fresh);
        if fresh != *s {
            return Err("the values kept at hand (what is in play, strengths, free bids, stage battle points) are out of date".into());
        }
        let decider = self.decider(s);
        let limit_phase = s.limit_check && self.over_limit(s).is_some();
        for (p, player) in s.players.iter().enumerate() {
            if player.hand.total() > self.n.hand_limit && !limit_phase {
                return Err(format!(
                    "P{} holds {} cards, over the limit of {}, at a decision of {:?}",
                    p + 1,
                    player.hand.total(),
                    self.n.hand_limit,
                    decider
                ));
            }
            if usize::from(player.rank) > self.ladder.ranks() {
                return Err(format!("P{} has rank {}", p + 1, player.rank));
            }
            if player.amour.total() > u32::from(self.n.amours_per_quest) {
                return Err(format!(
                    "P{} has {} Amours in play",
                    p + 1,
                    player.amour.total()
                ));
            }
        }
        if s.phase != Phase::Over && decider.is_none() {
            return Err(format!("nobody decides in phase {:?}", s.phase));
        }
        if decider.is_some() {
            let mut options = 0;
            self.each_option(s, &mut |_| options += 1);
            if options == 0 {
                return Err(format!(
                    "{:?} has no legal action in phase {:?}",
                    decider, s.phase
                ));
            }
        }
        if s.phase == Phase::Over && s.end.is_none() {
            return Err("the game is over without an end".into());
        }
        // Laid-out stages: one foe or test each, weapons of distinct types.
        for (i, stage) in s.quest.built.iter().enumerate() {
            if stage.is_empty() {
                continue;
            }
            let leads = self.count_kind(stage, super::Kind::Foe)
                + self.count_kind(stage, super::Kind::Test);
            let building = s.phase == Phase::Build && i == usize::from(s.quest.stage);
            if leads > 1 || (leads == 0 && !building) {
                return Err(format!("stage {} holds {leads} foes and tests", i + 1));
            }
            if stage
                .iter()
                .any(|(t, n)| self.is(t, super::Kind::Weapon) && n > self.n.weapon_copies)
            {
                return Err(format!("stage {} repeats a weapon", i + 1));
            }
        }
        if self.tests_laid(s) > self.n.tests_per_quest {
            return Err("too many tests in the quest".into());
        }
        Ok(())
    }
}
