//! The page of `grail serve` in a real browser: headless Chromium, driven through
//! chromedriver's WebDriver protocol (W3C, JSON over HTTP) by the small client below, plays
//! each bundled game to its end by clicking its moves, goes on with a save, and steps
//! through a replay. Without Chromium and chromedriver these tests say so and pass, except
//! on CI (`CI=true`), which must have them (`.ci/run` installs Debian's `chromium` and
//! `chromium-driver`). `GRAIL_SCREENSHOTS=1` also writes the screenshots in
//! docs/screenshots/.
//!
//! Each test has its own server, browser and folder; nothing changes the working folder.

use std::fs::File;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::server::{Scratch, Server, http};

/// How long any one thing the page does may take.
const WAIT: Duration = Duration::from_secs(30);
/// How often a condition is looked at while waiting for it.
const POLL: Duration = Duration::from_millis(15);
/// No game here takes a person more moves than this (the longest, played by always taking
/// the first move against greedy bots, take under 200).
const MAX_CLICKS: usize = 1000;
/// The key a WebDriver element reference is given under.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Waits until `ready` gives a value, looking every [`POLL`]; after [`WAIT`], fails with
/// `what` and what `shown` says the last look saw.
fn wait_until<T, S: std::fmt::Debug>(
    what: &str,
    mut look: impl FnMut() -> S,
    mut ready: impl FnMut(&S) -> Option<T>,
) -> T {
    let deadline = Instant::now() + WAIT;
    loop {
        let seen = look();
        if let Some(done) = ready(&seen) {
            return done;
        }
        if Instant::now() > deadline {
            panic!("waited {WAIT:?} for {what}; the last look saw {seen:#?}");
        }
        std::thread::sleep(POLL);
    }
}

// ---- chromedriver ----

fn free_port() -> u16 {
    let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
    listener.local_addr().unwrap().port()
}

// ---- the browser ----

/// What the page shows, read in one go.
#[derive(Clone, Debug, PartialEq)]
struct Page {
    /// How many games the new game form offers (none until the page has asked the server).
    games: usize,
    /// The table's mode (`play`, `watch`, `replay`), when the table is shown.
    mode: Option<String>,
    status: String,
    /// The game's end, when it is shown.
    over: Option<String>,
    /// The error, when one is shown.
    error: Option<String>,
    /// The texts of the move buttons, in order.
    moves: Vec<String>,
    /// A replay's position.
    position: String,
    /// The moves in the log.
    log: usize,
    /// The groups of controls shown (`play-controls`, `watch-controls`, `replay-controls`).
    controls: Vec<String>,
}

const PAGE: &str = r##"
const $ = (id) => document.getElementById(id);
const shown = (id) => !$(id).hidden;
return {
  games: $("game").options.length,
  mode: shown("table") ? $("table").dataset.mode : null,
  status: $("status").textContent,
  over: shown("over") ? $("over").textContent : null,
  error: shown("error") ? $("error").textContent : null,
  moves: [...document.querySelectorAll("#moves .move")].map((b) => b.dataset.text),
  position: $("position").textContent,
  log: document.querySelectorAll("#log li:not(.setup)").length,
  controls: ["play-controls", "watch-controls", "replay-controls"]
    .filter((id) => $(id).getClientRects().length > 0),
};
"##;

fn text_of(v: &Value) -> Option<String> {
    v.as_str().map(str::to_string)
}

