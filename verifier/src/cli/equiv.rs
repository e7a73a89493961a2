//! `gcnsmt equiv`: the equivalence table of every DS and MUBUF/VBUFFER opcode between two
//! targets (or, with `--all`, between every ordered pair of the fourteen), as text or JSON,
//! and with `--all` the data files `generations.json` and `generations.md`.

use crate::check::Options;
use crate::exit::ExitStatus;
use crate::xtarget::{table, By, Fam, Memo, Row, Status, FORM};
use gcnsmt_semantics::target::Target;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Instant;

/// How counterparts are paired (`--by`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EquivBy {
    /// The same encoding word, decoded on the second target.
    Word,
    /// The same mnemonic, or a name of the same semantics entry (the gfx11 renames).
    Name,
}

/// The instruction family of `--family`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EquivFamily {
    /// DS (LDS/GDS).
    Ds,
    /// MUBUF / VBUFFER.
    Buffer,
}

/// Which opcodes `--family` and `--op` keep.
fn keeper(args: &EquivArgs) -> impl Fn(Fam, &str) -> bool + Sync + '_ {
    move |f: Fam, m: &str| {
        let fam_ok = match args.family {
            None => true,
            Some(EquivFamily::Ds) => f == Fam::Ds,
            Some(EquivFamily::Buffer) => f == Fam::Buffer,
        };
        fam_ok && args.op.as_deref().is_none_or(|o| m.contains(o))
    }
}

/// Output of `gcnsmt equiv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EquivFormat {
    /// One line per opcode and a summary.
    Text,
    /// One JSON document.
    Json,
}

/// The arguments of `gcnsmt equiv`.
#[derive(clap::Args, Debug, Clone)]
pub struct EquivArgs {
    /// The target whose opcodes are listed.
    #[arg(long, required_unless_present = "all", conflicts_with = "all")]
    pub from: Option<String>,
    /// The target their counterparts run on.
    #[arg(long, required_unless_present = "all", conflicts_with = "all")]
    pub to: Option<String>,
    /// How counterparts are found.
    #[arg(long, value_enum, default_value_t = EquivBy::Name)]
    pub by: EquivBy,
    /// Output: text or json.
    #[arg(long, value_enum, default_value_t = EquivFormat::Text)]
    pub format: EquivFormat,
    /// Every ordered pair of the fourteen targets; writes generations.json and generations.md
    /// into --out.
    #[arg(long)]
    pub all: bool,
    /// With --all: the directory the two files are written to.
    #[arg(long, default_value = "docs")]
    pub out: PathBuf,
    /// With --all: only these source targets (comma-separated or ranges), for sampling.
    #[arg(long, requires = "all")]
    pub sample: Option<String>,
    /// With --all: only these ordered pairs (`FROM:TO`, comma-separated, kept in this order),
    /// for sampling.
    #[arg(long, requires = "all", conflicts_with = "sample")]
    pub pairs: Option<String>,
    /// Only this family's opcodes.
    #[arg(long, value_enum)]
    pub family: Option<EquivFamily>,
    /// Only mnemonics containing this text (ds_cmpst, buffer_atomic, _f32, ...); with --all
    /// the data files record it.
    #[arg(long)]
    pub op: Option<String>,
    /// Time limit per solver query, in seconds.
    #[arg(long, default_value_t = 10.0)]
    pub timeout: f64,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
}

