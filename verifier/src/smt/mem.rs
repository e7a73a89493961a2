//! Symbolic byte memory: initial contents under a list of conditional byte stores, read by
//! `ite` chains. Two encodings with one meaning (every load gives the same byte for every
//! input; `tests` below proves it with z3 on random store sequences):
//!
//! - [`Encoding::Bytes`], the plain one: a load tests every store's address.
//! - [`Encoding::Forward`] (the default): addresses are split into a base term and a constant
//!   offset, so a load skips the stores that cannot alias it (same base, other offset) and
//!   stops at an unconditional store to its own address; a store drops an older store to the
//!   same address under the same condition (nothing can read that one any more); and a store
//!   kept by merging the memories of an `ite` on `c` has `c` replaced by `true` (`false` on the
//!   other side) in its byte, which holds wherever the store is seen. A chain of atomics on one
//!   address then keeps one store per byte, and its value stays a plain sum or the like that
//!   z3's simplifier puts in one normal form on both sides of a check.

use std::rc::Rc;
use std::sync::atomic::{AtomicU8, Ordering};
use z3::ast::{Ast, Bool, BV};
use z3::{DeclKind, FuncDecl};

/// How memories are encoded (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// Every load tests every store's address.
    Bytes,
    /// Stores that cannot matter are left out of loads and chains.
    Forward,
}

/// The environment variable that selects [`Encoding::Bytes`] (`bytes`) for a whole process,
/// so the corpus can be run under both encodings (`verifier/tests/mem_encoding.rs`).
pub const ENCODING_VAR: &str = "GCNSMT_MEMORY_ENCODING";

/// 0: not read yet, 1: bytes, 2: forward.
static ENCODING: AtomicU8 = AtomicU8::new(0);

/// The encoding new memories get: [`set_encoding`]'s, else `GCNSMT_MEMORY_ENCODING`'s
/// (`bytes` or `forward`), else [`Encoding::Forward`].
pub fn encoding() -> Encoding {
    match ENCODING.load(Ordering::Relaxed) {
        1 => Encoding::Bytes,
        2 => Encoding::Forward,
        _ => {
            let e = match std::env::var(ENCODING_VAR).as_deref().map(str::trim) {
                Ok("bytes") => Encoding::Bytes,
                _ => Encoding::Forward,
            };
            set_encoding(e);
            e
        }
    }
}

/// Select the encoding of the memories made after this call, in every thread.
pub fn set_encoding(e: Encoding) {
    ENCODING.store(
        match e {
            Encoding::Bytes => 1,
            Encoding::Forward => 2,
        },
        Ordering::Relaxed,
    );
}

/// Symbolic memory: the initial contents, an uninterpreted function from addresses to bytes,
/// under a list of conditional byte stores (newest first). Loads become `ite` chains, so
/// queries stay in QF_UFBV, which z3 bit-blasts far faster than the array theory.
#[derive(Clone)]
pub struct Mem {
    /// The contents before any store.
    pub base: Base,
    /// The newest store, or `None` when nothing was stored.
    pub stores: Option<Rc<Store>>,
    /// Address width in bits: 32 for LDS and GDS, 64 for global memory.
    pub addr_width: u32,
    /// The encoding of loads and stores.
    pub encoding: Encoding,
}

/// The initial contents of a memory.
#[derive(Clone)]
pub enum Base {
    /// Unknown: an uninterpreted function (what proofs use).
    Uf(Rc<FuncDecl>),
    /// Known bytes, for evaluating ground terms (the interpreter-agreement test). Loads from it
    /// need addresses that simplify to constants.
    Table(Rc<dyn Fn(u64) -> u8>),
}

/// One conditional byte store.
pub struct Store {
    /// The next older store, or `None` for the oldest.
    pub prev: Option<Rc<Store>>,
    /// When the store happened: `true` for a plain store, the branch condition (and the
    /// store's own) for a store kept by merging the two memories of an `ite`.
    pub cond: Bool,
    /// The byte address, `addr_width` bits wide.
    pub addr: BV,
    /// The byte stored (8 bits).
    pub byte: BV,
    /// How many stores the chain holds up to and including this one (1 for the oldest).
    pub depth: usize,
    /// The address as base term and constant offset ([`Encoding::Forward`] only).
    key: Option<Key>,
}

/// An address as `base + offset` (modulo the address width), `base` simplified by z3.
#[derive(Clone)]
struct Key {
    base: BV,
    offset: u64,
}

/// What two addresses' keys say about them.
#[derive(PartialEq)]
enum Alias {
    Same,
    Distinct,
    Unknown,
}

