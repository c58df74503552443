//! The move notation, and why a move is not legal.
//!
//! `sponsor`, `join`, `enter`, `decline`; `add <card>` (or just the card) and `done` to lay
//! out a stage or commit cards face down; `bid <n>`, `drop`; `discard <card>`,
//! `play <ally>`; `use <card> P2 <ally>` (Mordred), `use <card> stage <n>` (Merlin).

use grail_engine::diag::no_such;
use grail_engine::game::Seat;
use grail_engine::seats::parse_seat;

use super::state::{Action, Phase, State};
use super::{Kind, Quests, Targets};
use crate::wording::{Count, FACE_DOWN};

const VERBS: [&str; 13] = [
    "sponsor", "join", "enter", "decline", "add", "done", "bid", "drop", "discard", "play", "use",
    "pass", "help",
];

impl Quests {
    pub(crate) fn notation(&self, _state: &State, action: &Action) -> String {
        let id = |c: u8| self.adventure.ids[usize::from(c)].as_str();
        match *action {
            Action::Sponsor => "sponsor".into(),
            Action::Join => "join".into(),
            Action::Enter => "enter".into(),
            Action::Decline => "decline".into(),
            Action::Add(c) => format!("add {}", id(c)),
            Action::Done => "done".into(),
            Action::Bid(n) => format!("bid {n}"),
            Action::Drop => "drop".into(),
            Action::Discard(c) => format!("discard {}", id(c)),
            Action::Play(c) => format!("play {}", id(c)),
            Action::Remove { card, seat, ally } => {
                format!("use {} P{} {}", id(card), seat + 1, id(ally))
            }
            Action::Preview { card, stage } => format!("use {} stage {}", id(card), stage + 1),
        }
    }

    /// [`Self::notation`] as `viewer` may read it: a card added to a face-down stage or
    /// commitment is named only to the seat that adds it.
    pub(crate) fn notation_for(&self, s: &State, action: &Action, viewer: Option<Seat>) -> String {
        let mover = self.decider(s).map(usize::from);
        match *action {
            Action::Add(_) if viewer.is_none() || viewer != mover => match s.phase {
                Phase::Build => format!("add {} to stage {}", FACE_DOWN, s.quest.stage + 1),
                _ => format!("add {FACE_DOWN}"),
            },
            _ => self.notation(s, action),
        }
    }

    fn card(&self, word: &str) -> Result<u8, String> {
        self.adventure.index(word).ok_or_else(|| {
            no_such(
                "adventure card",
                word,
                self.adventure.ids.iter().map(String::as_str),
            )
        })
    }

    pub(crate) fn read(&self, state: &State, text: &str) -> Result<Action, String> {
        let lower = text.trim().to_lowercase();
        let words: Vec<&str> = lower
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        let Some((&verb, rest)) = words.split_first() else {
            return Err("type a move, or `help`".into());
        };
        let bare = |action: Action| {
            if rest.is_empty() {
                Ok(action)
            } else {
                Err(format!("`{verb}` takes nothing after it"))
            }
        };
        let one_card = |example: &str| -> Result<u8, String> {
            match rest {
                [id] => self.card(id),
                [] => Err(format!("{verb} which card? e.g. `{verb} {example}`")),
                _ => Err(format!(
                    "`{verb}` takes one card at a time (then `done` when the stage or commitment is complete)"
                )),
            }
        };
        match verb {
            "sponsor" => bare(Action::Sponsor),
            "join" => bare(Action::Join),
            "enter" => bare(Action::Enter),
            "decline" | "no" => bare(Action::Decline),
            "done" => bare(Action::Done),
            "drop" => bare(Action::Drop),
            "pass" => bare(match state.phase {
                Phase::Bid => Action::Drop,
                Phase::Build | Phase::Commit | Phase::Joust => Action::Done,
                _ => Action::Decline,
            }),
            "add" => one_card("sword").map(Action::Add),
            "discard" => one_card("dagger").map(Action::Discard),
            "play" => one_card("sir-gawain").map(Action::Play),
            "bid" => match rest {
                [n] => n
                    .parse::<u8>()
                    .map(Action::Bid)
                    .map_err(|_| format!("`{n}` is not a number of cards")),
                _ => Err("bid how many cards? e.g. `bid 4`".into()),
            },
            "use" => self.read_use(state, rest),
            word => match self.adventure.index(word) {
                // A card alone adds it to the stage or commitment, or discards it.
                Some(card) if rest.is_empty() => Ok(match state.phase {
                    Phase::Build | Phase::Commit | Phase::Joust
                        if self.over_limit(state).is_none() =>
                    {
                        Action::Add(card)
                    }
                    _ => Action::Discard(card),
                }),
                _ => Err(no_such("move", word, VERBS)),
            },
        }
    }

