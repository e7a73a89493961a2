//! return-bit: a buffer atomic's description names the cache-policy bit that makes it return
//! the pre-op value ("If GLC flag is set then return previous value ...", "returns the
//! original value to VDATA iff SC0 is set"). Which bit that is depends on the generation:
//! GLC (bit 14) from GCN 1.0 to CDNA 2 and on RDNA 1-3.5, SC0 (the same bit 14) on CDNA 3
//! and 4; SC1 (bit 15 there), SLC, SCC, DLC and NT never select the return. Facts: llvm-mc 22
//! (`buffer_atomic_add v5, off, s[8:11], s3 glc` assembles for gfx900, gfx90a and gfx1100
//! and is rejected for gfx942/gfx950, which take `sc0`, both at bit 14 =
//! `[0x00,0x40,...]`; `sc1` is bit 15 = `[0x00,0x80,...]`), AMD's CDNA4 guide ("iff the SC0
//! bit is set") and RDNA3.5 guide ("iff the GLC bit is set").
//!
//! A sentence is read only when it names one bit, says the value is returned, and every
//! other word is one of the condition's frame words below (`not`, `unless`, `clear` are not:
//! such a sentence is unchecked). RDNA 4 and later select the return with the TH field's
//! value, which this check does not read.

use super::{is_buffer, lower, Body, Ctx};
use crate::spec::Entry;
use gcnsmt_semantics::target::Target;
use regex::Regex;

pub(super) const KIND: &str = "return-bit";

const BITS: &[&str] = &["GLC", "SC0", "SC1", "SLC", "SCC", "DLC", "NT"];

const FRAME: &[&str] = &[
    "if",
    "iff",
    "when",
    "whenever",
    "only",
    "the",
    "a",
    "bit",
    "flag",
    "field",
    "modifier",
    "is",
    "set",
    "return",
    "returns",
    "returned",
    "pre-op",
    "pre-operation",
    "original",
    "previous",
    "old",
    "value",
    "to",
    "in",
    "into",
    "vdata",
    "vdst",
    "return_data",
    "from",
    "memory",
    "resource",
    "srsrc",
    "otherwise",
    "keep",
    "keeps",
    "kept",
    "unchanged",
    "data",
    "loaded",
    "of",
    "and",
    "then",
    "store",
    "stores",
    "stored",
    "write",
    "writes",
    "written",
    "instruction",
    "register",
    "location",
    "its",
    "it",
    "atomic",
    "operation",
    "be",
    "will",
    "that",
    "this",
    "with",
    "value's",
    "1",
    "one",
    "contents",
    "buffer",
];

/// The return-bit names of `t`, or `None` where the return is not selected by one bit.
fn return_bit(t: Target) -> Option<&'static str> {
    match t {
        Target::Gfx942 | Target::Gfx950 => Some("SC0"),
        Target::Gfx1200 | Target::Gfx1250 => None,
        _ => Some("GLC"),
    }
}

/// Bit position and meaning of `name` on `t`, for the evidence.
fn what(name: &str, t: Target) -> String {
    let cdna3 = matches!(t, Target::Gfx942 | Target::Gfx950);
    match name {
        "GLC" | "SC0" => "bit 14".into(),
        "SC1" if cdna3 => "bit 15, a cache-scope bit".into(),
        "SCC" if t == Target::Gfx90a => "bit 15, the system-coherence bit".into(),
        _ => format!("no bit that selects the return on {t}"),
    }
}

/// The sentence of `text` around byte `at`, and the byte where it starts.
fn sentence(text: &str, at: usize) -> (usize, &str) {
    let stop = |w: &[u8]| w[0] == b'.' && w[1].is_ascii_whitespace();
    let b = text.as_bytes();
    let start = b[..at].windows(2).rposition(stop).map_or(0, |i| i + 2);
    let end = b[at..]
        .windows(2)
        .position(stop)
        .map_or(text.len(), |i| at + i + 1);
    (start, text[start..end].trim())
}

/// Whether the words say the pre-op value comes back: a `return` word, or `written`/`writes`
/// with the destination register named (`is written to VDATA[31:0] only when ...`).
fn says_return(words: &[String]) -> bool {
    words.iter().any(|w| w.starts_with("return"))
        || (words.iter().any(|w| w == "written" || w == "writes")
            && words
                .iter()
                .any(|w| w == "vdata" || w == "vdst" || w == "return_data"))
}

/// Words an `otherwise` clause may add to the frame: it says the destination is left alone
/// when the bit is clear (`otherwise VDATA is not written`, `otherwise nothing is returned`),
/// which is the condition read the other way, not a second condition.
const ELSE_FRAME: &[&str] = &[
    "not",
    "nothing",
    "no",
    "left",
    "untouched",
    "modified",
    "changed",
];

/// Whether `s` is a return condition read whole: a return word, one bit, frame words only;
/// an `otherwise` clause after it may only say that nothing is returned (a negation or a
/// keep word, frame words, and no bit).
fn covered(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    if let Some(at) = lower.find("otherwise") {
        let (cond, other) = (&s[..at], &s[at + "otherwise".len()..]);
        let words = words_of(other);
        let says_none = words.iter().any(|w| {
            [
                "not",
                "nothing",
                "no",
                "keep",
                "keeps",
                "kept",
                "unchanged",
                "untouched",
            ]
            .contains(&w.as_str())
        });
        let frame = words.iter().all(|w| {
            (FRAME.contains(&w.as_str()) || ELSE_FRAME.contains(&w.as_str()))
                && !BITS.iter().any(|b| b.eq_ignore_ascii_case(w))
        });
        return says_none && frame && covered_whole(cond);
    }
    covered_whole(s)
}

