//! MUBUF and MTBUF (64-bit, gfx6-gfx11) and VBUFFER (96-bit, gfx12/gfx1250) instructions: the
//! decoded form [`MubufInst`], decoding ([`decode_mubuf`], total), encoding ([`encode_mubuf`])
//! and printing (`Display`, LLVM 22 canonical syntax). MTBUF (`tbuffer_*` before gfx12, bits
//! 31:26 = 0x3a) differs only in the opcode and flag positions and the FORMAT field 25:19
//! ([`crate::mtbuf_table`]).
//!
//! Field positions per generation: [`MubufLayout`] (LLVM `BUFInstructions.td`
//! `MUBUF_Real_*`, `VBUFFER_Real_gfx12`; confirmed bit by bit with llvm-mc-22 probes).
//! Validity mirrors llvm-mc-22's disassembler as measured by `tests/llvm_mc_live.rs`:
//! fields an opcode does not use are ignored (VADDR without OFFEN/IDXEN/ADDR64, VDATA of
//! `lds` loads and cache ops, FORMAT of untyped VBUFFER ops, SRSRC bits 42:41 on VBUFFER),
//! while flag bits a form does not have make the word invalid. As for DS, words that LLVM
//! prints as text its own assembler rejects are errors here: stores with TFE ("TFE modifier
//! has no meaning for store instructions"), `nv` on gfx1200 ("nv is not supported on this
//! GPU"), tuples past v255/a255, misaligned tuples on
//! gfx90a+/gfx1250 (`/*Invalid register*/`), SOFFSET 254 (`src_lds_direct`) and 255 (a
//! literal, on which llvm-mc-22 crashes).

use gcnsmt_semantics::target::{Gen, Target};

use crate::hex::push_dec;
use crate::inst::{BadTuple, RegFile, RegTuple, TupleFault};
use crate::mtbuf_table;
use crate::mubuf_table::{
    self, mubuf_by_opcode, soffset_str, srsrc_str, MubufClass, MubufLayout, MubufShape,
};
use crate::text::{display_via_text, WriteText};

/// Cache-policy bits, named after LLVM's `CPol` (word positions per [`MubufLayout`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CachePolicy {
    /// GLC (`glc`; `sc0` on gfx942/gfx950). Bit 14 on every 64-bit layout.
    pub glc: bool,
    /// SLC (`slc`; `nt` on gfx942/gfx950). Bit 54 on SI/gfx10, 17 on VI/gfx9/CDNA, 12 on gfx11.
    pub slc: bool,
    /// DLC (`dlc`, gfx10/gfx11). Bit 15 on gfx10, 13 on gfx11.
    pub dlc: bool,
    /// SCC (`scc` on gfx90a, `sc1` on gfx942/gfx950). Bit 15.
    pub scc: bool,
    /// gfx12 temporal hint TH (bits 54:52), printed `th:...` by class.
    pub th: u8,
    /// gfx12 scope (bits 51:50), printed `scope:SCOPE_{CU,SE,DEV,SYS}`.
    pub scope: u8,
    /// gfx12 NV (bit 7), printed `nv`.
    pub nv: bool,
}

