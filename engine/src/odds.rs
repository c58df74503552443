//! The chance that a margin holds up, for bots: a logistic curve, `1 / (1 + e^(-x / spread))`,
//! in thousandths. Reckoned with IEEE basic operations only (no platform `exp`), so that a
//! bot's choice, and so a seeded game, is the same on every machine.

/// The chance, in thousandths (0 to 1000, rounded to the nearest), that a margin of `x`
/// holds up when a margin of `spread` multiplies the odds by e. `spread` is not 0 (the
/// caller refuses it); a negative one turns the curve round.
pub fn logistic_permille(x: i64, spread: i64) -> u16 {
    debug_assert!(spread != 0);
    let t = -(x as f64) / (spread as f64);
    // Far out the answer is 0 or 1000 either way (e^40 is past 10^17).
    if t > 40.0 {
        return 0;
    }
    if t < -40.0 {
        return 1000;
    }
    let p = 1000.0 / (1.0 + exp(t));
    (p + 0.5).floor() as u16
}

/// e^t for |t| ≤ 40: `t = n ln 2 + r` with |r| ≤ ln 2 / 2, e^r by its series, times 2^n built
/// exactly.
fn exp(t: f64) -> f64 {
    const LN2: f64 = std::f64::consts::LN_2;
    let n = (t / LN2 + 0.5).floor();
    let r = t - n * LN2;
    let (mut term, mut sum) = (1.0, 1.0);
    for k in 1..=20 {
        term = term * r / f64::from(k);
        sum += term;
    }
    // |n| ≤ 58: a normal power of two.
    let two_n = f64::from_bits(((n as i64 + 1023) as u64) << 52);
    sum * two_n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_margin_is_even_odds_and_the_curve_rises() {
        assert_eq!(logistic_permille(0, 10), 500);
        // 1 / (1 + e^-1) = 0.7311, and its mirror.
        assert_eq!(logistic_permille(10, 10), 731);
        assert_eq!(logistic_permille(-10, 10), 269);
        assert_eq!(logistic_permille(1000, 1), 1000);
        assert_eq!(logistic_permille(-1000, 1), 0);
        // A negative spread turns it round.
        assert_eq!(logistic_permille(10, -10), 269);
        let mut last = 0;
        for x in -200..=200 {
            let p = logistic_permille(x, 17);
            assert!(p >= last, "rises at {x}");
            last = p;
            // Against the platform's exp, to the thousandth.
            let want = 1000.0 / (1.0 + (-(x as f64) / 17.0).exp());
            assert!(
                (f64::from(p) - want).abs() <= 0.5 + 1e-9,
                "{x}: {p} against {want}"
            );
        }
        assert_eq!(logistic_permille(i64::MAX, 1), 1000);
        assert_eq!(logistic_permille(i64::MIN, 1), 0);
    }
}
