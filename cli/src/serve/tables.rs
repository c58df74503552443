//! The server's tables, apart from HTTP: a game played from one seat against bots, a game
//! of bots watched move by move, or a replay (or save) stepped through. Every answer is a
//! [`View`] for the one who asked: a seat's view for the holder of that seat's token, else a
//! spectator's, so nobody is sent a card they may not see.

use std::collections::BTreeMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use grail_engine::agent::AgentKind;
use grail_engine::facade::{DynGame, DynMatch};
use grail_engine::game::{Seat, Setup};
use grail_engine::replay::{Replay, ReplayFile, Step};
use grail_engine::view::View;
use serde::{Deserialize, Serialize};

use crate::content::Content;

/// At most this many tables are kept; the one least recently used makes room for a new one.
const MAX_TABLES: usize = 256;
/// A bot plays at most this many moves in answer to one request (then the page asks again).
const MAX_BOT_MOVES: usize = 2000;

/// Why a request was refused: an HTTP status, a stable code and words for the page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Refusal {
    #[serde(skip)]
    pub status: u16,
    pub code: &'static str,
    pub error: String,
}

impl Refusal {
    pub fn new(status: u16, code: &'static str, error: impl Into<String>) -> Refusal {
        Refusal {
            status,
            code,
            error: error.into(),
        }
    }

    pub fn bad(code: &'static str, error: impl Into<String>) -> Refusal {
        Refusal::new(400, code, error)
    }

    fn not_found(what: &str, id: u64) -> Refusal {
        Refusal::new(404, "not-found", format!("there is no {what} {id}"))
    }

    pub fn not_found_path() -> Refusal {
        Refusal::new(404, "not-found", "there is no such page")
    }
}

/// A game the server offers: its id, name, player counts and variants.
#[derive(Clone, Debug, Serialize)]
pub struct GameEntry {
    pub id: String,
    pub name: String,
    pub players: (u8, u8),
    pub variants: Vec<(String, String)>,
}

/// A new table: which game, how many play, who the person is (`seat`, from 1; none: bots
/// play every seat and the page watches), which bot plays the others.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTable {
    pub game: String,
    #[serde(default)]
    pub variant: Option<String>,
    pub players: usize,
    #[serde(default)]
    pub seat: Option<usize>,
    #[serde(default)]
    pub bot: Option<String>,
    #[serde(default)]
    pub seed: Option<u64>,
}

/// What the page is told about a table: its number, the token of the person's seat (only
/// in the answer that creates it), how it is played, and the view.
#[derive(Clone, Debug, Serialize)]
pub struct TableAnswer {
    pub table: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    pub mode: &'static str,
    /// For a replay: how many moves it has, and the move it is shown after.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<usize>,
    pub view: View,
}

enum Mode {
    /// One person plays `seat`; `bot` plays every other seat.
    Play {
        seat: Seat,
        token: String,
        bot: AgentKind,
    },
    /// Bots play every seat; the page steps them on.
    Watch { bot: AgentKind },
    /// A recorded game, shown after its first `at` moves.
    Replay {
        replay: Replay,
        moves: usize,
        at: usize,
    },
}

struct Table {
    game: &'static dyn DynGame,
    game_match: Box<dyn DynMatch>,
    mode: Mode,
    /// When it was last asked about (for making room).
    used: u64,
}

/// A game and its variant, as a table names them.
type GameKey = (String, Option<String>);

/// Every table of the server, and the games they are played from.
pub struct Tables {
    content: Content,
    /// Games opened so far, kept for the server's life (a table borrows its game).
    games: Mutex<BTreeMap<GameKey, &'static dyn DynGame>>,
    tables: Mutex<BTreeMap<u64, Arc<Mutex<Table>>>>,
    next: AtomicU64,
    clock: AtomicU64,
    /// Keys the seat tokens: a token cannot be guessed from the table's number.
    secret: (u64, u64),
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while a table was locked leaves it as it was before the move (moves are
    // applied whole), so it is still safe to read.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn random_u64() -> u64 {
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
}

impl Tables {
    pub fn new(content: Content) -> Tables {
        Tables {
            content,
            games: Mutex::new(BTreeMap::new()),
            tables: Mutex::new(BTreeMap::new()),
            next: AtomicU64::new(1),
            clock: AtomicU64::new(0),
            secret: (random_u64(), random_u64()),
        }
    }

