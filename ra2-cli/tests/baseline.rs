//! Baselines through the built `ra2`: a baseline written on the fixtures and the catalogue's
//! examples hides every finding after edits that only move them (lines added above,
//! documents reordered, files reindented), reports exactly the findings of a new violation,
//! counts stale entries, and keeps SARIF's `ra2/v2` fingerprints; bad baseline files are
//! errors that name the file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs `ra2 args...` in `dir`, colour off, with no config file but the one given.
fn ra2(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ra2"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("ra2 runs")
}

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is JSON ({e}):\n{}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// A fresh directory under the system temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("ra2-baseline-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("src")).expect("temp dir");
        // The source root: files are named relative to it, wherever ra2 runs.
        std::fs::write(dir.join(".git"), "gitdir: nowhere\n").expect(".git");
        TempDir(dir)
    }

    fn src(&self) -> PathBuf {
        self.0.join("src")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The fixtures (`tests/fixtures/*.yaml`) and every catalogue example, as (file name, text).
fn manifests() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let fixtures = repo().join("tests/fixtures");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .expect("fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    names.sort();
    for path in names {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push((name, std::fs::read_to_string(&path).expect("fixture")));
    }
    let rules = json(&ra2(&repo(), &["rules", "--format", "json"]));
    for rule in rules.as_array().expect("rules") {
        let id = rule["id"].as_str().unwrap_or_default();
        for (kind, examples) in rule["examples"].as_object().into_iter().flatten() {
            for (i, example) in examples.as_array().into_iter().flatten().enumerate() {
                let text = example["manifest"].as_str().unwrap_or_default();
                out.push((format!("{id}.{kind}.{i}.yaml"), text.to_owned()));
            }
        }
    }
    assert!(out.len() > 100, "{} manifests", out.len());
    out
}

fn write_all(dir: &Path, files: &[(String, String)]) {
    for (name, text) in files {
        std::fs::write(dir.join(name), text).expect("write manifest");
    }
}

/// A file's documents, split at `---` lines.
fn documents(text: &str) -> Vec<String> {
    let mut docs = vec![String::new()];
    for line in text.split_inclusive('\n') {
        if line.trim_end() == "---" {
            docs.push(String::new());
        } else if let Some(doc) = docs.last_mut() {
            doc.push_str(line);
        }
    }
    docs.retain(|d| !d.trim().is_empty());
    docs
}

/// Edits that move findings without changing them: comment lines above every document, the
/// documents in reverse order, and every document indented by two more columns.
fn moved(text: &str) -> String {
    let mut docs = documents(text);
    docs.reverse();
    let docs: Vec<String> = docs
        .iter()
        .map(|doc| {
            // The whole document two columns to the right: every column moves, the
            // structure (and block scalars' content) stays.
            let reindented: String = doc
                .split_inclusive('\n')
                .map(|line| {
                    if line.trim().is_empty() {
                        line.to_owned()
                    } else {
                        format!("  {line}")
                    }
                })
                .collect();
            format!("# added above\n# and again\n{reindented}")
        })
        .collect();
    docs.join("---\n")
}

/// Findings of a JSON report, as (file, rule, check, object name) with their count.
fn tally(report: &serde_json::Value) -> BTreeMap<(String, String, String, String), usize> {
    let mut out = BTreeMap::new();
    for f in report["findings"].as_array().into_iter().flatten() {
        let key = (
            f["file"].as_str().unwrap_or_default().to_owned(),
            f["rule"].as_str().unwrap_or_default().to_owned(),
            f["check"].as_str().unwrap_or_default().to_owned(),
            f["object"]["name"].as_str().unwrap_or_default().to_owned(),
        );
        *out.entry(key).or_default() += 1;
    }
    out
}

/// The SARIF `ra2/v2` fingerprints of a run, counted.
fn identities(dir: &Path) -> BTreeMap<String, usize> {
    let log = json(&ra2(dir, &["lint", "--no-config", "--format", "sarif", "src"]));
    let mut out = BTreeMap::new();
    for result in log["runs"][0]["results"].as_array().into_iter().flatten() {
        let print = result["partialFingerprints"]["ra2/v2"]
            .as_str()
            .expect("ra2/v2 fingerprint");
        *out.entry(print.to_owned()).or_default() += 1;
    }
    out
}

#[test]
fn a_baseline_survives_edits_that_move_findings() {
    let dir = TempDir::new("moved");
    let files = manifests();
    write_all(&dir.src(), &files);
    let base = dir.0.join("base.json");
    let wrote = ra2(
        &dir.0,
        &[
            "lint",
            "--no-config",
            "--format",
            "json",
            "src",
            "--write-baseline",
            "base.json",
        ],
    );
    let all = json(&wrote);
    let found = all["findings"].as_array().map_or(0, Vec::len);
    assert!(found > 500, "{found} findings");
    assert_eq!(
        wrote.status.code(),
        Some(if all["summary"]["errors"] == 0 { 0 } else { 2 }),
        "{}",
        String::from_utf8_lossy(&wrote.stderr)
    );
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&base).expect("baseline written")).expect("baseline is JSON");
    assert_eq!(recorded["ra2-baseline"], 1);
    let entries = recorded["findings"].as_array().expect("entries");
    let counted: u64 = entries.iter().map(|e| e["count"].as_u64().unwrap_or(1)).sum();
    assert_eq!(usize::try_from(counted).ok(), Some(found));
    let keys: Vec<String> = entries.iter().map(ToString::to_string).collect();
    let mut sorted = keys.clone();
    sorted.sort_by(|a, b| {
        let key = |s: &str| -> Vec<String> {
            let v: serde_json::Value = serde_json::from_str(s).unwrap_or_default();
            ["file", "group", "kind", "namespace", "name", "rule", "check", "pointer"]
                .iter()
                .map(|k| v[*k].as_str().unwrap_or_default().to_owned())
                .collect()
        };
        key(a).cmp(&key(b))
    });
    assert_eq!(keys, sorted, "entries are sorted by identity");
    let before = identities(&dir.0);

    // Move every finding: nothing new, nothing stale.
    let moved_files: Vec<(String, String)> = files.iter().map(|(n, t)| (n.clone(), moved(t))).collect();
    write_all(&dir.src(), &moved_files);
    let plain = json(&ra2(&dir.0, &["lint", "--no-config", "--format", "json", "src"]));
    assert_eq!(
        plain["findings"].as_array().map_or(0, Vec::len),
        found,
        "the edits keep the findings"
    );
    let again = json(&ra2(
        &dir.0,
        &[
            "lint",
            "--no-config",
            "--format",
            "json",
            "src",
            "--baseline",
            "base.json",
        ],
    ));
    assert_eq!(tally(&again), BTreeMap::new(), "moved findings stay baselined");
    assert_eq!(again["summary"]["baselined"].as_u64(), u64::try_from(found).ok());
    assert_eq!(again["summary"]["stale"], 0);
    assert_eq!(
        identities(&dir.0),
        before,
        "SARIF ra2/v2 fingerprints survive the edits"
    );

    // A new violation is reported, alone; the finding it replaces is stale.
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: fresh, namespace: core}\nspec:\n  hostNetwork: true\n  containers: [{name: c, image: r/c:1}]\n";
    std::fs::write(dir.src().join("zz-new.yaml"), pod).expect("new file");
    let renamed = moved_files
        .iter()
        .find(|(n, _)| n == "ra2.app.007.yaml")
        .map(|(_, t)| t.replace("name: data", "name: state"))
        .expect("ra2.app.007 fixture");
    std::fs::write(dir.src().join("ra2.app.007.yaml"), renamed).expect("rename");
    let new = json(&ra2(
        &dir.0,
        &[
            "lint",
            "--no-config",
            "--format",
            "json",
            "src",
            "--baseline",
            "base.json",
        ],
    ));
    let alone = json(&ra2(
        &dir.0,
        &["lint", "--no-config", "--format", "json", "src/zz-new.yaml"],
    ));
    let mut expected = tally(&alone);
    let renamed_volume: Vec<_> = new["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| f["file"] == "src/ra2.app.007.yaml")
        .collect();
    assert_eq!(renamed_volume.len(), 1, "{renamed_volume:?}");
    assert_eq!(renamed_volume[0]["check"], "host-path");
    expected.insert(
        (
            "src/ra2.app.007.yaml".to_owned(),
            "ra2.app.007".to_owned(),
            "host-path".to_owned(),
            "upf".to_owned(),
        ),
        1,
    );
    assert_eq!(tally(&new), expected);
    assert!(!tally(&alone).is_empty());
    assert_eq!(new["summary"]["stale"], 1, "the renamed volume's old entry");
    assert_eq!(new["summary"]["baselined"].as_u64(), u64::try_from(found - 1).ok());
    let text = ra2(&dir.0, &["lint", "--no-config", "src", "--baseline", "base.json"]);
    let out = String::from_utf8_lossy(&text.stdout);
    assert!(
        out.contains(&format!(
            "; {} in the baseline; 1 finding in the baseline no longer found",
            found - 1
        )),
        "{out}"
    );
}

