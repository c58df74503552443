//! Setup and the flow of a turn: who decides, what they may do, and the steps the rules
//! carry out between decisions (drawing, revealing, comparing, awarding shields).

use crate::cards::{deck, stack};
use grail_engine::bidding::Bidding;
use grail_engine::counts::Counts;
use grail_engine::game::{EventSink, Setup};
use grail_engine::ladder::Ladder;
use grail_engine::offer::{Offer, OfferKind};
use grail_engine::pile::Pile;
use grail_engine::rng::GameRng;
use grail_engine::sealed::Sealed;
use grail_engine::seat_set::SeatSet;
use grail_engine::seats::{Direction, parse_seat, round_from};

use super::state::{
    Action, Card, Decline, End, Event, Ledger, Phase, Player, Quest, Record, RecordKind, Seat,
    State, Tourney, empty_bidding, empty_offer,
};
use super::{Effect, Kind, Quests, Story, Targets, Who};

impl Quests {
    /// Deals, then plays on to the first decision: the first story card is turned over and
    /// carried out at once (an event may have everyone draw), and `ev` hears of it.
    pub(crate) fn deal(
        &self,
        setup: &Setup,
        ev: &mut impl EventSink<Event>,
    ) -> Result<State, String> {
        if !self.players.contains(&setup.players) {
            return Err(format!(
                "{} is played by {} to {} players, not {}",
                self.game,
                self.players.start(),
                self.players.end(),
                setup.players
            ));
        }
        let n = setup.players;
        let mut rng = GameRng::new(setup.seed);
        let mut adventure_deck = deck(&self.adventure.copies);
        let mut story_deck = deck(&self.story.copies);
        adventure_deck.shuffle(&mut rng);
        story_deck.shuffle(&mut rng);
        let mut players = vec![Player::new(); n];
        // Chosen hands first ("P1": cards dealt to P1, the rest of his hand at random)...
        for (pile, ids) in &setup.stack {
            let Some(seat) = parse_seat(pile, n) else {
                continue;
            };
            if ids.len() > usize::from(self.n.hand_size) {
                return Err(format!(
                    "{pile} is dealt {} cards, fewer than the {} asked for",
                    self.n.hand_size,
                    ids.len()
                ));
            }
            stack(&mut adventure_deck, ids, &self.adventure, "adventure")?;
            for _ in ids {
                if let Some(card) = adventure_deck.draw() {
                    players[seat].hand.add(card, 1);
                }
            }
        }
        // ...then the deal, one card at a time round the table from P1...
        for _ in 0..self.n.hand_size {
            for player in &mut players {
                if player.hand.total() < u32::from(self.n.hand_size) {
                    if let Some(card) = adventure_deck.draw() {
                        player.hand.add(card, 1);
                    }
                }
            }
        }
        // ...then the tops of the decks for the game's draws.
        for (pile, ids) in &setup.stack {
            match pile.as_str() {
                "adventure" => stack(&mut adventure_deck, ids, &self.adventure, "adventure")?,
                "story" => stack(&mut story_deck, ids, &self.story, "story")?,
                p if parse_seat(p, n).is_some() => {}
                other => {
                    return Err(format!(
                        "there is no pile `{other}` to stack; the piles are adventure, story and the hands P1 to P{n}"
                    ));
                }
            }
        }
        let mut state = State {
            rng,
            players,
            current: 0,
            next: 0,
            turn: 0,
            phase: Phase::TurnStart,
            adventure_discard: Pile::with_capacity(self.adventure.total()),
            adventure_deck,
            story_discard: Pile::with_capacity(self.story.total()),
            story_deck,
            story: None,
            offer: empty_offer(),
            quest: Quest::none(),
            sealed: Sealed::new(n),
            bidding: empty_bidding(),
            tourney: Tourney::none(),
            quest_bonus: 0,
            end: None,
            winners: SeatSet::EMPTY,
            log: Ledger::kept(),
            sit: Counts::EMPTY,
            limit_check: true,
            vals_bp: [0; 64],
            vals_bids: [0; 64],
        };
        self.revalue(&mut state);
        self.refresh(&mut state);
        self.advance(&mut state, ev);
        Ok(state)
    }

    /// The first player over the hand limit, clockwise from the player whose turn it is.
    pub(crate) fn over_limit(&self, s: &State) -> Option<Seat> {
        if !s.limit_check {
            return None;
        }
        round_from(usize::from(s.current), s.seats(), Direction::Clockwise)
            .map(|p| p as Seat)
            .find(|&p| s.player(p).hand.total() > self.n.hand_limit)
    }

    /// The first player owing an event discard, clockwise from the drawer.
    pub(crate) fn next_owing(&self, s: &State) -> Option<Seat> {
        round_from(usize::from(s.current), s.seats(), Direction::Clockwise)
            .map(|p| p as Seat)
            .find(|&p| s.player(p).owe > 0)
    }

    /// Who decides now.
    pub(crate) fn decider(&self, s: &State) -> Option<Seat> {
        self.decision(s).map(|(seat, _)| seat)
    }

    /// Who decides now, and whether it is to get down to the hand limit (one search of the
    /// hands for both).
    fn decision(&self, s: &State) -> Option<(Seat, bool)> {
        if s.phase == Phase::Over {
            return None;
        }
        if let Some(p) = self.over_limit(s) {
            return Some((p, true));
        }
        let seat = match s.phase {
            Phase::Sponsor | Phase::Join | Phase::Enter => s.offer.current(),
            Phase::Build => Some(usize::from(s.quest.sponsor)),
            Phase::Commit | Phase::Joust => s.sealed.current(),
            Phase::Bid => s.bidding.current(),
            Phase::PayBid { seat, .. } => Some(usize::from(seat)),
            Phase::EventDiscard { .. } => self.next_owing(s).map(usize::from),
            _ => None,
        };
        seat.map(|p| (p as Seat, false))
    }