/// Chromium and chromedriver, when they are on the PATH. Without them: `None` (the test
/// says it is skipped), or on CI a failure.
fn tools() -> Option<(PathBuf, PathBuf)> {
    let find = |names: &[&str]| {
        let path = std::env::var_os("PATH")?;
        (std::env::split_paths(&path))
            .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
            .find(|p| p.is_file())
    };
    let chromium = find(&["chromium", "chromium-browser"]);
    let driver = find(&["chromedriver"]);
    match (chromium, driver) {
        (Some(chromium), Some(driver)) => Some((chromium, driver)),
        (chromium, driver) => {
            let missing = [
                (chromium.is_none(), "chromium"),
                (driver.is_none(), "chromedriver"),
            ]
            .iter()
            .filter(|(missing, _)| *missing)
            .map(|(_, name)| *name)
            .collect::<Vec<_>>()
            .join(" and ");
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!(
                    "CI must have {missing} (.ci/run installs Debian's chromium and chromium-driver)"
                );
            }
            // Past the test harness's capture, so that a passing run shows it too; once.
            static NOTE: std::sync::Once = std::sync::Once::new();
            NOTE.call_once(|| {
                let _ = writeln!(
                    std::io::stderr(),
                    "browser tests skipped: {missing} not found on the PATH \
                     (Debian: apt-get install chromium chromium-driver; with CI=true they fail)"
                );
            });
            None
        }
    }
}

/// Headless Chromium under a chromedriver of its own, closed when dropped.
struct Browser {
    driver: Child,
    port: u16,
    session: String,
}

