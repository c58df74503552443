//! Building the rulebook from the pack: every card, number and condition the rules read,
//! with a diagnostic pointing into the pack for anything missing or inconsistent.

use grail_engine::cond::words::describe;
use grail_engine::cond::{Program, solve};
use grail_engine::counts::Counts;
use grail_engine::diag::Diagnostic;
use grail_engine::exchange::Item;
use grail_schema::{Card as PackCard, CardSet as PackSet, Pack};

use super::effects::{self, Effect, When};
use super::state::{MAX_PLAYERS, TREASURE_SET, VIRTUE_SET};
use super::{BotWeights, HonorCards, Numbers, Quest, TableNumbers, Trial, Virtues};
use crate::cards::card_set;
use crate::pack_errors::Errors;

/// The most presentation shapes kept per quest for the bots' estimate.
const MAX_SHAPES: usize = 32;

/// Collects problems instead of stopping at the first, so lint shows them all.
pub fn compile(pack: &Pack) -> Result<Virtues, Vec<Diagnostic>> {
    let mut e = Errors(Vec::new());
    let virtue_set = e.take(pack.set("virtues"));
    let treasure_set = e.take(pack.set("treasures"));
    let honor_set = e.take(pack.set("honors"));
    let quest_set = e.take(pack.set("quests"));
    let trial_set = e.take(pack.set("trials"));

    let int = |e: &mut Errors, name: &str| e.take(pack.int(name)).unwrap_or_default();
    let small = |e: &mut Errors, name: &str| u8::try_from(int(e, name)).unwrap_or(u8::MAX);
    let pct = |e: &mut Errors, name: &str| int(e, name) as f64 / 100.0;
    let n = Numbers {
        starting_virtues: small(&mut e, "starting_virtues"),
        pray_draw: small(&mut e, "pray_draw"),
        tax_draw: small(&mut e, "tax_draw"),
        by_players: by_players(&mut e, pack),
        duel_questing_knights: e.take(pack.flag("duel_questing_knights")).unwrap_or(false),
        joust_prize_from_deck: e.take(pack.flag("joust_prize_from_deck")).unwrap_or(false),
        ending_margin: int(&mut e, "ending_margin"),
        sin_multiplier: int(&mut e, "sin_multiplier"),
        turn_limit: u32::try_from(int(&mut e, "turn_limit")).unwrap_or(u32::MAX),
        bot: BotWeights {
            virtue: pct(&mut e, "bot_virtue_pct"),
            ready_quest: pct(&mut e, "bot_ready_quest_pct"),
            prospect: pct(&mut e, "bot_prospect_pct"),
            other_quests: pct(&mut e, "bot_other_quests_pct"),
            win: pct(&mut e, "bot_win_pct"),
            loyalty: pct(&mut e, "bot_loyalty_pct"),
            spread: int(&mut e, "bot_lead_spread") as f64,
            death: int(&mut e, "bot_death_cost") as f64,
        },
    };
    let joust = e.take(pack.condition("joust_card"));
    let duel = e.take(pack.condition("duel_card"));
    let aid = e.take(pack.condition("prayer_aid"));
    let sin = e.take(pack.condition("sin_pairs"));

    let (Some(virtue_set), Some(treasure_set), Some(honor_set), Some(quest_set), Some(trial_set)) =
        (virtue_set, treasure_set, honor_set, quest_set, trial_set)
    else {
        return Err(e.0);
    };

    if usize::from(pack.players.1) > MAX_PLAYERS {
        e.0.push(Diagnostic::error(
            "out-of-range",
            format!(
                "Camelot Virtues seats at most {MAX_PLAYERS} players, not {}",
                pack.players.1
            ),
        ));
    }
    let crown = named_card(&mut e, pack, "crown", treasure_set);
    let honor_card = named_card(&mut e, pack, "honor_card", honor_set);
    let dishonor_card = named_card(&mut e, pack, "dishonor_card", honor_set);
    let honor = match (honor_card, dishonor_card) {
        (Some(h), Some(d)) => {
            let (h, d) = (
                &honor_set.cards[usize::from(h)],
                &honor_set.cards[usize::from(d)],
            );
            HonorCards {
                honor_name: h.name.clone(),
                dishonor_name: d.name.clone(),
                honor_points: points(&mut e, h),
                dishonor_points: points(&mut e, d),
                honor_copies: h.copies,
                dishonor_copies: d.copies,
            }
        }
        _ => HonorCards::default(),
    };
    let treasure_points = treasure_set
        .cards
        .iter()
        .map(|c| points(&mut e, c))
        .collect();
    let feast_effects = |e: &mut Errors, set: &PackSet| -> Vec<Vec<Effect>> {
        set.cards
            .iter()
            .map(|c| {
                e.take(effects::read(set, c, &[When::TradedInFeast]))
                    .unwrap_or_default()
            })
            .collect()
    };
    let virtue_feast = feast_effects(&mut e, virtue_set);
    let treasure_feast = feast_effects(&mut e, treasure_set);
    for card in &virtue_set.cards {
        if treasure_set.card(&card.id).is_some() {
            e.here(
                &card.loc,
                "duplicate-id",
                format!(
                    "`{}` is both a virtue and a treasure; feast offers name cards by id, so the ids must differ",
                    card.id
                ),
            );
        }
    }
    let deck = virtue_set.deck();
    let quests = quest_set
        .cards
        .iter()
        .filter_map(|c| quest(&mut e, quest_set, c, (virtue_set, &deck)))
        .collect();
    let trials = trial_set
        .cards
        .iter()
        .filter_map(|c| trial(&mut e, trial_set, c, &deck))
        .collect();
    let over_virtues = |e: &mut Errors, named: &grail_schema::NamedCondition| {
        if named.over != ["virtues"] {
            e.here(
                &named.loc,
                "condition-type",
                format!("[conditions.{}] must range over the virtues", named.name),
            );
        }
    };
    for named in [joust, duel, aid, sin].into_iter().flatten() {
        over_virtues(&mut e, named);
    }
    let mask = |named: Option<&grail_schema::NamedCondition>| -> u64 {
        let Some(named) = named else { return 0 };
        (0..virtue_set.cards.len().min(64))
            .filter(|&t| {
                let mut one = [0u8; 64];
                one[t] = 1;
                named.program.test(&one[..named.program.types()], &[])
            })
            .fold(0, |m, t| m | (1u64 << t))
    };
    let (joust_mask, duel_mask, aid_mask) = (mask(joust), mask(duel), mask(aid));
    let items = (0..virtue_set.cards.len())
        .map(|t| Item {
            set: VIRTUE_SET,
            card: t as u8,
        })
        .chain((0..treasure_set.cards.len()).map(|t| Item {
            set: TREASURE_SET,
            card: t as u8,
        }))
        .collect();

    if !e.0.is_empty() {
        return Err(e.0);
    }
    let (Some(joust), Some(duel), Some(sin), Some(crown)) = (joust, duel, sin, crown) else {
        return Err(e.0);
    };
    let text = |named: &grail_schema::NamedCondition| {
        named
            .text
            .clone()
            .unwrap_or_else(|| format!("`{}`", named.expr))
    };
    let rules = Virtues {
        // Named the way it was opened, so replays and saves open the same pack again.
        game: pack.origin.game.clone(),
        variant: pack.origin.variant.clone(),
        players: usize::from(pack.players.0)..=usize::from(pack.players.1),
        virtues: card_set(virtue_set),
        treasures: card_set(treasure_set),
        quest_cards: card_set(quest_set),
        trial_cards: card_set(trial_set),
        treasure_points,
        crown,
        honor,
        quests,
        trials,
        virtue_feast,
        treasure_feast,
        joust_mask,
        duel_mask,
        aid_mask,
        joust_text: text(joust),
        duel_text: text(duel),
        sin_pairs: sin.program.clone(),
        items,
        n,
    };
    Ok(rules.with_estimates())
}

