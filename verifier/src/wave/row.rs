//! One row of the atomics table and its property columns: plain data shared by the table
//! writer and the expectation reader.

use super::analyze::OpReport;
use super::brute::BruteCounts;
use super::Verdict;

/// One analysed op with its cross-check.
pub struct Row {
    /// The op's verdicts.
    pub rep: OpReport,
    /// The brute-force cross-check's counts, `None` when `--brute 0` skipped it.
    pub brute: Option<BruteCounts>,
}

/// Reads one property's verdict from a report.
pub type Column = (&'static str, fn(&OpReport) -> &Verdict);

/// The property columns in table order.
pub const COLUMNS: &[Column] = &[
    ("mem-uniform", |r| &r.mem_uniform),
    ("mem-lanes", |r| &r.mem_lanes),
    ("ret-scan", |r| &r.ret_scan),
    ("opt-iter", |r| &r.opt_iter),
    ("opt-dpp", |r| &r.opt_dpp),
    ("opt-uniform", |r| &r.opt_uniform),
    ("opt-reassoc", |r| &r.opt_reassoc),
];
