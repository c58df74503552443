//! The second stage: [`Node`] tree → [`PackFile`]. Checks the shape of each file on its own:
//! known keys (with did-you-mean), value types and ranges, required fields. Reports every
//! problem it finds and keeps going, so one run shows them all.
//!
//! Card tables are open: keys that are not card fields are attribute values, checked later
//! against the set's declarations (which may live in another file or in the base pack).

use std::ops::Range;

use grail_engine::diag::{Diagnostic, SourceId, did_you_mean, is_bidi_control};

use crate::model::{
    ActionDef, AttrValue, BY_PLAYERS, BotDef, ByPlayers, CardDef, CheckDef, ChooseDef,
    ConditionDef, CounterDef, DomainDef, EffectDef, EndDef, EndingDef, FigureDef, IntRange, Layout,
    Loc, OverrideDef, PackFile, PackHeader, ParamValue, ParamsDef, PayDef, Players, RoleDef,
    RulebookDef, SetDef, SetupDef, Sp, StageDef, StartAll, StepDef, Table, TableListing,
    Visibility, ZoneDef, ZoneOwner, ZoneStart,
};
use crate::node::{Entry, Node, NodeKind};

/// Decodes one file. Fields that fail to decode are left out, with a diagnostic.
pub fn pack_file(source: SourceId, node: &Node, diags: &mut Vec<Diagnostic>) -> PackFile {
    let mut dec = Decoder { source, diags };
    dec.no_control_characters(node, "the file");
    let Some(mut f) = dec.fields(node, "the file") else {
        return PackFile::default();
    };
    let pack = f.node("pack").and_then(|n| header(f.dec, n));
    let params = f
        .node("params")
        .map(|n| params(f.dec, n))
        .unwrap_or_default();
    let sets = f.table("sets", |dec, _, n| set(dec, n));
    let conditions = f.table("conditions", |dec, _, n| condition(dec, n));
    let rulebook = rulebook(&mut f);
    f.finish();
    PackFile {
        pack,
        params,
        sets,
        conditions,
        rulebook,
    }
}

/// The largest magnitude of any number a pack declares (points, attribute values and
/// ranges, params). No game needs more, and it keeps every sum the engine forms of them
/// (255 copies of 64 card types, a score over a long game) far inside `i64`, so no
/// arithmetic on pack numbers can wrap.
pub const MAX_NUMBER: i64 = 1_000_000_000;

/// The card fields that are not attribute values, for did-you-mean on unknown card keys.
pub const CARD_FIELDS: &[&str] = &[
    "id",
    "name",
    "copies",
    "points",
    "position",
    "condition",
    "text",
    "overrides",
    "effects",
    "remove",
];

fn header(dec: &mut Decoder, node: &Node) -> Option<PackHeader> {
    let mut f = dec.fields(node, "[pack]")?;
    let id = f.required_str("id");
    let name = f.str("name");
    let rules = f.str("rules");
    let players = f.node("players").and_then(|n| players(f.dec, n));
    let description = f.str("description");
    let scoring = f.str("scoring");
    let include = f.strs("include");
    let extends = f.str("extends");
    f.finish();
    Some(PackHeader {
        id: id?,
        name,
        rules,
        players,
        description,
        scoring,
        include,
        extends,
    })
}

fn players(dec: &mut Decoder, node: &Node) -> Option<Sp<Players>> {
    let mut f = dec.fields(node, "`players`")?;
    let min = f.required_int("min", 1, 255);
    let max = f.required_int("max", 1, 255);
    let default = f.int("default", 1, 255).map(|d| d.value as u8);
    f.finish();
    let (min, max) = (min?.value as u8, max?.value as u8);
    if min > max {
        dec.error(
            "invalid-value",
            format!("`players` goes from {min} to {max}: the minimum is above the maximum"),
            node.span.clone(),
            "min > max",
        );
        return None;
    }
    let default = match default {
        Some(d) if !(min..=max).contains(&d) => {
            dec.error(
                "invalid-value",
                format!("`players` defaults to {d}, outside {min} to {max}"),
                node.span.clone(),
                "default outside min..=max",
            );
            None
        }
        d => d,
    };
    Some(Sp::new(Players { min, max, default }, dec.loc(node)))
}

/// `[params]`: plain values, and `[params.by-players]`.
fn params(dec: &mut Decoder, node: &Node) -> ParamsDef {
    let Some(mut f) = dec.fields(node, "[params]") else {
        return ParamsDef::default();
    };
    let by_players = f.table(BY_PLAYERS, by_players);
    let values = f.rest(|dec, key, n| dec.param(key, n));
    ParamsDef { by_players, values }
}

