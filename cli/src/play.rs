//! `grail play`: a game in the terminal against bots. The human sees only their own view,
//! picks a move by number or notation, and every move is appended to the save as it is
//! played (`save.rs`), so a killed or interrupted game continues with `--resume`. A save is
//! never overwritten by another game, and is written by one session at a time. A game stops
//! at the move cap of `grail sim` (`sim::MAX_MOVES`), so its save stays within what
//! `--resume` reads. Without a terminal on stdin, bots play every seat and the game is
//! printed.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use grail_engine::agent::AgentKind;
use grail_engine::facade::{DynGame, DynMatch};
use grail_engine::game::{Seat, Setup};
use grail_engine::play::{PlayError, Played};
use grail_engine::replay::{MAX_REPLAY_BYTES, Replay, Step};
use grail_engine::seats::seat_name;
use grail_engine::sim::MAX_MOVES;
use grail_engine::view::View;

use crate::exit::{CliError, CliResult, failure, usage};
use crate::games::{open_game, open_recorded, read_replay};
use crate::menu::{Entry, write_moves};
use crate::replay::{check_recorded_game, locate, write_outcome};
use crate::save::{Claim, SaveFile, claim, claim_free_name, file_name_part};
use crate::screen::Screen;
use crate::sim::{agent_parser, players_out_of_range};

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// A bundled game id or a pack folder (`grail list` shows the games).
    #[arg(required_unless_present = "resume")]
    pub game: Option<String>,
    /// A variant of the game (`grail list` shows each game's variants).
    #[arg(long, conflicts_with = "resume")]
    pub variant: Option<String>,
    /// Number of players (default: the pack's `players.default`, else the fewest allowed).
    #[arg(long, conflicts_with = "resume")]
    pub players: Option<usize>,
    /// Your seat, counting from 1.
    #[arg(long)]
    pub seat: Option<usize>,
    /// The bots at the other seats, in seat order, a list repeated to fill the table
    /// (`greedy,random`). Default: greedy. Without a terminal the first also plays your seat.
    /// `ismcts:N` searches N iterations per move; `ismcts:Tms` T milliseconds (not
    /// reproducible); `ismcts:N:C:ROLLOUT:D` also sets the exploration constant, the
    /// rollouts (`random`, `greedy`, `greedy/E`) and their depth (`grail sim --help`).
    #[arg(long, value_delimiter = ',', value_parser = agent_parser(), value_name = "AGENT,...")]
    pub bots: Vec<AgentKind>,
    /// The game's seed (default: from the clock; it is printed, so a game can be replayed).
    #[arg(long, conflicts_with = "resume")]
    pub seed: Option<u64>,
    /// Where to save the move log (default: a new file under $XDG_DATA_HOME/grail/saves).
    /// An existing FILE must be a save of this same game, and not in use by another
    /// `grail play` (one session writes a save at a time).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// With --save: overwrite FILE even if it is not a save of this game (a regular file
    /// only, never a device or folder; never a save another session is writing).
    #[arg(long, requires = "save")]
    pub force: bool,
    /// Continue a saved game.
    #[arg(long, value_name = "FILE", conflicts_with = "game")]
    pub resume: Option<PathBuf>,
    /// With --resume: continue even if the content changed since the game was saved.
    #[arg(long, requires = "resume")]
    pub ignore_content_hash: bool,
}

/// Who sits where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Human,
    Bot(AgentKind),
}

impl Player {
    /// As saved and shown: a bot with its parameters (`ismcts:200`), which parse back.
    fn name(self) -> String {
        match self {
            Player::Human => "human".to_string(),
            Player::Bot(kind) => kind.to_string(),
        }
    }
}

pub struct Session<'g> {
    pub game: &'g dyn DynGame,
    pub m: Box<dyn DynMatch + 'g>,
    pub table: Vec<Player>,
    pub save: PathBuf,
    /// The save file, locked for this session from before its first move until `play`
    /// ends (`None` after: `play` claims it again if called again).
    pub claim: Option<Claim>,
    /// The pack, for `info <card>` (its printed cards); `None`: no card lookup.
    pub pack: Option<grail_schema::Pack>,
    /// The legend and card-text lines the table has shown this session: shown once, then on
    /// request (`table`), so that the hand and the prompt stay on a small screen.
    pub shown_notes: Vec<String>,
    /// The screen the human reads: the table, menu and messages are wrapped to its width,
    /// the menu kept to its height (`run`: the terminal's; else 80×24).
    pub screen: Screen,
}

