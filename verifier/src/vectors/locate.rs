//! Where a field of a JSON document is written: the line and column of the value at a path
//! such as `vectors[3].inputs.v1`, for error messages (serde_json's values carry no
//! positions). The text has already been parsed as JSON, so this scanner only walks it.

use serde_json::Value;

/// One step of a path into a JSON document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// An object's member.
    Key(String),
    /// An array's element.
    Index(usize),
}

/// The path as text: `vectors[3].inputs.v1`.
pub fn name(path: &[Step]) -> String {
    let mut s = String::new();
    for p in path {
        match p {
            Step::Key(k) if s.is_empty() => s.push_str(k),
            Step::Key(k) => s.push_str(&format!(".{k}")),
            Step::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// The 1-based line and column (in characters) of the value at `path` in `text`, or of the
/// deepest part of the path that exists; 1:1 for the empty path.
pub fn locate(text: &str, path: &[Step]) -> (usize, usize) {
    let b = text.as_bytes();
    let mut at = ws(b, 0);
    for step in path {
        match find(b, at, step) {
            Some(next) => at = next,
            None => break,
        }
    }
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, col)
}

fn ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The end of the string starting at `i` (its opening quote), after the closing quote.
fn string_end(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() && b[i] != b'"' {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    i + 1
}

/// The end of the value starting at `i`.
fn value_end(b: &[u8], i: usize) -> usize {
    match b.get(i) {
        Some(b'"') => string_end(b, i),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut k = i;
            while k < b.len() {
                match b[k] {
                    b'"' => {
                        k = string_end(b, k);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return k + 1;
                        }
                    }
                    _ => {}
                }
                k += 1;
            }
            k
        }
        _ => {
            let mut k = i;
            while k < b.len() && !matches!(b[k], b',' | b'}' | b']') && !b[k].is_ascii_whitespace()
            {
                k += 1;
            }
            k
        }
    }
}

/// The start of `step`'s value inside the object or array starting at `i`.
fn find(b: &[u8], i: usize, step: &Step) -> Option<usize> {
    let open = *b.get(i)?;
    let mut k = ws(b, i + 1);
    let mut index = 0;
    while k < b.len() && !matches!(b[k], b'}' | b']') {
        let this;
        if open == b'{' {
            let end = string_end(b, k);
            let key: Option<String> = std::str::from_utf8(&b[k..end])
                .ok()
                .and_then(|s| serde_json::from_str::<Value>(s).ok())
                .and_then(|v| v.as_str().map(str::to_string));
            this = matches!(step, Step::Key(want) if key.as_deref() == Some(want));
            k = ws(b, end);
            k = ws(b, k + 1); // the colon
        } else {
            this = *step == Step::Index(index);
        }
        if this {
            return Some(k);
        }
        k = ws(b, value_end(b, k));
        if b.get(k) == Some(&b',') {
            k = ws(b, k + 1);
        }
        index += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: &str) -> Step {
        Step::Key(k.into())
    }

    /// Positions counted by hand in the text below.
    #[test]
    fn finds_members_and_elements() {
        let text = "{\n  \"a\": [1, {\"b\": \"x,]\"}],\n  \"c\": {\"d\\\"\": 7}\n}";
        assert_eq!(locate(text, &[]), (1, 1));
        assert_eq!(locate(text, &[key("a")]), (2, 8));
        assert_eq!(locate(text, &[key("a"), Step::Index(1), key("b")]), (2, 18));
        assert_eq!(locate(text, &[key("c"), key("d\"")]), (3, 16));
        // A missing member: where the path stops.
        assert_eq!(locate(text, &[key("c"), key("zz")]), (3, 8));
        assert_eq!(name(&[key("a"), Step::Index(1), key("b")]), "a[1].b");
    }
}
