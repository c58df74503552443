use grail_engine::digest::digest;
use grail_engine::game::{Rules, Setup};
use grail_engine::rng::GameRng;

use crate::toy::{Toy, ToyState};

fn state(seed: u64) -> ToyState {
    Toy.setup(&Setup::new(3, seed)).unwrap()
}

/// Moves one card from P3's hand to the deck and one from the deck to P3: P1 cannot tell.
fn swap_hidden(s: &ToyState) -> ToyState {
    let mut t = s.clone();
    let theirs = t.hands[2].cards().next().unwrap();
    let deck: Vec<u8> = t.deck.as_slice().to_vec();
    let pos = deck.iter().position(|&c| c != theirs).unwrap();
    let mine = deck[pos];
    t.hands[2].remove(theirs, 1);
    t.hands[2].add(mine, 1);
    let mut deck = deck;
    deck[pos] = theirs;
    t.deck = grail_engine::pile::Pile::from_bottom_up(&deck, 24);
    t.rng = GameRng::new(999);
    t
}

#[test]
fn observation_depends_only_on_what_the_seat_knows() {
    let a = state(4);
    let b = swap_hidden(&a);
    assert_ne!(digest(&a), digest(&b), "the truths differ");
    for seat in [0, 1] {
        let va = Toy.observe(&a, seat, &mut GameRng::new(77));
        let vb = Toy.observe(&b, seat, &mut GameRng::new(77));
        assert_eq!(va, vb, "seat {seat} sees the same table");
    }
    // P3 holds the swapped card, so its view must differ.
    let va = Toy.observe(&a, 2, &mut GameRng::new(77));
    let vb = Toy.observe(&b, 2, &mut GameRng::new(77));
    assert_ne!(va.hands[2], vb.hands[2]);
}

#[test]
fn observation_keeps_the_seats_own_hand_and_the_public_table() {
    let a = state(8);
    let v = Toy.observe(&a, 1, &mut GameRng::new(1));
    assert_eq!(v.hands[1], a.hands[1]);
    assert_eq!(v.banks, a.banks);
    assert_eq!(v.deck.len(), a.deck.len());
    for p in [0, 2] {
        assert_eq!(v.hands[p].total(), a.hands[p].total());
    }
}

/// Remembers what it was shown.
struct Spy {
    wants_view: bool,
    seen: Vec<Option<ToyState>>,
}

impl grail_engine::agent::Agent<Toy> for Spy {
    fn name(&self) -> &'static str {
        "spy"
    }
    fn needs_view(&self) -> bool {
        self.wants_view
    }
    fn reset(&mut self, _: u64) {}
    fn choose(
        &mut self,
        _: &Toy,
        _: grail_engine::game::Seat,
        view: Option<&mut ToyState>,
        _: &[crate::toy::ToyAction],
    ) -> usize {
        self.seen.push(view.map(|v| v.clone()));
        0
    }
}

#[test]
fn agents_are_shown_observations_never_the_truth() {
    use grail_engine::agent::{Observer, decide};
    let a = state(4);
    let b = swap_hidden(&a);
    let mut legal = Vec::new();
    Toy.legal_actions(&a, &mut legal);
    assert!(legal.len() > 1);
    let mut spy = Spy {
        wants_view: true,
        seen: Vec::new(),
    };
    decide(
        &Toy,
        &a,
        0,
        &legal,
        &mut spy,
        &mut Observer::new(GameRng::new(5)),
    );
    decide(
        &Toy,
        &b,
        0,
        &legal,
        &mut spy,
        &mut Observer::new(GameRng::new(5)),
    );
    assert!(spy.seen[0].is_some());
    assert_eq!(
        spy.seen[0], spy.seen[1],
        "the hidden swap is invisible to the agent"
    );
    let mut blind = Spy {
        wants_view: false,
        seen: Vec::new(),
    };
    decide(
        &Toy,
        &a,
        0,
        &legal,
        &mut blind,
        &mut Observer::new(GameRng::new(5)),
    );
    assert_eq!(blind.seen, vec![None]);
    // A forced move is played without asking.
    decide(
        &Toy,
        &a,
        0,
        &legal[..1],
        &mut blind,
        &mut Observer::new(GameRng::new(5)),
    );
    assert_eq!(blind.seen.len(), 1);
}