pub fn run(args: PlayArgs, content: &crate::content::Content) -> CliResult {
    let interactive = std::io::stdin().is_terminal();
    let game;
    let (session, name, variant) = if let Some(path) = &args.resume {
        let file = read_replay(path)?;
        check_recorded_game(path, &file.replay.game, file.replay.variant.as_deref())?;
        game = open_recorded(content, &file.replay.game, file.replay.variant.as_deref())?;
        let session = resume(game.as_ref(), &args, path, &file)?;
        (session, file.replay.game, file.replay.variant)
    } else {
        let name = args.game.clone().unwrap_or_default();
        game = open_game(content, &name, args.variant.as_deref())?;
        (start(game.as_ref(), &args)?, name, args.variant.clone())
    };
    let mut session = session;
    session.screen = Screen::of_terminal();
    // The game opened, so its pack loads too.
    session.pack = crate::games::load_pack(content, &name, variant.as_deref()).ok();
    if !interactive {
        // Nobody to ask: bots play every seat.
        let kind = args.bots.first().copied().unwrap_or(AgentKind::Greedy);
        let bot = Player::Bot(kind);
        // Said on stderr, so the printed game on stdout stays the game.
        eprintln!(
            "note: stdin is not a terminal, so all seats are bots (your seat: {})",
            kind.name()
        );
        for p in &mut session.table {
            if *p == Player::Human {
                *p = bot;
            }
        }
    }
    crate::interrupt::announce_save_on_interrupt(&session.save);
    let stdin = std::io::stdin();
    let mut input_lines = stdin.lock();
    let mut stdout = std::io::stdout().lock();
    play(&mut session, &mut input_lines, &mut stdout)
}

/// A new game from the command line's choices.
pub fn start<'g>(game: &'g dyn DynGame, args: &PlayArgs) -> Result<Session<'g>, CliError> {
    let range = game.players();
    let players = args.players.unwrap_or(game.default_players());
    if !range.contains(&players) {
        return Err(players_out_of_range(game, players));
    }
    let seat = human_seat(args.seat.unwrap_or(1), players)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let m = game
        .new_match(Setup::new(players, seed))
        .map_err(|e| failure("game-failed", e))?;
    // The bots take the other seats in order, the list repeated as often as needed.
    let mut bots = bot_list(&args.bots);
    let table: Vec<Player> = (0..players)
        .map(|s| if s == seat { Player::Human } else { bots() })
        .collect();
    let replay = m.to_replay(Some(table.iter().map(|p| p.name()).collect()));
    let claim = match &args.save {
        Some(path) => claim(&absolute(path.clone()), &replay, true, args.force)?,
        None => {
            // A pack opened by path is named by its path; its last part names the file.
            let name = file_name_part(game.game_id());
            let stem = match game.variant() {
                Some(v) => format!("{name}-{v}-{seed}"),
                None => format!("{name}-{seed}"),
            };
            claim_free_name(&absolute(default_save_dir()?), &stem, &replay)?
        }
    };
    Ok(Session {
        shown_notes: Vec::new(),
        screen: Screen::default(),
        game,
        m,
        table,
        save: claim.path().to_path_buf(),
        claim: Some(claim),
        pack: None,
    })
}