    /// Whether `seat` takes part in what is going on: it is his turn, or he sponsors or
    /// rides in the quest, or entered the tournament (when Mordred may be played).
    fn engaged(&self, s: &State, seat: Seat) -> bool {
        let p = usize::from(seat);
        seat == s.current
            || match s.phase {
                Phase::Build
                | Phase::StageStart
                | Phase::Commit
                | Phase::StageReveal
                | Phase::Bid
                | Phase::PayBid { .. }
                | Phase::QuestEnd => seat == s.quest.sponsor || s.quest.questors.contains(p),
                Phase::Join => seat == s.quest.sponsor || s.offer.accepted().contains(p),
                Phase::Enter => s.offer.accepted().contains(p),
                Phase::Joust | Phase::JoustReveal => s.tourney.entrants.contains(p),
                _ => false,
            }
    }

    /// Card abilities `seat` may use at this decision: sacrificing a remover (Mordred) to
    /// remove an ally in play, and previewing a stage with an ally in play (Merlin).
    fn abilities(&self, s: &State, seat: Seat, out: &mut impl FnMut(Action)) {
        let me = s.player(seat);
        if !self.removers.is_empty() && self.engaged(s, seat) {
            for &(card, targets) in &self.removers {
                if !me.hand.contains(card) {
                    continue;
                }
                for (t, other) in s.players.iter().enumerate() {
                    if targets == Targets::Others && t == usize::from(seat) {
                        continue;
                    }
                    for (ally, _) in other.allies.iter() {
                        // The sponsor may not give up a card his set-up still needs.
                        if s.phase == Phase::Build
                            && seat == s.quest.sponsor
                            && !self.still_buildable(s, seat, card, t as Seat, ally)
                        {
                            continue;
                        }
                        out(Action::Remove {
                            card,
                            seat: t as Seat,
                            ally,
                        });
                    }
                }
            }
        }
        if s.phase == Phase::Commit && s.quest.questors.contains(usize::from(seat)) {
            for &(card, uses) in &self.previewers {
                if !me.allies.contains(card) || me.previews >= uses {
                    continue;
                }
                for stage in s.quest.stage..s.quest.stages {
                    let unseen =
                        !s.quest.is_revealed(usize::from(stage)) && me.seen & (1 << stage) == 0;
                    if unseen {
                        out(Action::Preview { card, stage });
                    }
                }
            }
        }
    }

    /// The cards `seat` may add to his face-down commitment: weapons (no more copies of a
    /// type than allowed), allies, and an Amour if he has none in play yet.
    fn commit_options(&self, s: &State, seat: Seat, out: &mut impl FnMut(Action)) {
        let me = s.player(seat);
        let committed = s.sealed.cards(usize::from(seat));
        let amours = me.amour.total() + self.count_kind(committed, Kind::Amour);
        for (t, _) in me.hand.iter() {
            let ok = match self.kind[usize::from(t)] {
                Kind::Weapon => committed.get(t) < self.n.weapon_copies,
                Kind::Ally => true,
                Kind::Amour => amours < u32::from(self.n.amours_per_quest),
                Kind::Foe | Kind::Test => false,
            };
            if ok {
                out(Action::Add(t));
            }
        }
        out(Action::Done);
    }

    pub(crate) fn count_kind(&self, cards: &Counts, kind: Kind) -> u32 {
        cards
            .iter_among(self.masks[kind as usize])
            .map(|(_, n)| u32::from(n))
            .sum()
    }

    /// The most a bidder can bid: cards in hand plus free bids.
    pub(crate) fn max_bid(&self, s: &State, seat: Seat) -> u32 {
        let free = self.free_bids(s, seat).max(0) as u32;
        s.player(seat).hand.total() + free
    }

    /// Every legal action of the player to move, in a stable order.
    pub(crate) fn options(&self, s: &State, out: &mut Vec<Action>) {
        self.each_option(s, &mut |a| out.push(a));
    }

    pub(crate) fn each_option(&self, s: &State, out: &mut impl FnMut(Action)) {
        let Some((seat, over_limit)) = self.decision(s) else {
            return;
        };
        let me = s.player(seat);
        if over_limit {
            for (t, _) in me.hand.iter() {
                if self.is(t, Kind::Ally) {
                    out(Action::Play(t));
                }
            }
            for (t, _) in me.hand.iter() {
                out(Action::Discard(t));
            }
            self.abilities(s, seat, out);
            return;
        }
        match s.phase {
            Phase::Sponsor => {
                if self.can_sponsor(s, seat) {
                    out(Action::Sponsor);
                }
                out(Action::Decline);
            }
            Phase::Build => self.build_options(s, out),
            Phase::Join => {
                out(Action::Join);
                out(Action::Decline);
            }
            Phase::Enter => {
                out(Action::Enter);
                out(Action::Decline);
            }
            Phase::Commit | Phase::Joust => self.commit_options(s, seat, out),
            Phase::Bid => self.bid_options(s, seat, out),
            Phase::PayBid { .. } => {
                for (t, _) in me.hand.iter() {
                    out(Action::Discard(t));
                }
            }
            Phase::EventDiscard { .. } => {
                for (t, _) in me.hand.iter() {
                    if self.kind[usize::from(t)] as u8 == me.owe_kind {
                        out(Action::Discard(t));
                    }
                }
            }
            _ => {}
        }
        self.abilities(s, seat, out);
    }

