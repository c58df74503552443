//! Properties over many random games of every bundled game, variant and player count:
//! the rulebook's invariants (cards conserved, …) hold after every move; every game ends;
//! the same seed gives the same game; a recorded game replays and verifies.

use grail_engine::agent::AgentKind;
use grail_engine::facade::DynGame;
use grail_engine::game::Setup;
use grail_engine::replay::{ReplayFile, ReplayOptions};

/// More moves than any real game takes; a game still running after this never ends.
const MOVE_CAP: usize = 20_000;

/// Plays one bots-only game, checking invariants after every move. Returns the digests.
fn play(
    game: &dyn DynGame,
    players: usize,
    seed: u64,
    bots: AgentKind,
) -> (Vec<String>, ReplayFile) {
    let mut m = game.new_match(Setup::new(players, seed)).unwrap();
    let mut digests = Vec::new();
    m.check_invariants()
        .unwrap_or_else(|e| panic!("{} seed {seed} at setup: {e}", game.game_id()));
    while m.to_move().is_some() {
        let played = m.bot_move(bots).unwrap();
        if let Err(e) = m.check_invariants() {
            panic!(
                "{} {:?} {players}p seed {seed} after move {} `{}`: {e}",
                game.game_id(),
                game.variant(),
                digests.len() + 1,
                played.text
            );
        }
        digests.push(played.digest);
        assert!(
            digests.len() < MOVE_CAP,
            "{} {players}p seed {seed} did not end",
            game.game_id()
        );
    }
    assert!(m.outcome().is_some(), "a finished game has an outcome");
    let text = m.to_replay(None).to_ron();
    (
        digests,
        ReplayFile::parse(&text).expect("a written replay parses"),
    )
}

#[test]
fn random_games_keep_the_invariants_end_and_replay() {
    for (id, variant) in grail_tests::bundled_games() {
        let game = grail_tests::open(&id, variant.as_deref());
        for players in game.players() {
            for seed in 0..12 {
                let bots = if seed % 3 == 0 {
                    AgentKind::Greedy
                } else {
                    AgentKind::Random
                };
                let (digests, file) = play(game.as_ref(), players, seed, bots);
                let again = play(game.as_ref(), players, seed, bots).0;
                assert_eq!(
                    digests, again,
                    "{id} {players}p seed {seed}: same seed, same game"
                );
                let run = game.replay(
                    &file,
                    ReplayOptions {
                        verify: true,
                        ignore_content_hash: false,
                        pack_chosen: false,
                    },
                );
                assert!(
                    run.passed(),
                    "{id} {players}p seed {seed}: {:?}",
                    run.failure
                );
            }
        }
    }
}

/// The same properties for description-only packs that are not bundled: the ring game of
/// `tests/packs/ring-places` (figures placed, moved and displaced, rings and crownings),
/// `tests/packs/card-moves` (cards naming the figure they move), `tests/packs/sorted-rows`
/// (cards into rows by their attribute), `tests/packs/tribute` (a step every other seat
/// decides), `tests/packs/omens` (stages steps enter, by a card's kind, one repeating, one
/// inside another), `tests/packs/auction` (a number parameter), `tests/packs/bidding-war` (rounds of bids until one is left), `tests/packs/sealed-lists` (lists laid face down, turned up at once), `tests/packs/toll-gate` (payments by the seats asked), `tests/packs/veiled-stages` (piles turned up one at a time), `tests/packs/shield-ladder` (ranks climbed with carried-over shields), `tests/packs/named-foes` (situational values), `tests/packs/sponsorship` (moves that must keep a condition), `tests/packs/quests-rulebook` (the draft of Quests as a rulebook), `tests/packs/virtues-rulebook` (the draft of Camelot Virtues), `docs/examples/five-trails` and the trick-taking
/// `docs/examples/round-table-tricks` (who moves next set by the rulebook).
#[test]
fn random_games_of_rulebook_packs_keep_the_invariants_end_and_replay() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for pack in [
        "tests/packs/ring-places",
        "tests/packs/card-moves",
        "tests/packs/two-decks",
        "tests/packs/sorted-rows",
        "tests/packs/tribute",
        "tests/packs/omens",
        "tests/packs/auction",
        "tests/packs/bidding-war",
        "tests/packs/sealed-lists",
        "tests/packs/toll-gate",
        "tests/packs/veiled-stages",
        "tests/packs/shield-ladder",
        "tests/packs/named-foes",
        "tests/packs/sponsorship",
        "tests/packs/quests-rulebook",
        "tests/packs/virtues-rulebook",
        "docs/examples/five-trails",
        "docs/examples/round-table-tricks",
        "docs/examples/merlins-rebuke",
        "docs/examples/artus-rival",
    ] {
        let dir = root.join(pack);
        let game =
            grail_cli::games::open_game(&grail_tests::content(), &dir.to_string_lossy(), None)
                .unwrap_or_else(|e| panic!("{pack}: {e}"));
        for players in game.players() {
            for seed in 0..12 {
                let bots = if seed % 3 == 0 {
                    AgentKind::Greedy
                } else {
                    AgentKind::Random
                };
                let (digests, file) = play(game.as_ref(), players, seed, bots);
                assert_eq!(
                    digests,
                    play(game.as_ref(), players, seed, bots).0,
                    "{pack} {players}p seed {seed}: same seed, same game"
                );
                let run = game.replay(
                    &file,
                    ReplayOptions {
                        verify: true,
                        ignore_content_hash: false,
                        pack_chosen: true,
                    },
                );
                assert!(
                    run.passed(),
                    "{pack} {players}p seed {seed}: {:?}",
                    run.failure
                );
            }
        }
    }
}
