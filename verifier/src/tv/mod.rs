//! `gcnsmt tv`: translation validation of LLVM AMDGPU machine passes on llc-22 MIR.
//!
//! A pair of MIR files (before and after a pass, from one llc input so that virtual register
//! numbers correspond) is read ([`mir`]), paired function by function and block by block
//! ([`diff`]); each changed block pair is lowered to a rule ([`lower`], through the opcode
//! table [`opcodes`]) and decided by [`crate::check::check`]. [`llc`] runs llc for the
//! `--pass` form; [`cmd`] is the command; [`cex`] prints
//! counterexamples in MIR terms.

pub mod alloc;
mod alloc_call;
mod alloc_image;
mod alloc_ops;
mod alloc_refute;
mod alloc_slots;
mod alloc_state;
mod alloc_step;
pub mod alloc_verdict;
pub mod alu64;
mod bank;
pub mod barrier;
pub mod barrier_move;
mod barrier_phys;
pub mod barrier_remat;
pub mod calls;
pub mod canon;
pub mod cex;
pub mod cf_lower;
pub mod cfg_match;
pub mod cfg_split;
mod classify;
pub mod cmd;
mod cmpx;
pub mod cpol;
mod cpol_pin;
pub mod csr;
mod deadlanes;
pub mod diff;
mod dom;
pub mod dpp;
pub mod effects;
pub mod emit;
mod encodable;
pub mod exec;
mod exec_read;
pub mod fcmp;
pub mod firstlane;
pub mod fmac;
pub mod fn_facts;
pub mod fn_index;
pub mod fp8cvt;
pub mod fpmode;
pub mod frame;
pub mod frame_meta;
mod gvs;
pub mod half16;
pub mod hazards;
mod inactive;
pub mod lanef;
pub mod ldsdma;
pub mod llc;
pub mod llc_run;
mod llc_verify;
pub mod lower;
mod lowered;
mod memop;
mod memop_gate;
mod mi_flags;
pub mod mimg;
pub mod mir;
mod mir_livein;
mod mode;
pub mod opcodes;
mod ordering;
mod pcrel;
mod phase;
pub mod phi_elim;
pub mod pipeline;
pub mod pipeline_cmd;
pub mod pipeline_report;
pub mod regmask;
pub mod rename;
mod rename_else;
mod rename_phi;
mod rename_twoaddr;
mod report;
pub mod sarif;
pub mod scc;
mod scc_carry;
pub mod scc_live;
mod scc_scalar;
pub mod sdwa;
mod ssa;
mod ssa_load;
mod ssa_widen;
pub mod taint;
mod taint_mem;
mod taint_ops;
mod targets;
pub mod ttmp;
pub mod uninterp;
pub mod v2s;
mod v2s_score;
mod vccz;
mod vmem_span;
mod volatile;
mod vop_bus;
mod vop_mods;
pub mod wait_mir;
pub mod wait_pass;
pub mod waits;
pub mod wide;
mod wwm;
pub mod xlane;

#[cfg(test)]
mod fuzz {
    //! Random and mutated MIR never panics the reader, the pairing or the lowering (the solver
    //! is not run: it sees only rules the lowering built).
    use super::*;
    use gcnsmt_semantics::target::Target;
    use proptest::prelude::*;

    const BASE: &str = include_str!("../../../tests/data/tv/gen/buf_merge.gfx802.after.mir");

    fn pipeline(before: &str, after: &str) {
        let (Ok(b), Ok(a)) = (mir::parse("b.mir", before), mir::parse("a.mir", after)) else {
            return;
        };
        let (b, a) = frame::resolve(ssa::canonical(&b, &a));
        let Ok(pairs) = diff::pair(&b, &a, &[]) else {
            return;
        };
        for fp in &pairs {
            for bp in &fp.blocks {
                let sb = emit::Side {
                    file: "b.mir",
                    block: &bp.before,
                    classes: &fp.before.classes,
                    rename: Default::default(),
                    mode: fp.before.mode,
                    frame: &fp.before.frame,
                    per_lane: false,
                };
                let sa = emit::Side {
                    file: "a.mir",
                    block: &bp.after,
                    classes: &fp.after.classes,
                    rename: Default::default(),
                    mode: fp.after.mode,
                    frame: &fp.after.frame,
                    per_lane: false,
                };
                for t in [Target::Gfx802, Target::Gfx1100, Target::Gfx1200] {
                    let _ = lower::lower(
                        "f",
                        &sb,
                        &sa,
                        &bp.liveout,
                        &bp.phys_live,
                        t,
                        lower::How {
                            lds_size: None,
                            assume_same: true,
                            texel: Default::default(),
                        },
                    );
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
        #[test]
        fn random_text_never_panics(s in "(---\n|name: f\n|body: \\|\n|  bb\\.[0-9]:\n|    %[0-9]+(\\.sub[0-9])?(:vgpr_32)? = [A-Z_0-9]+ [%$a-z0-9, ]*\n|.{0,40}\n){0,30}") {
            let _ = mir::parse("r.mir", &s);
            pipeline(&s, &s);
        }

        #[test]
        fn mutated_mir_never_panics(pos in 0usize..BASE.len(), len in 0usize..40, ins in "[ -~\n]{0,16}") {
            let mut t = BASE.to_string();
            let end = (pos + len).min(t.len());
            t.replace_range(pos..end, &ins);
            pipeline(BASE, &t);
        }
    }
}