/// One param of `[params.by-players]`: a table from player counts to integers. Each key is
/// kept in its plain decimal form, so `05` and `5` are one count when packs are merged.
fn by_players(dec: &mut Decoder, name: &str, node: &Node) -> Option<ByPlayers> {
    let NodeKind::Table(entries) = &node.kind else {
        dec.wrong_type(
            node,
            &format!("param `{name}` in [params.{BY_PLAYERS}]"),
            "a table of values by player count (`{ 2 = 6, 3 = 5 }`)",
        );
        return None;
    };
    let mut out: Vec<(Sp<String>, Sp<i64>)> = Vec::with_capacity(entries.len());
    for e in entries {
        let Some(count) = e.key.parse::<u8>().ok().filter(|&c| c >= 1) else {
            dec.diags.push(
                Diagnostic::error(
                    "invalid-player-count",
                    format!(
                        "`{}` is not a player count: the keys of `{name}` in [params.{BY_PLAYERS}] are numbers of players from 1 to 255",
                        e.key
                    ),
                )
                .at(dec.source, e.key_span.clone(), "not a player count")
                .with_help("write the value for two players as `2 = …`"),
            );
            continue;
        };
        let key = Sp::new(
            count.to_string(),
            Loc {
                source: dec.source,
                span: e.key_span.clone(),
            },
        );
        if let Some((first, _)) = out.iter().find(|(k, _)| k.value == key.value) {
            dec.diags.push(
                Diagnostic::error(
                    "duplicate-id",
                    format!("`{name}` gives a value for {count} players twice"),
                )
                .at(dec.source, e.key_span.clone(), "given again here")
                .also(first.loc.source, first.loc.span.clone(), "first given here"),
            );
            continue;
        }
        let what = format!("{name}.{count}");
        if let Some(v) = dec.int(&e.value, &what, -MAX_NUMBER, MAX_NUMBER) {
            out.push((key, v));
        }
    }
    Some(ByPlayers(Table(out)))
}

fn set(dec: &mut Decoder, node: &Node) -> Option<SetDef> {
    let mut f = dec.fields(node, "a set")?;
    let name = f.str("name");
    let total = f.int("total", 0, i64::from(u32::MAX));
    let value = f.str("value");
    let condition_over = f.str("condition_over");
    let when_over = f.node("when_over").map(|n| f.dec.strs(n, "when_over"));
    let product = f.node("product").map(|n| f.dec.strs(n, "product"));
    let attributes = f.table("attributes", |dec, _, n| domain(dec, n));
    let legend = f.table("legend", legend);
    let cards = f.array("cards", card);
    f.finish();
    Some(SetDef {
        name,
        total: total.map(|t| Sp::new(t.value as u32, t.loc)),
        value,
        condition_over,
        when_over,
        product,
        attributes,
        legend,
        cards: cards.unwrap_or_default(),
    })
}

fn domain(dec: &mut Decoder, node: &Node) -> Option<Sp<DomainDef>> {
    let loc = dec.loc(node);
    match &node.kind {
        NodeKind::Array(_) => {
            let names = dec.strs(node, "an attribute's list of names");
            let names = names.into_iter().map(|s| s.value).collect();
            Some(Sp::new(DomainDef::Symbols(names), loc))
        }
        NodeKind::Table(_) => {
            let mut f = dec.fields(node, "an attribute range")?;
            let min = f.required_int("min", -MAX_NUMBER, MAX_NUMBER);
            let max = f.required_int("max", -MAX_NUMBER, MAX_NUMBER);
            f.finish();
            let (min, max) = (min?.value, max?.value);
            if min > max {
                dec.error(
                    "invalid-value",
                    format!("the range {min}..{max} is empty"),
                    node.span.clone(),
                    "min > max",
                );
                return None;
            }
            Some(Sp::new(DomainDef::Range(IntRange { min, max }), loc))
        }
        _ => {
            dec.wrong_type(
                node,
                "an attribute declaration",
                "a list of names or `{ min = …, max = … }`",
            );
            None
        }
    }
}

/// One attribute's legend: its values, each with words (checked against the attribute's
/// domain once the set is merged).
fn legend(dec: &mut Decoder, attr: &str, node: &Node) -> Option<Table<Sp<String>>> {
    let NodeKind::Table(entries) = &node.kind else {
        dec.wrong_type(
            node,
            &format!("the legend of `{attr}`"),
            "a table of values and what they mean (`{ red = \"dragons\" }`)",
        );
        return None;
    };
    let mut out = Vec::with_capacity(entries.len());
    for e in entries {
        let NodeKind::Str(words) = &e.value.kind else {
            dec.wrong_type(
                &e.value,
                &format!("`{}` in the legend of `{attr}`", e.key),
                "a string",
            );
            continue;
        };
        let key = Sp::new(
            e.key.clone(),
            Loc {
                source: dec.source,
                span: e.key_span.clone(),
            },
        );
        out.push((key, Sp::new(words.clone(), dec.loc(&e.value))));
    }
    Some(Table(out))
}

fn card(dec: &mut Decoder, node: &Node) -> Option<CardDef> {
    let mut f = dec.fields(node, "a card")?;
    let id = f.required_str("id");
    let name = f.str("name");
    let copies = f.int("copies", 0, 255);
    let points = f.int("points", -MAX_NUMBER, MAX_NUMBER);
    let position = f.int("position", 0, 255);
    let condition = f.str("condition");
    let text = f.str("text");
    let overrides = f.array("overrides", override_def);
    let effects = f.array("effects", effect);
    let remove = f.bool("remove");
    debug_assert_eq!(f.known, CARD_FIELDS);
    let attributes = f.rest(|dec, key, n| dec.attr_value(key, n));
    Some(CardDef {
        id: id?,
        name,
        copies: copies.map(|c| Sp::new(c.value as u8, c.loc)),
        points,
        position: position.map(|p| Sp::new(p.value as u8, p.loc)),
        condition,
        text,
        overrides,
        effects,
        remove,
        attributes,
    })
}

