//! Unit tests of the quests rulebook.

use grail_engine::counts::Counts;
use grail_engine::game::{NoEvents, Rules, Seat, Setup};
use grail_engine::rng::GameRng;
use grail_schema::{Disk, Loader};

use super::state::{Phase, State};
use super::{Kind, Quests};

pub(crate) fn rules() -> Quests {
    let content = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    let loaded = Loader::new(&Disk)
        .with_content(content)
        .with_rules(crate::catalog())
        .load_game("quests", None);
    super::compile(loaded.pack.as_ref().expect("the bundled pack loads")).expect("it compiles")
}

fn card(q: &Quests, id: &str) -> u8 {
    q.adventure
        .index(id)
        .unwrap_or_else(|| panic!("no card {id}"))
}

fn setup(q: &Quests, players: usize, stack: &[(&str, &[&str])]) -> State {
    let mut setup = Setup::new(players, 99);
    setup.stack = stack
        .iter()
        .map(|(pile, ids)| {
            (
                pile.to_string(),
                ids.iter().map(|s| s.to_string()).collect(),
            )
        })
        .collect();
    q.setup(&setup).unwrap()
}

fn play(q: &Quests, s: &mut State, moves: &[&str]) {
    for m in moves {
        let a = q.parse_action(s, m).unwrap();
        let mut legal = Vec::new();
        q.legal_actions(s, &mut legal);
        assert!(
            legal.contains(&a),
            "`{m}` is not legal: {}",
            q.why_illegal(s, &a)
        );
        q.apply(s, &a, &mut NoEvents);
    }
}

/// What `seat` sees (its observation and the table rendered from it), with a fixed generator.
fn seen(q: &Quests, s: &State, seat: Seat) -> (State, String) {
    // The values the state keeps at hand follow the (possibly altered) true cards, as they
    // would in play; a view must not show them for cards it cannot see.
    let mut s = s.clone();
    q.refresh(&mut s);
    q.revalue(&mut s);
    let view = q.observe(&s, seat, &mut GameRng::new(7));
    let table = q.render(&view, Some(seat));
    (view, table)
}

/// A three-player quest under way: P1 sponsors Vanquish King Arthur's Enemies, P2 (with
/// Merlin in play) and P3 ride, and P2 has committed a sword face down in stage 1.
fn quest_under_way(q: &Quests) -> State {
    let mut s = setup(
        q,
        3,
        &[
            ("story", &["vanquish-king-arthurs-enemies"]),
            (
                "P1",
                &[
                    "thieves",
                    "saxons",
                    "robber-knight",
                    "sword",
                    "horse",
                    "dagger",
                    "boar",
                    "evil-knight",
                    "evil-knight",
                    "saxon-knight",
                    "saxon-knight",
                    "giant",
                ],
            ),
            (
                "P2",
                &[
                    "merlin",
                    "lance",
                    "sword",
                    "horse",
                    "thieves",
                    "thieves",
                    "saxons",
                    "robber-knight",
                    "evil-knight",
                    "evil-knight",
                    "saxon-knight",
                    "boar",
                ],
            ),
            (
                "P3",
                &[
                    "battle-ax",
                    "sword",
                    "thieves",
                    "thieves",
                    "boar",
                    "saxons",
                    "robber-knight",
                    "robber-knight",
                    "saxon-knight",
                    "saxon-knight",
                    "green-knight",
                    "black-knight",
                ],
            ),
            ("adventure", &["dagger", "dagger"]),
        ],
    );
    play(
        q,
        &mut s,
        &[
            "sponsor",
            "add thieves",
            "done",
            "add saxons",
            "done",
            "add robber-knight",
            "add sword",
            "done",
            "join",
            "join",
            "play merlin",
            "discard dagger",
            "add sword",
        ],
    );
    s
}

/// Moves one copy of `card` from `from` to `to` (two hidden places), keeping both sizes by
/// moving one copy of `back` the other way.
fn swap(from: &mut Counts, to: &mut Counts, card: u8, back: u8) {
    from.remove(card, 1);
    to.add(card, 1);
    to.remove(back, 1);
    from.add(back, 1);
}

