//! The one generic rulebook: it reads the game description in a pack (`[zones.*]`,
//! `[setup]`, `[stages.*]`, `[steps.*]`, `[actions.*]`, `[end]`, `[bot]`;
//! `docs/pack-format.md`) and plays it. Parse ([`syntax`]) → check and compile
//! ([`compile`], into [`model`]) → run: the state and its moves ([`state`]), pile
//! addressing and moving cards ([`piles`]), evaluating expressions ([`eval`]), effect lines
//! ([`effects`]), listing the legal moves ([`listing`]), the flow of steps, turns and the end
//! ([`flow`]), setting a game up ([`setup`]) and the `Rules` entry points ([`rules_impl`]);
//! notation and views in [`view`].
//!
//! Where an extension goes: a new expression function's meaning in [`eval`]
//! (`eval_more`, or its family's dispatch: counters, the ring, marks, mechanics); a new
//! effect in [`effects`] (`run`'s loop if moves use it often, else `run_other`); a new step
//! kind in [`flow`] (`advance` enters it, `play` carries out its moves), its moves listed in
//! [`listing`]. Until one analysis replaces them, a new function is also taught to the
//! analyses that read expressions (`marks.rs`, `params.rs`, `card_tables.rs`, `reach.rs`)
//! and the fast paths (`direct.rs`, `plain.rs`, `folded.rs`).

mod args;
mod card_fold;
mod card_listing;
mod card_roles;
mod card_tables;
mod checks;
mod compile;
mod conjuncts;
mod counters;
mod derived;
mod direct;
mod effects;
mod endings;
mod eval;
mod explain;
mod fast;
mod fault;
mod figure_choice;
mod figures;
mod flow;
mod folded;
mod held;
mod keep;
mod kept_parts;
mod listed;
mod listing;
mod marks;
mod mechanics;
mod memo;
mod model;
mod moves;
mod observe;
mod paid;
mod params;
mod payment;
mod piles;
mod plain;
mod position;
mod queries;
mod reach;
mod reads;
mod ring;
mod ring_check;
mod rising;
mod rules_impl;
mod rules_text;
mod seats;
mod setup;
mod situations;
mod stages;
mod state;
mod step_guards;
mod supply;
mod syntax;
mod table;
mod tallies;
mod terms;
mod texts;
mod touched;
mod unions;
mod view;
mod words;
mod worth;

use grail_engine::diag::Diagnostic;
use grail_schema::Pack;

use compile::{Compiler, NO_SCOPE, Scope};
use model::{Action, CardSet, Effect, Expr, Step, Zone};

pub use compile::{MAX_ACTIONS, MAX_REPEAT, MAX_STAGE_TURNS, MAX_STAGES, MAX_STEPS};
pub use rules_text::rules_in_words;
pub use state::State;
/// How deep an expression or effect line may nest, and how many parts it may have.
pub use syntax::{MAX_DEPTH as MAX_EXPRESSION_DEPTH, MAX_NODES as MAX_EXPRESSION_PARTS};

