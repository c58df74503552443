//! Building the rulebook from the content pack (wired once the loader lands).
