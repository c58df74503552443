//! Merging files into one pack, as `docs/pack-format.md` ("Merging") says:
//! [`include`] joins the files of one pack (defining a thing twice is an error);
//! [`overlay`] lays a pack that `extends` another over its fully merged base.

use std::collections::BTreeMap;

use grail_engine::diag::{Diagnostic, did_you_mean};

use crate::model::{CardDef, Loc, PackFile, SetDef, Sp, Table};

/// Adds an included file's tables to the pack's own.
pub fn include(into: &mut PackFile, file: PackFile, diags: &mut Vec<Diagnostic>) {
    join(&mut into.params.values, file.params.values, "param", diags);
    join(
        &mut into.params.by_players,
        file.params.by_players,
        "param by player count",
        diags,
    );
    join(&mut into.sets, file.sets, "set", diags);
    join(&mut into.conditions, file.conditions, "condition", diags);
    let (to, from) = (&mut into.rulebook, file.rulebook);
    join(&mut to.zones, from.zones, "zone", diags);
    join(&mut to.stages, from.stages, "stage", diags);
    join(&mut to.steps, from.steps, "step", diags);
    join(&mut to.actions, from.actions, "action", diags);
    join(&mut to.queries, from.queries, "query", diags);
    join(&mut to.figures, from.figures, "figure", diags);
    join(&mut to.roles, from.roles, "role", diags);
    join(&mut to.counters, from.counters, "counter", diags);
    join(&mut to.checks, from.checks, "check", diags);
    join(&mut to.endings, from.endings, "ending", diags);
    join(&mut to.expressions, from.expressions, "expression", diags);
    join(&mut to.texts, from.texts, "text", diags);
    to.setup = to.setup.take().or(from.setup);
    to.end = to.end.take().or(from.end);
    to.bot = to.bot.take().or(from.bot);
}

fn join<V>(into: &mut Table<V>, from: Table<V>, what: &str, diags: &mut Vec<Diagnostic>) {
    for (key, value) in from.0 {
        if let Some((first, _)) = into.0.iter().find(|(k, _)| k.value == key.value) {
            diags.push(duplicate(what, &key.value, &key.loc, &first.loc));
        } else {
            into.0.push((key, value));
        }
    }
}

fn duplicate(what: &str, id: &str, again: &Loc, first: &Loc) -> Diagnostic {
    Diagnostic::error("duplicate-id", format!("{what} `{id}` is defined twice"))
        .at(again.source, again.span.clone(), "defined again here")
        .also(first.source, first.span.clone(), "first defined here")
}

/// Card ids are unique within their set. (Sets may share ids: knights and adversaries both
/// have a `red-2`; rules and scripts always name a card together with its set or pile.)
pub fn check_unique_cards(file: &PackFile, diags: &mut Vec<Diagnostic>) {
    for (_, set) in file.sets.iter() {
        let mut seen: BTreeMap<&str, &Loc> = BTreeMap::new();
        for card in &set.cards {
            if let Some(first) = seen.get(card.id.value.as_str()) {
                diags.push(duplicate("card", &card.id.value, &card.id.loc, first));
            } else {
                seen.insert(&card.id.value, &card.id.loc);
            }
        }
    }
}

