//! The `offset:swizzle(...)` macro of `ds_swizzle_b32`.
//!
//! Encoding and printing follow LLVM 22 `AMDGPUInstPrinter::printSwizzle` and
//! `AMDGPUAsmParser::parseSwizzle*` (constants from `SIDefines.h`, namespace
//! `Swizzle`). FFT and ROTATE modes exist on gfx9+ only; before gfx9 those
//! offsets print as plain numbers.

const QUAD_PERM_ENC: u16 = 0x8000;
const QUAD_PERM_ENC_MASK: u16 = 0xff00;
const BITMASK_PERM_ENC_MASK: u16 = 0x8000;
const ROTATE_MODE_LO: u16 = 0xc000;
const FFT_MODE_LO: u16 = 0xe000;
const BITMASK_MAX: u16 = 0x1f;

/// The text after `offset:` for a nonzero swizzle offset, as llvm-mc prints it.
pub(crate) fn format(imm: u16, gfx9_plus: bool) -> String {
    if imm >= ROTATE_MODE_LO && gfx9_plus {
        return if imm >= FFT_MODE_LO {
            format!("swizzle(FFT,{})", imm & 0x1f)
        } else {
            format!("swizzle(ROTATE,{},{})", (imm >> 10) & 1, (imm >> 5) & 0x1f)
        };
    }
    if imm & QUAD_PERM_ENC_MASK == QUAD_PERM_ENC {
        let lanes: Vec<String> = (0..4).map(|i| ((imm >> (2 * i)) & 3).to_string()).collect();
        return format!("swizzle(QUAD_PERM,{})", lanes.join(","));
    }
    if imm & BITMASK_PERM_ENC_MASK != 0 {
        return imm.to_string();
    }
    let and = imm & 0x1f;
    let or = (imm >> 5) & 0x1f;
    let xor = (imm >> 10) & 0x1f;
    if and == BITMASK_MAX && or == 0 && xor.count_ones() == 1 {
        return format!("swizzle(SWAP,{xor})");
    }
    if and == BITMASK_MAX && or == 0 && xor > 0 && (xor + 1).is_power_of_two() {
        return format!("swizzle(REVERSE,{})", xor + 1);
    }
    let group = BITMASK_MAX - and + 1;
    if group > 1 && group.is_power_of_two() && or < group && xor == 0 {
        return format!("swizzle(BROADCAST,{group},{or})");
    }
    // Each of the 5 lane-id bits is forced 0/1, preserved (p) or inverted (i).
    let p0 = or ^ xor;
    let p1 = (BITMASK_MAX & and | or) ^ xor;
    let mask: String = (0..5)
        .rev()
        .map(|b| {
            let (a, c) = ((p0 >> b) & 1, (p1 >> b) & 1);
            match (a == c, a) {
                (true, 0) => '0',
                (true, _) => '1',
                (false, 0) => 'p',
                (false, _) => 'i',
            }
        })
        .collect();
    format!("swizzle(BITMASK_PERM,\"{mask}\")")
}

