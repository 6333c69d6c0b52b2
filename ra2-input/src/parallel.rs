//! Every core: files are linted on a pool of threads, each into its own fork of the run's
//! linter, and the forks are absorbed in input order, so the report is byte for byte the one a
//! single thread produces (same order, same cross-document findings). ra2-core stays free of
//! threads; only this input layer has them.

use rayon::prelude::*;

use ra2_core::Linter;

use crate as input;
use crate::{Input, Kept, Progress, ReadProblem, Watch};

/// What reading one input gave.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Its text, when the caller keeps it (standard input keeps what it read even when
    /// reading failed part way).
    pub text: Option<String>,
    /// Why it could not be read (whole or in part).
    pub problem: Option<ReadProblem>,
}

/// The default `--jobs`: the cores available to this process.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// Lints `inputs` in order into `linter` on `jobs` threads. `on` sees each input's outcome in
/// input order (the text only when `keep_text`) and returns false to stop. Standard input is
/// streamed on the calling thread, between the files around it; a linter with object hooks
/// (strict mode) or `jobs` of 1 reads everything on the calling thread.
pub fn lint_inputs(
    inputs: &[Input],
    linter: &mut Linter<'_>,
    jobs: usize,
    keep_text: bool,
    on: impl FnMut(&Input, Outcome) -> bool,
) {
    lint_inputs_with(inputs, linter, jobs, keep_text, on, None);
}

/// [`lint_inputs`], calling `progress` with the linter after each file is read into it and
/// after each document or List item of standard input (with the text kept so far, when
/// `keep_text`): where a caller takes settled results as it goes. A caller that drops kept
/// text gets no `text` in that input's [`Outcome`].
pub fn lint_inputs_with(
    inputs: &[Input],
    linter: &mut Linter<'_>,
    jobs: usize,
    keep_text: bool,
    mut on: impl FnMut(&Input, Outcome) -> bool,
    mut progress: Option<Progress<'_>>,
) {
    let pool = (jobs > 1 && linter.can_fork())
        .then(|| rayon::ThreadPoolBuilder::new().num_threads(jobs).build().ok())
        .flatten();
    let Some(pool) = pool else {
        for item in inputs {
            let outcome = lint_one(item, linter, keep_text, &mut progress);
            if !on(item, after_file(item, linter, outcome, &mut progress)) {
                return;
            }
        }
        return;
    };
    let mut rest = inputs;
    while let Some(first) = rest.first() {
        if is_streamed(first) {
            let outcome = lint_one(first, linter, keep_text, &mut progress);
            if !on(first, after_file(first, linter, outcome, &mut progress)) {
                return;
            }
            rest = rest.get(1..).unwrap_or_default();
            continue;
        }
        let run = rest.iter().position(is_streamed).unwrap_or(rest.len());
        let (files, after) = rest.split_at(run);
        // Forks are made here, where the linter is, and travel to the pool.
        let forks: Vec<Linter<'_>> = files.iter().map(|_| linter.fork()).collect();
        let results: Vec<(Outcome, Linter<'_>)> = pool.install(|| {
            files
                .par_iter()
                .zip(forks)
                .map(|(item, mut fork)| (lint_one(item, &mut fork, keep_text, &mut None), fork))
                .collect()
        });
        for (item, (outcome, fork)) in files.iter().zip(results) {
            linter.absorb(fork);
            if !on(item, after_file(item, linter, outcome, &mut progress)) {
                return;
            }
        }
        rest = after;
    }
}

/// Calls `progress` once a file is read into `linter` (standard input calls it as it goes).
fn after_file(
    item: &Input,
    linter: &mut Linter<'_>,
    mut outcome: Outcome,
    progress: &mut Option<Progress<'_>>,
) -> Outcome {
    let Some(progress) = progress.as_mut() else {
        return outcome;
    };
    if *item == Input::Stdin {
        return outcome;
    }
    match outcome.text.take() {
        Some(text) => {
            let mut kept = Kept {
                name: item.name().to_owned(),
                text,
                offset: 0,
                line: 0,
            };
            progress(linter, Some(&mut kept));
            outcome.text = (kept.offset == 0).then_some(kept.text);
        }
        None => progress(linter, None),
    }
    outcome
}

/// Files larger than this are read as a stream, like standard input, on the calling thread:
/// memory then holds one document (or List item) of them, and results can be taken as they go.
const STREAM_FILES_OVER: u64 = 16 << 20;

/// Is `item` read on the calling thread, as a stream (standard input, a large file)?
fn is_streamed(item: &Input) -> bool {
    match item {
        Input::Stdin => true,
        Input::File { path, .. } => std::fs::metadata(path).is_ok_and(|m| m.len() > STREAM_FILES_OVER),
    }
}

fn lint_one(item: &Input, linter: &mut Linter<'_>, keep_text: bool, progress: &mut Option<Progress<'_>>) -> Outcome {
    let (name, skip) = match item {
        Input::Stdin => (input::STDIN_NAME, None),
        Input::File {
            path,
            name,
            skip_non_k8s,
        } => {
            if !is_streamed(item) {
                return lint_whole(path, name, *skip_non_k8s, linter, keep_text);
            }
            match std::fs::File::open(path) {
                // UTF-16 is refused for the whole file, as when it is read whole.
                Ok(file) if !starts_utf16(&file) => (name.as_str(), Some(*skip_non_k8s)),
                _ => return lint_whole(path, name, *skip_non_k8s, linter, keep_text),
            }
        }
    };
    let mut kept = Kept::default();
    let problem = {
        let mut watch = Watch {
            keep: keep_text.then_some(&mut kept),
            progress: progress.as_mut().map(|p| &mut **p as Progress<'_>),
        };
        if let (Input::File { path, .. }, Some(skip)) = (item, skip) {
            match std::fs::File::open(path) {
                Ok(file) => {
                    let mut reader = std::io::BufReader::new(file);
                    input::lint_stream_skipping(&mut reader, name, linter, skip, &mut watch).err()
                }
                Err(e) => Some(ReadProblem::io(name, &e)),
            }
        } else {
            let mut stdin = std::io::stdin().lock();
            input::lint_stream_with(&mut stdin, name, linter, &mut watch).err()
        }
    };
    Outcome {
        // Text a caller dropped part of is no longer the input's.
        text: (keep_text && kept.offset == 0).then_some(kept.text),
        problem,
    }
}

/// Does the file start with a UTF-16 byte order mark?
fn starts_utf16(file: &std::fs::File) -> bool {
    let mut start = [0_u8; 2];
    std::io::Read::read_exact(&mut &*file, &mut start).is_ok() && matches!(start, [0xFF, 0xFE] | [0xFE, 0xFF])
}

/// Reads a file whole and lints it.
fn lint_whole(
    path: &std::path::Path,
    name: &str,
    skip_non_k8s: bool,
    linter: &mut Linter<'_>,
    keep_text: bool,
) -> Outcome {
    match input::read_file(path, name) {
        Ok(bytes) => {
            linter.add_file_bytes_with(name, &bytes, skip_non_k8s);
            // Formats without snippets drop each file once linted.
            Outcome {
                text: keep_text.then(|| ra2_core::source::same_length_lossy(&bytes)),
                problem: None,
            }
        }
        Err(problem) => Outcome {
            text: None,
            problem: Some(problem),
        },
    }
}
