//! Situational values (`strength(card, quest + allies(current))`), written in the rulebook
//! language (`tests/packs/named-foes`), checked from outside the rulebook against the cards'
//! printed overrides: in random and greedy games at 2 to 4 players, every foe fought scores
//! the value its card gives in the situation of the quest in play and the fighter's allies
//! (a Dragon 10 on the Dragon Hunt, else 5; a Saxon 4 on the Saxon Raid, else 2; a Giant 1
//! beside Merlin, else 6).

use grail_engine::agent::AgentKind;
use grail_engine::game::Setup;

const PACK: &str = "tests/packs/named-foes";

fn strength(foe: &str, quest: &str, allies: &str) -> i64 {
    let merlin = allies.split_whitespace().any(|a| a == "merlin");
    match foe {
        "dragon" if quest == "dragon-hunt" => 10,
        "dragon" => 5,
        "saxon" if quest == "saxon-raid" => 4,
        "saxon" => 2,
        "giant" if merlin => 1,
        "giant" => 6,
        other => panic!("no foe `{other}`"),
    }
}

#[test]
fn foes_score_what_the_situation_makes_them() {
    let game = grail_tests::open_pack(PACK);
    let (mut named, mut plain) = (0, 0);
    for players in 2..=4 {
        for seed in 0..20u64 {
            let bots = if seed % 2 == 0 {
                AgentKind::Random
            } else {
                AgentKind::Greedy
            };
            let mut m = game.new_match(Setup::new(players, seed)).unwrap();
            while let Some(seat) = m.to_move() {
                let quest = m.inspect("quest").unwrap();
                let allies = m.inspect(&format!("allies P{}", seat + 1)).unwrap();
                let points = |m: &dyn grail_engine::facade::DynMatch| -> i64 {
                    m.inspect(&format!("points P{}", seat + 1))
                        .unwrap()
                        .parse()
                        .unwrap()
                };
                let before = points(m.as_ref());
                let played = m.bot_move(bots).unwrap();
                let foe = played.text.strip_prefix("fight ").expect("a foe fought");
                let want = strength(foe, quest.trim(), &allies);
                assert_eq!(
                    points(m.as_ref()) - before,
                    want,
                    "{players}p seed {seed}: P{} fought {foe} on {quest} beside {allies}",
                    seat + 1
                );
                let base = strength(foe, "", "");
                if want == base { plain += 1 } else { named += 1 }
            }
        }
    }
    assert!(
        named > 20 && plain > 20,
        "{named} foes changed by the situation, {plain} not"
    );
}
