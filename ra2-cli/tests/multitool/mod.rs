//! Microsoft's SARIF multitool (`RA2_SARIF_MULTITOOL`, which `scripts/sarif-multitool` installs
//! from npm): `validate --rule-kind "Sarif;Ghas"` checks SARIF logs against the specification
//! and against GitHub code scanning's own ingestion rules (the `GH` rules).

use std::path::Path;
use std::process::Command;

/// The multitool, or `None` (and a note) when it is not installed.
pub(crate) fn multitool() -> Option<String> {
    let found = std::env::var("RA2_SARIF_MULTITOOL").ok().filter(|v| !v.is_empty());
    if found.is_none() {
        eprintln!("SKIPPED: no SARIF multitool (set RA2_SARIF_MULTITOOL or run scripts/sarif-multitool)");
    }
    found
}

/// Validates every `*.sarif` file in `dir` in one run and returns its errors and warnings
/// (`file: RULE: message`); its notes (style advice such as "prefer message ids") are not
/// counted.
pub(crate) fn problems(tool: &str, dir: &Path) -> Vec<String> {
    let log = dir.join("validation.sarif.out");
    let _ = std::fs::remove_file(&log);
    let out = Command::new(tool)
        .args([
            "validate",
            "--rule-kind",
            "Sarif;Ghas",
            "--level",
            "Error;Warning",
            // The corpus' log with its fixes' edits is over the default 10,000 KB (GitHub
            // takes up to 10 MB gzipped: about 1 MB for it).
            "--max-file-size-in-kb",
            "102400",
            "--output",
        ])
        .arg(&log)
        .arg(dir.join("*.sarif"))
        .env("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT", "1")
        .output()
        .expect("the multitool runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "multitool failed: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let scanned = stdout.lines().find_map(|l| {
        l.strip_prefix("Done. ")?
            .split_whitespace()
            .next()?
            .parse::<usize>()
            .ok()
    });
    let expected = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "sarif"))
        .count();
    assert_eq!(scanned, Some(expected), "the multitool read every log: {stdout}");
    let text = std::fs::read_to_string(&log).expect("the validation log");
    let value: serde_json::Value = serde_json::from_str(&text).expect("the validation log is SARIF");
    value["runs"][0]["results"]
        .as_array()
        .map(|results| {
            results
                .iter()
                .filter(|r| matches!(r["level"].as_str(), None | Some("error" | "warning")))
                .map(|r| {
                    format!(
                        "{}: {}: {}",
                        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], r["ruleId"], r["message"]
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A fresh directory for logs to validate.
pub(crate) fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ra2-multitool-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Checks one SARIF log when the multitool is installed: no errors or warnings, the
/// specification's or GitHub's (`name` names the scratch directory it is written to).
#[allow(dead_code)] // Not every test binary that includes this module checks a single log.
pub(crate) fn assert_valid(name: &str, sarif: &[u8]) {
    let Some(tool) = multitool() else { return };
    let dir = scratch(name);
    std::fs::write(dir.join(format!("{name}.sarif")), sarif).expect("write");
    let problems = problems(&tool, &dir);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}