/// The words of `s`, lower case, without bit ranges (`VDATA[31:0]` names where, not when).
fn words_of(s: &str) -> Vec<String> {
    s.split(|c: char| {
        c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '.' | ':' | '[' | ']')
    })
    .filter(|w| !w.is_empty() && !w.chars().all(|c| c.is_ascii_digit()))
    .map(str::to_ascii_lowercase)
    .collect()
}

/// [`covered`] for a sentence with no `otherwise` clause.
fn covered_whole(s: &str) -> bool {
    let words: Vec<String> = s
        .split(|c: char| {
            c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '.' | ':' | '[' | ']')
        })
        // A bit range of the destination (`VDATA[31:0]`) names where, not when.
        .filter(|w| !w.is_empty() && !w.chars().all(|c| c.is_ascii_digit()))
        .map(str::to_ascii_lowercase)
        .collect();
    let bits = words
        .iter()
        .filter(|w| BITS.iter().any(|b| b.eq_ignore_ascii_case(w)))
        .count();
    let ret = says_return(&words);
    let frame = words
        .iter()
        .all(|w| FRAME.contains(&w.as_str()) || BITS.iter().any(|b| b.eq_ignore_ascii_case(w)));
    bits == 1 && ret && frame
}

/// The return condition of a buffer atomic's description against its generations.
pub(super) fn check(c: &mut Ctx, e: &Entry, _body: &mut Body) {
    let Some(d) = &e.description else { return };
    if !is_buffer(e) || !lower(&e.name).starts_with("buffer_atomic") {
        return;
    }
    let re = Regex::new(r"\b(GLC|SC0|SC1|SLC|SCC|DLC|NT)\b").expect("valid");
    // The first sentence that names a bit and a return.
    let Some(m) = re.find_iter(&d.value).find(|m| {
        let s = sentence(&d.value, m.start()).1.to_ascii_lowercase();
        let words: Vec<String> = s
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map(str::to_string)
            .collect();
        s.contains("return") || says_return(&words)
    }) else {
        return;
    };
    let (start, s) = sentence(&d.value, m.start());
    let line = d.line + d.value[..start].matches('\n').count() as u32;
    let s_one = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if !covered(s) {
        let r = format!("return condition not covered by the reader: \"{s_one}\"");
        return c.skip(KIND, line, Some(&e.name), r);
    }
    let name = m.as_str();
    for t in c.targets(e) {
        let Some(want) = return_bit(t) else {
            let r = format!("{t} selects the return by the TH field's value, not read");
            return c.skip(KIND, line, Some(&e.name), r);
        };
        if name == want {
            continue;
        }
        if t == Target::Gfx90a && name == "SC0" {
            // LLVM 22 names gfx90a's bit 14 `glc`; AMD's later guides call the same bit SC0.
            let r = "gfx90a: SC0 is the later guides' name of GLC (bit 14)".to_string();
            return c.skip(KIND, line, Some(&e.name), r);
        }
        let truth = format!(
            "on {t} an atomic returns the pre-op value iff {want} (bit 14) is set; {name} is {}",
            what(name, t)
        );
        let ev = vec![(
            "llvm-mc 22".to_string(),
            format!(
                "{} accepts `{}` at bit 14 for buffer_atomic_add (encoding [0x00,0x40,0x08,0xe1,...] on GCN/CDNA)",
                t,
                want.to_ascii_lowercase()
            ),
        )];
        let claim = format!("description: \"{s_one}\"");
        return c.find(KIND, line, Some(&e.name), Some(t), claim, truth, ev);
    }
    c.ok(KIND);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_read_whole_or_not_at_all() {
        assert!(covered(
            "If GLC flag is set then return previous value from resource to VDATA, otherwise keep VDATA value."
        ));
        assert!(covered("Returns the pre-op value to VDATA iff SC1 is set."));
        assert!(!covered("Returns the pre-op value unless SC0 is not set."));
        assert!(!covered("Returns the value if SC0 or SC1 is set."));
        // An `otherwise` clause that says nothing comes back is the same condition.
        assert!(covered(
            "The original memory value is returned to VDATA[31:0] if the GLC bit is set; otherwise VDATA is not written."
        ));
        assert!(covered(
            "Returns the old value if SC0 is set, otherwise nothing is returned."
        ));
        // One that returns anyway, or names a bit, is not read.
        assert!(!covered(
            "Returns the old value if GLC is set, otherwise the value is returned."
        ));
        assert!(!covered(
            "Returns the old value if GLC is set, otherwise not if SC1 is set."
        ));
    }

    #[test]
    fn the_bit_by_generation() {
        // llvm-mc 22 runs in the module docs.
        assert_eq!(return_bit(Target::Gfx900), Some("GLC"));
        assert_eq!(return_bit(Target::Gfx90a), Some("GLC"));
        assert_eq!(return_bit(Target::Gfx950), Some("SC0"));
        assert_eq!(return_bit(Target::Gfx1150), Some("GLC"));
        assert_eq!(return_bit(Target::Gfx1200), None);
    }
}
