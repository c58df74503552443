//! Declarative effects: what quest rewards and penalties, trials and feast cards do, read
//! from the pack's `effects = [{ on, kind, count, target }]` and checked against where they
//! may appear.

use grail_engine::diag::{Diagnostic, did_you_mean};
use grail_schema::model::EffectDef;
use grail_schema::node::NodeKind;
use grail_schema::{Card as PackCard, CardSet as PackSet};

/// When an effect happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum When {
    /// Quest: the reward, on completing it.
    Complete,
    /// Quest: the ignore penalty.
    Ignore,
    /// Trial: the questing knights do not meet its condition.
    Unmet,
    /// Trial: as soon as it is drawn.
    Drawn,
    /// Any tradable card: after a feast in which it changed hands.
    TradedInFeast,
}

const WHENS: [(&str, When); 5] = [
    ("complete", When::Complete),
    ("ignore", When::Ignore),
    ("unmet", When::Unmet),
    ("drawn", When::Drawn),
    ("traded-in-feast", When::TradedInFeast),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    DrawTreasures,
    DrawVirtues,
    Honor,
    Dishonor,
    /// The knight chooses which virtue cards to discard.
    DiscardVirtues,
    /// Virtue cards discarded at random.
    LoseVirtues,
    Death,
    /// Trials only: the quest fails.
    QuestFails,
}

const KINDS: [(&str, Kind); 8] = [
    ("draw-treasures", Kind::DrawTreasures),
    ("draw-virtues", Kind::DrawVirtues),
    ("honor", Kind::Honor),
    ("dishonor", Kind::Dishonor),
    ("discard-virtues", Kind::DiscardVirtues),
    ("lose-virtues", Kind::LoseVirtues),
    ("death", Kind::Death),
    ("quest-fails", Kind::QuestFails),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    King,
    /// Every living knight.
    EveryKnight,
    /// The player who chose the quest to expire.
    ExpiringPlayer,
    /// The knights on the quest (a reward to them is shared out).
    QuestingKnights,
    /// The one who handed the card over in a feast.
    Giver,
    /// The one who received it.
    Receiver,
    /// No target (`quest-fails`).
    Quest,
}

const TARGETS: [(&str, Target); 6] = [
    ("king", Target::King),
    ("every-knight", Target::EveryKnight),
    ("expiring-player", Target::ExpiringPlayer),
    ("questing-knights", Target::QuestingKnights),
    ("giver", Target::Giver),
    ("receiver", Target::Receiver),
];

impl When {
    fn name(self) -> &'static str {
        WHENS
            .iter()
            .find(|(_, w)| *w == self)
            .map_or("?", |(n, _)| n)
    }

    /// The targets an effect may name at this moment.
    fn targets(self) -> &'static [Target] {
        match self {
            When::Complete | When::Unmet | When::Drawn => {
                &[Target::QuestingKnights, Target::King, Target::EveryKnight]
            }
            When::Ignore => &[Target::King, Target::EveryKnight, Target::ExpiringPlayer],
            When::TradedInFeast => &[Target::Giver, Target::Receiver],
        }
    }
}

impl Target {
    pub fn name(self) -> &'static str {
        TARGETS
            .iter()
            .find(|(_, t)| *t == self)
            .map_or("the quest", |(n, _)| n)
    }
}

