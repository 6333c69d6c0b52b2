//! `ra2 lint --fix` on `helm template` output fixes the chart's own files, end to end with the
//! real helm (`RA2_HELM`, which `scripts/recipe-tools` builds). The fixture
//! `tests/fixtures/helm-fix` holds `charts/shop/`, whose findings come from each shape a fix
//! can reach: a `securityContext` written literally (the template is fixed), one written with
//! `{{- toYaml .Values.securityContext | nindent 12 }}` and a `readOnlyRootFilesystem:
//! {{ .Values.readOnly }}` (values.yaml is fixed), one value that feeds two containers (both
//! fixed by one edit of it), and two that must stay suggestions: a value also used in a
//! ConfigMap, and a setting written by an `include`.
//!
//! Each test works on a copy: render, fix, render again, lint again. The second render must
//! equal the first with ra2's fixes applied to it, byte for byte (ra2 writes that stream to
//! standard output), the fixed findings must be gone and no finding new.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

mod multitool;
mod support;

use support::{helm, helm_output, ra2_in};

fn fixture() -> PathBuf {
    fixture_named("helm-fix")
}

fn fixture_named(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(name)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// A fresh copy of the fixture repository.
fn workspace(name: &str) -> PathBuf {
    workspace_of(&fixture(), name)
}

fn workspace_of(fixture: &Path, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ra2-helm-fix-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(fixture, &dir);
    dir
}

fn render(helm: &str, dir: &Path) -> String {
    render_with(helm, dir, &["template", "shop", "charts/shop"])
}

fn render_with(helm: &str, dir: &Path, args: &[&str]) -> String {
    helm_output(helm, dir, args)
}

fn ra2(dir: &Path, args: &[&str], stdin: &str) -> Output {
    ra2_in(dir, args, stdin.as_bytes())
}

const LINT: [&str; 5] = ["lint", "--no-config", "--edition", "latest", "--unsafe-fixes"];

fn args(extra: &[&str]) -> Vec<String> {
    LINT.iter().chain(extra).map(|s| (*s).to_owned()).collect()
}

/// The findings of `rendered`: `rule/check object pointer`, and where in the chart and whether
/// it has a fix, sorted.
fn findings(dir: &Path, rendered: &str) -> Vec<(String, String)> {
    let out = ra2(
        dir,
        &["lint", "--no-config", "--edition", "latest", "--format", "json", "-"],
        rendered,
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let mut out: Vec<(String, String)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            let what = format!(
                "{}/{} {} {}",
                f["rule"].as_str().unwrap_or_default(),
                f["check"].as_str().unwrap_or_default(),
                f["object"]["name"].as_str().unwrap_or_default(),
                f["pointer"].as_str().unwrap_or_default(),
            );
            let place = format!(
                "{}:{}{}",
                f["template"]["file"].as_str().unwrap_or_default(),
                f["template"]["line"],
                if f["fix"].is_object() { " (fix)" } else { "" },
            );
            (what, place)
        })
        .collect();
    out.sort();
    out
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).expect("read")
}

const TEMPLATE: &str = "charts/shop/templates/deployment.yaml";
const VALUES: &str = "charts/shop/values.yaml";
const UNTOUCHED: [&str; 4] = [
    "charts/shop/templates/batch.yaml",
    "charts/shop/templates/configmap.yaml",
    "charts/shop/templates/_helpers.tpl",
    "charts/shop/Chart.yaml",
];