    /// The bidder's choices: a bid from the least allowed to the most he can offer, or
    /// dropping out; alone on the test, the minimum, which he must bid if he can ("the
    /// player bids the minimum bid indicated"), or else dropping out. Before either he may
    /// put cards into play whose free bids raise what he can offer (`test_plays`).
    fn bid_options(&self, s: &State, seat: Seat, out: &mut impl FnMut(Action)) {
        let min = s.bidding.min_bid();
        let max = self.max_bid(s, seat);
        let lone = s.quest.questors.len() == 1;
        let top = if lone { min.min(max) } else { max }.min(u32::from(u8::MAX));
        for bid in min..=top {
            out(Action::Bid(bid as u8));
        }
        if !lone || max < min {
            out(Action::Drop);
        }
        self.test_plays(s, seat, out);
    }

    /// The cards a bidder may put from hand into play at his turn to bid, as the pack reads
    /// "A player may play any number of Ally Cards at any time" (`allies_during_tests`) and
    /// the Amour's bids "when faced with a Test" (`amour_during_tests`).
    fn test_plays(&self, s: &State, seat: Seat, out: &mut impl FnMut(Action)) {
        let me = s.player(seat);
        if self.n.allies_during_tests {
            for (t, _) in me.hand.iter_among(self.masks[Kind::Ally as usize]) {
                out(Action::Play(t));
            }
        }
        if self.n.amour_during_tests && me.amour.total() < u32::from(self.n.amours_per_quest) {
            for (t, _) in me.hand.iter_among(self.masks[Kind::Amour as usize]) {
                out(Action::Play(t));
            }
        }
    }

    /// Whether the bidder to move has a choice besides the one step the rules would take
    /// for him: dropping out when he cannot reach the least bid, or, alone on the test,
    /// bidding the minimum when he can.
    fn bid_has_choice(&self, s: &State, seat: Seat) -> bool {
        let lone = s.quest.questors.len() == 1;
        if !lone && self.max_bid(s, seat) >= s.bidding.min_bid() {
            return true;
        }
        let mut plays = false;
        self.test_plays(s, seat, &mut |_| plays = true);
        plays || self.has_ability(s, seat)
    }

    /// Whether `seat` may use a card ability now (Mordred, Merlin).
    fn has_ability(&self, s: &State, seat: Seat) -> bool {
        let me = s.player(seat);
        if me.hand.held() & self.remover_mask == 0 && me.allies.held() & self.previewer_mask == 0 {
            return false;
        }
        let mut n = 0;
        self.abilities(s, seat, &mut |_| n += 1);
        n > 0
    }

    /// Whether the player to commit has anything to choose besides `done`.
    fn has_choice(&self, s: &State, seat: Seat) -> bool {
        let me = s.player(seat);
        let hand = me.hand.held();
        if hand & self.masks[Kind::Ally as usize] != 0 {
            return true;
        }
        let committed = s.sealed.cards(usize::from(seat));
        let weapons = me.hand.iter_among(self.masks[Kind::Weapon as usize]);
        if weapons
            .map(|(t, _)| t)
            .any(|t| committed.get(t) < self.n.weapon_copies)
        {
            return true;
        }
        if hand & self.masks[Kind::Amour as usize] != 0
            && me.amour.total() + self.count_kind(committed, Kind::Amour)
                < u32::from(self.n.amours_per_quest)
        {
            return true;
        }
        self.has_ability(s, seat)
    }

