//! The move notation. Figures are named by the seat they stand on (seats are fixed; the
//! table turns above them):
//!
//! ```text
//! place 12                                  put your next Knight on seat 12
//! play 3-6 knight@12 5                      move your Knight on seat 12 five seats forward
//! play 1-5 knight@12 -3                     …three seats backward
//! play silver-1-7 king 4                    move the King (a silver figure) four forward
//! play both-4-8 bronze@21 6                 move the bronze Prince on seat 21
//! play silver-ring silver@14                add a ring to the silver Prince on seat 14
//! play score-all                            score all your Knights
//! play carpet knight@0 knight@13            score these Knights for the card
//! play three-red                            take the card's penalty (no Knights qualify)
//! draw king                                 draw from your King pile
//! ```

use grail_engine::diag::no_such;

use super::Artus;
use super::state::{Action, Figure, Phase, State};

const VERBS: [&str; 4] = ["place", "play", "score", "draw"];

impl Artus {
    /// How a figure is written in moves: `knight@12`, `king`, `silver@7`.
    pub(crate) fn figure_token(&self, state: &State, figure: Figure) -> String {
        let seat = state.ring.seat_of(figure).unwrap_or(0);
        match state.knight_of(figure) {
            Some(_) => format!("knight@{seat}"),
            None if figure == state.king => "king".into(),
            None => format!(
                "{}@{seat}",
                self.colors[usize::from(self.princes[usize::from(figure)].color)]
            ),
        }
    }

    pub(crate) fn notation(&self, state: &State, action: &Action) -> String {
        let card = |c: u8| self.cards[usize::from(c)].id.as_str();
        match *action {
            Action::Place { seat } => format!("place {seat}"),
            Action::Move {
                card: c,
                figure,
                steps,
            } => format!(
                "play {} {} {steps}",
                card(c),
                self.figure_token(state, figure)
            ),
            Action::Ring { card: c, prince } => {
                format!("play {} {}", card(c), self.figure_token(state, prince))
            }
            Action::Claim { card: c } => format!("play {}", card(c)),
            Action::Score { card: c, knights } => {
                let all = self.all_knights(state, state.current);
                let listed = self.cards[usize::from(c)]
                    .score_effect()
                    .is_some_and(|(pick, _, _)| pick != super::Pick::All || knights != all);
                let mut text = if matches!(state.phase, Phase::Choose { .. }) {
                    "score".to_string()
                } else {
                    format!("play {}", card(c))
                };
                if listed {
                    let mut seats: Vec<u8> = state
                        .knight_seats(state.current)
                        .filter(|&(i, _)| knights & (1 << i) != 0)
                        .map(|(_, s)| s)
                        .collect();
                    seats.sort_unstable();
                    for s in seats {
                        text.push_str(&format!(" knight@{s}"));
                    }
                }
                text
            }
            Action::Draw { pile } => format!(
                "draw {}",
                self.decks
                    .get(usize::from(pile))
                    .map_or("?", |d| d.word.as_str())
            ),
        }
    }

    pub(crate) fn read(&self, state: &State, text: &str) -> Result<Action, String> {
        let lower = text.trim().to_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        let Some((&verb, rest)) = words.split_first() else {
            return Err("type a move, or `help`".into());
        };
        match verb {
            "place" => match rest {
                [seat] => Ok(Action::Place {
                    seat: self.seat_number(seat)?,
                }),
                _ => Err("place on which seat? e.g. `place 12`".into()),
            },
            "draw" => match rest {
                [word] => {
                    let word = word.strip_suffix("-cards").unwrap_or(word);
                    match self.decks.iter().position(|d| d.word == word) {
                        Some(pile) => Ok(Action::Draw { pile: pile as u8 }),
                        None => Err(no_such(
                            "pile",
                            word,
                            self.decks.iter().map(|d| d.word.as_str()),
                        )),
                    }
                }
                _ => Err(format!(
                    "draw from which pile? e.g. `draw {}`",
                    self.decks[0].word
                )),
            },
            "play" => self.read_play(state, rest),
            "score" => {
                let Phase::Choose { card, .. } = state.phase else {
                    return Err(
                        "`score` chooses the Knights for a scoring card just played; play a card with `play <card>`"
                            .into(),
                    );
                };
                if rest.is_empty() {
                    return Err("score which Knights? e.g. `score knight@12 knight@20`".into());
                }
                let knights = self.read_knights(state, rest)?;
                Ok(Action::Score {
                    card,
                    knights: self.canonical_choice(state, state.current, knights),
                })
            }
            other => Err(no_such("move", other, VERBS)),
        }
    }

