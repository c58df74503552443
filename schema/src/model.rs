//! The pack file format as written (`docs/pack-format.md`): one [`PackFile`] per file,
//! before includes and `extends` are merged and before any cross-checking.
//!
//! These types are the format's single description: the decoder fills them (so every key it
//! accepts has a field here), the JSON Schema is generated from them, and the content hash
//! serializes them. Every value keeps the place it was written ([`Sp`]) for diagnostics;
//! places are invisible to serialization and to the schema.

use std::borrow::Cow;
use std::ops::Range;

use grail_engine::diag::SourceId;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Serialize;

use crate::node::Node;

/// Where something was written: a file and a byte span in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loc {
    pub source: SourceId,
    pub span: Range<usize>,
}

/// A value and where it was written.
#[derive(Clone, Debug)]
pub struct Sp<T> {
    pub value: T,
    pub loc: Loc,
}

impl<T> Sp<T> {
    pub fn new(value: T, loc: Loc) -> Self {
        Sp { value, loc }
    }
}

impl<T: Serialize> Serialize for Sp<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(s)
    }
}

impl<T: JsonSchema> JsonSchema for Sp<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }
    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }
    fn schema_id() -> Cow<'static, str> {
        T::schema_id()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        T::json_schema(generator)
    }
}

/// A table keyed by names, in written order (TOML `[x.name]` tables, RON maps).
#[derive(Clone, Debug)]
pub struct Table<V>(pub Vec<(Sp<String>, V)>);

impl<V> Default for Table<V> {
    fn default() -> Self {
        Table(Vec::new())
    }
}

impl<V> Table<V> {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn get(&self, key: &str) -> Option<&V> {
        self.0.iter().find(|(k, _)| k.value == key).map(|(_, v)| v)
    }
    pub fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        self.0
            .iter_mut()
            .find(|(k, _)| k.value == key)
            .map(|(_, v)| v)
    }
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(k, _)| k.value.as_str())
    }
    pub fn iter(&self) -> impl Iterator<Item = (&Sp<String>, &V)> {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

impl<V: Serialize> Serialize for Table<V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (&k.value, v)))
    }
}

impl<V: JsonSchema> JsonSchema for Table<V> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        format!("Table_of_{}", V::schema_name()).into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "additionalProperties": generator.subschema_for::<V>(),
        })
    }
}

/// One file of a content pack: the root file (with `[pack]`) or a file the root includes.
#[derive(Clone, Debug, Default, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields, title = "Grail content pack file")]
pub struct PackFile {
    /// The pack itself: only in a pack's root file (`pack.toml`, a variant file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pack: Option<PackHeader>,
    /// The rulebook's numbers and options; the rules module declares which it reads.
    #[serde(default, skip_serializing_if = "ParamsDef::is_empty")]
    pub params: ParamsDef,
    /// Card sets: each a universe of card types with declared attributes, and a deck.
    #[serde(default, skip_serializing_if = "Table::is_empty")]
    pub sets: Table<SetDef>,
    /// Named conditions and expressions the rules evaluate.
    #[serde(default, skip_serializing_if = "Table::is_empty")]
    pub conditions: Table<ConditionDef>,
    /// The game description, for `rules = "rulebook"`.
    #[serde(flatten)]
    pub rulebook: RulebookDef,
}

/// The `[pack]` table of a root file.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct PackHeader {
    /// kebab-case; a variant's id is its file stem.
    pub id: Sp<String>,
    /// Display name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<Sp<String>>,
    /// The rulebook module that interprets the pack (inherited by a pack that extends).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<Sp<String>>,
    /// Supported player counts (inherited by a pack that extends).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<Sp<Players>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<Sp<String>>,
    /// How the game is scored, in words for players, from the rule text; the terminal's
    /// `help` shows it (inherited by a pack that extends).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scoring: Option<Sp<String>>,
    /// Files merged into this one, in order; paths relative to the pack folder.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub include: Vec<Sp<String>>,
    /// The pack this one overrides: a path relative to the pack folder (`"pack.toml"`) or a
    /// bundled pack (`"@my-game"`, `"@my-game/short"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extends: Option<Sp<String>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Players {
    #[schemars(range(min = 1, max = 255))]
    pub min: u8,
    #[schemars(range(min = 1, max = 255))]
    pub max: u8,
    /// How many play when `grail play` is not told (default: `min`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 255))]
    pub default: Option<u8>,
}

