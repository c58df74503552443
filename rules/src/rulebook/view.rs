//! Everything derived from the description rather than written per game: the move
//! notation (`verb` + the parameter, `play red-7`, `take red`), its help, refusals that
//! name the guard, script queries by zone name and per-viewer event texts (the table as a
//! seat sees it is `table.rs`, the observation a search bot plays in `observe.rs`).

use std::fmt::Write;

use grail_engine::game::Seat;
use grail_engine::seats::seat_name;
use grail_schema::model::Visibility;

use super::Rulebook;
use super::args::Args;
use super::eval::Ctx;
use super::model::{CounterExpr, Expr, Param};
use super::state::{Action, Event, State};

impl Rulebook {
    /// `hand P1`, `trails P2 red`, `deck`.
    pub(super) fn pile_name(&self, pile: usize) -> String {
        let (zone, seat, row) = self.locate(pile);
        let z = &self.zones[zone];
        let mut name = z.name.clone();
        if let Some(s) = seat {
            name = format!("{name} {}", seat_name(s));
        }
        if let Some(by) = z.by {
            name = format!("{name} {}", self.sets[z.set].symbols[by][row]);
        }
        name
    }

    /// Whether `viewer` (`None`: a spectator) sees the cards of a pile: by its zone's
    /// `visible`, or because it was turned up.
    pub(super) fn sees(&self, state: &State, pile: usize, viewer: Option<Seat>) -> bool {
        let (zone, seat, _) = self.locate(pile);
        state.face_up.is_up(pile)
            || viewer.is_some_and(|v| state.shown.to(pile, v))
            || match self.zones[zone].visible {
                Visibility::Public => true,
                Visibility::Owner => viewer.is_some() && viewer == seat,
                Visibility::Count => false,
            }
    }

    pub(super) fn card_id(&self, zone: usize, card: u16) -> &str {
        // A type beyond the set (a move made up, not parsed) is no card.
        (self.sets[self.zones[zone].set].cards)
            .get(usize::from(card & super::model::TYPE_MASK))
            .map_or("no card", String::as_str)
    }

    pub(super) fn row_name(&self, zone: usize, row: i32) -> &str {
        let z = &self.zones[zone];
        let by = z.by.unwrap_or(0);
        usize::try_from(row)
            .ok()
            .and_then(|r| self.sets[z.set].symbols[by].get(r))
            .map_or("?", String::as_str)
    }

    /// The canonical notation, or as `viewer` may read it (`for_viewer`): a card from a zone
    /// the viewer cannot see, going nowhere public, is "a card".
    pub(super) fn notation(
        &self,
        state: &State,
        action: &Action,
        viewer: Option<Seat>,
        for_viewer: bool,
    ) -> String {
        if let Some(text) = self
            .choice_notation(state, action)
            .or_else(|| self.move_notation(state, action))
        {
            return text;
        }
        let a = &self.actions[usize::from(action.action)];
        let card_text = |z: &super::model::ZoneRef| {
            let shown = !for_viewer
                || a.reveals
                || self
                    .card_pile(state, usize::from(action.action), action.args)
                    .is_some_and(|p| self.sees(state, p, viewer));
            if shown {
                self.card_id(z.zone, u16::try_from(action.args.card()).unwrap_or(0))
                    .to_string()
            } else {
                "a card".to_string()
            }
        };
        match &a.param {
            Param::None => a.name.clone(),
            Param::Card(z) => format!("{} {}", a.name, card_text(z)),
            Param::CardFigure { card, .. } => {
                let text = card_text(card);
                self.card_figure_notation(state, usize::from(action.action), action.args, &text)
            }
            Param::Row { zone, .. } => {
                format!("{} {}", a.name, self.row_name(*zone, action.args.place()))
            }
            Param::Seat => format!("{} {}", a.name, action.args.place()),
            Param::Number { .. } => format!("{} {}", a.name, action.args.number()),
            Param::Player(_) => {
                let player = action.args.player().max(0) as usize;
                format!("{} {}", a.name, seat_name(player))
            }
            Param::PlayerCard { card, .. } => {
                let player = action.args.player().max(0) as usize;
                let word = a
                    .before_card
                    .as_ref()
                    .map_or(String::new(), |w| format!("{w} "));
                format!("{} {} {word}{}", a.name, seat_name(player), card_text(card))
            }
            Param::Figure { steps, .. } => {
                self.figure_notation(state, &a.name, action.args, !steps.is_empty())
            }
        }
    }

