; Hand-written (gcnsmt's own): a PAL compute shader as `llc -mtriple=amdgcn-amd-amdpal` lays
; it out, with the `.amdgpu_pal_metadata` YAML block after the code. The block is data for the
; driver: it must be skipped like HSA's `.amdgpu_metadata`, not read as labels; its
; `.entry_point_symbol` names the shader entries (they start with nothing pending, like kernels).
; Expected (gfx700 counter rules, docs/timing.md): `pal_smem` reads s4 right after
; `s_load_dword s4` with no lgkmcnt wait: one `read` hazard on s4 at the s_add_u32.
; `pal_waited` waits lgkmcnt(0) first: no hazard.
	.text
	.globl	pal_smem
	.p2align	8
	.type	pal_smem,@function
pal_smem:
	s_load_dword s4, s[0:1], 0x0
	s_add_u32 s5, s4, 1
	s_endpgm
.Lfunc_end0:
	.size	pal_smem, .Lfunc_end0-pal_smem

	.globl	pal_waited
	.p2align	8
	.type	pal_waited,@function
pal_waited:
	s_load_dword s4, s[0:1], 0x0
	s_waitcnt lgkmcnt(0)
	s_add_u32 s5, s4, 1
	s_endpgm
.Lfunc_end1:
	.size	pal_waited, .Lfunc_end1-pal_waited

	.amd_amdgpu_isa "amdgcn-amd-amdpal--gfx700"
	.amdgpu_pal_metadata
---
amdpal.pipelines:
  - .hardware_stages:
      .cs:
        .entry_point:    _amdgpu_cs_main
        .entry_point_symbol: pal_smem
        .scratch_memory_size: 0
        .sgpr_count:     0x6
        .vgpr_count:     0x1
      .ps:
        .entry_point:    _amdgpu_ps_main
        .entry_point_symbol: pal_waited
    .registers:      {}
amdpal.version:
  - 0x3
  - 0
...
	.end_amdgpu_pal_metadata
