//! `grail serve` over real HTTP on loopback: each seat is answered only by its token (any
//! other request sees what a spectator sees), bad requests get 4xx with words, a hundred
//! viewers at once are all served, fuzzed requests never bring it down, and Ctrl-C stops it
//! cleanly.

use serde_json::{Value, json};

use crate::server::{Scratch, Server};

fn new_table(server: &Server, game: &str, seat: Option<usize>) -> Value {
    let (status, answer) = server.request(
        "POST",
        "/api/tables",
        Some(&json!({"game": game, "players": 2, "seat": seat, "bot": "random", "seed": 7})),
    );
    assert_eq!(status, 200, "{answer}");
    answer
}

#[test]
fn a_seat_is_answered_only_by_its_token_and_anyone_else_sees_the_public_table() {
    let dir = Scratch::new("tokens");
    let server = Server::start(&dir.0);
    for game in ["king-arthur", "artus", "quests", "virtues"] {
        let answer = new_table(&server, game, Some(1));
        let (id, token) = (&answer["table"], answer["token"].as_str().unwrap());
        assert_eq!(answer["view"]["viewer"], 0, "{game}: the creator is P1");
        let seat = server.request("GET", &format!("/api/tables/{id}?token={token}"), None);
        assert_eq!(seat.1["view"]["viewer"], 0);
        assert!(
            !seat.1["view"]["moves"].as_array().unwrap().is_empty(),
            "{game}: P1 is to move and is offered moves"
        );
        for path in [
            format!("/api/tables/{id}"),
            format!("/api/tables/{id}?token=0000"),
        ] {
            let (status, other) = server.request("GET", &path, None);
            assert_eq!(status, 200);
            assert_eq!(other["view"]["viewer"], Value::Null, "{game}: {path}");
            assert_eq!(other["view"]["moves"], json!([]), "{game}: {path}");
            assert_eq!(
                other["view"]["table"],
                server.request("GET", &path, None).1["view"]["table"]
            );
        }
        // Moving needs the seat's token.
        let text = seat.1["view"]["moves"][0]["text"].clone();
        let (status, refused) = server.request(
            "POST",
            &format!("/api/tables/{id}/move"),
            Some(&json!({"token": "0000", "text": text})),
        );
        assert_eq!(status, 403, "{refused}");
        let (status, played) = server.request(
            "POST",
            &format!("/api/tables/{id}/move"),
            Some(&json!({"token": token, "text": text})),
        );
        assert_eq!(status, 200, "{played}");
        assert!(played["view"]["moves_made"].as_u64().unwrap() >= 1);
    }
}