/// A compiled game description.
#[derive(Debug)]
pub struct Rulebook {
    id: String,
    variant: Option<String>,
    players: (usize, usize),
    sets: Vec<CardSet>,
    zones: Vec<Zone>,
    /// Piles shared by the table, then piles per seat.
    table_piles: usize,
    seat_piles: usize,
    /// The zone of each table pile, then of each pile of a seat's block (`locate` without
    /// a search: every card moved asks it).
    pile_zones: Vec<u16>,
    /// The zone of every pile of a game at the most players (`zone_of`: each card put asks).
    zone_by_pile: Vec<u16>,
    /// For every pile of a game at the most players, the cards it can hold (its set's
    /// copies): reserved when a game is set up, so no pile grows as it is played.
    pile_capacity: Vec<usize>,
    /// For every pile of a game at the most players, where its counts are kept in the
    /// state, if it keeps them (`held.rs`).
    held_slots: Vec<u16>,
    setup: Vec<Effect>,
    /// Where the setup's lines are, for lint's error when they fail.
    setup_loc: Option<grail_schema::model::Loc>,
    steps: Vec<Step>,
    actions: Vec<Action>,
    /// Asked after every turn: read directly when its shape allows (`direct.rs`).
    end_when: model::Arg,
    end_reason: String,
    /// Ends the game at once, after any move.
    now: Option<Expr>,
    now_reason: String,
    tiebreak: Option<Expr>,
    score: Expr,
    /// `[endings.*]`: further ways the game ends (`endings.rs`).
    endings: Vec<endings::Ending>,
    worth: Option<worth::Worth>,
    turn_limit: u32,
    /// The work one move may do, with the `auto` moves it leads to (`fault.rs`).
    work_budget: u64,
    /// What the terminal says beyond the moves (`explain.rs`).
    explain: explain::Explain,
    queries: Vec<queries::Query>,
    /// The table's head line (`[texts] status`): what the game is at, for every seat.
    status: Option<Vec<model::Piece>>,
    /// The action whose payment meets its card's own condition, kept in the state's memo.
    memo_action: Option<usize>,
    /// The ring and its figures, when the game has one.
    board: Option<model::Board>,
    /// The roles held by whoever holds a card (`card_roles.rs`).
    card_roles: Vec<model::CardRole>,
    counters: Vec<model::Counter>,
    /// Stages played before the turns; their steps follow the turn's `turn_steps`.
    stages: Vec<model::Stage>,
    turn_steps: usize,
    /// What the description states about its games, verified by lint (`checks.rs`).
    checks: Vec<checks::Check>,
    /// The seat expressions zone and counter references name (`model::Who::Seat`).
    seat_exprs: Vec<Expr>,
    /// What `tally` lines count under: a kind and the set of the card counted, if any.
    effect_tallies: Vec<(String, Option<usize>)>,
    /// Who takes the next turn (`[stages.turn] next`); `None`: the next seat in turn order.
    next_turn: Option<Expr>,
    /// Some step is decided by other seats (`who`): only then does entering a step look.
    asks: bool,
    /// Some step enters a stage (`stages.rs`): the flow looks for such steps only then.
    enters: bool,
    /// The standing actions (`[actions.*] standing`), offered at every decision in their window.
    standing: Vec<usize>,
    /// Some step is a loop (`repeat = "while …"`): only then is its condition asked on entry.
    loops: bool,
    /// Some step's moves must leave a condition true (`keep`, `keep.rs`).
    keeps: bool,
    /// Where parts are read once per decision (`memo.rs`).
    kept_parts: memo::KeptParts,
    /// Per action of a step with `keep`: a bit per part of the condition its effects leave
    /// as they were (`touched.rs`), read once for all the moves a listing tries.
    trial_parts: Vec<Vec<u64>>,
    /// The payments too large to be held in a move (`paid.rs`).
    paid: paid::PaidTable,
    /// The tables compiling works out for the fast paths, pass by pass (`derived.rs`).
    derived: derived::Derived,
    /// The closures the expressions are compiled to, the last stage (`fast.rs`).
    codes: fast::Codes,
    /// This description among those compiled in the process: what is kept from decision to
    /// decision across states (`rising.rs`) is kept per description.
    instance: u64,
    /// The searches' roles as written, numbered (`fast.rs`: `RoleZones::id`).
    roles_read: std::collections::BTreeMap<String, u32>,
}

/// Stops a game nobody can finish (a simulation guard, not a rule); a pack may set
/// `turn_limit`.
const DEFAULT_TURN_LIMIT: i64 = 10_000;

/// Units of work a move may spend per place a card can take (a card in a pile) or step it
/// can enter: far beyond any move that ends (a draw moves each card at most once per
/// refill), small enough that one that never ends stops within a second.
const WORK_PER_PLACE: u64 = 64;

/// Checks and compiles the pack's description.
pub fn compile(pack: &Pack) -> Result<Rulebook, Vec<Diagnostic>> {
    let mut rulebook = compile_walked(pack)?;
    rulebook.wrap_fast();
    Ok(rulebook)
}

/// [`compile`] without its last stage: every expression walked as a tree (the tests hold
/// the closures to it, `fast.rs`).
fn compile_walked(pack: &Pack) -> Result<Rulebook, Vec<Diagnostic>> {
    let mut rulebook = compile_unkept(pack)?;
    rulebook.wrap_kept_parts();
    rulebook.derived.step_guards = rulebook.step_guards();
    Ok(rulebook)
}

