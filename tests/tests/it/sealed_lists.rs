//! Sealed commitments revealed in unison, written in the rulebook language
//! (`tests/packs/sealed-lists`), checked from outside the rulebook: in random and greedy
//! games at 2 to 4 players, while lists are being laid each seat's view shows its own list
//! card by card and every other list only as a count, nothing is turned up before every seat
//! has passed, and then every list is turned up at once and the greatest strength (the first
//! from the player to move among equals) takes the prize.

use grail_engine::agent::AgentKind;
use grail_engine::facade::DynMatch;
use grail_engine::game::Setup;
use grail_tests::{queried_cards, seen_zone};

const PACK: &str = "tests/packs/sealed-lists";

fn strength(card: &str) -> i64 {
    match card {
        "squire" => 1,
        "knight" => 2,
        "champion" => 3,
        other => panic!("no knight `{other}`"),
    }
}

#[test]
fn lists_are_sealed_until_every_seat_has_passed() {
    let game = grail_tests::open_pack(PACK);
    let mut sealed_views = 0;
    for players in 2..=4 {
        for seed in 0..8u64 {
            let bots = if seed % 2 == 0 {
                AgentKind::Random
            } else {
                AgentKind::Greedy
            };
            let mut m = game.new_match(Setup::new(players, seed)).unwrap();
            let mut current = 0;
            let mut won = vec![0usize; players];
            while m.to_move().is_some() {
                let at = format!("{players}p seed {seed}, turn of P{}", current + 1);
                let lists: Vec<Vec<String>> = (0..players)
                    .map(|p| queried_cards(m.as_ref(), &format!("list P{}", p + 1)))
                    .collect();
                for (p, list) in lists.iter().enumerate() {
                    assert!(
                        queried_cards(m.as_ref(), &format!("shown P{}", p + 1)).is_empty(),
                        "{at}: nothing is turned up while lists are laid"
                    );
                    for v in 0..players {
                        let (seen, shown, hidden) = seen_zone(m.as_mut(), v, "list", p);
                        if v == p {
                            assert!(seen, "{at}: P{} sees its own list", p + 1);
                            assert_eq!(&shown, list, "{at}");
                        } else {
                            assert!(
                                !seen && shown.is_empty(),
                                "{at}: P{}'s list is sealed",
                                p + 1
                            );
                            assert_eq!(hidden, list.len(), "{at}: its count is seen");
                            sealed_views += 1;
                        }
                    }
                }
                let seat = m.to_move().unwrap();
                let settled = |m: &dyn DynMatch| {
                    let won: usize = (0..players)
                        .map(|p| queried_cards(m, &format!("won P{}", p + 1)).len())
                        .sum();
                    won + queried_cards(m, "set-aside").len()
                };
                let before = settled(m.as_ref());
                let played = m.bot_move(bots).unwrap();
                let mut lists = lists;
                if let Some(card) = played.text.strip_prefix("list ") {
                    lists[seat].push(card.to_string());
                }
                // The turn's prize settled: every list was turned up at once, and the greatest
                // strength took it (the first from the player to move among equals).
                if settled(m.as_ref()) > before {
                    let totals: Vec<i64> = (lists.iter())
                        .map(|l| l.iter().map(|c| strength(c)).sum())
                        .collect();
                    let best = *totals.iter().max().unwrap();
                    let winner = (0..players)
                        .map(|k| (current + k) % players)
                        .find(|&p| totals[p] == best)
                        .unwrap();
                    if best > 0 {
                        won[winner] += 1;
                    }
                    for (p, &prizes) in won.iter().enumerate() {
                        let now = queried_cards(m.as_ref(), &format!("won P{}", p + 1)).len();
                        assert_eq!(now, prizes, "{at}: P{}'s prizes", p + 1);
                    }
                    current = (current + 1) % players;
                }
            }
            assert_eq!(m.outcome().expect("the game ends").end, "prizes-gone");
        }
    }
    assert!(sealed_views > 500, "{sealed_views} views of sealed lists");
}
