//! `grail sweep`: one simulation per combination of param values, the pack's `[params]`
//! overridden without editing its files.
//!
//! Each combination is a small pack laid over the game (`extends` it, sets the params), as
//! if the user had written a variant: it is loaded and checked like any pack, so an unknown
//! param gets the pack's did-you-mean and a value out of range its lint error. A plain
//! value replaces a `[params.by-players]` one for every player count, as in a variant.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use grail_engine::facade::DynGame;
use grail_engine::sim::Report;
use grail_schema::bundled::pack_file_in;
use grail_schema::{FileSource, Loader};
use serde::Serialize;

use crate::content::Content;
use crate::exit::{CliError, CliResult, failure, usage};
use crate::games::load_pack;
use crate::render;
use crate::report::html::{self, Side};
use crate::report::svg::{self, Bar};
use crate::sim::{self, Format, Games, SimArgs};

#[derive(Args, Debug)]
pub struct SweepArgs {
    /// A bundled game id or a pack folder (`grail list` shows the games).
    pub game: String,
    /// A variant of the game (`grail list` shows each game's variants).
    #[arg(long)]
    pub variant: Option<String>,
    /// A param and the values to try, `NAME=V1,V2,...`; repeat for more params (every
    /// combination is simulated, the first param varying slowest).
    #[arg(long = "param", required = true, value_parser = parse_param, value_name = "NAME=V1,V2,...")]
    pub params: Vec<SweptParam>,
    #[command(flatten)]
    pub games: Games,
    /// How to print the results: a block per combination.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also write an HTML page with the charts over the swept values.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// One `--param`: a name and the values to try, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweptParam {
    pub name: String,
    pub values: Vec<String>,
}

/// `NAME=V1,V2,...`.
pub fn parse_param(s: &str) -> Result<SweptParam, String> {
    let bad = || format!("`{s}` is not NAME=V1,V2,... (e.g. knights=3,4,5)");
    let (name, values) = s.split_once('=').ok_or_else(bad)?;
    let name = name.trim();
    let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
    let plain = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if name.is_empty() || !name.chars().all(plain) || values.iter().any(String::is_empty) {
        return Err(bad());
    }
    Ok(SweptParam {
        name: name.to_string(),
        values,
    })
}

/// The most combinations a sweep runs.
const MAX_COMBINATIONS: usize = 1000;

/// One combination's values, in the order of the flags.
pub type Combination = Vec<(String, String)>;

/// Every combination, the first param varying slowest.
pub fn combinations(params: &[SweptParam]) -> Vec<Combination> {
    let mut all: Vec<Combination> = vec![Vec::new()];
    for p in params {
        all = all
            .into_iter()
            .flat_map(|c| {
                p.values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push((p.name.clone(), v.clone()));
                    c
                })
            })
            .collect();
    }
    all
}

/// A combination as `name=value, ...`.
pub fn label(c: &Combination) -> String {
    let parts: Vec<String> = c.iter().map(|(n, v)| format!("{n}={v}")).collect();
    parts.join(", ")
}

/// One block of the sweep: a combination and its report.
#[derive(Serialize)]
pub struct Block {
    pub params: std::collections::BTreeMap<String, String>,
    pub report: Report,
}

pub fn run(args: &SweepArgs, content: &Content) -> CliResult {
    let progress = std::io::stderr().is_terminal();
    let (all, blocks) = sweep(args, content, progress)?;
    let mut stdout = std::io::stdout().lock();
    write(args, &all, &blocks, &mut stdout)
}

/// Simulates every combination; a bad param or value stops before any game is played.
pub fn sweep(
    args: &SweepArgs,
    content: &Content,
    progress: bool,
) -> Result<(Vec<Combination>, Vec<Block>), CliError> {
    for (i, p) in args.params.iter().enumerate() {
        if args.params[..i].iter().any(|q| q.name == p.name) {
            return Err(usage(
                "invalid-value",
                format!("--param {} is given twice: list its values once", p.name),
            ));
        }
    }
    let all = combinations(&args.params);
    if all.len() > MAX_COMBINATIONS {
        return Err(usage(
            "invalid-value",
            format!(
                "{} combinations: a sweep runs at most {MAX_COMBINATIONS}",
                all.len()
            ),
        ));
    }
    // The game itself first, so a wrong name or variant is reported as such.
    load_pack(content, &args.game, args.variant.as_deref())?;
    let name = content.resolve(&args.game).name;
    let base = root_file(content, &name, args.variant.as_deref()).ok_or_else(|| {
        failure(
            "cannot-read",
            format!("cannot find the root file of `{name}`"),
        )
    })?;
    let games = all
        .iter()
        .map(|c| open_overridden(content, &name, args.variant.as_deref(), &base, c))
        .collect::<Result<Vec<_>, _>>()?;
    let mut blocks = Vec::new();
    for (c, game) in all.iter().zip(games) {
        if progress {
            eprintln!("{}", render::escape(&label(c)));
        }
        let report = sim::run_games(game.as_ref(), &sim_args(args), progress)?;
        blocks.push(Block {
            params: c.iter().cloned().collect(),
            report,
        });
    }
    Ok((all, blocks))
}

