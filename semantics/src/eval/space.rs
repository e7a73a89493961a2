//! The memories an instruction can reach, as data: [`AddrSpace`] names one, [`PerSpace`] holds
//! one value per space (a memory, a set of bytes, a solver variable), so consumers iterate over
//! [`AddrSpace::ALL`] instead of naming fields.

use std::ops::{Index, IndexMut};

/// One byte-addressed memory of the machine model.
///
/// Address widths, and where each fact comes from:
/// - [`AddrSpace::Lds`]: 32-bit byte addresses (AMD Vega ISA guide, "Data Share Operations":
///   `ADDR` is one 32-bit VGPR; LLVM `AMDGPUAS::LOCAL_ADDRESS` pointers are 32 bits).
/// - [`AddrSpace::Gds`]: 32-bit byte addresses, based at `M0[31:16]` (CLRX GcnInstrsDs "GDS").
/// - [`AddrSpace::Global`]: 64-bit virtual addresses, reached by buffer instructions through
///   the V# base, by GLOBAL and SMEM instructions directly, and by FLAT outside the LDS and
///   private apertures (AMD CDNA3 ISA guide, "Flat, Scratch and Global Instructions").
/// - [`AddrSpace::Scratch`]: 32-bit per-lane offsets into the private segment: a FLAT access
///   whose address lies in the private aperture (the aperture is 2^32 bytes, LLVM
///   AMDGPUUsage "Address Spaces"; the offset is the address's low 32 bits, as LLVM's
///   flat-to-private `addrspacecast` takes them). Each lane has its own private memory
///   (AMDGPUUsage "Memory Spaces": lanes accessing the same private address reach different
///   dwords), so the 64-bit address is `{LANE_ID, offset}`: one memory holding every lane's
///   (breaker19 11). The model is the lanes' private memories, not the swizzled scratch
///   buffer behind them.
/// - [`AddrSpace::Gws`]: the global wave sync resources as bytes (32-bit addresses, 8 bytes
///   per resource: a 32-bit counter and a state byte; `semantics/pcode/ds_wave.pcode` gives
///   the layout). Not memory on the machine: the resources' state, kept as data so that the
///   solver, counterexamples and caches treat it like every other state.
/// - [`AddrSpace::GsReg`]: the GS registers of `ds_{add,sub}_gs_reg_rtn` (gfx11), 32 bits each
///   at 4*index (the RDNA3.5 guide's `GS_REGS(addr)`; indices up to 23).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AddrSpace {
    /// The local data share of the work-group.
    Lds,
    /// The global data share (DS instructions with `gds`).
    Gds,
    /// Global (device) memory.
    Global,
    /// The lane's private (scratch) memory.
    Scratch,
    /// The GWS resource state (`ds_gws_*`).
    Gws,
    /// The GS registers (`ds_add_gs_reg_rtn`, `ds_sub_gs_reg_rtn`).
    GsReg,
}

/// Number of address spaces.
const N: usize = 6;

impl AddrSpace {
    /// Every space, in the order counterexamples, solver variables and caches list them.
    pub const ALL: [AddrSpace; N] = [
        AddrSpace::Lds,
        AddrSpace::Gds,
        AddrSpace::Global,
        AddrSpace::Scratch,
        AddrSpace::Gws,
        AddrSpace::GsReg,
    ];

    /// Width in bits of an address of this space (see the type's documentation).
    pub const fn addr_width(self) -> u32 {
        match self {
            AddrSpace::Global | AddrSpace::Scratch => 64,
            AddrSpace::Lds | AddrSpace::Gds | AddrSpace::Gws | AddrSpace::GsReg => 32,
        }
    }

    /// The name counterexamples print and the solver's memory variable has: `LDS`, `GDS`,
    /// `MEM` (global memory is what `MEM[...]` names in buffer and GLOBAL entries), `SCRATCH`,
    /// `GWS`, `GS_REG`.
    pub const fn label(self) -> &'static str {
        match self {
            AddrSpace::Lds => "LDS",
            AddrSpace::Gds => "GDS",
            AddrSpace::Global => "MEM",
            AddrSpace::Scratch => "SCRATCH",
            AddrSpace::Gws => "GWS",
            AddrSpace::GsReg => "GS_REG",
        }
    }

    /// The lower-case key of this space in stored data (the result cache): `lds`, `gds`,
    /// `global`, `scratch`, `gws`, `gs_reg`.
    pub const fn key(self) -> &'static str {
        match self {
            AddrSpace::Lds => "lds",
            AddrSpace::Gds => "gds",
            AddrSpace::Global => "global",
            AddrSpace::Scratch => "scratch",
            AddrSpace::Gws => "gws",
            AddrSpace::GsReg => "gs_reg",
        }
    }

    const fn index(self) -> usize {
        self as usize
    }
}

/// One `T` per address space, indexed by [`AddrSpace`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerSpace<T>([T; N]);

impl<T> PerSpace<T> {
    /// `f(space)` for every space.
    pub fn from_fn(mut f: impl FnMut(AddrSpace) -> T) -> PerSpace<T> {
        PerSpace(AddrSpace::ALL.map(&mut f))
    }

    /// Every space with its value, in [`AddrSpace::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (AddrSpace, &T)> {
        AddrSpace::ALL.into_iter().zip(self.0.iter())
    }

    /// Every space with its value, mutably.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (AddrSpace, &mut T)> {
        AddrSpace::ALL.into_iter().zip(self.0.iter_mut())
    }

    /// The values, in [`AddrSpace::ALL`] order.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.0.iter()
    }

    /// `f(space, value)` for every space.
    pub fn map<U>(&self, mut f: impl FnMut(AddrSpace, &T) -> U) -> PerSpace<U> {
        PerSpace::from_fn(|s| f(s, &self[s]))
    }
}

impl<T> Index<AddrSpace> for PerSpace<T> {
    type Output = T;
    fn index(&self, s: AddrSpace) -> &T {
        &self.0[s.index()]
    }
}

impl<T> IndexMut<AddrSpace> for PerSpace<T> {
    fn index_mut(&mut self, s: AddrSpace) -> &mut T {
        &mut self.0[s.index()]
    }
}
