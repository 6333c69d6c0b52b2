//! How [`super::fix_text`] lints the texts it tries: anew each time, as [`crate::lint_str`]
//! does, or chunk by chunk (`---` sections), each read by a linter of its own. A text a fix
//! makes differs from the kept one only in the documents it edits: each chunk of the same text
//! as one of the kept text (the same one of as many, else one of the same leading or trailing
//! chunks) takes what reading that left, moved to where the chunk is now ([`Linter::move_by`]:
//! documents, lines and byte offsets); only the others are read. Chunks are independent: what
//! crosses them (cross-document facts, the previous object for duplicate keys, object indices)
//! is what [`Linter::absorb`] joins for forks, which put together in order read as one linter.
//! The linter put together from the text kept last is what a run can take in
//! ([`crate::Linter::absorb`]) instead of reading the fixed file again.

use std::rc::Rc;

use crate::lint::{FileState, KeptDoc, Seed};
use crate::model::bundle::Shift;
use crate::parse::source::{Chunk, chunks, strip_bom};
use crate::{Config, Linter, Report};

/// Where a chunk is in its text: byte offset, 0-based line, index of its first document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct At {
    offset: usize,
    line: usize,
    document: usize,
}

impl At {
    /// From `self` (where a chunk was read) to `to`.
    fn to(self, to: At) -> Shift {
        let signed = |n: usize| isize::try_from(n).unwrap_or(isize::MAX);
        let diff = |to: usize, from: usize| signed(to).saturating_sub(signed(from));
        Shift {
            objects: 0,
            documents: diff(to.document, self.document),
            lines: diff(to.line, self.line),
            bytes: diff(to.offset, self.offset),
        }
    }
}

/// A chunk read by a linter of its own.
struct Segment<'c> {
    linter: Linter<'c>,
    /// Where the chunk was when it was read.
    at: At,
    /// The documents it holds.
    documents: usize,
}

/// What reading one text left: where its chunks are, and each one's reading and where it is.
pub(crate) struct Read<'c> {
    /// Each chunk's byte range in the text.
    chunks: Vec<(usize, usize)>,
    segments: Vec<(Rc<Segment<'c>>, At)>,
    /// Whether the text is JSON (its first chunk decides).
    json: Option<bool>,
    /// Documents skipped as not Kubernetes.
    skipped: usize,
}

/// The documents reading a text parsed, by chunk, for planning fixes on them (see
/// [`super::edit::prepare`]): those of the chunks read anew whose linter holds a fix, each with
/// whether it was read as JSON and its limits.
pub(crate) type Docs<'t> = Vec<Option<KeptDoc<'t>>>;

/// How texts are linted.
pub(crate) enum Lints<'s, 'c> {
    /// Each anew, as [`crate::lint_str`] lints it.
    Anew { file: &'s str, config: &'c Config },
    /// Chunk by chunk, reusing what reading the text kept last left (`None` before the first
    /// text).
    Resume {
        seed: &'s Seed<'c>,
        file: &'s str,
        config: &'c Config,
        skip_non_k8s: bool,
        kept: Option<Box<Read<'c>>>,
    },
}

