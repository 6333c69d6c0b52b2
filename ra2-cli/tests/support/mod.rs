//! What several of the CLI's test files do the same way: find the real helm, render a chart
//! with it, and run `ra2` with standard input. Each test file is its own crate and uses a part.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The helm `scripts/recipe-tools` builds (`RA2_HELM`); `None`, said on standard error, when
/// it is not set.
pub(crate) fn helm() -> Option<String> {
    let found = std::env::var("RA2_HELM").ok().filter(|v| !v.is_empty());
    if found.is_none() {
        eprintln!("SKIPPED: no helm (set RA2_HELM or run scripts/recipe-tools)");
    }
    found
}

/// `helm ARGS` in `dir`: its standard output, which must be UTF-8 (the test fails if helm does).
pub(crate) fn helm_output(helm: &str, dir: &Path, args: &[&str]) -> String {
    let out = Command::new(helm)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("helm runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// `ra2 ARGS` in `dir` with `stdin`, colour off. Standard input is written while the output is
/// read: a streaming run prints before it has read everything, and would wait on a full pipe.
pub(crate) fn ra2_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ra2"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ra2 runs");
    let mut input = child.stdin.take().expect("stdin");
    std::thread::scope(|scope| {
        scope.spawn(move || input.write_all(stdin).expect("write stdin"));
        child.wait_with_output().expect("ra2 finishes")
    })
}

/// [`ra2_in`] at the repository's root.
pub(crate) fn ra2_at_root(args: &[&str], stdin: &[u8]) -> Output {
    ra2_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join(".."), args, stdin)
}
