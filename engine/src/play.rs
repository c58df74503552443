//! The match driver: one game under way, played by text (a person, a script, a replay) or by
//! agents, with its history. The terminal game, scripts and replays all go through it; the
//! simulation loop does not (it keeps no history), but decides through the same
//! [`agent::decide`] so a seed plays the same game in both.

use std::fmt;

use crate::agent::{self, Agent, Observer};
use crate::digest::short_digest;
use crate::game::{MoveTerms, Outcome, Rules, Seat, Setup};
use crate::rng::GameRng;
use crate::seats::seat_name;
use crate::view::{LogEntry, MoveView, Over, SeatScore, View};

/// One move made, as the history and replays keep it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// Who decided.
    pub seat: Seat,
    /// The move in canonical notation (as `format_action` prints it, not as typed).
    pub text: String,
    /// [`short_digest`] of the state after the move.
    pub digest: String,
    /// What happened, in words.
    pub events: Vec<String>,
    /// The move and its events as each seat was shown them (index = seat), then as a
    /// spectator was: nobody reads a card they cannot see (see [`Rules::format_action_for`]).
    pub shown: Vec<Shown>,
}

impl Played {
    /// What `viewer` (`None`: a spectator) was shown of this move.
    pub fn shown_to(&self, viewer: Option<Seat>) -> &Shown {
        let i = viewer.unwrap_or(self.shown.len() - 1);
        &self.shown[i.min(self.shown.len() - 1)]
    }
}

/// A move as one viewer may read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    pub text: String,
    pub events: Vec<String>,
}

/// Why a move was not played. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The game is over; nobody moves.
    GameOver,
    /// The text is not a move in the notation; `message` is the parser's.
    Unparsable { text: String, message: String },
    /// A move, but not one `seat` may make now; `reason` is the rules' `why_illegal`.
    Illegal {
        text: String,
        seat: Seat,
        reason: String,
    },
}

impl PlayError {
    /// The player-facing reason alone: the parser's message or `why_illegal`.
    pub fn reason(&self) -> &str {
        match self {
            PlayError::GameOver => "the game is over",
            PlayError::Unparsable { message, .. } => message,
            PlayError::Illegal { reason, .. } => reason,
        }
    }
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver => f.write_str("the game is over"),
            PlayError::Unparsable { text, message } => {
                write!(f, "cannot read '{text}' as a move: {message}")
            }
            PlayError::Illegal { text, seat, reason } => {
                write!(
                    f,
                    "'{text}' is not legal for {}: {reason}",
                    seat_name(*seat)
                )
            }
        }
    }
}

impl std::error::Error for PlayError {}

pub struct Match<'r, R: Rules> {
    rules: &'r R,
    setup: Setup,
    state: R::State,
    history: Vec<Played>,
    /// What happened during setup, in words (see [`Rules::setup_with_events`]).
    setup_events: Vec<String>,
    /// The same as each seat, then a spectator, may read it.
    setup_shown: Vec<Vec<String>>,
    /// Scratch buffers, reused from move to move.
    legal: Vec<R::Action>,
    events: Vec<R::Event>,
    /// Determinises observations for bots (the same stream the simulation uses, so a
    /// bots-only match plays the simulated game of its seed).
    observer: Observer<R>,
    /// Determinises the views rendered for people, apart from the bots' stream so that
    /// looking at the table never changes what a bot will do.
    render_rng: GameRng,
}

/// Everyone a move is shown to: each seat, then a spectator (`None`).
fn viewers(players: usize) -> impl Iterator<Item = Option<Seat>> {
    (0..players).map(Some).chain(std::iter::once(None))
}

impl<'r, R: Rules> Match<'r, R> {
    /// Sets the game up; fails on a player count outside `Rules::players` or as
    /// `Rules::setup` does (stack requests).
    pub fn new(rules: &'r R, setup: Setup) -> Result<Self, String> {
        let range = rules.players();
        if !range.contains(&setup.players) {
            return Err(format!(
                "this game is for {} to {} players, not {}",
                range.start(),
                range.end(),
                setup.players
            ));
        }
        let mut events = Vec::new();
        let state = rules.setup_with_events(&setup, &mut events)?;
        let setup_events = events
            .iter()
            .map(|e| rules.describe_event(&state, e))
            .collect();
        let setup_shown = viewers(setup.players)
            .map(|viewer| {
                events
                    .iter()
                    .map(|e| rules.describe_event_for(&state, e, viewer))
                    .collect()
            })
            .collect();
        let observer = Observer::for_game(setup.seed);
        let render_rng = GameRng::new(agent::view_seed(!setup.seed));
        Ok(Match {
            rules,
            setup,
            state,
            history: Vec::new(),
            setup_events,
            setup_shown,
            legal: Vec::new(),
            events,
            observer,
            render_rng,
        })
    }

