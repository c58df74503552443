//! The balance lab on the toy game: the HTML report, sweeps, shards and merging.

use grail_cli::merge::{self, MergeArgs};
use grail_cli::report::command::page;
use grail_cli::sim::{self, Format};
use grail_engine::sim::Report;

use crate::Cli;
use crate::tests::{scratch, sim_args, toy};
use clap::Parser;

fn report(args: &[&str]) -> Report {
    sim::run_games(toy().as_ref(), &sim_args(args), false).unwrap()
}

/// Checks that `html` is well-formed: every element closed in order, void elements written
/// `<… />`, no stray `<` in text. Returns the number of each element.
fn check_well_formed(html: &str) -> std::collections::BTreeMap<String, usize> {
    let mut open: Vec<&str> = Vec::new();
    let mut seen = std::collections::BTreeMap::new();
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        let end = rest[at..].find('>').expect("an unclosed tag") + at;
        let tag = &rest[at + 1..end];
        rest = &rest[end + 1..];
        assert!(!tag.contains('<'), "a `<` inside a tag: {tag}");
        if tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(open.pop(), Some(name), "closing {name} out of order");
            continue;
        }
        let name = tag.split([' ', '/']).next().unwrap();
        *seen.entry(name.to_string()).or_default() += 1;
        if !tag.ends_with('/') {
            open.push(name);
        }
    }
    assert!(open.is_empty(), "unclosed: {open:?}");
    seen
}

/// Issue 17: "The report opens offline with at least four charts": one file, no scripts,
/// nothing fetched (no URL at all), every chart inline SVG.
#[test]
fn the_report_is_one_self_contained_page_with_charts() {
    let a = report(&["--games", "40", "--detail", "--agents", "greedy,random"]);
    let b = report(&["--games", "40", "--detail", "--seed", "7"]);
    let html = page(&[a, b]);
    let elements = check_well_formed(&html);
    assert!(elements["svg"] >= 4, "{elements:?}");
    for banned in [
        "http:", "https:", "//", "src=", "href", "<script", "url(", "@import",
    ] {
        assert!(!html.contains(banned), "the page has `{banned}`");
    }
    // Every section of the issue, for each of the three player counts.
    for heading in [
        "First-player advantage",
        "Win rate per seat",
        "Score distribution",
        "Game length",
        "How games ended",
        "Picks and winning",
        "Lead changes (drama)",
    ] {
        assert!(html.contains(&format!("<h3>{heading}</h3>")), "{heading}");
    }
    assert_eq!(html.matches("<h3>Win rate per seat</h3>").count(), 3);
    // Side by side: two figures per row, named apart.
    assert!(html.contains("toy (A)") && html.contains("toy (B)"));
    assert!(html.contains("Balance report: toy (A) vs toy (B)"));
}

/// A small report, rendered: the snapshot shows what the page says.
#[test]
fn a_small_report_snapshot() {
    let r = report(&[
        "--players",
        "2",
        "--games",
        "12",
        "--detail",
        "--agents",
        "greedy,random",
    ]);
    insta::assert_snapshot!(page(&[r]));
}

/// Issue 29: in Quests a quest is drawn by the game, not by a seat (its tallies have no
/// seat), so the page shows no winner's share for it, where it showed 0.0% as if drawing
/// it predicted losing; a quest sponsored is a seat's pick and keeps its share.
#[test]
fn the_report_shows_no_winners_share_for_a_quest_drawn() {
    let content = grail_cli::content::Content::embedded();
    let game = grail_cli::games::open_game(&content, "quests", None).unwrap();
    let mut args = sim_args(&["--players", "2", "--games", "8", "--detail"]);
    args.game = "quests".into();
    let report = sim::run_games(game.as_ref(), &args, false).unwrap();
    let html = page(&[report]);
    let hovers = |kind: &str| -> Vec<&str> {
        html.split(&format!("<title>{kind} "))
            .skip(1)
            .filter_map(|s| Some(&s[s.find(": ")? + 2..s.find('<')?]))
            .collect()
    };
    let drawn = hovers("quest drawn");
    assert!(!drawn.is_empty(), "no quest drawn among the picks");
    for note in drawn {
        assert!(
            note.starts_with("no seat · ") && !note.contains('%'),
            "{note}"
        );
    }
    let sponsored = hovers("quest sponsored");
    assert!(sponsored.iter().all(|n| n.contains('%')), "{sponsored:?}");
}