    pub(super) fn parse(&self, state: &State, text: &str) -> Result<Action, String> {
        if let Some(parsed) = self
            .parse_choice(state, text)
            .or_else(|| self.parse_move(state, text))
        {
            return parsed;
        }
        // An action's name may be several words (`draw knight`): the longest that begins the
        // move is its verb.
        let all: Vec<&str> = text.split_whitespace().collect();
        let named = |a: &super::model::Action| {
            let n = a.name.split_whitespace().count();
            (n <= all.len() && a.name.split_whitespace().eq(all[..n].iter().copied())).then_some(n)
        };
        let Some(n) = self.actions.iter().filter_map(named).max() else {
            let mut verbs: Vec<&str> = Vec::new();
            for a in &self.actions {
                if !verbs.contains(&a.name.as_str()) {
                    verbs.push(&a.name);
                }
            }
            return Err(grail_engine::diag::no_such(
                "move",
                all.first().copied().unwrap_or(""),
                verbs,
            ));
        };
        // Several actions may share a verb (`verb = "play"`): the one whose parameters read
        // the move and that is legal now, else the first that reads it.
        let mut first: Option<Result<Action, String>> = None;
        // Else the first that reads it and is meant for its card (its guard's reading of the
        // card alone holds), so that a refusal is in that action's words.
        let mut meant: Option<Action> = None;
        let mut legal: Option<Vec<Action>> = None;
        for ai in (0..self.actions.len()).filter(|&i| named(&self.actions[i]) == Some(n)) {
            let parsed = self.parse_as(state, ai, &all, n);
            if let Ok(action) = &parsed {
                let legal = legal.get_or_insert_with(|| {
                    let mut out = Vec::new();
                    grail_engine::game::Rules::legal_actions(self, state, &mut out);
                    out
                });
                if legal.contains(action) {
                    return parsed;
                }
                if meant.is_none() && self.meant_for(state, ai, action) {
                    meant = Some(*action);
                }
            }
            match (&first, &parsed) {
                (None, _) | (Some(Err(_)), Ok(_)) => first = Some(parsed),
                _ => {}
            }
        }
        match meant {
            Some(action) => Ok(action),
            None => first.unwrap_or_else(|| Err("no move".into())),
        }
    }

