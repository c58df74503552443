//! Setting up a game: the piles (in a finished game's buffers when there is one), the
//! cards at their starting zones, a script's stacked decks or position, then the setup's
//! effect lines and the first step.

use grail_engine::game::{EventSink, Rules, Setup};
use grail_engine::rng::GameRng;
use grail_schema::model::Layout;

use super::Rulebook;
use super::effects::Subject;
use super::fault::NO_ACTION;
use super::model::{Effect, Who, Zone, ZoneRef};
use super::state::{Action, Ended, Event, Listed, Repeats, State};

/// The buffers of a finished game's state a new game reuses (`Rulebook::new_state_in`).
#[derive(Default)]
struct Storage {
    piles: Vec<Vec<u16>>,
    args: Vec<i32>,
    tallies: Vec<(u16, u16, u32, u8)>,
    moves: Vec<Action>,
    runs: Vec<super::state::Run>,
    marks: Vec<u8>,
}

impl Storage {
    fn of(state: State) -> Storage {
        Storage {
            piles: state.piles,
            args: state.args,
            tallies: state.tallies,
            moves: state.listed.0.moves,
            runs: state.listed.0.runs,
            marks: state.marks,
        }
    }
}

/// The moves a new game's listing has room for before it grows: most steps' listings fit.
const LISTING_ROOM: usize = 64;

impl Rulebook {
    /// Pass 7 ([`super::derived::Derived`]): per zone, the cards each of its piles starts with.
    pub(super) fn start_cards(&self) -> Vec<Box<[u16]>> {
        self.zones
            .iter()
            .map(|z| self.zone_start(z).collect())
            .collect()
    }

    /// The cards a pile of zone `z` starts with, every copy, in type order.
    fn zone_start<'z>(&'z self, z: &'z Zone) -> impl Iterator<Item = u16> + 'z {
        z.start.iter().flat_map(move |&t| {
            let t = z.types.start + t;
            let n = self.sets[z.set].copies[usize::from(t)];
            std::iter::repeat_n(t, usize::from(n))
        })
    }

    /// Whether some line of `effects` shuffles zone `z` (under an `if` too).
    fn shuffles(effects: &[Effect], z: usize) -> bool {
        effects.iter().any(|e| match e.innermost() {
            Effect::Shuffle(r) => r.zone == z,
            Effect::ShuffleSeats(zones) => zones.contains(&z),
            _ => false,
        })
    }

    pub(super) fn new_state(
        &self,
        setup: &Setup,
        events: &mut impl EventSink<Event>,
    ) -> Result<State, String> {
        self.new_state_in(setup, events, None)
    }

