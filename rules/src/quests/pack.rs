//! Building the rulebook from the pack: every card, number, situational value and effect
//! the rules read, with a diagnostic pointing into the pack for anything missing or
//! inconsistent.

use grail_engine::bidding::Rounds;
use grail_engine::cond::{Domain, Value};
use grail_engine::counts::Counts;
use grail_engine::diag::{Diagnostic, did_you_mean};
use grail_engine::ladder::Ladder;
use grail_engine::situational::Situational;
use grail_schema::model::{EffectDef, Loc};
use grail_schema::node::{Node, NodeKind};
use grail_schema::{CardSet as PackSet, Pack};

use super::build::clamp16;
use super::state::MAX_STAGES;
use super::{BotWeights, Effect, KINDS, Kind, Layout, Numbers, Quests, Story, Targets, Who};
use crate::cards::card_set;
use crate::pack_errors::Errors;

/// Collects problems instead of stopping at the first, so lint shows them all.
pub fn compile(pack: &Pack) -> Result<Quests, Vec<Diagnostic>> {
    let mut e = Errors(Vec::new());
    let adventure = e.take(pack.set("adventure"));
    let story = e.take(pack.set("story"));
    let ranks = e.take(pack.set("ranks"));
    let n = numbers(&mut e, pack);
    let (Some(adventure), Some(story), Some(ranks)) = (adventure, story, ranks) else {
        return Err(e.0);
    };

    let kind = adventure_kinds(&mut e, adventure);
    let mut masks = [0u64; KINDS];
    for (t, k) in kind.iter().enumerate() {
        masks[*k as usize] |= 1 << t;
    }
    let layout = layout(&mut e, pack, adventure);
    let bp = situational(&mut e, adventure, "bp");
    let bids = situational(&mut e, adventure, "bids");
    let min_bid = situational(&mut e, adventure, "min_bid");
    check_overrides(&mut e, adventure);
    let (removers, previewers) = abilities(&mut e, adventure, &kind);
    let stories = stories(&mut e, story);
    for set in [story, ranks] {
        for card in set.cards.iter().filter(|c| !c.overrides.is_empty()) {
            e.at(
                &card.overrides[0].when.loc,
                "unused-override",
                format!(
                    "card `{}` of set `{}` has overrides, but the quests rules read overrides only on adventure cards",
                    card.id, set.id
                ),
                "this override",
            );
        }
    }
    let rank_bp = ints(&mut e, ranks, "bp");
    let thresholds = ints(&mut e, ranks, "shields");
    if ranks.cards.is_empty() {
        e.at(
            &ranks.loc,
            "missing-field",
            "the rank set has no cards; players need a rank to start with".into(),
            "here",
        );
    }

    if !e.0.is_empty() {
        return Err(e.0);
    }
    let average = |k: Kind| {
        let (sum, n) =
            (0..adventure.cards.len())
                .filter(|&t| kind[t] == k)
                .fold((0.0, 0.0), |(sum, n), t| {
                    let copies = f64::from(adventure.cards[t].copies);
                    (sum + copies * bp.base(t as u8) as f64, n + copies)
                });
        if n > 0.0 { sum / n } else { 0.0 }
    };
    let guess = (average(Kind::Foe), average(Kind::Weapon));
    let hundredths = |name: &str| pack.int(name).unwrap_or(0);
    let bot_hand = (0..adventure.cards.len())
        .map(|t| hundredths("bot_card_worth") + bp.base(t as u8) * hundredths("bot_bp_worth"))
        .collect();
    let bot_ally = (0..adventure.cards.len())
        .map(|t| {
            bp.base(t as u8) * hundredths("bot_ally_bp_worth")
                + bids.base(t as u8) * hundredths("bot_ally_bid_worth")
        })
        .collect();
    let progress = std::iter::once(0)
        .chain(thresholds.iter().scan(0u32, |sum, &t| {
            *sum += u32::try_from(t).unwrap_or(0);
            Some(*sum)
        }))
        .collect();
    let value_reads = bp.reads() | bids.reads();
    let card_reads = (0..adventure.cards.len().min(64))
        .map(|t| bp.reads_of(t as u8) | bids.reads_of(t as u8))
        .collect();
    let story_values = (0..=story.cards.len())
        .map(|i| {
            let mut sit = Counts::EMPTY;
            if let (Some(at), true) = (layout.story, i < story.cards.len()) {
                sit.add(at + i as u8, 1);
            }
            let mut values = ([0i16; 64], [0i16; 64]);
            for t in 0..adventure.cards.len().min(64) {
                values.0[t] = clamp16(bp.get(t as u8, sit.as_slice()));
                values.1[t] = clamp16(bids.get(t as u8, sit.as_slice()));
            }
            values
        })
        .collect();
    Ok(Quests {
        // Named the way it was opened, so replays and saves open the same pack again.
        game: pack.origin.game.clone(),
        variant: pack.origin.variant.clone(),
        players: usize::from(pack.players.0)..=usize::from(pack.players.1),
        adventure: card_set(adventure),
        story: card_set(story),
        ranks: card_set(ranks),
        kind,
        masks,
        bp,
        bids,
        min_bid,
        remover_mask: removers.iter().fold(0, |m, &(t, _)| m | 1u64 << t),
        previewer_mask: previewers.iter().fold(0, |m, &(t, _)| m | 1u64 << t),
        removers,
        previewers,
        stories,
        story_texts: story.cards.iter().map(|c| c.text.clone()).collect(),
        rank_bp,
        ladder: Ladder::new(
            thresholds
                .iter()
                .map(|&t| u32::try_from(t).unwrap_or(0))
                .collect(),
        ),
        layout,
        n,
        guess,
        bot_hand,
        bot_ally,
        progress,
        value_reads,
        card_reads,
        story_values,
    })
}

