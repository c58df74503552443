//! What a player sees: the determinised observation for bots, the table for the terminal,
//! answers to script questions, and the event log in words.
//!
//! Hidden from a seat: the order of both decks, the other players' hands, the sponsor's
//! face-down stages (the sponsor sees his own; Merlin's owner the stage he previewed), and
//! the other players' face-down cards before they are turned over. Public: how many cards
//! each of those holds, everything face up (discards, allies and Amours in play, revealed
//! stages), ranks and shields, whether the current stage is a foe or a test.

use std::fmt::Write as _;

use grail_engine::counts::Counts;
use grail_engine::game::Seat;
use grail_engine::rng::GameRng;

use grail_engine::seat_set::SeatSet;

use super::state::{Card, Decline, End, Event, Ledger, MAX_STAGES, Phase, State};
use super::{CardSet, Kind, Quests, Story};
use crate::wording::Count;

impl Quests {
    /// Whether `viewer` may see the cards of stage `i` of the quest in play.
    pub(crate) fn stage_visible(&self, s: &State, i: usize, viewer: Option<Seat>) -> bool {
        s.quest.is_revealed(i)
            || viewer.is_some_and(|v| {
                v == usize::from(s.quest.sponsor) && s.quest.stages > 0
                    || s.player(v as u8).seen & (1 << i) != 0
            })
    }

    /// What `seat` may know of `state`, written over `view` (its buffers reused).
    pub(crate) fn determinise(
        &self,
        state: &State,
        seat: Seat,
        rng: &mut GameRng,
        view: &mut State,
    ) {
        view.clone_from(state);
        view.rng = rng.fork();
        view.log = Ledger::unkept();
        let viewer = Some(seat);
        // Every card the seat cannot see, pooled in a canonical order (by type) and shuffled.
        let mut unseen = Counts::from_types(view.adventure_deck.as_slice());
        for (p, player) in view.players.iter().enumerate() {
            if p != seat {
                unseen.add_all(&player.hand);
            }
        }
        let mut hidden_stages = [false; MAX_STAGES];
        for (i, hidden) in hidden_stages.iter_mut().enumerate() {
            *hidden = !view.quest.built[i].is_empty() && !self.stage_visible(view, i, viewer);
            if *hidden {
                unseen.add_all(&view.quest.built[i]);
            }
        }
        let sealed_hidden = view
            .sealed
            .participants()
            .iter()
            .filter(|&p| !view.sealed.visible_to(p, viewer))
            .collect::<SeatSet>();
        for p in sealed_hidden.iter() {
            unseen.add_all(view.sealed.cards(p));
        }
        // The pool is laid out and dealt from in the adventure deck's own buffer: what is
        // left of it at the end is the new deck, in the pool's order.
        view.adventure_deck.fill_from(&unseen);
        view.adventure_deck.shuffle(&mut view.rng);
        let pool = &mut view.adventure_deck;

        // Deal back into the same places, in the same numbers. Stages get a plausible shape:
        // a foe (or, for a lone card, possibly a test) and weapons of different types.
        let mut tests_left = self
            .n
            .tests_per_quest
            .saturating_sub(self.revealed_tests(state));
        for i in (0..MAX_STAGES).filter(|&i| hidden_stages[i]) {
            let size = view.quest.built[i].total() as usize;
            let announced_foe = i == usize::from(view.quest.stage)
                && matches!(view.phase, Phase::Commit | Phase::StageReveal);
            let mut stage = Counts::EMPTY;
            let lead = pool.as_slice().iter().position(|&c| {
                self.is(c, Kind::Foe)
                    || (size == 1 && !announced_foe && tests_left > 0 && self.is(c, Kind::Test))
            });
            if let Some(at) = lead.or(if pool.is_empty() { None } else { Some(0) }) {
                let c = pool.take_at(at);
                if self.is(c, Kind::Test) {
                    tests_left -= 1;
                }
                stage.add(c, 1);
            }
            while (stage.total() as usize) < size && !pool.is_empty() {
                let at = pool
                    .as_slice()
                    .iter()
                    .position(|&c| self.is(c, Kind::Weapon) && stage.get(c) < self.n.weapon_copies)
                    .unwrap_or(0);
                stage.add(pool.take_at(at), 1);
            }
            view.quest.built[i] = stage;
        }
        // Hands and commitments are dealt from the top.
        let mut deal = |n: u32| -> Counts { (0..n).map_while(|_| pool.draw()).collect() };
        for p in sealed_hidden.iter() {
            let cards = deal(view.sealed.cards(p).total());
            view.sealed.set_cards(p, cards);
        }
        for (p, player) in view.players.iter_mut().enumerate() {
            if p != seat {
                player.hand = deal(player.hand.total());
            }
        }
        let story = Counts::from_types(view.story_deck.as_slice());
        view.story_deck.fill_from(&story);
        view.story_deck.shuffle(&mut view.rng);
        // The values kept at hand must come from the re-dealt cards, never the true ones
        // (only stages were re-dealt among the cards those values depend on).
        for i in (0..MAX_STAGES).filter(|&i| hidden_stages[i]) {
            self.refresh_stage(view, i);
        }
    }

