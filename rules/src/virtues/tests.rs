//! Bot checks that need the state's insides: positions set up by hand.

use grail_engine::agent::{Agent, GreedyAgent};
use grail_engine::counts::Counts;
use grail_engine::game::{NoEvents, Rules, Setup};
use grail_engine::rng::GameRng;
use grail_engine::showdown::Showdown;
use grail_schema::{Disk, Loader};

use super::Virtues;
use super::state::{Action, Slot, Stage, bit};

fn rules() -> Virtues {
    let content = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    let loaded = Loader::new(&Disk)
        .with_content(content)
        .with_rules(crate::catalog())
        .load_game("virtues", None);
    super::compile(loaded.pack.as_ref().unwrap()).unwrap()
}

/// The card P3 discards, over 16 greedy agents: P3 at court holds Courage, Mercy and Sin (no
/// treasure, so Sin doubles nothing) and must discard one; Feed the Poor (Mercy, no trials,
/// nobody on it) is the quest its hand serves best, and P1 and P2 are on the Green Knight's
/// Challenge (Courage), which P3 could join.
fn discards_in_the_feed_the_poor_position(rules: &Virtues) -> Vec<String> {
    let quest = |id| rules.quest_cards.index(id).unwrap();
    let virtue = |id| rules.virtues.index(id).unwrap();
    let mut state = rules.setup(&Setup::new(3, 1)).unwrap();
    state.layout = vec![
        Slot {
            quest: quest("feed-the-poor"),
            knights: 0,
        },
        Slot {
            quest: quest("green-knight"),
            knights: bit(0) | bit(1),
        },
    ];
    state.stage = Stage::Act;
    state.current = 2;
    let p3 = state.player_mut(2);
    p3.virtues = Counts::from_types(&[virtue("courage"), virtue("mercy"), virtue("sin")]);
    p3.treasures = Counts::new();
    state.discards[2] = 1;
    assert_eq!(rules.to_move(&state), Some(2));
    let mut legal = Vec::new();
    rules.legal_actions(&state, &mut legal);
    (0..16)
        .map(|seed| {
            let mut view = rules.observe(&state, 2, &mut GameRng::new(seed));
            let mut agent = GreedyAgent::new(seed);
            let i = agent.choose(rules, 2, Some(&mut view), &legal);
            assert!(matches!(legal[i], Action::Discard(_)));
            rules.format_action(&state, &legal[i])
        })
        .collect()
}

/// `bot_other_quests_pct` (docs/rules/virtues.md, part 6 cont. 3): a card that serves only
/// another quest in reach — here one another knight is on and the bot could join — is worth
/// keeping, so the bot discards the card no quest asks for. With the weight at 0 the two
/// cards are worth the same to it and it discards either.
#[test]
fn a_card_for_another_knights_quest_is_kept_by_the_other_quests_weight() {
    let mut rules = rules();
    assert!(rules.n.bot.other_quests > 0.0, "the pack gives the weight");
    let kept = discards_in_the_feed_the_poor_position(&rules);
    assert!(
        kept.iter().all(|d| d == "discard sin"),
        "with bot_other_quests_pct > 0 the bot keeps the Courage: {kept:?}"
    );
    rules.n.bot.other_quests = 0.0;
    let without = discards_in_the_feed_the_poor_position(&rules);
    assert!(
        without.iter().any(|d| d == "discard courage"),
        "with the weight at 0 the Courage is worth no more than the Sin: {without:?}"
    );
}

/// F: "Anyone not at quest may choose to draw a treasure and place it face up on the table as
/// a reward ... If someone won, any prizes go to the winner." An onlooker's prize goes to
/// another knight unless the match is drawn, so a greedy onlooker puts none up: not his own
/// treasure (ref gap 3; the bot used to count nothing for it, as the prize stays in his hand
/// until the match ends, and put it up at random), nor one drawn from the treasure deck
/// (`joust_prize_from_deck`: free to him, but a gift to a rival).
#[test]
fn a_greedy_onlooker_puts_up_no_prize() {
    let mut rules = rules();
    let goblet = rules.treasures.index("silver-goblet").unwrap();
    for (from_deck, prize) in [(false, Action::Prize(goblet)), (true, Action::DrawPrize)] {
        rules.n.joust_prize_from_deck = from_deck;
        let mut state = rules.setup(&Setup::new(3, 1)).unwrap();
        state.player_mut(2).treasures.add(goblet, 1);
        assert_eq!(rules.to_move(&state), Some(0));
        rules.apply(&mut state, &Action::Joust(1), &mut NoEvents);
        // The challenger (the king) and the challenged are asked first; they put up nothing.
        while rules.to_move(&state) != Some(2) {
            rules.apply(&mut state, &Action::Pass, &mut NoEvents);
        }
        let mut legal = Vec::new();
        rules.legal_actions(&state, &mut legal);
        assert!(legal.contains(&prize), "P3 may put up a prize");
        for seed in 0..16 {
            let mut view = rules.observe(&state, 2, &mut GameRng::new(seed));
            let i = GreedyAgent::new(seed).choose(&rules, 2, Some(&mut view), &legal);
            assert_eq!(
                rules.format_action(&state, &legal[i]),
                "pass",
                "agent {seed} (from the deck: {from_deck}): an onlooker gives a treasure away"
            );
        }
    }
}