    fn read_use(&self, state: &State, rest: &[&str]) -> Result<Action, String> {
        let usage = "`use <card> P2 <ally>` (remove an ally) or `use <card> stage <n>` (preview)";
        let Some((&id, args)) = rest.split_first() else {
            return Err(format!("use which card? {usage}"));
        };
        let card = self.card(id)?;
        match args {
            ["stage", n] | [n] if n.parse::<u8>().is_ok() => {
                let n: u8 = n.parse().unwrap_or(0);
                if n == 0 {
                    return Err("stages count from 1".into());
                }
                Ok(Action::Preview { card, stage: n - 1 })
            }
            [seat, ally] => {
                let seat = parse_seat(seat, state.seats()).ok_or_else(|| {
                    format!("`{seat}` is not a seat here (P1 … P{})", state.seats())
                })?;
                Ok(Action::Remove {
                    card,
                    seat: seat as u8,
                    ally: self.card(ally)?,
                })
            }
            _ => Err(usage.into()),
        }
    }

    pub(crate) fn help(&self) -> String {
        [
            "Moves (the numbered list always shows the legal ones):",
            "  sponsor | decline          sponsor the quest, or not",
            "  join | decline             go on the quest, or not",
            "  enter | decline            enter the tournament, or not",
            "  add <card>   (or <card>)   lay out a stage card by card: a foe or test first,",
            "                             then weapons; as a questor or entrant, commit",
            "                             weapons, allies or an Amour face down, one by one",
            "  done                       the stage or the commitment is complete",
            "  bid <n> | drop             bid cards on a test, or drop out",
            "  discard <card>             discard (test bid, hand limit, event)",
            "  play <ally>                over the hand limit, or bidding on a test: put an",
            "                             ally (or there an Amour) into play",
            "  use <card> P2 <ally>       sacrifice Mordred to remove another player's ally",
            "  use <card> stage <n>       with Merlin in play: look at a face-down stage",
            "  pass                       decline, drop, or done, whichever applies",
        ]
        .join("\n")
    }

    /// What the current decision is about, in words.
    pub(crate) fn phase_words(&self, s: &State) -> String {
        if let Some(p) = self.over_limit(s) {
            return format!(
                "P{} holds more than {} cards and must discard or play allies",
                p + 1,
                self.n.hand_limit
            );
        }
        let quest = || self.story.names[usize::from(s.quest.card)].as_str();
        match s.phase {
            Phase::Sponsor => format!("sponsoring {}", quest()),
            Phase::Build => format!(
                "P{} laying out stage {} of {}",
                s.quest.sponsor + 1,
                s.quest.stage + 1,
                s.quest.stages
            ),
            Phase::Join => format!("joining {}", quest()),
            Phase::Commit => format!(
                "questors committing cards face down for stage {}",
                s.quest.stage + 1
            ),
            Phase::Bid => format!("bidding on the test of stage {}", s.quest.stage + 1),
            Phase::PayBid { seat, left } => {
                format!(
                    "P{} discarding {} for the test",
                    seat + 1,
                    Count(left.into(), "more card")
                )
            }
            Phase::Enter => "entering the tournament".into(),
            Phase::Joust if s.tourney.last => "the final tournament".into(),
            Phase::Joust => format!("tournament round {}", s.tourney.round + 1),
            Phase::EventDiscard { .. } => "discarding for the event".into(),
            Phase::Over => "nothing: the game is over".into(),
            _ => "the rules' next step".into(),
        }
    }