/// `[params]`: values by name, and under `[params.by-players]` integers that depend on how
/// many play. A plain value holds for every player count; a `by-players` entry gives the
/// value for the counts it names (it wins over a plain value of the same name).
#[derive(Clone, Debug, Default, Serialize, JsonSchema)]
pub struct ParamsDef {
    /// Integers by player count: `knights = { 2 = 6, 3 = 6, 4 = 5 }`. Every count the pack
    /// allows (`players.min` to `players.max`) needs a value, here or as a plain param.
    #[serde(
        rename = "by-players",
        default,
        skip_serializing_if = "Table::is_empty"
    )]
    pub by_players: Table<ByPlayers>,
    /// Params that hold for every player count.
    #[serde(flatten)]
    pub values: Table<Sp<ParamValue>>,
}

impl ParamsDef {
    pub fn is_empty(&self) -> bool {
        self.by_players.is_empty() && self.values.is_empty()
    }
}

/// The name of the `[params]` table that holds per-player-count values.
pub const BY_PLAYERS: &str = "by-players";

/// One param's values by player count; keys are player counts, written `2 = 6`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ByPlayers(pub Table<Sp<i64>>);

impl JsonSchema for ByPlayers {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "ByPlayers".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "description": "A value for each player count: `{ 2 = 6, 3 = 6, 4 = 5 }`.",
            "propertyNames": { "pattern": "^[1-9][0-9]{0,2}$" },
            "additionalProperties": { "type": "integer" },
        })
    }
}

/// A param value: an integer, a boolean or a string.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ParamValue {
    Int(i64),
    Bool(bool),
    Text(String),
}

impl ParamValue {
    pub fn type_name(&self) -> &'static str {
        match self {
            ParamValue::Int(_) => "an integer",
            ParamValue::Bool(_) => "a boolean",
            ParamValue::Text(_) => "a string",
        }
    }
}

/// `[sets.<id>]`: a card set.
#[derive(Clone, Debug, Default, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SetDef {
    /// Display name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<Sp<String>>,
    /// The declared number of cards (copies summed); lint checks it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<Sp<u32>>,
    /// The integer attribute that `sum(filter)` adds up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Sp<String>>,
    /// The set that the `condition` fields of this set's cards range over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition_over: Option<Sp<String>>,
    /// The sets that `overrides.when` conditions of this set's cards range over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when_over: Option<Vec<Sp<String>>>,
    /// Makes this a *product* set: its card types are the combinations of one card from each
    /// listed set (a figure's plate and its seat), merged where their attribute values are
    /// equal. It has the attributes of all of them and lists no cards or attributes itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub product: Option<Vec<Sp<String>>>,
    /// Attribute declarations: a list of names, or `{ min, max }` for whole numbers.
    #[serde(default, skip_serializing_if = "Table::is_empty")]
    pub attributes: Table<Sp<DomainDef>>,
    /// What attribute values mean to players, by attribute and value, from the rule text:
    /// `[sets.adversaries.legend.color] red = "dragons"`. Shown by `grail cards`, `info` and
    /// the terminal game; each value must be one of the attribute's.
    #[serde(default, skip_serializing_if = "Table::is_empty")]
    pub legend: Table<Table<Sp<String>>>,
    /// The card types, in order (at most 64 per set).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<CardDef>,
}

/// An attribute's domain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum DomainDef {
    /// A closed list of names.
    Symbols(Vec<String>),
    /// Whole numbers in `min..=max`.
    Range(IntRange),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct IntRange {
    pub min: i64,
    pub max: i64,
}

/// An attribute value on a card: a name from the attribute's list, or a whole number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum AttrValue {
    Sym(String),
    Int(i64),
}

