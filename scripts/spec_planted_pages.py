#!/usr/bin/env python3
"""Writes tests/data/spec/planted/: the planted-fault pages (p*), the clean pages (c*) and
manifest.json, for verifier/tests/spec_planted.rs.

Usage: python3 scripts/spec_planted_pages.py tests/data/spec/planted

Each page is written out below by hand; a line holding a planted fault carries a trailing
'@@kind@@check' marker (or '@@also@@check' for a second finding the same fault explains),
which is stripped, and the manifest records its line and, from EXPECT, the fact the finding
must state (llvm-mc 22, the page's own text or Semantics). Run it again after editing a page
so that the manifest's lines stay true."""
import json, os, re, sys

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)

def layout(gen, op):
    if gen == 'CDNA 4':
        rows = [('VDST','63:56'),('DATA1','55:48'),('DATA0','47:40'),('ADDR','39:32'),('110110','31:26'),('ACC','25'),(format(op,'08b'),'24:17'),('GDS','16'),('OFFSET1','15:8'),('OFFSET0','7:0')]
        ident = 0xD8000000 | (op << 17)
    else:
        rows = [('VDST','63:56'),('DATA1','55:48'),('DATA0','47:40'),('ADDR','39:32'),('110110','31:26'),(format(op,'08b'),'25:18'),('unassigned','17:16'),('OFFSET1','15:8'),('OFFSET0','7:0')]
        ident = 0xD8000000 | (op << 18)
    s = f"Binary Layout (AMD {gen})\n" + "".join(f"{a}\n{b}\n" for a, b in rows)
    s += f"\nFormat DS\nWidth 64 bits\nOpcode {op}@@OPC\nIdentifier 0x{ident:016X}\n"
    return s

def ref(name, gen, op, desc=None, sem=None, alias=None, syntax=None, operands=None, example=None, opc_mark=''):
    s = f"{name} GPU Native ISA AMD Vector\n\nLDS / Data Share\n\n{name}\n\n"
    if alias:
        s += f"Also written as {alias}. A name this page gives for the same instruction.\n\n"
    s += "Encoding\n\n" + layout(gen, op).replace('@@OPC', opc_mark) + "\n"
    if syntax:
        s += f"Syntax\n\n{syntax}\n\n"
    if operands:
        s += "Operands\n\n"
        for o, role in operands:
            s += f"  \u2022 {o}\n    {role}.\n"
        s += "\n"
    if desc:
        s += f"Description\n\n{desc}\n\n"
    if sem:
        s += f"Semantics\n\n{sem}\n\n"
    if example:
        s += f"Example\n\n{example}\n"
    return s

CLRX_FIELDS = """Bits  | Name     | Description
------|----------|------------------------------
0-7   | OFFSET0  | 8-bit offset 0 for VDATA0
8-15  | OFFSET1  | 8-bit offset 1 for VDATA1
0-15  | OFFSET   | 16-bit offset for single DATA
17    | GDS      | Access to GDS instead LDS
18-25 | OPCODE   | Operation code
26-31 | ENCODING | Encoding type. Must be 0b110110
32-39 | ADDR     | ADDR vector register
40-47 | VDATA0   | VDATA0 vector register
48-55 | VDATA1   | VDATA1 vector register
56-63 | VDST     | VDST vector register
"""

def clrx(title, rows, entries, fields=CLRX_FIELDS, forms=''):
    s = f"## GCN ISA DS instructions ({title})\n\nList of fields for the DS encoding:\n\n" + fields + forms
    s += "\nList of the instructions by opcode (GCN 1.0/1.1):\n\n Opcode     |GCN 1.0|GCN 1.1| Mnemonic\n------------|-------|-------|------------------------\n"
    for op, name, *mark in rows:
        cell = f" {op} ({op:#x})"
        s += f"{cell:<12}|   \u2713   |   \u2713   | {name}{mark[0] if mark else ''}\n"
    s += "\n### Instruction set\n\n"
    for e in entries:
        s += e + "\n"
    return s

def centry(name, op, syntax, desc, oper, op_mark='', syn_mark=''):
    return (f"#### {name}\n\nOpcode: {op} ({op:#x}){op_mark}  \nSyntax: {syntax}{syn_mark}  \n"
            f"Description: {desc}  \nOperation:  \n```\n{oper}\n```\n")

def refbuf(name, op, sem, operands=None):
    """A CDNA 4 MUBUF reference page (the layout as seed004 draws it)."""
    rows = [('SOFFSET','63:56'),('ACC','55'),('unassigned','54:53'),('SRSRC','52:48'),('VDATA','47:40'),('VADDR','39:32'),('111000','31:26'),('unassigned','25'),(format(op,'07b'),'24:18'),('NT','17'),('LDS','16'),('SC1','15'),('SC0','14'),('IDXEN','13'),('OFFEN','12'),('OFFSET','11:0')]
    ident = 0xE0000000 | (op << 18)
    s = f"{name} GPU Native ISA AMD Vector\n\nBuffer Memory\n\n{name}\n\nEncoding\n\nBinary Layout (AMD CDNA 4)\n"
    s += "".join(f"{a}\n{b}\n" for a, b in rows)
    s += f"\nFormat MUBUF\nWidth 64 bits\nOpcode {op}\nIdentifier 0x{ident:016X}\n\n"
    if operands:
        s += "Operands\n\n" + "".join(f"  \u2022 {o}\n    {r}.\n" for o, r in operands) + "\n"
    return s + f"Semantics\n\n{sem}\n"

