//! What a description states about its own games (`[checks.*]`): a condition that must hold
//! once the game is set up (`at = "setup"`) or once it is over (`at = "end"`), with words
//! saying what a failure means. `grail lint` verifies each for every player count the pack
//! allows, after the setup and at the end of a few seeded random games (a game of the
//! rulebook plays in well under a millisecond): a mod that breaks what the rule text takes
//! for granted (the King's rings, every card played by the last round) is told where.
//!
//! ```toml
//! [checks.cards-played]
//! at = "end"
//! holds = "count(hand(P)) = 0"
//! says = "{P} still holds {count(hand(P))} cards after the last round"
//! ```

use grail_engine::diag::Diagnostic;
use grail_engine::game::{EventSink, Rules, Setup};
use grail_engine::rng::GameRng;
use grail_schema::model::{Loc, Sp};

use super::Rulebook;
use super::args::Args;
use super::compile::{Compiler, NO_SCOPE, Scope};
use super::eval::Ctx;
use super::model::{Effect, Expr, Piece};
use super::state::{Ended, Event, State};
use super::syntax::{self, Ast};

/// Random games played per player count: to find a game the description stops before its
/// end, and to make the checks at the end.
const PLAYOUTS: u64 = 2;

/// Keeps the first obligation a move found unmeetable ([`Event::Unmet`]).
struct FirstUnmet(Option<(u16, u8)>);

impl EventSink<Event> for FirstUnmet {
    const ENABLED: bool = true;
    fn push(&mut self, event: Event) {
        if let (Event::Unmet { step, seat }, None) = (event, self.0) {
            self.0 = Some((step, seat));
        }
    }
}
/// A random game that has not ended after this many moves is given up (no end check is made).
const MAX_MOVES: usize = 20_000;

#[derive(Debug)]
pub struct Check {
    name: String,
    at_end: bool,
    holds: Expr,
    says: Vec<Piece>,
    /// Where `holds` is written, for the error.
    loc: Loc,
    /// The params it reads (`$rounds`) and where each is given: what a mod changed is likely
    /// among them, so the error shows them.
    params: Vec<(String, Loc)>,
    /// The zones it reads and where each is declared: one no card can ever come to (a
    /// variant missing a zone its base now fills) is shown with the error.
    zones: Vec<(usize, Loc)>,
}

impl Compiler<'_> {
    pub(super) fn checks(&mut self) -> Vec<Check> {
        let scope = Scope {
            player: true,
            ..NO_SCOPE
        };
        let mut out = Vec::new();
        for (name, def) in self.pack.rulebook.checks.iter() {
            let at_end = match def.at.value.as_str() {
                "setup" => false,
                "end" => true,
                other => {
                    let msg = format!("a check is made at `setup` or `end`, not `{other}`");
                    self.error("invalid-value", msg, &def.at.loc, def.at.loc.span.clone());
                    continue;
                }
            };
            let holds = self.expression(&def.holds, scope, true);
            let says = self.says(&def.says, scope);
            if let (Some(holds), Some(says)) = (holds, says) {
                let mut params: Vec<(String, Loc)> = Vec::new();
                for text in [&def.holds.value, &def.says.value] {
                    for name in param_names(text) {
                        // Given per player count: where the counts are, which win.
                        let by_count = self.pack.by_players.iter().find(|p| p.name == name);
                        let given = by_count
                            .map(|p| p.loc.clone())
                            .or_else(|| self.pack.param(name).ok().map(|p| p.loc.clone()));
                        if let Some(loc) = given
                            && params.iter().all(|(n, _)| n != name)
                        {
                            params.push((name.to_string(), loc));
                        }
                    }
                }
                let zones = self.zones_named(&def.holds.value);
                out.push(Check {
                    name: name.value.clone(),
                    at_end,
                    holds,
                    says,
                    loc: def.holds.loc.clone(),
                    params,
                    zones,
                });
            }
        }
        out
    }

    /// The zones an expression names, once each, with where each is declared.
    fn zones_named(&self, text: &str) -> Vec<(usize, Loc)> {
        let mut out: Vec<(usize, Loc)> = Vec::new();
        let Ok(node) = syntax::expression(text) else {
            return out;
        };
        let mut stack = vec![&node];
        while let Some(n) = stack.pop() {
            let name = match &n.ast {
                Ast::Name(name) => Some(name),
                Ast::Call(name, args) => {
                    stack.extend(args.iter());
                    Some(name)
                }
                Ast::Bin(_, l, r) => {
                    stack.push(l);
                    stack.push(r);
                    None
                }
                Ast::Not(x) => {
                    stack.push(x);
                    None
                }
                _ => None,
            };
            let Some(name) = name else { continue };
            let Some(z) = self.zones.iter().position(|z| z.name == *name) else {
                continue;
            };
            let declared = (self.pack.rulebook.zones.iter()).find(|(k, _)| k.value == *name);
            if let Some((key, _)) = declared
                && out.iter().all(|(x, _)| *x != z)
            {
                out.push((z, key.loc.clone()));
            }
        }
        out
    }

    fn says(&mut self, s: &Sp<String>, scope: Scope) -> Option<Vec<Piece>> {
        if s.value.contains('{') {
            return self.template(s, scope, false);
        }
        Some(vec![Piece::Text(s.value.clone())])
    }
}

