//! Soundness of the e-graph pass.
//!
//! 1. Every rewrite of `egg_rules` is run alone on seed terms written to match it (several
//!    widths, plus near misses such as equal-modulo-width addresses), and afterwards every
//!    node of every e-class must evaluate to the class's value on random inputs. Values come
//!    from the interpreter's domain (`Concrete`) and, for memory, from a byte map written here:
//!    an unsound rewrite merges nodes that differ on some input and fails. Every rewrite must
//!    fire on some seed, so none goes untested.
//! 2. On the whole `proofs/` corpus, every rule x target the pass proves on its own is also
//!    proved by the solver with the pass off, and no rule that expects `refuted` is ever
//!    proved by the pass.

use egg::{AstSize, EGraph, Extractor, Id, Language, RecExpr, Runner};
use gcnsmt_semantics::interp::Bits;
use gcnsmt_verifier::check::{check, egg_only, targets_of, Options, Verdict};
use gcnsmt_verifier::egg_domain::{eval_node, Fold, Sort, Term, Value};
use gcnsmt_verifier::egg_rules::rules;
use gcnsmt_verifier::rules::{parse_rules, Expect};
use rand::{Rng, SeedableRng};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// Seed terms: each rewrite has at least one seed its left side matches.
const SEEDS: &[&str] = &[
    // bv-identity
    "(bvadd x:b32 (bvadd y:b32 z:b32))",
    "(bvadd (bvadd x:b8 3w8) 255w8)",
    "(bvmul x:b16 (bvmul y:b16 3w16))",
    "(bvand x:b8 (bvand y:b8 z:b8))",
    "(bvor x:b64 (bvor y:b64 z:b64))",
    "(bvxor x:b32 (bvxor y:b32 z:b32))",
    "(bvadd x:b64 0w64)",
    "(bvsub x:b32 0w32)",
    "(bvmul x:b32 1w32)",
    "(bvmul x:b32 0w32)",
    "(bvand x:b32 0w32)",
    "(bvand x:b32 4294967295w32)",
    "(bvand x:b7 x:b7)",
    "(bvor x:b32 0w32)",
    "(bvor x:b16 65535w16)",
    "(bvor x:b32 x:b32)",
    "(bvxor x:b32 0w32)",
    "(bvxor x:b32 x:b32)",
    "(bvnot (bvnot x:b32))",
    "(bvsub x:b32 x:b32)",
    "(bvsub x:b32 5w32)",
    "(bvsub x:b8 200w8)",
    "(bvshl x:b32 3w32)",
    "(bvshl x:b8 7w8)",
    "(bvshl x:b8 8w8)",
    "(bvshl x:b8 200w8)",
    // address
    "(extract 31 0 (bvadd x:b64 y:b64))",
    "(extract 7 0 (bvsub x:b32 y:b32))",
    "(extract 15 0 (bvmul x:b32 y:b32))",
    "(extract 3 0 (bvand x:b8 y:b8))",
    "(extract 3 0 (bvor x:b8 y:b8))",
    "(extract 3 0 (bvxor x:b8 y:b8))",
    "(extract 15 0 (bvnot x:b32))",
    "(extract 31 0 (bvadd (zext 32 x:b32) 4w64))",
    "(zext 32 x:b32)",
    "(zext 3 x:b5)",
    "(concat 0w16 x:b16)",
    "(concat 5w8 x:b8)",
    // extract-concat
    "(extract 31 0 x:b32)",
    "(extract 30 0 x:b32)",
    "(extract 3 1 (extract 20 8 x:b32))",
    "(extract 7 0 (concat x:b16 y:b16))",
    "(extract 23 17 (concat x:b16 y:b16))",
    "(extract 20 10 (concat x:b16 y:b16))",
    "(concat (extract 31 16 x:b32) (extract 15 4 x:b32))",
    "(concat (extract 31 17 x:b32) (extract 15 4 x:b32))",
    "(extract 40 33 (sext 32 x:b32))",
    // ite
    "(ite c:bool x:b32 x:b32)",
    "(ite true x:b32 y:b32)",
    "(ite false x:b32 y:b32)",
    "(ite (bvult x:b8 y:b8) x:b8 y:b8)",
    "(ite (not c:bool) x:b32 y:b32)",
    "(and c:bool true)",
    "(and c:bool d:bool)",
    "(and c:bool c:bool)",
    "(or c:bool false)",
    "(or c:bool d:bool)",
    "(or c:bool c:bool)",
    "(not (not c:bool))",
    "(= x:b32 x:b32)",
    "(= x:b32 y:b32)",
    "(bvslt x:b8 y:b8)",
    "(fp 0 2 x:b32 y:b32)",
    // memory
    "(load (store M:m32 a:b32 v:b8) a:b32)",
    "(load (store M:m32 (bvadd a:b32 4w32) v:b8) (bvadd a:b32 5w32))",
    "(load (store M:m32 a:b32 v:b8) (bvadd a:b32 1w32))",
    "(load (store M:m32 (bvadd a:b32 1w32) v:b8) a:b32)",
    "(load (store M:m32 3w32 v:b8) 4w32)",
    "(load (store M:m32 a:b32 v:b8) b:b32)",
    "(load (store M:m8 (bvadd a:b8 255w8) v:b8) (bvsub a:b8 1w8))",
    "(load (store M:m64 (bvadd a:b64 8w64) v:b8) (bvadd a:b64 9w64))",
    "(load (ite c:bool M:m32 N:m32) a:b32)",
    "(store (store M:m32 a:b32 v:b8) a:b32 w:b8)",
    "(store (store M:m32 (bvadd a:b32 2w32) v:b8) a:b32 w:b8)",
    "(store (store M:m32 a:b32 v:b8) (bvadd a:b32 2w32) w:b8)",
    "(store (store M:m8 (bvadd a:b8 255w8) v:b8) (bvsub a:b8 1w8) w:b8)",
    "(store M:m32 a:b32 (load M:m32 a:b32))",
    "(store M:m32 a:b32 (load N:m32 a:b32))",
];

