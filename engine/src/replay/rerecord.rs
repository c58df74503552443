//! Re-recording a file's digests after the state's layout changed (a pack moved to other
//! rules, a state gained a field): the game plays the same moves to the same results, but
//! the digests hash another state. Everything else in the file must still hold; only the
//! digest values are rewritten, in place, so the file's formatting and comments stay.

use super::run::{Failure, Problem, ReplayOptions, run_to_match};
use super::{ReplayFile, Step, locate};
use crate::game::Rules;

/// The file's text with its digests re-recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rerecorded {
    pub text: String,
    /// How many `Move` digests changed.
    pub digests: usize,
    /// Whether the recorded content hash changed (only with `ignore_content_hash`).
    pub content_hash: bool,
}

/// Runs the file as [`super::run`] does, except that a `Move` whose digest differs takes
/// the digest the game has there. Refused (the first failure) when anything else fails:
/// a move that is not legal, an expectation, the ending, a content hash that differs
/// (unless `options.ignore_content_hash`: then it is re-recorded too), or a digest that
/// cannot be found in the text.
pub fn rerecord<R: Rules>(
    rules: &R,
    content_hash: Option<&str>,
    file: &ReplayFile,
    options: ReplayOptions,
) -> Result<Rerecorded, Box<Failure>> {
    let mut stale = Vec::new();
    let (_, run) = run_to_match(rules, content_hash, file, options, Some(&mut stale));
    if let Some(failure) = run.failure {
        return Err(Box::new(failure));
    }
    let unlocated = |index: Option<usize>| {
        Box::new(Failure {
            step: index.map(|i| i + 1),
            step_text: index.map(|i| file.replay.steps[i].to_string()),
            position: index.and_then(|i| file.step_position(i)),
            problem: Problem::Unlocated,
        })
    };
    // A save still being written was read closed: its text is not the file's.
    let text = file
        .text
        .as_deref()
        .filter(|_| !file.open)
        .ok_or_else(|| unlocated(None))?;
    let spans = locate::move_digest_spans(text);
    // Only trust the scan when it found exactly the steps serde read.
    if spans.len() != file.replay.steps.len() {
        return Err(unlocated(None));
    }
    // (byte range, new value), in the order of the text.
    let mut edits = Vec::new();
    let recorded_hash = file.replay.content_hash.as_deref();
    let hash_changed = matches!((recorded_hash, content_hash), (Some(a), Some(b)) if a != b);
    if let (true, Some(old), Some(new)) = (hash_changed, recorded_hash, content_hash) {
        let span = locate::field_string_span(text, "content_hash")
            .filter(|s| &text[s.clone()] == old)
            .ok_or_else(|| unlocated(None))?;
        edits.push((span, new));
    }
    for (index, digest) in &stale {
        let Step::Move(_, old) = &file.replay.steps[*index] else {
            unreachable!("only moves have digests")
        };
        let span = spans[*index]
            .clone()
            .filter(|s| &text[s.clone()] == old)
            .ok_or_else(|| unlocated(Some(*index)))?;
        edits.push((span, digest.as_str()));
    }
    edits.sort_by_key(|(span, _)| span.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (span, new) in &edits {
        out.push_str(&text[at..span.start]);
        out.push_str(new);
        at = span.end;
    }
    out.push_str(&text[at..]);
    Ok(Rerecorded {
        text: out,
        digests: stale.len(),
        content_hash: hash_changed,
    })
}