    /// Carries out a legal action, then the steps that follow it.
    pub(crate) fn play(&self, s: &mut State, action: &Action, ev: &mut impl EventSink<Event>) {
        let Some((seat, over_limit)) = self.decision(s) else {
            return;
        };
        match *action {
            Action::Remove {
                card,
                seat: t,
                ally,
            } => {
                s.player_mut(seat).hand.remove(card, 1);
                s.player_mut(t).allies.remove(ally, 1);
                s.adventure_discard.push(card);
                s.adventure_discard.push(ally);
                self.refresh_seat(s, t);
                ev.emit(|| Event::Removes {
                    seat,
                    card,
                    target: t,
                    ally,
                });
            }
            Action::Preview { card, stage } => {
                let p = s.player_mut(seat);
                p.previews += 1;
                p.seen |= 1 << stage;
                ev.emit(|| Event::Previews { seat, card, stage });
            }
            Action::Discard(card) => {
                s.player_mut(seat).hand.remove(card, 1);
                s.adventure_discard.push(card);
                ev.emit(|| Event::Discards { seat, card });
                if !over_limit {
                    match s.phase {
                        Phase::PayBid { seat, left } => {
                            s.phase = Phase::PayBid {
                                seat,
                                left: left.saturating_sub(1),
                            }
                        }
                        Phase::EventDiscard { .. } => {
                            let p = s.player_mut(seat);
                            p.owe = p.owe.saturating_sub(1);
                        }
                        _ => {}
                    }
                }
            }
            Action::Play(card) => {
                let amour = self.is(card, Kind::Amour);
                let p = s.player_mut(seat);
                p.hand.remove(card, 1);
                if amour {
                    p.amour.add(card, 1);
                } else {
                    p.allies.add(card, 1);
                }
                self.refresh_seat(s, seat);
                ev.emit(|| Event::PlaysAlly { seat, card });
            }
            Action::Sponsor => s.offer.answer(true),
            Action::Decline => {
                s.offer.answer(false);
                ev.emit(|| Event::Declines {
                    seat,
                    why: Decline::Chose,
                });
            }
            Action::Join => {
                s.offer.answer(true);
                ev.emit(|| Event::Joins { seat });
            }
            Action::Enter => {
                s.offer.answer(true);
                ev.emit(|| Event::Enters { seat });
            }
            Action::Add(card) => {
                s.player_mut(seat).hand.remove(card, 1);
                if s.phase == Phase::Build {
                    let i = usize::from(s.quest.stage);
                    s.quest.built[i].add(card, 1);
                    s.quest.used += 1;
                    self.refresh_stage(s, i);
                } else {
                    s.sealed.add(usize::from(seat), card);
                }
            }
            Action::Done => {
                if s.phase == Phase::Build {
                    let stage = s.quest.stage;
                    let cards = s.quest.built[usize::from(stage)].total() as u8;
                    ev.emit(|| Event::StageBuilt { stage, cards });
                    s.quest.stage += 1;
                    if s.quest.stage == s.quest.stages {
                        s.quest.stage = 0;
                        let sponsor = usize::from(s.quest.sponsor);
                        s.offer = Offer::new(
                            OfferKind::Poll,
                            usize::from(s.left_of(s.quest.sponsor)),
                            s.seats(),
                            SeatSet::all(s.seats()).without(sponsor),
                        );
                        s.phase = Phase::Join;
                    }
                } else {
                    let cards = s.sealed.cards(usize::from(seat)).total() as u8;
                    s.sealed.seal(usize::from(seat));
                    ev.emit(|| Event::Committed { seat, cards });
                }
            }
            Action::Bid(_) if s.quest.questors.len() == 1 => self.lone_bid(s, seat, ev),
            Action::Bid(bid) => {
                s.bidding.bid(u32::from(bid));
                ev.emit(|| Event::Bids { seat, bid });
            }
            Action::Drop => {
                s.bidding.drop_out();
                ev.emit(|| Event::Drops {
                    seat,
                    forced: false,
                });
            }
        }
        self.advance(s, ev);
    }

    /// Carries out the steps that need no decision, until someone must decide (a player
    /// over the hand limit first) or the game is over.
    pub(crate) fn advance(&self, s: &mut State, ev: &mut impl EventSink<Event>) {
        loop {
            if s.phase == Phase::Over {
                return;
            }
            if s.limit_check {
                if self.over_limit(s).is_some() {
                    return;
                }
                s.limit_check = false;
            }
            match s.phase {
                Phase::TurnStart => self.turn_start(s, ev),
                Phase::Sponsor => match s.offer.current() {
                    Some(p) if self.can_sponsor(s, p as Seat) => return,
                    // He cannot sponsor, but it is his turn and he may still play Mordred.
                    Some(p) if self.has_ability(s, p as Seat) => return,
                    Some(p) => {
                        s.offer.answer(false);
                        ev.emit(|| Event::Declines {
                            seat: p as Seat,
                            why: Decline::Cannot,
                        });
                    }
                    None => match s.offer.taker() {
                        Some(sponsor) => {
                            let sponsor = sponsor as Seat;
                            s.quest.sponsor = sponsor;
                            self.record(s, RecordKind::QuestSponsored, s.quest.card, Some(sponsor));
                            ev.emit(|| Event::Sponsors { seat: sponsor });
                            s.phase = Phase::Build;
                        }
                        None => {
                            ev.emit(|| Event::NoSponsor);
                            s.phase = Phase::TurnEnd;
                        }
                    },
                },
                Phase::Build => return,
                Phase::Join | Phase::Enter if s.offer.current().is_some() => return,
                Phase::Join => self.begin_quest(s, ev),
                Phase::StageStart => self.stage_start(s, ev),
                Phase::Commit | Phase::Joust => match s.sealed.current() {
                    Some(p) if self.has_choice(s, p as Seat) => return,
                    Some(p) => {
                        // Nothing left to choose: the commitment is complete as it stands.
                        let cards = s.sealed.cards(p).total() as u8;
                        s.sealed.seal(p);
                        ev.emit(|| Event::Committed {
                            seat: p as Seat,
                            cards,
                        });
                    }
                    None if s.phase == Phase::Commit => s.phase = Phase::StageReveal,
                    None => s.phase = Phase::JoustReveal,
                },
                Phase::StageReveal => self.stage_reveal(s, ev),
                Phase::Bid => match s.bidding.current() {
                    Some(p) if self.bid_has_choice(s, p as Seat) => return,
                    Some(p)
                        if s.quest.questors.len() == 1
                            && self.max_bid(s, p as Seat) >= s.bidding.min_bid() =>
                    {
                        self.lone_bid(s, p as Seat, ev)
                    }
                    Some(p) => {
                        s.bidding.drop_out();
                        ev.emit(|| Event::Drops {
                            seat: p as Seat,
                            forced: true,
                        });
                    }
                    None => self.bidding_over(s, ev),
                },
                Phase::PayBid { seat, left } => {
                    if left > 0 && !s.player(seat).hand.is_empty() {
                        return;
                    }
                    self.draw(s, seat, self.n.stage_draw, ev);
                    s.quest.stage += 1;
                    s.phase = Phase::StageStart;
                }
                Phase::QuestEnd => self.quest_end(s, ev),
                Phase::Enter => self.begin_tournament(s, ev),
                Phase::JoustReveal => self.joust_reveal(s, ev),
                Phase::Event { next } => self.event_step(s, next, ev),
                Phase::EventDiscard { effect } => match self.next_owing(s) {
                    Some(p) => {
                        let player = s.player_mut(p);
                        let kind = super::Kind::ALL[usize::from(player.owe_kind)];
                        if self.count_kind(&player.hand, kind) > 0 {
                            return;
                        }
                        // Nothing of that kind left (a foe went to Mordred's sacrifice).
                        player.owe = 0;
                    }
                    None => s.phase = Phase::Event { next: effect + 1 },
                },
                Phase::TurnEnd => self.turn_end(s, ev),
                Phase::Over => return,
            }
        }
    }

