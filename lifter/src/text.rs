//! [`WriteText`]: the decoder's text (instructions and the reasons of rejected words) written
//! straight into a `String`, without `core::fmt`. `Display` of these types is the same
//! function ([`display_via_text!`]), so there is one definition of each text; the fast path is
//! for callers that print many words (`gcnsmt decode`, the decoder benchmark).

/// Append the text of `self` (what `Display` prints) to `out`.
pub trait WriteText {
    /// Append the text to `out`; never fails, allocates only if `out` must grow.
    fn write_text(&self, out: &mut String);
}

/// `impl Display` for types implementing [`WriteText`], through a small `String`.
macro_rules! display_via_text {
    ($($t:ty),+ $(,)?) => {$(
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                let mut s = String::with_capacity(64);
                crate::text::WriteText::write_text(self, &mut s);
                f.write_str(&s)
            }
        }
    )+};
}
pub(crate) use display_via_text;

/// `parts` appended in order: the common case of a reason made of fixed words and names.
pub(crate) fn push_all(out: &mut String, parts: &[&str]) {
    for p in parts {
        out.push_str(p);
    }
}
