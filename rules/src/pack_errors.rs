//! The diagnostics a rulebook collects while compiling its pack: every problem is reported
//! at once, each pointing into the pack where it can.

use grail_engine::cond::solve::{Satisfiable, satisfiable};
use grail_engine::diag::Diagnostic;
use grail_schema::model::Loc;
use grail_schema::{NamedCondition, Pack};

pub(crate) struct Errors(pub(crate) Vec<Diagnostic>);

impl Errors {
    /// The value, or `None` with its diagnostic kept.
    pub(crate) fn take<T>(&mut self, r: Result<T, Diagnostic>) -> Option<T> {
        r.map_err(|d| self.0.push(d)).ok()
    }
    pub(crate) fn at(&mut self, loc: &Loc, code: &'static str, message: String, label: &str) {
        self.0
            .push(Diagnostic::error(code, message).at(loc.source, loc.span.clone(), label));
    }
    /// [`Self::at`], labelled "here".
    pub(crate) fn here(&mut self, loc: &Loc, code: &'static str, message: String) {
        self.at(loc, code, message, "here");
    }
    /// Reports `what` (at `loc`) when no cards of `deck` (copies per type) can ever meet
    /// `condition` with `args`: a value no payment reaches, such as an adversary no hand of
    /// knights could challenge, which would stall every game that draws it.
    pub(crate) fn unreachable(
        &mut self,
        condition: &NamedCondition,
        deck: &[u8],
        args: &[i64],
        loc: &Loc,
        what: String,
    ) {
        let decision = satisfiable(&condition.program, &condition.expr, deck, args);
        match decision.answer {
            Satisfiable::Never(why) => self.0.push(
                Diagnostic::error("unreachable", what)
                    .at(loc.source, loc.span.clone(), "never reached")
                    .with_note(format!(
                        "no cards of the pack meet condition `{}`: {why}",
                        condition.name
                    )),
            ),
            // Never a silent pass: the rulebook cannot carry warnings into play, so a value
            // it cannot show reachable is refused, with the way out.
            Satisfiable::GaveUp => self.0.push(
                Diagnostic::error(
                    "could-not-decide",
                    format!(
                        "could not decide whether this value can be reached (the search of \
                         condition `{}` gave up after {} steps)",
                        condition.name, decision.steps
                    ),
                )
                .at(loc.source, loc.span.clone(), "not checked")
                .with_note(format!("the check was: {what}"))
                .with_help(
                    "write the condition so that it grows or shrinks as cards are added \
                     (`count(…) >= n`, `sum(…) <= $arg`), which is decided at once",
                ),
            ),
            Satisfiable::Yes | Satisfiable::NeedsArguments => {}
        }
    }

    /// At the param `name` when the pack has it.
    pub(crate) fn at_param(
        &mut self,
        pack: &Pack,
        name: &str,
        code: &'static str,
        message: String,
    ) {
        match pack.param(name) {
            Ok(p) => {
                let loc = p.loc.clone();
                self.at(&loc, code, message, "here");
            }
            Err(_) => self.0.push(Diagnostic::error(code, message)),
        }
    }

    /// Like [`Errors::at_param`], at the value of a per-player-count param for `players`.
    pub(crate) fn at_param_for_players(
        &mut self,
        pack: &Pack,
        name: &str,
        players: u8,
        code: &'static str,
        message: String,
    ) {
        match pack.param_loc_for_players(name, players) {
            Some(loc) => {
                let loc = loc.clone();
                self.at(&loc, code, message, "here");
            }
            None => self.0.push(Diagnostic::error(code, message)),
        }
    }
}