    fn record(&self, s: &mut State, kind: RecordKind, card: Card, seat: Option<Seat>) {
        s.log.push(Record {
            kind,
            card,
            turn: s.turn,
            seat,
        });
    }

    /// Draws `n` adventure cards for `seat`, shuffling the discards into a new deck when
    /// the deck runs out; with both empty the draw stops.
    pub(crate) fn draw(&self, s: &mut State, seat: Seat, n: u8, ev: &mut impl EventSink<Event>) {
        let drawn = self.take_cards(s, seat, n, ev);
        if n > 0 {
            ev.emit(|| Event::Drew { seat, cards: drawn });
        }
    }

    /// Draws `n` cards for `seat` without announcing it; returns how many there were.
    fn take_cards(&self, s: &mut State, seat: Seat, n: u8, ev: &mut impl EventSink<Event>) -> u8 {
        let mut drawn = 0;
        for _ in 0..n {
            if s.adventure_deck.is_empty() && !s.adventure_discard.is_empty() {
                let State {
                    rng,
                    adventure_deck,
                    adventure_discard,
                    ..
                } = s;
                adventure_deck.refill_from(adventure_discard, rng);
                let cards = s.adventure_deck.len() as u16;
                ev.emit(|| Event::AdventureReshuffled { cards });
            }
            match s.adventure_deck.draw() {
                Some(card) => {
                    s.player_mut(seat).hand.add(card, 1);
                    s.limit_check = true;
                    drawn += 1;
                }
                None => break,
            }
        }
        drawn
    }

    fn discard_all(s: &mut State, cards: &Counts) {
        for card in cards.cards() {
            s.adventure_discard.push(card);
        }
    }

    /// Shields for `seat` (negative: lost, never below zero on the rank card).
    pub(crate) fn shields(
        &self,
        s: &mut State,
        seat: Seat,
        change: i64,
        ev: &mut impl EventSink<Event>,
    ) {
        let p = s.player_mut(seat);
        let before = p.rank;
        let asked = change;
        let change = if change >= 0 {
            self.ladder.gain(
                &mut p.rank,
                &mut p.shields,
                change.min(i64::from(u32::MAX)) as u32,
            );
            change
        } else {
            let lost = Ladder::lose(
                &mut p.shields,
                change.unsigned_abs().min(u64::from(u32::MAX)) as u32,
            );
            -i64::from(lost)
        };
        let (rank, shields) = (p.rank, p.shields);
        if rank != before {
            self.refresh_seat(s, seat);
        }
        ev.emit(|| Event::Shields {
            seat,
            change,
            asked,
            rank,
            shields,
        });
        for r in before + 1..=rank {
            ev.emit(|| Event::RankUp { seat, rank: r });
        }
    }

    fn turn_start(&self, s: &mut State, ev: &mut impl EventSink<Event>) {
        s.next = s.left_of(s.current);
        if s.story_deck.is_empty() && !s.story_discard.is_empty() {
            let State {
                rng,
                story_deck,
                story_discard,
                ..
            } = s;
            story_deck.refill_from(story_discard, rng);
            let cards = s.story_deck.len() as u16;
            ev.emit(|| Event::StoryReshuffled { cards });
        }
        let Some(card) = s.story_deck.draw() else {
            s.phase = Phase::TurnEnd;
            return;
        };
        s.story = Some(card);
        self.refresh_story(s);
        let seat = s.current;
        ev.emit(|| Event::StoryDrawn { seat, card });
        let n = s.seats();
        match &self.stories[usize::from(card)] {
            Story::Quest { stages } => {
                self.record(s, RecordKind::QuestDrawn, card, None);
                s.quest = Quest {
                    card,
                    stages: *stages,
                    ..Quest::none()
                };
                for p in &mut s.players {
                    p.previews = 0;
                    p.seen = 0;
                }
                s.offer = Offer::new(OfferKind::FirstTaker, usize::from(seat), n, SeatSet::all(n));
                s.phase = Phase::Sponsor;
            }
            Story::Tournament { .. } => {
                s.tourney = Tourney {
                    card: Some(card),
                    ..Tourney::none()
                };
                s.offer = Offer::new(OfferKind::Poll, usize::from(seat), n, SeatSet::all(n));
                s.phase = Phase::Enter;
            }
            Story::Event { .. } => {
                self.record(s, RecordKind::Event, card, Some(seat));
                s.phase = Phase::Event { next: 0 };
            }
        }
    }