/// One card type. Keys other than the fields below are attribute values.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CardDef {
    /// Unique within its set; kebab-case.
    pub id: Sp<String>,
    /// Display name (default: the id).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<Sp<String>>,
    /// How many cards of this type (default 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = 255))]
    pub copies: Option<Sp<u8>>,
    /// Victory points, where the rules use them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<Sp<i64>>,
    /// The card's place in an order the rules read (the plates round a table): where one card
    /// of a set gives it, all do, and the positions are 0 to (cards − 1), each once.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = 255))]
    pub position: Option<Sp<u8>>,
    /// A condition over the set named by this set's `condition_over`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<Sp<String>>,
    /// Rules text shown to players.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<Sp<String>>,
    /// Situational attribute values: `{ when = "<condition>", <attribute> = <value> }`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overrides: Option<Vec<OverrideDef>>,
    /// Declarative effects; each game's rules doc lists the kinds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effects: Option<Vec<EffectDef>>,
    /// In a pack that extends another: `true` removes the inherited card.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remove: Option<Sp<bool>>,
    /// Attribute values, by attribute name.
    #[serde(flatten)]
    pub attributes: Table<Sp<AttrValue>>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct OverrideDef {
    /// The condition under which the values apply, over the set's `when_over` sets.
    pub when: Sp<String>,
    /// The attribute values that apply then.
    #[serde(flatten)]
    pub values: Table<Sp<AttrValue>>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct EffectDef {
    /// What the effect does; the game's rules module gives the kinds their meaning.
    pub kind: Sp<String>,
    #[serde(flatten)]
    pub fields: Table<Node>,
}

/// `[conditions.<name>]`: a named condition or integer expression.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ConditionDef {
    /// The set (or list of sets) the condition ranges over.
    #[schemars(with = "OneOrMany")]
    pub over: Vec<Sp<String>>,
    /// Runtime parameters the rules pass in, usable as `$name`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<Sp<String>>,
    /// The condition or expression, in the condition language.
    pub expr: Sp<String>,
    /// What it asks for, in words for players (shown when a move does not meet it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<Sp<String>>,
}

/// A number, or a text: a param or an expression of params (`repeat = 3`, `repeat = "$n"`).
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum NumberOrText {
    Number(i64),
    Text(String),
}

/// A set id or a list of set ids.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

/// The game description the generic `rulebook` rules read (`docs/design/rulebook.md`): the
/// top-level `[zones.*]`, `[setup]`, `[stages.*]`, `[steps.*]`, `[actions.*]`, `[end]` and
/// `[bot]` tables of a pack file. Empty in packs whose rules are a hand-written module.
#[derive(Clone, Debug, Default, Serialize, JsonSchema)]
pub struct RulebookDef {
    /// Where cards are: every copy of a set starts in the one zone of that set with `start`.
    #[serde(default, skip_serializing_if = "Table::is_empty")]
    pub zones: Table<ZoneDef>,
    /// What is done before the first decision.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<SetupDef>,
    /// Ordered lists of steps; the stage named `turn` is one player's turn.
    #[serde(default, skip_serializing_if = "Table::is_empty")]
    pub stages: Table<StageDef>,
    /// A decision: the actions it offers.
    #[serde(default, skip_serializing_if = "Table::is_empty")]
    pub steps: Table<StepDef>,
    /// What a player may do: a parameter, a guard and effects.
    #[serde(default, skip_serializing_if = "Table::is_empty")]
    pub actions: Table<ActionDef>,
    /// When the game ends and how it is scored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<EndDef>,
    /// `[endings.<reason>]`: further ways the game ends, each with its own winners and score.
    #[serde(default, skip_serializing_if = "Table::is_empty")]
    pub endings: Table<EndingDef>,
    /// The greedy bot's heuristic.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot: Option<BotDef>,
    /// Named expressions: `bar = "max(…)"`, or with parameters, `"strength(S)" = "rank(S) *
    /// 5 + sum(bp, arms(S))"`; a name used in any expression stands for its expression, the
    /// parameters for what the call gives them.
    #[serde(default, skip_serializing_if = "Table::is_empty")]
    pub expressions: Table<Sp<String>>,
    /// Named texts: `phase = "{if step(bid)}bidding{else}…{end}"`; a hole `{phase}` in any
    /// text (a query, a `why`, a check's `says`) stands for it.
    #[serde(default, skip_serializing_if = "Table::is_empty")]
    pub texts: Table<Sp<String>>,
    /// Script and terminal queries by name (`"knights P" = "knights(P)"`, `"seals P" =
    /// "marks(P)"`): `P` stands for a seat and `row` for a row, in the name and the value.
    #[serde(default, skip_serializing_if = "Table::is_empty")]
    pub queries: Table<Sp<String>>,
    /// Figures standing on the seats of a `ring` zone.
    #[serde(default, skip_serializing_if = "Table::is_empty")]
    pub figures: Table<FigureDef>,
    /// Roles one figure holds at a time (the King); a ring's plates may follow one.
    #[serde(default, skip_serializing_if = "Table::is_empty")]
    pub roles: Table<RoleDef>,
    /// Numbers the game keeps: one for the table, or one per seat (a score).
    #[serde(default, skip_serializing_if = "Table::is_empty")]
    pub counters: Table<CounterDef>,
    /// What must hold after the setup or at the end of every game, for every player count
    /// allowed: `grail lint` verifies it on a few seeded random games.
    #[serde(default, skip_serializing_if = "Table::is_empty")]
    pub checks: Table<CheckDef>,
}

