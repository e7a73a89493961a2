//! A function's frame objects (`stack:`, `fixedStack:`), `frameInfo:` and
//! `machineFunctionInfo:` as later passes read them, compared across a pair (breaker 18's
//! 04). The block checks compare instructions only; a pass that changes only this header
//! still changes the code llc emits: a shrunk stack object makes prologepilog place the next
//! one over it (`b[i]` then overwrites `a[j]`), another `privateSegmentWaveByteOffset`
//! register moves every scratch access. Such a change makes the function `unsupported` (as
//! a changed CFG does), unless it is one of those below that cannot change what the code
//! computes:
//! - a stack object added or removed (spill slots, stack coloring): the code that uses it
//!   changed too and is checked; the others keep their size, alignment and kind, and
//!   prologepilog places distinct live objects apart;
//! - a stack object's `offset:` (prologepilog assigns every one, overwriting what earlier
//!   passes left; `frame.rs` takes them from prologepilog's output) and its name and
//!   debug-info fields;
//! - `local-offset:` (localstackalloc) when the after-file's local objects are pairwise
//!   disjoint, aligned, and inside `localFrameSize`;
//! - `frameInfo:` fields prologepilog computes (`stackSize`, `isCalleeSavedInfoValid`,
//!   `cvBytesOfCalleeSavedRegisters`), `maxCallFrameSize` leaving "not computed"
//!   (4294967295), `maxAlignment` growing;
//! - a `machineFunctionInfo:` register field that named no register yet (empty or a
//!   placeholder finalize-isel replaces: [`unchosen`]) now naming one;
//! - `scratchRSrcReg:` moved while the after-file names the old register nowhere
//!   (prologepilog);
//! - `machineFunctionInfo:` hints that steer heuristics only (`occupancy`, `memoryBound`,
//!   `waveLimiter`, `maxMemoryClusterDWords`, `hasSpilledSGPRs`, `hasSpilledVGPRs`);
//! - a new stack object of `stack-id: default` or `sgpr-spill` ([`new_objects`]);
//! - the function's `liveins:` losing `virtual-reg`s, or gaining a register its
//!   `machineFunctionInfo:` names ([`liveins`]);
//! - the top-level flags of [`FREE_KEYS`]; every other top-level key (`alignment:`,
//!   `constants:`, `tracksRegLiveness:`, `calleeSavedRegisters:`, ...) must be equal, and
//!   so must `mode:` (until breaker 24's 00 it was left to the block checks, which the
//!   register-allocation checker skips).
//!
//! Which fields llc-22 changes was measured on every pass of `--pipeline` runs (docs/tv.md,
//! "Function facts"). `fn_facts.rs` runs this comparison on every verdict tv gives.

use std::collections::BTreeMap;

type Fields = BTreeMap<String, String>;

/// The header of one machine function, as compared.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Meta {
    /// `isSSA:` (llc-22 writes it), if given.
    pub is_ssa: Option<bool>,
    stack: BTreeMap<String, Fields>,
    fixed: BTreeMap<String, Fields>,
    frame_info: Fields,
    /// Each top-level key of `machineFunctionInfo:` with its nested lines, as text.
    mfi: Fields,
    /// The function's other top-level keys (`alignment:`, `constants:`, `tracksRegLiveness:`,
    /// ...) with their nested lines, as text, but for those passes rewrite ([`FREE_KEYS`]).
    other: Fields,
    /// The registers of the function's `liveins:` (without the `virtual-reg` each maps to).
    liveins: Vec<String>,
    /// Each frame index the body names (`%stack.N`, by `N`): the widest spill pseudo
    /// (`SI_SPILL_*`) through it in bytes, or `None` when another instruction names it.
    slot_uses: BTreeMap<String, Option<i64>>,
}

/// Top-level keys of a machine function that passes rewrite and that are read elsewhere or not
/// at all: `registers:` (its classes are compared by `diff.rs`), `liveins:` ([`Meta::liveins`]),
/// the sections read above, and flags llc recomputes (`isSSA`, `noPhis`, `noVRegs`: phi
/// elimination, virtregrewriter; `tracksDebugUserValues`: greedy).
const FREE_KEYS: [&str; 11] = [
    "name",
    "registers",
    "liveins",
    "stack",
    "fixedStack",
    "frameInfo",
    "machineFunctionInfo",
    "isSSA",
    "noPhis",
    "noVRegs",
    "tracksDebugUserValues",
];

