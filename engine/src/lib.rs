//! grail-engine: the generic parts of Grail. It knows no particular game and does no I/O.

pub mod agent;
pub mod bidding;
pub mod cond;
pub mod counts;
pub mod derived;
pub mod diag;
pub mod digest;
pub mod exchange;
pub mod facade;
pub mod game;
pub mod ismcts;
pub mod joint;
pub mod ladder;
pub mod odds;
pub mod offer;
pub mod pile;
pub mod play;
pub mod proposal;
pub mod replay;
pub mod ring;
pub mod rng;
pub mod sealed;
pub mod seat_set;
pub mod seats;
pub mod showdown;
pub mod sim;
pub mod situational;
pub mod stats;
pub mod view;

pub use counts::Counts;
pub use pile::Pile;