    /// Reads the words after the verb as action `ai`'s parameters.
    fn parse_as(&self, state: &State, ai: usize, all: &[&str], n: usize) -> Result<Action, String> {
        let mut words = all[n..].iter().copied();
        let a = &self.actions[ai];
        let word = words.next();
        if let Some(extra) = words.next()
            && !matches!(
                a.param,
                Param::Figure { .. } | Param::CardFigure { .. } | Param::PlayerCard { .. }
            )
        {
            return Err(format!(
                "`{}` takes one word after it; `{extra}` is one too many",
                a.name
            ));
        }
        let args = match (&a.param, word) {
            (Param::None, None) => Args::NONE,
            (Param::None, Some(w)) => {
                return Err(format!("`{}` takes nothing after it, not `{w}`", a.name));
            }
            (Param::Card(z), Some(w)) => {
                let set = &self.sets[self.zones[z.zone].set];
                match set.cards.iter().position(|c| c == w) {
                    Some(t) => Args::of_entry(self.resolve_mark(state, ai, t as i32)),
                    None => {
                        return Err(grail_engine::diag::no_such(
                            "card",
                            w,
                            set.cards.iter().map(String::as_str),
                        ));
                    }
                }
            }
            (Param::Row { zone, .. }, Some(w)) => {
                let z = &self.zones[*zone];
                let names = &self.sets[z.set].symbols[z.by.unwrap_or(0)];
                match names.iter().position(|n| n == w) {
                    Some(r) => Args::of_place(r),
                    None => {
                        return Err(grail_engine::diag::no_such(
                            &format!("row of {}", z.name),
                            w,
                            names.iter().map(String::as_str),
                        ));
                    }
                }
            }
            (Param::Seat, Some(w)) => {
                let seats = self.board.as_ref().map_or(0, |b| b.seats);
                match w.parse::<usize>() {
                    Ok(s) if s < seats => Args::of_place(s),
                    _ => {
                        return Err(format!(
                            "`{}` takes a seat: the seats are 0 to {}, not `{w}`",
                            a.name,
                            seats.saturating_sub(1)
                        ));
                    }
                }
            }
            (Param::Player(_), Some(w)) => {
                let players = usize::from(state.players);
                match grail_engine::seats::parse_seat(w, players) {
                    Some(s) => Args::of_player(s),
                    None => {
                        return Err(format!(
                            "`{}` takes a player: P1 to P{players}, not `{w}`",
                            a.name
                        ));
                    }
                }
            }
            (Param::Player(_), None) => {
                return Err(format!("`{}` needs a player: `{} P2`", a.name, a.name));
            }
            (Param::PlayerCard { card, .. }, _) => {
                let words = &all[n..];
                // The word between the player and the card, when the action writes one.
                let words: Vec<&str> = match (&a.before_card, words) {
                    (Some(w), [seat, word, rest @ ..]) if word == w => {
                        [*seat].into_iter().chain(rest.iter().copied()).collect()
                    }
                    _ => words.to_vec(),
                };
                let name = (a.name.as_str(), a.before_card.as_deref());
                self.parse_player_card(state, name, card, &words)?
            }
            (Param::Number { low, high }, Some(w)) => match w.parse::<u8>() {
                Ok(n) if (*low..=*high).contains(&n) => Args::of_number(n),
                _ => {
                    return Err(format!(
                        "`{}` takes a number from {low} to {high}, not `{w}`",
                        a.name
                    ));
                }
            },
            (Param::Number { low, .. }, None) => {
                return Err(format!("`{}` needs a number: `{} {low}`", a.name, a.name));
            }
            (Param::Seat, None) => {
                return Err(format!("`{}` needs a seat: `{} <seat>`", a.name, a.name));
            }
            (Param::Figure { refs, steps }, _) => {
                let mut rest = all[n..].iter().copied();
                self.parse_figure(state, &a.name, refs, !steps.is_empty(), &mut rest)?
            }
            (Param::CardFigure { .. }, _) => {
                let mut rest = all[n..].iter().copied();
                self.parse_card_figure(state, ai, &mut rest)?
            }
            (Param::Card(_), None) => {
                return Err(format!("`{}` needs a card: `{} <card>`", a.name, a.name));
            }
            (Param::Row { .. }, None) => {
                return Err(format!("`{}` needs a row: `{} <row>`", a.name, a.name));
            }
        };
        let _ = state;
        Ok(Action::new(ai as u16, args))
    }

