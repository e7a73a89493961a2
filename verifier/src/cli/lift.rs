//! `gcnsmt lift`: the semantics of one instruction (assembly or words) in AMD pseudocode
//! notation, with the instruction's operands bound to the pseudocode's variables.

use super::usage_error;
use super::words::parse_words;
use crate::exit::ExitStatus;
use gcnsmt_lifter::{decode_bytes, parse_asm};
use gcnsmt_semantics::print::def_to_string;
use gcnsmt_semantics::target::Target;

/// `gcnsmt lift`.
pub fn lift(target: Target, input: &[String]) -> ExitStatus {
    let text = input.join(" ");
    let first = text.split_whitespace().next().unwrap_or("");
    if first.is_empty() {
        return usage_error(
            "lift takes one DS instruction: assembly (`ds_add_u32 v1, v2`) or its words",
        );
    }
    let is_buf = crate::machine::buffer::is_buffer_line(first);
    if is_buf || (!first.starts_with("ds_") && first.starts_with(|c: char| c.is_ascii_digit())) {
        // MUBUF/VBUFFER (assembly or words): decoded, then the buffer entry is printed.
        let inst = if is_buf {
            gcnsmt_lifter::parse_any(target, &text)
                .map_err(|e| format!("<argument>:1:{}: error: {}", e.col, e.msg))
        } else {
            parse_words(input)
                .and_then(|b| gcnsmt_lifter::decode_any(target, &b).map_err(|e| e.to_string()))
        };
        match inst {
            Ok(gcnsmt_lifter::Inst::Mubuf(m)) => {
                println!("// {target}: {m}");
                let cache = gcnsmt_lifter::mubuf_table::MubufClass::Cache;
                if m.shape.class == cache {
                    if let Some(def) = gcnsmt_semantics::defs::Library::builtin()
                        .get(&m.mnemonic.to_ascii_uppercase())
                    {
                        println!("// no operands; changes no architectural state of one thread");
                        print!("{}", def_to_string(def));
                        return ExitStatus::Proved;
                    }
                }
                let mut binds = Vec::new();
                if let Some(r) = m.vdata {
                    binds.push(format!("VDATA = {r}"));
                }
                if let Some(r) = m.vaddr {
                    binds.push(format!("VADDR = {r}"));
                }
                binds.push(format!("OFFSET = {}", m.offset));
                if m.shape.typed {
                    binds.push(format!("FORMAT = {}", m.format));
                }
                if m.tfe {
                    // LLVM D48826: the status register is written only on a fetch failure,
                    // and gcnsmt's memory never fails (no partially resident pages).
                    binds.push("tfe: the last VDATA dword (fail status) is left unchanged".into());
                }
                let mode: Vec<&str> =
                    [("offen", m.offen), ("idxen", m.idxen), ("addr64", m.addr64)]
                        .iter()
                        .filter(|x| x.1)
                        .map(|x| x.0)
                        .collect();
                binds.push(format!(
                    "MEM = global memory through the V# ({})",
                    mode.join(" ")
                ));
                println!("// {}", binds.join(", "));
                // The same entry, or the same refusal, as `verify` (machine::buffer).
                return match crate::machine::buffer::buffer_semantics(target, &m) {
                    Ok((def, _)) => {
                        print!("{}", def_to_string(def));
                        ExitStatus::Proved
                    }
                    Err(why) => {
                        eprintln!("error: {why}");
                        ExitStatus::InputError
                    }
                };
            }
            Ok(gcnsmt_lifter::Inst::Ds(_)) => {} // DS words: lifted below
            Err(e) => {
                eprintln!("{e}");
                return ExitStatus::InputError;
            }
        }
    }
    if first.starts_with(|c: char| c.is_ascii_alphabetic())
        && !first.starts_with("ds_")
        && !first.starts_with("0x")
    {
        return usage_error(&format!(
            "lift takes a DS instruction (ds_*); `{first}` is not one (VALU/SALU semantics are in semantics/pcode/alu.pcode)"
        ));
    }
    let inst = if first.starts_with("ds_") {
        parse_asm(target, &text).map_err(|e| format!("<argument>:1:{}: error: {}", e.col, e.msg))
    } else {
        parse_words(input).and_then(|b| decode_bytes(target, &b).map_err(|e| e.to_string()))
    };
    let inst = match inst {
        Ok(i) => i,
        Err(e) => {
            eprintln!("{e}");
            return ExitStatus::InputError;
        }
    };
    println!("// {target}: {inst}");
    let binds = operand_binds(&inst);
    println!("// {}", binds.join(", "));
    match gcnsmt_lifter::lift::ds_semantics(inst.mnemonic) {
        Some((name, def)) => {
            if let Some(a) = def.aliases_for(&name) {
                for (x, y) in a {
                    println!("// {x} = {y}");
                }
            }
            print!("{}", def_to_string(def));
            ExitStatus::Proved
        }
        // Cross-lane ops: the whole-wave function `verify --lanes` runs.
        None => match crate::machine::cross::lift_text(target, &inst) {
            Some(text) => {
                print!("{text}");
                ExitStatus::Proved
            }
            None => {
                eprintln!("error: semantics of {} are not modelled yet", inst.mnemonic);
                ExitStatus::InputError
            }
        },
    }
}

/// The `// RETURN_DATA = v2, ADDR = v1, ...` line of a DS instruction's lifted text: each operand
/// under the name its semantics entry reads it by, the offset fields and the memory.
fn operand_binds(inst: &gcnsmt_lifter::DsInst) -> Vec<String> {
    let mut binds = Vec::new();
    // An 8-dword DATA1 is bound as two 128-bit values, as `verify` runs it (machine::step).
    let (data1, data1_hi) = match inst.data1 {
        Some(r) if r.count > 4 => {
            let hi = gcnsmt_lifter::RegTuple {
                first: r.first + 4,
                count: r.count - 4,
                ..r
            };
            (Some(gcnsmt_lifter::RegTuple { count: 4, ..r }), Some(hi))
        }
        r => (r, None),
    };
    for (name, r) in [
        ("RETURN_DATA", inst.vdst),
        ("ADDR", inst.addr),
        ("DATA0", inst.data0),
        ("DATA1", data1),
        ("DATA1_HI", data1_hi),
    ] {
        if let Some(r) = r {
            binds.push(format!("{name} = {r}"));
        }
    }
    binds.push(format!(
        "OFFSET = {} (OFFSET0 = {}, OFFSET1 = {})",
        inst.offset16(),
        inst.offset0,
        inst.offset1
    ));
    // Register-only cross-lane ops touch no memory; transposes read LDS.
    if !matches!(
        crate::machine::CrossKind::of(inst.mnemonic),
        Some(k) if !matches!(k, crate::machine::CrossKind::Transpose(_))
    ) {
        binds.push(format!("MEM = {}", if inst.gds { "GDS" } else { "LDS" }));
    }
    binds
}
