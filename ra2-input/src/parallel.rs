//! Every core: files are linted on a pool of threads, each into its own fork of the run's
//! linter, and the forks are absorbed in input order, so the report is byte for byte the one a
//! single thread produces (same order, same cross-document findings). ra2-core stays free of
//! threads; only this input layer has them.

use rayon::prelude::*;

use ra2_core::Linter;

use crate as input;
use crate::{Input, ReadProblem};

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
    mut on: impl FnMut(&Input, Outcome) -> bool,
) {
    let pool = (jobs > 1 && linter.can_fork())
        .then(|| rayon::ThreadPoolBuilder::new().num_threads(jobs).build().ok())
        .flatten();
    let Some(pool) = pool else {
        for item in inputs {
            if !on(item, lint_one(item, linter, keep_text)) {
                return;
            }
        }
        return;
    };
    let mut rest = inputs;
    while let Some(first) = rest.first() {
        if *first == Input::Stdin {
            if !on(first, lint_one(first, linter, keep_text)) {
                return;
            }
            rest = rest.get(1..).unwrap_or_default();
            continue;
        }
        let run = rest.iter().position(|i| *i == Input::Stdin).unwrap_or(rest.len());
        let (files, after) = rest.split_at(run);
        // Forks are made here, where the linter is, and travel to the pool.
        let forks: Vec<Linter<'_>> = files.iter().map(|_| linter.fork()).collect();
        let results: Vec<(Outcome, Linter<'_>)> = pool.install(|| {
            files
                .par_iter()
                .zip(forks)
                .map(|(item, mut fork)| (lint_one(item, &mut fork, keep_text), fork))
                .collect()
        });
        for (item, (outcome, fork)) in files.iter().zip(results) {
            linter.absorb(fork);
            if !on(item, outcome) {
                return;
            }
        }
        rest = after;
    }
}

fn lint_one(item: &Input, linter: &mut Linter<'_>, keep_text: bool) -> Outcome {
    match item {
        Input::Stdin => {
            let mut text = String::new();
            let keep = keep_text.then_some(&mut text);
            let mut stdin = std::io::stdin().lock();
            let problem = input::lint_stream(&mut stdin, input::STDIN_NAME, linter, keep).err();
            Outcome {
                text: keep_text.then_some(text),
                problem,
            }
        }
        Input::File {
            path,
            name,
            skip_non_k8s,
        } => match input::read_file(path, name) {
            Ok(bytes) => {
                linter.add_file_bytes_with(name, &bytes, *skip_non_k8s);
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
        },
    }
}
