//! `--format json` on every core: the findings and objects of a large report are serialized in
//! batches, a part of each batch per thread, and written in order. The bytes are those of
//! [`Report::write_json`], which writes everything else (and small reports).

use std::io::Write;

use ra2_core::Report;
use ra2_core::report::{Finding, ObjectSummary, write_json_parts};
use serde::Serialize;

/// Findings or objects serialized at a time: a batch's text is held, not the whole report's.
const BATCH: usize = 4096;

/// Writes `report` as [`Report::write_json`] does, on `jobs` threads.
pub fn write(report: &Report, out: &mut impl Write, jobs: usize) -> std::io::Result<()> {
    if jobs < 2 || report.findings.len() + report.objects.len() < BATCH {
        return report.write_json(out).map_err(std::io::Error::from);
    }
    // The report with no findings and no objects: their two arrays are filled in where the
    // pretty printer left `[]`. A newline and two spaces start the report's own keys only:
    // strings escape their newlines.
    let mut skeleton = Vec::new();
    write_json_parts(
        &mut skeleton,
        &report.edition,
        &[] as &[Finding],
        &report.errors,
        &[] as &[ObjectSummary],
        &report.summary,
    )?;
    let (Some(findings), Some(objects)) = (
        array_start(&skeleton, b"\n  \"findings\": []"),
        array_start(&skeleton, b"\n  \"objects\": []"),
    ) else {
        return report.write_json(out).map_err(std::io::Error::from);
    };
    let (head, rest) = skeleton.split_at(findings);
    let (middle, tail) = rest.split_at(objects - findings);
    out.write_all(head)?;
    elements(out, &report.findings, jobs)?;
    out.write_all(middle)?;
    elements(out, &report.objects, jobs)?;
    out.write_all(tail)
}

/// Where the inside of the empty array `key` (a newline, two spaces, `"name": []`) is.
fn array_start(text: &[u8], key: &[u8]) -> Option<usize> {
    let at = text.windows(key.len()).position(|w| w == key)?;
    Some(at + key.len() - 1)
}

/// The elements of a top-level array, as the pretty printer writes them between `[` and `]`.
fn elements<T: Serialize + Sync>(out: &mut impl Write, items: &[T], jobs: usize) -> std::io::Result<()> {
    if items.is_empty() {
        return Ok(());
    }
    let mut first = true;
    for batch in items.chunks(BATCH) {
        let per_thread = batch.len().div_ceil(jobs).max(1);
        let parts = std::thread::scope(|scope| {
            let mut shares = batch.chunks(per_thread);
            let mine = shares.next().unwrap_or_default();
            let others: Vec<_> = shares.map(|share| scope.spawn(move || serialize(share))).collect();
            let mut parts = vec![serialize(mine)];
            for other in others {
                parts.push(other.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
            }
            parts
        });
        for part in parts {
            // Parts are separated as their elements are.
            if !first {
                out.write_all(b",")?;
            }
            first = false;
            out.write_all(&part?)?;
        }
    }
    out.write_all(b"\n  ")
}

/// `items` as elements of a top-level array of the report (each after a newline and four
/// spaces, separated by `,`): serde_json's pretty printer writes them so inside `[[...]]`,
/// between the 5 bytes that open the two arrays and the 6 that close them.
fn serialize<T: Serialize>(items: &[T]) -> std::io::Result<Vec<u8>> {
    let mut text = Vec::with_capacity(items.len() * 1024);
    serde_json::to_writer_pretty(&mut text, &[items])?;
    let inside = text.len().saturating_sub(OPEN.len() + CLOSE.len());
    if !(text.starts_with(OPEN) && text.ends_with(CLOSE)) {
        return Err(std::io::Error::other(
            "serde_json wrote an array of arrays unlike itself",
        ));
    }
    text.drain(..OPEN.len());
    text.truncate(inside);
    Ok(text)
}

/// How serde_json's pretty printer opens and closes a non-empty array inside an array.
const OPEN: &[u8] = b"[\n  [";
const CLOSE: &[u8] = b"\n  ]\n]";

#[cfg(test)]
mod tests {
    use super::*;

    /// A report of the shared corpus (every file), or of the fixtures when it is absent.
    fn corpus_report() -> Report {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let corpus = root.join("../shared/corpus");
        let dir = if corpus.is_dir() {
            corpus
        } else {
            root.join("tests/fixtures")
        };
        let (inputs, _, _) = ra2_input::discover(
            &[dir],
            ra2_input::Discovery {
                skip_non_k8s: true,
                respect_ignore_files: true,
            },
        );
        let config = ra2_core::Config::default();
        let mut linter = ra2_core::Linter::new(&config);
        ra2_input::parallel::lint_inputs(&inputs, &mut linter, 2, false, |_, _| true);
        linter.finish()
    }

    fn threaded(report: &Report, jobs: usize) -> Vec<u8> {
        let mut out = Vec::new();
        write(report, &mut out, jobs).unwrap();
        out
    }

    #[test]
    fn threads_write_the_same_bytes() {
        let mut report = corpus_report();
        // Without the corpus, the fixtures' findings and objects repeated past two batches, so
        // that the writer splits them as it does a large report's.
        if report.findings.len() + report.objects.len() <= 2 * BATCH {
            let times = 2 * BATCH / (report.findings.len() + report.objects.len()).max(1) + 1;
            report.findings = report
                .findings
                .iter()
                .cycle()
                .take(report.findings.len() * times)
                .cloned()
                .collect();
            report.objects = report
                .objects
                .iter()
                .cycle()
                .take(report.objects.len() * times)
                .cloned()
                .collect();
        }
        let mut one = Vec::new();
        report.write_json(&mut one).unwrap();
        assert!(
            report.findings.len() + report.objects.len() > BATCH,
            "too small to split"
        );
        for jobs in [2, 3, 8] {
            assert!(threaded(&report, jobs) == one, "--jobs {jobs} differs");
        }
        // An empty array beside a long one.
        report.objects = report.objects.iter().cycle().take(BATCH * 2 + 1).cloned().collect();
        report.findings.clear();
        let mut one = Vec::new();
        report.write_json(&mut one).unwrap();
        assert!(threaded(&report, 3) == one);
    }
}
