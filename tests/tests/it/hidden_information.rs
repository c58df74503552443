//! Hidden information stays hidden: over many seeded games of every bundled game, variant
//! and player count, with every agent, no text shown to a viewer (a seat, or a spectator
//! when bots play every seat) names a card that viewer cannot see: not the move, not its
//! events, not the table rendered from the viewer's observation.
//!
//! What a viewer can see is worked out generically, from the observation the rules already
//! make, never from the messages: a zone ([`Rules::zones`]) is visible to a seat when it is
//! the same in the true state and in several observations of that seat made with different
//! generators (an observation re-deals everything the seat cannot see); a spectator sees
//! what every seat sees. A card is named when its id or its name appears as a whole word
//! (not inside a longer name, not as an attribute's value in a condition, not in a printed
//! card text). A card named in a move or an event must be visible to the viewer just before
//! or just after the move, unless the move showed it and took it out of sight again: a
//! public pile reshuffled into a hidden deck, or a public act about the card (the same move
//! text for everyone, its public events naming the card too: a duel's answer).
//!
//! The table is checked more strictly: rendered from observations made with different
//! generators it must not change (what changes was re-dealt, so hidden), and a spectator's
//! table must be what any seat's observation shows as the public table.

use std::collections::BTreeSet;

use grail_engine::agent::{AgentKind, agent_seed};
use grail_engine::game::{Rules, Seat, Setup};
use grail_engine::play::{Match, Played};
use grail_engine::rng::GameRng;
use grail_engine::view::Part;
use grail_schema::{Disk, Loader, Pack};

const SEEDS: u64 = 4;
/// Observations compared with the truth per viewer: a hidden zone re-dealt the same way by
/// every one of them is vanishingly rare.
const OBSERVATIONS: u64 = 4;
/// Renderings of the table compared per viewer and move.
const RENDERS: u64 = 3;
const MOVE_CAP: usize = 20_000;

/// A card as texts may name it: by its id, unless the pack also uses the id as an
/// attribute's name (Artus's `carpet` card and the seats' `carpet` attribute), and by its name.
struct Named {
    id: Option<String>,
    name: String,
    /// The id, as zones list it.
    key: String,
    /// The card's printed text.
    text: String,
}

fn pack(game: &str, variant: Option<&str>) -> Pack {
    let loaded = Loader::new(&Disk)
        .with_content(grail_tests::content_dir())
        .with_rules(grail_rules::catalog())
        .load_game(game, variant);
    loaded
        .pack
        .unwrap_or_else(|| panic!("{game} {variant:?} does not load"))
}

/// Where `word` occurs in `text` as a whole word (ids hold hyphens: `red-4` is not in
/// `red-41`), as byte ranges. A word after `=` is an attribute's value in a condition
/// (`count(virtue=guile) >= 2`), not a card.
fn occurrences(text: &str, word: &str) -> Vec<(usize, usize)> {
    let inside = |c: char| c.is_alphanumeric() || c == '-' || c == '_' || c == '=';
    text.match_indices(word)
        .filter(|(at, _)| {
            let before = text[..*at].chars().next_back();
            let after = text[at + word.len()..].chars().next();
            !before.is_some_and(inside) && !after.is_some_and(inside)
        })
        .map(|(at, _)| (at, at + word.len()))
        .collect()
}

/// The cards `text` names: where a name lies inside a longer one ("Boar" in the story card
/// "Boar Hunt"), only the longer counts. A card's printed text, quoted, is read by everyone
/// and names the types it speaks of ("Present 1 Piety"), not cards: it is left out.
fn named<'c>(cards: &'c [Named], text: &str) -> Vec<&'c Named> {
    let mut text = text.to_string();
    for printed in cards.iter().map(|c| &c.text).filter(|t| !t.is_empty()) {
        text = text.replace(printed.as_str(), "");
    }
    let text = text.as_str();
    let mut found: Vec<((usize, usize), &Named)> = Vec::new();
    for card in cards {
        for word in card.id.iter().chain([&card.name]) {
            found.extend(occurrences(text, word).into_iter().map(|r| (r, card)));
        }
    }
    let within = |a: (usize, usize), b: (usize, usize)| b.0 <= a.0 && a.1 <= b.1 && a != b;
    let mut out: Vec<&Named> = found
        .iter()
        .filter(|(r, _)| !found.iter().any(|(o, _)| within(*r, *o)))
        .map(|(_, c)| *c)
        .collect();
    out.sort_by(|a, b| a.key.cmp(&b.key));
    out.dedup_by(|a, b| a.key == b.key);
    out
}

