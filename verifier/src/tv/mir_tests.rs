//! Unit tests of `mir.rs`.
use super::*;

const SMALL: &str = "--- |
  define amdgpu_kernel void @k() #0 {
    ret void
  }
  attributes #0 = { \"amdgpu-lds-size\"=\"2048\" \"target-cpu\"=\"gfx900\" }
...
---
name:            k
registers:
  - { id: 0, class: vgpr_32, preferred-register: '', flags: [  ] }
  - { id: 16, class: vreg_64, preferred-register: '' }
body:             |
  bb.0 (%ir-block.0):
    successors: %bb.1(0x80000000)
    liveins: $vgpr0, $sgpr4_sgpr5

    %0:vgpr_32(s32) = COPY $vgpr0
    %16:vreg_64 = DS_READ2_B32_gfx9 %0, 0, 8, 0, implicit $exec :: (load (s32), addrspace 3)
    %13:vgpr_32 = COPY killed %16.sub1
    S_BRANCH %bb.1

  bb.1:
    S_ENDPGM 0
...
";

#[test]
fn reads_a_small_function() {
    let f = parse("k.mir", SMALL).unwrap();
    assert_eq!(f.functions.len(), 1);
    let k = &f.functions[0];
    assert_eq!(k.name, "k");
    assert_eq!(k.target_cpu.as_deref(), Some("gfx900"));
    assert_eq!(k.lds_size, Some(2048));
    assert_eq!(k.classes[&16], "vreg_64");
    assert_eq!(k.classes[&13], "vgpr_32"); // from the body annotation
    assert_eq!(k.blocks.len(), 2);
    let b0 = &k.blocks[0];
    assert_eq!(b0.successors, vec![1]);
    assert_eq!(b0.liveins, vec!["vgpr0", "sgpr4_sgpr5"]);
    assert_eq!(b0.insts.len(), 4);
    let r2 = &b0.insts[1];
    assert_eq!(r2.opcode, "DS_READ2_B32_gfx9");
    assert_eq!(r2.defs[0].kind, OpKind::VReg { id: 16, sub: None });
    let kinds: Vec<_> = r2.ops.iter().map(|o| o.kind.clone()).collect();
    assert_eq!(
        kinds,
        vec![
            OpKind::VReg { id: 0, sub: None },
            OpKind::Imm(0),
            OpKind::Imm(8),
            OpKind::Imm(0),
            OpKind::Phys("exec".into())
        ]
    );
    assert!(r2.ops[4].flags.implicit);
    let c = &b0.insts[2];
    assert_eq!(
        c.ops[0].kind,
        OpKind::VReg {
            id: 16,
            sub: Some("sub1".into())
        }
    );
    assert!(c.ops[0].flags.killed);
    assert_eq!(c.key, "%13:vgpr_32 = COPY %16.sub1");
    // Line 18, column 5: the DS_READ2 line's first character.
    assert_eq!((r2.loc.line, r2.loc.col), (18, 5));
}

#[test]
fn errors_have_positions() {
    let bad = SMALL.replace("S_BRANCH %bb.1", "= S_BRANCH");
    let e = parse("k.mir", &bad).unwrap_err();
    assert_eq!(e.loc.line, 20);
    let bad = SMALL.replace("  bb.1:", "  bb.x:");
    let e = parse("k.mir", &bad).unwrap_err();
    assert_eq!((e.loc.line, e.loc.col), (22, 3));
    assert!(parse("x.mir", "hello").is_err());
}