    /// Why a parsed move is not legal now: not offered in this step, no such card where the
    /// parameter is drawn from, or the guard, named with its place and the values it saw.
    pub(super) fn refusal(&self, state: &State, action: &Action) -> String {
        if state.ended.is_some() {
            return "the game is over".into();
        }
        if let Some(why) = self
            .choice_refusal(state, action)
            .or_else(|| self.move_refusal(state, action))
        {
            return why;
        }
        let ai = usize::from(action.action);
        let a = &self.actions[ai];
        let Some(step) = self.steps.get(usize::from(state.step)) else {
            return "no step is being played".into();
        };
        if let Some((window, text)) = &a.standing {
            let ctx = Ctx {
                state,
                player: usize::from(state.decider()),
                args: Args::NONE,
            };
            if self.eval(window, &ctx) == 0 {
                return format!(
                    "`{}` may be taken only while {}",
                    a.name,
                    self.in_words(text, true)
                );
            }
        } else if !step.actions.contains(&ai) {
            let offered: Vec<&str> = step
                .actions
                .iter()
                .map(|&i| self.actions[i].name.as_str())
                .collect();
            return format!(
                "`{}` is not offered now: {} is at step `{}` ({})",
                a.name,
                seat_name(usize::from(state.decider())),
                step.name,
                offered.join(", ")
            );
        }
        match &a.param {
            Param::Card(z)
            | Param::CardFigure { card: z, .. }
            | Param::PlayerCard { card: z, .. } => {
                let card = action.args.card();
                let ctx = Ctx::current(state, action.args);
                let types = self.sets[self.zones[z.zone].set].cards.len();
                if usize::try_from(card & i32::from(super::model::TYPE_MASK))
                    .is_ok_and(|t| t >= types)
                    || card < 0
                {
                    return format!("`{}` needs a card: `{} <card>`", a.name, a.name);
                }
                if self.card_pile(state, ai, action.args).is_none() {
                    // In the pack's words, when it has some (`missing`).
                    if let Some(words) = &a.missing {
                        let ctx = Ctx {
                            player: usize::from(state.decider()),
                            ..ctx
                        };
                        let mut text = String::new();
                        self.render_text(words, &ctx, &mut text);
                        return text;
                    }
                    let first = self.piles_of(z, &ctx).start;
                    // A zone with rows is named whole: the card may be in any of them.
                    let place = if self.zones[z.zone].by.is_some() && z.row.is_none() {
                        self.zones[z.zone].name.clone()
                    } else {
                        self.pile_name(first)
                    };
                    let id = self.card_id(z.zone, card as u16);
                    // A zone of the player's own: they hold no such card.
                    if z.who == super::model::Who::Current {
                        return format!("you hold no `{id}` in {place}");
                    }
                    return format!("{id} is not in {place}");
                }
            }
            Param::Row { zone, who } => {
                let seat = self.seat_of(*who, &Ctx::current(state, Args::NONE));
                let pile = self.pile(*zone, seat, action.args.place() as usize);
                if state.piles[pile].is_empty() {
                    return format!("{} is empty", self.pile_name(pile));
                }
            }
            Param::Seat
            | Param::Player(_)
            | Param::Number { .. }
            | Param::Figure { .. }
            | Param::None => {}
        }
        // A distance the action's `steps` never lists (a card saying `high = 9` where the
        // action steps `1..8`): said so, whatever its guard says.
        if let Param::Figure { steps, .. } | Param::CardFigure { steps, .. } = &a.param
            && !steps.is_empty()
        {
            let d = action.args.steps();
            if !steps.contains(&d) {
                let (lo, hi) = (steps.iter().min(), steps.iter().max());
                return format!(
                    "`{}` never moves a figure {d} seats: its `steps` go from {} to {}",
                    a.name,
                    lo.copied().unwrap_or(0),
                    hi.copied().unwrap_or(0)
                );
            }
        }
        if let Some(g) = &a.guard {
            let ctx = Ctx {
                state,
                player: usize::from(state.decider()),
                args: action.args,
            };
            if self.eval(&g.expr, &ctx) == 0 {
                return format!(
                    "`{}` cannot be played now: it needs that {}",
                    a.name,
                    self.guard_in_words(a, &ctx)
                );
            }
        }
        // Its guard holds: a step whose moves must keep a condition left it out.
        if let Some((_, keep)) = &step.keep
            && a.pay.is_none()
        {
            return format!(
                "`{}` is not offered: it needs that, after it, {}",
                a.name,
                self.in_words(keep, true)
            );
        }
        self.unpayable(state, action)
    }

