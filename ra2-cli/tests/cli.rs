//! The built `ra2` binary, as users run it: golden text and JSON output, exit codes, standard
//! input, configuration discovery, and the catalogue commands.
//!
//! Runs happen in `tests/data` with relative paths, so outputs hold no absolute paths. Lint
//! goldens select ra2.app.007 only, so that rules landing later do not churn them.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("data")
}

/// Runs `ra2 args...` in `dir` with `stdin` piped in, colour off.
fn run_in(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ra2"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ra2 starts");
    if let Some(input) = stdin {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        // ra2 may exit before reading its input (a usage error); that is not a test failure.
        if let Err(e) = pipe.write_all(input) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
        }
    }
    child.wait_with_output().expect("ra2 runs")
}

fn run(args: &[&str]) -> Output {
    run_in(&data(), args, None)
}

fn code(output: &Output) -> i32 {
    output.status.code().expect("exited with a status")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("stdout is JSON ({e}):\n{}", stdout(output)))
}

/// A fresh directory under the system temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("ra2-cli-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    fn write(&self, relative: &str, contents: &[u8]) -> PathBuf {
        let path = self.0.join(relative);
        std::fs::create_dir_all(path.parent().expect("has a parent")).expect("create dirs");
        std::fs::write(&path, contents).expect("write file");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const HOST_PATH_POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: core\nspec:\n  containers: [{name: c, image: registry.example.com/c:1.0}]\n  volumes: [{name: h, hostPath: {path: /var/lib/p}}]\n";

// ---- golden output ----

#[test]
fn lint_text_golden() {
    let output = run(&["lint", "manifests", "--select", "ra2.app.007", "--no-config"]);
    assert_eq!(code(&output), 2, "one document cannot be parsed");
    insta::assert_snapshot!("lint_text", stdout(&output));
}

#[test]
fn lint_json_golden() {
    let output = run(&[
        "lint",
        "manifests",
        "--select",
        "ra2.app.007",
        "--no-config",
        "--format",
        "json",
    ]);
    assert_eq!(code(&output), 2, "one document cannot be parsed");
    let text = stdout(&output);
    assert!(!text.contains(&*data().to_string_lossy()), "no absolute paths");
    insta::assert_snapshot!("lint_json", text);
}

#[test]
fn directory_walk_is_sorted_and_skips_hidden_and_other_files() {
    let report = json(&run(&[
        "lint",
        "manifests",
        "--select",
        "ra2.app.007",
        "--no-config",
        "--format",
        "json",
    ]));
    let mut files: Vec<&str> = report["objects"]
        .as_array()
        .expect("objects")
        .iter()
        .filter_map(|o| o["file"].as_str())
        .collect();
    files.dedup();
    assert_eq!(
        files,
        [
            "manifests/broken.yaml",
            "manifests/kustomize/list.yaml",
            "manifests/pod.json",
            "manifests/upf.yaml"
        ]
    );
    assert_eq!(report["summary"]["files"], 4);
}

/// `tests/fixtures/repos` of the workspace: manifests beside Helm, kustomize, compose and CI files.
fn repos() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("tests")
        .join("fixtures")
        .join("repos")
}

#[test]
fn walks_skip_and_count_files_that_are_not_kubernetes_manifests() {
    let output = run_in(&repos(), &["lint", ".", "--no-config", "--format", "json"], None);
    assert_eq!(code(&output), 0, "{}", stdout(&output));
    let report = json(&output);
    assert_eq!(report["errors"], serde_json::json!([]));
    assert_eq!(report["summary"]["skipped"], 14);
    // kustomize input: two kustomization files, the transformer config and the patch they name.
    assert_eq!(
        report["summary"]["skipped_by_reason"],
        serde_json::json!({
            "CI config": 1,
            "Helm chart metadata": 1,
            "Helm values": 3,
            "docker-compose file": 1,
            "kustomize input": 4,
            "kustomize plugin config (apiVersion: builtin)": 1,
            "no apiVersion or kind": 1,
            "not a mapping": 1,
            "template of a file that is not Kubernetes": 1
        })
    );
    let files: Vec<&str> = report["objects"]
        .as_array()
        .expect("objects")
        .iter()
        .filter_map(|o| o["file"].as_str())
        .collect();
    assert_eq!(files, ["kustomize/base/deployment.yaml"]);
    let text = stdout(&run_in(&repos(), &["lint", "--no-config"], None));
    assert!(
        text.trim_end().ends_with(
            "14 skipped as not Kubernetes manifests (1 CI config, 1 Helm chart metadata, 3 Helm values, 1 docker-compose file, 4 kustomize input, 1 kustomize plugin config (apiVersion: builtin), 1 no apiVersion or kind, 1 not a mapping, 1 template of a file that is not Kubernetes)"
        ),
        "{text}"
    );
}

/// The files of the objects a JSON report names.
fn object_files(report: &serde_json::Value) -> Vec<String> {
    let mut files: Vec<String> = report["objects"]
        .as_array()
        .expect("objects")
        .iter()
        .filter_map(|o| o["file"].as_str().map(str::to_owned))
        .collect();
    files.dedup();
    files
}

