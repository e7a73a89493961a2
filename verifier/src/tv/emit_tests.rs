//! Unit tests of `emit.rs`.
use super::*;
use crate::tv::cpol::cpol_text;

#[test]
fn sign_extended_offset_fields_are_their_low_bits() {
    // 0xff00 printed sign-extended by llc-22; worked by hand: -256 & 0xffff = 65280.
    assert_eq!(field_bits(-256, 16), Ok(65280));
    assert_eq!(field_bits(65535, 16), Ok(65535));
    assert_eq!(field_bits(-32768, 16), Ok(32768));
    assert!(field_bits(-32769, 16).is_err());
    assert!(field_bits(65536, 16).is_err());
    assert_eq!(field_bits(-1, 8), Ok(255));
    assert!(field_bits(256, 8).is_err());
}

#[test]
fn classes_split_into_dwords() {
    // LLVM SIRegisterInfo.td class names carry their width in bits.
    assert_eq!(class_dwords("vgpr_32"), Some(1));
    assert_eq!(class_dwords("vreg_64"), Some(2));
    assert_eq!(class_dwords("sgpr_128"), Some(4));
    assert_eq!(class_dwords("sreg_64_xexec"), Some(2));
    assert_eq!(class_dwords("vreg_1"), None);
    assert_eq!(class_bank("sreg_32"), 's');
    assert_eq!(class_bank("vreg_96"), 'v');
    assert_eq!(class_bank("av_32"), 'v');
    assert_eq!(class_bank("areg_64"), 'a');
}

#[test]
fn physical_registers() {
    assert_eq!(phys("vgpr0", Target::Gfx900).unwrap(), vec!["v0"]);
    assert_eq!(
        phys("sgpr4_sgpr5", Target::Gfx900).unwrap(),
        vec!["s4", "s5"]
    );
    assert_eq!(
        phys("exec", Target::Gfx900).unwrap(),
        vec!["exec_lo", "exec_hi"]
    );
    assert_eq!(phys("exec", Target::Gfx1100).unwrap(), vec!["exec_lo"]);
    assert!(phys("scc", Target::Gfx900).is_err());
    assert_eq!(tuple(&["s4".into(), "s5".into()]), "s[4:5]");
    assert_eq!(tuple(&["%r1_0".into(), "%r1_1".into()]), "{%r1_0, %r1_1}");
    assert_eq!(sub_indices("sub2_sub3"), Some(vec![2, 3]));
    assert_eq!(imm_text(-1), "-1");
    assert_eq!(imm_text(4096), "0x1000");
}

#[test]
fn cache_policy_names() {
    assert_eq!(cpol_text(Target::Gfx900, 1, false).unwrap(), " glc");
    assert_eq!(cpol_text(Target::Gfx942, 1, true).unwrap(), " sc0");
    assert_eq!(
        cpol_text(Target::Gfx1200, 1, true).unwrap(),
        " th:TH_ATOMIC_RETURN"
    );
    assert!(cpol_text(Target::Gfx1200, 8, false).is_err());
}