    /// Every place a card can be (see [`Rules::zones`](grail_engine::game::Rules::zones)).
    pub(crate) fn zones_of(&self, s: &State) -> Vec<(String, Vec<String>)> {
        let (a, story) = (&self.adventure, &self.story);
        let mut zones = vec![
            a.zone("adventure deck", s.adventure_deck.top_down()),
            a.zone("adventure discard", s.adventure_discard.top_down()),
            story.zone("story deck", s.story_deck.top_down()),
            story.zone("story discard", s.story_discard.top_down()),
            story.zone("story in play", s.story),
        ];
        for (p, player) in s.players.iter().enumerate() {
            zones.push(a.zone(format!("P{} hand", p + 1), player.hand.cards()));
            zones.push(a.zone(format!("P{} allies", p + 1), player.allies.cards()));
            zones.push(a.zone(format!("P{} amour", p + 1), player.amour.cards()));
            zones.push(a.zone(format!("P{} face down", p + 1), s.sealed.cards(p).cards()));
        }
        for (i, stage) in s.quest.built.iter().enumerate() {
            zones.push(a.zone(format!("stage {}", i + 1), stage.cards()));
        }
        zones
    }

    fn revealed_tests(&self, s: &State) -> u8 {
        (0..usize::from(s.quest.stages))
            .filter(|&i| s.quest.is_revealed(i) && self.test_of(&s.quest.built[i]).is_some())
            .count() as u8
    }

    pub(crate) fn card_list(set: &CardSet, counts: &Counts) -> String {
        let words: Vec<&str> = counts
            .cards()
            .map(|t| set.ids[usize::from(t)].as_str())
            .collect();
        if words.is_empty() {
            "-".into()
        } else {
            words.join(" ")
        }
    }

    fn cards(&self, counts: &Counts) -> String {
        Self::card_list(&self.adventure, counts)
    }

    /// `horse(10) sir-gawain(10) test-of-valor`: each card with the battle points it is
    /// worth to `seat` now (cards worth none, such as tests, without).
    fn cards_with_bp(&self, s: &State, seat: u8, counts: &Counts) -> String {
        let mut sit = self.situation(s, Some(seat));
        let words: Vec<String> = counts
            .cards()
            .map(|t| {
                let id = &self.adventure.ids[usize::from(t)];
                match sit.bp(t) {
                    0 => id.clone(),
                    bp => format!("{id}({bp})"),
                }
            })
            .collect();
        if words.is_empty() {
            "-".into()
        } else {
            words.join(" ")
        }
    }

    pub(crate) fn rank_name(&self, rank: u8) -> &str {
        self.ranks
            .names
            .get(usize::from(rank))
            .map_or("Knight of the Round Table", String::as_str)
    }

    fn story_line(&self, s: &State) -> Option<String> {
        let card = s.story?;
        let name = &self.story.names[usize::from(card)];
        Some(match &self.stories[usize::from(card)] {
            Story::Quest { stages } => format!("{name} (quest, {stages} stages)"),
            Story::Tournament { bonus } => format!("{name} (tournament, bonus {bonus} shields)"),
            Story::Event { .. } => format!("{name} (event)"),
        })
    }

