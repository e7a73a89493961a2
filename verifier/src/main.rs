//! `gcnsmt`: verify AMDGPU DS peephole rewrites with z3, and decode, encode and lift DS
//! instructions. Exit codes of `verify` (`gcnsmt_verifier::exit::ExitStatus`): 0 all proved or
//! as expected, 1 something refuted or an expectation mismatch, 2 input or tool error, 3
//! nothing refuted but something unknown.

use clap::{Parser, Subcommand};
use gcnsmt_semantics::target::Target;
use gcnsmt_verifier::cli;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "gcnsmt",
    version,
    about = "Symbolic verifier for AMD GPU memory instructions"
)]
struct Cli {
    /// More tracing detail (-v debug, -vv trace); RUST_LOG overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    /// The solver of every query (verify, tv, bench): z3 (the default), bitwuzla (the
    /// `bitwuzla` Python package in worker processes), or portfolio (both at once, the first
    /// answer wins). docs/benchmarks.md, "Second solver".
    #[arg(long, global = true, value_name = "SOLVER",
          value_parser = |s: &str| s.parse::<gcnsmt_verifier::smt::Backend>())]
    solver: Option<gcnsmt_verifier::smt::Backend>,
    #[command(subcommand)]
    cmd: Cmd,
}

// One output-format enum per command: each accepts only what its command prints.

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum SpecCheckFormat {
    Text,
    Json,
    Sarif,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum MergeFormat {
    Json,
    Text,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum VectorsFormat {
    Json,
    TinygradPy,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum AtomicsFormat {
    Text,
    Json,
}

#[derive(Subcommand)]
enum Cmd {
    /// Prove or refute each rule of rule files (directories are searched for *.rules).
    Verify {
        /// Rule files or directories.
        #[arg(required = true)]
        paths: Vec<std::path::PathBuf>,
        #[command(flatten)]
        opts: cli::VerifyArgs,
    },
    /// Benchmark (not a test): time the rules of the given paths with and without egg and the
    /// result cache; print wall time, median and p99 per rule x target, and peak memory.
    Bench {
        #[arg(required_unless_present = "families")]
        paths: Vec<std::path::PathBuf>,
        /// Instead of rule files: the generated memory-encoding families (comma-separated
        /// names, or nothing for all: chain, chain-dropped, lanes, block, chain-f32).
        #[arg(long, num_args = 0..=1, default_missing_value = "all")]
        families: Option<String>,
        /// Time limit per solver query, in seconds.
        #[arg(long, default_value_t = 10.0)]
        timeout: f64,
        /// Instead: measure how cost grows (memory instructions, lanes, atomics on one
        /// address, corpus size, decoder vs llvm-mc-22) and write DIR/growth.svg and .json.
        #[arg(long, value_name = "DIR")]
        plots: Option<std::path::PathBuf>,
    },
    /// Decode DS, MUBUF and VBUFFER instruction words: hex dwords or bytes as arguments, or a
    /// file (`-` or nothing: stdin) of llvm-mc --disassemble input (`0x..` bytes, `#` and `//`
    /// comments), llvm-mc -show-encoding or llvm-objdump -d text.
    Decode {
        #[arg(long)]
        target: String,
        words: Vec<String>,
    },
    /// Encode one line of DS, MUBUF or VBUFFER assembly.
    Encode {
        #[arg(long)]
        target: String,
        asm: String,
    },
    /// Check ISA documentation (CLRX pages, reference pages, pseudocode JSON, ISA XML) against
    /// gcnsmt's semantics, opcode tables and assembler; exit 1 when something is found.
    SpecCheck {
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Output: text, json (one object on one line) or sarif (SARIF 2.1.0).
        #[arg(long, value_enum, default_value_t = SpecCheckFormat::Text)]
        format: SpecCheckFormat,
        /// Only these targets (for pseudocode collections: the generation they are for).
        #[arg(long)]
        target: Option<String>,
        /// Time limit per solver query, in seconds (a timeout leaves the item unchecked).
        #[arg(long, default_value_t = 20.0)]
        timeout: f64,
    },
    /// Decide, for every DS and buffer atomic and target, order independence across lanes, the
    /// scan form of returned values and LLVM's AtomicOptimizer rewrites (wave32/wave64, any
    /// EXEC mask).
    Atomics {
        /// Only these targets (comma-separated -mcpu names or ranges: gfx900,gfx11..).
        #[arg(long)]
        target: Option<String>,
        /// Only mnemonics containing this text (ds_add_rtn_u32, buffer_atomic_add, _f32, ...).
        #[arg(long)]
        op: Option<String>,
        /// Output: text (a Markdown table) or json (JSON Lines).
        #[arg(long, value_enum, default_value_t = AtomicsFormat::Text)]
        format: AtomicsFormat,
        /// Time limit per solver query, in seconds.
        #[arg(long, default_value_t = 20.0)]
        timeout: f64,
        /// Random value sets per EXEC mask in the brute-force cross-check over all orders of up
        /// to four lanes (0 skips it).
        #[arg(long, default_value_t = 16)]
        brute: u32,
        /// Check the verdicts against an expectation file (`OP PROPERTY VERDICT` lines, as
        /// proofs/wave_atomics.expect); only its ops are analysed; a mismatch exits 1.
        #[arg(long, value_name = "FILE")]
        expect: Option<std::path::PathBuf>,
    },
    /// For every DS and MUBUF/VBUFFER opcode of one target, whether its counterpart on another
    /// is provably the same (docs/cross-target.md); --all: every ordered pair of targets.
    Equiv(cli::EquivArgs),
    /// Translation validation: prove each block LLVM changed (MIR before/after a pass).
    Tv(gcnsmt_verifier::tv::cmd::TvArgs),
    /// The gcnsmt target each name stands for (`fiji` -> gfx802, `amdgpu9.0a` -> gfx90a), one
    /// `NAME TARGET` line each; with no names, the fourteen targets. Exit 2 if a name is none.
    Targets { names: Vec<String> },
    /// Memory timing of final code (llc's `.s`): prove no register is read or overwritten
    /// before the access that writes or reads it completes (docs/timing.md).
    Waitcnt(gcnsmt_verifier::timing::cmd::WaitcntArgs),
    /// Combine the JSON Lines of every shard of a `verify --shard K/N --format json` run into
    /// the report, summary and exit code of the unsharded run.
    Merge {
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Output: json (JSON Lines, as verify --format json) or text (the summary line).
        #[arg(long, value_enum, default_value_t = MergeFormat::Json)]
        format: MergeFormat,
    },
    /// Test vectors for emulators: solver-chosen inputs covering every branch and edge of each
    /// instruction's semantics, with the interpreter's expected registers and memory
    /// (docs/vectors.md); or, with --check FILE, run a vector file on the current semantics.
    Vectors {
        /// The target (-mcpu name); with --check, the file's target is used.
        #[arg(long, required_unless_present = "check")]
        target: Option<String>,
        /// Only these mnemonics (all DS, MUBUF and VBUFFER opcodes by default; MTBUF on gfx12 only).
        instr: Vec<String>,
        /// At most N vectors per instruction line and settings variant.
        #[arg(short = 'n', default_value_t = 32)]
        n: usize,
        /// Output: json or tinygrad-py (a Python module of test cases with an assert loop).
        #[arg(long, value_enum, default_value_t = VectorsFormat::Json)]
        format: VectorsFormat,
        /// Time limit per solver query, in seconds (an undecided edge gets no vector).
        #[arg(long, default_value_t = 5.0)]
        timeout: f64,
        /// Only the target's default settings (no vectors under the other alignment modes,
        /// LDS bounds and buffer range-check settings).
        #[arg(long)]
        defaults_only: bool,
        /// Run the vectors of FILE (made by `gcnsmt vectors`) and compare their expected
        /// values; exit 1 when one differs.
        #[arg(long, value_name = "FILE")]
        check: Option<std::path::PathBuf>,
    },
    /// The fidelity report: every DS, MUBUF and VBUFFER opcode of a target (MTBUF on gfx12) as exact,
    /// approximate (with the assumptions) or unsupported (with the reason).
    Coverage {
        #[arg(long)]
        target: String,
        /// Output: text or json.
        #[arg(long, value_enum, default_value_t = AtomicsFormat::Text)]
        format: AtomicsFormat,
    },
    /// Print the semantics (AMD pseudocode notation) of an instruction given as assembly or words.
    Lift {
        #[arg(long)]
        target: String,
        input: Vec<String>,
    },
}

/// Output that cannot be written (a closed pipe, `/dev/full`) makes `print!` panic: that is a
/// tool error (one line, exit 2), not a crash with a backtrace. Other panics keep the default
/// report.
fn stdout_failure_is_an_error() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if let Some(msg) = info.payload_as_str() {
            if let Some(why) = msg.strip_prefix("failed printing to stdout: ") {
                eprintln!("error: cannot write to standard output: {why}");
                std::process::exit(2);
            }
        }
        default(info)
    }));
}

