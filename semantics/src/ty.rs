//! Value types in AMD's pseudocode notation: `.b32`, `.u16`, `.i64`, `.f32`, `.bf16`, booleans.

use std::fmt;

/// How the bits of a bit-vector are read (AMD type suffix letter).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `.bN`: raw bits; compares unsigned, extends with zeros.
    B,
    /// `.uN`: unsigned integer.
    U,
    /// `.iN`: two's-complement signed integer; compares signed, extends with the sign.
    I,
    /// `.fN`: IEEE 754 binary16/32/64 bit pattern.
    F,
    /// `.bf16`: bfloat16 bit pattern (8-bit exponent, 7-bit fraction).
    Bf,
}

/// The type of an expression: a bit-vector of 1..=128 bits with a [`Kind`], or a boolean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// A boolean (comparisons, `true`/`false`); width 1 when one is needed.
    Bool,
    /// A bit-vector of the given kind and width in bits (1..=128).
    Bits(Kind, u32),
}

/// IEEE-like float formats over bit patterns: (exponent bits, significand bits incl. hidden bit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FpFmt {
    /// IEEE binary16: 5 exponent bits, 11 significand bits.
    F16,
    /// bfloat16: 8 exponent bits, 8 significand bits.
    Bf16,
    /// IEEE binary32: 8 exponent bits, 24 significand bits.
    F32,
    /// IEEE binary64: 11 exponent bits, 53 significand bits.
    F64,
}

impl FpFmt {
    /// Width in bits.
    pub fn width(self) -> u32 {
        match self {
            FpFmt::F16 | FpFmt::Bf16 => 16,
            FpFmt::F32 => 32,
            FpFmt::F64 => 64,
        }
    }
    /// Exponent field width in bits.
    pub fn ebits(self) -> u32 {
        match self {
            FpFmt::F16 => 5,
            FpFmt::Bf16 | FpFmt::F32 => 8,
            FpFmt::F64 => 11,
        }
    }
    /// Significand width in bits including the hidden bit (z3's `sbits`).
    pub fn sbits(self) -> u32 {
        self.width() - self.ebits()
    }
    /// The canonical quiet NaN this model produces when an arithmetic result is NaN
    /// (sign 0, exponent all ones, top fraction bit set, rest zero).
    pub fn canonical_nan(self) -> u128 {
        let frac = self.sbits() - 1;
        (((1u128 << self.ebits()) - 1) << frac) | (1u128 << (frac - 1))
    }
}

impl Ty {
    /// Shorthand for a bit-vector type.
    pub const fn bits(kind: Kind, width: u32) -> Ty {
        Ty::Bits(kind, width)
    }
    /// `.u32`, the type of `U`-suffixed literals.
    pub const U32: Ty = Ty::Bits(Kind::U, 32);
    /// `.b32`, raw 32 bits.
    pub const B32: Ty = Ty::Bits(Kind::B, 32);

    /// Width in bits (1 for booleans).
    pub fn width(self) -> u32 {
        match self {
            Ty::Bool => 1,
            Ty::Bits(_, w) => w,
        }
    }

    /// The kind, or `None` for booleans.
    pub fn kind(self) -> Option<Kind> {
        match self {
            Ty::Bool => None,
            Ty::Bits(k, _) => Some(k),
        }
    }

    /// The float format if this is a float type of a supported width.
    pub fn fp(self) -> Option<FpFmt> {
        match self {
            Ty::Bits(Kind::F, 16) => Some(FpFmt::F16),
            Ty::Bits(Kind::F, 32) => Some(FpFmt::F32),
            Ty::Bits(Kind::F, 64) => Some(FpFmt::F64),
            Ty::Bits(Kind::Bf, 16) => Some(FpFmt::Bf16),
            _ => None,
        }
    }

    /// Parse a suffix without the dot: `b32`, `u16`, `i8`, `f64`, `bf16`.
    pub fn parse_suffix(s: &str) -> Option<Ty> {
        let (kind, digits) = if let Some(d) = s.strip_prefix("bf") {
            (Kind::Bf, d)
        } else {
            let mut c = s.chars();
            let k = match c.next()? {
                'b' => Kind::B,
                'u' => Kind::U,
                'i' => Kind::I,
                'f' => Kind::F,
                _ => return None,
            };
            (k, c.as_str())
        };
        let w: u32 = digits.parse().ok()?;
        if !(1..=128).contains(&w) {
            return None;
        }
        let ty = Ty::Bits(kind, w);
        if matches!(kind, Kind::F | Kind::Bf) && ty.fp().is_none() {
            return None;
        }
        Some(ty)
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Bool => f.write_str("bool"),
            Ty::Bits(k, w) => {
                let c = match k {
                    Kind::B => "b",
                    Kind::U => "u",
                    Kind::I => "i",
                    Kind::F => "f",
                    Kind::Bf => "bf",
                };
                write!(f, "{c}{w}")
            }
        }
    }
}