impl RulebookDef {
    pub fn is_empty(&self) -> bool {
        self.zones.is_empty()
            && self.setup.is_none()
            && self.stages.is_empty()
            && self.steps.is_empty()
            && self.actions.is_empty()
            && self.end.is_none()
            && self.bot.is_none()
            && self.queries.is_empty()
            && self.figures.is_empty()
            && self.roles.is_empty()
            && self.counters.is_empty()
            && self.checks.is_empty()
            && self.endings.is_empty()
            && self.expressions.is_empty()
            && self.texts.is_empty()
    }
}

/// `[zones.<name>]`: a place cards of one set can be.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ZoneDef {
    /// The card set whose cards this zone holds.
    pub holds: Sp<String>,
    /// `"all"`: the zone starts with every copy of the cards it holds; `["id", …]`: with
    /// every copy of those cards.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<Sp<ZoneStart>>,
    /// One zone for the table (default) or one per seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<Sp<ZoneOwner>>,
    pub layout: Sp<Layout>,
    /// For `rows`: the card attribute with one row per value (or a text param naming it,
    /// `"$column_attribute"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<Sp<String>>,
    pub visible: Sp<Visibility>,
    /// For a `stack`: the zone shuffled into it when it runs out (the discards).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refill: Option<Sp<String>>,
    /// Every card that comes into this zone is counted under this kind in the balance
    /// report (`"adventure"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tally: Option<Sp<String>>,
    /// How many marks each seat has to place on cards of this zone (a number or a param,
    /// `"$seals_per_player"`): a card carries at most one, and shows whose it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub marks: Option<Sp<String>>,
    /// For `ring`: a set whose cards are plates turning with the table, one per seat, in
    /// their `position` order along the seats' numbering.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plates: Option<Sp<String>>,
    /// For `ring` with plates: the role whose figure the plate `at` always faces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub follow: Option<Sp<String>>,
    /// For `ring` with plates: the plate (card id) at the followed figure's seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<Sp<String>>,
    /// For `ring`: the way round seat `i + 1` lies from seat `i`, `"clockwise"` or
    /// `"counter-clockwise"` (default).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numbered: Option<Sp<String>>,
    /// For `ring`: the way a figure stepping forward goes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forward: Option<Sp<String>>,
    /// For `ring`: the way a figure displaced from its seat goes, to the next empty seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub displace: Option<Sp<String>>,
    /// A card attribute the table shows beside each card it names, `lance(20)` (`"bp"`;
    /// a card worth 0 is named bare).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shows: Option<Sp<String>>,
    /// Whether the table lists the zone: `"always"` (default), `"held"` (while it holds a
    /// card) or `"never"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<Sp<TableListing>>,
}

/// What a zone starts with: `"all"`, every copy of every card it holds; or a list of card
/// ids, every copy of those (`start = ["dishonor"]`: a deck split into two piles).
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ZoneStart {
    All(StartAll),
    Cards(Vec<Sp<String>>),
}

/// The word `"all"` of [`ZoneStart`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum StartAll {
    All,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ZoneOwner {
    /// One shared zone.
    Table,
    /// One zone per seat.
    Each,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    /// Ordered, taken from the top.
    Stack,
    /// Unordered.
    Hand,
    /// Ordered rows, one per value of the attribute `by`.
    Rows,
    /// Seats round a table (one per card of the set it `holds`, numbered in card order),
    /// on which figures stand.
    Ring,
}

