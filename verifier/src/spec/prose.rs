//! A controlled-language reader for instruction descriptions: the small, regular vocabulary
//! of DS atomic and store descriptions ("Adds ...", "Subtract VDATA0 from ...", "If VDATA0
//! greater or equal and loaded unsigned value is zero, then increment value ..., otherwise
//! store VDATA0", "Operation is atomic", "returns the original value") lifted into AMD
//! pseudocode for one dword or qword at `CalcDsAddr(ADDR, OFFSET)`.
//!
//! A description with any sentence outside the vocabulary is not read at all: the reader
//! returns the first such sentence, which the check lists as unchecked, never as a finding.

use regex::Regex;
use std::sync::OnceLock;

/// A description read into pseudocode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// AMD pseudocode text for the body.
    pub pcode: String,
    /// The new memory value as the description states it, in pseudocode over `tmp` (the
    /// loaded value), `DATA0` and `DATA1`.
    pub new_value: String,
    /// Whether the description says the original value is returned.
    pub returns: bool,
}

impl Reading {
    /// The read-modify-write a DS atomic description states: the new value `nv` (over `tmp`,
    /// `DATA0`, `DATA1`, typed `.T`) stored at the computed address as type `ty`, and the old
    /// value returned when `returns`.
    pub fn rmw(ty: &str, nv: &str, returns: bool) -> Reading {
        let nv = nv.replace(".T", &format!(".{ty}"));
        let mut p = format!(
            "addr = CalcDsAddr(ADDR.b32, OFFSET.b32);\ntmp = MEM[addr].{ty};\nMEM[addr].{ty} = {nv}"
        );
        if returns {
            p.push_str(&format!(";\nRETURN_DATA.{ty} = tmp"));
        }
        Reading {
            pcode: p,
            new_value: nv,
            returns,
        }
    }
}

/// The pseudocode type of a mnemonic's element (`DS_DEC_U32` -> `u32`, `DS_MAX_I64` -> `i64`).
pub fn elem_type(mnemonic: &str) -> Option<String> {
    let last = mnemonic.rsplit('_').next()?.to_ascii_lowercase();
    let (k, w) = last.split_at(1);
    if !matches!(k, "u" | "i" | "b" | "f")
        || w.parse::<u32>()
            .ok()
            .filter(|w| [32, 64].contains(w))
            .is_none()
    {
        return None;
    }
    Some(last)
}

fn re(p: &str) -> Regex {
    Regex::new(p).expect("vocabulary patterns are valid")
}

struct Vocab {
    addr: Regex,
    space: Regex,
    cond_if: Regex,
    arith: Vec<(Regex, &'static str)>,
}

fn vocab() -> &'static Vocab {
    static V: OnceLock<Vocab> = OnceLock::new();
    V.get_or_init(|| Vocab {
        addr: re(r"\s*at (?:this same |this |the same )?address(?:\s*\([^)]*\)\s*(?:&\s*~\s*\d+)?)?"),
        space: re(r"\s+"),
        cond_if: re(r"^if (.+?),? then (.+?),? otherwise (.+)$"),
        arith: vec![
            (re(r"^adds? (?:unsigned |signed )?(?:\d+-bit )?(?:integer )?value from mem,? and vdata0,? and store (?:the )?result back to mem$"), "tmp + DATA0.T"),
            (re(r"^subtract vdata0 from (?:unsigned |signed )?(?:\d+-bit )?(?:integer )?value from mem,? and store (?:the )?result back to mem$"), "tmp - DATA0.T"),
            (re(r"^subtract (?:unsigned |signed )?(?:\d+-bit )?(?:integer )?value from mem from value in vdata0,? and store (?:the )?result back to mem$"), "DATA0.T - tmp"),
            (re(r"^do bitwise and operation? on (?:\d+-bit )?value from mem,? and value from vdata0;? and store (?:the )?result to mem$"), "tmp & DATA0.T"),
            (re(r"^do bitwise or operation? on (?:\d+-bit )?value from mem,? and value from vdata0;? and store (?:the )?result to mem$"), "tmp | DATA0.T"),
            (re(r"^do bitwise xor operation? on (?:\d+-bit )?value from mem,? and value from vdata0;? and store (?:the )?result to mem$"), "tmp ^ DATA0.T"),
            (re(r"^choose greatest (?:signed |unsigned )?(?:integer )?value from mem and vdata0,? and store (?:the )?result to mem$"), "DATA0.T > tmp ? DATA0.T : tmp"),
            (re(r"^choose smallest (?:signed |unsigned )?(?:integer )?value from mem and vdata0,? and store (?:the )?result to mem$"), "DATA0.T < tmp ? DATA0.T : tmp"),
            (re(r"^store (?:the )?(?:\d+-bit )?value from vdata0 into mem$"), "DATA0.T"),
        ],
    })
}