    fn seat_number(&self, word: &str) -> Result<u8, String> {
        word.parse::<u8>()
            .ok()
            .filter(|&s| usize::from(s) < self.board.seats)
            .ok_or_else(|| {
                format!(
                    "`{word}` is not a seat: the seats are 0 to {}",
                    self.board.seats - 1
                )
            })
    }

    fn read_play(&self, state: &State, rest: &[&str]) -> Result<Action, String> {
        let Some((&id, args)) = rest.split_first() else {
            return Err("play which card? e.g. `play 3-6 knight@12 5`".into());
        };
        let card = self
            .card_index(id)
            .ok_or_else(|| no_such("card", id, self.cards.iter().map(|c| c.id.as_str())))?;
        let def = &self.cards[usize::from(card)];
        let me = state.current;
        let is_steps = |w: &str| {
            w.strip_prefix(['+', '-'])
                .unwrap_or(w)
                .bytes()
                .all(|b| b.is_ascii_digit())
        };
        match args {
            [figure, steps] if is_steps(steps) => {
                let figure = self.read_figure(state, figure)?;
                let steps: i8 = steps
                    .strip_prefix('+')
                    .unwrap_or(steps)
                    .parse()
                    .ok()
                    .filter(|&s: &i8| s != 0)
                    .ok_or_else(|| {
                        format!("`{steps}` is not a number of seats (forward: 5, backward: -5)")
                    })?;
                Ok(Action::Move {
                    card,
                    figure,
                    steps,
                })
            }
            [] => match def.score_effect() {
                Some((super::Pick::All, _, _)) => Ok(Action::Score {
                    card,
                    knights: self.all_knights(state, me),
                }),
                Some((super::Pick::Chosen, _, _)) => Ok(Action::Claim { card }),
                Some((super::Pick::Best, _, _)) => Err(format!(
                    "`{}` scores your best Knight: name it, e.g. `play {} knight@<seat>`",
                    def.id, def.id
                )),
                None => Err(format!(
                    "`{}` needs a figure and a number of seats, e.g. `play {} knight@12 3`",
                    def.id, def.id
                )),
            },
            _ => {
                let figures = args
                    .iter()
                    .map(|a| self.read_figure(state, a))
                    .collect::<Result<Vec<_>, _>>()?;
                if let [prince] = figures.as_slice()
                    && state.knight_of(*prince).is_none()
                {
                    return Ok(Action::Ring {
                        card,
                        prince: *prince,
                    });
                }
                if def
                    .score_effect()
                    .is_some_and(|(p, _, _)| p == super::Pick::Chosen)
                {
                    return Err(format!(
                        "first play the card (`play {}`), then choose the Knights with `score knight@<seat> …`",
                        def.id
                    ));
                }
                let knights = self.read_knights(state, args)?;
                Ok(Action::Score {
                    card,
                    knights: self.normalise_choice(state, card, knights),
                })
            }
        }
    }

    /// A list of the player's own Knights, as a bit mask by Knight index.
    fn read_knights(&self, state: &State, words: &[&str]) -> Result<u32, String> {
        let me = state.current;
        let mut knights = 0u32;
        for word in words {
            let f = self.read_figure(state, word)?;
            match state.knight_of(f) {
                Some((owner, i)) if owner == me => {
                    if knights & (1 << i) != 0 {
                        return Err(format!("`{word}` is named twice"));
                    }
                    knights |= 1 << i;
                }
                Some((owner, _)) => {
                    return Err(format!(
                        "the Knight on `{word}` is P{}'s; you score your own Knights",
                        owner + 1
                    ));
                }
                None => {
                    return Err(format!(
                        "`{word}` is not a Knight; a list of figures names Knights to score"
                    ));
                }
            }
        }
        Ok(knights)
    }

