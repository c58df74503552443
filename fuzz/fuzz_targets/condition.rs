//! Any text through the whole condition pipeline — parse, check, compile, evaluate, decide
//! satisfiability, solve — must give a result or an error, never a panic, and within bounded
//! work: every search reports the steps it spent, and they must stay within its budget (a
//! hang would show as a libFuzzer timeout: run with `-timeout=10`).
//!
//! The universe has overlapping, multi-valued attributes and 20 types, so `cards(…)` with
//! many filters, products of counts and group limits all reach their worst cases.
#![no_main]

use grail_engine::cond::{self, Attr, Domain, ItemType, Params, Type, Universe, Value, solve};
use libfuzzer_sys::fuzz_target;

const TYPES: usize = 20;

fn universe() -> Universe {
    let colors = ["yellow", "blue", "green", "red"];
    Universe {
        attrs: vec![
            Attr { name: "color".into(), domain: Domain::Symbols(colors.map(String::from).to_vec()) },
            Attr { name: "value".into(), domain: Domain::Int { min: 1, max: 5 } },
        ],
        types: (0..TYPES)
            .map(|t| ItemType {
                id: format!("{}-{}", colors[t % 4], t / 4 + 1),
                values: vec![Some(Value::Sym((t % 4) as u16)), Some(Value::Int((t / 4 + 1) as i64))],
            })
            .collect(),
        value_attr: Some(1),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(expr) = cond::parse(text) else { return };
    let _ = expr.to_string();
    let u = universe();
    let params = Params::default().argument("power", Type::Int).constant("flag", Type::Bool, 1);
    let Ok(checked) = cond::check(&expr, &u, &params) else { return };
    let program = cond::compile(&checked, &u);
    let hand: [u8; TYPES] = [1, 0, 2, 1, 0, 1, 1, 0, 0, 2, 1, 0, 3, 1, 1, 0, 2, 1, 1, 1];
    let _ = program.value(&hand, &[3]);
    if program.ty() != Type::Bool {
        return;
    }
    let effort = solve::payments_counted(&program, &hand, &[3], |_| true);
    assert!(effort.nodes <= solve::NODE_BUDGET, "{effort:?}");
    let _ = solve::exists(&program, &hand, &[3]);
    // The lint's question over a deck of 60 cards, with and without the argument.
    for args in [&[3][..], &[]] {
        let decision = solve::satisfiable(&program, text, &[3; TYPES], args);
        assert!(decision.steps <= solve::DECIDE_BUDGET, "{decision:?}");
    }
});