/// P1's hand in the lone-questor tests: a test of Morgan le Fey, foes and weapons to sponsor
/// the Boar Hunt with a test in it.
const SPONSOR_OF_A_LONE_TEST: &[&str] = &[
    "test-of-morgan-le-fey",
    "boar",
    "thieves",
    "thieves",
    "saxons",
    "saxons",
    "robber-knight",
    "robber-knight",
    "evil-knight",
    "sword",
    "horse",
    "dagger",
];
#[test]
fn the_pack_has_every_card_of_the_frequency_list() {
    let q = rules();
    assert_eq!(q.adventure.total(), 125);
    assert_eq!(q.story.total(), 28);
    let of = |k: Kind| -> usize {
        (0..q.adventure.len())
            .filter(|&t| q.kind[t] == k)
            .map(|t| usize::from(q.adventure.copies[t]))
            .sum()
    };
    assert_eq!(
        [
            of(Kind::Weapon),
            of(Kind::Foe),
            of(Kind::Test),
            of(Kind::Ally),
            of(Kind::Amour)
        ],
        [49, 50, 8, 10, 8]
    );
    let stories = |f: fn(&super::Story) -> bool| -> usize {
        q.stories
            .iter()
            .zip(&q.story.copies)
            .filter(|(st, _)| f(st))
            .map(|(_, &c)| usize::from(c))
            .sum()
    };
    assert_eq!(stories(|s| matches!(s, super::Story::Quest { .. })), 13);
    assert_eq!(stories(|s| matches!(s, super::Story::Tournament { .. })), 4);
    assert_eq!(stories(|s| matches!(s, super::Story::Event { .. })), 11);
    assert_eq!(q.ranks.total(), 12);
    assert_eq!(q.rank_bp, vec![5, 10, 20]);
    assert_eq!(q.ladder.total(), 5 + 7 + 10);
}

#[test]
fn another_players_hand_is_hidden() {
    let q = rules();
    let s = quest_under_way(&q);
    assert_eq!(s.phase, Phase::Commit);
    // P3's hand and the deck trade a card: P2 cannot tell.
    let mut twin = s.clone();
    let deck_card = twin.adventure_deck.top().unwrap();
    let mut deck = Counts::from_types(twin.adventure_deck.as_slice());
    let hand_card = twin.players[2]
        .hand
        .iter()
        .find(|&(t, _)| t != deck_card)
        .unwrap()
        .0;
    swap(&mut twin.players[2].hand, &mut deck, hand_card, deck_card);
    twin.adventure_deck =
        grail_engine::pile::Pile::from_bottom_up(&deck.cards().collect::<Vec<_>>(), 125);
    assert_ne!(s.players[2].hand, twin.players[2].hand);
    assert_eq!(seen(&q, &s, 1), seen(&q, &twin, 1));
    assert_eq!(seen(&q, &s, 0), seen(&q, &twin, 0));
    // P3 himself sees the difference.
    assert_ne!(
        seen(&q, &s, 2).0.players[2].hand,
        seen(&q, &twin, 2).0.players[2].hand
    );
    // The public table names no card in anyone's hand.
    let public = q.render(&s, None);
    assert!(!public.contains("Your hand"), "{public}");
}

#[test]
fn the_sponsors_face_down_stages_are_hidden_from_the_others() {
    let q = rules();
    let s = quest_under_way(&q);
    // Stage 3 (robber-knight + sword) and a card in P1's hand trade places.
    let mut twin = s.clone();
    let (rk, dagger) = (card(&q, "robber-knight"), card(&q, "dagger"));
    let mut stage = twin.quest.built[2];
    swap(&mut stage, &mut twin.players[0].hand, rk, dagger);
    twin.quest.built[2] = stage;
    for seat in [1usize, 2] {
        // P2's own Merlin has not looked yet: neither questor can tell.
        assert_eq!(seen(&q, &s, seat), seen(&q, &twin, seat), "P{}", seat + 1);
    }
    // The sponsor sees his own stages.
    assert_ne!(seen(&q, &s, 0), seen(&q, &twin, 0));
    let (_, table) = seen(&q, &s, 1);
    assert!(table.contains("stage 3: 2 cards face down"), "{table}");
    assert!(
        table
            .lines()
            .filter(|l| l.trim_start().starts_with("stage"))
            .all(|l| !l.contains('+')),
        "{table}"
    );
}