fn override_def(dec: &mut Decoder, node: &Node) -> Option<OverrideDef> {
    let mut f = dec.fields(node, "an override")?;
    let when = f.required_str("when");
    let values = f.rest(|dec, key, n| dec.attr_value(key, n));
    Some(OverrideDef {
        when: when?,
        values,
    })
}

fn effect(dec: &mut Decoder, node: &Node) -> Option<EffectDef> {
    let mut f = dec.fields(node, "an effect")?;
    let kind = f.required_str("kind");
    let fields = f.rest(|_, _, n| Some(n.clone()));
    Some(EffectDef {
        kind: kind?,
        fields,
    })
}

fn condition(dec: &mut Decoder, node: &Node) -> Option<ConditionDef> {
    let mut f = dec.fields(node, "a named condition")?;
    let over = match f.node("over") {
        Some(n) if matches!(n.kind, NodeKind::Array(_)) => Some(f.dec.strs(n, "over")),
        Some(n) => f.dec.str(n, "over").map(|s| vec![s]),
        None => {
            f.missing("over");
            None
        }
    };
    let args = f.strs("args");
    let expr = f.required_str("expr");
    let text = f.str("text");
    f.finish();
    Some(ConditionDef {
        over: over?,
        args,
        expr: expr?,
        text,
    })
}

