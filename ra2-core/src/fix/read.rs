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
/// copy of a linter costs far less than reading this much again.
const MARK_EVERY: usize = 64 * 1024;

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
    let every = MARK_EVERY.max(body.len() / MARKS);
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
