//! What the setup's deals ask of the cards. A `deal N from Z to H(each)` of a fixed count
//! (a number or a param) needs N cards for every seat, with the most players the pack
//! allows, from the cards of `Z`'s set: a hand size the cards cannot meet (a mod's bigger
//! hands, fewer cards, more players) or a negative one is refused when the pack is checked,
//! instead of dealing short hands in play. A set that a zone holds and that has no cards
//! at all is refused too: every game of it would have nothing to play with.

use std::ops::Range;

use grail_engine::diag::Diagnostic;
use grail_schema::model::Sp;

use super::compile::Compiler;
use super::counters::CounterExpr;
use super::model::{Expr, ZoneRef};

impl Compiler<'_> {
    /// Every set a zone holds must have cards (a union's members are checked themselves).
    pub(super) fn check_empty_sets(&mut self) {
        for (i, set) in self.sets.iter().enumerate() {
            let held = self.zones.iter().any(|z| z.set == i);
            if !held || !set.members.is_empty() || set.copies.iter().any(|&c| c > 0) {
                continue;
            }
            if let Ok(declared) = self.pack.set(&set.id) {
                let loc = &declared.loc;
                self.diags.push(
                    Diagnostic::error(
                        "empty-set",
                        format!("zones hold set `{}`, and it has no cards", set.id),
                    )
                    .at(loc.source, loc.span.clone(), "no cards"),
                );
            }
        }
    }

    /// Checks a `deal` whose count is fixed; `line` is the deal's span in `s`.
    pub(super) fn check_deal(
        &mut self,
        count: &Expr,
        from: &ZoneRef,
        s: &Sp<String>,
        line: &Range<usize>,
    ) {
        let (min, max) = self.pack.players;
        let each = match count {
            Expr::Const(each) => *each,
            // A param given per player count: each count with its own number of seats.
            Expr::Counter(CounterExpr::ByPlayers(v)) => {
                for n in min..=max {
                    let each = v.get(usize::from(n)).copied().unwrap_or(0);
                    if !self.check_deal_of(each, n, from, s, line) {
                        return;
                    }
                }
                return;
            }
            _ => return,
        };
        self.check_deal_of(each, max, from, s, line);
    }

    /// [`Compiler::check_deal`] of `each` cards to each of `seats`; false when refused.
    fn check_deal_of(
        &mut self,
        each: i64,
        seats: u8,
        from: &ZoneRef,
        s: &Sp<String>,
        line: &Range<usize>,
    ) -> bool {
        let at = self.span(s, line);
        if each < 0 {
            let msg = format!("a deal of {each} cards to each seat: the count must be 0 or more");
            self.error("out-of-range", msg, &s.loc, at);
            return false;
        }
        let zone = &self.zones[from.zone];
        let set = &self.sets[zone.set];
        let supply: i64 = zone
            .types
            .clone()
            .map(|t| i64::from(set.copies[usize::from(t)]))
            .sum();
        let seats = i64::from(seats);
        // A deal from a zone of each seat takes from that seat's own copy.
        let wanted = if zone.owned { each } else { each * seats };
        if wanted > supply {
            let msg = format!(
                "deals {each} cards to each seat, {wanted} with {seats} players, but `{}` can \
                 hold only the {supply} cards of set `{}`",
                zone.name, set.id
            );
            self.error("too-many-cards", msg, &s.loc, at);
            return false;
        }
        true
    }
}