#[test]
fn bad_requests_get_4xx_with_words() {
    let dir = Scratch::new("bad-requests");
    let server = Server::start(&dir.0);
    let answer = new_table(&server, "king-arthur", Some(1));
    let (id, token) = (&answer["table"], answer["token"].as_str().unwrap());
    let cases: Vec<(&str, String, Option<Value>, u16)> = vec![
        ("GET", "/api/tables/999".into(), None, 404),
        ("GET", "/api/tables/x".into(), None, 400),
        ("GET", "/nothing-here".into(), None, 404),
        ("GET", "/../../etc/passwd".into(), None, 404),
        (
            "POST",
            "/api/tables".into(),
            Some(json!({"game": "chess", "players": 2})),
            404,
        ),
        (
            "POST",
            "/api/tables".into(),
            Some(json!({"game": "artus", "players": 9})),
            400,
        ),
        (
            "POST",
            "/api/tables".into(),
            Some(json!({"game": "artus", "players": 2, "seat": 5})),
            400,
        ),
        (
            "POST",
            "/api/tables".into(),
            Some(json!({"game": "artus", "players": 2, "bot": "ghost"})),
            400,
        ),
        (
            "POST",
            "/api/tables".into(),
            Some(json!({"game": "artus", "players": 2, "colour": 1})),
            422,
        ),
        (
            "POST",
            format!("/api/tables/{id}/move"),
            Some(json!({"token": token, "text": "fly to the moon"})),
            422,
        ),
        (
            "POST",
            format!("/api/tables/{id}/step"),
            Some(json!({})),
            409,
        ),
        (
            "POST",
            "/api/replays".into(),
            Some(json!({"text": "(game: "})),
            400,
        ),
        (
            "POST",
            "/api/saves".into(),
            Some(json!({"text": "not ron"})),
            400,
        ),
        ("GET", "/report?game=artus&games=0".into(), None, 400),
    ];
    for (method, path, body, expected) in cases {
        let (status, answer) = server.request(method, &path, body.as_ref());
        assert_eq!(status, expected, "{method} {path}: {answer}");
        if status != 400 || answer.is_object() {
            assert!(
                answer["error"].as_str().is_some_and(|e| !e.is_empty())
                    || matches!(&answer, Value::String(s) if !s.is_empty()),
                "{method} {path}: the refusal says why: {answer}"
            );
        }
    }
    // Another host name pointing here is refused; a post must carry JSON.
    let (status, _) = server.send(
        format!(
            "GET /api/games HTTP/1.1\r\nHost: evil.example:{}\r\nConnection: close\r\n\r\n",
            server.port
        )
        .as_bytes(),
        false,
    );
    assert_eq!(status, 403);
    let form = format!(
        "POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 4\r\nConnection: close\r\n\r\ngame",
        server.port
    );
    assert_eq!(server.send(form.as_bytes(), false).0, 415);
}

#[test]
fn a_hundred_viewers_at_once_are_all_served() {
    let dir = Scratch::new("viewers");
    let server = Server::start(&dir.0);
    let answer = new_table(&server, "artus", None);
    let id = answer["table"].clone();
    let statuses: Vec<u16> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..100)
            .map(|_| scope.spawn(|| server.request("GET", &format!("/api/tables/{id}"), None).0))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(statuses.iter().all(|&s| s == 200), "{statuses:?}");
}

/// A small generator, so the fuzzed requests are the same on every run.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn fuzzed_requests_never_bring_the_server_down() {
    let dir = Scratch::new("fuzz");
    let server = Server::start(&dir.0);
    let host = format!("Host: 127.0.0.1:{}\r\n", server.port);
    let pieces: [&[u8]; 14] = [
        b"GET ",
        b"POST ",
        b"/api/tables",
        b"/api/tables/1/move",
        b"/api/replays",
        b"/report?game=",
        b" HTTP/1.1\r\n",
        host.as_bytes(),
        b"Content-Type: application/json\r\n",
        b"Content-Length: 12\r\n",
        b"\r\n",
        b"{\"game\":",
        b"\xff\xfe\x00",
        b"%%%%/../",
    ];
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut answered = 0;
    for _ in 0..300 {
        let mut request = Vec::new();
        for _ in 0..(next(&mut seed) % 12) {
            let piece = pieces[(next(&mut seed) % pieces.len() as u64) as usize];
            request.extend_from_slice(piece);
        }
        for _ in 0..(next(&mut seed) % 8) {
            request.push((next(&mut seed) & 0xff) as u8);
        }
        request.extend_from_slice(b"\r\n\r\n");
        let (status, _) = server.send(&request, true);
        answered += usize::from(status != 0);
        assert!(
            status == 0 || (400..500).contains(&status) || status == 200,
            "{:?} got {status}",
            String::from_utf8_lossy(&request)
        );
    }
    // Nearly all of them reach the server and are answered (a few are cut off before a
    // request line can even be read).
    assert!(answered > 250, "only {answered} of 300 answered");
    // Still serving, and it stops cleanly on Ctrl-C.
    let (status, games) = server.request("GET", "/api/games", None);
    assert_eq!(status, 200);
    assert!(games.as_array().is_some_and(|g| g.len() >= 4));
    let (code, err) = server.stop();
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("stopped"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
