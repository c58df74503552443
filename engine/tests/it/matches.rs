use grail_engine::agent::AgentKind;
use grail_engine::game::Setup;
use grail_engine::play::{Match, PlayError};

use crate::bot_game;
use crate::toy::Toy;

#[test]
fn same_seed_gives_the_same_log_and_digests() {
    let rules = Toy;
    for kind in AgentKind::ALL {
        let a = bot_game(&rules, 3, 11, kind);
        let b = bot_game(&rules, 3, 11, kind);
        assert!(a.history().len() > 5);
        assert_eq!(a.history(), b.history());
        let c = bot_game(&rules, 3, 12, kind);
        assert_ne!(a.history(), c.history(), "another seed, another game");
    }
}

#[test]
fn history_records_seat_canonical_text_digest_and_events() {
    let rules = Toy;
    let mut m = Match::new(&rules, stacked(&["v1", "v2", "v3", "v4"])).unwrap();
    let before = m.digest();
    let played = m.play_text("  bank  1 ").unwrap().clone();
    assert_eq!(played.seat, 0);
    assert_eq!(played.text, "bank v1", "canonical notation, not as typed");
    assert_eq!(played.events, vec!["P1 banks v1"]);
    assert_eq!(played.digest, m.digest());
    assert_ne!(played.digest, before);
    assert_eq!(m.to_move(), Some(1));
}

/// Three players, the deck stacked so P1 holds v1 v2, P2 v3 v4, P3 v5 v6.
fn stacked(top: &[&str]) -> Setup {
    let mut setup = Setup::new(3, 5);
    setup.stack = vec![("deck".into(), top.iter().map(|s| s.to_string()).collect())];
    setup
}

#[test]
fn unparsable_and_illegal_moves_are_errors_and_change_nothing() {
    let rules = Toy;
    let mut m = Match::new(&rules, stacked(&["v1", "v2", "v3", "v4", "v5", "v6"])).unwrap();
    let digest = m.digest();
    let err = m.play_text("dance").unwrap_err();
    assert_eq!(
        err,
        PlayError::Unparsable {
            text: "dance".into(),
            message: "expected draw, bank vN, block or pass".into()
        }
    );
    let err = m.play_text("bank v5").unwrap_err();
    assert_eq!(err.reason(), "you hold no v5");
    assert_eq!(
        err.to_string(),
        "'bank v5' is not legal for P1: you hold no v5"
    );
    let err = m.play_text("pass").unwrap_err();
    assert!(matches!(err, PlayError::Illegal { seat: 0, .. }));
    assert_eq!(m.digest(), digest);
    assert!(m.history().is_empty());
    assert_eq!(m.legal_texts(), vec!["draw", "bank v1", "bank v2"]);
}

#[test]
fn the_answer_to_a_bank_comes_from_the_next_seat() {
    let rules = Toy;
    // P1: v3 v1, P2: v3 v4. P1 banks v3; P2 holds a v3 and must decide.
    let mut m = Match::new(&rules, stacked(&["v3", "v1", "v3", "v4"])).unwrap();
    m.play_text("bank v3").unwrap();
    assert_eq!(m.to_move(), Some(1));
    assert_eq!(m.legal_texts(), vec!["block", "pass"]);
    let err = m.play_text("draw").unwrap_err();
    assert_eq!(
        err.reason(),
        "P2 must first answer P1's bank of v3: block or pass"
    );
    m.play_text("block").unwrap();
    assert_eq!(m.inspect("score P1"), Ok("0".into()));
    assert_eq!(m.inspect("hand P2"), Ok("v4".into()));
    assert_eq!(m.to_move(), Some(1), "P2's own turn follows");
}

#[test]
fn a_finished_game_takes_no_moves() {
    let rules = Toy;
    let mut m = bot_game(&rules, 2, 3, AgentKind::Random);
    assert!(m.outcome().is_some());
    assert_eq!(m.play_text("draw").unwrap_err(), PlayError::GameOver);
    assert!(m.legal_texts().is_empty());
}

#[test]
fn bad_setups_are_refused_with_the_rules_message() {
    let rules = Toy;
    let err = Match::new(&rules, Setup::new(7, 1)).err().unwrap();
    assert_eq!(err, "this game is for 2 to 4 players, not 7");
    let err = Match::new(&rules, Setup::new(usize::MAX, 1)).err().unwrap();
    assert!(err.starts_with("this game is for 2 to 4 players"));
    let err = Match::new(&rules, stacked(&["v1"; 5])).err().unwrap();
    assert_eq!(
        err,
        "cannot stack v1: asked for 5 of card type 0 but the pile holds 4"
    );
}

#[test]
fn looking_at_the_table_does_not_change_what_bots_do() {
    let rules = Toy;
    let quiet = bot_game(&rules, 3, 31, AgentKind::Greedy);
    let mut m = Match::new(&rules, Setup::new(3, 31)).unwrap();
    let mut bots: Vec<_> = (0..3)
        .map(|s| AgentKind::Greedy.build::<Toy>(grail_engine::agent::agent_seed(31, s)))
        .collect();
    while let Some(seat) = m.to_move() {
        let _ = m.render(Some(seat));
        m.bot_move(&mut bots[seat]).unwrap();
    }
    assert_eq!(m.history(), quiet.history());
}