/// [`compile_walked`] without its last pass: every part of every guard evaluated each time it is
/// read (the tests hold the parts kept to it, `memo.rs`).
fn compile_unkept(pack: &Pack) -> Result<Rulebook, Vec<Diagnostic>> {
    let mut c = Compiler::new(pack);
    let rb = &pack.rulebook;
    if rb.zones.is_empty() {
        return Err(vec![Diagnostic::error(
            "missing-field",
            format!(
                "pack `{}` names the generic rulebook and describes no game: it needs [zones.*], [setup], [stages.turn], [steps.*], [actions.*] and [end]",
                pack.id
            ),
        )]);
    }
    c.zones();
    c.check_empty_sets();
    c.board = c.board();
    c.card_roles = c.card_roles();
    c.counter_defs = c.counters();
    c.named = c.named_expressions();
    c.texts = c.named_texts();
    let setup = match &rb.setup {
        Some(s) => c.effects(&s.effects, NO_SCOPE, None, true),
        None => Vec::new(),
    };
    let actions = c.actions();
    let steps = c.steps();
    let queries = c.queries();
    // `[texts] status`: the table's head line, in the pack's words.
    let status_text = (c.texts.iter().find(|(name, _)| name == "status")).map(|(_, t)| t.clone());
    let status = (status_text.as_ref()).and_then(|text| c.template(text, NO_SCOPE, true));
    if let (Some(text), Some(pieces)) = (&status_text, &status) {
        c.check_status_reads(text, pieces);
    }
    let memo_action = actions.iter().position(|a| {
        a.pay
            .as_ref()
            .is_some_and(|p| matches!(p.meets, model::Meets::Own { .. }))
    });
    if !c.param_failed {
        c.check_by_card(&steps, &actions);
        c.check_reach(&actions);
    }
    let score_scope = Scope {
        player: true,
        ..NO_SCOPE
    };
    let (end_when, score, end_reason) = match &rb.end {
        Some(end) => (
            c.expression(&end.when, NO_SCOPE, true),
            c.expression(&end.score, score_scope, false),
            end.reason
                .as_ref()
                .map_or("end".to_string(), |r| r.value.clone()),
        ),
        None => {
            c.diags.push(Diagnostic::error(
                "missing-field",
                "the description needs `[end]`: `when` the game ends and each player's `score`",
            ));
            (None, None, String::new())
        }
    };
    // `[end] parts`: one word for each term of the score.
    if let Some(end) = &rb.end
        && let Some(first) = end.parts.first()
    {
        let terms = explain::score_terms(&end.score.value);
        if terms.len() != end.parts.len() {
            let msg = format!(
                "`parts` names {} part(s), and `score` has {} ({})",
                end.parts.len(),
                terms.len(),
                terms
                    .iter()
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            c.error("invalid-value", msg, &first.loc, first.loc.span.clone());
        }
    }
    let (now, now_reason, tiebreak) = match &rb.end {
        Some(end) => (
            end.now
                .as_ref()
                .and_then(|n| c.expression(n, NO_SCOPE, true)),
            end.now_reason
                .as_ref()
                .map_or("end".to_string(), |r| r.value.clone()),
            end.tiebreak
                .as_ref()
                .and_then(|t| c.expression(t, score_scope, false)),
        ),
        None => (None, String::new(), None),
    };
    let worth = rb.bot.as_ref().and_then(|b| c.worth(&b.worth, score_scope));
    let checks = c.checks();
    let next_turn = c.next_turn();
    let endings = c.endings();
    c.check_overrides();
    let turn_limit = pack
        .param("turn_limit")
        .ok()
        .and_then(|p| match p.value {
            grail_schema::model::ParamValue::Int(v) => Some(v),
            _ => None,
        })
        .unwrap_or(DEFAULT_TURN_LIMIT);
    if !c.diags.is_empty() {
        // A step listed in two stages compiles twice: each finding is reported once.
        let mut seen: Vec<Diagnostic> = Vec::new();
        c.diags.retain(|d| {
            let first = !seen.contains(d);
            if first {
                seen.push(d.clone());
            }
            first
        });
        return Err(c.diags);
    }
    let (Some(end_when), Some(score)) = (end_when, score) else {
        return Err(c.diags);
    };
    let explain = explain::Explain::new(pack, &c.sets);
    let mut pile_zones = vec![u16::MAX; c.table_piles + c.seat_piles];
    for (i, z) in c.zones.iter().enumerate() {
        let block = if z.owned { c.table_piles } else { 0 };
        for slot in pile_zones.iter_mut().skip(block + z.first).take(z.rows) {
            *slot = u16::try_from(i).unwrap_or(u16::MAX);
        }
    }
    let most = c.table_piles + usize::from(pack.players.1) * c.seat_piles;
    let zone_by_pile = (0..most)
        .map(|p| match p.checked_sub(c.table_piles) {
            None => pile_zones[p],
            Some(q) => pile_zones[c.table_piles + q % c.seat_piles.max(1)],
        })
        .collect::<Vec<u16>>();
    let held_slots = held::slots(&c.zones, &actions, &zone_by_pile);
    let pile_capacity: Vec<usize> = (zone_by_pile.iter())
        .map(|&z| {
            c.zones.get(usize::from(z)).map_or(0, |zone| {
                let copies = &c.sets[zone.set].copies;
                copies.iter().map(|&n| usize::from(n)).sum()
            })
        })
        .collect();
    // A move may touch every card's place in every pile, and enter every step, many times
    // over before it is taken for one that never ends (`fault.rs`).
    let work_budget = WORK_PER_PLACE
        * (pile_capacity.iter().sum::<usize>() + steps.len() + c.stages.len() + 64) as u64;
    let asks = steps.iter().any(|s| s.who.is_some());
    let enters = steps.iter().any(|s| s.enter.is_some());
    let standing = (actions.iter().enumerate())
        .filter(|(_, a)| a.standing.is_some())
        .map(|(i, _)| i)
        .collect();
    let loops = steps.iter().any(|s| s.repeat_while);
    let keeps = steps.iter().any(|s| s.keep.is_some());
    let mut rulebook = Rulebook {
        // What opens the pack again (a bundled id, a folder's path), as every rulebook
        // names its game; a pack built in memory has no origin and goes by its lineage.
        id: match pack.origin.game.is_empty() {
            false => pack.origin.game.clone(),
            true => pack
                .lineage
                .first()
                .cloned()
                .unwrap_or_else(|| pack.id.clone()),
        },
        variant: match pack.origin.game.is_empty() {
            false => pack.origin.variant.clone(),
            true => (pack.lineage.len() > 1).then(|| pack.id.clone()),
        },
        players: (usize::from(pack.players.0), usize::from(pack.players.1)),
        board: c.board,
        card_roles: c.card_roles,
        counters: c.counter_defs,
        stages: c.stages,
        turn_steps: c.turn_steps,
        sets: c.sets,
        zones: c.zones,
        table_piles: c.table_piles,
        seat_piles: c.seat_piles,
        pile_zones,
        zone_by_pile,
        pile_capacity,
        held_slots,
        setup,
        setup_loc: rb.setup.as_ref().map(|s| s.effects.loc.clone()),
        steps,
        actions,
        end_when: end_when.into(),
        end_reason,
        now,
        now_reason,
        tiebreak,
        score,
        endings,
        worth,
        memo_action,
        queries,
        turn_limit: u32::try_from(turn_limit.clamp(1, i64::from(u32::MAX))).unwrap_or(u32::MAX),
        work_budget,
        explain,
        checks,
        seat_exprs: c.seat_exprs,
        effect_tallies: c.effect_tallies,
        next_turn,
        asks,
        enters,
        standing,
        loops,
        keeps,
        status,
        kept_parts: Default::default(),
        trial_parts: Vec::new(),
        paid: Default::default(),
        derived: Default::default(),
        codes: Default::default(),
        instance: rising::next_instance(),
        roles_read: Default::default(),
    };
    derived::Derived::fill(&mut rulebook);
    Ok(rulebook)
}

/// Random games for the tests that hold a fast path to the general one in every state.
#[cfg(test)]
mod random_games {
    use grail_engine::game::{NoEvents, Rules, Setup};
    use grail_engine::rng::GameRng;
    use grail_schema::{Disk, Loader};

    use super::{Rulebook, State, compile};

    /// A bundled game's description, compiled.
    pub(super) fn bundled(game: &str, variant: Option<&str>) -> Rulebook {
        compile(&pack_in("../content", game, variant)).expect("the description compiles")
    }

    /// A pack of a content folder (relative to the rules crate), loaded.
    pub(super) fn pack_in(folder: &str, game: &str, variant: Option<&str>) -> grail_schema::Pack {
        let content = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
        Loader::new(&Disk)
            .with_content(&content)
            .with_rules(crate::catalog())
            .load_game(game, variant)
            .pack
            .expect("the pack loads")
    }

    /// Plays a game of `players` from `seed`, each move picked at random among those `rules`
    /// lists, calling `each` on every state before its move (with the game's generator and
    /// the moves played so far); the moves played.
    pub(super) fn play(
        rules: &Rulebook,
        players: usize,
        seed: u64,
        mut each: impl FnMut(&State, &mut GameRng, usize),
    ) -> usize {
        let mut state = rules.setup(&Setup::new(players, seed)).unwrap();
        let mut rng = GameRng::new(seed);
        let mut moves = Vec::new();
        let mut played = 0;
        while rules.to_move(&state).is_some() {
            each(&state, &mut rng, played);
            rules.list(&state, &mut moves, false);
            let i = rng.index(moves.len());
            rules.apply(&mut state, &moves[i], &mut NoEvents);
            played += 1;
        }
        played
    }
}