    /// The table as `seat` sees it; `None` shows only what every player sees.
    pub(crate) fn table(&self, s: &State, seat: Option<Seat>) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Turn {} · P{}'s turn · {}",
            s.turn + 1,
            s.current + 1,
            self.story_line(s).unwrap_or_else(|| "no story card".into())
        );
        if let Some(p) = self.decider(s) {
            let _ = writeln!(out, "Now: P{} decides: {}", p + 1, self.phase_words(s));
        }
        if s.quest.stages > 0 && s.story == Some(s.quest.card) && s.phase != Phase::Sponsor {
            self.quest_lines(s, seat, &mut out);
        }
        self.bid_line(s, &mut out);
        if !s.tourney.contenders.is_empty() {
            let _ = writeln!(
                out,
                "Tournament: entrants {}, round {}{}",
                seats_text(s.tourney.entrants),
                s.tourney.round + 1,
                if s.tourney.last { " (final)" } else { "" }
            );
        }
        for (p, player) in s.players.iter().enumerate() {
            let you = if Some(p) == seat { " (you)" } else { "" };
            let need = self
                .ladder
                .threshold(usize::from(player.rank))
                .map_or(String::new(), |n| format!(" of {n}"));
            let _ = write!(
                out,
                "P{}{you}: {} · {} shields{need} · {} cards",
                p + 1,
                self.rank_name(player.rank),
                player.shields,
                player.hand.total()
            );
            if !player.allies.is_empty() {
                let _ = write!(out, " · allies {}", self.cards(&player.allies));
            }
            if !player.amour.is_empty() {
                let _ = write!(out, " · amour in play");
            }
            if s.sealed.participants().contains(p) && !s.sealed.is_revealed() {
                let n = s.sealed.cards(p).total();
                let sealed = if s.sealed.sealed().contains(p) {
                    ", done"
                } else {
                    ""
                };
                let _ = write!(out, " · {n} face down{sealed}");
            }
            out.push('\n');
        }
        if let Some(v) = seat {
            let me = s.player(v as u8);
            let _ = writeln!(
                out,
                "Your hand (battle points): {}",
                self.cards_with_bp(s, v as u8, &me.hand)
            );
            if s.sealed.participants().contains(v) && !s.sealed.is_revealed() {
                let mine = *s.sealed.cards(v);
                let _ = writeln!(
                    out,
                    "Your face-down cards: {} (your strength with them: {} battle points)",
                    self.cards_with_bp(s, v as u8, &mine),
                    self.strength(s, v as u8, &mine)
                );
            }
            let free = self.free_bids(s, v as u8);
            if free > 0 {
                let _ = writeln!(out, "Your free bids: {free}");
            }
        }
        let _ = write!(
            out,
            "Adventure deck {} (discard {}) · story deck {} (discard {})",
            s.adventure_deck.len(),
            s.adventure_discard.len(),
            s.story_deck.len(),
            s.story_discard.len()
        );
        if s.quest_bonus > 0 {
            let _ = write!(out, " · next quest completed: +{} shields", s.quest_bonus);
        }
        out.push('\n');
        if let Some(end) = s.end {
            let _ = writeln!(
                out,
                "Game over ({}): {} won",
                end.key(),
                if s.winners.is_empty() {
                    "nobody".into()
                } else {
                    seats_text(s.winners)
                }
            );
        }
        out
    }

    fn quest_lines(&self, s: &State, seat: Option<Seat>, out: &mut String) {
        let q = &s.quest;
        let _ = writeln!(
            out,
            "Quest: sponsor P{} · questors {}",
            q.sponsor + 1,
            if q.questors.is_empty() && s.phase == Phase::Join {
                seats_text(s.offer.accepted())
            } else {
                seats_text(q.questors)
            }
        );
        let mut sit = self.situation(s, Some(q.sponsor));
        for i in 0..usize::from(q.stages) {
            let cards = &q.built[i];
            let building = s.phase == Phase::Build && i == usize::from(q.stage);
            if cards.is_empty() && !building {
                continue;
            }
            let marker = if building { "  <- being laid out" } else { "" };
            if self.stage_visible(s, i, seat) {
                let what = match self.test_of(cards) {
                    Some(t) => {
                        let min = self.printed_min_bid(s, t);
                        if min > 0 {
                            format!("test, minimum bid {min}")
                        } else {
                            "test".into()
                        }
                    }
                    None => format!("{} battle points", self.bp_of(cards, &mut sit)),
                };
                let face = if q.is_revealed(i) { "" } else { " (face down)" };
                let _ = writeln!(
                    out,
                    "  stage {}: {}: {what}{face}{marker}",
                    i + 1,
                    self.cards(cards).replace(' ', " + ")
                );
            } else {
                let _ = writeln!(
                    out,
                    "  stage {}: {} face down{marker}",
                    i + 1,
                    Count(cards.total().into(), "card")
                );
            }
        }
        if s.phase == Phase::Build && seat == Some(usize::from(q.sponsor)) {
            let bar = self.bar(s, usize::from(q.stage));
            let _ = writeln!(
                out,
                "  Lay out stage {}: a foe (then weapons, each type once) or a test{}, then `done`.",
                q.stage + 1,
                bar.map_or(String::new(), |b| format!(
                    "; a foe stage needs more than {b} battle points"
                ))
            );
        }
    }

    fn bid_line(&self, s: &State, out: &mut String) {
        if s.phase != Phase::Bid {
            return;
        }
        let high = match s.bidding.high() {
            Some((p, bid)) => format!("P{} bids {bid}", p + 1),
            None => "no bid yet".into(),
        };
        let _ = writeln!(
            out,
            "Test bidding: {high} · still bidding {} · next bid at least {}",
            seats_text(s.bidding.active()),
            s.bidding.min_bid()
        );
    }

    /// Answers a script's question about the true state. Seats are written P1, P2, …
    pub(crate) fn answer(&self, s: &State, query: &str) -> Result<String, String> {
        let words: Vec<&str> = query.split_whitespace().collect();
        let seat = |word: &str| -> Result<u8, String> {
            grail_engine::seats::parse_seat(word, s.seats())
                .map(|p| p as u8)
                .ok_or_else(|| format!("`{word}` is not a seat here (P1 … P{})", s.seats()))
        };
        let stage = |word: &str| -> Result<usize, String> {
            word.parse::<usize>()
                .ok()
                .filter(|&n| n >= 1 && n <= usize::from(s.quest.stages))
                .map(|n| n - 1)
                .ok_or_else(|| format!("`{word}` is not a stage of the quest in play"))
        };
        Ok(match words.as_slice() {
            ["hand", p] => self.cards(&s.player(seat(p)?).hand),
            ["cards", p] => s.player(seat(p)?).hand.total().to_string(),
            ["allies", p] => self.cards(&s.player(seat(p)?).allies),
            ["amour", p] => self.cards(&s.player(seat(p)?).amour),
            ["rank", p] => self
                .ranks
                .ids
                .get(usize::from(s.player(seat(p)?).rank))
                .cloned()
                .unwrap_or_else(|| "knight-of-the-round-table".into()),
            ["shields", p] => s.player(seat(p)?).shields.to_string(),
            // The score the outcome reports, as every game answers it (the balance report's
            // lead changes read it after each move).
            ["score", p] => self.score(s, usize::from(seat(p)?)).to_string(),
            ["bp", p] => self.strength(s, seat(p)?, &Counts::EMPTY).to_string(),
            ["free-bids", p] => self.free_bids(s, seat(p)?).to_string(),
            ["committed", p] => self.cards(s.sealed.cards(usize::from(seat(p)?))),
            ["stage", n] => self.cards(&s.quest.built[stage(n)?]),
            ["stage-bp", n] => self.stage_bp(s, stage(n)?).to_string(),
            ["sponsor"] => format!("P{}", s.quest.sponsor + 1),
            ["questors"] => seats_text(s.quest.questors),
            ["story"] => s
                .story
                .map_or("-".into(), |c| self.story.ids[usize::from(c)].clone()),
            ["player"] => self
                .decider(s)
                .map_or("-".into(), |p| format!("P{}", p + 1)),
            ["turn"] => (s.turn + 1).to_string(),
            ["phase"] => self.phase_words(s),
            ["high-bid"] => s
                .bidding
                .high()
                .map_or("-".into(), |(p, b)| format!("P{} {b}", p + 1)),
            ["quest-bonus"] => s.quest_bonus.to_string(),
            ["deck"] => s.adventure_deck.len().to_string(),
            ["discard"] => s.adventure_discard.len().to_string(),
            ["discard", "top"] => s
                .adventure_discard
                .top()
                .map_or("-".into(), |c| self.adventure.ids[usize::from(c)].clone()),
            ["winner"] | ["winners"] => {
                if s.end.is_none() {
                    "none yet".into()
                } else {
                    seats_text(s.winners)
                }
            }
            ["end"] => s.end.map_or("none yet", End::key).to_string(),
            _ => {
                return Err(format!(
                    "unknown question `{query}`; ask: hand P1, cards P1, allies P1, amour P1, rank P1, \
                     shields P1, score P1, bp P1, free-bids P1, committed P1, stage 1, stage-bp 1, sponsor, \
                     questors, story, player, turn, phase, high-bid, quest-bonus, deck, discard, \
                     discard top, winner, end"
                ));
            }
        })
    }

    pub(crate) fn describe(&self, event: &Event) -> String {
        let card = |c: Card| self.adventure.names[usize::from(c)].as_str();
        let story = |c: Card| self.story.names[usize::from(c)].as_str();
        match event {
            Event::StoryDrawn { seat, card } => {
                let text = match &self.stories[usize::from(*card)] {
                    Story::Event { .. } => {
                        format!(": \"{}\"", self.story_text(*card))
                    }
                    _ => String::new(),
                };
                format!("P{} draws {}{text}", seat + 1, story(*card))
            }
            Event::StoryReshuffled { cards } => {
                format!("the story discards ({cards}) are shuffled into a new deck")
            }
            Event::AdventureReshuffled { cards } => {
                format!("the adventure discards ({cards}) are shuffled into a new deck")
            }
            Event::Sponsors { seat } => format!("P{} sponsors the quest", seat + 1),
            Event::Declines { seat, why } => match why {
                Decline::Chose => format!("P{} declines", seat + 1),
                Decline::Cannot => format!("P{} cannot sponsor the quest", seat + 1),
            },
            Event::NoSponsor => "nobody sponsors the quest".into(),
            Event::StageBuilt { stage, cards } => {
                format!(
                    "stage {} is laid out face down ({})",
                    stage + 1,
                    Count((*cards).into(), "card")
                )
            }
            Event::Joins { seat } => format!("P{} joins the quest", seat + 1),
            Event::NoQuestors => "nobody joins the quest".into(),
            Event::Drew { seat, cards } => {
                format!("P{} draws {}", seat + 1, Count((*cards).into(), "card"))
            }
            Event::FoeStage { stage } => {
                format!(
                    "stage {}: a foe; questors commit cards face down",
                    stage + 1
                )
            }
            Event::TestStage {
                stage,
                test,
                min_bid,
            } => {
                let min = if *min_bid > 0 {
                    format!(" (minimum bid {min_bid})")
                } else {
                    String::new()
                };
                format!("stage {}: {}{min}", stage + 1, card(*test))
            }
            Event::Committed { seat, cards } => {
                format!(
                    "P{} commits {} face down",
                    seat + 1,
                    Count((*cards).into(), "card")
                )
            }
            Event::StageRevealed { stage, cards, bp } => format!(
                "stage {} is turned over: {} ({bp} battle points)",
                stage + 1,
                self.cards(cards).replace(' ', " + ")
            ),
            Event::Reveals { seat, cards } => {
                format!("P{} turns over {}", seat + 1, self.cards(cards))
            }
            Event::Fought { seat, bp, passed } => format!(
                "P{} has {bp} battle points and {}",
                seat + 1,
                if *passed { "passes" } else { "is defeated" }
            ),
            Event::Bids { seat, bid } => format!("P{} bids {bid}", seat + 1),
            Event::Drops { seat, forced } => {
                if *forced {
                    format!("P{} cannot bid enough and drops out", seat + 1)
                } else {
                    format!("P{} drops out", seat + 1)
                }
            }
            Event::LoneBid { seat, bid, free } => format!(
                "P{} is alone on the test and bids the minimum {bid} ({free} free)",
                seat + 1
            ),
            Event::PassesTest { seat, bid, free } => {
                format!("P{} wins the test with {bid} ({free} free bids)", seat + 1)
            }
            Event::Discards { seat, card: c } => format!("P{} discards {}", seat + 1, card(*c)),
            Event::PlaysAlly { seat, card: c } => {
                format!("P{} puts {} into play", seat + 1, card(*c))
            }
            Event::Removes {
                seat,
                card: c,
                target,
                ally,
            } => format!(
                "P{} sacrifices {} to remove P{}'s {}",
                seat + 1,
                card(*c),
                target + 1,
                card(*ally)
            ),
            Event::Previews {
                seat,
                card: c,
                stage,
            } => {
                format!(
                    "P{} uses {} to preview stage {}",
                    seat + 1,
                    card(*c),
                    stage + 1
                )
            }
            Event::Shields {
                seat,
                change,
                asked,
                rank,
                shields,
            } => {
                let what = if *asked < 0 && *change == 0 {
                    "has no shield to lose".to_string()
                } else {
                    let verb = if *asked >= 0 { "gains" } else { "loses" };
                    format!("{verb} {}", Count(change.unsigned_abs(), "shield"))
                };
                format!(
                    "P{} {what}: {} with {shields}",
                    seat + 1,
                    self.rank_name(*rank)
                )
            }
            Event::RankUp { seat, rank } => {
                format!("P{} becomes {}", seat + 1, self.rank_name(*rank))
            }
            Event::QuestCompleted { questors } => {
                format!("the quest is completed by {}", seats_text(*questors))
            }
            Event::QuestFailed => "nobody completes the quest".into(),
            Event::SponsorDraws { seat, cards } => {
                format!(
                    "P{} (the sponsor) draws {}",
                    seat + 1,
                    Count((*cards).into(), "card")
                )
            }
            Event::Enters { seat } => format!("P{} enters the tournament", seat + 1),
            Event::NotHeld { entrants } => {
                format!(
                    "the tournament is not held ({})",
                    Count((*entrants).into(), "entrant")
                )
            }
            Event::Jousts { seat, bp } => format!("P{} has {bp} battle points", seat + 1),
            Event::FinalTournament { seats } => format!(
                "{} became Knights of the Round Table in the same turn: a final tournament",
                seats_text(*seats)
            ),
            Event::Tie { seats } => format!("{} tie and play another round", seats_text(*seats)),
            Event::TournamentWon { seats } => {
                format!("the tournament is won by {}", seats_text(*seats))
            }
            Event::EventEffect { text } => text.clone(),
            Event::QuestBonus { shields } => {
                format!("the next player(s) to complete a quest receive {shields} extra shields")
            }
            Event::AlliesDiscarded { seat, cards } => {
                format!("P{} discards allies {}", seat + 1, self.cards(cards))
            }
            Event::TurnEnded { seat } => format!("P{}'s turn ends", seat + 1),
            Event::GameOver { end, winners } => format!(
                "the game ends ({}): {} won",
                end.key(),
                if winners.is_empty() {
                    "nobody".into()
                } else {
                    seats_text(*winners)
                }
            ),
        }
    }

    fn story_text(&self, card: Card) -> &str {
        self.story_texts
            .get(usize::from(card))
            .map_or("", String::as_str)
    }
}

pub(crate) fn seats_text(seats: grail_engine::seat_set::SeatSet) -> String {
    if seats.is_empty() {
        return "nobody".into();
    }
    seats
        .iter()
        .map(|p| format!("P{}", p + 1))
        .collect::<Vec<_>>()
        .join(" ")
}
