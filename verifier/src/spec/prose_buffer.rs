//! Controlled-language reader for buffer (MUBUF) descriptions: the regular sentences of
//! CLRX's `GcnInstrsMubuf.md` turned into AMD pseudocode over the buffer operands, so that a
//! description can be compared with the page's operation or gcnsmt's semantics by
//! [`compare`](super::equiv::compare).
//!
//! Vocabulary (one operation sentence, then optionally "If GLC flag is set then return
//! previous value from resource to VDATA, otherwise keep VDATA value." and "Operation is
//! atomic."):
//!
//! - loads: "Load dword | two/three/four dwords | byte | 16-bit word to VDATA from SRSRC
//!   resource", with "with zero/sign extending", "... to lower/higher 16-bit part of VDATA",
//!   or "to lower/higher part of VDATA";
//! - stores: "Store dword | N dwords | byte | 16-bit word | higher 16-bit word from VDATA into
//!   SRSRC resource", "Store byte from 16-23 bits of VDATA into SRSRC resource";
//! - atomics: "Store VDATA dword | 64-bit word into SRSRC resource" (swap), "Add VDATA to value
//!   of SRSRC resource", "Subtract VDATA from value from SRSRC resource", "Do [64-bit] bitwise
//!   AND/OR/XOR on VDATA and value of SRSRC resource", "Choose smallest/greatest
//!   signed/unsigned N-bit value from VDATA and from SRSRC resource", "Compare [64-bit] value
//!   from SRSRC resource and if less than VDATA, then increment value from resource, otherwise
//!   store zero to resource", "... if less or equal than VDATA and this value is not zero, then
//!   decrement value from resource, otherwise store VDATA to resource", "Store lower VDATA
//!   dword | 64-bit word into SRSRC resource if previous value from resource is equal
//!   VDATA>>N, otherwise keep old value from resource" (compare and swap: the compare value is
//!   VDATA shifted right by N bits), each followed by ", and store result to this resource"
//!   where the sentence needs it.
//!
//! Atomic widths are the description's own: "64-bit" (or "64-bit word") says 64, otherwise
//! 32, so a width the description gets wrong shows as a difference.

use regex::Regex;

/// A description read as pseudocode, and the effect it states (`MEM = ...` or `VDATA... =
/// ...`, for the report).
pub struct Reading {
    /// The description rewritten as AMD pseudocode, which [`gcnsmt_semantics::parse`] parses.
    pub pcode: String,
    /// The effect the description states (`MEM = ...` or `VDATA... = ...`), quoted in reports.
    pub effect: String,
}

const ADDR: &str = "addr = CalcBufferAddr(VADDR, SRSRC, SOFFSET, OFFSET);\n";

fn dwords(word: &str) -> Option<u32> {
    Some(match word {
        "dword" => 1,
        "two dwords" => 2,
        "three dwords" => 3,
        "four dwords" => 4,
        _ => return None,
    })
}

/// Read a MUBUF description.
///
/// Errors: the first sentence outside the vocabulary.
pub fn read(desc: &str) -> Result<Reading, String> {
    let text = desc.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut sentences: Vec<&str> = text
        .split(". ")
        .map(|s| s.trim().trim_end_matches('.'))
        .collect();
    sentences.retain(|s| !s.is_empty());
    let Some((first, rest)) = sentences.split_first() else {
        return Err(text);
    };
    let mut returns = false;
    for s in rest {
        match *s {
            "If GLC flag is set then return previous value from resource to VDATA, otherwise keep VDATA value" => {
                returns = true
            }
            "Operation is atomic" => {}
            other => return Err(other.to_string()),
        }
    }
    let (body, effect) = operation(first).ok_or_else(|| first.to_string())?;
    let mut pcode = format!("{ADDR}{body}");
    if returns {
        pcode.push_str("RETURN_DATA = tmp;\n");
    }
    Ok(Reading { pcode, effect })
}

fn re(p: &str) -> Regex {
    Regex::new(&format!("^{p}$")).expect("valid")
}

/// One statement per dword `k` of an `n`-dword access, from `line(offset, hi, lo)`: the
/// byte offset text (` + 4U`, empty for dword 0) and VDATA's bits `hi : lo` of that dword.
fn per_dword(n: u32, line: impl Fn(String, u32, u32) -> String) -> String {
    (0..n)
        .map(|k| {
            let off = if k == 0 {
                String::new()
            } else {
                format!(" + {}U", 4 * k)
            };
            line(off, 32 * k + 31, 32 * k)
        })
        .collect()
}