fn cond_atom(a: &str) -> Option<String> {
    let a = a.trim();
    let a = a.strip_prefix("the ").unwrap_or(a);
    let cmp = |rest: &str| -> Option<&'static str> {
        let r = rest.trim().strip_prefix("is ").unwrap_or(rest.trim());
        Some(match r {
            "greater" | "greater than" | "greater than loaded value" => ">",
            "greater or equal" | "greater than or equal" | "greater or equal to loaded value" => {
                ">="
            }
            "less" | "less than" => "<",
            "less or equal" | "less than or equal" => "<=",
            _ => return None,
        })
    };
    if let Some(rest) = a.strip_prefix("vdata0 ") {
        return cmp(rest).map(|op| format!("DATA0.T {op} tmp"));
    }
    let subject = [
        "loaded unsigned value",
        "loaded signed value",
        "loaded value",
        "value from mem",
    ];
    for s in subject {
        if let Some(rest) = a.strip_prefix(s) {
            return match rest.trim() {
                "is zero" => Some("tmp == 0".into()),
                "is not zero" | "is nonzero" | "is non-zero" => Some("tmp != 0".into()),
                _ => None,
            };
        }
    }
    if a == "values are equal" {
        return Some("tmp == DATA0.T".into());
    }
    None
}

fn cond(c: &str) -> Option<String> {
    // `and` binds tighter than `or`, as in C.
    let ors: Vec<String> = c
        .split(" or ")
        .map(|part| {
            part.split(" and ")
                .map(cond_atom)
                .collect::<Option<Vec<_>>>()
                .map(|v| v.join(" && "))
        })
        .collect::<Option<Vec<_>>>()
        .or_else(|| {
            // `greater or equal` contains ` or `: try the whole text as `and` atoms.
            c.split(" and ")
                .map(cond_atom)
                .collect::<Option<Vec<_>>>()
                .map(|v| vec![v.join(" && ")])
        })?;
    if ors.len() == 1 {
        return ors.into_iter().next();
    }
    Some(
        ors.iter()
            .map(|x| format!("({x})"))
            .collect::<Vec<_>>()
            .join(" || "),
    )
}

fn action(a: &str) -> Option<String> {
    let a = a.trim().trim_end_matches('.');
    let a = a
        .strip_suffix(" from mem")
        .or_else(|| a.strip_suffix(" to mem"))
        .or_else(|| a.strip_suffix(" in mem"))
        .unwrap_or(a);
    Some(match a {
        "increment value" | "increment the value" | "increment loaded value" => "tmp + 1".into(),
        "decrement value" | "decrement the value" | "decrement loaded value" => "tmp - 1".into(),
        "store vdata0" => "DATA0.T".into(),
        "store vdata1" => "DATA1.T".into(),
        "store 0" | "store zero" => "0".into(),
        "do nothing" => "tmp".into(),
        _ => return None,
    })
}

/// Read a description for a single-address DS instruction of element type `ty` (`u32`).
///
/// Errors: the first sentence outside the vocabulary, quoted as the document writes it (so a
/// writer can search for it; only runs of white space are joined).
pub fn read(description: &str, ty: &str) -> Result<Reading, String> {
    read_normalised(description, ty).map_err(|s| verbatim(description, &s))
}