/// The 16-bit offset of `swizzle(args)` (`args` is the text between the parentheses), as
/// LLVM 22 `AMDGPUAsmParser::parseSwizzleOffset` encodes it.
///
/// Errors: an unknown mode, a malformed argument list or a value out of range; FFT and
/// ROTATE before gfx9.
pub fn parse(args: &str, gfx9_plus: bool) -> Result<u16, String> {
    let parts: Vec<&str> = args.split(',').map(str::trim).collect();
    let num = |i: usize, lo: u16, hi: u16, what: &str| -> Result<u16, String> {
        let s = parts.get(i).ok_or_else(|| format!("missing {what}"))?;
        let v = crate::lex::parse_int(s)
            .ok_or_else(|| format!("expected a number for {what}, got `{s}`"))?;
        if v < i64::from(lo) || v > i64::from(hi) {
            return Err(format!("{what} must be in [{lo}, {hi}], got {v}"));
        }
        Ok(v as u16)
    };
    let want = |n: usize| -> Result<(), String> {
        if parts.len() == n {
            Ok(())
        } else {
            Err(format!("swizzle({}) takes {} argument(s)", parts[0], n - 1))
        }
    };
    let bitmask = |and: u16, or: u16, xor: u16| and | (or << 5) | (xor << 10);
    match parts[0] {
        "QUAD_PERM" => {
            want(5)?;
            let mut v = QUAD_PERM_ENC;
            for i in 0..4 {
                v |= num(i + 1, 0, 3, "lane id")? << (2 * i);
            }
            Ok(v)
        }
        "BITMASK_PERM" => {
            want(2)?;
            let m = parts[1].trim_matches('"');
            if m.len() != 5 {
                return Err("BITMASK_PERM mask must have 5 characters of 0, 1, p, i".into());
            }
            let (mut and, mut or, mut xor) = (0u16, 0u16, 0u16);
            for (i, c) in m.chars().enumerate() {
                let bit = 1 << (4 - i);
                match c {
                    '0' => {}
                    '1' => or |= bit,
                    'p' => and |= bit,
                    'i' => {
                        and |= bit;
                        xor |= bit
                    }
                    _ => return Err(format!("invalid BITMASK_PERM mask character `{c}`")),
                }
            }
            Ok(bitmask(and, or, xor))
        }
        "SWAP" => {
            want(2)?;
            let n = num(1, 1, 16, "swap group size")?;
            if !n.is_power_of_two() {
                return Err("swap group size must be a power of two".into());
            }
            Ok(bitmask(BITMASK_MAX, 0, n))
        }
        "REVERSE" => {
            want(2)?;
            let n = num(1, 2, 32, "reverse group size")?;
            if !n.is_power_of_two() {
                return Err("reverse group size must be a power of two".into());
            }
            Ok(bitmask(BITMASK_MAX, 0, n - 1))
        }
        "BROADCAST" => {
            want(3)?;
            let n = num(1, 2, 32, "broadcast group size")?;
            if !n.is_power_of_two() {
                return Err("broadcast group size must be a power of two".into());
            }
            let lane = num(2, 0, n - 1, "lane id")?;
            Ok(bitmask(BITMASK_MAX + 1 - n, lane, 0))
        }
        "FFT" | "ROTATE" if !gfx9_plus => Err(format!("swizzle mode {} requires gfx9+", parts[0])),
        "FFT" => {
            want(2)?;
            Ok(FFT_MODE_LO | num(1, 0, 31, "FFT swizzle")?)
        }
        "ROTATE" => {
            want(3)?;
            let dir = num(1, 0, 1, "rotate direction")?;
            let size = num(2, 0, 31, "rotate size")?;
            Ok(ROTATE_MODE_LO | (dir << 10) | (size << 5))
        }
        m => Err(format!("unknown swizzle mode `{m}`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_inverts_format() {
        // Every printed macro parses; one parse reaches the canonical offset
        // (non-canonical FFT/BITMASK_PERM offsets print alike, as in llvm-mc),
        // after which print/parse is the identity.
        for gfx9 in [false, true] {
            for imm in 1..=u16::MAX {
                let s = format(imm, gfx9);
                if let Some(inner) = s.strip_prefix("swizzle(").and_then(|s| s.strip_suffix(')')) {
                    let canon = parse(inner, gfx9).unwrap_or_else(|e| panic!("{s}: {e}"));
                    let cs = format(canon, gfx9);
                    let inner = cs
                        .strip_prefix("swizzle(")
                        .and_then(|s| s.strip_suffix(')'))
                        .expect("macro");
                    assert_eq!(parse(inner, gfx9), Ok(canon), "{s} -> {cs}");
                }
            }
        }
    }

    #[test]
    fn matches_llvm_mc() {
        // llvm-mc-22 -mcpu=gfx900 -show-encoding
        let cases = [
            ("FFT,28", 0xe01c),
            ("ROTATE,1,31", 0xc7e0),
            ("QUAD_PERM,0,1,2,3", 0x80e4),
            ("SWAP,16", 0x401f),
            ("REVERSE,32", 0x7c1f),
            ("BROADCAST,4,3", 0x007c),
            ("BITMASK_PERM,\"01pi0\"", 0x0906),
        ];
        for (text, imm) in cases {
            assert_eq!(parse(text, true), Ok(imm), "{text}");
            assert_eq!(format(imm, true), format!("swizzle({text})"));
        }
        assert_eq!(format(0xfffc, true), "swizzle(FFT,28)");
        assert_eq!(format(0xfffc, false), "65532");
    }
}
