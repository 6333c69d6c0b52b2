//! `ra2 lint --fix`, `--unsafe-fixes`, `--diff` and `ra2 fix` through the built binary, on a
//! copy of the fixtures: the safe fixes clear every safe-fixable finding (but those the run
//! says it dropped), a second run changes nothing, files keep their permissions, standard
//! input is fixed to standard output, and JSON findings carry their fix.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn ra2(dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ra2"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ra2 starts");
    if let Some(text) = stdin {
        use std::io::Write as _;
        let mut pipe = child.stdin.take().expect("stdin");
        pipe.write_all(text.as_bytes()).expect("write stdin");
    }
    child.wait_with_output().expect("ra2 runs")
}

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("JSON ({e}): {}", String::from_utf8_lossy(&output.stdout)))
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("ra2-fix-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The fixtures (one directory of manifests) copied into `dir`.
fn copy_fixtures(dir: &Path) -> usize {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures");
    let mut n = 0;
    for entry in std::fs::read_dir(fixtures).expect("fixtures").flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|x| x == "yaml") {
            std::fs::copy(&path, dir.join(entry.file_name())).expect("copy");
            n += 1;
        }
    }
    n
}

fn fixable(report: &serde_json::Value, applicability: &str) -> usize {
    report["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| f["fix"]["applicability"] == applicability)
        .count()
}

#[test]
fn fix_clears_the_safe_findings_and_reaches_the_fixed_point() {
    let dir = TempDir::new("fixtures");
    assert!(copy_fixtures(&dir.0) > 50);
    let before = json(&ra2(&dir.0, &["lint", "--no-config", "--format", "json", "."], None));
    let safe = fixable(&before, "safe");
    assert!(safe > 5, "{safe} safe fixes in the fixtures");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let file = dir.0.join("ra2.app.003.yaml");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    }

    let diff = ra2(&dir.0, &["lint", "--no-config", "--diff", "."], None);
    assert_eq!(diff.status.code(), Some(1), "{}", String::from_utf8_lossy(&diff.stderr));
    let diff_text = String::from_utf8_lossy(&diff.stdout).into_owned();
    assert!(diff_text.contains("+++ b/ra2.app.003.yaml"), "{diff_text}");
    assert!(
        diff_text.contains("+      allowPrivilegeEscalation: false"),
        "{diff_text}"
    );
    let untouched = json(&ra2(&dir.0, &["lint", "--no-config", "--format", "json", "."], None));
    assert_eq!(untouched["findings"], before["findings"], "--diff writes nothing");

    let fixed = ra2(&dir.0, &["fix", "--no-config", "--format", "json", "."], None);
    let report = json(&fixed);
    let notes = String::from_utf8_lossy(&fixed.stderr).into_owned();
    let dropped = notes.matches("was not applied").count();
    // A fix can make another moot (an anchor's fix also fixes the containers that alias it),
    // and only applied fixes count.
    let count = report["summary"]["fixed"]
        .as_u64()
        .and_then(|n| usize::try_from(n).ok());
    assert!(
        count.is_some_and(|n| n <= safe && n * 10 >= safe * 9),
        "{count:?} of {safe}: {notes}"
    );
    assert_eq!(
        fixable(&report, "safe"),
        dropped,
        "every safe fix applied but those dropped: {notes}"
    );
    assert_eq!(report["summary"]["errors"], 0);
    assert!(
        fixable(&report, "unsafe") > 0,
        "unsafe fixes are left without --unsafe-fixes"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(dir.0.join("ra2.app.003.yaml"))
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o640, "the rewritten file keeps its permissions");
    }
    let again = ra2(&dir.0, &["lint", "--no-config", "--diff", "."], None);
    assert_eq!(
        again.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&again.stdout)
    );
    assert!(again.stdout.is_empty());

    let unsafe_run = ra2(
        &dir.0,
        &[
            "lint",
            "--no-config",
            "--fix",
            "--unsafe-fixes",
            "--format",
            "json",
            ".",
        ],
        None,
    );
    let report = json(&unsafe_run);
    let notes = String::from_utf8_lossy(&unsafe_run.stderr).into_owned();
    let dropped = notes.matches("was not applied").count();
    assert_eq!(
        fixable(&report, "unsafe") + fixable(&report, "safe"),
        dropped,
        "{notes}"
    );
    let text = ra2(&dir.0, &["lint", "--no-config", "--diff", "--unsafe-fixes", "."], None);
    assert_eq!(
        text.status.code(),
        Some(0),
        "the fixed point: {}",
        String::from_utf8_lossy(&text.stdout)
    );
}

