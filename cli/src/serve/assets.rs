//! The page, built into the binary: nothing is fetched from the network.

pub const INDEX: &str = include_str!("assets/index.html");
pub const APP: &str = include_str!("assets/app.js");
pub const STYLE: &str = include_str!("assets/style.css");