/// A value of any sort: memories are their input's name and the bytes stored over it that
/// differ from its initial content.
#[derive(Clone, Debug, PartialEq, Eq)]
enum V {
    Plain(Value),
    Mem(String, BTreeMap<u128, u8>),
}

/// The initial byte of memory `name` at `addr` in trial `trial` (a fixed hash).
fn init_byte(name: &str, addr: u128, trial: u64) -> u8 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ trial;
    for b in name.bytes().chain(addr.to_le_bytes()) {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    (h >> 24) as u8
}

struct Eval<'a> {
    eg: &'a EGraph<Term, Fold>,
    /// One representative term per e-class (acyclic, so evaluation terminates).
    best: HashMap<Id, RecExpr<Term>>,
    inputs: &'a HashMap<String, u128>,
    trial: u64,
}

impl Eval<'_> {
    fn class(&mut self, id: Id) -> Option<V> {
        let id = self.eg.find(id);
        if !self.best.contains_key(&id) {
            let ex = Extractor::new(self.eg, AstSize);
            self.best.insert(id, ex.find_best(id).1);
        }
        let e = self.best[&id].clone();
        self.expr(&e, Id::from(e.as_ref().len() - 1))
    }

    fn expr(&mut self, e: &RecExpr<Term>, i: Id) -> Option<V> {
        let node = &e[i];
        let kids: Vec<Option<V>> = node.children().iter().map(|c| self.expr(e, *c)).collect();
        self.node(node, &kids)
    }

    /// One node's value from its children's values (in the node's child order).
    fn node(&self, node: &Term, kids: &[Option<V>]) -> Option<V> {
        match node {
            Term::Input(inp) => {
                let name = inp.name.to_string();
                Some(match inp.sort {
                    Sort::Mem(_) => V::Mem(name, BTreeMap::new()),
                    Sort::Bool => V::Plain(Value::Bool(self.inputs[&name] & 1 == 1)),
                    Sort::Bv(w) => {
                        let m = if w >= 128 { u128::MAX } else { (1 << w) - 1 };
                        V::Plain(Value::Bv(Bits {
                            value: self.inputs[&name] & m,
                            width: w,
                        }))
                    }
                    Sort::Nat => unreachable!("no natural inputs"),
                })
            }
            Term::Load([_, _]) => {
                let (V::Mem(name, bytes), V::Plain(Value::Bv(a))) =
                    (kids[0].clone()?, kids[1].clone()?)
                else {
                    return None;
                };
                let b = bytes
                    .get(&a.value)
                    .copied()
                    .unwrap_or_else(|| init_byte(&name, a.value, self.trial));
                Some(V::Plain(Value::Bv(Bits {
                    value: b as u128,
                    width: 8,
                })))
            }
            Term::Store([_, _, _]) => {
                let (V::Mem(name, mut bytes), V::Plain(Value::Bv(a)), V::Plain(Value::Bv(v))) =
                    (kids[0].clone()?, kids[1].clone()?, kids[2].clone()?)
                else {
                    return None;
                };
                if v.value as u8 == init_byte(&name, a.value, self.trial) {
                    bytes.remove(&a.value);
                } else {
                    bytes.insert(a.value, v.value as u8);
                }
                Some(V::Mem(name, bytes))
            }
            Term::Ite([_, _, _]) if matches!(kids[1], Some(V::Mem(..))) => match kids[0] {
                Some(V::Plain(Value::Bool(c))) => kids[if c { 1 } else { 2 }].clone(),
                _ => None,
            },
            _ => {
                // Children may repeat (`bvand x x`); repeated ids have equal values.
                let ids = node.children().to_vec();
                let child = |c: Id| {
                    let k = ids.iter().position(|x| *x == c)?;
                    match kids[k].clone()? {
                        V::Plain(v) => Some(v),
                        V::Mem(..) => None,
                    }
                };
                eval_node(node, &child).map(V::Plain)
            }
        }
    }
}

