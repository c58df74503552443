//! The fourth stage: the merged [`PackFile`] → [`Pack`]. Checks everything that needs the
//! whole pack: attribute values against declarations, references between sets, declared
//! totals, and the conditions (parsed, checked, compiled, and tested for satisfiability).

use std::ops::Range;
use std::sync::Arc;

use grail_engine::cond::solve::Satisfiable;
use grail_engine::cond::universe::MAX_TYPES;
use grail_engine::cond::{
    self, Attr, CondError, Domain, ItemType, Params, Program, Type, Universe, Value,
};
use grail_engine::diag::{Diagnostic, SourceId, Sources, did_you_mean};

use crate::decode::CARD_FIELDS;
use crate::model::{
    AttrValue, BY_PLAYERS, CardDef, ConditionDef, DomainDef, Loc, PackFile, ParamValue, ParamsDef,
    SetDef, Sp, Table,
};
use crate::pack::{
    ByPlayersParam, Card, CardCondition, CardSet, Legend, NamedCondition, Override, Pack, Param,
    PlayerCountValue,
};
use crate::spec::RulesSpec;

pub struct Resolver<'a> {
    pub sources: &'a Sources,
    pub diags: &'a mut Vec<Diagnostic>,
    /// The rulebook's expectations, when known: named conditions are checked against them.
    pub spec: Option<&'a RulesSpec>,
}

/// The file `source` is when it comes from a pack the checked one extends (outside the
/// folder of the root file, the first source read): what a mod inherits.
pub fn inherited_from(sources: &Sources, source: SourceId) -> Option<&str> {
    let root = sources.get(SourceId(0)).name.as_str();
    let folder = root.rfind('/').map_or("", |i| &root[..=i]);
    let name = sources.get(source).name.as_str();
    (source != SourceId(0) && !name.starts_with(folder)).then_some(name)
}

/// A finding placed in a file the mod inherits (a rulebook's, found after loading) says so,
/// and where the mod overrides what that file says.
pub fn note_inherited(sources: &Sources, d: Diagnostic) -> Diagnostic {
    let Some(file) = d.primary().and_then(|l| inherited_from(sources, l.source)) else {
        return d;
    };
    let note = format!(
        "{file} comes from the pack yours extends: override it in your pack, {} (a card by \
         its `id`, a param under `[params]`)",
        sources.get(SourceId(0)).name
    );
    d.with_note(note)
}