C = 'CDNA 4'; R = 'RDNA 4'
CD = "addr = CalcDsAddr(ADDR.b32, OFFSET0.b32, OFFSET1.b32); "
RD = "addr = CalcDsAddr(vgpr_a.b32, offset.b32); "
M = '@@'
def mk(kind, check): return f"{M}{kind}{M}{check}"

pages = {}
# --- pseudocode against semantics -------------------------------------------------------
pages['p01_pcode_op_add'] = ref('ds_add_u32', C, 0, sem=CD + "tmp = MEM[addr].u32; MEM[addr].u32 -= DATA.u32; RETURN_DATA.u32 = tmp" + mk('pcode-wrong-op','pcode-vs-semantics'))
pages['p02_pcode_op_and'] = ref('ds_and_b32', R, 9, sem=RD + "tmp = MEM[addr].b32; MEM[addr].b32 = (tmp | DATA.b32); RETURN_DATA.b32 = tmp" + mk('pcode-wrong-op','pcode-vs-semantics'))
pages['p03_pcode_op_xor'] = ref('ds_xor_b32', C, 11, sem=CD + "tmp = MEM[addr].b32; MEM[addr].b32 = (tmp & DATA.b32); RETURN_DATA.b32 = tmp" + mk('pcode-wrong-op','pcode-vs-semantics'))
pages['p04_pcode_op_max'] = ref('ds_max_u32', R, 8, sem=RD + "tmp = MEM[addr].u32; src = DATA.u32; MEM[addr].u32 = src < tmp ? src : tmp; RETURN_DATA.u32 = tmp" + mk('pcode-wrong-op','pcode-vs-semantics'))
pages['p05_pcode_operand_sub'] = ref('ds_sub_u32', R, 1, sem=RD + "tmp = MEM[addr].u32; MEM[addr].u32 = DATA.u32 - tmp; RETURN_DATA.u32 = tmp" + mk('pcode-wrong-operand','pcode-vs-semantics'))
pages['p06_pcode_operand_write2'] = ref('ds_write2_b32', C, 14, sem="addr = CalcDsAddr(ADDR.b32, 0x0, 0x0); MEM[addr + OFFSET0.u32 * 4U].b32 = DATA[31 : 0]; addr = CalcDsAddr(ADDR.b32, 0x0, 0x0); MEM[addr + OFFSET1.u32 * 4U].b32 = DATA[31 : 0]" + mk('pcode-wrong-operand','pcode-vs-semantics'))
pages['p07_pcode_operand_mskor'] = ref('ds_mskor_b32', R, 12, sem=RD + "tmp = MEM[addr].b32; MEM[addr].b32 = ((tmp & ~DATA2.b32) | DATA.b32); RETURN_DATA.b32 = tmp" + mk('pcode-wrong-operand','pcode-vs-semantics'))
pages['p08_pcode_operand_cmpst'] = ref('ds_cmpst_b32', C, 16, sem=CD + "tmp = MEM[addr].b32; src = DATA.b32; cmp = DATA2.b32; MEM[addr].b32 = tmp == cmp ? src : tmp; RETURN_DATA.b32 = tmp" + mk('pcode-wrong-operand','pcode-vs-semantics'))
pages['p09_pcode_offset_add_rtn'] = ref('ds_add_rtn_u32', R, 32, sem=RD + "tmp = MEM[ADDR].u32; MEM[ADDR].u32 += DATA.u32; RETURN_DATA.u32 = tmp" + mk('pcode-offset-dropped','pcode-vs-semantics'))
pages['p10_pcode_offset_write'] = ref('ds_write_b32', C, 13, sem="addr = CalcDsAddr(ADDR.b32, 0x0, 0x0); MEM[addr].b32 = DATA[31 : 0]" + mk('pcode-offset-dropped','pcode-vs-semantics'))
pages['p11_pcode_offset_load2'] = ref('ds_load_2addr_b32', R, 55, sem="addr = CalcDsAddr(vgpr_a.b32, 0x0); RETURN_DATA[31 : 0] = MEM[addr + OFFSET0.u32 * 4U].b32; addr = CalcDsAddr(vgpr_a.b32, 0x0); RETURN_DATA[63 : 32] = MEM[addr].b32" + mk('pcode-offset-dropped','pcode-vs-semantics'))
pages['p12_pcode_sign_max'] = ref('ds_max_i32', C, 6, sem=CD + "tmp = MEM[addr].u32; src = DATA.u32; MEM[addr].u32 = src >= tmp ? src : tmp; RETURN_DATA.u32 = tmp" + mk('pcode-width-signedness','pcode-vs-semantics'))
pages['p13_pcode_sign_min'] = ref('ds_min_u32', R, 7, sem=RD + "tmp = MEM[addr].i32; src = DATA.i32; MEM[addr].i32 = src < tmp ? src : tmp; RETURN_DATA.i32 = tmp" + mk('pcode-width-signedness','pcode-vs-semantics'))
pages['p14_pcode_width_write16'] = ref('ds_write_b16', C, 31, sem="MEM[ADDR].b32 = DATA[31 : 0]" + mk('pcode-width-signedness','pcode-vs-semantics'))
pages['p15_pcode_width_add64'] = ref('ds_add_u64', C, 64, sem=CD + "tmp = MEM[addr].u32; MEM[addr].u32 += DATA.u32; RETURN_DATA.u32 = tmp" + mk('pcode-width-signedness','pcode-vs-semantics'))

