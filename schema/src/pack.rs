//! The resolved pack the rules modules consume: merged, checked, conditions compiled.
//! Everything a rulebook reads from its pack goes through here, and every lookup that can
//! fail returns a [`Diagnostic`] pointing into the pack, so a rules module can say what is
//! wrong with a pack in the same words as lint.

use std::sync::Arc;

use grail_engine::cond::{Program, Type, Universe, Value};
use grail_engine::diag::{Diagnostic, Sources, did_you_mean};
use serde::Serialize;

use crate::model::{EffectDef, Loc, ParamValue, RulebookDef};

#[derive(Clone, Debug, Serialize)]
pub struct Pack {
    /// The root file's own id (a variant's id is its file stem).
    pub id: String,
    pub name: String,
    pub description: String,
    /// How the game is scored, in words (`[pack] scoring`); empty when the pack says not.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub scoring: String,
    /// The rulebook module that interprets the pack.
    pub rules: String,
    pub players: (u8, u8),
    /// How many play when not told: `players.default`, else the fewest allowed.
    pub default_players: u8,
    /// Ids from the base-most pack to this one: `["my-game", "short"]`.
    pub lineage: Vec<String>,
    /// Sorted by name.
    pub params: Vec<Param>,
    /// Integer params given by player count (`[params.by-players]`), sorted by name; read
    /// them with [`Pack::param_for_players`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by_players: Vec<ByPlayersParam>,
    /// In declaration order.
    pub sets: Vec<CardSet>,
    /// Sorted by name.
    pub conditions: Vec<NamedCondition>,
    /// The game description, for the generic `rulebook` rules; empty otherwise. Kept as
    /// written (with places), for the rulebook to check and compile.
    #[serde(skip_serializing_if = "RulebookDef::is_empty")]
    pub rulebook: RulebookDef,
    /// How the pack was opened, so that replays and saves can open it again.
    #[serde(skip)]
    pub origin: Origin,
    #[serde(skip)]
    pub(crate) loc: Loc,
    /// Where `players` is given (the pack's `[pack]` id when it is not).
    #[serde(skip)]
    pub(crate) players_loc: Loc,
    #[serde(skip)]
    pub(crate) hash: String,
    #[serde(skip)]
    pub(crate) sources: Arc<Sources>,
}

/// What opens a pack again: a bundled game id and variant (`my-game`, `short`), or the
/// path of a pack folder or root file as the user gave it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origin {
    pub game: String,
    pub variant: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Param {
    pub name: String,
    pub value: ParamValue,
    #[serde(skip)]
    pub loc: Loc,
}

/// An integer param with a value per player count.
#[derive(Clone, Debug, Serialize)]
pub struct ByPlayersParam {
    pub name: String,
    /// Sorted by player count.
    pub values: Vec<PlayerCountValue>,
    #[serde(skip)]
    pub loc: Loc,
}

#[derive(Clone, Debug, Serialize)]
pub struct PlayerCountValue {
    pub players: u8,
    pub value: i64,
    #[serde(skip)]
    pub loc: Loc,
}

