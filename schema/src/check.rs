//! Checks a merged pack against what its rulebook expects ([`RulesSpec`]): the rules id,
//! params (unknown, missing, wrong type or range), sets and named conditions.

use grail_engine::diag::{Diagnostic, Sources, did_you_mean};

use crate::model::{BY_PLAYERS, PackFile, ParamValue, Sp};
use crate::spec::{GENERIC_RULEBOOK, ParamKind, ParamSpec, RulesSpec};

/// Finds the pack's rulebook among `catalog` and checks the pack against it. Returns the
/// rulebook's spec when the pack names a known one.
pub fn rules<'a>(
    file: &PackFile,
    catalog: &'a [RulesSpec],
    diags: &mut Vec<Diagnostic>,
) -> Option<&'a RulesSpec> {
    let header = file.pack.as_ref()?;
    let rules = header.rules.as_ref()?;
    let Some(spec) = catalog.iter().find(|s| s.id == rules.value) else {
        let known = catalog.iter().map(|s| s.id);
        let mut d = Diagnostic::error(
            "unknown-rules",
            format!("there is no rulebook `{}`", rules.value),
        )
        .at(rules.loc.source, rules.loc.span.clone(), "unknown rules");
        d = match did_you_mean(&rules.value, known.clone()) {
            Some(near) => d.with_help(format!("did you mean `{near}`?")),
            None => d.with_help(format!(
                "known rulebooks: {}",
                known.collect::<Vec<_>>().join(", ")
            )),
        };
        diags.push(d);
        return None;
    };
    let at = &header.id.loc;
    if spec.id == GENERIC_RULEBOOK {
        // The pack's own description says which params and sets it reads; the rulebook
        // checks them when it compiles the description. It reads what cards do from their
        // attributes, never from `effects` (a field of the hand-written rules modules).
        for (_, set) in file.sets.iter() {
            for card in &set.cards {
                let Some(effect) = card.effects.as_ref().and_then(|e| e.first()) else {
                    continue;
                };
                let loc = &effect.kind.loc;
                diags.push(
                    Diagnostic::warning(
                        "unused-field",
                        format!(
                            "card `{}` has `effects`, which a game description never reads",
                            card.id.value
                        ),
                    )
                    .at(loc.source, loc.span.clone(), "read by nothing")
                    .with_help(
                        "say what the card does with attributes its actions' guards and \
                         effects read (`high = 9`), and remove `effects`",
                    ),
                );
            }
        }
        return Some(spec);
    }

    for (name, value) in file.params.values.iter() {
        let Some(p) = spec.params.iter().find(|p| p.name == name.value) else {
            diags.push(unknown_param(spec, name));
            continue;
        };
        let fits = match (&p.kind, &value.value) {
            (
                ParamKind::Int { min, max } | ParamKind::ByPlayers { min, max },
                ParamValue::Int(v),
            ) => {
                in_range(p, (*min, *max), *v, &value.loc, diags);
                true
            }
            (ParamKind::Bool, ParamValue::Bool(_)) | (ParamKind::Text, ParamValue::Text(_)) => true,
            (ParamKind::Choice(options), ParamValue::Text(v)) => {
                if !options.contains(&v.as_str()) {
                    let mut d = Diagnostic::error(
                        "invalid-value",
                        format!("param `{}` must be {}", p.name, p.kind.describe()),
                    )
                    .at(
                        value.loc.source,
                        value.loc.span.clone(),
                        "not an option",
                    );
                    if let Some(near) = did_you_mean(v, options.iter().copied()) {
                        d = d.with_help(format!("did you mean \"{near}\"?"));
                    }
                    diags.push(d);
                }
                true
            }
            _ => false,
        };
        if !fits {
            diags.push(
                Diagnostic::error(
                    "param-type",
                    format!(
                        "param `{}` must be {}, found {}",
                        p.name,
                        p.kind.describe(),
                        value.value.type_name()
                    ),
                )
                .at(
                    value.loc.source,
                    value.loc.span.clone(),
                    format!("expected {}", p.kind.describe()),
                )
                .with_note(format!("`{}`: {}", p.name, p.doc)),
            );
        }
    }
    for (name, counts) in file.params.by_players.iter() {
        let Some(p) = spec.params.iter().find(|p| p.name == name.value) else {
            diags.push(unknown_param(spec, name));
            continue;
        };
        let ParamKind::ByPlayers { min, max } = p.kind else {
            diags.push(
                Diagnostic::error(
                    "param-type",
                    format!(
                        "param `{}` does not depend on the player count: it must be {}",
                        p.name,
                        p.kind.describe()
                    ),
                )
                .at(
                    name.loc.source,
                    name.loc.span.clone(),
                    format!("give it in [params], not [params.{BY_PLAYERS}]"),
                )
                .with_note(format!("`{}`: {}", p.name, p.doc)),
            );
            continue;
        };
        for (_, value) in counts.0.iter() {
            in_range(p, (min, max), value.value, &value.loc, diags);
        }
    }
    for p in spec.params {
        if file.params.values.get(p.name).is_none() && file.params.by_players.get(p.name).is_none()
        {
            diags.push(
                Diagnostic::error(
                    "missing-param",
                    format!("the `{}` rules need param `{}`", spec.id, p.name),
                )
                .at(at.source, at.span.clone(), "in this pack")
                .with_help(format!(
                    "add `{} = …` ({}) to [params]: {}",
                    p.name,
                    p.kind.describe(),
                    p.doc
                )),
            );
        }
    }

    for s in spec.sets {
        if file.sets.get(s.id).is_none() {
            diags.push(
                Diagnostic::error(
                    "missing-set",
                    format!("the `{}` rules need set `{}`", spec.id, s.id),
                )
                .at(at.source, at.span.clone(), "in this pack")
                .with_help(format!("add [sets.{}]: {}", s.id, s.doc)),
            );
        }
    }
    for (id, _) in file.sets.iter() {
        if spec.sets.iter().all(|s| s.id != id.value) {
            diags.push(
                Diagnostic::warning(
                    "unused-set",
                    format!("the `{}` rules do not use set `{}`", spec.id, id.value),
                )
                .at(id.loc.source, id.loc.span.clone(), "never used"),
            );
        }
    }

    for c in spec.conditions {
        match file.conditions.get(c.name) {
            None => {
                let declared = file.conditions.iter().map(|(k, _)| k.value.as_str());
                let help = match did_you_mean(c.name, declared) {
                    Some(near) => format!(
                        "is [conditions.{near}] meant to be [conditions.{}]? ({})",
                        c.name, c.doc
                    ),
                    None => format!("add [conditions.{}]: {}", c.name, c.doc),
                };
                diags.push(
                    Diagnostic::error(
                        "missing-condition",
                        format!("the `{}` rules need condition `{}`", spec.id, c.name),
                    )
                    .at(at.source, at.span.clone(), "in this pack")
                    .with_help(help),
                );
            }
            Some(def) => {
                let args: Vec<&str> = def.args.iter().map(|a| a.value.as_str()).collect();
                if args != c.args {
                    let key = file
                        .conditions
                        .iter()
                        .find(|(k, _)| k.value == c.name)
                        .map(|(k, _)| k.loc.clone())
                        .unwrap_or_else(|| at.clone());
                    diags.push(
                        Diagnostic::error(
                            "condition-args",
                            format!(
                                "the `{}` rules pass condition `{}` the arguments [{}], but it declares [{}]",
                                spec.id,
                                c.name,
                                c.args.join(", "),
                                args.join(", ")
                            ),
                        )
                        .at(key.source, key.span.clone(), "arguments differ")
                        .with_help(format!(
                            "declare `args = [{}]` and read them in the condition as {}",
                            c.args
                                .iter()
                                .map(|a| format!("\"{a}\""))
                                .collect::<Vec<_>>()
                                .join(", "),
                            c.args
                                .iter()
                                .map(|a| format!("`${a}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )),
                    );
                }
            }
        }
    }
    for (name, _) in file.conditions.iter() {
        if spec.conditions.iter().all(|c| c.name != name.value) {
            diags.push(
                Diagnostic::warning(
                    "unused-condition",
                    format!(
                        "the `{}` rules do not use condition `{}`",
                        spec.id, name.value
                    ),
                )
                .at(name.loc.source, name.loc.span.clone(), "never used"),
            );
        }
    }
    Some(spec)
}

fn in_range(
    p: &ParamSpec,
    (min, max): (i64, i64),
    v: i64,
    at: &crate::model::Loc,
    diags: &mut Vec<Diagnostic>,
) {
    if !(min..=max).contains(&v) {
        diags.push(
            Diagnostic::error(
                "out-of-range",
                format!("param `{}` must be from {min} to {max}, found {v}", p.name),
            )
            .at(at.source, at.span.clone(), "out of range")
            .with_note(format!("`{}`: {}", p.name, p.doc)),
        );
    }
}

/// A param the rulebook does not declare, with the nearest declared name.
fn unknown_param(spec: &RulesSpec, name: &Sp<String>) -> Diagnostic {
    let d = Diagnostic::error(
        "unknown-param",
        format!("the `{}` rules have no param `{}`", spec.id, name.value),
    )
    .at(name.loc.source, name.loc.span.clone(), "unknown param");
    match did_you_mean(&name.value, spec.params.iter().map(|p| p.name)) {
        Some(near) => d.with_help(format!("did you mean `{near}`?")),
        None => d,
    }
}

/// The params a pack that extends another sets which the packs it extends do not declare,
/// before the two are laid over each other: `(its name, the names they do declare)`.
pub fn added_params(base: &PackFile, top: &PackFile) -> (Vec<Sp<String>>, Vec<String>) {
    let names = |file: &PackFile| -> Vec<Sp<String>> {
        let values = file.params.values.iter().map(|(k, _)| k.clone());
        values
            .chain(file.params.by_players.iter().map(|(k, _)| k.clone()))
            .collect()
    };
    let declared: Vec<String> = names(base).into_iter().map(|k| k.value).collect();
    let added = names(top)
        .into_iter()
        .filter(|k| !declared.contains(&k.value))
        .collect();
    (added, declared)
}

/// A game description declares the params it reads itself (`$name`), so no spec can say
/// which a mod may set: a param a mod adds that no file of the pack reads is a mistake
/// (a misspelt `hand_sise` silently leaves `hand_size` as it was).
pub fn unread_params(
    added: &[Sp<String>],
    declared: &[String],
    sources: &Sources,
    diags: &mut Vec<Diagnostic>,
) {
    if added.is_empty() {
        return;
    }
    let texts: Vec<String> = sources
        .iter()
        .flat_map(|(_, source)| read_texts(&source.name, &source.text))
        .collect();
    for name in added {
        if texts.iter().any(|text| reads_param(text, &name.value)) {
            continue;
        }
        let d = Diagnostic::error(
            "unknown-param",
            format!(
                "no pack this one extends declares param `{}`, and nothing reads it",
                name.value
            ),
        )
        .at(name.loc.source, name.loc.span.clone(), "unknown param");
        diags.push(
            match did_you_mean(&name.value, declared.iter().map(String::as_str)) {
                Some(near) => d.with_help(format!("did you mean `{near}`?")),
                None => d.with_help(format!(
                    "a new param is read as `${}` in the pack's conditions or description",
                    name.value
                )),
            },
        );
    }
}

/// Where a pack file can read a param: its string values (conditions, expressions,
/// descriptions), not its keys or comments (`# was $hand_size` reads nothing). A file that
/// does not parse (its own error is reported) is read whole.
fn read_texts(file: &str, text: &str) -> Vec<String> {
    fn toml_strings(v: &toml::Value, out: &mut Vec<String>) {
        match v {
            toml::Value::String(s) => out.push(s.clone()),
            toml::Value::Array(items) => items.iter().for_each(|v| toml_strings(v, out)),
            toml::Value::Table(t) => t.values().for_each(|v| toml_strings(v, out)),
            _ => {}
        }
    }
    fn ron_strings(v: &ron::Value, out: &mut Vec<String>) {
        match v {
            ron::Value::String(s) => out.push(s.clone()),
            ron::Value::Seq(items) => items.iter().for_each(|v| ron_strings(v, out)),
            ron::Value::Map(m) => m.values().for_each(|v| ron_strings(v, out)),
            ron::Value::Option(Some(v)) => ron_strings(v, out),
            _ => {}
        }
    }
    let mut out = Vec::new();
    let parsed = if file.ends_with(".toml") {
        toml::from_str::<toml::Table>(text)
            .map(|t| t.values().for_each(|v| toml_strings(v, &mut out)))
            .is_ok()
    } else if file.ends_with(".ron") {
        ron::from_str::<ron::Value>(text)
            .map(|v| ron_strings(&v, &mut out))
            .is_ok()
    } else {
        false
    };
    if !parsed {
        out = vec![text.to_string()];
    }
    out
}

/// Whether `text` holds `$name` as a whole word.
fn reads_param(text: &str, name: &str) -> bool {
    let word = |c: char| c == '_' || c.is_ascii_alphanumeric();
    text.match_indices('$').any(|(at, _)| {
        let rest = &text[at + 1..];
        rest.strip_prefix(name)
            .is_some_and(|after| !after.starts_with(word))
    })
}
