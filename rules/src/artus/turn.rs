//! Setup, placement, the turn (play cards, then draw), and the end after the last round.

use grail_engine::cond::solve;
use grail_engine::counts::Counts;
use grail_engine::draw_piles::DrawPiles;
use grail_engine::game::{EventSink, Setup};
use grail_engine::pile::Pile;
use grail_engine::ring::Ring;
use grail_engine::rng::GameRng;
use grail_engine::seats::{Direction, parse_seat, seat_name};

use super::state::{Action, Card, Event, Figure, Phase, Player, Record, RecordKind, State};
use super::{Artus, Effect, MAX_PRINCES, Move, Pick, Who};
use crate::wording::Count;

impl Artus {
    pub(crate) fn deal(&self, setup: &Setup) -> Result<State, String> {
        if !self.players.contains(&setup.players) {
            return Err(format!(
                "{} is played by {} to {} players, not {}",
                self.game,
                self.players.start(),
                self.players.end(),
                setup.players
            ));
        }
        let mut rng = GameRng::new(setup.seed);
        // Seats are numbered counter-clockwise (the pack's convention).
        let mut ring = Ring::new(self.board.seats, Direction::CounterClockwise);
        let mut rings = [0u8; MAX_PRINCES];
        let mut king = 0;
        for (i, p) in self.princes.iter().enumerate() {
            ring.place(i as u8, p.seat);
            rings[i] = p.rings;
            if p.rings >= self.n.crown_rings {
                king = i as u8;
            }
        }
        let on_figures: u8 = rings.iter().sum();
        let mut players: Vec<Player> = (0..setup.players)
            .map(|_| {
                let mut piles = DrawPiles::new(
                    self.deck_cards
                        .iter()
                        .map(|cards| Pile::from_bottom_up(cards, cards.len())),
                );
                piles.shuffle(&mut rng);
                Player {
                    score: 0,
                    hand: Counts::new(),
                    piles,
                    played: Counts::new(),
                }
            })
            .collect();
        for (name, ids) in &setup.stack {
            self.stack(&mut players, name, ids)?;
        }
        for p in &mut players {
            for (d, deck) in self.decks.iter().enumerate() {
                for _ in 0..deck.dealt {
                    if let Some(card) = p.piles.draw(d) {
                        p.hand.add(card, 1);
                    }
                }
            }
        }
        let n = setup.players as u8;
        let mut state = State {
            rng,
            ring,
            table: self.princes[usize::from(king)].seat,
            king,
            rings,
            supply: self.n.rings - on_figures,
            players,
            princes: self.princes.len() as u8,
            knights_each: self.n.knights[setup.players],
            // "The oldest player is the start player. His right-hand neighbor goes first":
            // P1 starts; his right-hand neighbour is the last seat (seats go clockwise).
            current: n - 1,
            phase: Phase::Place,
            round: 0,
            turns: 0,
            placed: 0,
            records: Vec::with_capacity(32),
        };
        if state.knights_each == 0 {
            self.begin_play(&mut state, &mut Vec::new());
        }
        Ok(state)
    }

