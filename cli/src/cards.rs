//! `grail cards GAME [CARD]`: a pack's cards. Without CARD, a table per set (id, name,
//! copies, attributes, points); with CARD (an id or a name), that card in full: every
//! attribute, copies, points, its condition as written and in words, its text and its
//! situational values. `grail play`'s `info <card>` shows the same card text.
//!
//! Everything here is a card's printed data, which every player may see.

use std::io::Write;

use clap::Args;
use grail_engine::cond::words::describe;
use grail_engine::cond::{Domain, Universe, Value};
use grail_engine::diag::did_you_mean;
use grail_schema::{Card, CardSet, Pack};
use serde_json::{Value as Json, json};

use crate::content::Content;
use crate::excerpt::escape;
use crate::exit::{CliResult, failure};
use crate::games::load_pack;

#[derive(Args, Debug)]
pub struct CardsArgs {
    /// A bundled game id or a pack folder.
    pub game: String,
    /// A card's id or name: show that card in full.
    pub card: Option<String>,
    /// The variant whose cards to show (e.g. `seals`); default: the base game
    #[arg(long)]
    pub variant: Option<String>,
    /// How to print the cards: text for people, json for tools
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

pub fn run(args: &CardsArgs, content: &Content, out: &mut dyn Write) -> CliResult {
    let pack = load_pack(content, &args.game, args.variant.as_deref())?;
    match &args.card {
        None => match args.format {
            Format::Text => write_tables(&pack, out)?,
            Format::Json => {
                let sets: Vec<Json> = pack.sets.iter().map(set_json).collect();
                writeln!(out, "{}", pretty(&json!({ "sets": sets })))?;
            }
        },
        Some(query) => {
            let found = find(&pack, query).map_err(|message| failure("unknown-card", message))?;
            match args.format {
                Format::Text => {
                    let texts: Vec<String> = found
                        .iter()
                        .map(|(set, card)| card_text(&pack, set, card))
                        .collect();
                    write!(out, "{}", texts.join("\n"))?;
                }
                Format::Json => {
                    let cards: Vec<Json> = found
                        .iter()
                        .map(|(set, card)| card_json(&pack, set, card))
                        .collect();
                    writeln!(out, "{}", pretty(&json!({ "cards": cards })))?;
                }
            }
        }
    }
    Ok(())
}

/// How many cards an unknown name's suggestions list at most.
const MAX_SUGGESTED: usize = 6;

/// The cards whose id or name is `query` (ignoring case), in set order; an error with a
/// did-you-mean when there is none.
pub fn find<'p>(pack: &'p Pack, query: &str) -> Result<Vec<(&'p CardSet, &'p Card)>, String> {
    let query = query.trim();
    let all = || {
        pack.sets
            .iter()
            .flat_map(|s| s.cards.iter().map(move |c| (s, c)))
    };
    let found: Vec<_> = all()
        .filter(|(_, c)| c.id.eq_ignore_ascii_case(query) || c.name.eq_ignore_ascii_case(query))
        .collect();
    if !found.is_empty() {
        return Ok(found);
    }
    let mut message = format!("{} has no card `{query}`", pack.id);
    let lower = query.to_lowercase();
    let partial: Vec<&str> = all()
        .filter(|(_, c)| c.id.contains(&lower) || c.name.to_lowercase().contains(&lower))
        .map(|(_, c)| c.id.as_str())
        .take(MAX_SUGGESTED + 1)
        .collect();
    if !lower.is_empty() && !partial.is_empty() {
        let more = if partial.len() > MAX_SUGGESTED {
            ", …"
        } else {
            ""
        };
        let shown: Vec<String> = partial
            .iter()
            .take(MAX_SUGGESTED)
            .map(|id| format!("`{id}`"))
            .collect();
        message.push_str(&format!("; did you mean {}{more}?", shown.join(", ")));
    } else if let Some(near) = did_you_mean(query, all().map(|(_, c)| c.id.as_str()))
        .or_else(|| did_you_mean(query, all().map(|(_, c)| c.name.as_str())))
    {
        message.push_str(&format!("; did you mean `{near}`?"));
    } else {
        message.push_str(&format!(" (see `grail cards {}`)", pack.origin.game));
    }
    Err(message)
}