fn numbers(e: &mut Errors, pack: &Pack) -> Numbers {
    let int = |e: &mut Errors, name: &str| e.take(pack.int(name)).unwrap_or_default();
    let small = |e: &mut Errors, name: &str| u8::try_from(int(e, name)).unwrap_or(u8::MAX);
    let big = |e: &mut Errors, name: &str| u32::try_from(int(e, name)).unwrap_or(u32::MAX);
    let flag = |e: &mut Errors, name: &str| e.take(pack.flag(name)).unwrap_or_default();
    let weight = |e: &mut Errors, name: &str| int(e, name) as f64 / 100.0;
    let test_bidding = match e.take(pack.text("test_bidding")) {
        Some("until-one-left") => Rounds::UntilOneLeft,
        _ => Rounds::OnePass,
    };
    let next_after_sponsor = e.take(pack.text("next_turn_after_quest")) != Some("drawer-left");
    Numbers {
        hand_size: small(e, "hand_size"),
        hand_limit: big(e, "hand_limit"),
        quest_draw: small(e, "quest_draw"),
        stage_draw: small(e, "stage_draw"),
        sponsor_draw_per_stage: small(e, "sponsor_draw_per_stage"),
        shields_per_stage: big(e, "shields_per_stage"),
        tests_per_quest: small(e, "tests_per_quest"),
        amours_per_quest: small(e, "amours_per_quest"),
        weapon_copies: small(e, "weapon_copies"),
        lone_min_bid: small(e, "lone_min_bid"),
        opening_min_bid: small(e, "opening_min_bid"),
        test_bidding,
        tournament_min_entrants: small(e, "tournament_min_entrants"),
        tournament_draw: small(e, "tournament_draw"),
        shields_per_entrant: big(e, "shields_per_entrant"),
        tiebreak_rounds: small(e, "tiebreak_rounds"),
        final_tournament: flag(e, "final_tournament"),
        allies_during_tests: flag(e, "allies_during_tests"),
        amour_during_tests: flag(e, "amour_during_tests"),
        partner_same_player: flag(e, "partner_same_player"),
        next_after_sponsor,
        turn_limit: big(e, "turn_limit"),
        bot: BotWeights {
            shield: weight(e, "bot_shield_worth"),
            opponent_shield: weight(e, "bot_opponent_shield_worth"),
            card: weight(e, "bot_card_worth"),
            bp: weight(e, "bot_bp_worth"),
            beaten: weight(e, "bot_beaten_pct"),
        },
    }
}