/// `t` simplified by z3, or `None` when z3 cannot (its context was interrupted by the
/// watchdog: reading a counterexample's memory then must not panic).
fn try_simplify<T: Ast>(t: &T) -> Option<T> {
    let ctx = z3::Context::thread_local();
    // SAFETY: `t` is a live term of the thread-local context; a non-null result is a new term
    // of that context, wrapped (and ref-counted) at once.
    unsafe {
        let raw = z3_sys::Z3_simplify(ctx.get_z3_context(), t.get_z3_ast())?;
        Some(T::wrap(&ctx, raw))
    }
}

impl Key {
    fn of(addr: &BV) -> Key {
        // Unsimplified, the key only matches the same term (still sound: same base, offset 0).
        let s = try_simplify(addr).unwrap_or_else(|| addr.clone());
        let w = s.get_size();
        if let Some(v) = s.as_u64() {
            return Key {
                base: BV::from_u64(0, w),
                offset: v,
            };
        }
        // z3's simplifier puts the numeral of a sum first.
        if s.is_app() && s.decl().kind() == DeclKind::Badd && s.num_children() >= 2 {
            let kids: Vec<BV> = s.children().iter().filter_map(|c| c.as_bv()).collect();
            if let Some(c) = kids[0].as_u64() {
                let rest = kids[1..]
                    .iter()
                    .skip(1)
                    .fold(kids[1].clone(), |a, b| a.bvadd(b));
                return Key {
                    base: rest,
                    offset: c,
                };
            }
        }
        Key { base: s, offset: 0 }
    }
    fn alias(&self, other: &Key) -> Alias {
        if self.base != other.base {
            return Alias::Unknown;
        }
        let w = self.base.get_size();
        let mask = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
        if (self.offset ^ other.offset) & mask == 0 {
            Alias::Same
        } else {
            Alias::Distinct
        }
    }
}

fn is_true(b: &Bool) -> bool {
    b.as_bool() == Some(true)
}

impl Mem {
    /// A memory with nothing stored yet.
    pub fn new(base: Base, addr_width: u32, encoding: Encoding) -> Mem {
        Mem {
            base,
            stores: None,
            addr_width,
            encoding,
        }
    }

    /// The byte at `k`.
    pub fn load(&self, k: &BV) -> BV {
        let key = (self.encoding == Encoding::Forward).then(|| Key::of(k));
        // The stores that may supply the byte, newest first, with their hit condition.
        let mut hits: Vec<(Bool, BV)> = Vec::new();
        let mut reaches_base = true;
        let mut cur = self.stores.clone();
        while let Some(s) = cur {
            cur = s.prev.clone();
            let alias = match (&key, &s.key) {
                (Some(a), Some(b)) => a.alias(b),
                _ => Alias::Unknown,
            };
            match alias {
                Alias::Distinct => {}
                Alias::Same => {
                    hits.push((s.cond.clone(), s.byte.clone()));
                    if is_true(&s.cond) {
                        reaches_base = false;
                        break;
                    }
                }
                Alias::Unknown => hits.push((Bool::and(&[&s.cond, &s.addr.eq(k)]), s.byte.clone())),
            }
        }
        let mut v = if reaches_base {
            self.base_byte(k)
        } else {
            let (_, b) = hits.pop().expect("an unconditional store was found");
            b
        };
        for (hit, byte) in hits.iter().rev() {
            v = hit.ite(byte, &v);
        }
        v
    }

    fn base_byte(&self, k: &BV) -> BV {
        match &self.base {
            Base::Uf(f) => f.apply(&[k]).as_bv().expect("bytes"),
            Base::Table(t) => {
                let a = k
                    .simplify()
                    .as_u64()
                    .expect("a table memory is read at ground addresses");
                BV::from_u64(t(a) as u64, 8)
            }
        }
    }

    /// This memory with `byte` stored at `addr` when `cond` holds.
    pub(super) fn push(&self, cond: Bool, addr: BV, byte: BV) -> Mem {
        self.push_pruned(cond, addr, byte, false)
    }

    /// [`Mem::push`], dropping a store it hides when `prune` is set. Only [`merge`] prunes: a
    /// store inside a branch that rebuilt the chain below the branch point would leave the two
    /// memories without their common ancestor, and merging them would copy every store.
    fn push_pruned(&self, cond: Bool, addr: BV, byte: BV, prune: bool) -> Mem {
        let key = (self.encoding == Encoding::Forward).then(|| Key::of(&addr));
        let mut prev = self.stores.clone();
        if let (Some(k), true) = (&key, prune) {
            prev = without_shadowed(prev, k, &cond);
        }
        let depth = prev.as_ref().map_or(0, |s| s.depth) + 1;
        Mem {
            stores: Some(Rc::new(Store {
                prev,
                cond,
                addr,
                byte,
                depth,
                key,
            })),
            ..self.clone()
        }
    }
}

