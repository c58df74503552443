//! A script's starting position (`position: {…}` in a replay file): instead of the setup,
//! every card starts in its set's starting zone and each entry takes what it names from
//! there; the starting zones are then shuffled with the seed (and stacked). Entries are
//! named as the script queries name them and list what those queries answer:
//!
//! - a pile (`"hand P1"`, `"trails P1 red"`): its cards, bottom first;
//! - `"turn"` (the seat to move) and `"step"` (the step of its turn);
//! - a counter (`"points P1"`, `"supply"`);
//! - on a ring: the seats of a player's figures (`"knight P1 at": ["12", "13"]`; the word
//!   `at` keeps them apart from a pile named like the kind (a player's draw pile
//!   `knight P1`), and may be left out where no pile is called so), the figure drawn from a
//!   set on a seat (`"seat 7": ["bronze-1"]`), a figure's counter (`"rings bronze-1"`) and a
//!   role's holder (`"king"`).
//!
//! The entries are laid out in passes (cards, then figures, then numbers and roles, then the
//! totals), so a position means the same in whatever order it is written. What breaks
//! conservation or the pack's limits is refused, naming the entry and the reason: a card
//! with no copy left or that its zone cannot hold, two figures on a seat, a figure placed
//! twice, more figures than a player has, a seat off the ring, a figure that stays on its
//! starting seat under another, a counter beyond what the game has (`[figures.*] totals`).

use grail_engine::diag::{did_you_mean, no_such};
use grail_engine::seats::parse_seat;

use super::Rulebook;
use super::model::{Board, Members};
use super::state::{Figures, State};

/// What one entry of a position names.
#[derive(Clone, Copy, Debug)]
enum Entry {
    Turn,
    Step,
    Pile(usize),
    /// A counter of the table or of a seat (`points P1`).
    Counter,
    /// `<kind> <seat> at`: the seats of a seat's figures of an owned kind.
    Seats {
        kind: usize,
        owner: usize,
    },
    /// `seat <n>`: the figure drawn from a set standing on it.
    Seat(u8),
    /// `<counter> <figure id>`.
    FigureCounter {
        counter: usize,
        figure: u8,
    },
    /// `<role>`: the figure holding it.
    Role(usize),
}

/// A figure the position puts on a seat, and the entry that does.
struct Seated<'a> {
    figure: u8,
    seat: u8,
    entry: &'a str,
}

impl Rulebook {
    /// Lays out `position` on a state whose starting zones hold every card.
    pub(super) fn set_position(
        &self,
        state: &mut State,
        position: &[(String, Vec<String>)],
    ) -> Result<(), String> {
        let mut entries = Vec::with_capacity(position.len());
        for (name, held) in position {
            let entry = self
                .entry(state, name)
                .map_err(|e| format!("position `{name}`: {e}"))?;
            entries.push((name.as_str(), entry, held.as_slice()));
        }
        // The cards each entry took, and from which pile: who took the last copy.
        let mut taken: Vec<(usize, u16, &str)> = Vec::new();
        for &(name, entry, held) in &entries {
            if let Entry::Pile(pile) = entry {
                self.lay_cards(state, pile, name, held, &mut taken)
                    .map_err(|e| {
                        let e = self.seats_hint(name, held).unwrap_or(e);
                        format!("position `{name}`: {e}")
                    })?;
            }
        }
        self.seat_figures(state, &entries)?;
        for &(name, entry, held) in &entries {
            self.set_number(state, name, entry, held)
                .map_err(|e| format!("position `{name}`: {e}"))?;
        }
        self.check_totals(state, &entries)
    }

    /// Which entry `name` is; a name two things answer to is refused.
    fn entry(&self, state: &State, name: &str) -> Result<Entry, String> {
        let words: Vec<&str> = name.split_whitespace().collect();
        let mut found: Vec<(Entry, String)> = Vec::new();
        match name {
            "turn" => found.push((Entry::Turn, "the seat to move".into())),
            "step" => found.push((Entry::Step, "the step of the turn".into())),
            _ => {}
        }
        if let Some(p) = (0..state.piles.len()).find(|&p| self.pile_name(p) == name) {
            found.push((Entry::Pile(p), format!("the pile `{name}`")));
        }
        if let Some(c) = self
            .counters
            .iter()
            .find(|c| Some(&c.name.as_str()) == words.first())
        {
            found.push((Entry::Counter, format!("the counter `{}`", c.name)));
        }
        // `knight P1` (as the query names the seats) when no pile is called so.
        let short = words.len() == 2 && found.iter().any(|(e, _)| matches!(e, Entry::Pile(_)));
        if let Some(ring) = self.ring_entry(state, &words)
            && !(short && matches!(ring, Ok((Entry::Seats { .. }, _))))
        {
            found.push(ring?);
        }
        match &found[..] {
            [(entry, _)] => Ok(*entry),
            [] => Err(self.unknown_entry(state, name)),
            [(_, a), (_, b), ..] => Err(format!(
                "it names both {a} and {b}; rename one of them in the pack"
            )),
        }
    }