#[test]
fn merlin_shows_the_previewed_stage_to_his_owner_alone() {
    let q = rules();
    let mut s = quest_under_way(&q);
    // P2 committed a sword but has not sealed; now he looks at stage 3.
    play(&q, &mut s, &["use merlin stage 3"]);
    let mut twin = s.clone();
    let (rk, dagger) = (card(&q, "robber-knight"), card(&q, "dagger"));
    let mut stage = twin.quest.built[2];
    swap(&mut stage, &mut twin.players[0].hand, rk, dagger);
    twin.quest.built[2] = stage;
    assert_ne!(seen(&q, &s, 1), seen(&q, &twin, 1), "P2 knows stage 3");
    assert_eq!(seen(&q, &s, 1).0.quest.built[2], s.quest.built[2]);
    assert_eq!(seen(&q, &s, 2), seen(&q, &twin, 2), "P3 does not");
    let (_, table) = seen(&q, &s, 1);
    assert!(
        table.contains("stage 3: sword + robber-knight: 25 battle points (face down)"),
        "{table}"
    );
    // Stage 2 stays hidden from P2 too.
    let mut twin2 = s.clone();
    let (saxons, boar) = (card(&q, "saxons"), card(&q, "boar"));
    let mut stage = twin2.quest.built[1];
    swap(&mut stage, &mut twin2.players[0].hand, saxons, boar);
    twin2.quest.built[1] = stage;
    assert_eq!(seen(&q, &s, 1), seen(&q, &twin2, 1));
}

#[test]
fn face_down_commitments_are_hidden_until_turned_over() {
    let q = rules();
    let mut s = quest_under_way(&q);
    play(&q, &mut s, &["done"]);
    // P2 has sealed a sword; P3 is committing. A sword and a horse trade between P2's
    // face-down cards and his hand.
    assert_eq!(q.to_move(&s), Some(2));
    let mut twin = s.clone();
    let (sword, horse) = (card(&q, "sword"), card(&q, "horse"));
    let mut committed = *twin.sealed.cards(1);
    swap(&mut committed, &mut twin.players[1].hand, sword, horse);
    twin.sealed.set_cards(1, committed);
    assert_eq!(seen(&q, &s, 2), seen(&q, &twin, 2), "P3 cannot tell");
    assert_eq!(seen(&q, &s, 0), seen(&q, &twin, 0), "nor the sponsor");
    assert_ne!(seen(&q, &s, 1), seen(&q, &twin, 1), "P2 can");
    let (view, table) = seen(&q, &s, 2);
    assert_eq!(view.sealed.cards(1).total(), 1, "the count is public");
    assert!(table.contains("1 face down, done"), "{table}");
    // Once every commitment is turned over, they are public: P3 commits and the stage is
    // fought; the cards are in the discard pile and the log names them.
    let a = q.parse_action(&s, "done").unwrap();
    let mut events = Vec::new();
    q.apply(&mut s, &a, &mut events);
    let log: Vec<String> = events.iter().map(|e| q.describe(e)).collect();
    assert!(log.iter().any(|l| l == "P2 turns over sword"), "{log:?}");
}

#[test]
fn the_decks_order_is_hidden_from_everyone() {
    let q = rules();
    let s = quest_under_way(&q);
    let mut twin = s.clone();
    let mut cards = twin.adventure_deck.as_slice().to_vec();
    cards.reverse();
    twin.adventure_deck = grail_engine::pile::Pile::from_bottom_up(&cards, 125);
    let mut story = twin.story_deck.as_slice().to_vec();
    story.reverse();
    twin.story_deck = grail_engine::pile::Pile::from_bottom_up(&story, 28);
    for seat in 0..3 {
        assert_eq!(seen(&q, &s, seat), seen(&q, &twin, seat));
    }
}

/// Every card `seat` cannot see, re-dealt at random into the places it was hidden in (the
/// deck, the other hands, the stages it may not look at, the others' face-down cards), each
/// keeping its size. Written from the rules, independently of `observe`.
fn scramble_hidden(s: &State, seat: usize, rng: &mut GameRng) -> State {
    let mut t = s.clone();
    let sponsor_sees = seat == usize::from(s.quest.sponsor);
    let stage_hidden = |i: usize| {
        !s.quest.built[i].is_empty()
            && !s.quest.is_revealed(i)
            && !sponsor_sees
            && s.players[seat].seen & (1 << i) == 0
    };
    let mut pool: Vec<u8> = s.adventure_deck.as_slice().to_vec();
    for (p, player) in s.players.iter().enumerate() {
        if p != seat {
            pool.extend(player.hand.cards());
        }
    }
    for i in (0..s.quest.built.len()).filter(|&i| stage_hidden(i)) {
        pool.extend(s.quest.built[i].cards());
    }
    let sealed_hidden: Vec<usize> = s
        .sealed
        .participants()
        .iter()
        .filter(|&p| p != seat && !s.sealed.is_revealed())
        .collect();
    for &p in &sealed_hidden {
        pool.extend(s.sealed.cards(p).cards());
    }
    rng.shuffle(&mut pool);
    let mut take = |n: u32| -> Counts { (0..n).map(|_| pool.pop().unwrap()).collect() };
    for i in (0..s.quest.built.len()).filter(|&i| stage_hidden(i)) {
        t.quest.built[i] = take(s.quest.built[i].total());
    }
    for &p in &sealed_hidden {
        t.sealed.set_cards(p, take(s.sealed.cards(p).total()));
    }
    for (p, player) in t.players.iter_mut().enumerate() {
        if p != seat {
            player.hand = take(player.hand.total());
        }
    }
    let rest: Vec<u8> = pool;
    t.adventure_deck = grail_engine::pile::Pile::from_bottom_up(&rest, 125);
    let mut story = t.story_deck.as_slice().to_vec();
    rng.shuffle(&mut story);
    t.story_deck = grail_engine::pile::Pile::from_bottom_up(&story, 28);
    t
}

