//! Numbers written into a `String` without `core::fmt`: a rejected word's `.long` text and
//! reason are most of what the decoder prints for random input, so these are its hot path
//! (`core::fmt::write`, `pad_integral` and `String::write_str` were 60% of decode-plus-print
//! under `perf` before them). See [`crate::text`].

const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// `w` as `0x%08x` (`{:#010x}`).
pub(crate) fn push_hex32(out: &mut String, w: u32) {
    out.reserve(10);
    out.push_str("0x");
    for i in 0..8 {
        out.push(char::from(DIGITS[((w >> (28 - 4 * i)) & 0xf) as usize]));
    }
}

/// Dwords as `0x%08x` separated by `, ` (llvm-mc's `.long` operands).
pub(crate) fn push_dwords(out: &mut String, words: &[u32]) {
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        push_hex32(out, *w);
    }
}

/// A byte as `0x%02x` (`{:#04x}`).
pub(crate) fn push_byte(out: &mut String, b: u8) {
    out.push_str("0x");
    out.push(char::from(DIGITS[usize::from(b >> 4)]));
    out.push(char::from(DIGITS[usize::from(b & 0xf)]));
}

/// `v` in lowercase hex with `0x` and no leading zeros (`{:#x}`).
pub(crate) fn push_hex(out: &mut String, v: u64) {
    out.push_str("0x");
    push_radix(out, v, 16);
}

/// `v` in decimal (`{}`).
pub(crate) fn push_dec(out: &mut String, v: u64) {
    push_radix(out, v, 10);
}

/// `v`'s digits in `radix` (10 or 16), no leading zeros.
fn push_radix(out: &mut String, mut v: u64, radix: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = DIGITS[(v % radix) as usize];
        v /= radix;
        if v == 0 {
            break;
        }
    }
    out.push_str(ascii(&buf[i..]));
}

/// The digits written above are ASCII; the fallback is never taken.
fn ascii(b: &[u8]) -> &str {
    std::str::from_utf8(b).unwrap_or("?")
}

#[cfg(test)]
mod tests {
    fn with(f: impl FnOnce(&mut String)) -> String {
        let mut s = String::new();
        f(&mut s);
        s
    }

    #[test]
    fn as_format_prints() {
        for w in [0u32, 1, 0xdeadbeef, 0x0000_ff00, u32::MAX] {
            assert_eq!(with(|s| super::push_hex32(s, w)), format!("{w:#010x}"));
        }
        assert_eq!(
            with(|s| super::push_dwords(s, &[1, 2])),
            "0x00000001, 0x00000002"
        );
        for b in [0u8, 9, 0x3a, 0xff] {
            assert_eq!(with(|s| super::push_byte(s, b)), format!("{b:#04x}"));
        }
        for v in [0u64, 1, 9, 10, 0x5a, 255, 65535, 1 << 40, u64::MAX] {
            assert_eq!(with(|s| super::push_hex(s, v)), format!("{v:#x}"));
            assert_eq!(with(|s| super::push_dec(s, v)), format!("{v}"));
        }
    }
}