/// One MUBUF/VBUFFER instruction for a target. Register numbers are as encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MubufInst {
    /// Target the instruction is encoded for.
    pub target: Target,
    /// Opcode (7 bits before gfx10, 8 bits from gfx10).
    pub opcode: u8,
    /// LLVM 22 mnemonic on this target.
    pub mnemonic: &'static str,
    /// Operand shape (see [`MubufShape`]).
    pub shape: MubufShape,
    /// Data tuple (VDATA 47:40, or 39:32 on VBUFFER); `None` for cache ops and `lds` loads.
    /// Width is `shape.vdata + tfe` dwords; AGPRs (ACC bit 55) on gfx90a/gfx942/gfx950.
    pub vdata: Option<RegTuple>,
    /// Address VGPRs (VADDR 39:32, or 71:64 on VBUFFER): one with `offen` or `idxen`, two
    /// with both (index first) or with `addr64`; `None` prints `off`.
    pub vaddr: Option<RegTuple>,
    /// First SGPR of the 128-bit resource descriptor (multiple of 4; SRSRC field x 4).
    pub srsrc: u16,
    /// SOFFSET scalar operand value (SGPR number, special register or inline constant code;
    /// see [`crate::mubuf_table::soffset_name`]).
    pub soffset: u8,
    /// Unsigned immediate byte offset: 12 bits before gfx12, 23 bits on VBUFFER.
    pub offset: u32,
    /// `offen`: VADDR holds a byte offset.
    pub offen: bool,
    /// `idxen`: VADDR holds an index (scaled by the stride in the descriptor).
    pub idxen: bool,
    /// `addr64` (gfx6/gfx7 only, bit 15): VADDR is a 64-bit address.
    pub addr64: bool,
    /// `lds` (bit 16, before gfx11): the load writes LDS at M0 instead of VGPRs.
    pub lds: bool,
    /// `tfe`: texture-fail-enable, one more vdata dword receives the fail flag.
    pub tfe: bool,
    /// Cache-policy bits.
    pub cpol: CachePolicy,
    /// FORMAT of typed (`tbuffer_*`) ops, 7 bits: MTBUF 25:19 (gfx6-gfx9/CDNA: NFMT 25:23 in
    /// bits 6:4 and DFMT 22:19 in bits 3:0; gfx10/gfx11: the unified code), VBUFFER 61:55.
    /// Untyped ops keep 0 (MUBUF) or 1 (VBUFFER).
    pub format: u8,
}

/// Why a word is not a valid MUBUF/VBUFFER instruction for the target.
/// Its text: [`crate::text::WriteText`] (`lifter/src/reason.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MubufDecodeErrorKind {
    /// The encoding bits are not MUBUF (31:26 = 0x38) or MTBUF (0x3a) before gfx12, or
    /// VBUFFER (0x31) on gfx12/gfx1250.
    NotMubuf {
        /// Bits 31:26 of the word.
        got: u8,
        /// The encoding the target uses: `"MUBUF"` or `"VBUFFER"`.
        want: &'static str,
    },
    /// The opcode names nothing on this target.
    UnknownOpcode {
        /// The OP field (7 or 8 bits, by layout).
        opcode: u8,
        /// The target.
        target: Target,
    },
    /// A flag bit this form of the op does not have is set.
    FlagNotAllowed {
        /// The op's LLVM mnemonic.
        mnemonic: &'static str,
        /// The flag or combination, e.g. `"addr64 with offen/idxen"`.
        what: &'static str,
        /// The target.
        target: Target,
    },
    /// SRSRC names no 128-bit SGPR tuple.
    BadSrsrc {
        /// The op's LLVM mnemonic.
        mnemonic: &'static str,
        /// The first SGPR the SRSRC field names (MUBUF: the 5-bit field times 4).
        sgpr: u16,
        /// The target.
        target: Target,
    },
    /// SOFFSET names no scalar operand LLVM accepts.
    BadSoffset {
        /// The op's LLVM mnemonic.
        mnemonic: &'static str,
        /// The raw SOFFSET field (8 bits on MUBUF, 7 on VBUFFER), an LLVM scalar operand code.
        value: u8,
        /// The target.
        target: Target,
    },
    /// A tuple runs past register 255.
    TupleOutOfRange(BadTuple),
    /// A tuple starts at an odd register where the target needs even alignment (gfx90a,
    /// gfx942, gfx950, gfx1250: [`Target::needs_aligned_vgpr_tuples`]).
    MisalignedTuple(BadTuple),
    /// A flag bit llvm-mc-22 rejects for this op (see [`MubufShape::invalid_bits`]).
    FlagBit {
        /// The op's LLVM mnemonic.
        mnemonic: &'static str,
        /// Index of the lowest offending bit in the instruction (0 = bit 0 of the first dword).
        bit: u32,
        /// The target.
        target: Target,
    },
    /// VBUFFER offset bit 95 set (LLVM accepts 23-bit offsets only).
    OffsetSign {
        /// The op's LLVM mnemonic.
        mnemonic: &'static str,
    },
}