/// Plays `players`-seat game `seed` with random moves (up to 3,000), showing `look` the state
/// before each move with the move's number; moves and `look` share `rng`.
fn random_game(
    q: &Quests,
    players: usize,
    seed: u64,
    rng: &mut GameRng,
    mut look: impl FnMut(&State, u64, &mut GameRng),
) {
    let mut s = q.setup(&Setup::new(players, seed)).unwrap();
    let mut legal = Vec::new();
    let mut moves = 0;
    while q.to_move(&s).is_some() && moves < 3000 {
        look(&s, moves, rng);
        q.legal_actions(&s, &mut legal);
        let a = legal[rng.index(legal.len())];
        q.apply(&mut s, &a, &mut NoEvents);
        moves += 1;
    }
}

#[test]
fn views_reveal_nothing_hidden_in_random_games() {
    let q = rules();
    let mut rng = GameRng::new(5);
    let mut checked = 0;
    for players in 2..=4 {
        for seed in 0..6 {
            random_game(&q, players, seed, &mut rng, |s, moves, rng| {
                if moves % 3 == 0 {
                    for seat in 0..players {
                        let twin = scramble_hidden(s, seat, rng);
                        assert_eq!(
                            seen(&q, s, seat),
                            seen(&q, &twin, seat),
                            "{players}p seed {seed} move {moves}: P{} sees hidden cards in {:?}",
                            seat + 1,
                            s.phase
                        );
                        checked += 1;
                    }
                }
            });
        }
    }
    assert!(checked > 1000, "{checked}");
}

/// Bots are shown observations written over the previous one (`observe_into`); whatever that
/// earlier view held, the result is the fresh observation the same generator gives.
#[test]
fn an_observation_written_over_an_earlier_one_is_the_fresh_one() {
    let q = rules();
    let mut rng = GameRng::new(9);
    let mut checked = 0;
    for players in 2..=4 {
        for seed in 0..4 {
            let mut stale = q.setup(&Setup::new(players, seed)).unwrap();
            random_game(&q, players, seed, &mut rng, |s, moves, _| {
                if moves % 5 == 0 {
                    let seat = (moves / 5) as usize % players;
                    let fresh = q.observe(s, seat, &mut GameRng::new(moves));
                    q.observe_into(s, seat, &mut GameRng::new(moves), &mut stale);
                    assert_eq!(fresh, stale, "{players}p seed {seed} move {moves}");
                    checked += 1;
                }
            });
        }
    }
    assert!(checked > 500, "{checked}");
}

#[test]
fn a_lone_questor_who_cannot_bid_the_minimum_drops_out_and_the_quest_is_over() {
    let q = rules();
    let mut s = setup(
        &q,
        2,
        &[
            ("story", &["boar-hunt"]),
            ("P1", SPONSOR_OF_A_LONE_TEST),
            ("adventure", &["saxons"]),
        ],
    );
    play(
        &q,
        &mut s,
        &[
            "sponsor",
            "add test-of-morgan-le-fey",
            "done",
            "add boar",
            "done",
        ],
    );
    // P2 is left with two cards and no free bids before he joins: he cannot bid 3. (A
    // foe and whatever he draws, which an ally or Amour could turn into a choice.)
    for c in s.players[1].hand.cards() {
        s.adventure_discard.push(c);
    }
    s.players[1].hand = Counts::EMPTY;
    s.players[1].hand.add(card(&q, "thieves"), 1);
    play(&q, &mut s, &["join"]);
    assert_eq!(s.players[1].hand.total(), 2);
    assert!(s.quest.questors.is_empty(), "he dropped out");
    assert_eq!(s.players[1].shields, 0);
    // The quest is over: the sponsor has drawn his 2 cards and 2 stages (14: over the limit).
    assert_eq!(q.over_limit(&s), Some(0));
    assert_eq!(s.phase, Phase::TurnEnd);
}

