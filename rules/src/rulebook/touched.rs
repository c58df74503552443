//! Which zones and counters an expression reads and an action's effects write: a `keep`
//! condition's part that reads nothing the move tried writes is worth on the copy what it is
//! worth before the move, so it is read once for all the moves a listing tries (`keep.rs`,
//! `memo.rs`). Quests: the bar a stage must pass reads the stages laid, and laying a weapon
//! on the stage being laid touches none of them.
//!
//! Conservative like `reads.rs`: whatever is not known here (marks, figures, a role's or a
//! card's holder, an effect on the ring) touches everything, so forgetting one is slow,
//! never wrong.

use super::model::{
    Action, Counter, CounterExpr, CounterRef, Effect, Expr, SeatExpr, Who, Zone, ZoneRef,
};

/// Zones and counters past this many are taken as everything.
const BITS: usize = 256;

/// A set of zones and counters (by index), or everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Touch {
    zones: [u64; BITS / 64],
    counters: [u64; BITS / 64],
    all: bool,
}

impl Touch {
    /// Whether the two share a zone or a counter (anything, when either is everything).
    pub(super) fn meets(&self, other: &Touch) -> bool {
        self.all
            || other.all
            || (self.zones.iter().zip(&other.zones)).any(|(a, b)| a & b != 0)
            || (self.counters.iter().zip(&other.counters)).any(|(a, b)| a & b != 0)
    }

    /// Both: what the two together touch.
    pub(super) fn with(mut self, other: &Touch) -> Touch {
        for (a, b) in self.zones.iter_mut().zip(&other.zones) {
            *a |= b;
        }
        for (a, b) in self.counters.iter_mut().zip(&other.counters) {
            *a |= b;
        }
        self.all |= other.all;
        self
    }

    fn zone(&mut self, z: usize) {
        set(&mut self.zones, z, &mut self.all);
    }

    fn counter(&mut self, c: usize) {
        set(&mut self.counters, c, &mut self.all);
    }
}

fn set(bits: &mut [u64; BITS / 64], i: usize, all: &mut bool) {
    match bits.get_mut(i / 64) {
        Some(word) => *word |= 1 << (i % 64),
        None => *all = true,
    }
}

/// What `e` reads, with the seat expressions its zones name (`seats`, the rulebook's
/// `seat_exprs`).
pub(super) fn read_by(e: &Expr, seats: &[Expr]) -> Touch {
    let mut t = Touch::default();
    read(e, seats, &mut t);
    t
}

fn read(e: &Expr, seats: &[Expr], t: &mut Touch) {
    let zone = |z: &ZoneRef, t: &mut Touch| {
        t.zone(z.zone);
        if let Some(row) = &z.row {
            read(row, seats, t);
        }
        who(&z.who, seats, t);
    };
    match e {
        Expr::Const(_) | Expr::Card | Expr::Row | Expr::Target => {}
        Expr::Count(z)
        | Expr::NonEmpty(z)
        | Expr::Fullest(z)
        | Expr::TopCard(z)
        | Expr::Sum { zone: z, .. }
        | Expr::Last { zone: z, .. }
        | Expr::Top { zone: z, .. }
        | Expr::Best { zone: z, .. } => zone(z, t),
        Expr::Situational(s) => s.zones.iter().for_each(|(z, _)| zone(z, t)),
        Expr::Rising(r) => {
            zone(&r.from, t);
            if let Some(seed) = &r.seed {
                zone(seed, t);
            }
        }
        Expr::Attr { .. }
        | Expr::If(..)
        | Expr::Bin(..)
        | Expr::Not(_)
        | Expr::Memo(..)
        | Expr::Fast(_) => {}
        Expr::Counter(c) => match c {
            CounterExpr::Read(CounterRef::Table(c)) => t.counter(*c),
            CounterExpr::Read(CounterRef::Seat(c, w)) => {
                t.counter(*c);
                who(w, seats, t);
            }
            CounterExpr::Min(..)
            | CounterExpr::Max(..)
            | CounterExpr::Div(..)
            | CounterExpr::Mod(..)
            | CounterExpr::Odds(..)
            | CounterExpr::Others(_)
            | CounterExpr::Each(_)
            // Fixed for a game, or moved by the flow only: no effect changes them.
            | CounterExpr::Players
            | CounterExpr::ByPlayers(_)
            | CounterExpr::Turn
            | CounterExpr::AtStep(_) => {}
            CounterExpr::Read(CounterRef::Figure(..))
            | CounterExpr::Holder(_)
            | CounterExpr::CardHolder(_)
            | CounterExpr::Over
            | CounterExpr::Taken => t.all = true,
        },
        Expr::Seat(
            SeatExpr::Current
            | SeatExpr::Player
            | SeatExpr::Left(_)
            | SeatExpr::Right(_)
            | SeatExpr::Highest(_)
            | SeatExpr::Lowest(_),
        ) => {}
        Expr::ActionCard(_)
        | Expr::Done(_)
        | Expr::Cheapest { .. }
        | Expr::Paying(_)
        | Expr::Marked(_)
        | Expr::Mine(_)
        | Expr::Marks(_)
        | Expr::Figures(_) => t.all = true,
    }
    if !t.all {
        e.each_child(&mut |x| read(x, seats, t));
    }
}

fn who(w: &Who, seats: &[Expr], t: &mut Touch) {
    match w {
        Who::Seat(i) => match seats.get(usize::from(*i)) {
            Some(s) => read(s, seats, t),
            None => t.all = true,
        },
        Who::Table | Who::Current | Who::Player | Who::Each => {}
    }
}

