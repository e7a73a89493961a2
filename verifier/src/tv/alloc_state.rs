//! The abstract state of the register-allocation checker (`alloc.rs`): for every location of
//! the after-function (a physical 32-bit register unit, a dword of an after-virtual register,
//! a dword of a spill slot) the before-names whose current value it holds, and on which lanes.
//!
//! A before-name is a dword of a before-virtual register (`%5.1`), a physical unit the
//! before-file uses as such (`v0`, `exec_lo`, `scc`) or a dword of a before spill slot.
//! Writes to VGPRs (and AGPRs, VGPR spill slots) are masked by EXEC: only the active lanes
//! change. So a fact "location L holds name x" carries the lanes on which it holds ([`Guard`]):
//! all lanes, or the union of the lane sets of some EXEC values ([`Atom`]s: the EXEC written at
//! one instruction of the before-file, or the EXEC at one block's entry when its predecessors
//! disagree). An atom names the latest value EXEC had at its site, so when the site runs again
//! every fact naming it shrinks ([`State::new_exec`]).

use std::collections::{BTreeMap, BTreeSet};

/// One EXEC value: (block, instruction index) of the before-instruction that wrote it;
/// instruction `u32::MAX` is a block's entry (a join of different EXEC values); block
/// `u32::MAX` is the function's entry.
pub type Atom = (u32, u32);

/// A set of lanes: all of them, or the union of the lanes of some EXEC values. In a fact
/// "location L holds name x", `All` means on every lane where x has a defined value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Guard {
    /// Every lane (every lane the name is defined on).
    All,
    /// The lanes active in one of these EXEC values (empty: no lane).
    Lanes(BTreeSet<Atom>),
}

impl Guard {
    /// No lane.
    pub fn none() -> Guard {
        Guard::Lanes(BTreeSet::new())
    }

    /// The lanes of one EXEC value.
    pub fn of(a: Atom) -> Guard {
        Guard::Lanes([a].into())
    }

    /// It holds no lane (as far as is known).
    pub fn is_empty(&self) -> bool {
        matches!(self, Guard::Lanes(s) if s.is_empty())
    }

    /// Whether `self` includes every lane of `other` (known from the atoms alone).
    pub fn covers(&self, other: &Guard) -> bool {
        match (self, other) {
            (Guard::All, _) => true,
            (Guard::Lanes(_), Guard::All) => false,
            (Guard::Lanes(a), Guard::Lanes(b)) => b.is_subset(a),
        }
    }

    /// Whether it includes the lanes of `a`.
    pub fn has(&self, a: Atom) -> bool {
        match self {
            Guard::All => true,
            Guard::Lanes(s) => s.contains(&a),
        }
    }

    /// The union (exact).
    pub fn union(&self, other: &Guard) -> Guard {
        match (self, other) {
            (Guard::Lanes(a), Guard::Lanes(b)) => Guard::Lanes(a.union(b).copied().collect()),
            _ => Guard::All,
        }
    }

    /// A subset of the intersection (the common atoms; exact when one side is `All`).
    pub fn meet(&self, other: &Guard) -> Guard {
        match (self, other) {
            (Guard::All, g) | (g, Guard::All) => g.clone(),
            (Guard::Lanes(a), Guard::Lanes(b)) => {
                Guard::Lanes(a.intersection(b).copied().collect())
            }
        }
    }
}

/// What one location holds: before-name -> the lanes on which it holds that name's value.
pub type Contents = BTreeMap<String, Guard>;

/// Whether a name or location is a physical register unit (`v0`, `exec_lo`, `scc`).
pub fn is_phys(n: &str) -> bool {
    !(n.starts_with('%') || n.starts_with("A%") || n.starts_with("stack") || n.starts_with('='))
}

/// The pseudo-location of dword `k` of the constant a rematerialisable instruction writes
/// (`key`: its text, `alloc.rs`): it always holds that constant, so a fact "it holds x on G"
/// says x equals the constant on G (docs/tv.md, "Constants and undefined values").
/// No after-instruction names it.
pub fn konst(key: &str, k: usize) -> String {
    format!("={key}#{k}")
}

