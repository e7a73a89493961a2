//! The shape the developers' guide and issue 14 ask of the product code, kept by a test so
//! it cannot drift: every source file of `semantics/`, `lifter/`, `verifier/` and `testkit/`
//! under 800 lines, every function under 150, and no import circle between the top-level
//! modules of one crate (a module's `crate::x` paths, doc comments left out, are its edges).
//!
//! Functions are found as rustfmt lays them out: a line `[pub[(..)]] [const] fn name(...`
//! whose body ends at the first later line that is the same indentation followed by `}`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const CRATES: [&str; 4] = ["semantics", "lifter", "verifier", "testkit"];
const MAX_FILE_LINES: usize = 800;
const MAX_FN_LINES: usize = 150;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("read a source directory") {
        let p = e.expect("directory entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `(name, first line, length)` of every function with a body in `text`.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim_start();
        let indent = &l[..l.len() - t.len()];
        let t = t.strip_prefix("pub ").unwrap_or(t);
        let t = match t.strip_prefix("pub(") {
            Some(r) => r.split_once(") ").map_or(t, |(_, r)| r),
            None => t,
        };
        let t = t.strip_prefix("const ").unwrap_or(t);
        let Some(rest) = t.strip_prefix("fn ") else {
            continue;
        };
        if l.trim_end().ends_with(';') {
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let close = format!("{indent}}}");
        if let Some(end) = (i + 1..lines.len()).find(|&j| lines[j] == close) {
            out.push((name, i + 1, end - i + 1));
        }
    }
    out
}

/// The top-level modules of a crate's `src/` named by `crate::` paths in `text`, comments
/// left out (`crate::a::b`, and each item of `use crate::{a, b::c}`).
fn crate_paths(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(k) = rest.find("crate::") {
            rest = &rest[k + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                // Items at depth 0 of the group, up to its closing brace (one line suffices:
                // rustfmt puts a group's items on their own lines only inside the braces).
                let mut depth = 0;
                let mut item = String::new();
                for c in group.chars() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            out.insert(first_ident(&item));
                            item.clear();
                            continue;
                        }
                        _ => {}
                    }
                    item.push(c);
                }
                out.insert(first_ident(&item));
            } else {
                out.insert(first_ident(rest));
            }
        }
    }
    out.remove("");
    out
}

fn first_ident(s: &str) -> String {
    s.trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// Circles in the directed graph `edges` (one per strongly connected set of two or more).
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(n) = todo.pop() {
            for m in edges.get(&n).into_iter().flatten() {
                if seen.insert(m.clone()) {
                    todo.push(m.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        edges.keys().map(|k| (k, reach(k))).collect();
    let mut out: Vec<BTreeSet<String>> = Vec::new();
    for (a, ra) in &reaches {
        if !ra.contains(*a) {
            continue;
        }
        let set: BTreeSet<String> = ra
            .iter()
            .filter(|b| reaches.get(b).is_some_and(|rb| rb.contains(*a)))
            .cloned()
            .collect();
        if !out.contains(&set) {
            out.push(set);
        }
    }
    out
}

#[test]
fn files_functions_and_imports_keep_their_limits() {
    let mut problems = Vec::new();
    for krate in CRATES {
        let src = root().join(krate).join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        files.sort();
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for f in &files {
            let text = std::fs::read_to_string(f).expect("read a source file");
            let rel = f.strip_prefix(root()).unwrap_or(f).display().to_string();
            let n = text.lines().count();
            if n > MAX_FILE_LINES {
                problems.push(format!("{rel}: {n} lines (limit {MAX_FILE_LINES})"));
            }
            for (name, line, len) in functions(&text) {
                if len > MAX_FN_LINES {
                    problems.push(format!("{rel}:{line}: fn {name} is {len} lines"));
                }
            }
            let inner = f.strip_prefix(&src).expect("under src");
            let top = inner
                .components()
                .next()
                .and_then(|c| c.as_os_str().to_str())
                .unwrap_or("")
                .trim_end_matches(".rs")
                .to_string();
            if top == "lib" || top == "main" {
                continue;
            }
            let modules: Vec<String> = crate_paths(&text)
                .into_iter()
                .filter(|m| {
                    *m != top && (src.join(format!("{m}.rs")).exists() || src.join(m).is_dir())
                })
                .collect();
            edges.entry(top).or_default().extend(modules);
        }
        for c in circles(&edges) {
            problems.push(format!("{krate}: import circle among {c:?}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_scanners_see_what_they_should() {
    let text =
        "fn a() {\n    x;\n}\n    pub(crate) fn b(\n        y: u8,\n    ) {\n    }\nfn c();\n";
    assert_eq!(
        functions(text),
        vec![("a".to_string(), 1, 3), ("b".to_string(), 4, 4)]
    );
    let paths = crate_paths("use crate::{a::X, b};\n// crate::c\nlet v = crate::d::f();\n");
    assert_eq!(paths, ["a", "b", "d"].map(String::from).into());
    let edges: BTreeMap<String, BTreeSet<String>> =
        [("a", vec!["b"]), ("b", vec!["a", "c"]), ("c", vec![])]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
            .collect();
    assert_eq!(circles(&edges), vec![["a", "b"].map(String::from).into()]);
}