# --- description against pseudocode ------------------------------------------------------
INC_C = CD + "tmp = MEM[addr].u32; src = DATA.u32; MEM[addr].u32 = tmp >= src ? 0U : tmp + 1U; RETURN_DATA.u32 = tmp"
DEC_R = RD + "tmp = MEM[addr].u32; src = DATA.u32; MEM[addr].u32 = ((tmp == 0U) || (tmp > src)) ? src : tmp - 1U; RETURN_DATA.u32 = tmp"
pages['p16_desc_incdec_inc'] = ref('ds_inc_u32', C, 3, desc="Decrement the unsigned 32-bit integer held at the data share location by one, wrapping to zero once it reaches the value in DATA0." + mk('desc-inc-dec','prose-vs-pcode'), sem=INC_C)
pages['p17_desc_incdec_dec_rtn'] = ref('ds_dec_rtn_u32', R, 36, desc="Increments the unsigned integer in LDS, wrapping to DATA0 when the stored value is zero or greater than DATA0. The value before the operation is returned in VDST." + mk('desc-inc-dec','prose-vs-pcode'), sem=DEC_R)
pages['p18_desc_incdec_inc_rtn'] = ref('ds_inc_rtn_u32', C, 35, desc="Atomically subtracts one from the unsigned dword in memory, wrapping around to 0 when it is greater than or equal to DATA0; VDST receives the previous value." + mk('desc-inc-dec','prose-vs-pcode'), sem=INC_C)
CMPST_C = CD + "tmp = MEM[addr].b32; src = DATA2.b32; cmp = DATA.b32; MEM[addr].b32 = tmp == cmp ? src : tmp; RETURN_DATA.b32 = tmp"
CMPSTORE_R = RD + "tmp = MEM[addr].b32; src = DATA.b32; cmp = DATA2.b32; MEM[addr].b32 = tmp == cmp ? src : tmp; RETURN_DATA.b32 = tmp"
pages['p19_desc_order_cmpst'] = ref('ds_cmpst_b32', C, 16, desc="Compare the dword in the data share with DATA1; if they are equal, write DATA0 to that location." + mk('desc-swapped-order','prose-vs-pcode'), sem=CMPST_C)
pages['p20_desc_order_cmpstore_rtn'] = ref('ds_cmpstore_rtn_b32', R, 48, desc="If the 32-bit value at the address equals DATA0, it is replaced by DATA1, otherwise memory is left as it is. The original value is returned." + mk('desc-swapped-order','prose-vs-pcode'), sem=CMPSTORE_R)
pages['p21_desc_order_sub'] = ref('ds_sub_u32', R, 1, desc="Subtract the unsigned value in the data share from DATA0 and write the difference back to the same location." + mk('desc-swapped-order','prose-vs-pcode'), sem=RD + "tmp = MEM[addr].u32; MEM[addr].u32 -= DATA.u32; RETURN_DATA.u32 = tmp")
pages['p22_desc_order_rsub'] = ref('ds_rsub_u32', C, 2, desc="Subtract DATA0 from the unsigned 32-bit value stored in LDS, and store the result in LDS." + mk('desc-swapped-order','prose-vs-pcode'), sem=CD + "tmp = MEM[addr].u32; MEM[addr].u32 = DATA.u32 - MEM[addr].u32; RETURN_DATA.u32 = tmp")
pages['p23_desc_minmax_max'] = ref('ds_max_u32', C, 8, desc="Keep the smaller of the unsigned 32-bit value in memory and DATA0." + mk('desc-min-for-max','prose-vs-pcode'), sem=CD + "tmp = MEM[addr].u32; src = DATA.u32; MEM[addr].u32 = src >= tmp ? src : tmp; RETURN_DATA.u32 = tmp")
pages['p24_desc_minmax_min_rtn'] = ref('ds_min_rtn_i32', R, 37, desc="Store the maximum of the signed integer in the data share and DATA0 into the data share, and return the old value in VDST." + mk('desc-min-for-max','prose-vs-pcode'), sem=RD + "tmp = MEM[addr].i32; src = DATA.i32; MEM[addr].i32 = src < tmp ? src : tmp; RETURN_DATA.i32 = tmp")
pages['p25_desc_minmax_max64'] = ref('ds_max_i64', C, 70, desc="Choose the lesser signed 64-bit value from the data share location and DATA0, and write it to that location." + mk('desc-min-for-max','prose-vs-pcode'), sem=CD + "tmp = MEM[addr].i64; src = DATA.i64; MEM[addr].i64 = src >= tmp ? src : tmp; RETURN_DATA.i64 = tmp")