/// The name each card gives a symbolic attribute, with an error where it gives none.
fn symbols<'a>(e: &mut Errors, set: &'a PackSet, attr: &str) -> Vec<Option<&'a str>> {
    let declared = set
        .universe
        .attr_index(attr)
        .is_some_and(|a| matches!(set.universe.attrs[a].domain, Domain::Symbols(_)));
    if !declared {
        e.at(
            &set.loc,
            "missing-attribute",
            format!(
                "set `{}` must declare the attribute `{attr}` as a list of names",
                set.id
            ),
            "here",
        );
        return vec![None; set.cards.len()];
    }
    (0..set.cards.len()).map(|t| set.symbol(t, attr)).collect()
}

fn ints(e: &mut Errors, set: &PackSet, attr: &str) -> Vec<i64> {
    let Some(a) = set.universe.attr_index(attr) else {
        e.at(
            &set.loc,
            "missing-attribute",
            format!(
                "set `{}` must declare the number attribute `{attr}`",
                set.id
            ),
            "here",
        );
        return vec![0; set.cards.len()];
    };
    if !matches!(set.universe.attrs[a].domain, Domain::Int { .. }) {
        e.at(
            &set.loc,
            "wrong-type",
            format!("attribute `{attr}` of set `{}` must be a number", set.id),
            "here",
        );
    }
    (0..set.cards.len())
        .map(|t| set.universe.int(t, a).unwrap_or(0))
        .collect()
}

fn adventure_kinds(e: &mut Errors, set: &PackSet) -> Vec<Kind> {
    let names = symbols(e, set, "kind");
    names
        .iter()
        .zip(&set.cards)
        .map(|(name, card)| match name.and_then(Kind::from_name) {
            Some(k) => k,
            None => {
                e.at(
                    card.attr_loc("kind"),
                    "unknown-value",
                    format!(
                        "adventure card `{}` has kind {}; the quests rules know weapon, foe, test, ally and amour",
                        card.id,
                        name.map_or("(none)".to_string(), |n| format!("`{n}`"))
                    ),
                    "here",
                );
                Kind::Weapon
            }
        })
        .collect()
}

/// Where each set of the adventure cards' `when_over` sits in a situation.
fn layout(e: &mut Errors, pack: &Pack, adventure: &PackSet) -> Layout {
    let mut layout = Layout::default();
    let mut offset = 0usize;
    for id in &adventure.when_over {
        let Some(set) = e.take(pack.set(id)) else {
            continue;
        };
        let at = Some(offset as u8);
        match id.as_str() {
            "story" => layout.story = at,
            "adventure" => layout.adventure = at,
            "ranks" => layout.ranks = at,
            other => e.at(
                &adventure.loc,
                "unknown-set",
                format!(
                    "`when_over` names set `{other}`; a quests situation is made of the story card in play (`story`), the allies in play (`adventure`) and the owner's rank (`ranks`)"
                ),
                "in this set",
            ),
        }
        offset += set.cards.len();
    }
    layout
}

/// Base values and overrides of one number attribute of the adventure cards.
fn situational(e: &mut Errors, set: &PackSet, attr: &str) -> Situational {
    let mut values = Situational::new(ints(e, set, attr));
    let Some(a) = set.universe.attr_index(attr) else {
        return values;
    };
    for (t, card) in set.cards.iter().enumerate() {
        for o in &card.overrides {
            for &(oa, v) in &o.values {
                if oa == a {
                    let value = match v {
                        Value::Int(i) => i,
                        Value::Sym(_) => 0,
                    };
                    values.add_override(t as u8, o.when.program.clone(), value);
                }
            }
        }
    }
    values
}