    /// Joining is over: the questors each draw their card, and the first stage begins.
    fn begin_quest(&self, s: &mut State, ev: &mut impl EventSink<Event>) {
        let questors = s.offer.accepted();
        s.quest.questors = questors;
        s.quest.stage = 0;
        if questors.is_empty() {
            ev.emit(|| Event::NoQuestors);
            s.phase = Phase::QuestEnd;
            return;
        }
        let first = usize::from(s.left_of(s.quest.sponsor));
        for p in questors.from_seat(first, s.seats()) {
            self.draw(s, p as Seat, self.n.quest_draw, ev);
        }
        s.phase = Phase::StageStart;
    }

    fn stage_start(&self, s: &mut State, ev: &mut impl EventSink<Event>) {
        if s.quest.questors.is_empty() || s.quest.stage >= s.quest.stages {
            s.phase = Phase::QuestEnd;
            return;
        }
        let stage = s.quest.stage;
        let i = usize::from(stage);
        let first = usize::from(s.left_of(s.quest.sponsor));
        let Some(test) = self.test_of(&s.quest.built[i]) else {
            ev.emit(|| Event::FoeStage { stage });
            s.sealed.start(first, s.quest.questors);
            s.phase = Phase::Commit;
            return;
        };
        // "He immediately turns the Test Card face up."
        s.quest.revealed |= 1 << i;
        let printed = self.printed_min_bid(s, test).clamp(0, i64::from(u8::MAX)) as u8;
        ev.emit(|| Event::TestStage {
            stage,
            test,
            min_bid: printed,
        });
        let opening = if s.quest.questors.len() > 1 {
            printed.max(self.n.opening_min_bid)
        } else if printed > 0 {
            // The lone questor "bids the minimum bid indicated on the Test Card", or 3.
            printed
        } else {
            self.n.lone_min_bid
        };
        s.bidding = Bidding::new(
            first,
            s.quest.questors,
            s.seats(),
            u32::from(opening),
            self.n.test_bidding,
        );
        s.phase = Phase::Bid;
    }

    /// The foe stage and the questors' cards are turned over and compared.
    fn stage_reveal(&self, s: &mut State, ev: &mut impl EventSink<Event>) {
        let stage = s.quest.stage;
        let i = usize::from(stage);
        s.quest.revealed |= 1 << i;
        s.sealed.reveal();
        let bp = self.stage_bp(s, i);
        let cards = s.quest.built[i];
        ev.emit(|| Event::StageRevealed { stage, cards, bp });
        let first = usize::from(s.left_of(s.quest.sponsor));
        let questors = s.quest.questors;
        // Allies and Amours played join the table before anyone is counted (Sir Tristan
        // beside a Queen Iseult played in the same stage counts her).
        for p in questors.from_seat(first, s.seats()) {
            let cards = *s.sealed.cards(p);
            if !cards.is_empty() {
                ev.emit(|| Event::Reveals {
                    seat: p as Seat,
                    cards,
                });
            }
            self.put_into_play(s, p as Seat);
        }
        self.refresh(s);
        let mut survivors = SeatSet::EMPTY;
        for p in questors.from_seat(first, s.seats()) {
            let weapons = *s.sealed.cards(p);
            let strength = self.strength(s, p as Seat, &weapons);
            let passed = strength >= bp;
            if passed {
                survivors.insert(p);
            }
            ev.emit(|| Event::Fought {
                seat: p as Seat,
                bp: strength,
                passed,
            });
        }
        // "After each Quest stage, players must discard all Weapon Cards used."
        for p in questors.iter() {
            let weapons = s.sealed.take(p);
            Self::discard_all(s, &weapons);
        }
        s.sealed.clear();
        s.quest.questors = survivors;
        for p in survivors.from_seat(first, s.seats()) {
            self.draw(s, p as Seat, self.n.stage_draw, ev);
        }
        s.quest.stage += 1;
        s.phase = Phase::StageStart;
    }

    /// Moves the allies and Amours of `seat`'s revealed commitment into play, leaving the
    /// weapons in the commitment.
    fn put_into_play(&self, s: &mut State, seat: Seat) {
        let p = usize::from(seat);
        let mut weapons = *s.sealed.cards(p);
        let mut reveal = Counts::EMPTY;
        for (t, n) in s.sealed.cards(p).iter() {
            match self.kind[usize::from(t)] {
                Kind::Ally | Kind::Amour => {
                    weapons.remove(t, n);
                    reveal.add(t, n);
                }
                _ => {}
            }
        }
        s.sealed.set_cards(p, weapons);
        let player = s.player_mut(seat);
        for (t, n) in reveal.iter() {
            if self.is(t, Kind::Ally) {
                player.allies.add(t, n);
            } else {
                player.amour.add(t, n);
            }
        }
    }

    /// The lone questor bids the minimum and goes on to pay it.
    fn lone_bid(&self, s: &mut State, seat: Seat, ev: &mut impl EventSink<Event>) {
        let need = s.bidding.min_bid().min(u32::from(u8::MAX)) as u8;
        let free = self.free_bids(s, seat).clamp(0, i64::from(u8::MAX)) as u8;
        ev.emit(|| Event::LoneBid {
            seat,
            bid: need,
            free,
        });
        s.phase = Phase::PayBid {
            seat,
            left: need.saturating_sub(free),
        };
    }

