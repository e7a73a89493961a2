//! The console examples of the Markdown documentation, and comparing one with what the binary
//! prints, so that no example in `README.md` or `docs/*.md` goes stale.
//!
//! A console example is a fenced block whose first line is a command after `$ `: either
//! `$ gcnsmt ARGS` or `$ cargo run --release -- ARGS`. The lines after it, up to the next `$ `
//! line or the end of the block, are what the command prints on standard output. A line that is
//! `...` alone (indentation allowed) stands for any number of lines, the empty run included;
//! every other line must equal the output's line, trailing blanks ignored, after both went
//! through [`crate::redact::redact`] (times). An example whose block has no `...` as its last
//! line must show the output to its end.

use std::path::Path;

/// One `$ command` of a Markdown file with the output the document shows for it.
#[derive(Debug, Clone)]
pub struct Example {
    /// The file, as given to [`examples`] (relative to the workspace root).
    pub file: String,
    /// 1-based line of the `$ ` command in `file`.
    pub line: usize,
    /// The command as written after `$ `.
    pub command: String,
    /// The arguments after `gcnsmt` (shell-split, quotes removed).
    pub args: Vec<String>,
    /// The output lines the document shows, each with its 1-based line in `file`.
    pub output: Vec<(usize, String)>,
}

/// The prefixes that name the `gcnsmt` binary in a doc command.
const PROGRAMS: &[&str] = &["gcnsmt ", "cargo run --release -- "];

/// Every console example of the Markdown file `rel` (a path below the workspace root).
///
/// Panics, naming the file and line, on a `$ ` command that runs something other than
/// `gcnsmt` or that cannot be split into words, and on an unclosed fence: a doc example this
/// checker cannot run must fail the test rather than go unchecked.
pub fn examples(rel: &str) -> Vec<Example> {
    let path = crate::workspace_path(rel);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    examples_in(rel, &text)
}

/// [`examples`] of the Markdown `text`, named `file` in messages.
pub fn examples_in(file: &str, text: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut fence: Option<(usize, bool)> = None; // (line it opened, is a console block)
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        if raw.trim_start().starts_with("```") {
            fence = match fence {
                None => Some((n, false)),
                Some(_) => None,
            };
            continue;
        }
        let Some((open, console)) = fence.as_mut() else {
            continue;
        };
        if *open + 1 == n {
            *console = raw.starts_with("$ ");
        }
        if !*console {
            continue;
        }
        if let Some(cmd) = raw.strip_prefix("$ ") {
            out.push(parse_command(file, n, cmd));
        } else if let Some(ex) = out.last_mut() {
            ex.output.push((n, raw.trim_end().to_string()));
        }
    }
    if let Some((open, _)) = fence {
        panic!("{file}:{open}: a code fence that is never closed");
    }
    out
}

fn parse_command(file: &str, line: usize, cmd: &str) -> Example {
    let rest = PROGRAMS
        .iter()
        .find_map(|p| cmd.strip_prefix(p))
        .unwrap_or_else(|| {
            panic!("{file}:{line}: a console example must run `gcnsmt` or `cargo run --release --`, not `{cmd}`")
        });
    let args = shlex::split(rest)
        .unwrap_or_else(|| panic!("{file}:{line}: cannot split `{cmd}` into words"));
    Example {
        file: file.to_string(),
        line,
        command: cmd.to_string(),
        args,
        output: Vec::new(),
    }
}

fn is_elision(line: &str) -> bool {
    line.trim() == "..."
}

impl Example {
    /// `Ok` when `actual` (the command's standard output) matches the document's lines;
    /// otherwise a message naming the file and line of the first doc line that differs, what
    /// the document shows and what the binary printed there, then a unified diff of the two.
    pub fn compare(&self, actual: &str) -> Result<(), String> {
        let got: Vec<String> = crate::redact::redact(actual)
            .lines()
            .map(|l| l.trim_end().to_string())
            .collect();
        let doc: Vec<(usize, String)> = self
            .output
            .iter()
            .map(|(n, l)| (*n, crate::redact::redact(l)))
            .collect();
        match first_difference(&doc, &got) {
            None => Ok(()),
            Some((doc_line, shown, printed)) => {
                Err(self.message(doc_line, &shown, &printed, &doc, &got))
            }
        }
    }

