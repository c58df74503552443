//! King Arthur over many bots' games, against the rule text rather than the rulebook's own
//! code: R1 Game end "each player adds the values of his adventure cards and his adversary
//! cards … If players tie for the most points, the player among them with the most knight
//! cards in his hand is the winner. If there is still a tie, they share the victory." The
//! scores are summed here from the pack's card data; every legal move's notation prints
//! and parses back to the same move; and the greedy bot beats the random one.

use std::collections::BTreeMap;

use grail_engine::agent::AgentKind;
use grail_engine::game::{Rules, Setup};
use grail_engine::play::Match;
use grail_engine::sim::{SimConfig, SimHooks, simulate};
use grail_rules::rulebook::{self, Rulebook};
use grail_schema::{Disk, Loader, Pack};

const VARIANTS: [Option<&str>; 2] = [None, Some("seals")];

fn pack(variant: Option<&str>) -> Pack {
    Loader::new(&Disk)
        .with_content(grail_tests::content_dir())
        .with_rules(grail_rules::catalog())
        .load_game("king-arthur", variant)
        .pack
        .expect("the bundled King Arthur pack loads")
}

/// What each card scores, read from the pack: an adventure's points, an adversary's value.
struct CardValues {
    adventures: BTreeMap<String, i64>,
    adversaries: BTreeMap<String, i64>,
}

impl CardValues {
    fn new(pack: &Pack) -> Self {
        let adventures = pack.set("adventures").expect("an adventure set");
        let adversaries = pack.set("adversaries").expect("an adversary set");
        let value = adversaries
            .universe
            .value_attr
            .expect("adversaries have a value");
        CardValues {
            adventures: adventures
                .cards
                .iter()
                .map(|c| (c.id.clone(), c.points.expect("adventure points")))
                .collect(),
            adversaries: (0..adversaries.cards.len())
                .map(|t| {
                    let v = adversaries.universe.int(t, value).expect("a value");
                    (adversaries.cards[t].id.clone(), v)
                })
                .collect(),
        }
    }
}

/// The card ids an `inspect` query lists (`-` for none).
fn ids(m: &Match<'_, Rulebook>, query: &str) -> Vec<String> {
    let text = m.inspect(query).unwrap();
    text.split_whitespace()
        .filter(|w| *w != "-")
        .map(str::to_string)
        .collect()
}

/// Plays one bots-only game, checking the notation of every legal move on the way.
fn play_checking_notation<'r>(
    rules: &'r Rulebook,
    players: usize,
    seed: u64,
    bots: AgentKind,
) -> Match<'r, Rulebook> {
    let mut m = Match::new(rules, Setup::new(players, seed)).unwrap();
    let mut agent = bots.build::<Rulebook>(seed);
    let mut moves = 0;
    while m.to_move().is_some() {
        let legal = m.legal_actions().to_vec();
        assert!(
            !legal.is_empty(),
            "seed {seed}: a player to move has a move"
        );
        for action in &legal {
            let text = rules.format_action(m.state(), action);
            let parsed = rules.parse_action(m.state(), &text);
            assert_eq!(
                parsed.as_ref(),
                Ok(action),
                "{players}p seed {seed} move {moves}: `{text}` does not read back"
            );
        }
        m.bot_move(&mut agent).unwrap();
        moves += 1;
        assert!(
            moves < 10_000,
            "{players}p seed {seed}: the game does not end"
        );
    }
    m
}

#[test]
fn scores_and_winners_follow_the_rule_text_and_moves_read_back() {
    for variant in VARIANTS {
        let pack = pack(variant);
        let values = CardValues::new(&pack);
        let rules = rulebook::compile(&pack).unwrap();
        for players in rules.players() {
            for seed in 0..25 {
                let bots = if seed % 5 == 0 {
                    AgentKind::Greedy
                } else {
                    AgentKind::Random
                };
                let m = play_checking_notation(&rules, players, seed, bots);
                let outcome = m.outcome().expect("a finished game has an outcome");
                let seats = 1..=players;
                let expected: Vec<i64> = seats
                    .clone()
                    .map(|p| {
                        let adventures: i64 = ids(&m, &format!("adventures P{p}"))
                            .iter()
                            .map(|a| values.adventures[a])
                            .sum();
                        let adversaries: i64 = ids(&m, &format!("adversaries P{p}"))
                            .iter()
                            .map(|a| values.adversaries[a])
                            .sum();
                        adventures + adversaries
                    })
                    .collect();
                let at = format!("{variant:?} {players}p seed {seed}");
                assert_eq!(outcome.scores, expected, "{at}: scores");

                let best = *expected.iter().max().unwrap();
                let tied: Vec<usize> = seats.filter(|&p| expected[p - 1] == best).collect();
                let knights = |p: usize| ids(&m, &format!("knights P{p}")).len();
                let most = tied.iter().map(|&p| knights(p)).max().unwrap();
                let winners: Vec<usize> = tied
                    .into_iter()
                    .filter(|&p| knights(p) == most)
                    .map(|p| p - 1)
                    .collect();
                assert_eq!(outcome.winners, winners, "{at}: winners");
            }
        }
    }
}

/// Wins of `greedy` at two seats over `games` games, with greedy first and then second.
fn greedy_share(rules: &Rulebook, games: u64) -> f64 {
    let mut wins = 0.0;
    let mut completed = 0;
    for (greedy_seat, agents) in [
        (0, vec![AgentKind::Greedy, AgentKind::Random]),
        (1, vec![AgentKind::Random, AgentKind::Greedy]),
    ] {
        let mut config = SimConfig::new(vec![2], games, 7);
        config.agents = agents;
        let report = simulate(rules, &config, SimHooks::default()).unwrap();
        let result = &report.results[0];
        wins += result.seats[greedy_seat].wins;
        completed += result.completed;
    }
    wins / completed as f64
}

#[test]
fn greedy_beats_random_in_three_games_of_four() {
    let rules = rulebook::compile(&pack(None)).unwrap();
    let share = greedy_share(&rules, 150);
    assert!(
        share >= 0.75,
        "greedy won {:.1}% of 300 two-player games against random",
        share * 100.0
    );
}
