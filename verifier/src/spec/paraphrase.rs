//! A paraphrase-tolerant reader of DS descriptions: the guides' phrasing of single-address
//! DS operations ("Add DATA0 to the value in the data share", "Keep the smaller of ...",
//! "If the memory value equals DATA1, replace it with DATA0", "Increments ..., wrapping to
//! zero once it reaches DATA0", "the old value is returned in VDST") read into the same IR
//! as [`super::prose`]: the new memory value over `tmp` (the loaded value), `DATA0` and
//! `DATA1`, and whether the old value is returned.
//!
//! The reader is a small grammar over words, not a list of sentences: each word is tagged
//! with a concept ([`Tag`]: an operation, an operand, memory, a role word of a comparison,
//! a return), and a sentence reads as an operation when it has one operation concept, whose
//! operands take their roles from the role words nearest to them (`subtract X from Y`,
//! `compare ... with X ... store Y`). Synonyms and word order within those rules do not
//! matter. A sentence with no concept, or with two operations that conflict, is not read
//! and is returned in [`Paraphrase::unread`], so the check lists it; a description with no
//! operation at all is not read (the error names its sentences).

use super::prose::Reading;

/// A description read by the grammar, with the sentences it did not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paraphrase {
    /// What the description says, in the IR of [`super::prose`].
    pub reading: Reading,
    /// The sentences that said nothing the grammar reads, as the document writes them
    /// (white-space runs joined).
    pub unread: Vec<String>,
}

/// The operation a sentence names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Add,
    Sub,
    Inc,
    Dec,
    Min,
    Max,
    And,
    Or,
    Xor,
    Swap,
    CmpSwap,
    Store,
}

/// The concept of one word (or of a short run of words) of a sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tag {
    Op(Op),
    /// `DATA0`/`VDATA0`/`DATA` (0) or `DATA1`/`VDATA1`/`DATA2` (1).
    Data(u8),
    /// The memory location (`memory`, `LDS`, `data share`, `location`, `address`).
    Mem,
    /// `from` (the minuend follows it).
    From,
    /// A comparison word (`compare`, `equals`, `equal`, `matches`).
    Cmp,
    /// A word that puts a value into memory (`store`, `write`, `replace`).
    Put,
    /// The old value is returned (`return`, `VDST`, `receives`).
    Ret,
    Signed,
    Unsigned,
    /// Words of the wrap of increment/decrement (`wrap`, `wraparound`).
    Wrap,
    Zero,
    /// `greater than or equal`, `reaches`, `at least`: the increment's wrap test.
    AtLeast,
    /// `zero or greater than`: the decrement's wrap test.
    ZeroOrAbove,
    /// Words the size check reads (`stride`, `element`, `offset`, `units`).
    Size,
    /// A word that says the operation is atomic.
    Atomic,
    /// `by` after `increase`/`decrease`: the amount follows it.
    By,
    /// `by one`: the operation adds or subtracts one (an increment or decrement).
    Step,
    /// Words read and meaning nothing for the operation (`bit by bit`).
    Filler,
}

/// Split `text` into sentences as written (white-space runs joined).
fn sentences(text: &str) -> Vec<String> {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = joined.chars().collect();
    for (i, &ch) in chars.iter().enumerate() {
        cur.push(ch);
        let end = ch == '.' && chars.get(i + 1).is_none_or(|n| *n == ' ');
        if end {
            let s = cur.trim().trim_end_matches('.').trim().to_string();
            if !s.is_empty() {
                out.push(s);
            }
            cur.clear();
        }
    }
    let s = cur.trim().to_string();
    if !s.is_empty() {
        out.push(s);
    }
    out
}

/// The words of a sentence, punctuation split off (`;` and `,` are kept as words, since
/// they end a clause).
fn words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    for w in s.split_whitespace() {
        let w = w.trim_matches(|c: char| matches!(c, '(' | ')' | '"' | '\''));
        let (body, tail) = match w.strip_suffix([',', ';', ':']) {
            Some(b) => (b, Some(&w[w.len() - 1..])),
            None => (w, None),
        };
        if !body.is_empty() {
            out.push(body.to_string());
        }
        if let Some(t) = tail {
            out.push(t.to_string());
        }
    }
    out
}

