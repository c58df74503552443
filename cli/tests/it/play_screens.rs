//! Issue 16, part 5: the terminal game explains itself from the pack. Snapshots of what a
//! human sees in `grail play` for Quests, Virtues and the content-only five-trails: the
//! first menu (naming the step being asked), the help (the scoring rule and the legends) and
//! the game-over screen (every player's cards revealed, each score in its parts).

use std::path::{Path, PathBuf};

use grail_cli::content::Content;
use grail_cli::games::{load_pack, open_game};
use grail_cli::play::{self, PlayArgs};
use grail_cli::screen::Screen;
use grail_engine::cond::words::describe;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `text` with its lines joined and its spaces made single: what the screen says, however
/// it wrapped it.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The transcript of a human at seat 1 typing `input`, then `1` until the game ends.
fn transcript(game: &str, players: usize, seed: u64, input: &str) -> String {
    let input = format!("{input}{}", "1\n".repeat(5000));
    transcript_of(game, None, players, seed, &input)
}

/// The transcript of a human at seat 1 of `game` (`variant`) typing `input` (then input
/// ends: the game is saved and left).
fn transcript_of(
    game: &str,
    variant: Option<&str>,
    players: usize,
    seed: u64,
    input: &str,
) -> String {
    let content = Content::folder(repo().join("content"));
    let opened = open_game(&content, game, variant).unwrap();
    // One folder per transcript: tests of one process run side by side.
    let dir = std::env::temp_dir().join(format!(
        "grail-screens-{}-{}-{}-{players}-{seed}-{}",
        std::process::id(),
        game.replace('/', "_"),
        variant.unwrap_or("base"),
        input.len()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("game.ron");
    let args = PlayArgs {
        game: Some(game.into()),
        variant: variant.map(str::to_string),
        players: Some(players),
        seat: Some(1),
        bots: Vec::new(),
        seed: Some(seed),
        save: Some(save.clone()),
        force: false,
        resume: None,
        ignore_content_hash: false,
    };
    let mut session = play::start(opened.as_ref(), &args).unwrap();
    session.pack = load_pack(&content, game, variant).ok();
    // The screen the transcripts are read on: 80×24 (the default, said here).
    session.screen = Screen {
        columns: 80,
        rows: 24,
    };
    let mut out = Vec::new();
    play::play(&mut session, &mut input.as_bytes(), &mut out).unwrap();
    String::from_utf8(out)
        .unwrap()
        .replace(&save.display().to_string(), "<save>")
        .replace(&repo().display().to_string(), "<repo>")
        // A game opened by path is named by its absolute path.
        .replace(
            &repo().canonicalize().unwrap().display().to_string(),
            "<repo>",
        )
}

/// The screens worth reading: up to the first prompt, the help, and the end.
struct Screens {
    menu: String,
    help: String,
    game_over: String,
}

fn screens(text: &str) -> Screens {
    let prompt = "P1> ";
    let first = text.find(prompt).expect("the human is asked");
    let after = &text[first + prompt.len()..];
    let help = &after[..after.find(prompt).expect("asked again after help")];
    let end = text
        .find("\nEvery player's cards, revealed:")
        .expect("the game ends");
    Screens {
        menu: text[..first].to_string(),
        help: help.to_string(),
        game_over: text[end..].to_string(),
    }
}

fn check(name: &str, game: &str, players: usize, seed: u64) -> Screens {
    let s = screens(&transcript(game, players, seed, "help\n"));
    insta::assert_snapshot!(format!("{name}_menu"), s.menu);
    insta::assert_snapshot!(format!("{name}_help"), s.help);
    insta::assert_snapshot!(format!("{name}_game_over"), s.game_over);
    s
}

#[test]
fn quests_explains_its_menu_help_and_end() {
    let s = check("quests", "quests", 2, 5);
    assert!(s.menu.contains("Your decision: "), "{}", s.menu);
    assert!(s.help.contains("Scoring: Shields:"), "{}", s.help);
    assert!(
        s.help.contains("Legend (Adventure cards): kind:"),
        "{}",
        s.help
    );
    assert!(s.game_over.contains("shields since"), "{}", s.game_over);
}

#[test]
fn virtues_explains_its_menu_help_and_end() {
    let s = check("virtues", "virtues", 3, 2);
    assert!(
        s.help.contains("Scoring: Your treasures' points"),
        "{}",
        s.help
    );
    assert!(s.game_over.contains("treasures"), "{}", s.game_over);
}

#[test]
fn five_trails_explains_its_menu_help_and_end() {
    let pack = repo()
        .join("docs/examples/five-trails")
        .display()
        .to_string();
    let s = check("five_trails", &pack, 2, 4);
    assert!(
        s.menu
            .contains("Your decision: step `lay` of P1's turn: play or discard"),
        "{}",
        s.menu
    );
    assert!(
        flat(&s.help).contains(
            "Scoring: at the end, each player scores the total value of the player's trails minus 12 times the number of rows of the player's trails that hold a card"
        ),
        "{}",
        s.help
    );
    assert!(s.game_over.contains("hand P2: "), "{}", s.game_over);
    assert!(
        flat(&s.game_over)
            .contains("12 times the number of rows of the player's trails that hold a card"),
        "{}",
        s.game_over
    );
}

/// A described game's table explains what its pack explains: a legend line for the
/// attribute keying a zone's rows, and the text of each card the viewer sees (and only
/// those); `info` shows a value's meaning.
#[test]
fn a_described_games_table_shows_legends_and_the_texts_of_cards_in_view() {
    let dir = std::env::temp_dir().join(format!("grail-screens-{}-legend", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let source = repo().join("docs/examples/five-trails");
    std::fs::copy(source.join("pack.toml"), dir.join("pack.toml")).unwrap();
    let cards = std::fs::read_to_string(source.join("cards.toml"))
        .unwrap()
        .replace(
            "value = { min = 1, max = 10 }\n",
            "value = { min = 1, max = 10 }\n\n[sets.trail.legend.color]\nred = \"the dragon's trail\"\n",
        )
        .replace(
            "id = \"red-5\"\nname = \"Red 5\"\n",
            "id = \"red-5\"\nname = \"Red 5\"\ntext = \"Halfway up the dragon's trail.\"\n",
        );
    std::fs::write(dir.join("cards.toml"), cards).unwrap();
    let content = Content::folder(repo().join("content"));
    let path = dir.display().to_string();
    let game = open_game(&content, &path, None).unwrap();
    // Seed 4 deals red-5 to P1 (see the five-trails menu snapshot).
    let mut m = game
        .new_match(grail_engine::game::Setup::new(2, 4))
        .unwrap();
    let mine = m.render(Some(0));
    assert!(
        mine.contains("Legend: color: red = the dragon's trail"),
        "{mine}"
    );
    assert!(
        mine.contains("  red-5: Halfway up the dragon's trail."),
        "{mine}"
    );
    let public = m.render(None);
    assert!(public.contains("Legend: color: red"), "{public}");
    assert!(
        !public.contains("red-5"),
        "a hand's card stays hidden: {public}"
    );
    let pack = load_pack(&content, &path, None).unwrap();
    let (set, card) = grail_cli::cards::find(&pack, "red-5").unwrap()[0];
    let info = grail_cli::cards::card_text(&pack, set, card);
    assert!(info.contains("color: red (the dragon's trail)"), "{info}");
    assert!(
        grail_cli::explain::pack_help(&pack)
            .contains("Legend (Trail cards): color: red = the dragon's trail"),
        "the help lists it"
    );
}

/// Issue 16: "King Arthur adventures show only the condition language although each card
/// has a plain `text`"; "colours are never mapped to kinds". The terminal adds the text of
/// every condition card its table names, and the legend of the colours it lists.
#[test]
fn king_arthur_adventures_on_the_table_come_with_their_text() {
    let text = transcript("king-arthur", 2, 3, "quit\n");
    let menu = &text[..text.find("P1> ").unwrap()];
    let pack = load_pack(
        &Content::folder(repo().join("content")),
        "king-arthur",
        None,
    )
    .unwrap();
    let adventures = pack.set("adventures").unwrap();
    let mut shown = 0;
    for card in &adventures.cards {
        let named = menu
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .any(|w| w == card.id);
        if named {
            shown += 1;
            assert!(
                menu.contains(&format!("\n  {}: ", card.id))
                    && flat(menu).contains(&flat(&format!("{}: {}", card.id, card.text))),
                "{}: {menu}",
                card.id
            );
        }
    }
    assert!(shown > 0, "the table shows adventures: {menu}");
    // "colours are never mapped to kinds (dragons are red)": the adversaries' legend.
    assert!(
        flat(menu).contains("Legend: color: yellow = dark powers, blue = enemy knights, green = monsters, red = dragons"),
        "{menu}"
    );
    insta::assert_snapshot!("king_arthur_menu", menu);
}

/// The games played from their rulebooks say their rules in words: the help's moves and
/// scoring, and the end screen's score parts, hold no rule language.
#[test]
fn the_ported_games_help_and_end_screen_are_in_words() {
    for (name, game, players, seed) in [
        ("king_arthur_in_words", "king-arthur", 3, 4),
        ("artus_in_words", "artus", 3, 4),
    ] {
        let s = check(name, game, players, seed);
        for raw in [
            "count(",
            "sum(",
            "fullest(",
            "step(",
            "$",
            "(current)",
            "(P)",
        ] {
            assert!(!s.help.contains(raw), "{game} help: {raw} in {}", s.help);
            assert!(
                !s.game_over.contains(raw),
                "{game} end: {raw} in {}",
                s.game_over
            );
        }
        assert!(
            s.help.contains("Scoring: at the end, each player scores "),
            "{}",
            s.help
        );
    }
}

/// Rule language a player should never be shown: a function of the language, a zone read for
/// a seat, a `$param`, a place in the rulebook's files.
const RAW: [&str; 15] = [
    "count(",
    "sum(",
    "fullest(",
    "step(",
    "most(",
    "nonempty(",
    "done(",
    "empty(",
    "condition(",
    "value(",
    "$",
    "(current)",
    "(P)",
    "(card)",
    "rulebook.toml",
];

/// Issue 29: the whole game a human plays — the help, every prompt, every menu entry with
/// what it gives and costs, the refusals of moves typed wrong, and the end screen — holds no
/// rule language, in every bundled game and variant.
#[test]
fn every_game_and_variant_is_played_in_words() {
    // Moves a player may type that are refused (a move of another step, a card not in view,
    // a figure that cannot move, a payment not asked for).
    let tried = "help\ndraw\npass\nadventure holy-grail\nchallenge red-5\ndouble red-5\n\
                 repeat red-5\npay red-1\nplay 1-4 knight@3 9\nplace 0\nscore\nsponsor\n\
                 embark\nfeast\nmoves\n";
    for (game, variant, players, seed) in [
        ("king-arthur", None, 3, 2),
        ("king-arthur", Some("seals"), 4, 3),
        ("artus", None, 3, 2),
        ("artus", Some("advanced"), 2, 3),
        ("quests", None, 3, 2),
        ("virtues", None, 4, 7),
    ] {
        let input = format!("{tried}{}", "1\n".repeat(5000));
        let text = transcript_of(game, variant, players, seed, &input);
        assert!(text.contains("Your decision: "), "{game}: {text}");
        assert!(
            text.contains("\nGame over"),
            "{game} {variant:?} ends: {text}"
        );
        // Moves with a payment say what it is (King Arthur's challenges, adventures).
        if game == "king-arthur" {
            let challenge = match variant {
                None => "challenge pays from your knights: ",
                Some(_) => "challenge, double and repeat pay from your knights: ",
            };
            assert!(text.contains(challenge), "{text}");
            assert!(
                text.contains("adventure pays from your adversaries"),
                "{text}"
            );
        }
        // The header names the save; everything after it is the game.
        let (_, played) = text.split_once(" after every move").unwrap();
        for line in played.lines() {
            for raw in RAW {
                assert!(
                    !line.contains(raw),
                    "{game} {variant:?}: {raw} in\n{line}\n\n{text}"
                );
            }
        }
    }
}

/// `info seat N` tells a seat of the ring (its plate and who stands there), not a card.
#[test]
fn info_seat_tells_the_seat() {
    let text = transcript(
        "artus",
        3,
        4,
        "info seat 0\ninfo seat 3\ninfo seat 99\nquit\n",
    );
    assert!(
        text.contains("seat 0: plate 0; King (silver, 3 rings)"),
        "{text}"
    );
    assert!(text.contains("seat 3: plate 7; empty"), "{text}");
    assert!(text.contains("the seats are 0 to 27, not `99`"), "{text}");
}

/// Issue 27: the help lists the stages before the turns first, once each, with their rounds,
/// then the turn's steps, each saying how often it repeats; the table shows the counters
/// (every seat's points), which every seat may see.
#[test]
fn artus_help_puts_the_placing_first_and_says_what_repeats_and_the_table_shows_points() {
    let content = Content::folder(repo().join("content"));
    let game = open_game(&content, "artus", Some("advanced")).unwrap();
    let help = game.notation_help();
    let before = help.find("Before the turns, `placing`").expect(&help);
    let turn = help.find("Each turn: play (").expect(&help);
    assert!(before < turn, "{help}");
    assert!(
        help.contains("Before the turns, `placing`: place (place); 5 rounds with 2 players, 5 rounds with 3 players, 4 rounds with 4 players, each seat in turn from the last seat, counter-clockwise"),
        "{help}"
    );
    assert!(help.contains(" 2 times, then draw ("), "{help}");
    assert!(!help[turn..].contains("place (place)"), "{help}");
    let mut m = game
        .new_match(grail_engine::game::Setup::new(2, 1))
        .unwrap();
    let table = m.render(Some(0));
    assert!(table.contains("points: P1 0, P2 0"), "{table}");
}

/// Issue 29: a game is playable on an 80×24 terminal. A human plays each bundled game and
/// variant at the most players (and at fewer), answering `1` for 60 decisions; at every
/// decision, the screen — the last 24 lines up to the prompt, the human's typed line and
/// Enter counted as the terminal shows them — holds the human's hand and the decision asked,
/// and no line of it passes 80 columns.
#[test]
fn every_bundled_game_fits_an_80_by_24_terminal() {
    const ROWS: usize = 24;
    for (game, variant, players, hand) in [
        ("king-arthur", None, [(5, 0), (3, 1)], "knights P1: "),
        (
            "king-arthur",
            Some("seals"),
            [(5, 0), (2, 1)],
            "knights P1: ",
        ),
        ("artus", None, [(4, 0), (2, 1)], "hand P1: "),
        ("artus", Some("advanced"), [(4, 0), (3, 1)], "hand P1: "),
        ("quests", None, [(4, 0), (2, 1)], "Your hand"),
        ("virtues", None, [(6, 8), (3, 1)], "P1 (you"),
    ] {
        for (players, seed) in players {
            let input = format!("{}quit\n", "1\n".repeat(60));
            let text = transcript_of(game, variant, players, seed, &input);
            // As a terminal shows it: what follows a prompt starts a line of its own (the
            // human's typing and Enter end the prompt's line).
            let mut lines: Vec<&str> = Vec::new();
            let mut decisions = 0;
            for line in text.lines() {
                let mut rest = line;
                while let Some(after) = rest.strip_prefix("P1> ") {
                    lines.push("P1> 1");
                    decisions += 1;
                    // The screen at this decision: the prompt and the 23 lines above it.
                    let screen = &lines[lines.len().saturating_sub(ROWS)..];
                    let at = format!("{game} {variant:?}, {players} players, decision {decisions}");
                    let shown = screen.join("\n");
                    for l in screen {
                        assert!(
                            l.chars().count() <= 80,
                            "{at}: a line of {} columns:\n{l}\n\n{shown}",
                            l.chars().count()
                        );
                    }
                    // The first prompt after a table: the hand and the decision are in view.
                    let asked = lines.len() < 2 || !lines[lines.len() - 2].starts_with("P1> ");
                    let fresh = asked
                        && !lines[..lines.len() - 1].last().is_some_and(|l| {
                            l.starts_with("There is no move") || l.starts_with("Type a number")
                        });
                    if fresh {
                        assert!(
                            screen.iter().any(|l| l.starts_with(hand)),
                            "{at}: the hand ({hand}) is off the screen:\n{shown}"
                        );
                        assert!(
                            screen.iter().any(|l| l.starts_with("Your decision: ")),
                            "{at}: the decision is off the screen:\n{shown}"
                        );
                    }
                    rest = after;
                }
                if !rest.is_empty() {
                    lines.push(rest);
                }
            }
            assert!(
                decisions > 10,
                "{game} {variant:?}: {decisions} decisions:\n{text}"
            );
        }
    }
}

/// Issue 29, item 1: King Arthur's menu says what each move gives and costs. R1 action 3: "a
/// player may take one adventure card by playing adversary cards that meet its condition";
/// game end: "each player adds the values of his adventure cards and his adversary cards".
/// So `adventure X` gives X's points and pays what X's condition asks (in words), and
/// `challenge Y` gives Y's value, paid with knights as the pack's `challenge` condition says
/// (R1 action 2: "as many knights as the power (value) of the adversary").
#[test]
fn king_arthur_moves_say_what_they_give_and_cost() {
    let pack = load_pack(
        &Content::folder(repo().join("content")),
        "king-arthur",
        None,
    )
    .unwrap();
    let (adventures, adversaries) = (
        pack.set("adventures").unwrap(),
        pack.set("adversaries").unwrap(),
    );
    let names: Vec<&str> = adversaries.cards.iter().map(|c| c.name.as_str()).collect();
    let challenge = pack.condition("challenge").unwrap().text.clone().unwrap();
    let mut seen = (0, 0);
    for seed in 0..3 {
        let text = flat(&transcript("king-arthur", 3, seed, ""));
        for card in &adventures.cards {
            let points = card.points.unwrap();
            let condition = &card.condition.as_ref().unwrap().text;
            let words = describe(condition, adversaries.universe(), &names).unwrap();
            let entry = format!(") adventure {} (score +{points}, pay {words})", card.id);
            let offered = text.matches(&format!(") adventure {} (", card.id)).count();
            assert_eq!(text.matches(&entry).count(), offered, "{entry}: {text}");
            seen.0 += offered;
        }
        for (i, card) in adversaries.cards.iter().enumerate() {
            let value = adversaries.int(i, "value").unwrap();
            let offered = text.matches(&format!(") challenge {} ", card.id)).count();
            let entry = format!(") challenge {} (score +{value})", card.id);
            assert_eq!(text.matches(&entry).count(), offered, "{entry}: {text}");
            seen.1 += offered;
        }
        if text.contains(") challenge ") {
            let note = flat(&format!(
                "challenge pays from your knights: {challenge} (power: the value of the card)"
            ));
            assert!(text.contains(&note), "{note}: {text}");
        }
    }
    assert!(
        seen.0 > 0 && seen.1 > 0,
        "adventures and challenges offered: {seen:?}"
    );
}

/// The Quests draft's table says what the module's shows (issue 30, part 4): the ranks in
/// words, the viewer's hand with each card's battle points, the others' hands as counts, the
/// decision asked; the rules' own bookkeeping (`table = "never"`) and empty face-down piles
/// (`table = "held"`) are left out.
#[test]
fn the_quests_drafts_table_shows_ranks_hands_and_the_decision() {
    let pack = repo()
        .join("tests/packs/quests-rulebook")
        .display()
        .to_string();
    let s = screens(&transcript(&pack, 2, 5, "help\n"));
    let menu = flat(&s.menu);
    for shown in [
        "rank: P1 Squire, P2 Squire",
        "shields: P1 0 of 5, P2 0 of 5",
        "hand P2: 12 cards",
        "giant(40)",
        "allies P2: sir-tristan(10)",
        "Your decision: over the hand limit: discard a card or put an ally into play",
        // Headed as the module's screen (`[texts] status`).
        "Turn 2 · P2's turn · Prosperity Throughout the Realm (event)",
        "Now: P1 holds more than 12 cards and must discard or play allies",
    ] {
        assert!(menu.contains(shown), "`{shown}` not in:\n{}", s.menu);
    }
    // The step's name in the rules' language is not shown when the pack says it in words.
    assert!(!s.menu.contains("at step `"), "{}", s.menu);
    // A test has no battle points: named bare.
    assert!(menu.contains(" test-of-valor "), "{}", s.menu);
    for hidden in [
        "\nev:",
        "\nlaid:",
        "\nsponsored:",
        "\nstage1 P1:",
        "\nlay P2:",
    ] {
        assert!(!s.menu.contains(hidden), "`{hidden}` in:\n{}", s.menu);
    }
    insta::assert_snapshot!("quests_draft_menu", s.menu);
    // The help says the moves and the scoring in the pack's words (`help`), as the
    // module's does, and leaves out the rules' own moves (those only `auto` steps offer).
    let help = flat(&s.help);
    for said in [
        "add <card> a card from hand lay out a stage card by card: a foe or test first, then weapons",
        "their allies sacrifice Mordred to remove another player's ally",
        "Scoring: Shields: each completed quest gives as many shields as it has stages",
    ] {
        assert!(help.contains(said), "`{said}` not in:\n{}", s.help);
    }
    for left_out in [
        "  reveal\n",
        "  cleanup\n",
        "  hand-out\n",
        "  open-stage\n",
    ] {
        assert!(!s.help.contains(left_out), "`{left_out}` in:\n{}", s.help);
    }
    // Two actions written alike (Mordred standing, and as a step's move) are one line.
    assert_eq!(help.matches("sacrifice Mordred").count(), 1, "{}", s.help);
    insta::assert_snapshot!("quests_draft_help", s.help);
    // The end as the module's: every hand revealed, each score in shields, the winner.
    assert!(
        s.game_over
            .contains("Game over (knight-of-the-round-table)"),
        "{}",
        s.game_over
    );
    insta::assert_snapshot!("quests_draft_game_over", s.game_over);
}
