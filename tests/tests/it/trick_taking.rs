//! The trick-taking example (`docs/examples/round-table-tricks`), checked against its rules
//! as its pack comment states them, from outside the rulebook: in random and greedy games at
//! 3 to 5 players, a player must follow the suit led when they hold it and may play any card
//! when they do not; the highest card of the led suit takes the trick and its player leads
//! the next; every turn is a card played; each score is the points of the cards taken.

use grail_engine::agent::AgentKind;
use grail_engine::facade::DynMatch;
use grail_engine::game::Setup;

const PACK: &str = "docs/examples/round-table-tricks";

/// `swords-12` → (`swords`, 12).
fn card(id: &str) -> (&str, i64) {
    let (suit, rank) = id.rsplit_once('-').expect("a card id is suit-rank");
    (suit, rank.parse().expect("a rank is a number"))
}

/// The pack's points: every Grail one, Excalibur (the 15 of Swords) five.
fn points(id: &str) -> i64 {
    match card(id) {
        ("grails", _) => 1,
        ("swords", 15) => 5,
        _ => 0,
    }
}

fn hand(m: &dyn DynMatch, seat: usize) -> Vec<String> {
    let text = m.inspect(&format!("hand P{}", seat + 1)).unwrap();
    text.split_whitespace()
        .filter(|c| *c != "-")
        .map(str::to_string)
        .collect()
}

#[test]
fn the_trick_taking_example_follows_suit_and_the_winner_leads() {
    let game = grail_tests::open_pack(PACK);
    assert_eq!(game.players(), 3..=5);
    for players in 3..=5 {
        for seed in 0..10u64 {
            let bots = if seed % 2 == 0 {
                AgentKind::Random
            } else {
                AgentKind::Greedy
            };
            let mut m = game.new_match(Setup::new(players, seed)).unwrap();
            let mut taken = vec![0i64; players];
            let mut trick: Vec<(usize, String)> = Vec::new();
            let mut moves = 0u32;
            let mut leader = 0;
            while let Some(seat) = m.to_move() {
                let expected = match trick.last() {
                    None => leader,
                    Some((last, _)) => (last + 1) % players,
                };
                assert_eq!(seat, expected, "{players}p seed {seed}: who moves");
                let held = hand(m.as_ref(), seat);
                let legal = m.legal_moves();
                let playable: Vec<&str> = legal
                    .iter()
                    .map(|l| l.strip_prefix("play ").expect("only cards are played"))
                    .collect();
                let led = trick.first().map(|(_, c)| card(c).0.to_string());
                let follows = |c: &&String| led.as_deref().is_none_or(|l| card(c).0 == l);
                let must: Vec<&str> = match held.iter().filter(follows).count() {
                    0 => held.iter().map(String::as_str).collect(),
                    _ => held.iter().filter(follows).map(String::as_str).collect(),
                };
                let mut sorted = playable.clone();
                sorted.sort_unstable();
                let mut want = must.clone();
                want.sort_unstable();
                want.dedup();
                assert_eq!(sorted, want, "{players}p seed {seed}: the cards playable");
                let played = m.bot_move(bots).unwrap();
                moves += 1;
                let id = played.text.strip_prefix("play ").unwrap().to_string();
                trick.push((seat, id));
                if trick.len() == players {
                    let led = card(&trick[0].1).0.to_string();
                    let (winner, _) = trick
                        .iter()
                        .filter(|(_, c)| card(c).0 == led)
                        .max_by_key(|(_, c)| card(c).1)
                        .unwrap();
                    leader = *winner;
                    taken[leader] += trick.iter().map(|(_, c)| points(c)).sum::<i64>();
                    trick.clear();
                }
            }
            let outcome = m.outcome().expect("the game ends");
            assert_eq!(outcome.end, "hands-empty");
            assert_eq!(outcome.scores, taken, "{players}p seed {seed}: the scores");
            assert_eq!(outcome.scores.iter().sum::<i64>(), 20, "20 points in all");
            assert_eq!(outcome.turns, moves, "every turn is a card played");
            assert_eq!(moves, 60, "all 60 cards are played");
        }
    }
}
