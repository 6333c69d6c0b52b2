//! Streamed output (the README's "Large inputs"): past `--stream-after` held results, text,
//! GitHub and JSON Lines output print each document's findings as they settle. Forced from the
//! start here, a run prints the same findings and errors (in input order), the same summary
//! and exit status as when it holds everything, whatever the number of threads.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::process::Output;

mod support;

fn run(args: &[&str], stdin: &[u8]) -> Output {
    support::ra2_at_root(args, stdin)
}

/// A stream of pods, some with findings, one that cannot be read, one List.
fn stdin() -> Vec<u8> {
    let mut text = String::new();
    for i in 0..30 {
        let _ = write!(
            text,
            "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p{i}, namespace: ns{}}}\nspec:\n  hostNetwork: {}\n  containers: [{{name: a, image: r/a:1}}]\n",
            i % 3,
            i % 2 == 0
        );
        if i == 10 {
            text.push_str("---\nkind: [\n");
        }
    }
    text.push_str("---\napiVersion: v1\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: l0}, spec: {hostPID: true, containers: [{name: a, image: r/a:1}]}}\nkind: List\n");
    text.into_bytes()
}

fn args<'a>(format: &'a str, jobs: &'a str, stream_after: Option<&'a str>) -> Vec<&'a str> {
    let mut args = vec![
        "lint",
        "tests/fixtures",
        "-",
        "examples",
        "--no-config",
        "--format",
        format,
        "--jobs",
        jobs,
    ];
    if let Some(n) = stream_after {
        args.extend(["--stream-after", n]);
    }
    args
}

