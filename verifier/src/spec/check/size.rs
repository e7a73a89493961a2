//! size: stated strides and element sizes against the element size of the mnemonic, in the
//! wordings the guides and their paraphrases use: "a stride of 64 elements (256 bytes)",
//! "element size (4 bytes)", "4-byte elements", "elements of 8 bytes", "in units of 128
//! bytes", "a 256-byte stride".

use super::{lower, Body, Ctx};
use crate::spec::Entry;
use gcnsmt_lifter::lift::ds_semantics;
use regex::Regex;

pub(super) const KIND: &str = "size";

/// Element size in bytes from a mnemonic's suffix (`_b64` -> 8).
fn elem_bytes(name: &str) -> Option<u32> {
    let last = lower(name);
    let last = last.rsplit('_').next()?;
    let w: u32 = last.get(1..)?.parse().ok()?;
    matches!(&last[..1], "b" | "u" | "i" | "f").then_some(w / 8)
}
/// Stated strides and sizes against the element size.
pub(super) fn check(c: &mut Ctx, e: &Entry, _body: &mut Body) {
    const K: &str = KIND;
    let Some(d) = &e.description else { return };
    if super::is_buffer(e) {
        return buffer_sizes(c, e, d);
    }
    let Some(eb) = elem_bytes(&e.name) else {
        return;
    };
    // The offset scale a body uses (`OFFSET0.u32 * 512U`), in the document and in gcnsmt.
    let scale = |text: &str| -> Option<u32> {
        let r = Regex::new(r"OFFSET[01](?:\.u32)?\s*\*\s*(\d+)").expect("valid");
        r.captures(text).and_then(|m| m[1].parse().ok())
    };
    let doc_scale = e.pcode.as_ref().and_then(|p| scale(&p.text));
    let our_scale = ds_semantics(&lower(&e.name))
        .and_then(|(_, def)| scale(&gcnsmt_semantics::print::def_to_string(def)));
    let re = Regex::new(r"stride of (\d+) elements \((\d+) bytes\)").expect("valid");
    for m in re.captures_iter(&d.value) {
        let (n, b): (u32, u32) = (m[1].parse().unwrap_or(0), m[2].parse().unwrap_or(0));
        let line = line_at(d, m.get(0).map_or(0, |x| x.start()));
        let mut ev_scale: Vec<(String, String)> = Vec::new();
        if let Some(x) = our_scale {
            ev_scale.push((
                "gcnsmt semantics".into(),
                format!("OFFSET * {x} bytes (semantics/pcode/ds_2addr.pcode)"),
            ));
        }
        if let Some(x) = doc_scale.filter(|x| *x != b) {
            ev_scale.push(("document pseudocode".into(), format!("OFFSET * {x} bytes")));
            c.find(
                K,
                line,
                Some(&e.name),
                None,
                format!("\"{}\"", &m[0]),
                format!("the page's own Semantics scale the offsets by {x} bytes"),
                ev_scale.clone(),
            );
            continue;
        }
        if n * eb != b {
            c.find(
                K,
                line,
                Some(&e.name),
                None,
                format!("\"{}\"", &m[0]),
                format!(
                    "{n} elements of {eb} bytes ({}) are {} bytes",
                    e.name,
                    n * eb
                ),
                [(
                    "element".to_string(),
                    format!(
                        "{} bits ({} suffix)",
                        eb * 8,
                        e.name.rsplit('_').next().unwrap_or("")
                    ),
                )]
                .into_iter()
                .chain(ev_scale)
                .collect(),
            );
        } else {
            c.ok(K);
        }
    }
    element_claims(c, e, d, eb);
    unit_claims(c, e, d, our_scale.or(doc_scale));
    let bits = Regex::new(r"(?i)^(?:load|store|read|write) (\d+) bits").expect("valid");
    if let Some(m) = bits.captures(&d.value) {
        let n: u32 = m[1].parse().unwrap_or(0);
        if n != eb * 8 {
            c.find(
                K,
                d.line,
                Some(&e.name),
                None,
                format!("\"{}\"", &m[0]),
                format!("the element of {} is {} bits", e.name, eb * 8),
                vec![],
            );
        } else {
            c.ok(K);
        }
    }
}

/// The file line of byte `at` of a description (its text keeps the page's line breaks).
fn line_at(d: &crate::spec::Located<String>, at: usize) -> u32 {
    d.line + d.value[..at.min(d.value.len())].matches('\n').count() as u32
}

