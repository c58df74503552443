//! `rising(n, above, Z, lead, member, value[, G])`: can `n` groups be made from the cards of
//! `Z`, each of one card meeting `lead` and any cards meeting `member` (no two the same
//! card), worth (the sum of `value` over its cards) more than the group before, the first
//! more than `above`? With `G`, the first group is the one begun in `G`: its cards stay, and
//! it is finished with cards from `Z`.
//!
//! A set-up that must rise stage by stage (Quests: a foe and weapons of distinct types a
//! stage, each stage stronger than the last) is offered card by card only while it can still
//! be finished; this answers that directly instead of searching the moves. The search is the
//! one a hand-written game would make: groups are built from the weakest up; a lead already
//! above the bar goes alone (anything added would only raise the next bar); a lead below it
//! takes a minimal set of members that lifts it over (one fewer would not do).

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use grail_engine::cond::universe::MAX_TYPES;

use super::Rulebook;
use super::args::Args;
use super::eval::Ctx;
use super::fault;
use super::memo;
use super::model::{CounterExpr, Expr, Rising, TYPE_MASK, Who, ZoneRef};

/// The distinct lead values and member cards a zone offers, on the stack: a set holds at most
/// this many card types, so no zone offers more of either.
const FEW: usize = MAX_TYPES;

/// The cards a search may still use: lead values ascending with their copies, and member
/// cards (by card) with their value and copies.
struct Pool<'a> {
    lead_value: &'a mut [i64],
    lead_n: &'a mut [u32],
    member_value: &'a [i64],
    member_n: &'a mut [u32],
}

impl Pool<'_> {
    /// Can `m` groups be made, rising, all above `prev`?
    fn chain(&mut self, m: u32, prev: i64) -> bool {
        if m == 0 {
            return true;
        }
        // A search is work of the move's (a hostile pack's search never ends it).
        if !fault::spend(1) {
            return false;
        }
        let held: u64 = self.lead_n.iter().map(|&n| u64::from(n)).sum();
        if held < u64::from(m) {
            return false;
        }
        // Enough distinct leads above the bar: each goes alone.
        let above = (self.lead_value.iter().zip(self.lead_n.iter()))
            .filter(|&(&v, &n)| n > 0 && v > prev)
            .count();
        if above >= m as usize {
            return true;
        }
        for i in 0..self.lead_value.len() {
            if self.lead_n[i] == 0 {
                continue;
            }
            let v = self.lead_value[i];
            self.lead_n[i] -= 1;
            let ok = if v > prev {
                self.chain(m - 1, v)
            } else {
                self.lift(0, v, i64::MAX, prev, None, m - 1)
            };
            self.lead_n[i] += 1;
            if ok {
                return true;
            }
        }
        false
    }

    /// Tries every minimal set of members (from member `from` on, none already `on` the
    /// group) that lifts a group worth `sum` above `prev`, then the `rest` of the chain above
    /// it. More members than needed never help a later group.
    fn lift(
        &mut self,
        from: usize,
        sum: i64,
        smallest: i64,
        prev: i64,
        on: Option<&[bool]>,
        rest: u32,
    ) -> bool {
        if sum > prev {
            // Minimal: leaving out the smallest member would not be enough.
            return sum.saturating_sub(smallest) <= prev && self.chain(rest, sum);
        }
        if !fault::spend(1) {
            return false;
        }
        let free = |pool: &Self, w: usize| pool.member_n[w] > 0 && !on.is_some_and(|on| on[w]);
        let reach = (from..self.member_value.len())
            .filter(|&w| free(self, w))
            .fold(0i64, |r, w| r.saturating_add(self.member_value[w].max(0)));
        if sum.saturating_add(reach) <= prev {
            return false;
        }
        for w in from..self.member_value.len() {
            if !free(self, w) {
                continue;
            }
            let v = self.member_value[w];
            self.member_n[w] -= 1;
            let ok = self.lift(
                w + 1,
                sum.saturating_add(v),
                smallest.min(v),
                prev,
                on,
                rest,
            );
            self.member_n[w] += 1;
            if ok {
                return true;
            }
        }
        false
    }
}

