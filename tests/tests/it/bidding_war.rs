//! The bidding war of `tests/packs/bidding-war`, written in the rulebook language, held to
//! the engine's contest (`grail_engine::bidding::Bidding`, rounds until one is left) from
//! outside the rulebook: in random and greedy games at 2 to 4 players, every bid is asked of
//! the seat the engine's contest asks, the numbers offered are those from its minimum bid up
//! to the coins held, the contest ends when the engine's does, and its winner pays the bid
//! and takes the relic.

use grail_engine::agent::AgentKind;
use grail_engine::bidding::{Bidding, Rounds};
use grail_engine::facade::DynMatch;
use grail_engine::game::Setup;
use grail_engine::seat_set::SeatSet;

const PACK: &str = "tests/packs/bidding-war";
/// The pack's `$purse` and `$opening`.
const PURSE: u32 = 8;
const OPENING: u32 = 2;

fn number(m: &dyn DynMatch, query: &str) -> u32 {
    let text = m.inspect(query).unwrap();
    text.trim()
        .parse()
        .unwrap_or_else(|_| panic!("`{query}` is a number: {text}"))
}

fn won(m: &dyn DynMatch, seat: usize) -> usize {
    let text = m.inspect(&format!("won P{}", seat + 1)).unwrap();
    text.split_whitespace().filter(|c| *c != "-").count()
}

#[test]
fn the_bidding_war_asks_as_the_engines_contest_does() {
    let game = grail_tests::open_pack(PACK);
    let mut contests = 0;
    let mut passes_after_the_first = 0;
    for players in 2..=4 {
        for seed in 0..12u64 {
            let bots = if seed % 3 == 0 {
                AgentKind::Greedy
            } else {
                AgentKind::Random
            };
            let mut m = game.new_match(Setup::new(players, seed)).unwrap();
            // The player whose turn it is; the contest begins at their left.
            let mut current = 0;
            let mut contest: Option<Bidding> = None;
            // Each seat's relics and coins as the contest began.
            let mut before: Vec<(usize, u32)> = Vec::new();
            while let Some(seat) = m.to_move() {
                if contest.is_none() {
                    before = (0..players)
                        .map(|p| {
                            (
                                won(m.as_ref(), p),
                                number(m.as_ref(), &format!("coins P{}", p + 1)),
                            )
                        })
                        .collect();
                }
                let b = contest.get_or_insert_with(|| {
                    Bidding::new(
                        (current + 1) % players,
                        SeatSet::all(players),
                        players,
                        OPENING,
                        Rounds::UntilOneLeft,
                    )
                });
                let at = format!("{players}p seed {seed}, turn of P{}", current + 1);
                assert_eq!(Some(seat), b.current(), "{at}: who is asked");
                let coins = before[seat].1;
                let legal = m.legal_moves();
                let mut offered: Vec<u32> = (legal.iter())
                    .filter_map(|l| l.strip_prefix("raise ")?.parse().ok())
                    .collect();
                offered.sort_unstable();
                let want: Vec<u32> = (b.min_bid()..=coins.min(PURSE)).collect();
                assert_eq!(offered, want, "{at}: the bids P{} may make", seat + 1);
                assert!(legal.iter().any(|l| l == "drop"), "{at}: dropping out");
                let played = m.bot_move(bots).unwrap();
                let last_of_pass = b.to_ask().len() == 1;
                match played.text.strip_prefix("raise ") {
                    Some(n) => b.bid(n.parse().unwrap()),
                    None => {
                        assert_eq!(played.text, "drop", "{at}");
                        b.drop_out();
                    }
                }
                // The pass's last seat asked and the contest not over: another pass.
                if last_of_pass && !b.is_over() {
                    passes_after_the_first += 1;
                }
                if b.is_over() {
                    contests += 1;
                    // The winner pays the bid and takes the relic; nobody else's changes.
                    for (p, &(relics, coins)) in before.iter().enumerate() {
                        let (more, paid) = match b.winner() {
                            Some((w, bid)) if w == p => (1, bid),
                            _ => (0, 0),
                        };
                        let now = number(m.as_ref(), &format!("coins P{}", p + 1));
                        assert_eq!(
                            won(m.as_ref(), p),
                            relics + more,
                            "{at}: P{}'s relics",
                            p + 1
                        );
                        assert_eq!(now + paid, coins, "{at}: P{}'s coins", p + 1);
                    }
                    contest = None;
                    current = (current + 1) % players;
                }
            }
            assert!(
                contest.is_none(),
                "{players}p seed {seed}: the last contest ended"
            );
            let outcome = m.outcome().expect("the game ends");
            assert_eq!(outcome.end, "relics-gone");
        }
    }
    assert!(contests > 100, "{contests} contests");
    assert!(
        passes_after_the_first > 20,
        "{passes_after_the_first} passes after the first"
    );
}