/// Each match of `pattern` in `text`, quoted as written, with the number its matching group
/// holds (0 if it does not parse).
fn stated(pattern: &str, text: &str) -> Vec<(String, u32)> {
    let re = Regex::new(pattern).expect("valid");
    re.captures_iter(text)
        .map(|m| {
            let n = m
                .iter()
                .skip(1)
                .flatten()
                .find_map(|g| g.as_str().parse().ok());
            (m[0].to_string(), n.unwrap_or(0))
        })
        .collect()
}

/// Each number `pattern` finds in `d` against `want` (unchecked when `None`): equal is
/// checked, different a finding whose truth and evidence `explain(want)` gives.
fn check_stated(
    c: &mut Ctx,
    e: &Entry,
    d: &crate::spec::Located<String>,
    pattern: &str,
    want: Option<u32>,
    explain: impl Fn(u32) -> (String, (String, String)),
) {
    for (quote, n) in stated(pattern, &d.value) {
        let Some(x) = want else {
            let why = format!("\"{quote}\": no offset scale to hold it against");
            c.skip(KIND, d.line, Some(&e.name), why);
            continue;
        };
        if n == x {
            c.ok(KIND);
            continue;
        }
        let (truth, evidence) = explain(x);
        let claim = format!("\"{quote}\"");
        let line = d.value.find(&quote).map_or(d.line, |i| line_at(d, i));
        c.find(
            KIND,
            line,
            Some(&e.name),
            None,
            claim,
            truth,
            vec![evidence],
        );
    }
}

/// Stated element sizes ("element size (4 bytes)", "4-byte elements", "elements of 8 bytes")
/// against the mnemonic's element of `eb` bytes.
fn element_claims(c: &mut Ctx, e: &Entry, d: &crate::spec::Located<String>, eb: u32) {
    const SAID: &str = r"(?i)element size(?: of| is)?\s*\(?\s*(\d+)[ -]bytes?\)?|(\d+)-byte elements?|elements? of (\d+) bytes|each element (?:is|holds|occupies) (\d+) bytes";
    let suffix = e.name.rsplit('_').next().unwrap_or("");
    check_stated(c, e, d, SAID, Some(eb), |eb| {
        let truth = format!("the element of {} is {eb} bytes", e.name);
        (
            truth,
            (
                "element".into(),
                format!("{} bits ({suffix} suffix)", eb * 8),
            ),
        )
    });
}

/// Stated offset units ("in units of 128 bytes", "a 256-byte stride", "a stride of 512
/// bytes") against the scale of the offsets, `scale` bytes (gcnsmt's semantics, else the
/// page's own Semantics); unchecked without one.
fn unit_claims(c: &mut Ctx, e: &Entry, d: &crate::spec::Located<String>, scale: Option<u32>) {
    const SAID: &str =
        r"(?i)units of (\d+) bytes|(\d+)-byte (?:stride|steps?|units?)|stride of (\d+) bytes";
    check_stated(c, e, d, SAID, scale, |x| {
        let truth = format!("{} scales each offset by {x} bytes", e.name);
        let source = format!("OFFSET * {x} bytes (semantics/pcode/ds_2addr.pcode)");
        (truth, ("gcnsmt semantics".into(), source))
    });
}

/// The access size each sentence of a MUBUF load or store description states right after its
/// verb, against the mnemonic's ([`super::size_buffer`]).
fn buffer_sizes(c: &mut Ctx, e: &Entry, d: &crate::spec::Located<String>) {
    let Some(want) = super::size_buffer::access_bytes(&lower(&e.name)) else {
        return;
    };
    let mut at = 0;
    for piece in d.value.split_inclusive('.') {
        let s = piece.trim_start();
        let begin = at + piece.len() - s.len();
        at += piece.len();
        let line = d.line + d.value[..begin].matches('\n').count() as u32;
        let Some((got, words)) = super::size_buffer::stated(s) else {
            continue;
        };
        if got == want {
            c.ok(KIND);
            continue;
        }
        let quote = s.split_whitespace().collect::<Vec<_>>().join(" ");
        c.find(
            KIND,
            line,
            Some(&e.name),
            None,
            format!("\"{words}\" in \"{quote}\""),
            format!(
                "{} moves {want} byte(s) ({} bits) per lane, not {got}",
                e.name,
                want * 8
            ),
            vec![(
                "mnemonic".into(),
                format!(
                    "{} (llvm-mc 22 names; AMD's guides give the width)",
                    lower(&e.name)
                ),
            )],
        );
    }
}