/// The roles of a search's card types, kept from decision to decision while the zones they
/// read hold the same cards: per description, roles (`RoleZones::id`) and seat.
struct KeptRoles {
    key: (u64, u32, usize),
    /// The cards of the zones read, pile by pile (each pile's length first).
    print: Vec<u16>,
    roles: [Option<Role>; FEW],
}

/// The most searches' roles kept on a thread.
const KEPT_ROLES: usize = 64;

thread_local! {
    static ROLES: RefCell<Vec<KeptRoles>> = const { RefCell::new(Vec::new()) };
}

/// A number for each description compiled in the process.
pub(super) fn next_instance() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The zones a search's roles read (`lead`, `member`, `value`), when they read nothing else
/// but the card's attributes and numbers: zones of the table's or of `P`'s, whole.
pub(super) fn role_zones(r: &Rising) -> Option<Box<[ZoneRef]>> {
    let mut zones = Vec::new();
    for e in [&r.lead, &r.member, &r.value] {
        if !zones_only(e, &mut zones) {
            return None;
        }
    }
    Some(zones.into())
}

/// What a search's roles are, written out: searches that write the same share their kept
/// roles.
pub(super) fn roles_written(r: &Rising) -> String {
    format!("{:?} {:?} {:?}", r.lead, r.member, r.value)
}

fn zones_only(e: &Expr, zones: &mut Vec<ZoneRef>) -> bool {
    let mut zone = |z: &ZoneRef| {
        let plain = z.row.is_none() && matches!(z.who, Who::Table | Who::Player);
        if plain && !zones.iter().any(|x| x.zone == z.zone && x.who == z.who) {
            zones.push(ZoneRef {
                zone: z.zone,
                who: z.who,
                row: None,
            });
        }
        plain
    };
    let here = match e {
        Expr::Const(_) | Expr::Card | Expr::Attr { .. } | Expr::Not(_) | Expr::If(..) => true,
        Expr::Bin(..) | Expr::Memo(..) | Expr::Fast(_) => true,
        Expr::Counter(CounterExpr::Min(..) | CounterExpr::Max(..)) => true,
        Expr::Situational(s) => s.zones.iter().all(|(z, _)| zone(z)),
        Expr::Count(z) | Expr::Sum { zone: z, .. } | Expr::Best { zone: z, .. } => zone(z),
        _ => false,
    };
    let mut ok = here;
    if ok {
        e.each_child(&mut |x| ok = ok && zones_only(x, zones));
    }
    ok
}

/// What one card is to the search.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Role {
    Lead(i64),
    Member(i64),
    Neither(i64),
}

impl Role {
    /// As one number, to be kept (`memo.rs`): the value times 4 and the kind; `None` for a
    /// value too large to be kept so.
    fn encode(self) -> Option<i64> {
        let (v, kind) = match self {
            Role::Lead(v) => (v, 1),
            Role::Member(v) => (v, 2),
            Role::Neither(v) => (v, 3),
        };
        v.checked_mul(4)?.checked_add(kind)
    }

    fn decode(code: i64) -> Option<Role> {
        let kind = code.rem_euclid(4);
        let v = (code - kind) / 4;
        match kind {
            1 => Some(Role::Lead(v)),
            2 => Some(Role::Member(v)),
            3 => Some(Role::Neither(v)),
            _ => None,
        }
    }
}