#[test]
fn directory_walks_honour_ignore_files_unless_no_ignore() {
    let dir = TempDir::new("ignore-files");
    let pod = b"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: a, image: r/a:1.0}]}\n";
    for file in ["app/pod.yaml", "out/rendered.yaml", "scratch.yaml"] {
        dir.write(file, pod);
    }
    dir.write(".ignore", b"scratch.yaml\n");
    dir.write(".gitignore", b"/out/\n");
    dir.write(".git/HEAD", b"ref: refs/heads/main\n");
    let lint = |extra: &[&str]| {
        json(&run_in(
            &dir.0,
            &[&["lint", "--no-config", "--format", "json"][..], extra].concat(),
            None,
        ))
    };
    assert_eq!(object_files(&lint(&[])), ["app/pod.yaml"]);
    assert_eq!(
        object_files(&lint(&["--no-ignore"])),
        ["app/pod.yaml", "out/rendered.yaml", "scratch.yaml"]
    );
    // Named explicitly, an ignored file is linted.
    assert_eq!(object_files(&lint(&["scratch.yaml"])), ["scratch.yaml"]);
}

#[test]
fn files_named_explicitly_stay_strict_unless_skip_non_k8s_is_asked() {
    let files = [
        "cnf-chart/Chart.yaml",
        "kustomize/base/labels.yaml",
        "app/application.yml",
    ];
    let strict = run_in(
        &repos(),
        &[&["lint", "--no-config", "--format", "json"][..], &files[..]].concat(),
        None,
    );
    assert_eq!(code(&strict), 2);
    let report = json(&strict);
    let codes: Vec<&str> = report["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .filter_map(|e| e["code"].as_str())
        .collect();
    assert_eq!(
        codes,
        [
            "ra2::object::missing-field",
            "ra2::object::not-a-mapping",
            "ra2::object::missing-field"
        ]
    );
    // apiVersion: builtin is linted as an object (and gets the alpha-api finding) when strict.
    assert_eq!(report["summary"]["skipped"], 0);
    let lenient = run_in(
        &repos(),
        &[
            &["lint", "--no-config", "--format", "json", "--skip-non-k8s"][..],
            &files[..],
        ]
        .concat(),
        None,
    );
    assert_eq!(code(&lenient), 0, "{}", stdout(&lenient));
    assert_eq!(json(&lenient)["summary"]["skipped"], 4);
    // Standard input: the same, and the config file can ask too.
    let compose = b"services: {web: {image: nginx}}\n";
    assert_eq!(code(&run_in(&repos(), &["lint", "--no-config", "-"], Some(compose))), 2);
    let config = TempDir::new("skip-non-k8s");
    let config_file = config.0.join("ra2.yaml");
    std::fs::write(&config_file, "skip-non-k8s: true\n").expect("write config");
    let output = run_in(
        &repos(),
        &[
            "lint",
            "--config",
            &config_file.to_string_lossy(),
            "--format",
            "json",
            "-",
        ],
        Some(compose),
    );
    assert_eq!(code(&output), 0, "{}", stdout(&output));
    assert_eq!(
        json(&output)["summary"]["skipped_by_reason"]["no apiVersion or kind"],
        1
    );
}

#[test]
fn json_output_follows_the_contract() {
    let report = json(&run(&[
        "lint",
        "manifests/upf.yaml",
        "--select",
        "ra2.app.007",
        "--no-config",
        "--format",
        "json",
    ]));
    assert_eq!(report["version"], 1);
    assert_eq!(report["tool"]["name"], "ra2");
    assert_eq!(report["edition"], "base");
    let finding = &report["findings"][0];
    for key in [
        "rule",
        "check",
        "severity",
        "message",
        "help",
        "file",
        "line",
        "column",
        "end_line",
        "end_column",
        "document",
        "object",
        "pointer",
    ] {
        assert!(finding.get(key).is_some(), "finding has {key}: {finding}");
    }
    assert_eq!(finding["file"], "manifests/upf.yaml");
    assert_eq!(report["summary"]["findings"]["warning"], 3);
}

// ---- exit codes ----

#[test]
fn fail_on_levels() {
    let lint = |extra: &[&str]| {
        let mut args = vec!["lint", "manifests/upf.yaml", "--select", "ra2.app.007", "--no-config"];
        args.extend_from_slice(extra);
        code(&run(&args))
    };
    assert_eq!(lint(&[]), 0, "warnings only, default --fail-on error");
    assert_eq!(lint(&["--fail-on", "error"]), 0);
    assert_eq!(lint(&["--fail-on", "warning"]), 1);
    assert_eq!(lint(&["--fail-on", "info"]), 1);
    assert_eq!(lint(&["--fail-on", "never"]), 0);
    assert_eq!(
        lint(&["--edition", "latest"]),
        1,
        "hostPath is an error in the latest edition"
    );
    assert_eq!(lint(&["--edition", "latest", "--fail-on", "never"]), 0);
}

#[test]
fn clean_input_exits_zero() {
    let output = run(&["lint", "clean", "--no-config"]);
    assert_eq!(code(&output), 0, "{}", stdout(&output));
    assert!(
        stdout(&output).contains("0 errors, 0 warnings, 0 infos in 1 object (1 file)"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn no_path_lints_the_working_directory() {
    let output = run_in(
        &data().join("clean"),
        &["lint", "--no-config", "--format", "json"],
        None,
    );
    assert_eq!(code(&output), 0);
    let report = json(&output);
    assert_eq!(report["objects"][0]["file"], "configmap.yml");
}

#[test]
fn missing_file_exits_two_and_the_rest_is_linted() {
    let output = run(&[
        "lint",
        "manifests/upf.yaml",
        "missing.yaml",
        "--select",
        "ra2.app.007",
        "--no-config",
    ]);
    assert_eq!(code(&output), 2);
    let text = stdout(&output);
    assert!(
        text.contains("missing.yaml:1:1: cannot read: No such file or directory"),
        "{text}"
    );
    assert!(text.contains("volume \"logs\" mounts host path /var/log/upf"), "{text}");
    assert!(
        text.contains("in 4 objects (1 file), edition base; 1 file could not be read"),
        "{text}"
    );

    let output = run(&[
        "lint",
        "missing.yaml",
        "manifests/upf.yaml",
        "--select",
        "ra2.app.007",
        "--no-config",
        "--format",
        "json",
    ]);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("missing.yaml: cannot read"),
        "{}",
        stderr(&output)
    );
    let report = json(&output);
    assert_eq!(report["errors"][0]["file"], "missing.yaml");
    assert_eq!(report["errors"][0]["code"], "ra2::input::not-found");
    assert_eq!(report["summary"]["findings"]["warning"], 3);
}

#[test]
fn file_that_is_not_utf8_is_named_with_the_reason() {
    let dir = TempDir::new("latin1");
    // The Latin-1 document fails alone: the pod after it in the same file is still linted.
    let mut latin1 = b"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {city: M\xfcnchen}\n---\n".to_vec();
    latin1.extend_from_slice(HOST_PATH_POD.as_bytes());
    dir.write("latin1.yaml", &latin1);
    dir.write("pod.yaml", HOST_PATH_POD.as_bytes());
    let output = run_in(
        &dir.0,
        &["lint", "--no-config", "--select", "ra2.app.007", "--format", "json"],
        None,
    );
    assert_eq!(code(&output), 2);
    let report = json(&output);
    assert_eq!(report["errors"][0]["file"], "latin1.yaml");
    assert_eq!(
        report["errors"][0]["message"],
        "not UTF-8: invalid byte 0xFC at line 4, column 15"
    );
    assert_eq!(report["errors"][0]["document"], 0);
    let found: Vec<(&str, u64, u64)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["file"].as_str().expect("file"),
                f["line"].as_u64().expect("line"),
                f["document"].as_u64().expect("document"),
            )
        })
        .collect();
    assert_eq!(
        found,
        [("latin1.yaml", 13, 1), ("pod.yaml", 8, 0)],
        "the other document and the other file are still linted"
    );
    // Snippets around the bad bytes still line up.
    let text = stdout(&run_in(
        &dir.0,
        &["lint", "--no-config", "--select", "ra2.app.007", "latin1.yaml"],
        None,
    ));
    assert!(
        text.contains("[latin1.yaml:13:23]") && text.contains(" 13 │   volumes: [{name: h, hostPath"),
        "{text}"
    );
}