#[test]
fn standard_input_is_fixed_to_standard_output() {
    let dir = TempDir::new("stdin");
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}   # keep me\nspec:\n  containers:\n  - name: c\n    image: r/c:1\n    securityContext:\n      allowPrivilegeEscalation: true\n";
    let out = ra2(&dir.0, &["lint", "--no-config", "--fix", "-"], Some(pod));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        pod.replace("allowPrivilegeEscalation: true", "allowPrivilegeEscalation: false")
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("1 finding fixed"), "{err}");
    assert!(!err.contains("allowPrivilegeEscalation to true"), "{err}");
    let diff = ra2(&dir.0, &["lint", "--no-config", "--diff", "-"], Some(pod));
    assert_eq!(diff.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&diff.stdout).contains("+      allowPrivilegeEscalation: false"));
}

#[test]
fn json_findings_carry_their_fix() {
    let dir = TempDir::new("json");
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: r/c:1}]\n";
    let report = json(&ra2(
        &dir.0,
        &["lint", "--no-config", "--format", "json", "-"],
        Some(pod),
    ));
    let finding = report["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|f| f["check"] == "privilege-escalation")
        .expect("finding");
    assert_eq!(
        finding["fix"],
        serde_json::json!({
            "applicability": "safe",
            "title": "Set allowPrivilegeEscalation: false in the container's securityContext",
            "patch": [{"op": "add", "path": "/spec/containers/0/securityContext", "value": {"allowPrivilegeEscalation": false}}]
        })
    );
}

#[test]
fn sarif_results_carry_their_fix_as_edits_of_the_file() {
    let dir = TempDir::new("sarif");
    std::fs::write(dir.0.join(".git"), "gitdir: nowhere\n").expect(".git");
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: r/c:1\n    securityContext: {allowPrivilegeEscalation: true}\n";
    std::fs::write(dir.0.join("pod.yaml"), pod).expect("pod");
    let log = json(&ra2(
        &dir.0,
        &["lint", "--no-config", "--format", "sarif", "pod.yaml"],
        None,
    ));
    // Valid SARIF 2.1.0 (the official schema beside the checkout, when it is there).
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/schemas/sarif-2.1.0.json");
    if let Ok(text) = std::fs::read_to_string(&schema) {
        let schema: serde_json::Value = serde_json::from_str(&text).expect("schema");
        let validator = jsonschema::options().build(&schema).expect("schema compiles");
        let errors: Vec<String> = validator
            .iter_errors(&log)
            .map(|e| format!("{}: {e}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
    }
    let result = log["runs"][0]["results"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|r| r["properties"]["check"] == "privilege-escalation")
        .expect("result");
    assert_eq!(
        result["fixes"],
        serde_json::json!([{
            "description": {"text": "Set allowPrivilegeEscalation: false in the container's securityContext (safe)"},
            "artifactChanges": [{
                "artifactLocation": {"uri": "pod.yaml", "uriBaseId": "%SRCROOT%"},
                "replacements": [{
                    "deletedRegion": {"startLine": 8, "startColumn": 49, "endLine": 8, "endColumn": 53},
                    "insertedContent": {"text": "false"}
                }]
            }]
        }])
    );
}