    /// Puts the named cards on top of a player's pile, first named on top. The pile is
    /// named by seat and deck: `P1 knight`.
    fn stack(&self, players: &mut [Player], name: &str, ids: &[String]) -> Result<(), String> {
        let words: Vec<&str> = name.split_whitespace().collect();
        let piles = || {
            self.decks
                .iter()
                .map(|d| d.word.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let [who, word] = words.as_slice() else {
            return Err(format!(
                "name a pile by player and deck, like `P1 {}`; the decks are {}",
                self.decks[0].word,
                piles()
            ));
        };
        let seat = parse_seat(who, players.len())
            .ok_or_else(|| format!("`{who}` is not a seat here (P1 … P{})", players.len()))?;
        let d = self
            .decks
            .iter()
            .position(|d| d.word == *word)
            .ok_or_else(|| format!("there is no `{word}` pile; the decks are {}", piles()))?;
        let deck = &self.decks[d];
        let chosen = ids
            .iter()
            .map(|id| {
                let t = self
                    .card_index(id)
                    .ok_or_else(|| format!("there is no card `{id}`"))?;
                if self.cards[usize::from(t)].deck as usize != d {
                    return Err(format!("`{id}` is not a {} card", deck.word));
                }
                Ok(t)
            })
            .collect::<Result<Vec<_>, _>>()?;
        players[seat]
            .piles
            .pile_mut(d)
            .stack_top(&chosen)
            .map_err(|e| {
                format!(
                    "{}'s {} pile holds {} `{}`, fewer than the {} asked for on top",
                    seat_name(seat),
                    deck.word,
                    e.available,
                    self.cards[usize::from(e.card)].id,
                    e.wanted
                )
            })
    }

    pub(crate) fn card_index(&self, id: &str) -> Option<Card> {
        self.cards
            .iter()
            .position(|c| c.id == id)
            .map(|i| i as Card)
    }

    /// The plate (index into `board.plates`) in front of `seat`.
    #[inline]
    pub(crate) fn plate_at(&self, state: &State, seat: u8) -> usize {
        let n = self.board.seats;
        (self.board.crown + usize::from(seat) + n - usize::from(state.table)) % n
    }

    #[inline]
    pub(crate) fn value_at(&self, state: &State, seat: u8) -> i64 {
        self.board.plates[self.plate_at(state, seat)].value
    }

    /// The situation type (plate and seat) of a figure on `seat`.
    #[inline]
    fn situation_at(&self, state: &State, seat: u8) -> u8 {
        self.board.situation[self.plate_at(state, seat) * self.board.seats + usize::from(seat)]
    }

    /// The situations of a player's Knights at the table, as counts.
    pub(crate) fn situations(&self, state: &State, player: u8) -> Counts {
        let mut c = Counts::new();
        for (_, s) in state.knight_seats(player) {
            c.add(self.situation_at(state, s), 1);
        }
        c
    }

    /// The Knights standing for a choice of situations: per situation, the lowest-numbered
    /// Knights in it. Knights in one situation are alike for every scoring card.
    fn knights_for(&self, state: &State, player: u8, chosen: &[u8]) -> u32 {
        let mut need = [0u8; 64];
        need[..chosen.len().min(64)].copy_from_slice(&chosen[..chosen.len().min(64)]);
        let mut mask = 0;
        for (i, s) in state.knight_seats(player) {
            let t = usize::from(self.situation_at(state, s));
            if need[t] > 0 {
                need[t] -= 1;
                mask |= 1 << i;
            }
        }
        mask
    }

    /// The canonical form of a choice of Knights: the same situations, lowest Knights first.
    pub(crate) fn canonical_choice(&self, state: &State, player: u8, knights: u32) -> u32 {
        let mut c = Counts::new();
        for (i, s) in state.knight_seats(player) {
            if knights & (1 << i) != 0 {
                c.add(self.situation_at(state, s), 1);
            }
        }
        let extra = knights & !self.all_knights(state, player);
        self.knights_for(state, player, c.as_slice()) | extra
    }

    pub(crate) fn all_knights(&self, state: &State, player: u8) -> u32 {
        state.knight_seats(player).fold(0, |m, (i, _)| m | 1 << i)
    }

    /// The player's best Knight (highest plate; the lowest-numbered among equals).
    pub(crate) fn best_knight(&self, state: &State, player: u8) -> Option<(u8, i64)> {
        let mut best: Option<(u8, i64)> = None;
        for (i, s) in state.knight_seats(player) {
            let v = self.value_at(state, s);
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((i, v));
            }
        }
        best
    }

    /// Whether `figure` fits a move effect for the player to move.
    pub(crate) fn may_move(&self, state: &State, m: &Move, figure: Figure) -> bool {
        match state.knight_of(figure) {
            Some((owner, _)) => m.who != Who::Neutral && owner == state.current,
            None => {
                m.who != Who::Knight
                    && usize::from(figure) < self.princes.len()
                    && m.colors & (1 << self.princes[usize::from(figure)].color) != 0
            }
        }
    }

    /// The choices of Knights meeting `card`'s condition with none to spare (one per kind of
    /// choice), each given to `found` until it returns false.
    pub(crate) fn choices(&self, state: &State, card: Card, mut found: impl FnMut(u32) -> bool) {
        let me = state.current;
        if let Some(program) = &self.cards[usize::from(card)].condition {
            let counts = self.situations(state, me);
            solve::payments(program, counts.as_slice(), &[], |p| {
                found(self.knights_for(state, me, p.counts()))
            });
        }
    }

    /// Whether some choice of the player's Knights meets `card`'s condition.
    pub(crate) fn can_choose(&self, state: &State, card: Card) -> bool {
        self.cards[usize::from(card)]
            .condition
            .as_ref()
            .is_some_and(|p| {
                solve::exists(p, self.situations(state, state.current).as_slice(), &[])
            })
    }

    /// Every legal action of the player to move, in a stable order.
    pub(crate) fn options(&self, state: &State, out: &mut Vec<Action>) {
        match state.phase {
            Phase::Place => {
                for seat in 0..self.board.seats as u8 {
                    if state.ring.is_free(seat) {
                        out.push(Action::Place { seat });
                    }
                }
            }
            Phase::Play { .. } => {
                let me = state.current;
                for (card, _) in state.player(me).hand.iter() {
                    self.card_options(state, card, out);
                }
            }
            Phase::Choose { card, .. } => {
                self.choices(state, card, |knights| {
                    out.push(Action::Score { card, knights });
                    true
                });
            }
            Phase::Draw { .. } => {
                for pile in state.player(state.current).piles.choices() {
                    out.push(Action::Draw { pile: pile as u8 });
                }
            }
            Phase::Over => {}
        }
    }

    fn card_options(&self, state: &State, card: Card, out: &mut Vec<Action>) {
        let def = &self.cards[usize::from(card)];
        let me = state.current;
        out.extend_from_slice(&self.moves[state.players.len()][usize::from(me)][usize::from(card)]);
        for effect in &def.effects {
            match *effect {
                Effect::Move(_) => {}
                Effect::Ring { .. } => {
                    if state.supply > 0 {
                        out.extend_from_slice(
                            &self.ring_moves[usize::from(card)][usize::from(state.king)],
                        );
                    }
                }
                Effect::Score { knights, .. } => match knights {
                    Pick::All => out.push(Action::Score {
                        card,
                        knights: self.all_knights(state, me),
                    }),
                    Pick::Best => {
                        if let Some((i, _)) = self.best_knight(state, me) {
                            out.push(Action::Score {
                                card,
                                knights: 1 << i,
                            });
                        }
                    }
                    Pick::Chosen => out.push(Action::Claim { card }),
                },
            }
        }
    }

    /// Carries out a legal action.
    pub(crate) fn play(
        &self,
        state: &mut State,
        action: &Action,
        events: &mut impl EventSink<Event>,
    ) {
        let me = state.current;
        match *action {
            Action::Place { seat } => {
                let n = state.players.len() as u8;
                let figure = state.knight(me, state.placed / n);
                state.ring.place(figure, seat);
                state.placed += 1;
                events.emit(|| Event::Placed { seat: me, at: seat });
                if state.placed == n * state.knights_each {
                    self.begin_play(state, events);
                } else {
                    // "Then, in a counter-clockwise direction, the next player does the same".
                    state.current = if me == 0 { n - 1 } else { me - 1 };
                }
            }
            Action::Move {
                card,
                figure,
                steps,
            } => {
                self.set_aside(state, card, events);
                let from = state.ring.seat_of(figure).unwrap_or(0);
                // The seat left scores, read before the table turns.
                let points = self.value_at(state, from);
                let dir = if steps > 0 {
                    self.n.forward
                } else {
                    opposite(self.n.forward)
                };
                let to = state
                    .ring
                    .step(from, usize::from(steps.unsigned_abs()), dir);
                let landing = state.ring.move_to(figure, to, self.n.displace);
                events.emit(|| Event::Moved {
                    figure,
                    from,
                    to,
                    steps,
                });
                if let Some(d) = landing.displaced {
                    events.emit(|| Event::Displaced {
                        figure: d.figure,
                        from: d.from,
                        to: d.to,
                    });
                }
                self.add_points(state, me, points, events);
                if figure == state.king || landing.displaced.is_some_and(|d| d.figure == state.king)
                {
                    self.turn_table(state, events);
                }
                self.after_card(state, events);
            }
            Action::Ring { card, prince } => {
                self.set_aside(state, card, events);
                let seat = state.ring.seat_of(prince).unwrap_or(0);
                // The plate under the Prince, before a crowning turns the table.
                let points = self.value_at(state, seat);
                let p = usize::from(prince);
                state.rings[p] += 1;
                state.supply -= 1;
                let rings = state.rings[p];
                events.emit(|| Event::RingAdded { prince, rings });
                self.add_points(state, me, points, events);
                if state.rings[p] >= self.n.crown_rings {
                    let old = state.king;
                    let keep = self.n.old_king_keeps.min(state.rings[usize::from(old)]);
                    let returned = state.rings[usize::from(old)] - keep;
                    state.rings[usize::from(old)] = keep;
                    state.supply += returned;
                    state.king = prince;
                    let turn = state.turns;
                    state.records.push(Record {
                        kind: RecordKind::Crowned,
                        item: prince,
                        turn,
                        seat: me,
                    });
                    events.emit(|| Event::Crowned {
                        prince,
                        old,
                        returned,
                    });
                    self.turn_table(state, events);
                }
                self.after_card(state, events);
            }
            Action::Score { card, knights } => {
                match state.phase {
                    Phase::Choose { left, .. } => state.phase = Phase::Play { left },
                    _ => self.set_aside(state, card, events),
                }
                self.score(state, card, knights, events);
                self.after_card(state, events);
            }
            Action::Claim { card } => {
                self.set_aside(state, card, events);
                let Phase::Play { left } = state.phase else {
                    return;
                };
                if self.can_choose(state, card) {
                    state.phase = Phase::Choose { card, left };
                } else {
                    self.penalty(state, card, events);
                    self.after_card(state, events);
                }
            }
            Action::Draw { pile } => {
                self.draw(state, pile, events);
                if let Phase::Draw { left } = state.phase {
                    state.phase = Phase::Draw {
                        left: left.saturating_sub(1),
                    };
                }
                self.settle_draws(state, events);
            }
        }
    }

    fn set_aside(&self, state: &mut State, card: Card, events: &mut impl EventSink<Event>) {
        let me = state.current;
        let p = &mut state.players[usize::from(me)];
        p.hand.remove(card, 1);
        p.played.add(card, 1);
        events.emit(|| Event::Played { seat: me, card });
    }

    /// Scores the plates of the Knights in `knights`, times the card's sign.
    fn score(
        &self,
        state: &mut State,
        card: Card,
        knights: u32,
        events: &mut impl EventSink<Event>,
    ) {
        let me = state.current;
        let (pick, sign, _) =
            self.cards[usize::from(card)]
                .score_effect()
                .unwrap_or((Pick::All, 1, 0));
        if pick == Pick::Chosen {
            let turn = state.turns;
            state.records.push(Record {
                kind: RecordKind::Met,
                item: card,
                turn,
                seat: me,
            });
        }
        let mut points = 0;
        for (i, s) in state.knight_seats(me) {
            if knights & (1 << i) != 0 {
                points += self.value_at(state, s);
            }
        }
        events.emit(|| {
            let mut seats: Vec<u8> = state
                .knight_seats(me)
                .filter(|&(i, _)| knights & (1 << i) != 0)
                .map(|(_, s)| s)
                .collect();
            seats.sort_unstable();
            Event::KnightsScored { seats }
        });
        self.add_points(state, me, sign * points, events);
    }

    /// "he can still play this card, receiving -15 points for it instead".
    fn penalty(&self, state: &mut State, card: Card, events: &mut impl EventSink<Event>) {
        let me = state.current;
        let otherwise = self.cards[usize::from(card)]
            .score_effect()
            .map_or(0, |(_, _, o)| o);
        let turn = state.turns;
        events.emit(|| Event::Penalty { card });
        state.records.push(Record {
            kind: RecordKind::Penalty,
            item: card,
            turn,
            seat: me,
        });
        self.add_points(state, me, otherwise, events);
    }

    fn add_points(
        &self,
        state: &mut State,
        seat: u8,
        points: i64,
        events: &mut impl EventSink<Event>,
    ) {
        let p = &mut state.players[usize::from(seat)];
        let before = p.score;
        p.score += points;
        let total = p.score;
        events.emit(|| Event::Points {
            seat,
            points,
            total,
        });
        let change = self.track.tiles_change(before, total);
        if change != 0 {
            events.emit(|| Event::Tiles { seat, change });
        }
    }

    /// "The table surface is rotated such that the crown is next to the new King."
    fn turn_table(&self, state: &mut State, events: &mut impl EventSink<Event>) {
        let to = state.king_seat();
        if to != state.table {
            state.table = to;
            events.emit(|| Event::TableTurned { to });
        }
    }

    fn draw(&self, state: &mut State, pile: u8, events: &mut impl EventSink<Event>) {
        let me = state.current;
        let p = &mut state.players[usize::from(me)];
        if let Some(card) = p.piles.draw(usize::from(pile)) {
            p.hand.add(card, 1);
            events.emit(|| Event::Drew { seat: me, pile });
        }
    }

    /// After a card is carried out: the next card, or the draws.
    fn after_card(&self, state: &mut State, events: &mut impl EventSink<Event>) {
        let Phase::Play { left } = state.phase else {
            return;
        };
        let left = left.saturating_sub(1);
        if left > 0 && !state.player(state.current).hand.is_empty() {
            state.phase = Phase::Play { left };
        } else {
            state.phase = Phase::Draw {
                left: self.n.draws_per_turn,
            };
            self.settle_draws(state, events);
        }
    }

    /// Draws that leave no choice happen at once (one pile left); with no pile left, or no
    /// draws left, the turn ends.
    fn settle_draws(&self, state: &mut State, events: &mut impl EventSink<Event>) {
        while let Phase::Draw { left } = state.phase {
            let piles = &state.player(state.current).piles;
            if left == 0 || piles.open() == 0 {
                self.end_turn(state, events);
                return;
            }
            match piles.forced() {
                Some(pile) => {
                    self.draw(state, pile as u8, events);
                    state.phase = Phase::Draw { left: left - 1 };
                }
                None => return,
            }
        }
    }

    fn begin_play(&self, state: &mut State, events: &mut impl EventSink<Event>) {
        // "The start player then begins the actual game, with play proceeding in a clockwise
        // direction."
        state.current = 0;
        self.begin_turn(state, events);
    }

    fn begin_turn(&self, state: &mut State, events: &mut impl EventSink<Event>) {
        if state.player(state.current).hand.is_empty() {
            state.phase = Phase::Draw {
                left: self.n.draws_per_turn,
            };
            self.settle_draws(state, events);
        } else {
            state.phase = Phase::Play {
                left: self.n.cards_per_turn,
            };
        }
    }

    fn end_turn(&self, state: &mut State, events: &mut impl EventSink<Event>) {
        state.turns += 1;
        let n = state.players.len() as u8;
        state.current = (state.current + 1) % n;
        if state.current == 0 {
            state.round += 1;
            if state.round >= self.n.rounds {
                state.phase = Phase::Over;
                events.emit(|| Event::GameOver);
                return;
            }
        }
        self.begin_turn(state, events);
    }

    /// Why `action` is not legal now.
    pub(crate) fn explain(&self, state: &State, action: &Action) -> String {
        let me = state.current;
        // Actions come from the parser, which only names what exists; stay safe regardless.
        let figures = state.princes + state.knights_each * state.players.len() as u8;
        match *action {
            Action::Move { card, .. }
            | Action::Ring { card, .. }
            | Action::Score { card, .. }
            | Action::Claim { card }
                if usize::from(card) >= self.cards.len() =>
            {
                return "there is no such card".into();
            }
            Action::Move { figure, .. } if figure >= figures => {
                return "there is no such figure".into();
            }
            Action::Ring { prince, .. } if prince >= state.princes => {
                return "a ring goes to a Prince".into();
            }
            _ => {}
        }
        match (*action, state.phase) {
            (_, Phase::Over) => "the game is over".into(),
            (Action::Place { seat }, Phase::Place) => {
                if usize::from(seat) >= self.board.seats {
                    format!("the seats are 0 to {}", self.board.seats - 1)
                } else {
                    format!(
                        "seat {seat} is taken by {}",
                        self.figure_name(state, state.ring.figure_at(seat).unwrap_or(0))
                    )
                }
            }
            (_, Phase::Place) => "first the Knights are placed: `place <seat>`".into(),
            (Action::Place { .. }, _) => "all Knights are placed".into(),
            (Action::Draw { pile }, Phase::Draw { .. }) => {
                match self.decks.get(usize::from(pile)) {
                    Some(d) if !d.in_game => format!("the {} cards are not in this game", d.word),
                    Some(d) => format!("your {} pile is exhausted", d.word),
                    None => "there is no such pile".into(),
                }
            }
            (_, Phase::Draw { .. }) => "your cards are played: now draw (`draw <pile>`)".into(),
            (Action::Score { card, knights }, Phase::Choose { card: playing, .. }) => {
                if card != playing {
                    return format!(
                        "choose the Knights for `{}`",
                        self.cards[usize::from(playing)].id
                    );
                }
                self.explain_choice(state, card, knights)
            }
            (_, Phase::Choose { card, .. }) => format!(
                "choose the Knights for `{}`: `score knight@<seat> …`",
                self.cards[usize::from(card)].id
            ),
            (Action::Draw { .. }, Phase::Play { left }) => {
                format!("first play {}", Count(left.into(), "more card"))
            }
            (
                Action::Move { card, .. }
                | Action::Ring { card, .. }
                | Action::Score { card, .. }
                | Action::Claim { card },
                Phase::Play { .. },
            ) => {
                let def = &self.cards[usize::from(card)];
                if !state.player(me).hand.contains(card) {
                    return format!("you hold no `{}`", def.id);
                }
                match *action {
                    Action::Move { figure, steps, .. } => {
                        self.explain_move(state, card, figure, steps)
                    }
                    Action::Ring { prince, .. } => self.explain_ring(state, card, prince),
                    Action::Score { knights, .. } => self.explain_score(state, card, knights),
                    _ => format!("`{}` lets you choose no Knights", def.id),
                }
            }
        }
    }

    fn explain_move(&self, state: &State, card: Card, figure: Figure, steps: i8) -> String {
        let def = &self.cards[usize::from(card)];
        let moves: Vec<Move> = def.moves().collect();
        if moves.is_empty() {
            return format!("`{}` moves no figure", def.id);
        }
        let name = self.figure_name(state, figure);
        let fits: Vec<&Move> = moves
            .iter()
            .filter(|m| self.may_move(state, m, figure))
            .collect();
        if fits.is_empty() {
            return match state.knight_of(figure) {
                Some((owner, _)) if owner != state.current => {
                    format!("that is {name}: you may only move your own Knights")
                }
                Some(_) => format!("`{}` moves a Prince or the King, not a Knight", def.id),
                None if moves.iter().all(|m| m.who == Who::Knight) => {
                    format!("`{}` moves one of your own Knights, not {name}", def.id)
                }
                None => format!(
                    "`{}` is {}: its colour binds, so it cannot move {name}",
                    def.id,
                    self.color_names(moves.iter().fold(0, |m, e| m | e.colors))
                ),
            };
        }
        let ranges: Vec<String> = fits
            .iter()
            .map(|m| {
                let both = if m.backward {
                    " forward or backward"
                } else {
                    " forward"
                };
                format!("{} to {} seats{both}", m.min, m.max)
            })
            .collect();
        if steps < 0 && fits.iter().all(|m| !m.backward) {
            return format!("`{}` moves forward only ({})", def.id, ranges.join(" or "));
        }
        format!("`{}` moves {}", def.id, ranges.join(" or "))
    }

    fn explain_ring(&self, state: &State, card: Card, prince: u8) -> String {
        let def = &self.cards[usize::from(card)];
        let Some(colors) = def.ring_colors() else {
            return format!("`{}` adds no ring", def.id);
        };
        if usize::from(prince) >= self.princes.len() {
            return "a ring goes to a Prince".into();
        }
        if prince == state.king {
            return "a ring is never added to the King, only to a Prince".into();
        }
        if colors & (1 << self.princes[usize::from(prince)].color) == 0 {
            return format!(
                "`{}` is {}: its colour binds, so it cannot give {} a ring",
                def.id,
                self.color_names(colors),
                self.figure_name(state, prince)
            );
        }
        "the ring supply is empty".into()
    }

    fn explain_score(&self, state: &State, card: Card, knights: u32) -> String {
        let def = &self.cards[usize::from(card)];
        let me = state.current;
        let Some((pick, _, _)) = def.score_effect() else {
            return format!("`{}` scores no Knights", def.id);
        };
        if knights & !self.all_knights(state, me) != 0 {
            return "you can only score your own Knights at the table".into();
        }
        match pick {
            Pick::All => format!("`{}` scores all your Knights: `play {}`", def.id, def.id),
            Pick::Best => match self.best_knight(state, me) {
                Some((i, v)) => format!(
                    "`{}` scores your best Knight: the one on seat {} ({v})",
                    def.id,
                    state.ring.seat_of(state.knight(me, i)).unwrap_or(0)
                ),
                None => "you have no Knight at the table".into(),
            },
            Pick::Chosen => format!(
                "first play the card (`play {}`), then choose the Knights",
                def.id
            ),
        }
    }

    /// Why a choice of Knights for a played scoring card is not one of the legal choices.
    fn explain_choice(&self, state: &State, card: Card, knights: u32) -> String {
        let def = &self.cards[usize::from(card)];
        let me = state.current;
        if knights & !self.all_knights(state, me) != 0 {
            return "you can only score your own Knights at the table".into();
        }
        let mut counts = Counts::new();
        for (i, s) in state.knight_seats(me) {
            if knights & (1 << i) != 0 {
                counts.add(self.situation_at(state, s), 1);
            }
        }
        let meets = def
            .condition
            .as_ref()
            .is_some_and(|p| p.test(counts.as_slice(), &[]));
        if meets {
            format!(
                "a Knight in that choice is not needed for `{}`: leave it out",
                def.condition_text
            )
        } else {
            format!("those Knights do not meet `{}`", def.condition_text)
        }
    }

    pub(crate) fn color_names(&self, mask: u8) -> String {
        let names: Vec<&str> = (0..self.colors.len())
            .filter(|&c| mask & (1 << c) != 0)
            .map(|c| self.colors[c].as_str())
            .collect();
        names.join(" and ")
    }
}

pub(crate) fn opposite(d: Direction) -> Direction {
    match d {
        Direction::Clockwise => Direction::CounterClockwise,
        Direction::CounterClockwise => Direction::Clockwise,
    }
}
