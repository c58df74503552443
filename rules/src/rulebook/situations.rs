//! Situational values: a card's attribute read in the situation some zones make (`bp(card,
//! quest + allies(P))`, a foe stronger when the quest names it). The first of the card's
//! `overrides` whose `when` holds over the cards in those zones gives the value, else its
//! own: the engine's `Situational`. Each zone's set is one of the card set's `when_over`, and
//! its cards are counted at that set's place among them, as the overrides were compiled.

use grail_engine::cond::Value;
use grail_engine::situational::Situational;
use grail_schema::model::Sp;

use super::Rulebook;
use super::compile::{Compiler, Kind, Scope};
use super::eval::Ctx;
use super::model::{Expr, SITUATION_TYPES, Situated, TYPE_MASK};
use super::syntax::{Node, Op, chain};

impl Compiler<'_> {
    /// `attr(card, Z1 + Z2 …)`: attribute `attr` (index `a`) of `card`, a card of `set`.
    pub(super) fn situational_attr(
        &mut self,
        set: usize,
        (attr, a): (&str, usize),
        card: Expr,
        zones: &Node,
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<(Expr, Kind)> {
        let pack = self.pack;
        let id = self.sets[set].id.clone();
        let at = self.span(s, &zones.span);
        // Read, even if written wrong below: its overrides are not reported unused too.
        let read = (id.clone(), attr.to_string());
        if !self.situational_reads.contains(&read) {
            self.situational_reads.push(read);
        }
        let Some(pack_set) = pack.sets.iter().find(|p| p.id == id) else {
            let msg = format!("`{attr}(card, …)` reads a card of a set of the pack, not `{id}`");
            self.error("invalid-expression", msg, &s.loc, at);
            return None;
        };
        if pack_set.when_over.is_empty() {
            let msg = format!(
                "the cards of `{id}` have no situation to be read in: their set names none \
                 (`when_over = [\"<set>\", …]`, with `overrides` on its cards); read `{attr}(card)`"
            );
            self.error("invalid-expression", msg, &s.loc, at);
            return None;
        }
        // Where each `when_over` set's types sit in the situation.
        let mut places = Vec::new();
        let mut size = 0;
        for w in &pack_set.when_over {
            places.push((w.as_str(), size));
            size += pack
                .sets
                .iter()
                .find(|p| p.id == *w)
                .map_or(0, |p| p.cards.len());
        }
        if size > SITUATION_TYPES {
            let msg = format!(
                "the situation of `{id}` counts {size} card types; at most {SITUATION_TYPES}"
            );
            self.error("over-limit", msg, &s.loc, at);
            return None;
        }
        // `Z1 + Z2 + …`, in the order written.
        let mut parts = Vec::new();
        chain(zones, Op::Add, &mut parts);
        let mut zones_read = Vec::new();
        for part in parts {
            let z = self.zone_ref(part, s, scope)?;
            let held = self.sets[self.zones[z.zone].set].id.clone();
            match places.iter().find(|(w, _)| *w == held) {
                Some(&(_, offset)) => zones_read.push((z, offset)),
                None => {
                    let names: Vec<String> = places.iter().map(|(w, _)| format!("`{w}`")).collect();
                    let msg = format!(
                        "zone `{}` holds `{held}`; the situation of `{id}` cards is made of {}",
                        self.zones[z.zone].name,
                        names.join(", ")
                    );
                    let at = self.span(s, &part.span);
                    self.error("invalid-expression", msg, &s.loc, at);
                    return None;
                }
            }
        }
        let mut values = Situational::new(self.sets[set].values[a].clone());
        let of_attr = pack_set.universe.attr_index(attr);
        for (t, c) in pack_set.cards.iter().enumerate() {
            for o in &c.overrides {
                for &(oa, v) in &o.values {
                    if Some(oa) != of_attr {
                        continue;
                    }
                    // The engine keeps which types vary in 64 bits.
                    let Some(t) = u8::try_from(t).ok().filter(|&t| t < 64) else {
                        let msg = format!(
                            "card `{}` has an override of `{attr}`, but only the first 64 cards of a set may",
                            c.id
                        );
                        self.error("over-limit", msg, &o.when.loc, o.when.loc.span.clone());
                        return None;
                    };
                    let value = match v {
                        Value::Int(i) => i,
                        Value::Sym(k) => i64::from(k),
                    };
                    values.add_override(t, o.when.program.clone(), value);
                }
            }
        }
        let situated = Situated {
            card,
            zones: zones_read,
            size,
            values,
        };
        Some((Expr::Situational(Box::new(situated)), Kind::Int))
    }
}

impl Compiler<'_> {
    /// Every override of a card is read by some situational read of its attribute: one no
    /// expression reads in a situation would change nothing, a mistake (`unused-override`).
    pub(super) fn check_overrides(&mut self) {
        let pack = self.pack;
        for set in &pack.sets {
            for card in &set.cards {
                for o in &card.overrides {
                    for &(a, _) in &o.values {
                        let name = &set.universe.attrs[a].name;
                        let read = (set.id.clone(), name.clone());
                        if self.situational_reads.contains(&read) {
                            continue;
                        }
                        let msg = format!(
                            "card `{}` overrides `{name}`, but no expression reads `{name}` in a \
                             situation: read it as `{name}(card, <zones>)`, or remove the override",
                            card.id
                        );
                        self.error("unused-override", msg, &o.when.loc, o.when.loc.span.clone());
                    }
                }
            }
        }
    }
}

impl Rulebook {
    /// What [`Expr::Situational`] reads: the base value of a card no override names, else
    /// the cards of its zones counted by type and the first override holding over them.
    #[inline(never)]
    pub(super) fn situational(&self, s: &Situated, ctx: &Ctx) -> i64 {
        let c = self.operand(&s.card, ctx) & i64::from(TYPE_MASK);
        let Ok(t) = u8::try_from(c) else {
            return 0;
        };
        if !s.values.varies(t) {
            return s.values.base(t);
        }
        let mut situation = [0u8; SITUATION_TYPES];
        for (z, offset) in &s.zones {
            for p in self.piles_of(z, ctx) {
                for &card in &ctx.state.piles[p] {
                    let at = offset + usize::from(card & TYPE_MASK);
                    if let Some(n) = situation.get_mut(at) {
                        *n = n.saturating_add(1);
                    }
                }
            }
        }
        s.values.get(t, &situation[..s.size])
    }
}