/// A word that does not decode; displays as `.long 0x..., 0x...[, 0x...] ; reason`, which
/// re-assembles to the same bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MubufDecodeError {
    /// The instruction's little-endian dwords (the first 2, or 3 on VBUFFER targets; a fixed
    /// array so that a rejected word costs no allocation).
    pub dwords: [u32; 3],
    /// How many of `dwords` the instruction has (2 or 3).
    pub len: u8,
    /// The reason.
    pub kind: MubufDecodeErrorKind,
}

impl MubufDecodeError {
    /// The instruction's dwords.
    pub fn words(&self) -> &[u32] {
        &self.dwords[..usize::from(self.len).min(3)]
    }
}

fn bit(w: u128, b: u32) -> bool {
    (w >> b) & 1 != 0
}

fn bits(w: u128, hi: u32, lo: u32) -> u32 {
    ((w >> lo) & ((1u128 << (hi - lo + 1)) - 1)) as u32
}

/// Whether VGPR/AGPR tuples of `count > 1` registers must start even on `target`.
fn needs_even(target: Target) -> bool {
    target.needs_aligned_vgpr_tuples()
}

/// Decode the first 8 (12 on gfx12/gfx1250) little-endian bytes of `bytes` for `target`;
/// shorter input is zero-padded.
#[inline]
pub fn decode_mubuf(target: Target, bytes: &[u8]) -> Result<MubufInst, MubufDecodeError> {
    let layout = MubufLayout::of(target);
    let n = layout.bytes();
    let mut b = [0u8; 16];
    let k = bytes.len().min(n);
    b[..k].copy_from_slice(&bytes[..k]);
    let w = u128::from_le_bytes(b);
    decode_inner(target, layout, w).map_err(|kind| MubufDecodeError {
        dwords: [0, 1, 2]
            .map(|i| u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])),
        len: (n / 4) as u8,
        kind,
    })
}

#[inline]
fn decode_inner(
    target: Target,
    layout: MubufLayout,
    w: u128,
) -> Result<MubufInst, MubufDecodeErrorKind> {
    use MubufDecodeErrorKind as E;
    use MubufLayout as L;
    let enc = bits(w, 31, 26) as u8;
    let vbuf = layout == L::Vbuffer;
    let (want_enc, want) = if vbuf {
        (0x31, "VBUFFER")
    } else {
        (0x38, "MUBUF")
    };
    let mtbuf = !vbuf && enc == 0x3a;
    if enc != want_enc && !mtbuf {
        return Err(E::NotMubuf { got: enc, want });
    }
    let opcode = match layout {
        _ if mtbuf => mtbuf_table::mtbuf_opcode(layout, w),
        L::Vbuffer => bits(w, 21, 14) as u8,
        L::Gfx11 => bits(w, 25, 18) as u8,
        L::Gfx10 => (bits(w, 24, 18) | (bits(w, 25, 25) << 7)) as u8,
        _ => bits(w, 24, 18) as u8,
    };
    let found = if mtbuf {
        mtbuf_table::mtbuf_by_opcode(target, opcode)
    } else {
        mubuf_by_opcode(target, opcode)
    };
    let (mnemonic, shape) = found.ok_or(E::UnknownOpcode { opcode, target })?;
    let bad = w & shape.invalid_bits;
    if bad != 0 {
        return Err(E::FlagBit {
            mnemonic,
            bit: bad.trailing_zeros(),
            target,
        });
    }
    let w = w & !shape.ignored_bits;
    let [offen, idxen, addr64, lds, tfe, acc, glc, slc, dlc, scc, nv] = if mtbuf {
        mtbuf_table::mtbuf_flag_bits(layout)
    } else {
        layout.flag_bits()
    };
    let get = |pos: u32| pos != 0 && bit(w, pos);
    let mut cpol = CachePolicy {
        glc: get(glc),
        scc: get(scc),
        ..CachePolicy::default()
    };
    let inst = MubufInst::bare(target, opcode, mnemonic, shape);
    if shape.class == MubufClass::Cache {
        // Only the opcode and, on gfx942/gfx950, SC0/SC1 matter (flag masks above).
        return Ok(MubufInst { cpol, ..inst });
    }
    cpol.slc = get(slc);
    cpol.dlc = get(dlc);
    cpol.nv = get(nv);
    if vbuf {
        cpol.scope = bits(w, 51, 50) as u8;
        cpol.th = bits(w, 54, 52) as u8;
    }
    let mut inst = MubufInst {
        offen: get(offen),
        idxen: get(idxen),
        addr64: get(addr64),
        lds: get(lds),
        tfe: get(tfe),
        cpol,
        ..inst
    };
    let acc = get(acc);
    check_decoded_flags(&inst, acc, w)?;
    decode_operands(&mut inst, acc, w)?;
    Ok(inst)
}