    pub fn rules(&self) -> &'r R {
        self.rules
    }
    pub fn setup(&self) -> &Setup {
        &self.setup
    }
    /// The true state. Drivers and tests only: players get [`Match::observe`].
    pub fn state(&self) -> &R::State {
        &self.state
    }
    pub fn history(&self) -> &[Played] {
        &self.history
    }
    /// What happened during setup, before the first move, in words.
    pub fn setup_events(&self) -> &[String] {
        &self.setup_events
    }
    /// What `viewer` (`None`: a spectator) may read of what happened during setup.
    pub fn setup_events_for(&self, viewer: Option<Seat>) -> &[String] {
        let last = self.setup_shown.len() - 1;
        &self.setup_shown[viewer.map_or(last, |s| s.min(last))]
    }
    pub fn to_move(&self) -> Option<Seat> {
        self.rules.to_move(&self.state)
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.rules.outcome(&self.state)
    }
    /// Why nobody can move though the game has not ended, if so.
    pub fn stuck(&self) -> Option<crate::game::Stuck> {
        self.rules.stuck(&self.state)
    }
    /// Digest of the current state (of the setup before any move).
    pub fn digest(&self) -> String {
        short_digest(&self.state)
    }

    pub fn legal_actions(&mut self) -> &[R::Action] {
        self.refresh_legal();
        &self.legal
    }

    /// The legal moves in notation, in the rules' stable order (empty once the game is over).
    pub fn legal_texts(&mut self) -> Vec<String> {
        self.refresh_legal();
        self.legal
            .iter()
            .map(|a| self.rules.format_action(&self.state, a))
            .collect()
    }

    /// For each legal move (in [`Self::legal_texts`]' order), what it would change in the
    /// mover's score, when the score reads only what everyone sees (`None` otherwise): the
    /// move is made on a copy of the game, the copy's score read, the copy dropped.
    pub fn legal_gains(&mut self) -> Vec<Option<i64>> {
        self.refresh_legal();
        let seat = self.rules.to_move(&self.state);
        let (Some(seat), true) = (seat, self.rules.score_is_public()) else {
            return vec![None; self.legal.len()];
        };
        let score = |state: &R::State| -> Option<i64> {
            let parts = self.rules.score_breakdown(state);
            let (_, parts) = parts.into_iter().find(|(s, _)| *s == seat)?;
            Some(parts.iter().map(|(_, v)| v).sum())
        };
        let before = score(&self.state);
        self.legal
            .iter()
            .map(|a| {
                let mut after = self.state.clone();
                self.rules.apply(&mut after, a, &mut crate::game::NoEvents);
                Some(score(&after)? - before?)
            })
            .collect()
    }

    /// For each legal move (in [`Self::legal_texts`]' order), what it gives and costs
    /// ([`Rules::move_terms`]), its score change being, where the rules say none, the one
    /// [`Self::legal_gains`] works out (none when it is 0).
    pub fn legal_terms(&mut self) -> Vec<MoveTerms> {
        let gains = self.legal_gains();
        (self.legal.iter().zip(gains))
            .map(|(a, gain)| {
                let mut terms = self.rules.move_terms(&self.state, a);
                if terms.score.is_none() {
                    terms.score = gain;
                }
                terms.score = terms.score.filter(|&g| g != 0);
                terms
            })
            .collect()
    }

    fn refresh_legal(&mut self) {
        if self.rules.to_move(&self.state).is_some() {
            self.rules.legal_actions(&self.state, &mut self.legal);
        } else {
            self.legal.clear();
        }
    }

    /// What `seat` may know now, determinised (with the generator for people's views).
    pub fn observe(&mut self, seat: Seat) -> R::State {
        self.rules.observe(&self.state, seat, &mut self.render_rng)
    }

    /// The step being decided, in words ([`Rules::prompt`]).
    pub fn prompt(&self) -> String {
        self.rules.prompt(&self.state)
    }

    /// Where each seat's score comes from (see [`Rules::score_breakdown`]).
    pub fn score_breakdown(&self) -> Vec<(Seat, Vec<(String, i64)>)> {
        self.rules.score_breakdown(&self.state)
    }

    /// Every place a card is, with the true cards (see [`Rules::zones`]): for the
    /// game-over screen, where every hand is shown.
    pub fn zones(&self) -> Vec<(String, Vec<String>)> {
        self.rules.zones(&self.state)
    }

    /// The table as `seat` sees it (from its observation), or as everyone sees it (`None`).
    pub fn render(&mut self, seat: Option<Seat>) -> String {
        match seat {
            Some(s) => {
                let view = self.observe(s);
                self.rules.render(&view, Some(s))
            }
            None => self.rules.render(&self.state, None),
        }
    }

    /// What `viewer` (`None`: a spectator) may see of the game now ([`View`]): the table
    /// from the viewer's observation, as [`Self::render`] draws it; the scores when they
    /// are public or the game is over; the moves when the viewer is to move.
    pub fn view(&mut self, viewer: Option<Seat>) -> View {
        let table = match viewer {
            Some(s) => {
                let seen = self.observe(s);
                self.rules.table_parts(&seen, Some(s))
            }
            None => self.rules.table_parts(&self.state, None),
        };
        let outcome = self.outcome();
        let scores = match self.rules.score_is_public() || outcome.is_some() {
            true => (self.score_breakdown().into_iter())
                .map(|(seat, parts)| SeatScore {
                    seat,
                    total: parts.iter().map(|(_, v)| v).sum(),
                    parts,
                })
                .collect(),
            false => Vec::new(),
        };
        let to_move = self.to_move();
        let moves = match viewer.is_some() && viewer == to_move {
            true => {
                let terms = self.legal_terms();
                (self.legal_texts().into_iter().zip(terms).enumerate())
                    .map(|(i, (text, terms))| MoveView {
                        number: i + 1,
                        text,
                        gain: terms.score,
                        pays: terms.pays,
                        note: terms.note,
                    })
                    .collect()
            }
            false => Vec::new(),
        };
        let log = (self.history.iter())
            .map(|p| {
                let shown = p.shown_to(viewer);
                LogEntry {
                    seat: p.seat,
                    text: shown.text.clone(),
                    events: shown.events.clone(),
                }
            })
            .collect();
        View {
            game: self.rules.game_id().to_string(),
            variant: self.rules.variant().map(str::to_string),
            players: self.setup.players,
            viewer,
            to_move,
            moves_made: self.history.len(),
            table,
            scores,
            prompt: self.prompt(),
            moves,
            setup_log: self.setup_events_for(viewer).to_vec(),
            log,
            over: outcome.map(|o| Over {
                winners: o.winners,
                scores: o.scores,
                end: o.end,
            }),
        }
    }

    /// A script's question about the true state.
    pub fn inspect(&self, query: &str) -> Result<String, String> {
        self.rules.inspect(&self.state, query)
    }

    /// Reads `text` as a move for the player to move, without playing it.
    pub fn parse(&self, text: &str) -> Result<R::Action, PlayError> {
        if self.to_move().is_none() {
            return Err(PlayError::GameOver);
        }
        self.rules
            .parse_action(&self.state, text)
            .map_err(|message| PlayError::Unparsable {
                text: text.trim().to_string(),
                message,
            })
    }

    /// Plays a move given in notation.
    pub fn play_text(&mut self, text: &str) -> Result<&Played, PlayError> {
        let action = self.parse(text)?;
        self.play_as_typed(&action, text.trim())
    }

    /// Plays an action; it must be one of the legal ones.
    pub fn play(&mut self, action: &R::Action) -> Result<&Played, PlayError> {
        let text = self.rules.format_action(&self.state, action);
        self.play_as_typed(action, &text)
    }

    fn play_as_typed(&mut self, action: &R::Action, typed: &str) -> Result<&Played, PlayError> {
        let Some(seat) = self.to_move() else {
            return Err(PlayError::GameOver);
        };
        self.refresh_legal();
        if !self.legal.contains(action) {
            return Err(PlayError::Illegal {
                text: typed.to_string(),
                seat,
                reason: self.rules.why_illegal(&self.state, action),
            });
        }
        Ok(self.apply_unchecked(seat, action))
    }

    /// Lets `agent` move for the seat to move.
    pub fn bot_move(&mut self, agent: &mut (impl Agent<R> + ?Sized)) -> Result<&Played, PlayError> {
        let Some(seat) = self.to_move() else {
            return Err(PlayError::GameOver);
        };
        self.refresh_legal();
        if self.legal.is_empty() {
            return Err(PlayError::Illegal {
                text: String::new(),
                seat,
                reason: "the rules offer no legal move".to_string(),
            });
        }
        let i = agent::decide(
            self.rules,
            &self.state,
            seat,
            &self.legal,
            agent,
            &mut self.observer,
        );
        let action = self.legal[i].clone();
        Ok(self.apply_unchecked(seat, &action))
    }

    fn apply_unchecked(&mut self, seat: Seat, action: &R::Action) -> &Played {
        let text = self.rules.format_action(&self.state, action);
        let mut shown: Vec<Shown> = viewers(self.setup.players)
            .map(|viewer| Shown {
                text: self.rules.format_action_for(&self.state, action, viewer),
                events: Vec::new(),
            })
            .collect();
        self.events.clear();
        self.rules.apply(&mut self.state, action, &mut self.events);
        let events = self
            .events
            .iter()
            .map(|e| self.rules.describe_event(&self.state, e))
            .collect();
        for (viewer, view) in viewers(self.setup.players).zip(&mut shown) {
            view.events = self
                .events
                .iter()
                .map(|e| self.rules.describe_event_for(&self.state, e, viewer))
                .collect();
        }
        self.history.push(Played {
            seat,
            text,
            digest: short_digest(&self.state),
            events,
            shown,
        });
        self.history.last().expect("just pushed")
    }
}