/// The game description's tables (`docs/design/rulebook.md`), all closed.
fn rulebook(f: &mut Fields<'_, '_, '_>) -> RulebookDef {
    let zones = f.table("zones", |dec, _, n| zone(dec, n));
    let setup = f.node("setup").and_then(|n| {
        let mut f = f.dec.fields(n, "[setup]")?;
        let effects = f.required_str("do");
        f.finish();
        Some(SetupDef { effects: effects? })
    });
    let stages = f.table("stages", |dec, _, n| {
        let mut f = dec.fields(n, "a stage")?;
        let steps = f.required_strs("steps");
        let rounds = f.number_str("rounds");
        let first = f.str("first");
        let order = f.str("order");
        let next = f.str("next");
        let repeat = f.str("repeat");
        f.finish();
        Some(StageDef {
            steps: steps?,
            rounds,
            first,
            order,
            next,
            repeat,
        })
    });
    let steps = f.table("steps", |dec, _, n| {
        let mut f = dec.fields(n, "a step")?;
        let actions = f.strs("actions");
        let optional = f.bool("optional");
        let pass = f.str("pass");
        let prompt = f.str("prompt");
        let by_card = f.bool("by_card");
        let repeat = f.number_str("repeat");
        let auto = f.bool("auto");
        let who = f.str("who");
        let keep = f.str("keep");
        let dispatch = f.str("dispatch");
        let stages = f.table("stages", |dec, _, n| dec.str(n, "a stage"));
        f.finish();
        Some(StepDef {
            actions,
            optional,
            pass,
            prompt,
            by_card,
            repeat,
            auto,
            who,
            keep,
            dispatch,
            stages,
        })
    });
    let actions = f.table("actions", |dec, _, n| {
        let mut f = dec.fields(n, "an action")?;
        let card = f.str("card");
        let row = f.str("row");
        let seat = f.str("seat");
        let target = f.str("target");
        let number = f.str("number");
        let figure = f.str("figure");
        let steps = f.str("steps");
        let verb = f.str("verb");
        let before_card = f.str("before_card");
        let guard = f.str("if");
        let effects = f.required_str("do");
        let pay = f.node("pay").and_then(|n| {
            let mut p = f.dec.fields(n, "a payment")?;
            let from = p.required_str("from");
            let meets = p.required_str("meets");
            let args = p.strs("args");
            let to = p.required_str("to");
            p.finish();
            Some(PayDef {
                from: from?,
                meets: meets?,
                args,
                to: to?,
            })
        });
        let choose = f.node("choose").and_then(|n| {
            let mut p = f.dec.fields(n, "a choice of figures")?;
            let figures = p.required_str("figures");
            let over = p.required_str("over");
            let meets = p.required_str("meets");
            let verb = p.str("verb");
            let name = p.str("name");
            p.finish();
            Some(ChooseDef {
                figures: figures?,
                over: over?,
                meets: meets?,
                verb,
                name,
            })
        });
        let why = f.str("why");
        let missing = f.str("missing");
        let standing = f.str("standing");
        let help = f.str("help");
        f.finish();
        Some(ActionDef {
            card,
            row,
            seat,
            target,
            number,
            figure,
            steps,
            verb,
            before_card,
            guard,
            effects: effects?,
            pay,
            choose,
            why,
            missing,
            standing,
            help,
        })
    });
    let end = f.node("end").and_then(|n| {
        let mut f = f.dec.fields(n, "[end]")?;
        let when = f.required_str("when");
        let reason = f.str("reason");
        let score = f.required_str("score");
        let now = f.str("now");
        let now_reason = f.str("now_reason");
        let tiebreak = f.str("tiebreak");
        let help = f.str("help");
        let parts = f.strs("parts");
        f.finish();
        Some(EndDef {
            when: when?,
            reason,
            score: score?,
            now,
            now_reason,
            tiebreak,
            help,
            parts,
        })
    });
    let bot = f.node("bot").and_then(|n| {
        let mut f = f.dec.fields(n, "[bot]")?;
        let worth = f.required_str("worth");
        f.finish();
        Some(BotDef { worth: worth? })
    });
    let queries = f.table("queries", |dec, _, n| dec.str(n, "a query"));
    let expressions = f.table("expressions", |dec, _, n| dec.str(n, "an expression"));
    let texts = f.table("texts", |dec, _, n| dec.str(n, "a text"));
    let figures = f.table("figures", |dec, _, n| figure(dec, n));
    let roles = f.table("roles", |dec, _, n| {
        let mut f = dec.fields(n, "a role")?;
        let holds = f.str("holds");
        // A figure's role names the figure; a card's, the card.
        let (figure, start) = match holds {
            Some(_) => (f.str("figure"), f.str("start")),
            None => {
                f.what = "a role of a figure (a role of a card's holder names `holds`)";
                (f.required_str("figure"), f.required_str("start"))
            }
        };
        let tally = f.str("tally");
        f.finish();
        if holds.is_none() && (figure.is_none() || start.is_none()) {
            return None;
        }
        Some(RoleDef {
            figure,
            start,
            holds,
            tally,
        })
    });
    let counters = f.table("counters", |dec, _, n| {
        let mut f = dec.fields(n, "a counter")?;
        let owner = f.choice(
            "owner",
            &[("table", ZoneOwner::Table), ("each", ZoneOwner::Each)],
        );
        let start = f.number_str("start");
        let climbs = f.str("climbs");
        let needs = f.number_strs("needs");
        let names = f.strs("names");
        let table = f.choice("table", TABLE_LISTINGS);
        f.finish();
        Some(CounterDef {
            owner,
            start,
            climbs,
            needs,
            names,
            table,
        })
    });
    let endings = f.table("endings", |dec, _, n| {
        let mut f = dec.fields(n, "an ending")?;
        let when = f.required_str("when");
        let now = f.bool("now");
        let winners = f.str("winners");
        let score = f.str("score");
        f.finish();
        Some(EndingDef {
            when: when?,
            now,
            winners,
            score,
        })
    });
    let checks = f.table("checks", |dec, _, n| {
        let mut f = dec.fields(n, "a check")?;
        let at = f.required_str("at");
        let holds = f.required_str("holds");
        let says = f.required_str("says");
        f.finish();
        Some(CheckDef {
            at: at?,
            holds: holds?,
            says: says?,
        })
    });
    let dec = &mut *f.dec;
    let named = [
        ("zone", zones.0.iter().map(|(k, _)| k).collect::<Vec<_>>()),
        ("stage", stages.0.iter().map(|(k, _)| k).collect()),
        ("step", steps.0.iter().map(|(k, _)| k).collect()),
        ("figure kind", figures.0.iter().map(|(k, _)| k).collect()),
        ("role", roles.0.iter().map(|(k, _)| k).collect()),
        ("counter", counters.0.iter().map(|(k, _)| k).collect()),
        ("check", checks.0.iter().map(|(k, _)| k).collect()),
        ("ending", endings.0.iter().map(|(k, _)| k).collect()),
    ];
    for (what, keys) in named {
        for key in keys {
            dec.name(what, key, false);
        }
    }
    for (key, def) in actions.0.iter() {
        dec.name("action", key, true);
        if let Some(verb) = &def.verb {
            dec.name("verb", verb, true);
        }
    }
    RulebookDef {
        checks,
        counters,
        zones,
        setup,
        stages,
        steps,
        actions,
        end,
        endings,
        bot,
        queries,
        expressions,
        texts,
        figures,
        roles,
    }
}

fn figure(dec: &mut Decoder, node: &Node) -> Option<FigureDef> {
    let mut f = dec.fields(node, "a figure")?;
    let on = f.required_str("on");
    let owner = f.choice(
        "owner",
        &[("table", ZoneOwner::Table), ("each", ZoneOwner::Each)],
    );
    let count = f.number_str("count");
    let set = f.str("set");
    let start = f.str("start");
    let counters = f.strs("counters");
    let totals = f.table("totals", |dec, _, n| dec.str(n, "a total"));
    f.finish();
    Some(FigureDef {
        on: on?,
        owner,
        count,
        set,
        start,
        counters,
        totals,
    })
}

