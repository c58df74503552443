//! Any text through the whole condition pipeline — parse, check, compile, evaluate, solve —
//! must give a result or an error, never a panic.
#![no_main]

use grail_engine::cond::{self, Attr, Domain, ItemType, Params, Type, Universe, Value, solve};
use libfuzzer_sys::fuzz_target;

fn universe() -> Universe {
    let colors = ["yellow", "blue", "green", "red"];
    Universe {
        attrs: vec![
            Attr { name: "color".into(), domain: Domain::Symbols(colors.map(String::from).to_vec()) },
            Attr { name: "value".into(), domain: Domain::Int { min: 1, max: 5 } },
        ],
        types: (0..12)
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
    let hand = [1u8, 0, 2, 1, 0, 1, 1, 0, 0, 2, 1, 0];
    let _ = program.value(&hand, &[3]);
    let _ = solve::payments(&program, &hand, &[3], |_| true);
    let _ = solve::unsatisfiable(&program, text, &[3; 12], &[3]);
});