/// `gcnsmt equiv`.
pub fn equiv(args: &EquivArgs) -> ExitStatus {
    let timeout = match crate::limits::timeout(args.timeout) {
        Ok(t) => t,
        Err(e) => return super::usage_error(&format!("--timeout: {e}")),
    };
    let opts = Options {
        timeout,
        identity: true,
        // The data files of `--all` keep no witness: the solver's model, replayed, is enough.
        shrink: !args.all,
        ..Options::default()
    };
    let by = match args.by {
        EquivBy::Word => By::Word,
        EquivBy::Name => By::Name,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .stack_size(crate::limits::WORKER_STACK_BYTES)
        .num_threads(args.jobs.map_or(0, usize::from))
        .build();
    let pool = match pool {
        Ok(p) => p,
        Err(e) => return super::usage_error(&format!("--jobs: {e}")),
    };
    pool.install(|| run(args, by, &opts))
}

fn run(args: &EquivArgs, by: By, opts: &Options) -> ExitStatus {
    if args.all {
        return all(args, by, opts);
    }
    let one = |flag: &str, v: &Option<String>| {
        let v = v.as_deref().unwrap_or("");
        Target::parse(v).ok_or_else(|| format!("{flag}: unknown target `{v}`"))
    };
    let (from, to) = match (one("--from", &args.from), one("--to", &args.to)) {
        (Ok(f), Ok(t)) if f != t => (f, t),
        (Ok(_), Ok(_)) => return super::usage_error("--from and --to name the same target"),
        (Err(e), _) | (_, Err(e)) => return super::usage_error(&e),
    };
    let rows = table(from, to, by, &keeper(args), opts, &Memo::default());
    if rows.is_empty() {
        let op = args.op.as_deref().unwrap_or("");
        return super::usage_error(&format!(
            "--op {op}: no DS or buffer opcode of {from} matches"
        ));
    }
    match args.format {
        EquivFormat::Text => print!("{}", text(from, to, by, &rows)),
        EquivFormat::Json => println!("{:#}", pair_json(from, to, by, &rows, true)),
    }
    status(&rows)
}

/// 3 when some row is unknown, else 0: differences are results, not failures.
fn status(rows: &[Row]) -> ExitStatus {
    if rows.iter().any(|r| matches!(r.status, Status::Unknown(_))) {
        ExitStatus::Inconclusive
    } else {
        ExitStatus::Proved
    }
}

/// Counts of each status, in a fixed order.
fn counts(rows: &[Row]) -> Vec<(&'static str, usize)> {
    let names = [
        "same",
        "differ",
        "operands_differ",
        "no_counterpart",
        "unsupported",
        "unknown",
    ];
    names
        .iter()
        .map(|n| (*n, rows.iter().filter(|r| r.status.name() == *n).count()))
        .collect()
}

/// Each family's assumptions, once: every row of a family shares them.
fn family_assumptions(rows: &[Row]) -> Vec<(Fam, Vec<String>)> {
    let mut out: Vec<(Fam, Vec<String>)> = Vec::new();
    for fam in [Fam::Ds, Fam::Buffer] {
        if let Some(r) = rows
            .iter()
            .find(|r| r.fam == fam && !r.assumptions.is_empty())
        {
            out.push((fam, r.assumptions.clone()));
        }
    }
    out
}

fn text(from: Target, to: Target, by: By, rows: &[Row]) -> String {
    use std::fmt::Write;
    let mut s = format!(
        "{from} -> {to}, by {}; every row assumes: {FORM}\n",
        by.name()
    );
    for (fam, a) in family_assumptions(rows) {
        for line in a {
            let _ = writeln!(s, "  {} assumes: {line}", fam.name());
        }
    }
    for r in rows {
        let cp = r.counterpart.as_deref().unwrap_or("-");
        let detail = match &r.status {
            Status::Same(p) => p.reason().to_string(),
            Status::Differ { witness, first } => format!("first difference {first}; {witness}"),
            Status::Operands(w)
            | Status::NoCounterpart(w)
            | Status::Unsupported(w)
            | Status::Unknown(w) => w.clone(),
        };
        let _ = writeln!(
            s,
            "{:<36} {:<36} {:<15} {detail}",
            r.mnemonic,
            cp,
            r.status.name()
        );
    }
    let c: Vec<String> = counts(rows)
        .iter()
        .map(|(n, k)| format!("{k} {n}"))
        .collect();
    let _ = writeln!(s, "summary: {}", c.join(", "));
    s
}

/// One pair as JSON; `detail` adds each row's witness or reason (left out of the data file,
/// whose content must not depend on which model the solver found).
fn pair_json(from: Target, to: Target, by: By, rows: &[Row], detail: bool) -> Value {
    let rows_json: Vec<Value> = rows
        .iter()
        .map(|r| {
            let mut v = json!({
                "family": r.fam.name(),
                "mnemonic": r.mnemonic,
                "counterpart": r.counterpart,
                "status": r.status.name(),
            });
            if let Status::Same(p) = &r.status {
                v["proof"] = json!(p.name());
            }
            if r.fam == Fam::Buffer && matches!(r.status, Status::Same(_) | Status::Differ { .. }) {
                v["vsharp_unmapped"] = json!(unmapped(r));
            }
            if detail {
                match &r.status {
                    Status::Same(_) => {}
                    Status::Differ { witness, first } => {
                        v["witness"] = json!(witness);
                        v["first_difference"] = json!(first);
                    }
                    Status::Operands(w)
                    | Status::NoCounterpart(w)
                    | Status::Unsupported(w)
                    | Status::Unknown(w) => v["reason"] = json!(w),
                }
                v["assumptions"] = json!(r.assumptions);
            }
            v
        })
        .collect();
    let assumptions: serde_json::Map<String, Value> = family_assumptions(rows)
        .into_iter()
        .map(|(f, a)| (f.name().to_string(), json!(a)))
        .collect();
    json!({
        "from": from.name(),
        "to": to.name(),
        "by": by.name(),
        "form": FORM,
        "assumptions": assumptions,
        "summary": counts(rows).into_iter().map(|(n, k)| (n.to_string(), json!(k))).collect::<serde_json::Map<_, _>>(),
        "rows": rows_json,
    })
}

/// The V# fields a buffer row's verdict assumes unmapped (names only; the sentences are the
/// pair's `assumptions`).
fn unmapped(r: &Row) -> Vec<&str> {
    (r.assumptions.iter())
        .filter_map(|a| a.strip_prefix("V# "))
        .map(|a| a.split([' ', ':']).next().unwrap_or(a))
        .collect()
}

/// `--all`: every ordered pair (or those from `--sample`), written to `--out`.
fn all(args: &EquivArgs, by: By, opts: &Options) -> ExitStatus {
    let start = Instant::now();
    let pairs = match pairs_of(args) {
        Ok(p) if p.is_empty() => {
            return super::usage_error("--pairs/--sample: no pair of targets to check")
        }
        Ok(p) => p,
        Err(e) => return super::usage_error(&e),
    };
    // Before any pair is checked: a run can take many minutes, and its files go there.
    if let Err(e) = writable_dir(&args.out) {
        return super::usage_error(&format!("--out {}: {e}", args.out.display()));
    }
    // Pairs one after another; each pair's opcodes run in parallel (rayon).
    // One memo for the run: most pairs ask some other pair's questions again.
    let memo = Memo::default();
    let tables: Vec<(Target, Target, Vec<Row>)> = pairs
        .iter()
        .map(|(f, t)| {
            let at = Instant::now();
            let rows = table(*f, *t, by, &keeper(args), opts, &memo);
            // Progress, and the per-pair cost docs/cli.md quotes.
            eprintln!("{f} -> {t}: {:.1?}", at.elapsed());
            (*f, *t, rows)
        })
        .collect();
    let command = generated_by(args, by);
    let pairs: Vec<Value> = (tables.iter())
        .map(|(f, t, r)| pair_json(*f, *t, by, r, false))
        .collect();
    let md = markdown(&tables, &command);
    let write = |name: &str, text: String| {
        let p = args.out.join(name);
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
    };
    let json_text = data_text(&command, &pairs);
    if let Err(e) = write("generations.json", json_text).and(write("generations.md", md)) {
        return super::usage_error(&e);
    }
    eprintln!(
        "{} pairs in {:.1?}, {} distinct queries decided (written to {})",
        tables.len(),
        start.elapsed(),
        memo.len(),
        args.out.display()
    );
    let all_rows: Vec<Row> = tables.into_iter().flat_map(|(_, _, r)| r).collect();
    status(&all_rows)
}

/// Make `dir` (and its parents) if needed, and check that a file can be made in it.
///
/// Errors: it is not a directory, or cannot be made or written.
fn writable_dir(dir: &std::path::Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let probe = dir.join(format!(".gcnsmt-equiv-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| e.to_string())?;
    std::fs::remove_file(&probe).map_err(|e| e.to_string())
}

/// The ordered pairs `--all` checks: every one, those from `--sample`, or `--pairs`.
fn pairs_of(args: &EquivArgs) -> Result<Vec<(Target, Target)>, String> {
    if let Some(list) = &args.pairs {
        let one =
            |t: &str| Target::parse(t).ok_or_else(|| format!("--pairs: unknown target `{t}`"));
        let pairs: Vec<(Target, Target)> = (list.split(',').map(str::trim))
            .filter(|p| !p.is_empty())
            .map(|p| match p.split_once(':') {
                Some((f, t)) if f.trim() != t.trim() => Ok((one(f.trim())?, one(t.trim())?)),
                Some(_) => Err(format!("--pairs: `{p}` names the same target twice")),
                None => Err(format!("--pairs: expected FROM:TO, got `{p}`")),
            })
            .collect::<Result<_, _>>()?;
        // The same pair twice would be checked and written twice.
        if let Some((k, (f, t))) = (pairs.iter().enumerate()).find(|(k, p)| pairs[..*k].contains(p))
        {
            return Err(format!("--pairs: {f}:{t} is given twice (pair {})", k + 1));
        }
        return Ok(pairs);
    }
    let froms = match args.sample.as_deref().map(Target::parse_list).transpose() {
        Ok(f) => f.unwrap_or_else(|| Target::ALL.to_vec()),
        Err(e) => return Err(format!("--sample: {e}")),
    };
    Ok(froms
        .iter()
        .flat_map(|f| Target::ALL.into_iter().map(move |t| (*f, t)))
        .filter(|(f, t)| f != t)
        .collect())
}

/// `generations.json`: `{"generated_by", "pairs"}`, each pair's fields pretty-printed and each
/// of its rows on one line (the 182 pairs have about 40 000 rows; one line each keeps the
/// file a few megabytes and its diffs one line per changed row).
fn data_text(command: &str, pairs: &[Value]) -> String {
    use std::fmt::Write;
    let line = |v: &Value| serde_json::to_string(v).unwrap_or_default();
    let mut s = format!(
        "{{\n  \"generated_by\": {},\n  \"pairs\": [\n",
        json!(command)
    );
    for (i, p) in pairs.iter().enumerate() {
        s.push_str("    {\n");
        if let Some(o) = p.as_object() {
            for (k, v) in o.iter().filter(|(k, _)| *k != "rows") {
                let _ = writeln!(s, "      {}: {},", json!(k), line(v));
            }
        }
        s.push_str("      \"rows\": [\n");
        let rows = p["rows"].as_array().map(Vec::as_slice).unwrap_or(&[]);
        for (j, r) in rows.iter().enumerate() {
            let comma = if j + 1 < rows.len() { "," } else { "" };
            let _ = writeln!(s, "        {}{comma}", line(r));
        }
        let comma = if i + 1 < pairs.len() { "," } else { "" };
        let _ = writeln!(s, "      ]\n    }}{comma}");
    }
    s.push_str("  ]\n}\n");
    s
}

/// The command line that regenerates the data files (its options that change them).
fn generated_by(args: &EquivArgs, by: By) -> String {
    let mut c = format!("gcnsmt equiv --all --by {}", by.name());
    if let Some(f) = args.family {
        c.push_str(&format!(
            " --family {}",
            format!("{f:?}").to_ascii_lowercase()
        ));
    }
    if let Some(op) = &args.op {
        c.push_str(&format!(" --op {op}"));
    }
    if let Some(s) = &args.sample {
        c.push_str(&format!(" --sample {s}"));
    }
    if let Some(p) = &args.pairs {
        c.push_str(&format!(" --pairs {p}"));
    }
    c.push_str(&format!(" --timeout {}", args.timeout));
    c
}

/// The summary table: one line per ordered pair with the count of each status.
fn markdown(tables: &[(Target, Target, Vec<Row>)], command: &str) -> String {
    use std::fmt::Write;
    let mut s = format!(
        "# DS and buffer opcodes across generations\n\n\
         Generated by `{command}` (do not edit; `verifier/tests/equiv.rs` \
         regenerates and compares it). For each ordered pair of targets, how many DS and \
         MUBUF/VBUFFER opcodes of the first are provably the same as their counterpart on the \
         second (same mnemonic, or a name of the same semantics entry), differ (a replayed \
         counterexample), take other operands, have no counterpart, or are not modelled. \
         Every row assumes: {FORM}; each side's default settings; the V# fields the two \
         layouts do not map (listed per pair, and per buffer row, in \
         [generations.json](generations.json); see [cross-target.md](cross-target.md)). \
         `by identity` counts the `same` rows whose two sides lift to the very same terms \
         (no solver query; [cli.md](cli.md#gcnsmt-equiv)).\n\n\
         | from | to | same | by identity | differ | operands_differ | no_counterpart | unsupported | unknown |\n\
         |---|---|---|---|---|---|---|---|---|\n"
    );
    for (f, t, rows) in tables {
        let mut c: Vec<String> = counts(rows).iter().map(|(_, k)| k.to_string()).collect();
        let ident = (rows.iter())
            .filter(|r| r.status == Status::Same(crate::xtarget::Proof::Identity))
            .count();
        c.insert(1, ident.to_string());
        let _ = writeln!(s, "| {f} | {t} | {} |", c.join(" | "));
    }
    s
}
