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
use super::model::{CounterExpr, Expr, ZoneRef};
use super::syntax::Op;
use grail_schema::decode::MAX_NUMBER;

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

    /// A count fixed before play (numbers and params with `+ - *`), or why it is not one:
    /// `Err` when it leaves the number range (±10⁹), which is refused where it is written.
    pub(super) fn fixed_count(count: &Expr) -> Option<Result<i64, ()>> {
        let v = match count {
            Expr::Const(v) => Ok(*v),
            Expr::Bin(op @ (Op::Add | Op::Sub | Op::Mul), l, r) => {
                match (Self::fixed_count(l)?, Self::fixed_count(r)?) {
                    (Ok(a), Ok(b)) => op.arith(a, b).ok_or(()),
                    _ => Err(()),
                }
            }
            _ => return None,
        };
        Some(v.and_then(|v| {
            if v.abs() <= MAX_NUMBER {
                Ok(v)
            } else {
                Err(())
            }
        }))
    }

    /// A fixed count that is negative or out of the number range, refused: `true` when it
    /// was (nothing more is asked of it).
    fn bad_count(
        &mut self,
        verb: &str,
        count: Result<i64, ()>,
        s: &Sp<String>,
        at: Range<usize>,
    ) -> bool {
        let msg = match count {
            Ok(n) if n >= 0 => return false,
            Ok(n) => format!("a {verb} of {n} cards: the count must be 0 or more"),
            Err(()) => format!(
                "the count of this {verb} is outside the number range (±{MAX_NUMBER}); no zone holds so many cards"
            ),
        };
        self.error("out-of-range", msg, &s.loc, at);
        true
    }

    /// Checks a `draw` whose count is fixed: 0 or more, and no more than the cards of the
    /// set it draws from (with the most players, a copy per seat at most).
    pub(super) fn check_draw(
        &mut self,
        count: &Expr,
        from: &ZoneRef,
        s: &Sp<String>,
        line: &Range<usize>,
    ) {
        let Some(n) = Self::fixed_count(count) else {
            return;
        };
        let at = self.span(s, line);
        if self.bad_count("draw", n, s, at.clone()) {
            return;
        }
        let n = n.unwrap_or(0);
        let zone = &self.zones[from.zone];
        let set = &self.sets[zone.set];
        // Every copy of the set, once, or once a seat when each seat starts with its own.
        let seats = i64::from(self.pack.players.1);
        let own = (self.zones.iter()).any(|z| z.set == zone.set && z.owned && z.starts);
        let copies: i64 = (set.copies.iter().map(|&c| i64::from(c))).sum();
        let all = if own { copies * seats } else { copies };
        if n > all {
            let msg = format!(
                "draws {n} cards from `{}`, but the game has only {all} cards of set `{}`{}: the draw can never be met",
                zone.name,
                set.id,
                if own {
                    format!(" with {seats} players")
                } else {
                    String::new()
                }
            );
            self.error("too-many-cards", msg, &s.loc, at);
        }
    }

    /// Checks a `deal` whose count is fixed (a number, `+ - *` of numbers, or a param given
    /// per player count: each count with its own number of seats); `line` is the deal's span
    /// in `s`.
    pub(super) fn check_deal(
        &mut self,
        count: &Expr,
        from: &ZoneRef,
        s: &Sp<String>,
        line: &Range<usize>,
    ) {
        let (min, max) = self.pack.players;
        if let Expr::Counter(CounterExpr::ByPlayers(v)) = count {
            for n in min..=max {
                let each = v.get(usize::from(n)).copied().unwrap_or(0);
                if !self.check_deal_of(Ok(each), n, from, s, line) {
                    return;
                }
            }
            return;
        }
        let Some(each) = Self::fixed_count(count) else {
            return;
        };
        self.check_deal_of(each, max, from, s, line);
    }

    /// [`Compiler::check_deal`] of `each` cards to each of `seats`; false when refused.
    fn check_deal_of(
        &mut self,
        each: Result<i64, ()>,
        seats: u8,
        from: &ZoneRef,
        s: &Sp<String>,
        line: &Range<usize>,
    ) -> bool {
        let at = self.span(s, line);
        if self.bad_count("deal", each, s, at.clone()) {
            return false;
        }
        let each = each.unwrap_or(0);
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
