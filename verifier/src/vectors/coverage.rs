//! `gcnsmt coverage`: the fidelity report. Every DS and MUBUF/MTBUF/VBUFFER opcode of a target
//! (from the lifter's tables), with its status:
//!
//! - `exact`: modelled; the result is a function of the inputs and of machine configuration
//!   the vector states (`depends_on`: SH_MEM_CONFIG alignment mode, the LDS bound);
//! - `approximate`: modelled, resting on assumptions named in `assumptions`: settings whose
//!   sources disagree (buffer range checks: `buffer_soffset`, `buffer_oob`, `buffer_offset`,
//!   and on gfx6-gfx950
//!   `buffer_struct`, `buffer_swizzle`; see
//!   `semantics/src/settings.rs`) and the float model (IEEE 754, round to nearest even,
//!   denormals kept, canonical NaN results: no denormal flush or DX10 clamp modes);
//! - `unsupported`: not modelled; `reason` is the binding's error, as `verify` and `lift` give it.

use super::forms::{entry_of, forms, Family};
use super::rule_for;
use crate::check::{binds, Options};
use gcnsmt_lifter::{ds_lookup, mubuf_lookup};
use gcnsmt_semantics::buffer::VsharpLayout;
use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::print::def_to_string;
use gcnsmt_semantics::target::Target;
use serde_json::{json, Value};

/// The float-model assumption's text.
pub const FLOAT_MODEL: &str = "float: IEEE 754 round to nearest even with denormals, NaN results \
    canonical (no denormal flush, no DX10 clamp or IEEE-mode switches)";

/// The wave-level model's assumption text (`ds_wave.pcode`; docs/lanes.md, "Wave-level DS
/// instructions").
pub const WAVE_MODEL: &str = "wave: one wave runs, none other queued or signalling; an \
    instruction that would wait for another wave is undefined; GWS and GS-register data from the \
    modelled lane";

/// One opcode's line of the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The LLVM mnemonic.
    pub mnemonic: String,
    /// `ds` or `buffer`.
    pub family: &'static str,
    /// The opcode field's value.
    pub opcode: u8,
    /// `exact`, `approximate` or `unsupported`.
    pub status: &'static str,
    /// The semantics entry (upper case) and its file, for modelled opcodes.
    pub entry: Option<(String, String)>,
    /// Assumptions an approximate result rests on.
    pub assumptions: Vec<String>,
    /// Machine configuration the result depends on (stated with each vector).
    pub depends_on: Vec<&'static str>,
    /// Why an unsupported opcode is not modelled.
    pub reason: Option<String>,
}

