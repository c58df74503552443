//! What compiling works out for the fast paths once the description itself is compiled: one
//! pass per table, run in the order written here, each saying what it reads and what it
//! fills. A pass reads the compiled description and the passes above it, never one below, so
//! this file is the one place their order is decided. Every table is a cache: a listing or
//! an effect without it asks the description the long way (`eval`), so an empty one is slow,
//! never wrong; the fast paths are held to `eval` by their tests (ARCHITECTURE.md, layer 7).

use super::Rulebook;
use super::card_listing::CardRecipe;
use super::card_tables::{BindingSplit, Plan};
use super::marks::GuardSplit;
use super::params::Conjuncts;
use super::plain::PlainGuard;
use super::step_guards::StepGuard;
use super::tallies::TallyNames;

/// The tables the passes fill, empty until [`Derived::fill`] runs them.
#[derive(Debug, Default)]
pub(super) struct Derived {
    /// Pass 1 (`marks.rs`, `shares`): per step, which of its actions share what a
    /// card-by-card listing works out. Reads the steps and the actions' guards.
    pub(super) by_card_shares: Vec<[usize; 8]>,
    /// Pass 2 (`params.rs`): per action, which conjuncts of its guard read its figure and
    /// distance. Reads the guards.
    pub(super) conjuncts: Vec<Conjuncts>,
    /// Pass 3 (`marks.rs`): per action, which part of its guard reads the card. Reads the
    /// guards.
    pub(super) guard_splits: Vec<GuardSplit>,
    /// Pass 4 (`folded.rs`): per action, its payment's first argument by card type, when the
    /// type alone decides it. Reads the payments, the zones and the card sets.
    pub(super) first_args: Vec<Option<Box<[i64]>>>,
    /// Pass 5 (`card_tables.rs`, `binding_splits`): per action with a seat or figure
    /// parameter, the conjuncts of its guard a listing asks once. Reads the guards.
    pub(super) binding_once: Vec<Option<BindingSplit>>,
    /// Pass 6 (`plain.rs`): per step, per action of it without a parameter, how its listing
    /// asks the guard. Reads the steps and the guards.
    pub(super) plain_guards: Vec<Box<[Option<PlainGuard>]>>,
    /// Pass 7 (`setup.rs`, `start_cards`): per zone, the cards each of its piles starts
    /// with, every copy, in type order. Reads the zones and the card sets.
    pub(super) start_cards: Vec<Box<[u16]>>,
    /// Pass 8 (`card_tables.rs`, `plan_card_listings`): per action of a step offered card by
    /// card with a figure, the tables its listing reads. Sets up a game of each player count
    /// and asks it the guards' conjuncts free of the state, so it plays the description with
    /// passes 1–7 in place and this one and those below still empty.
    pub(super) card_plans: Vec<Option<Plan>>,
    /// Pass 9 (`card_listing.rs`, `card_recipes`): per tabled step and player count, per
    /// card type, the actions the tables give it any move and their moves by seat. Reads
    /// pass 8.
    pub(super) card_recipes: Vec<Vec<Option<CardRecipe>>>,
    /// Pass 10 (`tallies.rs`): the names tallies are reported under. Reads the zones, the
    /// actions' payments and the `tally` lines.
    pub(super) tally_names: TallyNames,
    /// Pass 11 (`step_guards.rs`, `standing_by_step`): per step, the standing actions whose window
    /// may hold there (one whose `step(…)` tests rule the step out is not asked). Reads the
    /// standing windows.
    pub(super) standing_at: Vec<Box<[usize]>>,
    /// After the kept parts (`step_guards.rs`, filled by `compile` once they are wrapped):
    /// per step, per action of it, its guard with the step's `step(…)` tests answered, when
    /// that changes it. Reads the wrapped guards.
    pub(super) step_guards: Vec<Option<Box<[Option<StepGuard>]>>>,
}

impl Derived {
    /// Runs the passes in order on `rulebook`, whose description is compiled and whose
    /// tables are empty.
    pub(super) fn fill(rulebook: &mut Rulebook) {
        let rb = &*rulebook;
        let by_card_shares = rb.steps.iter().map(|s| rb.shares(s)).collect();
        let guards = || rb.actions.iter().map(|a| a.guard.as_ref().map(|g| &g.expr));
        let conjuncts = guards().map(Conjuncts::of).collect();
        let guard_splits = guards().map(GuardSplit::of).collect();
        let first_args = super::folded::first_args(&rb.actions, &rb.zones, &rb.sets);
        let binding_once = rb.binding_splits();
        let plain_guards = rb.plain_guards();
        rulebook.derived = Derived {
            by_card_shares,
            conjuncts,
            guard_splits,
            first_args,
            binding_once,
            plain_guards,
            ..Derived::default()
        };
        rulebook.derived.start_cards = rulebook.start_cards();
        rulebook.derived.card_plans = rulebook.plan_card_listings();
        rulebook.derived.card_recipes = rulebook.card_recipes();
        rulebook.derived.tally_names = TallyNames::of(rulebook);
        rulebook.derived.standing_at = rulebook.standing_by_step();
    }
}