/// Lays `top` (a pack that extends) over `base` (the merged pack it extends).
pub fn overlay(mut base: PackFile, top: PackFile, diags: &mut Vec<Diagnostic>) -> PackFile {
    let base_header = base.pack.take();
    base.pack = top.pack.map(|mut header| {
        if let Some(b) = base_header {
            header.rules = header.rules.or(b.rules);
            header.players = header.players.or(b.players);
            header.scoring = header.scoring.or(b.scoring);
        }
        header
    });
    // A plain value holds for every player count, so it replaces the base's values by
    // count; a value by count patches only the counts it names.
    for (key, value) in top.params.values.0 {
        base.params
            .by_players
            .0
            .retain(|(k, _)| k.value != key.value);
        replace(&mut base.params.values, key, value);
    }
    for (key, counts) in top.params.by_players.0 {
        let base_entry = base.params.by_players.0.iter_mut();
        match base_entry.into_iter().find(|(k, _)| k.value == key.value) {
            // Named where the pack on top writes it, so findings point into that pack.
            Some((base_key, base_counts)) => {
                *base_key = key;
                for (count, value) in counts.0.0 {
                    replace(&mut base_counts.0, count, value);
                }
            }
            None => base.params.by_players.0.push((key, counts)),
        }
    }
    for (key, value) in top.conditions.0 {
        replace(&mut base.conditions, key, value);
    }
    // The description's named tables are replaced whole, by name; `[setup]`, `[end]` and
    // `[bot]` whole.
    let (to, from) = (&mut base.rulebook, top.rulebook);
    for (key, value) in from.zones.0 {
        replace(&mut to.zones, key, value);
    }
    for (key, value) in from.stages.0 {
        replace(&mut to.stages, key, value);
    }
    for (key, value) in from.steps.0 {
        replace(&mut to.steps, key, value);
    }
    for (key, value) in from.actions.0 {
        replace(&mut to.actions, key, value);
    }
    for (key, value) in from.queries.0 {
        replace(&mut to.queries, key, value);
    }
    for (key, value) in from.figures.0 {
        replace(&mut to.figures, key, value);
    }
    for (key, value) in from.roles.0 {
        replace(&mut to.roles, key, value);
    }
    for (key, value) in from.counters.0 {
        replace(&mut to.counters, key, value);
    }
    for (key, value) in from.checks.0 {
        replace(&mut to.checks, key, value);
    }
    for (key, value) in from.endings.0 {
        replace(&mut to.endings, key, value);
    }
    for (key, value) in from.expressions.0 {
        replace(&mut to.expressions, key, value);
    }
    for (key, value) in from.texts.0 {
        replace(&mut to.texts, key, value);
    }
    to.setup = from.setup.or(to.setup.take());
    to.end = from.end.or(to.end.take());
    to.bot = from.bot.or(to.bot.take());
    for (key, set) in top.sets.0 {
        match base.sets.get_mut(&key.value) {
            Some(base_set) => patch_set(&key.value, base_set, set, diags),
            None => {
                let known: Vec<&str> = base.sets.keys().collect();
                if let (Some(near), true) =
                    (did_you_mean(&key.value, known), set.attributes.is_empty())
                {
                    diags.push(
                        Diagnostic::error(
                            "unknown-set",
                            format!("the base pack has no set `{}`", key.value),
                        )
                        .at(key.loc.source, key.loc.span.clone(), "not in the base pack")
                        .with_help(format!("did you mean `{near}`?")),
                    );
                    continue;
                }
                base.sets.0.push((key, set));
            }
        }
    }
    base
}

fn replace<V>(table: &mut Table<V>, key: Sp<String>, value: V) {
    match table.0.iter_mut().find(|(k, _)| k.value == key.value) {
        Some(slot) => *slot = (key, value),
        None => table.0.push((key, value)),
    }
}

fn patch_set(id: &str, base: &mut SetDef, top: SetDef, diags: &mut Vec<Diagnostic>) {
    patch(&mut base.name, top.name);
    patch(&mut base.total, top.total);
    patch(&mut base.value, top.value);
    patch(&mut base.condition_over, top.condition_over);
    patch(&mut base.when_over, top.when_over);
    patch(&mut base.product, top.product);
    for (key, domain) in top.attributes.0 {
        replace(&mut base.attributes, key, domain);
    }
    // A legend is patched value by value, like a card.
    for (attr, entries) in top.legend.0 {
        match base.legend.get_mut(&attr.value) {
            Some(base_entries) => {
                for (value, words) in entries.0 {
                    replace(base_entries, value, words);
                }
            }
            None => base.legend.0.push((attr, entries)),
        }
    }
    for card in top.cards {
        let removing = card.remove.as_ref().is_some_and(|r| r.value);
        match base.cards.iter().position(|c| c.id.value == card.id.value) {
            Some(i) if removing => {
                base.cards.remove(i);
            }
            Some(i) => patch_card(&mut base.cards[i], card),
            None => {
                let missing: Vec<&str> = base
                    .attributes
                    .keys()
                    .filter(|a| card.attributes.get(a).is_none())
                    .collect();
                if !removing && missing.is_empty() {
                    base.cards.push(card);
                    continue;
                }
                let known = base.cards.iter().map(|c| c.id.value.as_str());
                let mut d = Diagnostic::error(
                    "unknown-card",
                    format!(
                        "set `{id}` of the base pack has no card `{}`",
                        card.id.value
                    ),
                )
                .at(
                    card.id.loc.source,
                    card.id.loc.span.clone(),
                    "not in the base pack",
                );
                if let Some(near) = did_you_mean(&card.id.value, known) {
                    d = d.with_help(format!("did you mean `{near}`?"));
                }
                if !removing {
                    d = d.with_note(format!(
                        "to add a new card instead, give all its attributes (missing: {})",
                        missing.join(", ")
                    ));
                }
                diags.push(d);
            }
        }
    }
}

fn patch_card(base: &mut CardDef, top: CardDef) {
    patch(&mut base.name, top.name);
    patch(&mut base.copies, top.copies);
    patch(&mut base.points, top.points);
    patch(&mut base.position, top.position);
    patch(&mut base.condition, top.condition);
    patch(&mut base.text, top.text);
    patch(&mut base.overrides, top.overrides);
    patch(&mut base.effects, top.effects);
    for (key, value) in top.attributes.0 {
        replace(&mut base.attributes, key, value);
    }
}

fn patch<T>(base: &mut Option<T>, top: Option<T>) {
    if top.is_some() {
        *base = top;
    }
}