    fn message(
        &self,
        doc_line: usize,
        shown: &str,
        printed: &str,
        doc: &[(usize, String)],
        got: &[String],
    ) -> String {
        let doc_text: String = doc.iter().map(|(_, l)| format!("{l}\n")).collect();
        let got_text: String = got.iter().map(|l| format!("{l}\n")).collect();
        let diff = similar::TextDiff::from_lines(&doc_text, &got_text)
            .unified_diff()
            .context_radius(3)
            .header(
                &format!("{}:{} (the document)", self.file, self.line),
                "what gcnsmt prints (times redacted)",
            )
            .to_string();
        format!(
            "{}:{}: the example of `{}` differs from what the binary prints\n  \
             the document shows: {shown}\n  gcnsmt prints:      {printed}\n{diff}",
            self.file, doc_line, self.command
        )
    }
}

/// Match `doc` (with `...` lines) against `got`: `None` when it matches, else the doc line
/// number of the first difference (the closing fence's line when output is missing), the doc
/// text there and the output's text there.
fn first_difference(doc: &[(usize, String)], got: &[String]) -> Option<(usize, String, String)> {
    // Segments of literal lines between elisions. Each must match a run of `got`; the first
    // is anchored at the start unless an elision precedes it, the last at the end unless one
    // follows. Leftmost matching of the middle ones is enough: a later position can only
    // leave less room for the segments after it.
    let mut segs: Vec<Vec<(usize, String)>> = vec![Vec::new()];
    for (n, l) in doc {
        if is_elision(l) {
            segs.push(Vec::new());
        } else {
            segs.last_mut().expect("one segment").push((*n, l.clone()));
        }
    }
    let last = segs.len() - 1;
    let end_line = doc.last().map_or(0, |(n, _)| n + 1);
    let mut pos = 0;
    for (i, seg) in segs.iter().enumerate() {
        let fits = |q: usize| q + seg.len() <= got.len() && matched(seg, &got[q..]) == seg.len();
        let anchor = if i == last && last > 0 {
            // After an elision, the last segment ends where the output ends.
            Some(got.len().saturating_sub(seg.len()).max(pos))
        } else if i == 0 {
            Some(0)
        } else {
            None
        };
        let at = match anchor {
            Some(q) if fits(q) => q,
            Some(q) => return Some(difference(seg, got, q, end_line)),
            None => match (pos..=got.len()).find(|&q| fits(q)) {
                Some(q) => q,
                None => {
                    let best = (pos..=got.len())
                        .max_by_key(|&q| (matched(seg, &got[q.min(got.len())..]), usize::MAX - q))
                        .unwrap_or(pos);
                    return Some(difference(seg, got, best, end_line));
                }
            },
        };
        pos = at + seg.len();
    }
    // Without a closing elision (or with none at all), nothing may follow.
    if segs.len() == 1 && pos < got.len() {
        return Some((end_line, "(end of the example)".into(), got[pos].clone()));
    }
    None
}

/// How many leading lines of `seg` equal the lines of `got`.
fn matched(seg: &[(usize, String)], got: &[String]) -> usize {
    seg.iter()
        .zip(got)
        .take_while(|((_, d), g)| d == *g)
        .count()
}

fn difference(
    seg: &[(usize, String)],
    got: &[String],
    at: usize,
    end_line: usize,
) -> (usize, String, String) {
    let k = matched(seg, got.get(at..).unwrap_or(&[]));
    let printed = got
        .get(at + k)
        .cloned()
        .unwrap_or_else(|| "(nothing more)".into());
    match seg.get(k) {
        Some((n, l)) => (*n, l.clone(), printed),
        None => (end_line, "(end of the example)".into(), printed),
    }
}