impl Rulebook {
    /// `rising(…)`: see the module's notes.
    pub(super) fn eval_rising(&self, r: &Rising, ctx: &Ctx) -> i64 {
        let n = self.operand(&r.n, ctx);
        let above = self.operand(&r.above, ctx);
        if n <= 0 {
            return 1;
        }
        let n = u32::try_from(n).unwrap_or(u32::MAX);
        // What a card type is (its copies are the same card); kept per decision when the
        // search has a place for it (`Rising::roles`).
        let role = |c: u16| {
            let kept = r.roles.map(|first| first + u32::from(c));
            if let Some(known) = kept
                .and_then(|slot| memo::recall(ctx.state, slot, ctx.player))
                .and_then(Role::decode)
            {
                return known;
            }
            let on = Ctx {
                args: Args::of_card(c & TYPE_MASK),
                ..*ctx
            };
            let value = self.operand(&r.value, &on);
            let role = if self.eval(&r.lead, &on) != 0 {
                Role::Lead(value)
            } else if self.eval(&r.member, &on) != 0 {
                Role::Member(value)
            } else {
                Role::Neither(value)
            };
            if let Some((slot, code)) = kept.zip(role.encode())
                && !fault::failed()
            {
                memo::keep(ctx.state, slot, ctx.player, code);
            }
            role
        };
        // Read once per type, as the cards are met; kept from the decisions before while the
        // zones the roles read are as they were.
        let kept = r.role_zones.as_ref().map(|read| {
            let key = (self.instance, read.id, ctx.player);
            (key, self.kept_roles(key, &read.zones, ctx))
        });
        let mut roles: [Option<Role>; FEW] = kept.map_or([None; FEW], |(_, roles)| roles);
        let mut learned = false;
        let mut role_of = |c: u16| match roles.get_mut(usize::from(c)) {
            Some(known) => *known.get_or_insert_with(|| {
                learned = true;
                role(c)
            }),
            None => role(c),
        };
        // Each member type's place among the members, once it is one (`NOT_MEMBER` before).
        const NOT_MEMBER: u8 = u8::MAX;
        let mut member_at = [NOT_MEMBER; FEW];
        let member_of = |member_at: &[u8; FEW], c: u16| {
            (member_at.get(usize::from(c)).copied())
                .filter(|&w| w != NOT_MEMBER)
                .map(usize::from)
        };
        let (mut lead_value, mut lead_n) = ([0i64; FEW], [0u32; FEW]);
        let (mut member_value, mut member_n) = ([0i64; FEW], [0u32; FEW]);
        let (mut leads, mut members) = (0usize, 0usize);
        for p in self.piles_of(&r.from, ctx) {
            for &c in &ctx.state.piles[p] {
                let c = c & TYPE_MASK;
                if let Some(w) = member_of(&member_at, c) {
                    member_n[w] += 1;
                    continue;
                }
                match role_of(c) {
                    Role::Lead(v) => {
                        let at = lead_value[..leads].partition_point(|&x| x < v);
                        if at < leads && lead_value[at] == v {
                            lead_n[at] += 1;
                        } else if leads < FEW {
                            lead_value.copy_within(at..leads, at + 1);
                            lead_n.copy_within(at..leads, at + 1);
                            (lead_value[at], lead_n[at]) = (v, 1);
                            leads += 1;
                        }
                    }
                    Role::Member(v) if members < FEW => {
                        if let Some(at) = member_at.get_mut(usize::from(c)) {
                            *at = members as u8;
                        }
                        (member_value[members], member_n[members]) = (v, 1);
                        members += 1;
                    }
                    Role::Member(_) | Role::Neither(_) => {}
                }
            }
        }
        // The group begun: its worth, its lead (at most one), the members it holds.
        let (mut sum, mut seed_leads, mut begun) = (0i64, 0u32, false);
        let mut on = [false; FEW];
        for p in r.seed.iter().flat_map(|seed| self.piles_of(seed, ctx)) {
            for &c in &ctx.state.piles[p] {
                let c = c & TYPE_MASK;
                begun = true;
                let what = role_of(c);
                let (Role::Lead(v) | Role::Member(v) | Role::Neither(v)) = what;
                sum = sum.saturating_add(v);
                match what {
                    Role::Lead(_) => seed_leads += 1,
                    Role::Member(_) => {
                        if let Some(w) = member_of(&member_at, c) {
                            on[w] = true;
                        }
                    }
                    Role::Neither(_) => {}
                }
            }
        }
        // A role worked out while the move faulted is not kept.
        if let Some((key, _)) = kept
            && learned
            && !fault::failed()
        {
            ROLES.with_borrow_mut(|all| {
                if let Some(entry) = all.iter_mut().find(|e| e.key == key) {
                    entry.roles = roles;
                }
            });
        }
        let mut pool = Pool {
            lead_value: &mut lead_value[..leads],
            lead_n: &mut lead_n[..leads],
            member_value: &member_value[..members],
            member_n: &mut member_n[..members],
        };
        if r.seed.is_none() {
            return i64::from(pool.chain(n, above));
        }
        let on = &on[..members];
        let ok = match seed_leads {
            _ if !begun => pool.chain(n, above),
            0 => {
                // A group begun without its lead takes one from `Z`.
                (0..pool.lead_value.len()).any(|i| {
                    if pool.lead_n[i] == 0 {
                        return false;
                    }
                    pool.lead_n[i] -= 1;
                    let with_lead = sum.saturating_add(pool.lead_value[i]);
                    let ok = finish(&mut pool, with_lead, above, on, n);
                    pool.lead_n[i] += 1;
                    ok
                })
            }
            1 => finish(&mut pool, sum, above, on, n),
            _ => false,
        };
        i64::from(ok)
    }
}