/// Tag the words of a sentence: (word index, tag; multi-word concepts tag their first word),
/// and for each word whether a concept covers it (a word of a multi-word concept
/// is covered by it; a word the grammar steps over is not).
fn tag_spans(ws: &[String]) -> (Vec<(usize, Tag)>, Vec<bool>) {
    let mut covered = vec![false; ws.len()];
    let lw: Vec<String> = ws.iter().map(|w| w.to_ascii_lowercase()).collect();
    let at = |i: usize, k: usize| -> &str { lw.get(i + k).map_or("", String::as_str) };
    let mut out = Vec::new();
    let mut i = 0;
    while i < ws.len() {
        let w = ws[i].as_str();
        let l = lw[i].as_str();
        let one = |t: Tag| (1usize, Some(t));
        let (n, t) = match w {
            // Register names are upper case in the guides: `DATA` the register, `data` prose.
            "DATA0" | "VDATA0" | "DATA" | "VDATA" => one(Tag::Data(0)),
            "DATA1" | "VDATA1" | "DATA2" => one(Tag::Data(1)),
            "VDST" | "RETURN_DATA" => one(Tag::Ret),
            "AND" => one(Tag::Op(Op::And)),
            "OR" => one(Tag::Op(Op::Or)),
            "XOR" => one(Tag::Op(Op::Xor)),
            _ => match l {
                "add" | "adds" | "added" | "adding" if matches!(at(i, 1), "one" | "1") => {
                    (2, Some(Tag::Op(Op::Inc)))
                }
                "subtract" | "subtracts" | "subtracted" | "subtracting"
                    if matches!(at(i, 1), "one" | "1") =>
                {
                    (2, Some(Tag::Op(Op::Dec)))
                }
                "add" | "adds" | "added" | "adding" | "sum" | "plus" | "increase" | "increases"
                | "increased" => one(Tag::Op(Op::Add)),
                "decrease" | "decreases" | "decreased" | "reduce" | "reduces" | "reduced" => {
                    one(Tag::Op(Op::Sub))
                }
                // `by one` is the step of an increment or decrement; `bit by bit` says
                // what a bitwise operation is.
                "by" if matches!(at(i, 1), "one" | "1") => (2, Some(Tag::Step)),
                "bit" if at(i, 1) == "by" && at(i, 2) == "bit" => (3, Some(Tag::Filler)),
                "by" => one(Tag::By),
                "subtract" | "subtracts" | "subtracted" | "subtracting" | "minus"
                | "difference" => one(Tag::Op(Op::Sub)),
                "increment" | "increments" | "incremented" | "incrementing" => {
                    one(Tag::Op(Op::Inc))
                }
                "decrement" | "decrements" | "decremented" | "decrementing" => {
                    one(Tag::Op(Op::Dec))
                }
                "minimum" | "min" | "smaller" | "smallest" | "lesser" | "least" | "lowest" => {
                    one(Tag::Op(Op::Min))
                }
                "maximum" | "max" | "larger" | "largest" | "greatest" | "bigger" | "biggest"
                | "highest" => one(Tag::Op(Op::Max)),
                // `greater than or equal` is the increment's wrap test; `greater` alone, or
                // `whichever is greater`, names the maximum.
                "greater" if at(i, 1) == "than" && at(i, 2) == "or" && at(i, 3) == "equal" => {
                    (4, Some(Tag::AtLeast))
                }
                "greater" if at(i, 1) == "than" => (2, None),
                "greater" => one(Tag::Op(Op::Max)),
                "reaches" | "reach" => one(Tag::AtLeast),
                "at" if at(i, 1) == "least" => (2, Some(Tag::AtLeast)),
                "zero" | "0" if at(i, 1) == "or" && at(i, 2) == "greater" && at(i, 3) == "than" => {
                    (4, Some(Tag::ZeroOrAbove))
                }
                "zero" | "0" => one(Tag::Zero),
                "bitwise" | "logical" | "bit-wise" => match at(i, 1) {
                    "and" => (2, Some(Tag::Op(Op::And))),
                    "or" => (2, Some(Tag::Op(Op::Or))),
                    "xor" | "exclusive-or" => (2, Some(Tag::Op(Op::Xor))),
                    _ => (1, None),
                },
                "xor" | "exclusive-or" | "xors" => one(Tag::Op(Op::Xor)),
                "exclusive" if at(i, 1) == "or" => (2, Some(Tag::Op(Op::Xor))),
                "swap" | "swaps" | "exchange" | "exchanges" => one(Tag::Op(Op::Swap)),
                "compare" | "compares" | "compared" | "equals" | "equal" | "matches" => {
                    one(Tag::Cmp)
                }
                "store" | "stores" | "stored" | "write" | "writes" | "written" | "replace"
                | "replaces" | "replaced" | "put" | "keep" | "kept" | "keeps" => one(Tag::Put),
                "memory" | "lds" | "gds" | "lds/gds" | "location" | "address" | "dword"
                | "qword" => one(Tag::Mem),
                "data" if at(i, 1) == "share" => (2, Some(Tag::Mem)),
                // AMD's "a value in the data register" for the one data operand.
                "data" if at(i, 1) == "register" => (2, Some(Tag::Data(0))),
                "from" => one(Tag::From),
                "return" | "returns" | "returned" | "receives" | "receive" => one(Tag::Ret),
                "signed" => one(Tag::Signed),
                "unsigned" => one(Tag::Unsigned),
                "wrap" | "wraps" | "wrapping" | "wraparound" | "wrapped" => one(Tag::Wrap),
                "stride" | "element" | "elements" | "units" | "offset" | "offsets" | "index" => {
                    one(Tag::Size)
                }
                "atomic" | "atomically" => one(Tag::Atomic),
                _ => (1, None),
            },
        };
        if let Some(t) = t {
            out.push((i, t));
            for c in covered.iter_mut().skip(i).take(n) {
                *c = true;
            }
        }
        i += n;
    }
    (out, covered)
}