/// Prints the blocks and writes the page.
pub fn write(
    args: &SweepArgs,
    all: &[Combination],
    blocks: &[Block],
    out: &mut dyn Write,
) -> CliResult {
    if let Some(path) = &args.out {
        let page = page(&args.game, all, blocks);
        std::fs::write(path, page).map_err(|e| {
            failure(
                "cannot-write",
                format!("cannot write {}: {e}", path.display()),
            )
        })?;
    }
    let text = match args.format {
        Format::Text => {
            let mut text = String::new();
            for (c, b) in all.iter().zip(blocks) {
                text.push_str(&format!("== {} ==\n", label(c)));
                text.push_str(&crate::report::text(&b.report));
                text.push('\n');
            }
            text
        }
        Format::Csv => {
            // The sim's CSV with the params in front, one header for all blocks.
            let names: Vec<&str> = args.params.iter().map(|p| p.name.as_str()).collect();
            let mut text = format!("{},", names.join(","));
            for (i, (c, b)) in all.iter().zip(blocks).enumerate() {
                let csv = crate::report::csv(&b.report);
                let mut lines = csv.lines();
                let header = lines.next().unwrap_or("");
                if i == 0 {
                    text.push_str(header);
                    text.push('\n');
                }
                let values: Vec<String> =
                    c.iter().map(|(_, v)| crate::report::csv_field(v)).collect();
                for line in lines {
                    text.push_str(&format!("{},{line}\n", values.join(",")));
                }
            }
            text
        }
        Format::Json => {
            let mut json = serde_json::to_string_pretty(&serde_json::json!({
                "game": args.game,
                "variant": args.variant,
                "params": args.params.iter().map(|p| &p.name).collect::<Vec<_>>(),
                "blocks": blocks,
            }))
            .map_err(|e| failure("cannot-write", format!("cannot write JSON: {e}")))?;
            json.push('\n');
            json
        }
    };
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

fn sim_args(args: &SweepArgs) -> SimArgs {
    SimArgs {
        game: args.game.clone(),
        variant: args.variant.clone(),
        games: args.games.clone(),
        record: None,
        format: Format::Json,
        shard: None,
        detail: args.out.is_some(),
    }
}

/// The root file of a game as the loader finds it (a bundled id or a folder; a variant's file).
fn root_file(content: &Content, name: &str, variant: Option<&str>) -> Option<PathBuf> {
    let folder = if !name.contains(['/', '\\']) && !name.starts_with('.') {
        content.bundled_dir().join(name)
    } else {
        PathBuf::from(name)
    };
    match variant {
        Some(v) => pack_file_in(content.files(), &folder.join("variants"), v),
        None => content.loader().root_file(&folder),
    }
}

/// The name of the pack laid over the game: a variant file beside the game's root file.
const OVERLAY: &str = "sweep-params";

/// Serves the files of `base` and one more: the overlay that sets a combination's params.
struct Overlay<'a> {
    base: &'a dyn FileSource,
    path: PathBuf,
    text: String,
}

impl FileSource for Overlay<'_> {
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        if path == self.path {
            return Ok(self.text.clone().into_bytes());
        }
        self.base.read(path)
    }
    fn is_file(&self, path: &Path) -> bool {
        path == self.path || self.base.is_file(path)
    }
    fn is_dir(&self, path: &Path) -> bool {
        self.base.is_dir(path)
    }
    fn canonical(&self, path: &Path) -> Option<PathBuf> {
        if path == self.path {
            return None;
        }
        self.base.canonical(path)
    }
    fn list(&self, dir: &Path) -> Vec<PathBuf> {
        self.base.list(dir)
    }
}