#[test]
fn the_arsenal_search_agrees_with_brute_force() {
    // Whether a hand can sponsor a quest, by the search, against trying every layout.
    let q = rules();
    let foes = [
        "thieves",
        "boar",
        "saxons",
        "saxon-knight",
        "robber-knight",
        "evil-knight",
    ];
    let weapons = ["dagger", "sword", "horse", "battle-ax"];
    let tests = ["test-of-valor"];
    let mut rng = GameRng::new(3);
    let s0 = setup(&q, 2, &[("story", &["vanquish-king-arthurs-enemies"])]);
    for _ in 0..400 {
        let mut hand = Counts::EMPTY;
        for _ in 0..(3 + rng.index(6)) {
            let pick = rng.index(foes.len() + weapons.len() + tests.len());
            let id = foes.iter().chain(&weapons).chain(&tests).nth(pick).unwrap();
            hand.add(card(&q, id), 1);
        }
        let mut s = s0.clone();
        s.players[0].hand = hand;
        let stages = 1 + rng.index(4) as u8;
        s.quest.stages = stages;
        let fast = q.can_sponsor(&s, 0);
        let slow = brute(&q, &s, hand, stages, i64::MIN, 0);
        assert_eq!(fast, slow, "hand {hand:?}, {stages} stages");
    }
}

/// Tries every stage: a test, or a foe with any set of weapons of distinct types.
fn brute(q: &Quests, s: &State, hand: Counts, left: u8, prev: i64, tests: u8) -> bool {
    if left == 0 {
        return true;
    }
    let mut sit = q.situation(s, Some(0));
    for (t, _) in hand.iter() {
        let mut rest = hand;
        rest.remove(t, 1);
        if q.is(t, Kind::Test)
            && tests < q.n.tests_per_quest
            && brute(q, s, rest, left - 1, prev, tests + 1)
        {
            return true;
        }
        if !q.is(t, Kind::Foe) {
            continue;
        }
        let base = sit.bp(t);
        let kinds: Vec<u8> = rest
            .iter()
            .filter(|&(w, _)| q.is(w, Kind::Weapon))
            .map(|(w, _)| w)
            .collect();
        for mask in 0u32..(1 << kinds.len()) {
            let mut r = rest;
            let mut bp = base;
            for (i, &w) in kinds.iter().enumerate() {
                if mask & (1 << i) != 0 {
                    r.remove(w, 1);
                    bp += sit.bp(w);
                }
            }
            if bp > prev && brute(q, s, r, left - 1, bp, tests) {
                return true;
            }
        }
    }
    false
}

/// Every adventure and story card the game holds, counted from the state's places (not
/// through `check_invariants`, which this test is meant to back up).
fn census(s: &State) -> (u32, u32) {
    let mut adventure = s.adventure_deck.len() as u32 + s.adventure_discard.len() as u32;
    for p in &s.players {
        adventure += p.hand.total() + p.allies.total() + p.amour.total();
    }
    adventure += s.quest.built.iter().map(Counts::total).sum::<u32>();
    adventure += s.sealed.all_cards().iter().map(Counts::total).sum::<u32>();
    let story =
        s.story_deck.len() as u32 + s.story_discard.len() as u32 + u32::from(s.story.is_some());
    (adventure, story)
}