const MFI_HINTS: [&str; 6] = [
    "occupancy",
    "memoryBound",
    "waveLimiter",
    "maxMemoryClusterDWords",
    "hasSpilledSGPRs",
    "hasSpilledVGPRs",
];

const FI_COMPUTED: [&str; 5] = [
    "stackSize",
    "isCalleeSavedInfoValid",
    "cvBytesOfCalleeSavedRegisters",
    "maxAlignment",
    "localFrameSize",
];

impl Meta {
    /// Read the header lines of one machine-function document (up to `body:`).
    pub fn read(lines: &[&str]) -> Meta {
        let mut m = Meta::default();
        let (mut section, mut key, mut entry) = ("", String::new(), String::new());
        for l in lines {
            if l.starts_with("body:") {
                break;
            }
            if !l.starts_with(' ') {
                section = l.split(':').next().unwrap_or("");
                if let Some(v) = l.strip_prefix("isSSA:") {
                    m.is_ssa = Some(v.trim() == "true");
                }
            }
            let t = l.trim();
            if !FREE_KEYS.contains(&section) && !section.is_empty() {
                let v = m.other.entry(section.to_string()).or_default();
                v.push_str(t);
                v.push('\n');
            }
            match section {
                "liveins" if t.starts_with("- {") => {
                    let reg = fields(t).get("reg").cloned().unwrap_or_default();
                    m.liveins
                        .push(reg.trim_matches('\'').trim_start_matches('$').into());
                }
                "stack" | "fixedStack" if t.starts_with("- {") || !entry.is_empty() => {
                    entry += t;
                    entry.push(' ');
                    if t.ends_with('}') {
                        let f = fields(&std::mem::take(&mut entry));
                        let id = f.get("id").cloned().unwrap_or_default();
                        let table = if section == "stack" {
                            &mut m.stack
                        } else {
                            &mut m.fixed
                        };
                        table.insert(id, f);
                    }
                }
                "frameInfo" => {
                    if let Some((k, v)) = t.split_once(':') {
                        m.frame_info.insert(k.into(), v.trim().into());
                    }
                }
                "machineFunctionInfo" if l.starts_with("  ") => {
                    if !l.starts_with("   ") {
                        key = t.split(':').next().unwrap_or("").to_string();
                    }
                    let v = m.mfi.entry(key.clone()).or_default();
                    v.push_str(t);
                    v.push('\n');
                }
                _ => {}
            }
        }
        m
    }
}

impl Meta {
    /// Record [`Meta::slot_uses`] from the function's body.
    pub fn read_slot_uses(&mut self, blocks: &[super::mir::Block]) {
        for i in blocks.iter().flat_map(|b| &b.insts) {
            let spill = super::alloc_ops::spill(&i.opcode).map(|(_, _, n)| 4 * i64::from(n));
            for o in i.defs.iter().chain(&i.ops) {
                let super::mir::OpKind::Other(t) = &o.kind else {
                    continue;
                };
                let Some(r) = t.strip_prefix("%stack.") else {
                    continue;
                };
                let id = r.split('.').next().unwrap_or("").to_string();
                let e = self.slot_uses.entry(id).or_insert(Some(0));
                *e = e.zip(spill).map(|(a, b)| a.max(b));
            }
        }
    }
}

/// A register field that names no register yet: empty, or one of the placeholders
/// finalize-isel replaces in the code and the field (`$private_rsrc_reg`, `$sp_reg`,
/// `$fp_reg`; SITargetLowering::finalizeLowering). The code read no chosen register through
/// it; where it read the placeholder, the block checks see the replacement.
fn unchosen(v: &str) -> bool {
    let v = v.split_once(':').map_or("", |(_, r)| r).trim();
    matches!(v, "''" | "'$private_rsrc_reg'" | "'$sp_reg'" | "'$fp_reg'")
}

/// The register a `key: '$reg'` field names, without `$` and quotes.
fn field_reg(v: &str) -> String {
    let v = v.split_once(':').map_or("", |(_, r)| r).trim();
    v.trim_matches('\'').trim_start_matches('$').to_string()
}