    /// Why `action` is not legal now.
    pub(crate) fn explain(&self, s: &State, action: &Action) -> String {
        let Some(seat) = self.decider(s) else {
            return "the game is over".into();
        };
        let me = s.player(seat);
        let name = |c: u8| self.adventure.names[usize::from(c)].as_str();
        let now = || format!("now is the time for {}", self.phase_words(s));
        if let Some(card) = match *action {
            Action::Add(c) | Action::Discard(c) | Action::Play(c) => Some(c),
            Action::Remove { card, .. } => Some(card),
            _ => None,
        } {
            if usize::from(card) >= self.adventure.len() {
                return "there is no such card".into();
            }
            if !me.hand.contains(card) {
                return format!("you hold no {}", name(card));
            }
        }
        if let Action::Remove {
            card,
            seat: t,
            ally,
        } = *action
        {
            let Some(&(_, targets)) = self.removers.iter().find(|(c, _)| *c == card) else {
                return format!("{} cannot remove allies", name(card));
            };
            if t == seat && targets == Targets::Others {
                return format!("{} removes another player's ally, not yours", name(card));
            }
            if usize::from(t) >= s.seats() || !s.player(t).allies.contains(ally) {
                return format!("P{} has no {} in play", t + 1, name(ally));
            }
            return format!(
                "{} may be played during your turn, or during a quest or tournament you take part in",
                name(card)
            );
        }
        if let Action::Preview { card, stage } = *action {
            let Some(&(_, uses)) = self.previewers.iter().find(|(c, _)| *c == card) else {
                return format!("{} previews no stage", name(card));
            };
            if !me.allies.contains(card) {
                return format!("you have no {} in play", name(card));
            }
            if s.phase != Phase::Commit || !s.quest.questors.contains(usize::from(seat)) {
                return "a stage may be previewed by a questor before committing cards for a stage"
                    .into();
            }
            if me.previews >= uses {
                return format!(
                    "{} has previewed {} this quest already",
                    name(card),
                    Count(uses.into(), "stage")
                );
            }
            if stage < s.quest.stage || stage >= s.quest.stages {
                return format!(
                    "the stages still face down are {} to {}",
                    s.quest.stage + 1,
                    s.quest.stages
                );
            }
            return format!("you already know stage {}", stage + 1);
        }
        if self.over_limit(s) == Some(seat) {
            return match action {
                Action::Play(c) => format!("{} is no ally", name(*c)),
                _ => format!(
                    "you hold {} cards, more than {}: discard or play allies first",
                    me.hand.total(),
                    self.n.hand_limit
                ),
            };
        }
        match (*action, s.phase) {
            (Action::Sponsor, Phase::Sponsor) => format!(
                "your hand cannot set up {}: it needs {} stages, each one foe (with weapons of \
                 different types) beating the one before, or at most {}",
                self.story.names[usize::from(s.quest.card)],
                s.quest.stages,
                Count(self.n.tests_per_quest.into(), "test")
            ),
            (Action::Add(c), Phase::Build) => self.explain_build(s, c),
            (Action::Done, Phase::Build) => self.explain_close(s),
            (Action::Add(c), Phase::Commit | Phase::Joust) => {
                let committed = s.sealed.cards(usize::from(seat));
                match self.kind[usize::from(c)] {
                    Kind::Foe | Kind::Test => {
                        "foes and tests are the sponsor's: commit weapons, allies or an Amour".into()
                    }
                    Kind::Weapon => format!(
                        "you already committed {} {}: no two weapons of one type",
                        committed.get(c),
                        name(c)
                    ),
                    Kind::Amour => format!(
                        "at most {} Amour per {}",
                        self.n.amours_per_quest,
                        if s.phase == Phase::Commit {
                            "quest"
                        } else {
                            "tournament"
                        }
                    ),
                    Kind::Ally => now(),
                }
            }
            (Action::Bid(n), Phase::Bid) => {
                let min = s.bidding.min_bid();
                let max = self.max_bid(s, seat);
                if s.quest.questors.len() == 1 && u32::from(n) > min && max >= min {
                    format!("alone on the test you bid its minimum, {min}")
                } else if u32::from(n) < min {
                    format!("a bid must be at least {min}")
                } else {
                    format!(
                        "you can bid at most {max}: {} cards in hand and {} free bids",
                        me.hand.total(),
                        self.free_bids(s, seat)
                    )
                }
            }
            (Action::Discard(c), Phase::EventDiscard { .. }) => format!(
                "{} is no {}: discard one of those",
                name(c),
                Kind::ALL
                    .get(usize::from(me.owe_kind))
                    .map_or("card", |k| k.name())
            ),
            (Action::Drop, Phase::Bid) => format!(
                "alone on the test you must bid its minimum, {}, when you can",
                s.bidding.min_bid()
            ),
            (Action::Play(c), Phase::Bid)
                if self.is(c, Kind::Amour) && self.n.amour_during_tests =>
            {
                format!("at most {} Amour per quest", self.n.amours_per_quest)
            }
            (Action::Play(c), Phase::Bid)
                if !self.is(c, Kind::Ally) && !self.is(c, Kind::Amour) =>
            {
                format!("{} is neither an ally nor an Amour", name(c))
            }
            (Action::Play(c), Phase::Bid) if self.is(c, Kind::Amour) => {
                "an Amour comes into play in a stage's or tournament's commitment".into()
            }
            (Action::Play(_), _) if self.n.allies_during_tests => {
                "an ally is put into play from hand only over the hand limit or at one's turn to bid on a test; commit it in a stage or tournament instead".into()
            }
            (Action::Play(_), _) => {
                "an ally is put into play from hand only over the hand limit; commit it in a stage or tournament instead".into()
            }
            _ => now(),
        }
    }