/// Issue 17: "two shards merged equal the unsharded report byte for byte", through the
/// files `grail sim --shard I/N --format json` writes and `grail merge` reads.
#[test]
fn merged_shard_files_equal_the_unsharded_output() {
    let dir = scratch("shards");
    let run = |extra: &[&str]| {
        let mut args = vec!["--games", "70", "--format", "json", "--agents", "greedy"];
        args.extend_from_slice(extra);
        let mut out = Vec::new();
        sim::simulate(toy().as_ref(), &sim_args(&args), &mut out, false).unwrap();
        out
    };
    let whole = run(&[]);
    let mut files = Vec::new();
    for shard in ["2/2", "1/2"] {
        let path = dir.join(format!("{}.json", shard.replace('/', "-")));
        std::fs::write(&path, run(&["--shard", shard])).unwrap();
        files.push(path);
    }
    let mut out = Vec::new();
    merge::run(
        &MergeArgs {
            files: files.clone(),
            format: Format::Json,
        },
        &mut out,
    )
    .unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        String::from_utf8(whole).unwrap()
    );
    let err = merge::run(
        &MergeArgs {
            files: files[..1].to_vec(),
            format: Format::Json,
        },
        &mut Vec::new(),
    )
    .unwrap_err();
    assert!(
        matches!(err, grail_cli::exit::CliError::Failure { code: "cannot-merge", ref message } if message == "missing shard 1/2"),
        "{err:?}"
    );
    for bad in ["0/2", "3/2", "2", "a/b"] {
        assert!(
            Cli::try_parse_from(["grail", "sim", "toy", "--shard", bad]).is_err(),
            "{bad}"
        );
    }
}

fn sweep_args(args: &[&str]) -> grail_cli::sweep::SweepArgs {
    let all = ["grail", "sweep", "king-arthur"]
        .into_iter()
        .chain(args.iter().copied());
    match Cli::try_parse_from(all).unwrap().command {
        crate::Command::Sweep(a) => a,
        _ => unreachable!(),
    }
}

