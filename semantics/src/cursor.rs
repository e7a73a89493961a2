//! A cursor over a lexed token list, ending in an end-of-input token.
//!
//! Shared by the two readers of AMD's pseudocode notation: this crate's parser of our `.pcode`
//! files ([`crate::parse`]) and spec-check's reader of the guides' own dialect, which lexes
//! differently (floats, `;`-joined lines) but walks its tokens the same way.

/// A token as a [`Cursor`] sees it: a kind to match on, and whether it is a given punctuator
/// or word.
pub trait Lexeme: Clone {
    /// What parsers match on (the token without its position).
    type Kind;
    /// The token's kind.
    fn kind(&self) -> &Self::Kind;
    /// The operator or delimiter text, if the token is one.
    fn punct(&self) -> Option<&str>;
    /// The name, if the token is one.
    fn word(&self) -> Option<&str>;
    /// Whether the token is the end of the input.
    fn is_eof(&self) -> bool;
}

/// A position in a token list. The list must end in a token for which
/// [`Lexeme::is_eof`] holds; the cursor stops there, so peeking never runs off the end.
#[derive(Debug, Clone)]
pub struct Cursor<T> {
    toks: Vec<T>,
    i: usize,
}

impl<T: Lexeme> Cursor<T> {
    /// A cursor at the first token. Panics on an empty list (a lexer always appends the end).
    pub fn new(toks: Vec<T>) -> Cursor<T> {
        assert!(
            !toks.is_empty(),
            "a token list ends in an end-of-input token"
        );
        Cursor { toks, i: 0 }
    }
    /// The current token's kind.
    pub fn peek(&self) -> &T::Kind {
        self.toks[self.i].kind()
    }
    /// The current token, with its position.
    pub fn token(&self) -> &T {
        &self.toks[self.i]
    }
    /// The token `k` places after the current one (the end token past the end).
    pub fn ahead(&self, k: usize) -> &T {
        &self.toks[(self.i + k).min(self.toks.len() - 1)]
    }
    /// The token before the current one (the first token at the start).
    pub fn prev(&self) -> &T {
        &self.toks[self.i.saturating_sub(1)]
    }
    /// Whether the current token is the end of the input.
    pub fn at_eof(&self) -> bool {
        self.toks[self.i].is_eof()
    }
    /// Moves past the current token (not past the end) and returns it.
    pub fn bump(&mut self) -> T {
        let t = self.toks[self.i].clone();
        if self.i + 1 < self.toks.len() {
            self.i += 1;
        }
        t
    }
    /// Whether the current token is the punctuator `p`.
    pub fn is_punct(&self, p: &str) -> bool {
        self.toks[self.i].punct() == Some(p)
    }
    /// Whether the current token is the word `w`.
    pub fn is_word(&self, w: &str) -> bool {
        self.toks[self.i].word() == Some(w)
    }
    /// Moves past the punctuator `p` if it is next; whether it was.
    pub fn eat_punct(&mut self, p: &str) -> bool {
        let y = self.is_punct(p);
        if y {
            self.bump();
        }
        y
    }
    /// Moves past the word `w` if it is next; whether it was.
    pub fn eat_word(&mut self, w: &str) -> bool {
        let y = self.is_word(w);
        if y {
            self.bump();
        }
        y
    }
}

/// `impl_lexeme!(Token, Tok)`: implements [`Lexeme`] for a token struct with a `tok: Tok`
/// field, where `Tok` has the variants `Ident(String)`, `Punct(&'static str)` and `Eof` (both
/// pseudocode lexers' shape).
#[macro_export]
macro_rules! impl_lexeme {
    ($token:ty, $tok:ident) => {
        impl $crate::cursor::Lexeme for $token {
            type Kind = $tok;
            fn kind(&self) -> &$tok {
                &self.tok
            }
            fn punct(&self) -> Option<&str> {
                match &self.tok {
                    $tok::Punct(p) => Some(p),
                    _ => None,
                }
            }
            fn word(&self) -> Option<&str> {
                match &self.tok {
                    $tok::Ident(s) => Some(s),
                    _ => None,
                }
            }
            fn is_eof(&self) -> bool {
                matches!(self.tok, $tok::Eof)
            }
        }
    };
}