/// The state at one point of the lockstep walk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// Location -> contents; a physical unit not listed holds itself on all lanes, any other
    /// location not listed holds nothing (the function's entry).
    pub locs: BTreeMap<String, Contents>,
    /// Before-name -> the lanes on which it has a defined value (an over-approximation). Not
    /// listed: all lanes for a physical unit, none for a virtual register or a slot (not yet
    /// defined). A name with no defined lane may be stood for by any location.
    pub valid: BTreeMap<String, Guard>,
    /// The before-file's current EXEC value.
    pub cur: Atom,
}

impl State {
    /// The function's entry: every physical unit holds itself, nothing else is defined.
    pub fn entry() -> State {
        State {
            locs: BTreeMap::new(),
            valid: BTreeMap::new(),
            cur: (u32::MAX, 0),
        }
    }

    /// What `loc` holds.
    pub fn contents(&self, loc: &str) -> Contents {
        match self.locs.get(loc) {
            Some(c) => c.clone(),
            None if is_phys(loc) => [(loc.to_string(), Guard::All)].into(),
            None => Contents::new(),
        }
    }

    /// The lanes on which `name` is defined.
    pub fn valid(&self, name: &str) -> Guard {
        match self.valid.get(name) {
            Some(g) => g.clone(),
            None if is_phys(name) => Guard::All,
            None => Guard::none(),
        }
    }

    /// Whether reading `loc` (on any lane) gives `name`'s value wherever it is defined.
    pub fn holds(&self, loc: &str, name: &str) -> bool {
        let v = self.valid(name);
        v.is_empty() || self.contents(loc).get(name).is_some_and(|g| g.covers(&v))
    }

    /// The lanes on which `loc` holds `name`'s value, for a join: what the state says, or
    /// every lane when `name` is undefined on every lane. A fact "L holds x on G" says that on
    /// each lane of G where x is defined, L has x's value; for an x defined on no lane it is
    /// true of any L and G (the rule [`State::holds`] already reads with: an undefined name
    /// may be stood for by any location, LLVM's undef). At a join it holds on that edge, so
    /// the edge does not drop a fact the other edges agree on: a register `IMPLICIT_DEF` on
    /// one edge and written on the other (a PHI with an undef input, `atomics_fences` bb.8).
    pub fn holds_at(&self, loc: &str, name: &str) -> Guard {
        match self.contents(loc).get(name) {
            Some(g) => g.clone(),
            None if self.valid(name).is_empty() => Guard::All,
            None => Guard::none(),
        }
    }

    /// Whether `loc` holds `name`'s value on the lanes of EXEC value `a` (wherever defined).
    pub fn holds_on(&self, loc: &str, name: &str, a: Atom) -> bool {
        self.valid(name).is_empty() || self.contents(loc).get(name).is_some_and(|g| g.has(a))
    }

    /// The after-file's EXEC holds the before-file's current EXEC on all lanes.
    pub fn exec_agrees(&self) -> bool {
        ["exec_lo", "exec_hi"].iter().all(|u| self.holds(u, u))
    }

    /// `name`'s value changes: no location holds it any more.
    pub fn forget(&mut self, name: &str) {
        for u in self.physical_units_holding(name) {
            self.locs.insert(u.clone(), Contents::new());
        }
        for c in self.locs.values_mut() {
            c.remove(name);
        }
    }

    /// Physical units not yet listed that hold `name` by default (only `name` itself).
    fn physical_units_holding(&self, name: &str) -> Vec<String> {
        (is_phys(name) && !self.locs.contains_key(name))
            .then(|| name.to_string())
            .into_iter()
            .collect()
    }

    /// Before `name` (a virtual register's dword) is redefined at before-line `line`: the
    /// locations holding its value hold the version `name@line` instead (a refutation's image
    /// copies the old value there, `alloc_refute.rs`).
    pub fn version(&mut self, name: &str, line: u32) {
        let v = format!("{name}@{line}");
        let valid = self.valid(name);
        for c in self.locs.values_mut() {
            if let Some(g) = c.remove(name) {
                c.insert(v.clone(), g);
            }
        }
        self.valid.insert(v, valid);
    }

