//! A script's starting position (`position: {…}` in a replay file): instead of the setup,
//! every card starts in its set's starting zone and each entry takes what it names from
//! there; the starting zones are then shuffled with the seed (and stacked). Entries are
//! named as the script queries name them and list what those queries answer: a pile
//! (`"hand P1"`, `"trails P1 red"`, bottom card first), `"turn"` (the seat to move),
//! `"step"`, and on a ring a kind's seats (`"knight P1"`), a figure's seat (`"seat 4"`), a
//! counter (`"rings silver"`) and a role's holder (`"king"`). What breaks conservation or
//! the pack's limits (a card with no copy left, a figure too many, a taken seat) is refused,
//! naming the entry.

use grail_engine::diag::no_such;
use grail_engine::seats::parse_seat;

use super::Rulebook;
use super::run::State;

impl Rulebook {
    /// Lays out `position` on a state whose starting zones hold every card.
    pub(super) fn set_position(
        &self,
        state: &mut State,
        position: &[(String, Vec<String>)],
    ) -> Result<(), String> {
        for (entry, held) in position {
            self.position_entry(state, entry, held)
                .map_err(|e| format!("position `{entry}`: {e}"))?;
        }
        Ok(())
    }

    fn position_entry(
        &self,
        state: &mut State,
        entry: &str,
        held: &[String],
    ) -> Result<(), String> {
        let players = usize::from(state.players);
        let one = || match held {
            [one] => Ok(one.as_str()),
            _ => Err(format!("give one value, not {}", held.len())),
        };
        match entry {
            "turn" => {
                let seat = one()?;
                state.current = parse_seat(seat, players)
                    .ok_or_else(|| format!("`{seat}` is not a seat here (P1 … P{players})"))?
                    as u8;
                return Ok(());
            }
            "step" => {
                let name = one()?;
                let step = self
                    .steps
                    .iter()
                    .position(|s| s.name == name)
                    .ok_or_else(|| {
                        no_such("step", name, self.steps.iter().map(|s| s.name.as_str()))
                    })?;
                state.step = step as u8;
                state.stage = self.stage_of_step(step);
                return Ok(());
            }
            _ => {}
        }
        if let Some(pile) = (0..state.piles.len()).find(|&p| self.pile_name(p) == entry) {
            return self.lay_cards(state, pile, held);
        }
        let words: Vec<&str> = entry.split_whitespace().collect();
        if let Some(done) = self.counter_position(state, &words, held) {
            return done;
        }
        if let Some(done) = self.ring_position(state, &words, held) {
            return done;
        }
        let mut known: Vec<String> = (0..state.piles.len()).map(|p| self.pile_name(p)).collect();
        known.extend(["turn".to_string(), "step".to_string()]);
        Err(no_such(
            "position entry",
            entry,
            known.iter().map(String::as_str),
        ))
    }

    /// Takes each card from its set's starting zone onto `pile`, bottom card first (for a
    /// union of sets, the zone starting with its member's cards).
    fn lay_cards(&self, state: &mut State, pile: usize, cards: &[String]) -> Result<(), String> {
        let (zone, seat, _) = self.locate(pile);
        let set = &self.sets[self.zones[zone].set];
        for id in cards {
            let Some(t) = set.cards.iter().position(|c| c == id) else {
                return Err(no_such(
                    &format!("card in set `{}`", set.id),
                    id,
                    set.cards.iter().map(String::as_str),
                ));
            };
            let t = t as u16;
            let Some(start) = self
                .zones
                .iter()
                .position(|z| z.start_all && z.set == self.zones[zone].set && z.types.contains(&t))
            else {
                return Err(format!("no zone starts with the cards of set `{}`", set.id));
            };
            // A seat's own deck for a set each seat has a copy of.
            let from = self.pile(
                start,
                if self.zones[start].owned {
                    seat.unwrap_or(0)
                } else {
                    0
                },
                0,
            );
            if from == pile {
                // The starting zone itself: its cards are the ones no other entry took.
                return Err(format!(
                    "`{}` holds every card no other entry names; leave it out",
                    self.pile_name(pile)
                ));
            }
            let Some(i) = state.piles[from].iter().rposition(|&c| c == t) else {
                return Err(format!(
                    "no `{id}` is left for it: the set has {} and the position places more",
                    set.copies[usize::from(t)]
                ));
            };
            state.piles[from].remove(i);
            self.put(state, pile, t);
        }
        Ok(())
    }
}
