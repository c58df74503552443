//! The stages besides `turn`: those played before the turns (`rounds`) and those a step
//! enters (`"stage:<name>"` in a stage's steps, or a step's `dispatch`), and the steps that
//! enter them. Stages are numbered the ones before the turns first, in the order written
//! (they are played in that order), then the entered ones.

use grail_engine::diag::{Diagnostic, no_such};
use grail_schema::model::Sp;

use super::{Compiler, Kind, MAX_NESTING, MAX_STAGE_TURNS, NO_SCOPE};
use crate::rulebook::model::{Enter, Expr, Stage, Step};
use crate::rulebook::syntax;

/// A stage besides `turn`, by name: whether a step enters it (else it is played before the
/// turns), in the numbering of `Rulebook::stages`.
pub struct StageNames(Vec<(String, bool)>);

impl StageNames {
    fn index(&self, name: &str) -> Option<(usize, bool)> {
        (self.0.iter())
            .position(|(n, _)| n == name)
            .map(|k| (k, self.0[k].1))
    }
}

/// The stage a stage's step list names with `stage:<name>`.
pub fn entered_name(entry: &str) -> Option<&str> {
    entry.strip_prefix("stage:").map(str::trim)
}

impl Compiler<'_> {
    /// The stages besides `turn`, numbered: those with `rounds` first, then those entered.
    pub fn stage_names(&self) -> StageNames {
        let rb = &self.pack.rulebook;
        let others = || rb.stages.iter().filter(|(k, _)| k.value != "turn");
        let before = others().filter(|(_, d)| d.rounds.is_some());
        let entered = others().filter(|(_, d)| d.rounds.is_none());
        StageNames(
            before
                .map(|(k, _)| (k.value.clone(), false))
                .chain(entered.map(|(k, _)| (k.value.clone(), true)))
                .collect(),
        )
    }

    /// A stage a step enters, by name: one without `rounds`.
    fn entered_stage(
        &mut self,
        names: &StageNames,
        name: &Sp<String>,
        text: &str,
    ) -> Option<usize> {
        match names.index(text) {
            Some((k, true)) => Some(k),
            Some((_, false)) => {
                let msg = format!(
                    "stage `{text}` is played before the turns (it has `rounds`): a step cannot enter it"
                );
                self.error("invalid-value", msg, &name.loc, name.loc.span.clone());
                None
            }
            None if text == "turn" => {
                let msg = "`turn` is the turn itself: a step enters another stage".to_string();
                self.error("invalid-value", msg, &name.loc, name.loc.span.clone());
                None
            }
            None => {
                let known = names.0.iter().filter(|(_, e)| *e).map(|(n, _)| n.as_str());
                let msg = no_such("stage", text, known);
                self.error("unknown-stage", msg, &name.loc, name.loc.span.clone());
                None
            }
        }
    }

    /// `[steps.*] pass`: the word for leaving an optional step out. One word, with which no
    /// move the step may offer begins (its actions' and the standing actions': a move is
    /// read by its first word), nor `pay` or `help`. Another step may use it for an action.
    pub fn pass_word(
        &mut self,
        step: &str,
        def: &grail_schema::model::StepDef,
        word: &Sp<String>,
    ) -> Option<String> {
        let w = word.value.trim();
        let taken = |name: &String| name.split_whitespace().next() == Some(w);
        let rb = &self.pack.rulebook;
        let verb_of = |d: &grail_schema::model::ActionDef, name: &Sp<String>| {
            d.verb.as_ref().unwrap_or(name).value.clone()
        };
        let msg = if !def.optional.as_ref().is_some_and(|o| o.value) {
            format!(
                "step `{step}` names a word for passing, `{w}`, but cannot be passed: add \
                 `optional = true`"
            )
        } else if w.is_empty()
            || !w
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            format!(
                "the word for passing is one word of lower-case letters, digits and `-`, not `{w}`"
            )
        } else if w == "pay" || w == "help" {
            format!("`{w}` is a move of its own; the word for passing is another")
        } else if let Some((name, _)) = (rb.actions.iter()).find(|(name, d)| {
            (d.standing.is_some() || def.actions.iter().any(|a| a.value == name.value))
                && taken(&verb_of(d, name))
        }) {
            format!(
                "`{w}` begins the moves of action `{}`, which step `{step}` may offer: the word \
                 for passing is another, so that a move is read one way",
                name.value
            )
        } else {
            return Some(w.to_string());
        };
        self.error("invalid-value", msg, &word.loc, word.loc.span.clone());
        None
    }

    /// The step a stage's step list writes as `stage:<name>`: it enters that stage.
    pub fn entering_step(&mut self, names: &StageNames, entry: &Sp<String>) -> Option<Step> {
        let name = entered_name(&entry.value)?;
        let k = self.entered_stage(names, entry, name)?;
        Some(Step {
            enter: Some(Enter {
                on: None,
                cases: Vec::new(),
                otherwise: Some(k),
                text: format!("enters `{name}`"),
            }),
            ..Step::plain(entry.value.clone(), entry.loc.clone())
        })
    }

    /// A step's `dispatch` and `stages`: the stage its value enters.
    pub fn dispatch(
        &mut self,
        names: &StageNames,
        step: &Sp<String>,
        def: &grail_schema::model::StepDef,
    ) -> Option<Enter> {
        let Some(on) = &def.dispatch else {
            if let Some((key, _)) = def.stages.0.first() {
                let msg = format!(
                    "step `{}` lists `stages` but has no `dispatch` to choose among them",
                    step.value
                );
                self.error("missing-field", msg, &key.loc, key.loc.span.clone());
            }
            return None;
        };
        if let Some(first) = def.actions.first() {
            let msg = format!(
                "step `{}` both dispatches and offers actions: a step does one or the other (enter a stage whose steps offer them)",
                step.value
            );
            self.error("invalid-value", msg, &first.loc, first.loc.span.clone());
        }
        let expr = self.expression(on, NO_SCOPE, false)?;
        let symbols = self.symbols_of(&expr).map(<[String]>::to_vec);
        let mut enter = Enter {
            on: None,
            cases: Vec::new(),
            otherwise: None,
            text: format!("enters a stage by `{}`:", on.value.trim()),
        };
        for (key, stage) in def.stages.iter() {
            let Some(k) = self.entered_stage(names, stage, stage.value.trim()) else {
                continue;
            };
            enter
                .text
                .push_str(&format!(" {} → `{}`,", key.value, stage.value.trim()));
            if key.value == "else" {
                enter.otherwise = Some(k);
                continue;
            }
            let value = match &symbols {
                Some(names) => names.iter().position(|n| *n == key.value).map(|i| i as i64),
                None => key.value.trim().parse::<i64>().ok(),
            };
            match value {
                Some(v) => enter.cases.push((v, k)),
                None => {
                    let msg = match &symbols {
                        Some(names) => {
                            no_such("value", &key.value, names.iter().map(String::as_str))
                        }
                        None => format!(
                            "`{}` is not a number: `{}` is a number, so its stages are keyed by numbers (or `else`)",
                            key.value,
                            on.value.trim()
                        ),
                    };
                    self.error("invalid-value", msg, &key.loc, key.loc.span.clone());
                }
            }
        }
        enter.text.pop();
        // A named attribute's values without a stage and no `else`: nothing is entered.
        if let (Some(names), None) = (&symbols, enter.otherwise) {
            let missed: Vec<&str> = (names.iter().enumerate())
                .filter(|(i, _)| !enter.cases.iter().any(|(v, _)| *v == *i as i64))
                .map(|(_, n)| n.as_str())
                .collect();
            if !missed.is_empty() {
                let d = Diagnostic::warning(
                    "dispatch-uncovered",
                    format!(
                        "step `{}` enters no stage for {}: the step is passed then",
                        step.value,
                        missed
                            .iter()
                            .map(|n| format!("`{n}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
                .at(on.loc.source, on.loc.span.clone(), "here")
                .with_help("give each value a stage, or `else = \"<stage>\"` for the rest");
                self.diags.push(d);
            }
        }
        enter.on = Some(expr);
        Some(enter)
    }

    /// The stages besides `turn`, in [`Compiler::stage_names`]' numbering, their steps
    /// appended to `steps` (which holds the turn's).
    pub fn other_stages(
        &mut self,
        names: &StageNames,
        steps: &mut Vec<Step>,
        step: &mut dyn FnMut(&mut Self, &Sp<String>) -> Option<Step>,
    ) -> Vec<Stage> {
        let rb = &self.pack.rulebook;
        let mut out = Vec::new();
        for (name, sub) in &names.0 {
            let Some((key, def)) = rb.stages.iter().find(|(k, _)| k.value == *name) else {
                continue;
            };
            let mut rounds = vec![0; usize::from(self.pack.players.1) + 1];
            let (mut from_last, mut backward, mut repeat) = (false, false, None);
            if *sub {
                repeat = self.stage_repeat(key, def.repeat.as_ref());
            } else {
                if let Some(r) = &def.repeat {
                    let msg = format!(
                        "stage `{}` is played before the turns, `rounds` times: `repeat` is for a stage a step enters",
                        key.value
                    );
                    self.error("invalid-value", msg, &r.loc, r.loc.span.clone());
                }
                rounds = self.stage_rounds(key, def.rounds.as_ref());
                from_last = self.either(&def.first, ["first", "last"]);
                backward = self.either(&def.order, ["clockwise", "counter-clockwise"]);
            }
            let first_step = steps.len();
            for s in &def.steps {
                if let Some(st) = step(self, s) {
                    steps.push(st);
                }
            }
            out.push(Stage {
                name: name.clone(),
                sub: *sub,
                repeat_text: repeat
                    .as_ref()
                    .and(def.repeat.as_ref())
                    .map(|r| r.value.trim().to_string()),
                repeat,
                first_step,
                len: steps.len() - first_step,
                rounds,
                from_last,
                backward,
            });
        }
        out
    }

    /// A stage's `rounds` by player count.
    fn stage_rounds(&mut self, name: &Sp<String>, rounds: Option<&Sp<String>>) -> Vec<i64> {
        let mut by_players = vec![0; usize::from(self.pack.players.1) + 1];
        let Some(rounds) = rounds else {
            return by_players;
        };
        for n in self.pack.players.0..=self.pack.players.1 {
            match self.start_value(rounds, n) {
                // Every seat plays the stage `rounds` times, counted in 16 bits.
                Ok(v) if v < 0 || v.saturating_mul(i64::from(n)) > MAX_STAGE_TURNS => {
                    let msg = format!(
                        "stage `{}` is played {v} rounds with {n} players; a stage is played 0 to {} rounds ({MAX_STAGE_TURNS} turns of all the seats together)",
                        name.value,
                        MAX_STAGE_TURNS / i64::from(n)
                    );
                    self.error("over-limit", msg, &rounds.loc, rounds.loc.span.clone());
                    break;
                }
                Ok(v) => by_players[usize::from(n)] = v,
                Err(d) => {
                    self.diags.push(d);
                    break;
                }
            }
        }
        by_players
    }

    /// An entered stage's `repeat = "while <condition>"`.
    fn stage_repeat(&mut self, name: &Sp<String>, repeat: Option<&Sp<String>>) -> Option<Expr> {
        let r = repeat?;
        match syntax::repeat_while(&r.value) {
            Some(Ok(node)) => self.typed(&node, r, NO_SCOPE, Kind::Bool),
            Some(Err(e)) => {
                self.syntax_error(r, e);
                None
            }
            None => {
                let msg = format!(
                    "stage `{}` repeats `while <condition>`: its steps are played again while the condition holds",
                    name.value
                );
                self.error("invalid-value", msg, &r.loc, r.loc.span.clone());
                None
            }
        }
    }

    /// One of two words; the second gives true.
    fn either(&mut self, s: &Option<Sp<String>>, words: [&str; 2]) -> bool {
        match s {
            None => false,
            Some(s) if s.value == words[0] => false,
            Some(s) if s.value == words[1] => true,
            Some(s) => {
                let msg = no_such("choice", &s.value, words);
                self.error("invalid-value", msg, &s.loc, s.loc.span.clone());
                false
            }
        }
    }

    /// Every entered stage is entered by some step, none enters itself (through others), and
    /// stages nest at most [`MAX_NESTING`] deep.
    pub fn check_entered(&mut self, steps: &[Step], stages: &[Stage], turn_steps: usize) {
        let enters = |range: std::ops::Range<usize>| -> Vec<(usize, &Step)> {
            (steps.get(range).unwrap_or_default().iter())
                .filter_map(|s| s.enter.as_ref().map(|e| (e, s)))
                .flat_map(|(e, s)| {
                    (e.cases.iter().map(|c| c.1))
                        .chain(e.otherwise)
                        .map(move |k| (k, s))
                })
                .collect()
        };
        let of_stage =
            |k: usize| enters(stages[k].first_step..stages[k].first_step + stages[k].len);
        for (k, stage) in stages.iter().enumerate().filter(|(_, s)| s.sub) {
            let entered = (enters(0..turn_steps).iter())
                .chain(
                    (0..stages.len())
                        .flat_map(of_stage)
                        .collect::<Vec<_>>()
                        .iter(),
                )
                .any(|(j, _)| *j == k);
            if !entered {
                let at = &self
                    .pack
                    .rulebook
                    .stages
                    .iter()
                    .find(|(n, _)| n.value == stage.name);
                if let Some((name, _)) = at {
                    let msg = format!(
                        "stage `{}` is never entered: a stage besides `turn` is played before the turns (`rounds`) or entered from a step (`\"stage:{}\"` in a stage's steps, or a step's `dispatch`)",
                        stage.name, stage.name
                    );
                    self.error("unreachable", msg, &name.loc, name.loc.span.clone());
                }
            }
        }
        // Depth-first from each stage's entering steps: a path back to a stage on it is a
        // circle; a path longer than the state keeps is too deep.
        fn walk<'s>(
            k: usize,
            path: &mut Vec<usize>,
            of_stage: &dyn Fn(usize) -> Vec<(usize, &'s Step)>,
            found: &mut Vec<(&'s Step, bool)>,
        ) {
            for (j, step) in of_stage(k) {
                if path.contains(&j) {
                    found.push((step, true));
                } else if path.len() >= MAX_NESTING {
                    found.push((step, false));
                } else {
                    path.push(j);
                    walk(j, path, of_stage, found);
                    path.pop();
                }
            }
        }
        let mut found = Vec::new();
        // A step enters only stages without `rounds` (`entered_stage`).
        for (j, _) in enters(0..turn_steps) {
            walk(j, &mut vec![j], &of_stage, &mut found);
        }
        for k in (0..stages.len()).filter(|&k| !stages[k].sub) {
            walk(k, &mut Vec::new(), &of_stage, &mut found);
        }
        // A circle among stages no other stage reaches (each enters the other).
        for k in (0..stages.len()).filter(|&k| stages[k].sub) {
            let mut circles = Vec::new();
            walk(k, &mut vec![k], &of_stage, &mut circles);
            found.extend(circles.into_iter().filter(|(_, circle)| *circle));
        }
        let mut seen = Vec::new();
        for (step, circle) in found {
            let at = (step.loc.source, step.loc.span.start);
            if seen.contains(&at) {
                continue;
            }
            seen.push(at);
            let msg = match circle {
                true => format!(
                    "step `{}` enters a stage that is already being played: a stage cannot enter itself, directly or through others",
                    step.name
                ),
                false => format!(
                    "step `{}` enters stages more than {MAX_NESTING} deep (a stage entered from a stage entered from …)",
                    step.name
                ),
            };
            let code = if circle { "stage-cycle" } else { "over-limit" };
            self.error(code, msg, &step.loc, step.loc.span.clone());
        }
    }
}
