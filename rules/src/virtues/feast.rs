//! Feasts, on the engine's [`Exchange`]: F "Players may offer trades of gifts at any exchange
//! rate they want, but no cards are actually passed until everyone agrees who is passing
//! what. ... Once all of that is settled, any cards with a special "if traded in a feast"
//! rule play out."

use grail_engine::exchange::{Exchange, Item};
use grail_engine::game::EventSink;

use super::Virtues;
use super::effects::Effect;
use super::quest::Ctx;
use super::state::{Action, Event, Seat, State, TREASURE_SET, VIRTUE_SET};

impl Virtues {
    pub(crate) fn trade_options(&self, state: &State, x: &Exchange, out: &mut Vec<Action>) {
        x.legal(
            &self.items,
            &self.items,
            |s, i| self.held(state, s, i),
            |m| out.push(Action::Trade(m)),
        );
    }

    fn hand_over(&self, state: &mut State, from: Seat, to: Seat, item: Item) {
        match item.set {
            VIRTUE_SET => {
                state.player_mut(from).virtues.remove(item.card, 1);
                state.player_mut(to).virtues.add(item.card, 1);
            }
            TREASURE_SET => {
                state.player_mut(from).treasures.remove(item.card, 1);
                state.player_mut(to).treasures.add(item.card, 1);
            }
            _ => {}
        }
    }

    fn feast_effects(&self, item: Item) -> &[Effect] {
        let list = match item.set {
            VIRTUE_SET => self.virtue_feast.get(usize::from(item.card)),
            TREASURE_SET => self.treasure_feast.get(usize::from(item.card)),
            _ => None,
        };
        list.map_or(&[], Vec::as_slice)
    }

    /// Every accepted offer changes hands, in the order made; then the feast effects.
    pub(crate) fn settle_feast(
        &self,
        state: &mut State,
        x: &Exchange,
        events: &mut impl EventSink<Event>,
    ) {
        for o in x.accepted() {
            self.note(state, super::state::NoteKind::Deal, 0, o.from);
            if let Some(give) = o.give {
                self.hand_over(state, o.from, o.to, give);
            }
            if let Some(ask) = o.ask {
                self.hand_over(state, o.to, o.from, ask);
            }
        }
        events.emit(|| Event::FeastSettled {
            deals: x.accepted().copied().collect(),
        });
        for o in x.accepted() {
            for (item, giver, receiver) in [(o.give, o.from, o.to), (o.ask, o.to, o.from)] {
                let Some(item) = item else { continue };
                let ctx = Ctx {
                    giver: Some(giver),
                    receiver: Some(receiver),
                    ..Ctx::default()
                };
                self.apply_effects(state, self.feast_effects(item), &ctx, events);
            }
        }
    }
}
