//! Lints the whole shared corpus (~8,400 real manifests) as one run: nothing panics, every
//! document that is valid YAML is read, and the per-rule finding counts are snapshotted
//! together with one sampled finding per check and the source line it points at, so a
//! reviewer can check positions by eye.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use ra2_core::{Config, Linter};

#[test]
fn corpus_lints_cleanly_with_stable_counts() {
    let Some(files) = ra2_tests::corpus_files() else {
        eprintln!("skipping: ../shared/corpus is not beside the checkout");
        return;
    };
    let texts: BTreeMap<&str, &str> = files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let mut out = String::new();
    for edition in ra2_core::Edition::ALL {
        let config = Config {
            edition,
            ..Config::default()
        };
        let mut linter = Linter::new(&config);
        for (name, text) in &files {
            linter.add_file(name, text);
        }
        let report = linter.finish();
        let errors: Vec<String> = report
            .errors
            .iter()
            .map(|e| format!("{}:{}:{}: {}", e.file, e.line, e.column, e.message))
            .collect();
        assert!(
            errors.is_empty(),
            "corpus documents are valid YAML, yet:\n{}",
            errors.join("\n")
        );
        // The conformance summary for a CI job stays within GitHub's 1 MiB step-summary limit
        // even when asked to list every finding (it cuts the list, with a note).
        let matrix = ra2_report::conformance::matrix(&report, &config);
        let options = ra2_report::markdown::Options {
            max_findings: usize::MAX,
            ..ra2_report::markdown::Options::new()
        };
        let markdown = ra2_report::markdown::render(&report, &matrix, &options);
        assert!(markdown.len() <= 1024 * 1024, "{} bytes of markdown", markdown.len());
        assert!(
            markdown.len() < 20 * 1024 || markdown.contains("step-summary limit"),
            "a long summary says it was cut"
        );
        let mut counts: BTreeMap<(String, String), usize> = BTreeMap::new();
        let mut samples: BTreeMap<(String, String), &ra2_core::Finding> = BTreeMap::new();
        for f in &report.findings {
            let key = (f.rule.clone(), f.check.clone());
            *counts.entry(key.clone()).or_default() += 1;
            samples.entry(key).or_insert(f);
        }
        let s = &report.summary;
        let _ = writeln!(
            out,
            "edition {}: {} files, {} documents, {} objects, {} errors, findings {} error / {} warning / {} info",
            edition.as_str(),
            s.files,
            s.documents,
            s.objects,
            s.errors,
            s.findings.error,
            s.findings.warning,
            s.findings.info
        );
        for ((rule, check), n) in &counts {
            let _ = writeln!(out, "  {rule}/{check}: {n}");
        }
        if edition == ra2_core::Edition::Base {
            let _ = writeln!(
                out,
                "samples (first finding of each check, with the line it points at):"
            );
            for ((rule, check), f) in &samples {
                let line = texts
                    .get(f.file.as_str())
                    .and_then(|t| t.lines().nth(f.line - 1))
                    .unwrap_or("")
                    .trim_end();
                let _ = writeln!(
                    out,
                    "  {rule}/{check} {}:{}:{} {}\n    | {line}",
                    f.file, f.line, f.column, f.message
                );
                // The column must land inside the line.
                assert!(
                    f.column <= line.chars().count() + 1,
                    "{}:{}:{} is past the end of the line",
                    f.file,
                    f.line,
                    f.column
                );
            }
        }
    }
    insta::assert_snapshot!("corpus_counts", out);
}

/// The shared corpus and `tests/fixtures/repos` (Helm, kustomize, compose and CI files beside
/// manifests) walked as `ra2 lint` walks them: no error for a file that is not a Kubernetes
/// manifest, and every such file or document counted as skipped.
#[test]
fn a_mixed_tree_gives_no_error_for_files_that_are_not_manifests() {
    let Some(corpus) = ra2_tests::corpus_dir() else {
        eprintln!("skipping: ../shared/corpus is not beside the checkout");
        return;
    };
    let repos = ra2_tests::root().join("tests").join("fixtures").join("repos");
    let (inputs, problems, skipped) = ra2_input::discover(&[corpus, repos], ra2_input::Discovery::default());
    assert!(problems.is_empty(), "{problems:?}");
    let config = Config::default();
    let mut linter = Linter::new(&config);
    for file in &skipped {
        linter.record_skipped(file.reason);
    }
    for input in &inputs {
        let ra2_input::Input::File {
            path,
            name,
            skip_non_k8s,
        } = input
        else {
            panic!("no standard input here");
        };
        assert!(skip_non_k8s, "walked files are judged leniently");
        let bytes = ra2_input::read_file(path, name).expect("readable");
        linter.add_file_bytes_with(name, &bytes, *skip_non_k8s);
    }
    let report = linter.finish();
    assert_eq!(report.errors, [], "no errors in a mixed tree");
    // The corpus holds rendered manifests only; the fixtures hold 14 files and documents that
    // are not (a chart's templated configuration file among them).
    assert_eq!(report.summary.skipped, 14, "{:?}", report.summary.skipped_by_reason);
    assert!(
        report
            .objects
            .iter()
            .any(|o| o.file.ends_with("kustomize/base/deployment.yaml"))
    );
}
