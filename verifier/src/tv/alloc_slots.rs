//! Spill slots as registers, for the block checks of a refutation's image (`alloc_refute.rs`):
//! the block checks model frame indices only across prologepilog, so both the before-file and
//! its image get every spill `SI_SPILL_*_SAVE %x, %stack.N` rewritten as `%S = COPY %x` and
//! every `%y = SI_SPILL_*_RESTORE %stack.N` as `%y = COPY %S`, with one virtual register `%S`
//! per slot. The checker has made sure (`alloc.rs`, `shapes`) that nothing but whole-slot
//! spills at offset 0 touches a slot, so a slot behaves as that register does; the same
//! rewrite on both sides changes neither's values.

use super::mir::Function;
use regex::Regex;
use std::collections::BTreeMap;

/// The first register number used for slots: slot N is `%(BASE + N)`.
pub const BASE: u32 = 900_000;

/// Each spilled slot's class; `Err` when one slot is spilled at two widths or kinds.
pub fn classes(f: &Function) -> Result<BTreeMap<u32, &'static str>, String> {
    let mut out = BTreeMap::new();
    for i in f.blocks.iter().flat_map(|b| &b.insts) {
        let Some((_, kind, n)) = super::alloc_ops::spill(&i.opcode) else {
            continue;
        };
        let Some(id) = i.ops.iter().find_map(|o| match &o.kind {
            super::mir::OpKind::Other(t) => t.strip_prefix("%stack.")?.parse::<u32>().ok(),
            _ => None,
        }) else {
            return Err(format!("line {}: a spill without a slot", i.loc.line));
        };
        let vector = kind == 'V' && i.opcode.starts_with("SI_SPILL_V");
        if kind == 'V' && !vector {
            return Err(format!("line {}: an AGPR spill", i.loc.line));
        }
        let cls = match n {
            1 if vector => "vgpr_32",
            1 => "sreg_32",
            _ => super::alloc_image::tuple_class(vector, n as usize).ok_or("a slot width")?,
        };
        if *out.entry(id).or_insert(cls) != cls {
            return Err(format!("slot {id} spilled at two widths"));
        }
    }
    Ok(out)
}

/// `stackV.4.2` -> `%900004.sub2` (`%900004` for a one-dword slot).
pub fn spell(n: &str, slots: &BTreeMap<u32, &str>) -> Option<String> {
    let r = n.strip_prefix("stack")?;
    let mut parts = r[1..].trim_start_matches('.').split('.');
    let id: u32 = parts.next()?.parse().ok()?;
    let k: u32 = parts.next()?.parse().ok()?;
    let cls = slots.get(&id)?;
    Some(match super::emit::class_dwords(cls)? {
        1 => format!("%{}", BASE + id),
        _ => format!("%{}.sub{k}", BASE + id),
    })
}

/// Rewrite the spills of `f` in `lines` (the file's text, line by line).
pub fn rewrite(f: &Function, lines: &mut [String]) -> Result<(), String> {
    let slots = classes(f)?;
    let save = Regex::new(
        r"SI_SPILL_\w+_SAVE\s+(?:(?:killed|renamable|undef)\s+)*([%$][^\s,]+)\s*,\s*%stack\.(\d+)",
    )
    .map_err(|e| e.to_string())?;
    let restore = Regex::new(r"^\s*(.*?)\s*=\s*SI_SPILL_\w+_RESTORE\s+%stack\.(\d+)")
        .map_err(|e| e.to_string())?;
    for i in f.blocks.iter().flat_map(|b| &b.insts) {
        if super::alloc_ops::spill(&i.opcode).is_none() {
            continue;
        }
        let li = i.loc.line as usize - 1;
        let line = lines.get(li).ok_or("a spill outside the file")?;
        let slot = |id: &str| -> Result<(u32, &str), String> {
            let id: u32 = id.parse().map_err(|_| "a slot number")?;
            Ok((BASE + id, slots.get(&id).ok_or("an unknown slot")?))
        };
        let new = if let Some(c) = save.captures(line) {
            let (r, cls) = slot(&c[2])?;
            format!("    %{r}:{cls} = COPY {}", &c[1])
        } else if let Some(c) = restore.captures(line) {
            let (r, _) = slot(&c[2])?;
            format!("    {} = COPY %{r}", &c[1])
        } else {
            return Err(format!("line {}: a spill not rewritten", i.loc.line));
        };
        lines[li] = new;
    }
    Ok(())
}