/// The operands of a sentence that the role words before them give: the first operand (or
/// memory) after a `subtract` and before `from` is the subtrahend, the first after `from`
/// the minuend.
fn sub_order(tags: &[(usize, Tag)]) -> Option<String> {
    let val = |t: &Tag| match t {
        Tag::Data(k) => Some(format!("DATA{k}.T")),
        Tag::Mem => Some("tmp".to_string()),
        _ => None,
    };
    let s = tags.iter().position(|(_, t)| *t == Tag::Op(Op::Sub))?;
    let f = tags[s..].iter().position(|(_, t)| *t == Tag::From)? + s;
    let x = tags[s + 1..f].iter().find_map(|(_, t)| val(t))?;
    let y = tags[f + 1..].iter().find_map(|(_, t)| val(t))?;
    (x != y).then(|| format!("{y} - {x}"))
}

/// `decrease Y by X` and `increase Y by X`: (Y, X), where Y must be the memory value and X
/// a data operand, each the only value named on its side of `by`.
fn by_order(tags: &[(usize, Tag)]) -> Option<(String, String)> {
    let b = tags.iter().position(|(_, t)| *t == Tag::By)?;
    let before: Vec<&Tag> = tags[..b]
        .iter()
        .map(|(_, t)| t)
        .filter(|t| matches!(t, Tag::Data(_) | Tag::Mem))
        .collect();
    let after: Vec<&Tag> = tags[b + 1..]
        .iter()
        .map(|(_, t)| t)
        .filter(|t| matches!(t, Tag::Data(_) | Tag::Mem))
        .collect();
    match (before.as_slice(), after.as_slice()) {
        ([Tag::Mem, ..], [Tag::Data(k)]) if before.iter().all(|t| **t == Tag::Mem) => {
            Some(("tmp".into(), format!("DATA{k}.T")))
        }
        _ => None,
    }
}