#[test]
fn unparsable_document_exits_two_whatever_fail_on_says() {
    let output = run(&[
        "lint",
        "manifests/broken.yaml",
        "--select",
        "ra2.app.007",
        "--no-config",
        "--fail-on",
        "never",
        "--format",
        "json",
    ]);
    assert_eq!(code(&output), 2);
    let report = json(&output);
    assert_eq!(report["errors"][0]["line"], 19);
    assert_eq!(report["errors"][0]["document"], 1);
    assert_eq!(
        report["findings"][0]["object"]["name"], "node-agent",
        "documents after the bad one are linted"
    );
}

#[test]
fn bad_config_file_exits_two_naming_the_line() {
    let output = run(&["lint", "manifests/upf.yaml", "--config", "configs/bad.ra2.yaml"]);
    assert_eq!(code(&output), 2);
    assert_eq!(
        stderr(&output),
        "configs/bad.ra2.yaml:3:1: unknown key \"fail_on\" (did you mean \"fail-on\"?)\n"
    );
    assert_eq!(stdout(&output), "", "nothing is linted with a bad configuration");
}

#[test]
fn missing_config_file_exits_two() {
    let output = run(&["lint", "manifests/upf.yaml", "--config", "configs/nope.yaml"]);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("cannot read config file configs/nope.yaml"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn unknown_rule_ids_are_usage_errors_with_a_suggestion() {
    let output = run(&["lint", "manifests/upf.yaml", "--no-config", "--select", "ra2.app.07"]);
    assert_eq!(code(&output), 2);
    assert_eq!(
        stderr(&output),
        "error: unknown rule \"ra2.app.07\" in --select (did you mean \"ra2.app.007\"?)\n"
    );

    let output = run(&[
        "lint",
        "manifests/upf.yaml",
        "--no-config",
        "--ignore",
        "ra2.app.001,ra2.app.007/hostpath",
    ]);
    assert_eq!(code(&output), 2);
    assert_eq!(
        stderr(&output),
        "error: unknown rule \"ra2.app.007/hostpath\" in --ignore (did you mean \"ra2.app.007/host-path\"?)\n"
    );
}

#[test]
fn select_and_ignore_take_lists_prefixes_and_checks() {
    let checks = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["lint", "manifests/upf.yaml", "--no-config", "--format", "json"];
        args.extend_from_slice(extra);
        let report = json(&run(&args));
        report["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .map(|f| {
                format!(
                    "{}/{}",
                    f["rule"].as_str().unwrap_or(""),
                    f["check"].as_str().unwrap_or("")
                )
            })
            .collect()
    };
    assert_eq!(
        checks(&["--select", "ra2.app.007/pv"]),
        ["ra2.app.007/pv", "ra2.app.007/pv"]
    );
    assert_eq!(
        checks(&["--select", "ra2.app.007", "--ignore", "ra2.app.007/pv"]),
        ["ra2.app.007/host-path"]
    );
    assert_eq!(
        checks(&["--select", "ra2.app.001", "--select", "ra2.app.007/host-path"])
            .iter()
            .filter(|c| c.starts_with("ra2.app.007"))
            .count(),
        1
    );
    assert!(
        checks(&["--select", "ra2.app", "--ignore", "ra2.app.007,ra2.app.001"])
            .iter()
            .all(|c| !c.starts_with("ra2.app.007"))
    );
}