/// Every fast path at once, in one place: a rulebook with its tables and direct reads and the
/// same rulebook with none (every listing and effect asking `eval`) list the same moves, in
/// the same order, and reach the same states, over random games of every bundled description and example at
/// every player count. The tests beside each table hold it alone, with states it rarely
/// meets; this one holds them together, where a table reading another could disagree.
#[cfg(test)]
mod tests {
    use grail_engine::game::{NoEvents, Rules, Setup};
    use grail_engine::rng::GameRng;
    use grail_schema::{Disk, Loader};

    use super::super::model::Effect;
    use super::super::{Rulebook, compile};
    use super::Derived;

    /// The description with no fast path: no table, and no effect argument or end condition
    /// read directly (`direct.rs`).
    fn general(mut rules: Rulebook) -> Rulebook {
        fn strip(e: &mut Effect) {
            match e {
                Effect::Deal { count, .. }
                | Effect::Draw { count, .. }
                | Effect::DrawAtRandom { count, .. } => count.direct = None,
                Effect::Step { figure, by } => (figure.direct, by.direct) = (None, None),
                Effect::Add { amount, .. } => amount.direct = None,
                Effect::Set { value, .. } => value.direct = None,
                Effect::Give { figure, .. } => figure.direct = None,
                Effect::ForEach { body, .. } => strip(body),
                Effect::If { cond, then } => {
                    cond.direct = None;
                    strip(then);
                }
                _ => {}
            }
        }
        rules.setup.iter_mut().for_each(strip);
        for a in &mut rules.actions {
            a.effects.iter_mut().for_each(strip);
        }
        rules.end_when.direct = None;
        rules.derived = Derived::default();
        rules
    }

    fn load(loaded: grail_schema::Loaded, name: &str) -> Rulebook {
        let diags = loaded.diagnostics.clone();
        let pack = loaded
            .pack
            .unwrap_or_else(|| panic!("{name} loads: {diags:?}"));
        compile(&pack).unwrap_or_else(|e| panic!("{name} compiles: {e:?}"))
    }

    /// The bundled descriptions and variants, and the examples, each twice: as compiled,
    /// and [`general`].
    fn descriptions() -> Vec<(String, Rulebook, Rulebook)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let loader = || {
            Loader::new(&Disk)
                .with_content(root.join("content"))
                .with_rules(crate::catalog())
        };
        let mut out = Vec::new();
        for (game, variant) in [
            ("artus", None),
            ("artus", Some("advanced")),
            ("king-arthur", None),
            ("king-arthur", Some("seals")),
        ] {
            let name = format!("{game} {variant:?}");
            let fast = load(loader().load_game(game, variant), &name);
            let slow = general(load(loader().load_game(game, variant), &name));
            out.push((name, fast, slow));
        }
        for example in [
            "artus-five",
            "artus-rival",
            "five-trails",
            "merlins-rebuke",
            "restful-knights",
            "round-table-rush",
            "round-table-tricks",
        ] {
            let path = root.join("docs/examples").join(example);
            let fast = load(loader().load(&path), example);
            let slow = general(load(loader().load(&path), example));
            out.push((example.to_string(), fast, slow));
        }
        out
    }

    #[test]
    fn the_fast_paths_change_no_move_and_no_state() {
        for (name, fast, slow) in descriptions() {
            let (lo, hi) = fast.players;
            for seed in 0..24u64 {
                let players = lo + seed as usize % (hi - lo + 1);
                let setup = Setup::new(players, seed);
                let mut state = fast.setup(&setup).unwrap();
                let mut other = slow.setup(&setup).unwrap();
                assert_eq!(state, other, "{name} seed {seed}: the setup");
                let mut rng = GameRng::new(seed);
                let (mut listed, mut general) = (Vec::new(), Vec::new());
                let mut played = 0;
                while fast.to_move(&state).is_some() {
                    fast.legal_actions(&state, &mut listed);
                    slow.legal_actions(&other, &mut general);
                    assert_eq!(listed, general, "{name} seed {seed}, move {played}");
                    let m = listed[rng.index(listed.len())];
                    fast.apply(&mut state, &m, &mut NoEvents);
                    slow.apply(&mut other, &m, &mut NoEvents);
                    assert_eq!(state, other, "{name} seed {seed}, after move {played}");
                    played += 1;
                }
                assert!(
                    slow.to_move(&other).is_none(),
                    "{name} seed {seed}: both end"
                );
                assert!(
                    played > 10,
                    "{name} seed {seed}: a whole game, {played} moves"
                );
            }
        }
    }
}