/// A masked OR stated in two clauses, each naming one data operand and what it does to the
/// memory value's bits: "the bits set in VDATA0 are cleared first, then the bits set in
/// VDATA1 are set" is `(tmp & ~DATA0) | DATA1`; the clauses in the other order,
/// `(tmp | DATA1) & ~DATA0`. Every word must be a clause's operand, its verb or a word of
/// the clause frame (`the bits set in`, `are`, `first`, `then`), else `None`.
fn mask_or(ws: &[String]) -> Option<String> {
    const FRAME: &[&str] = &[
        "the", "bits", "bit", "set", "in", "of", "are", "is", "first", "then", "that", "and",
        "memory", "value", "lds", "location",
    ];
    let mut clauses: Vec<(bool, u8)> = Vec::new();
    for clause in ws.split(|w| matches!(w.as_str(), "," | ";" | "then")) {
        let lw: Vec<String> = clause.iter().map(|w| w.to_ascii_lowercase()).collect();
        if lw.is_empty() {
            continue;
        }
        let clear = lw
            .iter()
            .any(|w| matches!(w.as_str(), "clear" | "clears" | "cleared" | "zeroed"));
        // `set` is the verb when it ends the clause (`are set`) or starts it (`set the
        // bits of X`); inside `the bits set in X` it only names the bits.
        // (`first` after the verb says the order, which the clause order already gives.)
        let verb_end = lw.iter().rev().find(|w| *w != "first")?;
        let set = !clear && (verb_end == "set" || matches!(lw[0].as_str(), "set" | "sets"));
        let datas: Vec<u8> = clause
            .iter()
            .filter_map(|w| match w.as_str() {
                "DATA0" | "VDATA0" | "DATA" => Some(0),
                "DATA1" | "VDATA1" | "DATA2" => Some(1),
                _ => None,
            })
            .collect();
        let other = lw.iter().zip(clause).any(|(l, w)| {
            !FRAME.contains(&l.as_str())
                && !matches!(
                    l.as_str(),
                    "clear" | "clears" | "cleared" | "zeroed" | "sets"
                )
                && !matches!(
                    w.as_str(),
                    "DATA0" | "VDATA0" | "DATA" | "DATA1" | "VDATA1" | "DATA2"
                )
        });
        match datas.as_slice() {
            [d] if (clear || set) && !other => clauses.push((clear, *d)),
            _ => return None,
        }
    }
    match clauses.as_slice() {
        [(true, a), (false, b)] if a != b => Some(format!("(tmp & ~DATA{a}.T) | DATA{b}.T")),
        [(false, b), (true, a)] if a != b => Some(format!("(tmp | DATA{b}.T) & ~DATA{a}.T")),
        _ => None,
    }
}

/// The compare and source operands of a compare-and-store sentence: each data operand takes
/// the role of the nearest role word before it (a comparison word or a word that stores),
/// or, with none before, of the nearest after it.
fn cmp_roles(tags: &[(usize, Tag)]) -> Option<(u8, u8)> {
    let mut cmp = None;
    let mut src = None;
    for (k, (_, t)) in tags.iter().enumerate() {
        let Tag::Data(d) = t else { continue };
        let role = |t: &(usize, Tag)| match t.1 {
            Tag::Cmp => Some(true),
            Tag::Put => Some(false),
            _ => None,
        };
        let r = tags[..k]
            .iter()
            .rev()
            .find_map(role)
            .or_else(|| tags[k + 1..].iter().find_map(role));
        match r {
            Some(true) if cmp.is_none() => cmp = Some(*d),
            Some(false) if src.is_none() => src = Some(*d),
            _ => return None,
        }
    }
    let (c, s) = (cmp?, src?);
    (c != s).then_some((c, s))
}