/// Overrides may change only the number attributes the rules read situationally.
fn check_overrides(e: &mut Errors, set: &PackSet) {
    for card in &set.cards {
        for o in &card.overrides {
            for &(a, _) in &o.values {
                let name = &set.universe.attrs[a].name;
                if !["bp", "bids", "min_bid"].contains(&name.as_str()) {
                    e.at(
                        &o.when.loc,
                        "unused-override",
                        format!(
                            "an override of card `{}` sets `{name}`; the quests rules read situational values only for bp, bids and min_bid",
                            card.id
                        ),
                        "this override",
                    );
                }
            }
        }
    }
}

/// The place of an effect field, for diagnostics.
fn field_loc(effect: &EffectDef, node: &Node) -> Loc {
    Loc {
        source: effect.kind.loc.source,
        span: node.span.clone(),
    }
}

fn field<'a>(effect: &'a EffectDef, name: &str) -> Option<&'a Node> {
    effect.fields.get(name)
}

fn int_field(e: &mut Errors, effect: &EffectDef, name: &str, min: i64, max: i64) -> Option<i64> {
    let Some(node) = field(effect, name) else {
        e.at(
            &effect.kind.loc,
            "missing-field",
            format!("a `{}` effect needs `{name}`", effect.kind.value),
            "this effect",
        );
        return None;
    };
    match node.kind {
        NodeKind::Int(v) if (min..=max).contains(&v) => Some(v),
        NodeKind::Int(v) => {
            e.at(
                &field_loc(effect, node),
                "out-of-range",
                format!("`{name}` = {v} is outside {min}..={max}"),
                "here",
            );
            None
        }
        _ => {
            e.at(
                &field_loc(effect, node),
                "wrong-type",
                format!("`{name}` must be a whole number, found {}", node.describe()),
                "here",
            );
            None
        }
    }
}

fn text_field<'a>(
    e: &mut Errors,
    effect: &'a EffectDef,
    name: &str,
    choices: &[&str],
) -> Option<&'a str> {
    let Some(node) = field(effect, name) else {
        e.at(
            &effect.kind.loc,
            "missing-field",
            format!(
                "a `{}` effect needs `{name}` (one of {})",
                effect.kind.value,
                choices.join(", ")
            ),
            "this effect",
        );
        return None;
    };
    match &node.kind {
        NodeKind::Str(s) if choices.contains(&s.as_str()) => Some(s),
        NodeKind::Str(s) => {
            let mut d = Diagnostic::error(
                "unknown-value",
                format!("`{name}` = `{s}`; expected one of {}", choices.join(", ")),
            )
            .at(effect.kind.loc.source, node.span.clone(), "here");
            if let Some(near) = did_you_mean(s, choices.iter().copied()) {
                d = d.with_help(format!("did you mean `{near}`?"));
            }
            e.0.push(d);
            None
        }
        _ => {
            e.at(
                &field_loc(effect, node),
                "wrong-type",
                format!("`{name}` must be a string, found {}", node.describe()),
                "here",
            );
            None
        }
    }
}

/// Fields an effect kind reads; any other is a typo.
fn known_fields(e: &mut Errors, effect: &EffectDef, known: &[&str]) {
    for (key, _) in effect.fields.iter() {
        if !known.contains(&key.value.as_str()) {
            let mut d = Diagnostic::error(
                "unknown-key",
                format!(
                    "a `{}` effect has no field `{}`",
                    effect.kind.value, key.value
                ),
            )
            .at(key.loc.source, key.loc.span.clone(), "unknown field");
            if let Some(near) = did_you_mean(&key.value, known.iter().copied()) {
                d = d.with_help(format!("did you mean `{near}`?"));
            }
            e.0.push(d);
        }
    }
}

