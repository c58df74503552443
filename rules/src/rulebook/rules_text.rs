//! `grail rules`: a described game's rulebook in words, generated from its description —
//! what there is, how it is set up, the turn step by step with each action's condition and
//! effect, how it ends and how it is scored — so a designer reads a mod's rules back before
//! playing it. Everything here is the description said in words (`words.rs`); nothing is
//! written per game.

use std::fmt::Write;

use grail_engine::diag::Diagnostic;
use grail_schema::Pack;
use grail_schema::model::{Layout, Visibility, ZoneOwner};

use super::Rulebook;
use super::compile;
use super::model::Param;

/// The rules of the game `pack` describes, in words; its compile errors when it does not
/// compile.
pub fn rules_in_words(pack: &Pack) -> Result<String, Vec<Diagnostic>> {
    let rb = compile(pack)?;
    let mut out = String::new();
    let title = match &rb.variant {
        Some(v) => format!("{} ({}, variant `{v}`)", pack.name, rb.id),
        None => format!("{} ({})", pack.name, rb.id),
    };
    let _ = writeln!(out, "{title}: the rules, from its description");
    let _ = writeln!(out, "Players: {}–{}.", pack.players.0, pack.players.1);
    rb.components(pack, &mut out);
    let def = &pack.rulebook;
    if let Some(setup) = &def.setup {
        let _ = writeln!(out, "\nSetup:");
        for line in rb.lines_in_words(&setup.effects.value) {
            let _ = writeln!(out, "  - {line}");
        }
    }
    let _ = writeln!(out, "\nPlay:");
    for line in rb.help().lines().filter(|l| !l.starts_with(' ')) {
        if !line.starts_with("Moves (") && !line.starts_with("Scoring:") {
            let _ = writeln!(out, "  {line}");
        }
    }
    let _ = writeln!(out, "\nMoves:");
    for (i, (name, action)) in def.actions.0.iter().enumerate() {
        // The action's key, and how its move is written (keys may share a verb: `play`).
        match rb.actions.get(i) {
            Some(a) => {
                let form = rb.move_form(a);
                let _ = match form.split_once("   ") {
                    Some((notation, what)) => {
                        writeln!(out, "  {} — `{notation}` ({}):", name.value, what.trim())
                    }
                    None => writeln!(out, "  {} — `{form}`:", name.value),
                };
            }
            None => {
                let _ = writeln!(out, "  {}:", name.value);
            }
        }
        if let Some(guard) = &action.guard {
            let _ = writeln!(out, "    when {}", rb.in_words(&guard.value, true));
        }
        if let Some(window) = &action.standing {
            let window = rb.in_words(&window.value, true);
            let _ = writeln!(out, "    at any decision of yours while {window}");
        }
        if let Some(pay) = &action.pay {
            let meets = pay.meets.value.trim();
            // `condition(card)`: the card's own; else a named condition, by its words.
            let named = meets.split('(').next().unwrap_or(meets).trim();
            let meets = match pack.condition(named) {
                _ if meets.starts_with("condition(") => "the card's own condition".to_string(),
                Ok(c) => c
                    .text
                    .clone()
                    .unwrap_or_else(|| named.replace(['_', '-'], " ")),
                Err(_) => named.replace(['_', '-'], " "),
            };
            let from = rb.in_words(&pay.from.value, false);
            let _ = writeln!(out, "    pay cards from {from} that meet {meets}");
        }
        for line in rb.lines_in_words(&action.effects.value) {
            let _ = writeln!(out, "    - {line}");
        }
    }
    if let Some(end) = &def.end {
        let _ = writeln!(out, "\nThe end:");
        let _ = writeln!(
            out,
            "  The game ends after a turn when {}.",
            rb.in_words(&end.when.value, true)
        );
        if let Some(now) = &end.now {
            let now = rb.in_words(&now.value, true);
            let _ = writeln!(out, "  It ends at once, after any move, when {now}.");
        }
        for (name, ending) in &def.endings.0 {
            let _ = writeln!(
                out,
                "  It also ends ({}) when {}.",
                name.value,
                rb.in_words(&ending.when.value, true)
            );
        }
        let score = rb.in_words(&end.score.value, false);
        let _ = writeln!(out, "  Each player scores {score}; the highest score wins.");
        if let Some(t) = &end.tiebreak {
            let t = rb.in_words(&t.value, false);
            let _ = writeln!(out, "  A tie goes to the player with the most of: {t}.");
        }
    }
    Ok(out)
}

