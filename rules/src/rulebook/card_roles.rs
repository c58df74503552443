//! Roles held by whoever holds a card (`[roles.king] holds = "crown-of-camelot"`: "the king
//! (whoever has the crown)"): each role's card found in the zones a seat owns when the
//! description compiles, and read in play as the seat in whose zones the card lies.

use grail_engine::diag::no_such;

use super::Rulebook;
use super::compile::Compiler;
use super::model::{CardRole, TYPE_MASK};
use super::state::State;

impl Compiler<'_> {
    /// `[roles.*]` with `holds`: where each role's card can lie. A role naming a figure as
    /// well, keeping a tally, or holding a card no seat's zone can hold is refused.
    pub fn card_roles(&mut self) -> Vec<CardRole> {
        let mut roles = Vec::new();
        for (name, def) in self.pack.rulebook.roles.iter() {
            let Some(card) = &def.holds else {
                continue;
            };
            for given in [&def.figure, &def.start, &def.tally].into_iter().flatten() {
                let msg = format!(
                    "role `{}` is held by whoever holds card `{}`: it names no figure and keeps no tally (`figure`, `start` and `tally` are a figure's role's)",
                    name.value, card.value
                );
                self.error("invalid-value", msg, &given.loc, given.loc.span.clone());
            }
            // The zones a seat owns that can hold the card, and its type in each.
            let lies: Vec<(usize, u16)> = (self.zones.iter().enumerate())
                .filter(|(_, z)| z.owned)
                .filter_map(|(i, z)| {
                    let ids = &self.sets[z.set].cards;
                    let t = ids.iter().position(|id| *id == card.value)?;
                    Some((i, u16::try_from(t).ok()?))
                })
                .collect();
            if lies.is_empty() {
                let owned = self.zones.iter().filter(|z| z.owned);
                let mut ids: Vec<&str> = owned
                    .flat_map(|z| self.sets[z.set].cards.iter().map(String::as_str))
                    .collect();
                ids.sort_unstable();
                ids.dedup();
                let msg = no_such("card in a zone a seat owns", &card.value, ids);
                self.error("unknown-card", msg, &card.loc, card.loc.span.clone());
                continue;
            }
            roles.push(CardRole {
                name: name.value.clone(),
                lies,
            });
        }
        roles
    }
}

impl Rulebook {
    /// The seat holding role `r`'s card (the first in seat order, then zone order, should
    /// two); -1 while no seat does.
    pub(super) fn card_holder(&self, r: usize, state: &State) -> i64 {
        let Some(role) = self.card_roles.get(r) else {
            return -1;
        };
        for seat in 0..usize::from(state.players) {
            for &(zone, t) in &role.lies {
                let rows = 0..self.zones[zone].rows;
                let held = rows.into_iter().any(|row| {
                    let pile = &state.piles[self.pile(zone, seat, row)];
                    pile.iter().any(|&c| c & TYPE_MASK == t)
                });
                if held {
                    return seat as i64;
                }
            }
        }
        -1
    }
}

#[cfg(test)]
mod tests {
    use grail_engine::game::Rules;

    use super::super::compile;
    use super::super::random_games::{pack_in, play};
    use super::super::rules_text::rules_in_words;

    /// The rules in words name a card's role among the components, and the card that makes
    /// it.
    #[test]
    fn the_rules_in_words_name_a_cards_role() {
        let text = rules_in_words(&pack_in("../tests/packs", "virtues-rulebook", None)).unwrap();
        let line = "  role king: whoever holds crown-of-camelot (known to all)";
        assert!(text.lines().any(|l| l == line), "{text}");
    }

    /// Who holds a role of a card is known to every seat: the table says it to each, and in
    /// every observation of random Camelot Virtues (draft) games the king is the true king,
    /// also while the Crown lies in a hand the observer cannot see (there, the other
    /// treasures are dealt anew).
    #[test]
    fn every_seat_knows_who_holds_a_cards_role() {
        let rules = compile(&pack_in("../tests/packs", "virtues-rulebook", None)).unwrap();
        let (mut hidden, mut states) = (0, 0);
        for seed in 0..6 {
            play(&rules, 4, seed, |state, rng, played| {
                let king = rules.card_holder(0, state);
                assert!(king >= 0, "the Crown is always someone's");
                // The table says who is king, to every seat.
                let line = format!("king: P{}", king + 1);
                for viewer in [None, Some(0), Some(3)] {
                    assert!(rules.table(state, viewer).lines().any(|l| l == line));
                }
                if played == 0 {
                    assert_eq!(king, 0, "P1 starts with the Crown");
                }
                states += 1;
                for seat in 0..4 {
                    let view = rules.observe(state, seat, rng);
                    assert_eq!(
                        rules.card_holder(0, &view),
                        king,
                        "seed {seed}, seat {seat}"
                    );
                    let crowns = |p: usize| {
                        let role = &rules.card_roles[0];
                        let zone = rules.locate(p).0;
                        (role.lies.iter()).any(|&(z, t)| {
                            z == zone && state.piles[p].iter().any(|&c| c & super::TYPE_MASK == t)
                        })
                    };
                    let unseen = (0..state.piles.len())
                        .any(|p| crowns(p) && !rules.sees(state, p, Some(seat)));
                    hidden += usize::from(unseen);
                }
            });
        }
        assert!(
            hidden > states,
            "the Crown was hidden from some seat {hidden} times"
        );
    }
}