    /// `loc` now holds exactly `c`.
    pub fn set(&mut self, loc: &str, c: Contents) {
        let c = c.into_iter().filter(|(_, g)| !g.is_empty()).collect();
        self.locs.insert(loc.to_string(), c);
    }

    /// EXEC gets a new value named `a`: facts about the lanes of `a`'s previous value shrink,
    /// and a name defined on them counts as defined everywhere (over-approximation).
    pub fn new_exec(&mut self, a: Atom) {
        for c in self.locs.values_mut() {
            for g in c.values_mut() {
                if let Guard::Lanes(s) = g {
                    s.remove(&a);
                }
            }
            c.retain(|_, g| !g.is_empty());
        }
        for g in self.valid.values_mut() {
            if g.has(a) {
                *g = Guard::All;
            }
        }
        self.cur = a;
    }

    /// The (location, name) facts that hold on the lanes of EXEC value `a`.
    pub fn held_on(&self, a: Atom) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (k, c) in &self.locs {
            for (n, g) in c {
                if g.has(a) && *g != Guard::All {
                    out.push((k.clone(), n.clone()));
                }
            }
        }
        out
    }

    /// These facts now also hold on the lanes of EXEC value `a` (where they still hold).
    pub fn add_lanes(&mut self, facts: &[(String, String)], a: Atom) {
        for (k, n) in facts {
            if let Some(g) = self.locs.get_mut(k).and_then(|c| c.get_mut(n)) {
                *g = g.union(&Guard::of(a));
            }
        }
    }

    /// The state at a join: a fact holds if it holds on every incoming edge; a name is defined
    /// where it is defined on some edge. `at` is the joined block's number.
    pub fn join(states: &[&State], at: u32) -> State {
        let mut keys: BTreeSet<&String> = BTreeSet::new();
        let mut names: BTreeSet<&String> = BTreeSet::new();
        for s in states {
            keys.extend(s.locs.keys());
            names.extend(s.valid.keys());
        }
        let mut out = State::entry();
        for k in keys {
            // Every name some edge says `k` holds; an edge on which the name is undefined on
            // every lane holds it vacuously (see [`State::holds_at`]).
            let mut cands: BTreeSet<String> = BTreeSet::new();
            for s in states {
                cands.extend(s.contents(k).into_keys());
            }
            let mut c = Contents::new();
            for n in cands {
                let mut g = Guard::All;
                for s in states {
                    g = g.meet(&s.holds_at(k, &n));
                }
                if !g.is_empty() {
                    c.insert(n, g);
                }
            }
            out.locs.insert(k.clone(), c);
        }
        for n in names {
            let mut v = states[0].valid(n);
            for s in &states[1..] {
                v = v.union(&s.valid(n));
            }
            out.valid.insert(n.clone(), v);
        }
        out.cur = states[0].cur;
        if states.iter().any(|s| s.cur != out.cur) {
            let entry = (at, u32::MAX);
            let on_entry = Self::held_on_each_edge(states);
            out.new_exec(entry);
            for (k, n) in on_entry {
                let c = out.locs.entry(k).or_default();
                let g = c.get(&n).cloned().unwrap_or_else(Guard::none);
                c.insert(n, g.union(&Guard::of(entry)));
            }
        }
        out
    }

    /// The facts (location, name) that hold, on every incoming edge, on the lanes of that
    /// edge's current EXEC. At the join they hold on the block's entry EXEC (the atom `(at,
    /// MAX)`), whichever edge it came from: that EXEC is the edge's current one, and no
    /// instruction runs between. A loop whose EXEC shrinks each iteration (`S_ANDN2_B64_term`)
    /// keeps its header's facts this way; the common atoms alone lose them.
    fn held_on_each_edge(states: &[&State]) -> Vec<(String, String)> {
        let mut facts: BTreeSet<(String, String)> = BTreeSet::new();
        for s in states {
            for (k, c) in &s.locs {
                facts.extend(c.keys().map(|n| (k.clone(), n.clone())));
            }
        }
        facts
            .into_iter()
            .filter(|(k, n)| states.iter().all(|s| s.holds_at(k, n).has(s.cur)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // By hand: a masked write at EXEC a gives lanes {a}; a later EXEC write at a again (the
    // loop's next iteration) makes that fact say nothing, and a name defined on {a} counts as
    // defined on all lanes, so it is no longer held anywhere.
    #[test]
    fn an_exec_atom_written_again_forgets_its_lanes() {
        let mut s = State::entry();
        s.set("v1", [("%5.0".to_string(), Guard::of((1, 3)))].into());
        s.valid.insert("%5.0".into(), Guard::of((1, 3)));
        assert!(s.holds("v1", "%5.0"));
        s.new_exec((1, 3));
        assert!(!s.holds("v1", "%5.0"));
        assert_eq!(s.valid("%5.0"), Guard::All);
    }

    // By hand: a fact held on the current EXEC of each incoming edge (the entry's EXEC a,
    // the back-edge's EXEC b, a loop narrowing EXEC) holds on the joined block's entry EXEC
    // (which is a or b); one held on another EXEC on some edge does not.
    #[test]
    fn a_join_keeps_facts_held_on_each_edges_exec() {
        let mut a = State::entry();
        a.new_exec((0, 1));
        let mut b = State::entry();
        b.new_exec((3, 5));
        for (s, g) in [(&mut a, Guard::of((0, 1))), (&mut b, Guard::of((3, 5)))] {
            s.set("A%7.0", [("%4.0".to_string(), g.clone())].into());
            s.set("A%8.0", [("%6.0".to_string(), Guard::of((9, 9)))].into());
            s.valid.insert("%4.0".into(), g.clone());
            s.valid.insert("%6.0".into(), g);
        }
        let j = State::join(&[&a, &b], 3);
        assert_eq!(j.cur, (3, u32::MAX));
        assert!(j.holds_on("A%7.0", "%4.0", j.cur));
        assert!(!j.holds_on("A%8.0", "%6.0", j.cur));
    }

    // By hand: `%2.0` is undefined on edge a (an `IMPLICIT_DEF`) and held by A%3.0 on edge b:
    // at the join A%3.0 holds it (vacuously on a). Defined but not held on a: not held.
    #[test]
    fn a_join_keeps_a_fact_vacuous_on_an_edge_where_the_name_is_undefined() {
        let mut a = State::entry();
        a.valid.insert("%2.0".into(), Guard::none());
        let mut b = State::entry();
        b.set("A%3.0", [("%2.0".to_string(), Guard::All)].into());
        b.valid.insert("%2.0".into(), Guard::All);
        let j = State::join(&[&a, &b], 4);
        assert!(j.holds("A%3.0", "%2.0"));
        a.valid.insert("%2.0".into(), Guard::All);
        let j = State::join(&[&a, &b], 4);
        assert!(!j.holds("A%3.0", "%2.0"));
    }

    // By hand: physical units hold themselves at entry; a forgotten unit holds nothing; a join
    // keeps only the facts of both edges (`%1.0` is defined on edge a, where s6 does not hold
    // it), and the union of the defined lanes.
    #[test]
    fn entry_forget_and_join() {
        let mut a = State::entry();
        assert!(a.holds("s4", "s4") && !a.holds("s5", "s4"));
        assert!(a.holds("v0", "%9.0"), "an undefined name is held anywhere");
        let mut b = a.clone();
        a.valid.insert("%1.0".into(), Guard::All);
        a.forget("s4");
        assert!(!a.holds("s4", "s4"));
        b.set("s6", [("%1.0".to_string(), Guard::All)].into());
        b.valid.insert("%1.0".into(), Guard::All);
        let j = State::join(&[&a, &b], 2);
        assert!(!j.holds("s4", "s4") && !j.holds("s6", "%1.0"));
        assert_eq!(j.valid("%1.0"), Guard::All);
        assert_eq!(j.cur, a.cur);
    }
}