/// The report's rows for `target`, DS opcodes first, each family in opcode order.
pub fn rows(target: Target) -> Vec<Row> {
    let lib = Library::builtin();
    let opts = Options::default();
    let lanes = Options {
        lanes: Some(crate::LaneMode {
            lanes: 2,
            order: crate::LaneOrder::Any,
        }),
        ..Options::default()
    };
    forms(target)
        .into_iter()
        .map(|f| {
            let opcode = match f.family {
                Family::Ds => ds_lookup(target, f.mnemonic).map(|x| x.0),
                Family::Buffer => mubuf_lookup(target, f.mnemonic).map(|x| x.0),
            }
            .unwrap_or(0);
            let mut cross_lane = false;
            let bound = match f.lines.first() {
                None => Err("no operand form the assembler accepts".to_string()),
                Some(l) => rule_for(l).and_then(|r| match binds(&r, target, &opts) {
                    // Cross-lane ops bind only with lanes: modelled (semantics/src/wave.rs), in
                    // a multi-lane check.
                    Err(e) if e.msg.contains("cross-lane") => {
                        cross_lane = true;
                        binds(&r, target, &lanes).map_err(|e| e.msg)
                    }
                    x => x.map_err(|e| e.msg),
                }),
            };
            let entry_name = entry_of(f.family, f.mnemonic);
            let def = entry_name.as_deref().and_then(|n| lib.get(n));
            let mut row = Row {
                mnemonic: f.mnemonic.to_string(),
                family: f.family.name(),
                opcode,
                status: "exact",
                entry: None,
                assumptions: Vec::new(),
                depends_on: Vec::new(),
                reason: None,
            };
            match (bound, def) {
                (Ok(()), Some(def)) => {
                    let name = entry_name.unwrap_or_default();
                    let file = lib.file_of(&name).unwrap_or("").to_string();
                    let text = def_to_string(def);
                    // Cache-control ops touch no memory: no range check, so no setting.
                    if f.family == Family::Buffer && file != "buffer_cache.pcode" {
                        row.assumptions.push("buffer_soffset".into());
                        row.assumptions.push("buffer_oob".into());
                        row.assumptions.push("buffer_offset".into());
                        // bufaudit: the GCN/CDNA V# readings gem5 and CLRX disagree on.
                        if VsharpLayout::of(target) == VsharpLayout::Gcn {
                            row.assumptions.push("buffer_struct".into());
                            row.assumptions.push("buffer_swizzle".into());
                        }
                        if file == "buffer_format.pcode" {
                            row.assumptions.push(FORMAT_MODEL.into());
                        }
                    } else if file == "ds_wave.pcode" {
                        row.assumptions.push(WAVE_MODEL.into());
                        // append/consume reach LDS/GDS memory; GWS only its resource state.
                        if text.contains("AppendM0Base") {
                            row.assumptions.push("append_addr".into());
                            row.depends_on = vec!["alignment", "lds_limit"];
                        }
                    } else if file == "ds_bvh.pcode" {
                        row.assumptions.push(BVH_MODEL.into());
                        row.assumptions.push("bvh_pop".into());
                        row.assumptions.push("bvh_invalid".into());
                        row.depends_on = vec!["alignment", "lds_limit"];
                    } else if text.contains("MEM[") {
                        row.depends_on = vec!["alignment", "lds_limit"];
                    } else if f
                        .lines
                        .iter()
                        .any(|l| rule_for(l).is_ok_and(|r| binds(&r, target, &opts).is_err()))
                    {
                        row.depends_on = vec!["lanes"];
                    }
                    if [".f16", ".f32", ".f64", ".bf16"]
                        .iter()
                        .any(|t| text.contains(t))
                    {
                        row.assumptions.push(FLOAT_MODEL.into());
                    }
                    if !row.assumptions.is_empty() {
                        row.status = "approximate";
                    }
                    row.entry = Some((name, file));
                }
                (Ok(()), None) if cross_lane => {
                    row.depends_on = vec!["lanes"];
                    row.entry = Some((
                        f.mnemonic.to_ascii_uppercase(),
                        "semantics/src/wave.rs".into(),
                    ));
                }
                (Ok(()), None) => {
                    row.status = "unsupported";
                    row.reason = Some("binds without a semantics entry".into());
                }
                (Err(e), _) => {
                    row.status = "unsupported";
                    row.reason = Some(e);
                }
            }
            row
        })
        .collect()
}

/// A row as JSON.
pub fn row_json(r: &Row) -> Value {
    json!({
        "mnemonic": r.mnemonic,
        "family": r.family,
        "opcode": r.opcode,
        "status": r.status,
        "entry": r.entry.as_ref().map(|(n, f)| json!({"name": n, "file": f})),
        "assumptions": r.assumptions,
        "depends_on": r.depends_on,
        "reason": r.reason,
    })
}

/// What a format conversion's verdict rests on (docs/buffer.md, "Format loads and stores").
/// The BVH stack model's assumption text (`ds_bvh.pcode`; docs/soundness.md "Assumptions").
const BVH_MODEL: &str = "bvh: the stack pointer layout, slot stride and stack size from Mesa \
    RADV and LLPC (the guides leave DECODE_ADDR undefined); an index at or past the stack size is \
    undefined; GPURT's gfx12 overflow/TLAS state not modelled";

const FORMAT_MODEL: &str =
    "format: UNORM/SNORM and out-of-range conversions are undefined (left out of proofs)";

/// The counts of each status: (exact, approximate, unsupported).
pub fn counts(rows: &[Row]) -> (usize, usize, usize) {
    let n = |s: &str| rows.iter().filter(|r| r.status == s).count();
    (n("exact"), n("approximate"), n("unsupported"))
}
