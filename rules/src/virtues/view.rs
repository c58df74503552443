//! What a player sees: the determinised observation for bots, the table for the terminal,
//! answers to script questions, and the event log in words.
//!
//! Hidden: the order of every deck, other knights' virtue and treasure hands (apart from the
//! Crown, whose holder is king, cards promised in a feast's spoken offers, and cards shown in
//! a match or presentation), and the treasures of a shared reward to knights not sharing it.
//! Public: the quests in play and who is on them, honor and dishonor, the discards, shown
//! and offered cards, prizes.

use std::fmt::Write as _;

use grail_engine::counts::Counts;
use grail_engine::exchange::Item;
use grail_engine::pile::Pile;
use grail_engine::rng::GameRng;
use grail_engine::showdown::Loss;

use super::Virtues;
use super::notation::card_list;
use super::state::{
    Card, End, Event, MAX_PLAYERS, Seat, Stage, State, Step, TREASURE_SET, VIRTUE_SET, has,
};
use crate::wording::Count;

impl Virtues {
    /// Cards of other seats everyone knows about, per seat: (virtues, treasures).
    fn known(&self, state: &State) -> [(Counts, Counts); MAX_PLAYERS] {
        let mut known = [(Counts::EMPTY, Counts::EMPTY); MAX_PLAYERS];
        let add = |known: &mut [(Counts, Counts); MAX_PLAYERS], seat: u8, item: Item| {
            let k = &mut known[usize::from(seat)];
            if item.set == VIRTUE_SET {
                k.0.add(item.card, 1);
            } else if item.set == TREASURE_SET {
                k.1.add(item.card, 1);
            }
        };
        for (s, p) in state.players.iter().enumerate() {
            if p.treasures.contains(self.crown) {
                known[s].1.add(self.crown, 1);
            }
        }
        match &state.stage {
            Stage::Feast(x) => {
                for o in x.offers() {
                    if let Some(g) = o.give {
                        add(&mut known, o.from, g);
                    }
                    if let (true, Some(a)) = (o.accepted, o.ask) {
                        add(&mut known, o.to, a);
                    }
                }
            }
            Stage::Prizes { contest, .. } | Stage::Contest(contest) => {
                for (side, &seat) in contest.showdown.seats.iter().enumerate() {
                    known[usize::from(seat)]
                        .0
                        .add_all(&contest.showdown.shown[side]);
                }
                for (s, prize) in contest.prizes.iter().enumerate() {
                    if let Some(t) = prize {
                        known[s].1.add(*t, 1);
                    }
                }
            }
            _ => {}
        }
        if let Some(res) = &state.res {
            match &res.step {
                Step::Paying { joint, .. } => {
                    for (seat, part) in joint.parts() {
                        known[usize::from(*seat)].0.add_all(part);
                    }
                }
                Step::Dispute { showdown, .. } => {
                    for (side, &seat) in showdown.seats.iter().enumerate() {
                        // Shown cards may be spent quest virtues rather than hand cards.
                        let mut shown = showdown.shown[side];
                        let spent = &res.spent[usize::from(seat)];
                        for (t, n) in spent.iter() {
                            shown.remove(t, n.min(shown.get(t)));
                        }
                        known[usize::from(seat)].0.add_all(&shown);
                    }
                }
                _ => {}
            }
        }
        // Never more than is held.
        for (s, p) in state.players.iter().enumerate() {
            known[s].0 = min_counts(&known[s].0, &p.virtues);
            known[s].1 = min_counts(&known[s].1, &p.treasures);
        }
        known
    }