    /// The games offered: the bundled ones, then the user's packs.
    pub fn games(&self) -> Vec<GameEntry> {
        let mut all = self.content.bundled_games();
        all.extend(self.content.user_games());
        all.into_iter()
            .map(|g| GameEntry {
                players: g.players.unwrap_or((1, 1)),
                variants: g.variants.into_iter().map(|v| (v.id, v.name)).collect(),
                id: g.id,
                name: g.name,
            })
            .collect()
    }

    /// Whether `name` is a game the server offers (by id, or by the folder a replay of a
    /// user's pack records): nothing else on the disk is opened for a page.
    fn offered(&self, name: &str) -> bool {
        let mut all = self.content.bundled_games();
        all.extend(self.content.user_games());
        all.iter()
            .any(|g| g.id == name || g.path.to_str() == Some(name))
    }

    pub fn open(&self, name: &str, variant: Option<&str>) -> Result<&'static dyn DynGame, Refusal> {
        if !self.offered(name) {
            return Err(Refusal::new(
                404,
                "unknown-game",
                format!("there is no game `{name}` here (the list shows the games)"),
            ));
        }
        let key = (name.to_string(), variant.map(str::to_string));
        if let Some(game) = lock(&self.games).get(&key) {
            return Ok(*game);
        }
        let opened = crate::games::open_recorded(&self.content, name, variant);
        let game: &'static dyn DynGame = match opened {
            Ok(game) => Box::leak(game),
            Err(e) => return Err(Refusal::bad("cannot-open", e.to_string())),
        };
        Ok(*lock(&self.games).entry(key).or_insert(game))
    }

    fn token(&self, table: u64, seat: Seat) -> String {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        h.write_u64(self.secret.0);
        h.write_u64(table);
        h.write_usize(seat);
        let a = h.finish();
        h.write_u64(self.secret.1);
        format!("{a:016x}{:016x}", h.finish())
    }

    /// A new table's number, never given again (its seat's token is made from it before
    /// the table is stored).
    fn new_id(&self) -> u64 {
        self.next.fetch_add(1, Ordering::Relaxed)
    }

    fn insert(&self, id: u64, table: Table) {
        let mut tables = lock(&self.tables);
        while tables.len() >= MAX_TABLES {
            let oldest = (tables.iter())
                .min_by_key(|(_, t)| lock(t).used)
                .map(|(&id, _)| id);
            match oldest {
                Some(id) => tables.remove(&id),
                None => break,
            };
        }
        tables.insert(id, Arc::new(Mutex::new(table)));
    }

    /// Seats a new table under `id` (a played one after the bots' moves up to the person's
    /// turn) and answers as its person, or a spectator, sees it; the answer carries the
    /// person's token, given only here.
    fn place(&self, id: u64, mut table: Table) -> Result<TableAnswer, Refusal> {
        table.bots_until_person()?;
        let token = match &table.mode {
            Mode::Play { token, .. } => Some(token.clone()),
            _ => None,
        };
        let mut answer = table.answer(id, token.as_deref());
        answer.token = token;
        self.insert(id, table);
        Ok(answer)
    }

    fn table(&self, id: u64) -> Result<Arc<Mutex<Table>>, Refusal> {
        let table = lock(&self.tables).get(&id).cloned();
        let table = table.ok_or_else(|| Refusal::not_found("table", id))?;
        lock(&table).used = self.clock.fetch_add(1, Ordering::Relaxed);
        Ok(table)
    }

    /// Sets a new table; bots move until the person's turn.
    pub fn create(&self, new: NewTable) -> Result<TableAnswer, Refusal> {
        let game = self.open(&new.game, new.variant.as_deref())?;
        let range = game.players();
        if !range.contains(&new.players) {
            return Err(Refusal::bad(
                "bad-players",
                format!(
                    "{} plays with {} to {} players, not {}",
                    new.game,
                    range.start(),
                    range.end(),
                    new.players
                ),
            ));
        }
        let bot = match &new.bot {
            None => AgentKind::Random,
            Some(name) => name
                .parse::<AgentKind>()
                .map_err(|e| Refusal::bad("unknown-bot", e.to_string()))?,
        };
        if let Some(seat) = new.seat
            && !(1..=new.players).contains(&seat)
        {
            return Err(Refusal::bad(
                "bad-seat",
                format!("seat {seat} is not at a table of {}", new.players),
            ));
        }
        let seed = new.seed.unwrap_or_else(|| random_u64() >> 16);
        let game_match = game
            .new_match(Setup::new(new.players, seed))
            .map_err(|e| Refusal::bad("cannot-set-up", e))?;
        let id = self.new_id();
        let mode = match new.seat {
            Some(seat) => Mode::Play {
                seat: seat - 1,
                token: self.token(id, seat - 1),
                bot,
            },
            None => Mode::Watch { bot },
        };
        let table = Table {
            game,
            game_match,
            mode,
            used: self.clock.fetch_add(1, Ordering::Relaxed),
        };
        self.place(id, table)
    }

    /// The table as the holder of `token` sees it (no token, or another seat's: as a
    /// spectator does).
    pub fn answer(&self, id: u64, token: Option<&str>) -> Result<TableAnswer, Refusal> {
        let table = self.table(id)?;
        let mut table = lock(&table);
        Ok(table.answer(id, token))
    }

    /// The person holding `token` makes `text`; then the bots move until it is their turn
    /// again or the game ends.
    pub fn play(&self, id: u64, token: &str, text: &str) -> Result<TableAnswer, Refusal> {
        let table = self.table(id)?;
        let mut table = lock(&table);
        let (seat, _) = table.person(token, "nobody plays at this table: its bots are watched")?;
        if table.game_match.to_move() != Some(seat) {
            return Err(Refusal::new(409, "not-your-turn", "it is not your turn"));
        }
        table
            .game_match
            .play_text(text)
            .map_err(|e| Refusal::new(422, "illegal-move", e.to_string()))?;
        table.bots_until_person()?;
        Ok(table.answer(id, Some(token)))
    }

    /// At a table of bots: the next `moves` moves (at least one).
    pub fn step(&self, id: u64, moves: usize) -> Result<TableAnswer, Refusal> {
        let table = self.table(id)?;
        let mut table = lock(&table);
        let Mode::Watch { bot } = table.mode else {
            return Err(Refusal::new(
                409,
                "not-watched",
                "only a table of bots is stepped on",
            ));
        };
        for _ in 0..moves.clamp(1, MAX_BOT_MOVES) {
            if table.game_match.to_move().is_none() {
                break;
            }
            table
                .game_match
                .bot_move(bot)
                .map_err(|e| Refusal::new(500, "bot-failed", e.to_string()))?;
        }
        Ok(table.answer(id, None))
    }

    /// Opens a replay or a save (its text) to step through, shown before its first move.
    pub fn open_replay(&self, text: &str) -> Result<TableAnswer, Refusal> {
        let replay = parse_replay(text)?.replay;
        let game = self.open(&replay.game, replay.variant.as_deref())?;
        let moves = replay_moves(&replay).len();
        let game_match = resume(game, &replay, 0)?;
        let table = Table {
            game,
            game_match,
            mode: Mode::Replay {
                replay,
                moves,
                at: 0,
            },
            used: self.clock.fetch_add(1, Ordering::Relaxed),
        };
        self.place(self.new_id(), table)
    }

    /// Goes on playing a save (its text) from where it stopped, from the seat a person
    /// played, against the bot the save names for the others.
    pub fn resume_save(&self, text: &str) -> Result<TableAnswer, Refusal> {
        let file = parse_replay(text)?;
        let game = self.open(&file.replay.game, file.replay.variant.as_deref())?;
        let agents = file.replay.agents.clone().unwrap_or_default();
        let Some(seat) = agents.iter().position(|a| a == "human") else {
            return Err(Refusal::bad(
                "no-person",
                "nobody played this game in person: step through it instead",
            ));
        };
        let bot = (agents.iter())
            .find_map(|a| a.parse::<AgentKind>().ok())
            .unwrap_or(AgentKind::Random);
        let game_match = game
            .resume(&file, false)
            .map_err(|f| Refusal::new(422, "replay-failed", f.to_string()))?;
        let id = self.new_id();
        let table = Table {
            game,
            game_match,
            mode: Mode::Play {
                seat,
                token: self.token(id, seat),
                bot,
            },
            used: self.clock.fetch_add(1, Ordering::Relaxed),
        };
        self.place(id, table)
    }

    /// The game at a played table as a save file, for the holder of its seat's token.
    pub fn save(&self, id: u64, token: &str) -> Result<String, Refusal> {
        let table = self.table(id)?;
        let table = lock(&table);
        let (seat, bot) = table.person(token, "only a played game is saved")?;
        let players = table.game_match.setup().players;
        let agents = (0..players)
            .map(|s| match s == seat {
                true => "human".to_string(),
                false => bot.to_string(),
            })
            .collect();
        Ok(table.game_match.to_replay(Some(agents)).to_ron())
    }

    /// A replay shown after its first `at` moves (at most its length).
    pub fn seek(&self, id: u64, at: usize) -> Result<TableAnswer, Refusal> {
        let table = self.table(id)?;
        let mut table = lock(&table);
        let game = table.game;
        let Mode::Replay {
            replay,
            moves,
            at: now,
        } = &mut table.mode
        else {
            return Err(Refusal::new(
                409,
                "not-a-replay",
                "only a replay is stepped through",
            ));
        };
        let at = at.min(*moves);
        let game_match = resume(game, replay, at)?;
        *now = at;
        table.game_match = game_match;
        Ok(table.answer(id, None))
    }
}

