//! Refuting an allocation (issue 29, docs/tv.md "Refuting"): when the register-allocation
//! checker stops at a read of a location that holds another value than the before-file reads
//! there, the before-block is checked by the block checks against the after-block's image
//! (`alloc_image.rs`: the before-block reading what the after-block's locations hold). Only a
//! refutation of that check (its counterexample replayed on the interpreter, as every block
//! refutation is) becomes the function's `refuted`, with the path to the block; anything else
//! leaves the function to the block checks as before.

use super::alloc::{self, Fail};
use super::alloc_image::{self as image, Image};
use super::alloc_ops::{Ctx, Side};
use super::cmd::BlockVerdict;
use super::mir::{Function, MirFile, OpKind};
use gcnsmt_semantics::target::Target;

/// The block checks of a (before, after) file pair on some functions (`cmd::validate`).
pub type Recheck<'a> =
    dyn Fn(&MirFile, &MirFile, &[String]) -> Result<Vec<BlockVerdict>, String> + 'a;

/// A name's value followed back through full copies the before-function defines once: two
/// names with the same root (or roots defined once by the same instruction text, on the same
/// dword) are equal by computation, and the image's two inputs could not differ.
fn root(cx: &Ctx, n: &str) -> (String, Option<String>) {
    let mut n = n.to_string();
    for _ in 0..64 {
        let Some((id, k)) = n.strip_prefix('%').and_then(|r| r.split_once('.')) else {
            break;
        };
        let (Ok(id), Ok(k)) = (id.parse::<u32>(), k.parse::<usize>()) else {
            break;
        };
        let defs: Vec<_> = cx
            .before
            .blocks
            .iter()
            .flat_map(|b| &b.insts)
            .filter(|i| {
                i.defs
                    .iter()
                    .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
                    .any(|d| matches!(&d.kind, OpKind::VReg { id: j, .. } if *j == id))
            })
            .collect();
        let [i] = defs.as_slice() else {
            return (n, None);
        };
        let dst = i
            .defs
            .first()
            .and_then(|d| cx.lanes(Side::Before, d).ok().flatten());
        let src = i
            .uses()
            .next()
            .and_then(|o| cx.lanes(Side::Before, o).ok().flatten());
        match (i.opcode.as_str(), dst, src) {
            ("COPY", Some(d), Some(s)) if d.len() == s.len() => {
                let Some(p) = d.iter().position(|x| *x == n) else {
                    return (n, None);
                };
                n = s[p].clone();
            }
            _ => {
                let ops: Vec<&OpKind> = i.ops.iter().map(|o| &o.kind).collect();
                return (n, Some(format!("{} {ops:?} dword {k}", i.opcode)));
            }
        }
    }
    (n, None)
}

/// Whether the before-names `n` and `m` may be equal by computation.
fn related(cx: &Ctx, n: &str, m: &str) -> bool {
    let ((rn, dn), (rm, dm)) = (root(cx, n), root(cx, m));
    rn == rm || (dn.is_some() && dn == dm)
}

/// The before-operand token at a 1-based column: from the first `%` or `$` on.
fn token(line: &str, col: u32) -> Option<(usize, usize)> {
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let from = chars.get(col.saturating_sub(1) as usize)?.0;
    let start = from + line[from..].find(['%', '$'])?;
    let len = line[start..]
        .find(|c: char| c.is_whitespace() || c == ',' || c == ')')
        .unwrap_or(line.len() - start);
    Some((start, start + len))
}

/// A version `%5.1@L` (the value `%5.1` had before line L redefined it): a copy of `%5` in
/// front of line L, read by its dword.
fn version(
    cx: &Ctx,
    n: &str,
    fresh: &mut u32,
    front: &mut std::collections::BTreeMap<usize, Vec<String>>,
) -> Option<String> {
    let (name, line) = n.split_once('@')?;
    let (id, k) = name.strip_prefix('%')?.split_once('.')?;
    let line: usize = line.parse().ok()?;
    let cls = cx.before.classes.get(&id.parse::<u32>().ok()?)?;
    let dw = super::emit::class_dwords(cls)?;
    *fresh += 1;
    front
        .entry(line - 1)
        .or_default()
        .push(format!("    %{fresh}:{cls} = COPY %{id}"));
    Some(match dw {
        1 => format!("%{fresh}"),
        _ => format!("%{fresh}.sub{k}"),
    })
}