#[test]
fn usage_errors_exit_two() {
    assert_eq!(code(&run(&["lint", "--format", "yaml"])), 2);
    assert_eq!(code(&run(&["lint", "--fail-on", "sometimes"])), 2);
    assert_eq!(code(&run(&["frobnicate"])), 2);
    assert_eq!(code(&run(&["--version"])), 0);
}

// ---- standard input ----

#[test]
fn stdin_gives_the_same_findings_as_the_file() {
    for file in [
        "manifests/upf.yaml",
        "manifests/broken.yaml",
        "manifests/pod.json",
        "manifests/kustomize/list.yaml",
    ] {
        let text = std::fs::read(data().join(file)).expect("fixture");
        let args = ["--select", "ra2.app.007", "--no-config", "--format", "json"];
        let from_file = run(&[&["lint", file][..], &args].concat());
        let from_stdin = run_in(&data(), &[&["lint", "-"][..], &args].concat(), Some(&text));
        assert_eq!(code(&from_file), code(&from_stdin), "{file}");
        let expected = stdout(&from_file).replace(&format!("\"{file}\""), "\"<stdin>\"");
        assert_eq!(stdout(&from_stdin), expected, "{file}");
    }
}

#[test]
fn stdin_text_output_has_snippets() {
    let output = run_in(
        &data(),
        &["lint", "-", "--no-config", "--select", "ra2.app.007"],
        Some(HOST_PATH_POD.as_bytes()),
    );
    assert_eq!(code(&output), 0);
    let text = stdout(&output);
    assert!(text.contains("[<stdin>:8:23]"), "{text}");
    assert!(
        text.contains("volumes: [{name: h, hostPath: {path: /var/lib/p}}]"),
        "{text}"
    );
}

#[test]
fn stdin_streams_many_documents_with_bad_bytes_late() {
    let mut input = Vec::new();
    for i in 0..500 {
        input.extend_from_slice(format!("---\n# Source: chart/templates/pod-{i}.yaml\n").as_bytes());
        input.extend_from_slice(HOST_PATH_POD.replace("name: p\n", &format!("name: p{i}\n")).as_bytes());
    }
    // Each document: `---`, the `# Source:` comment, then the pod.
    let lines = 500 * (2 + HOST_PATH_POD.lines().count());
    input.extend_from_slice(b"---\nbad: \xff\n");
    let output = run_in(
        &data(),
        &[
            "lint",
            "-",
            "--no-config",
            "--select",
            "ra2.app.007",
            "--format",
            "json",
        ],
        Some(&input),
    );
    assert_eq!(code(&output), 2);
    let report = json(&output);
    assert_eq!(
        report["summary"]["findings"]["warning"], 500,
        "everything before the bad bytes is linted"
    );
    assert_eq!(report["errors"][0]["file"], "<stdin>");
    assert_eq!(report["errors"][0]["line"], lines + 2);
    let last = &report["findings"][499];
    assert_eq!(
        last["line"], lines,
        "the last hostPath is on the last line of the last pod"
    );
}

// ---- configuration ----

#[test]
fn config_is_found_in_a_parent_directory_and_flags_override_it() {
    let dir = TempDir::new("discovery");
    dir.write(".ra2.yaml", b"edition: latest\nselect: [ra2.app.007]\n");
    dir.write("deploy/overlays/prod/pod.yaml", HOST_PATH_POD.as_bytes());
    let cwd = dir.0.join("deploy").join("overlays");
    let lint = |extra: &[&str]| {
        let mut args = vec!["lint", "prod", "--format", "json"];
        args.extend_from_slice(extra);
        run_in(&cwd, &args, None)
    };
    let output = lint(&[]);
    assert_eq!(
        code(&output),
        1,
        "hostPath is an error in the latest edition: {}",
        stderr(&output)
    );
    let report = json(&output);
    assert_eq!(report["edition"], "latest");
    assert_eq!(
        report["findings"].as_array().map(Vec::len),
        Some(1),
        "select from the config applies"
    );
    assert_eq!(report["findings"][0]["file"], "prod/pod.yaml");

    assert_eq!(code(&lint(&["--edition", "base"])), 0, "--edition overrides the config");
    assert_eq!(
        code(&lint(&["--fail-on", "never"])),
        0,
        "--fail-on overrides the config"
    );
    assert_eq!(
        json(&lint(&["--no-config"]))["edition"],
        "base",
        "--no-config ignores it"
    );
}

