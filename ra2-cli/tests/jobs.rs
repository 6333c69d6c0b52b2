//! `--jobs`: the output is the same, byte for byte, whatever the number of threads, in every
//! format, with standard input between directories and an unreadable file among them.

use std::process::Output;

mod support;

fn run(args: &[&str], stdin: &[u8]) -> Output {
    support::ra2_at_root(args, stdin)
}

#[test]
fn every_format_is_identical_whatever_the_jobs() {
    let stdin = b"apiVersion: v1\nkind: Pod\nmetadata: {name: from-stdin}\nspec:\n  hostNetwork: true\n  containers: [{name: a, image: r/a:1}]\n";
    for format in ["text", "json", "jsonl", "sarif", "junit", "github"] {
        let args = |jobs: &'static str| {
            vec![
                "lint",
                "tests/fixtures",
                "-",
                "rules",
                "missing.yaml",
                "examples",
                "--no-config",
                "--format",
                format,
                "--jobs",
                jobs,
            ]
        };
        let one = run(&args("1"), stdin);
        assert!(
            one.stdout.len() > 1000,
            "{format}: {}",
            String::from_utf8_lossy(&one.stderr)
        );
        for jobs in ["2", "7"] {
            let many = run(&args(jobs), stdin);
            assert_eq!(many.status.code(), one.status.code(), "{format} --jobs {jobs}");
            assert!(many.stdout == one.stdout, "{format} --jobs {jobs}: output differs");
            assert_eq!(
                String::from_utf8_lossy(&many.stderr),
                String::from_utf8_lossy(&one.stderr),
                "{format} --jobs {jobs}"
            );
        }
    }
}

#[test]
fn zero_jobs_is_a_usage_error() {
    let out = run(&["lint", "--jobs", "0", "tests/fixtures"], b"");
    assert_eq!(out.status.code(), Some(2));
}