# --- stride and element size ---------------------------------------------------------------
R2ST64 = "addr = CalcDsAddr(ADDR.b32, 0x0, 0x0); RETURN_DATA[31 : 0] = MEM[addr + OFFSET0.u32 * 512U].b32; RETURN_DATA[63 : 32] = MEM[addr + OFFSET0.u32 * 512U + 4U].b32; addr = CalcDsAddr(ADDR.b32, 0x0, 0x0); RETURN_DATA[95 : 64] = MEM[addr + OFFSET1.u32 * 512U].b32; RETURN_DATA[127 : 96] = MEM[addr + OFFSET1.u32 * 512U + 4U].b32"
W2B64 = "addr = CalcDsAddr(ADDR.b32, 0x0, 0x0); MEM[addr + OFFSET0.u32 * 8U].b32 = DATA[31 : 0]; MEM[addr + OFFSET0.u32 * 8U + 4U].b32 = DATA[63 : 32]; addr = CalcDsAddr(ADDR.b32, 0x0, 0x0); MEM[addr + OFFSET1.u32 * 8U].b32 = DATA2[31 : 0]; MEM[addr + OFFSET1.u32 * 8U + 4U].b32 = DATA2[63 : 32]"
S2ST64 = "addr = CalcDsAddr(vgpr_a.b32, 0x0); MEM[addr + OFFSET0.u32 * 256U].b32 = DATA[31 : 0]; addr = CalcDsAddr(vgpr_a.b32, 0x0); MEM[addr + OFFSET1.u32 * 256U].b32 = DATA2[31 : 0]"
L2B64 = "addr = CalcDsAddr(vgpr_a.b32, 0x0); RETURN_DATA[31 : 0] = MEM[addr + OFFSET0.u32 * 8U].b32; RETURN_DATA[63 : 32] = MEM[addr + OFFSET0.u32 * 8U + 4U].b32; addr = CalcDsAddr(vgpr_a.b32, 0x0); RETURN_DATA[95 : 64] = MEM[addr + OFFSET1.u32 * 8U].b32; RETURN_DATA[127 : 96] = MEM[addr + OFFSET1.u32 * 8U + 4U].b32"
R2B32 = "addr = CalcDsAddr(ADDR.b32, 0x0, 0x0); RETURN_DATA[31 : 0] = MEM[addr + OFFSET0.u32 * 4U].b32; addr = CalcDsAddr(ADDR.b32, 0x0, 0x0); RETURN_DATA[63 : 32] = MEM[addr + OFFSET1.u32 * 4U].b32"
pages['p26_size_stride_read2st64'] = ref('ds_read2st64_b64', C, 120, desc="Load two 64-bit values from the data share into a 128-bit vector register. Each offset is an index, multiplied by a stride of 64 elements (256 bytes)." + mk('size-stride','size'), sem=R2ST64)
pages['p27_size_elem_write2_b64'] = ref('ds_write2_b64', C, 78, desc="Store two 64-bit values into the data share at two offsets; each offset counts elements, element size (4 bytes)." + mk('size-element','size'), sem=W2B64)
pages['p28_size_units_store2st64'] = ref('ds_store_2addr_stride64_b32', R, 15, desc="Store two dwords into LDS; the offsets step in units of 128 bytes." + mk('size-stride','size'), sem=S2ST64)
pages['p29_size_elem_load2_b64'] = ref('ds_load_2addr_b64', R, 119, desc="Load two 64-bit values from LDS; the two offsets count 4-byte elements." + mk('size-element','size'), sem=L2B64)
pages['p30_size_units_read2'] = ref('ds_read2_b32', C, 55, desc="Load two dwords from the data share. Each offset is given in units of 8 bytes." + mk('size-stride','size'), sem=R2B32)

# --- opcode table and entry -----------------------------------------------------------------
ADD_E = centry('DS_ADD_U32', 0, 'DS_ADD_U32 ADDR, VDATA0 [OFFSET:OFFSET]', "Adds unsigned integer value from LDS/GDS at address (ADDR+OFFSET) & ~3 and\nVDATA0, and store result back to LDS/GDS at this address. Operation is atomic.", "UINT32* V = (UINT32*)(DS + ((ADDR+OFFSET)&~3))\n*V = *V + VDATA0  // atomic operation")
def min_e(op, mark=''):
    return centry('DS_MIN_U32', op, 'DS_MIN_U32 ADDR, VDATA0 [OFFSET:OFFSET]', "Choose smallest unsigned integer value from LDS/GDS at address\n(ADDR+OFFSET) & ~3 and VDATA0, and store result to LDS/GDS at this same address.\nOperation is atomic.", "UINT32* V = (UINT32*)(DS + ((ADDR+OFFSET)&~3))\n*V = MIN(*V, VDATA0)  // atomic operation", op_mark=mark)