    /// A ring entry (`None`: not one), with what it names.
    fn ring_entry(&self, state: &State, words: &[&str]) -> Option<Result<(Entry, String), String>> {
        let (board, f) = (self.board.as_ref()?, state.figures.0.as_ref()?);
        let players = usize::from(state.players);
        let kind = |name: &str| board.kinds.iter().position(|k| k.name == name);
        Some(match *words {
            [k, p, "at"] | [k, p] if kind(k).is_some() => (|| {
                let kind = kind(k).unwrap_or(0);
                let Members::Each { .. } = board.kinds[kind].members else {
                    return Err(format!(
                        "`{k}` figures belong to no seat: place each with `seat <n>`"
                    ));
                };
                let owner = parse_seat(p, players)
                    .ok_or_else(|| format!("`{p}` is not a seat here (P1 … P{players})"))?;
                let what = format!("the seats of P{}'s `{k}` figures", owner + 1);
                Ok((Entry::Seats { kind, owner }, what))
            })(),
            ["seat", n] => {
                seat_number(board, n).map(|s| (Entry::Seat(s), format!("the figure on seat {s}")))
            }
            [c, id] if board.counters.iter().any(|x| x == c) => {
                let counter = board.counters.iter().position(|x| x == c).unwrap_or(0);
                self.figure_by_id(board, f, id)
                    .map(|figure| {
                        let what = format!("the `{c}` of figure `{id}`");
                        (Entry::FigureCounter { counter, figure }, what)
                    })
                    .ok_or_else(|| self.no_figure(board, f, id))
            }
            [role] if board.roles.iter().any(|r| r.name == role) => {
                let r = board.roles.iter().position(|x| x.name == role).unwrap_or(0);
                Ok((Entry::Role(r), format!("the holder of `{role}`")))
            }
            _ => return None,
        })
    }

    /// Why `name` is no entry, with the entries it may have meant.
    fn unknown_entry(&self, state: &State, name: &str) -> String {
        let mut known: Vec<String> = (0..state.piles.len()).map(|p| self.pile_name(p)).collect();
        known.extend(["turn".to_string(), "step".to_string()]);
        known.extend(self.counters.iter().map(|c| match c.owned {
            true => format!("{} P1", c.name),
            false => c.name.clone(),
        }));
        if let Some(board) = &self.board {
            known.push("seat 0".into());
            for k in &board.kinds {
                if let Members::Each { .. } = k.members {
                    known.push(format!("{} P1 at", k.name));
                }
            }
            known.extend(board.roles.iter().map(|r| r.name.clone()));
        }
        no_such("position entry", name, known.iter().map(String::as_str))
    }

    /// A pile entry refused for values meant as the seats of figures of a kind named like
    /// the pile (`knight P1`, a player's draw pile of Knight cards): says so.
    fn seats_hint(&self, name: &str, held: &[String]) -> Option<String> {
        let words: Vec<&str> = name.split_whitespace().collect();
        match (&self.board, &words[..], held) {
            (Some(board), [k, p], [first, ..])
                if board.kinds.iter().any(|x| x.name == *k)
                    && held.iter().all(|v| v.parse::<u8>().is_ok()) =>
            {
                Some(format!(
                    "`{name}` is a pile of cards, and `{first}` is none; the seats of {p}'s `{k}` figures are `{name} at`"
                ))
            }
            _ => None,
        }
    }

    /// Takes each card from its set's starting zone onto `pile`, bottom card first (for a
    /// union of sets, the zone starting with its member's cards).
    fn lay_cards<'a>(
        &self,
        state: &mut State,
        pile: usize,
        entry: &'a str,
        cards: &[String],
        taken: &mut Vec<(usize, u16, &'a str)>,
    ) -> Result<(), String> {
        let (zone, seat, _) = self.locate(pile);
        let z = &self.zones[zone];
        let set = &self.sets[z.set];
        // A union's member zone holds only its member's types.
        let ids = &set.cards[usize::from(z.types.start)..usize::from(z.types.end)];
        for id in cards {
            let Some(t) = ids.iter().position(|c| c == id) else {
                let near = did_you_mean(id, ids.iter().map(String::as_str))
                    .map_or(String::new(), |near| format!("; did you mean `{near}`?"));
                let holds = &self.sets[z.declared].id;
                return Err(match set.cards.contains(id) {
                    true => format!(
                        "`{}` holds the cards of `{holds}`, and `{id}` is none of them",
                        self.pile_name(pile)
                    ),
                    false => format!("`{id}` is no card of `{holds}`{near}"),
                });
            };
            let t = t as u16 + z.types.start;
            let Some(start) = self.zones.iter().position(|z| {
                z.set == self.zones[zone].set
                    && (t.checked_sub(z.types.start)).is_some_and(|u| z.start.contains(&u))
            }) else {
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
                let mut others: Vec<String> = (taken.iter())
                    .filter(|&&(f, c, _)| f == from && c == t)
                    .map(|(_, _, e)| format!("`{e}`"))
                    .collect();
                others.dedup();
                return Err(format!(
                    "no `{id}` is left for it: `{}` starts with {} and {} takes it",
                    self.pile_name(from),
                    set.copies[usize::from(t)],
                    others.join(" and ")
                ));
            };
            state.piles[from].remove(i);
            taken.push((from, t, entry));
            self.put(state, pile, t);
        }
        Ok(())
    }