#[test]
fn config_fail_on_applies() {
    let dir = TempDir::new("fail-on");
    let config = dir.write("strict.yaml", b"fail-on: warning\nselect: ra2.app.007\n");
    dir.write("pod.yaml", HOST_PATH_POD.as_bytes());
    let config = config.to_string_lossy().into_owned();
    assert_eq!(
        code(&run_in(&dir.0, &["lint", "pod.yaml", "--config", &config], None)),
        1
    );
    assert_eq!(
        code(&run_in(
            &dir.0,
            &["lint", "pod.yaml", "--config", &config, "--fail-on", "error"],
            None
        )),
        0
    );
}

#[test]
fn unused_exemptions_are_reported_at_their_line_and_used_ones_counted_by_reason() {
    let dir = TempDir::new("exemptions");
    dir.write(
        ".ra2.yaml",
        b"exemptions:\n  - rule: ra2.app.007\n    name: p\n    reason: node agent\n  - rule: ra2.app.007\n    name: gone-*\n    reason: old agent\n",
    );
    dir.write("pod.yaml", HOST_PATH_POD.as_bytes());
    let output = run_in(&dir.0, &["lint", "pod.yaml", "--format", "json"], None);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let report = json(&output);
    let findings: Vec<(&str, &str, &str, u64)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["rule"] == "ra2.app.007" || f["rule"] == "exemption")
        .map(|f| {
            (
                f["rule"].as_str().unwrap_or(""),
                f["check"].as_str().unwrap_or(""),
                f["file"].as_str().unwrap_or(""),
                f["line"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(findings, [("exemption", "unused", ".ra2.yaml", 5)]);
    assert_eq!(report["summary"]["suppressed_by_reason"]["node agent"], 1);

    let text = stdout(&run_in(
        &dir.0,
        &["lint", "pod.yaml", "--select", "ra2.app.007,exemption"],
        None,
    ));
    assert!(text.contains("exemption/unused"), "{text}");
    assert!(
        text.contains("exemption for ra2.app.007 (name gone-*) matched no finding"),
        "{text}"
    );
    assert!(
        text.contains(" 5 │   - rule: ra2.app.007"),
        "a snippet of the config file: {text}"
    );
}

// ---- Helm post-renderer ----

/// A stream exactly as helm writes it, plus what a byte-for-byte copy must keep: a BOM, CRLF
/// line ends, comments, odd spacing and no final line break.
const CLEAN_STREAM: &[u8] = b"\xEF\xBB\xBF---\r\n# Source: cnf/templates/cm.yaml\r\napiVersion: v1\r\nkind:   ConfigMap\r\nmetadata: {name: c}   # trailing comment\r\ndata:\r\n  k: 'v'\r\n---\n# Source: cnf/templates/pod.yaml\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: core}\nspec:\n  containers: [{name: c, image: registry.example.com/c:1.0}]";

#[test]
fn post_render_passes_the_stream_through_byte_for_byte() {
    let output = run_in(
        &data(),
        &["lint", "--post-render", "--select", "ra2.app.007", "--no-config"],
        Some(CLEAN_STREAM),
    );
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert_eq!(output.stdout, CLEAN_STREAM);
    assert_eq!(stderr(&output), "", "a clean stream is passed on silently");

    let dash = run_in(
        &data(),
        &["lint", "-", "--post-render", "--select", "ra2.app.007", "--no-config"],
        Some(CLEAN_STREAM),
    );
    assert_eq!(code(&dash), 0);
    assert_eq!(dash.stdout, CLEAN_STREAM, "`-` is allowed");
}

#[test]
fn post_render_passes_findings_below_fail_on_and_reports_them_on_stderr() {
    let input = format!("# Source: cnf/templates/pod.yaml\n{HOST_PATH_POD}");
    let output = run_in(
        &data(),
        &["lint", "--post-render", "--select", "ra2.app.007", "--no-config"],
        Some(input.as_bytes()),
    );
    assert_eq!(code(&output), 0, "hostPath is a warning in the base edition");
    assert_eq!(output.stdout, input.as_bytes());
    let err = stderr(&output);
    assert!(err.contains("ra2.app.007/host-path"), "{err}");
}

#[test]
fn post_render_failure_writes_nothing_to_stdout_and_the_report_to_stderr() {
    let input = format!("---\n# Source: cnf/templates/pod.yaml\n{HOST_PATH_POD}");
    let output = run_in(
        &data(),
        &[
            "lint",
            "--post-render",
            "--select",
            "ra2.app.007",
            "--no-config",
            "--fail-on",
            "warning",
        ],
        Some(input.as_bytes()),
    );
    assert_eq!(code(&output), 1);
    assert!(output.stdout.is_empty(), "Helm must not apply a failing stream");
    let err = stderr(&output);
    assert!(err.contains("ra2.app.007/host-path"), "{err}");
    assert!(err.contains("[<stdin>:10:"), "snippets point into the stream: {err}");
    assert!(err.contains("template: cnf/templates/pod.yaml"), "{err}");

    let as_json = run_in(
        &data(),
        &[
            "lint",
            "--post-render",
            "--select",
            "ra2.app.007",
            "--no-config",
            "--fail-on",
            "warning",
            "--format",
            "json",
        ],
        Some(input.as_bytes()),
    );
    assert_eq!(code(&as_json), 1);
    let report: serde_json::Value = serde_json::from_slice(&as_json.stderr).expect("the report is JSON on stderr");
    assert_eq!(report["findings"][0]["source_template"], "cnf/templates/pod.yaml");
}

#[test]
fn post_render_errors_exit_two_with_nothing_on_stdout() {
    let broken = run_in(
        &data(),
        &["lint", "--post-render", "--no-config"],
        Some(b"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [\n"),
    );
    assert_eq!(code(&broken), 2);
    assert!(broken.stdout.is_empty());
    assert!(stderr(&broken).contains("ra2::parse::yaml"), "{}", stderr(&broken));

    let not_utf8 = run_in(&data(), &["lint", "--post-render", "--no-config"], Some(b"a: \xff\n"));
    assert_eq!(code(&not_utf8), 2);
    assert!(not_utf8.stdout.is_empty());
    assert!(stderr(&not_utf8).contains("not UTF-8"), "{}", stderr(&not_utf8));

    let with_paths = run_in(
        &data(),
        &["lint", "--post-render", "manifests", "--no-config"],
        Some(CLEAN_STREAM),
    );
    assert_eq!(code(&with_paths), 2);
    assert!(with_paths.stdout.is_empty());
    assert!(stderr(&with_paths).contains("standard input only"));
}

// ---- the catalogue ----

#[test]
fn rules_golden() {
    let output = run(&["rules"]);
    assert_eq!(code(&output), 0);
    insta::assert_snapshot!("rules", stdout(&output));
}

#[test]
fn rules_json_is_the_catalogue_of_the_edition() {
    let output = run(&["rules", "--format", "json", "--edition", "latest"]);
    assert_eq!(code(&output), 0);
    let rules = json(&output);
    let rules = rules.as_array().expect("an array");
    let host_path = rules
        .iter()
        .find(|r| r["id"] == "ra2.app.007")
        .expect("ra2.app.007 is listed");
    assert_eq!(host_path["severity"]["latest"], "error");
    assert!(host_path["checks"].as_array().is_some_and(|c| c.len() == 2));
    assert!(rules.iter().all(|r| {
        r["editions"]
            .as_array()
            .is_some_and(|e| e.iter().any(|e| e == "latest"))
    }));
}

/// `ra2 rules --all` adds the chapter-4 requirements ra2 cannot check; its JSON wraps the
/// unchanged rule array, which `ra2 rules --format json` still prints bare.
#[test]
fn rules_all_lists_the_requirements_ra2_cannot_check() {
    let output = run(&["rules", "--all"]);
    assert_eq!(code(&output), 0);
    let text = stdout(&output);
    assert!(text.starts_with(&stdout(&run(&["rules"]))), "{text}");
    assert!(
        text.contains("ra2.ch.004  CPU Simultaneous Multi-Threading (SMT) (not checkable)"),
        "{text}"
    );
    assert!(text.contains("(not applicable)"), "{text}");
    let all = json(&run(&["rules", "--all", "--format", "json"]));
    assert_eq!(all["rules"], json(&run(&["rules", "--format", "json"])));
    let unchecked = all["unchecked"].as_array().expect("unchecked is an array");
    let ids: Vec<&str> = unchecked
        .iter()
        .flat_map(|u| u["ids"].as_array().unwrap().iter().map(|i| i.as_str().unwrap()))
        .collect();
    assert!(ids.contains(&"ra2.k8s.001") && ids.contains(&"ra2.ch.016"), "{ids:?}");
    assert!(!ids.contains(&"ra2.k8s.012"), "ra2.k8s.012 is checked");
    assert!(
        unchecked
            .iter()
            .all(|u| u["reason"].as_str().is_some_and(|r| !r.is_empty()))
    );
}

#[test]
fn explain_golden() {
    let output = run(&["explain", "ra2.app.007"]);
    assert_eq!(code(&output), 0);
    insta::assert_snapshot!("explain_ra2.app.007", stdout(&output));
}

#[test]
fn explain_one_check() {
    let output = run(&["explain", "ra2.app.007/pv"]);
    assert_eq!(code(&output), 0);
    let text = stdout(&output);
    assert!(
        text.contains("check pv: PersistentVolume is backed by a host path"),
        "{text}"
    );
    assert!(!text.contains("host-path ("), "only the pv check is described:\n{text}");
}

#[test]
fn explain_unknown_ids_exit_two_with_a_suggestion() {
    let output = run(&["explain", "ra2.app.07"]);
    assert_eq!(code(&output), 2);
    assert_eq!(
        stderr(&output),
        "error: unknown rule \"ra2.app.07\" (did you mean \"ra2.app.007\"?)\n"
    );
    let output = run(&["explain", "ra2.app.007/hostpath"]);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("did you mean \"ra2.app.007/host-path\"?"),
        "{}",
        stderr(&output)
    );
}

// ---- line endings ----

/// `\n`, `\r\n` and a lone `\r` all end a line, as for libyaml: every format, files and
/// standard input, places the hostPath of the second document at line 17, column 23.
#[test]
fn every_line_ending_gives_the_same_positions_in_every_format() {
    let two = format!("{HOST_PATH_POD}---\n{HOST_PATH_POD}");
    let dir = TempDir::new("line-endings");
    for (ending, name) in [("\n", "lf"), ("\r\n", "crlf"), ("\r", "cr")] {
        let text = two.replace('\n', ending);
        let file = format!("{name}.yaml");
        dir.write(&file, text.as_bytes());
        let mut seen = Vec::new();
        for (args, stdin) in [
            (
                vec!["lint", "--select", "ra2.app.007", "--format", "json", file.as_str()],
                None,
            ),
            (
                vec!["lint", "--select", "ra2.app.007", "--format", "json", "-"],
                Some(text.as_bytes()),
            ),
        ] {
            let report = json(&run_in(&dir.0, &args, stdin));
            let places: Vec<(u64, u64, u64)> = report["findings"]
                .as_array()
                .expect("findings")
                .iter()
                .map(|f| {
                    let n = |k: &str| f[k].as_u64().expect("number");
                    (n("line"), n("column"), n("document"))
                })
                .collect();
            seen.push(places);
        }
        assert_eq!(seen[0], vec![(8, 23, 0), (17, 23, 1)], "{name}");
        assert_eq!(seen[1], seen[0], "{name}: standard input");
        let github = stdout(&run_in(
            &dir.0,
            &["lint", "--select", "ra2.app.007", "--format", "github", &file],
            None,
        ));
        assert!(
            github.contains(&format!("file={file},line=17,col=23")),
            "{name}: {github}"
        );
        let text_out = stdout(&run_in(&dir.0, &["lint", "--select", "ra2.app.007", &file], None));
        assert!(text_out.contains(&format!("[{file}:17:23]")), "{name}: {text_out}");
        assert!(
            text_out.contains(" 17 │   volumes: [{name: h, hostPath: {path: /var/lib/p}}]"),
            "{name}: the snippet shows the line alone:\n{text_out}"
        );
    }
}

#[test]
fn completions_cover_every_command_and_parse_in_their_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = run(&["completions", shell]);
        assert_eq!(code(&out), 0, "{shell}: {}", String::from_utf8_lossy(&out.stderr));
        let script = String::from_utf8(out.stdout).unwrap();
        for word in ["lint", "rules", "explain", "serve", "fail-on", "max-depth"] {
            assert!(script.contains(word), "{shell} completion lacks {word}");
        }
        // Syntax-check the script in its own shell where that shell is installed (bash always is).
        let check = match shell {
            "bash" => Some(("bash", "-n")),
            "zsh" => Some(("zsh", "-n")),
            "fish" => Some(("fish", "--no-execute")),
            _ => None,
        };
        if let Some((program, flag)) = check {
            let mut child = match Command::new(program)
                .arg(flag)
                .stdin(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
            {
                Ok(child) => child,
                Err(_) if program != "bash" => continue,
                Err(e) => panic!("bash: {e}"),
            };
            child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
            let checked = child.wait_with_output().unwrap();
            assert!(
                checked.status.success(),
                "{shell}: {}",
                String::from_utf8_lossy(&checked.stderr)
            );
        }
    }
    assert_eq!(code(&run(&["completions", "tcsh"])), 2);
}

#[test]
fn man_pages_document_every_flag() {
    let page = |args: &[&str]| {
        let out = run(args);
        assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
        // roff escapes the hyphens of flags.
        String::from_utf8(out.stdout).unwrap().replace("\\-", "-")
    };
    let top = page(&["man"]);
    assert!(top.starts_with(".ie") && top.contains(".TH ra2 1"), "{top}");
    for command in ["lint", "rules", "explain", "serve"] {
        let text = page(&["man", command]);
        assert!(text.contains(&format!(".TH ra2-{command} 1")), "{text}");
        // Every long flag of `ra2 COMMAND --help` is on its page.
        let help = String::from_utf8(run(&[command, "--help"]).stdout).unwrap();
        for flag in help.split_whitespace().filter(|w| w.starts_with("--")) {
            let flag = flag.trim_end_matches([',', '.', ')', ']']);
            let flag = flag.split(['=', '<', '`']).next().unwrap();
            if flag.len() > 2 && help.contains(&format!("      {flag}")) {
                assert!(text.contains(flag), "ra2-{command}(1) lacks {flag}");
            }
        }
    }
    let out = run(&["man", "nope"]);
    assert_eq!(code(&out), 2);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("commands: lint"),
        "{out:?}"
    );
}