impl Resolver<'_> {
    pub fn resolve(&mut self, file: PackFile, lineage: Vec<String>) -> Option<Pack> {
        let header = file.pack?;
        check_id(&header.id, "pack", self.diags);
        let loc = header.id.loc.clone();
        let rules = header.rules.map(|r| r.value);
        if rules.is_none() {
            self.error_at(
                "missing-field",
                "[pack] needs `rules` (or `extends` a pack that names them)".into(),
                &loc,
                "this pack names no rules",
            );
        }
        let players = header.players.as_ref().map(|p| (p.value.min, p.value.max));
        let default_players = header.players.as_ref().and_then(|p| p.value.default);
        if players.is_none() {
            self.error_at(
                "missing-field",
                "[pack] needs `players = { min = …, max = … }`".into(),
                &loc,
                "this pack gives no player counts",
            );
        }

        let by_players = self.by_players(&file.params, players);
        let mut params: Vec<Param> = file
            .params
            .values
            .0
            .into_iter()
            .map(|(k, v)| Param {
                name: k.value,
                value: v.value,
                loc: v.loc,
            })
            .collect();
        params.sort_by(|a, b| a.name.cmp(&b.name));
        let constants = params
            .iter()
            .fold(Params::default(), |ps, p| match p.value {
                ParamValue::Int(v) => ps.constant(&p.name, Type::Int, v),
                ParamValue::Bool(v) => ps.constant(&p.name, Type::Bool, i64::from(v)),
                ParamValue::Text(_) => ps,
            });

        let mut sets: Vec<CardSet> = file
            .sets
            .0
            .iter()
            .map(|(key, def)| self.card_set(key, def))
            .collect();
        for (i, (key, def)) in file.sets.0.iter().enumerate() {
            if let Some(factors) = &def.product {
                self.product(key, def, factors, &mut sets, i);
            }
        }
        for (i, (key, def)) in file.sets.0.iter().enumerate() {
            self.set_references(key, def, &mut sets, i, &constants);
        }
        let mut conditions: Vec<NamedCondition> = file
            .conditions
            .0
            .iter()
            .filter_map(|(key, def)| self.named_condition(key, def, &sets, &constants))
            .collect();
        conditions.sort_by(|a, b| a.name.cmp(&b.name));

        let mut pack = Pack {
            id: header.id.value.clone(),
            name: header.name.map_or(header.id.value, |n| n.value),
            description: header.description.map(|d| d.value).unwrap_or_default(),
            scoring: header.scoring.map(|d| d.value).unwrap_or_default(),
            rules: rules.unwrap_or_default(),
            players: players.unwrap_or((1, 1)),
            default_players: default_players.unwrap_or(players.map_or(1, |p| p.0)),
            lineage,
            params,
            by_players,
            sets,
            conditions,
            rulebook: file.rulebook.clone(),
            origin: crate::pack::Origin::default(),
            players_loc: header
                .players
                .as_ref()
                .map_or_else(|| loc.clone(), |p| p.loc.clone()),
            loc,
            hash: String::new(),
            sources: Arc::default(),
        };
        pack.hash = crate::hash::content_hash(&pack);
        Some(pack)
    }

    fn inherited(&self, loc: &Loc) -> Option<String> {
        inherited_from(self.sources, loc.source).map(str::to_string)
    }

    /// Says where an inherited value comes from and how the mod overrides it: which `line`
    /// to write under which `[table]` of its own root file (`verb`: "override it", ...).
    fn inherited_fix(
        &self,
        d: Diagnostic,
        loc: &Loc,
        what: &str,
        (verb, table, line): (&str, String, String),
    ) -> Diagnostic {
        let Some(file) = self.inherited(loc) else {
            return d;
        };
        let root = &self.sources.get(SourceId(0)).name;
        d.with_note(format!("{what} is inherited from {file}"))
            .with_help(format!(
                "{verb} in your pack, {root}: write `{line}` under `[{table}]`"
            ))
    }

    fn error_at(
        &mut self,
        code: &'static str,
        message: String,
        loc: &Loc,
        label: impl Into<String>,
    ) {
        self.diags
            .push(Diagnostic::error(code, message).at(loc.source, loc.span.clone(), label));
    }

    /// The params given by player count, each checked to cover every count the pack allows
    /// (unless a plain value of the same name covers the rest).
    fn by_players(&mut self, params: &ParamsDef, players: Option<(u8, u8)>) -> Vec<ByPlayersParam> {
        let mut out: Vec<ByPlayersParam> = params
            .by_players
            .iter()
            .map(|(name, counts)| {
                let mut values: Vec<PlayerCountValue> = counts
                    .0
                    .iter()
                    .filter_map(|(count, v)| {
                        Some(PlayerCountValue {
                            players: count.value.parse().ok()?,
                            value: v.value,
                            loc: count.loc.clone(),
                        })
                    })
                    .collect();
                values.sort_by_key(|v| v.players);
                ByPlayersParam {
                    name: name.value.clone(),
                    values,
                    loc: name.loc.clone(),
                }
            })
            .collect();
        out.sort_by(|a, b| a.name.cmp(&b.name));
        let Some((min, max)) = players else {
            return out;
        };
        for p in &out {
            if params.values.get(&p.name).is_some() {
                continue;
            }
            let missing: Vec<String> = (min..=max)
                .filter(|&n| p.get(n).is_none())
                .map(|n| n.to_string())
                .collect();
            if missing.is_empty() {
                continue;
            }
            let counts = missing.join(", ");
            let example = missing
                .iter()
                .map(|n| format!("{n} = …"))
                .collect::<Vec<_>>();
            self.diags.push(
                Diagnostic::error(
                    "missing-player-count",
                    format!(
                        "param `{}` gives no value for {counts} players, but the pack allows {min} to {max}",
                        p.name
                    ),
                )
                .at(p.loc.source, p.loc.span.clone(), format!("no value for {counts} players"))
                .with_help(format!(
                    "add `{}` to `{}` in [params.{BY_PLAYERS}], or narrow `players`",
                    example.join(", "),
                    p.name
                )),
            );
        }
        out
    }

    /// A set's attributes and cards, with their values checked against the declarations.
    fn card_set(&mut self, key: &Sp<String>, def: &SetDef) -> CardSet {
        check_id(key, "set", self.diags);
        let attrs = self.attributes(&def.attributes);
        // Where each attribute is declared: a range may be inherited from the base pack.
        let ranges: Vec<Loc> = def.attributes.iter().map(|(_, d)| d.loc.clone()).collect();
        let value_attr = def.value.as_ref().and_then(|v| self.value_attr(v, &attrs));
        if def.cards.len() > MAX_TYPES {
            self.diags.push(
                Diagnostic::error(
                    "too-many-types",
                    format!(
                        "set `{}` has {} card types; a set holds at most {MAX_TYPES}",
                        key.value,
                        def.cards.len()
                    ),
                )
                .at(key.loc.source, key.loc.span.clone(), "too many card types")
                .with_note("conditions compile card filters to 64-bit masks")
                .with_help("split the cards over two sets"),
            );
        }
        let mut cards = Vec::with_capacity(def.cards.len());
        let mut types = Vec::with_capacity(def.cards.len());
        for c in &def.cards {
            let values = self.card_values(c, &attrs, (&key.value, &ranges));
            types.push(ItemType {
                id: c.id.value.clone(),
                values,
            });
            cards.push(self.card(&key.value, c));
        }
        self.check_total(key, def, &cards);
        self.check_positions(key, def);
        let legend = self.legend(def, &attrs);
        CardSet {
            id: key.value.clone(),
            name: def
                .name
                .as_ref()
                .map_or_else(|| key.value.clone(), |n| n.value.clone()),
            cards,
            condition_over: def.condition_over.as_ref().map(|s| s.value.clone()),
            when_over: def
                .when_over
                .iter()
                .flatten()
                .map(|s| s.value.clone())
                .collect(),
            product: def
                .product
                .iter()
                .flatten()
                .map(|s| s.value.clone())
                .collect(),
            product_types: Vec::new(),
            product_sizes: Vec::new(),
            universe: Universe {
                attrs,
                types,
                value_attr,
            },
            legend,
            loc: key.loc.clone(),
        }
    }

    /// Fills in a product set from its factors: its universe, and one card per type whose
    /// copies count the combinations it stands for (the deck lint tests conditions against).
    fn product(
        &mut self,
        key: &Sp<String>,
        def: &SetDef,
        factors: &[Sp<String>],
        sets: &mut [CardSet],
        index: usize,
    ) {
        if !def.cards.is_empty() || !def.attributes.is_empty() {
            self.error_at(
                "invalid-product",
                format!(
                    "set `{}` is a product of other sets, so it lists no cards or attributes of its own",
                    key.value
                ),
                &key.loc,
                "a product set",
            );
            return;
        }
        if factors.is_empty() {
            self.error_at(
                "invalid-product",
                format!("set `{}` is a product of no sets", key.value),
                &key.loc,
                "`product` is empty",
            );
            return;
        }
        let mut found = Vec::with_capacity(factors.len());
        for f in factors {
            let Some(i) = self.find_set(f, sets) else {
                return;
            };
            if !sets[i].product.is_empty() || i == index {
                self.error_at(
                    "invalid-product",
                    format!(
                        "set `{}` is itself a product; a product combines sets of listed cards",
                        f.value
                    ),
                    &f.loc,
                    "a product set",
                );
                return;
            }
            if sets[i].cards.len() > MAX_TYPES {
                return; // reported where that set is declared
            }
            found.push(i);
        }
        let refs: Vec<&CardSet> = found.iter().map(|&i| &sets[i]).collect();
        let product = match crate::universe::product(&refs) {
            Ok(p) => p,
            Err((code, why)) => {
                self.error_at(code, why, &factors[0].loc, "in this product");
                return;
            }
        };
        let sizes = refs.iter().map(|s| s.cards.len()).collect();
        let set = &mut sets[index];
        set.cards = product
            .universe
            .types
            .iter()
            .zip(&product.combinations)
            .map(|(t, &n)| Card {
                id: t.id.clone(),
                name: t.id.clone(),
                copies: u8::try_from(n).unwrap_or(u8::MAX),
                points: None,
                position: None,
                condition: None,
                text: String::new(),
                overrides: Vec::new(),
                effects: Vec::new(),
                attr_locs: Vec::new(),
                loc: key.loc.clone(),
            })
            .collect();
        set.universe = product.universe;
        set.product_types = product.types_of;
        set.product_sizes = sizes;
    }

    fn attributes(&mut self, defs: &Table<Sp<DomainDef>>) -> Vec<Attr> {
        let mut attrs = Vec::with_capacity(defs.0.len());
        for (name, domain) in defs.iter() {
            let domain = match &domain.value {
                DomainDef::Range(r) => Domain::Int {
                    min: r.min,
                    max: r.max,
                },
                DomainDef::Symbols(names) => {
                    if names.is_empty() {
                        self.error_at(
                            "invalid-value",
                            format!("attribute `{}` lists no values", name.value),
                            &domain.loc,
                            "empty list",
                        );
                    } else if names.len() > usize::from(u16::MAX) {
                        self.error_at(
                            "invalid-value",
                            format!("attribute `{}` lists too many values", name.value),
                            &domain.loc,
                            "too many",
                        );
                    }
                    for (i, n) in names.iter().enumerate() {
                        if names[..i].contains(n) {
                            self.error_at(
                                "duplicate-id",
                                format!("attribute `{}` lists `{n}` twice", name.value),
                                &domain.loc,
                                "in this list",
                            );
                        }
                    }
                    Domain::Symbols(names.clone())
                }
            };
            attrs.push(Attr {
                name: name.value.clone(),
                domain,
            });
        }
        attrs
    }

    /// The set's legends, each value checked against its attribute's domain (with
    /// did-you-mean) and listed in the domain's order.
    fn legend(&mut self, def: &SetDef, attrs: &[Attr]) -> Vec<Legend> {
        let mut out = Vec::new();
        for a in attrs {
            let Some(entries) = def.legend.get(&a.name) else {
                continue;
            };
            let mut known: Vec<(usize, String, String)> = Vec::new();
            for (value, words) in entries.iter() {
                let (place, allowed) = match &a.domain {
                    Domain::Symbols(names) => (
                        names.iter().position(|n| *n == value.value),
                        format!("`{}` is one of: {}", a.name, names.join(", ")),
                    ),
                    Domain::Int { min, max } => (
                        value
                            .value
                            .parse::<i64>()
                            .ok()
                            .filter(|n| (*min..=*max).contains(n))
                            .map(|n| (n - min) as usize),
                        format!("`{}` is a whole number from {min} to {max}", a.name),
                    ),
                };
                match place {
                    Some(i) => known.push((i, value.value.clone(), words.value.clone())),
                    None => {
                        let mut d = Diagnostic::error(
                            "unknown-value",
                            format!(
                                "the legend explains `{}`, which is not a value of attribute `{}`",
                                value.value, a.name
                            ),
                        )
                        .at(
                            value.loc.source,
                            value.loc.span.clone(),
                            "unknown value",
                        );
                        let near = match &a.domain {
                            Domain::Symbols(names) => {
                                did_you_mean(&value.value, names.iter().map(String::as_str))
                            }
                            Domain::Int { .. } => None,
                        };
                        d = match near {
                            Some(near) => d.with_help(format!("did you mean `{near}`?")),
                            None => d.with_help(allowed),
                        };
                        self.diags.push(d);
                    }
                }
            }
            known.sort_by_key(|(i, _, _)| *i);
            out.push(Legend {
                attr: a.name.clone(),
                entries: known.into_iter().map(|(_, v, w)| (v, w)).collect(),
            });
        }
        for (attr, _) in def.legend.iter() {
            if attrs.iter().all(|a| a.name != attr.value) {
                let mut d = Diagnostic::error(
                    "unknown-attribute",
                    format!(
                        "the legend explains `{}`, which the set does not declare",
                        attr.value
                    ),
                )
                .at(attr.loc.source, attr.loc.span.clone(), "not an attribute");
                if let Some(near) = did_you_mean(&attr.value, attrs.iter().map(|a| a.name.as_str()))
                {
                    d = d.with_help(format!("did you mean `{near}`?"));
                }
                self.diags.push(d);
            }
        }
        out
    }

    fn value_attr(&mut self, value: &Sp<String>, attrs: &[Attr]) -> Option<usize> {
        let Some(i) = attrs.iter().position(|a| a.name == value.value) else {
            let mut d = Diagnostic::error(
                "unknown-attribute",
                format!(
                    "`value` names `{}`, which the set does not declare",
                    value.value
                ),
            )
            .at(value.loc.source, value.loc.span.clone(), "not an attribute");
            if let Some(near) = did_you_mean(&value.value, attrs.iter().map(|a| a.name.as_str())) {
                d = d.with_help(format!("did you mean `{near}`?"));
            }
            self.diags.push(d);
            return None;
        };
        if !matches!(attrs[i].domain, Domain::Int { .. }) {
            self.error_at(
                "wrong-type",
                format!(
                    "`value` must name a number attribute; `{}` is a list of names",
                    value.value
                ),
                &value.loc,
                "not a number attribute",
            );
            return None;
        }
        Some(i)
    }

    /// The card's value for each declared attribute, reporting unknown, missing and
    /// undeclared values.
    fn card_values(
        &mut self,
        card: &CardDef,
        attrs: &[Attr],
        (set, ranges): (&str, &[Loc]),
    ) -> Vec<Option<Value>> {
        for (key, _) in card.attributes.iter() {
            if attrs.iter().all(|a| a.name != key.value) {
                let names = attrs
                    .iter()
                    .map(|a| a.name.as_str())
                    .chain(CARD_FIELDS.iter().copied());
                let mut d = Diagnostic::error(
                    "unknown-attribute",
                    format!(
                        "card `{}` sets `{}`, which is neither a card field nor an attribute of its set",
                        card.id.value, key.value
                    ),
                )
                .at(key.loc.source, key.loc.span.clone(), "unknown key");
                if let Some(near) = did_you_mean(&key.value, names) {
                    d = d.with_help(format!("did you mean `{near}`?"));
                }
                self.diags.push(d);
            }
        }
        attrs
            .iter()
            .zip(ranges)
            .map(|(a, range)| match card.attributes.get(&a.name) {
                Some(v) => self.attr_value(a, v, Some((set, range))),
                None => {
                    self.diags.push(
                        Diagnostic::error(
                            "missing-attribute",
                            format!("card `{}` gives no `{}`", card.id.value, a.name),
                        )
                        .at(
                            card.id.loc.source,
                            card.id.loc.span.clone(),
                            format!("`{}` missing", a.name),
                        )
                        .with_help(format!(
                            "its set declares `{}`: {}",
                            a.name,
                            describe(&a.domain)
                        )),
                    );
                    None
                }
            })
            .collect()
    }

    /// `range`: the set and where the attribute is declared, to say how to widen an
    /// inherited range.
    fn attr_value(
        &mut self,
        attr: &Attr,
        v: &Sp<AttrValue>,
        range: Option<(&str, &Loc)>,
    ) -> Option<Value> {
        match (&attr.domain, &v.value) {
            (Domain::Symbols(names), AttrValue::Sym(s)) => {
                if let Some(i) = names.iter().position(|n| n == s) {
                    return Some(Value::Sym(i as u16));
                }
                let mut d = Diagnostic::error(
                    "unknown-value",
                    format!("`{s}` is not a value of attribute `{}`", attr.name),
                )
                .at(v.loc.source, v.loc.span.clone(), "unknown value");
                d = match did_you_mean(s, names.iter().map(String::as_str)) {
                    Some(near) => d.with_help(format!("did you mean `{near}`?")),
                    None => d.with_help(format!("`{}` is one of: {}", attr.name, names.join(", "))),
                };
                self.diags.push(d);
                None
            }
            (Domain::Int { min, max }, AttrValue::Int(n)) => {
                if (min..=max).contains(&n) {
                    return Some(Value::Int(*n));
                }
                let d = Diagnostic::error(
                    "out-of-range",
                    format!("`{}` must be from {min} to {max}, found {n}", attr.name),
                )
                .at(v.loc.source, v.loc.span.clone(), "out of range");
                let Some((set, range)) = range else {
                    self.diags.push(d);
                    return None;
                };
                let d = self.inherited_fix(
                    d,
                    range,
                    &format!("the range of `{}`", attr.name),
                    (
                        "widen the range",
                        format!("sets.{set}.attributes"),
                        format!(
                            "{} = {{ min = {}, max = {} }}",
                            attr.name,
                            (*min).min(*n),
                            (*max).max(*n)
                        ),
                    ),
                );
                self.diags.push(d);
                None
            }
            (domain, _) => {
                self.error_at(
                    "wrong-type",
                    format!("`{}` must be {}", attr.name, describe(domain)),
                    &v.loc,
                    "wrong kind of value",
                );
                None
            }
        }
    }

    fn card(&mut self, set: &str, c: &CardDef) -> Card {
        check_id(&c.id, "card", self.diags);
        let copies = c.copies.as_ref().map_or(1, |c| c.value);
        if copies == 0 {
            let at = c.copies.as_ref().map_or(&c.id.loc, |c| &c.loc);
            self.diags.push(
                Diagnostic::warning(
                    "unused-card",
                    format!("card `{}` of set `{set}` has no copies", c.id.value),
                )
                .at(at.source, at.span.clone(), "copies = 0")
                .with_help("remove the card, or give it copies"),
            );
        }
        if let Some(r) = c.remove.as_ref().filter(|r| r.value) {
            self.diags.push(
                Diagnostic::error(
                    "misplaced-remove",
                    format!(
                        "`remove` only applies in a pack that extends another, which has card `{}`",
                        c.id.value
                    ),
                )
                .at(r.loc.source, r.loc.span.clone(), "nothing to remove")
                .with_help(
                    "to leave out a card of your own pack, delete it or give it `copies = 0`; \
                     to remove a card of another pack, `extends` that pack",
                ),
            );
        }
        Card {
            id: c.id.value.clone(),
            name: c
                .name
                .as_ref()
                .map_or_else(|| c.id.value.clone(), |n| n.value.clone()),
            copies,
            points: c.points.as_ref().map(|p| p.value),
            position: c.position.as_ref().map(|p| p.value),
            condition: None,
            text: c.text.as_ref().map(|t| t.value.clone()).unwrap_or_default(),
            overrides: Vec::new(),
            effects: c.effects.clone().unwrap_or_default(),
            attr_locs: c
                .attributes
                .iter()
                .map(|(key, value)| (key.value.clone(), value.loc.clone()))
                .collect(),
            loc: c.id.loc.clone(),
        }
    }

    /// Where a set's cards give positions, every card gives one and they are 0 to n − 1,
    /// each once: an order with no gap and no tie.
    fn check_positions(&mut self, key: &Sp<String>, def: &SetDef) {
        if def.cards.iter().all(|c| c.position.is_none()) {
            return;
        }
        let n = def.cards.len();
        let mut first: Vec<Option<&CardDef>> = vec![None; n];
        for c in &def.cards {
            let Some(p) = &c.position else {
                self.error_at(
                    "missing-position",
                    format!(
                        "card `{}` of set `{}` has no position, but other cards of the set do",
                        c.id.value, key.value
                    ),
                    &c.id.loc,
                    "no `position`",
                );
                continue;
            };
            match first.get(usize::from(p.value)) {
                None => self.error_at(
                    "invalid-position",
                    format!(
                        "card `{}` has position {}, but set `{}` has {n} cards: positions go from 0 to {}",
                        c.id.value,
                        p.value,
                        key.value,
                        n - 1
                    ),
                    &p.loc,
                    "past the last card",
                ),
                Some(Some(other)) => {
                    let at = other.position.as_ref().map_or(&other.id.loc, |p| &p.loc);
                    self.diags.push(
                        Diagnostic::error(
                            "duplicate-position",
                            format!(
                                "cards `{}` and `{}` of set `{}` both have position {}",
                                other.id.value, c.id.value, key.value, p.value
                            ),
                        )
                        .at(p.loc.source, p.loc.span.clone(), "given again here")
                        .also(at.source, at.span.clone(), "first given here")
                        .with_help(format!(
                            "positions go from 0 to {}, one per card",
                            n - 1
                        )),
                    );
                }
                Some(None) => first[usize::from(p.value)] = Some(c),
            }
        }
        let missing: Vec<String> = (0..n)
            .filter(|&i| first[i].is_none())
            .map(|i| i.to_string())
            .collect();
        let gave_all = def.cards.iter().all(|c| c.position.is_some());
        if gave_all && !missing.is_empty() {
            self.diags.push(
                Diagnostic::error(
                    "missing-position",
                    format!(
                        "no card of set `{}` has position {}: its {n} cards need positions 0 to {}, each once",
                        key.value,
                        missing.join(", "),
                        n - 1
                    ),
                )
                .at(key.loc.source, key.loc.span.clone(), "in this set"),
            );
        }
    }

    fn check_total(&mut self, key: &Sp<String>, def: &SetDef, cards: &[Card]) {
        let Some(total) = &def.total else { return };
        let listed: u32 = cards.iter().map(|c| u32::from(c.copies)).sum();
        if listed == total.value {
            return;
        }
        let breakdown = cards
            .iter()
            .map(|c| format!("{} ×{}", c.id, c.copies))
            .collect::<Vec<_>>()
            .join(" + ");
        let d = Diagnostic::error(
            "total-mismatch",
            format!(
                "set `{}` declares {} cards but lists {listed}",
                key.value, total.value
            ),
        )
        .at(
            total.loc.source,
            total.loc.span.clone(),
            format!("declared {}", total.value),
        )
        .with_note(format!("{breakdown} = {listed}"));
        let fix = (
            "override it",
            format!("sets.{}", key.value),
            format!("total = {listed}"),
        );
        let d = self.inherited_fix(d, &total.loc, "this total", fix);
        self.diags.push(d);
    }

    /// `condition_over` and `when_over`, and the card conditions and overrides over them.
    fn set_references(
        &mut self,
        key: &Sp<String>,
        def: &SetDef,
        sets: &mut [CardSet],
        index: usize,
        constants: &Params,
    ) {
        let condition_universe = def.condition_over.as_ref().and_then(|over| {
            let i = self.find_set(over, sets)?;
            // An oversized set is reported once, where it is declared.
            if sets[i].cards.len() > MAX_TYPES {
                return None;
            }
            Some((sets[i].universe.clone(), sets[i].deck(), sets[i].id.clone()))
        });
        let when_universe = def.when_over.as_ref().and_then(|over| {
            let found: Vec<usize> = over.iter().filter_map(|o| self.find_set(o, sets)).collect();
            if found.len() < over.len() {
                return None;
            }
            let refs: Vec<&CardSet> = found.iter().map(|&i| &sets[i]).collect();
            if refs.iter().any(|s| s.cards.len() > MAX_TYPES) {
                return None;
            }
            match crate::universe::union(&refs) {
                Ok(u) => {
                    let deck = refs.iter().flat_map(|s| s.deck()).collect::<Vec<u8>>();
                    Some((u, deck))
                }
                Err(why) => {
                    let first = &over[0].loc;
                    self.error_at("incompatible-sets", why, first, "in this list");
                    None
                }
            }
        });
        if sets[index].cards.len() > MAX_TYPES {
            return;
        }
        for (ci, c) in def.cards.iter().enumerate() {
            if let Some(text) = &c.condition {
                let Some((u, deck, over)) = &condition_universe else {
                    if def.condition_over.is_none() {
                        self.error_at(
                            "missing-field",
                            format!(
                                "card `{}` has a condition, but set `{}` declares no `condition_over`",
                                c.id.value, key.value
                            ),
                            &text.loc,
                            "over which set?",
                        );
                    }
                    continue;
                };
                let what = format!("the condition of card `{}`", c.id.value);
                let program = self.compile(
                    text,
                    u,
                    constants,
                    Some(Type::Bool),
                    Some((deck, &sets_phrase(over))),
                    &what,
                );
                sets[index].cards[ci].condition = program.map(|program| CardCondition {
                    text: text.value.clone(),
                    program,
                    loc: text.loc.clone(),
                });
            }
            for o in c.overrides.iter().flatten() {
                let Some((u, deck)) = &when_universe else {
                    if def.when_over.is_none() {
                        self.error_at(
                            "missing-field",
                            format!(
                                "card `{}` has overrides, but set `{}` declares no `when_over`",
                                c.id.value, key.value
                            ),
                            &o.when.loc,
                            "over which sets?",
                        );
                    }
                    continue;
                };
                let what = format!("the `when` of an override of card `{}`", c.id.value);
                let over = def
                    .when_over
                    .iter()
                    .flatten()
                    .map(|s| s.value.as_str())
                    .collect::<Vec<_>>()
                    .join(" + ");
                let program = self.compile(
                    &o.when,
                    u,
                    constants,
                    Some(Type::Bool),
                    Some((deck, &sets_phrase(&over))),
                    &what,
                );
                let attrs = sets[index].universe.attrs.clone();
                let mut values = Vec::new();
                for (name, v) in o.values.iter() {
                    match attrs.iter().position(|a| a.name == name.value) {
                        Some(ai) => {
                            if let Some(v) = self.attr_value(&attrs[ai], v, None) {
                                values.push((ai, v));
                            }
                        }
                        None => {
                            let mut d = Diagnostic::error(
                                "unknown-attribute",
                                format!(
                                    "an override of card `{}` sets `{}`, which set `{}` does not declare",
                                    c.id.value, name.value, key.value
                                ),
                            )
                            .at(name.loc.source, name.loc.span.clone(), "not an attribute");
                            if let Some(near) =
                                did_you_mean(&name.value, attrs.iter().map(|a| a.name.as_str()))
                            {
                                d = d.with_help(format!("did you mean `{near}`?"));
                            }
                            self.diags.push(d);
                        }
                    }
                }
                if let Some(program) = program {
                    sets[index].cards[ci].overrides.push(Override {
                        when: CardCondition {
                            text: o.when.value.clone(),
                            program,
                            loc: o.when.loc.clone(),
                        },
                        values,
                    });
                }
            }
        }
    }

    fn find_set(&mut self, id: &Sp<String>, sets: &[CardSet]) -> Option<usize> {
        let found = sets.iter().position(|s| s.id == id.value);
        if found.is_none() {
            let mut d = Diagnostic::error("unknown-set", format!("there is no set `{}`", id.value))
                .at(id.loc.source, id.loc.span.clone(), "unknown set");
            d = match did_you_mean(&id.value, sets.iter().map(|s| s.id.as_str())) {
                Some(near) => d.with_help(format!("did you mean `{near}`?")),
                None => d.with_help(format!(
                    "the pack's sets are: {}",
                    sets.iter()
                        .map(|s| s.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            };
            self.diags.push(d);
        }
        found
    }

    fn named_condition(
        &mut self,
        key: &Sp<String>,
        def: &ConditionDef,
        sets: &[CardSet],
        constants: &Params,
    ) -> Option<NamedCondition> {
        let found: Vec<usize> = def
            .over
            .iter()
            .filter_map(|o| self.find_set(o, sets))
            .collect();
        if found.len() < def.over.len() {
            return None;
        }
        if found.is_empty() {
            self.error_at(
                "missing-field",
                format!("condition `{}` ranges over no set", key.value),
                &key.loc,
                "`over` is empty",
            );
            return None;
        }
        let refs: Vec<&CardSet> = found.iter().map(|&i| &sets[i]).collect();
        if refs.iter().any(|s| s.cards.len() > MAX_TYPES) {
            return None;
        }
        let universe = match crate::universe::union(&refs) {
            Ok(u) => u,
            Err(why) => {
                self.error_at("incompatible-sets", why, &def.over[0].loc, "in this list");
                return None;
            }
        };
        let mut params = constants.clone();
        for a in &def.args {
            if params.get(&a.value).is_some() {
                self.error_at(
                    "duplicate-id",
                    format!(
                        "argument `{}` of condition `{}` has the name of a pack param or another argument",
                        a.value, key.value
                    ),
                    &a.loc,
                    "name taken",
                );
            }
            params = params.argument(&a.value, Type::Int);
        }
        let expected = self.spec.and_then(|s| {
            s.conditions
                .iter()
                .find(|c| c.name == key.value)
                .map(|c| c.ty)
        });
        let deck: Vec<u8> = refs.iter().flat_map(|s| s.deck()).collect();
        let over = def
            .over
            .iter()
            .map(|s| s.value.as_str())
            .collect::<Vec<_>>()
            .join(" + ");
        let what = format!("condition `{}`", key.value);
        let over = sets_phrase(&over);
        let unsat_check = def.args.is_empty().then_some((&deck, over.as_str()));
        let (program, ty) =
            self.compile_typed(&def.expr, &universe, &params, expected, unsat_check, &what)?;
        Some(NamedCondition {
            name: key.value.clone(),
            over: def.over.iter().map(|s| s.value.clone()).collect(),
            args: def.args.iter().map(|s| s.value.clone()).collect(),
            expr: def.expr.value.clone(),
            text: def.text.as_ref().map(|t| t.value.clone()),
            ty,
            program,
            universe,
            loc: key.loc.clone(),
        })
    }

    fn compile(
        &mut self,
        text: &Sp<String>,
        universe: &Universe,
        params: &Params,
        expected: Option<Type>,
        deck: Option<(&Vec<u8>, &str)>,
        what: &str,
    ) -> Option<Program> {
        self.compile_typed(text, universe, params, expected, deck, what)
            .map(|(p, _)| p)
    }

    /// Parses, checks and compiles a condition; if it is boolean and `deck` is given, also
    /// checks that some sub-multiset of the deck meets it.
    fn compile_typed(
        &mut self,
        text: &Sp<String>,
        universe: &Universe,
        params: &Params,
        expected: Option<Type>,
        deck: Option<(&Vec<u8>, &str)>,
        what: &str,
    ) -> Option<(Program, Type)> {
        let expr = match cond::parse(&text.value) {
            Ok(e) => e,
            Err(e) => {
                self.cond_error(text, &e);
                return None;
            }
        };
        let checked = match cond::check(&expr, universe, params) {
            Ok(c) => c,
            Err(errors) => {
                for e in &errors {
                    self.cond_error(text, e);
                }
                return None;
            }
        };
        if let Some(want) = expected.filter(|&t| t != checked.ty) {
            let (is, should) = match want {
                Type::Bool => ("a number", "a condition (true or false)"),
                Type::Int => ("a condition", "a number expression"),
            };
            self.error_at(
                "condition-type",
                format!("{what} is {is}, but must be {should}"),
                &text.loc,
                format!("this is {is}"),
            );
            return None;
        }
        let program = cond::compile(&checked, universe);
        if let (Type::Bool, Some((deck, over))) = (checked.ty, deck) {
            let decision = cond::solve::satisfiable(&program, &text.value, deck, &[]);
            match decision.answer {
                Satisfiable::Never(why) => self.diags.push(
                    Diagnostic::error(
                        "unsatisfiable",
                        format!("{what} can never be met by the cards of {over}"),
                    )
                    .at(text.loc.source, text.loc.span.clone(), "never true")
                    .with_note(why),
                ),
                // Never a silent pass: say the check could not tell.
                Satisfiable::GaveUp => self.diags.push(
                    Diagnostic::warning(
                        "could-not-decide",
                        format!(
                            "could not decide whether any subset of the cards of {over} can \
                             meet {what} (the search gave up after {} steps)",
                            decision.steps
                        ),
                    )
                    .at(text.loc.source, text.loc.span.clone(), "not checked")
                    .with_help(
                        "a condition that grows or shrinks as cards are added (`count(…) >= n`, \
                         `sum(…) <= n`) is decided at once; products and exact counts of \
                         `distinct(…)` or `cards(…)` may take a search too large to finish",
                    ),
                ),
                Satisfiable::Yes | Satisfiable::NeedsArguments => {}
            }
        }
        Some((program, checked.ty))
    }

    fn cond_error(&mut self, text: &Sp<String>, e: &CondError) {
        let span = cond_span(self.sources, &text.loc, &text.value, e.span.clone());
        let mut d =
            Diagnostic::error(e.code, e.message.clone()).at(text.loc.source, span, e.label.clone());
        if let Some(help) = &e.help {
            d = d.with_help(help.clone());
        }
        self.diags.push(d);
    }
}

/// The span in the file of `inner`, a span in a condition string. Exact when the string
/// literal's text equals its value (no escapes); otherwise the whole literal.
pub fn cond_span(sources: &Sources, loc: &Loc, value: &str, inner: Range<usize>) -> Range<usize> {
    let text = &sources.get(loc.source).text;
    let literal = text.get(loc.span.clone()).unwrap_or("");
    match content_offset(literal, value) {
        Some(offset) => {
            let start = loc.span.start + offset;
            let end = (start + value.len()).max(start);
            (start + inner.start).min(end)..(start + inner.end).min(end)
        }
        None => loc.span.clone(),
    }
}

/// Where `value` starts inside `literal` when the literal spells it out verbatim.
fn content_offset(literal: &str, value: &str) -> Option<usize> {
    let raw_hashes = literal
        .strip_prefix('r')
        .map(|r| r.len() - r.trim_start_matches('#').len());
    let (open, close) = match raw_hashes {
        Some(h) => (
            format!("r{}\"", "#".repeat(h)),
            format!("\"{}", "#".repeat(h)),
        ),
        None => ["\"\"\"", "'''", "\"", "'"]
            .iter()
            .find(|d| literal.len() >= 2 * d.len() && literal.starts_with(*d))
            .map(|d| (d.to_string(), d.to_string()))?,
    };
    let inner = literal.strip_prefix(&open)?.strip_suffix(&close)?;
    // A newline right after a multi-line opener is not part of the value.
    let (inner, skipped) = match inner.strip_prefix("\r\n").or(inner.strip_prefix('\n')) {
        Some(rest) if open.len() == 3 => (rest, inner.len() - rest.len()),
        _ => (inner, 0),
    };
    (inner == value).then_some(open.len() + skipped)
}

/// `"a + b"` → "sets `a` + `b`"; `"a"` → "set `a`".
fn sets_phrase(over: &str) -> String {
    let ids: Vec<String> = over.split(" + ").map(|s| format!("`{s}`")).collect();
    match ids.len() {
        1 => format!("set {}", ids[0]),
        _ => format!("sets {}", ids.join(" + ")),
    }
}

fn describe(domain: &Domain) -> String {
    match domain {
        Domain::Symbols(names) => format!("one of {}", names.join(", ")),
        Domain::Int { min, max } => format!("a whole number from {min} to {max}"),
    }
}

/// Pack, set and card ids are kebab-case: lowercase letters and digits, joined by `-`.
fn check_id(id: &Sp<String>, what: &str, diags: &mut Vec<Diagnostic>) {
    let ok = !id.value.is_empty()
        && id.value.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        });
    if !ok {
        diags.push(
            Diagnostic::error(
                "invalid-id",
                format!("{what} id `{}` is not kebab-case", id.value),
            )
            .at(id.loc.source, id.loc.span.clone(), "not kebab-case")
            .with_help("use lowercase letters and digits joined by `-`, like `red-5`"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::content_offset;

    #[test]
    fn finds_condition_text_in_literals() {
        assert_eq!(content_offset(r#""sum(*) >= 5""#, "sum(*) >= 5"), Some(1));
        assert_eq!(content_offset("'a'", "a"), Some(1));
        assert_eq!(content_offset("\"\"\"\nab\"\"\"", "ab"), Some(4));
        assert_eq!(content_offset(r##"r#"x"#"##, "x"), Some(3));
        // An escape changes the text: no exact mapping.
        assert_eq!(content_offset(r#""a\u0062""#, "ab"), None);
    }
}