/// A parser over a [`Cursor`]: what it must give (its cursor, its error type) and the
/// `expect_*` steps it gets for that. Implemented by [`cursor_parser!`].
pub trait Grammar {
    /// The token type.
    type Token: Lexeme;
    /// The parser's error.
    type Error;
    /// The parser's cursor.
    fn cursor_mut(&mut self) -> &mut Cursor<Self::Token>;
    /// An error at the current token.
    fn error_here(&self, msg: String) -> Self::Error;
    /// Moves past the punctuator `p`, or an error `expected `p``.
    fn expect_punct(&mut self, p: &str) -> Result<(), Self::Error> {
        if self.cursor_mut().eat_punct(p) {
            return Ok(());
        }
        Err(self.error_here(format!("expected `{p}`")))
    }
    /// Moves past a name and returns it, or an error `expected a name`.
    fn ident(&mut self) -> Result<String, Self::Error> {
        let c = self.cursor_mut();
        if let Some(w) = c.token().word().map(str::to_string) {
            c.bump();
            return Ok(w);
        }
        Err(self.error_here("expected a name".into()))
    }
    /// The rest of an AMD-style `if` once its first condition `first` is read:
    /// `BODY (elsif COND BODY)* (else BLOCK)? endif`, where `body` reads the `then` part and
    /// `block` an `else` block. Returns the arms and the `else` statements (empty if none).
    #[allow(clippy::type_complexity)]
    fn if_chain<C, S>(
        &mut self,
        first: C,
        cond: fn(&mut Self) -> Result<C, Self::Error>,
        body: fn(&mut Self) -> Result<Vec<S>, Self::Error>,
        block: fn(&mut Self) -> Result<Vec<S>, Self::Error>,
    ) -> Result<(Vec<(C, Vec<S>)>, Vec<S>), Self::Error>
    where
        Self: Sized,
    {
        let mut arms = vec![(first, body(self)?)];
        while self.cursor_mut().eat_word("elsif") {
            let c = cond(self)?;
            arms.push((c, body(self)?));
        }
        let els = if self.cursor_mut().eat_word("else") {
            block(self)?
        } else {
            Vec::new()
        };
        self.expect_word("endif")?;
        Ok((arms, els))
    }
    /// `( ITEM, ITEM, ... )`, possibly empty: the items, each read by `item`.
    fn paren_list<T>(
        &mut self,
        item: fn(&mut Self) -> Result<T, Self::Error>,
    ) -> Result<Vec<T>, Self::Error>
    where
        Self: Sized,
    {
        self.delimited(["(", ")"], false, item)
    }
    /// `OPEN ITEM, ITEM, ... CLOSE`: the items, each read by `item`; with `one`, at least one
    /// (an empty list is then the error `item` gives at `CLOSE`).
    fn delimited<T>(
        &mut self,
        [open, close]: [&str; 2],
        one: bool,
        item: fn(&mut Self) -> Result<T, Self::Error>,
    ) -> Result<Vec<T>, Self::Error>
    where
        Self: Sized,
    {
        self.expect_punct(open)?;
        let mut out = Vec::new();
        if one || !self.cursor_mut().is_punct(close) {
            out.push(item(self)?);
            while self.cursor_mut().eat_punct(",") {
                out.push(item(self)?);
            }
        }
        self.expect_punct(close)?;
        Ok(out)
    }
    /// Moves past the word `w`, or an error `expected `w``.
    fn expect_word(&mut self, w: &str) -> Result<(), Self::Error> {
        if self.cursor_mut().eat_word(w) {
            return Ok(());
        }
        Err(self.error_here(format!("expected `{w}`")))
    }
}

/// `cursor_parser!(Parser, c, Token, Error, err)`: lets a parser struct whose field `c` is a
/// `Cursor<Token>` call the cursor's methods as its own (`self.peek()`, `self.eat_punct(..)`,
/// through `Deref`) and gives it [`Grammar`] with its method `err(&self, &str) -> Error`, so
/// the parser adds only its grammar.
#[macro_export]
macro_rules! cursor_parser {
    ($parser:ty, $field:ident, $token:ty, $error:ty, $err:ident) => {
        impl std::ops::Deref for $parser {
            type Target = $crate::cursor::Cursor<$token>;
            fn deref(&self) -> &$crate::cursor::Cursor<$token> {
                &self.$field
            }
        }
        impl std::ops::DerefMut for $parser {
            fn deref_mut(&mut self) -> &mut $crate::cursor::Cursor<$token> {
                &mut self.$field
            }
        }
        impl $crate::cursor::Grammar for $parser {
            type Token = $token;
            type Error = $error;
            fn cursor_mut(&mut self) -> &mut $crate::cursor::Cursor<$token> {
                &mut self.$field
            }
            fn error_here(&self, msg: String) -> $error {
                self.$err(&msg)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq)]
    enum T {
        P(&'static str),
        W(&'static str),
        End,
    }
    impl Lexeme for T {
        type Kind = T;
        fn kind(&self) -> &T {
            self
        }
        fn punct(&self) -> Option<&str> {
            match self {
                T::P(p) => Some(p),
                _ => None,
            }
        }
        fn word(&self) -> Option<&str> {
            match self {
                T::W(w) => Some(w),
                _ => None,
            }
        }
        fn is_eof(&self) -> bool {
            *self == T::End
        }
    }

    #[test]
    fn stops_at_the_end_and_eats_only_what_matches() {
        let mut c = Cursor::new(vec![T::W("if"), T::P("("), T::End]);
        assert!(!c.eat_punct("("));
        assert!(c.eat_word("if"));
        assert_eq!(c.prev(), &T::W("if"));
        assert_eq!(c.ahead(5), &T::End);
        assert!(c.eat_punct("("));
        assert!(c.at_eof());
        c.bump();
        assert!(c.at_eof(), "bump never moves past the end token");
    }
}