/// Where the cards of a state are, and which of those zones a viewer sees.
struct Sight {
    zones: Vec<(String, Vec<String>)>,
    visible: Vec<bool>,
}

impl Sight {
    /// What `viewer` sees of `state` (`None`: a spectator, who sees what every seat sees).
    fn of<R: Rules>(rules: &R, state: &R::State, players: usize, viewer: Option<Seat>) -> Sight {
        let zones = rules.zones(state);
        let mut visible = vec![true; zones.len()];
        let seats: Vec<Seat> = match viewer {
            Some(s) => vec![s],
            None => (0..players).collect(),
        };
        for &seat in &seats {
            for k in 0..OBSERVATIONS {
                let view = rules.observe(state, seat, &mut GameRng::new(0x5EE_0000 + k));
                let seen = rules.zones(&view);
                assert_eq!(
                    seen.len(),
                    zones.len(),
                    "an observation lists the same zones as the truth"
                );
                for (i, (seen, truth)) in seen.iter().zip(&zones).enumerate() {
                    assert_eq!(seen.0, truth.0, "zones come in the same order");
                    visible[i] &= seen.1 == truth.1;
                }
            }
        }
        Sight { zones, visible }
    }

    fn in_play(&self, id: &str) -> bool {
        self.zones
            .iter()
            .any(|(_, ids)| ids.iter().any(|i| i == id))
    }

    fn sees(&self, id: &str) -> bool {
        self.zones
            .iter()
            .zip(&self.visible)
            .any(|((_, ids), &v)| v && ids.iter().any(|i| i == id))
    }

    fn zone(&self, name: &str) -> Option<&[String]> {
        self.zones
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, ids)| ids.as_slice())
    }
}

/// Cards a move may have shown the viewer though they are hidden on both sides of it: a pile
/// the viewer saw was shuffled into a hidden one during the move (a deck refilled from its
/// discards), so a card turned over and discarded in the same move is out of sight again.
/// The refill is seen as a visible pile emptied during the move, or as the move's own word
/// that the hidden pile was shuffled (`story is shuffled`: cards may be discarded onto the
/// emptied pile again before the move ends).
fn reshuffled(before: &Sight, after: &Sight, events: &[String]) -> BTreeSet<String> {
    let emptied = before
        .zones
        .iter()
        .zip(&before.visible)
        .any(|((name, was), &v)| {
            v && !was.is_empty() && after.zone(name).is_some_and(<[String]>::is_empty)
        });
    let shuffled = |name: &str| events.iter().any(|e| *e == format!("{name} is shuffled"));
    let mut out = BTreeSet::new();
    for ((name, ids), _) in after.zones.iter().zip(&after.visible).filter(|(_, v)| !**v) {
        if (emptied || shuffled(name)) && ids.len() > before.zone(name).map_or(0, <[String]>::len) {
            out.extend(ids.iter().cloned());
        }
    }
    out
}

/// Cards a public act turned face up during the move (a duel's answer, a prize, a
/// presentation): the move names them and is shown alike to every viewer, and its public
/// record (the spectator's events) names them too. They may be out of sight again after the
/// move (a duel's shown cards go back to hand), so before and after cannot tell.
fn turned_up(cards: &[Named], played: &Played) -> BTreeSet<String> {
    let public = played.shown.iter().all(|s| s.text == played.text);
    if !public {
        return BTreeSet::new();
    }
    let in_move: BTreeSet<&str> = named(cards, &played.text)
        .iter()
        .map(|c| c.key.as_str())
        .collect();
    played
        .shown_to(None)
        .events
        .iter()
        .flat_map(|e| named(cards, e))
        .filter(|c| in_move.contains(c.key.as_str()))
        .map(|c| c.key.clone())
        .collect()
}