impl Kind {
    pub fn name(self) -> &'static str {
        KINDS
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("?", |(n, _)| n)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Effect {
    pub when: When,
    pub kind: Kind,
    pub count: u8,
    pub target: Target,
}

/// A card's effects, checked: `allowed` are the moments the card's set may use.
pub fn read(set: &PackSet, card: &PackCard, allowed: &[When]) -> Result<Vec<Effect>, Diagnostic> {
    card.effects
        .iter()
        .map(|def| read_one(set, card, def, allowed))
        .collect()
}

fn read_one(
    set: &PackSet,
    card: &PackCard,
    def: &EffectDef,
    allowed: &[When],
) -> Result<Effect, Diagnostic> {
    let source = def.kind.loc.source;
    let at = |span: std::ops::Range<usize>, code: &'static str, message: String, label: &str| {
        Diagnostic::error(code, message).at(source, span, label)
    };
    let kind_span = def.kind.loc.span.clone();
    let kind = pick(&KINDS, &def.kind.value).ok_or_else(|| {
        let d = at(
            kind_span.clone(),
            "unknown-effect",
            format!("`{}` is no effect kind", def.kind.value),
            "unknown kind",
        );
        hint(d, &def.kind.value, KINDS.iter().map(|(n, _)| *n))
    })?;
    let mut when = None;
    let mut count = 1u8;
    let mut target = None;
    for (key, node) in def.fields.iter() {
        let text = match &node.kind {
            NodeKind::Str(s) => Some(s.as_str()),
            _ => None,
        };
        match key.value.as_str() {
            "on" => {
                let name = text.ok_or_else(|| {
                    at(
                        node.span.clone(),
                        "wrong-type",
                        "`on` must be a string".into(),
                        "expected a string",
                    )
                })?;
                let w = pick(&WHENS, name)
                    .filter(|w| allowed.contains(w))
                    .ok_or_else(|| {
                        let names: Vec<&str> = allowed.iter().map(|w| w.name()).collect();
                        let d = at(
                            node.span.clone(),
                            "unknown-effect",
                            format!(
                                "effects of {} cards happen on {}, not `{name}`",
                                set.id,
                                names.join(" or ")
                            ),
                            "here",
                        );
                        hint(d, name, names.iter().copied())
                    })?;
                when = Some(w);
            }
            "count" => match node.kind {
                NodeKind::Int(n) if (1..=20).contains(&n) => count = n as u8,
                _ => {
                    return Err(at(
                        node.span.clone(),
                        "out-of-range",
                        "`count` must be a whole number from 1 to 20".into(),
                        "here",
                    ));
                }
            },
            "target" => {
                let name = text.ok_or_else(|| {
                    at(
                        node.span.clone(),
                        "wrong-type",
                        "`target` must be a string".into(),
                        "expected a string",
                    )
                })?;
                target = Some((
                    pick(&TARGETS, name).ok_or_else(|| {
                        let d = at(
                            node.span.clone(),
                            "unknown-effect",
                            format!("`{name}` is no effect target"),
                            "unknown target",
                        );
                        hint(d, name, TARGETS.iter().map(|(n, _)| *n))
                    })?,
                    node.span.clone(),
                ));
            }
            other => {
                let d = at(
                    key.loc.span.clone(),
                    "unknown-key",
                    format!("unknown key `{other}` in an effect"),
                    "unknown key",
                );
                return Err(hint(d, other, ["on", "kind", "count", "target"]));
            }
        }
    }
    let Some(when) = when else {
        return Err(at(
            kind_span,
            "missing-field",
            format!(
                "effect `{}` of `{}` does not say when it happens (`on = …`)",
                kind.name(),
                card.id
            ),
            "add `on`",
        ));
    };
    let target = match (kind, target) {
        (Kind::QuestFails, None) if matches!(when, When::Unmet | When::Drawn) => Target::Quest,
        (Kind::QuestFails, _) => {
            return Err(at(
                kind_span,
                "unknown-effect",
                "`quest-fails` belongs to trials (`on = \"unmet\"` or \"drawn\") and takes no target"
                    .into(),
                "here",
            ));
        }
        (_, None) => {
            return Err(at(
                kind_span,
                "missing-field",
                format!(
                    "effect `{}` of `{}` does not say whom it hits (`target = …`)",
                    kind.name(),
                    card.id
                ),
                "add `target`",
            ));
        }
        (_, Some((t, span))) => {
            if !when.targets().contains(&t) {
                let names: Vec<&str> = when.targets().iter().map(|t| t.name()).collect();
                return Err(at(
                    span,
                    "unknown-effect",
                    format!(
                        "an effect on `{}` may target {}, not `{}`",
                        when.name(),
                        names.join(", "),
                        t.name()
                    ),
                    "here",
                ));
            }
            t
        }
    };
    Ok(Effect {
        when,
        kind,
        count,
        target,
    })
}

fn pick<T: Copy>(table: &[(&str, T)], name: &str) -> Option<T> {
    table.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

fn hint<'a>(d: Diagnostic, word: &str, names: impl IntoIterator<Item = &'a str>) -> Diagnostic {
    let names: Vec<&str> = names.into_iter().collect();
    match did_you_mean(word, names.iter().copied()) {
        Some(near) => d.with_help(format!("did you mean `{near}`?")),
        None => d.with_help(format!("one of: {}", names.join(", "))),
    }
}

/// The effects of `list` that happen at `when`.
pub fn at(list: &[Effect], when: When) -> Vec<Effect> {
    list.iter().copied().filter(|e| e.when == when).collect()
}
