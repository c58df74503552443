//! Building the rulebook from the pack: every card, number and condition the rules read,
//! with a diagnostic pointing into the pack for anything missing or inconsistent.

use grail_engine::cond::Domain;
use grail_engine::cond::affordable::{MAX_CONDITIONS, Readers};
use grail_engine::cond::ceiling::Ceiling;
use grail_engine::diag::Diagnostic;
use grail_schema::{CardSet as PackSet, NamedCondition, Pack};

use super::{Adventure, KingArthur, Numbers};
use crate::cards::card_set;
use crate::pack_errors::Errors;

/// Collects problems instead of stopping at the first, so lint shows them all.
pub fn compile(pack: &Pack) -> Result<KingArthur, Vec<Diagnostic>> {
    let mut e = Errors(Vec::new());
    let knights = e.take(pack.set("knights"));
    let adversaries = e.take(pack.set("adversaries"));
    let adventure_set = e.take(pack.set("adventures"));
    let seal_set = e.take(pack.set("seals"));

    let int = |e: &mut Errors, name: &str| e.take(pack.int(name)).unwrap_or_default();
    let small = |e: &mut Errors, name: &str| u8::try_from(int(e, name)).unwrap_or(u8::MAX);
    let n = Numbers {
        hand_size: small(&mut e, "hand_size"),
        column_limit: small(&mut e, "column_limit"),
        knight_draw: small(&mut e, "knight_draw"),
        rest_draw: small(&mut e, "rest_draw"),
        end_when_adventures_left: small(&mut e, "end_when_adventures_left"),
        tiebreak_knights_in_hand: e
            .take(pack.flag("tiebreak_knights_in_hand"))
            .unwrap_or(true),
        seals_per_player: small(&mut e, "seals_per_player"),
        double_challenge_factor: int(&mut e, "double_challenge_factor"),
        turn_limit: u32::try_from(int(&mut e, "turn_limit")).unwrap_or(u32::MAX),
        bot_knight_worth_pct: int(&mut e, "bot_knight_worth_pct"),
        bot_ready_adventure_pct: int(&mut e, "bot_ready_adventure_pct"),
    };

    let challenge = e.take(pack.condition("challenge"));
    let payment_cost = e.take(pack.condition("payment_cost"));
    let hand_score = e.take(pack.condition("hand_score"));
    let tiebreak = e.take(pack.condition("tiebreak"));

    let (Some(knights), Some(adversaries), Some(adventure_set), Some(seal_set)) =
        (knights, adversaries, adventure_set, seal_set)
    else {
        return Err(e.0);
    };

    let power = values(&mut e, adversaries, "power");
    let strength = values(&mut e, knights, "strength");
    let (column_names, column_of) = columns(&mut e, pack, adversaries);
    let adventures = adventure_set
        .cards
        .iter()
        .filter_map(|card| {
            let Some(condition) = &card.condition else {
                e.at(
                    &card.loc,
                    "missing-field",
                    format!("adventure `{}` has no condition", card.id),
                    "here",
                );
                return None;
            };
            let Some(points) = card.points else {
                e.at(
                    &card.loc,
                    "missing-field",
                    format!("adventure `{}` has no points", card.id),
                    "here",
                );
                return None;
            };
            // An adventure with several copies would still be one card on the table each.
            Some(
                (0..card.copies)
                    .map(|_| Adventure {
                        id: card.id.clone(),
                        name: card.name.clone(),
                        points,
                        condition: condition.program.clone(),
                        source: condition.text.clone(),
                    })
                    .collect::<Vec<_>>(),
            )
        })
        .flatten()
        .collect::<Vec<_>>();
    if adventures.len() > MAX_CONDITIONS
        && let Some(card) = adventure_set.cards.iter().max_by_key(|c| c.copies)
    {
        e.here(
            &card.loc,
            "too-many-cards",
            format!(
                "the table holds at most {MAX_CONDITIONS} adventure cards; these make {} \
                 (`{}` alone has {} copies)",
                adventures.len(),
                card.id,
                card.copies
            ),
        );
    }
    let seal_colors = seal_colors(&mut e, pack, seal_set, &n);
    if let Some(challenge) = challenge {
        let deck: Vec<u8> = knights.cards.iter().map(|c| c.copies).collect();
        for (card, &power) in adversaries.cards.iter().zip(&power) {
            e.unreachable(
                challenge,
                &deck,
                &[power],
                &card.loc,
                format!(
                    "no hand of knights can challenge adversary `{}` (power {power})",
                    card.id
                ),
            );
        }
    }

    if !e.0.is_empty() {
        return Err(e.0);
    }
    let (Some(challenge), Some(payment_cost), Some(hand_score), Some(tiebreak)) =
        (challenge, payment_cost, hand_score, tiebreak)
    else {
        return Err(e.0);
    };
    let challenge_program = program(challenge);
    Ok(KingArthur {
        // Named the way it was opened, so replays and saves open the same pack again.
        game: pack.origin.game.clone(),
        variant: pack.origin.variant.clone(),
        players: usize::from(pack.players.0)..=usize::from(pack.players.1),
        knights: card_set(knights),
        adversaries: card_set(adversaries),
        column_of,
        column_names,
        power,
        strength,
        adventure_readers: Readers::new(
            &adventures
                .iter()
                .map(|a| a.condition.reads())
                .collect::<Vec<_>>(),
        ),
        adventures,
        challenge_text: challenge
            .text
            .clone()
            .unwrap_or_else(|| format!("`{}`", challenge.expr)),
        challenge_source: challenge.expr.clone(),
        // Its one argument, slot 0, is the price: the power asked.
        challenge_ceiling: Ceiling::new(&challenge_program, 0),
        challenge: challenge_program,
        payment_cost: program(payment_cost),
        hand_score: program(hand_score),
        tiebreak: program(tiebreak),
        seal_colors,
        n,
    })
}