#[test]
fn fixes_go_into_the_chart_and_it_renders_as_ra2_fixed_its_output() {
    let Some(helm) = helm() else { return };
    let dir = workspace("stdin");
    let first = render(&helm, &dir);
    let before = findings(&dir, &first);
    let out = ra2(
        &dir,
        &args(&["--fix", "-"]).iter().map(String::as_str).collect::<Vec<_>>(),
        &first,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let fixed = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(stderr.contains("; 10 findings fixed"), "{stderr}");

    // The chart renders what ra2 wrote: its fixes and nothing else.
    let second = render(&helm, &dir);
    assert_eq!(second, fixed, "the second render is the first with ra2's fixes");
    assert_ne!(second, first);

    // The fixed findings are gone and none is new; the two suggestions remain, with their fix.
    let after = findings(&dir, &second);
    let new: Vec<&String> = after
        .iter()
        .map(|(what, _)| what)
        .filter(|what| !before.iter().any(|(b, _)| b == *what))
        .collect();
    assert!(new.is_empty(), "new findings: {new:#?}");
    let fixable: Vec<String> = after
        .iter()
        .filter(|(_, place)| place.ends_with("(fix)"))
        .map(|(what, place)| format!("{what} -> {place}"))
        .collect();
    assert_eq!(
        fixable,
        [
            "ra2.app.033/readonly-root shop-batch /spec/template/spec/containers/3/securityContext/readOnlyRootFilesystem -> charts/shop/templates/batch.yaml:42 (fix)",
            "ra2.app.043/privilege-escalation shop-batch /spec/template/spec/containers/2/securityContext/allowPrivilegeEscalation -> charts/shop/templates/batch.yaml:35 (fix)",
        ],
        "{after:#?}"
    );
    assert_eq!(before.len() - after.len(), 10, "{before:#?}\n{after:#?}");
    assert!(
        stderr.contains("note: 2 fixes of Helm output stayed suggestions at their template lines (not applied: ")
            && stderr.contains(
                "the value is also used at charts/shop/templates/configmap.yaml:7, which this fix does not reach"
            ),
        "{stderr}"
    );

    // The template gets the keys at its own indentation, after its own comment; values.yaml
    // keeps every comment; the other files are as they were.
    let template = read(&fixture(), TEMPLATE)
        .replace(
            "            readOnlyRootFilesystem: true\n        # From values",
            "            readOnlyRootFilesystem: true\n            allowPrivilegeEscalation: false\n            runAsGroup: 10001\n        # From values",
        )
        .replace(
            "            runAsUser: 10001\n",
            "            runAsUser: 10001\n            runAsGroup: 10001\n      automountServiceAccountToken: false\n",
        );
    assert_eq!(read(&dir, TEMPLATE), template);
    let values = read(&fixture(), VALUES)
        .replace(
            "  runAsUser: 10001\n",
            "  runAsUser: 10001\n  readOnlyRootFilesystem: true\n  allowPrivilegeEscalation: false\n  runAsGroup: 10001\n",
        )
        .replace("readOnly: false\n\n# One", "readOnly: true\n\n# One")
        .replace("shared:\n  readOnly: false", "shared:\n  readOnly: true");
    assert_eq!(read(&dir, VALUES), values);
    for file in UNTOUCHED {
        assert_eq!(read(&dir, file), read(&fixture(), file), "{file}");
    }

    // A second run changes nothing: the fixed point.
    let again = ra2(
        &dir,
        &args(&["--fix", "-"]).iter().map(String::as_str).collect::<Vec<_>>(),
        &second,
    );
    assert_eq!(String::from_utf8_lossy(&again.stdout), second);
    assert_eq!(read(&dir, TEMPLATE), template);
    assert_eq!(read(&dir, VALUES), values);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diff_shows_the_chart_files_and_writes_nothing_and_verbose_lists_the_suggestions() {
    let Some(helm) = helm() else { return };
    let dir = workspace("diff");
    let first = render(&helm, &dir);
    let out = ra2(
        &dir,
        &args(&["--diff", "--verbose", "-"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        &first,
    );
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    for header in [
        "--- a/charts/shop/templates/deployment.yaml\n+++ b/charts/shop/templates/deployment.yaml\n",
        "--- a/charts/shop/values.yaml\n+++ b/charts/shop/values.yaml\n",
        "--- a/<stdin>\n+++ b/<stdin>\n",
        "-readOnly: false\n+readOnly: true\n",
    ] {
        assert!(stdout.contains(header), "{header}\n{stdout}");
    }
    assert!(!stdout.contains("batch.yaml"), "{stdout}");
    for file in UNTOUCHED.iter().chain([&TEMPLATE, &VALUES]) {
        assert_eq!(read(&dir, file), read(&fixture(), file), "{file}");
    }
    assert!(
        stderr.contains("note: charts/shop/templates/batch.yaml:35:13: the fix of ra2.app.043/privilege-escalation stays a suggestion (not applied): the template writes it with an action, not from one .Values path")
            && stderr.contains("note: charts/shop/templates/batch.yaml:42:13: the fix of ra2.app.033/readonly-root stays a suggestion (not applied): the value is also used at charts/shop/templates/configmap.yaml:7"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A rendered file on disk: the chart is fixed, and the file rewritten as the chart now renders.
#[test]
fn a_rendered_file_is_rewritten_as_the_fixed_chart_renders() {
    let Some(helm) = helm() else { return };
    let dir = workspace("file");
    std::fs::write(dir.join("rendered.yaml"), render(&helm, &dir)).expect("write");
    let out = ra2(
        &dir,
        &["fix", "--no-config", "--edition", "latest", "rendered.yaml"],
        "",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("2 findings fixed"), "{stdout}");
    assert_eq!(read(&dir, "rendered.yaml"), render(&helm, &dir));
    assert_ne!(read(&dir, TEMPLATE), read(&fixture(), TEMPLATE));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The vendor chart of `helm_templates.rs` with its lab values (`-f`): what the templates write
/// literally is fixed there, the values the lab file overrides are not (values.yaml does not
/// hold what was rendered), and whatever an `include` or `range` writes stays a suggestion. The
/// chart still renders as ra2 fixed its output.
#[test]
fn the_vendor_chart_renders_as_ra2_fixed_its_output() {
    let Some(helm) = helm() else { return };
    let vendor = fixture_named("cnf-vendor");
    let dir = workspace_of(&vendor, "vendor");
    let args = ["template", "cnf", "charts/cnf", "-f", "charts/cnf/values-lab.yaml"];
    let first = render_with(&helm, &dir, &args);
    let before = findings(&dir, &first);
    let out = ra2(
        &dir,
        &["fix", "--no-config", "--edition", "latest", "--unsafe-fixes", "-"],
        &first,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let fixed = String::from_utf8(out.stdout).expect("UTF-8");
    let second = render_with(&helm, &dir, &args);
    assert_eq!(second, fixed, "{stderr}");
    assert_ne!(second, first);
    let after = findings(&dir, &second);
    assert!(after.len() < before.len());
    for (what, _) in &after {
        assert!(before.iter().any(|(b, _)| b == what), "new: {what}");
    }
    assert!(
        stderr.contains("renders to another value than values.yaml's (set with -f or --set?)")
            || stderr.contains("--verbose lists each"),
        "{stderr}"
    );
    for file in [
        "charts/cnf/values.yaml",
        "charts/cnf/values-lab.yaml",
        "charts/cnf/templates/_helpers.tpl",
    ] {
        assert_eq!(read(&dir, file), read(&vendor, file), "{file}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Values written with `toYaml`: an empty mapping (`{}`) gets its keys in the values file's
/// flow style, a block mapping after its last entry, and the output has them where `toYaml`
/// writes them (keys in order). The subchart's settings go into the subchart's own values.yaml.
#[test]
fn values_written_with_to_yaml_are_fixed_in_values_yaml() {
    let Some(helm) = helm() else { return };
    let dir = workspace("bare");
    let args = ["template", "bare", "charts/bare"];
    let first = render_with(&helm, &dir, &args);
    let before = findings(&dir, &first);
    let out = ra2(
        &dir,
        &["fix", "--no-config", "--edition", "latest", "--unsafe-fixes", "-"],
        &first,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        render_with(&helm, &dir, &args),
        String::from_utf8_lossy(&out.stdout),
        "{stderr}"
    );
    // Two checks (cpu-bounded, container-limits) with one remedy: one edit fixes both.
    assert!(stderr.contains("; 9 findings fixed"), "{stderr}");
    let after = findings(&dir, &render_with(&helm, &dir, &args));
    for (what, _) in &after {
        assert!(before.iter().any(|(b, _)| b == what), "new: {what}");
    }
    assert_eq!(
        read(&dir, "charts/bare/values.yaml"),
        read(&fixture(), "charts/bare/values.yaml")
            .replace(
                "securityContext: {}",
                "securityContext: {readOnlyRootFilesystem: true, runAsNonRoot: true, allowPrivilegeEscalation: false, runAsGroup: 10001, runAsUser: 10001}"
            )
            .replace("  limits:\n    memory: 64Mi\n", "  limits:\n    memory: 64Mi\n    cpu: 500m\n")
    );
    assert_eq!(
        read(&dir, "charts/bare/charts/cache/values.yaml"),
        read(&fixture(), "charts/bare/charts/cache/values.yaml")
            + "  readOnlyRootFilesystem: true\n  allowPrivilegeEscalation: false\n"
    );
    // The pod's own settings are written by toYaml last: where a key would go is not written
    // literally, so that fix stays a suggestion.
    assert!(
        stderr.contains("note: 1 fix of Helm output stayed a suggestion at its template line"),
        "{stderr}"
    );
    assert_eq!(
        read(&dir, "charts/bare/templates/pod.yaml"),
        read(&fixture(), "charts/bare/templates/pod.yaml")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two renders of one chart: the first input's fixes go into the chart; the second was
/// rendered from the chart as it was, so it is not fixed through the files the first changed
/// (no key written twice), and the note says why.
#[test]
fn a_second_render_of_a_chart_is_not_fixed_through_files_the_first_changed() {
    let Some(helm) = helm() else { return };
    let dir = workspace("two");
    std::fs::write(dir.join("a.yaml"), render(&helm, &dir)).expect("write");
    let lab = render_with(
        &helm,
        &dir,
        &["template", "shop", "charts/shop", "--set", "debugReadOnly=true"],
    );
    std::fs::write(dir.join("b.yaml"), lab).expect("write");
    let out = ra2(
        &dir,
        &["fix", "--no-config", "--edition", "latest", "a.yaml", "b.yaml"],
        "",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("charts/shop/templates/deployment.yaml was changed by the fixes of a.yaml; render the chart again and fix that"),
        "{stderr}"
    );
    assert_eq!(read(&dir, "a.yaml"), render(&helm, &dir));
    let template = read(&dir, TEMPLATE);
    assert_eq!(
        template.matches("allowPrivilegeEscalation: false").count(),
        2,
        "{template}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The byte offset of a SARIF position (1-based line and column; the fixture is ASCII).
fn offset_of(text: &str, line: u64, column: u64) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(usize::try_from(line).expect("line") - 1)
        .map(str::len)
        .sum();
    start + usize::try_from(column).expect("column") - 1
}

/// SARIF's fixes of Helm output are edits of the chart's files: each one, applied alone to a
/// copy of the chart, renders output without that finding and with no new one.
#[test]
fn sarif_fixes_of_helm_output_edit_the_chart_and_each_alone_fixes_its_finding() {
    let Some(helm) = helm() else { return };
    let dir = workspace("sarif");
    std::fs::write(dir.join(".git"), "gitdir: nowhere\n").expect(".git");
    let rendered = render(&helm, &dir);
    std::fs::write(dir.join("rendered.yaml"), &rendered).expect("write");
    let before = findings(&dir, &rendered);
    let out = ra2(
        &dir,
        &[
            "lint",
            "--no-config",
            "--edition",
            "latest",
            "--format",
            "sarif",
            "rendered.yaml",
        ],
        "",
    );
    let log: Value = serde_json::from_slice(&out.stdout).expect("SARIF");
    // Fixes with several artifacts pass Microsoft's SARIF multitool with GitHub's rules.
    multitool::assert_valid("helm-fix", &out.stdout);
    let key = |what: &str| {
        // `rule/check name pointer` without the object's name.
        let mut parts = what.split(' ');
        let check = parts.next().unwrap_or_default().to_owned();
        let _name = parts.next();
        (check, parts.next().unwrap_or_default().to_owned())
    };
    let mut into_chart = Vec::new();
    for result in log["runs"][0]["results"].as_array().expect("results") {
        let Some(changes) = result["fixes"][0]["artifactChanges"].as_array() else {
            continue;
        };
        if changes.iter().all(|c| c["artifactLocation"]["uri"] == "rendered.yaml") {
            continue;
        }
        let check = format!(
            "{}/{}",
            result["ruleId"].as_str().unwrap_or_default(),
            result["properties"]["check"].as_str().unwrap_or_default()
        );
        let pointer = result["properties"]["pointer"].as_str().unwrap_or_default().to_owned();
        let copy = workspace(&format!("sarif-{}", into_chart.len()));
        for change in changes {
            let uri = change["artifactLocation"]["uri"].as_str().expect("uri");
            assert!(uri.starts_with("charts/shop/"), "{uri}");
            let mut text = read(&copy, uri);
            // Replacements last first, so that earlier offsets hold.
            let mut edits: Vec<(usize, usize, String)> = change["replacements"]
                .as_array()
                .expect("replacements")
                .iter()
                .map(|r| {
                    let d = &r["deletedRegion"];
                    let at = |l: &str, c: &str| offset_of(&text, d[l].as_u64().expect(l), d[c].as_u64().expect(c));
                    let inserted = r["insertedContent"]["text"].as_str().unwrap_or_default().to_owned();
                    (at("startLine", "startColumn"), at("endLine", "endColumn"), inserted)
                })
                .collect();
            edits.sort();
            for (start, end, inserted) in edits.into_iter().rev() {
                text.replace_range(start..end, &inserted);
            }
            std::fs::write(copy.join(uri), text).expect("write");
        }
        let after = findings(&copy, &render(&helm, &copy));
        let count = |list: &[(String, String)], k: &(String, String)| list.iter().filter(|(w, _)| key(w) == *k).count();
        let k = (check.clone(), pointer.clone());
        assert!(
            count(&after, &k) < count(&before, &k),
            "{check} {pointer} not fixed: {after:#?}"
        );
        for (what, _) in &after {
            assert!(
                count(&before, &key(what)) >= count(&after, &key(what)),
                "{what} is new after fixing {check} {pointer}"
            );
        }
        into_chart.push(format!("{check} {pointer}"));
        let _ = std::fs::remove_dir_all(&copy);
    }
    into_chart.sort();
    // The ten fixes `--fix` makes, less the two of one value two containers share (an edit
    // of it alone changes the other container as well): SARIF has a fix per finding.
    assert_eq!(
        into_chart,
        [
            "ra2.app.029/token-automount /spec/template/spec",
            "ra2.app.033/readonly-root /spec/template/spec/containers/1/securityContext",
            "ra2.app.033/readonly-root /spec/template/spec/containers/2/securityContext/readOnlyRootFilesystem",
            "ra2.app.043/privilege-escalation /spec/template/spec/containers/0/securityContext",
            "ra2.app.043/privilege-escalation /spec/template/spec/containers/1/securityContext",
            "ra2.app.044/group-id /spec/template/spec/containers/0/securityContext",
            "ra2.app.044/group-id /spec/template/spec/containers/1/securityContext",
            "ra2.app.044/group-id /spec/template/spec/containers/2/securityContext",
        ],
        "the SARIF fixes that edit the chart"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
