//! The instruction families gcnsmt models, in one table: what the CLI, the rule binder, the
//! cache key, spec-check and the mutation scripts iterate over. A new family is one folder per
//! crate layer and one entry here.

use gcnsmt_semantics::target::Target;

/// An instruction family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// DS (LDS/GDS): `lifter/src/{table,asm,decode,encode,print}.rs`, `ds_*.pcode`.
    Ds,
    /// MUBUF/MTBUF/VBUFFER: `lifter/src/mubuf*.rs`, `buffer_*.pcode`.
    Mubuf,
    /// GLOBAL loads/stores and scalar loads: `lifter/src/global/`, `global.pcode`.
    Global,
    /// Scalar buffer loads (`s_buffer_load_*`): `lifter/src/smem/`, `smem.pcode`.
    Smem,
    /// FLAT loads/stores (LDS, scratch or global by aperture): `lifter/src/flat/`,
    /// `flat.pcode`.
    Flat,
    /// The VALU/SALU subset around memory code: `lifter/src/lift.rs`, `alu.pcode`.
    Alu,
}

/// One registry entry.
#[derive(Clone, Copy, Debug)]
pub struct FamilyDef {
    /// The family.
    pub family: Family,
    /// Name in messages and reports.
    pub name: &'static str,
    /// Its semantics files (`semantics/pcode/`).
    pub pcode_files: &'static [&'static str],
    /// Whether `mnemonic` belongs to the family on some target.
    pub owns: fn(&str) -> bool,
    /// Whether `target` has `mnemonic` in this family.
    pub on_target: fn(Target, &str) -> bool,
}

/// Every family, in dispatch order.
pub static FAMILIES: &[FamilyDef] = &[
    FamilyDef {
        family: Family::Ds,
        name: "DS",
        pcode_files: &[
            "ds_atomic32.pcode",
            "ds_atomic64.pcode",
            "ds_float.pcode",
            "ds_load.pcode",
            "ds_store.pcode",
            "ds_2addr.pcode",
            "ds_misc.pcode",
            "ds_wave.pcode",
            "ds_barrier.pcode",
            "ds_bvh.pcode",
        ],
        owns: |m| m.starts_with("ds_"),
        on_target: |t, m| crate::table::ds_lookup(t, m).is_some(),
    },
    FamilyDef {
        family: Family::Mubuf,
        name: "MUBUF/MTBUF/VBUFFER",
        pcode_files: &[
            "buffer_load.pcode",
            "buffer_store.pcode",
            "buffer_atomic.pcode",
            "buffer_format.pcode",
            "buffer_cache.pcode",
        ],
        owns: |m| m.starts_with("buffer_") || m.starts_with("tbuffer_"),
        on_target: |t, m| crate::mtbuf_table::buffer_lookup(t, m).is_some(),
    },
    FamilyDef {
        family: Family::Global,
        name: "GLOBAL/SMEM",
        pcode_files: &["global.pcode"],
        owns: crate::global::is_global_mnemonic,
        on_target: |t, m| crate::global::global_lookup(t, m).is_some(),
    },
    FamilyDef {
        family: Family::Smem,
        name: "SMEM buffer",
        pcode_files: &["smem.pcode"],
        owns: crate::smem::is_smem_mnemonic,
        on_target: |t, m| crate::smem::smem_lookup(t, m).is_some(),
    },
    FamilyDef {
        family: Family::Flat,
        name: "FLAT",
        pcode_files: &["flat.pcode"],
        owns: crate::flat::is_flat_mnemonic,
        on_target: |t, m| crate::flat::flat_lookup(t, m).is_some(),
    },
    FamilyDef {
        family: Family::Alu,
        name: "VALU/SALU",
        pcode_files: &["alu.pcode", "dpp.pcode"],
        owns: crate::lift::alu_known_anywhere,
        on_target: |t, m| crate::lift::alu_lookup(t, m).is_some(),
    },
];

/// The family of a mnemonic (lower case), if any family owns it.
pub fn family_of(mnemonic: &str) -> Option<&'static FamilyDef> {
    FAMILIES.iter().find(|f| (f.owns)(mnemonic))
}

/// The family whose semantics file is `file`.
pub fn family_of_file(file: &str) -> Option<&'static FamilyDef> {
    FAMILIES.iter().find(|f| f.pcode_files.contains(&file))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gcnsmt_semantics::defs::{Library, FILES};

    #[test]
    fn every_pcode_file_belongs_to_exactly_one_family() {
        for (file, _) in FILES {
            let n = FAMILIES
                .iter()
                .filter(|f| f.pcode_files.contains(file))
                .count();
            assert_eq!(n, 1, "{file} is in {n} families");
        }
    }

    #[test]
    fn every_entry_name_is_a_mnemonic_of_its_family_on_some_target() {
        // Entries are keyed by LLVM mnemonics; a typo would silently never lift.
        for (file, d) in &Library::builtin().defs {
            let fam = family_of_file(file).expect("registered file");
            for n in &d.names {
                // `_UNPACKED` entries are gfx802's one-component-per-VGPR forms of the d16
                // mnemonic without the suffix (verifier/src/machine/buffer.rs picks them there).
                let m = n.name.to_ascii_lowercase();
                let m = m.strip_suffix("_unpacked").unwrap_or(&m).to_string();
                assert!(
                    Target::ALL.iter().any(|t| (fam.on_target)(*t, &m)),
                    "{file}: {} is not a {} mnemonic on any target",
                    n.name,
                    fam.name
                );
            }
        }
    }

    #[test]
    fn dispatch_by_mnemonic() {
        assert_eq!(family_of("ds_read_b32").unwrap().family, Family::Ds);
        assert_eq!(
            family_of("buffer_load_dword").unwrap().family,
            Family::Mubuf
        );
        assert_eq!(family_of("global_load_b32").unwrap().family, Family::Global);
        assert_eq!(family_of("s_load_dwordx2").unwrap().family, Family::Global);
        assert_eq!(
            family_of("s_buffer_load_dwordx2").unwrap().family,
            Family::Smem
        );
        assert_eq!(family_of("flat_load_dword").unwrap().family, Family::Flat);
        assert_eq!(family_of("v_add_u32").unwrap().family, Family::Alu);
        assert!(family_of("v_sin_f32").is_none());
    }
}