/// The table is rendered from an observation, so it must not change with the generator
/// the observation was made with: what differs was re-dealt, hidden from the viewer. A
/// spectator's table, from the true state, must be what every seat's observation renders as
/// the public table. Returns two renderings that differ.
fn table_differs<R: Rules>(
    rules: &R,
    state: &R::State,
    players: usize,
    viewer: Option<Seat>,
) -> Option<(String, String)> {
    let observed = |seat: Seat, k: u64, as_seen: Option<Seat>| {
        let view = rules.observe(state, seat, &mut GameRng::new(0x7AB_0000 + k));
        rules.render(&view, as_seen)
    };
    match viewer {
        Some(s) => {
            let first = observed(s, 0, viewer);
            (1..RENDERS)
                .map(|k| observed(s, k, viewer))
                .find(|t| *t != first)
                .map(|t| (first, t))
        }
        None => {
            let truth = rules.render(state, None);
            (0..players)
                .flat_map(|s| (0..RENDERS).map(move |k| (s, k)))
                .map(|(s, k)| observed(s, k, None))
                .find(|t| *t != truth)
                .map(|t| (truth, t))
        }
    }
}

/// The lines of `a` that are not in `b`, and the other way round.
fn difference(a: &str, b: &str) -> String {
    let only = |x: &str, y: &str, mark: &str| -> Vec<String> {
        x.lines()
            .filter(|l| !y.lines().any(|m| m == *l))
            .map(|l| format!("{mark} {l}"))
            .collect()
    };
    let mut lines = only(a, b, "-");
    lines.extend(only(b, a, "+"));
    lines.join("\n")
}

/// The cards `text` names that are in play (in some zone) on either side of a move but
/// visible to the viewer on neither.
fn leaks<'c>(
    cards: &'c [Named],
    text: &str,
    sights: &[&Sight],
    excused: &BTreeSet<String>,
) -> Vec<&'c str> {
    named(cards, text)
        .into_iter()
        .filter(|c| sights.iter().any(|s| s.in_play(&c.key)))
        .filter(|c| !sights.iter().any(|s| s.sees(&c.key)) && !excused.contains(&c.key))
        .map(|c| c.key.as_str())
        .collect()
}

struct Leak {
    /// Game, kind of text, card: leaks of one kind are reported once.
    kind: String,
    message: String,
}

fn leak(label: &str, what: &str, card: &str, message: String) -> Leak {
    Leak {
        kind: format!("{label} {what} {card}"),
        message,
    }
}

fn viewer_name(viewer: Option<Seat>) -> String {
    viewer.map_or("the spectator".into(), |s| format!("P{}", s + 1))
}

/// Plays the games of one rulebook and returns what leaked, one line per leak.
fn check<R: Rules>(rules: &R, cards: &[Named], label: &str) -> Vec<Leak> {
    let mut found = Vec::new();
    for players in rules.players() {
        let viewers: Vec<Option<Seat>> = (0..players).map(Some).chain([None]).collect();
        for kind in [AgentKind::Random, AgentKind::Greedy] {
            for seed in 0..SEEDS {
                let mut m = Match::new(rules, Setup::new(players, seed)).unwrap();
                assert!(
                    !rules.zones(m.state()).is_empty(),
                    "{label}: the rules list their zones"
                );
                let mut agents: Vec<_> = (0..players)
                    .map(|s| kind.build::<R>(agent_seed(seed, s)))
                    .collect();
                let at = |step: usize, viewer: Option<Seat>| {
                    format!(
                        "{label} {players}p {} seed {seed} move {step}, shown to {}",
                        kind.name(),
                        viewer_name(viewer)
                    )
                };
                let none = BTreeSet::new();
                let mut before: Vec<Sight> = viewers
                    .iter()
                    .map(|&v| Sight::of(rules, m.state(), players, v))
                    .collect();
                for (&viewer, sight) in viewers.iter().zip(&before) {
                    for event in m.setup_events_for(viewer) {
                        for card in leaks(cards, event, &[sight], &none) {
                            let message =
                                format!("{}: setup `{event}` names {card}", at(0, viewer));
                            found.push(leak(label, "setup", card, message));
                        }
                    }
                }
                while let Some(seat) = m.to_move() {
                    let played = m.bot_move(&mut agents[seat]).unwrap().clone();
                    let step = m.history().len();
                    assert!(step < MOVE_CAP, "{label} seed {seed} does not end");
                    let after: Vec<Sight> = viewers
                        .iter()
                        .map(|&v| Sight::of(rules, m.state(), players, v))
                        .collect();
                    for (i, &viewer) in viewers.iter().enumerate() {
                        let shown = played.shown_to(viewer);
                        let sights = [&before[i], &after[i]];
                        let mut excused = reshuffled(&before[i], &after[i], &shown.events);
                        excused.extend(turned_up(cards, &played));
                        for text in std::iter::once(&shown.text).chain(&shown.events) {
                            for card in leaks(cards, text, &sights, &excused) {
                                let message = format!(
                                    "{}: `{}` names {card} (canonical: `{}`)",
                                    at(step, viewer),
                                    text,
                                    played.text
                                );
                                let what = text
                                    .split_whitespace()
                                    .take(2)
                                    .collect::<Vec<_>>()
                                    .join(" ");
                                found.push(leak(label, &what, card, message));
                            }
                        }
                        if let Some((table, other)) =
                            table_differs(rules, m.state(), players, viewer)
                        {
                            let message = format!(
                                "{}: the table shows what the observation re-deals:\n{}",
                                at(step, viewer),
                                difference(&table, &other)
                            );
                            found.push(leak(label, "table", "", message));
                        }
                        let place = at(step, viewer);
                        found.extend(view_leaks(
                            &mut m,
                            cards,
                            (&after[i], &excused),
                            viewer,
                            label,
                            &place,
                        ));
                    }
                    before = after;
                }
            }
        }
    }
    found
}