/// A param value as TOML: numbers and booleans as written, anything else a string.
fn toml_value(v: &str) -> String {
    let number = v.parse::<i64>().is_ok() || v.parse::<f64>().is_ok_and(f64::is_finite);
    if number || v == "true" || v == "false" {
        v.to_string()
    } else {
        format!("\"{}\"", v.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

/// The game with a combination's params: the overlay loaded and checked as a pack, then
/// compiled with its rulebook. Its findings are usage errors: the flags named them.
fn open_overridden(
    content: &Content,
    name: &str,
    variant: Option<&str>,
    base: &Path,
    c: &Combination,
) -> Result<Box<dyn DynGame>, CliError> {
    let dir = base.parent().unwrap_or(Path::new("."));
    let path = dir.join(format!("{OVERLAY}.toml"));
    // The base as `extends` names it: relative to the pack folder (a variant's is the
    // folder above `variants/`).
    let extends = match variant {
        Some(_) => format!(
            "variants/{}",
            base.file_name().unwrap_or_default().to_string_lossy()
        ),
        None => base
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned(),
    };
    let mut text = format!(
        "# grail sweep --param {}\n[pack]\nid = \"{OVERLAY}\"\nextends = \"{extends}\"\n\n[params]\n",
        label(c)
    );
    for (n, v) in c {
        text.push_str(&format!("{n} = {}\n", toml_value(v)));
    }
    let files = Overlay {
        base: content.files(),
        path: path.clone(),
        text,
    };
    let loader = Loader::new(&files)
        .with_content(content.bundled_dir())
        .with_rules(grail_rules::catalog());
    let loaded = loader.load(&path);
    let errors: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .cloned()
        .collect();
    let rendered = |diagnostics: &[grail_engine::diag::Diagnostic]| CliError::Rendered {
        text: render::to_string(&loaded.sources, diagnostics),
        usage: true,
    };
    let Some(mut pack) = loaded.pack.clone().filter(|_| errors.is_empty()) else {
        return Err(rendered(&errors));
    };
    pack.origin = grail_schema::pack::Origin {
        game: name.to_string(),
        variant: variant.map(str::to_string),
    };
    grail_rules::build(&pack).map_err(|d| rendered(&d))
}

/// The sweep's page: per player count, the headline figures over the combinations, then the
/// full report of every combination side by side.
pub fn page(game: &str, all: &[Combination], blocks: &[Block]) -> String {
    let labels: Vec<String> = all.iter().map(label).collect();
    let sides: Vec<Side<'_>> = labels
        .iter()
        .zip(blocks)
        .map(|(l, b)| Side {
            name: l.clone(),
            report: &b.report,
        })
        .collect();
    let mut charts = String::new();
    let counts: std::collections::BTreeSet<usize> = blocks
        .iter()
        .flat_map(|b| b.report.results.iter().map(|r| r.players))
        .collect();
    for players in counts {
        let at = |b: &Block| {
            b.report
                .results
                .iter()
                .find(|r| r.players == players)
                .cloned()
        };
        charts.push_str(&format!(
            "<h2>{players} players over the swept values</h2>\n<div class=\"row\">"
        ));
        let seats = blocks
            .iter()
            .filter_map(at)
            .map(|r| r.seats.len())
            .max()
            .unwrap_or(0);
        for seat in 0..seats {
            let bars: Vec<Bar> = labels
                .iter()
                .zip(blocks)
                .filter_map(|(l, b)| {
                    let s = at(b)?.seats.get(seat)?.clone();
                    Some(Bar {
                        label: l.clone(),
                        value: s.win_rate,
                        interval: Some((s.win_rate_low, s.win_rate_high)),
                        reference: Some(1.0 / players as f64),
                        note: format!("{:.1}%", s.win_rate * 100.0),
                    })
                })
                .collect();
            let title = format!("P{} win rate by combination", seat + 1);
            charts.push_str(&format!(
                "<figure>{}<figcaption>{}, with 95% intervals; dashed: a fair share.</figcaption></figure>",
                svg::bars(&title, &bars, 1.0, true),
                svg::escape(&title)
            ));
        }
        let turns: Vec<Bar> = labels
            .iter()
            .zip(blocks)
            .filter_map(|(l, b)| {
                let r = at(b)?;
                Some(Bar {
                    label: l.clone(),
                    value: r.mean_turns,
                    note: format!("{:.1}", r.mean_turns),
                    ..Bar::default()
                })
            })
            .collect();
        let max = svg::nice_max(turns.iter().map(|b| b.value).fold(0.0, f64::max));
        charts.push_str(&format!(
            "<figure>{}<figcaption>Mean game length in turns by combination.</figcaption></figure></div>\n",
            svg::bars("mean turns by combination", &turns, max, false)
        ));
    }
    let title = format!("Sweep: {game}");
    html::page_with(&title, &charts, &sides)
}