fn unknown_effect(e: &mut Errors, effect: &EffectDef, set: &str, kinds: &[&str]) {
    let mut d = Diagnostic::error(
        "unknown-effect",
        format!(
            "the quests rules know no `{}` effect on {set} cards; they know {}",
            effect.kind.value,
            kinds.join(", ")
        ),
    )
    .at(
        effect.kind.loc.source,
        effect.kind.loc.span.clone(),
        "unknown effect",
    );
    if let Some(near) = did_you_mean(&effect.kind.value, kinds.iter().copied()) {
        d = d.with_help(format!("did you mean `{near}`?"));
    }
    e.0.push(d);
}

type Abilities = (Vec<(u8, Targets)>, Vec<(u8, u8)>);

/// Adventure cards' effects: sacrificing to remove an ally, previewing stages.
fn abilities(e: &mut Errors, set: &PackSet, kind: &[Kind]) -> Abilities {
    let mut removers = Vec::new();
    let mut previewers = Vec::new();
    for (t, card) in set.cards.iter().enumerate() {
        for effect in &card.effects {
            match effect.kind.value.as_str() {
                "remove-ally" => {
                    known_fields(e, effect, &["targets"]);
                    let targets = match text_field(e, effect, "targets", &["others", "any"]) {
                        Some("any") => Targets::Any,
                        _ => Targets::Others,
                    };
                    removers.push((t as u8, targets));
                }
                "preview-stage" => {
                    known_fields(e, effect, &["per_quest"]);
                    if kind.get(t) != Some(&Kind::Ally) {
                        e.at(
                            &effect.kind.loc,
                            "invalid-value",
                            format!(
                                "`{}` previews stages while in play, so it must be an ally",
                                card.id
                            ),
                            "on a card that is no ally",
                        );
                    }
                    let uses = int_field(e, effect, "per_quest", 1, 255).unwrap_or(1);
                    previewers.push((t as u8, uses as u8));
                }
                _ => unknown_effect(e, effect, "adventure", &["remove-ally", "preview-stage"]),
            }
        }
    }
    (removers, previewers)
}

fn who(e: &mut Errors, effect: &EffectDef) -> Who {
    let names: Vec<&str> = Who::NAMES.iter().map(|(n, _)| *n).collect();
    let found = text_field(e, effect, "who", &names);
    Who::NAMES
        .iter()
        .find(|(n, _)| Some(*n) == found)
        .map_or(Who::All, |(_, w)| *w)
}

fn stories(e: &mut Errors, set: &PackSet) -> Vec<Story> {
    let kinds = symbols(e, set, "kind");
    let stages = ints(e, set, "stages");
    let bonus = ints(e, set, "bonus");
    let kind_names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
    set.cards
        .iter()
        .enumerate()
        .map(|(t, card)| match kinds[t] {
            Some("quest") => {
                let n = stages[t];
                if !(1..=MAX_STAGES as i64).contains(&n) {
                    e.at(
                        card.attr_loc("stages"),
                        "out-of-range",
                        format!(
                            "quest `{}` has {n} stages; a quest has 1 to {MAX_STAGES}",
                            card.id
                        ),
                        "here",
                    );
                }
                Story::Quest {
                    stages: n.clamp(1, MAX_STAGES as i64) as u8,
                }
            }
            Some("tournament") => Story::Tournament {
                bonus: u32::try_from(bonus[t]).unwrap_or(0),
            },
            Some("event") => {
                let mut effects = Vec::new();
                for effect in &card.effects {
                    let parsed = match effect.kind.value.as_str() {
                        "quest-bonus" => {
                            known_fields(e, effect, &["shields"]);
                            int_field(e, effect, "shields", 0, 1000).map(|s| Effect::QuestBonus {
                                shields: s as u32,
                            })
                        }
                        "draw" => {
                            known_fields(e, effect, &["who", "cards"]);
                            let who = who(e, effect);
                            int_field(e, effect, "cards", 0, 60).map(|c| Effect::Draw {
                                who,
                                cards: c as u8,
                            })
                        }
                        "discard-allies" => {
                            known_fields(e, effect, &["who"]);
                            Some(Effect::DiscardAllies { who: who(e, effect) })
                        }
                        "shields" => {
                            known_fields(e, effect, &["who", "shields"]);
                            let who = who(e, effect);
                            int_field(e, effect, "shields", -1000, 1000)
                                .map(|s| Effect::Shields { who, shields: s })
                        }
                        "discard" => {
                            known_fields(e, effect, &["who", "choices"]);
                            let who = who(e, effect);
                            discard_choices(e, effect, &kind_names)
                                .map(|choices| Effect::Discard { who, choices })
                        }
                        _ => {
                            unknown_effect(
                                e,
                                effect,
                                "event",
                                &[
                                    "quest-bonus",
                                    "draw",
                                    "discard-allies",
                                    "shields",
                                    "discard",
                                ],
                            );
                            None
                        }
                    };
                    effects.extend(parsed);
                }
                Story::Event { effects }
            }
            other => {
                e.at(
                    card.attr_loc("kind"),
                    "unknown-value",
                    format!(
                        "story card `{}` has kind {}; the quests rules know quest, tournament and event",
                        card.id,
                        other.map_or("(none)".to_string(), |n| format!("`{n}`"))
                    ),
                    "here",
                );
                Story::Event {
                    effects: Vec::new(),
                }
            }
        })
        .collect()
}

