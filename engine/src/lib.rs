//! grail-engine: the generic parts of Grail. It knows no particular game and does no I/O.

pub mod cond;
pub mod counts;
pub mod diag;
pub mod digest;
pub mod game;
pub mod pile;
pub mod rng;
pub mod seats;

pub use counts::Counts;
pub use pile::Pile;
