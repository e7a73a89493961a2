//! The 64-bit moves and bitwise SALU ops (`S_MOV_B64`, `S_MOV_B64_IMM_PSEUDO`,
//! `V_MOV_B64_PSEUDO`, `S_AND_B64`, `S_OR_B64`, `S_XOR_B64`): each is its 32-bit op on the low
//! and the high half (bitwise ops and moves have no carry between halves), with the hardware's
//! rules for 64-bit immediates.

use super::emit::{dwords, imm_text, is_vgpr_dest, Side};
use super::mir::{Inst, OpKind, Operand};
use gcnsmt_semantics::target::Target;

/// The 64-bit moves and bitwise SALU ops, as the 32-bit op applied to each half: MIR name ->
/// (32-bit mnemonic, sources, whether an immediate is the pseudo's full 64-bit value).
/// `S_MOV_B64_IMM_PSEUDO` and `V_MOV_B64_PSEUDO` take any 64-bit immediate and are expanded to
/// two 32-bit moves (LLVM `SIInstrInfo::expandPostRAPseudo`); the real `S_MOV_B64` /
/// `V_MOV_B64_e32` encode only an inline constant or a 32-bit literal ([`imm64`]).
fn wide_salu(op: &str) -> Option<(&'static str, usize, bool)> {
    Some(match op {
        "S_MOV_B64" => ("s_mov_b32", 1, false),
        "S_MOV_B64_IMM_PSEUDO" => ("s_mov_b32", 1, true),
        "V_MOV_B64_PSEUDO" => ("v_mov_b32", 1, true),
        "V_MOV_B64_e32" | "V_MOV_B64_e64" => ("v_mov_b32", 1, false),
        "S_AND_B64" => ("s_and_b32", 2, false),
        "S_OR_B64" => ("s_or_b32", 2, false),
        "S_XOR_B64" => ("s_xor_b32", 2, false),
        _ => return None,
    })
}

/// The two 32-bit halves a 64-bit source immediate stands for. An inline constant (-16..=64,
/// or one of the f64 constants +-0.5, +-1, +-2, +-4) is its 64-bit value (AMD Vega ISA guide,
/// "Inline Constants"); any other value needs a 32-bit literal, which the hardware extends by
/// the operand's type (the guide: "padding the MSBs with zeros" or sign-extending), so only a
/// literal in 0..2^31, where both extensions agree, is modelled. A value that needs more than
/// 32 bits is its 64-bit MIR value here (what LLVM's passes read it as); only gfx1250 can
/// encode it (`has64BitLiterals`), and an after-side instruction the pass introduced with such
/// a value is first rewritten to what the encoder emits ([`encoded_after`]).
pub(super) fn imm64(v: i64, full: bool) -> Result<[u32; 2], String> {
    let halves = |x: i64| [x as u32, (x as u64 >> 32) as u32];
    const F64_INLINE: [f64; 8] = [0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0];
    let wide = i32::try_from(v).is_err() && u32::try_from(v).is_err();
    if full || wide || (-16..=64).contains(&v) || (0..1 << 31).contains(&v) {
        return Ok(halves(v));
    }
    if F64_INLINE.iter().any(|f| f.to_bits() as i64 == v) {
        return Ok(halves(v));
    }
    Err(format!(
        "the 64-bit extension of the 32-bit literal {v} is not modelled"
    ))
}

/// The after-block as the hardware runs it: a real 64-bit op (not a `full` pseudo) the pass
/// introduced (no instruction of the before-block has its text) with an immediate over 32 bits
/// on a target without 64-bit literals (all but gfx1250) cannot be encoded, and LLVM's encoder
/// emits its low dword as a 32-bit literal (llvm/llvm-project#200576: `s_mov_b64 s[0:1],
/// lit(0x5)` for 0x13_00000005); that literal is read as its 64-bit extension, modelled where
/// it is below 2^31. `None`: nothing to rewrite; `Err`: the low dword's extension is unknown.
pub fn encoded_after(
    before: &super::mir::Block,
    after: &super::mir::Block,
    target: Target,
) -> Result<Option<super::mir::Block>, String> {
    if target == Target::Gfx1250 {
        return Ok(None);
    }
    let mut out = after.clone();
    let mut changed = false;
    for i in &mut out.insts {
        let real = wide_salu(&i.opcode).is_some_and(|(_, _, full)| !full);
        if !real || before.insts.iter().any(|j| j.key == i.key) {
            continue;
        }
        for o in &mut i.ops {
            let OpKind::Imm(v) = o.kind else { continue };
            if i32::try_from(v).is_ok() || u32::try_from(v).is_ok() || inline_f64(v, target) {
                continue;
            }
            let lo = v as u32;
            if lo >= 1 << 31 {
                return Err(format!(
                    "{}: the immediate {v} cannot be encoded on {target}, and the 64-bit \
                     extension of its low dword 0x{lo:x} is not modelled",
                    i.opcode
                ));
            }
            o.kind = OpKind::Imm(i64::from(lo));
            changed = true;
        }
    }
    Ok(changed.then_some(out))
}