/// A saved game, played back to where it stopped. The seats keep the players the save
/// names (`agents`); `--seat` and `--bots` override.
pub fn resume<'g>(
    game: &'g dyn DynGame,
    args: &PlayArgs,
    path: &Path,
    file: &grail_engine::replay::ReplayFile,
) -> Result<Session<'g>, CliError> {
    let m = game.resume(file, args.ignore_content_hash).map_err(|f| {
        failure(
            "cannot-resume",
            format!("cannot resume: {}", locate(path, &f)),
        )
    })?;
    let players = file.replay.players;
    let saved = file.replay.agents.clone().unwrap_or_default();
    let human = match args.seat {
        Some(seat) => Some(human_seat(seat, players)?),
        None => saved.iter().position(|a| a == "human"),
    };
    let mut bots = bot_list(&args.bots);
    let table: Vec<Player> = (0..players)
        .map(|s| {
            if Some(s) == human {
                Player::Human
            } else {
                match saved.get(s).map(|a| a.parse::<AgentKind>()) {
                    Some(Ok(kind)) if args.bots.is_empty() => Player::Bot(kind),
                    _ => bots(),
                }
            }
        })
        .collect();
    // The save it continues is checked as any other: another session may have written
    // it since it was read, or write it now.
    let replay = m.to_replay(Some(table.iter().map(|p| p.name()).collect()));
    let save = match &args.save {
        Some(other) => other.clone(),
        None => path.to_path_buf(),
    };
    let claim = claim(&absolute(save), &replay, false, args.force)?;
    Ok(Session {
        shown_notes: Vec::new(),
        screen: Screen::default(),
        game,
        m,
        table,
        save: claim.path().to_path_buf(),
        claim: Some(claim),
        pack: None,
    })
}

/// The save's path as shown in "continue with: grail play --resume …", which then works
/// from any folder.
fn absolute(path: PathBuf) -> PathBuf {
    std::path::absolute(&path).unwrap_or(path)
}

/// The bots of `--bots`, one per call, in order and round again (greedy when none).
fn bot_list(kinds: &[AgentKind]) -> impl FnMut() -> Player + '_ {
    let mut next = 0;
    move || {
        let kind = match kinds {
            [] => AgentKind::Greedy,
            _ => kinds[next % kinds.len()],
        };
        next += 1;
        Player::Bot(kind)
    }
}

