//! Condition evaluation and payment solving over a fixture universe (see tests/support).

#[path = "../tests/support/mod.rs"]
mod support;

use grail_engine::cond::{Params, Program, solve};
use support::*;

fn main() {
    divan::main();
}

const CONDITIONS: [&str; 13] = [
    "sum(*) >= 12",
    "sum(*) >= 9",
    "sum(*) >= 5",
    "sum(color=red) >= 8",
    "count(*) >= 2",
    "cards(color=green, color=blue, color=yellow)",
    "sum(color=green) >= 6",
    "count(*) >= 4",
    "cards(value>=3, value>=4)",
    "sum(color=blue) >= 5",
    "cards(kind=spirit, kind=rider, kind=beast, kind=wyrm)",
    "count(value>=3) >= 2 or cards(color=red & value=5)",
    "sum(color=yellow) >= 4",
];

fn setup() -> (Vec<Program>, Program, Vec<u8>) {
    let u = adversaries();
    let programs = CONDITIONS.iter().map(|c| condition(c, &u)).collect();
    let cost = compile("sum(value)", &u, &Params::default());
    let h = hand(
        &u,
        &[
            ("yellow-1", 1),
            ("yellow-2", 1),
            ("blue-3", 2),
            ("green-2", 1),
            ("green-4", 1),
            ("red-3", 1),
            ("red-4", 2),
            ("red-5", 1),
        ],
    );
    (programs, cost, h)
}

#[divan::bench]
fn evaluate_all_thirteen(bencher: divan::Bencher) {
    let (programs, _, h) = setup();
    bencher.bench(|| {
        programs
            .iter()
            .filter(|p| p.test(divan::black_box(&h), &[]))
            .count()
    });
}

#[divan::bench(args = [0, 3, 5, 8])]
fn cheapest_payment(bencher: divan::Bencher, which: usize) {
    let (programs, cost, h) = setup();
    bencher.bench(|| solve::cheapest(&programs[which], divan::black_box(&h), &[], &cost));
}
