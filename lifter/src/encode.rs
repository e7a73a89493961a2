//! [`DsInst`] -> 64-bit DS word, the inverse of [`crate::decode()`].
//!
//! Field positions: LLVM `DSInstructions.td` (`Base_DS_Real_gfx6_gfx7_gfx10_gfx11_gfx12`,
//! `DS_Real_vi`), confirmed by llvm-mc-22 probes (`shared/reference/llvm-mc/ds_encoding_probes_llvm22.txt`).

use gcnsmt_semantics::target::DsLayout;

use crate::inst::{DsInst, RegTuple};
use crate::table::data0_in_addr_field;

fn reg(r: Option<RegTuple>) -> u64 {
    r.map_or(0, |r| u64::from(r.first & 0xff))
}

/// Encode to the 64-bit word (little-endian byte order when stored).
/// Does not validate: an instruction from [`crate::decode()`] or [`crate::parse_asm`]
/// encodes to a word that decodes back to it.
pub fn encode(inst: &DsInst) -> u64 {
    let op = u64::from(inst.opcode);
    let gds = u64::from(inst.gds);
    let mut w = u64::from(inst.offset0) | (u64::from(inst.offset1) << 8) | (0x36 << 26);
    w |= match inst.target.ds_layout() {
        DsLayout::Vi => (gds << 16) | (op << 17) | (u64::from(inst.uses_agpr()) << 25),
        DsLayout::Si | DsLayout::Vds => (gds << 17) | (op << 18),
    };
    let (addr_field, data0_field) = if data0_in_addr_field(inst.mnemonic) {
        (reg(inst.data0), 0)
    } else {
        (reg(inst.addr), reg(inst.data0))
    };
    w | (addr_field << 32) | (data0_field << 40) | (reg(inst.data1) << 48) | (reg(inst.vdst) << 56)
}

/// Encode to 8 little-endian bytes, as llvm-mc's `encoding: [...]` lists them.
pub fn encode_bytes(inst: &DsInst) -> [u8; 8] {
    encode(inst).to_le_bytes()
}
