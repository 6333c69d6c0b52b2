//! ra2's input layer, shared by the `ra2` command and Python: finding the manifests to lint and
//! reading them (paths and directories in a deterministic order, whole files as UTF-8, standard
//! input streamed one document at a time), looking up `.ra2.yaml` ([`config`]), and linting
//! files on every core ([`parallel`]).

pub mod config;
pub mod parallel;

use std::io::BufRead;
use std::path::{Path, PathBuf};

use ra2_core::Linter;
use ra2_core::lint::{Feed, FeedWatch};

/// The name standard input has in reports.
pub const STDIN_NAME: &str = "<stdin>";

/// One thing to lint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Stdin,
    /// A file, and the name it has in reports (the path as the user wrote it).
    File {
        path: PathBuf,
        name: String,
        /// Skip documents that are not Kubernetes objects (found by walking a directory, or
        /// `--skip-non-k8s`): see `ra2_core::manifest`.
        skip_non_k8s: bool,
    },
}

impl Input {
    pub fn name(&self) -> &str {
        match self {
            Input::Stdin => STDIN_NAME,
            Input::File { name, .. } => name,
        }
    }
}

/// Input that could not be read, with where (1-based) when that is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadProblem {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
    /// `ra2::input::not-found`, `ra2::input::io`, `ra2::input::utf8`.
    pub code: &'static str,
    /// The operating system's error number, for I/O failures (the Python face raises the
    /// matching `OSError` subclass from it).
    pub errno: Option<i32>,
}

impl ReadProblem {
    fn io(file: &str, error: &std::io::Error) -> Self {
        let code = if error.kind() == std::io::ErrorKind::NotFound {
            "ra2::input::not-found"
        } else {
            "ra2::input::io"
        };
        ReadProblem {
            file: file.to_owned(),
            line: 1,
            column: 1,
            message: format!("cannot read: {}", io_reason(error)),
            code,
            errno: error.raw_os_error(),
        }
    }

    pub fn into_lint_error(self) -> ra2_core::LintError {
        ra2_core::LintError {
            file: self.file,
            line: self.line,
            column: self.column,
            document: 0,
            message: self.message,
            code: self.code.to_owned(),
            offset: 0,
        }
    }
}

impl std::fmt::Display for ReadProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file, self.line, self.column, self.message)
    }
}

/// `No such file or directory`, without the `(os error 2)` noise.
fn io_reason(error: &std::io::Error) -> String {
    let text = error.to_string();
    match text.find(" (os error") {
        Some(i) => text.get(..i).unwrap_or(&text).to_owned(),
        None => text,
    }
}

/// Does a directory walk pick up this file?
fn is_manifest_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [".yaml", ".yml", ".json"].iter().any(|ext| lower.ends_with(ext))
}

/// How a path is shown in reports: as written, without a leading `./`.
fn display_name(path: &Path) -> String {
    let text = path.to_string_lossy();
    let mut text: &str = &text;
    while let Some(rest) = text.strip_prefix("./") {
        text = rest;
    }
    text.to_owned()
}

/// A file not linted because its name says it is not a Kubernetes manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub name: String,
    pub reason: &'static str,
}

/// How paths are expanded into inputs ([`discover`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Discovery {
    /// Judge files named explicitly as a walk judges the files it finds: skip those whose
    /// name or documents say they are not Kubernetes manifests (`--skip-non-k8s`).
    pub skip_non_k8s: bool,
    /// Leave out of directory walks what `.gitignore` (inside a git repository), `.ignore`,
    /// `.git/info/exclude` and git's global excludes file leave out, as ripgrep does
    /// (`--no-ignore` turns it off). Files named explicitly are linted whatever they say.
    pub respect_ignore_files: bool,
}

impl Default for Discovery {
    fn default() -> Self {
        Discovery {
            skip_non_k8s: false,
            respect_ignore_files: true,
        }
    }
}

/// Expands the command line's paths into inputs. Files named explicitly are linted whatever
/// their extension; directories are walked recursively (sorted by name; hidden entries,
/// symlinked directories and, unless turned off, what ignore files exclude are skipped: see
/// [`Discovery`]). No path means the current directory. Files a walk finds whose name says
/// they are not Kubernetes manifests (`kustomization.yaml`, `Chart.yaml`, `values*.yaml`,
/// docker-compose files, CI configs: `ra2_core::manifest::file_skip_reason`) are skipped and
/// returned as such, and the other files found are read with `skip_non_k8s` on; with
/// `skip_non_k8s`, files named explicitly are judged the same way.
pub fn discover(paths: &[PathBuf], how: Discovery) -> (Vec<Input>, Vec<ReadProblem>, Vec<Skipped>) {
    let mut inputs = Vec::new();
    let (problems, skipped) = discover_each(paths, how, &mut |input| inputs.push(input));
    (inputs, problems, skipped)
}