fn zone(dec: &mut Decoder, node: &Node) -> Option<ZoneDef> {
    let mut f = dec.fields(node, "a zone")?;
    for key in ["layout", "visible"] {
        if !f.entries.iter().any(|e| e.key == key) {
            f.missing(key);
        }
    }
    let holds = f.required_str("holds");
    let start = f.zone_start();
    let owner = f.choice(
        "owner",
        &[("table", ZoneOwner::Table), ("each", ZoneOwner::Each)],
    );
    let layout = f.choice(
        "layout",
        &[
            ("stack", Layout::Stack),
            ("hand", Layout::Hand),
            ("rows", Layout::Rows),
            ("ring", Layout::Ring),
        ],
    );
    let by = f.str("by");
    let refill = f.str("refill");
    let tally = f.str("tally");
    let marks = f.str("marks");
    let plates = f.str("plates");
    let follow = f.str("follow");
    let at = f.str("at");
    let numbered = f.str("numbered");
    let forward = f.str("forward");
    let displace = f.str("displace");
    let shows = f.str("shows");
    let table = f.choice("table", TABLE_LISTINGS);
    let visible = f.choice(
        "visible",
        &[
            ("public", Visibility::Public),
            ("owner", Visibility::Owner),
            ("count", Visibility::Count),
        ],
    );
    f.finish();
    let (Some(layout), Some(visible)) = (layout, visible) else {
        return None;
    };
    Some(ZoneDef {
        holds: holds?,
        start,
        owner,
        layout,
        by,
        visible,
        refill,
        tally,
        marks,
        plates,
        follow,
        at,
        numbered,
        forward,
        displace,
        shows,
        table,
    })
}

/// The words of `table = "…"` on a zone or a counter.
const TABLE_LISTINGS: &[(&str, TableListing)] = &[
    ("always", TableListing::Always),
    ("held", TableListing::Held),
    ("never", TableListing::Never),
];

/// Words of the rulebook's expressions, which a name cannot be.
const KEYWORDS: &[&str] = &["from", "to", "in", "and", "or", "not", "if"];

/// What is wrong with a declared name, if anything: a name is an ASCII letter, then letters,
/// digits and `_`, with single `-` between them (`knight-deck`), and no word of the
/// language (`and`, `to` …): exactly what the rulebook's expressions read as one name.
pub fn name_problem(name: &str) -> Option<&'static str> {
    let bytes = name.as_bytes();
    let Some(first) = bytes.first() else {
        return Some("is empty");
    };
    if !name.is_ascii() {
        return Some("has a character that is not ASCII");
    }
    if !first.is_ascii_alphabetic() {
        return Some("does not start with a letter");
    }
    for (i, &b) in bytes.iter().enumerate() {
        let dash_between = b == b'-' && bytes.get(i + 1).is_some_and(u8::is_ascii_alphanumeric);
        if !(b.is_ascii_alphanumeric() || b == b'_' || dash_between) {
            return Some(match b {
                b' ' => "has a space",
                b'-' => "has a `-` that is not between letters or digits",
                _ => "has a character other than letters, digits, `_` and `-`",
            });
        }
    }
    KEYWORDS
        .contains(&name)
        .then_some("is a word of the description's language")
}

struct Decoder<'d> {
    source: SourceId,
    diags: &'d mut Vec<Diagnostic>,
}

impl<'d> Decoder<'d> {
    fn loc(&self, node: &Node) -> Loc {
        Loc {
            source: self.source,
            span: node.span.clone(),
        }
    }

    fn error(
        &mut self,
        code: &'static str,
        message: String,
        span: Range<usize>,
        label: impl Into<String>,
    ) {
        self.diags
            .push(Diagnostic::error(code, message).at(self.source, span, label));
    }

    fn wrong_type(&mut self, node: &Node, what: &str, expected: &str) {
        self.error(
            "wrong-type",
            format!("{what} must be {expected}, found {}", node.describe()),
            node.span.clone(),
            format!("expected {expected}"),
        );
    }

    fn fields<'n>(&mut self, node: &'n Node, what: &'static str) -> Option<Fields<'n, '_, 'd>> {
        let NodeKind::Table(entries) = &node.kind else {
            self.wrong_type(node, what, "a table");
            return None;
        };
        Some(Fields {
            dec: self,
            entries,
            used: vec![false; entries.len()],
            known: Vec::new(),
            span: node.span.clone(),
            what,
        })
    }

    fn str(&mut self, node: &Node, key: &str) -> Option<Sp<String>> {
        match &node.kind {
            NodeKind::Str(s) => Some(Sp::new(s.clone(), self.loc(node))),
            _ => {
                self.wrong_type(node, &format!("`{key}`"), "a string");
                None
            }
        }
    }

    /// A name the description declares (a zone, a step, an action …), which its expressions
    /// read: see [`name_problem`]. An action's name (and verb) may be several such words.
    fn name(&mut self, what: &str, name: &Sp<String>, words: bool) {
        let problem = if words && !name.value.is_empty() {
            let mut parts = name.value.split(' ');
            if parts.clone().any(str::is_empty) {
                Some("has a space at its start or end, or two in a row")
            } else {
                parts.find_map(name_problem)
            }
        } else {
            name_problem(&name.value)
        };
        if let Some(problem) = problem {
            self.diags.push(
                Diagnostic::error(
                    "invalid-name",
                    format!("{what} name `{}` {problem}", name.value.escape_debug()),
                )
                .at(self.source, name.loc.span.clone(), "declared here")
                .with_help(
                    "a name starts with an ASCII letter and goes on with letters, digits, `_` \
                     and single `-` between them: `knight-deck`, `hand_2`"
                        .to_string()
                        + if words {
                            "; an action's name may be several, one space apart"
                        } else {
                            ""
                        },
                ),
            );
        }
    }

