//! `grail rules GAME [--variant V]`: a game's rules in words, generated from its description;
//! for a variant or a mod, also what it changes from the game it extends.

use std::io::Write;

use clap::Args;
use grail_schema::Pack;
use grail_schema::model::ParamValue;

use crate::content::Content;
use crate::excerpt::escape;
use crate::exit::{CliResult, failure};
use crate::games::load_pack;

#[derive(Args, Debug)]
pub struct RulesArgs {
    /// A bundled game id or a pack folder.
    pub game: String,
    /// The variant whose rules to show (e.g. `seals`); default: the base game
    #[arg(long)]
    pub variant: Option<String>,
}

pub fn run(args: &RulesArgs, content: &Content, out: &mut dyn Write) -> CliResult {
    let pack = load_pack(content, &args.game, args.variant.as_deref())?;
    write!(out, "{}", escape(&rules_of(&pack)?))?;
    // A variant (or a mod extending a game): what it changes, param by param and line by line.
    if args.variant.is_some() || pack.lineage.len() > 1 {
        let base = match args.variant {
            Some(_) => load_pack(content, &args.game, None)?,
            None => load_pack(content, &pack.lineage[0], None)?,
        };
        write!(out, "{}", escape(&changes(&base, &pack)?))?;
    }
    Ok(())
}

/// The rules in words, or what the pack says of a game played by a Rust module.
fn rules_of(pack: &Pack) -> Result<String, crate::exit::CliError> {
    if pack.rules != "rulebook" {
        let mut text = format!(
            "{} ({}): its turn is played by the `{}` module, not described in the pack; what \
             the pack says:\n{}\n",
            pack.name, pack.id, pack.rules, pack.description
        );
        if !pack.scoring.trim().is_empty() {
            text += &format!("Scoring: {}\n", pack.scoring.trim());
        }
        return Ok(text);
    }
    grail_rules::rulebook::rules_in_words(pack).map_err(|errors| {
        // The first finding, by its own code; `grail lint` shows them all, with their places.
        let (code, first) = errors
            .first()
            .map_or(("invalid-value", String::new()), |d| {
                (d.code, d.message.clone())
            });
        failure(
            code,
            format!("the description does not compile ({first}): `grail lint` shows where"),
        )
    })
}

/// What `pack` changes from `base`: its params, then the lines of the rules that differ.
fn changes(base: &Pack, pack: &Pack) -> Result<String, crate::exit::CliError> {
    let mut text = format!("\nWhat `{}` changes from `{}`:\n", pack.id, base.id);
    let show = |v: &ParamValue| match v {
        ParamValue::Int(i) => i.to_string(),
        ParamValue::Bool(b) => b.to_string(),
        ParamValue::Text(t) => t.clone(),
    };
    let mut any = false;
    for p in &pack.params {
        let was = base.params.iter().find(|b| b.name == p.name);
        if was.is_none_or(|b| b.value != p.value) {
            any = true;
            let was = was.map_or("unset".to_string(), |b| show(&b.value));
            text += &format!("  {}: {} (was {was})\n", p.name, show(&p.value));
        }
    }
    let (before, after) = (rules_of(base)?, rules_of(pack)?);
    // The title line names the game and variant: not a change of the rules.
    let lines = |t: &str| t.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
    let (before, after) = (lines(&before), lines(&after));
    for l in after.iter().filter(|l| !before.contains(l)) {
        any = true;
        text += &format!("  + {}\n", l.trim());
    }
    for l in before.iter().filter(|l| !after.contains(l)) {
        any = true;
        text += &format!("  - {}\n", l.trim());
    }
    if !any {
        text += "  nothing in its rules\n";
    }
    Ok(text)
}