    /// The figures the entries put on seats. Every figure named leaves the seat the game
    /// gave it, then each takes its seat; a figure not named stays where it started.
    fn seat_figures(
        &self,
        state: &mut State,
        entries: &[(&str, Entry, &[String])],
    ) -> Result<(), String> {
        let (Some(board), Some(f)) = (&self.board, state.figures.0.as_mut()) else {
            return Ok(());
        };
        let name = |f: &Figures, m: u8| board.figure_name(&self.sets, f, m);
        // What each entry seats, before any figure moves.
        let mut wanted: Vec<Seated> = Vec::new();
        for &(entry, kind, held) in entries {
            let refuse = |e: String| format!("position `{entry}`: {e}");
            match kind {
                Entry::Seats { kind, owner } => {
                    let members = board.members(f, kind, Some(owner));
                    if held.len() > members.len() {
                        return Err(refuse(format!(
                            "{} seats for P{}'s {} `{}` figures",
                            held.len(),
                            owner + 1,
                            members.len(),
                            board.kinds[kind].name
                        )));
                    }
                    for (figure, s) in members.zip(held) {
                        let seat = seat_number(board, s).map_err(refuse)?;
                        wanted.push(Seated {
                            figure,
                            seat,
                            entry,
                        });
                    }
                }
                Entry::Seat(seat) => {
                    let id = one(held).map_err(refuse)?;
                    let figure = self
                        .figure_by_id(board, f, id)
                        .ok_or_else(|| refuse(self.no_figure(board, f, id)))?;
                    wanted.push(Seated {
                        figure,
                        seat,
                        entry,
                    });
                }
                _ => {}
            }
        }
        let mut seated: Vec<Seated> = Vec::with_capacity(wanted.len());
        for s in wanted {
            if let Some(other) = seated.iter().find(|x| x.figure == s.figure) {
                return Err(format!(
                    "position `{}`: {} is placed twice: on seat {} (`{}`) and on seat {}",
                    s.entry,
                    name(f, s.figure),
                    other.seat,
                    other.entry,
                    s.seat
                ));
            }
            seated.push(s);
        }
        // An entry seating a player's figures seats all he has at the table: the rest leave it.
        for &(_, kind, _) in entries {
            if let Entry::Seats { kind, owner } = kind {
                for m in board.members(f, kind, Some(owner)) {
                    f.ring.remove(m);
                }
            }
        }
        for s in &seated {
            f.ring.remove(s.figure);
        }
        for (i, s) in seated.iter().enumerate() {
            let Some(other) = f.ring.figure_at(s.seat) else {
                f.ring.place(s.figure, s.seat);
                continue;
            };
            let (this, that) = (name(f, s.figure), name(f, other));
            return Err(match seated[..i].iter().find(|x| x.figure == other) {
                Some(x) => format!(
                    "position `{}`: seat {} would hold two figures, {this} and {that} (`{}`); a seat holds one",
                    s.entry, s.seat, x.entry
                ),
                None => format!(
                    "position `{}`: seat {} is taken by {that}, which stays on its starting seat unless the position seats it elsewhere (`\"seat <n>\": [\"{that}\"]`)",
                    s.entry, s.seat
                ),
            });
        }
        Ok(())
    }