/// [`discover`], handing each input to `found` as the walk finds it (in the same order, once
/// each).
pub fn discover_each(
    paths: &[PathBuf],
    how: Discovery,
    found: &mut dyn FnMut(Input),
) -> (Vec<ReadProblem>, Vec<Skipped>) {
    let default = [PathBuf::from(".")];
    let paths = if paths.is_empty() { &default[..] } else { paths };
    let mut problems = Vec::new();
    let mut skipped = Vec::new();
    // A file named twice (or found twice) is linted once, where it is first named.
    let mut seen = std::collections::BTreeSet::new();
    let mut found = |input: Input| {
        if seen.insert(input.name().to_owned()) {
            found(input);
        }
    };
    for path in paths {
        if path.as_os_str() == "-" {
            found(Input::Stdin);
            continue;
        }
        let name = display_name(path);
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => walk(path, how, &mut found, &mut problems, &mut skipped),
            Ok(_) => match ra2_core::manifest::file_skip_reason(&name).filter(|_| how.skip_non_k8s) {
                Some(reason) => skipped.push(Skipped { name, reason }),
                None => found(Input::File {
                    path: path.clone(),
                    name,
                    skip_non_k8s: how.skip_non_k8s,
                }),
            },
            Err(e) => problems.push(ReadProblem::io(&name, &e)),
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    skipped.retain(|s| seen.insert(s.name.clone()));
    (problems, skipped)
}

/// Walks `dir` depth first, each directory's entries in name order, with ripgrep's walker
/// (the `ignore` crate): hidden entries skipped, symlinked directories not followed (so a link
/// cycle cannot loop), and ignore files honoured as [`Discovery`] says.
fn walk(
    dir: &Path,
    how: Discovery,
    found: &mut dyn FnMut(Input),
    problems: &mut Vec<ReadProblem>,
    skipped: &mut Vec<Skipped>,
) {
    let walker = ignore::WalkBuilder::new(dir)
        .standard_filters(how.respect_ignore_files)
        .hidden(true)
        .follow_links(false)
        .sort_by_file_name(std::ffi::OsStr::cmp)
        .build();
    // The files that kustomizations seen so far read as patches and sources (lexical paths).
    let mut kustomize_inputs = std::collections::HashSet::new();
    for entry in walker {
        let entry = match entry {
            Ok(entry) => entry,
            Err(error) => {
                // A directory that cannot be read; a malformed pattern in an ignore file is
                // the ignore file's problem, not the manifests', and is left to git to report.
                if let Some((path, io)) = walk_io_error(&error, dir) {
                    problems.push(ReadProblem::io(&display_name(&path), io));
                }
                continue;
            }
        };
        let Some(file_type) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if file_type.is_dir() {
            note_kustomize_inputs(path, &mut kustomize_inputs);
            continue;
        }
        let is_file = if file_type.is_symlink() {
            std::fs::metadata(path).is_ok_and(|m| m.is_file())
        } else {
            file_type.is_file()
        };
        let file_name = entry.file_name().to_string_lossy();
        if is_file && is_manifest_name(&file_name) {
            let name = display_name(path);
            let kustomize_input =
                (!kustomize_inputs.is_empty() && kustomize_inputs.contains(&lexical(path))).then_some(KUSTOMIZE_INPUT);
            match kustomize_input.or_else(|| ra2_core::manifest::file_skip_reason(&file_name)) {
                Some(reason) => skipped.push(Skipped { name, reason }),
                None => found(Input::File {
                    path: path.to_path_buf(),
                    name,
                    skip_non_k8s: true,
                }),
            }
        }
    }
}

/// Why a walk skips a file that a kustomization reads as a patch or a source.
const KUSTOMIZE_INPUT: &str = ra2_core::manifest::KUSTOMIZE;

/// Adds the files that the kustomization of `dir`, if it has one, reads other than as
/// resources ([`ra2_core::manifest::kustomization_inputs`]): a strategic-merge patch is part of
/// an object, and linted alone it would be judged for all it leaves out. Only files the walk
/// finds after `dir` (below it, or in directories after it) are skipped.
fn note_kustomize_inputs(dir: &Path, inputs: &mut std::collections::HashSet<PathBuf>) {
    for name in ra2_core::manifest::KUSTOMIZATION_FILES {
        if let Ok(text) = std::fs::read_to_string(dir.join(name)) {
            inputs.extend(
                ra2_core::manifest::kustomization_inputs(&text)
                    .into_iter()
                    .map(|file| lexical(&dir.join(file))),
            );
            return;
        }
    }
}

/// `path` with `.` and `..` components resolved as text (no file system look-up), so that
/// `overlay/../base/patch.yaml` and `base/patch.yaml` compare equal.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir
                if matches!(out.components().next_back(), Some(std::path::Component::Normal(_))) =>
            {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The path and I/O error of a walk error that is one (`dir` when the error names no path).
fn walk_io_error<'e>(error: &'e ignore::Error, dir: &Path) -> Option<(PathBuf, &'e std::io::Error)> {
    match error {
        ignore::Error::WithPath { path, err } => walk_io_error(err, path),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => walk_io_error(err, dir),
        ignore::Error::Io(io) => Some((dir.to_path_buf(), io)),
        _ => None,
    }
}

/// Where the first invalid byte of `bytes` (which start at 0-based line `first_line` of the
/// file) is, and a reason for the user.
pub fn utf8_problem(file: &str, bytes: &[u8], valid_up_to: usize, first_line: usize) -> ReadProblem {
    let valid = bytes.get(..valid_up_to).unwrap_or_default();
    let line = first_line + ra2_core::source::count_line_breaks(valid) + 1;
    let line_start = valid
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
        .map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(valid.get(line_start..).unwrap_or_default())
        .chars()
        .count()
        + 1;
    let message = if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        "file is UTF-16, not UTF-8; convert it (for example with iconv -f UTF-16 -t UTF-8)".to_owned()
    } else {
        let byte = bytes.get(valid_up_to).copied().unwrap_or_default();
        format!("not UTF-8: invalid byte 0x{byte:02X} at line {line}, column {column}")
    };
    ReadProblem {
        file: file.to_owned(),
        line,
        column,
        message,
        code: "ra2::input::utf8",
        errno: None,
    }
}