/// The one operation the tags name; `None` if none, `Err` when two conflict.
fn operation(tags: &[(usize, Tag)]) -> Result<Option<Op>, ()> {
    let step = tags.iter().any(|(_, t)| *t == Tag::Step);
    let ops: Vec<Op> = tags
        .iter()
        .filter_map(|(_, t)| if let Tag::Op(o) = t { Some(*o) } else { None })
        // `increase/decrease ... by one` and `decrement ... by one` step by one.
        .map(|o| match o {
            Op::Add if step => Op::Inc,
            Op::Sub if step => Op::Dec,
            o => o,
        })
        .collect();
    let has = |t: Tag| tags.iter().any(|(_, x)| *x == t);
    let datas: Vec<u8> = tags
        .iter()
        .filter_map(|(_, t)| if let Tag::Data(d) = t { Some(*d) } else { None })
        .collect();
    // Increment and decrement name their wrap test with comparison words; they decide.
    let main = if ops.contains(&Op::Inc) || ops.contains(&Op::Dec) {
        ops.iter()
            .copied()
            .filter(|o| matches!(o, Op::Inc | Op::Dec))
            .collect()
    } else {
        ops
    };
    match main.as_slice() {
        [] if has(Tag::Cmp) && datas.contains(&0) && datas.contains(&1) => Ok(Some(Op::CmpSwap)),
        [] if has(Tag::Put) && datas.len() == 1 && has(Tag::Mem) && !has(Tag::Cmp) => {
            Ok(Some(Op::Store))
        }
        [] => Ok(None),
        [o, rest @ ..] if rest.iter().all(|r| r == o) => Ok(Some(*o)),
        _ => Err(()),
    }
}

/// The data operand a sentence names (the first): a register name, or "the data register"
/// for the one data operand; `None` when it names none (another memory value, for one).
fn operand(tags: &[(usize, Tag)]) -> Option<u8> {
    tags.iter().find_map(|(_, t)| match t {
        Tag::Data(d) => Some(*d),
        _ => None,
    })
}

/// The new memory value of `op` as one sentence states it, over `tmp` and `DATAk.T`.
fn new_value(op: Op, tags: &[(usize, Tag)]) -> Option<String> {
    let has = |t: Tag| tags.iter().any(|(_, x)| *x == t);
    let d = format!("DATA{}.T", operand(tags)?);
    if has(Tag::By) {
        // `increase/decrease Y by X`: only the memory value by a named operand is read.
        // `replaced by X` is the passive of a store, whose roles the role words give; with
        // any other operation `by` names an amount the reading has no place for.
        match op {
            Op::Add | Op::Sub => {
                let (y, x) = by_order(tags)?;
                let sign = if op == Op::Add { '+' } else { '-' };
                return Some(format!("{y} {sign} {x}"));
            }
            Op::CmpSwap | Op::Store | Op::Swap => {}
            _ => return None,
        }
    }
    Some(match op {
        Op::Add => format!("tmp + {d}"),
        Op::Sub => sub_order(tags).unwrap_or(format!("tmp - {d}")),
        Op::And => format!("tmp & {d}"),
        Op::Or => format!("tmp | {d}"),
        Op::Xor => format!("tmp ^ {d}"),
        Op::Min => format!("{d} < tmp ? {d} : tmp"),
        Op::Max => format!("{d} > tmp ? {d} : tmp"),
        Op::Swap | Op::Store => d,
        Op::CmpSwap => {
            let (c, s) = cmp_roles(tags)?;
            format!("(tmp == DATA{c}.T) ? DATA{s}.T : tmp")
        }
        Op::Inc | Op::Dec => {
            let step = if op == Op::Inc { "tmp + 1" } else { "tmp - 1" };
            // The wrap test and value as stated, else the guides' own for the operation.
            let test = if has(Tag::ZeroOrAbove) || !has(Tag::AtLeast) && op == Op::Dec {
                format!("tmp == 0 || tmp > {d}")
            } else {
                format!("tmp >= {d}")
            };
            let wrap_pos = tags.iter().position(|(_, t)| *t == Tag::Wrap);
            let wrap_to = wrap_pos.and_then(|p| {
                tags[p + 1..].iter().find_map(|(_, t)| match t {
                    Tag::Zero => Some("0".to_string()),
                    Tag::Data(k) => Some(format!("DATA{k}.T")),
                    _ => None,
                })
            });
            let wrap = wrap_to.unwrap_or(if op == Op::Inc { "0".into() } else { d.clone() });
            format!("({test}) ? {wrap} : {step}")
        }
    })
}