#[test]
fn every_face_carries_the_same_version() {
    let version = env!("CARGO_PKG_VERSION");
    let out = run(&["--version"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), format!("ra2 {version}"));
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let chart = std::fs::read_to_string(root.join("deploy/ra2/Chart.yaml")).unwrap();
    for key in ["version", "appVersion"] {
        let line = chart.lines().find(|l| l.starts_with(&format!("{key}:"))).unwrap();
        assert_eq!(
            line.split(':').nth(1).unwrap().trim().trim_matches('"'),
            version,
            "Chart.yaml {key}"
        );
    }
    let plugin = std::fs::read_to_string(root.join("deploy/helm-plugin/plugin.yaml")).unwrap();
    assert!(
        plugin.contains(&format!("\nversion: \"{version}\"\n")),
        "deploy/helm-plugin/plugin.yaml version"
    );
    let metadata = std::fs::read_to_string(root.join("ra2-wasm/metadata.yml")).unwrap();
    assert!(
        metadata.contains(&format!("io.kubewarden.policy.version: {version}\n")),
        "ra2-wasm/metadata.yml io.kubewarden.policy.version"
    );
    // Python's __version__ and the JS module's version() are env!("CARGO_PKG_VERSION") of the same
    // workspace; their own tests compare them with this number.
    let workspace = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    assert!(workspace.contains(&format!("\nversion = \"{version}\"\n")));
}