def or_e(op, mark=''):
    return centry('DS_OR_B32', op, 'DS_OR_B32 ADDR, VDATA0 [OFFSET:OFFSET]', "Do bitwise OR operation on 32-bit value from LDS/GDS at address\n(ADDR+OFFSET) & ~3, and value from VDATA0; and store result to LDS/GDS at this same address.\nOperation is atomic.", "UINT32* V = (UINT32*)(DS + ((ADDR+OFFSET)&~3))\n*V = *V | VDATA0  // atomic operation", op_mark=mark)
pages['p31_opcode_entry'] = clrx('planted', [(0,'DS_ADD_U32'),(7,'DS_MIN_U32')], [ADD_E, min_e(8, mk('opcode-entry','opcode'))])
pages['p32_opcode_row'] = clrx('planted', [(0,'DS_ADD_U32'),(8,'DS_MIN_U32', mk('opcode-table-row','opcode-table'))], [ADD_E, min_e(7, mk('also','opcode'))])
pages['p33_opcode_row_and_entry'] = clrx('planted', [(0,'DS_ADD_U32'),(11,'DS_OR_B32', mk('opcode-table-row','opcode-table'))], [ADD_E, or_e(11, mk('opcode-entry','opcode'))])

# --- field table rows ----------------------------------------------------------------------
def fields_with(old, new):
    assert old in CLRX_FIELDS
    return CLRX_FIELDS.replace(old, new)
STD_E = [ADD_E, min_e(7)]
STD_R = [(0,'DS_ADD_U32'),(7,'DS_MIN_U32')]
pages['p34_layout_addr_width'] = clrx('planted', STD_R, STD_E, fields_with("32-39 | ADDR     | ADDR vector register", "32-40 | ADDR     | ADDR vector register" + mk('layout-bit-range','layout')))
pages['p35_layout_overlap'] = clrx('planted', STD_R, STD_E, fields_with("17    | GDS      | Access to GDS instead LDS\n", "17    | GDS      | Access to GDS instead LDS\n16-17 | PRI      | Priority of the access" + mk('layout-overlap','layout') + "\n"))
pages['p36_layout_gap'] = clrx('planted', STD_R, STD_E, fields_with("0-7   | OFFSET0  | 8-bit offset 0 for VDATA0\n8-15  | OFFSET1  | 8-bit offset 1 for VDATA1\n0-15  | OFFSET   | 16-bit offset for single DATA\n", "0-7   | OFFSET0  | 8-bit offset 0 for VDATA0" + mk('layout-gap','layout') + "\n"))
pages['p37_layout_opcode_width'] = clrx('planted', STD_R, STD_E, fields_with("18-25 | OPCODE   | Operation code", "18-24 | OPCODE   | Operation code" + mk('layout-width','layout')))
pages['p38_layout_vdata1'] = clrx('planted', STD_R, STD_E, fields_with("48-55 | VDATA1   | VDATA1 vector register", "40-47 | VDATA1   | VDATA1 vector register" + mk('layout-bit-range','layout')))

# --- syntax lines --------------------------------------------------------------------------
pages['p39_syntax_store_vdst'] = ref('ds_store_b32', R, 13, syntax="ds_store_b32 VDST, ADDR offset:OFFSET" + mk('syntax-operands','syntax'), sem="addr = CalcDsAddr(vgpr_a.b32, 0x0); MEM[addr + OFFSET.u32].b32 = DATA[31 : 0]")
WR_E = centry('DS_WRITE_B32', 13, 'DS_WRITE_B32 VDST, ADDR [OFFSET:OFFSET]', "Store the dword from VDATA0 into LDS/GDS at address (ADDR+OFFSET) & ~3.", "UINT32* V = (UINT32*)(DS + ((ADDR+OFFSET)&~3))\n*V = VDATA0", syn_mark=mk('syntax-operands','syntax'))
pages['p40_syntax_clrx_write'] = clrx('planted', [(0,'DS_ADD_U32'),(13,'DS_WRITE_B32')], [ADD_E, WR_E])
ADDRTN_E = centry('DS_ADD_RTN_U32', 32, 'DS_ADD_RTN_U32 ADDR, VDATA0 [OFFSET:OFFSET]', "Adds unsigned integer value from LDS/GDS at address (ADDR+OFFSET) & ~3 and\nVDATA0, and store result back to LDS/GDS at this address. Previous value from LDS/GDS are stored in VDST. Operation is atomic.", "UINT32* V = (UINT32*)(DS + ((ADDR+OFFSET)&~3))\nVDST = *V; *V = *V + VDATA0  // atomic operation", syn_mark=mk('syntax-operands','syntax'))
pages['p41_syntax_clrx_rtn_no_vdst'] = clrx('planted', [(0,'DS_ADD_U32'),(32,'DS_ADD_RTN_U32')], [ADD_E, ADDRTN_E])
pages['p42_syntax_load_data'] = ref('ds_read_b32', C, 54, syntax="ds_read_b32 VDST, ADDR, DATA0 offset:OFFSET" + mk('syntax-operands','syntax'), sem="addr = CalcDsAddr(ADDR.b32, 0x0, 0x0); RETURN_DATA[31 : 0] = MEM[addr + OFFSET.u32].b32")

