//! Setup and the turn: the four optional actions in order, and the two game ends.

use crate::cards::{deck, stack};
use grail_engine::cond::affordable::Affordable;
use grail_engine::cond::solve::{self, Payment};
use grail_engine::counts::Counts;
use grail_engine::derived::Derived;
use grail_engine::game::{EventSink, NoEvents, Setup};
use grail_engine::pile::Pile;
use grail_engine::rng::GameRng;

use super::KingArthur;
use super::state::{Action, Card, End, Event, Mode, Phase, Player, PriceMemo, Seat, Slot, State};

impl KingArthur {
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
        let mut knight_supply = deck(&self.knights.copies);
        let mut adversary_supply = deck(&self.adversaries.copies);
        knight_supply.shuffle(&mut rng);
        adversary_supply.shuffle(&mut rng);
        for (pile, cards) in &setup.stack {
            match pile.as_str() {
                "knights" => stack(&mut knight_supply, cards, &self.knights, "knight")?,
                "adversaries" => {
                    stack(&mut adversary_supply, cards, &self.adversaries, "adversary")?
                }
                other => {
                    return Err(format!(
                        "there is no pile `{other}` to stack; the piles are knights, adversaries"
                    ));
                }
            }
        }
        let knight_discard = Pile::with_capacity(knight_supply.len());
        let mut state = State {
            rng,
            players: (0..setup.players)
                .map(|_| Player {
                    knights: Counts::new(),
                    adversaries: Counts::new(),
                    seals: self.n.seals_per_player,
                })
                .collect(),
            current: 0,
            phase: Phase::Replenish,
            turn: 0,
            knight_supply,
            knight_discard,
            adversary_supply,
            adversaries_out: Counts::new(),
            columns: vec![Vec::new(); self.column_names.len()],
            adventures: vec![None; self.adventures.len()],
            challenged: false,
            adventured: false,
            last_turn: false,
            end: None,
            taken: Vec::new(),
            memo: Derived::default(),
        };
        // "Continue placing cards until there are exactly four cards of one kind."
        self.reveal_adversaries(&mut state, &mut NoEvents);
        // Dealt one at a time, round the table from P1.
        for _ in 0..self.n.hand_size {
            for seat in 0..setup.players {
                if let Some(card) = state.knight_supply.draw() {
                    state.players[seat].knights.add(card, 1);
                }
            }
        }
        self.advance(&mut state, &mut NoEvents);
        Ok(state)
    }

    /// Draws adversaries into their columns until one holds exactly the column limit or the
    /// supply is empty.
    fn reveal_adversaries(&self, state: &mut State, events: &mut impl EventSink<Event>) {
        while let Some(card) = state.adversary_supply.draw() {
            let column = self.column_of[card as usize] as usize;
            state.columns[column].push(Slot { card, seal: None });
            events.emit(|| Event::Revealed { card });
            if state.columns[column].len() == self.n.column_limit as usize {
                break;
            }
        }
    }

    fn can_replenish(&self, state: &State) -> bool {
        !state.adversary_supply.is_empty()
            && state
                .columns
                .iter()
                .all(|c| c.len() < self.n.column_limit as usize)
    }

    /// The knight cards a challenge of `target` in `mode` must meet, as the `power` argument.
    pub(crate) fn price(&self, target: Card, mode: Mode) -> i64 {
        let power = self.power[target as usize];
        if mode == Mode::Double {
            power.saturating_mul(self.n.double_challenge_factor)
        } else {
            power
        }
    }

    /// Calls `visit` with each challenge open to the player to move, in column order, until
    /// it returns `false`: one per distinct face-up adversary and mode when `DISTINCT`, else
    /// one per face-up card (enough to learn whether there is any). `prices` holds what is
    /// known about the player's hand ([`PriceMemo::fit`] to it) and learns the rest as it is
    /// asked.
    fn each_challenge<const DISTINCT: bool>(
        &self,
        columns: &[Vec<Slot>],
        me: Seat,
        player: &Player,
        prices: &mut PriceMemo,
        mut visit: impl FnMut(Action) -> bool,
    ) {
        let seals_left = player.seals > 0;
        let seals = self.seals();
        let hand = player.knights.as_slice();
        // The dearest price the hand can pay, when the condition says (once per hand: the
        // price argument is what it answers for, so its value here does not matter).
        let ceiling = *prices.ceiling.get_or_insert_with(|| {
            let ceiling = self.challenge_ceiling.as_ref()?;
            ceiling.largest(&self.challenge, hand, &[0])
        });
        let mut affordable = |price: i64| {
            if let Some(dearest) = ceiling {
                return dearest.is_some_and(|dearest| price <= dearest);
            }
            match prices.get(price) {
                Some(can) => can,
                None => {
                    let can = solve::exists(&self.challenge, hand, &[price]);
                    prices.put(price, can);
                    can
                }
            }
        };
        for column in columns {
            for (i, slot) in column.iter().enumerate() {
                let seen_before = DISTINCT
                    && column[..i]
                        .iter()
                        .any(|s| s.card == slot.card && s.seal == slot.seal);
                if seen_before {
                    continue;
                }
                let modes: &[Mode] = match (seals, slot.seal) {
                    (false, _) => &[Mode::Take],
                    (true, None) if seals_left => &[Mode::Seal, Mode::Double],
                    (true, None) => &[Mode::Double],
                    (true, Some(owner)) if owner == me => &[Mode::Repeat],
                    (true, Some(_)) => &[],
                };
                for &mode in modes {
                    if affordable(self.price(slot.card, mode))
                        && !visit(Action::Challenge {
                            target: slot.card,
                            mode,
                        })
                    {
                        return;
                    }
                }
            }
        }
    }

    /// Brings `memo` up to date with which adventures still on the table `hand` can pay for.
    fn refresh_payable(&self, hand: &Counts, taken: &[Option<Seat>], memo: &mut Affordable) {
        memo.refresh(
            hand,
            &self.adventure_readers,
            |i| taken[i].is_none(),
            |i| solve::exists(&self.adventures[i].condition, hand.as_slice(), &[]),
        );
    }

    /// Calls `visit` with each adventure still on the table that the player to move can pay
    /// for, until it returns `false`.
    fn each_adventure(
        &self,
        taken: &[Option<Seat>],
        payable: &Affordable,
        mut visit: impl FnMut(Action) -> bool,
    ) {
        for i in payable.each_met() {
            if taken.get(i) == Some(&None) && !visit(Action::Adventure(i as u8)) {
                return;
            }
        }
    }

    fn knights_left(state: &State) -> bool {
        !state.knight_supply.is_empty() || !state.knight_discard.is_empty()
    }

    /// Every legal action of the player to move, in a stable order.
    pub(crate) fn options(&self, state: &State, out: &mut Vec<Action>) {
        match state.phase {
            Phase::Replenish => {
                if self.can_replenish(state) {
                    out.extend([Action::Replenish, Action::Pass]);
                }
            }
            Phase::Challenge => {
                let player = state.player(state.current);
                let mut prices = state.memo.prices;
                prices.fit(&player.knights);
                self.each_challenge::<true>(
                    &state.columns,
                    state.current,
                    player,
                    &mut prices,
                    |a| {
                        out.push(a);
                        true
                    },
                );
                if !out.is_empty() {
                    out.push(Action::Pass);
                }
            }
            Phase::PayChallenge { target, mode } => {
                let hand = state.player(state.current).knights.as_slice();
                solve::payments(&self.challenge, hand, &[self.price(target, mode)], |p| {
                    out.push(Action::Pay(*p));
                    true
                });
            }
            Phase::Adventure => {
                let mut payable = *state.memo.adventures_of(state.current);
                let hand = &state.player(state.current).adversaries;
                self.refresh_payable(hand, &state.adventures, &mut payable);
                self.each_adventure(&state.adventures, &payable, |a| {
                    out.push(a);
                    true
                });
                if !out.is_empty() {
                    out.push(Action::Pass);
                }
            }
            Phase::PayAdventure { adventure } => {
                let hand = state.player(state.current).adversaries.as_slice();
                solve::payments(
                    &self.adventures[adventure as usize].condition,
                    hand,
                    &[],
                    |p| {
                        out.push(Action::Pay(*p));
                        true
                    },
                );
            }
            Phase::Draw => {
                if Self::knights_left(state) {
                    out.extend([Action::Draw, Action::Pass]);
                }
            }
            Phase::Over => {}
        }
    }

    /// Whether the player to move can challenge anything; keeps what it learnt about his
    /// knight hand for listing the moves.
    fn can_challenge(&self, state: &mut State) -> bool {
        // The memo is borrowed beside the table it describes.
        let State {
            players,
            current,
            columns,
            memo,
            ..
        } = state;
        let player = &players[usize::from(*current)];
        let prices = &mut memo.prices;
        prices.fit(&player.knights);
        let mut any = false;
        self.each_challenge::<false>(columns, *current, player, prices, |_| {
            any = true;
            false
        });
        any
    }

    /// Whether the player to move can pay for an adventure still on the table; keeps what
    /// it learnt about his adversary hand.
    fn can_take_adventure(&self, state: &mut State) -> bool {
        let State {
            players,
            current,
            adventures,
            memo,
            ..
        } = state;
        let player = &players[usize::from(*current)];
        let payable = memo.adventures_of_mut(*current);
        self.refresh_payable(&player.adversaries, adventures, payable);
        let mut any = false;
        self.each_adventure(adventures, payable, |_| {
            any = true;
            false
        });
        any
    }

    /// Moves past actions the player cannot take, so the player to move always has a real
    /// choice (or the game is over). One look at the phase per step: whether it offers
    /// anything, and if not, which comes next.
    pub(crate) fn advance(&self, state: &mut State, events: &mut impl EventSink<Event>) {
        loop {
            let (open, next) = match state.phase {
                Phase::Replenish => (self.can_replenish(state), Phase::Challenge),
                Phase::Challenge => (self.can_challenge(state), Phase::Adventure),
                Phase::Adventure => (self.can_take_adventure(state), Phase::Draw),
                Phase::Draw if Self::knights_left(state) => return,
                Phase::Draw => {
                    self.end_turn(state, events);
                    continue;
                }
                // A payment phase is only entered when a payment exists.
                Phase::PayChallenge { .. } | Phase::PayAdventure { .. } | Phase::Over => return,
            };
            if open {
                return;
            }
            state.phase = next;
        }
    }

    fn end_turn(&self, state: &mut State, events: &mut impl EventSink<Event>) {
        let seat = state.current;
        events.emit(|| Event::TurnEnded { seat });
        state.turn += 1;
        if state.last_turn {
            return self.finish(state, End::Adversaries, events);
        }
        if state.turn >= self.n.turn_limit {
            return self.finish(state, End::TurnLimit, events);
        }
        // The next seat round the table (a compare, not a division: this runs every turn).
        state.current += 1;
        if usize::from(state.current) == state.players.len() {
            state.current = 0;
        }
        state.challenged = false;
        state.adventured = false;
        state.phase = Phase::Replenish;
    }

    fn finish(&self, state: &mut State, end: End, events: &mut impl EventSink<Event>) {
        state.end = Some(end);
        state.phase = Phase::Over;
        events.emit(|| Event::GameOver { end });
    }

    /// Carries out a legal action.
    pub(crate) fn play(
        &self,
        state: &mut State,
        action: &Action,
        events: &mut impl EventSink<Event>,
    ) {
        let seat = state.current;
        // Matched by reference: a payment is the size of a hand, not worth copying per move.
        match (action, state.phase) {
            (Action::Replenish, _) => {
                self.reveal_adversaries(state, events);
                state.phase = Phase::Challenge;
            }
            (Action::Pass, phase) => {
                events.emit(|| Event::Passed { seat, phase });
                match phase {
                    Phase::Replenish => state.phase = Phase::Challenge,
                    Phase::Challenge => state.phase = Phase::Adventure,
                    Phase::Adventure => state.phase = Phase::Draw,
                    _ => self.end_turn(state, events),
                }
            }
            (&Action::Challenge { target, mode }, _) => {
                state.phase = Phase::PayChallenge { target, mode }
            }
            (Action::Pay(paid), Phase::PayChallenge { target, mode }) => {
                self.resolve_challenge(state, target, mode, paid, events);
                state.phase = Phase::Adventure;
            }
            (&Action::Adventure(adventure), _) => state.phase = Phase::PayAdventure { adventure },
            (Action::Pay(paid), Phase::PayAdventure { adventure }) => {
                for (t, &n) in paid.counts().iter().enumerate() {
                    state.me().adversaries.remove(t as Card, n);
                    state.adversaries_out.add(t as Card, n);
                }
                state.adventures[adventure as usize] = Some(seat);
                state.adventured = true;
                state.taken.push((adventure, state.turn, seat));
                events.emit(|| Event::TookAdventure {
                    seat,
                    adventure,
                    paid: *paid,
                });
                // "The game ends immediately when a player takes the second to last
                // adventure card": he does not draw.
                if state.adventures_left() <= self.n.end_when_adventures_left as usize {
                    return self.finish(state, End::Adventures, events);
                }
                state.phase = Phase::Draw;
            }
            (Action::Draw, _) => {
                let rested = !state.challenged && !state.adventured;
                let count = if rested {
                    self.n.rest_draw
                } else {
                    self.n.knight_draw
                };
                let mut drawn = 0;
                for _ in 0..count {
                    if self.draw_knight(state, events) {
                        drawn += 1;
                    }
                }
                events.emit(|| Event::DrewKnights { seat, count: drawn });
                self.end_turn(state, events);
            }
            (Action::Pay(_), _) => unreachable!("Pay is only legal while paying"),
        }
        self.advance(state, events);
    }

    /// Draws the top knight card into the current player's hand. "When the supply becomes
    /// exhausted, shuffle the discards, placing them face down as the new supply": the
    /// discards are shuffled in the moment the last card is drawn, and again by a draw that
    /// finds the supply empty (when the discard pile was empty at that moment).
    fn draw_knight(&self, state: &mut State, events: &mut impl EventSink<Event>) -> bool {
        Self::reshuffle_if_exhausted(state, events);
        let Some(card) = state.knight_supply.draw() else {
            return false;
        };
        state.me().knights.add(card, 1);
        Self::reshuffle_if_exhausted(state, events);
        true
    }

    fn reshuffle_if_exhausted(state: &mut State, events: &mut impl EventSink<Event>) {
        if state.knight_supply.is_empty() && !state.knight_discard.is_empty() {
            let State {
                rng,
                knight_supply,
                knight_discard,
                ..
            } = state;
            knight_supply.refill_from(knight_discard, rng);
            let cards = state.knight_supply.len() as u16;
            events.emit(|| Event::Reshuffled { cards });
        }
    }

    fn resolve_challenge(
        &self,
        state: &mut State,
        target: Card,
        mode: Mode,
        paid: &Payment,
        events: &mut impl EventSink<Event>,
    ) {
        let seat = state.current;
        for (t, &n) in paid.counts().iter().enumerate() {
            state.me().knights.remove(t as Card, n);
            for _ in 0..n {
                state.knight_discard.push(t as Card);
            }
        }
        events.emit(|| Event::Challenged {
            seat,
            target,
            mode,
            paid: *paid,
        });
        state.challenged = true;
        let column = self.column_of[target as usize] as usize;
        let wanted_seal = if mode == Mode::Repeat {
            Some(seat)
        } else {
            None
        };
        let Some(at) = state.columns[column]
            .iter()
            .position(|s| s.card == target && s.seal == wanted_seal)
        else {
            unreachable!("a legal challenge names a face-up adversary");
        };
        match mode {
            Mode::Seal => {
                state.columns[column][at].seal = Some(seat);
                state.me().seals -= 1;
                events.emit(|| Event::Sealed { seat, card: target });
            }
            Mode::Take | Mode::Double | Mode::Repeat => {
                state.columns[column].remove(at);
                state.me().adversaries.add(target, 1);
                if mode == Mode::Repeat {
                    state.me().seals += 1;
                }
                events.emit(|| Event::TookAdversary { seat, card: target });
            }
        }
        if self.seals() {
            self.defeat_sealed_columns(state, events);
        }
        // "When the adversary card supply is exhausted and a player takes the last
        // adversary card from the layout, he then completes his turn and the game ends."
        if state.adversary_supply.is_empty() && state.layout_is_empty() {
            state.last_turn = true;
        }
    }

    /// "When all cards in a column have seals on them, all players with seals on adversary
    /// cards in this column take both the seals and the cards." Checked after every action 2.
    fn defeat_sealed_columns(&self, state: &mut State, events: &mut impl EventSink<Event>) {
        for column in 0..state.columns.len() {
            let slots = &state.columns[column];
            if slots.is_empty() || slots.iter().any(|s| s.seal.is_none()) {
                continue;
            }
            let slots = std::mem::take(&mut state.columns[column]);
            let mut takers = Vec::new();
            for slot in slots {
                let owner = slot.seal.unwrap_or_default();
                let player = &mut state.players[owner as usize];
                player.adversaries.add(slot.card, 1);
                player.seals += 1;
                takers.push((owner, slot.card));
            }
            events.emit(|| Event::ColumnDefeated {
                column: column as u8,
                takers,
            });
        }
    }

    /// Why `action` is not legal now.
    pub(crate) fn explain(&self, state: &State, action: &Action) -> String {
        let phase_word = match state.phase {
            Phase::Replenish => "drawing adversaries (action 1)",
            Phase::Challenge => "challenging (action 2)",
            Phase::PayChallenge { .. } => "paying for the challenge",
            Phase::Adventure => "taking an adventure (action 3)",
            Phase::PayAdventure { .. } => "paying for the adventure",
            Phase::Draw => "drawing knight cards (action 4)",
            Phase::Over => "nothing: the game is over",
        };
        match (*action, state.phase) {
            (_, Phase::Over) => "the game is over".into(),
            (Action::Replenish, _) => {
                if state.adversary_supply.is_empty() {
                    "the adversary supply is empty".into()
                } else if !self.can_replenish(state) {
                    format!(
                        "adversaries may only be drawn while every column holds fewer than {} cards",
                        self.n.column_limit
                    )
                } else {
                    format!("drawing adversaries is action 1; now is the time for {phase_word}")
                }
            }
            (Action::Challenge { target, mode }, Phase::Challenge) => {
                self.explain_challenge(state, target, mode)
            }
            (Action::Adventure(a), Phase::Adventure) => {
                let adventure = &self.adventures[a as usize];
                match state.adventures[a as usize] {
                    Some(owner) => {
                        format!("{} was already taken by P{}", adventure.name, owner + 1)
                    }
                    None => format!(
                        "your adversaries cannot meet the condition of {}: `{}`",
                        adventure.name, adventure.source
                    ),
                }
            }
            (Action::Pay(paid), Phase::PayChallenge { target, mode }) => {
                let power = self.price(target, mode);
                let hand = state.player(state.current).knights.as_slice();
                if paid.counts().iter().zip(hand).any(|(p, h)| p > h) {
                    "you do not hold those knight cards".into()
                } else if let Some(why) = solve::failing_part(
                    &self.challenge,
                    &self.challenge_source,
                    paid.counts(),
                    &[power],
                ) {
                    format!(
                        "{} needs {}; {why}",
                        self.challenge_words(target, mode),
                        self.challenge_text
                    )
                } else {
                    let spare = superfluous(&self.challenge, &paid, &[power]);
                    format!(
                        "`{}` is superfluous: the payment meets {} without it (you may only \
                         overpay when no card could be left out)",
                        self.knights.ids[spare],
                        self.challenge_words(target, mode)
                    )
                }
            }
            (Action::Pay(paid), Phase::PayAdventure { adventure }) => {
                let adventure = &self.adventures[adventure as usize];
                let hand = state.player(state.current).adversaries.as_slice();
                if paid.counts().iter().zip(hand).any(|(p, h)| p > h) {
                    "you do not hold those adversary cards".into()
                } else if let Some(why) =
                    solve::failing_part(&adventure.condition, &adventure.source, paid.counts(), &[])
                {
                    format!(
                        "those cards do not meet the condition of {}: {why}",
                        adventure.name
                    )
                } else {
                    let spare = superfluous(&adventure.condition, &paid, &[]);
                    format!(
                        "`{}` is superfluous: the payment meets the condition of {} without it",
                        self.adversaries.ids[spare], adventure.name
                    )
                }
            }
            (Action::Draw, Phase::Draw) => "there are no knight cards left to draw".into(),
            (Action::Pass, Phase::PayChallenge { .. } | Phase::PayAdventure { .. }) => {
                "you have chosen; now choose how to pay".into()
            }
            _ => format!("now is the time for {phase_word}"),
        }
    }

    fn explain_challenge(&self, state: &State, target: Card, mode: Mode) -> String {
        let name = &self.adversaries.names[target as usize];
        let me = state.current;
        let wanted_seal = if mode == Mode::Repeat { Some(me) } else { None };
        let face_up = state
            .columns
            .iter()
            .flatten()
            .any(|s| s.card == target && s.seal == wanted_seal);
        let any_face_up = state.columns.iter().flatten().any(|s| s.card == target);
        match mode {
            _ if !any_face_up => format!("no {name} lies face up"),
            Mode::Take | Mode::Seal | Mode::Double if !face_up => {
                format!("every face-up {name} already carries a seal")
            }
            Mode::Repeat if !face_up => format!("no face-up {name} carries your seal"),
            Mode::Seal if state.player(me).seals == 0 => {
                "you have no seals left for a usual challenge".into()
            }
            Mode::Take if self.seals() => "with seals, challenge, double or repeat".into(),
            Mode::Seal | Mode::Repeat | Mode::Double if !self.seals() => {
                "seals are not used in the basic game".into()
            }
            _ => format!(
                "your knight cards cannot pay {}: it needs {}",
                self.challenge_words(target, mode),
                self.challenge_text
            ),
        }
    }

    /// "a challenge of power 3", "a double challenge of power 3 (strength 6)".
    fn challenge_words(&self, target: Card, mode: Mode) -> String {
        let power = self.power[target as usize];
        match mode {
            Mode::Double => format!(
                "a double challenge of power {power} (strength {})",
                self.price(target, mode)
            ),
            _ => format!("a challenge of power {power}"),
        }
    }
}

/// The first card type in a payment that meets `program` that could be left out.
fn superfluous(program: &grail_engine::cond::Program, paid: &Payment, args: &[i64]) -> usize {
    let mut counts = paid.counts().to_vec();
    for t in 0..counts.len() {
        if counts[t] > 0 {
            counts[t] -= 1;
            let still = program.test(&counts, args);
            counts[t] += 1;
            if still {
                return t;
            }
        }
    }
    0
}
