//! VCCZ, the "VCC is zero" bit `S_CBRANCH_VCCZ`/`S_CBRANCH_VCCNZ` read (breaker 14, 02). The
//! model computes it from VCC, but the hardware keeps it as its own bit: before gfx10 a write
//! of `vcc_lo` or `vcc_hi` alone does not update it (LLVM `partialVCCWritesUpdateVCCZ`), and
//! on gfx6-8 an SMEM load pending can leave it stale (`hasReadVCCZBug`); si-insert-waitcnts
//! inserts `$vcc = S_MOV_B64 $vcc` to refresh it, which the model takes for a no-op. So in a
//! function that branches on VCCZ, a block pair whose VCC writes differ (one dropped, added,
//! changed or moved) is `unsupported`.

use super::diff::{BlockPair, FnPair};
use super::mir::{Block, Inst, OpKind};

fn writes_vcc(i: &Inst) -> bool {
    i.defs
        .iter()
        .chain(i.ops.iter().filter(|o| o.flags.implicit_def || o.flags.def))
        .any(|o| matches!(&o.kind, OpKind::Phys(p) if p.starts_with("vcc")))
}

fn vcc_writes(b: &Block) -> Vec<&str> {
    b.insts
        .iter()
        .filter(|i| writes_vcc(i))
        .map(|i| i.key.as_str())
        .collect()
}

/// Why the pair's VCC writes cannot be checked, if so.
pub(super) fn changed(fp: &FnPair, bp: &BlockPair) -> Option<String> {
    // The block's own test first: the function's is a scan of all of it (per proved block).
    if vcc_writes(&bp.before) == vcc_writes(&bp.after) {
        return None;
    }
    let branches = [fp.before, fp.after].iter().any(|f| {
        f.blocks
            .iter()
            .flat_map(|b| &b.insts)
            .any(|i| i.opcode.starts_with("S_CBRANCH_VCC"))
    });
    branches.then(|| {
        "the pass changed the VCC writes of a function that branches on VCCZ (S_CBRANCH_VCCZ/\
         VCCNZ): VCCZ is not updated by every VCC write on the hardware, which the model does \
         not see"
            .to_string()
    })
}
