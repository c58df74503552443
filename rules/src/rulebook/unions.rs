//! Several sets in one zone: `holds = "knight-cards + king-cards"` (a hand holding the cards
//! of several decks). The union's card types are its members' one after another (as in a
//! condition's `over` list); a member's attributes carry over, 0 where a member lacks one. Cards
//! go from a member's zone into the union's, never back. Compiled, every zone of a member holds
//! the union, keeping its member's types (`Zone::types`): a move never translates a card, and a
//! member's deck starts with its member's cards only.

use grail_engine::diag::Diagnostic;
use grail_schema::model::Sp;

use super::Rulebook;
use super::compile::Compiler;
use super::model::CardSet;
use super::state::State;

impl Compiler<'_> {
    /// The union a `holds` of several sets names, made once; `None`: not a union.
    pub(super) fn union_set(&mut self, id: &Sp<String>) -> Option<Option<usize>> {
        if !id.value.contains('+') {
            return None;
        }
        let names: Vec<&str> = id.value.split('+').map(str::trim).collect();
        let key = names.join(" + ");
        if let Some(i) = self.sets.iter().position(|s| s.id == key) {
            return Some(Some(i));
        }
        let mut members = Vec::new();
        for name in &names {
            let part = Sp::new(name.to_string(), id.loc.clone());
            let m = self.set_index(&part)?;
            if !self.sets[m].members.is_empty() || members.iter().any(|&(x, _)| x == m) {
                let msg = format!("`{name}` is named twice or is a union itself");
                self.error("invalid-value", msg, &id.loc, id.loc.span.clone());
                return Some(None);
            }
            members.push((m, 0u16));
        }
        let mut union = CardSet {
            id: key,
            cards: Vec::new(),
            names: Vec::new(),
            copies: Vec::new(),
            attrs: Vec::new(),
            values: Vec::new(),
            symbols: Vec::new(),
            members: Vec::new(),
        };
        for (m, offset) in &mut members {
            let set = &self.sets[*m];
            *offset = union.cards.len() as u16;
            for (a, name) in set.attrs.iter().enumerate() {
                match union.attrs.iter().position(|x| x == name) {
                    Some(u) if union.symbols[u] != set.symbols[a] => {
                        let msg = format!(
                            "sets `{}` and others in `{}` give attribute `{name}` different values; a union needs them alike",
                            set.id, id.value
                        );
                        self.diags
                            .push(Diagnostic::error("incompatible-sets", msg).at(
                                id.loc.source,
                                id.loc.span.clone(),
                                "here",
                            ));
                        return Some(None);
                    }
                    Some(_) => {}
                    None => {
                        union.attrs.push(name.clone());
                        union.symbols.push(set.symbols[a].clone());
                        union.values.push(vec![0; union.cards.len()]);
                    }
                }
            }
            for t in 0..set.cards.len() {
                for (u, name) in union.attrs.iter().enumerate() {
                    let v = set
                        .attrs
                        .iter()
                        .position(|x| x == name)
                        .map_or(0, |a| set.values[a][t]);
                    union.values[u].push(v);
                }
            }
            union.cards.extend(set.cards.iter().cloned());
            union.names.extend(set.names.iter().cloned());
            union.copies.extend(set.copies.iter().copied());
        }
        if union.cards.len() > 64 {
            let msg = format!(
                "`{}` would have {} card types; a set holds at most 64",
                id.value,
                union.cards.len()
            );
            self.error("too-many-types", msg, &id.loc, id.loc.span.clone());
            return Some(None);
        }
        union.members = members;
        self.sets.push(union);
        Some(Some(self.sets.len() - 1))
    }

    /// Whether cards of the set a zone declares may go to a zone declaring `to`: the same
    /// set, or a union with it.
    pub(super) fn set_fits(&self, from: usize, to: usize) -> bool {
        from == to || self.sets[to].members.iter().any(|&(m, _)| m == from)
    }

    /// Every zone of a union's member holds the union, keeping its member's types.
    pub(super) fn rehome_unions(&mut self) {
        for u in 0..self.sets.len() {
            if !self.zones.iter().any(|z| z.declared == u) {
                continue;
            }
            for (m, offset) in self.sets[u].members.clone() {
                let len = self.sets[m].cards.len() as u16;
                for z in 0..self.zones.len() {
                    if self.zones[z].declared != m {
                        continue;
                    }
                    let by = self.zones[z].by.and_then(|a| {
                        let name = &self.sets[m].attrs[a];
                        self.sets[u].attrs.iter().position(|x| x == name)
                    });
                    let zone = &mut self.zones[z];
                    zone.set = u;
                    zone.types = offset..offset + len;
                    zone.by = by;
                }
            }
        }
    }
}

impl Rulebook {
    /// The hidden piles re-dealt from one pool in an observation: piles keeping a member's
    /// types get cards of those types (picked at random from the shuffled pool), the others
    /// the rest, in pile order.
    pub(super) fn deal_by_types(
        &self,
        view: &mut State,
        hidden: &[usize],
        pool: Vec<u16>,
        stays: &impl Fn(&u16) -> bool,
    ) {
        let mut pool: Vec<Option<u16>> = pool.into_iter().map(Some).collect();
        let full = |p: usize| {
            let z = &self.zones[self.locate(p).0];
            z.types.start == 0 && usize::from(z.types.end) == self.sets[z.set].cards.len()
        };
        for pass_restricted in [true, false] {
            for &p in hidden.iter().filter(|&&p| full(p) != pass_restricted) {
                let n = view.piles[p].len();
                let types = self.zones[self.locate(p).0].types.clone();
                // The cards that stay (a role's, `observe.rs`) keep their places.
                view.piles[p].retain(stays);
                for slot in pool.iter_mut() {
                    if view.piles[p].len() == n {
                        break;
                    }
                    if let Some(c) = *slot
                        && types.contains(&(c & super::model::TYPE_MASK))
                    {
                        view.piles[p].push(c);
                        *slot = None;
                    }
                }
                if self.zones[self.locate(p).0].layout == grail_schema::model::Layout::Hand {
                    view.piles[p].sort_unstable();
                }
            }
        }
    }

    /// Whether any zone keeps to a union member's types (only then do observations deal by
    /// types, so other games keep their draws).
    pub(super) fn has_unions(&self) -> bool {
        self.sets.iter().any(|s| !s.members.is_empty())
    }
}