/// `chain` without its newest store to the address `k` if that store has the condition
/// `cond` (or `cond` is `true`): a store to `k` under `cond` hides it from every later load.
/// The stores newer than the dropped one are rebuilt on top of its predecessor.
fn without_shadowed(chain: Option<Rc<Store>>, k: &Key, cond: &Bool) -> Option<Rc<Store>> {
    let mut newer: Vec<Rc<Store>> = Vec::new();
    let mut cur = chain.clone();
    while let Some(s) = cur {
        let same = s.key.as_ref().is_some_and(|sk| sk.alias(k) == Alias::Same);
        if same {
            if !(is_true(cond) || s.cond == *cond) {
                return chain;
            }
            let mut rebuilt = s.prev.clone();
            for n in newer.iter().rev() {
                let depth = rebuilt.as_ref().map_or(0, |s| s.depth) + 1;
                rebuilt = Some(Rc::new(Store {
                    prev: rebuilt,
                    cond: n.cond.clone(),
                    addr: n.addr.clone(),
                    byte: n.byte.clone(),
                    depth,
                    key: n.key.clone(),
                }));
            }
            return rebuilt;
        }
        newer.push(s.clone());
        cur = s.prev.clone();
    }
    chain
}

fn same(a: &Option<Rc<Store>>, b: &Option<Rc<Store>>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => Rc::ptr_eq(x, y),
        _ => false,
    }
}

/// `c ? a : b` for memories that grew from one common state: the stores after the common
/// ancestor are kept, guarded by `c` or `!c`.
pub(super) fn merge(c: &Bool, a: &Mem, b: &Mem) -> Mem {
    let (mut x, mut y) = (a.stores.clone(), b.stores.clone());
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    let dx = |s: &Option<Rc<Store>>| s.as_ref().map_or(0, |s| s.depth);
    while !same(&x, &y) {
        if dx(&x) >= dx(&y) {
            let s = x.clone().expect("deeper side has a store");
            xs.push(s.clone());
            x = s.prev.clone();
        } else {
            let s = y.clone().expect("deeper side has a store");
            ys.push(s.clone());
            y = s.prev.clone();
        }
    }
    let mut m = Mem {
        stores: x,
        ..a.clone()
    };
    let nc = c.not();
    let forward = a.encoding == Encoding::Forward;
    // The two suffixes are guarded by exclusive conditions, so their order does not matter.
    for (suffix, guard, known) in [(&xs, c, true), (&ys, &nc, false)] {
        let mut known_in = Assume::new(c, known);
        for s in suffix.iter().rev() {
            // `guard && true` as the plain encoding builds it: queries that nothing here
            // shortens stay the same terms (z3's search time on a query depends on its shape).
            let cond = Bool::and(&[guard, &s.cond]);
            let byte = if forward {
                known_in.apply(&s.byte)
            } else {
                s.byte.clone()
            };
            m = m.push_pruned(cond, s.addr.clone(), byte, forward);
        }
    }
    m
}

/// Replace a condition by its known truth value in bytes, keeping `extract`s of a common
/// value on the outside (z3's simplifier would split `extract (7 0) (a + b)` into a sum of
/// extracts, which hides that four stored bytes are one value), and simplifying each value
/// once.
struct Assume<'a> {
    c: &'a Bool,
    /// `c` as z3's simplifier writes it: an earlier merge simplified the values it kept, so
    /// an outer condition may appear in them in that form (`concat #b0 x` for `zero_extend`).
    simple: Option<Bool>,
    value: Bool,
    done: Vec<(BV, BV)>,
}

impl<'a> Assume<'a> {
    fn new(c: &'a Bool, value: bool) -> Assume<'a> {
        Assume {
            c,
            simple: try_simplify(c).filter(|s| s != c),
            value: Bool::from_bool(value),
            done: Vec::new(),
        }
    }
    fn apply(&mut self, byte: &BV) -> BV {
        match super::fold::as_extract(byte) {
            Some((hi, lo, v)) => self.value_of(&v).extract(hi, lo),
            None => self.value_of(byte),
        }
    }
    fn value_of(&mut self, v: &BV) -> BV {
        if let Some((_, r)) = self.done.iter().find(|(x, _)| x == v) {
            return r.clone();
        }
        let mut pairs = vec![(self.c, &self.value)];
        if let Some(s) = &self.simple {
            pairs.push((s, &self.value));
        }
        let r = v.substitute(&pairs);
        // Unchanged terms stay as built: simplifying them gains nothing here.
        let r = if r == *v {
            r
        } else {
            try_simplify(&r).unwrap_or(r)
        };
        self.done.push((v.clone(), r.clone()));
        r
    }
}

#[cfg(test)]
mod tests;
