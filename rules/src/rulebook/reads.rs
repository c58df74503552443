//! What an expression reads: the one analysis every fast path and lint asks (which conjuncts
//! of a guard a listing may ask before naming a card or a figure, which guard reads no card,
//! which names a role's holder). A new expression function is taught here once; anything
//! not known to be free of the state reads everything, so forgetting one is slow, never wrong.
//! [`free_of_args`] asks the same of the parts kept per decision, looking past binders.

use super::model::{CounterExpr, CounterRef, Expr, FigureExpr, SeatExpr, Who, ZoneRef};

/// What an expression may read: the move's arguments (its card, its place, its player, its
/// figure and distance), the step the game is at, the rest of the state; and whether it
/// names a role's holder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Reads(u8);

impl Reads {
    pub(super) const NOTHING: Reads = Reads(0);
    /// The move's card (`card`).
    pub(super) const CARD: Reads = Reads(1);
    /// The move's figure (`figure`).
    pub(super) const FIGURE: Reads = Reads(2);
    /// The distance its figure goes (`steps`).
    pub(super) const STEPS: Reads = Reads(4);
    /// The rest of the game's state.
    pub(super) const STATE: Reads = Reads(8);
    /// The step the game is at (`step(name)`), known for each step a listing is of.
    pub(super) const STEP: Reads = Reads(16);
    /// The move's row or ring seat (`row`, `seat`).
    pub(super) const PLACE: Reads = Reads(32);
    /// The move's player (`target`).
    pub(super) const PLAYER: Reads = Reads(64);
    /// Anything at all: what an expression not known to be free of the state reads.
    pub(super) const ALL: Reads = Reads(127);
    /// Names the figure holding a role (`holder(king)`), with the state it reads; not part
    /// of [`Reads::ALL`], which says what may be read, not what is named.
    pub(super) const HOLDER: Reads = Reads(128 | 8);
    /// Every argument of a move.
    pub(super) const ARGS: Reads = Reads(1 | 2 | 4 | 32 | 64);
    /// The arguments bound after the card: the place, the player, the figure, the distance.
    pub(super) const AFTER_CARD: Reads = Reads(2 | 4 | 32 | 64);

    pub(super) const fn and(self, other: Reads) -> Reads {
        Reads(self.0 | other.0)
    }

    pub(super) const fn without(self, other: Reads) -> Reads {
        Reads(self.0 & !other.0)
    }

    pub(super) const fn any(self, of: Reads) -> bool {
        self.0 & of.0 != 0
    }

    /// Whether it names a role's holder.
    pub(super) const fn names_holder(self) -> bool {
        self.0 & 128 != 0
    }
}

/// What `e` may read. Reads of the figures' own cards (`color(figure)`) are the
/// description's: which card a figure stands for depends on the player count alone.
pub(super) fn reads(e: &Expr) -> Reads {
    let zone = |z: &ZoneRef| match z.who {
        // A seat expression's reads are the rulebook's (`seat_exprs`): anything.
        Who::Seat(_) => Reads::ALL,
        _ => z
            .row
            .as_deref()
            .map_or(Reads::NOTHING, reads)
            .and(Reads::STATE),
    };
    match e {
        Expr::Const(_) => Reads::NOTHING,
        Expr::Card => Reads::CARD,
        Expr::Row => Reads::PLACE,
        Expr::Target => Reads::PLAYER,
        Expr::Attr { card, .. } => reads(card),
        Expr::Not(x) => reads(x),
        Expr::Memo(_, part) => reads(&part.0),
        Expr::Fast(f) => reads(&f.expr),
        Expr::Bin(_, l, r) => reads(l).and(reads(r)),
        Expr::If(c, a, b) => reads(c).and(reads(a)).and(reads(b)),
        Expr::Done(_) | Expr::ActionCard(_) | Expr::Paying(_) | Expr::Marks(_) => Reads::STATE,
        Expr::Count(z) | Expr::NonEmpty(z) | Expr::Fullest(z) => zone(z),
        Expr::Sum { zone: z, .. } | Expr::Last { zone: z, .. } => zone(z),
        Expr::TopCard(z) => zone(z),
        Expr::Top { k, zone: z, .. } => reads(k).and(zone(z)),
        Expr::Figures(f) => match f {
            FigureExpr::ParamFigure => Reads::FIGURE,
            FigureExpr::ParamSteps => Reads::STEPS,
            FigureExpr::CardAttr { figure, .. }
            | FigureExpr::CardOf { figure, .. }
            | FigureExpr::Owner(figure) => reads(figure),
            FigureExpr::Empty(x)
            | FigureExpr::Plate(x)
            | FigureExpr::SeatOf(x)
            | FigureExpr::Occupant(x) => reads(x).and(Reads::STATE),
            FigureExpr::Count { .. }
            | FigureExpr::RoleSeat(_)
            | FigureExpr::Total { .. }
            | FigureExpr::PlateSum { .. }
            | FigureExpr::Plates(_)
            | FigureExpr::Chosen => Reads::STATE,
        },
        Expr::Counter(c) => match c {
            CounterExpr::Players | CounterExpr::ByPlayers(_) => Reads::NOTHING,
            CounterExpr::Min(a, b)
            | CounterExpr::Max(a, b)
            | CounterExpr::Div(a, b)
            | CounterExpr::Odds(a, b)
            | CounterExpr::Mod(a, b) => reads(a).and(reads(b)),
            CounterExpr::Holder(_) => Reads::HOLDER,
            CounterExpr::CardHolder(_) => Reads::STATE,
            CounterExpr::Turn | CounterExpr::Over | CounterExpr::Taken => Reads::STATE,
            // A listing is of the step the game is at: known for each step.
            CounterExpr::AtStep(_) => Reads::STEP,
            CounterExpr::Read(_) | CounterExpr::Others(_) | CounterExpr::Each(_) => Reads::ALL,
        },
        Expr::Seat(SeatExpr::Current) => Reads::STATE,
        Expr::Best { .. }
        | Expr::Rising(_)
        | Expr::Cheapest { .. }
        | Expr::Marked(_)
        | Expr::Mine(_)
        | Expr::Seat(_)
        | Expr::Situational(_) => Reads::ALL,
    }
}

