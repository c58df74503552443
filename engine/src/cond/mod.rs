//! The condition language: `sum(color=red) >= 8`, `cards(value>=3, value>=4)`,
//! `count(*) = 2 or cards(color=red & value=5)`.
//!
//! Stages, each its own module: [`parse`] (pest grammar → [`Expr`]), [`check`] (names,
//! values and types against a [`Universe`] and [`Params`], with did-you-mean), [`compile`]
//! (to a [`Program`] evaluated over per-type counts, no strings), and [`solve`] (legal
//! payments; [`ceiling`]: the dearest price a hand can pay; [`affordable`]: which of several
//! conditions a hand can pay, kept as the hand changes). [`reference`] is a plain, slow
//! evaluator the tests compare against; [`words`] says a condition in plain words for players.
//!
//! Conditions are predicates over a multiset of items (cards in a hand, knights on seats).
//! Items of one *type* are interchangeable, so a multiset is a slice of counts indexed by
//! type: `counts[t]` copies of type `t`.

pub mod affordable;
pub mod ast;
pub mod ceiling;
pub mod check;
pub mod compile;
mod grammar;
pub mod reference;
pub mod solve;
pub mod universe;
pub mod words;

pub use ast::Expr;
pub use check::{Checked, Type, check};
pub use compile::{Program, compile};
pub use grammar::parse;
pub use universe::{Attr, Domain, ItemType, ParamDecl, Params, Universe, Value};

use std::ops::Range;

/// A problem in a condition, with a byte span into the condition's own text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CondError {
    pub code: &'static str,
    pub span: Range<usize>,
    pub message: String,
    pub label: String,
    pub help: Option<String>,
}
