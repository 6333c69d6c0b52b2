//! The README's pipeline recipes, tried for real: the real `helm` and `kustomize` (or
//! `kubectl kustomize`) render `tests/recipes/`, and their output is piped into the built `ra2`.
//! Findings must land on the rendered lines and carry the Helm template they came from.
//!
//! The tools come from `RA2_HELM` and `RA2_KUSTOMIZE` (which `scripts/recipe-tools` provides,
//! and `scripts/test` exports), else from PATH. Without them a test prints why it was skipped.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn recipes() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("tests")
        .join("recipes")
}

fn on_path(name: &str) -> Option<String> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
        .map(|p| p.to_string_lossy().into_owned())
}

/// The tool from `env`, else the first of `names` on PATH.
fn tool(env: &str, names: &[&str]) -> Option<String> {
    let found = std::env::var(env)
        .ok()
        .filter(|v| !v.is_empty())
        .or_else(|| names.iter().find_map(|n| on_path(n)));
    if found.is_none() {
        eprintln!(
            "skipping: no {} (set {env} or run scripts/recipe-tools); this recipe is untested here",
            names.join(" or ")
        );
    }
    found
}

/// Runs a command with `stdin` piped in.
fn run(program: &str, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(program)
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{program} starts: {e}"));
    if let Some(input) = stdin {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        pipe.write_all(input).expect("write stdin");
    }
    child.wait_with_output().expect("runs")
}

fn ok_stdout(program: &str, args: &[&str]) -> String {
    let output = run(program, args, None);
    assert!(
        output.status.success(),
        "{program} {args:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// `<rendered> | ra2 lint - --format json` with ra2.app.007 only (rules landing later do not
/// change these tests) and any extra arguments.
fn lint_stdin(rendered: &str, extra: &[&str]) -> (i32, serde_json::Value) {
    let mut args = vec!["lint", "-", "--select", "ra2.app.007,exemption", "--format", "json"];
    args.extend_from_slice(extra);
    if !extra.contains(&"--config") {
        args.push("--no-config");
    }
    let output = run(env!("CARGO_BIN_EXE_ra2"), &args, Some(rendered.as_bytes()));
    let report = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("ra2 prints JSON ({e}):\n{}", String::from_utf8_lossy(&output.stderr)));
    (output.status.code().expect("exit status"), report)
}

/// The rendered line a finding points at.
fn line_of<'a>(rendered: &'a str, finding: &serde_json::Value) -> &'a str {
    let line = finding["line"].as_u64().expect("line") as usize;
    rendered.lines().nth(line - 1).unwrap_or("")
}

fn findings(report: &serde_json::Value) -> &Vec<serde_json::Value> {
    report["findings"].as_array().expect("findings")
}

#[test]
fn helm_template_piped_into_ra2() {
    let Some(helm) = tool("RA2_HELM", &["helm"]) else {
        return;
    };
    let chart = recipes().join("chart").join("cnf");
    let chart = chart.to_string_lossy();
    let rendered = ok_stdout(&helm, &["template", "cnf", &chart]);
    let (code, report) = lint_stdin(&rendered, &[]);
    assert_eq!(code, 0, "hostPath is a warning in the base edition");
    let found = findings(&report);
    assert_eq!(found.len(), 1, "{found:#?}");
    let finding = &found[0];
    assert_eq!(finding["file"], "<stdin>");
    assert_eq!(finding["check"], "host-path");
    assert_eq!(finding["object"]["name"], "cnf-upf");
    assert_eq!(line_of(&rendered, finding).trim(), "hostPath:");
    assert_eq!(finding["source_template"], "cnf/templates/upf.yaml");

    let objects = report["objects"].as_array().expect("objects");
    let test_pod = objects
        .iter()
        .find(|o| o["name"] == "cnf-test-pfcp")
        .expect("the test hook is linted");
    assert_eq!(test_pod["hook"], "test");
    assert_eq!(test_pod["source_template"], "cnf/templates/tests/test-pfcp.yaml");
    assert!(
        objects
            .iter()
            .filter(|o| o["name"] != "cnf-test-pfcp")
            .all(|o| o.get("hook").is_none())
    );
}