fn random_inputs(rng: &mut impl Rng, names: &[String]) -> HashMap<String, u128> {
    const EDGES: [u128; 6] = [0, 1, 2, u128::MAX, 1 << 31, 0x7fff_ffff];
    names
        .iter()
        .map(|n| {
            let v = if rng.gen_bool(0.3) {
                EDGES[rng.gen_range(0..EDGES.len())]
            } else {
                rng.gen::<u128>() >> rng.gen_range(0..128)
            };
            (n.clone(), v)
        })
        .collect()
}

/// Every node of every class evaluates to its class's value, on `trials` random inputs.
/// Returns the first disagreement.
fn check_classes(eg: &EGraph<Term, Fold>, trials: u64, seed: u64) -> Result<(), String> {
    let names: Vec<String> = eg
        .classes()
        .flat_map(|c| c.nodes.iter())
        .filter_map(|n| match n {
            Term::Input(i) => Some(i.name.to_string()),
            _ => None,
        })
        .collect();
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    for trial in 0..trials {
        let inputs = random_inputs(&mut rng, &names);
        let mut ev = Eval {
            eg,
            best: HashMap::new(),
            inputs: &inputs,
            trial,
        };
        for class in eg.classes() {
            if class.data.sort == Sort::Nat {
                continue;
            }
            let want = ev.class(class.id);
            for n in &class.nodes {
                let kids: Vec<Option<V>> = n.children().iter().map(|c| ev.class(*c)).collect();
                let got = ev.node(n, &kids);
                if got.is_some() && got != want {
                    return Err(format!(
                        "class {} ({:?}): node {n} = {got:?} but the class is {want:?} on {inputs:?}",
                        class.id, class.data.sort
                    ));
                }
            }
        }
    }
    Ok(())
}

#[test]
fn every_rewrite_is_sound_on_random_inputs() {
    let mut fired: BTreeMap<String, usize> = BTreeMap::new();
    for rw in rules() {
        let name = rw.name.to_string();
        fired.insert(name.clone(), 0);
        for (k, seed) in SEEDS.iter().enumerate() {
            let expr: RecExpr<Term> = seed.parse().unwrap_or_else(|e| panic!("{seed}: {e}"));
            let mut eg = EGraph::<Term, Fold>::default();
            eg.add_expr(&expr);
            eg.rebuild();
            let runner = Runner::<Term, Fold, ()>::new(Fold::default())
                .with_egraph(eg)
                .with_iter_limit(3)
                .with_node_limit(2_000)
                .run(std::slice::from_ref(&rw));
            let n: usize = runner
                .iterations
                .iter()
                .map(|it| it.applied.get(&rw.name).copied().unwrap_or(0))
                .sum();
            *fired.get_mut(&name).unwrap() += n;
            assert!(
                !runner.egraph.analysis.conflict,
                "{name} on {seed}: merged classes with different constants or sorts"
            );
            // Random inputs per class: 200 in the slow tier, 60 by default.
            let n = gcnsmt_testkit::tiered(60u64, 200);
            if let Err(e) = check_classes(&runner.egraph, n, k as u64) {
                panic!("rewrite {name} is unsound on {seed}: {e}");
            }
        }
    }
    let never: Vec<_> = fired.iter().filter(|(_, n)| **n == 0).collect();
    assert!(
        never.is_empty(),
        "rewrites that no seed exercises: {never:?}"
    );
}