/// What the view model (what `grail serve` sends a seat, and the terminal shows) leaks:
/// every card its zones list must be one the viewer sees now, and its table, drawn from
/// observations made with different generators, must not change (what changes was
/// re-dealt, so hidden). Its log is what each move showed, checked above as the moves were
/// made; its lines of text are held to the table's check.
fn view_leaks<R: Rules>(
    m: &mut Match<'_, R>,
    cards: &[Named],
    (sight, excused): (&Sight, &BTreeSet<String>),
    viewer: Option<Seat>,
    game: &str,
    place: &str,
) -> Vec<Leak> {
    let view = m.view(viewer);
    let listed: Vec<&str> = (view.table.iter())
        .flat_map(|part| match part {
            Part::Zone { cards, rows, .. } => cards
                .iter()
                .chain(rows.iter().flat_map(|r| &r.cards))
                .map(String::as_str)
                .collect(),
            _ => Vec::new(),
        })
        .collect();
    let mut found: Vec<Leak> = leaks(cards, &listed.join(" "), &[sight], excused)
        .into_iter()
        .map(|card| {
            let shown = view.table_text();
            let message = format!("{place}: the view's zones list {card}:\n{shown}");
            leak(game, "view", card, message)
        })
        .collect();
    let again = m.view(viewer);
    if again.table != view.table {
        let message = format!(
            "{place}: the view's table shows what the observation re-deals:\n{}",
            difference(&again.table_text(), &view.table_text())
        );
        found.push(leak(game, "view table", "", message));
    }
    found
}

fn check_pack(game: &str, variant: Option<&str>) -> Vec<Leak> {
    check_loaded(pack(game, variant), game, variant)
}

fn check_loaded(pack: Pack, game: &str, variant: Option<&str>) -> Vec<Leak> {
    let attributes: BTreeSet<&str> = pack
        .sets
        .iter()
        .flat_map(|set| &set.universe.attrs)
        .map(|a| a.name.as_str())
        .collect();
    let cards: Vec<Named> = pack
        .sets
        .iter()
        .flat_map(|set| &set.cards)
        .map(|c| Named {
            id: Some(c.id.clone()).filter(|id| !attributes.contains(id.as_str())),
            name: c.name.clone(),
            key: c.id.clone(),
            text: c.text.trim().to_string(),
        })
        .collect();
    let label = match variant {
        Some(v) => format!("{game}/{v}"),
        None => game.to_string(),
    };
    match pack.rules.as_str() {
        "quests" => check(
            &grail_rules::quests::compile(&pack).unwrap(),
            &cards,
            &label,
        ),
        "virtues" => check(
            &grail_rules::virtues::compile(&pack).unwrap(),
            &cards,
            &label,
        ),
        "rulebook" => check(
            &grail_rules::rulebook::compile(&pack).unwrap(),
            &cards,
            &label,
        ),
        other => panic!("no leak check for rulebook `{other}`"),
    }
}

/// Fails with the first few leaks, the first of each game, kind of text and card, so a
/// report stays readable.
fn assert_no_leaks(found: Vec<Leak>) {
    if found.is_empty() {
        return;
    }
    let total = found.len();
    let mut kinds = BTreeSet::new();
    let shown: Vec<String> = found
        .into_iter()
        .filter(|leak| kinds.insert(leak.kind.clone()))
        .map(|leak| leak.message)
        .take(30)
        .collect();
    panic!(
        "{total} texts name a card their viewer cannot see; the first:\n{}",
        shown.join("\n")
    );
}