impl<'c> Lints<'_, 'c> {
    /// Lints `text`, which a fix made of `kept` (the text kept last; ignored before the first):
    /// its report, as [`crate::lint_str`] gives it, and what reading it left, to
    /// [`Lints::keep`] if the text is kept, and the documents it parsed.
    pub(crate) fn lint<'t>(&mut self, text: &'t str, kept_text: &str) -> (Report, Option<Read<'c>>, Docs<'t>) {
        let done = self
            .resumed(text, kept_text)
            .and_then(|(read, docs)| Some((self.join(&read)?, read, docs)));
        match done {
            Some((linter, read, docs)) => (linter.finish(), Some(read), docs),
            None => self.anew(text),
        }
    }

    /// Lints the text to fix, before any fix, and keeps what reading it left: its report (as
    /// [`Lints::lint`] gives it) and the documents it parsed; `None` for the report when no
    /// chunk read may carry a fix ([`Linter::holds_fix`]): then nothing is to be fixed, and
    /// the report is left for the run to make.
    pub(crate) fn lint_first<'t>(&mut self, text: &'t str) -> (Option<Report>, Docs<'t>) {
        if let Some((read, docs)) = self.resumed(text, "") {
            let report = if read.segments.iter().any(|(segment, _)| segment.linter.holds_fix()) {
                self.join(&read).map(|linter| Some(linter.finish()))
            } else {
                Some(None)
            };
            if let Some(report) = report {
                self.keep(Some(read));
                return (report, docs);
            }
        }
        let (report, read, docs) = self.anew(text);
        self.keep(read);
        (Some(report), docs)
    }

    /// `text` read chunk by chunk, taking from what reading the kept text (`kept_text`) left;
    /// `None` when texts are linted anew, or when skipping documents as not Kubernetes (which
    /// files found in a directory do, and `lint_str` with this config does not) changed the
    /// report: then the text is linted anew, and the run reads the file again.
    fn resumed<'t>(&self, text: &'t str, kept_text: &str) -> Option<(Read<'c>, Docs<'t>)> {
        let Lints::Resume {
            seed,
            file,
            config,
            skip_non_k8s,
            kept,
        } = self
        else {
            return None;
        };
        let (read, docs) = read(seed, file, *skip_non_k8s, text, kept.as_deref().map(|k| (k, kept_text)));
        (*skip_non_k8s == config.skip_non_k8s || read.skipped == 0).then_some((read, docs))
    }

    /// The linter of the file whose chunks `read` read (see [`join`]); `None` when texts are
    /// linted anew or a linter could not be copied.
    fn join(&self, read: &Read<'c>) -> Option<Linter<'c>> {
        match self {
            Lints::Resume { seed, file, .. } => join(seed, file, read),
            Lints::Anew { .. } => None,
        }
    }

    /// From now on, each text anew (what was kept is dropped).
    fn anew<'t>(&mut self, text: &str) -> (Report, Option<Read<'c>>, Docs<'t>) {
        let (file, config) = match self {
            Lints::Anew { file, config } | Lints::Resume { file, config, .. } => (*file, *config),
        };
        *self = Lints::Anew { file, config };
        (crate::lint_str(file, text, config), None, Vec::new())
    }

    /// The text `read` read is the one kept now.
    pub(crate) fn keep(&mut self, read: Option<Read<'c>>) {
        if let Lints::Resume { kept, .. } = self {
            *kept = read.map(Box::new);
        }
    }

    /// The linter that read the text kept last (none when texts were linted anew).
    pub(crate) fn into_linter(self) -> Option<Linter<'c>> {
        match self {
            Lints::Anew { .. } => None,
            Lints::Resume { seed, file, kept, .. } => join_owned(seed, file, *kept?),
        }
    }
}