/// Issue 5's properties over random and greedy games of 2 to 4 players: the 125 adventure
/// and 28 story cards are conserved; at every decision but the hand-limit discards
/// nobody holds more than 12 cards; every game ends with a Knight of the Round Table.
#[test]
fn random_and_greedy_games_conserve_cards_respect_the_hand_limit_and_end() {
    use grail_engine::agent::{AgentKind, BuiltinAgent, Observer, agent_seed, decide};
    let q = rules();
    let mut games = 0;
    for players in 2..=4 {
        for kind in [AgentKind::Random, AgentKind::Greedy] {
            for seed in 0..8 {
                let mut s = q.setup(&Setup::new(players, seed)).unwrap();
                let mut agents: Vec<BuiltinAgent<Quests>> = (0..players)
                    .map(|p| kind.build(agent_seed(seed, p)))
                    .collect();
                let mut observer = Observer::for_game(seed);
                let mut legal = Vec::new();
                while let Some(seat) = q.to_move(&s) {
                    let at = format!("{players}p {kind:?} seed {seed} turn {}", s.turn);
                    assert_eq!(census(&s), (125, 28), "{at}: cards lost or made");
                    // Several players over the limit at once (after Prosperity) discard one
                    // after another, clockwise; every other decision finds all hands legal.
                    if q.over_limit(&s) == Some(seat as u8) {
                        assert!(s.players[seat].hand.total() > 12, "{at}");
                    } else {
                        for (p, player) in s.players.iter().enumerate() {
                            assert!(
                                player.hand.total() <= 12,
                                "{at}: P{} holds {} cards at a decision of P{}",
                                p + 1,
                                player.hand.total(),
                                seat + 1
                            );
                        }
                    }
                    q.legal_actions(&s, &mut legal);
                    let i = decide(&q, &s, seat, &legal, &mut agents[seat], &mut observer);
                    let a = legal[i];
                    q.apply(&mut s, &a, &mut NoEvents);
                }
                assert_eq!(census(&s), (125, 28));
                let outcome = q.outcome(&s).expect("a game that stops is over");
                assert!(
                    !outcome.winners.is_empty() && s.end != Some(super::state::End::TurnLimit),
                    "{players}p {kind:?} seed {seed} ended without a Knight of the Round Table"
                );
                games += 1;
            }
        }
    }
    assert_eq!(games, 48);
}

#[test]
fn the_invariant_check_notices_a_lost_card_and_an_overfull_hand() {
    let q = rules();
    let s = q.setup(&Setup::new(3, 1)).unwrap();
    assert_eq!(q.check_invariants(&s), Ok(()));
    let mut lost = s.clone();
    let (t, _) = lost.players[1].hand.iter().next().unwrap();
    lost.players[1].hand.remove(t, 1);
    assert!(q.check_invariants(&lost).is_err());
    let mut full = s.clone();
    while full.players[1].hand.total() <= 12 {
        let extra = full.adventure_deck.draw().unwrap();
        full.players[1].hand.add(extra, 1);
    }
    full.limit_check = false;
    assert!(q.check_invariants(&full).is_err());
}

/// P1 sponsors Boar Hunt with the Test of Morgan Le Fey (minimum 3) first; P2 holds only
/// Queen Guinevere, and joins: with the card he draws he holds 2, short of the 3.
fn lone_questor_with_guinevere(q: &Quests) -> State {
    let mut s = setup(
        q,
        2,
        &[
            ("story", &["boar-hunt"]),
            ("P1", SPONSOR_OF_A_LONE_TEST),
            ("adventure", &["thieves"]),
        ],
    );
    play(
        q,
        &mut s,
        &[
            "sponsor",
            "add test-of-morgan-le-fey",
            "done",
            "add boar",
            "done",
        ],
    );
    for c in s.players[1].hand.cards() {
        s.adventure_discard.push(c);
    }
    s.players[1].hand = Counts::EMPTY;
    s.players[1].hand.add(card(q, "queen-guinevere"), 1);
    play(q, &mut s, &["join"]);
    s
}

#[test]
fn a_lone_questor_short_of_the_minimum_may_first_put_an_ally_with_free_bids_into_play() {
    // RB: "A player may play any number of Ally Cards at any time"; free bids count "if the
    // player has the card in play during a Test".
    let q = rules();
    let mut s = lone_questor_with_guinevere(&q);
    assert_eq!(s.phase, Phase::Bid, "he is not dropped out at once");
    let mut legal = Vec::new();
    q.legal_actions(&s, &mut legal);
    let named: Vec<String> = legal.iter().map(|a| q.format_action(&s, a)).collect();
    assert_eq!(named, ["drop", "play queen-guinevere"]);
    play(&q, &mut s, &["play queen-guinevere"]);
    // One card and 3 free bids reach the 3, which he then bids (nothing else is left to him):
    // the free bids pay it all, and he goes on to the Boar.
    assert_eq!(
        s.players[1].hand.total(),
        2,
        "1 kept and 1 drawn for the test"
    );
    assert!(s.quest.questors.contains(1));
    assert_eq!(s.quest.stage, 1);
}