/// Whether the table `grail play` shows lists a zone or a counter (`table = "held"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TableListing {
    /// Always (the default).
    #[default]
    Always,
    /// While it holds a card (a zone), or is not 0 (a counter).
    Held,
    /// Never: bookkeeping the players need not read (scripts and queries still may).
    Never,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Visibility {
    /// Everyone sees the cards.
    Public,
    /// The owning seat sees the cards, the others how many.
    Owner,
    /// Everyone sees only how many.
    Count,
}

/// `[setup]`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SetupDef {
    /// Effects, one per line.
    #[serde(rename = "do")]
    pub effects: Sp<String>,
}

/// `[stages.<name>]`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct StageDef {
    /// Step names, in order.
    pub steps: Vec<Sp<String>>,
    /// A stage besides `turn` is played before it: this many rounds of every seat's steps
    /// (a number or a param, plain or by player count).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<NumberOrText>")]
    pub rounds: Option<Sp<String>>,
    /// Who starts it: `"first"` (P1, default) or `"last"` seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<Sp<String>>,
    /// Which way it goes round the table: `"clockwise"` (P1, P2, …; default) or
    /// `"counter-clockwise"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<Sp<String>>,
    /// `[stages.turn]` only: who takes the next turn, a seat expression read when a turn
    /// ends (`"winner"`, `"left(current)"`); by default the next seat in turn order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<Sp<String>>,
    /// A stage entered from a step (`"stage:<name>"` in a stage's steps, or a step's
    /// `dispatch`): `"while <condition>"` plays its steps again while the condition holds
    /// when they are over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeat: Option<Sp<String>>,
}

/// `[steps.<name>]`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct StepDef {
    /// Action names, offered in this order (none for a step that only `dispatch`es).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<Sp<String>>,
    /// The player may leave the step out: `pass` is offered after its actions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optional: Option<Sp<bool>>,
    /// With `optional`: the word for leaving the step out, instead of `pass` (`"decline"`,
    /// `"done"`); `pass` is understood as well.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pass: Option<Sp<String>>,
    /// What the terminal asks while the step is decided (and the script query `phase`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<Sp<String>>,
    /// Offer the actions card by card: for each card of the zone they all draw their card
    /// from, in zone order, each of them in the listed order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_card: Option<Sp<bool>>,
    /// How many actions the step takes before the next (a number or `$param`, read when
    /// the step is played); default 1. It ends early when nothing is legal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<NumberOrText>")]
    pub repeat: Option<Sp<String>>,
    /// A move that is the only one the step offers is made at once, no one deciding (a draw
    /// from the one pile left).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto: Option<Sp<bool>>,
    /// Who decides the step, when not the player to move: `"each P in others"` (every other
    /// seat in turn, from the one after the player to move), `"first P in others"` (asked in
    /// turn until one takes an action: an offer), `… in each` (the player to move first),
    /// `… from <seat>` (the order starting there), or one seat (`"sponsor"`, a seat
    /// expression: that seat alone decides). `P` names the seat deciding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub who: Option<Sp<String>>,
    /// A condition each move of the step must leave true to be offered: it is read after the
    /// move's effects (`P`: the seat deciding), before the game goes on. `pass` is always
    /// offered; a step left with nothing but `pass` offers nothing. "A card is offered only if
    /// the quest can still be completed with it": `keep = "finishable(P)"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keep: Option<Sp<String>>,
    /// A step that enters a stage instead of offering actions: the expression read when the
    /// step is reached (`"kind(last(story))"`), whose value picks the stage in `stages`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<Sp<String>>,
    /// With `dispatch`: the stage entered for each value (a name of a named attribute, or a
    /// number), and under `else` for any other; a value with no stage enters none.
    #[serde(default, skip_serializing_if = "Table::is_empty")]
    pub stages: Table<Sp<String>>,
}