#[test]
fn rules_take_the_edition_of_the_config_file_like_lint() {
    let dir = TempDir::new("rules-config");
    let ids = |out: &Output| -> Vec<String> {
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let docs: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        docs.as_array()
            .expect("array")
            .iter()
            .filter_map(|d| d["id"].as_str().map(str::to_owned))
            .collect()
    };
    let base = ids(&run_in(&dir.0, &["rules", "--format", "json"], None));
    assert!(base.iter().any(|id| id == "ra2.app.001"), "no config: base");
    dir.write(".ra2.yaml", b"edition: latest\n");
    dir.write("sub/x.txt", b"");
    let latest = ids(&run_in(&dir.0.join("sub"), &["rules", "--format", "json"], None));
    assert!(
        !latest.iter().any(|id| id == "ra2.app.001"),
        "the parent's .ra2.yaml: latest"
    );
    let flag = ids(&run_in(
        &dir.0.join("sub"),
        &["rules", "--format", "json", "--edition", "base"],
        None,
    ));
    assert_eq!(flag, base, "--edition wins");
    dir.write(".ra2.yaml", b"edition: newest\n");
    let out = run_in(&dir.0, &["rules"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(".ra2.yaml:1:1: \"newest\" is not one of"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

// ---- ra2 export vap ----

#[test]
fn export_vap_writes_policies_and_bindings() {
    let dir = TempDir::new("export-vap");
    let output = run_in(&dir.0, &["export", "vap", "--edition", "latest"], None);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.starts_with("# ra2 export vap: edition latest, fail-on error"),
        "{text}"
    );
    assert!(text.contains("kind: \"ValidatingAdmissionPolicy\"\n"), "{text}");
    assert!(text.contains("name: \"ra2-workloads-deny\""), "{text}");
    assert!(text.contains("policyName: \"ra2-workloads-warn\""), "{text}");
    assert!(text.contains("app.kubernetes.io/managed-by: \"ra2\""), "{text}");
    let policies = text.matches("kind: \"ValidatingAdmissionPolicy\"\n").count();
    let bindings = text.matches("kind: \"ValidatingAdmissionPolicyBinding\"\n").count();
    assert_eq!(policies, bindings);
}

#[test]
fn export_vap_lists_every_check_with_a_reason_when_not_exported() {
    let dir = TempDir::new("export-vap-list");
    let output = run_in(
        &dir.0,
        &["export", "vap", "--list", "--format", "json", "--edition", "latest"],
        None,
    );
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let listed = json(&output);
    let items = listed.as_array().expect("an array");
    assert!(
        items
            .iter()
            .any(|i| i["rule"] == "ra2.app.041" && i["check"] == "privileged" && i["exported"] == true)
    );
    assert!(
        items
            .iter()
            .filter(|i| i["exported"] == false)
            .all(|i| i["reason"].as_str().is_some_and(|r| !r.is_empty()))
    );
    let text = stdout(&run_in(&dir.0, &["export", "vap", "--list"], None));
    assert!(text.contains("ra2.app.003/privileged"), "{text}");
    assert!(
        text.lines().last().is_some_and(|l| l.ends_with("checks exported")),
        "{text}"
    );
}

#[test]
fn export_vap_refuses_settings_it_cannot_express() {
    let dir = TempDir::new("export-vap-bad");
    let config = dir.write(
        "ra2.yaml",
        b"edition: latest\nexemptions:\n  - {rule: ra2.app.041, template: 'templates/agent.yaml', reason: lab}\n",
    );
    let config = config.to_string_lossy().into_owned();
    let output = run_in(&dir.0, &["export", "vap", "--config", &config], None);
    assert_eq!(code(&output), 2);
    assert!(stdout(&output).is_empty());
    assert!(stderr(&output).contains("templates/agent.yaml"), "{}", stderr(&output));
    let output = run_in(&dir.0, &["export", "vap", "--kubernetes-version", "1.29"], None);
    assert_eq!(code(&output), 2);
    assert!(stderr(&output).contains("1.29"), "{}", stderr(&output));
}