/// The flag combinations of a decoded `inst` (with the ACC bit `acc`, from word `w`) that
/// llvm-mc-22 rejects or whose text its assembler rejects.
fn check_decoded_flags(inst: &MubufInst, acc: bool, w: u128) -> Result<(), MubufDecodeErrorKind> {
    let (mnemonic, target, shape) = (inst.mnemonic, inst.target, inst.shape);
    let flag = |what: &'static str| {
        Err(MubufDecodeErrorKind::FlagNotAllowed {
            mnemonic,
            what,
            target,
        })
    };
    let vbuf = MubufLayout::of(target) == MubufLayout::Vbuffer;
    let cpol = inst.cpol;
    let (lds, tfe, offen, idxen) = (inst.lds, inst.tfe, inst.offen, inst.idxen);
    if cpol.nv && target == Target::Gfx1200 {
        return flag("nv (bit 7; llvm-mc prints it, but its assembler rejects it on gfx1200)");
    }
    if shape.lds_only && (!lds || offen || idxen) {
        return flag("this op exists only as `lds` without vaddr;");
    }
    let rtn_bit = if vbuf { cpol.th & 1 == 1 } else { cpol.glc };
    if shape.class == MubufClass::Atomic && rtn_bit && !shape.rtn {
        return flag("the returning form (glc/sc0/TH_ATOMIC_RETURN)");
    }
    if lds && (tfe || acc) {
        return flag("tfe/acc with lds");
    }
    if tfe && shape.class == MubufClass::Store {
        return flag("tfe on a store (llvm-mc prints it, but its assembler rejects it)");
    }
    if inst.addr64 && (offen || idxen) {
        return flag("addr64 with offen/idxen");
    }
    if vbuf && bit(w, 95) {
        return Err(MubufDecodeErrorKind::OffsetSign { mnemonic });
    }
    Ok(())
}

/// Fill in the register operands, offset and format of `inst` (flags decoded) from word `w`
/// (`acc`: vdata is AGPRs), checking tuples, SRSRC and SOFFSET.
fn decode_operands(inst: &mut MubufInst, acc: bool, w: u128) -> Result<(), MubufDecodeErrorKind> {
    use MubufDecodeErrorKind as E;
    let (mnemonic, target, shape) = (inst.mnemonic, inst.target, inst.shape);
    let tuple = |field: &'static str, file: RegFile, first: u16, count: u8| {
        let t = RegTuple { file, first, count };
        match t.fault(count > 1 && needs_even(target)) {
            None => Ok(t),
            Some(TupleFault::PastV255) => {
                Err(E::TupleOutOfRange(t.bad((mnemonic, field, target), true)))
            }
            Some(TupleFault::Odd) => {
                Err(E::MisalignedTuple(t.bad((mnemonic, field, target), true)))
            }
        }
    };
    let vbuf = MubufLayout::of(target) == MubufLayout::Vbuffer;
    let (vdata_f, vaddr_f, soff, srsrc) = if vbuf {
        (
            bits(w, 39, 32) as u16,
            bits(w, 71, 64) as u16,
            bits(w, 6, 0) as u8,
            // SGPR number; the low two bits are ignored except at 124 (`null`).
            match bits(w, 49, 41) {
                v @ 124..=127 => v as u16,
                v => (v & !3) as u16,
            },
        )
    } else {
        (
            bits(w, 47, 40) as u16,
            bits(w, 39, 32) as u16,
            bits(w, 63, 56) as u8,
            (bits(w, 52, 48) * 4) as u16,
        )
    };
    if !inst.lds {
        let file = if acc { RegFile::A } else { RegFile::V };
        inst.vdata = Some(tuple(
            "vdata",
            file,
            vdata_f,
            shape.vdata + u8::from(inst.tfe),
        )?);
    }
    let naddr = if inst.addr64 {
        2
    } else {
        u8::from(inst.offen) + u8::from(inst.idxen)
    };
    if naddr > 0 {
        inst.vaddr = Some(tuple("vaddr", RegFile::V, vaddr_f, naddr)?);
    }
    if srsrc_str(target, srsrc).is_none() {
        return Err(E::BadSrsrc {
            mnemonic,
            sgpr: srsrc,
            target,
        });
    }
    if soffset_str(target, soff).is_none() {
        return Err(E::BadSoffset {
            mnemonic,
            value: soff,
            target,
        });
    }
    inst.srsrc = srsrc;
    inst.soffset = soff;
    inst.offset = if vbuf {
        bits(w, 95, 72)
    } else {
        bits(w, 11, 0)
    };
    inst.format = match (vbuf, shape.typed) {
        (true, true) => bits(w, 61, 55) as u8,
        (true, false) => 1,
        (false, true) => bits(w, 25, 19) as u8,
        (false, false) => 0,
    };
    Ok(())
}