impl Rulebook {
    /// The roles kept for `key` while the `zones` hold what they held when they were kept;
    /// none when they changed (the entry then starts again from what they hold now).
    fn kept_roles(
        &self,
        key: (u64, u32, usize),
        zones: &[ZoneRef],
        ctx: &Ctx,
    ) -> [Option<Role>; FEW] {
        ROLES.with_borrow_mut(|all| {
            let at = match all.iter().position(|e| e.key == key) {
                Some(at) => at,
                None => {
                    // A few searches a description, a few descriptions a process: the
                    // oldest goes when many were compiled (a test run).
                    if all.len() >= KEPT_ROLES {
                        all.remove(0);
                    }
                    all.push(KeptRoles {
                        key,
                        print: Vec::new(),
                        roles: [None; FEW],
                    });
                    all.len() - 1
                }
            };
            let entry = &mut all[at];
            // The zones' cards now, compared with those kept, and kept in their place.
            let mut same = true;
            let mut i = 0;
            let mut note = |v: u16, print: &mut Vec<u16>| {
                if print.get(i) != Some(&v) {
                    same = false;
                    print.truncate(i);
                    print.push(v);
                }
                i += 1;
            };
            for z in zones {
                for p in self.piles_of(z, ctx) {
                    let pile = &ctx.state.piles[p];
                    note(pile.len() as u16, &mut entry.print);
                    for &c in pile {
                        note(c & TYPE_MASK, &mut entry.print);
                    }
                }
            }
            if i != entry.print.len() {
                same = false;
                entry.print.truncate(i);
            }
            if !same {
                entry.roles = [None; FEW];
            }
            entry.roles
        })
    }
}

