//! Jousts and duels: F "The challenger opens the first round of the match, the challenged the
//! second, and so on", on the engine's [`Showdown`]; prizes, refusals, and death.

use grail_engine::counts::Counts;
use grail_engine::game::EventSink;
use grail_engine::showdown::{Loss, Showdown, ShowdownEnd};

use super::Virtues;
use super::state::{Action, Contest, Event, MAX_PLAYERS, Seat, State};

impl Virtues {
    /// What each side may show: its virtue hand, plus (settling a disputed split) the virtues
    /// it presented for the quest — F: "Knights may re-use virtues from the quest in this
    /// joust."
    pub(crate) fn contest_hands(
        &self,
        state: &State,
        seats: [Seat; 2],
        spent: Option<&[Counts; MAX_PLAYERS]>,
    ) -> [Counts; 2] {
        seats.map(|s| {
            let mut hand = state.player(s).virtues;
            if let Some(spent) = spent {
                hand.add_all(&spent[usize::from(s)]);
            }
            hand
        })
    }

    pub(crate) fn show_options(
        &self,
        state: &State,
        showdown: &Showdown,
        spent: Option<&[Counts; MAX_PLAYERS]>,
        out: &mut Vec<Action>,
    ) {
        let avail = self.contest_hands(state, showdown.seats, spent);
        showdown.legal(&avail, |m| out.push(Action::Show(m)));
    }

    /// F: "If someone won, any prizes go to the winner. If the match was a draw, prizes return
    /// to origonal owners." Refusing a joust costs a dishonor; losing a duel, one's life.
    pub(crate) fn end_contest(
        &self,
        state: &mut State,
        contest: &Contest,
        events: &mut impl EventSink<Event>,
    ) {
        let duel = contest.duel;
        match contest.showdown.end() {
            Some(ShowdownEnd::Won { winner, how }) => {
                let seats = contest.showdown.seats;
                let (w, l) = (seats[usize::from(winner)], seats[usize::from(1 - winner)]);
                let refused = how == Loss::Refused;
                events.emit(|| Event::ContestWon {
                    winner: w,
                    loser: l,
                    duel,
                    how,
                });
                if duel {
                    self.kill(state, l, Some(w), events);
                    return;
                }
                if refused {
                    self.gain(state, l, 0, 1, events);
                }
                for (s, prize) in contest.prizes.iter().enumerate() {
                    let from = s as Seat;
                    if let Some(card) = *prize
                        && from != w
                        && state.player(from).treasures.contains(card)
                    {
                        state.player_mut(from).treasures.remove(card, 1);
                        state.player_mut(w).treasures.add(card, 1);
                        events.emit(|| Event::PrizeWon {
                            seat: w,
                            from,
                            card,
                        });
                    }
                }
            }
            Some(ShowdownEnd::Drawn) => events.emit(|| Event::ContestDrawn { duel }),
            None => {}
        }
    }
}