/// The Markdown files whose console examples are checked: `README.md` and `docs/*.md`, as
/// paths relative to the workspace root, sorted.
pub fn markdown_files() -> Vec<String> {
    let mut files = vec!["README.md".to_string()];
    let docs = crate::workspace_path("docs");
    let mut more: Vec<String> = std::fs::read_dir(&docs)
        .unwrap_or_else(|e| panic!("read {}: {e}", docs.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| format!("docs/{}", file_name(&p)))
        .collect();
    more.sort();
    files.extend(more);
    files
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .expect("a file in docs/")
        .to_string_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "\
Some text.

```text
$ gcnsmt verify x.rules --filter 'a b'
first  12ms
...
last
$ cargo run --release -- encode --target gfx900 'ds_nop'
ds_nop
```

```sh
gcnsmt verify not-a-console-block
```
";

    #[test]
    fn finds_commands_and_their_lines() {
        let ex = examples_in("page.md", PAGE);
        assert_eq!(ex.len(), 2);
        assert_eq!(ex[0].line, 4);
        assert_eq!(ex[0].args, ["verify", "x.rules", "--filter", "a b"]);
        assert_eq!(ex[0].output.len(), 3);
        assert_eq!(ex[0].output[2], (7, "last".to_string()));
        assert_eq!(ex[1].args, ["encode", "--target", "gfx900", "ds_nop"]);
    }

    #[test]
    fn elision_and_times_match() {
        let ex = &examples_in("page.md", PAGE)[0];
        assert_eq!(ex.compare("first  3s\nlast\n"), Ok(()));
        assert_eq!(ex.compare("first  1ms\na\nb\nlast\n"), Ok(()));
    }

    #[test]
    fn a_changed_line_names_file_and_line() {
        let ex = &examples_in("page.md", PAGE)[0];
        let e = ex.compare("first  1ms\nlost\n").unwrap_err();
        assert!(e.starts_with("page.md:7: "), "{e}");
        assert!(e.contains("the document shows: last"), "{e}");
        let e = ex.compare("second  1ms\nlast\n").unwrap_err();
        assert!(e.starts_with("page.md:5: "), "{e}");
        assert!(
            e.contains("-first  [TIME]") && e.contains("+second  [TIME]"),
            "{e}"
        );
    }

    #[test]
    fn without_elision_the_whole_output_is_shown() {
        let ex = &examples_in("page.md", PAGE)[1];
        assert_eq!(ex.compare("ds_nop\n"), Ok(()));
        let e = ex.compare("ds_nop\nmore\n").unwrap_err();
        assert!(e.starts_with("page.md:10: "), "{e}");
        assert!(e.contains("gcnsmt prints:      more"), "{e}");
        assert!(ex.compare("").unwrap_err().starts_with("page.md:9: "));
    }

    #[test]
    fn middle_segments_are_found_anywhere() {
        let page = "```\n$ gcnsmt x\na\n...\nc\n...\ne\n```\n";
        let ex = &examples_in("p.md", page)[0];
        assert_eq!(ex.compare("a\nb\nc\nd\ne\n"), Ok(()));
        assert_eq!(ex.compare("a\nc\ne\n"), Ok(()));
        let e = ex.compare("a\nb\nd\ne\n").unwrap_err();
        assert!(e.starts_with("p.md:5: "), "{e}");
        // `e` must be the last line: the example does not end with `...`.
        assert!(ex
            .compare("a\nc\ne\nf\n")
            .unwrap_err()
            .starts_with("p.md:7: "));
    }

    #[test]
    #[should_panic(expected = "page.md:2: a console example must run `gcnsmt`")]
    fn another_program_is_refused() {
        examples_in("page.md", "```\n$ ls -l\n```\n");
    }
}