impl Browser {
    /// A browser, or `None` when this machine has none (see [`tools`]).
    fn open(dir: &Path) -> Option<Browser> {
        let (chromium, driver) = tools()?;
        let (driver, port) = Browser::start_driver(&driver, dir);
        let mut browser = Browser {
            driver,
            port,
            session: String::new(),
        };
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless=new",
                    "--no-sandbox",
                    "--disable-dev-shm-usage",
                    "--window-size=1280,860",
                ],
            },
        }}});
        let (status, body) =
            http(port, "POST", "/session", Some(&capabilities)).expect("chromedriver answers");
        let answer: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
        match answer["value"]["sessionId"].as_str() {
            Some(id) if status == 200 => browser.session = id.to_string(),
            _ => panic!("chromedriver could not start Chromium ({status}): {body}"),
        }
        Some(browser)
    }

    /// chromedriver on a free port, once it says it is ready; its log goes to `dir`, and
    /// its and the browser's temporary files (the profile) under it.
    fn start_driver(path: &Path, dir: &Path) -> (Child, u16) {
        let log = dir.join("chromedriver.log");
        let tmp = dir.join("tmp");
        std::fs::create_dir_all(&tmp).unwrap();
        for _ in 0..3 {
            let port = free_port();
            let file = File::create(&log).unwrap();
            let mut child = Command::new(path)
                .arg(format!("--port={port}"))
                .env("TMPDIR", &tmp)
                .stdin(Stdio::null())
                .stdout(file.try_clone().unwrap())
                .stderr(file)
                .spawn()
                .expect("chromedriver starts");
            let ready = wait_until(
                "chromedriver to be ready",
                || {
                    let exited = child.try_wait().ok().flatten();
                    let status = http(port, "GET", "/status", None).ok();
                    (exited, status)
                },
                |(exited, status)| match (exited, status) {
                    (_, Some((200, body))) if body.contains("\"ready\":true") => Some(true),
                    (Some(_), _) => Some(false),
                    _ => None,
                },
            );
            if ready {
                return (child, port);
            }
            // The port was taken between looking and starting: another one.
            let _ = child.wait();
        }
        let log = std::fs::read_to_string(&log).unwrap_or_default();
        panic!("chromedriver did not start: {log}");
    }

    /// A command of the session: its answer's value, or a failure naming the command and
    /// what WebDriver said.
    fn command(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let (status, text) = http(self.port, method, &path, body.as_ref())
            .unwrap_or_else(|e| panic!("WebDriver {method} {path}: {e}"));
        let mut answer: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("WebDriver {method} {path}: {e}: {text}"));
        if status != 200 {
            let value = &answer["value"];
            panic!(
                "WebDriver {method} {path} failed ({status} {}): {}",
                value["error"], value["message"]
            );
        }
        answer["value"].take()
    }

    fn go(&self, url: &str) {
        self.command("POST", "/url", Some(json!({ "url": url })));
    }

    fn find(&self, css: &str) -> String {
        let found = self.command(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        text_of(&found[ELEMENT]).unwrap_or_else(|| panic!("no element for {css}: {found}"))
    }

    fn click(&self, css: &str) {
        let element = self.find(css);
        self.command(
            "POST",
            &format!("/element/{element}/click"),
            Some(json!({})),
        );
    }

    /// Types `text` into a field, after clearing it (into a file input: the file's path).
    fn type_into(&self, css: &str, text: &str) {
        let element = self.find(css);
        if !css.contains("file") {
            self.command(
                "POST",
                &format!("/element/{element}/clear"),
                Some(json!({})),
            );
        }
        self.command(
            "POST",
            &format!("/element/{element}/value"),
            Some(json!({ "text": text })),
        );
    }

    /// Runs `script` (a function body) in the page: what it returns (a promise: what it
    /// resolves to).
    fn script(&self, script: &str) -> Value {
        self.command(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    fn page(&self) -> Page {
        let v = self.script(PAGE);
        Page {
            games: v["games"].as_u64().unwrap_or(0) as usize,
            mode: text_of(&v["mode"]),
            status: text_of(&v["status"]).unwrap_or_default(),
            over: text_of(&v["over"]),
            error: text_of(&v["error"]),
            moves: (v["moves"].as_array().into_iter().flatten())
                .filter_map(text_of)
                .collect(),
            position: text_of(&v["position"]).unwrap_or_default(),
            log: v["log"].as_u64().unwrap_or(0) as usize,
            controls: (v["controls"].as_array().into_iter().flatten())
                .filter_map(text_of)
                .collect(),
        }
    }

    /// Waits until the page shows what `ready` looks for; an error shown fails at once.
    fn wait_for<T>(&self, what: &str, mut ready: impl FnMut(&Page) -> Option<T>) -> T {
        wait_until(
            what,
            || self.page(),
            |page| {
                if let Some(error) = &page.error {
                    panic!("waiting for {what}, the page says: {error}\n{page:#?}");
                }
                ready(page)
            },
        )
    }

    /// The `index`-th move of the log (from 0), as the log shows it: its number and text.
    fn log_entry(&self, index: usize) -> (u64, String) {
        let script = format!(
            "const li = document.querySelectorAll('#log li:not(.setup)')[{index}]; \
             return li ? [li.value, li.firstChild.textContent] : null;"
        );
        let entry = self.script(&script);
        (
            entry[0].as_u64().unwrap_or(0),
            text_of(&entry[1]).unwrap_or_default(),
        )
    }

    /// The page's link to the save of the table played (`/api/tables/ID/save?token=T`).
    fn save_link(&self) -> String {
        let link =
            self.script("return document.getElementById('download-save').getAttribute('href');");
        let link = text_of(&link).unwrap_or_default();
        assert!(
            link.starts_with("/api/tables/") && link.contains("/save?token="),
            "{link:?}"
        );
        link
    }

    /// With `GRAIL_SCREENSHOTS=1`, the window as docs/screenshots/`name`.png.
    fn screenshot(&self, name: &str) {
        if std::env::var("GRAIL_SCREENSHOTS").as_deref() != Ok("1") {
            return;
        }
        let png = base64(
            self.command("GET", "/screenshot", None)
                .as_str()
                .unwrap_or(""),
        );
        assert!(
            png.starts_with(b"\x89PNG\r\n\x1a\n"),
            "a screenshot is a PNG"
        );
        let dir = repo().join("docs/screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }

    /// Opens the page, once it has its list of games.
    fn open_page(&self, server: &Server) -> Page {
        self.go(&server.url);
        self.wait_for("the list of games", |p| (p.games >= 4).then(|| p.clone()))
    }

    /// Starts a two-player game of `game` from seat 1 against greedy bots, through the new
    /// game form; the page once it is the person's turn (or the game is over).
    fn start_game(&self, server: &Server, game: &str, seed: u64) -> Page {
        self.open_page(server);
        self.click("#nav-new");
        self.click(&format!("#game option[value='{game}']"));
        self.click("#players option[value='2']");
        self.click("#seat option[value='1']");
        self.click("#bot option[value='greedy']");
        self.type_into("#seed", &seed.to_string());
        self.click("#start");
        let page = self.wait_for(&format!("a table of {game}"), |p| {
            let ready =
                p.mode.as_deref() == Some("play") && (p.over.is_some() || !p.moves.is_empty());
            ready.then(|| p.clone())
        });
        assert!(page.status.contains("2 players, you are P1"), "{page:#?}");
        assert_eq!(page.controls, ["play-controls"], "{game}");
        page
    }

    /// Plays by clicking the first move offered, up to `clicks` times or until the game is
    /// over; checks that each click played the move it showed.
    fn play(&self, game: &str, mut page: Page, clicks: usize) -> Page {
        for _ in 0..clicks {
            if page.over.is_some() {
                break;
            }
            let Some(text) = page.moves.first().cloned() else {
                panic!("{game}: the person is to move but no move is offered: {page:#?}");
            };
            let before = page;
            self.click("#moves .move");
            page = self.wait_for(&format!("{game}: the table after `{text}`"), |p| {
                (p.status != before.status).then(|| p.clone())
            });
            assert_eq!(
                self.log_entry(before.log),
                (before.log as u64 + 1, format!("P1: {text}")),
                "{game}: the log shows the move clicked, numbered as the move it is"
            );
        }
        page
    }

    /// Plays to the end (at most [`MAX_CLICKS`] clicks) and checks what the page says of
    /// the end against the server's view of the table.
    fn play_to_end(&self, server: &Server, game: &str, page: Page) -> Page {
        let page = self.play(game, page, MAX_CLICKS);
        let Some(over) = &page.over else {
            panic!("{game}: not over after {MAX_CLICKS} clicks: {page:#?}");
        };
        let table = server.get(&self.save_link().replace("/save?", "?"));
        let end = &table["view"]["over"];
        let winners = (end["winners"].as_array().into_iter().flatten())
            .map(|s| format!("P{}", s.as_u64().unwrap() + 1))
            .collect::<Vec<_>>();
        let winners = match winners.is_empty() {
            true => "nobody".to_string(),
            false => winners.join(" and "),
        };
        let scores = (end["scores"].as_array().into_iter().flatten())
            .map(|s| s.as_i64().unwrap())
            .collect::<Vec<_>>();
        assert_eq!(scores.len(), 2, "{game}: {end}");
        let named = (scores.iter().enumerate())
            .map(|(seat, score)| format!("P{} {score}", seat + 1))
            .collect::<Vec<_>>()
            .join(", ");
        let end_key = end["end"].as_str().unwrap();
        assert_eq!(
            over,
            &format!("The game is over ({end_key}): {winners} won. Scores: {named}."),
            "{game}"
        );
        let totals = self.script(
            "return [...document.querySelectorAll('#scores tbody td.total')].map((td) => Number(td.textContent));",
        );
        assert_eq!(
            totals,
            json!(scores),
            "{game}: the score table shows the final scores"
        );
        assert!(
            page.moves.is_empty(),
            "{game}: no move after the end: {page:#?}"
        );
        page
    }
}

impl Drop for Browser {
    /// Closes the browser and asks chromedriver to stop (it then removes the profile);
    /// kills it if it has not stopped after a while.
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let _ = http(self.port, "DELETE", &path, None);
        }
        let _ = http(self.port, "GET", "/shutdown", None);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if !matches!(self.driver.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(POLL);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Standard base64, as WebDriver sends a screenshot.
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {:?}", c as char),
    };
    let digits: Vec<u8> = (text.bytes())
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .map(value)
        .collect();
    let mut bytes = Vec::with_capacity(digits.len() * 3 / 4);
    for group in digits.chunks(4) {
        let n =
            (group.iter().enumerate()).fold(0u32, |n, (i, &d)| n | (u32::from(d) << (18 - 6 * i)));
        bytes.extend_from_slice(&n.to_be_bytes()[1..group.len()]);
    }
    bytes
}

// ---- the tests ----

/// A game of `game` against a greedy bot, from the new game form to its end, one click a
/// move.
fn play_a_whole_game(game: &str, seed: u64) {
    let dir = Scratch::new(game);
    let Some(browser) = Browser::open(&dir.0) else {
        return;
    };
    let server = Server::start(&dir.0);
    let page = browser.start_game(&server, game, seed);
    let page = browser.play(game, page, 4);
    assert!(
        page.over.is_none(),
        "{game}: over after 4 moves (pick a longer game)"
    );
    browser.screenshot(game);
    browser.play_to_end(&server, game, page);
    if game == "king-arthur" {
        browser.screenshot("over");
    }
}

#[test]
fn artus_is_played_to_its_end_in_the_browser() {
    play_a_whole_game("artus", 1);
}

#[test]
fn king_arthur_is_played_to_its_end_in_the_browser() {
    play_a_whole_game("king-arthur", 1);
}

#[test]
fn quests_is_played_to_its_end_in_the_browser() {
    play_a_whole_game("quests", 1);
}

#[test]
fn virtues_is_played_to_its_end_in_the_browser() {
    // Seed 2: a game long enough to be seen under way (seed 1 ends after 4 moves).
    play_a_whole_game("virtues", 2);
}

#[test]
fn bots_are_watched_to_the_end_in_the_browser() {
    let dir = Scratch::new("watch");
    let Some(browser) = Browser::open(&dir.0) else {
        return;
    };
    let server = Server::start(&dir.0);
    browser.open_page(&server);
    browser.click("#game option[value='artus']");
    browser.click("#seat option[value='']");
    browser.type_into("#seed", "4");
    browser.click("#start");
    let page = browser.wait_for("a table of bots", |p| {
        (p.mode.as_deref() == Some("watch")).then(|| p.clone())
    });
    assert!(page.status.contains("watching; move 0;"), "{page:#?}");
    assert_eq!(page.controls, ["watch-controls"]);
    browser.click("#step");
    browser.wait_for("one move", |p| (p.log == 1).then_some(()));
    browser.click("#run");
    let page = browser.wait_for("the end", |p| p.over.clone().map(|_| p.clone()));
    assert!(page.over.unwrap().starts_with("The game is over"));
    assert!(page.moves.is_empty(), "a spectator is offered no move");
    let disabled =
        browser.script("return ['step', 'run'].map((id) => document.getElementById(id).disabled);");
    assert_eq!(
        disabled,
        json!([true, true]),
        "nothing to step on after the end"
    );
}

#[test]
fn a_save_goes_on_in_the_browser_where_it_stopped() {
    let dir = Scratch::new("resume");
    let Some(browser) = Browser::open(&dir.0) else {
        return;
    };
    let server = Server::start(&dir.0);
    let page = browser.start_game(&server, "artus", 2);
    let page = browser.play("artus", page, 3);
    let link = browser.save_link();
    let save = browser.script(&format!("return fetch('{link}').then((r) => r.text());"));
    let save = text_of(&save).unwrap();
    assert!(
        save.contains("\"human\""),
        "the save names the person's seat: {save}"
    );
    let file = dir.0.join("game.save.ron");
    std::fs::write(&file, &save).unwrap();

    // Another visit: a page that opens the save.
    browser.open_page(&server);
    browser.click("#nav-replay");
    browser.type_into("#replay-file", file.to_str().unwrap());
    browser.click("#resume-save");
    let resumed = browser.wait_for("the save's table", |p| {
        (p.mode.as_deref() == Some("play")).then(|| p.clone())
    });
    assert_ne!(browser.save_link(), link, "a table of its own");
    assert_eq!(resumed.status, page.status, "it goes on where it stopped");
    assert_eq!(resumed.log, page.log);
    assert_eq!(resumed.moves, page.moves);

    // A double click on a move (two clicks before the answer) plays it once.
    let mine = |log: &Value| {
        (log.as_array().into_iter().flatten())
            .filter(|entry| entry["seat"] == 0)
            .count()
    };
    let table = browser.save_link().replace("/save?", "?");
    let before = mine(&server.get(&table)["view"]["log"]);
    browser.script("const b = document.querySelector('#moves .move'); b.click(); b.click();");
    let page = browser.wait_for("the table after a double click", |p| {
        (p.status != resumed.status).then(|| p.clone())
    });
    assert_eq!(mine(&server.get(&table)["view"]["log"]), before + 1);
    browser.play_to_end(&server, "artus", page);
}

#[test]
fn a_replay_is_stepped_through_in_the_browser() {
    let dir = Scratch::new("replay");
    let Some(browser) = Browser::open(&dir.0) else {
        return;
    };
    let server = Server::start(&dir.0);
    let records = dir.0.join("records");
    let sim = Command::new(env!("CARGO_BIN_EXE_grail"))
        .args([
            "sim",
            "artus",
            "--players",
            "2",
            "--games",
            "1",
            "--seed",
            "3",
        ])
        .arg("--record")
        .arg(&records)
        .current_dir(&dir.0)
        .env_remove("GRAIL_CONTENT")
        .env("XDG_DATA_HOME", dir.0.join("data"))
        .stdin(Stdio::null())
        .output()
        .expect("grail sim runs");
    assert!(
        sim.status.success(),
        "{}",
        String::from_utf8_lossy(&sim.stderr)
    );
    let replays: Vec<PathBuf> = (std::fs::read_dir(&records).unwrap())
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(replays.len(), 1, "{replays:?}");

    browser.open_page(&server);
    browser.click("#nav-replay");
    browser.type_into("#replay-file", replays[0].to_str().unwrap());
    browser.click("#open-replay");
    let page = browser.wait_for("the replay", |p| {
        (p.mode.as_deref() == Some("replay")).then(|| p.clone())
    });
    let length: usize = (page.position.strip_prefix("after move 0 of "))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{page:#?}"));
    assert!(length > 10, "{length} moves");
    assert_eq!(page.controls, ["replay-controls"]);
    let at = |k: usize| format!("after move {k} of {length}");

    for (button, k) in [
        ("#forward", 1),
        ("#forward", 2),
        ("#forward", 3),
        ("#back", 2),
    ] {
        browser.click(button);
        browser.wait_for(&at(k), |p| (p.position == at(k)).then_some(()));
    }
    let page = browser.page();
    assert!(page.status.contains("watching; move 2;"), "{page:#?}");
    assert_eq!(page.log, 2);
    assert!(page.moves.is_empty(), "a replay offers no move: {page:#?}");

    // Three clicks at once, before the first is answered (WebDriver's clicks, one a
    // request, come too slowly for that): three moves on.
    browser.script("for (let i = 0; i < 3; i++) document.getElementById('forward').click();");
    browser.wait_for(&at(5), |p| (p.position == at(5)).then_some(()));
    assert_eq!(browser.page().log, 5);
    browser.screenshot("replay");
}

#[cfg(unix)]
#[test]
fn the_server_stops_cleanly_on_ctrl_c() {
    let dir = Scratch::new("ctrl-c");
    let mut server = Server::start(&dir.0);
    let games = server.get("/api/games");
    let ids: Vec<&str> = (games.as_array().into_iter().flatten())
        .filter_map(|g| g["id"].as_str())
        .collect();
    assert_eq!(ids, ["artus", "king-arthur", "quests", "virtues"]);
    // SAFETY: signals our own child.
    assert_eq!(
        unsafe { libc::kill(server.child.id() as i32, libc::SIGINT) },
        0
    );
    let status: ExitStatus = wait_until(
        "grail serve to stop",
        || server.child.try_wait().unwrap(),
        |exited| *exited,
    );
    let mut err = String::new();
    server
        .child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "{status}: {err}");
    assert_eq!(err, "grail serve: stopped\n");
}