fn text(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Lines of `text` but the last, counted.
fn lines_but_last(text: &str) -> (BTreeMap<&str, usize>, &str) {
    let mut lines: Vec<&str> = text.lines().collect();
    let last = lines.pop().unwrap_or_default();
    let mut counts = BTreeMap::new();
    for line in lines {
        *counts.entry(line).or_default() += 1;
    }
    (counts, last)
}

#[test]
fn jsonl_and_github_stream_the_same_lines() {
    let input = stdin();
    for format in ["jsonl", "github"] {
        let held = run(&args(format, "1", None), &input);
        let streamed = run(&args(format, "1", Some("0")), &input);
        assert_eq!(streamed.status.code(), held.status.code(), "{format}");
        let (held_text, streamed_text) = (text(&held), text(&streamed));
        assert!(held_text.lines().count() > 100, "{format}");
        let (held_lines, held_summary) = lines_but_last(&held_text);
        let (streamed_lines, streamed_summary) = lines_but_last(&streamed_text);
        assert_eq!(streamed_summary, held_summary, "{format}: summary");
        assert_eq!(streamed_lines, held_lines, "{format}: the same lines");
        assert_ne!(
            streamed_text, held_text,
            "{format}: streamed in input order, not sorted"
        );
        // Streamed output does not depend on the number of threads either.
        let many = run(&args(format, "3", Some("0")), &input);
        assert!(many.stdout == streamed.stdout, "{format} --jobs 3: output differs");
    }
}

/// JSON, SARIF, JUnit and Code Climate keep what settles in a compact store and print it at the end: the
/// same bytes and exit status as a run that holds the whole report, whatever the number of
/// threads. (`examples` has Helm output, read once the output streams: its findings still
/// move to their chart's templates.)
#[test]
fn whole_report_formats_print_the_same_bytes_from_the_compact_store() {
    let input = stdin();
    for format in ["json", "sarif", "junit", "codeclimate"] {
        let held = run(&args(format, "1", None), &input);
        assert!(held.stdout.len() > 100_000, "{format}");
        for (jobs, stream_after) in [("1", "0"), ("3", "0"), ("2", "40")] {
            let streamed = run(&args(format, jobs, Some(stream_after)), &input);
            assert_eq!(streamed.status.code(), held.status.code(), "{format}");
            assert!(
                streamed.stdout == held.stdout,
                "{format} --jobs {jobs} --stream-after {stream_after}: output differs"
            );
        }
    }
}

#[test]
fn jsonl_streams_each_file_in_input_order() {
    let input = stdin();
    let streamed = text(&run(&args("jsonl", "2", Some("0")), &input));
    let mut files: Vec<String> = Vec::new();
    for line in streamed.lines() {
        let value: serde_json::Value = serde_json::from_str(line).expect("JSON");
        let Some(file) = value["file"].as_str() else { continue };
        if files.last().is_none_or(|f| f != file) {
            files.push(file.to_owned());
        }
    }
    // What other documents decide comes at the end, after every file: some files come again.
    let distinct: std::collections::BTreeSet<&String> = files.iter().collect();
    assert!(distinct.len() < files.len(), "cross-document findings come at the end");
    let stdin_at = files.iter().position(|f| f == "<stdin>").expect("stdin's findings");
    assert!(
        files[..stdin_at].iter().all(|f| f.starts_with("tests/fixtures/")),
        "{files:?}"
    );
    assert!(
        files[stdin_at + 1..].iter().any(|f| f.starts_with("examples/")),
        "{files:?}"
    );
}

#[test]
fn text_streams_every_finding_and_error() {
    let input = stdin();
    let json = run(&args("json", "1", None), &input);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON report");
    let held = run(&args("text", "1", None), &input);
    let streamed = run(&args("text", "1", Some("0")), &input);
    assert_eq!(streamed.status.code(), held.status.code());
    let (held_text, streamed_text) = (text(&held), text(&streamed));
    assert_eq!(held_text.lines().last(), streamed_text.lines().last(), "summary line");
    let mut shown = 0;
    for item in report["findings"]
        .as_array()
        .into_iter()
        .chain(report["errors"].as_array())
        .flatten()
    {
        let at = format!(
            "{}:{}:{}",
            item["file"].as_str().unwrap_or_default(),
            item["line"],
            item["column"]
        );
        assert!(streamed_text.contains(&at), "{at} is not in the streamed text");
        shown += 1;
    }
    assert!(shown > 100);
    // The stream's findings still have snippets.
    assert!(streamed_text.contains("hostNetwork: true"), "{streamed_text}");
}

/// With more than one job, streamed text is drawn on a thread of its own: the same bytes as
/// with one, whether the output streams from the start or once more than 64 KiB of text (which
/// that thread is not handed) have been read.
#[test]
fn streamed_text_is_the_same_whatever_the_threads() {
    let mut input = stdin();
    let one = input.clone();
    while input.len() < 200 << 10 {
        input.extend_from_slice(&one);
    }
    for stream_after in ["0", "300", "2000"] {
        let args = |jobs| {
            [
                "lint",
                "-",
                "--no-config",
                "--jobs",
                jobs,
                "--stream-after",
                stream_after,
            ]
        };
        let single = run(&args("1"), &input);
        let text_single = text(&single);
        assert!(text_single.contains("hostNetwork: true"), "{stream_after}");
        for jobs in ["2", "3"] {
            let threads = run(&args(jobs), &input);
            assert_eq!(
                threads.status.code(),
                single.status.code(),
                "--jobs {jobs} --stream-after {stream_after}"
            );
            assert!(
                threads.stdout == single.stdout,
                "--jobs {jobs} --stream-after {stream_after}: output differs"
            );
        }
    }
}

/// A finding on a document's last line waits for the next line, which its snippet shows as
/// when the run holds everything: here the streamed text is the held text, byte for byte.
#[test]
fn text_snippets_show_the_line_after_a_documents_last_line() {
    let mut input = String::new();
    for name in ["a", "b", "c"] {
        let _ = write!(
            input,
            "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  containers: [{{name: a, image: r/a:1}}]\n  hostNetwork: true\n"
        );
    }
    let args = |stream_after: &'static str| ["lint", "--no-config", "--stream-after", stream_after, "-"];
    let held = text(&run(&args("20000"), input.as_bytes()));
    let streamed = text(&run(&args("0"), input.as_bytes()));
    assert!(held.contains(" 8 │ ---\n"), "{held}");
    assert_eq!(streamed, held);
}

/// A file over 16 MiB is read as a stream, like standard input: the same report as from
/// standard input, and as a small file's, whatever the number of threads.
#[test]
fn large_files_are_read_as_streams() {
    let pod = |name: &str, payload: &str| {
        format!(
            "{{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {{\"name\": \"{name}\", \"annotations\": {{\"a\": \"{payload}\"}}}}, \"spec\": {{\"hostNetwork\": true, \"containers\": [{{\"name\": \"a\", \"image\": \"r/a:1\"}}]}}}}"
        )
    };
    let payload = "x".repeat(5 << 20);
    let items: Vec<String> = (0..4).map(|i| pod(&format!("p{i}"), &payload)).collect();
    let list = format!(
        "{{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {}\n    ],\n    \"kind\": \"List\"\n}}\n",
        items.join(",\n        ")
    );
    assert!(list.len() > 17 << 20);
    let dir = std::env::temp_dir().join(format!("ra2-stream-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let big = dir.join("big.json");
    std::fs::write(&big, &list).expect("write");
    let big = big.to_string_lossy().into_owned();
    let json = |args: &[&str], stdin: &[u8]| {
        let output = run(args, stdin);
        let mut report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON report");
        for list in ["findings", "errors", "objects"] {
            for item in report[list].as_array_mut().into_iter().flatten() {
                item["file"] = "input".into();
            }
        }
        report
    };
    let from_file = json(&["lint", "--no-config", "--format", "json", "--jobs", "1", &big], b"");
    let from_stdin = json(&["lint", "--no-config", "--format", "json", "-"], list.as_bytes());
    assert_eq!(from_file, from_stdin);
    assert_eq!(from_file["summary"]["objects"], 4);
    let with_others = json(
        &[
            "lint",
            "--no-config",
            "--format",
            "json",
            "--jobs",
            "3",
            &big,
            "examples",
        ],
        b"",
    );
    assert_eq!(
        with_others["summary"]["objects"].as_u64(),
        json(&["lint", "--no-config", "--format", "json", "examples"], b"")["summary"]["objects"]
            .as_u64()
            .map(|n| n + 4)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// What other documents decide prints at the end of a streamed run, long after its documents
/// were dropped: its snippets are read again (standard input from the text the run kept on
/// disk, files from the file) and are the held run's, byte for byte. Only cross-document
/// findings here, so both runs print them in the same order.
#[test]
fn text_snippets_of_cross_document_findings_are_the_held_ones() {
    let mut input = String::new();
    for i in 0..40 {
        let account = if i % 3 == 0 { "serviceAccountName: nrf\n  " } else { "" };
        let end = if i % 5 == 0 { "\r\n" } else { "\n" };
        let _ = write!(
            input,
            "---{end}apiVersion: v1{end}kind: Pod{end}metadata: {{name: p{i}, namespace: core}}{end}spec:{end}  {account}containers: [{{name: a, image: r/a:1}}]{end}"
        );
    }
    let dir = std::env::temp_dir().join(format!("ra2-stream-snippets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("pods.yaml");
    std::fs::write(&file, &input).expect("write");
    let file = file.to_string_lossy().into_owned();
    for path in ["-", file.as_str()] {
        let args = |stream_after: &'static str| {
            [
                "lint",
                "--no-config",
                "--edition",
                "latest",
                "--select",
                "ra2.app.029",
                "--stream-after",
                stream_after,
                path,
            ]
        };
        let held = text(&run(&args("20000"), input.as_bytes()));
        let streamed = text(&run(&args("0"), input.as_bytes()));
        assert_eq!(held.matches("ra2.app.029/token-automount\n").count(), 40, "{held}");
        assert!(held.contains(" │   containers: [{name: a, image: r/a:1}]\n"), "{held}");
        assert_eq!(streamed, held, "{path}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