/// Read `description`, of a single-address DS instruction of element type `ty` (`u32`).
///
/// Errors: no sentence names an operation the grammar reads, or two sentences name
/// different ones; the error quotes the sentences as written.
pub fn read(description: &str, ty: &str) -> Result<Paraphrase, String> {
    // The reading is of one element at ADDR + OFFSET; a description of another address
    // (`SRC2`'s "address A and B", ADDTID's `M0` and lane id) says something else.
    let other_address = ["address A", "address B", "M0", "LANEID", "LANE_ID", "lane"]
        .iter()
        .find(|w| description.contains(*w));
    if let Some(w) = other_address {
        return Err(format!(
            "the address is not ADDR + OFFSET (the description names `{w}`)"
        ));
    }
    let mut unread = Vec::new();
    let mut value: Option<(String, String)> = None;
    let mut last_op: Option<Op> = None;
    let mut returns = false;
    let mut signed: Option<bool> = None;
    let mut role_only: Option<String> = None;
    for s in sentences(description) {
        let ws = words(&s);
        let (tags, covered) = tag_spans(&ws);
        let has = |t: Tag| tags.iter().any(|(_, x)| *x == t);
        // A sentence the grammar does not cover word for word is not read, and neither is
        // the description: a part read alone can say the opposite of the whole. Sentences
        // about sizes are the size check's, which reads them itself.
        if let Some(nv) = mask_or(&ws) {
            if value.as_ref().is_some_and(|(v, _)| *v != nv) {
                return Err(format!("a second operation: \"{s}\""));
            }
            value = Some((nv, s));
            continue;
        }
        let mut rest = super::cover::uncovered(&ws, &covered, ty);
        if has(Tag::Ret) && operation(&tags).ok().flatten().is_none() {
            // "The value before the operation is returned": the old value, as `returned`
            // already says; `after` is not excused.
            rest.retain(|w| !w.eq_ignore_ascii_case("before"));
        }
        let sizes_only = has(Tag::Size) && operation(&tags).ok().flatten().is_none();
        if !rest.is_empty() && !sizes_only {
            return Err(format!(
                "sentence not covered by the grammar (words {}): \"{s}\"",
                rest.iter()
                    .map(|w| format!("`{w}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        returns |= has(Tag::Ret);
        if has(Tag::Signed) {
            signed = Some(true);
        } else if has(Tag::Unsigned) {
            signed = Some(false);
        }
        match operation(&tags) {
            Err(()) => return Err(format!("two operations in one sentence: \"{s}\"")),
            Ok(Some(op)) => {
                // Float arithmetic and min/max follow IEEE rules (NaN, signed zero) that no
                // wording here states; only moves are read for floats.
                if ty.starts_with('f') && !matches!(op, Op::Swap | Op::Store) {
                    return Err(format!("a float operation other than a move: \"{s}\""));
                }
                let Some(nv) = new_value(op, &tags) else {
                    // "Whichever is greater is stored": the operation again, without its
                    // operands, after a sentence that named them.
                    if last_op == Some(op) {
                        continue;
                    }
                    return Err(format!("the operands' roles are not clear: \"{s}\""));
                };
                last_op = Some(op);
                if value.as_ref().is_some_and(|(v, _)| *v != nv) {
                    return Err(format!("a second operation: \"{s}\""));
                }
                value = Some((nv, s));
            }
            Ok(None) if has(Tag::Cmp) && value.is_none() => {
                // A compare-and-store whose operands are named by role ("the data comparison
                // register"), which leaves open which register is which.
                role_only = Some(s);
            }
            Ok(None) => {
                let read_elsewhere = has(Tag::Ret) || has(Tag::Size) || has(Tag::Atomic);
                if !read_elsewhere {
                    unread.push(s);
                }
            }
        }
    }
    let Some((nv, _)) = value else {
        if let Some(s) = role_only {
            return Err(format!(
                "the compared and the stored value are not named by register: \"{s}\""
            ));
        }
        return Err(format!(
            "no sentence names an operation: {}",
            unread
                .iter()
                .map(|s| format!("\"{s}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    };
    let ty = match (signed, &ty[..1]) {
        (Some(true), "u") => format!("i{}", &ty[1..]),
        (Some(false), "i") => format!("u{}", &ty[1..]),
        _ => ty.to_string(),
    };
    Ok(Paraphrase {
        reading: Reading::rmw(&ty, &nv, returns),
        unread,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected readings written by hand from the English.
    fn nv(d: &str, ty: &str) -> String {
        read(d, ty).unwrap().reading.new_value
    }

    #[test]
    fn the_same_operation_in_other_words() {
        for d in [
            "Atomically add DATA0 to the unsigned 32-bit integer in the data share.",
            "Adds the value in the data share and DATA0, and stores the sum back.",
            "The sum of the dword in LDS and DATA0 is written back to LDS.",
        ] {
            assert_eq!(nv(d, "u32"), "tmp + DATA0.u32", "{d}");
        }
    }

    #[test]
    fn subtraction_reads_its_order() {
        assert_eq!(
            nv("Subtract DATA0 from the dword in LDS.", "u32"),
            "tmp - DATA0.u32"
        );
        assert_eq!(
            nv("Subtract the value in memory from DATA0.", "u32"),
            "DATA0.u32 - tmp"
        );
    }

    #[test]
    fn compare_and_store_roles_follow_the_words() {
        let a = "Compare the dword in memory with DATA0; if equal, store DATA1 there.";
        let b = "If the memory value equals DATA1, replace it with DATA0.";
        assert_eq!(nv(a, "b32"), "(tmp == DATA0.b32) ? DATA1.b32 : tmp");
        assert_eq!(nv(b, "b32"), "(tmp == DATA1.b32) ? DATA0.b32 : tmp");
    }

    #[test]
    fn minimum_maximum_increment_decrement() {
        assert_eq!(
            nv("Keep the smaller of the memory value and DATA0.", "u32"),
            "DATA0.u32 < tmp ? DATA0.u32 : tmp"
        );
        assert_eq!(
            nv(
                "Whichever of DATA0 and the signed memory value is greater is stored.",
                "u32"
            ),
            "DATA0.i32 > tmp ? DATA0.i32 : tmp"
        );
        assert_eq!(
            nv(
                "Add one to the dword, wrapping to zero once it reaches DATA0.",
                "u32"
            ),
            "(tmp >= DATA0.u32) ? 0 : tmp + 1"
        );
        assert_eq!(
            nv(
                "Decrement the dword, wrapping to DATA0 when it is zero or greater than DATA0.",
                "u32"
            ),
            "(tmp == 0 || tmp > DATA0.u32) ? DATA0.u32 : tmp - 1"
        );
    }

    #[test]
    fn partial_readings_are_no_readings() {
        // Each was once read from the words the grammar knew, stepping over the rest
        // (issue 32): now each is left unchecked.
        for d in [
            "Decrease the word in LDS by VDATA0 and store it.",
            "Add DATA0 to the dword in LDS only if it is not zero.",
            "Increment the dword; wrap to zero when it is greater than DATA0.",
            "Swap DATA0 with the high half of the dword.",
        ] {
            assert!(read(d, "u32").is_err(), "{d}");
        }
    }

    #[test]
    fn decrease_by_and_masked_or() {
        // Hand readings: decrease memory by X is tmp - X; clear the bits of DATA0, then set
        // those of DATA1, is (tmp & ~DATA0) | DATA1.
        assert_eq!(
            nv("Decrease the dword in LDS by DATA0.", "u32"),
            "tmp - DATA0.u32"
        );
        assert!(read("Decrease DATA0 by the dword in LDS.", "u32").is_err());
        assert_eq!(
            nv(
                "The bits set in VDATA0 are cleared first, then the bits set in VDATA1 are set.",
                "b32"
            ),
            "(tmp & ~DATA0.b32) | DATA1.b32"
        );
        assert_eq!(
            nv(
                "The bits set in VDATA1 are set first, then the bits set in VDATA0 are cleared.",
                "b32"
            ),
            "(tmp | DATA1.b32) & ~DATA0.b32"
        );
    }

    #[test]
    fn unread_sentences_are_listed_and_returns_read() {
        let p = read(
            "Add DATA0 to the dword in LDS. It is so. The old value is returned in VDST.",
            "u32",
        )
        .unwrap();
        assert_eq!(p.unread, vec!["It is so".to_string()]);
        assert!(read("Add DATA0 to the dword in LDS. This is fast.", "u32").is_err());
        assert!(p.reading.returns);
        assert!(read("Swizzle the lanes.", "b32").is_err());
        assert!(read("Add DATA0 and keep the larger value.", "u32").is_err());
    }
}