/// Reads a whole file. It is decoded document by document
/// ([`ra2_core::Linter::add_file_bytes`]), so invalid UTF-8 fails only its document.
pub fn read_file(path: &Path, name: &str) -> Result<Vec<u8>, ReadProblem> {
    std::fs::read(path).map_err(|e| ReadProblem::io(name, &e))
}

/// Lints a stream, feeding the linter one `---` section at a time as each completes, so
/// memory holds one document (plus `keep`, when the caller wants the text for snippets).
/// A `kind: List` section is fed item by item as each item completes ([`ra2_core::list`]), so
/// memory holds one item of it. A section that is not UTF-8 fails alone, as in a whole file;
/// on a read error, what came before has been linted and the rest is skipped.
pub fn lint_stream(
    reader: &mut dyn BufRead,
    name: &str,
    linter: &mut Linter<'_>,
    keep: Option<&mut String>,
) -> Result<(), ReadProblem> {
    let mut kept = Kept::default();
    let result = {
        let mut watch = Watch {
            keep: keep.is_some().then_some(&mut kept),
            progress: None,
        };
        lint_stream_with(reader, name, linter, &mut watch)
    };
    if let Some(keep) = keep {
        *keep = kept.text;
    }
    result
}

/// The text of an input kept for snippets: from absolute byte `offset`, 0-based line `line`,
/// on (a caller that takes results as it goes drops what it no longer needs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kept {
    /// The input's name in reports.
    pub name: String,
    pub text: String,
    pub offset: usize,
    pub line: usize,
}

impl Kept {
    /// Drops the text before its last `lines` lines.
    pub fn keep_last_lines(&mut self, lines: usize) {
        let bytes = self.text.as_bytes();
        let mut cut = bytes.len();
        let mut seen = 0;
        while cut > 0 {
            if bytes.get(cut - 1) == Some(&b'\n') {
                seen += 1;
                if seen > lines {
                    break;
                }
            }
            cut -= 1;
        }
        if cut == 0 {
            return;
        }
        let dropped = bytes.get(..cut).unwrap_or_default();
        self.line += ra2_core::source::count_line_breaks(dropped);
        self.offset += cut;
        self.text.drain(..cut);
    }
}

