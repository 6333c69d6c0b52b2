//! How [`super::fix_text`] lints the texts it tries: anew each time, as [`crate::lint_str`]
//! does, or resuming from what reading the last text it kept left. A text a fix changes is the
//! same as the kept one up to the first document it edits: a linter that read the documents
//! before that (a [`Mark`]) is copied and reads on from there. The linter that read the text
//! kept last is what a run can take in ([`crate::Linter::absorb`]) instead of reading the
//! fixed file again.

use std::rc::Rc;

use crate::lint::{FileState, Seed};
use crate::parse::source::{chunks, strip_bom};
use crate::{Config, Linter, Report};

/// Marks are left at least this many bytes apart (and no more than [`MARKS`] in a text): a
/// copy of a linter costs far less than reading this much again. Tests leave them close, to
/// resume from them in small texts.
const MARK_EVERY: usize = if cfg!(test) { 64 } else { 16 * 1024 };

/// In a text a fix made (read again only if another fix follows: few are), marks are left
/// closer: only a file with several rounds of fixes reads from them.
const MARK_AGAIN_EVERY: usize = if cfg!(test) { 64 } else { 4 * 1024 };

/// At most about this many marks in a text: each copies what was read before it.
const MARKS: usize = 16;

/// A linter that read the chunks (`---` sections) of a text before chunk `chunk`.
struct Mark<'c> {
    chunk: usize,
    linter: Linter<'c>,
    file: FileState,
}

/// What reading one text left: where its chunks are, the marks on the way and the linter that
/// read it all.
pub(crate) struct Read<'c> {
    /// Each chunk's byte range in the text.
    chunks: Vec<(usize, usize)>,
    marks: Vec<Rc<Mark<'c>>>,
    linter: Linter<'c>,
}

/// How texts are linted.
pub(crate) enum Lints<'s, 'c> {
    /// Each anew, as [`crate::lint_str`] lints it.
    Anew { file: &'s str, config: &'c Config },
    /// Resuming from what reading the text kept last left (`None` before the first text).
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
    /// [`Lints::keep`] if the text is kept.
    pub(crate) fn lint(&mut self, text: &str, kept_text: &str) -> (Report, Option<Read<'c>>) {
        let read = match self {
            Lints::Anew { file, config } => return (crate::lint_str(file, text, config), None),
            Lints::Resume {
                seed,
                file,
                config,
                skip_non_k8s,
                kept,
            } => read(seed, file, *skip_non_k8s, text, kept.as_deref().map(|k| (k, kept_text)))
                // Skipping documents as not Kubernetes (which files found in a directory do,
                // and `lint_str` with this config does not) changed the report: linted anew
                // from now on, and the run reads the file again.
                .filter(|read| *skip_non_k8s == config.skip_non_k8s || read.linter.skipped() == 0),
        };
        match read.as_ref().and_then(|read| read.linter.try_clone()) {
            Some(copy) => (copy.finish(), read),
            None => self.anew(text),
        }
    }

    /// From now on, each text anew (what was kept is dropped).
    fn anew(&mut self, text: &str) -> (Report, Option<Read<'c>>) {
        let (file, config) = match self {
            Lints::Anew { file, config } | Lints::Resume { file, config, .. } => (*file, *config),
        };
        *self = Lints::Anew { file, config };
        (crate::lint_str(file, text, config), None)
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
            Lints::Resume { kept, .. } => kept.map(|k| k.linter),
        }
    }
}

/// Reads `text` as the file `name`, resuming from the last mark of `kept` (what reading the
/// text `kept_text` left) before the first chunk that differs. `None` if a linter could not be
/// copied.
fn read<'c>(
    seed: &Seed<'c>,
    name: &str,
    skip_non_k8s: bool,
    text: &str,
    kept: Option<(&Read<'c>, &str)>,
) -> Option<Read<'c>> {
    let (body, bom) = strip_bom(text);
    let parts = chunks(body, bom, 0);
    // The leading chunks that are the same, at the same place, as the kept text's.
    let same = kept.map_or(0, |(kept, kept_text)| {
        parts
            .iter()
            .zip(&kept.chunks)
            .take_while(|&(chunk, &(start, end))| {
                chunk.offset == start
                    && chunk.offset + chunk.text.len() == end
                    && kept_text.get(start..end) == Some(chunk.text)
            })
            .count()
    });
    let mark = kept.and_then(|(kept, _)| {
        let i = kept.marks.iter().rposition(|m| m.chunk <= same)?;
        Some((kept.marks.get(..=i)?, kept.marks.get(i)?))
    });
    let (mut linter, mut file, mut marks, from) = if let Some((before, mark)) = mark {
        (mark.linter.try_clone()?, mark.file.clone(), before.to_vec(), mark.chunk)
    } else {
        let mut linter = seed.linter();
        let mut file = linter.begin_file(name);
        file.set_skip_non_k8s(skip_non_k8s);
        (linter, file, Vec::new(), 0)
    };
    let every = if kept.is_some() { MARK_AGAIN_EVERY } else { MARK_EVERY }.max(body.len() / MARKS);
    let mut since = 0;
    for (i, chunk) in parts.iter().enumerate().skip(from) {
        if since >= every {
            marks.push(Rc::new(Mark {
                chunk: i,
                linter: linter.try_clone()?,
                file: file.clone(),
            }));
            since = 0;
        }
        linter.add_chunk(&mut file, *chunk);
        since += chunk.text.len();
    }
    Some(Read {
        chunks: parts.iter().map(|c| (c.offset, c.offset + c.text.len())).collect(),
        marks,
        linter,
    })
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

    /// Fixing for a run fixes, notes and reports what fixing alone does, and hands over a linter
    /// that read the fixed text as the run reads it: fixes at the start, in the middle, at the
    /// end, throughout and nowhere, resuming from marks before them.
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
                assert_eq!(kept.report, anew.report, "case {case}");
                assert_eq!(anew.text == text, case == 4, "case {case}: fixed or not");
                let mut run = Linter::new(&config);
                run.add_file_with("f.yaml", &kept.text, skip_non_k8s);
                let mut taken = Linter::new(&config);
                taken.absorb(linter.expect("a linter for the run"));
                assert_eq!(taken.finish(), run.finish(), "case {case}");
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
        assert_eq!(kept.report, anew.report);
        assert!(linter.is_none());
        // Without skipping, the run reads it as fixing did.
        assert!(
            fix_text_for_run(&seed, "f.yaml", &text, &config, false, true)
                .1
                .is_some()
        );
    }
}