/// One table per set of listed cards.
fn write_tables(pack: &Pack, out: &mut dyn Write) -> std::io::Result<()> {
    for (i, set) in pack.sets.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        if !set.product.is_empty() {
            // A product set lists no cards: each of its items is one card of every factor.
            writeln!(
                out,
                "{} ({}): one card from each of: {}",
                escape(&set.name),
                set.id,
                set.product.join(", ")
            )?;
            continue;
        }
        writeln!(
            out,
            "{} ({}): {} cards",
            escape(&set.name),
            set.id,
            set.total()
        )?;
        let universe = set.universe();
        let points = set.cards.iter().any(|c| c.points.is_some());
        let mut header = vec!["id".to_string(), "name".into(), "copies".into()];
        header.extend(universe.attrs.iter().map(|a| a.name.clone()));
        if points {
            header.push("points".into());
        }
        let mut rows = vec![header];
        for (i, card) in set.cards.iter().enumerate() {
            let mut row = vec![
                card.id.clone(),
                escape(&card.name).into_owned(),
                card.copies.to_string(),
            ];
            row.extend((0..universe.attrs.len()).map(|a| shown_value(universe, i, a)));
            if points {
                row.push(card.points.map_or("-".into(), |p| p.to_string()));
            }
            rows.push(row);
        }
        write_aligned(&rows, out)?;
        for legend in &set.legend {
            writeln!(out, "  legend: {}", escape(&legend.line()))?;
        }
    }
    Ok(())
}

fn write_aligned(rows: &[Vec<String>], out: &mut dyn Write) -> std::io::Result<()> {
    let columns = rows.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell:w$}"))
            .collect();
        writeln!(out, "  {}", cells.join("  ").trim_end())?;
    }
    Ok(())
}

/// A card in full, as `grail cards GAME CARD` and `info <card>` show it.
pub fn card_text(pack: &Pack, set: &CardSet, card: &Card) -> String {
    let index = set.cards.iter().position(|c| c.id == card.id).unwrap_or(0);
    let universe = set.universe();
    let mut lines = vec![format!(
        "{} ({}), {}",
        escape(&card.name),
        card.id,
        escape(&set.name)
    )];
    lines.push(format!("  copies: {}", card.copies));
    if let Some(points) = card.points {
        lines.push(format!("  points: {points}"));
    }
    for (a, attr) in universe.attrs.iter().enumerate() {
        let value = shown_value(universe, index, a);
        // What the value means, where the pack's legend says (a colour's kind).
        let meaning = set
            .legend_of(&attr.name)
            .and_then(|l| l.meaning(&value))
            .map_or(String::new(), |m| format!(" ({})", escape(m)));
        lines.push(format!("  {}: {value}{meaning}", attr.name));
    }
    if let Some(condition) = &card.condition {
        let over = set.condition_over.as_deref().unwrap_or_default();
        lines.push(format!("  condition: {}", escape(&condition.text)));
        if let Some(words) = condition_words(pack, &[over], &condition.text) {
            lines.push(format!(
                "    in words: {} ({})",
                escape(&words),
                set_names(pack, &[over])
            ));
        }
    }
    if !card.text.is_empty() {
        lines.push(format!("  text: {}", escape(card.text.trim())));
    }
    for o in &card.overrides {
        let over: Vec<&str> = set.when_over.iter().map(String::as_str).collect();
        let values: Vec<String> = o
            .values
            .iter()
            .map(|(a, v)| {
                format!(
                    "{} {}",
                    universe.attrs[*a].name,
                    value_name(universe, *a, *v)
                )
            })
            .collect();
        lines.push(format!(
            "  while {}: {}",
            escape(&o.when.text),
            values.join(", ")
        ));
        if let Some(words) = condition_words(pack, &over, &o.when.text) {
            lines.push(format!(
                "    in words: {} ({})",
                escape(&words),
                set_names(pack, &over)
            ));
        }
    }
    lines.join("\n") + "\n"
}

/// A card's condition in words, over the set its set's conditions range over.
pub fn condition_in_words(pack: &Pack, set: &CardSet, card: &Card) -> Option<String> {
    let over = set.condition_over.as_deref()?;
    condition_words(pack, &[over], &card.condition.as_ref()?.text)
}