/// One operation sentence as statements after `addr = ...`, and its new memory value.
fn operation(s: &str) -> Option<(String, String)> {
    let loads = re(
        r"Load (dword|two dwords|three dwords|four dwords|byte|16-bit word) to VDATA from SRSRC resource(?: (with zero extending|with sign extending)(?: to (lower|higher) 16-bit part of VDATA)?| to (lower|higher) part of VDATA)?",
    );
    if let Some(m) = loads.captures(s) {
        let what = &m[1];
        if let Some(n) = dwords(what) {
            if m.get(2).is_some() || m.get(4).is_some() {
                return None;
            }
            let b = per_dword(n, |off, hi, lo| {
                format!("VDATA[{hi} : {lo}] = MEM[addr{off}].b32;\n")
            });
            let effect = format!("VDATA[{}:0] = MEM[addr..]", 32 * n - 1);
            return Some((b, effect));
        }
        let bits = if what == "byte" { 8 } else { 16 };
        let part = |p: &str| if p == "lower" { "15 : 0" } else { "31 : 16" };
        let b = match (m.get(2).map(|x| x.as_str()), m.get(3), m.get(4)) {
            (Some(ext), None, None) => {
                let k = if ext.contains("sign") { 'i' } else { 'u' };
                format!("VDATA.{k}32 = MEM[addr].{k}{bits};\n")
            }
            (Some(ext), Some(p), None) => {
                let k = if ext.contains("sign") { 'i' } else { 'u' };
                format!("VDATA[{}].{k}16 = MEM[addr].{k}{bits};\n", part(p.as_str()))
            }
            (None, None, Some(p)) if bits == 16 => {
                format!("VDATA[{}].b16 = MEM[addr].b16;\n", part(p.as_str()))
            }
            _ => return None,
        };
        let effect = b.trim().trim_end_matches(';').to_string();
        return Some((b, effect));
    }
    let stores = re(
        r"Store (dword|two dwords|three dwords|four dwords|byte|16-bit word|higher 16-bit word) from (VDATA|16-23 bits of VDATA) into SRSRC resource",
    );
    if let Some(m) = stores.captures(s) {
        let (what, from) = (&m[1], &m[2]);
        let hi_byte = from.starts_with("16-23");
        if let Some(n) = dwords(what) {
            if hi_byte {
                return None;
            }
            let b = per_dword(n, |off, hi, lo| {
                format!("MEM[addr{off}].b32 = VDATA[{hi} : {lo}];\n")
            });
            return Some((b, format!("MEM = VDATA[{}:0]", 32 * n - 1)));
        }
        let (w, range) = match (what, hi_byte) {
            ("byte", false) => (8, "7 : 0"),
            ("byte", true) => (8, "23 : 16"),
            ("16-bit word", false) => (16, "15 : 0"),
            ("higher 16-bit word", false) => (16, "31 : 16"),
            _ => return None,
        };
        return Some((
            format!("MEM[addr].b{w} = VDATA[{range}];\n"),
            format!("MEM = VDATA[{range}]"),
        ));
    }
    atomic(s)
}

