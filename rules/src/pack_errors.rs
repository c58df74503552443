//! The diagnostics a rulebook collects while compiling its pack: every problem is reported
//! at once, each pointing into the pack where it can.

use grail_engine::diag::Diagnostic;
use grail_schema::model::Loc;

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
}