/// The sentence of `description` that reads as `normalised` (lower-cased, addresses and
/// white-space runs removed), found by its position among the sentences; `normalised` itself
/// when the sentences do not line up.
fn verbatim(description: &str, normalised: &str) -> String {
    let v = vocab();
    let split = |t: &str| -> Vec<String> {
        t.split(". ")
            .map(|s| s.trim().trim_end_matches('.').trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    };
    let joined = description.split_whitespace().collect::<Vec<_>>().join(" ");
    let orig = split(&joined);
    let lower = joined.to_ascii_lowercase().replace("lds/gds", "mem");
    let norm = split(
        &v.addr
            .replace_all(&lower, "")
            .replace("operatin ", "operation "),
    );
    match norm.iter().position(|s| s == normalised) {
        Some(k) if norm.len() == orig.len() => orig[k].clone(),
        _ => normalised.to_string(),
    }
}

fn read_normalised(description: &str, ty: &str) -> Result<Reading, String> {
    let v = vocab();
    let lower = description.to_ascii_lowercase().replace("lds/gds", "mem");
    let text = v.space.replace_all(&lower, " ");
    let text = v.addr.replace_all(&text, "");
    let text = text.replace("operatin ", "operation ");
    let mut new_value: Option<String> = None;
    let mut returns = false;
    let sentences: Vec<&str> = text
        .split(". ")
        .map(|s| s.trim().trim_end_matches('.').trim())
        .filter(|s| !s.is_empty())
        .collect();
    for s in sentences {
        if s == "operation is atomic"
            || s == "load first argument from mem"
            || s == "second and third arguments are from vdata0 and vdata1"
            || s == "result is stored in mem"
        {
            continue;
        }
        // DS_MSKOR: "keeps all bits that is zeroed in second argument, and set all bits from
        // third argument" (second = VDATA0, third = VDATA1 by the sentence before).
        if s.starts_with("the instruction keeps all bits that") {
            let rest = s.trim_start_matches("the instruction keeps all bits that");
            if matches!(
                rest.trim(),
                "is zeroed in second argument, and set all bits from third argument"
                    | "are zeroed in second argument, and sets all bits from third argument"
                    | "are zeroed in second argument, and set all bits from third argument"
            ) && new_value.is_none()
            {
                new_value = Some("(tmp & ~DATA0.T) | DATA1.T".into());
                continue;
            }
            return Err(s.to_string());
        }
        if s.starts_with("previous value from mem")
            && (s.ends_with("stored in vdst") || s.ends_with("returned in vdst"))
            || s == "returns the original value"
            || s == "return the original value"
        {
            returns = true;
            continue;
        }
        // "Load unsigned value from MEM, and compare with unsigned value from VDATA0" sets
        // the scene for the conditional that follows.
        if s.starts_with("load ")
            && (s.ends_with("value from mem") || s.contains("compare with"))
            && !s.contains(" then ")
        {
            if let Some(rest) = s.split_once("compare with") {
                if !matches!(
                    rest.1.trim(),
                    "unsigned value from vdata0" | "signed value from vdata0" | "value from vdata0"
                ) {
                    return Err(s.to_string());
                }
            }
            continue;
        }
        let s = s.replace("compare 64-bit values", "compare values");
        let s = s.replace("compare 32-bit values", "compare values");
        let s = s.as_str();
        if let Some(c) = s.strip_prefix("compare values from vdata0 and from mem") {
            if c.is_empty() {
                continue;
            }
        }
        if let Some(m) = v.cond_if.captures(s) {
            let c = cond(&m[1]).ok_or_else(|| s.to_string())?;
            let t = action(&m[2]).ok_or_else(|| s.to_string())?;
            let e = action(&m[3]).ok_or_else(|| s.to_string())?;
            if new_value.is_some() {
                return Err(s.to_string());
            }
            new_value = Some(format!("({c}) ? {t} : {e}"));
            continue;
        }
        if let Some(rest) = s.strip_prefix("if values are equal, ") {
            let (t, e) = rest
                .split_once(", otherwise ")
                .ok_or_else(|| s.to_string())?;
            let t = action(t).ok_or_else(|| s.to_string())?;
            let e = action(e).ok_or_else(|| s.to_string())?;
            new_value = Some(format!("(tmp == DATA0.T) ? {t} : {e}"));
            continue;
        }
        if let Some((_, e)) = v.arith.iter().find(|(r, _)| r.is_match(s)) {
            if new_value.is_some() {
                return Err(s.to_string());
            }
            new_value = Some(e.to_string());
            continue;
        }
        return Err(s.to_string());
    }
    let Some(nv) = new_value else {
        return Err("the description states no new memory value".into());
    };
    Ok(Reading::rmw(ty, &nv, returns))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected readings written by hand from the English.
    #[test]
    fn dec_as_the_seed_page_writes_it() {
        let d = "Load unsigned value from LDS/GDS at address (ADDR+OFFSET) & ~3, and compare with unsigned value from VDATA0. If VDATA0 greater or equal and loaded unsigned value is zero, then increment value from LDS/GDS, otherwise store VDATA0 to LDS/GDS. Operation is atomic.";
        let r = read(d, "u32").unwrap();
        assert_eq!(
            r.new_value,
            "(DATA0.u32 >= tmp && tmp == 0) ? tmp + 1 : DATA0.u32"
        );
        assert!(!r.returns);
    }

    #[test]
    fn unknown_phrases_are_returned_as_written() {
        let e = read("Swizzle the lanes of VDATA0.", "b32").unwrap_err();
        assert_eq!(e, "Swizzle the lanes of VDATA0");
    }

    #[test]
    fn elem_types() {
        assert_eq!(elem_type("DS_MAX_I64").as_deref(), Some("i64"));
        assert_eq!(elem_type("DS_WRITE2_B32").as_deref(), Some("b32"));
        assert_eq!(elem_type("DS_READ_U8"), None);
    }
}