    pub(super) fn event_text(
        &self,
        state: &State,
        event: &Event,
        viewer: Option<Seat>,
        all: bool,
    ) -> String {
        match event {
            Event::Moved { card, from, to } => {
                let (from, to) = (*from as usize, *to as usize);
                let zone = self.locate(from).0;
                let card = if all || self.sees(state, from, viewer) || self.sees(state, to, viewer)
                {
                    self.card_id(zone, *card).to_string()
                } else {
                    "a card".into()
                };
                format!("{card}: {} → {}", self.pile_name(from), self.pile_name(to))
            }
            Event::Shuffled { pile } => format!("{} is shuffled", self.pile_name(*pile as usize)),
            Event::Turned { pile, up } => format!(
                "{} is turned face {}",
                self.pile_name(*pile as usize),
                if *up { "up" } else { "down" }
            ),
            Event::Shown { pile, seat } => format!(
                "{} is shown to {}",
                self.pile_name(*pile as usize),
                seat_name(usize::from(*seat))
            ),
            Event::Skipped { step, seat } => format!(
                "{} has nothing to do at step `{}`",
                seat_name(usize::from(*seat)),
                self.steps[usize::from(*step)].name
            ),
            Event::Unmet { step, seat } => {
                let step = &self.steps[usize::from(*step)];
                format!(
                    "{} cannot do what step `{}` asks ({}): nothing they may do",
                    seat_name(usize::from(*seat)),
                    step.name,
                    self.repeat_in_words(step.repeat_text.as_deref().unwrap_or(""))
                )
            }
            Event::FigureMoved { figure, from, to } => {
                format!(
                    "{}: seat {from} → seat {to}",
                    self.figure_label(state, *figure)
                )
            }
            Event::Ended => "the game ends".into(),
        }
    }

    /// A pile's cards where `viewer` sees them (`[P1]` for a mark), else none and how many.
    pub(super) fn pile_cards(
        &self,
        state: &State,
        pile: usize,
        viewer: Option<Seat>,
    ) -> (Vec<String>, usize) {
        let cards = &state.piles[pile];
        if !self.sees(state, pile, viewer) {
            return (Vec::new(), cards.len());
        }
        let zone = self.locate(pile).0;
        (cards.iter().map(|&c| self.card_text(zone, c)).collect(), 0)
    }