impl Table {
    /// The table as the holder of `token` sees it, read under the same lock as the change
    /// that the answer reports (another request's change cannot slip in between).
    fn answer(&mut self, id: u64, token: Option<&str>) -> TableAnswer {
        let viewer = self.viewer(token);
        let (length, at) = match &self.mode {
            Mode::Replay { moves, at, .. } => (Some(*moves), Some(*at)),
            _ => (None, None),
        };
        TableAnswer {
            table: id,
            token: None,
            mode: self.mode_name(),
            length,
            at,
            view: self.game_match.view(viewer),
        }
    }

    /// The seat and bot of a played table whose person holds `token`; refused with
    /// `not_played` at a table nobody plays, and as not theirs for another token.
    fn person(&self, token: &str, not_played: &str) -> Result<(Seat, AgentKind), Refusal> {
        let Mode::Play { seat, bot, .. } = self.mode else {
            return Err(Refusal::new(409, "not-yours", not_played));
        };
        match self.viewer(Some(token)) == Some(seat) {
            true => Ok((seat, bot)),
            false => Err(Refusal::new(
                403,
                "not-yours",
                "that is not your seat's token",
            )),
        }
    }

    fn viewer(&self, token: Option<&str>) -> Option<Seat> {
        match (&self.mode, token) {
            (Mode::Play { seat, token: t, .. }, Some(given)) if given == t => Some(*seat),
            _ => None,
        }
    }