# --- operand names -------------------------------------------------------------------------
OPS_W2 = [('ADDR','Read'),('DATA0','Read'),('DATA1','Read')]
pages['p43_names_write2'] = ref('ds_write2_b32', C, 14, operands=OPS_W2, sem="addr = CalcDsAddr(ADDR.b32, 0x0, 0x0); MEM[addr + OFFSET0.u32 * 4U].b32 = DATA[31 : 0]; addr = CalcDsAddr(ADDR.b32, 0x0, 0x0); MEM[addr + OFFSET1.u32 * 4U].b32 = DATA2[31 : 0]" + mk('operand-names','operand-names'))
pages['p44_names_cmpstore'] = ref('ds_cmpstore_b32', R, 16, operands=OPS_W2, sem=RD + "tmp = MEM[addr].b32; src = DATA0.b32; cmp = DATA2.b32; MEM[addr].b32 = tmp == cmp ? src : tmp" + mk('operand-names','operand-names'))
pages['p45_names_add_rtn'] = ref('ds_add_rtn_u32', C, 32, operands=[('VDST','Written'),('ADDR','Read'),('DATA','Read')], sem=CD + "tmp = MEM[addr].u32; MEM[addr].u32 += DATA0.u32; RETURN_DATA.u32 = tmp" + mk('operand-names','operand-names'))

# --- aliases -------------------------------------------------------------------------------
MAXU_C = CD + "tmp = MEM[addr].u32; src = DATA.u32; MEM[addr].u32 = src >= tmp ? src : tmp; RETURN_DATA.u32 = tmp"
pages['p46_alias_max_min'] = ref('ds_max_u32', C, 8, alias='ds_min_u32' + mk('alias-name','alias'), sem=MAXU_C)
pages['p47_alias_load'] = ref('ds_load_b32', R, 54, alias='ds_read_b64' + mk('alias-name','alias'), sem="addr = CalcDsAddr(vgpr_a.b32, 0x0); RETURN_DATA[31 : 0] = MEM[addr + OFFSET.u32].b32")
pages['p48_alias_rsub'] = ref('ds_rsub_u32', C, 2, alias='ds_sub_u32' + mk('alias-name','alias'), sem=CD + "tmp = MEM[addr].u32; MEM[addr].u32 = DATA.u32 - MEM[addr].u32; RETURN_DATA.u32 = tmp")

# --- two faults on one page ----------------------------------------------------------------
pages['p49_two_op_and_alias'] = ref('ds_or_b32', C, 10, alias='ds_xor_b32' + mk('alias-name','alias'), sem=CD + "tmp = MEM[addr].b32; MEM[addr].b32 = (tmp ^ DATA.b32); RETURN_DATA.b32 = tmp" + mk('pcode-wrong-op','pcode-vs-semantics'))
pages['p50_two_syntax_and_names'] = ref('ds_store_2addr_b32', R, 14, syntax="ds_store_2addr_b32 ADDR, DATA0 offset0:OFFSET0 offset1:OFFSET1" + mk('syntax-operands','syntax'), operands=OPS_W2, sem="addr = CalcDsAddr(vgpr_a.b32, 0x0); MEM[addr + OFFSET0.u32 * 4U].b32 = DATA0[31 : 0]; addr = CalcDsAddr(vgpr_a.b32, 0x0); MEM[addr + OFFSET1.u32 * 4U].b32 = DATA2[31 : 0]" + mk('operand-names','operand-names'))

# --- buffer pseudocode against semantics --------------------------------------------------
BA = "addr = CalcBufferAddr(VADDR.b32, SRSRC.b32, SOFFSET.b32, OFFSET.b32); "
pages['p52_buffer_op_add'] = refbuf('buffer_atomic_add', 66, BA + "tmp = MEM[addr].u32; MEM[addr].u32 -= DATA.u32; RETURN_DATA.u32 = tmp" + mk('pcode-wrong-op','pcode-vs-semantics'))
pages['p53_buffer_operand_cmpswap'] = refbuf('buffer_atomic_cmpswap', 65, BA + "tmp = MEM[addr].u32; src = DATA[63 : 32].u32; cmp = DATA[31 : 0].u32; MEM[addr].u32 = tmp == cmp ? src : tmp; RETURN_DATA.u32 = tmp" + mk('pcode-wrong-operand','pcode-vs-semantics'))
pages['p54_buffer_width_store_short'] = refbuf('buffer_store_short', 26, BA + "MEM[addr].b32 = VDATA[31 : 0]" + mk('pcode-width-signedness','pcode-vs-semantics'))
pages['p55_buffer_sign_smax'] = refbuf('buffer_atomic_smax', 70, BA + "tmp = MEM[addr].u32; src = DATA.u32; MEM[addr].u32 = src >= tmp ? src : tmp; RETURN_DATA.u32 = tmp" + mk('pcode-width-signedness','pcode-vs-semantics'))

