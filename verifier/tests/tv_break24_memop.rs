//! Breaker 24's finding 08 (`tests/data/tv/break24/memop/README.md`): the memory-operand checks
//! (claims such as `invariant`, `dereferenceable`; volatile and atomic accesses) ran only inside
//! the lowering, which a block with a barrier or an unmodelled atomic skips for segments whose
//! instruction texts are equal. Each edited pair below was proved (exit 0); the rule is
//! docs/tv.md's (a pass cannot make a load invariant by saying so; the number, order and
//! ordering of volatile and atomic accesses must not change). llc-22's unedited pairs stay
//! proved.

use std::path::PathBuf;

fn tv(before: &str, after: &str) -> gcnsmt_testkit::Run {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/break24/memop");
    let args = ["tv", before, after];
    let r = gcnsmt_testkit::run_at(Some(&dir), env!("CARGO_BIN_EXE_gcnsmt"), &args, None, &[]);
    r.assert_no_panic();
    r
}

/// The line `gcnsmt tv` prints for `block`.
fn line<'a>(r: &'a gcnsmt_testkit::Run, block: &str) -> &'a str {
    let head = format!(" {block} gfx900: ");
    r.stdout
        .lines()
        .find(|l| l.contains(&head))
        .unwrap_or_else(|| panic!("no verdict for {block}: {}", r.context()))
}

/// `block` is `unsupported` (exit 3) with a reason at `at` that says `why`.
fn refused(before: &str, after: &str, block: &str, at: &str, why: &str) {
    let r = tv(before, after);
    assert_eq!(r.code, 3, "{}", r.context());
    let l = line(&r, block);
    assert!(l.contains("unsupported"), "{l}\n{}", r.context());
    assert!(l.contains(at) && l.contains(why), "{l}\n{}", r.context());
}

const CLAIM: &str = "a memory operand the pass made `dereferenceable`";
const ORDER: &str = "changed, added, removed, merged or reordered a volatile or atomic access";

#[test]
fn a_claim_added_in_a_block_with_a_barrier() {
    refused(
        "k13.before.mir",
        "k13.bad.after.mir",
        "bb.1",
        "k13.bad.after.mir:290:5",
        CLAIM,
    );
    refused(
        "k7.before.mir",
        "k7.bad.after.mir",
        "bb.0",
        "k7.bad.after.mir:201:5",
        "a memory operand the pass made `invariant`",
    );
    refused(
        "k13.fold.before.mir",
        "k13.fold.bad.after.mir",
        "bb.1",
        "k13.fold.bad.after.mir:268:5",
        CLAIM,
    );
    // The control without the barrier.
    refused(
        "k12.before.mir",
        "k12.bad.after.mir",
        "bb.1",
        "k12.bad.after.mir:285:5",
        CLAIM,
    );
}

#[test]
fn a_volatile_or_acquire_load_made_plain_in_a_block_with_a_barrier() {
    // The after-block has no volatile or atomic access left: the reason names the block.
    for before in ["k13.volatile.before.mir", "k13.acquire.before.mir"] {
        let at = "k13.good.after.mir:285:3";
        refused(before, "k13.good.after.mir", "bb.1", at, ORDER);
    }
    let at = "k12.good.after.mir:280:3";
    refused(
        "k12.volatile.before.mir",
        "k12.good.after.mir",
        "bb.1",
        at,
        ORDER,
    );
}

#[test]
fn an_atomic_split_point_whose_ordering_changed() {
    refused(
        "k14.acquire.before.mir",
        "k14.fold.after.mir",
        "bb.1",
        "k14.fold.after.mir:320:5",
        ORDER,
    );
}

#[test]
fn llc_pairs_stay_proved() {
    for (b, a, block) in [
        ("k7.before.mir", "k7.after.mir", "bb.0"),
        ("k13.fold.before.mir", "k13.fold.after.mir", "bb.1"),
        ("k14.fold.before.mir", "k14.fold.after.mir", "bb.2"),
    ] {
        let r = tv(b, a);
        assert!(line(&r, block).contains("proved"), "{}", r.context());
        assert!(!r.stdout.contains("a memory operand"), "{}", r.context());
        assert!(!r.stdout.contains(ORDER), "{}", r.context());
    }
    // Unchanged files are unchanged (dead-mi-elimination changed nothing in k13).
    let r = tv("k13.before.mir", "k13.good.after.mir");
    assert_eq!(r.code, 0, "{}", r.context());
}