    /// A string, or an integer read as its digits (see [`Fields::number_str`]).
    fn number_str(&mut self, node: &Node, key: &str) -> Option<Sp<String>> {
        match &node.kind {
            NodeKind::Int(v) => Some(Sp::new(v.to_string(), self.loc(node))),
            NodeKind::Str(_) => self.str(node, key),
            _ => {
                self.wrong_type(node, &format!("`{key}`"), "a number or a string");
                None
            }
        }
    }

    /// Names and texts end up on the player's terminal, where `\u{1b}[2J` would clear the
    /// screen: a control character other than newline and tab, in any string or key of the
    /// file, is an error. (The value is still decoded, so nothing else is reported for want
    /// of it.)
    fn no_control_characters(&mut self, node: &Node, key: &str) {
        let control = |s: &str| {
            // Bidirectional controls are never ASCII: ASCII text is read byte by byte.
            let ascii_clean = s.is_ascii()
                && !s
                    .bytes()
                    .any(|b| (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7f);
            if ascii_clean {
                return None;
            }
            s.chars()
                .find(|&c| (c.is_control() && c != '\n' && c != '\t') || is_bidi_control(c))
        };
        match &node.kind {
            NodeKind::Str(s) => {
                if let Some(c) = control(s) {
                    self.control_character(format!("`{key}`"), c, node.span.clone());
                }
            }
            NodeKind::Array(items) => {
                for item in items {
                    self.no_control_characters(item, key);
                }
            }
            NodeKind::Table(entries) => {
                for e in entries {
                    if let Some(c) = control(&e.key) {
                        self.control_character("a key".into(), c, e.key_span.clone());
                    }
                    self.no_control_characters(&e.value, &e.key);
                }
            }
            _ => {}
        }
    }

    fn control_character(&mut self, what: String, c: char, span: Range<usize>) {
        let kind = if is_bidi_control(c) {
            "bidirectional control"
        } else {
            "control"
        };
        self.error(
            "control-character",
            format!(
                "{what} contains the {kind} character U+{:04X}",
                u32::from(c)
            ),
            span,
            if is_bidi_control(c) {
                "characters that reorder text are not allowed"
            } else {
                "control characters other than newline and tab are not allowed"
            },
        );
    }

    fn strs(&mut self, node: &Node, key: &str) -> Vec<Sp<String>> {
        let NodeKind::Array(items) = &node.kind else {
            self.wrong_type(node, &format!("`{key}`"), "a list of strings");
            return Vec::new();
        };
        items.iter().filter_map(|n| self.str(n, key)).collect()
    }

    fn int(&mut self, node: &Node, key: &str, min: i64, max: i64) -> Option<Sp<i64>> {
        match node.kind {
            NodeKind::Int(v) if (min..=max).contains(&v) => Some(Sp::new(v, self.loc(node))),
            NodeKind::Int(v) => {
                self.error(
                    "out-of-range",
                    format!("`{key}` must be from {min} to {max}, found {v}"),
                    node.span.clone(),
                    "out of range",
                );
                None
            }
            _ => {
                self.wrong_type(node, &format!("`{key}`"), "an integer");
                None
            }
        }
    }

    fn param(&mut self, key: &str, node: &Node) -> Option<Sp<ParamValue>> {
        let value = match &node.kind {
            NodeKind::Int(_) => {
                ParamValue::Int(self.int(node, key, -MAX_NUMBER, MAX_NUMBER)?.value)
            }
            NodeKind::Bool(v) => ParamValue::Bool(*v),
            NodeKind::Str(v) => ParamValue::Text(v.clone()),
            _ => {
                self.wrong_type(
                    node,
                    &format!("param `{key}`"),
                    "an integer, a boolean or a string",
                );
                return None;
            }
        };
        Some(Sp::new(value, self.loc(node)))
    }

    fn attr_value(&mut self, key: &str, node: &Node) -> Option<Sp<AttrValue>> {
        let value = match &node.kind {
            NodeKind::Int(_) => AttrValue::Int(self.int(node, key, -MAX_NUMBER, MAX_NUMBER)?.value),
            NodeKind::Str(v) => AttrValue::Sym(v.clone()),
            _ => {
                self.wrong_type(node, "an attribute value", "a name or an integer");
                return None;
            }
        };
        Some(Sp::new(value, self.loc(node)))
    }
}

/// The keys of one table, taken one by one; whatever is left over is reported as unknown.
struct Fields<'n, 'a, 'd> {
    dec: &'a mut Decoder<'d>,
    entries: &'n [Entry],
    used: Vec<bool>,
    known: Vec<&'static str>,
    span: Range<usize>,
    what: &'static str,
}