#[test]
fn without_allies_during_tests_the_lone_questor_short_of_the_minimum_drops_out() {
    let mut q = rules();
    q.n.allies_during_tests = false;
    let s = lone_questor_with_guinevere(&q);
    assert!(s.quest.questors.is_empty(), "he dropped out");
    assert_eq!(s.players[1].hand.total(), 2);
    assert!(s.players[1].allies.is_empty());
}

/// Four players on Rescue the Fair Maiden (stage 2 the Test of Valor); P3 has King Arthur (2
/// free bids) in play and Mordred in hand, P4 Queen Guinevere (3 free bids) in play and
/// `p4_cards` in hand. P2 has opened the bidding with 3; P3 is to bid.
fn greedy_mordred_bidding(q: &Quests, p4_cards: u32) -> State {
    let mut s = setup(
        q,
        4,
        &[
            ("story", &["rescue-the-fair-maiden"]),
            (
                "P1",
                &[
                    "thieves",
                    "test-of-valor",
                    "black-knight",
                    "dagger",
                    "sword",
                    "horse",
                    "saxons",
                    "saxons",
                    "robber-knight",
                    "robber-knight",
                    "evil-knight",
                    "giant",
                ],
            ),
            ("P2", &["sword", "thieves", "thieves", "boar", "saxons"]),
            (
                "P3",
                &["mordred", "king-arthur", "lance", "sword", "thieves"],
            ),
            ("P4", &["queen-guinevere", "sword", "thieves", "boar"]),
            (
                "adventure",
                &["sword", "sword", "sword", "horse", "horse", "horse"],
            ),
        ],
    );
    play(
        q,
        &mut s,
        &[
            "sponsor",
            "add thieves",
            "done",
            "add test-of-valor",
            "done",
            "add black-knight",
            "done",
            "join",
            "join",
            "join",
            "discard sword",
            "play king-arthur",
            "play queen-guinevere",
            "done",
            "done",
            "done",
            "discard horse",
            "discard horse",
            "discard horse",
            "bid 3",
        ],
    );
    let p4 = &mut s.players[3];
    let gone: Vec<u8> = p4.hand.cards().skip(p4_cards as usize).collect();
    for c in gone {
        p4.hand.remove(c, 1);
        s.adventure_discard.push(c);
    }
    s
}

fn greedy_choice(q: &Quests, s: &State) -> String {
    use grail_engine::agent::{Agent, GreedyAgent};
    let seat = q.to_move(s).expect("someone decides");
    let mut legal = Vec::new();
    q.legal_actions(s, &mut legal);
    let mut view = q.observe(s, seat, &mut GameRng::new(3));
    let i = GreedyAgent::new(5).choose(q, seat, Some(&mut view), &legal);
    q.format_action(s, &legal[i])
}

#[test]
fn the_greedy_bot_plays_mordred_when_it_turns_the_bidding_its_way() {
    let q = rules();
    // With Guinevere, P4 (3 cards, 3 free bids) could outbid P3's 4; without her he cannot.
    let s = greedy_mordred_bidding(&q, 3);
    assert_eq!(q.to_move(&s), Some(2));
    assert_eq!(q.max_bid(&s, 3), 6);
    assert_eq!(greedy_choice(&q, &s), "use mordred P4 queen-guinevere");
    // P4 with no cards cannot outbid 4 even with her: Mordred would change nothing.
    let s = greedy_mordred_bidding(&q, 0);
    assert_eq!(q.max_bid(&s, 3), 3);
    assert_ne!(greedy_choice(&q, &s), "use mordred P4 queen-guinevere");
}

/// The bidding's new choices under every reading the params allow: in random games the
/// rules' laws hold after every move, every bid offered is one the bidder can make, and a
/// bidder is asked only when he has a choice.
#[test]
fn random_games_keep_the_laws_under_each_reading_of_the_bidding() {
    use grail_engine::bidding::Rounds;
    for (rounds, plays) in [
        (Rounds::UntilOneLeft, true),
        (Rounds::UntilOneLeft, false),
        (Rounds::OnePass, false),
    ] {
        let mut q = rules();
        q.n.test_bidding = rounds;
        q.n.allies_during_tests = plays;
        q.n.amour_during_tests = plays;
        let mut bids = 0;
        for seed in 0..6 {
            let mut rng = GameRng::new(seed);
            random_game(&q, 4, seed, &mut rng, |s, _, _| {
                let at = format!("{rounds:?} plays {plays} seed {seed} turn {}", s.turn);
                assert_eq!(q.check_invariants(s), Ok(()), "{at}");
                if s.phase == Phase::Bid && q.over_limit(s).is_none() {
                    bids += 1;
                    let seat = q.to_move(s).expect("a bidder") as u8;
                    let mut legal = Vec::new();
                    q.legal_actions(s, &mut legal);
                    for a in &legal {
                        if let super::state::Action::Bid(b) = a {
                            assert!(u32::from(*b) <= q.max_bid(s, seat), "{at}");
                        }
                    }
                    assert!(legal.len() > 1, "{at}: asked with nothing to choose");
                }
            });
        }
        assert!(bids > 0, "{rounds:?} plays {plays}: no test was bid on");
    }
}