/// Whether `e`'s value is the same whatever the move's arguments (its card, place, player,
/// figure and distance): it reads only the state and `P`. A part that binds the card itself
/// (`best`, `rising`) reads its own, not the move's. Unlike [`reads`], it looks inside
/// the seat expressions zones name (`seats`, the rulebook's `seat_exprs`) and past the
/// parts that bind a card: the question the parts kept per decision ask (`memo.rs`).
pub(super) fn free_of_args(e: &Expr, seats: &[Expr]) -> bool {
    let free = |x: &Expr| free_of_args(x, seats);
    let zone = |z: &ZoneRef| {
        z.row.as_deref().is_none_or(free)
            && match z.who {
                Who::Seat(i) => seats.get(usize::from(i)).is_some_and(free),
                Who::Table | Who::Current | Who::Player | Who::Each => true,
            }
    };
    let who = |w: &Who| match w {
        Who::Seat(i) => seats.get(usize::from(*i)).is_some_and(free),
        _ => true,
    };
    match e {
        Expr::Const(_) | Expr::Done(_) | Expr::ActionCard(_) | Expr::Paying(_) => true,
        Expr::Card | Expr::Row | Expr::Target => false,
        Expr::Marks(w) => who(w),
        Expr::Attr { card, .. } => free(card),
        Expr::Situational(s) => free(&s.card) && s.zones.iter().all(|(z, _)| zone(z)),
        Expr::Count(z)
        | Expr::NonEmpty(z)
        | Expr::Fullest(z)
        | Expr::TopCard(z)
        | Expr::Sum { zone: z, .. }
        | Expr::Last { zone: z, .. } => zone(z),
        Expr::Top { k, zone: z, .. } => free(k) && zone(z),
        Expr::Rising(r) => {
            free(&r.n) && free(&r.above) && zone(&r.from) && r.seed.as_ref().is_none_or(zone)
        }
        Expr::If(c, a, b) => free(c) && free(a) && free(b),
        Expr::Best { zone: z, .. } => zone(z),
        Expr::Cheapest { card, from, .. } => card.as_deref().is_none_or(free) && zone(from),
        Expr::Marked(x) | Expr::Mine(x) | Expr::Not(x) => free(x),
        Expr::Bin(_, l, r) => free(l) && free(r),
        Expr::Figures(f) => match f {
            FigureExpr::ParamFigure | FigureExpr::ParamSteps => false,
            FigureExpr::Empty(x)
            | FigureExpr::Plate(x)
            | FigureExpr::SeatOf(x)
            | FigureExpr::Occupant(x)
            | FigureExpr::Owner(x)
            | FigureExpr::CardAttr { figure: x, .. }
            | FigureExpr::CardOf { figure: x, .. } => free(x),
            FigureExpr::Count { who: w, .. }
            | FigureExpr::PlateSum { who: w, .. }
            | FigureExpr::Total { who: w, .. } => who(w),
            FigureExpr::RoleSeat(_) => true,
            // What else the ring answers (the chosen figures, plates read by kind) is not
            // looked into: taken to read anything.
            _ => false,
        },
        Expr::Counter(c) => match c {
            CounterExpr::Read(CounterRef::Table(_)) => true,
            CounterExpr::Read(CounterRef::Seat(_, w)) => who(w),
            CounterExpr::Read(CounterRef::Figure(_, x)) => free(x),
            CounterExpr::Min(a, b)
            | CounterExpr::Max(a, b)
            | CounterExpr::Div(a, b)
            | CounterExpr::Mod(a, b)
            | CounterExpr::Odds(a, b) => free(a) && free(b),
            CounterExpr::Others(x) | CounterExpr::Each(x) => free(x),
            CounterExpr::Holder(_)
            | CounterExpr::CardHolder(_)
            | CounterExpr::Players
            | CounterExpr::ByPlayers(_)
            | CounterExpr::Turn
            | CounterExpr::Over
            | CounterExpr::Taken
            | CounterExpr::AtStep(_) => true,
        },
        Expr::Seat(s) => match s {
            SeatExpr::Current | SeatExpr::Player => true,
            SeatExpr::Left(x) | SeatExpr::Right(x) | SeatExpr::Highest(x) | SeatExpr::Lowest(x) => {
                free(x)
            }
        },
        Expr::Memo(_, part) => free(&part.0),
        Expr::Fast(f) => free(&f.expr),
    }
}