impl ByPlayersParam {
    pub fn get(&self, players: u8) -> Option<&PlayerCountValue> {
        self.values.iter().find(|v| v.players == players)
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct CardSet {
    pub id: String,
    pub name: String,
    /// The card types with their attribute values, in declaration order; `universe.types`
    /// lists them in the same order, so a card's index is its type index in conditions.
    pub cards: Vec<Card>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition_over: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub when_over: Vec<String>,
    /// For a product set: the sets it combines, in order; empty for a set of listed cards.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub product: Vec<String>,
    /// For a product set: the card type of each combination, indexed row-major by the
    /// factors' card indices (see [`CardSet::product_type`]).
    #[serde(skip)]
    pub product_types: Vec<u8>,
    /// For a product set: the number of cards of each factor.
    #[serde(skip)]
    pub product_sizes: Vec<usize>,
    #[serde(rename = "attributes", serialize_with = "ser_attrs")]
    pub universe: Universe,
    /// What attribute values mean to players (`legend`), by attribute in declaration order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub legend: Vec<Legend>,
    #[serde(skip)]
    pub loc: Loc,
}

/// One attribute's legend: its values (in the domain's order) and what each means.
#[derive(Clone, Debug, Serialize)]
pub struct Legend {
    pub attr: String,
    pub entries: Vec<(String, String)>,
}

impl Legend {
    /// `red = dragons, blue = …`, for one line of help.
    pub fn line(&self) -> String {
        let entries: Vec<String> = self
            .entries
            .iter()
            .map(|(value, words)| format!("{value} = {words}"))
            .collect();
        format!("{}: {}", self.attr, entries.join(", "))
    }

    /// What `value` means, if the legend says.
    pub fn meaning(&self, value: &str) -> Option<&str> {
        let entry = self.entries.iter().find(|(v, _)| v == value);
        entry.map(|(_, words)| words.as_str())
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Card {
    pub id: String,
    pub name: String,
    pub copies: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<i64>,
    /// The card's place in its set's order, when the set gives positions (checked to be 0 to
    /// cards − 1, each once); see [`CardSet::by_position`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<u8>,
    /// Over the set's `condition_over`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<CardCondition>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub text: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<Override>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<EffectDef>,
    /// Where each attribute's value is written (a mod's override is in the mod's file).
    #[serde(skip)]
    pub attr_locs: Vec<(String, Loc)>,
    #[serde(skip)]
    pub loc: Loc,
}

impl Card {
    /// Where attribute `attr`'s value is written, else where the card is.
    pub fn attr_loc(&self, attr: &str) -> &Loc {
        let written = self.attr_locs.iter().find(|(name, _)| name == attr);
        written.map_or(&self.loc, |(_, loc)| loc)
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct CardCondition {
    pub text: String,
    #[serde(skip)]
    pub program: Program,
    #[serde(skip)]
    pub loc: Loc,
}

/// Attribute values that apply while `when` holds over the `when_over` sets.
#[derive(Clone, Debug, Serialize)]
pub struct Override {
    pub when: CardCondition,
    /// Attribute index (into the set's universe) and value.
    #[serde(serialize_with = "ser_override_values")]
    pub values: Vec<(usize, Value)>,
}

#[derive(Clone, Debug, Serialize)]
pub struct NamedCondition {
    pub name: String,
    /// The sets it ranges over; counts passed to `program` follow `universe.types`.
    pub over: Vec<String>,
    /// Runtime arguments, in the order `Program::test`/`value` take them.
    pub args: Vec<String>,
    pub expr: String,
    /// What it asks for, in words for players.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(skip)]
    pub ty: Type,
    #[serde(skip)]
    pub program: Program,
    #[serde(skip)]
    pub universe: Universe,
    #[serde(skip)]
    pub loc: Loc,
}

impl Pack {
    /// `sha256:` and the first 16 hex digits of the SHA-256 of the canonical resolved pack.
    /// Comments, formatting and file layout do not change it; any content change does.
    pub fn hash(&self) -> &str {
        &self.hash
    }

    /// Where the pack says how many may play (`players`), for a rulebook that cannot seat
    /// them.
    pub fn players_loc(&self) -> &Loc {
        &self.players_loc
    }

    /// The texts every [`Loc`] and diagnostic of this pack points into.
    pub fn sources(&self) -> &Arc<Sources> {
        &self.sources
    }

    pub fn param(&self, name: &str) -> Result<&Param, Diagnostic> {
        self.params.iter().find(|p| p.name == name).ok_or_else(|| {
            let d = Diagnostic::error("missing-param", format!("the pack has no param `{name}`"))
                .at(self.loc.source, self.loc.span.clone(), "in this pack");
            match did_you_mean(name, self.params.iter().map(|p| p.name.as_str())) {
                Some(near) => d.with_help(format!("is `{near}` meant to be `{name}`?")),
                None => d.with_help(format!("add `{name} = …` to the pack's [params]")),
            }
        })
    }

    pub fn int(&self, name: &str) -> Result<i64, Diagnostic> {
        let p = self.param(name)?;
        match p.value {
            ParamValue::Int(v) => Ok(v),
            _ => Err(p.wrong_type("an integer")),
        }
    }

    /// An integer param for a game of `players`: its value for that count from
    /// `[params.by-players]`, else its plain value, which holds for every count.
    pub fn param_for_players(&self, name: &str, players: u8) -> Result<i64, Diagnostic> {
        let by_count = self.by_players.iter().find(|p| p.name == name);
        match by_count.and_then(|p| p.get(players)) {
            Some(v) => Ok(v.value),
            None if self.param(name).is_ok() => self.int(name),
            None => match by_count {
                Some(p) => Err(Diagnostic::error(
                    "missing-player-count",
                    format!("param `{name}` gives no value for {players} players"),
                )
                .at(p.loc.source, p.loc.span.clone(), "no value for this count")),
                None => Err(self.param(name).err().unwrap_or_else(|| {
                    Diagnostic::error("missing-param", format!("the pack has no param `{name}`"))
                })),
            },
        }
    }

    pub fn flag(&self, name: &str) -> Result<bool, Diagnostic> {
        let p = self.param(name)?;
        match p.value {
            ParamValue::Bool(v) => Ok(v),
            _ => Err(p.wrong_type("true or false")),
        }
    }

    pub fn text(&self, name: &str) -> Result<&str, Diagnostic> {
        let p = self.param(name)?;
        match &p.value {
            ParamValue::Text(v) => Ok(v),
            _ => Err(p.wrong_type("a string")),
        }
    }

    pub fn set(&self, id: &str) -> Result<&CardSet, Diagnostic> {
        self.sets.iter().find(|s| s.id == id).ok_or_else(|| {
            let d = Diagnostic::error("missing-set", format!("the pack has no set `{id}`")).at(
                self.loc.source,
                self.loc.span.clone(),
                "in this pack",
            );
            match did_you_mean(id, self.sets.iter().map(|s| s.id.as_str())) {
                Some(near) => d.with_help(format!("is `{near}` meant to be `{id}`?")),
                None => d,
            }
        })
    }

    pub fn condition(&self, name: &str) -> Result<&NamedCondition, Diagnostic> {
        self.conditions
            .iter()
            .find(|c| c.name == name)
            .ok_or_else(|| {
                let d = Diagnostic::error(
                    "missing-condition",
                    format!("the pack has no condition `{name}`"),
                )
                .at(self.loc.source, self.loc.span.clone(), "in this pack");
                match did_you_mean(name, self.conditions.iter().map(|c| c.name.as_str())) {
                    Some(near) => d.with_help(format!("is `{near}` meant to be `{name}`?")),
                    None => d.with_help(format!("add a [conditions.{name}] table")),
                }
            })
    }
}

impl Param {
    fn wrong_type(&self, expected: &str) -> Diagnostic {
        Diagnostic::error(
            "param-type",
            format!(
                "param `{}` must be {expected}, found {}",
                self.name,
                self.value.type_name()
            ),
        )
        .at(
            self.loc.source,
            self.loc.span.clone(),
            format!("expected {expected}"),
        )
    }
}

impl CardSet {
    /// The legend of attribute `attr`, if the pack gives one.
    pub fn legend_of(&self, attr: &str) -> Option<&Legend> {
        self.legend.iter().find(|l| l.attr == attr)
    }

    pub fn universe(&self) -> &Universe {
        &self.universe
    }

    /// The card indices in `position` order; `None` when the cards give no positions (or
    /// not 0 to n − 1 each once, which lint reports).
    pub fn by_position(&self) -> Option<Vec<usize>> {
        let mut order = vec![usize::MAX; self.cards.len()];
        for (i, card) in self.cards.iter().enumerate() {
            let slot = order.get_mut(usize::from(card.position?))?;
            if *slot != usize::MAX {
                return None;
            }
            *slot = i;
        }
        Some(order)
    }

    pub fn card(&self, id: &str) -> Option<(usize, &Card)> {
        self.cards.iter().enumerate().find(|(_, c)| c.id == id)
    }

    /// For a product set: the card type combining card `members[i]` of the `i`-th factor.
    /// `None` for a plain set, the wrong number of members, or an index past a factor.
    pub fn product_type(&self, members: &[usize]) -> Option<u8> {
        if members.len() != self.product_sizes.len() || self.product_sizes.is_empty() {
            return None;
        }
        let mut flat = 0usize;
        for (&m, &size) in members.iter().zip(&self.product_sizes) {
            if m >= size {
                return None;
            }
            flat = flat * size + m;
        }
        self.product_types.get(flat).copied()
    }

    /// Copies per card type, indexed like `cards`: the full deck as a condition sees it.
    pub fn deck(&self) -> Vec<u8> {
        self.cards.iter().map(|c| c.copies).collect()
    }

    /// The number of cards (copies summed).
    pub fn total(&self) -> u32 {
        self.cards.iter().map(|c| u32::from(c.copies)).sum()
    }

    /// The value of attribute `attr` on card type `card`.
    pub fn value(&self, card: usize, attr: &str) -> Option<Value> {
        let a = self.universe.attr_index(attr)?;
        self.universe.value(card, a)
    }

    /// The integer value of attribute `attr` on card type `card`.
    pub fn int(&self, card: usize, attr: &str) -> Option<i64> {
        let a = self.universe.attr_index(attr)?;
        self.universe.int(card, a)
    }

    /// The name of a symbolic attribute's value on card type `card` (`"red"`).
    pub fn symbol(&self, card: usize, attr: &str) -> Option<&str> {
        let a = self.universe.attr_index(attr)?;
        match (
            self.universe.value(card, a)?,
            &self.universe.attrs[a].domain,
        ) {
            (Value::Sym(i), grail_engine::cond::Domain::Symbols(names)) => {
                names.get(usize::from(i)).map(String::as_str)
            }
            _ => None,
        }
    }
}

/// Attribute declarations, and each card's values, in a stable readable form for the hash.
fn ser_attrs<S: serde::Serializer>(u: &Universe, s: S) -> Result<S::Ok, S::Error> {
    use grail_engine::cond::Domain;
    #[derive(Serialize)]
    struct View<'a> {
        declared: Vec<(&'a str, String)>,
        value: Option<&'a str>,
        cards: Vec<Vec<String>>,
    }
    let declared = u
        .attrs
        .iter()
        .map(|a| {
            let d = match &a.domain {
                Domain::Symbols(names) => names.join("|"),
                Domain::Int { min, max } => format!("{min}..={max}"),
            };
            (a.name.as_str(), d)
        })
        .collect();
    let cards = u
        .types
        .iter()
        .map(|t| t.values.iter().map(|v| format!("{v:?}")).collect())
        .collect();
    View {
        declared,
        value: u.value_attr.map(|i| u.attrs[i].name.as_str()),
        cards,
    }
    .serialize(s)
}

fn ser_override_values<S: serde::Serializer>(
    values: &[(usize, Value)],
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_seq(values.iter().map(|(a, v)| (a, format!("{v:?}"))))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::{Loaded, Loader, MemoryFiles};

    const BASE: &str = r#"
[pack]
id = "base"
rules = "any"
players = { min = 2, max = 4 }

[params]
rounds = 3

[params.by-players]
knights = { 2 = 6, 3 = 6, 4 = 5 }
"#;

    /// Loads `five.toml` (which may extend `pack.toml`, the base) from memory.
    fn load(five: &str) -> Loaded {
        let mut files = MemoryFiles::new();
        files
            .insert("p/pack.toml", BASE)
            .insert("p/five.toml", five);
        Loader::new(&files).load(Path::new("p/five.toml"))
    }

    fn codes(loaded: &Loaded) -> Vec<&'static str> {
        loaded.diagnostics.iter().map(|d| d.code).collect()
    }

    /// Issue 16: a legend says what values mean, listed in the domain's order; a mod
    /// patches it value by value, and inherits the scoring text.
    #[test]
    fn legends_follow_the_domain_and_merge_value_by_value() {
        let base = format!(
            "{}scoring = \"most points\"\n{}",
            &BASE[..BASE.find("[params]").unwrap()],
            "[sets.deck]\n[sets.deck.attributes]\ncolor = [\"red\", \"blue\", \"green\"]\n\
             [sets.deck.legend.color]\ngreen = \"monsters\"\nred = \"dragons\"\n\
             [[sets.deck.cards]]\nid = \"r\"\ncolor = \"red\"\n"
        );
        let mut files = MemoryFiles::new();
        files.insert("p/pack.toml", base).insert(
            "p/five.toml",
            "[pack]\nid = \"five\"\nextends = \"pack.toml\"\n\
             [sets.deck.legend.color]\nblue = \"knights\"\nred = \"wyrms\"\n",
        );
        let loaded = Loader::new(&files).load(Path::new("p/five.toml"));
        let pack = loaded.pack.expect("loads");
        let legend = pack.set("deck").unwrap().legend_of("color").unwrap();
        assert_eq!(
            legend.line(),
            "color: red = wyrms, blue = knights, green = monsters"
        );
        assert_eq!(legend.meaning("green"), Some("monsters"));
        assert_eq!(pack.scoring, "most points");
    }

    #[test]
    fn a_count_has_its_own_value_and_a_plain_param_holds_for_every_count() {
        let loaded = load(&BASE.replace("\"base\"", "\"five\""));
        let pack = loaded.pack.expect("loads");
        let knights: Vec<i64> = (2..=4)
            .map(|n| pack.param_for_players("knights", n).unwrap())
            .collect();
        assert_eq!(knights, [6, 6, 5]);
        assert_eq!(pack.param_for_players("rounds", 4).unwrap(), 3);
        assert_eq!(
            pack.param_for_players("knights", 5).unwrap_err().code,
            "missing-player-count"
        );
        assert_eq!(
            pack.param_for_players("knight", 2).unwrap_err().code,
            "missing-param"
        );
    }

    #[test]
    fn every_allowed_count_needs_a_value() {
        let loaded = load(
            "[pack]\nid = \"five\"\nextends = \"pack.toml\"\nplayers = { min = 1, max = 5 }\n",
        );
        assert_eq!(codes(&loaded), ["missing-player-count"]);
        let d = &loaded.diagnostics[0];
        assert!(
            d.message.contains("no value for 1, 5 players"),
            "{}",
            d.message
        );
        assert_eq!(
            d.help.as_deref(),
            Some("add `1 = …, 5 = …` to `knights` in [params.by-players], or narrow `players`")
        );
    }

    #[test]
    fn a_mod_overrides_one_count_and_keeps_the_others() {
        let loaded = load(
            "[pack]\nid = \"five\"\nextends = \"pack.toml\"\nplayers = { min = 2, max = 5 }\n\
             [params.by-players]\nknights = { 5 = 4, 4 = 3 }\n",
        );
        let pack = loaded.pack.expect("loads");
        let knights: Vec<i64> = (2..=5)
            .map(|n| pack.param_for_players("knights", n).unwrap())
            .collect();
        assert_eq!(knights, [6, 6, 3, 4]);
    }

    #[test]
    fn a_plain_value_in_a_mod_overrides_every_count() {
        let loaded = load(
            "[pack]\nid = \"five\"\nextends = \"pack.toml\"\nplayers = { min = 2, max = 5 }\n\
             [params]\nknights = 4\n",
        );
        let pack = loaded.pack.expect("loads");
        for n in 2..=5 {
            assert_eq!(pack.param_for_players("knights", n).unwrap(), 4);
        }
        assert!(pack.by_players.is_empty());
    }

    #[test]
    fn keys_are_player_counts() {
        let loaded = load(
            "[pack]\nid = \"five\"\nextends = \"pack.toml\"\n\
             [params.by-players]\nknights = { two = 6, 0 = 1, 4 = 5, 04 = 5 }\nrings = 3\n",
        );
        assert_eq!(
            codes(&loaded),
            [
                "invalid-player-count",
                "invalid-player-count",
                "duplicate-id",
                "wrong-type"
            ]
        );
    }
}
