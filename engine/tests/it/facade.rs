use grail_engine::agent::AgentKind;
use grail_engine::facade::{DynGame, LoadedGame};
use grail_engine::game::Setup;
use grail_engine::replay::{Problem, ReplayFile, ReplayOptions};
use grail_engine::sim::{SimConfig, SimHooks};

use crate::toy::Toy;

fn game() -> Box<dyn DynGame> {
    Box::new(LoadedGame::new(Toy, Some("h1".into())))
}

#[test]
fn a_dyn_match_plays_by_text_and_by_bots_and_records_itself() {
    let game = game();
    assert_eq!(
        (game.game_id(), game.variant(), game.content_hash()),
        ("toy", None, Some("h1"))
    );
    let mut m = game.new_match(Setup::new(2, 9)).unwrap();
    let first = m.legal_moves()[0].clone();
    let played = m.play_text(&first).unwrap();
    assert_eq!(played.seat, 0);
    while m.to_move().is_some() {
        m.bot_move(AgentKind::Greedy).unwrap();
    }
    let outcome = m.outcome().unwrap();
    assert_eq!(outcome.scores.len(), 2);
    let replay = m.to_replay(None);
    assert_eq!(replay.content_hash.as_deref(), Some("h1"));
    let file = ReplayFile::parse(&replay.to_ron()).unwrap();
    let verify = ReplayOptions {
        verify: true,
        ignore_content_hash: false,
        pack_chosen: false,
    };
    assert!(game.replay(&file, verify).passed());
    // Other content refuses it.
    let other: Box<dyn DynGame> = Box::new(LoadedGame::new(Toy, Some("h2".into())));
    let run = other.replay(&file, verify);
    assert!(matches!(
        run.failure.unwrap().problem,
        Problem::ContentHash { .. }
    ));
}

#[test]
fn a_resumed_dyn_match_continues_where_it_stopped() {
    let game = game();
    let mut m = game.new_match(Setup::new(3, 4)).unwrap();
    for _ in 0..5 {
        m.bot_move(AgentKind::Random).unwrap();
    }
    let file = ReplayFile::parse(&m.to_replay(None).to_ron()).unwrap();
    let resumed = game.resume(&file, false).unwrap();
    assert_eq!(resumed.history(), m.history());
    assert_eq!(resumed.digest(), m.digest());
}

#[test]
fn dyn_simulation_stamps_recorded_games_with_the_content_hash() {
    let game = game();
    let mut config = SimConfig::new(vec![2], 3, 1);
    config.record = true;
    let hashes = std::sync::Mutex::new(Vec::new());
    let sink = |r: grail_engine::sim::GameRecord| {
        hashes.lock().unwrap().push(r.replay.content_hash.clone());
    };
    let hooks = SimHooks {
        record: Some(&sink),
        ..SimHooks::default()
    };
    game.simulate(&config, hooks).unwrap();
    assert_eq!(
        hashes.into_inner().unwrap(),
        vec![Some("h1".to_string()); 3]
    );
}