/// Called after each document or List item is handed to the linter, with the text kept so
/// far: where a caller takes settled results as it goes ([`Linter::take_settled`]).
pub type Progress<'p> = &'p mut dyn FnMut(&mut Linter<'_>, Option<&mut Kept>);

/// What a stream gives its caller as it reads.
#[derive(Default)]
pub struct Watch<'k, 'p> {
    /// Keeps the text read.
    pub keep: Option<&'k mut Kept>,
    pub progress: Option<Progress<'p>>,
}

impl FeedWatch for Watch<'_, '_> {
    fn keeps_text(&self) -> bool {
        self.keep.is_some()
    }

    fn text(&mut self, text: &str) {
        if let Some(keep) = self.keep.as_deref_mut() {
            keep.text.push_str(text);
        }
    }

    fn progress(&mut self, linter: &mut Linter<'_>) {
        if let Some(progress) = self.progress.as_mut() {
            progress(linter, self.keep.as_deref_mut());
        }
    }
}

/// [`lint_stream`], keeping the text in `watch.keep` and calling `watch.progress` after each
/// document or List item.
pub fn lint_stream_with(
    reader: &mut dyn BufRead,
    name: &str,
    linter: &mut Linter<'_>,
    watch: &mut Watch<'_, '_>,
) -> Result<(), ReadProblem> {
    let skip = linter.skips_non_k8s();
    lint_stream_skipping(reader, name, linter, skip, watch)
}

/// [`lint_stream_with`] for a file read as a stream: with `skip_non_k8s`, documents that are
/// not Kubernetes objects are skipped (see [`Linter::add_file_with`]).
pub fn lint_stream_skipping(
    reader: &mut dyn BufRead,
    name: &str,
    linter: &mut Linter<'_>,
    skip_non_k8s: bool,
    watch: &mut Watch<'_, '_>,
) -> Result<(), ReadProblem> {
    if let Some(keep) = watch.keep.as_deref_mut() {
        name.clone_into(&mut keep.name);
    }
    let mut feed = Feed::new(linter, name, skip_non_k8s);
    let mut line: Vec<u8> = Vec::new();
    loop {
        line.clear();
        let n = reader
            .read_until(b'\n', &mut line)
            .map_err(|e| ReadProblem::io(name, &e))?;
        if n == 0 {
            break;
        }
        feed.line(linter, &line, watch);
    }
    feed.end(linter, watch);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_drop_leading_dot_slash() {
        assert_eq!(display_name(Path::new("./a/b.yaml")), "a/b.yaml");
        assert_eq!(display_name(Path::new("a/b.yaml")), "a/b.yaml");
        assert_eq!(display_name(Path::new("/x/b.yaml")), "/x/b.yaml");
    }

    #[test]
    fn manifest_extensions() {
        assert!(is_manifest_name("a.yaml") && is_manifest_name("a.YML") && is_manifest_name("a.json"));
        assert!(!is_manifest_name("a.txt") && !is_manifest_name("yaml"));
    }

    /// The names a walk of `dir` finds (relative to it), and those it skips for their names.
    fn walked(dir: &Path, how: Discovery) -> (Vec<String>, Vec<String>) {
        let relative = |name: &str| {
            Path::new(name)
                .strip_prefix(dir)
                .map_or_else(|_| name.to_owned(), |p| p.to_string_lossy().into_owned())
        };
        let (inputs, problems, skipped) = discover(&[dir.to_path_buf()], how);
        assert!(problems.is_empty(), "{problems:?}");
        (
            inputs.iter().map(|i| relative(i.name())).collect(),
            skipped.iter().map(|s| relative(&s.name)).collect(),
        )
    }

    #[test]
    fn walks_honour_ignore_files_in_name_order() {
        let dir = std::env::temp_dir().join(format!("ra2-walk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["b", "a/deep", "rendered", ".hidden"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        for file in [
            "z.yaml",
            "b/pod.yml",
            "a/deep/x.json",
            "a/pod.yaml",
            "rendered/out.yaml",
            "scratch.yaml",
            ".hidden/h.yaml",
            "notes.txt",
            "Chart.yaml",
        ] {
            std::fs::write(dir.join(file), "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n").unwrap();
        }
        // `.ignore` applies anywhere; `.gitignore` only inside a git repository (as in ripgrep).
        std::fs::write(dir.join(".ignore"), "scratch.yaml\n").unwrap();
        std::fs::write(dir.join(".gitignore"), "rendered/\n").unwrap();
        let on = Discovery::default();
        let off = Discovery {
            respect_ignore_files: false,
            ..on
        };
        let everything = vec![
            "a/deep/x.json",
            "a/pod.yaml",
            "b/pod.yml",
            "rendered/out.yaml",
            "scratch.yaml",
            "z.yaml",
        ];
        let (found, skipped) = walked(&dir, on);
        assert_eq!(
            found,
            [
                "a/deep/x.json",
                "a/pod.yaml",
                "b/pod.yml",
                "rendered/out.yaml",
                "z.yaml"
            ]
        );
        assert_eq!(skipped, ["Chart.yaml"]);
        std::fs::create_dir(dir.join(".git")).unwrap();
        assert_eq!(
            walked(&dir, on).0,
            ["a/deep/x.json", "a/pod.yaml", "b/pod.yml", "z.yaml"]
        );
        assert_eq!(walked(&dir, off).0, everything);
        // What a kustomization reads as a patch or a source is kustomize input, not an object;
        // its resources are objects.
        std::fs::write(
            dir.join("a/kustomization.yaml"),
            "resources: [pod.yaml]\npatches: [{path: ../b/./pod.yml}]\nconfigMapGenerator: [{name: c, files: [deep/x.json]}]\n",
        )
        .unwrap();
        let (found, skipped) = walked(&dir, on);
        assert_eq!(found, ["a/pod.yaml", "z.yaml"]);
        assert_eq!(
            skipped,
            ["Chart.yaml", "a/deep/x.json", "a/kustomization.yaml", "b/pod.yml"]
        );
        // A file named explicitly is linted whatever the ignore files say.
        let (inputs, _, _) = discover(&[dir.join("scratch.yaml")], on);
        assert_eq!(inputs.len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn utf8_problem_positions() {
        let p = utf8_problem("f", b"ab\ncd\xffe", 5, 0);
        assert_eq!((p.line, p.column), (2, 3));
        assert!(p.message.contains("0xFF"), "{}", p.message);
    }

    fn stream_report(text: &[u8]) -> (ra2_core::Report, Result<(), ReadProblem>, String) {
        let config = ra2_core::Config::default();
        let mut linter = Linter::new(&config);
        let mut keep = String::new();
        let result = lint_stream(&mut &text[..], STDIN_NAME, &mut linter, Some(&mut keep));
        (linter.finish(), result, keep)
    }

    #[test]
    fn streaming_matches_whole_file_linting() {
        let text = "\u{feff}# Source: x\napiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  volumes: [{name: h, hostPath: {path: /x}}]\n  containers: [{name: c, image: r/c:1}]\n---\r\n: bad: [\n--- \napiVersion: v1\nkind: Pod\nmetadata: {name: b}\nspec:\n  volumes: [{name: h, hostPath: {path: /y}}]\n  containers: [{name: c, image: r/c:1}]\n";
        let (streamed, result, keep) = stream_report(text.as_bytes());
        assert!(result.is_ok());
        assert_eq!(keep, text);
        let whole = ra2_core::lint_str(STDIN_NAME, text, &ra2_core::Config::default());
        assert_eq!(streamed, whole);
        assert_eq!(streamed.errors.len(), 1);
    }

    #[test]
    fn streaming_reports_invalid_utf8_at_its_line_and_goes_on() {
        let text = b"a: 1\n---\nb: 2\nc: \xff\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  volumes: [{name: h, hostPath: {path: /y}}]\n  containers: [{name: c, image: r/c:1}]\n";
        let (report, result, keep) = stream_report(text);
        assert!(result.is_ok());
        let errors: Vec<_> = report
            .errors
            .iter()
            .map(|e| (e.line, e.column, e.document, e.code.as_str()))
            .collect();
        // `a: 1` is no object; the bad bytes fail the second document only.
        assert_eq!(
            errors,
            [(1, 1, 0, "ra2::object::missing-field"), (4, 4, 1, "ra2::input::utf8")]
        );
        assert!(
            report.errors[1].message.contains("line 4,"),
            "{}",
            report.errors[1].message
        );
        assert_eq!(report.summary.documents, 3);
        assert!(
            report
                .findings
                .iter()
                .any(|f| f.rule == "ra2.app.007" && f.document == 2)
        );
        assert_eq!(keep.len(), text.len());
        let whole = {
            let config = ra2_core::Config::default();
            let mut linter = Linter::new(&config);
            linter.add_file_bytes(STDIN_NAME, text);
            linter.finish()
        };
        assert_eq!(report, whole);
    }

    #[test]
    fn empty_stream_is_one_empty_file() {
        let (report, result, _) = stream_report(b"");
        assert!(result.is_ok());
        assert_eq!((report.summary.files, report.summary.documents), (1, 0));
    }
}