#[test]
fn helm_template_exemption_by_template_path() {
    let Some(helm) = tool("RA2_HELM", &["helm"]) else {
        return;
    };
    let chart = recipes().join("chart").join("cnf");
    let rendered = ok_stdout(&helm, &["template", "cnf", &chart.to_string_lossy()]);
    let dir = std::env::temp_dir().join(format!("ra2-recipes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let config = dir.join("ra2.yaml");
    std::fs::write(
        &config,
        "exemptions:\n  - rule: ra2.app.007\n    template: cnf/templates/upf.yaml\n    reason: packet captures, ticket CNF-7\n",
    )
    .expect("write config");
    let (code, report) = lint_stdin(&rendered, &["--config", &config.to_string_lossy()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0);
    assert_eq!(findings(&report).len(), 0, "{report:#}");
    assert_eq!(report["summary"]["suppressed"], 1);
    assert_eq!(
        report["summary"]["suppressed_by_reason"]["packet captures, ticket CNF-7"],
        1
    );
}

#[test]
fn helm_post_renderer() {
    let Some(helm) = tool("RA2_HELM", &["helm"]) else {
        return;
    };
    let chart = recipes().join("chart").join("cnf");
    let chart = chart.to_string_lossy();
    let post_render = |extra: &[&str]| {
        let mut args = vec!["template", "cnf", &*chart];
        args.extend_from_slice(extra);
        for arg in [
            "lint",
            "--post-render",
            "--no-config",
            "--select=ra2.app.007",
            "--fail-on=warning",
        ] {
            args.extend(["--post-renderer-args", arg]);
        }
        args.extend(["--post-renderer", env!("CARGO_BIN_EXE_ra2")]);
        run(&helm, &args, None)
    };

    let failing = post_render(&[]);
    assert!(!failing.status.success(), "helm fails when ra2 does");
    let err = String::from_utf8_lossy(&failing.stderr);
    assert!(err.contains("ra2.app.007/host-path"), "{err}");
    assert!(err.contains("template: cnf/templates/upf.yaml"), "{err}");

    let passing = post_render(&["--set", "upf.hostLogs=false"]);
    assert!(passing.status.success(), "{}", String::from_utf8_lossy(&passing.stderr));
    let plain = ok_stdout(&helm, &["template", "cnf", &chart, "--set", "upf.hostLogs=false"]);
    assert!(!plain.contains("hostPath"));
    // Helm does not hand test hooks to post-renderers, so compare the documents that went
    // through ra2: each must come out as it went in.
    let through = String::from_utf8(passing.stdout).expect("UTF-8");
    for document in through.split("\n---\n").map(str::trim).filter(|d| !d.is_empty()) {
        assert!(plain.contains(document), "changed by the post-renderer:\n{document}");
    }
    assert!(through.contains("# Source: cnf/templates/upf.yaml"));
}

#[test]
fn kustomize_build_piped_into_ra2() {
    let Some(kustomize) = tool("RA2_KUSTOMIZE", &["kubectl", "kustomize"]) else {
        return;
    };
    let overlay = recipes().join("kustomize").join("overlays").join("prod");
    let overlay = overlay.to_string_lossy();
    let is_kubectl = Path::new(&kustomize).file_stem().is_some_and(|s| s == "kubectl");
    let args: [&str; 2] = if is_kubectl {
        ["kustomize", &overlay]
    } else {
        ["build", &overlay]
    };
    let rendered = ok_stdout(&kustomize, &args);
    let (code, report) = lint_stdin(&rendered, &[]);
    assert_eq!(code, 0);
    let found = findings(&report);
    assert_eq!(found.len(), 1, "{found:#?}");
    let finding = &found[0];
    assert_eq!(finding["object"]["kind"], "Deployment");
    assert_eq!(finding["object"]["namespace"], "core", "the overlay's namespace");
    assert_eq!(finding["object"]["name"], "smf");
    assert_eq!(finding["pointer"], "/spec/template/spec/volumes/0/hostPath");
    assert!(
        line_of(&rendered, finding).trim_start().starts_with("- hostPath:"),
        "kustomize sorts keys, so the item starts with hostPath: {:?}",
        line_of(&rendered, finding)
    );
    assert!(
        finding.get("source_template").is_none(),
        "kustomize writes no # Source:"
    );
}

#[test]
fn kustomize_flag_renders_the_directory_like_the_pipe() {
    let Some(kustomize) = tool("RA2_KUSTOMIZE", &["kubectl", "kustomize"]) else {
        return;
    };
    let overlay = recipes().join("kustomize").join("overlays").join("prod");
    let overlay = overlay.to_string_lossy();
    let output = Command::new(env!("CARGO_BIN_EXE_ra2"))
        .args([
            "lint",
            "--no-config",
            "--select",
            "ra2.app.007",
            "--format",
            "json",
            "--kustomize",
            &overlay,
        ])
        .env("RA2_KUSTOMIZE", &kustomize)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("ra2 runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let found = findings(&report);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["file"], format!("kustomize build {overlay}"));
    assert_eq!(found[0]["object"]["namespace"], "core", "the overlay's namespace");
    assert_eq!(found[0]["pointer"], "/spec/template/spec/volumes/0/hostPath");
    // A renderer that fails names the directory and exits 2.
    let broken = Command::new(env!("CARGO_BIN_EXE_ra2"))
        .args(["lint", "--no-config", "--format", "json", "--kustomize", &overlay])
        .env("RA2_KUSTOMIZE", "/bin/false")
        .stdin(Stdio::null())
        .output()
        .expect("ra2 runs");
    assert_eq!(broken.status.code(), Some(2));
    let report: serde_json::Value = serde_json::from_slice(&broken.stdout).expect("JSON");
    assert_eq!(report["errors"][0]["code"], "ra2::input::kustomize");
}

#[test]
fn helm_plugin() {
    let Some(helm) = tool("RA2_HELM", &["helm"]) else {
        return;
    };
    let chart = recipes().join("chart").join("cnf");
    let chart = chart.to_string_lossy();
    let home = std::env::temp_dir().join(format!("ra2-helm-plugin-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).expect("temp dir");
    let helm_in = |args: &[&str]| {
        Command::new(&helm)
            .args(args)
            .env("HELM_PLUGINS", home.join("plugins"))
            .env("HELM_CONFIG_HOME", home.join("config"))
            .env("HELM_CACHE_HOME", home.join("cache"))
            .env("HELM_DATA_HOME", home.join("data"))
            .env("RA2_BIN", env!("CARGO_BIN_EXE_ra2"))
            .env("NO_COLOR", "1")
            .output()
            .expect("helm runs")
    };
    let plugin = Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/helm-plugin");
    let installed = helm_in(&["plugin", "install", &plugin.to_string_lossy()]);
    assert!(
        installed.status.success(),
        "{}",
        String::from_utf8_lossy(&installed.stderr)
    );

    // The findings of `helm template | ra2 lint -`, with the exit status of ra2.
    let base = helm_in(&[
        "ra2",
        "lint",
        &chart,
        "--",
        "--no-config",
        "--select=ra2.app.007",
        "--format",
        "json",
    ]);
    assert_eq!(base.status.code(), Some(0), "{}", String::from_utf8_lossy(&base.stderr));
    let report: serde_json::Value = serde_json::from_slice(&base.stdout).expect("JSON");
    let found = findings(&report);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["check"], "host-path");
    assert_eq!(found[0]["source_template"], "cnf/templates/upf.yaml");
    // The plugin names the chart, so the finding lands on the template's own line.
    let template = &found[0]["template"];
    assert!(
        template["file"]
            .as_str()
            .is_some_and(|f| f.ends_with("chart/cnf/templates/upf.yaml")),
        "{template}"
    );
    assert_eq!(template["mapped"], "key", "{template}");

    // helm's flags go to helm, ra2's after `--` to ra2.
    let strict = helm_in(&[
        "ra2",
        "lint",
        &chart,
        "--",
        "--no-config",
        "--select=ra2.app.007",
        "--fail-on=warning",
    ]);
    assert_eq!(
        strict.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&strict.stdout)
    );
    assert!(String::from_utf8_lossy(&strict.stdout).contains("ra2.app.007/host-path"));
    let fixed = helm_in(&[
        "ra2",
        "lint",
        &chart,
        "--set",
        "upf.hostLogs=false",
        "--",
        "--no-config",
        "--select=ra2.app.007",
        "--fail-on=warning",
    ]);
    assert_eq!(
        fixed.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&fixed.stdout)
    );

    // A chart helm cannot render is an error, not a pass.
    let missing = helm_in(&["ra2", "lint", "/nonexistent/chart"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("helm template /nonexistent/chart failed"));
    let usage = helm_in(&["ra2", "check"]);
    assert_eq!(usage.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&home);
}