    /// Every place a card can be (see [`Rules::zones`](grail_engine::game::Rules::zones)).
    /// A hand is two zones: the cards everyone knows it holds, and the rest.
    pub(crate) fn zones_of(&self, s: &State) -> Vec<(String, Vec<String>)> {
        let (v, t) = (&self.virtues, &self.treasures);
        let (q, tr) = (&self.quest_cards, &self.trial_cards);
        let mut zones = vec![
            v.zone("virtue deck", s.virtue_deck.top_down()),
            v.zone("virtue discard", s.virtue_discard.top_down()),
            t.zone("treasure deck", s.treasure_deck.top_down()),
            q.zone("quest deck", s.quest_deck.top_down()),
            q.zone("quests done", s.quests_done.cards()),
            q.zone("quests in play", s.layout.iter().map(|slot| slot.quest)),
            tr.zone("trial deck", s.trial_deck.top_down()),
            tr.zone("trial discard", s.trial_discard.top_down()),
        ];
        let known = self.known(s);
        for (p, player) in s.players.iter().enumerate() {
            let (known_virtues, known_treasures) = known[p];
            let mut virtues = player.virtues;
            subtract(&mut virtues, &known_virtues);
            let mut treasures = player.treasures;
            subtract(&mut treasures, &known_treasures);
            zones.push(v.zone(format!("P{} known virtues", p + 1), known_virtues.cards()));
            zones.push(v.zone(format!("P{} virtues", p + 1), virtues.cards()));
            zones.push(t.zone(
                format!("P{} known treasures", p + 1),
                known_treasures.cards(),
            ));
            zones.push(t.zone(format!("P{} treasures", p + 1), treasures.cards()));
        }
        if let Stage::Feast(x) = &s.stage {
            // What a feast's offers ask for is spoken aloud: a wish, not a card shown.
            let asks = x.offers().iter().filter_map(|o| o.ask);
            let ids = asks.map(|item| self.item_id(item).to_string()).collect();
            zones.push(("feast asks".into(), ids));
        }
        if let Some(res) = &s.res {
            for (p, spent) in res.spent.iter().enumerate().take(s.players.len()) {
                zones.push(v.zone(format!("P{} presented", p + 1), spent.cards()));
            }
            zones.push(t.zone("reward", res.pool.cards()));
            // The trial drawn lies face up; what a presentation still asks of the partners
            // is said aloud.
            match &res.step {
                Step::Trial { trial }
                | Step::Paying {
                    trial: Some(trial), ..
                } => {
                    zones.push(tr.zone("trial", [*trial]));
                }
                _ => {}
            }
            if let Step::Paying { joint, .. } = &res.step {
                zones.push(v.zone("asked of the partners", joint.missing().cards()));
            }
        }
        zones
    }

    pub(crate) fn determinise(&self, state: &State, me: Seat, rng: &mut GameRng) -> State {
        let mut view = state.clone();
        view.rng = rng.fork();
        let known = self.known(state);
        let sees_pool = state.res.as_ref().is_some_and(|r| has(r.knights, me));

        // Virtues: the deck and the unknown part of other hands, pooled canonically.
        let mut unseen: Vec<Card> = view.virtue_deck.as_slice().to_vec();
        for (s, p) in view.players.iter().enumerate() {
            if s != usize::from(me) {
                let mut hidden = p.virtues;
                subtract(&mut hidden, &known[s].0);
                unseen.extend(hidden.cards());
            }
        }
        unseen.sort_unstable();
        view.rng.shuffle(&mut unseen);
        for (s, p) in view.players.iter_mut().enumerate() {
            if s != usize::from(me) {
                let hidden = p.virtues.total() - known[s].0.total();
                let mut hand = known[s].0;
                for t in unseen.drain(unseen.len() - hidden as usize..) {
                    hand.add(t, 1);
                }
                p.virtues = hand;
            }
        }
        view.virtue_deck = Pile::from_bottom_up(&unseen, state.virtue_deck.as_slice().len());

        // Treasures likewise, and the shared reward's treasures for those not sharing it.
        let mut unseen: Vec<Card> = view.treasure_deck.as_slice().to_vec();
        for (s, p) in view.players.iter().enumerate() {
            if s != usize::from(me) {
                let mut hidden = p.treasures;
                subtract(&mut hidden, &known[s].1);
                unseen.extend(hidden.cards());
            }
        }
        if !sees_pool && let Some(res) = &view.res {
            unseen.extend(res.pool.cards());
        }
        unseen.sort_unstable();
        view.rng.shuffle(&mut unseen);
        for (s, p) in view.players.iter_mut().enumerate() {
            if s != usize::from(me) {
                let hidden = p.treasures.total() - known[s].1.total();
                let mut hand = known[s].1;
                for t in unseen.drain(unseen.len() - hidden as usize..) {
                    hand.add(t, 1);
                }
                p.treasures = hand;
            }
        }
        if !sees_pool && let Some(res) = &mut view.res {
            let n = res.pool.total() as usize;
            res.pool = unseen.drain(unseen.len() - n..).collect();
        }
        view.treasure_deck = Pile::from_bottom_up(&unseen, unseen.len());

        for pile in [&mut view.quest_deck, &mut view.trial_deck] {
            let mut cards = pile.as_slice().to_vec();
            cards.sort_unstable();
            view.rng.shuffle(&mut cards);
            *pile = Pile::from_bottom_up(&cards, cards.len());
        }
        view
    }