    /// The numbers and the cursor: the seat to move, the step, counters, roles.
    fn set_number(
        &self,
        state: &mut State,
        name: &str,
        entry: Entry,
        held: &[String],
    ) -> Result<(), String> {
        let players = usize::from(state.players);
        match entry {
            Entry::Turn => {
                let seat = one(held)?;
                state.current = parse_seat(seat, players)
                    .ok_or_else(|| format!("`{seat}` is not a seat here (P1 … P{players})"))?
                    as u8;
            }
            Entry::Step => {
                let name = one(held)?;
                let step = self
                    .steps
                    .iter()
                    .position(|s| s.name == name)
                    .ok_or_else(|| {
                        no_such("step", name, self.steps.iter().map(|s| s.name.as_str()))
                    })?;
                state.step = step as u8;
                state.stage = self.stage_of_step(step);
            }
            Entry::Counter => {
                let words: Vec<&str> = name.split_whitespace().collect();
                if let Some(done) = self.counter_position(state, &words, held) {
                    done?;
                }
            }
            Entry::FigureCounter { counter, figure } => {
                let (Some(board), Some(f)) = (&self.board, state.figures.0.as_mut()) else {
                    return Ok(());
                };
                let v = one(held)?;
                let v =
                    v.parse::<i16>().ok().filter(|v| *v >= 0).ok_or_else(|| {
                        format!("a figure's counter is a number from 0, not `{v}`")
                    })?;
                board.set_counter(f, usize::from(figure) * board.counters.len() + counter, v);
            }
            Entry::Role(r) => {
                let (Some(board), Some(f)) = (&self.board, state.figures.0.as_mut()) else {
                    return Ok(());
                };
                let id = one(held)?;
                let kind = board.roles[r].kind;
                let m = self
                    .figure_by_id(board, f, id)
                    .filter(|&m| board.figure(f, m).0 == kind)
                    .ok_or_else(|| {
                        format!(
                            "`{}` is held by a `{}` figure, and `{id}` is none",
                            board.roles[r].name, board.kinds[kind].name
                        )
                    })?;
                f.roles[r] = m;
            }
            Entry::Pile(_) | Entry::Seats { .. } | Entry::Seat(_) => {}
        }
        Ok(())
    }

    /// Refuses a position whose figures hold more of a counter than the game has, naming
    /// the entry that sets the most of it.
    fn check_totals(
        &self,
        state: &State,
        entries: &[(&str, Entry, &[String])],
    ) -> Result<(), String> {
        let (Some(board), Some(f)) = (&self.board, &state.figures.0) else {
            return Ok(());
        };
        let Some((total, held, game)) = board.over_total(f, state.players) else {
            return Ok(());
        };
        let counter = &board.counters[total.counter];
        let value = |m: u8| f.counters[usize::from(m) * board.counters.len() + total.counter];
        let entry = entries
            .iter()
            .filter_map(|&(name, e, _)| match e {
                Entry::FigureCounter { counter, figure }
                    if counter == total.counter && board.figure(f, figure).0 == total.kind =>
                {
                    Some((value(figure), name))
                }
                _ => None,
            })
            .max_by_key(|&(v, _)| v)
            .map_or("position".to_string(), |(_, name)| {
                format!("position `{name}`")
            });
        let each: Vec<String> = board
            .members(f, total.kind, None)
            .map(|m| format!("{} {}", board.figure_name(&self.sets, f, m), value(m)))
            .collect();
        Err(format!(
            "{entry}: {game} {counter} in the game, the `{}` figures would hold {held} ({})",
            board.kinds[total.kind].name,
            each.join(", ")
        ))
    }

    /// The figure drawn from a set whose card id is `id`.
    fn figure_by_id(&self, board: &Board, f: &Figures, id: &str) -> Option<u8> {
        let total: u8 = f.size.iter().sum();
        (0..total).find(|&m| {
            let (k, _, _) = board.figure(f, m);
            matches!(board.kinds[k].members, Members::Cards { .. })
                && board.figure_name(&self.sets, f, m) == id
        })
    }

    /// Why `id` names no figure drawn from a set, with the ones there are.
    fn no_figure(&self, board: &Board, f: &Figures, id: &str) -> String {
        let owned = board.kinds.iter().find(|k| {
            matches!(k.members, Members::Each { .. })
                && id.split_whitespace().next() == Some(&k.name)
        });
        if let Some(k) = owned {
            return format!(
                "`{id}` is no figure drawn from a set: seat a player's `{0}` figures with `{0} P1 at`",
                k.name
            );
        }
        let total: u8 = f.size.iter().sum();
        let ids: Vec<String> = (0..total)
            .filter(|&m| {
                matches!(
                    board.kinds[board.figure(f, m).0].members,
                    Members::Cards { .. }
                )
            })
            .map(|m| board.figure_name(&self.sets, f, m))
            .collect();
        no_such("figure", id, ids.iter().map(String::as_str))
    }
}

/// A seat of the ring, by number.
fn seat_number(board: &Board, w: &str) -> Result<u8, String> {
    w.parse::<u8>()
        .ok()
        .filter(|&s| usize::from(s) < board.seats)
        .ok_or_else(|| {
            format!(
                "there is no seat `{w}`: the seats are 0 to {}",
                board.seats - 1
            )
        })
}

/// The one value an entry takes.
fn one(held: &[String]) -> Result<&str, String> {
    match held {
        [one] => Ok(one.as_str()),
        _ => Err(format!("give one value, not {}", held.len())),
    }
}
