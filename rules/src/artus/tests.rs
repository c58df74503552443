//! Rulebook checks that need the state's insides: what a seat's observation may depend on,
//! and shared wins.

use grail_engine::game::{NoEvents, Rules, Setup};
use grail_engine::pile::Pile;
use grail_engine::rng::GameRng;
use grail_schema::{Disk, Loader};

use super::state::Phase;
use super::{Artus, State};

fn rules(variant: Option<&str>) -> Artus {
    let content = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    let loaded = Loader::new(&Disk)
        .with_content(content)
        .with_rules(crate::catalog())
        .load_game("artus", variant);
    super::compile(loaded.pack.as_ref().unwrap()).unwrap()
}

/// Plays `moves` random moves (or to the end).
fn advance(rules: &Artus, state: &mut State, moves: usize, seed: u64) {
    let mut rng = GameRng::new(seed);
    let mut legal = Vec::new();
    for _ in 0..moves {
        if rules.to_move(state).is_none() {
            return;
        }
        rules.legal_actions(state, &mut legal);
        let a = legal[rng.index(legal.len())];
        rules.apply(state, &a, &mut NoEvents);
    }
}

/// Swaps what `seat` cannot see: another player's hand cards against cards of the same deck
/// in his pile, and reorders every pile.
fn reshuffle_hidden(rules: &Artus, state: &mut State, seat: usize, rng: &mut GameRng) {
    for (q, player) in state.players.iter_mut().enumerate() {
        for (d, deck) in rules.decks.iter().enumerate() {
            let mut cards: Vec<u8> = player.piles.pile(d).as_slice().to_vec();
            let mut held = 0;
            if q != seat {
                for t in deck.first..deck.first + deck.len {
                    let n = player.hand.get(t);
                    cards.extend(std::iter::repeat_n(t, usize::from(n)));
                    player.hand.remove(t, n);
                    held += n;
                }
            }
            rng.shuffle(&mut cards);
            for _ in 0..held {
                player.hand.add(cards.pop().unwrap(), 1);
            }
            *player.piles.pile_mut(d) = Pile::from_bottom_up(&cards, cards.len());
        }
    }
    state.rng = GameRng::new(rng.next_u64());
}

#[test]
fn an_observation_depends_only_on_what_the_seat_may_know() {
    let mut hands_changed = 0;
    for variant in [None, Some("advanced")] {
        let rules = rules(variant);
        for seed in 0..20 {
            let mut state = rules.setup(&Setup::new(3, seed)).unwrap();
            advance(&rules, &mut state, 40 + seed as usize, seed);
            let mut other = state.clone();
            reshuffle_hidden(&rules, &mut other, 1, &mut GameRng::new(seed + 99));
            if other.players[0].hand != state.players[0].hand {
                hands_changed += 1;
            }
            let a = rules.observe(&state, 1, &mut GameRng::new(7));
            let b = rules.observe(&other, 1, &mut GameRng::new(7));
            assert_eq!(a, b, "{variant:?} seed {seed}");
            // ...and keeps what the seat does know.
            assert_eq!(a.players[1].hand, state.players[1].hand);
            assert_eq!(a.ring, state.ring);
            for (q, p) in a.players.iter().enumerate() {
                assert_eq!(p.hand.total(), state.players[q].hand.total());
                assert_eq!(p.piles.total(), state.players[q].piles.total());
            }
        }
    }
    assert!(
        hands_changed > 10,
        "the test really hides something ({hands_changed})"
    );
}

#[test]
fn tied_players_share_the_win() {
    let rules = rules(None);
    let mut state = rules.setup(&Setup::new(3, 5)).unwrap();
    advance(&rules, &mut state, 10_000, 5);
    assert_eq!(state.phase, Phase::Over);
    state.players[0].score = 40;
    state.players[1].score = 12;
    state.players[2].score = 40;
    let outcome = rules.outcome(&state).unwrap();
    assert_eq!(outcome.winners, vec![0, 2]);
}