/// `[actions.<name>]`: the action's name is its verb in the move notation.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ActionDef {
    /// A card parameter and the zone it is drawn from: `"card in hand(current)"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card: Option<Sp<String>>,
    /// A row parameter: `"row in discards"` (a row of a `rows` zone that holds a card).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<Sp<String>>,
    /// A seat parameter: `"seat in table"` (a seat of a `ring` zone).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<Sp<String>>,
    /// A player parameter: `"seat in others"` or `"seat in each"` (a player, read as
    /// `target`; the move names them: `accuse P2`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<Sp<String>>,
    /// A number parameter: `"1..12"` (its bounds numbers or `$params`, at most 254), read as
    /// `number`; the move names it: `bid 4`. Listed rising, those the guard allows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<Sp<String>>,
    /// A figure parameter: `"figure in knight(current) or prince"` (figures on the ring).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub figure: Option<Sp<String>>,
    /// With `figure`: how far it steps, `"1..5"`; a negative bound steps backward too
    /// (`"-5..5"`, never 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<Sp<String>>,
    /// The verb of its moves when it is not the action's name: several actions may share
    /// one (`verb = "play"`), a move being read as the one whose parameters fit and is legal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verb: Option<Sp<String>>,
    /// With `target` and `card`: the word written between the player and the card in its
    /// moves (`before_card = "with"`: `pray for P3 with piety`); a move without it is read too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before_card: Option<Sp<String>>,
    /// The guard: a condition that must hold.
    #[serde(rename = "if", skip_serializing_if = "Option::is_none")]
    pub guard: Option<Sp<String>>,
    /// Effects, one per line.
    #[serde(rename = "do")]
    pub effects: Sp<String>,
    /// A payment the action costs: chosen as its own `pay …` move after the action.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pay: Option<PayDef>,
    /// A choice of figures meeting a condition over where they stand, chosen as its own move
    /// after the action (`choose = { figures = "knight(current)", over = "spots", meets =
    /// "condition(card)", verb = "score" }`); when none meets it, the action is played
    /// without one (`chosen` is false in its `do`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choose: Option<ChooseDef>,
    /// What a false guard means, for players: shown when the move is refused for it, even
    /// outside its step. `$param`s are filled in and `{card}` is the card's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<Sp<String>>,
    /// What a move naming a card not where the action draws it from is told, for players (a
    /// text as `why`, `{card}` the card named): `"you hold no {card}"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<Sp<String>>,
    /// What the move does, in the pack's words, for the help (in place of its guard in
    /// words): `"lay out a stage card by card"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<Sp<String>>,
    /// A standing action: listed in no step, it is offered at every decision of the seat
    /// deciding (`P`) while this condition holds, before any `auto` step could make that
    /// decision alone (`"count(hand(P)) > 4"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub standing: Option<Sp<String>>,
}

/// `pay = { from, meets, args, to }`: cards from a zone meeting a named condition.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct PayDef {
    /// The zone paid from (`"knights(current)"`).
    pub from: Sp<String>,
    /// A named condition of the pack, or `"condition(card)"`: the card parameter's own.
    pub meets: Sp<String>,
    /// The condition's arguments, in its order, as expressions (`["value(card)"]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<Sp<String>>,
    /// Where the paid cards go.
    pub to: Sp<String>,
}

/// `choose = { figures, over, meets, verb }`: figures on the ring chosen by where they stand.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ChooseDef {
    /// The figures chosen from: a kind and its owner (`"knight(current)"`).
    pub figures: Sp<String>,
    /// A product set of the ring's plates and seats: a figure's situation is the card combining
    /// the plate in front of it and the seat under it.
    pub over: Sp<String>,
    /// A named condition over `over`, or `"condition(card)"`: the card parameter's own.
    pub meets: Sp<String>,
    /// The verb of the choosing move (`score knight@3 knight@9`); default `choose`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verb: Option<Sp<String>>,
    /// What players call the figures chosen, in messages (`"Knights"`); default `figures`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<Sp<String>>,
}

/// `[end]`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct EndDef {
    /// The game ends after a turn at whose end this holds.
    pub when: Sp<String>,
    /// How the game ended, as a short key for reports (default `"end"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<Sp<String>>,
    /// Each seat's score, an integer expression over `P`.
    pub score: Sp<String>,
    /// The game ends at once, after any move, when this holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub now: Option<Sp<String>>,
    /// How the game ended when `now` held.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub now_reason: Option<Sp<String>>,
    /// Breaks a tie for the best score: the highest wins, a further tie shares.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tiebreak: Option<Sp<String>>,
    /// How a player scores, in the pack's words, for the help (in place of `score` in
    /// words).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<Sp<String>>,
    /// The words for the parts of `score` (its terms added or taken away, in order) on the
    /// end screen: `parts = ["shields your rank stands for", "shields since"]`; one per term.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<Sp<String>>,
}

