//! Named machine assumptions. Each has a per-target default, a name used in rule files
//! (`Settings: alignment=DWORD`) and on the command line, and is printed with every verdict.

use crate::target::Target;
use std::fmt;

/// `SH_MEM_CONFIG.ALIGNMENT_MODE` as it applies to LDS/GDS accesses.
///
/// Values from Linux amdgpu `sid.h`/`cikd.h`: 0 DWORD, 1 DWORD_STRICT, 2 STRICT, 3 UNALIGNED.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Alignment {
    /// Low address bits are dropped: the address is rounded down to the access size rounded up
    /// to a power of two (`&~1` b16, `&~3` b32, `&~7` b64, `&~15` b96/b128), as the GCN guides
    /// and CLRX write it (`(ADDR+OFFSET)&~3`).
    Dword,
    /// Accesses use the exact byte address (gfx9+ only; LLVM feature `unaligned-ds-access`).
    Unaligned,
    /// A misaligned access is undefined behaviour.
    Strict,
}

/// Which bound makes an LDS access out of range. Out of range: loads return 0, stores and atomics
/// are dropped (atomics return 0). The whole access must lie below the bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LdsLimit {
    /// `M0` is the exclusive upper bound (gfx6-gfx8; AMD SI/CI/VI guides "LDS instructions use M0
    /// as a clamp", LLVM `ldsRequiresM0Init`).
    M0,
    /// The work-group's LDS allocation `LDS_SIZE` (a symbolic input unless fixed by a precondition),
    /// at most the target's LDS size (gfx9+).
    Alloc,
    /// No bound (every address in range).
    None,
}

/// Whether a raw buffer's range check counts `soffset` against NUM_RECORDS.
///
/// Sources disagree. SUBTRACT (out of range when `offset + size > num_records - soffset`,
/// saturating): CLRX `GcnMemHandling.md` ("BUFOFFSET >= NUMRECORDS-SGPR_OFFSET"), gem5 Vega
/// `Inst_MUBUF::calcAddr`, rocMLIR PR #678 for RDNA OOB_SELECT 3 ("offset + lengthOfOp >
/// numRecords - sgproffset"), ROCm rocjitsu PR #10928 for CDNA1-4 ("SOFFSET and the instruction
/// offset count toward the bounds check"). IGNORE: Mesa RADV's OOB_SELECT comment
/// ("3: offset >= NUM_RECORDS (Raw)") names no soffset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BufferSoffset {
    /// `soffset` is subtracted from NUM_RECORDS (saturating) before the range check.
    Subtract,
    /// `soffset` plays no part in the range check.
    Ignore,
}

/// Which bytes of a buffer access the range check looks at.
///
/// END (the whole access, each dword of a dwordx2/x3/x4 separately, must lie below the
/// bound): LLVM `AMDGPUUsage.rst` "Relaxed Buffer OOB Mode" (an unaligned dword that starts in
/// bounds but ends out of bounds is out of bounds), rocMLIR PR #678, rocjitsu PR #10928 ("an
/// access must end within NUM_RECORDS"). START (only the first byte): gem5 Vega and CLRX
/// (`BUFOFFSET >= ...`, `OFFSET >= STRIDE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BufferOob {
    /// The whole access (each dword separately) must lie below the bound.
    End,
    /// Only the first byte must lie below the bound.
    Start,
}

/// The size a scalar buffer load (`s_buffer_load_*`) range-checks each dword against.
///
/// The guides disagree by generation. STRIDED, `(stride == 0 ? 1 : stride) * num_records`
/// bytes: AMD RDNA3 and RDNA4 ISA guides, section 8.1.2 (`m_size`), and RDNA3 section 8.4.1
/// (out of range when `offset >= (stride == 0 ? 1 : stride) * num_records`). RECORDS,
/// `num_records` bytes whatever the stride: the AMD RDNA2 ISA guide, section 7.2.1, prints
/// `m_size = (m_stride == 0) ? 1 : m_num_records`, with no stride factor (quoted in
/// mattias800/prosper issue #2528, which reads it as an omission).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SbufferSize {
    /// `(stride == 0 ? 1 : stride) * num_records` bytes.
    Strided,
    /// `num_records` bytes; the stride plays no part.
    Records,
}

/// The assumptions in force for one evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Settings {
    /// `SH_MEM_CONFIG.ALIGNMENT_MODE` for LDS/GDS accesses.
    pub alignment: Alignment,
    /// The bound that makes an LDS access out of range.
    pub lds_limit: LdsLimit,
    /// Raw-buffer range checks: does soffset reduce the bound (buffer instructions only).
    pub buffer_soffset: BufferSoffset,
    /// Buffer range checks: whole access or first byte (buffer instructions only).
    pub buffer_oob: BufferOob,
    /// The size scalar buffer loads range-check against (`s_buffer_load_*` only).
    pub sbuffer_size: SbufferSize,
}