fn atomic(s: &str) -> Option<(String, String)> {
    let store_result = ", and store result to this resource";
    let rd = |w: u32, k: char| format!("tmp = MEM[addr].{k}{w};\n");
    if let Some(m) = re(r"Store VDATA (dword|64-bit word) into SRSRC resource").captures(s) {
        let w = if &m[1] == "dword" { 32 } else { 64 };
        return Some((
            format!("{}MEM[addr].b{w} = VDATA[{} : 0];\n", rd(w, 'b'), w - 1),
            "MEM = VDATA".into(),
        ));
    }
    if let Some(m) = re(r"Store lower VDATA (dword|64-bit word) into SRSRC resource if previous value from resource is equal VDATA>>(\d+), otherwise keep old value from resource").captures(s) {
        let w = if &m[1] == "dword" { 32 } else { 64 };
        let sh: u32 = m[2].parse().ok()?;
        if sh > 128 - w {
            return None;
        }
        return Some((
            format!(
                "{}src = VDATA[{} : 0].b{w};\ncmp = VDATA[{} : {sh}].b{w};\nMEM[addr].b{w} = tmp == cmp ? src : tmp;\n",
                rd(w, 'b'),
                w - 1,
                sh + w - 1
            ),
            format!("MEM = tmp == VDATA>>{sh} ? VDATA[{}:0] : tmp", w - 1),
        ));
    }
    let width = |x: Option<regex::Match>| if x.is_some() { 64 } else { 32 };
    let arith = |w: u32, k: char, e: &str| {
        (
            format!("{}MEM[addr].{k}{w} = {e};\n", rd(w, k)),
            format!("MEM = {}", e.replace(&format!(".{k}{w}"), "")),
        )
    };
    if let Some(m) = re(&format!(
        r"Add (64-bit )?VDATA to (?:64-bit )?value of SRSRC resource{store_result}"
    ))
    .captures(s)
    {
        let w = width(m.get(1));
        return Some(arith(w, 'u', &format!("tmp + VDATA.u{w}")));
    }
    if let Some(m) = re(&format!(
        r"Subtract (64-bit )?VDATA from (?:64-bit )?value from SRSRC resource{store_result}"
    ))
    .captures(s)
    {
        let w = width(m.get(1));
        return Some(arith(w, 'u', &format!("tmp - VDATA.u{w}")));
    }
    if let Some(m) = re(&format!(
        r"Do (64-bit )?bitwise (AND|OR|XOR) on VDATA and value of SRSRC resource{store_result}"
    ))
    .captures(s)
    {
        let w = width(m.get(1));
        let op = match &m[2] {
            "AND" => "&",
            "OR" => "|",
            _ => "^",
        };
        return Some(arith(w, 'b', &format!("tmp {op} VDATA.b{w}")));
    }
    if let Some(m) = re(&format!(
        r"Choose (smallest|greatest) (signed|unsigned) (32|64)-bit value from VDATA and from SRSRC resource{store_result}"
    ))
    .captures(s)
    {
        let w: u32 = m[3].parse().ok()?;
        let k = if &m[2] == "signed" { 'i' } else { 'u' };
        let op = if &m[1] == "smallest" { "<" } else { ">" };
        return Some(arith(
            w,
            k,
            &format!("VDATA.{k}{w} {op} tmp ? VDATA.{k}{w} : tmp"),
        ));
    }
    if let Some(m) = re(r"Compare (64-bit )?value from SRSRC resource and if less than VDATA, then increment value from resource, otherwise store zero to resource").captures(s) {
        let w = width(m.get(1));
        return Some(arith(w, 'u', &format!("tmp < VDATA.u{w} ? tmp + 1 : 0")));
    }
    if let Some(m) = re(r"Compare (64-bit )?value from SRSRC resource and if less or equal than VDATA and this value is not zero, then decrement value from resource, otherwise store VDATA to resource").captures(s) {
        let w = width(m.get(1));
        return Some(arith(
            w,
            'u',
            &format!("tmp <= VDATA.u{w} && tmp != 0 ? tmp - 1 : VDATA.u{w}"),
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected texts written by hand from the sentences' meaning.
    #[test]
    fn cmpswap_reads_the_compare_value_from_the_high_half() {
        let r = read("Store lower VDATA dword into SRSRC resource if previous value\nfrom resource is equal VDATA>>32, otherwise keep old value from resource.\nIf GLC flag is set then return previous value from resource to VDATA,\notherwise keep VDATA value. Operation is atomic.").unwrap();
        assert!(r.pcode.contains("src = VDATA[31 : 0].b32;"), "{}", r.pcode);
        assert!(r.pcode.contains("cmp = VDATA[63 : 32].b32;"), "{}", r.pcode);
        assert!(r.pcode.contains("RETURN_DATA = tmp;"));
        gcnsmt_semantics::parse::parse_stmts(&r.pcode).unwrap();
    }

    #[test]
    fn loads_and_stores() {
        let r = read("Load byte to VDATA from SRSRC resource with sign extending to higher 16-bit part of VDATA.").unwrap();
        assert!(r.pcode.contains("VDATA[31 : 16].i16 = MEM[addr].i8;"));
        let r = read("Store byte from 16-23 bits of VDATA into SRSRC resource.").unwrap();
        assert!(r.pcode.contains("MEM[addr].b8 = VDATA[23 : 16];"));
        assert!(
            read("Load 16-bit word to VDATA from SRSRC resource to part part of VDATA.").is_err()
        );
    }
}