    fn bidding_over(&self, s: &mut State, ev: &mut impl EventSink<Event>) {
        match s.bidding.winner() {
            Some((w, bid)) => {
                let seat = w as Seat;
                let free = self.free_bids(s, seat).clamp(0, i64::from(u8::MAX)) as u8;
                let bid = bid.min(u32::from(u8::MAX)) as u8;
                ev.emit(|| Event::PassesTest { seat, bid, free });
                s.quest.questors = SeatSet::only(w);
                s.phase = Phase::PayBid {
                    seat,
                    left: bid.saturating_sub(free),
                };
            }
            None => {
                s.quest.questors = SeatSet::EMPTY;
                s.phase = Phase::QuestEnd;
            }
        }
    }

    fn quest_end(&self, s: &mut State, ev: &mut impl EventSink<Event>) {
        let q = s.quest;
        if !q.questors.is_empty() && q.stage >= q.stages {
            let shields = i64::from(q.stages) * i64::from(self.n.shields_per_stage)
                + i64::from(s.quest_bonus);
            let first = usize::from(s.left_of(q.sponsor));
            for p in q.questors.from_seat(first, s.seats()) {
                self.shields(s, p as Seat, shields, ev);
            }
            if s.quest_bonus > 0 {
                s.quest_bonus = 0;
            }
            self.record(s, RecordKind::QuestCompleted, q.card, None);
            ev.emit(|| Event::QuestCompleted {
                questors: q.questors,
            });
        } else {
            ev.emit(|| Event::QuestFailed);
        }
        // The stages and the Amours go to the discard pile.
        for i in 0..usize::from(q.stages) {
            let cards = s.quest.built[i];
            Self::discard_all(s, &cards);
            s.quest.built[i].clear();
        }
        s.quest.revealed = u8::MAX;
        for p in 0..s.seats() {
            let amour = std::mem::take(&mut s.players[p].amour);
            Self::discard_all(s, &amour);
        }
        s.quest.questors = SeatSet::EMPTY;
        self.refresh(s);
        let cards = q
            .used
            .saturating_add(q.stages.saturating_mul(self.n.sponsor_draw_per_stage));
        let cards = self.take_cards(s, q.sponsor, cards, ev);
        ev.emit(|| Event::SponsorDraws {
            seat: q.sponsor,
            cards,
        });
        if self.n.next_after_sponsor {
            s.next = s.left_of(q.sponsor);
        }
        s.phase = Phase::TurnEnd;
    }

    fn begin_tournament(&self, s: &mut State, ev: &mut impl EventSink<Event>) {
        let entrants = s.offer.accepted();
        if entrants.len() < usize::from(self.n.tournament_min_entrants) {
            let n = entrants.len() as u8;
            ev.emit(|| Event::NotHeld { entrants: n });
            s.tourney = Tourney::none();
            s.phase = Phase::TurnEnd;
            return;
        }
        if let Some(card) = s.tourney.card {
            self.record(s, RecordKind::TournamentHeld, card, None);
        }
        s.tourney.entrants = entrants;
        s.tourney.contenders = entrants;
        self.start_joust(s, ev);
    }

    /// The contenders draw (only before the first round) and commit.
    fn start_joust(&self, s: &mut State, ev: &mut impl EventSink<Event>) {
        let first = usize::from(s.current);
        if s.tourney.round == 0 {
            for p in s.tourney.contenders.from_seat(first, s.seats()) {
                self.draw(s, p as Seat, self.n.tournament_draw, ev);
            }
        }
        s.sealed.start(first, s.tourney.contenders);
        s.phase = Phase::Joust;
    }

    fn joust_reveal(&self, s: &mut State, ev: &mut impl EventSink<Event>) {
        s.sealed.reveal();
        let first = usize::from(s.current);
        let contenders = s.tourney.contenders;
        for p in contenders.from_seat(first, s.seats()) {
            let cards = *s.sealed.cards(p);
            if !cards.is_empty() {
                ev.emit(|| Event::Reveals {
                    seat: p as Seat,
                    cards,
                });
            }
            self.put_into_play(s, p as Seat);
        }
        self.refresh(s);
        let mut best = i64::MIN;
        for p in contenders.iter() {
            let weapons = *s.sealed.cards(p);
            best = best.max(self.strength(s, p as Seat, &weapons));
        }
        let mut tied = SeatSet::EMPTY;
        for p in contenders.from_seat(first, s.seats()) {
            let weapons = *s.sealed.cards(p);
            let bp = self.strength(s, p as Seat, &weapons);
            if bp == best {
                tied.insert(p);
            }
            ev.emit(|| Event::Jousts {
                seat: p as Seat,
                bp,
            });
        }
        // "The players in a tie discard the Weapon Cards just played"; everyone else is done.
        for p in contenders.iter() {
            let weapons = s.sealed.take(p);
            Self::discard_all(s, &weapons);
        }
        s.sealed.clear();
        if s.tourney.last {
            ev.emit(|| Event::TournamentWon { seats: tied });
            return self.finish(s, End::Final, tied, ev);
        }
        let entrants = s.tourney.entrants.len() as i64;
        let per_entrant = i64::from(self.n.shields_per_entrant);
        let card = s.tourney.card.unwrap_or_default();
        if tied.len() == 1 {
            let bonus = match &self.stories[usize::from(card)] {
                Story::Tournament { bonus } => i64::from(*bonus),
                _ => 0,
            };
            let w = tied.iter().next().unwrap_or_default() as Seat;
            ev.emit(|| Event::TournamentWon { seats: tied });
            self.shields(s, w, entrants * per_entrant + bonus, ev);
            self.record(s, RecordKind::TournamentWon, card, Some(w));
        } else if s.tourney.round < self.n.tiebreak_rounds {
            ev.emit(|| Event::Tie { seats: tied });
            s.tourney.round += 1;
            s.tourney.contenders = tied;
            return self.start_joust(s, ev);
        } else {
            // "All players in the second round receive as many Shields as the number of
            // players who originally entered."
            ev.emit(|| Event::TournamentWon { seats: tied });
            for p in tied.from_seat(first, s.seats()) {
                self.shields(s, p as Seat, entrants * per_entrant, ev);
                self.record(s, RecordKind::TournamentWon, card, Some(p as Seat));
            }
        }
        for p in s.tourney.entrants.iter() {
            let amour = std::mem::take(&mut s.players[p].amour);
            Self::discard_all(s, &amour);
        }
        self.refresh(s);
        s.tourney = Tourney::none();
        s.phase = Phase::TurnEnd;
    }