/// Encode to the instruction's little-endian dwords packed in a `u128` (bits 63:0, or 95:0
/// on VBUFFER). Does not validate: an instruction from [`decode_mubuf`] or
/// [`crate::parse_mubuf`] encodes to a word that decodes back to it.
pub fn encode_mubuf(inst: &MubufInst) -> u128 {
    use MubufLayout as L;
    let layout = MubufLayout::of(inst.target);
    let mtbuf = mtbuf_table::is_mtbuf(inst.target, &inst.shape);
    let pos = if mtbuf {
        mtbuf_table::mtbuf_flag_bits(layout)
    } else {
        layout.flag_bits()
    };
    let acc = inst.vdata.is_some_and(|r| r.file == RegFile::A);
    let c = inst.cpol;
    let set = [
        inst.offen,
        inst.idxen,
        inst.addr64,
        inst.lds,
        inst.tfe,
        acc,
        c.glc,
        c.slc,
        c.dlc,
        c.scc,
        c.nv,
    ];
    let flags = pos
        .iter()
        .zip(set)
        .filter(|&(&p, x)| p != 0 && x)
        .fold(0u128, |w, (&p, _)| w | (1u128 << p));
    let op = u128::from(inst.opcode);
    let reg = |r: Option<RegTuple>| r.map_or(0, |r| u128::from(r.first & 0xff));
    if layout == L::Vbuffer {
        return flags
            | u128::from(inst.soffset & 0x7f)
            | (op << 14)
            | (0x31 << 26)
            | (reg(inst.vdata) << 32)
            | (u128::from(inst.srsrc & 0x1ff) << 41)
            | (u128::from(c.scope & 3) << 50)
            | (u128::from(c.th & 7) << 52)
            | (u128::from(inst.format & 0x7f) << 55)
            | (reg(inst.vaddr) << 64)
            | (u128::from(inst.offset & 0x7f_ffff) << 72);
    }
    let op_bits = match layout {
        _ if mtbuf => {
            mtbuf_table::mtbuf_opcode_bits(layout, inst.opcode)
                | (u128::from(inst.format & 0x7f) << 19)
                | (0x3a << 26)
        }
        L::Gfx11 => (op << 18) | (0x38 << 26),
        L::Gfx10 => ((op & 0x7f) << 18) | ((op >> 7) << 25) | (0x38 << 26),
        _ => ((op & 0x7f) << 18) | (0x38 << 26),
    };
    flags
        | op_bits
        | u128::from(inst.offset & 0xfff)
        | (reg(inst.vaddr) << 32)
        | (reg(inst.vdata) << 40)
        | (u128::from((inst.srsrc / 4) & 0x1f) << 48)
        | (u128::from(inst.soffset) << 56)
}