impl Settings {
    /// Per-target defaults: DWORD alignment and M0 clamp on gfx6-gfx8; UNALIGNED and the
    /// allocation bound on gfx9+. Sources: Linux amdkfd `kfd_device_queue_manager_v9.c` and
    /// amdgpu `gfx_v11_0.c`/`gfx_v12_0.c` (`DEFAULT_SH_MEM_CONFIG`) program
    /// `SH_MEM_CONFIG.ALIGNMENT_MODE = SH_MEM_ALIGNMENT_MODE_UNALIGNED`; LLVM's
    /// `unaligned-ds-access` feature ("unaligned DS access is available from GFX9 onwards",
    /// CodeGen/AMDGPU tests) is why gfx6-gfx8 default to DWORD even though the kernel also
    /// writes UNALIGNED there (`radeon/cik.c`).
    pub fn default_for(t: Target) -> Settings {
        if t.has_unaligned_ds() {
            Settings {
                alignment: Alignment::Unaligned,
                lds_limit: LdsLimit::Alloc,
                buffer_soffset: BufferSoffset::Subtract,
                buffer_oob: BufferOob::End,
                sbuffer_size: SbufferSize::Strided,
            }
        } else {
            Settings {
                alignment: Alignment::Dword,
                lds_limit: LdsLimit::M0,
                buffer_soffset: BufferSoffset::Subtract,
                buffer_oob: BufferOob::End,
                sbuffer_size: SbufferSize::Strided,
            }
        }
    }

    /// Apply one `name=value` override.
    ///
    /// Errors: unknown name or value, or a value the target does not have (UNALIGNED before gfx9).
    pub fn set(&mut self, t: Target, name: &str, value: &str) -> Result<(), String> {
        match name {
            "alignment" => {
                self.alignment = match value.to_ascii_uppercase().as_str() {
                    "DWORD" => Alignment::Dword,
                    "UNALIGNED" => {
                        if !t.has_unaligned_ds() {
                            return Err(format!(
                                "alignment=UNALIGNED does not exist on {t} (gfx9+ only)"
                            ));
                        }
                        Alignment::Unaligned
                    }
                    "STRICT" => Alignment::Strict,
                    _ => {
                        return Err(format!(
                            "unknown alignment `{value}` (DWORD, UNALIGNED or STRICT)"
                        ))
                    }
                }
            }
            "lds_limit" => {
                self.lds_limit = match value.to_ascii_uppercase().as_str() {
                    "M0" => LdsLimit::M0,
                    "ALLOC" => LdsLimit::Alloc,
                    "NONE" => LdsLimit::None,
                    _ => return Err(format!("unknown lds_limit `{value}` (M0, ALLOC or NONE)")),
                }
            }
            "buffer_soffset" => {
                self.buffer_soffset = match value.to_ascii_uppercase().as_str() {
                    "SUBTRACT" => BufferSoffset::Subtract,
                    "IGNORE" => BufferSoffset::Ignore,
                    _ => {
                        return Err(format!(
                            "unknown buffer_soffset `{value}` (SUBTRACT or IGNORE)"
                        ))
                    }
                }
            }
            "buffer_oob" => {
                self.buffer_oob = match value.to_ascii_uppercase().as_str() {
                    "END" => BufferOob::End,
                    "START" => BufferOob::Start,
                    _ => return Err(format!("unknown buffer_oob `{value}` (END or START)")),
                }
            }
            "sbuffer_size" => {
                self.sbuffer_size = match value.to_ascii_uppercase().as_str() {
                    "STRIDED" => SbufferSize::Strided,
                    "RECORDS" => SbufferSize::Records,
                    _ => {
                        return Err(format!(
                            "unknown sbuffer_size `{value}` (STRIDED or RECORDS)"
                        ))
                    }
                }
            }
            _ => {
                return Err(format!(
                    "unknown setting `{name}` (alignment, lds_limit, buffer_soffset, buffer_oob, sbuffer_size)"
                ))
            }
        }
        Ok(())
    }
}

impl fmt::Display for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = match self.alignment {
            Alignment::Dword => "DWORD",
            Alignment::Unaligned => "UNALIGNED",
            Alignment::Strict => "STRICT",
        };
        let l = match self.lds_limit {
            LdsLimit::M0 => "M0",
            LdsLimit::Alloc => "ALLOC",
            LdsLimit::None => "NONE",
        };
        write!(f, "alignment={a}, lds_limit={l}")
    }
}

impl Settings {
    /// The buffer settings as `buffer_soffset=..., buffer_oob=...` (printed with verdicts of
    /// rules that use buffer instructions).
    pub fn buffer_text(&self) -> String {
        let s = match self.buffer_soffset {
            BufferSoffset::Subtract => "SUBTRACT",
            BufferSoffset::Ignore => "IGNORE",
        };
        let o = match self.buffer_oob {
            BufferOob::End => "END",
            BufferOob::Start => "START",
        };
        format!("buffer_soffset={s}, buffer_oob={o}")
    }
}

impl Settings {
    /// The scalar buffer-load setting as `sbuffer_size=...` (printed with verdicts of rules
    /// that use `s_buffer_load_*`).
    pub fn sbuffer_text(&self) -> String {
        let v = match self.sbuffer_size {
            SbufferSize::Strided => "STRIDED",
            SbufferSize::Records => "RECORDS",
        };
        format!("sbuffer_size={v}")
    }
}