/// The checker itself catches a wrong merge: `x + 1` and `x + 2` are told apart.
#[test]
fn the_class_check_catches_an_unsound_merge() {
    let mut eg = EGraph::<Term, Fold>::default();
    let a = eg.add_expr(&"(bvadd x:b32 1w32)".parse().unwrap());
    let b = eg.add_expr(&"(bvadd x:b32 2w32)".parse().unwrap());
    eg.union(a, b);
    eg.rebuild();
    assert!(check_classes(&eg, 20, 1).is_err());
    // Memories that differ in one stored byte.
    let mut eg = EGraph::<Term, Fold>::default();
    let a = eg.add_expr(&"(store M:m32 a:b32 v:b8)".parse().unwrap());
    let b = eg.add_expr(&"(store M:m32 (bvadd a:b32 1w32) v:b8)".parse().unwrap());
    eg.union(a, b);
    eg.rebuild();
    assert!(check_classes(&eg, 20, 1).is_err());
}

/// Constants fold with wrap-around at the node's width (hand-computed: 200 + 100 = 300 = 44
/// mod 256; 0 - 1 = 0xffff at 16 bits; x / 0 is all ones as in SMT-LIB).
#[test]
fn constants_fold_at_the_node_width() {
    let mut eg = EGraph::<Term, Fold>::default();
    let a = eg.add_expr(&"(bvadd 200w8 100w8)".parse().unwrap());
    let b = eg.add_expr(&"(bvsub 0w16 1w16)".parse().unwrap());
    let c = eg.add_expr(&"(bvudiv 7w32 0w32)".parse().unwrap());
    assert_eq!(eg[a].data.konst, Some(44));
    assert_eq!(eg[b].data.konst, Some(0xffff));
    assert_eq!(eg[c].data.konst, Some(0xffff_ffff));
}

#[test]
fn egg_proofs_agree_with_z3_on_the_corpus() {
    use rayon::prelude::*;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../proofs");
    let mut jobs = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .collect();
    files.sort();
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&f).unwrap();
        for rule in parse_rules(&name, &text).unwrap() {
            for t in targets_of(&rule, None) {
                jobs.push((rule.clone(), t));
            }
        }
    }
    // The whole corpus under GCNSMT_SLOW=1; by default every fourth rule x target (each
    // proof egg finds there is still re-decided by z3, so a wrong one still fails).
    if !gcnsmt_testkit::slow() {
        jobs = jobs.into_iter().step_by(4).collect();
    }
    let no_egg = Options {
        egg: false,
        ..Options::default()
    };
    let egg_time = std::sync::Mutex::new(Vec::new());
    let results: Vec<Result<bool, String>> = jobs
        .par_iter()
        .map(|(rule, t)| {
            let start = std::time::Instant::now();
            let egg = egg_only(rule, *t, &Options::default());
            egg_time.lock().unwrap().push(start.elapsed());
            let Ok(true) = egg else {
                return Ok(false);
            };
            let expect = rule.expect.map(|e| e.0);
            if expect == Some(Expect::Refuted) {
                return Err(format!(
                    "{} on {t}: expects refuted, egg proves it",
                    rule.name
                ));
            }
            let out = check(rule, *t, &no_egg).map_err(|e| e.to_string())?;
            match out.verdict {
                Verdict::Proved | Verdict::Inapplicable => Ok(true),
                v => Err(format!(
                    "{} on {t}: egg proves it, z3 says {}",
                    rule.name,
                    v.name()
                )),
            }
        })
        .collect();
    let errors: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let proved = results.iter().filter(|r| matches!(r, Ok(true))).count();
    let mut times = egg_time.into_inner().unwrap();
    times.sort();
    println!(
        "{proved} of {} rule x target pairs proved by egg, all confirmed by z3; egg pass: \
         total {:?}, median {:?}, max {:?}",
        jobs.len(),
        times.iter().sum::<std::time::Duration>(),
        times[times.len() / 2],
        times[times.len() - 1]
    );
    assert!(proved > 0, "egg proves nothing on the corpus");
}