#[test]
fn the_config_file_names_the_baseline_relative_to_itself() {
    let dir = TempDir::new("config");
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: r/c:1, securityContext: {privileged: true}}]\n";
    std::fs::write(dir.src().join("pod.yaml"), pod).expect("pod");
    let wrote = ra2(
        &dir.src(),
        &[
            "lint",
            "--no-config",
            "pod.yaml",
            "--write-baseline",
            "../ra2-baseline.json",
        ],
    );
    assert_eq!(
        wrote.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&wrote.stderr)
    );
    assert!(String::from_utf8_lossy(&wrote.stderr).contains("wrote baseline ../ra2-baseline.json"));
    std::fs::write(dir.0.join(".ra2.yaml"), "baseline: ra2-baseline.json\n").expect("config");
    let run = ra2(&dir.src(), &["lint", "--format", "json", "pod.yaml"]);
    assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stderr));
    let report = json(&run);
    assert_eq!(report["findings"], serde_json::json!([]));
    assert!(report["summary"]["baselined"].as_u64() > Some(0));
    // Without it, the findings fail the run.
    let plain = ra2(&dir.src(), &["lint", "--no-config", "pod.yaml"]);
    assert_eq!(plain.status.code(), Some(1));
}

#[test]
fn bad_baseline_files_are_errors_naming_the_file() {
    let dir = TempDir::new("bad");
    std::fs::write(
        dir.src().join("pod.yaml"),
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: r/c:1}]\n",
    )
    .expect("pod");
    let cases = [
        ("not-json.json", "{\"ra2-baseline\": 1,", "not JSON"),
        (
            "sarif.json",
            "{\"version\": \"2.1.0\", \"runs\": []}",
            "no \"ra2-baseline\" key",
        ),
        (
            "newer.json",
            "{\"ra2-baseline\": 9, \"findings\": []}",
            "written by a newer ra2",
        ),
    ];
    for (name, text, why) in cases {
        std::fs::write(dir.0.join(name), text).expect("bad baseline");
        let out = ra2(&dir.0, &["lint", "--no-config", "src", "--baseline", name]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(name) && err.contains(why), "{name}: {err}");
        assert!(
            out.stdout.is_empty(),
            "{name}: nothing is linted against a bad baseline"
        );
    }
    let missing = ra2(&dir.0, &["lint", "--no-config", "src", "--baseline", "absent.json"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read baseline file absent.json"));
}

/// Waivers expire by the run's clock: `SOURCE_DATE_EPOCH` decides "today" for reproducible
/// runs. 1798761600 is 2027-01-01 (UTC); 1798675200 is 2026-12-31, the last day it holds.
#[test]
fn waivers_expire_by_source_date_epoch() {
    let dir = TempDir::new("waivers");
    let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n    ignore-check.ra2.dev/ra2.app.009: \"lab only; expires 2026-12-31\"\nspec:\n  containers: [{name: c, image: r/c:1, securityContext: {privileged: true}}]\n";
    std::fs::write(dir.src().join("pod.yaml"), pod).expect("pod");
    let at = |epoch: &str| {
        Command::new(env!("CARGO_BIN_EXE_ra2"))
            .args(["lint", "--no-config", "--format", "json", "pod.yaml"])
            .current_dir(dir.src())
            .env("SOURCE_DATE_EPOCH", epoch)
            .output()
            .expect("ra2 runs")
    };
    let held = at("1798675200");
    assert_eq!(held.status.code(), Some(0), "{}", String::from_utf8_lossy(&held.stdout));
    let report = json(&held);
    assert_eq!(report["summary"]["waivers"][0]["expires"], "2026-12-31");
    assert_eq!(report["summary"]["waivers"][0]["reason"], "lab only");
    let lapsed = at("1798761600");
    assert_eq!(lapsed.status.code(), Some(1), "the error is reported again");
    let report = json(&lapsed);
    let checks: Vec<String> = report["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            format!(
                "{}/{}",
                f["rule"].as_str().unwrap_or_default(),
                f["check"].as_str().unwrap_or_default()
            )
        })
        .collect();
    assert!(
        checks.contains(&"ra2.app.009/privileged-device".to_owned()),
        "{checks:?}"
    );
    assert!(checks.contains(&"suppression/expired".to_owned()), "{checks:?}");
    let bad = at("soon");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("SOURCE_DATE_EPOCH must be seconds since 1970"));
}