    pub(crate) fn stage_text(&self, state: &State) -> String {
        if let Some(end) = state.end {
            return format!("game over: {}", self.end_text(end));
        }
        if let Some(seat) = self.discarder(state) {
            return format!(
                "P{} discards {}",
                seat + 1,
                Count(state.discards[usize::from(seat)].into(), "virtue card")
            );
        }
        if let Some(res) = &state.res {
            let quest = &self.quest_cards.names[usize::from(res.quest)];
            return match &res.step {
                Step::Drawing => format!("{quest}: drawing trials"),
                Step::Paying { joint, .. } => format!(
                    "{quest}: P{} asks for {}",
                    res.presenter + 1,
                    self.virtue_list(joint.missing())
                ),
                Step::Trial { trial } => {
                    let t = &self.trials[usize::from(*trial)];
                    format!(
                        "{quest}: trial {} ({})",
                        self.trial_cards.names[usize::from(*trial)],
                        t.text
                    )
                }
                // Only the knights on the quest see which treasures the reward holds, and this
                // line is public: it names the next item's kind, not the treasure.
                Step::Split(p) => match p.next_item() {
                    Some(i) => format!(
                        "{quest}: P{} shares out the reward; next item: {}",
                        p.proposer() + 1,
                        match self.pool_item(res, i) {
                            Some(_) => "a treasure".to_string(),
                            None => format!("one {} card", self.honor.honor_name),
                        }
                    ),
                    None => format!("{quest}: agree to the split?"),
                },
                Step::Dispute {
                    showdown, champion, ..
                } => format!(
                    "{quest}: the split is jousted for: P{} against P{} (holding the claim: P{})",
                    showdown.seats[0] + 1,
                    showdown.seats[1] + 1,
                    champion + 1
                ),
            };
        }
        match &state.stage {
            Stage::Start { .. } => "on a quest: present, give up or stay".into(),
            Stage::Act => "choose an action".into(),
            Stage::Prizes { contest, .. } => format!(
                "joust prizes (P{} has challenged P{}): {} a treasure for the winner, or pass",
                contest.showdown.seats[0] + 1,
                contest.showdown.seats[1] + 1,
                if self.n.joust_prize_from_deck {
                    "draw"
                } else {
                    "put up"
                }
            ),
            Stage::Contest(c) => format!(
                "{} ({} count): P{} against P{}{}",
                if c.duel { "duel" } else { "joust" },
                if c.duel {
                    &self.duel_text
                } else {
                    &self.joust_text
                },
                c.showdown.seats[0] + 1,
                c.showdown.seats[1] + 1,
                match c.showdown.opened() {
                    Some(t) => format!(", answer {}", self.virtues.ids[usize::from(t)]),
                    None => String::new(),
                }
            ),
            Stage::Feast(_) => "feast".into(),
            Stage::Window { .. } => "knights on quests may present".into(),
            Stage::Bestow => "the king bestows".into(),
            Stage::Expire { .. } => "expire a quest".into(),
            Stage::TurnOver => "the turn ends".into(),
            Stage::Draw => "a quest is drawn".into(),
            Stage::Over => "game over".into(),
        }
    }