/// A check's first failure and every player count it failed with.
struct Failure {
    counts: Vec<usize>,
    /// How it failed the first time (the words after "fails with N players").
    first: String,
    /// A random game that came to no end, so the check could not be made.
    stuck: bool,
}

/// The `$param`s a text names.
fn param_names(text: &str) -> impl Iterator<Item = &str> {
    text.split('$').skip(1).filter_map(|rest| {
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        (end > 0).then(|| &rest[..end])
    })
}

impl Rulebook {
    /// Verifies the description's checks: for each player count, after the setup of a few
    /// seeded games and at the end of each played at random. One error per failing check, at
    /// its `holds`: its first failure and the player counts it failed with. A game that
    /// comes to no end is reported (at the first end check) only when no check failed, since
    /// a failed check is the likelier cause.
    ///
    /// The same random games show whether the description stops a game before its end
    /// (nobody can move, a move that never ends, a number out of range): when no check
    /// failed, that is reported at the rule that stopped it (a game where nobody can move,
    /// at the check made at the end, if there is one, as before).
    pub fn verify(&self) -> Vec<Diagnostic> {
        let mut failed: Vec<Option<Failure>> = self.checks.iter().map(|_| None).collect();
        let mut stuck: Option<(usize, Failure)> = None;
        let mut stopped = None;
        let mut long = None;
        let mut unmet = FirstUnmet(None);
        let mut unmet_at = None;
        // The standing actions some random game offered.
        let mut offered = vec![false; self.actions.len()];
        let end_check = self.checks.iter().position(|c| c.at_end);
        let mut moves = Vec::new();
        for players in self.players.0..=self.players.1 {
            for seed in 0..PLAYOUTS {
                let Ok(mut state) = self.setup(&Setup::new(players, seed)) else {
                    continue;
                };
                self.judge(&state, false, players, seed, &mut failed);
                let mut rng = GameRng::new(seed);
                let mut played = 0;
                while self.outcome(&state).is_none() && played < MAX_MOVES {
                    self.legal_actions(&state, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    if !self.standing.is_empty() {
                        for m in &moves {
                            if let Some(o) = offered.get_mut(usize::from(m.action)) {
                                *o = true;
                            }
                        }
                    }
                    let m = moves[rng.index(moves.len())];
                    self.apply(&mut state, &m, &mut unmet);
                    played += 1;
                    if let (Some(at), None) = (unmet.0.take(), &unmet_at) {
                        unmet_at = Some(self.unmet(at, players, seed));
                    }
                }
                let stop = self.stuck(&state);
                if let Some(why) = &stop {
                    // Nobody can move: the check at the end says so, if there is one.
                    let told = why.code == "game-stuck" && end_check.is_some();
                    if stopped.is_none() && !told {
                        stopped = Some(self.stopped(&state, why.clone(), players, seed, played));
                    }
                }
                let Some(end_check) = end_check else {
                    if played >= MAX_MOVES && long.is_none() {
                        long = Some(self.too_long(&state, players, seed));
                    }
                    continue;
                };
                if self.outcome(&state).is_some() {
                    self.judge(&state, true, players, seed, &mut failed);
                } else if stuck.is_none() {
                    let why = if played >= MAX_MOVES {
                        format!("has not ended after {MAX_MOVES} moves")
                    } else {
                        let why = stop.map_or(String::new(), |s| format!(" ({})", s.why));
                        format!(
                            "came after {played} moves to a position with no move and no end{why}"
                        )
                    };
                    let first = format!("a random game (seed {seed}) {why}");
                    let counts = vec![players];
                    stuck = Some((
                        end_check,
                        Failure {
                            counts,
                            first,
                            stuck: true,
                        },
                    ));
                }
            }
        }
        if failed.iter().all(Option::is_none) {
            if let Some(d) = stopped {
                return vec![d];
            }
            if let Some((c, f)) = stuck {
                failed[c] = Some(f);
            }
        }
        let fed = self.fed_zones();
        let checks = self.checks.iter().zip(failed);
        checks
            .filter_map(|(check, f)| {
                let f = f?;
                // A game that runs out of moves: a zone the check reads that no card can
                // reach is the likely cause (a variant without the pile its base fills).
                let dead = if f.stuck { check.zones.as_slice() } else { &[] };
                let mut d = check.report(f);
                for (z, loc) in dead.iter().filter(|(z, _)| !fed[*z]) {
                    d = d.also(
                        loc.source,
                        loc.span.clone(),
                        format!(
                            "`{}`, read by the check, never holds a card: none starts in it \
                             (`start = \"all\"`) and no effect puts one there",
                            self.zones[*z].name
                        ),
                    );
                }
                Some(d)
            })
            .chain(long)
            .chain(unmet_at)
            .chain(self.never_offered(&offered))
            .collect()
    }

    /// The standing actions no random game offered: a window that never opens (or a guard
    /// never true inside it), a warning at the window.
    fn never_offered(&self, offered: &[bool]) -> Vec<Diagnostic> {
        (self.standing.iter())
            .filter(|&&a| !offered[a])
            .filter_map(|&a| {
                let action = &self.actions[a];
                let (_, window) = action.standing.as_ref()?;
                let d = Diagnostic::warning(
                    "standing-never-offered",
                    format!(
                        "standing action `{}` was offered at no decision of lint's random games \
                         (`{window}`, and its guard, never held together)",
                        action.name
                    ),
                );
                Some(
                    d.at(action.loc.source, action.loc.span.clone(), "its lines")
                        .with_help("a standing action needs a window that opens in play: a condition over `P`, the seat deciding, that some decision meets"),
                )
            })
            .collect()
    }

    /// A loop's condition held for a seat with nothing it could do (`Event::Unmet`): an
    /// obligation a random game found unmeetable, a warning at the step.
    fn unmet(&self, (step, seat): (u16, u8), players: usize, seed: u64) -> Diagnostic {
        let step = &self.steps[usize::from(step)];
        let d = Diagnostic::warning(
            "obligation-unmet",
            format!(
                "in a random game ({players} players, seed {seed}), step `{}` asked P{} to act \
                 while `{}` held, and P{} had nothing it could do: the step was passed with \
                 the obligation unmet",
                step.name,
                usize::from(seat) + 1,
                (step.repeat_text.as_deref().unwrap_or(""))
                    .trim_start_matches("while")
                    .trim(),
                usize::from(seat) + 1,
            ),
        );
        d.at(step.loc.source, step.loc.span.clone(), "the step")
            .with_help("an obligation needs a move that meets it whenever its condition holds: an action whose guard admits what the condition counts")
    }

    /// Which zones a card can ever be in: those starting with cards, and those an effect of
    /// the setup or an action (a deal, draw, move, reveal, award, payment, refill) puts
    /// cards into.
    fn fed_zones(&self) -> Vec<bool> {
        let mut fed: Vec<bool> = self.zones.iter().map(|z| z.starts).collect();
        let mut effects: Vec<&Effect> = self.setup.iter().collect();
        for a in &self.actions {
            effects.extend(a.effects.iter());
            if let Some(pay) = &a.pay {
                fed[pay.to.zone] = true;
            }
        }
        while let Some(e) = effects.pop() {
            match e.innermost() {
                Effect::Deal { to, .. } | Effect::Award { to, .. } => fed[*to] = true,
                Effect::Move { to }
                | Effect::MoveNamed { to, .. }
                | Effect::Draw { to, .. }
                | Effect::DrawAtRandom { to, .. } => fed[to.zone] = true,
                Effect::Reveal { into, .. } => fed[*into] = true,
                _ => {}
            }
        }
        for (i, z) in self.zones.iter().enumerate() {
            if let Some(from) = z.refill
                && fed[from]
            {
                fed[i] = true;
            }
        }
        fed
    }

    /// A random game still going after [`MAX_MOVES`] moves, in a description with no check at
    /// the end to say so: a warning at the step it was at (a step that repeats without end,
    /// an end never reached), since `sim` and `play` stop such a game at their move cap.
    fn too_long(&self, state: &State, players: usize, seed: u64) -> Diagnostic {
        let step = self.steps.get(usize::from(state.step));
        let d = Diagnostic::warning(
            "game-too-long",
            format!(
                "a random game ({players} players, seed {seed}) has not ended after {MAX_MOVES} \
                 moves (at turn {}, step `{}`): `grail sim` and `grail play` stop a game at {} \
                 moves; a step that repeats many times (`repeat`), or an `[end]` that is never \
                 reached, makes a game that does not end",
                state.turn,
                step.map_or("?", |s| s.name.as_str()),
                grail_engine::sim::MAX_MOVES,
            ),
        );
        match step {
            Some(s) => d.at(s.loc.source, s.loc.span.clone(), "the game was here"),
            None => d,
        }
    }

    /// A random game the description stopped: the error, at the action whose move failed,
    /// the step nobody could take, or the setup.
    fn stopped(
        &self,
        state: &State,
        why: grail_engine::game::Stuck,
        players: usize,
        seed: u64,
        played: usize,
    ) -> Diagnostic {
        let message = format!(
            "a random game ({players} players, seed {seed}) stops after {played} moves: {}",
            why.why
        );
        let d = Diagnostic::error(why.code, message);
        let (loc, label) = match state.ended {
            Some(Ended::Failed { action, .. }) => match self.actions.get(usize::from(action)) {
                Some(a) => (Some(&a.loc), "this move"),
                None => (self.setup_loc.as_ref(), "the setup"),
            },
            Some(Ended::Stuck { step }) => (
                self.steps.get(usize::from(step)).map(|s| &s.loc),
                "nobody can take this step, nor any other",
            ),
            _ => (None, ""),
        };
        match loc {
            Some(loc) => d.at(loc.source, loc.span.clone(), label),
            None => d,
        }
    }

    /// Evaluates the checks made at this point for every seat; records each failure.
    fn judge(
        &self,
        state: &State,
        at_end: bool,
        players: usize,
        seed: u64,
        failed: &mut [Option<Failure>],
    ) {
        for (check, slot) in self.checks.iter().zip(failed.iter_mut()) {
            if check.at_end != at_end {
                continue;
            }
            let ctx = |p| Ctx {
                state,
                player: p,
                args: Args::NONE,
            };
            let Some(p) = (0..players).find(|&p| self.eval(&check.holds, &ctx(p)) == 0) else {
                continue;
            };
            if let Some(f) = slot {
                if f.counts.last() != Some(&players) {
                    f.counts.push(players);
                }
                continue;
            }
            let mut says = String::new();
            self.render_text(&check.says, &ctx(p), &mut says);
            let when = if at_end {
                format!("at the end of a random game (seed {seed})")
            } else {
                "once the game is set up".to_string()
            };
            *slot = Some(Failure {
                counts: vec![players],
                first: format!("{when}: {says}"),
                stuck: false,
            });
        }
    }
}

impl Check {
    fn report(&self, f: Failure) -> Diagnostic {
        let counts: Vec<String> = f.counts.iter().map(usize::to_string).collect();
        let counts = match counts.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        };
        let (message, label) = if f.stuck {
            (
                format!(
                    "check `{}` cannot be made: with {counts} players {}",
                    self.name, f.first
                ),
                "never reached",
            )
        } else {
            (
                format!(
                    "check `{}` fails with {counts} players {}",
                    self.name, f.first
                ),
                "does not hold",
            )
        };
        let mut d = Diagnostic::error("check-failed", message).at(
            self.loc.source,
            self.loc.span.clone(),
            label,
        );
        for (name, loc) in &self.params {
            d = d.also(
                loc.source,
                loc.span.clone(),
                format!("`{name}`, read by the check"),
            );
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::param_names;

    /// The params a check reads are shown with its error: every `$name`, once per mention.
    #[test]
    fn param_names_are_read_from_the_text() {
        let names: Vec<&str> =
            param_names("$rings > $crown_rings + (placed(prince) - 1) * ($crown_rings - 1)")
                .collect();
        assert_eq!(names, ["rings", "crown_rings", "crown_rings"]);
        assert_eq!(param_names("{$a}$ and $").count(), 1);
    }
}