    fn mode_name(&self) -> &'static str {
        match self.mode {
            Mode::Play { .. } => "play",
            Mode::Watch { .. } => "watch",
            Mode::Replay { .. } => "replay",
        }
    }

    /// At a played table, the bots move until the person is to move or the game is over.
    fn bots_until_person(&mut self) -> Result<(), Refusal> {
        let Mode::Play { seat, bot, .. } = self.mode else {
            return Ok(());
        };
        for _ in 0..MAX_BOT_MOVES {
            match self.game_match.to_move() {
                Some(s) if s != seat => {
                    self.game_match
                        .bot_move(bot)
                        .map_err(|e| Refusal::new(500, "bot-failed", e.to_string()))?;
                }
                _ => break,
            }
        }
        Ok(())
    }
}

/// A replay or save's text, parsed; its errors say where.
fn parse_replay(text: &str) -> Result<ReplayFile, Refusal> {
    ReplayFile::parse(text).map_err(|e| {
        let at = (e.position)
            .map(|(l, c)| format!("line {l}, column {c}: "))
            .unwrap_or_default();
        Refusal::bad("bad-replay", format!("{at}{}", e.message))
    })
}

/// The moves of a replay, in order (what it checks along the way left out).
fn replay_moves(replay: &Replay) -> Vec<&Step> {
    (replay.steps.iter())
        .filter(|s| matches!(s, Step::Move(..) | Step::Play(_)))
        .collect()
}

