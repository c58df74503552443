//! grail-schema: the content data model, loading, linting and JSON Schema generation.
//!
//! Loading runs in stages, each its own module, each reporting [`Diagnostic`]s as data:
//!
//! 1. [`syntax`]: text → [`node::Node`] tree with byte spans (TOML, RON);
//! 2. [`decode`]: tree → [`model::PackFile`], checking keys, types and ranges of one file;
//! 3. [`merge`]: `include` and `extends` → one merged `PackFile`;
//! 4. [`check`] and [`resolve`]: the whole pack checked against itself and its rulebook's
//!    [`RulesSpec`] → [`Pack`], with card universes and compiled conditions.
//!
//! [`Loader`] runs them. Nothing here prints: the command line renders diagnostics.
//!
//! ```no_run
//! use grail_schema::{Disk, Loader};
//! let loaded = Loader::new(&Disk).with_content("content").load_game("my-game", Some("short"));
//! if let Some(pack) = &loaded.pack {
//!     let knights = pack.set("knights").unwrap();
//!     let challenge = pack.condition("challenge").unwrap();
//!     let hand = vec![0u8; knights.cards.len()];
//!     let _ok = challenge.program.test(&hand, &[3]);
//!     let _hand_size = pack.int("hand_size").unwrap();
//!     println!("{}", pack.hash());
//! }
//! ```
//!
//! [`Diagnostic`]: grail_engine::diag::Diagnostic

pub mod bundled;
pub mod check;
pub mod decode;
pub mod files;
mod hash;
pub mod json_schema;
pub mod load;
pub mod merge;
pub mod model;
pub mod node;
pub mod pack;
pub mod resolve;
pub mod spec;
pub mod syntax;
pub mod universe;

pub use bundled::{GameInfo, VariantInfo, discover};
pub use files::{Disk, Embedded, FileSource, MemoryFiles};
pub use load::{Loaded, Loader};
pub use pack::{
    ByPlayersParam, Card, CardCondition, CardSet, NamedCondition, Origin, Override, Pack, Param,
    PlayerCountValue,
};
pub use spec::{ConditionSpec, GENERIC_RULEBOOK, ParamKind, ParamSpec, RulesSpec, SetSpec};