/// Encode to little-endian bytes as llvm-mc's `encoding: [...]` lists them (8, or 12 on
/// VBUFFER targets).
pub fn encode_mubuf_bytes(inst: &MubufInst) -> Vec<u8> {
    let n = MubufLayout::of(inst.target).bytes();
    encode_mubuf(inst).to_le_bytes()[..n].to_vec()
}

impl MubufInst {
    /// The instruction with no operands and every flag, offset and format field zero (a
    /// cache op as decoded; where a parser or decoder starts).
    pub(crate) fn bare(
        target: Target,
        opcode: u8,
        mnemonic: &'static str,
        shape: MubufShape,
    ) -> MubufInst {
        MubufInst {
            target,
            opcode,
            mnemonic,
            shape,
            vdata: None,
            vaddr: None,
            srsrc: 0,
            soffset: 0,
            offset: 0,
            offen: false,
            idxen: false,
            addr64: false,
            lds: false,
            tfe: false,
            cpol: CachePolicy::default(),
            format: 0,
        }
    }

    /// Whether an atomic returns the pre-op value (GLC/SC0 before gfx12, TH bit 0 on gfx12).
    pub fn returns(&self) -> bool {
        match self.shape.class {
            MubufClass::Atomic if MubufLayout::of(self.target) == MubufLayout::Vbuffer => {
                self.cpol.th & 1 == 1
            }
            MubufClass::Atomic => self.cpol.glc,
            MubufClass::Load => true,
            _ => false,
        }
    }
}

impl WriteText for MubufInst {
    fn write_text(&self, out: &mut String) {
        out.push_str(self.mnemonic);
        let t = self.target;
        let layout = MubufLayout::of(t);
        if self.shape.class == MubufClass::Cache {
            return self.write_cpol(out, layout);
        }
        out.push(' ');
        if let Some(v) = self.vdata {
            v.write_text(out);
            out.push_str(", ");
        }
        match self.vaddr {
            Some(a) => {
                a.write_text(out);
                out.push_str(", ");
            }
            None if self.shape.lds_only => {}
            None => out.push_str("off, "),
        }
        out.push_str(srsrc_str(t, self.srsrc).unwrap_or("<bad srsrc>"));
        out.push_str(", ");
        out.push_str(soffset_str(t, self.soffset).unwrap_or("<bad soffset>"));
        if self.shape.typed {
            mtbuf_table::push_format(out, t, self.format);
        }
        if self.idxen {
            out.push_str(" idxen");
        }
        if self.offen {
            out.push_str(" offen");
        }
        if self.addr64 {
            out.push_str(" addr64");
        }
        if self.offset != 0 {
            out.push_str(" offset:");
            push_dec(out, self.offset.into());
        }
        if self.shape.lds_only {
            // `buffer_store_lds_dword`: LLVM prints `lds` before the cache policy.
            out.push_str(" lds");
            return self.write_cpol(out, layout);
        }
        self.write_cpol(out, layout);
        if self.tfe {
            out.push_str(" tfe");
        }
        if self.lds {
            out.push_str(" lds");
        }
    }
}

display_via_text!(MubufInst);

impl MubufInst {
    fn write_cpol(&self, out: &mut String, layout: MubufLayout) {
        let c = self.cpol;
        let t = self.target;
        if layout == MubufLayout::Vbuffer {
            if c.th != 0 {
                out.push_str(" th:");
                out.push_str(&mubuf_table::th_name(self.shape.class, c.th, c.scope));
            }
            if c.scope != 0 {
                out.push_str(" scope:");
                out.push_str(mubuf_table::SCOPE_NAMES[c.scope as usize & 3]);
            }
            if c.nv {
                out.push_str(" nv");
            }
        } else {
            let gfx940 = layout == MubufLayout::Gfx940;
            if c.glc {
                out.push_str(if gfx940 { " sc0" } else { " glc" });
            }
            if c.slc {
                out.push_str(if gfx940 { " nt" } else { " slc" });
            }
            if c.dlc && t.gen() >= Gen::Gfx10 {
                out.push_str(" dlc");
            }
            if c.scc {
                out.push_str(if gfx940 { " sc1" } else { " scc" });
            }
        }
    }
}
