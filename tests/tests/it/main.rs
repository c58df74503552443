//! The integration tests, one binary: each file a module of it, so that a fresh clone compiles
//! and links the workspace into one test executable instead of one per file.

mod artus;
mod baselines;
mod bidding_war;
mod bundled;
mod card_scripts;
mod diag_codes;
mod docs;
mod hidden_information;
mod hostile_rulebooks;
mod ismcts;
mod json_schema;
mod king_arthur;
mod layers;
mod lint;
mod lint_rulebooks;
mod named_foes;
mod never_panics;
mod pack_scripts;
mod positions;
mod product_sets;
mod quests_draft;
mod random_games;
mod rulebook_never_panics;
mod rulebook_steps;
mod score_breakdown;
mod scripts;
mod sealed_lists;
mod shards;
mod shield_ladder;
mod sponsorship;
mod trick_taking;
mod veiled_stages;
mod virtues;