/// `choices = [{ of = "weapon", cards = 1 }, …]`.
fn discard_choices(
    e: &mut Errors,
    effect: &EffectDef,
    kind_names: &[&str],
) -> Option<Vec<(Kind, u8)>> {
    let Some(node) = field(effect, "choices") else {
        e.at(
            &effect.kind.loc,
            "missing-field",
            "a `discard` effect needs `choices = [{ of = \"<kind>\", cards = <n> }, ...]`".into(),
            "this effect",
        );
        return None;
    };
    let NodeKind::Array(items) = &node.kind else {
        e.at(
            &field_loc(effect, node),
            "wrong-type",
            format!("`choices` must be an array, found {}", node.describe()),
            "here",
        );
        return None;
    };
    let mut out = Vec::new();
    for item in items {
        let NodeKind::Table(entries) = &item.kind else {
            e.at(
                &field_loc(effect, item),
                "wrong-type",
                "each choice must be a table `{ of = \"<kind>\", cards = <n> }`".into(),
                "here",
            );
            continue;
        };
        let mut of = None;
        let mut cards = None;
        for entry in entries {
            let at = Loc {
                source: effect.kind.loc.source,
                span: entry.value.span.clone(),
            };
            match (entry.key.as_str(), &entry.value.kind) {
                ("of", NodeKind::Str(s)) => match Kind::from_name(s) {
                    Some(k) => of = Some(k),
                    None => e.at(
                        &at,
                        "unknown-value",
                        format!(
                            "`of` = `{s}` is no adventure kind; the kinds are {}",
                            kind_names.join(", ")
                        ),
                        "here",
                    ),
                },
                ("cards", NodeKind::Int(n)) if (1..=60).contains(n) => cards = Some(*n as u8),
                ("of" | "cards", _) => e.at(
                    &at,
                    "wrong-type",
                    format!(
                        "`{}` must be {}",
                        entry.key,
                        if entry.key == "of" {
                            "a kind name"
                        } else {
                            "a whole number from 1 to 60"
                        }
                    ),
                    "here",
                ),
                (other, _) => e.at(
                    &at,
                    "unknown-key",
                    format!("a discard choice has no field `{other}` (only `of` and `cards`)"),
                    "here",
                ),
            }
        }
        if let (Some(of), Some(cards)) = (of, cards) {
            out.push((of, cards));
        } else {
            e.at(
                &field_loc(effect, item),
                "missing-field",
                "a discard choice needs both `of` and `cards`".into(),
                "here",
            );
        }
    }
    Some(out)
}
