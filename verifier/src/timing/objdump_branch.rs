//! Long branches in `llvm-objdump -d` output: branch relaxation (LLVM
//! `SIInstrInfo::insertIndirectBranch`) emits `s_getpc_b64 s[N:N+1]` at address A,
//! `s_add_u32 sN, sN, LO`, `s_addc_u32 sN+1, sN+1, HI`, `s_setpc_b64 s[N:N+1]`, which jumps to
//! A + 4 (the address `s_getpc_b64` returns: it is 4 bytes) + (HI << 32 | LO) modulo 2^64.
//! Where the target is an instruction of the same function, the `s_setpc_b64` becomes an
//! `s_branch` to a label there (and is no return: the function may still be a kernel). Any
//! other `s_setpc_b64` is left alone (`longbranch.rs` then stops paths at one whose registers an
//! `s_getpc_b64` wrote).

use super::asm::Function;

/// A 32-bit operand as objdump prints it: `0x...`, `lit(0x...)`, or a small decimal inline
/// constant (possibly negative).
fn imm32(s: &str) -> Option<u32> {
    let s = s.trim();
    let s = s
        .strip_prefix("lit(")
        .and_then(|x| x.strip_suffix(')'))
        .unwrap_or(s);
    match s.strip_prefix("0x") {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None => s.parse::<i64>().ok().map(|v| v as u32),
    }
}

fn ops(f: &Function, i: usize) -> Vec<String> {
    f.insts[i]
        .operands
        .split(',')
        .map(|s| s.trim().to_string())
        .collect()
}

/// The target address of the relaxed branch ending at `s_setpc_b64` instruction `i`.
fn target(f: &Function, addrs: &[u64], i: usize) -> Option<u64> {
    if i < 3 {
        return None;
    }
    let m = |k: usize| f.insts[k].mnemonic.as_str();
    if (m(i - 3), m(i - 2), m(i - 1), m(i))
        != ("s_getpc_b64", "s_add_u32", "s_addc_u32", "s_setpc_b64")
    {
        return None;
    }
    let pair = ops(f, i);
    let (add, addc) = (ops(f, i - 2), ops(f, i - 1));
    if pair.len() != 1 || ops(f, i - 3) != pair || add.len() != 3 || addc.len() != 3 {
        return None;
    }
    // s[N:N+1]: the low half sN, the high half sN+1.
    let inner = pair[0].strip_prefix("s[")?.strip_suffix(']')?;
    let (lo, hi) = inner.split_once(':')?;
    let (lo, hi) = (format!("s{}", lo.trim()), format!("s{}", hi.trim()));
    if add[0] != lo || add[1] != lo || addc[0] != hi || addc[1] != hi {
        return None;
    }
    let off = (u64::from(imm32(&addc[2])?) << 32) | u64::from(imm32(&add[2])?);
    Some(addrs[i - 3].wrapping_add(4).wrapping_add(off))
}

/// Rewrite the relaxed long branches of `f` (instruction addresses `addrs`) into `s_branch`
/// instructions to labels named by `label(offset from base)`.
pub fn relax(f: &mut Function, addrs: &[u64], base: u64, label: impl Fn(u64) -> String) {
    for i in 0..f.insts.len() {
        let Some(to) = target(f, addrs, i) else {
            continue;
        };
        let Some(idx) = addrs.iter().position(|&a| a == to) else {
            continue;
        };
        let name = label(to.wrapping_sub(base));
        f.labels.insert(name.clone(), idx);
        f.insts[i].mnemonic = "s_branch".into();
        f.insts[i].operands = name;
    }
}