    /// The seats an event's `who` names.
    pub(crate) fn who(&self, s: &State, who: Who) -> SeatSet {
        let all = SeatSet::all(s.seats());
        let ranks = || s.players.iter().map(|p| p.rank);
        let with_rank =
            |r: u8| -> SeatSet { all.iter().filter(|&p| s.players[p].rank == r).collect() };
        match who {
            Who::Drawer => SeatSet::only(usize::from(s.current)),
            Who::Others => all.without(usize::from(s.current)),
            Who::All => all,
            Who::LowestRank => with_rank(ranks().min().unwrap_or(0)),
            Who::HighestRank => with_rank(ranks().max().unwrap_or(0)),
            Who::LowestRankFewestShields => {
                let low = with_rank(ranks().min().unwrap_or(0));
                let fewest = low.iter().map(|p| s.players[p].shields).min().unwrap_or(0);
                low.iter()
                    .filter(|&p| s.players[p].shields == fewest)
                    .collect()
            }
        }
    }

    fn event_step(&self, s: &mut State, next: u8, ev: &mut impl EventSink<Event>) {
        let Some(Story::Event { effects }) = s.story.map(|c| &self.stories[usize::from(c)]) else {
            s.phase = Phase::TurnEnd;
            return;
        };
        let Some(effect) = effects.get(usize::from(next)) else {
            s.phase = Phase::TurnEnd;
            return;
        };
        s.phase = Phase::Event { next: next + 1 };
        let first = usize::from(s.current);
        let n = s.seats();
        match effect {
            Effect::QuestBonus { shields } => {
                s.quest_bonus = s.quest_bonus.saturating_add(*shields);
                let total = s.quest_bonus;
                ev.emit(|| Event::QuestBonus { shields: total });
            }
            Effect::Draw { who, cards } => {
                for p in self.who(s, *who).from_seat(first, n) {
                    self.draw(s, p as Seat, *cards, ev);
                }
            }
            Effect::DiscardAllies { who } => {
                for p in self.who(s, *who).from_seat(first, n) {
                    let allies = std::mem::take(&mut s.players[p].allies);
                    Self::discard_all(s, &allies);
                    self.refresh_seat(s, p as Seat);
                    if !allies.is_empty() {
                        ev.emit(|| Event::AlliesDiscarded {
                            seat: p as Seat,
                            cards: allies,
                        });
                    }
                }
            }
            Effect::Shields { who, shields } => {
                for p in self.who(s, *who).from_seat(first, n) {
                    self.shields(s, p as Seat, *shields, ev);
                }
            }
            Effect::Discard { who, choices } => {
                let mut owing = false;
                for p in self.who(s, *who).from_seat(first, n) {
                    let hand = s.players[p].hand;
                    let choice = choices
                        .iter()
                        .find(|(kind, _)| self.count_kind(&hand, *kind) > 0);
                    if let Some(&(kind, cards)) = choice {
                        let held = self.count_kind(&hand, kind);
                        let player = &mut s.players[p];
                        player.owe_kind = kind as u8;
                        player.owe = held.min(u32::from(cards)) as u8;
                        owing = true;
                    }
                }
                if owing {
                    s.phase = Phase::EventDiscard { effect: next };
                }
            }
        }
    }

    fn turn_end(&self, s: &mut State, ev: &mut impl EventSink<Event>) {
        if let Some(card) = s.story.take() {
            s.story_discard.push(card);
            self.refresh_story(s);
        }
        let seat = s.current;
        ev.emit(|| Event::TurnEnded { seat });
        s.turn += 1;
        let top = self.ladder.ranks() as u8;
        let knights: SeatSet = (0..s.seats())
            .filter(|&p| s.players[p].rank >= top)
            .collect();
        match knights.len() {
            0 if s.turn >= self.n.turn_limit => self.finish(s, End::TurnLimit, knights, ev),
            0 => {
                s.current = s.next;
                s.phase = Phase::TurnStart;
            }
            1 => self.finish(s, End::Knight, knights, ev),
            _ if self.n.final_tournament => {
                // "All players who have just become Knights of the Round Table must
                // participate in a final Tournament."
                s.tourney = Tourney {
                    card: None,
                    entrants: knights,
                    contenders: knights,
                    round: 0,
                    last: true,
                };
                ev.emit(|| Event::FinalTournament { seats: knights });
                self.start_joust(s, ev);
            }
            _ => self.finish(s, End::Final, knights, ev),
        }
    }

    fn finish(&self, s: &mut State, end: End, winners: SeatSet, ev: &mut impl EventSink<Event>) {
        s.end = Some(end);
        s.winners = winners;
        s.phase = Phase::Over;
        ev.emit(|| Event::GameOver { end, winners });
    }
}