/// The params that may depend on the player count, for every count up to the most the pack
/// seats (the counts it does not allow stay zero, never read).
fn by_players(e: &mut Errors, pack: &Pack) -> Vec<TableNumbers> {
    let (min, max) = pack.players;
    (0..=max)
        .map(|players| {
            if players < min {
                return TableNumbers::default();
            }
            let mut small = |name: &str| {
                e.take(pack.param_for_players(name, players))
                    .map_or(0, |v| u8::try_from(v).unwrap_or(u8::MAX))
            };
            TableNumbers {
                starting_quests: small("starting_quests"),
                bestow_cards: small("bestow_cards"),
                pray_aid_draw: small("pray_aid_draw"),
                feast_offers: small("feast_offers"),
                joust_prizes: small("joust_prizes"),
            }
        })
        .collect()
}

/// The card of `set` a text param names.
fn named_card(e: &mut Errors, pack: &Pack, param: &str, set: &PackSet) -> Option<u8> {
    let id = e.take(pack.text(param))?;
    match set.card(id) {
        Some((i, _)) => Some(i as u8),
        None => {
            if let Ok(p) = pack.param(param) {
                let ids: Vec<&str> = set.cards.iter().map(|c| c.id.as_str()).collect();
                e.0.push(
                    Diagnostic::error(
                        "unknown-card",
                        format!("`{param}` names `{id}`, which is no card of `{}`", set.id),
                    )
                    .at(p.loc.source, p.loc.span.clone(), "here")
                    .with_help(format!("one of: {}", ids.join(", "))),
                );
            }
            None
        }
    }
}

