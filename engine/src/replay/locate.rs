//! Where each step of a replay file starts, so an error about step 7 can point at its line,
//! and where its digest is written, so a re-recording can rewrite just that.
//!
//! A small RON tokenizer that understands just enough (strings, raw strings, characters,
//! nested comments, brackets) to find the top-level `steps: [ ... ]` list and the start of
//! each element. It never fails: on text it cannot follow it finds fewer steps, and the
//! error is then reported without a position.

use std::ops::Range;

/// Byte offset of each element of the top-level `steps` list, in order.
pub fn step_offsets(src: &str) -> Vec<usize> {
    let tokens = tokenize(src.as_bytes());
    let mut offsets = Vec::new();
    let mut depth = 0usize;
    let mut list_depth = None;
    let mut expect_element = false;
    let mut i = 0;
    while i < tokens.len() {
        let (tok, start) = tokens[i];
        if expect_element {
            expect_element = false;
            if !matches!(tok, Tok::Close) {
                offsets.push(start);
            }
        }
        match tok {
            Tok::Open => {
                depth += 1;
            }
            Tok::Close => {
                if list_depth == Some(depth) {
                    return offsets;
                }
                depth = depth.saturating_sub(1);
            }
            Tok::Comma if list_depth == Some(depth) => expect_element = true,
            Tok::Ident(end)
                if list_depth.is_none() && depth == 1 && &src[start..end] == "steps" =>
            {
                if let (Some((Tok::Colon, _)), Some((Tok::OpenList, _))) =
                    (tokens.get(i + 1), tokens.get(i + 2))
                {
                    depth += 1;
                    list_depth = Some(depth);
                    expect_element = true;
                    i += 3;
                    continue;
                }
            }
            Tok::OpenList => depth += 1,
            _ => {}
        }
        i += 1;
    }
    offsets
}

/// Byte offset of the top-level field `name` (`position: {`), skipping comments and strings.
pub fn field_offset(src: &str, name: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (tok, start) in tokenize(src.as_bytes()) {
        match tok {
            Tok::Open | Tok::OpenList => depth += 1,
            Tok::Close => depth = depth.saturating_sub(1),
            Tok::Ident(end) if depth == 1 && &src[start..end] == name => return Some(start),
            _ => {}
        }
    }
    None
}

/// For each element of the top-level `steps` list (as [`step_offsets`] finds them), the
/// bytes of its digest when it is written `Move("…", "digest")` with plain strings: what a
/// re-recording rewrites. `None` for every other step.
pub fn move_digest_spans(src: &str) -> Vec<Option<Range<usize>>> {
    let b = src.as_bytes();
    let tokens = tokenize(b);
    step_offsets(src)
        .into_iter()
        .map(|offset| {
            let i = tokens.partition_point(|&(_, start)| start < offset);
            match tokens.get(i..i + 6)? {
                [
                    (Tok::Ident(end), _),
                    (Tok::Open, _),
                    (Tok::Other, first),
                    (Tok::Comma, _),
                    (Tok::Other, digest),
                    (Tok::Close, _),
                ] if &src[offset..*end] == "Move" => {
                    plain_string(b, *first)?;
                    plain_string(b, *digest)
                }
                _ => None,
            }
        })
        .collect()
}

/// The bytes inside the quotes of the top-level field `name: "…"`, if it is a plain string.
pub fn field_string_span(src: &str, name: &str) -> Option<Range<usize>> {
    let b = src.as_bytes();
    let tokens = tokenize(b);
    let at = field_offset(src, name)?;
    let i = tokens.partition_point(|&(_, start)| start < at);
    match tokens.get(i + 1..i + 3)? {
        [(Tok::Colon, _), (Tok::Other, start)] => plain_string(b, *start),
        _ => None,
    }
}

/// The bytes inside a terminated string literal `"…"` starting at `start`.
fn plain_string(b: &[u8], start: usize) -> Option<Range<usize>> {
    if b.get(start) != Some(&b'"') {
        return None;
    }
    let end = skip_string(b, start + 1);
    (end >= start + 2 && end <= b.len() && b[end - 1] == b'"').then(|| start + 1..end - 1)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Open,
    /// `[`, told apart so `steps: [` is recognised.
    OpenList,
    Close,
    Comma,
    Colon,
    /// An identifier; the payload is its end offset.
    Ident(usize),
    Other,
}

