//! `grail merge`: the JSON reports of the shards of one run (`grail sim --shard I/N`) added
//! up into the report of the whole run, byte for byte what `grail sim` without `--shard`
//! prints.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use grail_engine::sim::Report;
use grail_engine::stats::{MergeError, merge};
use grail_schema::files::read_regular;

use crate::exit::{CliError, CliResult, failure};
use crate::sim::{Format, render};

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The JSON reports of `grail sim --shard I/N --format json`, every shard once, in any
    /// order.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// How to print the merged report.
    #[arg(long, value_enum, default_value_t = Format::Json)]
    pub format: Format,
}

/// The largest report read.
const MAX_REPORT_BYTES: u64 = 64 << 20;

pub fn run(args: &MergeArgs, out: &mut dyn Write) -> CliResult {
    let reports = args
        .files
        .iter()
        .map(|f| read_report(f))
        .collect::<Result<Vec<_>, _>>()?;
    let merged = merge(&reports).map_err(|e| merge_error(&args.files, e))?;
    out.write_all(render(&merged, args.format)?.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Reads a report written by `grail sim --format json`; errors name the file (and line and
/// column of bad JSON).
pub fn read_report(path: &Path) -> Result<Report, CliError> {
    let shown = path.display();
    let bytes = read_regular(path, MAX_REPORT_BYTES).map_err(|e| match e.kind() {
        std::io::ErrorKind::FileTooLarge => failure(
            "file-too-large",
            format!("{shown}: reports larger than {MAX_REPORT_BYTES} bytes are refused"),
        ),
        _ => failure("cannot-read", format!("cannot read {shown}: {e}")),
    })?;
    serde_json::from_slice(&bytes).map_err(|e| {
        failure(
            "bad-report",
            format!(
                "{shown}:{}:{}: not a report of `grail sim --format json`: {e}",
                e.line(),
                e.column()
            ),
        )
    })
}

fn merge_error(files: &[PathBuf], e: MergeError) -> CliError {
    let name = |i: usize| {
        files
            .get(i)
            .map_or_else(String::new, |f| f.display().to_string())
    };
    let message = match e {
        MergeError::Differs { index, what } => format!(
            "{} is of another run than {}: its {what} differs",
            name(index),
            name(0)
        ),
        MergeError::NotShard { index } => format!(
            "{} is the report of a whole run, not of a shard (`grail sim --shard I/N`)",
            name(index)
        ),
        MergeError::Malformed { index, what } => format!(
            "{} is not a report as `grail sim` writes it: {what}",
            name(index)
        ),
        other => other.to_string(),
    };
    failure("cannot-merge", message)
}