/// The Boar Hunt under way in a three-player game: P2 (a Squire of 5 battle points), the
/// first of its two questors to commit to stage 1 (one foe face down), holds the four
/// `weapons`, foes and the card drawn. P3 commits after him, so P2's `done` reveals nothing.
fn boar_hunt_commit(q: &Quests, weapons: &[&'static str]) -> State {
    let mut p2: Vec<&str> = weapons.to_vec();
    // Twelve cards: the card drawn at the stage's start is one too many, and a foe goes.
    p2.extend([
        "thieves",
        "boar",
        "saxons",
        "thieves",
        "saxons",
        "robber-knight",
        "saxon-knight",
        "boar",
    ]);
    let foes: &[&str] = &[
        "thieves",
        "thieves",
        "robber-knight",
        "robber-knight",
        "saxon-knight",
        "saxon-knight",
        "saxon-knight",
        "saxon-knight",
        "evil-knight",
        "evil-knight",
        "black-knight",
        "black-knight",
    ];
    let mut s = setup(
        q,
        3,
        &[
            ("story", &["boar-hunt"]),
            (
                "P1",
                &[
                    "saxons",
                    "boar",
                    "thieves",
                    "thieves",
                    "saxons",
                    "robber-knight",
                    "robber-knight",
                    "evil-knight",
                    "evil-knight",
                    "giant",
                    "green-knight",
                    "black-knight",
                ],
            ),
            ("P2", &p2),
            ("P3", foes),
            ("adventure", &["dagger", "dagger", "horse", "horse"]),
        ],
    );
    play(
        q,
        &mut s,
        &[
            "sponsor",
            "add boar",
            "done",
            "add evil-knight",
            "done",
            "join",
            "join",
            "discard thieves",
            "discard thieves",
        ],
    );
    assert_eq!((s.phase, q.to_move(&s)), (Phase::Commit, Some(1)));
    s
}

/// Lets the greedy bot commit for the seat to move until it is done; its commitment.
fn greedy_commitment(q: &Quests, s: &mut State) -> Counts {
    let seat = q.to_move(s).expect("someone commits");
    for _ in 0..12 {
        let choice = greedy_choice(q, s);
        play(q, s, &[&choice]);
        if choice == "done" {
            break;
        }
    }
    *s.sealed.cards(seat)
}

/// Issue 17: the greedy bot commits to a foe stage it can beat — the weapons worth least in
/// hand that reach the foe it guesses behind the face-down card — rather than nothing, even
/// when no one card does it.
#[test]
fn the_greedy_bot_commits_the_least_that_beats_the_foe() {
    let q = rules();
    for weapons in [
        ["lance", "sword", "dagger", "excalibur"],
        ["battle-ax", "sword", "horse", "dagger"],
    ] {
        let mut s = boar_hunt_commit(&q, &weapons);
        let base = q.strength(&s, 1, &Counts::EMPTY) as f64;
        let foe = q.foe_estimate(&s, 1, 0);
        assert!(
            foe > base,
            "the guessed foe ({foe}) is stronger than a bare squire"
        );
        let committed = greedy_commitment(&q, &mut s);
        let bp = |c: &Counts| (q.strength(&s, 1, c) as f64) - base;
        assert!(
            base + bp(&committed) >= foe,
            "with {weapons:?} commits {committed:?} ({} bp), short of the foe's {foe}",
            bp(&committed)
        );
        // The least that does it: no card of it could stay in hand.
        for (t, _) in committed.iter() {
            let mut less = committed;
            less.remove(t, 1);
            assert!(base + bp(&less) < foe, "{committed:?} holds a spare card");
        }
        // Excalibur (30) alone would do, but the Lance is worth less in hand.
        assert_eq!(committed.get(card(&q, "excalibur")), 0);
    }
}