/// `[endings.<reason>]`: a way the game ends besides `[end]`, its name the reason reports
/// give. Asked in the order written, before `[end]`'s own.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct EndingDef {
    /// The game ends when this holds: after a turn, or after any move with `now = true`.
    pub when: Sp<String>,
    /// Asked after every move, not only after a turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub now: Option<Sp<bool>>,
    /// Who wins: `"best"` (the best score, `[end] tiebreak` breaking a tie; the default),
    /// `"all"`, `"none"`, or a condition over `P` (every seat where it holds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winners: Option<Sp<String>>,
    /// Each seat's score when the game ends so (over `P`); by default `[end] score`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<Sp<String>>,
}

/// `[figures.<name>]`: figures of one kind on a ring. Either each seat owns `count` of them
/// (placed during play), or there is one per card of `set`, standing on the seat its
/// attribute `start` names from the beginning.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct FigureDef {
    /// The `ring` zone they stand on.
    pub on: Sp<String>,
    /// `"each"`: every seat owns `count` of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<Sp<ZoneOwner>>,
    /// With `owner = "each"`: the param (plain or by player count) saying how many.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<NumberOrText>")]
    pub count: Option<Sp<String>>,
    /// Without an owner: one figure per card of this set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub set: Option<Sp<String>>,
    /// With `set`: the card attribute holding the seat a figure starts on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<Sp<String>>,
    /// Counters each figure carries (rings); with `set`, each starts at the card's attribute
    /// of that name when the set declares one, else at 0.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counters: Vec<Sp<String>>,
    /// How many of a counter's things the game has (`rings = "$rings"`: a number or a param,
    /// as a counter's `start`): the kind's figures never hold more of it together; a starting
    /// position that would is refused.
    #[serde(default, skip_serializing_if = "Table::is_empty")]
    pub totals: Table<Sp<String>>,
}

/// `[checks.<name>]`: a condition the description states about its own games, verified by
/// lint for every player count allowed.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct CheckDef {
    /// When it must hold: `"setup"` (once the game is set up) or `"end"` (once it is over).
    pub at: Sp<String>,
    /// The condition, over the game's state; `P` stands for each seat in turn.
    pub holds: Sp<String>,
    /// What a failure means, a text with `{…}` holes showing the values read.
    pub says: Sp<String>,
}

/// `[counters.<name>]`: a number the game keeps.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct CounterDef {
    /// One for the table (default) or one per seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<Sp<ZoneOwner>>,
    /// Its value at the start: a number or a param (`"$rings"`); default 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<NumberOrText>")]
    pub start: Option<Sp<String>>,
    /// A ladder: the counter of the same owner this one's points raise (`climbs = "rank"`),
    /// one rank each time they reach what the rank needs, the surplus carried over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub climbs: Option<Sp<String>>,
    /// With `climbs`: the points needed to leave each rank, from rank 0 (numbers or params,
    /// `[5, 7, "$round_table_shields"]`); leaving the last completes the ladder.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Vec<NumberOrText>")]
    pub needs: Vec<Sp<String>>,
    /// Words for its values from 0, as the table shows them (`rank: P1 squire, P2
    /// knight`); a value past the list is shown as a number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<Sp<String>>,
    /// Whether the table lists the counter: `"always"` (default), `"held"` (while it is not
    /// 0) or `"never"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<Sp<TableListing>>,
}

/// `[roles.<name>]`: a role one figure of a kind holds (`figure` and `start`), or the seat
/// holding a card holds (`holds`).
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct RoleDef {
    /// The figure kind that holds it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figure: Option<Sp<String>>,
    /// The card id of the figure holding it at the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<Sp<String>>,
    /// The card id whose holder holds it (`"crown-of-camelot"`): the seat in whose zones the
    /// card lies, none while it lies on the table or in a deck. Instead of `figure`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holds: Option<Sp<String>>,
    /// The balance report's kind for each time the role is given (`"crowned"`): counted
    /// under the card id of the figure that receives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tally: Option<Sp<String>>,
}

/// `[bot]`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct BotDef {
    /// How good a position looks for `P`; greedy bots maximise it.
    pub worth: Sp<String>,
}