# --- clean pages that paraphrase -------------------------------------------------------------
OPS_1 = [('ADDR','Read'),('DATA0','Read')]
OPS_R1 = [('VDST','Written'),('ADDR','Read'),('DATA0','Read')]
pages['c01_add'] = ref('ds_add_u32', C, 0, syntax="ds_add_u32 ADDR, DATA0 offset:OFFSET", operands=OPS_1, desc="Atomically add DATA0 to the unsigned 32-bit integer in the data share at the computed address; the sum is written back to the same location.", sem=CD + "tmp = MEM[addr].u32; MEM[addr].u32 += DATA0.u32", example="ds_add_u32 v1, v2 offset:16")
pages['c02_sub_rtn'] = ref('ds_sub_rtn_u32', R, 33, syntax="ds_sub_rtn_u32 VDST, ADDR, DATA0 offset:OFFSET", operands=OPS_R1, desc="Subtract DATA0 from the dword in LDS and write the result back. The pre-operation value is returned in VDST.", sem=RD + "tmp = MEM[addr].u32; MEM[addr].u32 -= DATA0.u32; RETURN_DATA.u32 = tmp")
pages['c03_max_i32'] = ref('ds_max_i32', C, 6, desc="Choose the largest of two signed integers: the value in memory and DATA0. Whichever is greater is stored back into memory. The operation is atomic.", sem=CD + "tmp = MEM[addr].i32; src = DATA.i32; MEM[addr].i32 = src >= tmp ? src : tmp; RETURN_DATA.i32 = tmp")
pages['c04_min_u64'] = ref('ds_min_u64', R, 71, desc="Store the smaller of the unsigned 64-bit value in the data share and DATA0 into the data share.", sem=RD + "tmp = MEM[addr].u64; src = DATA.u64; MEM[addr].u64 = src < tmp ? src : tmp; RETURN_DATA.u64 = tmp")
pages['c05_cmpst'] = ref('ds_cmpst_b32', C, 16, operands=[('ADDR','Read'),('DATA0','Read'),('DATA1','Read')], desc="Compare the dword in memory with DATA0; if they are equal, store DATA1 in its place, otherwise leave memory unchanged.", sem=CD + "tmp = MEM[addr].b32; src = DATA1.b32; cmp = DATA0.b32; MEM[addr].b32 = tmp == cmp ? src : tmp")
pages['c06_cmpstore_rtn'] = ref('ds_cmpstore_rtn_b32', R, 48, desc="If the memory value equals DATA1, replace it with DATA0. The original value is returned in VDST.", sem=CMPSTORE_R)
pages['c07_inc'] = ref('ds_inc_u32', C, 3, desc="Add one to the unsigned dword in memory, wrapping around to zero once it is greater than or equal to DATA0.", sem=INC_C)
pages['c08_read2st64'] = ref('ds_read2st64_b64', C, 120, desc="Load two 64-bit values from the data share into a 128-bit vector register. The offsets are element indices with element size (8 bytes), multiplied by a stride of 64 elements (512 bytes).", sem=R2ST64, example="ds_read2st64_b64 v[4:7], v1 offset0:1 offset1:2")
pages['c09_store2'] = ref('ds_store_2addr_b32', R, 14, syntax="ds_store_2addr_b32 ADDR, DATA0, DATA1 offset0:OFFSET0 offset1:OFFSET1", operands=OPS_W2, desc="Store two dwords into LDS at two locations; each offset is in units of 4 bytes (4-byte elements).", sem="addr = CalcDsAddr(vgpr_a.b32, 0x0); MEM[addr + OFFSET0.u32 * 4U].b32 = DATA0[31 : 0]; addr = CalcDsAddr(vgpr_a.b32, 0x0); MEM[addr + OFFSET1.u32 * 4U].b32 = DATA1[31 : 0]")
XOR_E = centry('DS_XOR_B32', 11, 'DS_XOR_B32 ADDR, VDATA0 [OFFSET:OFFSET]', "Exclusive-OR the 32-bit value in LDS/GDS with VDATA0, bit by bit, and\nwrite the result back to the same location. Operation is atomic.", "UINT32* V = (UINT32*)(DS + ((ADDR+OFFSET)&~3))\n*V = *V ^ VDATA0  // atomic operation")
DEC_E = centry('DS_DEC_RTN_U32', 36, 'DS_DEC_RTN_U32 VDST, ADDR, VDATA0 [OFFSET:OFFSET]', "Decrement the unsigned value in LDS/GDS, wrapping to VDATA0 when the value\nis zero or greater than VDATA0. The old value is returned in VDST. Operation is atomic.", "UINT32* V = (UINT32*)(DS + ((ADDR+OFFSET)&~3))\nVDST = *V; *V = (VDATA0 >= *V && *V!=0) ? *V-1 : VDATA0  // atomic operation")
pages['c11_buffer_load'] = refbuf('buffer_load_dword', 20, BA + "VDATA[31 : 0] = MEM[addr].b32", operands=[('VDATA','Written'),('VADDR','Read'),('SRSRC','Read'),('SOFFSET','Read')])