/// The image file: the before-file's text with the image's edits in block `k`.
fn image_text(cx: &Ctx, before: &str, after: &str, img: &Image) -> Result<String, String> {
    let mut lines: Vec<String> = before.lines().map(str::to_string).collect();
    let slots = super::alloc_slots::classes(cx.before)?;
    let alines: Vec<&str> = after.lines().collect();
    let mut front: std::collections::BTreeMap<usize, Vec<String>> = Default::default();
    let mut fresh = cx.before.classes.keys().max().copied().unwrap_or(0) + 1000;
    let mut uses = img.uses.clone();
    uses.sort_by_key(|u| (u.line, std::cmp::Reverse(u.col)));
    for u in &uses {
        let li = u.line as usize - 1;
        let text = lines.get(li).ok_or("an edit outside the file")?;
        let (a, b) = token(text, u.col).ok_or("no operand at an edit")?;
        let spelled: Vec<String> = u
            .names
            .iter()
            .map(|n| {
                image::spell(cx, n)
                    .or_else(|| super::alloc_slots::spell(n, &slots))
                    .or_else(|| version(cx, n, &mut fresh, &mut front))
                    .ok_or(format!("{n} cannot be written"))
            })
            .collect::<Result<_, _>>()?;
        let new = if let [one] = spelled.as_slice() {
            one.clone()
        } else {
            let vector = cx.vector(&u.names[0]);
            let cls = image::tuple_class(vector, spelled.len()).ok_or("no tuple class")?;
            let parts: Vec<String> = spelled
                .iter()
                .enumerate()
                .map(|(k, s)| format!("{s}, %subreg.sub{k}"))
                .collect();
            fresh += 1;
            front.entry(li).or_default().push(format!(
                "    %{fresh}:{cls} = REG_SEQUENCE {}",
                parts.join(", ")
            ));
            format!("%{fresh}")
        };
        lines[li].replace_range(a..b, &new);
    }
    super::alloc_slots::rewrite(cx.before, &mut lines)?;
    for (at, from) in &img.inserts {
        let t = alines
            .get(*from as usize - 1)
            .ok_or("an insert outside the file")?;
        front
            .entry(*at as usize - 1)
            .or_default()
            .push(t.to_string());
    }
    let mut out = String::new();
    for (k, l) in lines.iter().enumerate() {
        for f in front.get(&k).into_iter().flatten() {
            out += f;
            out.push('\n');
        }
        out += l;
        out.push('\n');
    }
    Ok(out)
}

/// Try to refute the function pair where the checker stopped (`fail`): the refuted verdicts
/// of the stopping block on the function's targets, or why not.
pub fn refute(
    files: (&MirFile, &MirFile),
    fns: (&Function, &Function),
    fail: &Fail,
    targets: &[Target],
    recheck: &Recheck,
) -> Result<Vec<BlockVerdict>, String> {
    let (bf, af) = fns;
    let k = fail.block.ok_or("no block")?;
    let mut img = alloc::image_of(bf, af, k, fail.entry.clone())?;
    let mut fail = fail;
    let again;
    if img.uses.is_empty() && img.inserts.is_empty() {
        // It stopped at what an image allows (an early-clobber overlap): walk on to a read.
        again = alloc::check_at(bf, af, true).err().ok_or("no wrong read")?;
        fail = &again;
        let k = fail.block.ok_or("no block")?;
        img = alloc::image_of(bf, af, k, fail.entry.clone())?;
        if img.uses.is_empty() && img.inserts.is_empty() {
            return Err("the block reads what the before-block reads".into());
        }
    }
    let k = fail.block.ok_or("no block")?;
    let cx = Ctx {
        before: bf,
        after: af,
        image: None,
        lenient: true,
    };
    for u in &img.uses {
        if let Some((n, m)) = u.swaps.iter().find(|(n, m)| related(&cx, n, m)) {
            return Err(format!("{n} and {m} may be equal by computation"));
        }
    }
    let read = |p: &str| std::fs::read_to_string(p).map_err(|e| format!("{p}: {e}"));
    let btext = read(&files.0.path)?;
    let text = image_text(&cx, &btext, &read(&files.1.path)?, &img)?;
    let name = format!("{} [image of bb.{}]", files.1.path, bf.blocks[k].num);
    let file = super::mir::parse(&name, &text).map_err(|e| e.to_string())?;
    // The before-file with its spills as copies too, when it has any (`alloc_slots.rs`).
    let plain = image_text(&cx, &btext, "", &Image::default())?;
    let bname = format!("{} [spills as copies]", files.0.path);
    let bfile = super::mir::parse(&bname, &plain).map_err(|e| e.to_string())?;
    let vs = recheck(&bfile, &file, std::slice::from_ref(&bf.name))?;
    let num = bf.blocks[k].num;
    let path: Vec<String> = fail.path.iter().map(|b| format!("bb.{b}")).collect();
    let swaps: Vec<String> = img
        .uses
        .iter()
        .flat_map(|u| {
            u.swaps
                .iter()
                .map(move |(n, m)| format!("before-line {}: {m} for {n}", u.line))
        })
        .collect();
    let mut out = Vec::new();
    for t in targets {
        let v = vs
            .iter()
            .find(|v| v.function == bf.name && v.block == num && v.target == t.name());
        let Some(v) = v.filter(|v| v.verdict == "refuted") else {
            if let Some(d) = std::env::var_os("GCNSMT_ALLOC_IMAGE") {
                let _ = std::fs::write(d, &text);
            }
            return Err(format!(
                "the image of bb.{num} is not refuted on {t}: {}: {}",
                v.map_or("no verdict", |v| v.verdict),
                v.and_then(|v| v.reason.as_deref()).unwrap_or("")
            ));
        };
        let mut v = v.clone();
        v.reason = Some(format!(
            "register-allocation checker: {} (path {}); the before-block against the \
             after-block's image (reading {}{}) is refuted: {}",
            img.first.as_deref().unwrap_or(&fail.why),
            path.join(" -> "),
            swaps.join("; "),
            match img.inserts.len() {
                0 => String::new(),
                n => format!("; with the after-file's {n} constant write(s)"),
            },
            v.reason.as_deref().unwrap_or("")
        ));
        v.file = files.1.path.clone();
        v.line = af.blocks[k].loc.line;
        v.col = af.blocks[k].loc.col;
        out.push(v);
    }
    Ok(out)
}