/// Whether `v` is an f64 inline constant of `target` (AMD Vega ISA guide, "Inline Constants":
/// +-0.5, +-1, +-2, +-4, and from gfx8 on 1/(2*pi), LLVM's `HasInv2Pi`; llc-22 encodes
/// `s_mov_b64 s[4:5], 0x3FC45F306DC9C882` on gfx900 as SSRC0 = 248): the encoder emits it
/// whole, so it needs no literal.
fn inline_f64(v: i64, target: Target) -> bool {
    const F64_INLINE: [f64; 8] = [0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0];
    const INV_2PI: i64 = 0x3FC4_5F30_6DC9_C882;
    F64_INLINE.iter().any(|f| f.to_bits() as i64 == v)
        || (v == INV_2PI && target.gen() >= gcnsmt_semantics::target::Gen::Gfx8)
}

/// Whether `op` is a 64-bit move or bitwise op lowered as two 32-bit ops.
pub fn is_wide(op: &str) -> bool {
    wide_salu(op).is_some()
}

/// A 64-bit move or bitwise op ([`wide_salu`]) as its 32-bit op on each half.
pub(super) fn lower(
    side: &Side,
    i: &Inst,
    uses: &[&Operand],
    target: Target,
) -> Result<Vec<String>, String> {
    let (m, n, full) = wide_salu(&i.opcode).expect("checked by the caller");
    let d = i.defs.first().ok_or("missing definition")?;
    let dd = dwords(side, d, target)?;
    if dd.len() != 2 {
        return Err("a 64-bit result needs two dwords".into());
    }
    let mut srcs: Vec<[String; 2]> = Vec::new();
    for o in uses.iter().take(n) {
        srcs.push(match o.kind {
            OpKind::Imm(v) => imm64(v, full)?.map(|h| imm_text(i64::from(h))),
            _ => {
                let sd = dwords(side, o, target)?;
                let [lo, hi] = sd.as_slice() else {
                    return Err("a 64-bit source needs two dwords".into());
                };
                if *lo == dd[0] && *hi != dd[1] || dd[0] == *hi {
                    // The low half's write would change what the high half reads.
                    return Err("overlapping 64-bit source and result".into());
                }
                [lo.clone(), hi.clone()]
            }
        });
    }
    if srcs.len() < n {
        // Every op of `wide_salu` has at least its `n` sources in LLVM's definition.
        return Err(format!(
            "{}expected {n} sources, found {}",
            super::emit::MALFORMED,
            srcs.len()
        ));
    }
    if uses.len() > n && !matches!(uses[n].kind, OpKind::Imm(_)) {
        return Err(format!("expected {n} sources"));
    }
    if m == "v_mov_b32" && !is_vgpr_dest(side, d) {
        return Err("a VALU result in an SGPR is not modelled".into());
    }
    Ok((0..2)
        .map(|k| {
            let ops: Vec<&str> = srcs.iter().map(|s| s[k].as_str()).collect();
            format!("{m} {}, {}", dd[k], ops.join(", "))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::imm64;

    #[test]
    fn sixty_four_bit_immediates() {
        // Inline constants are 64-bit values: -1 is all ones, 1.0 is 0x3ff00000_00000000.
        assert_eq!(imm64(-1, false), Ok([0xffff_ffff, 0xffff_ffff]));
        assert_eq!(imm64(1.0f64.to_bits() as i64, false), Ok([0, 0x3ff0_0000]));
        // A literal below 2^31 reads the same zero- or sign-extended.
        assert_eq!(imm64(0x1234, false), Ok([0x1234, 0]));
        // Negative or >= 2^31 literals depend on the extension; > 32 bits cannot be encoded
        // (llvm/llvm-project#200576: 0x13_00000005 ran as 5).
        assert!(imm64(-100, false).is_err());
        assert!(imm64(0x8000_0000, false).is_err());
        // > 32 bits: the MIR value (an after-side one is rewritten first, `encoded_after`).
        assert_eq!(imm64(0x13_0000_0005, false), Ok([5, 0x13]));
        // The pseudos carry the whole value.
        assert_eq!(imm64(0x13_0000_0005, true), Ok([5, 0x13]));
    }
}