pages['p51_syntax_general_write'] = clrx('planted', STD_R, STD_E, forms="\nSyntax: INSTRUCTION ADDR, VDATA0 [offset:OFFSET] [GDS]  \nWrite syntax: INSTRUCTION VDST, ADDR [offset:OFFSET] [GDS]" + mk('syntax-operands','syntax') + "  \n")
pages['c10_clrx'] = clrx('clean', [(0,'DS_ADD_U32'),(11,'DS_XOR_B32'),(36,'DS_DEC_RTN_U32')], [ADD_E, XOR_E, DEC_E], forms="\nSyntax: INSTRUCTION ADDR, VDATA0 [offset:OFFSET] [GDS]  \nVDST syntax: INSTRUCTION VDST, ADDR [offset:OFFSET] [GDS]  \n")

# What each finding must say, in fault order: the fact behind it, written from the page
# text (descriptions read by hand), llvm-mc 22 (opcodes, fields, operands) or the page's
# own Semantics (offset scales).
WRONG = "the document's operation is wrong"
EXPECT = {
 'p01': [WRONG], 'p02': [WRONG], 'p03': [WRONG], 'p04': [WRONG], 'p05': [WRONG], 'p06': [WRONG],
 'p07': [WRONG], 'p08': [WRONG], 'p09': [WRONG], 'p10': [WRONG], 'p11': [WRONG], 'p12': [WRONG],
 'p13': [WRONG], 'p14': [WRONG], 'p15': [WRONG],
 'p16': ['tmp - 1'], 'p17': ['tmp + 1'], 'p18': ['tmp - 1'],
 'p19': ['(tmp == DATA1.b32) ? DATA0.b32'], 'p20': ['(tmp == DATA0.b32) ? DATA1.b32'],
 'p21': ['DATA0.u32 - tmp'], 'p22': ['tmp - DATA0.u32'],
 'p23': ['DATA0.u32 < tmp'], 'p24': ['DATA0.i32 > tmp'], 'p25': ['DATA0.i64 < tmp'],
 'p26': ['512 bytes'], 'p27': ['is 8 bytes'], 'p28': ['256 bytes'], 'p29': ['is 8 bytes'], 'p30': ['by 4 bytes'],
 'p31': ['opcode 7'], 'p32': ['ds_min_u32 is opcode 7', 'opcode 8'], 'p33': ['ds_or_b32 is opcode 10', 'opcode 10'],
 'p34': ['bits 32-39'], 'p35': ['share a bit'], 'p36': ['bits 8-15 are OFFSET1'], 'p37': ['bits 18-25'], 'p38': ['bits 48-55'],
 'p39': ['takes ADDR, DATA0'], 'p40': ['takes ADDR, DATA0'], 'p41': ['takes VDST, ADDR, DATA0'], 'p42': ['takes VDST, ADDR ('],
 'p43': ['DATA2 is none'], 'p44': ['DATA2 is none'], 'p45': ['DATA0 is none'],
 'p46': ['ds_min_u32 is opcode 7'], 'p47': ['ds_read_b64 is opcode 118'], 'p48': ['ds_sub_u32 is opcode 1'],
 'p49': ['ds_xor_b32 is opcode 11', WRONG], 'p50': ['takes ADDR, DATA0, DATA1', 'DATA2 is none'],
 'p51': ['those of a load'],
 'p52': [WRONG], 'p53': [WRONG], 'p54': [WRONG], 'p55': [WRONG],
}

manifest = []
for name, text in sorted(pages.items()):
    lines = text.split('\n')
    faults = []
    for i, l in enumerate(lines):
        for m in re.finditer(r'@@([a-z0-9-]+)@@([a-z-]+)', l):
            faults.append({'kind': m.group(1), 'check': m.group(2), 'line': i + 1})
        lines[i] = re.sub(r'@@[a-z0-9-]+@@[a-z-]+', '', l)
    fname = name + ('.md' if 'clrx' in text[:40] or text.startswith('## GCN') else '.txt')
    with open(os.path.join(OUT, fname), 'w') as f:
        f.write('\n'.join(lines))
    ex = EXPECT.get(name[:3], [])
    assert len(ex) == len(faults), name
    for f, e in zip(faults, ex):
        f['expect'] = e
    manifest.append({'file': fname, 'clean': name.startswith('c'), 'faults': faults})
json.dump({'pages': manifest}, open(os.path.join(OUT, 'manifest.json'), 'w'), indent=1)
print(len(manifest), sum(len([f for f in p['faults'] if f['kind'] != 'also']) for p in manifest))