/// The group begun, worth `sum` with its lead, then `n - 1` more.
fn finish(pool: &mut Pool, sum: i64, above: i64, on: &[bool], n: u32) -> bool {
    if sum > above {
        pool.chain(n - 1, sum)
    } else {
        pool.lift(0, sum, i64::MAX, above, Some(on), n - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::Pool;

    /// Leads (value, copies) sorted, members (value) one copy each.
    fn can(leads: &[(i64, u32)], members: &[i64], m: u32, prev: i64) -> bool {
        let mut lv: Vec<i64> = leads.iter().map(|l| l.0).collect();
        let mut ln: Vec<u32> = leads.iter().map(|l| l.1).collect();
        let mut mn = vec![1; members.len()];
        Pool {
            lead_value: &mut lv,
            lead_n: &mut ln,
            member_value: members,
            member_n: &mut mn,
        }
        .chain(m, prev)
    }

    #[test]
    fn distinct_leads_rise_alone() {
        assert!(can(&[(5, 1), (10, 1), (15, 1)], &[], 3, 0));
        assert!(
            !can(&[(5, 1), (10, 1), (15, 1)], &[], 3, 5),
            "5 is not above 5"
        );
        assert!(!can(&[(5, 3)], &[], 2, 0), "two fives do not rise");
    }

    #[test]
    fn members_lift_a_lead_and_are_used_once() {
        // Two fives: one alone, one with a member of 10 (15 > 5).
        assert!(can(&[(5, 2)], &[10], 2, 0));
        // Three fives need two members, each used once: 5, 5+10, 5+10+? (needs > 15).
        assert!(!can(&[(5, 3)], &[10], 3, 0));
        assert!(can(&[(5, 3)], &[10, 20], 3, 0), "5, 5+10, 5+20");
        // A member never lifts the lead beyond what both members together give.
        assert!(!can(&[(5, 1)], &[10, 20], 1, 40));
        assert!(can(&[(5, 1)], &[10, 20], 1, 34));
    }

    /// A search with very many ways to try (every set of 1..=30 worth more than 233, none
    /// leaving enough for a second group) is work of the move: it stops when the move's
    /// budget is spent, a runaway, never a hang.
    #[test]
    fn a_search_past_the_moves_budget_is_a_runaway() {
        use super::super::fault::{self, Fault};
        let members: Vec<i64> = (1..=30).collect();
        fault::begin(10_000);
        assert!(!can(&[(0, 2)], &members, 2, 233));
        assert_eq!(fault::end(), Some(Fault::Runaway));
        // Within the budget, the same pool answers.
        fault::begin(10_000);
        assert!(can(&[(0, 2)], &members, 2, 200));
        assert_eq!(fault::end(), None);
    }

    /// A role kept as one number reads back as it was, whatever its value's sign; one too
    /// large to be kept so is not kept.
    #[test]
    fn a_role_kept_reads_back_the_same() {
        use super::Role;
        for role in [
            Role::Lead(0),
            Role::Lead(-7),
            Role::Member(40),
            Role::Neither(-1),
            Role::Neither(i64::MAX / 4 - 1),
        ] {
            assert_eq!(role.encode().and_then(Role::decode), Some(role));
        }
        assert_eq!(Role::Lead(i64::MAX / 2).encode(), None);
        assert_eq!(Role::decode(0), None, "a value never kept is no role");
    }

    #[test]
    fn too_few_leads_never_do() {
        assert!(!can(&[(50, 1)], &[10, 10, 10], 2, 0));
        assert!(can(&[], &[], 0, 100), "no group is always made");
    }

    /// The Quests draft's set-up search reads its card roles in the quest shown alone, so
    /// they are kept from decision to decision; a role reading a counter or another seat's
    /// zone is not (the kept roles are held to those worked out each time by
    /// `kept_parts_list_and_judge_as_the_parts_read_each_time`).
    #[test]
    fn roles_are_kept_across_decisions_only_when_they_read_zones_alone() {
        use super::super::model::{CounterExpr, CounterRef, Expr, Who, ZoneRef};
        use super::super::random_games::pack_in;
        use super::{role_zones, zones_only};
        let rules = super::super::compile(&pack_in("../tests/packs", "quests-rulebook", None))
            .expect("the draft compiles");
        let mut searches = Vec::new();
        for step in &rules.steps {
            if let Some((keep, _)) = &step.keep {
                find(keep, &mut searches);
            }
        }
        assert!(!searches.is_empty());
        for r in &searches {
            let read = r.role_zones.as_ref().expect("roles read the quest shown");
            let zones = &read.zones;
            let shown = rules.zones.iter().position(|z| z.name == "shown").unwrap();
            assert!(zones.iter().all(|z| z.zone == shown && z.who == Who::Table));
            assert_eq!(role_zones(r).as_deref().map(<[_]>::len), Some(zones.len()));
        }
        let counter = Expr::Counter(CounterExpr::Read(CounterRef::Table(0)));
        assert!(!zones_only(&counter, &mut Vec::new()));
        let elsewhere = Expr::Count(ZoneRef {
            zone: 0,
            who: Who::Seat(0),
            row: None,
        });
        assert!(!zones_only(&elsewhere, &mut Vec::new()));

        fn find(e: &Expr, out: &mut Vec<super::Rising>) {
            if let Expr::Rising(r) = e {
                out.push((**r).clone());
            }
            e.each_child(&mut |x| find(x, out));
        }
    }
}