fn program(named: &NamedCondition) -> grail_engine::cond::Program {
    named.program.clone()
}

/// Each card's value attribute (an adversary's power, a knight's strength).
fn values(e: &mut Errors, set: &PackSet, what: &str) -> Vec<i64> {
    let Some(attr) = set.universe.value_attr else {
        e.at(
            &set.loc,
            "missing-field",
            format!(
                "set `{}` declares no value attribute, which gives each card's {what}",
                set.id
            ),
            "add `value = \"…\"`",
        );
        return Vec::new();
    };
    (0..set.cards.len())
        .map(|t| set.universe.int(t, attr).unwrap_or(0))
        .collect()
}

/// The columns: one per value of the `column_attribute`, in declaration order.
fn columns(e: &mut Errors, pack: &Pack, adversaries: &PackSet) -> (Vec<String>, Vec<u8>) {
    let Some(name) = e.take(pack.text("column_attribute")) else {
        return (Vec::new(), Vec::new());
    };
    let param = pack.param("column_attribute").ok();
    let attr = adversaries.universe.attr_index(name);
    let names = match attr.map(|a| &adversaries.universe.attrs[a].domain) {
        Some(Domain::Symbols(names)) => names.clone(),
        _ => {
            if let Some(p) = param {
                e.at(
                    &p.loc,
                    "unknown-attribute",
                    format!("`{name}` is not a named attribute of the adversaries, so it cannot sort them into columns"),
                    "expected an attribute such as `color`",
                );
            }
            return (Vec::new(), Vec::new());
        }
    };
    let column_of = (0..adversaries.cards.len())
        .map(|t| match adversaries.symbol(t, name) {
            Some(v) => names.iter().position(|n| n == v).unwrap_or(0) as u8,
            None => 0,
        })
        .collect();
    (names, column_of)
}

/// One seal colour per seat: the seal set's colours, each with enough seals.
fn seal_colors(e: &mut Errors, pack: &Pack, seals: &PackSet, n: &Numbers) -> Vec<String> {
    let colors: Vec<String> = (0..seals.cards.len())
        .map(|t| {
            seals
                .symbol(t, "color")
                .unwrap_or(&seals.cards[t].id)
                .to_string()
        })
        .collect();
    if n.seals_per_player > 0 {
        if colors.len() < usize::from(pack.players.1) {
            e.at(
                &seals.loc,
                "too-few-seals",
                format!(
                    "{} players need a seal colour each, but the seals come in {} colours",
                    pack.players.1,
                    colors.len()
                ),
                "here",
            );
        }
        for card in seals.cards.iter().filter(|c| c.copies < n.seals_per_player) {
            e.at(
                &card.loc,
                "too-few-seals",
                format!(
                    "each player takes {} seals, but `{}` has only {}",
                    n.seals_per_player, card.id, card.copies
                ),
                "here",
            );
        }
    }
    colors
}