    fn explain_build(&self, s: &State, card: u8) -> String {
        let i = usize::from(s.quest.stage);
        let stage = s.quest.built[i];
        let name = self.adventure.names[usize::from(card)].as_str();
        let has_foe = self.has_foe(&stage);
        let has_test = self.test_of(&stage).is_some();
        match self.kind[usize::from(card)] {
            Kind::Ally | Kind::Amour => {
                return format!("{name} cannot go on a stage: only foes, weapons and tests");
            }
            Kind::Foe | Kind::Test if has_foe || has_test => {
                return format!(
                    "stage {} already has its {}: only one foe or test per stage; add weapons or `done`",
                    i + 1,
                    if has_foe { "foe" } else { "test" }
                );
            }
            Kind::Weapon if has_test => {
                return format!("stage {} is a test: nothing goes with it", i + 1);
            }
            Kind::Weapon if !has_foe => {
                return format!("a stage starts with a foe or a test; {name} strengthens a foe");
            }
            Kind::Weapon if stage.get(card) >= self.n.weapon_copies => {
                return format!(
                    "the foe already carries a {name}: no two weapons of the same type"
                );
            }
            Kind::Test if self.tests_laid(s) >= self.n.tests_per_quest => {
                return format!(
                    "only {} per quest, and this quest has one already",
                    Count(self.n.tests_per_quest.into(), "test")
                );
            }
            _ => {}
        }
        let mut next = stage;
        next.add(card, 1);
        let mut sit = self.situation(s, Some(s.quest.sponsor));
        let bp = self.bp_of(&next, &mut sit);
        match self.bar(s, i) {
            Some(prev) if self.is(card, Kind::Foe) && bp <= prev => format!(
                "stage {} must have more battle points than the stage before ({prev}): {name} has {bp}, \
                 and your weapons cannot lift it enough while leaving the rest of the quest possible",
                i + 1
            ),
            _ => format!(
                "with {name} on stage {}, your remaining cards cannot set up the other stages \
                 with increasing battle points",
                i + 1
            ),
        }
    }

    fn explain_close(&self, s: &State) -> String {
        let i = usize::from(s.quest.stage);
        let stage = s.quest.built[i];
        if stage.is_empty() {
            return format!("put a foe or a test on stage {} first", i + 1);
        }
        let mut sit = self.situation(s, Some(s.quest.sponsor));
        let bp = self.bp_of(&stage, &mut sit);
        match self.bar(s, i) {
            Some(prev) if self.test_of(&stage).is_none() && bp <= prev => format!(
                "stage {} has {bp} battle points but must have more than the stage before ({prev}): add weapons",
                i + 1
            ),
            _ => "the rest of the quest could not be set up after this stage: add weapons or choose differently".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use grail_engine::game::{NoEvents, Rules, Setup};
    use grail_engine::rng::GameRng;

    use super::super::state::{Action, Phase};

    /// Issue 14: a card laid on a face-down stage or committed face down is named to the seat
    /// that adds it alone; every other seat and a spectator read that a card went face down.
    #[test]
    fn a_face_down_card_is_named_to_its_owner_alone() {
        let q = super::super::tests::rules();
        let mut s = q.setup(&Setup::new(3, 5)).unwrap();
        let mut rng = GameRng::new(1);
        let (mut built, mut committed) = (false, false);
        let mut legal = Vec::new();
        while let Some(mover) = q.to_move(&s) {
            q.legal_actions(&s, &mut legal);
            // Sponsor and join whenever possible, so that stages are laid and cards committed.
            let action = legal
                .iter()
                .find(|a| matches!(a, Action::Sponsor | Action::Join | Action::Add(_)))
                .copied()
                .unwrap_or_else(|| legal[rng.index(legal.len())]);
            if let Action::Add(card) = action {
                let id = &q.adventure.ids[usize::from(card)];
                let stage = s.quest.stage + 1;
                let hidden = match s.phase {
                    Phase::Build => {
                        built = true;
                        format!("add a card face down to stage {stage}")
                    }
                    _ => {
                        committed = true;
                        "add a card face down".to_string()
                    }
                };
                assert_eq!(
                    q.format_action_for(&s, &action, Some(mover)),
                    format!("add {id}")
                );
                assert_eq!(q.format_action(&s, &action), format!("add {id}"));
                assert_eq!(q.format_action_for(&s, &action, None), hidden);
                for other in (0..3).filter(|&p| p != mover) {
                    assert_eq!(q.format_action_for(&s, &action, Some(other)), hidden);
                }
            }
            q.apply(&mut s, &action, &mut NoEvents);
            if built && committed {
                return;
            }
        }
        panic!(
            "the game laid no stage or committed no card (built {built}, committed {committed})"
        );
    }
}