impl<'n, 'd> Fields<'n, '_, 'd> {
    /// The value under `key`, if written (RON's `None` counts as not written).
    fn node(&mut self, key: &'static str) -> Option<&'n Node> {
        self.known.push(key);
        let i = self.entries.iter().position(|e| e.key == key)?;
        self.used[i] = true;
        let node = &self.entries[i].value;
        (node.kind != NodeKind::Null).then_some(node)
    }

    fn missing(&mut self, key: &str) {
        let message = format!("{} needs `{key}`", self.what);
        let span = self.span.clone();
        self.dec
            .error("missing-field", message, span, format!("`{key}` missing"));
    }

    fn str(&mut self, key: &'static str) -> Option<Sp<String>> {
        let node = self.node(key)?;
        self.dec.str(node, key)
    }

    /// A field the format shows as a number that may also be a param or an expression of
    /// params (`repeat = 3`, `repeat = "$times"`): an integer is read as its digits.
    fn number_str(&mut self, key: &'static str) -> Option<Sp<String>> {
        let node = self.node(key)?;
        self.dec.number_str(node, key)
    }

    fn required_str(&mut self, key: &'static str) -> Option<Sp<String>> {
        let node = self.node(key);
        if node.is_none() {
            self.missing(key);
        }
        self.dec.str(node?, key)
    }

    fn required_strs(&mut self, key: &'static str) -> Option<Vec<Sp<String>>> {
        let node = self.node(key);
        if node.is_none() {
            self.missing(key);
        }
        Some(self.dec.strs(node?, key))
    }

    /// `start` of a zone: `"all"`, or a list of card ids.
    fn zone_start(&mut self) -> Option<Sp<ZoneStart>> {
        let node = self.node("start")?;
        if let NodeKind::Array(_) = &node.kind {
            let ids = self.dec.strs(node, "start");
            return Some(Sp::new(ZoneStart::Cards(ids), self.dec.loc(node)));
        }
        let text = self.dec.str(node, "start")?;
        if text.value == "all" {
            return Some(Sp::new(ZoneStart::All(StartAll::All), text.loc));
        }
        let d = Diagnostic::error(
            "invalid-value",
            format!("`start` cannot be `{}`", text.value),
        )
        .at(self.dec.source, node.span.clone(), "not known")
        .with_help(format!(
            "`start = \"all\"` starts the zone with every card it holds; `start = [\"{}\"]` with every copy of the cards listed",
            text.value
        ));
        self.dec.diags.push(d);
        None
    }

    /// One of a closed list of words, with did-you-mean.
    fn choice<T: Copy>(&mut self, key: &'static str, words: &[(&str, T)]) -> Option<Sp<T>> {
        let node = self.node(key)?;
        let text = self.dec.str(node, key)?;
        if let Some((_, v)) = words.iter().find(|(w, _)| *w == text.value) {
            return Some(Sp::new(*v, text.loc));
        }
        let names: Vec<&str> = words.iter().map(|(w, _)| *w).collect();
        let mut d = Diagnostic::error(
            "invalid-value",
            format!("`{key}` cannot be `{}`", text.value),
        )
        .at(self.dec.source, node.span.clone(), "not known");
        d = match did_you_mean(&text.value, names.iter().copied()) {
            Some(near) => d.with_help(format!("did you mean `{near}`?")),
            None => d.with_help(format!("expected one of: {}", names.join(", "))),
        };
        self.dec.diags.push(d);
        None
    }

    /// A list of [`Fields::number_str`]s (`needs = [5, 7, "$top"]`).
    fn number_strs(&mut self, key: &'static str) -> Vec<Sp<String>> {
        let Some(node) = self.node(key) else {
            return Vec::new();
        };
        let NodeKind::Array(items) = &node.kind else {
            self.dec
                .wrong_type(node, &format!("`{key}`"), "a list of numbers or params");
            return Vec::new();
        };
        items
            .iter()
            .filter_map(|n| self.dec.number_str(n, key))
            .collect()
    }

    fn strs(&mut self, key: &'static str) -> Vec<Sp<String>> {
        match self.node(key) {
            Some(node) => self.dec.strs(node, key),
            None => Vec::new(),
        }
    }

    fn int(&mut self, key: &'static str, min: i64, max: i64) -> Option<Sp<i64>> {
        let node = self.node(key)?;
        self.dec.int(node, key, min, max)
    }

    fn required_int(&mut self, key: &'static str, min: i64, max: i64) -> Option<Sp<i64>> {
        let node = self.node(key);
        if node.is_none() {
            self.missing(key);
        }
        self.dec.int(node?, key, min, max)
    }

    fn bool(&mut self, key: &'static str) -> Option<Sp<bool>> {
        let node = self.node(key)?;
        match node.kind {
            NodeKind::Bool(b) => Some(Sp::new(b, self.dec.loc(node))),
            _ => {
                self.dec
                    .wrong_type(node, &format!("`{key}`"), "true or false");
                None
            }
        }
    }

    /// A list of tables, each decoded by `item`.
    fn array<T>(
        &mut self,
        key: &'static str,
        item: fn(&mut Decoder, &Node) -> Option<T>,
    ) -> Option<Vec<T>> {
        let node = self.node(key)?;
        let NodeKind::Array(items) = &node.kind else {
            self.dec
                .wrong_type(node, &format!("`{key}`"), "a list of tables");
            return None;
        };
        Some(items.iter().filter_map(|n| item(self.dec, n)).collect())
    }

    /// A table of named entries, each decoded by `item`.
    fn table<T>(
        &mut self,
        key: &'static str,
        mut item: impl FnMut(&mut Decoder, &str, &Node) -> Option<T>,
    ) -> Table<T> {
        let Some(node) = self.node(key) else {
            return Table::default();
        };
        let NodeKind::Table(entries) = &node.kind else {
            self.dec.wrong_type(node, &format!("`{key}`"), "a table");
            return Table::default();
        };
        let mut out = Vec::with_capacity(entries.len());
        for e in entries {
            if let Some(v) = item(self.dec, &e.key, &e.value) {
                out.push((self.key(e), v));
            }
        }
        Table(out)
    }

    fn key(&self, e: &Entry) -> Sp<String> {
        Sp::new(
            e.key.clone(),
            Loc {
                source: self.dec.source,
                span: e.key_span.clone(),
            },
        )
    }

    /// The keys not taken, for open tables (card attributes, effect fields).
    fn rest<T>(mut self, mut item: impl FnMut(&mut Decoder, &str, &Node) -> Option<T>) -> Table<T> {
        let mut out = Vec::new();
        let entries = self.entries;
        for (i, e) in entries.iter().enumerate() {
            if self.used[i] {
                continue;
            }
            self.used[i] = true;
            if self.known.contains(&e.key.as_str()) {
                self.duplicate(e);
            } else if let Some(v) = item(self.dec, &e.key, &e.value) {
                out.push((self.key(e), v));
            }
        }
        Table(out)
    }

    /// Reports the keys not taken: this table is closed.
    fn finish(mut self) {
        let entries = self.entries;
        for (i, e) in entries.iter().enumerate() {
            if self.used[i] {
                continue;
            }
            if self.known.contains(&e.key.as_str()) {
                self.duplicate(e);
                continue;
            }
            let mut d = Diagnostic::error(
                "unknown-key",
                format!("unknown key `{}` in {}", e.key, self.what),
            )
            .at(self.dec.source, e.key_span.clone(), "unknown key");
            d = match did_you_mean(&e.key, self.known.iter().copied()) {
                Some(near) => d.with_help(format!("did you mean `{near}`?")),
                None => d.with_help(format!("expected one of: {}", self.known.join(", "))),
            };
            self.dec.diags.push(d);
        }
    }

    fn duplicate(&mut self, e: &Entry) {
        let first = self
            .entries
            .iter()
            .find(|f| f.key == e.key)
            .map_or(0..0, |f| f.key_span.clone());
        self.dec.diags.push(
            Diagnostic::error("duplicate-id", format!("`{}` is given twice", e.key))
                .at(self.dec.source, e.key_span.clone(), "given again here")
                .also(self.dec.source, first, "first given here"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{self, Format};

    fn codes(text: &str) -> Vec<&'static str> {
        let node = syntax::parse(Format::Toml, SourceId(0), text).expect("parses");
        let mut diags = Vec::new();
        pack_file(SourceId(0), &node, &mut diags);
        diags.iter().map(|d| d.code).collect()
    }

    #[test]
    fn control_characters_are_refused_in_every_string_and_key() {
        assert_eq!(codes("[params]\nx = \"a\\u001bb\""), ["control-character"]);
        assert_eq!(
            codes("[sets.a]\n[[sets.a.cards]]\nid = \"c\"\n\"k\\u0007\" = 1"),
            ["control-character"]
        );
        assert_eq!(
            codes(
                "[sets.a]\n[[sets.a.cards]]\nid = \"c\"\neffects = [{ kind = \"x\", to = [\"\\u009b\"] }]"
            ),
            ["control-character"]
        );
        assert!(codes("[params]\nx = \"two\\nlines\\tand a tab\"").is_empty());
        // Those that reorder text, as written escaped and as written raw.
        for bidi in ["\\u202E", "\u{202E}", "\u{2066}", "\u{200F}", "\u{061C}"] {
            assert_eq!(
                codes(&format!("[params]\nx = \"a{bidi}b\"")),
                ["control-character"],
                "{bidi:?}"
            );
        }
    }

    /// The names a description declares are what its expressions read as one name.
    #[test]
    fn declared_names_are_what_expressions_read() {
        for bad in [
            "",
            " ",
            "pil\u{e9}",
            "_x",
            "9lives",
            "a--b",
            "a-",
            "and",
            "a b",
        ] {
            assert!(name_problem(bad).is_some(), "{bad:?}");
        }
        for good in ["deck", "knight-deck", "hand_2", "P2", "x-1-y"] {
            assert_eq!(name_problem(good), None, "{good:?}");
        }
        assert_eq!(
            codes("[zones.\"\"]\nholds = \"a\"\nlayout = \"stack\"\nvisible = \"public\""),
            ["invalid-name"]
        );
    }

    #[test]
    fn numbers_are_bounded_where_declared() {
        assert_eq!(codes("[params]\nx = 1000000001"), ["out-of-range"]);
        assert!(codes("[params]\nx = -1000000000").is_empty());
        assert_eq!(
            codes("[sets.a]\n[[sets.a.cards]]\nid = \"c\"\npoints = 9223372036854775807"),
            ["out-of-range"]
        );
    }
}
