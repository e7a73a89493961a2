//! Structure-aware stresses for fuzzing a text reader (issue 19): deep nesting of a
//! notation's own brackets, huge literals, long names, control characters and truncation,
//! placed at a random character or right after one of the notation's anchors. Shared by
//! `tests/tests/fuzz_struct.rs` (every reader in process) and `verifier/tests/fuzz_bin.rs`
//! (the `gcnsmt` binary on stressed files).

use proptest::prelude::*;
use proptest::sample::Index;

/// What a stress needs to know of a notation.
#[derive(Clone, Copy, Debug)]
pub struct Notation {
    /// Its brackets and prefix operators, `(open, close)` (`close` may be empty), for nesting.
    pub nests: &'static [(&'static str, &'static str)],
    /// Places where a stress is most likely to reach deep into the reader.
    pub anchors: &'static [&'static str],
}

/// One structure-aware change to a seed.
#[derive(Clone, Debug)]
pub enum Stress {
    /// `depth` copies of the notation's `pair`-th opener (and, if `balanced`, as many closers).
    Nest {
        /// Which of [`Notation::nests`].
        pair: Index,
        /// How many openers.
        depth: usize,
        /// Also as many closers (after an `x`), or the openers alone.
        balanced: bool,
    },
    /// A number of `digits` digits in one of several notations (decimal, hex, binary, float).
    Literal {
        /// The notation, 0 to 5.
        kind: u8,
        /// How many digits.
        digits: usize,
    },
    /// A name of `len` characters (letters, digits, `_`, or a register or MIR name).
    Name {
        /// The shape, 0 to 3.
        kind: u8,
        /// About how many characters.
        len: usize,
    },
    /// A control or otherwise awkward character, `count` times.
    Control {
        /// The character.
        ch: char,
        /// How many in a row.
        count: usize,
    },
    /// Cut the text here.
    Truncate,
}

/// The characters [`Stress::Control`] inserts.
pub const CONTROLS: &[char] = &[
    '\0',
    '\u{1}',
    '\u{7}',
    '\u{8}',
    '\t',
    '\r',
    '\u{b}',
    '\u{c}',
    '\u{1b}',
    '\u{7f}',
    '\u{85}',
    '\u{a0}',
    '\u{2028}',
    '\u{202e}',
    '\u{feff}',
    '\u{fffd}',
    'é',
    '\u{10ffff}',
];

/// Sizes spread over orders of magnitude: most cases small, some far past any sane input.
fn size() -> impl Strategy<Value = usize> {
    prop_oneof![
        6 => 1usize..20,
        3 => 20usize..400,
        2 => 400usize..5_000,
        1 => 5_000usize..60_000,
    ]
}

/// A stress, with sizes from a few to 60,000 characters.
pub fn stress() -> impl Strategy<Value = Stress> {
    prop_oneof![
        3 => (any::<Index>(), size(), any::<bool>())
            .prop_map(|(pair, depth, balanced)| Stress::Nest { pair, depth, balanced }),
        2 => (0u8..6, size()).prop_map(|(kind, digits)| Stress::Literal { kind, digits }),
        2 => (0u8..4, size()).prop_map(|(kind, len)| Stress::Name { kind, len }),
        2 => (prop::sample::select(CONTROLS), 1usize..4)
            .prop_map(|(ch, count)| Stress::Control { ch, count }),
        1 => Just(Stress::Truncate),
    ]
}

/// Where a stress goes: after the `k`-th occurrence of an anchor, or at a random character.
pub type Place = (bool, Index, Index);

/// A [`Place`] anywhere.
pub fn place() -> impl Strategy<Value = Place> {
    (any::<bool>(), any::<Index>(), any::<Index>())
}

/// The byte offset a [`Place`] names in `text` (always a character boundary).
fn offset(n: &Notation, text: &str, (at_anchor, a, b): Place) -> usize {
    if at_anchor && !n.anchors.is_empty() {
        let anchor = n.anchors[a.index(n.anchors.len())];
        let hits: Vec<usize> = text.match_indices(anchor).map(|(i, _)| i).collect();
        if !hits.is_empty() {
            return hits[b.index(hits.len())] + anchor.len();
        }
    }
    let bounds: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    bounds[b.index(bounds.len())]
}

fn literal(kind: u8, n: usize) -> String {
    match kind {
        0 => "9".repeat(n),
        1 => format!("0x{}", "f".repeat(n)),
        2 => format!("-{}", "8".repeat(n)),
        3 => format!("0b{}", "1".repeat(n)),
        4 => format!("1.{}e{}", "5".repeat(n / 2), "9".repeat(n / 2 + 1)),
        _ => format!("{}:{}", "4".repeat(n / 2 + 1), "2".repeat(n / 2 + 1)),
    }
}

fn name(kind: u8, len: usize) -> String {
    match kind {
        0 => format!("a{}", "b_9".repeat(len / 3 + 1)),
        1 => format!("DS_{}", "X".repeat(len)),
        2 => format!("v[{}]", "1".repeat(len)),
        _ => format!("%{}", "7".repeat(len)),
    }
}

/// `text` with the stresses applied in order, each at its place.
pub fn apply(n: &Notation, text: &str, stresses: &[(Stress, Place)]) -> String {
    let mut s = text.to_string();
    for (st, p) in stresses {
        let i = offset(n, &s, *p);
        let piece = match st {
            Stress::Nest {
                pair,
                depth,
                balanced,
            } => {
                let nests = n.nests;
                if nests.is_empty() {
                    continue;
                }
                let (open, close) = nests[pair.index(nests.len())];
                let inner = if *balanced {
                    close.repeat(*depth)
                } else {
                    String::new()
                };
                format!("{}x{inner}", open.repeat(*depth))
            }
            Stress::Literal { kind, digits } => literal(*kind, *digits),
            Stress::Name { kind, len } => name(*kind, *len),
            Stress::Control { ch, count } => ch.to_string().repeat(*count),
            Stress::Truncate => {
                s.truncate(i);
                continue;
            }
        };
        s.insert_str(i, &piece);
    }
    s
}

/// Nesting of the rule, pseudocode and assembly notations (operators, brackets, blocks).
const EXPR_NESTS: &[(&str, &str)] = &[
    ("(", ")"),
    ("[", "]"),
    ("{", "}"),
    ("-", ""),
    ("!", ""),
    ("~", ""),
    ("if 1 then\n", "\nendif\n"),
    ("for i in 0 : 1 do\n", "\nendfor\n"),
];

/// Rule files: `Pre:` conditions, immediates (`offset:`), register operands.
pub const RULES: Notation = Notation {
    nests: EXPR_NESTS,
    anchors: &[
        "Pre:", "->", "=", "offset:", "offset", "0x", "(", ",", "v[", "s[", "\n", ":",
    ],
};

/// Instruction pages (CLRX and reference pages): tables, C-like operation listings.
pub const PAGES: Notation = Notation {
    nests: &[
        ("(", ")"),
        ("[", "]"),
        ("{", "}"),
        ("if (1) {\n", "\n}\n"),
        ("| ", " |"),
    ],
    anchors: &["|", "Opcode", "Syntax", "=", "(", "\n", "0x"],
};