impl Rulebook {
    /// How a move of action `a` is written, and what its parameter is
    /// (`play <card>   a card from hand`).
    pub(super) fn move_form(&self, a: &super::model::Action) -> String {
        match &a.param {
            Param::None => a.name.clone(),
            Param::Card(z) => format!(
                "{} <card>   a card from {}",
                a.name, self.zones[z.zone].name
            ),
            Param::Row { zone, .. } => format!(
                "{} <row>   a row of {} that holds a card",
                a.name, self.zones[*zone].name
            ),
            Param::Figure { steps, .. } => format!(
                "{} <figure>{}   a figure on {} (`knight@5`, or a role: `king`)",
                a.name,
                if steps.is_empty() { "" } else { " <steps>" },
                self.board.as_ref().map_or("the ring", |b| b.name.as_str())
            ),
            Param::CardFigure { card, steps, .. } => format!(
                "{} <card> <figure>{}   a card from {} and a figure on {}",
                a.name,
                if steps.is_empty() { "" } else { " <steps>" },
                self.zones[card.zone].name,
                self.board.as_ref().map_or("the ring", |b| b.name.as_str())
            ),
            Param::Player(set) => format!(
                "{} <player>   {}",
                a.name,
                match set {
                    super::model::SeatSet::Each => "any player (P1, P2, …)",
                    super::model::SeatSet::Others => "another player (P1, P2, …)",
                }
            ),
            Param::PlayerCard { set, card } => format!(
                "{} <player> {}<card>   {}, and a card from {} {}",
                a.name,
                a.before_card
                    .as_ref()
                    .map_or(String::new(), |w| format!("{w} ")),
                match set {
                    super::model::SeatSet::Each => "any player (P1, P2, …)",
                    super::model::SeatSet::Others => "another player (P1, P2, …)",
                },
                // The card is the player's named (`allies(target)`), or the mover's own.
                match card.who {
                    super::model::Who::Current => "your",
                    super::model::Who::Table => "the",
                    _ => "their",
                },
                self.zones[card.zone].name
            ),
            Param::Number { low, high } => {
                format!("{} <number>   a number from {low} to {high}", a.name)
            }
            Param::Seat => format!(
                "{} <seat>   a seat of {}",
                a.name,
                self.board.as_ref().map_or("the ring", |b| b.name.as_str())
            ),
        }
    }

    /// What the game is played with: each zone, whose it is, how it lies and who sees it.
    fn components(&self, pack: &Pack, out: &mut String) {
        let _ = writeln!(out, "\nComponents:");
        for (name, zone) in &pack.rulebook.zones.0 {
            let whose = match zone.owner.as_ref().map(|o| &o.value) {
                Some(ZoneOwner::Each) => "one per player",
                _ => "on the table",
            };
            let lies = match zone.layout.value {
                Layout::Stack => "a stack",
                Layout::Hand => "a hand",
                Layout::Rows => "rows",
                Layout::Ring => "the seats of a ring",
            };
            let seen = match zone.visible.value {
                Visibility::Public => "seen by all",
                Visibility::Owner => "seen by its owner",
                Visibility::Count => "only its size is known",
            };
            let _ = writeln!(
                out,
                "  {}: {} ({whose}, {lies}, {seen})",
                name.value,
                zone.holds.value.replace(" + ", ", ")
            );
        }
        if let Some(board) = &self.board {
            let kinds: Vec<&str> = board.kinds.iter().map(|k| k.name.as_str()).collect();
            let _ = writeln!(
                out,
                "  {}: a ring of {} seats, with figures: {}",
                board.name,
                board.seats,
                kinds.join(", ")
            );
        }
        // A role held by whoever holds a card (`card_roles.rs`).
        for (name, def) in pack.rulebook.roles.iter() {
            if let Some(card) = &def.holds {
                let _ = writeln!(
                    out,
                    "  role {}: whoever holds {} (known to all)",
                    name.value, card.value
                );
            }
        }
        for c in &self.counters {
            let whose = if c.owned {
                "per player"
            } else {
                "on the table"
            };
            let _ = writeln!(out, "  counter {} ({whose})", c.name);
            // A ladder, as the fewest players play it (`needs` by player count is rare).
            if let Some(climb) = &c.climb
                && let Some(ladder) = climb.ladders.iter().find(|l| l.ranks() > 0)
            {
                let needs: Vec<String> = (0..ladder.ranks())
                    .filter_map(|r| ladder.threshold(r))
                    .map(|n| n.to_string())
                    .collect();
                let _ = writeln!(
                    out,
                    "    climbs {}: {} to leave each rank in turn, the surplus carried over; never \
                     below 0, never down a rank",
                    self.counters[climb.rank].name,
                    needs.join(", ")
                );
            }
        }
    }
}