/// F Duel: "only courage, swordsmanship, and guile cards count". A duellist forecasting the
/// match takes the opponent's hidden hand at the share of duel cards among the cards it
/// cannot see: the deck less its own hand and the (public) discards (issue 17, part 6
/// cont. 5). P1 challenges P2 (4 hidden cards; 31 of the 60 virtue cards count).
#[test]
fn a_duellist_counts_the_cards_it_sees_out_of_the_opponents_hand() {
    let rules = rules();
    let virtue = |id| rules.virtues.index(id).unwrap();
    let mut state = rules.setup(&Setup::new(3, 1)).unwrap();
    assert_eq!(state.player(1).virtues.total(), 4);
    assert!(state.virtue_discard.is_empty());
    let duel = Showdown::new(0, 1, rules.duel_mask);
    // Two Courage of two cards: 29 of the 58 unseen count, so P2 holds two, a draw (the
    // whole deck's share, rounded up, gave him three and P1 the loss: 0.2).
    state.player_mut(0).virtues = Counts::from_types(&[virtue("courage"), virtue("courage")]);
    assert_eq!(rules.chance_to_win(&state, &duel, 0, rules.duel_mask), 0.5);
    // Two Courage and two Mercy: 29 of 56 count, so three, and P1 loses ...
    state.player_mut(0).virtues.add(virtue("mercy"), 2);
    assert_eq!(rules.chance_to_win(&state, &duel, 0, rules.duel_mask), 0.2);
    // ... unless five Guile lie in the discards: 24 of 51, two again.
    for _ in 0..5 {
        state.virtue_discard.push(virtue("guile"));
    }
    assert_eq!(rules.chance_to_win(&state, &duel, 0, rules.duel_mask), 0.5);
}

/// The other reading of the joust prize (`joust_prize_from_deck`, variant
/// prizes-from-the-deck): "draw a treasure and place it face up on the table as a reward" from
/// the treasure deck. A drawn prize is the drawer's, the winner's if he wins and his again if
/// the match is drawn, so a knight in the joust who expects to win draws one: here the king,
/// holding three Courage and a Mercy, against P2.
#[test]
fn a_jouster_who_expects_to_win_draws_a_prize_from_the_deck() {
    let mut rules = rules();
    rules.n.joust_prize_from_deck = true;
    let virtue = |id| rules.virtues.index(id).unwrap();
    let mut state = rules.setup(&Setup::new(3, 1)).unwrap();
    state.player_mut(0).virtues = Counts::from_types(&[
        virtue("courage"),
        virtue("courage"),
        virtue("courage"),
        virtue("mercy"),
    ]);
    assert_eq!(rules.to_move(&state), Some(0));
    rules.apply(&mut state, &Action::Joust(1), &mut NoEvents);
    assert_eq!(
        rules.to_move(&state),
        Some(0),
        "the challenger is asked first"
    );
    // Choosing the joust, he counts the two prizes he and P2 will draw, each his at the
    // forecast's 0.8 (P2 is expected to hold fewer of the three types); put up from the hands
    // they are worth nothing to either, so none is counted.
    let win = rules.chance_to_win(
        &state,
        &Showdown::new(0, 1, rules.joust_mask),
        0,
        rules.joust_mask,
    );
    assert_eq!(win, 0.8);
    let drawn = rules.heuristic(&state, 0);
    rules.n.joust_prize_from_deck = false;
    let from_hand = rules.heuristic(&state, 0);
    rules.n.joust_prize_from_deck = true;
    // The treasure deck's mean worth (treasures.toml: 20 cards, 40 points).
    let deck_cards = state.treasure_deck.as_slice();
    let points: i64 = deck_cards
        .iter()
        .map(|&t| rules.treasure_points[usize::from(t)])
        .sum();
    assert_eq!((deck_cards.len(), points), (20, 40));
    let mean = 2.0;
    assert!(
        (drawn - from_hand - 2.0 * win * mean).abs() < 1e-9,
        "{drawn} - {from_hand}"
    );
    let mut legal = Vec::new();
    rules.legal_actions(&state, &mut legal);
    assert_eq!(legal, [Action::DrawPrize, Action::Pass]);
    let deck = state.treasure_deck.len();
    for seed in 0..16 {
        let mut view = rules.observe(&state, 0, &mut GameRng::new(seed));
        let i = GreedyAgent::new(seed).choose(&rules, 0, Some(&mut view), &legal);
        assert_eq!(
            legal[i],
            Action::DrawPrize,
            "agent {seed}: a free prize it expects to win"
        );
    }
    rules.apply(&mut state, &Action::DrawPrize, &mut NoEvents);
    assert_eq!(
        state.treasure_deck.len(),
        deck - 1,
        "the prize comes off the deck"
    );
    assert_eq!(
        state.player(0).treasures.total(),
        2,
        "the Crown and the prize"
    );
}
