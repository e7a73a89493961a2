//! Which registers a caller may read after a callable function returns.
//!
//! `diff.rs` compares, at a return, every physical register the block writes, because the
//! callee-saved set depends on the calling convention (`amdgpu_gfx` saves `s4`-`s29`, the C
//! convention does not). For the C convention the registers below the first callee-saved ones
//! are clobbered by the call and the caller reads none of them after the return, except the
//! return values, which the return terminator names as implicit uses (compared as its reads):
//! LLVM's SICallingConv.td starts the C convention's callee-saved SGPRs at `s30` (return
//! address, then stack and frame pointer) and its callee-saved VGPRs at `v40`, in LLVM 22 and
//! before. So `s0`-`s29` and `v0`-`v39` written before a C function's return need not be equal.
//! A function without embedded IR is a C function: llc makes it a `define void @name()`.
//! This covers the lanes active at the call only: every VGPR's inactive lanes must be
//! preserved (AMDGPUUsage), which `inactive.rs` makes sure of.

use super::mir::Function;
use std::collections::BTreeMap;

/// IR function name -> whether its `define` line names no calling convention (C). A word
/// before the `@` that starts with `amdgpu_`, ends in `cc` (other than `ccc`) or is `cc` names
/// one (`amdgpu_gfx`, `fastcc`, `cc 91`).
pub fn c_conventions(lines: &[&str]) -> BTreeMap<String, bool> {
    let mut out = BTreeMap::new();
    for t in lines.iter().map(|l| l.trim()) {
        let Some(rest) = t.strip_prefix("define ") else {
            continue;
        };
        let Some(at) = rest.find('@') else { continue };
        let name: String = rest[at + 1..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '.' || *c == '$')
            .collect();
        let c = rest[..at]
            .split_whitespace()
            .all(|w| !w.starts_with("amdgpu_") && (w == "ccc" || !w.ends_with("cc")) && w != "cc");
        out.insert(name, c);
    }
    out
}

/// Whether the file embeds an IR module (a `--- |` document).
pub fn has_ir(lines: &[&str]) -> bool {
    lines
        .iter()
        .any(|l| l.starts_with("---") && l[3..].trim().starts_with('|'))
}

/// Whether `c` (both files' function returns under the C convention: the before-file's
/// convention is the one its callers were compiled against, so the after-file cannot change
/// it) and every 32-bit cell of the physical register `p` (`sgpr4`, `vgpr0_vgpr1`) is
/// caller-saved there. The scratch descriptor (`scratchRSrcReg`, `s[0:3]` on targets with
/// buffer scratch) is reserved, not caller-saved: llc never saves it, and callers read it after
/// a call to restore their spilled registers.
pub fn clobbered_by_c_return(c: bool, f: &Function, p: &str) -> bool {
    let reserved = f.scratch_rsrc.as_deref().is_some_and(|r| {
        let cells: Vec<&str> = r.split('_').collect();
        p.split('_').any(|x| cells.contains(&x))
    });
    if reserved {
        return false;
    }
    let below = |pre: &str, n: u32| {
        p.split('_').all(|part| {
            part.strip_prefix(pre)
                .and_then(|d| d.parse::<u32>().ok())
                .is_some_and(|k| k < n)
        })
    };
    c && (below("sgpr", 30) || below("vgpr", 40))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conventions_from_define_lines() {
        let ir = [
            "  define void @a(i32 %x) #0 {",
            "  define dso_local amdgpu_gfx void @b() {",
            "  define internal fastcc i32 @c() {",
            "  define ccc float @d() {",
            "  define amdgpu_kernel void @e() {",
        ];
        let m = c_conventions(&ir);
        let want = [
            ("a", true),
            ("b", false),
            ("c", false),
            ("d", true),
            ("e", false),
        ];
        for (n, c) in want {
            assert_eq!(m[n], c, "{n}");
        }
    }

    #[test]
    fn only_low_registers_of_c_functions() {
        let mut f = Function {
            c_convention: true,
            ..Default::default()
        };
        assert!(clobbered_by_c_return(f.c_convention, &f, "sgpr4"));
        assert!(clobbered_by_c_return(f.c_convention, &f, "sgpr28_sgpr29"));
        assert!(!clobbered_by_c_return(f.c_convention, &f, "sgpr29_sgpr30"));
        assert!(!clobbered_by_c_return(f.c_convention, &f, "sgpr32"));
        assert!(clobbered_by_c_return(f.c_convention, &f, "vgpr39"));
        assert!(!clobbered_by_c_return(f.c_convention, &f, "vgpr40"));
        assert!(!clobbered_by_c_return(f.c_convention, &f, "m0"));
        f.c_convention = false;
        assert!(!clobbered_by_c_return(f.c_convention, &f, "sgpr4"));
    }
}
