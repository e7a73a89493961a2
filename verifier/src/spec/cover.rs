//! Whether a reading covers a whole sentence. A reader that takes the concepts it knows out
//! of a sentence and steps over the rest can read "Decrease the word by VDATA0" as a store of
//! VDATA0, or "the bits set in VDATA0 are cleared first, then ..." as an OR. So a sentence is
//! read only when every word is part of a concept the grammar read or is one of the words
//! below, which carry no meaning the reading could miss (articles, prepositions of place,
//! "value", "result"). Words that change an operation (`not`, `by`, `than`, `only`, `twice`,
//! `high`, `bits`, `first`, a width other than the element's) are deliberately absent: a
//! sentence with one is left unchecked, with the words named.

/// Words that carry no meaning an operation reading could miss.
const FILLER: &[&str] = &[
    "a",
    "an",
    "the",
    "of",
    "in",
    "into",
    "to",
    "at",
    "on",
    "with",
    "and",
    "is",
    "are",
    "be",
    "it",
    "its",
    "this",
    "that",
    "which",
    "there",
    "then",
    "if",
    "so",
    "as",
    "value",
    "values",
    "result",
    "back",
    "same",
    "old",
    "original",
    "previous",
    "prior",
    "pre-op",
    "pre-operation",
    "current",
    "existing",
    "new",
    "integer",
    "number",
    "contents",
    "content",
    "data",
    "register",
    "operand",
    "instruction",
    "operation",
    "performs",
    "perform",
    "does",
    "do",
    "loaded",
    "load",
    "loads",
    "read",
    "reads",
    "held",
    "stored",
    "resulting",
    "once",
    "when",
    "whichever",
    "both",
    "two",
    "between",
    "otherwise",
    "else",
    "unchanged",
    "given",
    "using",
    "choose",
    "chooses",
    "select",
    "selects",
    "computed",
    "effective",
    "around",
    "integers",
    "they",
    "place",
    "leave",
    "left",
];

/// Whether `word` is a filler for an entry of element type `ty`.
fn filler(word: &str, ty: &str) -> bool {
    let l = word.to_ascii_lowercase();
    if l == "by" {
        // `by` is read by the grammar (`decrease ... by X`), never skipped.
        return false;
    }
    if FILLER.contains(&l.as_str()) {
        return true;
    }
    // The element's own width (`32-bit` for a `u32` entry) says nothing new; another width
    // contradicts the entry and is not stepped over.
    if let Some(bits) = l.strip_suffix("-bit") {
        return ty.get(1..) == Some(bits);
    }
    // The effective address as CLRX and the guides write it.
    matches!(
        word,
        "ADDR" | "OFFSET" | "ADDR+OFFSET" | "&" | "~3" | "~7" | "+" | "&~3" | "&~7"
    )
}

/// The words of `ws` that neither a concept covers (`covered[i]`) nor [`filler`] excuses,
/// for an entry of element type `ty` (`u32`); punctuation words are covered.
pub fn uncovered(ws: &[String], covered: &[bool], ty: &str) -> Vec<String> {
    ws.iter()
        .zip(covered)
        .filter(|(w, c)| !**c && !filler(w, ty) && !w.chars().all(|ch| ch.is_ascii_punctuation()))
        .map(|(w, _)| w.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ws(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn meaning_words_are_never_stepped_over() {
        let w = ws("Decrease the word by VDATA0");
        // Only `VDATA0` covered by a concept: `Decrease`, `word` and `by` are not fillers.
        let c = [false, false, false, false, true];
        assert_eq!(uncovered(&w, &c, "u32"), vec!["Decrease", "word", "by"]);
        let w = ws("the 64-bit value");
        assert_eq!(uncovered(&w, &[false; 3], "u32"), vec!["64-bit"]);
        assert!(uncovered(&w, &[false; 3], "u64").is_empty());
    }
}
