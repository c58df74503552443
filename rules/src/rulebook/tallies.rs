//! The names a finished game's tallies are reported under (`[zones.*] tally`, `[roles.*]
//! tally`, card ids), made once when the description compiles and shared by every game's
//! outcome: a simulation reports tens of tallies per game, each name a copy otherwise.

use std::sync::Arc;

use super::Rulebook;
use super::model::{EFFECT_TALLY, Members, ROLE_TALLY};

#[derive(Debug, Default)]
pub(super) struct TallyNames {
    /// Per card set, its cards' ids.
    cards: Vec<Vec<Arc<str>>>,
    /// Per zone, the kind its arrivals are tallied as ("" untallied).
    zones: Vec<Arc<str>>,
    /// Per role, the kind its giving is tallied as, and what is given (the holder's card id
    /// per figure when figures are cards, else the kind's name).
    roles: Vec<(Arc<str>, RoleItem)>,
    /// Per `tally` line's entry, its kind and the set of the card it counts, if any.
    effects: Vec<(Arc<str>, Option<usize>)>,
}

#[derive(Debug)]
enum RoleItem {
    Card(usize),
    Named(Arc<str>),
}

impl TallyNames {
    pub(super) fn of(rules: &Rulebook) -> TallyNames {
        let name = |s: &Option<String>| Arc::from(s.as_deref().unwrap_or_default());
        let roles = rules.board.as_ref().map_or_else(Vec::new, |board| {
            (board.roles.iter())
                .map(|r| {
                    let item = match &board.kinds[r.kind].members {
                        Members::Cards { set, .. } => RoleItem::Card(*set),
                        Members::Each { .. } => {
                            RoleItem::Named(board.kinds[r.kind].name.as_str().into())
                        }
                    };
                    (name(&r.tally), item)
                })
                .collect()
        });
        TallyNames {
            cards: (rules.sets.iter())
                .map(|s| s.cards.iter().map(|c| Arc::from(c.as_str())).collect())
                .collect(),
            zones: rules.zones.iter().map(|z| name(&z.tally)).collect(),
            roles,
            effects: (rules.effect_tallies.iter())
                .map(|(kind, set)| (Arc::from(kind.as_str()), *set))
                .collect(),
        }
    }
}

impl Rulebook {
    /// The kind and item a tally entry is reported as (`State::tallies`).
    pub(super) fn tally_names(&self, zone: u16, card: u16) -> (Arc<str>, Arc<str>) {
        let names = &self.derived.tally_names;
        let card_of = |set: usize| {
            (names.cards.get(set))
                .and_then(|cards| cards.get(usize::from(card)))
                .cloned()
                .unwrap_or_default()
        };
        if zone & ROLE_TALLY == 0 && zone & EFFECT_TALLY != 0 {
            return match names.effects.get(usize::from(zone & !EFFECT_TALLY)) {
                Some((kind, Some(set))) => (kind.clone(), card_of(*set)),
                Some((kind, None)) => (kind.clone(), Arc::from("")),
                None => Default::default(),
            };
        }
        if zone & ROLE_TALLY != 0 {
            return match names.roles.get(usize::from(zone & !ROLE_TALLY)) {
                Some((kind, RoleItem::Card(set))) => (kind.clone(), card_of(*set)),
                Some((kind, RoleItem::Named(item))) => (kind.clone(), item.clone()),
                None => Default::default(),
            };
        }
        let kind = names
            .zones
            .get(usize::from(zone))
            .cloned()
            .unwrap_or_default();
        let set = self
            .zones
            .get(usize::from(zone))
            .map_or(usize::MAX, |z| z.set);
        (kind, card_of(set))
    }
}