    /// Script queries: a zone by name (`hand P1`, `trails P1 red`, `deck`), as a seat sees
    /// it (`hand P1 as P2`: "8 cards"), `score P1`, `step`, `turn`.
    pub(super) fn answer(&self, state: &State, query: &str) -> Result<String, String> {
        if let Some(answer) = self.named_query(state, query) {
            return answer;
        }
        let mut words: Vec<&str> = query.split_whitespace().collect();
        let mut viewer = None;
        if let [.., "as", seat] = words[..] {
            let n = seat
                .strip_prefix('P')
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|&n| (1..=usize::from(state.players)).contains(&n))
                .ok_or_else(|| format!("`{query}`: `as` names a seat, P1 to P{}", state.players))?;
            viewer = Some(n - 1);
            words.truncate(words.len() - 2);
        }
        let seat_arg = |w: Option<&&str>| -> Result<usize, String> {
            w.and_then(|w| w.strip_prefix('P'))
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|&n| (1..=usize::from(state.players)).contains(&n))
                .map(|n| n - 1)
                .ok_or_else(|| format!("`{query}`: name a seat, P1 to P{}", state.players))
        };
        if let Some(answer) = self.ring_answer(state, &words) {
            return answer;
        }
        match words.first().copied() {
            Some("score") => {
                let p = seat_arg(words.get(1))?;
                return Ok(self
                    .eval(
                        &self.score,
                        &Ctx {
                            state,
                            player: p,
                            args: Args::NONE,
                        },
                    )
                    .to_string());
            }
            Some("turn") => return Ok(state.turn.to_string()),
            Some("phase") if state.ended.is_some() => return Ok("game over".into()),
            Some("phase") => return Ok(grail_engine::game::Rules::prompt(self, state)),
            Some("player") => return Ok(seat_name(usize::from(state.decider()))),
            Some("step") => {
                return Ok(
                    match (state.ended, self.steps.get(usize::from(state.step))) {
                        (None, Some(step)) => {
                            format!("{} {}", seat_name(usize::from(state.decider())), step.name)
                        }
                        _ => "over".into(),
                    },
                );
            }
            _ => {}
        }
        if let Some(answer) = self.counter_answer(state, &words) {
            return answer;
        }
        let name = words.first().copied().unwrap_or("");
        let Some(zi) = self.zones.iter().position(|z| z.name == name) else {
            let mut known: Vec<&str> = self.zones.iter().map(|z| z.name.as_str()).collect();
            known.extend(["score", "turn", "step"]);
            return Err(grail_engine::diag::no_such("query", name, known));
        };
        let z = &self.zones[zi];
        let mut rest = words[1..].iter();
        let seat = if z.owned { seat_arg(rest.next())? } else { 0 };
        let first = self.pile(zi, seat, 0);
        let all = |p: usize| match viewer {
            Some(v) => match self.pile_cards(state, p, Some(v)) {
                (_, n) if !self.sees(state, p, Some(v)) => {
                    format!("{n} card{}", if n == 1 { "" } else { "s" })
                }
                (cards, _) => cards.join(" "),
            },
            None => {
                let cards = &state.piles[p];
                cards
                    .iter()
                    .map(|&c| self.card_text(zi, c))
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        };
        match (z.by, rest.next()) {
            (Some(by), Some(row)) => {
                let names = &self.sets[z.set].symbols[by];
                let Some(r) = names.iter().position(|n| n == row) else {
                    return Err(grail_engine::diag::no_such(
                        &format!("row of {}", z.name),
                        row,
                        names.iter().map(String::as_str),
                    ));
                };
                Ok(all(first + r))
            }
            (Some(_), None) => Ok((0..z.rows)
                .map(|r| format!("{}: {}", self.row_name(zi, r as i32), all(first + r)))
                .collect::<Vec<_>>()
                .join("; ")),
            (None, None) => Ok(all(first)),
            (None, Some(extra)) => Err(format!(
                "`{name}` has no rows; `{extra}` is one word too many"
            )),
        }
    }

    pub(super) fn help(&self) -> String {
        let mut out = String::from("Moves (from the pack's [actions]):\n");
        let mut said: Vec<String> = Vec::new();
        for (i, a) in self.actions.iter().enumerate() {
            // The rules' own moves (offered by `auto` steps alone) are no player's to make.
            let auto = |s: &super::model::Step| s.auto && s.actions.contains(&i);
            let offered = |s: &super::model::Step| s.actions.contains(&i);
            let help = self.explain.help_of(i);
            if help.is_none()
                && a.standing.is_none()
                && self.steps.iter().any(auto)
                && self.steps.iter().filter(|s| offered(s)).all(auto)
            {
                continue;
            }
            let form = self.move_form(a);
            // Two actions written alike (a standing one and a step's own) are said once.
            let line = format!("{form}   {}", help.unwrap_or_default());
            if help.is_some() && said.contains(&line) {
                continue;
            }
            said.push(line);
            let _ = write!(out, "  {form}");
            match (help, &a.guard) {
                (Some(help), _) => {
                    let _ = write!(out, "   {help}");
                }
                (None, Some(g)) => {
                    let _ = write!(out, "   if {}", self.in_words(&g.text, true));
                }
                (None, None) => {}
            }
            if let Some((_, window)) = a.standing.as_ref().filter(|_| help.is_none()) {
                let window = self.in_words(window, true);
                let _ = write!(out, "   (at any decision of yours while {window})");
            }
            out.push('\n');
        }
        // The stages before the turns first, once each; then the turn's steps, then the
        // stages steps enter.
        for stage in self.stages.iter().filter(|s| !s.sub) {
            let steps = (self.steps)
                .get(stage.first_step..stage.first_step + stage.len)
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "Before the turns, `{}`: {}; {}, each seat in turn from the {} seat, {}",
                stage.name,
                self.help_steps(steps),
                self.help_rounds(&stage.rounds),
                if stage.from_last { "last" } else { "first" },
                if stage.backward {
                    "counter-clockwise"
                } else {
                    "clockwise"
                }
            );
        }
        if let Some(help) = self.explain.score_help() {
            let _ = writeln!(out, "Scoring: {help}");
        } else if !self.explain.score_text().trim().is_empty() {
            let score = self.in_words(self.explain.score_text(), false);
            let _ = writeln!(out, "Scoring: at the end, each player scores {score}");
        }
        out.push_str("Each turn: ");
        out.push_str(&self.help_steps(self.steps.get(..self.turn_steps).unwrap_or_default()));
        out.push('\n');
        for stage in self.stages.iter().filter(|s| s.sub) {
            let steps = (self.steps)
                .get(stage.first_step..stage.first_step + stage.len)
                .unwrap_or_default();
            let again = match &stage.repeat_text {
                Some(r) => format!("; again {}", self.repeat_in_words(r)),
                None => String::new(),
            };
            let _ = writeln!(
                out,
                "Stage `{}`, when a step enters it: {}{again}",
                stage.name,
                self.help_steps(steps)
            );
        }
        out
    }

    /// Steps for the help, in order, each with what it offers and how often it repeats.
    fn help_steps(&self, steps: &[super::model::Step]) -> String {
        steps
            .iter()
            .map(|s| {
                let names = self.step_verbs(s);
                let offers = match &s.enter {
                    Some(enter) => enter.text.clone(),
                    None => names.join(" or "),
                };
                let mut text = format!("{} ({offers})", s.name);
                match (&s.repeat, &s.repeat_text) {
                    (Some(_), Some(t)) if s.repeat_while => {
                        let _ = write!(text, " again and again {}", self.repeat_in_words(t));
                    }
                    (Some(Expr::Const(1)), _) | (None, _) => {}
                    (Some(Expr::Const(n)), _) => {
                        let _ = write!(text, " {n} times");
                    }
                    (Some(Expr::Counter(CounterExpr::ByPlayers(v))), _) => {
                        let _ = write!(text, " {}", self.by_count(v, "times"));
                    }
                    (Some(_), Some(t)) => {
                        let _ = write!(text, " {} times", self.repeat_in_words(t));
                    }
                    (Some(_), None) => text.push_str(" repeated"),
                }
                match (&s.pass, s.optional) {
                    (Some(word), true) => {
                        let _ = write!(text, ", optional (`{word}` leaves it out)");
                    }
                    (None, true) => text.push_str(", optional"),
                    (_, false) => {}
                }
                // Who decides it, when not the player to move.
                if let Some(seat) = s.who.as_ref().and_then(|w| w.one.as_ref()) {
                    let _ = write!(text, " (decided by {})", self.in_words(seat, false));
                } else if let Some(who) = &s.who {
                    let seats = match who.seats {
                        super::model::SeatSet::Each => "every player",
                        super::model::SeatSet::Others => "the other players",
                    };
                    let _ = match who.first {
                        true => write!(text, " (offered to {seats} in turn: the first who acts)"),
                        false => write!(text, " (asked of {seats} in turn)"),
                    };
                }
                if let Some((_, keep)) = &s.keep {
                    let _ = write!(
                        text,
                        " (a move only while {} after it)",
                        self.in_words(keep, true)
                    );
                }
                text
            })
            .collect::<Vec<_>>()
            .join(", then ")
    }

    /// A stage's rounds for the help: one number, or by player count.
    fn help_rounds(&self, rounds: &[i64]) -> String {
        let n = self.by_count(rounds, "rounds");
        if n == "1 rounds" { "once".into() } else { n }
    }

    /// A number of `unit` by player count (index): one number when it is one for every
    /// count allowed (`5 rounds`), else each count's (`5 rounds with 2 players, 4 rounds
    /// with 4 players`).
    fn by_count(&self, v: &[i64], unit: &str) -> String {
        let (min, max) = self.players;
        let counts: Vec<(usize, i64)> = (min..=max)
            .map(|n| (n, v.get(n).copied().unwrap_or(0)))
            .collect();
        match counts.first() {
            Some(&(_, first)) if counts.iter().all(|&(_, x)| x == first) => {
                format!("{first} {unit}")
            }
            _ => counts
                .iter()
                .map(|(n, x)| format!("{x} {unit} with {n} players"))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}