fn main() -> ExitCode {
    stdout_failure_is_an_error();
    let cli = Cli::parse();
    let level = match cli.verbose {
        0 => "warn",
        1 => "warn,gcnsmt=debug,gcnsmt_verifier=debug",
        _ => "warn,gcnsmt=trace,gcnsmt_verifier=trace,gcnsmt_semantics=trace,gcnsmt_lifter=trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(level));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    // Before any parallel work: worker threads get the stack deep (bounded) input needs.
    gcnsmt_verifier::limits::init_worker_threads();
    if let Some(b) = cli.solver {
        if let Err(e) = gcnsmt_verifier::smt::set_backend(b) {
            eprintln!("error: --solver {}: {e}", b.name());
            return ExitCode::from(2);
        }
    }
    let parse_target = |t: &str| -> Result<Target, String> {
        Target::parse(t).ok_or_else(|| format!("unknown target `{t}`"))
    };
    let code = match cli.cmd {
        Cmd::Verify { paths, opts } => cli::verify(&paths, &opts),
        Cmd::Bench {
            paths,
            timeout,
            plots,
            families,
        } => cli::bench(&paths, timeout, plots.as_deref(), families.as_deref()),
        Cmd::Decode { target, words } => match parse_target(&target) {
            Ok(t) => cli::decode(t, &words),
            Err(e) => cli::usage_error(&e),
        },
        Cmd::Encode { target, asm } => match parse_target(&target) {
            Ok(t) => cli::encode(t, &asm),
            Err(e) => cli::usage_error(&e),
        },
        Cmd::SpecCheck {
            files,
            format,
            target,
            timeout,
        } => {
            use gcnsmt_verifier::spec::report::OutputFormat;
            let format = match format {
                SpecCheckFormat::Text => OutputFormat::Text,
                SpecCheckFormat::Json => OutputFormat::Json,
                SpecCheckFormat::Sarif => OutputFormat::Sarif,
            };
            gcnsmt_verifier::spec::report::main(&files, format, target.as_deref(), timeout)
        }
        Cmd::Atomics {
            target,
            op,
            format,
            timeout,
            brute,
            expect,
        } => gcnsmt_verifier::wave::table::atomics(&gcnsmt_verifier::wave::table::AtomicsArgs {
            target,
            op,
            json: matches!(format, AtomicsFormat::Json),
            timeout,
            brute,
            expect,
        }),
        Cmd::Merge { files, format } => cli::merge(
            &files,
            match format {
                MergeFormat::Json => cli::MergeFormat::Json,
                MergeFormat::Text => cli::MergeFormat::Text,
            },
        ),
        Cmd::Equiv(args) => cli::equiv(&args),
        Cmd::Tv(args) => gcnsmt_verifier::tv::cmd::run(&args),
        Cmd::Targets { names } => targets(&names),
        Cmd::Waitcnt(args) => {
            gcnsmt_verifier::timing::cmd::run(&args, gcnsmt_verifier::tv::wait_mir::check_mir)
        }
        Cmd::Vectors {
            target,
            instr,
            n,
            format,
            timeout,
            defaults_only,
            check,
        } => match (check, target) {
            (Some(f), _) => cli::check_vectors(&f, &instr),
            (None, Some(t)) => match parse_target(&t) {
                Ok(t) => cli::vectors(
                    t,
                    &cli::VectorsArgs {
                        only: instr,
                        n,
                        python: matches!(format, VectorsFormat::TinygradPy),
                        timeout,
                        defaults_only,
                    },
                ),
                Err(e) => cli::usage_error(&e),
            },
            (None, None) => cli::usage_error("vectors needs --target or --check"),
        },
        Cmd::Coverage { target, format } => match parse_target(&target) {
            Ok(t) => cli::coverage(t, matches!(format, AtomicsFormat::Json)),
            Err(e) => cli::usage_error(&e),
        },
        Cmd::Lift { target, input } => match parse_target(&target) {
            Ok(t) => cli::lift(t, &input),
            Err(e) => cli::usage_error(&e),
        },
    };
    ExitCode::from(code)
}

/// `gcnsmt targets`: how each processor name or folded triple resolves.
fn targets(names: &[String]) -> gcnsmt_verifier::exit::ExitStatus {
    use gcnsmt_semantics::target::Target;
    use gcnsmt_verifier::exit::ExitStatus;
    if names.is_empty() {
        for t in Target::ALL {
            println!("{t}");
        }
        return ExitStatus::Proved;
    }
    let mut code = ExitStatus::Proved;
    for n in names {
        match Target::parse(n) {
            Some(t) => println!("{n} {t}"),
            None => {
                eprintln!("error: unknown target `{n}`");
                code = ExitStatus::InputError;
            }
        }
    }
    code
}
