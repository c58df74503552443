//! Building the rulebook from the pack: the board, the figures, the cards and their effects,
//! the numbers. Everything that would make the game unplayable (a plate missing, a Prince
//! off the board, a ring supply that can run out, rounds that do not use up the cards) is a
//! diagnostic pointing into the pack, so `grail lint` reports it.

use grail_engine::cond::{Domain, Value};
use grail_engine::counts::Counts;
use grail_engine::diag::{Diagnostic, did_you_mean};
use grail_engine::ring::{MAX_FIGURES, MAX_SEATS};
use grail_engine::seats::Direction;
use grail_engine::track::ScoreTrack;
use grail_schema::model::{EffectDef, Loc};
use grail_schema::node::{Node, NodeKind};
use grail_schema::{CardSet as PackSet, Pack};

use super::state::Action;
use super::{
    Artus, Board, CardDef, Deck, Effect, MAX_PRINCES, Move, Numbers, Pick, Plate, Prince, Who,
};
use crate::pack_errors::Errors;

/// The decks every player has, in the order of their piles.
const DECKS: [&str; 3] = ["knight-cards", "king-cards", "scoring-cards"];

/// Collects problems instead of stopping at the first, so lint shows them all.
pub fn compile(pack: &Pack) -> Result<Artus, Vec<Diagnostic>> {
    let mut e = Errors(Vec::new());
    let plates = e.take(pack.set("plates"));
    let seats = e.take(pack.set("seats"));
    let situations = e.take(pack.set("situations"));
    let princes = e.take(pack.set("princes"));
    let decks: Vec<Option<&PackSet>> = DECKS.iter().map(|id| e.take(pack.set(id))).collect();
    let tile_points = e.take(pack.int("tile_points"));
    let n = numbers(&mut e, pack);
    let players = (usize::from(pack.players.0), usize::from(pack.players.1));
    if players.0 < 2 {
        let at = pack.players_loc();
        e.0.push(
            Diagnostic::error(
                "unsupported-players",
                format!(
                    "the artus rules need at least 2 players (a player alone has no rival to outscore), not {}",
                    players.0
                ),
            )
            .at(at.source, at.span.clone(), "allows fewer than 2")
            .with_help("allow 2 or more players: `players = { min = 2, max = … }`"),
        );
    }
    let (Some(plates), Some(seats), Some(situations), Some(princes), Some(n)) =
        (plates, seats, situations, princes, n)
    else {
        return Err(e.0);
    };
    let Some(decks) = decks.into_iter().collect::<Option<Vec<_>>>() else {
        return Err(e.0);
    };

    let board = board(&mut e, pack, plates, seats, situations);
    // On a board of the wrong size, every check of seats, Princes and moves would repeat it.
    if !(2..=MAX_SEATS).contains(&board.seats) {
        return Err(e.0);
    }
    let (colors, prince_list) = figures(&mut e, princes, &board, &n);
    let figures_ok = prince_list.len() == princes.cards.len();
    let (cards, deck_list) = cards(&mut e, pack, &decks, &colors, &board);
    // With a Prince refused, what the rings and cards need of the Princes cannot be judged.
    if figures_ok {
        check_rings(&mut e, pack, princes, &prince_list, &n);
        check_ring_targets(&mut e, &decks, &cards, &prince_list, &colors);
    }
    check_hands(&mut e, pack, &cards, &deck_list, &n);
    for p in players.0.max(2)..=players.1 {
        let each = n.knights.get(p).copied().unwrap_or(0);
        let figures = prince_list.len() + p * usize::from(each);
        if each == 0 {
            e.at_param_for_players(
                pack,
                "knights",
                p as u8,
                "no-knights",
                format!("with {p} players, no Knight is left to sit at the table once the score markers are taken"),
            );
        } else if figures > board.seats || figures > MAX_FIGURES {
            e.at_param_for_players(
                pack,
                "knights",
                p as u8,
                "seats-short",
                format!(
                    "with {p} players, {figures} figures (Princes and Knights) need seats, but the board has {}",
                    board.seats
                ),
            );
        }
    }

    if !e.0.is_empty() {
        return Err(e.0);
    }
    let deck_cards = deck_list
        .iter()
        .map(|d| {
            let mut pile = Vec::new();
            if d.in_game {
                for t in d.first..d.first + d.len {
                    let copies = cards[usize::from(t)].copies;
                    pile.extend(std::iter::repeat_n(t, usize::from(copies)));
                }
            }
            pile
        })
        .collect();
    let neutral_moves: Vec<Vec<Action>> = cards
        .iter()
        .enumerate()
        .map(|(c, card)| {
            let mut moves = Vec::new();
            for (p, prince) in prince_list.iter().enumerate() {
                for &steps in &card.neutral_steps[usize::from(prince.color)] {
                    moves.push(Action::Move {
                        card: c as u8,
                        figure: p as u8,
                        steps,
                    });
                }
            }
            moves
        })
        .collect();
    let moves = (0..=players.1)
        .map(|count| {
            let each = n.knights.get(count).copied().unwrap_or(0);
            (0..count)
                .map(|seat| {
                    cards
                        .iter()
                        .enumerate()
                        .map(|(c, card)| {
                            let mut moves = Vec::new();
                            for i in 0..each {
                                let first = prince_list.len() + seat * usize::from(each);
                                let figure = first as u8 + i;
                                for &steps in &card.knight_steps {
                                    moves.push(Action::Move {
                                        card: c as u8,
                                        figure,
                                        steps,
                                    });
                                }
                            }
                            moves.extend_from_slice(&neutral_moves[c]);
                            moves
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    let ring_moves = cards
        .iter()
        .enumerate()
        .map(|(c, card)| {
            (0..prince_list.len())
                .map(|king| {
                    let colors = card.ring_colors().unwrap_or(0);
                    (0..prince_list.len())
                        .filter(|&p| p != king && colors & (1 << prince_list[p].color) != 0)
                        .map(|p| Action::Ring {
                            card: c as u8,
                            prince: p as u8,
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    Ok(Artus {
        moves,
        ring_moves,
        deck_cards,
        // Named the way it was opened, so replays and saves open the same pack again.
        game: pack.origin.game.clone(),
        variant: pack.origin.variant.clone(),
        players: players.0..=players.1,
        track: ScoreTrack::new(tile_points.unwrap_or(0)),
        board,
        princes: prince_list,
        colors,
        cards,
        decks: deck_list,
        n,
    })
}

fn numbers(e: &mut Errors, pack: &Pack) -> Option<Numbers> {
    // By player count; the counts the pack does not allow stay 0.
    let (min, max) = pack.players;
    let knights: Vec<u8> = (0..=max)
        .map(|p| match p >= min {
            true => e
                .take(pack.param_for_players("knights", p))
                .and_then(|v| u8::try_from(v).ok())
                .unwrap_or_default(),
            false => 0,
        })
        .collect();
    let mut small = |name: &str| -> u8 {
        e.take(pack.int(name))
            .and_then(|v| u8::try_from(v).ok())
            .unwrap_or_default()
    };
    let markers = small("score_markers");
    let knights = knights.iter().map(|k| k.saturating_sub(markers)).collect();
    let n = Numbers {
        knights,
        rings: small("rings"),
        crown_rings: small("crown_rings"),
        old_king_keeps: small("old_king_keeps"),
        forward: Direction::Clockwise,
        displace: Direction::CounterClockwise,
        cards_per_turn: small("cards_per_turn"),
        draws_per_turn: small("draws_per_turn"),
        rounds: small("rounds"),
        bot_seat_worth_pct: e.take(pack.int("bot_seat_worth_pct")).unwrap_or(0),
        bot_rival_pct: e.take(pack.int("bot_rival_pct")).unwrap_or(0),
    };
    let forward = direction(e, pack, "forward");
    let displace = direction(e, pack, "displace");
    if n.old_king_keeps >= n.crown_rings {
        e.at_param(
            pack,
            "old_king_keeps",
            "invalid-value",
            format!(
                "the old King keeps {} rings, but {} crown a Prince: he would be crowned again at once",
                n.old_king_keeps, n.crown_rings
            ),
        );
    }
    Some(Numbers {
        forward: forward?,
        displace: displace?,
        ..n
    })
}

fn direction(e: &mut Errors, pack: &Pack, name: &str) -> Option<Direction> {
    match e.take(pack.text(name))? {
        "clockwise" => Some(Direction::Clockwise),
        "counter-clockwise" => Some(Direction::CounterClockwise),
        other => {
            e.at_param(
                pack,
                name,
                "invalid-value",
                format!("`{name}` must be \"clockwise\" or \"counter-clockwise\", not \"{other}\""),
            );
            None
        }
    }
}

/// The seats, the plates (one per seat, one of them the crown), and the situation types.
fn board(
    e: &mut Errors,
    pack: &Pack,
    plates: &PackSet,
    seats: &PackSet,
    situations: &PackSet,
) -> Board {
    let n = seats.cards.len();
    if !(2..=MAX_SEATS).contains(&n) {
        e.at(
            &seats.loc,
            "board-size",
            format!("the board has {n} seats; it needs 2 to {MAX_SEATS}"),
            "the seats",
        );
    }
    if plates.cards.len() != n {
        let what = if plates.cards.len() < n {
            "a plate is missing"
        } else {
            "there are plates to spare"
        };
        e.at(
            &plates.loc,
            "board-mismatch",
            format!(
                "the table has {} plates but the board {n} seats: {what} (each seat faces exactly one plate)",
                plates.cards.len()
            ),
            "the plates",
        );
    }
    let value_attr = plates.universe.value_attr;
    if value_attr.is_none() {
        e.at(
            &plates.loc,
            "missing-field",
            "set `plates` declares no value attribute, which gives each plate's points".into(),
            "add `value = \"…\"`",
        );
    }
    // Round the table counter-clockwise from the King's seat: by `position`, not list order,
    // so a mod can put a plate where it belongs.
    let by_position = plates.by_position().unwrap_or_else(|| {
        e.at(
            &plates.loc,
            "missing-field",
            "the plates need a `position` each: their place on the table counter-clockwise from the King's seat (0 to plates − 1)".into(),
            "the plates",
        );
        (0..plates.cards.len()).collect()
    });
    let plate_list: Vec<Plate> = by_position
        .iter()
        .map(|&t| Plate {
            value: value_attr
                .and_then(|a| plates.universe.int(t, a))
                .unwrap_or(0),
            color: plates.symbol(t, "color").unwrap_or("").to_string(),
        })
        .collect();
    let crown = match e.take(pack.text("crown_plate")) {
        Some(id) => match plates.card(id) {
            Some((i, _)) => by_position.iter().position(|&t| t == i).unwrap_or(0),
            None => {
                let near = did_you_mean(id, plates.cards.iter().map(|c| c.id.as_str()));
                let hint = near.map_or(String::new(), |n| format!("; did you mean `{n}`?"));
                e.at_param(
                    pack,
                    "crown_plate",
                    "unknown-card",
                    format!("there is no plate `{id}` to sit at the King's seat{hint}"),
                );
                0
            }
        },
        None => 0,
    };
    let seat_marks = (0..n)
        .map(|s| {
            seats
                .universe
                .attrs
                .iter()
                .enumerate()
                .filter(|(a, attr)| {
                    let yes = match &attr.domain {
                        Domain::Symbols(names) => names.iter().position(|v| v == "yes"),
                        Domain::Int { .. } => None,
                    };
                    yes.is_some_and(|y| seats.universe.value(s, *a) == Some(Value::Sym(y as u16)))
                })
                .map(|(_, attr)| attr.name.clone())
                .collect()
        })
        .collect();
    let order = match situations.product.as_slice() {
        [a, b] if a == "plates" && b == "seats" => Some(true),
        [a, b] if a == "seats" && b == "plates" => Some(false),
        _ => None,
    };
    let mut situation = Vec::new();
    match order {
        None => e.at(
            &situations.loc,
            "invalid-product",
            "set `situations` must be the product of `plates` and `seats` (`product = [\"plates\", \"seats\"]`): it describes where a Knight stands".into(),
            "here",
        ),
        Some(plates_first) if plates.cards.len() == n => {
            for &p in &by_position {
                for s in 0..n {
                    let members = if plates_first { [p, s] } else { [s, p] };
                    situation.push(situations.product_type(&members).unwrap_or(0));
                }
            }
        }
        Some(_) => {}
    }
    Board {
        seats: n,
        plates: plate_list,
        crown,
        seat_marks,
        situation,
    }
}

/// The Princes: their colours, crown seats and rings; exactly one starts as King.
fn figures(
    e: &mut Errors,
    set: &PackSet,
    board: &Board,
    n: &Numbers,
) -> (Vec<String>, Vec<Prince>) {
    let colors = match set
        .universe
        .attr_index("color")
        .map(|a| &set.universe.attrs[a].domain)
    {
        Some(Domain::Symbols(names)) if names.len() <= 8 => names.clone(),
        _ => {
            e.at(
                &set.loc,
                "missing-field",
                "set `princes` must declare `color`, a list of at most 8 colours (the cards' colours bind to them)".into(),
                "here",
            );
            Vec::new()
        }
    };
    if set.cards.len() > MAX_PRINCES || set.cards.is_empty() {
        e.at(
            &set.loc,
            "invalid-value",
            format!(
                "there are {} Princes; the rules allow 1 to {MAX_PRINCES}",
                set.cards.len()
            ),
            "here",
        );
    }
    let mut princes: Vec<Prince> = Vec::new();
    for (t, card) in set.cards.iter().enumerate() {
        let color = set
            .symbol(t, "color")
            .and_then(|c| colors.iter().position(|k| k == c))
            .unwrap_or(0) as u8;
        let seat = set.int(t, "seat");
        let rings = set.int(t, "rings");
        let (Some(seat), Some(rings)) = (seat, rings) else {
            e.at(
                &card.loc,
                "missing-field",
                format!(
                    "Prince `{}` needs a `seat` (the crown seat he starts on) and `rings`",
                    card.id
                ),
                "here",
            );
            continue;
        };
        if seat < 0 || seat as usize >= board.seats {
            e.at(
                &card.loc,
                "no-such-seat",
                format!(
                    "Prince `{}` starts on seat {seat}, but the board's seats are 0 to {}",
                    card.id,
                    board.seats.saturating_sub(1)
                ),
                "this Prince",
            );
            continue;
        }
        if let Some(other) = princes.iter().find(|p| i64::from(p.seat) == seat) {
            e.at(
                &card.loc,
                "seat-taken",
                format!(
                    "Princes `{}` and `{}` both start on seat {seat}",
                    other.id, card.id
                ),
                "this Prince",
            );
            continue;
        }
        princes.push(Prince {
            id: card.id.clone(),
            color,
            seat: seat as u8,
            rings: u8::try_from(rings).unwrap_or(u8::MAX),
        });
    }
    let kings = princes.iter().filter(|p| p.rings >= n.crown_rings).count();
    if kings != 1 && !princes.is_empty() {
        e.at(
            &set.loc,
            "no-king",
            format!(
                "{kings} Princes start with {} rings or more; exactly one must (he is King Arthur, on the large crown)",
                n.crown_rings
            ),
            "the Princes",
        );
    }
    (colors, princes)
}

/// The three decks and every card's effects.
fn cards(
    e: &mut Errors,
    pack: &Pack,
    decks: &[&PackSet],
    colors: &[String],
    board: &Board,
) -> (Vec<CardDef>, Vec<Deck>) {
    let mut cards: Vec<CardDef> = Vec::new();
    let mut deck_list = Vec::new();
    let scoring_in = e.take(pack.flag("scoring_deck")).unwrap_or(false);
    for (d, set) in decks.iter().enumerate() {
        let dealt_param = format!("{}_dealt", set.id.replace('-', "_"));
        let dealt = e.take(pack.int(&dealt_param)).unwrap_or(0);
        let in_game = d < 2 || scoring_in;
        let first = cards.len();
        for (t, card) in set.cards.iter().enumerate() {
            if let Some(other) = cards.iter().find(|c| c.id == card.id) {
                let other_deck = &DECKS[usize::from(other.deck)];
                e.at(
                    &card.loc,
                    "duplicate-id",
                    format!(
                        "card `{}` is in `{}` and `{other_deck}`; moves name cards by id, so ids must differ over all decks",
                        card.id, set.id
                    ),
                    "here",
                );
            }
            let effects: Vec<Effect> = card
                .effects
                .iter()
                .filter_map(|def| effect(e, def, colors, board))
                .collect();
            check_effects(e, set, t, &effects);
            let knight_steps = steps(&effects, |m| m.who != Who::Neutral);
            let neutral_steps = (0..colors.len())
                .map(|c| {
                    steps(&effects, |m| {
                        m.who != Who::Knight && m.colors & (1 << c) != 0
                    })
                })
                .collect();
            cards.push(CardDef {
                knight_steps,
                neutral_steps,
                id: card.id.clone(),
                name: card.name.clone(),
                deck: d as u8,
                copies: card.copies,
                effects,
                condition: card.condition.as_ref().map(|c| c.program.clone()),
                condition_text: card
                    .condition
                    .as_ref()
                    .map(|c| c.text.clone())
                    .unwrap_or_default(),
            });
        }
        if set.cards.iter().any(|c| c.condition.is_some())
            && set.condition_over.as_deref() != Some("situations")
        {
            e.at(
                &set.loc,
                "invalid-value",
                format!(
                    "the conditions of `{}` describe a player's Knights, so the set needs `condition_over = \"situations\"`",
                    set.id
                ),
                "here",
            );
        }
        let total = set.total();
        if dealt < 0 || dealt > i64::from(total) {
            e.at_param(
                pack,
                &dealt_param,
                "invalid-value",
                format!(
                    "{dealt} cards are dealt from `{}`, which holds {total}",
                    set.id
                ),
            );
        } else if dealt > 0 && !in_game {
            e.at_param(
                pack,
                &dealt_param,
                "invalid-value",
                format!("{dealt} cards are dealt from `{}`, which is not in the game (`scoring_deck = false`)", set.id),
            );
        }
        deck_list.push(Deck {
            word: set.id.strip_suffix("-cards").unwrap_or(&set.id).to_string(),
            first: first as u8,
            len: (cards.len() - first) as u8,
            dealt: u8::try_from(dealt).unwrap_or(0),
            in_game,
        });
    }
    if cards.len() > 64 {
        e.0.push(Diagnostic::error(
            "too-many-types",
            format!(
                "the decks hold {} kinds of card together; at most 64",
                cards.len()
            ),
        ));
    }
    (cards, deck_list)
}

/// The distances the move effects that `applies` allow, each once, in effect order (for
/// each distance: forward, then backward).
fn steps(effects: &[Effect], applies: impl Fn(&Move) -> bool) -> Vec<i8> {
    let mut out: Vec<i8> = Vec::new();
    for e in effects {
        let Effect::Move(m) = e else { continue };
        if !applies(m) {
            continue;
        }
        for n in m.min..=m.max {
            let n = n as i8;
            for s in [n, -n] {
                if (s > 0 || m.backward) && !out.contains(&s) {
                    out.push(s);
                }
            }
        }
    }
    out
}

/// A card needs something to do; its effects may not leave a move ambiguous.
fn check_effects(e: &mut Errors, set: &PackSet, t: usize, effects: &[Effect]) {
    let card = &set.cards[t];
    if card.effects.is_empty() {
        e.at(
            &card.loc,
            "missing-field",
            format!(
                "card `{}` has no effects: playing it would do nothing",
                card.id
            ),
            "here",
        );
    }
    let rings = effects
        .iter()
        .filter(|x| matches!(x, Effect::Ring { .. }))
        .count();
    let scores = effects
        .iter()
        .filter(|x| matches!(x, Effect::Score { .. }))
        .count();
    if rings > 1 || scores > 1 {
        // At the second effect of a kind, which the mod that wrote it owns.
        let second = |kind: &str| card.effects.iter().filter(|d| d.kind.value == kind).nth(1);
        let at = second("ring")
            .or_else(|| second("score"))
            .map_or(&card.loc, |d| &d.kind.loc);
        e.at(
            at,
            "ambiguous-effects",
            format!(
                "card `{}` has {} `ring` and {} `score` effects; at most one of each, so that a move says which",
                card.id, rings, scores
            ),
            "one too many",
        );
    }
    let chosen = effects.iter().any(|x| {
        matches!(
            x,
            Effect::Score {
                knights: Pick::Chosen,
                ..
            }
        )
    });
    match (chosen, card.condition.is_some()) {
        (true, false) => e.at(
            &card.loc,
            "missing-field",
            format!(
                "card `{}` scores chosen Knights but has no `condition` saying which",
                card.id
            ),
            "here",
        ),
        (false, true) => e.at(
            &card.loc,
            "unused-condition",
            format!(
                "card `{}` has a condition, but only `score` with `knights = \"chosen\"` reads one",
                card.id
            ),
            "here",
        ),
        _ => {}
    }
}

fn effect(e: &mut Errors, def: &EffectDef, colors: &[String], board: &Board) -> Option<Effect> {
    let source = def.kind.loc.source;
    let loc = |node: &Node| Loc {
        source,
        span: node.span.clone(),
    };
    let allowed: &[&str] = match def.kind.value.as_str() {
        "move" => &["figure", "colors", "steps", "backward"],
        "ring" => &["colors"],
        "score" => &["knights", "sign", "otherwise"],
        other => {
            let near = did_you_mean(other, ["move", "ring", "score"]);
            let hint = near.map_or(String::new(), |n| format!("; did you mean `{n}`?"));
            e.at(
                &def.kind.loc,
                "unknown-value",
                format!("there is no effect `{other}`: effects are move, ring and score{hint}"),
                "unknown effect",
            );
            return None;
        }
    };
    for (key, _) in def.fields.iter() {
        if !allowed.contains(&key.value.as_str()) {
            let near = did_you_mean(&key.value, allowed.iter().copied());
            let hint = near.map_or_else(
                || format!("; `{}` takes {}", def.kind.value, allowed.join(", ")),
                |n| format!("; did you mean `{n}`?"),
            );
            e.at(
                &key.loc,
                "unknown-key",
                format!("a `{}` effect has no `{}`{hint}", def.kind.value, key.value),
                "unknown key",
            );
        }
    }
    let field = |name: &str| def.fields.get(name);
    let text = |e: &mut Errors, name: &str, options: &[&str]| -> Option<Option<String>> {
        let Some(node) = field(name) else {
            return Some(None);
        };
        match &node.kind {
            NodeKind::Str(s) if options.is_empty() || options.contains(&s.as_str()) => {
                Some(Some(s.clone()))
            }
            _ => {
                e.at(
                    &loc(node),
                    "invalid-value",
                    format!("`{name}` must be one of: {}", options.join(", ")),
                    "here",
                );
                None
            }
        }
    };
    let mask = |e: &mut Errors| -> Option<u8> {
        let Some(node) = field("colors") else {
            return Some(((1u16 << colors.len()) - 1) as u8);
        };
        let NodeKind::Array(items) = &node.kind else {
            e.at(
                &loc(node),
                "wrong-type",
                "`colors` must be a list of Prince colours".into(),
                "here",
            );
            return None;
        };
        let mut m = 0u8;
        for item in items {
            match &item.kind {
                NodeKind::Str(c) if colors.contains(c) => {
                    m |= 1 << colors.iter().position(|k| k == c).unwrap_or(0);
                }
                _ => {
                    e.at(
                        &loc(item),
                        "unknown-value",
                        format!("the Princes' colours are {}", colors.join(", ")),
                        "not a Prince colour",
                    );
                    return None;
                }
            }
        }
        if m == 0 {
            e.at(
                &loc(node),
                "invalid-value",
                "`colors` lists no colour".into(),
                "empty",
            );
            return None;
        }
        Some(m)
    };
    match def.kind.value.as_str() {
        "move" => {
            let who = match text(e, "figure", &["knight", "prince-or-king", "any"])? {
                Some(w) => match w.as_str() {
                    "knight" => Who::Knight,
                    "prince-or-king" => Who::Neutral,
                    _ => Who::Any,
                },
                None => {
                    e.at(
                        &def.kind.loc,
                        "missing-field",
                        "a `move` effect needs `figure` (knight, prince-or-king or any)".into(),
                        "here",
                    );
                    return None;
                }
            };
            let colors = mask(e)?;
            let steps = match field("steps").map(|n| (n, &n.kind)) {
                Some((n, NodeKind::Array(items))) => match items.as_slice() {
                    [
                        Node {
                            kind: NodeKind::Int(a),
                            ..
                        },
                        Node {
                            kind: NodeKind::Int(b),
                            ..
                        },
                    ] if 1 <= *a && a <= b && (*b as usize) < board.seats && *b <= 127 => {
                        (*a as u8, *b as u8)
                    }
                    _ => {
                        e.at(
                            &loc(n),
                            "invalid-value",
                            format!(
                                "`steps` must be [least, most] with 1 <= least <= most < {} (the seats)",
                                board.seats
                            ),
                            "here",
                        );
                        return None;
                    }
                },
                Some((n, _)) => {
                    e.at(
                        &loc(n),
                        "wrong-type",
                        "`steps` must be [least, most]".into(),
                        "here",
                    );
                    return None;
                }
                None => {
                    e.at(
                        &def.kind.loc,
                        "missing-field",
                        "a `move` effect needs `steps = [least, most]`".into(),
                        "here",
                    );
                    return None;
                }
            };
            let backward = match field("backward") {
                None => false,
                Some(Node {
                    kind: NodeKind::Bool(b),
                    ..
                }) => *b,
                Some(n) => {
                    e.at(
                        &loc(n),
                        "wrong-type",
                        "`backward` must be true or false".into(),
                        "here",
                    );
                    return None;
                }
            };
            Some(Effect::Move(Move {
                who,
                colors,
                min: steps.0,
                max: steps.1,
                backward,
            }))
        }
        "ring" => Some(Effect::Ring { colors: mask(e)? }),
        _ => {
            let knights = match text(e, "knights", &["all", "best", "chosen"])?.as_deref() {
                Some("all") => Pick::All,
                Some("best") => Pick::Best,
                Some(_) => Pick::Chosen,
                None => {
                    e.at(
                        &def.kind.loc,
                        "missing-field",
                        "a `score` effect needs `knights` (all, best or chosen)".into(),
                        "here",
                    );
                    return None;
                }
            };
            let sign = match field("sign") {
                None => 1,
                Some(Node {
                    kind: NodeKind::Int(s @ (1 | -1)),
                    ..
                }) => *s,
                Some(n) => {
                    e.at(
                        &loc(n),
                        "invalid-value",
                        "`sign` must be 1 or -1".into(),
                        "here",
                    );
                    return None;
                }
            };
            let otherwise = match (field("otherwise"), knights) {
                (
                    Some(Node {
                        kind: NodeKind::Int(v),
                        ..
                    }),
                    Pick::Chosen,
                ) => *v,
                (None, Pick::Chosen) => {
                    e.at(&def.kind.loc, "missing-field", "scoring chosen Knights needs `otherwise`: the points when no choice meets the condition".into(), "here");
                    return None;
                }
                (Some(n), Pick::Chosen) => {
                    e.at(
                        &loc(n),
                        "wrong-type",
                        "`otherwise` must be a whole number of points".into(),
                        "here",
                    );
                    return None;
                }
                (Some(n), _) => {
                    e.at(
                        &loc(n),
                        "invalid-value",
                        "only `knights = \"chosen\"` can fail and score `otherwise`".into(),
                        "here",
                    );
                    return None;
                }
                (None, _) => 0,
            };
            Some(Effect::Score {
                knights,
                sign,
                otherwise,
            })
        }
    }
}

/// The supply never runs dry, so a ring card always has a ring to give.
fn check_rings(e: &mut Errors, pack: &Pack, set: &PackSet, princes: &[Prince], n: &Numbers) {
    let start: u32 = princes.iter().map(|p| u32::from(p.rings)).sum();
    let rings = u32::from(n.rings);
    if start > rings {
        e.at(
            &set.loc,
            "ring-supply",
            format!("the Princes start with {start} rings, but the game has {rings}"),
            "the Princes",
        );
        return;
    }
    let crown = u32::from(n.crown_rings);
    let king = princes
        .iter()
        .map(|p| u32::from(p.rings))
        .max()
        .unwrap_or(0)
        .max(crown);
    let most = king + (princes.len().saturating_sub(1) as u32) * crown.saturating_sub(1);
    if most >= rings {
        e.at_param(
            pack,
            "rings",
            "ring-supply",
            format!(
                "up to {most} rings can sit on the figures at once (the King and every Prince one short of a crown), so with {rings} the supply can run dry and a ring card would have nothing to give"
            ),
        );
    }
}

/// A ring goes to a Prince who is not the King: every colour a ring card allows must have
/// two figures, so one of them is always a Prince.
fn check_ring_targets(
    e: &mut Errors,
    decks: &[&PackSet],
    cards: &[CardDef],
    princes: &[Prince],
    colors: &[String],
) {
    let by_id = |id: &str| {
        decks
            .iter()
            .flat_map(|s| s.cards.iter())
            .find(|c| c.id == id)
    };
    for card in cards {
        for effect in &card.effects {
            let (mask, what) = match *effect {
                Effect::Ring { colors } => (colors, 2),
                Effect::Move(m) if m.who == Who::Neutral => (m.colors, 1),
                _ => continue,
            };
            let figures = princes
                .iter()
                .filter(|p| mask & (1 << p.color) != 0)
                .count();
            if figures < what {
                let names: Vec<&str> = (0..colors.len())
                    .filter(|&c| mask & (1 << c) != 0)
                    .map(|c| colors[c].as_str())
                    .collect();
                let need = if what == 2 {
                    "a ring card needs a Prince of its colour who is not the King, so two such figures"
                } else {
                    "a move card needs a figure of its colour"
                };
                if let Some(def) = by_id(&card.id) {
                    e.at(
                        &def.loc,
                        "no-target",
                        format!(
                            "{need}, but there are {figures} {} figures",
                            names.join("/")
                        ),
                        "this card",
                    );
                }
            }
        }
    }
}

/// Every turn has cards to play, and after the last round every card is played: the hand
/// is followed through the rounds (play `cards_per_turn`, then draw up to `draws_per_turn`).
fn check_hands(e: &mut Errors, pack: &Pack, cards: &[CardDef], decks: &[Deck], n: &Numbers) {
    let total: i64 = i64::from(deck_counts(cards, decks).total());
    let mut hand: i64 = decks.iter().map(|d| i64::from(d.dealt)).sum();
    let mut piles = total - hand;
    let (play, draw) = (i64::from(n.cards_per_turn), i64::from(n.draws_per_turn));
    for round in 1..=i64::from(n.rounds) {
        if hand < play {
            e.at_param(
                pack,
                "rounds",
                "rounds-mismatch",
                format!(
                    "in round {round} a player holds {hand} cards but must play {play}: {} rounds are more than the {total} cards allow",
                    n.rounds
                ),
            );
            return;
        }
        hand -= play;
        let drawn = draw.min(piles);
        hand += drawn;
        piles -= drawn;
    }
    if hand + piles > 0 {
        e.at_param(
            pack,
            "rounds",
            "rounds-mismatch",
            format!(
                "after {} rounds each player still has {} of his {total} cards; the game ends when all are played",
                n.rounds,
                hand + piles
            ),
        );
    }
}

/// The cards of the decks in the game, copies counted: what one player holds in all.
pub(crate) fn deck_counts(cards: &[CardDef], decks: &[Deck]) -> Counts {
    let mut c = Counts::new();
    for (t, card) in cards.iter().enumerate() {
        if decks[usize::from(card.deck)].in_game {
            c.add(t as u8, card.copies);
        }
    }
    c
}