fn tokenize(b: &[u8]) -> Vec<(Tok, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        match c {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                // RON block comments nest.
                let mut nest = 0usize;
                while i < b.len() {
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        nest += 1;
                        i += 2;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        nest -= 1;
                        i += 2;
                        if nest == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            }
            b'"' => {
                i = skip_string(b, i + 1);
                out.push((Tok::Other, start));
            }
            b'\'' => {
                i += 1;
                if b.get(i) == Some(&b'\\') {
                    i += 2;
                }
                while i < b.len() && b[i] != b'\'' {
                    i += 1;
                }
                i += 1;
                out.push((Tok::Other, start));
            }
            b'r' if matches!(b.get(i + 1), Some(b'"' | b'#')) => {
                let mut j = i + 1;
                while b.get(j) == Some(&b'#') {
                    j += 1;
                }
                let hashes = j - i - 1;
                if b.get(j) == Some(&b'"') {
                    i = skip_raw_string(b, j + 1, hashes);
                    out.push((Tok::Other, start));
                } else {
                    i = j;
                    out.push((Tok::Ident(i), start));
                }
            }
            b'(' | b'{' => {
                i += 1;
                out.push((Tok::Open, start));
            }
            b'[' => {
                i += 1;
                out.push((Tok::OpenList, start));
            }
            b')' | b']' | b'}' => {
                i += 1;
                out.push((Tok::Close, start));
            }
            b',' => {
                i += 1;
                out.push((Tok::Comma, start));
            }
            b':' => {
                i += 1;
                out.push((Tok::Colon, start));
            }
            c if c == b'_' || c.is_ascii_alphabetic() => {
                while i < b.len() && (b[i] == b'_' || b[i].is_ascii_alphanumeric()) {
                    i += 1;
                }
                out.push((Tok::Ident(i), start));
            }
            _ => {
                i += 1;
                out.push((Tok::Other, start));
            }
        }
    }
    out
}

fn skip_string(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

fn skip_raw_string(b: &[u8], mut i: usize, hashes: usize) -> usize {
    while i < b.len() {
        if b[i] == b'"'
            && b[i + 1..]
                .iter()
                .take(hashes)
                .filter(|&&h| h == b'#')
                .count()
                == hashes
        {
            return i + 1 + hashes;
        }
        i += 1;
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_each_step_past_strings_and_comments() {
        let src = r##"#![enable(implicit_some)]
(
    game: "x", // steps: [ decoy ]
    stack: {"deck": ["a", "b"]},
    steps: [
        Move("draw, (really)", "0000"), /* a ] comment /* nested ) */ */
        Play(r#"bank "v5""#),
        End(reason: "time"),
    ],
    agents: ["random"],
)"##;
        let offsets = step_offsets(src);
        let starts: Vec<&str> = offsets.iter().map(|&o| &src[o..o + 4]).collect();
        assert_eq!(starts, vec!["Move", "Play", "End("]);
    }

    #[test]
    fn gives_up_quietly_on_garbage() {
        for src in [
            "",
            "steps: [",
            "((steps: [ \"unterminated",
            "(steps: [a, r#\"x",
            "/*",
        ] {
            let _ = step_offsets(src);
        }
        assert_eq!(step_offsets("(steps: [a, b])"), vec![9, 12]);
    }

    #[test]
    fn finds_the_digest_of_each_move_and_only_of_moves() {
        let src = r#"(
    content_hash: "c0ffee", // "decoy"
    steps: [
        Move("draw", "0a1b2c3d"), /* Move("x", "ffffffff") */
        Play("draw"),
        Move(r"raw", "00000001"),
        Move("cut", "0000
"#;
        let spans = move_digest_spans(src);
        let texts: Vec<Option<&str>> = spans.iter().map(|s| s.clone().map(|s| &src[s])).collect();
        assert_eq!(texts, vec![Some("0a1b2c3d"), None, None, None]);
        let hash = field_string_span(src, "content_hash").unwrap();
        assert_eq!(&src[hash], "c0ffee");
        assert_eq!(field_string_span(src, "steps"), None);
        for cut in 0..src.len() {
            let _ = move_digest_spans(&src[..cut]);
            let _ = field_string_span(&src[..cut], "content_hash");
        }
    }
}