/// For each chunk of `parts`, the chunk of the kept text (`kept`, read from `kept_text`) with
/// the same text that stands for it: the one at the same index when there are as many, else one
/// of the same leading or trailing chunks.
fn pair(parts: &[Chunk<'_>], kept: &Read<'_>, kept_text: &str) -> Vec<Option<usize>> {
    let same = |i: usize, j: usize| {
        let kept = kept.chunks.get(j).and_then(|&(start, end)| kept_text.get(start..end));
        parts.get(i).is_some_and(|c| kept == Some(c.text))
    };
    let (n, m) = (parts.len(), kept.chunks.len());
    if n == m {
        return (0..n).map(|i| same(i, i).then_some(i)).collect();
    }
    let lead = (0..n.min(m)).take_while(|&i| same(i, i)).count();
    let trail = (1..=n.min(m) - lead).take_while(|&k| same(n - k, m - k)).count();
    (0..n)
        .map(|i| {
            if i < lead {
                Some(i)
            } else if i >= n - trail {
                Some(i + m - n)
            } else {
                None
            }
        })
        .collect()
}

/// Reads `text` as the file `name`, chunk by chunk, taking each chunk that `kept` (what reading
/// the text `kept_text` left) read with the same text from there; with the documents it parsed.
fn read<'c, 't>(
    seed: &Seed<'c>,
    name: &str,
    skip_non_k8s: bool,
    text: &'t str,
    kept: Option<(&Read<'c>, &str)>,
) -> (Read<'c>, Docs<'t>) {
    let (body, bom) = strip_bom(text);
    let parts = chunks(body, bom, 0);
    let mut file = FileState::new(name, skip_non_k8s);
    let json = parts.first().map(|c| Linter::file_is_json(&mut file, c.text));
    // A text that turned JSON (or YAML) is read anew.
    let kept = kept.filter(|(kept, _)| kept.json == json);
    let pairs = kept.map(|(kept, kept_text)| pair(&parts, kept, kept_text));
    let mut segments = Vec::with_capacity(parts.len());
    let mut docs: Docs<'t> = Vec::with_capacity(parts.len());
    let mut skipped = 0;
    for (i, chunk) in parts.iter().enumerate() {
        let at = At {
            offset: chunk.offset,
            line: chunk.line,
            document: file.next_document(),
        };
        let earlier = pairs
            .as_ref()
            .and_then(|pairs| pairs.get(i).copied().flatten())
            .and_then(|j| kept?.0.segments.get(j))
            .map(|(segment, _)| segment)
            // A read error's message may name a line ("started at line 3"): read again
            // where the lines moved.
            .filter(|segment| segment.at.line == at.line || segment.linter.read_errors() == 0);
        let segment = if let Some(segment) = earlier {
            file.set_next_document(at.document + segment.documents);
            docs.push(None);
            Rc::clone(segment)
        } else {
            let mut linter = seed.linter();
            let doc = linter.add_chunk_keeping(&mut file, *chunk);
            // Only a chunk with a fix to plan keeps its document (the memory a file's take).
            docs.push(doc.filter(|_| linter.holds_fix()));
            Rc::new(Segment {
                linter,
                at,
                documents: file.next_document() - at.document,
            })
        };
        skipped += segment.linter.skipped();
        segments.push((segment, at));
    }
    let read = Read {
        chunks: parts.iter().map(|c| (c.offset, c.offset + c.text.len())).collect(),
        segments,
        json,
        skipped,
    };
    (read, docs)
}

/// [`join`], taking each chunk's linter where nothing else holds it (the text kept last, once
/// fixing is done) instead of copying it.
fn join_owned<'c>(seed: &Seed<'c>, name: &str, read: Read<'c>) -> Option<Linter<'c>> {
    let mut linter = seed.linter();
    linter.begin_file(name);
    linter.reserve_for(&read.segments.iter().map(|(segment, _)| &segment.linter));
    for (segment, at) in read.segments {
        let (mut taken, from) = match Rc::try_unwrap(segment) {
            Ok(segment) => (segment.linter, segment.at),
            Err(shared) => (shared.linter.try_clone()?, shared.at),
        };
        taken.move_by(from.to(at));
        linter.absorb(taken);
    }
    Some(linter)
}

/// The linter of the file `name` whose chunks `read` read: each chunk's copied, moved to where
/// the chunk is and taken in, in order. `None` if a linter could not be copied.
fn join<'c>(seed: &Seed<'c>, name: &str, read: &Read<'c>) -> Option<Linter<'c>> {
    let mut linter = seed.linter();
    linter.begin_file(name);
    linter.reserve_for(&read.segments.iter().map(|(segment, _)| &segment.linter));
    for (segment, at) in &read.segments {
        let mut copy = segment.linter.try_clone()?;
        copy.move_by(segment.at.to(*at));
        linter.absorb(copy);
    }
    Some(linter)
}

#[cfg(test)]
mod tests {
    use crate::fix::{fix_text, fix_text_for_run};
    use crate::{Config, Linter};

    /// `docs` documents: a beta CronJob (whose fix moves it to batch/v1) where `fixable` says,
    /// else a ConfigMap.
    fn manifests(docs: usize, fixable: fn(usize) -> bool) -> String {
        (0..docs)
            .map(|i| {
                if fixable(i) {
                    format!(
                        "---\napiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: c{i}\nspec:\n  schedule: '* * * * *'\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers:\n          - name: c\n            image: r/c:1\n"
                    )
                } else {
                    format!("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m{i}\ndata:\n  k: v{i}\n")
                }
            })
            .collect()
    }

    /// Fixing for a run fixes and notes what fixing alone does, and hands over a linter that
    /// read the fixed text as the run reads it (reporting what fixing alone reports): fixes at
    /// the start, in the middle, at the end, throughout and nowhere, resuming from marks before
    /// them.
    #[test]
    fn fixing_for_a_run_fixes_and_reads_as_linting_anew() {
        let config = Config::default();
        let seed = Linter::new(&config).seed();
        let cases: [fn(usize) -> bool; 5] = [|i| i == 0, |i| i == 14, |i| i == 29, |i| i % 7 == 3, |_| false];
        for (case, fixable) in cases.into_iter().enumerate() {
            let text = manifests(30, fixable);
            for skip_non_k8s in [false, true] {
                let anew = fix_text("f.yaml", &text, &config, true);
                let (kept, linter) = fix_text_for_run(&seed, "f.yaml", &text, &config, skip_non_k8s, true);
                assert_eq!(kept.text, anew.text, "case {case}");
                assert_eq!(kept.applied, anew.applied, "case {case}");
                assert_eq!(kept.dropped, anew.dropped, "case {case}");
                assert_eq!(anew.text == text, case == 4, "case {case}: fixed or not");
                let mut run = Linter::new(&config);
                run.add_file_with("f.yaml", &kept.text, skip_non_k8s);
                let mut taken = Linter::new(&config);
                taken.absorb(linter.expect("a linter for the run"));
                let report = taken.finish();
                assert_eq!(report, run.finish(), "case {case}");
                if !skip_non_k8s {
                    assert_eq!(report, anew.report, "case {case}");
                }
            }
        }
    }

    /// A document that is not Kubernetes, which the run skips and fixing alone reports: fixed
    /// the same, and the run reads the file itself.
    #[test]
    fn a_file_the_run_skips_documents_of_is_read_by_the_run() {
        let config = Config::default();
        let seed = Linter::new(&config).seed();
        let text = format!("{}---\nnot: kubernetes\n", manifests(10, |i| i == 2));
        let anew = fix_text("f.yaml", &text, &config, true);
        let (kept, linter) = fix_text_for_run(&seed, "f.yaml", &text, &config, true, true);
        assert_ne!(anew.text, text);
        assert_eq!(kept.text, anew.text);
        assert_eq!(kept.applied, anew.applied);
        assert_eq!(kept.dropped, anew.dropped);
        assert!(linter.is_none());
        // Without skipping, the run reads it as fixing did.
        assert!(
            fix_text_for_run(&seed, "f.yaml", &text, &config, false, true)
                .1
                .is_some()
        );
    }
}

/// Reading a text a change made from what reading the text before it left (the chunks of the
/// same text taken from there and moved) gives what reading it anew gives: the report and the
/// linter a run takes in, with documents of every sort (cross-document facts, read errors whose
/// message names a line, duplicate keys in a document without an object, Lists, Helm output),
/// changes at the start, in the middle, at the end, of several documents, that add or remove
/// documents and change their length, in LF and CRLF texts, with and without a BOM.
#[cfg(test)]
mod moving {
    use proptest::prelude::*;

    use super::Lints;
    use crate::catalogue::Edition;
    use crate::{Config, Linter};

    /// Documents to build texts of, each ending in a line break.
    fn pool() -> Vec<String> {
        let mut docs: Vec<String> = [
            include_str!("../../../tests/fixtures/ra2.app.029.yaml"),
            include_str!("../../../tests/fixtures/ra2.app.006.yaml"),
            include_str!("../../../tests/fixtures/ra2.ntw.006.yaml"),
            include_str!("../../../examples/broken/cnf.yaml"),
        ]
        .iter()
        .flat_map(|text| crate::parse::source::chunks(text, 0, 0))
        .map(|chunk| {
            let body = chunk.text.strip_prefix("---\n").unwrap_or(chunk.text);
            let mut body = body.to_owned();
            if !body.ends_with('\n') {
                body.push('\n');
            }
            body
        })
        .filter(|body| !body.trim().is_empty())
        .collect();
        docs.extend(
            [
                // Read errors: the second names the line its mapping started at.
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: broken\n",
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bad\n  labels:\n    a: [1, 2\n",
                // Duplicate keys in a document without an object: reported on the one before.
                "a: 1\na: 2\n",
                "# only a comment\n",
                "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ServiceAccount\n  metadata: {name: default, namespace: x}\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: p, namespace: x}\n  spec:\n    containers:\n    - name: c\n      image: r/c:1\n",
                "# Source: chart/templates/sa.yaml\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa\n",
                "apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: c\nspec:\n  schedule: '* * * * *'\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          serviceAccountName: sa\n          containers:\n          - name: c\n            image: r/c:1\n",
                "not: kubernetes\n",
            ]
            .map(str::to_owned),
        );
        docs
    }

    fn text(pool: &[String], docs: &[usize], crlf: bool, bom: bool) -> String {
        let mut out = String::from(if bom { "\u{feff}" } else { "" });
        for (i, &d) in docs.iter().enumerate() {
            if i > 0 || d % 2 == 0 {
                out.push_str("---\n");
            }
            out.push_str(&pool[d % pool.len()]);
        }
        if crlf { out.replace('\n', "\r\n") } else { out }
    }

    fn check(before: &str, after: &str, skip_non_k8s: bool, edition: Edition) -> Result<(), TestCaseError> {
        let config = Config {
            edition,
            ..Config::default()
        };
        let seed = Linter::new(&config).seed();
        let mut lints = Lints::Resume {
            seed: &seed,
            file: "f.yaml",
            config: &config,
            skip_non_k8s,
            kept: None,
        };
        let (_, read, _) = lints.lint(before, "");
        lints.keep(read);
        let (report, read, _) = lints.lint(after, before);
        prop_assert_eq!(&report, &crate::lint_str("f.yaml", after, &config));
        lints.keep(read);
        if let Some(linter) = lints.into_linter() {
            let mut run = Linter::new(&config);
            run.add_file(
                "a.yaml",
                "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: first}\n",
            );
            run.add_file_with("f.yaml", after, skip_non_k8s);
            let mut taken = Linter::new(&config);
            taken.add_file(
                "a.yaml",
                "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: first}\n",
            );
            taken.absorb(linter);
            prop_assert_eq!(taken.finish(), run.finish());
        } else {
            prop_assert!(skip_non_k8s && !config.skip_non_k8s);
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 96 }))]
        #[test]
        fn reading_a_changed_text_from_the_kept_one_reads_as_anew(
            docs in prop::collection::vec(0usize..64, 1..10),
            changes in prop::collection::vec((0usize..16, 0usize..64, 0u8..4), 1..4),
            crlf: bool,
            bom: bool,
            skip_non_k8s: bool,
            latest: bool,
        ) {
            let pool = pool();
            let mut changed = docs.clone();
            for (at, doc, how) in changes {
                let at = at % (changed.len() + 1);
                match how {
                    // Another document in its place, at the start, in the middle, at the end.
                    0 => { let i = at.min(changed.len() - 1); changed[i] = doc; }
                    1 => { changed[0] = doc; }
                    2 => { let last = changed.len() - 1; changed[last] = doc; }
                    // One more, or one less.
                    _ if doc % 2 == 0 => changed.insert(at, doc),
                    _ if changed.len() > 1 => { changed.remove(at.min(changed.len() - 1)); }
                    _ => {}
                }
            }
            let edition = if latest { Edition::Latest } else { Edition::Base };
            check(&text(&pool, &docs, crlf, bom), &text(&pool, &changed, crlf, bom), skip_non_k8s, edition)?;
        }
    }

    /// Planning fixes on the documents linting parsed plans what reading them again plans, and
    /// linting hands over the documents of the chunks with fixes.
    #[test]
    fn fixes_planned_on_the_documents_read_are_planned_as_on_documents_read_again() {
        let pool = pool();
        let docs: Vec<usize> = (0..pool.len()).collect();
        for (edition, crlf, bom) in [(Edition::Latest, false, false), (Edition::Base, true, true)] {
            let config = Config {
                edition,
                ..Config::default()
            };
            let seed = Linter::new(&config).seed();
            let text = text(&pool, &docs, crlf, bom);
            let mut lints = Lints::Resume {
                seed: &seed,
                file: "f.yaml",
                config: &config,
                skip_non_k8s: false,
                kept: None,
            };
            let (report, _, read) = lints.lint(&text, "");
            let fixable: Vec<_> = report.findings.iter().filter(|f| f.fix.is_some()).cloned().collect();
            assert!(!fixable.is_empty());
            assert!(read.iter().any(Option::is_some), "documents kept");
            let again = crate::fix::edit::prepare(&text, &fixable, config.limits, true);
            let kept = crate::fix::edit::prepare_with(&text, &fixable, config.limits, true, &read);
            assert_eq!(format!("{kept:?}"), format!("{again:?}"));
        }
    }

    /// A document that grows in the middle of a file: the ones after it move down, lines and
    /// bytes, and their cross-document facts with them.
    #[test]
    fn documents_after_a_change_move() {
        let pool = pool();
        let docs: Vec<usize> = (0..pool.len()).collect();
        for at in [0, pool.len() / 2, pool.len() - 1] {
            for crlf in [false, true] {
                let mut changed = docs.clone();
                changed[at] = (at + 7) % pool.len();
                let before = text(&pool, &docs, crlf, false);
                let after = text(&pool, &changed, crlf, false);
                check(&before, &after, false, Edition::Latest).unwrap();
                check(&after, &before, true, Edition::Base).unwrap();
            }
        }
    }
}