/// What action `a`'s effects write: the zones cards leave and enter (a deck drawn from, its
/// refill too) and the counters set (a ladder's points, its rank too).
pub(super) fn written_by(a: &Action, zones: &[Zone], counters: &[Counter]) -> Touch {
    let mut t = Touch::default();
    for e in &a.effects {
        write(e, a, zones, counters, &mut t);
    }
    t
}

fn write(e: &Effect, a: &Action, zones: &[Zone], counters: &[Counter], t: &mut Touch) {
    let drawn = |z: usize, t: &mut Touch| {
        t.zone(z);
        if let Some(r) = zones.get(z).and_then(|z| z.refill) {
            t.zone(r);
        }
    };
    let counter = |c: &CounterRef, t: &mut Touch| match c {
        CounterRef::Table(c) | CounterRef::Seat(c, _) => {
            t.counter(*c);
            if let Some(climb) = counters.get(*c).and_then(|c| c.climb.as_ref()) {
                t.counter(climb.rank);
            }
        }
        CounterRef::Figure(..) => t.all = true,
    };
    match e {
        Effect::Shuffle(z) | Effect::Turn { zone: z, .. } | Effect::Show { zone: z, .. } => {
            t.zone(z.zone)
        }
        Effect::ShuffleSeats(zs) => zs.iter().for_each(|&z| t.zone(z)),
        Effect::Deal { from, to, .. } => {
            drawn(from.zone, t);
            t.zone(*to);
        }
        Effect::Move { to } => {
            match a.param.card_zone() {
                Some(from) => t.zone(from.zone),
                None => t.all = true,
            }
            t.zone(to.zone);
        }
        Effect::MoveNamed { from, to, .. } => {
            t.zone(from.zone);
            t.zone(to.zone);
        }
        Effect::Draw { from, to, .. } | Effect::DrawAtRandom { from, to, .. } => {
            drawn(from.zone, t);
            t.zone(to.zone);
        }
        Effect::Reveal { from, into, .. } => {
            drawn(from.zone, t);
            t.zone(*into);
        }
        Effect::Add { to, .. } | Effect::Set { to, .. } => counter(to, t),
        // What tallies count is read by no expression.
        Effect::Tally { .. } => {}
        Effect::ForEach { body, .. } => write(body, a, zones, counters, t),
        Effect::If { then, .. } => write(then, a, zones, counters, t),
        Effect::Mark
        | Effect::Award { .. }
        | Effect::Place { .. }
        | Effect::Step { .. }
        | Effect::Give { .. } => t.all = true,
    }
}

#[cfg(test)]
mod tests {
    use super::super::model::FigureExpr;
    use super::*;

    fn zone(zone: usize, who: Who) -> ZoneRef {
        ZoneRef {
            zone,
            who,
            row: None,
        }
    }

    /// A zone read through a seat expression reads what the seat expression reads; a
    /// figure's read is everything; fixed values read nothing.
    #[test]
    fn reads_follow_zones_counters_and_seats() {
        let seats = [Expr::Counter(CounterExpr::Read(CounterRef::Table(3)))];
        let sum = Expr::Sum {
            attr: 0,
            zone: zone(5, Who::Seat(0)),
        };
        let read = read_by(&sum, &seats);
        let mut stage = Touch::default();
        stage.zone(5);
        assert!(read.meets(&stage));
        let mut sponsor = Touch::default();
        sponsor.counter(3);
        assert!(read.meets(&sponsor), "the seat's counter is read");
        let mut other = Touch::default();
        other.zone(6);
        other.counter(4);
        assert!(!read.meets(&other));
        assert!(!read_by(&Expr::Counter(CounterExpr::Players), &seats).meets(&stage));
        let figure = Expr::Figures(FigureExpr::ParamFigure);
        assert!(read_by(&figure, &seats).meets(&Touch::default()));
        let far = Expr::Count(zone(BITS + 1, Who::Table));
        assert!(
            read_by(&far, &seats).meets(&Touch::default()),
            "past the bits: all"
        );
    }

    /// In the Quests draft, laying a card on the stage being laid takes it from the hand and
    /// touches no stage laid before (the bar stays); closing the stage moves it onto one;
    /// drawing from the deck may refill it from the discards.
    #[test]
    fn writes_follow_where_cards_go_and_what_is_set() {
        let pack = super::super::random_games::pack_in("../tests/packs", "quests-rulebook", None);
        let rb = super::super::compile(&pack).expect("the draft compiles");
        let action = |name: &str| {
            let a = rb.actions.iter().position(|a| a.name == name).expect(name);
            written_by(&rb.actions[a], &rb.zones, &rb.counters)
        };
        let zones = |names: &[&str]| {
            let mut t = Touch::default();
            for name in names {
                t.zone(rb.zones.iter().position(|z| z.name == *name).expect(name));
            }
            t
        };
        let (add, done) = (action("add"), action("done"));
        let stages = zones(&["stage1", "stage2", "stage3", "stage4", "stage5"]);
        assert!(add.meets(&zones(&["hand"])) && add.meets(&zones(&["lay"])));
        assert!(!add.meets(&stages), "{add:?}");
        assert!(!add.meets(&zones(&["shown", "deck"])));
        assert!(done.meets(&stages) && !done.meets(&zones(&["hand"])));
        let draw = action("test-draw");
        assert!(draw.meets(&zones(&["discards"])), "the deck's refill");
        let quest_end = action("quest-end");
        let mut rank = Touch::default();
        rank.counter(
            rb.counters
                .iter()
                .position(|c| c.name == "rank")
                .expect("rank"),
        );
        assert!(quest_end.meets(&rank), "shields climb the ranks");
    }
}