/// The `key: value` fields of one `- { ... }` entry (commas inside quotes kept).
fn fields(e: &str) -> Fields {
    let inner = e
        .trim()
        .trim_start_matches("- {")
        .trim_end()
        .trim_end_matches('}');
    let (mut out, mut cur, mut quote) = (Fields::new(), String::new(), None);
    for c in inner.chars().chain([',']) {
        match c {
            '\'' | '"' if quote.is_none() => quote = Some(c),
            c2 if Some(c2) == quote => quote = None,
            ',' if quote.is_none() => {
                if let Some((k, v)) = cur.split_once(':') {
                    out.insert(k.trim().into(), v.trim().into());
                }
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out
}

fn num(f: &Fields, k: &str) -> Option<i64> {
    f.get(k).and_then(|v| v.parse().ok())
}

/// How the pass changed `after`'s header in a way the block checks do not cover, if it did.
/// `mentions(r)`: the after-file's instructions name physical register `r` or a part of it.
pub fn change(before: &Meta, after: &Meta, mentions: &dyn Fn(&str) -> bool) -> Option<String> {
    if before == after {
        return None;
    }
    // prologepilog moves the scratch descriptor (`$sgpr96_..._sgpr99` -> `$sgpr20_..._sgpr23`)
    // and rewrites every instruction that named it: an after-file that no longer names the old
    // register does not depend on which register the field gives (only the code prologepilog
    // emits does, and it emitted it). A pass that moved the field alone leaves code that reads
    // the old register, which then holds no descriptor.
    let moved = |k: &str, v: &str| k == "scratchRSrcReg" && !mentions(&field_reg(v));
    for (k, v) in before
        .mfi
        .iter()
        .filter(|(k, _)| !MFI_HINTS.contains(&k.as_str()))
    {
        if after.mfi.get(k) != Some(v) && !unchosen(v) && !moved(k, v) {
            return Some(format!("its `machineFunctionInfo: {k}` changed"));
        }
    }
    if let Some(k) = (after.mfi.keys())
        .find(|k| !before.mfi.contains_key(*k) && !MFI_HINTS.contains(&k.as_str()))
        // prologepilog's emergency spill slot: a new stack object, used only by code it adds.
        .filter(|k| *k != "scavengeFI")
    {
        return Some(format!("its `machineFunctionInfo: {k}` changed"));
    }
    let keys = before.frame_info.keys().chain(after.frame_info.keys());
    for k in keys.filter(|k| !FI_COMPUTED.contains(&k.as_str())) {
        let (b, a) = (before.frame_info.get(k), after.frame_info.get(k));
        let unset = k == "maxCallFrameSize" && b.is_some_and(|v| v == "4294967295");
        if b != a && !unset {
            return Some(format!("its `frameInfo: {k}` changed"));
        }
    }
    let align = |m: &Meta| num(&m.frame_info, "maxAlignment").unwrap_or(0);
    if align(after) < align(before) {
        return Some("its `frameInfo: maxAlignment` shrank".into());
    }
    let keys = before.other.keys().chain(after.other.keys());
    if let Some(k) = keys
        .into_iter()
        .find(|k| before.other.get(*k) != after.other.get(*k))
    {
        return Some(format!("its `{k}:` changed"));
    }
    liveins(before, after)
        .or_else(|| objects(before, after))
        .or_else(|| new_objects(before, after))
        .or_else(|| local_block(after))
}

/// The function's `liveins:` keep their registers (virtregrewriter clears `virtual-reg`). One
/// may be added when the after-file's `machineFunctionInfo:` names it: prologepilog adds the
/// scratch descriptor and the wave's scratch offset (`argumentInfo`) it reads.
fn liveins(before: &Meta, after: &Meta) -> Option<String> {
    let named = |r: &str| after.mfi.values().any(|v| v.contains(&format!("'${r}'")));
    let gone = before.liveins.iter().find(|r| !after.liveins.contains(r));
    let new = (after.liveins.iter()).find(|r| !before.liveins.contains(r) && !named(r));
    gone.or(new)
        .map(|r| format!("its `liveins:` changed (`${r}`)"))
}

/// Stack object `id` (`f`) of `m` is a spill slot of a kind prologepilog lays out apart that
/// only spill pseudos name, each within its `size`.
fn spill_only(m: &Meta, id: &str, f: &Fields) -> bool {
    let laid_out = f
        .get("stack-id")
        .is_none_or(|v| matches!(v.as_str(), "default" | "sgpr-spill"));
    let size = num(f, "size").unwrap_or(0);
    let fits = m
        .slot_uses
        .get(id)
        .is_none_or(|w| w.is_some_and(|w| w <= size));
    laid_out && fits
}

/// A stack object the pass added (a spill slot, prologepilog's scavenging slot) is one
/// prologepilog lays out apart from the others: `stack-id: default`, or `sgpr-spill` (SGPR
/// spills go to VGPR lanes, one lane per dword), and not `variable-sized`. A `noalloc` object
/// is never laid out: it keeps offset 0, over another object (breaker 24's 00).
fn new_objects(before: &Meta, after: &Meta) -> Option<String> {
    for (id, f) in after
        .stack
        .iter()
        .filter(|(id, _)| !before.stack.contains_key(*id))
    {
        let id_ok = f
            .get("stack-id")
            .is_none_or(|v| matches!(v.as_str(), "default" | "sgpr-spill"));
        let ty_ok = f
            .get("type")
            .is_none_or(|v| matches!(v.as_str(), "default" | "spill-slot"));
        if !id_ok || !ty_ok {
            let k = if id_ok { "type" } else { "stack-id" };
            let v = f.get(k).map_or("", |v| v.as_str());
            return Some(format!("its new `stack:` object {id} has `{k}: {v}`"));
        }
    }
    None
}

/// Objects of both files keep what prologepilog lays them out by.
fn objects(before: &Meta, after: &Meta) -> Option<String> {
    let loose =
        |k: &str| matches!(k, "name" | "offset" | "local-offset") || k.starts_with("debug-info");
    for (what, b, a) in [
        ("stack", &before.stack, &after.stack),
        ("fixedStack", &before.fixed, &after.fixed),
    ] {
        for (id, fb) in b {
            let Some(fa) = a.get(id) else { continue };
            let keys = fb.keys().chain(fa.keys());
            // A fixed object's offset is where it is (incoming arguments): it matters.
            let mut keys = keys.filter(|k| !loose(k) || (what == "fixedStack" && *k == "offset"));
            // stack-slot-coloring gives a spill slot the contents of a larger one it merges
            // into it (size 4 -> 16, measured): a slot that only grew is still laid out apart
            // from the others, and each spill must fit its slot (`alloc_step.rs`).
            let spill = |f: &Fields| f.get("type").is_some_and(|t| t == "spill-slot");
            let grew = |k: &str| {
                what == "stack"
                    && matches!(k, "size" | "alignment")
                    && spill(fb)
                    && spill(fa)
                    && num(fa, k).zip(num(fb, k)).is_some_and(|(a, b)| a >= b)
            };
            // It also drops the slots it merged and llc prints the rest renumbered: slot N of
            // the after-file is then another slot than the before-file's N. A spill slot that
            // only spill pseudos use, each within its size, and that prologepilog lays out
            // apart ([`new_objects`]'s kinds) is checked through those instructions.
            if what == "stack" && spill(fb) && spill(fa) && spill_only(after, id, fa) {
                continue;
            }
            if let Some(k) = keys.find(|k| fb.get(*k) != fa.get(*k) && !grew(k)) {
                return Some(format!("`{what}:` object {id} changed its `{k}`"));
            }
        }
    }
    None
}

/// The after-file's local block (localstackalloc's `local-offset:`s) keeps its objects apart,
/// aligned and inside `localFrameSize`.
fn local_block(m: &Meta) -> Option<String> {
    let mut spans: Vec<(i64, i64, &String)> = Vec::new();
    for (id, f) in &m.stack {
        let Some(lo) = num(f, "local-offset") else {
            continue;
        };
        let (size, align) = (
            num(f, "size").unwrap_or(0),
            num(f, "alignment").unwrap_or(1),
        );
        if align > 0 && lo % align != 0 {
            return Some(format!(
                "stack object {id}'s `local-offset: {lo}` is not aligned"
            ));
        }
        spans.push((lo, lo + size, id));
    }
    spans.sort();
    for w in spans.windows(2) {
        if w[1].0 < w[0].1 {
            return Some(format!(
                "stack objects {} and {} overlap in the local block",
                w[0].2, w[1].2
            ));
        }
    }
    let size = num(&m.frame_info, "localFrameSize").unwrap_or(0);
    match spans.last() {
        Some(&(_, end, id)) if end > size => Some(format!(
            "stack object {id} ends at {end}, beyond `localFrameSize: {size}`"
        )),
        _ => None,
    }
}