fn points(e: &mut Errors, card: &PackCard) -> i64 {
    card.points.unwrap_or_else(|| {
        e.here(
            &card.loc,
            "missing-field",
            format!("`{}` has no points", card.id),
        );
        0
    })
}

fn attribute(e: &mut Errors, set: &PackSet, t: usize, name: &str) -> u8 {
    match set.int(t, name) {
        Some(v) => u8::try_from(v).unwrap_or(u8::MAX),
        None => {
            e.here(
                &set.cards[t].loc,
                "missing-attribute",
                format!("`{}` needs a whole-number `{name}`", set.cards[t].id),
            );
            0
        }
    }
}

fn quest(
    e: &mut Errors,
    set: &PackSet,
    card: &PackCard,
    (virtues, deck): (&PackSet, &[u8]),
) -> Option<Quest> {
    let t = set.cards.iter().position(|c| c.id == card.id)?;
    let Some(condition) = &card.condition else {
        e.here(
            &card.loc,
            "missing-field",
            format!(
                "quest `{}` has no condition (the virtues to present)",
                card.id
            ),
        );
        return None;
    };
    let trials = attribute(e, set, t, "trials");
    let max_knights = attribute(e, set, t, "knights");
    let list = e.take(effects::read(set, card, &[When::Complete, When::Ignore]))?;
    Some(Quest {
        shapes: shapes(&condition.program, deck),
        requirement: condition.program.clone(),
        source: condition.text.clone(),
        words: {
            let names: Vec<&str> = virtues.cards.iter().map(|c| c.name.as_str()).collect();
            describe(&condition.text, virtues.universe(), &names)
                .unwrap_or_else(|| condition.text.clone())
        },
        trials,
        max_knights,
        reward: effects::at(&list, When::Complete),
        penalty: effects::at(&list, When::Ignore),
        text: card.text.clone(),
        gain: 0.0,
        loss: 0.0,
        honors: 0.0,
    })
}

fn trial(e: &mut Errors, set: &PackSet, card: &PackCard, deck: &[u8]) -> Option<Trial> {
    let list = e.take(effects::read(set, card, &[When::Unmet, When::Drawn]))?;
    let unmet = effects::at(&list, When::Unmet);
    if card.condition.is_none() && !unmet.is_empty() {
        e.here(
            &card.loc,
            "missing-field",
            format!(
                "trial `{}` has effects `on = \"unmet\"` but no condition to meet",
                card.id
            ),
        );
        return None;
    }
    Some(Trial {
        shapes: card
            .condition
            .as_ref()
            .map(|c| shapes(&c.program, deck))
            .unwrap_or_default(),
        requirement: card.condition.as_ref().map(|c| c.program.clone()),
        source: card
            .condition
            .as_ref()
            .map(|c| c.text.clone())
            .unwrap_or_default(),
        unmet,
        drawn: effects::at(&list, When::Drawn),
        text: card.text.clone(),
    })
}

/// The legal presentations of a requirement from the whole deck.
fn shapes(program: &Program, deck: &[u8]) -> Vec<Counts> {
    let mut out = Vec::new();
    solve::payments(program, deck, &[], |p| {
        out.push(Counts::from_iter(p.counts().iter().enumerate().flat_map(
            |(t, &n)| std::iter::repeat_n(t as u8, usize::from(n)),
        )));
        out.len() < MAX_SHAPES
    });
    out
}