/// The game of `replay` after its first `at` moves, each checked as it is played.
fn resume(
    game: &'static dyn DynGame,
    replay: &Replay,
    at: usize,
) -> Result<Box<dyn DynMatch>, Refusal> {
    let mut first = replay.clone();
    first.steps = replay_moves(replay).into_iter().take(at).cloned().collect();
    let file = ReplayFile::from_replay(first);
    game.resume(&file, false)
        .map_err(|f| Refusal::new(422, "replay-failed", f.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_table() -> NewTable {
        NewTable {
            game: "king-arthur".into(),
            variant: None,
            players: 2,
            seat: Some(1),
            bot: Some("random".into()),
            seed: Some(1),
        }
    }

    /// Tables set up at the same moment each get a number and a token of their own, and a
    /// seat's token opens only its own table.
    #[test]
    fn tables_set_up_at_once_have_tokens_of_their_own() {
        let tables = Tables::new(Content::embedded());
        let made: Vec<TableAnswer> = std::thread::scope(|s| {
            let workers: Vec<_> = (0..8)
                .map(|_| s.spawn(|| tables.create(new_table()).expect("a table is set up")))
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).collect()
        });
        for (i, a) in made.iter().enumerate() {
            for b in &made[i + 1..] {
                assert_ne!(a.table, b.table);
                assert_ne!(a.token, b.token);
            }
        }
        for a in &made {
            for b in &made {
                let view = tables.answer(b.table, a.token.as_deref()).unwrap().view;
                let expected = (a.table == b.table).then_some(0);
                assert_eq!(
                    view.viewer, expected,
                    "table {}'s token at table {}",
                    a.table, b.table
                );
            }
        }
    }

    /// Each answer shows the table as the request that it answers left it, though other
    /// requests move the same replay at the same moment.
    #[test]
    fn a_seek_is_answered_with_the_position_it_asked_for() {
        let tables = Tables::new(Content::embedded());
        let mut answer = tables.create(new_table()).unwrap();
        let token = answer.token.clone().unwrap();
        for _ in 0..10 {
            let text = answer.view.moves[0].text.clone();
            answer = tables.play(answer.table, &token, &text).unwrap();
        }
        let save = tables.save(answer.table, &token).unwrap();
        let replay = tables.open_replay(&save).unwrap();
        let length = replay.length.unwrap();
        assert!(length >= 10, "{length} moves");
        std::thread::scope(|s| {
            for worker in 0..4 {
                let tables = &tables;
                s.spawn(move || {
                    for round in 0..100 {
                        let at = (worker * 7 + round * 3) % (length + 1);
                        let answer = tables.seek(replay.table, at).unwrap();
                        assert_eq!(answer.at, Some(at));
                        assert_eq!(answer.view.moves_made, at);
                    }
                });
            }
        });
    }
}