    fn end_text(&self, end: End) -> &'static str {
        match end {
            End::Falls => "Camelot falls",
            End::Saved => "Camelot is saved",
            End::Endures => "Camelot endures (the quest deck ran out)",
            End::TurnLimit => "Camelot endures (the turn limit)",
            End::AllDead => "every knight is dead",
        }
    }

    /// The table as `seat` sees it; `None` shows only what every player sees.
    pub(crate) fn table(&self, state: &State, seat: Option<Seat>) -> String {
        let mut out = String::new();
        let (honor, dishonor) = self.balance(state);
        if state.over() {
            // The same count as the outcome's "after N turns".
            let _ = writeln!(out, "After {} turns · game over", state.turn);
        } else {
            let _ = writeln!(
                out,
                "Turn {} · P{} · {}",
                state.turn + 1,
                state.current + 1,
                self.stage_text(state)
            );
        }
        let _ = writeln!(
            out,
            "Camelot: honor {honor} · dishonor {dishonor} among the knights (the end comes beyond ±{}) · supply {} honor, {} dishonor",
            self.threshold(state),
            state.honor_supply,
            state.dishonor_supply
        );
        let _ = writeln!(
            out,
            "Decks: quests {} · virtues {} (discard {}) · treasures {} · trials {}",
            state.quest_deck.len(),
            state.virtue_deck.len(),
            state.virtue_discard.len(),
            state.treasure_deck.len(),
            state.trial_deck.len()
        );
        let _ = writeln!(out, "Quests in play:");
        for (i, slot) in state.layout.iter().enumerate() {
            let q = &self.quests[usize::from(slot.quest)];
            let knights: Vec<String> = state
                .round_from(0)
                .filter(|&s| has(slot.knights, s))
                .map(|s| format!("P{}", s + 1))
                .collect();
            let _ = writeln!(
                out,
                "  {:<26} needs {} · {} · knights: {}{}",
                self.quest_ref(state, i as u8),
                q.words,
                Count(q.trials.into(), "trial"),
                if knights.is_empty() {
                    "-".into()
                } else {
                    knights.join(" ")
                },
                if q.text.is_empty() {
                    String::new()
                } else {
                    format!(" · {}", q.text)
                }
            );
        }
        let king = self.king(state);
        // The viewer's own line (their cards) comes last, after what is under way, so that
        // on a small screen it stays just above the menu.
        let mut own = String::new();
        for (p, player) in state.players.iter().enumerate() {
            let p = p as Seat;
            let mine = Some(p) == seat;
            let mut tags = Vec::new();
            if mine {
                tags.push("you");
            }
            if king == Some(p) {
                tags.push("king");
            }
            if !player.alive {
                tags.push("dead");
            }
            let who = if tags.is_empty() {
                String::new()
            } else {
                format!(" ({})", tags.join(", "))
            };
            let (virtues, treasures) = if mine {
                (
                    card_list(&self.virtues, &player.virtues),
                    card_list(&self.treasures, &player.treasures),
                )
            } else {
                let mut t = Count(player.treasures.total().into(), "card").to_string();
                if player.treasures.contains(self.crown) {
                    t += " incl. the Crown";
                }
                (Count(player.virtues.total().into(), "card").to_string(), t)
            };
            let _ = writeln!(
                if mine { &mut own } else { &mut out },
                "P{}{who}: virtues {virtues} · treasures {treasures} · honor {} · dishonor {}",
                p + 1,
                player.honor,
                player.dishonor
            );
        }
        self.table_details(state, seat, &mut out);
        out.push_str(&own);
        out
    }

    /// Offers, matches and shared rewards under way.
    fn table_details(&self, state: &State, seat: Option<Seat>, out: &mut String) {
        if let Stage::Feast(x) = &state.stage {
            let names = |done: bool| {
                let seats: Vec<String> = (x.participants().iter())
                    .filter(|&&s| x.is_done(s) == done)
                    .map(|s| format!("P{}", s + 1))
                    .collect();
                if seats.is_empty() {
                    "-".into()
                } else {
                    seats.join(" ")
                }
            };
            let _ = write!(
                out,
                "  feast: done {} · deciding {}",
                names(true),
                names(false)
            );
            if let Some(me) = seat.filter(|&s| x.is_participant(s)) {
                let _ = write!(
                    out,
                    " · you may make {}",
                    Count(x.offers_left(me).into(), "more offer")
                );
            }
            out.push('\n');
            for o in x.offers() {
                let give = o.give.map_or("nothing".into(), |i| self.item_name(i));
                let ask = o.ask.map_or("nothing".into(), |i| self.item_name(i));
                let status = if o.accepted {
                    "accepted; it settles when everyone is done".to_string()
                } else {
                    format!("P{} to accept or refuse", o.to + 1)
                };
                let _ = writeln!(
                    out,
                    "  offer {}: P{} gives P{} {give} for {ask} ({status})",
                    o.id,
                    o.from + 1,
                    o.to + 1,
                );
            }
        }
        let showdown = match (&state.stage, state.res.as_ref().map(|r| &r.step)) {
            (_, Some(Step::Dispute { showdown, .. })) => Some(showdown),
            // While prizes are put up no card has been shown yet.
            (Stage::Contest(c), _) => Some(&c.showdown),
            _ => None,
        };
        if let Some(s) = showdown {
            for side in 0..2 {
                let _ = writeln!(
                    out,
                    "  P{} has shown {}",
                    s.seats[side] + 1,
                    card_list(&self.virtues, &s.shown[side])
                );
            }
        }
        if let Stage::Contest(c) | Stage::Prizes { contest: c, .. } = &state.stage {
            for (s, prize) in c.prizes.iter().enumerate() {
                if let Some(t) = prize {
                    let _ = writeln!(
                        out,
                        "  prize from P{}: {}",
                        s + 1,
                        self.treasures.names[usize::from(*t)]
                    );
                }
            }
        }
        if let Some(res) = &state.res {
            let sees = seat.is_some_and(|s| has(res.knights, s));
            if res.pool.total() + u32::from(res.pool_honor) > 0 {
                let treasures = if sees {
                    card_list(&self.treasures, &res.pool)
                } else {
                    Count(res.pool.total().into(), "treasure").to_string()
                };
                let _ = writeln!(
                    out,
                    "  reward to share: {treasures} · {} honor",
                    res.pool_honor
                );
            }
        }
    }

    fn item_name(&self, item: Item) -> String {
        let set = if item.set == VIRTUE_SET {
            &self.virtues
        } else {
            &self.treasures
        };
        set.ids
            .get(usize::from(item.card))
            .cloned()
            .unwrap_or_default()
    }

    /// Answers a script's question about the true state. Seats are written P1, P2, …
    pub(crate) fn answer(&self, state: &State, query: &str) -> Result<String, String> {
        let words: Vec<&str> = query.split_whitespace().collect();
        let seat = |word: &str| -> Result<Seat, String> {
            grail_engine::seats::parse_seat(word, state.count())
                .map(|s| s as Seat)
                .ok_or_else(|| format!("`{word}` is not a seat here (P1 … P{})", state.count()))
        };
        let seats = |set: &mut dyn Iterator<Item = Seat>| -> String {
            let names: Vec<String> = set.map(|s| format!("P{}", s + 1)).collect();
            if names.is_empty() {
                "-".into()
            } else {
                names.join(" ")
            }
        };
        Ok(match words.as_slice() {
            ["virtues", p] | ["hand", p] => {
                card_list(&self.virtues, &state.player(seat(p)?).virtues)
            }
            ["treasures", p] => card_list(&self.treasures, &state.player(seat(p)?).treasures),
            ["honor", p] => state.player(seat(p)?).honor.to_string(),
            ["dishonor", p] => state.player(seat(p)?).dishonor.to_string(),
            ["score", p] => self.score(state, seat(p)?).to_string(),
            ["scores"] => (0..state.count() as Seat)
                .map(|p| self.score(state, p).to_string())
                .collect::<Vec<_>>()
                .join(" "),
            ["king"] => seats(&mut self.king(state).into_iter()),
            ["dead"] => seats(&mut state.round_from(0).filter(|&s| !state.alive(s))),
            ["alive", p] => state.alive(seat(p)?).to_string(),
            ["quests"] => {
                let parts: Vec<String> = state
                    .layout
                    .iter()
                    .enumerate()
                    .map(|(i, slot)| {
                        format!(
                            "{}[{}]",
                            self.quest_ref(state, i as u8),
                            seats(&mut state.round_from(0).filter(|&s| has(slot.knights, s)))
                        )
                    })
                    .collect();
                if parts.is_empty() {
                    "-".into()
                } else {
                    parts.join(" ")
                }
            }
            ["quest", "deck"] => state.quest_deck.len().to_string(),
            ["virtue", "deck"] => state.virtue_deck.len().to_string(),
            ["virtue", "discard"] => state.virtue_discard.len().to_string(),
            ["treasure", "deck"] => state.treasure_deck.len().to_string(),
            ["trial", "deck"] => state.trial_deck.len().to_string(),
            ["supply"] => format!("{} {}", state.honor_supply, state.dishonor_supply),
            ["balance"] => {
                let (h, d) = self.balance(state);
                format!("honor {h} dishonor {d}")
            }
            ["player"] => format!("P{}", state.current + 1),
            ["turn"] => (state.turn + 1).to_string(),
            ["stage"] => self.stage_text(state),
            ["to", "move"] => seats(&mut self.decider(state).into_iter()),
            ["pool"] => match &state.res {
                Some(res) => format!(
                    "{} · {} honor",
                    card_list(&self.treasures, &res.pool),
                    res.pool_honor
                ),
                None => "-".into(),
            },
            ["winner"] | ["winners"] => match self.final_outcome(state) {
                Some(o) if o.winners.is_empty() => "-".into(),
                Some(o) => seats(&mut o.winners.iter().map(|&w| w as Seat)),
                None => "none yet".into(),
            },
            ["end"] => state.end.map_or("none yet", End::key).to_string(),
            _ => {
                return Err(format!(
                    "unknown question `{query}`; ask: virtues P1, treasures P1, honor P1, dishonor P1, \
                     score P1, scores, king, dead, alive P1, quests, quest deck, virtue deck, virtue discard, \
                     treasure deck, trial deck, supply, balance, player, turn, stage, to move, pool, winners, end"
                ));
            }
        })
    }

    pub(crate) fn describe(&self, event: &Event) -> String {
        let quest = |q: Card| self.quest_cards.names[usize::from(q)].as_str();
        let virtue = |t: Card| self.virtues.ids[usize::from(t)].as_str();
        let trial = |t: Card| self.trial_cards.names[usize::from(t)].as_str();
        let who = |s: Seat| format!("P{}", s + 1);
        let group = |set: u8| -> String {
            let names: Vec<String> = (0..MAX_PLAYERS as Seat)
                .filter(|&s| has(set, s))
                .map(who)
                .collect();
            names.join(" and ")
        };
        match event {
            Event::QuestPlaced { quest: q } => format!("a quest is placed: {}", quest(*q)),
            Event::QuestDeckEmpty => "the quest deck is empty".into(),
            Event::Embarked {
                seat,
                quest: q,
                first,
            } => format!(
                "{} embarks on {}{}",
                who(*seat),
                quest(*q),
                if *first {
                    " (first on it: no quest is drawn this turn)"
                } else {
                    ""
                }
            ),
            Event::Prayed {
                seat,
                knight,
                aid,
                drawn,
            } => format!(
                "{} prays{}{}: {} drawn face down",
                who(*seat),
                knight.map_or(String::new(), |k| format!(" for {}", who(k))),
                aid.map_or(String::new(), |a| format!(", discarding {}", virtue(a))),
                Count((*drawn).into(), "virtue card")
            ),
            Event::Taxed { seat, card, drawn } => format!(
                "{} taxes: discards {} and draws {}",
                who(*seat),
                virtue(*card),
                Count((*drawn).into(), "treasure")
            ),
            Event::FeastCalled { seat } => format!("{} calls a feast", who(*seat)),
            Event::Traded { seat, mv, offer } => {
                use grail_engine::exchange::ExchangeMove as M;
                match mv {
                    M::Offer { to, give, ask } => format!(
                        "{} offers {} {} for {} (offer {offer})",
                        who(*seat),
                        who(*to),
                        give.map_or("nothing".into(), |i| self.item_name(i)),
                        ask.map_or("nothing".into(), |i| self.item_name(i)),
                    ),
                    M::Accept(n) => format!("{} accepts offer {n}", who(*seat)),
                    M::Refuse(n) => format!("{} refuses offer {n}", who(*seat)),
                    M::Cancel(n) => format!("{} cancels offer {n}", who(*seat)),
                    M::Done => format!("{} is done", who(*seat)),
                }
            }
            Event::FeastSettled { deals } => {
                let parts: Vec<String> = deals
                    .iter()
                    .map(|o| {
                        let mut part = format!("P{} → P{}", o.from + 1, o.to + 1);
                        if let Some(g) = o.give {
                            part += &format!(" {}", self.item_name(g));
                        }
                        if let Some(a) = o.ask {
                            part += &format!(" for {}", self.item_name(a));
                        }
                        part
                    })
                    .collect();
                if parts.is_empty() {
                    "the feast ends: nothing changes hands".into()
                } else {
                    format!(
                        "the feast ends; the deals change hands: {}",
                        parts.join("; ")
                    )
                }
            }
            Event::Challenged { seat, other, duel } => format!(
                "{} challenges {} to a {}",
                who(*seat),
                who(*other),
                if *duel { "duel" } else { "joust" }
            ),
            Event::PrizePut { seat, card, drawn } => format!(
                "{} {} {} as a prize",
                who(*seat),
                if *drawn {
                    "draws and puts up"
                } else {
                    "puts up"
                },
                self.treasures.names[usize::from(*card)]
            ),
            Event::AutoSkipped { seat } => format!(
                "{} has no virtue that may open and skips the round",
                who(*seat)
            ),
            Event::Shown { seat, mv } => {
                use grail_engine::showdown::ShowdownMove as M;
                match mv {
                    M::Open(t) => format!("{} opens with {}", who(*seat), virtue(*t)),
                    M::Skip => format!("{} skips the round", who(*seat)),
                    M::Answer(t) => format!("{} answers with {}", who(*seat), virtue(*t)),
                    M::Refuse => format!("{} refuses to draw", who(*seat)),
                }
            }
            Event::ContestWon {
                winner,
                loser,
                duel,
                how,
            } => format!(
                "{} wins the {} against {} ({})",
                who(*winner),
                if *duel { "duel" } else { "joust" },
                who(*loser),
                match how {
                    Loss::Refused => "who refused to answer",
                    Loss::WrongCard => "who answered with a card that does not count",
                    Loss::OutOfCards => "who had no card left to answer",
                }
            ),
            Event::ContestDrawn { duel } => format!(
                "the {} is drawn: neither knight opened in turn",
                if *duel { "duel" } else { "joust" }
            ),
            Event::PrizeWon { seat, from, card } => format!(
                "{} wins {} from {}",
                who(*seat),
                self.treasures.names[usize::from(*card)],
                who(*from)
            ),
            Event::Stayed { seat } => format!("{} stays on the quest (turn skipped)", who(*seat)),
            Event::GaveUp {
                seat,
                quest: q,
                last,
            } => format!(
                "{} gives up {}{}",
                who(*seat),
                quest(*q),
                if *last {
                    ", the last knight on it: the ignore penalty is his"
                } else {
                    ""
                }
            ),
            Event::Presented {
                seat,
                quest: q,
                cards,
                trial: t,
            } => format!(
                "{} presents {} for {}",
                who(*seat),
                self.virtue_list(cards),
                match t {
                    Some(t) => format!("the trial {}", trial(*t)),
                    None => quest(*q).to_string(),
                }
            ),
            Event::Contributed { seat, cards } => {
                format!("{} adds {}", who(*seat), self.virtue_list(cards))
            }
            Event::Withheld { seat } => format!("{} withholds", who(*seat)),
            Event::PresentationFailed { quest: q } => format!(
                "the virtues for {} are not all there: nothing happens",
                quest(*q)
            ),
            Event::TrialDrawn { trial: t } => format!(
                "trial: {} ({})",
                trial(*t),
                self.trials[usize::from(*t)].text
            ),
            Event::TrialDeclined { seat, trial: t } => {
                format!("{} does not meet {}", who(*seat), trial(*t))
            }
            Event::QuestCompleted { quest: q, knights } => format!(
                "{} {} {}",
                group(*knights),
                if knights.count_ones() > 1 {
                    "complete"
                } else {
                    "completes"
                },
                quest(*q)
            ),
            Event::QuestFailed { quest: q, knights } => format!(
                "{} fails for {}: the ignore penalty hits each knight involved",
                quest(*q),
                group(*knights)
            ),
            Event::QuestExpired { seat, quest: q } => {
                format!("{} expires {}", who(*seat), quest(*q))
            }
            Event::RewardShared {
                seat,
                treasures,
                honor,
            } => format!(
                "{} takes {} and {honor} honor of the reward",
                who(*seat),
                Count((*treasures).into(), "treasure")
            ),
            Event::SplitProposed { seat, mv } => {
                use grail_engine::proposal::ProposalMove as M;
                match mv {
                    M::Allot(s) => format!("{} allots the next item to {}", who(*seat), who(*s)),
                    M::Withdraw => format!("{} disputes the reward", who(*seat)),
                    M::Agree => format!("{} agrees to the split", who(*seat)),
                    M::Disagree => format!("{} disagrees with the split", who(*seat)),
                }
            }
            Event::Drew {
                seat,
                virtues,
                treasures,
            } => match (virtues, treasures) {
                (0, t) => format!("{} draws {}", who(*seat), Count((*t).into(), "treasure")),
                (v, 0) => format!("{} draws {}", who(*seat), Count((*v).into(), "virtue card")),
                (v, t) => format!(
                    "{} draws {} and {}",
                    who(*seat),
                    Count((*v).into(), "virtue card"),
                    Count((*t).into(), "treasure card")
                ),
            },
            Event::Gained {
                seat,
                honor,
                dishonor,
            } => match (honor, dishonor) {
                (h, 0) => format!("{} takes {h} {}", who(*seat), self.honor.honor_name),
                (0, d) => format!("{} takes {d} {}", who(*seat), self.honor.dishonor_name),
                (h, d) => format!("{} takes {h} honor and {d} dishonor", who(*seat)),
            },
            Event::Discarded { seat, card, random } => format!(
                "{} discards {}{}",
                who(*seat),
                virtue(*card),
                if *random { " (at random)" } else { "" }
            ),
            Event::MustDiscard { seat, count } => {
                format!(
                    "{} must discard {}",
                    who(*seat),
                    Count((*count).into(), "virtue card")
                )
            }
            Event::TrialImpossible { seat, trial: t } => {
                format!("{} cannot present what {} asks", who(*seat), trial(*t))
            }
            Event::NothingToDiscard { seat } => {
                format!("{} has no virtue card to discard", who(*seat))
            }
            Event::PileEmpty {
                seat,
                dishonor,
                missing,
            } => format!(
                "{} would take {} more: the supply has none left",
                who(*seat),
                Count(
                    (*missing).into(),
                    if *dishonor {
                        &self.honor.dishonor_name
                    } else {
                        &self.honor.honor_name
                    }
                )
            ),
            Event::Died { seat } => format!("{} dies", who(*seat)),
            Event::CrownPassed { from, to } => {
                format!(
                    "the Crown passes from {} to {}: {} is king",
                    who(*from),
                    who(*to),
                    who(*to)
                )
            }
            Event::TreasureTaken { from, to, count } => {
                format!(
                    "{} takes {} from {}",
                    who(*to),
                    Count((*count).into(), "treasure"),
                    who(*from)
                )
            }
            Event::Bestowed { seat, to, dishonor } => format!(
                "the king ({}) bestows {} on {}",
                who(*seat),
                if *dishonor {
                    &self.honor.dishonor_name
                } else {
                    &self.honor.honor_name
                },
                who(*to)
            ),
            Event::Waited { seat } => format!("{} waits", who(*seat)),
            Event::Reshuffled { virtues, cards } => format!(
                "the {} discards ({cards}) are shuffled into a new deck",
                if *virtues { "virtue" } else { "trial" }
            ),
            Event::TurnEnded { seat } => format!("{} ends the turn", who(*seat)),
            Event::GameOver { end } => format!("the game ends: {}", self.end_text(*end)),
        }
    }
}

fn min_counts(a: &Counts, b: &Counts) -> Counts {
    let mut out = Counts::EMPTY;
    for (t, n) in a.iter() {
        out.add(t, n.min(b.get(t)));
    }
    out
}

fn subtract(from: &mut Counts, what: &Counts) {
    for (t, n) in what.iter() {
        from.remove(t, n.min(from.get(t)));
    }
}