    /// [`Rulebook::new_state`] in the buffers of a `spare` state, when there is one.
    pub(super) fn new_state_in(
        &self,
        setup: &Setup,
        events: &mut impl EventSink<Event>,
        spare: Option<State>,
    ) -> Result<State, String> {
        super::fault::begin_setup(self.work_budget);
        let players = setup.players;
        if !(self.players.0..=self.players.1).contains(&players) {
            return Err(format!(
                "{} plays with {} to {} players, not {players}",
                self.id, self.players.0, self.players.1
            ));
        }
        let piles = self.table_piles + players * self.seat_piles;
        let Storage {
            piles: mut pile_room,
            mut args,
            mut tallies,
            mut moves,
            mut runs,
            mut marks,
        } = spare.map(Storage::of).unwrap_or_default();
        // Each pile can hold its whole set: the game then never grows one.
        pile_room.truncate(piles);
        for (pile, &n) in pile_room.iter_mut().zip(&self.pile_capacity) {
            pile.clear();
            pile.reserve(n);
        }
        let made = pile_room.len();
        pile_room.extend(
            (self.pile_capacity.iter().take(piles).skip(made)).map(|&n| Vec::with_capacity(n)),
        );
        args.clear();
        args.resize(self.actions.len(), -1);
        tallies.clear();
        moves.clear();
        runs.clear();
        // Room for a usual step's moves (the listing grows past it if it must).
        moves.reserve(LISTING_ROOM);
        marks.clear();
        let marks_each = (self.zones.iter())
            .find_map(|z| z.marks)
            .map_or(0, |m| u8::try_from(m).unwrap_or(u8::MAX));
        marks.resize(players, marks_each);
        let mut state = State {
            piles: pile_room,
            players: players as u8,
            current: 0,
            step: 0,
            done: 0,
            args,
            turn: 1,
            ended: None,
            rng: GameRng::new(setup.seed),
            pending: None,
            tallies,
            memo: Default::default(),
            listed: grail_engine::derived::Derived(Listed {
                fresh: false,
                moves,
                runs,
                in_runs: 0,
            }),
            held: Default::default(),
            marks,
            figures: super::state::OnTable(self.board.as_ref().map(|b| b.start(players))),
            counts: self.start_counts(players),
            reps: Repeats(0),
            stage: super::state::StageAt::default(),
            chosen: Default::default(),
            asking: Default::default(),
            calls: Default::default(),
            face_up: Default::default(),
            shown: Default::default(),
        };
        // Every copy starts in its set's starting zone, in type order.
        for (zi, z) in self.zones.iter().enumerate().filter(|(_, z)| z.starts) {
            let seats = if z.owned { players } else { 1 };
            for seat in 0..seats {
                let pile = self.pile(zi, seat, 0);
                match self.derived.start_cards.get(zi) {
                    Some(cards) => state.piles[pile].extend_from_slice(cards),
                    None => state.piles[pile].extend(self.zone_start(z)),
                }
            }
        }
        self.recount(&mut state);
        let mut stack = Vec::new();
        for (name, cards) in &setup.stack {
            // A seat's own deck is named with the seat, either way round: `P1 king`.
            let (zone, seat) = match name.split_whitespace().collect::<Vec<_>>()[..] {
                [a, b] => match grail_engine::seats::parse_seat(a, players) {
                    Some(s) => (b, Some(s)),
                    None => (a, grail_engine::seats::parse_seat(b, players)),
                },
                _ => (name.as_str(), None),
            };
            let Some(zi) = self.zones.iter().position(|z| {
                z.starts
                    && z.owned == seat.is_some()
                    && (z.name == zone || self.sets[z.set].id == zone)
            }) else {
                let starts: Vec<String> = (self.zones.iter())
                    .filter(|z| z.starts)
                    .map(|z| match z.owned {
                        true => format!("P1 {}", z.name),
                        false => z.name.clone(),
                    })
                    .collect();
                return Err(grail_engine::diag::no_such(
                    "stackable zone",
                    name,
                    starts.iter().map(String::as_str),
                ));
            };
            let z = &self.zones[zi];
            let set = &self.sets[z.set];
            // The cards the zone starts with (a union's member zone holds only its member's
            // types).
            let starting = || z.start.iter().map(|&t| z.types.start + t);
            let mut types = Vec::new();
            for id in cards {
                let Some(t) = starting().find(|&t| set.cards[usize::from(t)] == *id) else {
                    return Err(grail_engine::diag::no_such(
                        &format!(
                            "card of set `{}` that `{}` starts with",
                            self.sets[z.declared].id, z.name
                        ),
                        id,
                        starting().map(|t| set.cards[usize::from(t)].as_str()),
                    ));
                };
                types.push(t);
            }
            stack.push((self.pile(zi, seat.unwrap_or(0), 0), types));
        }
        if setup.position.is_empty() {
            // A zone the setup never shuffles is stacked as it starts: its order is the
            // cards' own, which only a stack keeps.
            for &(p, _) in &stack {
                let zi = self.zone_of(p);
                if Self::shuffles(&self.setup, zi) {
                    continue;
                }
                if self.zones[zi].layout != Layout::Stack {
                    return Err(format!(
                        "cannot stack zone `{}`: the setup never shuffles it, and it keeps its \
                         cards in an order of its own (its layout is not `stack`)",
                        self.zones[zi].name
                    ));
                }
                Self::stack_pile(&mut state, p, &stack);
            }
            self.run(&self.setup, &mut state, &Subject::setup(&stack), events);
            self.begin_stages(&mut state);
        } else {
            // A script's position replaces the setup; what it leaves in the starting zones
            // is shuffled (and stacked) as a deck would be.
            self.set_position(&mut state, &setup.position)?;
            self.recount(&mut state);
            let shuffles: Vec<Effect> = (0..self.zones.len())
                .filter(|&z| self.zones[z].starts)
                .map(|zone| {
                    Effect::Shuffle(ZoneRef {
                        zone,
                        who: if self.zones[zone].owned {
                            Who::Each
                        } else {
                            Who::Table
                        },
                        row: None,
                    })
                })
                .collect();
            self.run(&shuffles, &mut state, &Subject::setup(&stack), events);
            self.check_invariants(&state)
                .map_err(|e| format!("the position breaks the rules: {e}"))?;
        }
        let auto = self.advance(&mut state, events);
        self.play_out(&mut state, auto, events);
        if let Some(fault) = super::fault::end() {
            state.ended = Some(Ended::Failed {
                fault,
                action: NO_ACTION,
            });
        }
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game set up in the storage of a finished one is the game `setup` gives: same
    /// state, same moves to the end, whatever the finished game's player count.
    #[test]
    fn a_game_set_up_in_a_finished_ones_storage_is_the_same_game() {
        use grail_engine::game::NoEvents;
        for (game, variant) in [
            ("artus", Some("advanced")),
            ("artus", None),
            ("king-arthur", Some("seals")),
        ] {
            let rules = super::super::random_games::bundled(game, variant);
            let (lo, hi) = rules.players;
            let mut spare = rules.setup(&Setup::new(hi, 99)).unwrap();
            let mut moves = Vec::new();
            for seed in 0..6u64 {
                let players = lo + seed as usize % (hi - lo + 1);
                let setup = Setup::new(players, seed);
                let mut fresh = rules.setup(&setup).unwrap();
                let mut reused = rules.setup_into(&setup, spare).unwrap();
                let mut n = 0;
                while rules.to_move(&fresh).is_some() {
                    assert_eq!(
                        format!("{fresh:?}"),
                        format!("{reused:?}"),
                        "{game} seed {seed}, move {n}"
                    );
                    rules.list(&fresh, &mut moves, false);
                    let pick = moves[(seed as usize * 7 + n) % moves.len()];
                    rules.apply(&mut fresh, &pick, &mut NoEvents);
                    rules.apply(&mut reused, &pick, &mut NoEvents);
                    n += 1;
                }
                assert_eq!(
                    rules.outcome(&fresh),
                    rules.outcome(&reused),
                    "{game} seed {seed}"
                );
                assert!(n > 30, "{game}: a whole game ({n} moves)");
                spare = reused;
            }
        }
    }
}
