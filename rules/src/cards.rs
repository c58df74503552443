//! Card sets as the card-game rulebooks hold them: ids, names and copies from a pack's set,
//! the deck those copies make, and the cards a script stacks on top of it.

use grail_engine::pile::Pile;

/// A card type: its index in the set.
pub type Card = u8;
use grail_schema::CardSet as PackSet;

#[derive(Clone, Debug, Default)]
pub struct CardSet {
    pub(crate) ids: Vec<String>,
    pub(crate) names: Vec<String>,
    pub(crate) copies: Vec<u8>,
}

impl CardSet {
    pub(crate) fn len(&self) -> usize {
        self.ids.len()
    }
    pub(crate) fn index(&self, id: &str) -> Option<Card> {
        self.ids.iter().position(|i| i == id).map(|i| i as Card)
    }
    /// A zone of this set's cards (see [`zone`]).
    pub(crate) fn zone(
        &self,
        name: impl Into<String>,
        cards: impl IntoIterator<Item = Card>,
    ) -> (String, Vec<String>) {
        zone(name, cards, |c| &self.ids[usize::from(c)])
    }
    /// Copies of every card of the set.
    pub(crate) fn total(&self) -> usize {
        self.copies.iter().map(|&c| usize::from(c)).sum()
    }
}

/// A zone for [`Rules::zones`](grail_engine::game::Rules::zones): its name and the ids of
/// the cards in it, in the order given.
pub(crate) fn zone<'a>(
    name: impl Into<String>,
    cards: impl IntoIterator<Item = Card>,
    id: impl Fn(Card) -> &'a str,
) -> (String, Vec<String>) {
    let ids = cards.into_iter().map(|c| id(c).to_string()).collect();
    (name.into(), ids)
}

pub(crate) fn card_set(set: &PackSet) -> CardSet {
    CardSet {
        ids: set.cards.iter().map(|c| c.id.clone()).collect(),
        names: set.cards.iter().map(|c| c.name.clone()).collect(),
        copies: set.cards.iter().map(|c| c.copies).collect(),
    }
}

/// Every copy, type by type from the bottom up, ready to shuffle.
pub(crate) fn deck(copies: &[u8]) -> Pile {
    let cards: Vec<Card> = copies
        .iter()
        .enumerate()
        .flat_map(|(t, &n)| std::iter::repeat_n(t as Card, usize::from(n)))
        .collect();
    Pile::from_bottom_up(&cards, cards.len())
}

/// Puts the named cards on top of `pile` for a script, the first named on top.
pub(crate) fn stack(
    pile: &mut Pile,
    ids: &[String],
    set: &CardSet,
    what: &str,
) -> Result<(), String> {
    let chosen = ids
        .iter()
        .map(|id| {
            set.index(id)
                .ok_or_else(|| format!("there is no {what} card `{id}`"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    pile.stack_top(&chosen).map_err(|e| {
        let id = &set.ids[usize::from(e.card)];
        format!(
            "the {what} pile holds {} `{id}`, fewer than the {} asked for on top",
            e.available, e.wanted
        )
    })
}