/// The zones whose cards `e` reads, not only how many they hold (`sum`, `best`, `last`,
/// `top_card`, `top`, `rising`, a situation, `cheapest`; not `count`): what a text shown to
/// every seat must not read of a zone some seats cannot see. Calls `f` with each zone.
pub(super) fn cards_read(e: &Expr, f: &mut impl FnMut(usize)) {
    match e {
        Expr::Sum { zone, .. }
        | Expr::Last { zone, .. }
        | Expr::Top { zone, .. }
        | Expr::Best { zone, .. }
        | Expr::TopCard(zone) => f(zone.zone),
        Expr::Rising(r) => {
            f(r.from.zone);
            if let Some(seed) = &r.seed {
                f(seed.zone);
            }
        }
        Expr::Situational(s) => s.zones.iter().for_each(|(z, _)| f(z.zone)),
        Expr::Cheapest { from, .. } => f(from.zone),
        _ => {}
    }
    e.each_child(&mut |x| cards_read(x, f));
}

/// The attributes of the action's card an expression reads.
pub(super) fn card_attrs(e: &Expr, out: &mut Vec<usize>) {
    match e {
        Expr::Attr { attr, card, .. } if matches!(**card, Expr::Card) && !out.contains(attr) => {
            out.push(*attr);
        }
        Expr::Bin(_, l, r) => {
            card_attrs(l, out);
            card_attrs(r, out);
        }
        Expr::Not(x) => card_attrs(x, out),
        Expr::Fast(f) => card_attrs(&f.expr, out),
        Expr::If(c, a, b) => {
            card_attrs(c, out);
            card_attrs(a, out);
            card_attrs(b, out);
        }
        Expr::Counter(CounterExpr::Min(a, b) | CounterExpr::Max(a, b)) => {
            card_attrs(a, out);
            card_attrs(b, out);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::syntax::Op;
    use super::*;

    fn bin(l: Expr, r: Expr) -> Expr {
        Expr::Bin(Op::Eq, Box::new(l), Box::new(r))
    }

    #[test]
    fn each_argument_is_read_by_its_own_name() {
        assert_eq!(reads(&Expr::Card), Reads::CARD);
        assert_eq!(reads(&Expr::Row), Reads::PLACE);
        assert_eq!(reads(&Expr::Target), Reads::PLAYER);
        assert_eq!(
            reads(&Expr::Figures(FigureExpr::ParamFigure)),
            Reads::FIGURE
        );
        assert_eq!(reads(&Expr::Figures(FigureExpr::ParamSteps)), Reads::STEPS);
        assert!(!Reads::AFTER_CARD.any(Reads::CARD));
        assert_eq!(Reads::ARGS, Reads::AFTER_CARD.and(Reads::CARD));
    }

    #[test]
    fn numbers_and_the_player_count_read_nothing_and_a_seat_expression_everything() {
        let e = bin(Expr::Const(3), Expr::Counter(CounterExpr::Players));
        assert_eq!(reads(&e), Reads::NOTHING);
        let seat = Expr::Seat(SeatExpr::Left(Box::new(Expr::Seat(SeatExpr::Current))));
        assert_eq!(reads(&seat), Reads::ALL);
        assert_eq!(reads(&Expr::Counter(CounterExpr::AtStep(0))), Reads::STEP);
    }

    #[test]
    fn a_holder_is_named_through_any_expression_around_it() {
        let holder = || Expr::Counter(CounterExpr::Holder(0));
        let nested = Expr::Not(Box::new(bin(
            Expr::Figures(FigureExpr::ParamFigure),
            holder(),
        )));
        assert!(reads(&nested).names_holder());
        assert!(reads(&nested).any(Reads::STATE.and(Reads::FIGURE)));
        assert!(
            !Reads::ALL.names_holder(),
            "reading anything names no holder"
        );
        assert!(!reads(&Expr::Counter(CounterExpr::Turn)).names_holder());
    }
}