#[test]
fn no_text_shown_to_a_viewer_names_a_card_it_cannot_see() {
    let mut found = Vec::new();
    for (game, variant) in grail_tests::bundled_games() {
        found.extend(check_pack(&game, variant.as_deref()));
    }
    assert_no_leaks(found);
}

/// The game written from nothing as content: its hidden information comes only from the
/// zones' declared visibility.
#[test]
fn the_generic_rulebook_names_no_card_a_viewer_cannot_see() {
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/examples/five-trails");
    let loaded = Loader::new(&Disk)
        .with_content(grail_tests::content_dir())
        .with_rules(grail_rules::catalog())
        .load(&root);
    let pack = loaded.pack.expect("five-trails loads");
    assert_no_leaks(check_loaded(pack, "five-trails", None));
}

/// A test pack that hides cards by its own means, checked as the bundled games are.
fn check_test_pack(name: &str) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("packs")
        .join(name);
    let loaded = Loader::new(&Disk)
        .with_content(grail_tests::content_dir())
        .with_rules(grail_rules::catalog())
        .load(&root);
    let pack = loaded.pack.unwrap_or_else(|| panic!("{name} loads"));
    assert_no_leaks(check_loaded(pack, name, None));
}

/// Piles laid face down and turned up one at a time (`turn up`).
#[test]
fn stages_turned_up_one_at_a_time_name_no_hidden_card() {
    check_test_pack("veiled-stages");
}

/// Lists laid face down and revealed in unison.
#[test]
fn lists_revealed_in_unison_name_no_hidden_card() {
    check_test_pack("sealed-lists");
}

/// The Quests draft: face-down stages and commitments, and a stage shown to one player
/// (`show Z to P`, Merlin), who alone sees it.
#[test]
fn the_quests_draft_names_no_hidden_card() {
    check_test_pack("quests-rulebook");
}

#[test]
fn a_card_is_named_by_a_whole_word_not_inside_a_longer_name() {
    let card = |id: &str, name: &str| Named {
        id: Some(id.into()),
        name: name.into(),
        key: id.into(),
        text: String::new(),
    };
    let cards = [
        card("red-4", "Red 4"),
        card("boar", "Boar"),
        card("boar-hunt", "Boar Hunt"),
        card("sir-gawain", "Sir Gawain"),
    ];
    let keys =
        |text: &str| -> Vec<&str> { named(&cards, text).iter().map(|c| c.key.as_str()).collect() };
    assert_eq!(keys("P1 adds red-4 to it"), ["red-4"]);
    assert_eq!(keys("red-41 dark-red-4"), Vec::<&str>::new());
    assert_eq!(keys("stage 1: Sir Gawain + boar"), ["boar", "sir-gawain"]);
    assert_eq!(keys("P1 draws Boar Hunt"), ["boar-hunt"]);
    assert_eq!(keys("needs count(kind=boar) >= 1"), Vec::<&str>::new());
}

/// `grail play` with bots at every seat prints the game as a spectator sees it: a sponsor's
/// stage cards and the questors' commitments are not named while face down (issue 14).
#[test]
fn a_bots_only_quests_game_prints_no_face_down_card() {
    let game = grail_tests::open("quests", None);
    let dir = std::env::temp_dir().join(format!("grail-hidden-{}", std::process::id()));
    let args = grail_cli::play::PlayArgs {
        game: Some("quests".into()),
        variant: None,
        players: Some(3),
        seat: None,
        bots: vec![AgentKind::Greedy],
        seed: Some(2),
        save: Some(dir.join("quests.ron")),
        resume: None,
        ignore_content_hash: false,
        force: false,
    };
    let mut session = grail_cli::play::start(game.as_ref(), &args).unwrap();
    for p in &mut session.table {
        *p = grail_cli::play::Player::Bot(AgentKind::Greedy);
    }
    let mut out = Vec::new();
    grail_cli::play::play(&mut session, &mut "".as_bytes(), &mut out).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("(greedy): add a card face down to stage 1"),
        "{out}"
    );
    assert!(out.contains("(greedy): add a card face down\n"), "{out}");
    let named = out
        .lines()
        .filter(|l| l.contains("(greedy): add ") && !l.contains("add a card face down"))
        .collect::<Vec<_>>();
    assert!(named.is_empty(), "face-down cards named: {named:?}");
}