fn human_seat(seat: usize, players: usize) -> Result<Seat, CliError> {
    if (1..=players).contains(&seat) {
        Ok(seat - 1)
    } else {
        Err(usage(
            "seat-out-of-range",
            format!("--seat {seat}: the seats are 1 to {players}"),
        ))
    }
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

fn default_save_dir() -> Result<PathBuf, CliError> {
    let base = match std::env::var_os("XDG_DATA_HOME") {
        Some(dir) if Path::new(&dir).is_absolute() => PathBuf::from(dir),
        _ => match std::env::var_os("HOME") {
            Some(home) => PathBuf::from(home).join(".local/share"),
            None => {
                return Err(failure(
                    "no-save-folder",
                    "no $XDG_DATA_HOME or $HOME to save the game under; choose a file with --save",
                ));
            }
        },
    };
    Ok(base.join("grail").join("saves"))
}

/// Plays the session to the end (or until the human quits), saving after every move.
pub fn play(
    session: &mut Session<'_>,
    input_lines: &mut dyn BufRead,
    out: &mut dyn Write,
) -> CliResult {
    let setup = session.m.setup().clone();
    let names: Vec<String> = (0..setup.players)
        .map(|s| format!("{} {}", seat_name(s), session.table[s].name()))
        .collect();
    let title = format!(
        "{}{}: {} players, seed {}; {}",
        session.game.game_id(),
        session
            .game
            .variant()
            .map(|v| format!("/{v}"))
            .unwrap_or_default(),
        setup.players,
        setup.seed,
        names.join(", ")
    );
    // A pack named by its folder keeps its path whole on one line (it can be copied), as
    // the save's path below does.
    match session.game.game_id().contains(std::path::MAIN_SEPARATOR) {
        true => writeln!(out, "{title}")?,
        false => writeln!(out, "{}", session.screen.wrap(&title))?,
    }
    writeln!(
        out,
        "Saving to {} after every move (continue with: grail play --resume {}).",
        session.save.display(),
        session.save.display()
    )?;
    if !session.m.history().is_empty() {
        writeln!(out, "Resumed after {} moves.", session.m.history().len())?;
    } else if !session.m.setup_events().is_empty() {
        writeln!(out, "Setup:")?;
        for event in session.m.setup_events_for(viewer(session)) {
            writeln!(out, "{}", session.screen.wrap(&format!("    {event}")))?;
        }
    }
    let claim = match session.claim.take() {
        Some(claim) => claim,
        None => claim(&session.save, &to_replay(session), false, false)?,
    };
    let mut saver =
        SaveFile::begin(claim, &to_replay(session)).map_err(|e| save_error(session, e))?;

    let mut stopped = None;
    while let Some(seat) = session.m.to_move() {
        if session.m.history().len() >= MAX_MOVES as usize {
            stopped = Some(format!(
                "the game stopped after {MAX_MOVES} moves, the most a game may have (as in \
                 `grail sim`)"
            ));
            break;
        }
        let played = match session.table.get(seat).copied() {
            Some(Player::Human) => match human_turn(session, seat, input_lines, out)? {
                Some(played) => played,
                None => {
                    let path = close(saver, &to_replay(session))?;
                    writeln!(
                        out,
                        "Saved. Continue with: grail play --resume {}",
                        path.display()
                    )?;
                    return Ok(());
                }
            },
            Some(Player::Bot(kind)) => session.m.bot_move(kind).map_err(|e| {
                failure(
                    "game-failed",
                    format!("the {} bot at {}: {e}", kind, seat_name(seat)),
                )
            })?,
            None => {
                return Err(failure(
                    "game-failed",
                    format!(
                        "the rules gave the move to {}, who is not at the table",
                        seat_name(seat)
                    ),
                ));
            }
        };
        let who = session.table[seat].name();
        let shown = played.shown_to(viewer(session));
        let said = format!("{} ({who}): {}", seat_name(played.seat), shown.text);
        writeln!(out, "{}", session.screen.wrap(&said))?;
        write_events(out, &shown.events, &session.screen)?;
        let step = Step::Move(played.text, played.digest);
        if !saver.fits(&step) {
            // The save would pass what `--resume` and `replay` read: it keeps the moves
            // before this one, and the game stops here.
            let mut held = to_replay(session);
            held.steps.pop();
            let path = close(saver, &held)?;
            return Err(failure(
                "game-too-long",
                format!(
                    "the game stopped after {} moves: its save would pass {MAX_REPLAY_BYTES} \
                     bytes, the most `--resume` and `grail replay` read; {} holds every move \
                     before this one",
                    held.steps.len(),
                    path.display()
                ),
            ));
        }
        let notice = saver.append(&step, || to_replay(session));
        if let Some(notice) = notice {
            tell(&saver, &notice);
        }
    }
    let saved = close(saver, &to_replay(session));
    if let Ok(path) = &saved
        && *path != session.save
    {
        // Another program took the save's name during the game.
        eprintln!("note: the game is saved to {}", path.display());
    }
    if let Some(why) = stopped {
        let path = saved?;
        return Err(failure(
            "game-too-long",
            format!(
                "{why}; {} holds every move, so `grail replay` shows them",
                path.display()
            ),
        ));
    }
    let table = session.m.view(None).table_text();
    writeln!(out, "\n{}", session.screen.wrap(table.trim_end()))?;
    if let Some(stuck) = session.m.stuck() {
        saved?;
        return Err(failure(stuck.code, stuck.why));
    }
    // The end screen, wrapped to the screen as the rest.
    let mut end = Vec::new();
    crate::explain::write_game_over(&mut end, session.m.as_ref())?;
    if let Some(outcome) = session.m.outcome() {
        let agents: Vec<String> = session.table.iter().map(|p| p.name()).collect();
        write_outcome(&mut end, &outcome, Some(&agents))?;
    }
    let end = String::from_utf8_lossy(&end);
    writeln!(out, "{}", session.screen.wrap(end.trim_end()))?;
    out.flush()?;
    saved?;
    Ok(())
}

/// Says at once on stderr what became of the save, and what Ctrl-C will say.
fn tell(saver: &SaveFile, notice: &str) {
    eprintln!("warning: {notice}");
    match saver.trouble() {
        Some(why) => crate::interrupt::announce_not_saved(saver.path(), why),
        None => crate::interrupt::announce_save_on_interrupt(saver.path()),
    }
}

/// Closes the save; the path it is in, or the error that the game is not saved.
fn close(saver: SaveFile, replay: &Replay) -> Result<PathBuf, CliError> {
    let path = saver.path().to_path_buf();
    saver.close(replay).map_err(|why| {
        failure(
            "cannot-write",
            format!(
                "the game is NOT saved: cannot save to {} ({why})",
                path.display()
            ),
        )
    })
}

/// Whose eyes the printed game is seen through: the human's, or a spectator's when bots
/// play every seat (moves and events name only the cards that viewer can see).
fn viewer(session: &Session<'_>) -> Option<Seat> {
    session.table.iter().position(|p| *p == Player::Human)
}

fn write_events(out: &mut dyn Write, events: &[String], screen: &Screen) -> std::io::Result<()> {
    for e in events {
        writeln!(out, "{}", screen.wrap(&format!("    {e}")))?;
    }
    Ok(())
}

/// The game so far, as the save holds it (O(moves): only when a session starts or stops).
fn to_replay(session: &Session<'_>) -> Replay {
    let agents = session.table.iter().map(|p| p.name()).collect();
    session.m.to_replay(Some(agents))
}

fn save_error(session: &Session<'_>, e: std::io::Error) -> CliError {
    failure(
        "cannot-write",
        format!("cannot save to {}: {e}", session.save.display()),
    )
}

const COMMANDS: &str = "Type a move's number or its notation. Commands: help, moves (list them \
again; 'moves offer P2' only those starting so), table (the table again, with the legend and card \
texts), info CARD (a card's printed data: attributes, condition in words, text), info seat N (a \
seat of the ring: its plate and figure), quit (save and stop; continue later with --resume).";

/// The table with the legend and card-text lines shown before left out, said so where they
/// were; new ones are kept and remembered in `shown`.
fn fold_notes(table: &str, shown: &mut Vec<String>) -> String {
    let is_note = |l: &str| {
        l.starts_with("Legend: ")
            || (l.starts_with("  ") && !l.starts_with("   ") && l.contains(": "))
    };
    let mut out = Vec::new();
    let mut folded = false;
    for line in table.lines() {
        if is_note(line) {
            if shown.iter().any(|s| s == line) {
                if !folded {
                    out.push(
                        "(the legend and card texts as shown before: 'table' shows them again)",
                    );
                }
                folded = true;
                continue;
            }
            shown.push(line.to_string());
        }
        out.push(line);
    }
    out.join("\n")
}

/// `info <card>`: the card's printed data, the same for every player (never where a copy is).
fn write_card_info(
    out: &mut dyn Write,
    pack: Option<&grail_schema::Pack>,
    query: &str,
) -> std::io::Result<()> {
    let Some(pack) = pack else {
        return writeln!(out, "No card information for this game.");
    };
    match crate::cards::find(pack, query) {
        Ok(found) => {
            for (set, card) in found {
                write!(out, "{}", crate::cards::card_text(pack, set, card))?;
            }
            Ok(())
        }
        Err(message) => writeln!(out, "{}", crate::excerpt::escape(&message)),
    }
}

/// The moves of a view as the menu lists them, each with what it gives and costs, and the
/// costs said once above them (each once, in the order of the moves).
fn menu_entries(view: &View) -> (Vec<Entry>, Vec<String>) {
    let mut notes: Vec<String> = Vec::new();
    let entries = (view.moves.iter())
        .map(|m| {
            if let Some(note) = &m.note
                && !notes.contains(note)
            {
                notes.push(note.clone());
            }
            Entry {
                text: m.text.clone(),
                score: m.gain,
                pays: m.pays.clone(),
            }
        })
        .collect();
    (entries, notes)
}

/// Asks the human for a move until one is legal; `None` when they quit (or input ends).
fn human_turn(
    session: &mut Session<'_>,
    seat: Seat,
    input_lines: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Option<Played>, CliError> {
    let screen = session.screen;
    let m = &mut session.m;
    // What the seat may see, as the browser is sent it (`View`): the table, the moves and
    // what they give and cost, the step being decided.
    let with_notes = |text: String| {
        let notes = session
            .pack
            .as_ref()
            .map_or(String::new(), |p| crate::explain::card_notes(p, &text));
        format!("{}\n{}", text.trim_end(), notes.trim_end())
            .trim_end()
            .to_string()
    };
    let table = |m: &mut Box<dyn DynMatch + '_>| with_notes(m.view(Some(seat)).table_text());
    let view = m.view(Some(seat));
    let table_text = fold_notes(&with_notes(view.table_text()), &mut session.shown_notes);
    writeln!(out, "\n{}", screen.wrap(&table_text))?;
    let mut legal: Vec<String> = view.moves.iter().map(|m| m.text.clone()).collect();
    let (mut entries, mut notes) = menu_entries(&view);
    let prompt = view.prompt;
    if !prompt.is_empty() {
        writeln!(out, "{}", screen.wrap(&format!("Your decision: {prompt}")))?;
    }
    write_moves(out, &entries, &notes, None, &screen)?;
    loop {
        write!(out, "{}> ", seat_name(seat))?;
        out.flush()?;
        let mut line = Vec::new();
        let read = input_lines
            .read_until(b'\n', &mut line)
            .map_err(|e| failure("cannot-read", format!("cannot read standard input: {e}")))?;
        if read == 0 {
            writeln!(out)?;
            return Ok(None);
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim();
        // What is said back, wrapped to the screen.
        let mut say = |text: &str| writeln!(out, "{}", screen.wrap(text));
        let result = match line {
            "" => continue,
            "quit" | "exit" | "q" => return Ok(None),
            "help" | "?" => {
                let about = session.pack.as_ref().map(crate::explain::pack_help);
                say(&format!(
                    "{}\n{}\n{COMMANDS}",
                    session.game.notation_help().trim_end(),
                    about.map_or(String::new(), |a| format!("\n{a}"))
                ))?;
                continue;
            }
            "moves" | "legal" => {
                write_moves(out, &entries, &notes, None, &screen)?;
                continue;
            }
            _ if line.starts_with("moves ") => {
                let only = line["moves ".len()..].trim();
                write_moves(out, &entries, &notes, Some(only), &screen)?;
                continue;
            }
            "table" => {
                say(&table(m))?;
                continue;
            }
            "info" => {
                say("Which card? Type 'info' and a card's id or name.")?;
                continue;
            }
            // A seat of a ring: its plate and who stands on it (`info 3` is a card named 3).
            _ if line.starts_with("info seat ") => {
                let n = line["info seat ".len()..].trim();
                let answer = (m.inspect(&format!("seat {n}")))
                    .and_then(|on| Ok((on, m.inspect(&format!("plate {n}"))?)));
                match answer {
                    Ok((on, plate)) => {
                        let on = if on == "·" { "empty".to_string() } else { on };
                        say(&format!("seat {n}: plate {plate}; {on}"))?;
                    }
                    Err(e) => say(&e)?,
                }
                continue;
            }
            _ if line.starts_with("info ") => {
                let mut info = Vec::new();
                write_card_info(&mut info, session.pack.as_ref(), &line["info ".len()..])?;
                say(String::from_utf8_lossy(&info).trim_end())?;
                continue;
            }
            _ => match line.parse::<usize>() {
                Ok(n) if (1..=legal.len()).contains(&n) => m.play_text(&legal[n - 1]),
                Ok(n) => {
                    say(&format!(
                        "There is no move {n}; choose 1 to {}.",
                        legal.len()
                    ))?;
                    continue;
                }
                Err(_) => m.play_text(line),
            },
        };
        match result {
            Ok(played) => return Ok(Some(played)),
            Err(PlayError::GameOver) => return Ok(None),
            Err(e) => {
                say(&e.to_string())?;
                say("Type a number from the list, or 'help'.")?;
                let view = m.view(Some(seat));
                legal = view.moves.iter().map(|m| m.text.clone()).collect();
                (entries, notes) = menu_entries(&view);
            }
        }
    }
}

#[cfg(test)]
mod notes_tests {
    use super::fold_notes;

    /// The legend and a card's text are shown once; the table again leaves them out, says so,
    /// and shows a card's text it has not shown before.
    #[test]
    fn notes_are_shown_once_and_new_ones_still_shown() {
        let mut shown = Vec::new();
        let first = "columns: red: —\nLegend: color: red = dragons\n  holy-grail: play 12 points";
        assert_eq!(fold_notes(first, &mut shown), first);
        let again = format!("{first}\n  mountain: play 9 points");
        let text = fold_notes(&again, &mut shown);
        assert!(
            !text.contains("Legend:") && !text.contains("holy-grail"),
            "{text}"
        );
        assert!(text.contains("  mountain: play 9 points"), "{text}");
        assert!(text.contains("columns: red: —"), "{text}");
        // Said where they were, above what follows them.
        assert!(
            text.ends_with("'table' shows them again)\n  mountain: play 9 points"),
            "{text}"
        );
    }
}