    /// Knights that score alike are one choice: a named choice becomes the canonical one.
    fn normalise_choice(&self, state: &State, card: u8, knights: u32) -> u32 {
        let me = state.current;
        match self.cards[usize::from(card)].score_effect() {
            Some((super::Pick::Best, _, _)) => match self.best_knight(state, me) {
                Some((i, best)) if knights.count_ones() == 1 => {
                    let named = knights.trailing_zeros() as u8;
                    let seat = state.ring.seat_of(state.knight(me, named));
                    if seat.is_some_and(|s| self.value_at(state, s) == best) {
                        1 << i
                    } else {
                        knights
                    }
                }
                _ => knights,
            },
            _ => knights,
        }
    }

    /// `knight@12`, `king`, `king@3`, `silver@7`, or `@12` for whoever sits there.
    fn read_figure(&self, state: &State, word: &str) -> Result<Figure, String> {
        if word == "king" {
            return Ok(state.king);
        }
        let Some((kind, seat)) = word.split_once('@') else {
            return Err(format!(
                "`{word}` is not a figure: write `knight@<seat>`, `king`, or a Prince as `{}@<seat>`",
                self.colors.first().map_or("silver", String::as_str)
            ));
        };
        let seat = self.seat_number(seat)?;
        let Some(figure) = state.ring.figure_at(seat) else {
            return Err(format!("seat {seat} is empty"));
        };
        let knight = state.knight_of(figure).is_some();
        let fits = match kind {
            "" => true,
            "knight" => knight,
            "king" => figure == state.king,
            "prince" => !knight,
            color => {
                if !self.colors.iter().any(|c| c == color) {
                    return Err(no_such(
                        "kind of figure",
                        color,
                        ["knight", "king", "prince"]
                            .into_iter()
                            .chain(self.colors.iter().map(String::as_str)),
                    ));
                }
                !knight
                    && self.colors[usize::from(self.princes[usize::from(figure)].color)] == color
            }
        };
        if fits {
            Ok(figure)
        } else {
            Err(format!(
                "on seat {seat} sits {}, not a {kind}",
                self.figure_name(state, figure)
            ))
        }
    }

    pub(crate) fn help(&self) -> String {
        let piles: Vec<&str> = self
            .decks
            .iter()
            .filter(|d| d.in_game)
            .map(|d| d.word.as_str())
            .collect();
        let colors = self.colors.join("@<seat>, ");
        [
            "Moves (figures are named by their seat: `knight@12`, `king`, ".to_string()
                + &colors
                + "@<seat>):",
            "  place <seat>                      before play: put your next Knight on an empty seat".into(),
            "  play <card> <figure> <n>          move the figure n seats forward (-n: backward, where the card allows)".into(),
            "  play <card> <prince>              add a ring to that Prince (never the King)".into(),
            "  play <card>                       a scoring card: score all your Knights, or (cards you choose Knights for)".into(),
            "                                    take the penalty when none qualifies, or choose them next:".into(),
            "  score knight@<seat> …             the Knights to score for the card just played".into(),
            "  play <card> knight@<seat>         score your best Knight".into(),
            format!("  draw <pile>                       after playing: draw from your {} pile", piles.join(" or ")),
            "Forward is clockwise; a figure landing on an occupied seat pushes its occupant to the next empty seat counter-clockwise.".into(),
            "Type `legal` to list every move you can make now.".into(),
        ]
        .join("\n")
    }

    /// A figure in words: "P1's Knight", "the King (silver)", "the bronze Prince".
    pub(crate) fn figure_name(&self, state: &State, figure: Figure) -> String {
        match state.knight_of(figure) {
            Some((owner, _)) => format!("P{}'s Knight", owner + 1),
            None => {
                let color = self
                    .princes
                    .get(usize::from(figure))
                    .map_or("?", |p| self.colors[usize::from(p.color)].as_str());
                if figure == state.king {
                    format!("the King ({color})")
                } else {
                    format!("the {color} Prince")
                }
            }
        }
    }

    /// What the player to move is asked for, in words.
    pub(crate) fn phase_text(&self, state: &State) -> String {
        let who = format!("P{}", state.current + 1);
        match state.phase {
            Phase::Place => format!(
                "{who} places a Knight ({} of {})",
                state.placed / state.players.len() as u8 + 1,
                state.knights_each
            ),
            Phase::Play { left } => format!("{who} plays a card ({left} to play this turn)"),
            Phase::Choose { card, .. } => format!(
                "{who} chooses the Knights to score for {}",
                self.cards[usize::from(card)].name
            ),
            Phase::Draw { left } => format!("{who} draws ({left} to draw this turn)"),
            Phase::Over => "game over".into(),
        }
    }
}