/// Issue 17: "a sweep over three values gives three blocks", each the game with that value:
/// the pack's own value plays exactly the games `grail sim` plays, another value others.
#[test]
fn a_sweep_over_three_values_gives_three_blocks() {
    use grail_cli::content::Content;
    use grail_cli::sweep;
    let content = Content::embedded();
    let args = sweep_args(&[
        "--param",
        "hand_size=3,4,6",
        "--players",
        "2",
        "--games",
        "4",
        "--format",
        "json",
    ]);
    let (all, blocks) = sweep::sweep(&args, &content, false).unwrap();
    assert_eq!(blocks.len(), 3);
    let mut out = Vec::new();
    sweep::write(&args, &all, &blocks, &mut out).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let values: Vec<&str> = json["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["params"]["hand_size"].as_str().unwrap())
        .collect();
    assert_eq!(values, ["3", "4", "6"]);
    // king-arthur deals 4: that block is the plain game's report (but for the content hash).
    let game = grail_cli::games::open_game(&content, "king-arthur", None).unwrap();
    let mut sim_args = sim_args(&["--players", "2", "--games", "4"]);
    sim_args.game = "king-arthur".into();
    let plain = sim::run_games(game.as_ref(), &sim_args, false).unwrap();
    assert_eq!(blocks[1].report.results, plain.results);
    assert_ne!(blocks[0].report.results, plain.results);
    assert_ne!(blocks[2].report.results, plain.results);
    let args = sweep_args(&[
        "--param",
        "hand_size=3,4,6",
        "--players",
        "2",
        "--games",
        "2",
    ]);
    let mut out = Vec::new();
    sweep::write(&args, &all, &blocks, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(
        text.matches("\n== hand_size=").count() + usize::from(text.starts_with("== hand_size=")),
        3
    );
}

/// The overrides are checked like a pack: an unknown param gets a did-you-mean, a value out
/// of range the pack's error; both are usage errors, and no game is played.
#[test]
fn sweep_params_are_checked_like_the_pack() {
    use grail_cli::content::Content;
    let content = Content::embedded();
    for (param, expected) in [
        ("hand_sise=3,4", "did you mean `hand_size`?"),
        ("hand_size=4,-5", "error[out-of-range]"),
    ] {
        let args = sweep_args(&["--param", param, "--games", "1"]);
        match grail_cli::sweep::sweep(&args, &content, false) {
            Err(grail_cli::exit::CliError::Rendered { text, usage: true }) => {
                assert!(text.contains(expected), "{text}");
            }
            other => panic!("{param}: {:?}", other.map(|_| ())),
        }
    }
    let twice = sweep_args(&["--param", "hand_size=3", "--param", "hand_size=4"]);
    assert!(matches!(
        grail_cli::sweep::sweep(&twice, &content, false),
        Err(grail_cli::exit::CliError::Usage {
            code: "invalid-value",
            ..
        })
    ));
    for bad in ["hand_size", "=3", "hand_size=3,,4", "a b=1"] {
        assert!(
            Cli::try_parse_from(["grail", "sweep", "king-arthur", "--param", bad]).is_err(),
            "{bad}"
        );
    }
}

/// The page of a sharded run: `grail report --from` the merged JSON draws exactly the page
/// of the run simulated in one go.
#[test]
fn a_report_from_merged_shards_is_the_report_of_the_whole_run() {
    let dir = scratch("report-from");
    let mut files = Vec::new();
    for shard in ["1/2", "2/2"] {
        let args = sim_args(&[
            "--games", "30", "--detail", "--format", "json", "--shard", shard,
        ]);
        let mut out = Vec::new();
        sim::simulate(toy().as_ref(), &args, &mut out, false).unwrap();
        let path = dir.join(format!("{}.json", shard.replace('/', "-")));
        std::fs::write(&path, out).unwrap();
        files.push(path);
    }
    let merged = dir.join("merged.json");
    let mut out = Vec::new();
    merge::run(
        &MergeArgs {
            files,
            format: Format::Json,
        },
        &mut out,
    )
    .unwrap();
    std::fs::write(&merged, out).unwrap();
    let html = dir.join("report.html");
    let (merged, html) = (merged.to_str().unwrap(), html.to_str().unwrap());
    let crate::Command::Report(args) =
        Cli::try_parse_from(["grail", "report", "--from", merged, "--out", html])
            .unwrap()
            .command
    else {
        unreachable!()
    };
    grail_cli::report::command::run(&args, &grail_cli::content::Content::embedded()).unwrap();
    let whole = report(&["--games", "30", "--detail"]);
    assert_eq!(std::fs::read_to_string(html).unwrap(), page(&[whole]));
    assert!(
        Cli::try_parse_from(["grail", "report", "toy", "--from", merged, "--out", html]).is_err()
    );
}

/// A plain value overrides a `[params.by-players]` param at every count, as in a variant:
/// Artus' knights are 6 at two players, so `knights=6` plays the plain game there.
#[test]
fn a_sweep_overrides_params_given_by_player_count() {
    use grail_cli::content::Content;
    let content = Content::embedded();
    let all = [
        "grail",
        "sweep",
        "artus",
        "--param",
        "knights=5,6",
        "--players",
        "2",
        "--games",
        "3",
    ];
    let crate::Command::Sweep(args) = Cli::try_parse_from(all).unwrap().command else {
        unreachable!()
    };
    let (_, blocks) = grail_cli::sweep::sweep(&args, &content, false).unwrap();
    let game = grail_cli::games::open_game(&content, "artus", None).unwrap();
    let mut plain_args = sim_args(&["--players", "2", "--games", "3"]);
    plain_args.game = "artus".into();
    let plain = sim::run_games(game.as_ref(), &plain_args, false).unwrap();
    assert_ne!(blocks[0].report.results, plain.results);
    assert_eq!(blocks[1].report.results, plain.results);
}