/// A condition over `sets` in words; `None` when the sets cannot be joined (lint said so).
fn condition_words(pack: &Pack, sets: &[&str], text: &str) -> Option<String> {
    let universe = match sets {
        [one] => pack.set(one).ok()?.universe().clone(),
        _ => pack.universe(sets).ok()?,
    };
    // The union lists each set's cards one set after another, as `names` does.
    let names: Vec<&str> = sets
        .iter()
        .filter_map(|id| pack.set(id).ok())
        .flat_map(|s| s.cards.iter().map(|c| c.name.as_str()))
        .collect();
    describe(text, &universe, &names)
}

/// "over: Adversary cards", "over: Story cards and Adventure cards".
fn set_names(pack: &Pack, sets: &[&str]) -> String {
    let names: Vec<String> = sets
        .iter()
        .map(|id| pack.set(id).map_or((*id).to_string(), |s| s.name.clone()))
        .collect();
    format!("over: {}", names.join(" and "))
}

fn shown_value(universe: &Universe, card: usize, attr: usize) -> String {
    match universe.value(card, attr) {
        Some(v) => value_name(universe, attr, v),
        None => "-".into(),
    }
}

fn value_name(universe: &Universe, attr: usize, value: Value) -> String {
    match (value, &universe.attrs[attr].domain) {
        (Value::Sym(i), Domain::Symbols(names)) => names
            .get(usize::from(i))
            .cloned()
            .unwrap_or_else(|| format!("#{i}")),
        (Value::Int(n), _) => n.to_string(),
        (Value::Sym(i), Domain::Int { .. }) => format!("#{i}"),
    }
}

fn attributes_json(universe: &Universe, card: usize) -> Json {
    let map: serde_json::Map<String, Json> = universe
        .attrs
        .iter()
        .enumerate()
        .filter_map(|(a, attr)| {
            let v = universe.value(card, a)?;
            let v = match v {
                Value::Int(n) => json!(n),
                Value::Sym(_) => json!(value_name(universe, a, v)),
            };
            Some((attr.name.clone(), v))
        })
        .collect();
    Json::Object(map)
}

fn set_json(set: &CardSet) -> Json {
    let cards: Vec<Json> = set
        .cards
        .iter()
        .enumerate()
        .map(|(i, c)| {
            json!({
                "id": c.id,
                "name": c.name,
                "copies": c.copies,
                "points": c.points,
                "attributes": attributes_json(set.universe(), i),
            })
        })
        .collect();
    // What attribute values mean, by attribute and value, in the domain's order.
    let legend: serde_json::Map<String, Json> = set
        .legend
        .iter()
        .map(|l| {
            let entries: serde_json::Map<String, Json> = l
                .entries
                .iter()
                .map(|(v, w)| (v.clone(), Json::from(w.as_str())))
                .collect();
            (l.attr.clone(), Json::Object(entries))
        })
        .collect();
    json!({ "id": set.id, "name": set.name, "total": set.total(), "legend": legend, "cards": cards })
}

fn card_json(pack: &Pack, set: &CardSet, card: &Card) -> Json {
    let index = set.cards.iter().position(|c| c.id == card.id).unwrap_or(0);
    let universe = set.universe();
    let condition = card.condition.as_ref().map(|c| {
        let over = set.condition_over.as_deref().unwrap_or_default();
        json!({
            "text": c.text,
            "words": condition_words(pack, &[over], &c.text),
            "over": [over],
        })
    });
    let overrides: Vec<Json> = card
        .overrides
        .iter()
        .map(|o| {
            let over: Vec<&str> = set.when_over.iter().map(String::as_str).collect();
            let values: serde_json::Map<String, Json> = o
                .values
                .iter()
                .map(|(a, v)| {
                    let v = match v {
                        Value::Int(n) => json!(n),
                        Value::Sym(_) => json!(value_name(universe, *a, *v)),
                    };
                    (universe.attrs[*a].name.clone(), v)
                })
                .collect();
            json!({
                "when": o.when.text,
                "words": condition_words(pack, &over, &o.when.text),
                "over": over,
                "values": values,
            })
        })
        .collect();
    json!({
        "set": set.id,
        "id": card.id,
        "name": card.name,
        "copies": card.copies,
        "points": card.points,
        "attributes": attributes_json(universe, index),
        "condition": condition,
        "text": card.text,
        "overrides": overrides,
    })
}

fn pretty(value: &Json) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}
