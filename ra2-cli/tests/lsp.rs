//! `ra2 lsp` with a real client: Neovim, headless, driven by `tests/lsp/client.lua`. It opens a
//! manifest, edits it, applies a quick fix and `source.fixAll.ra2`, and saves a Helm chart
//! template; what it saw is compared with `ra2 lint` on the same texts: the same findings at
//! the same lines and columns, the fixed text byte for byte what `ra2 lint --fix` writes, and
//! the template's diagnostics where `helm template | ra2 lint -` maps its findings.
//!
//! Skipped with a note when `nvim` is not installed, unless `RA2_REQUIRE_NVIM=1` (scripts/test
//! installs Debian's neovim and sets it); the Helm part needs helm (`RA2_HELM`, else `helm` on
//! PATH; scripts/recipe-tools provides it).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const POD: &str = "apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: shop
spec:
  containers:
    - name: app
      image: registry.example.com/app:1.0
      resources:
        limits: {cpu: 500m, memory: 256Mi}
";

/// The manifest after the edit: a second container, written in flow style (the fixes keep it).
const EDITED: &str = "apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: shop
spec:
  containers:
    - name: app
      image: registry.example.com/app:1.0
      resources:
        limits: {cpu: 500m, memory: 256Mi}
    - name: sidecar  # added
      image: registry.example.com/sidecar:2.1
      securityContext: {runAsNonRoot: true}
";

const CHART: &str = "apiVersion: v2\nname: shop\nversion: 0.1.0\n";
const VALUES: &str = "image: registry.example.com/shop:1.0\nreplicas: 2\n";
const TEMPLATE: &str = r"apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}-shop
  labels:
    app: shop
spec:
  replicas: {{ .Values.replicas }}
  selector:
    matchLabels:
      app: shop
  template:
    metadata:
      labels:
        app: shop
    spec:
      containers:
        - name: shop
          image: {{ .Values.image | quote }}
          securityContext:
            privileged: true
";

fn ra2() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ra2"))
}

fn required() -> bool {
    std::env::var("RA2_REQUIRE_NVIM").is_ok_and(|v| v == "1")
}

/// `ra2 lint --format json` of `text` (standard input), run in `dir`.
fn lint_json(dir: &Path, text: &str, extra: &[&str]) -> Value {
    let out = run_with_stdin(
        ra2()
            .args(["lint", "--format", "json"])
            .args(extra)
            .arg("-")
            .current_dir(dir),
        text,
    );
    serde_json::from_slice(&out).unwrap_or_else(|e| panic!("JSON ({e}): {}", String::from_utf8_lossy(&out)))
}

fn run_with_stdin(command: &mut Command, text: &str) -> Vec<u8> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    {
        use std::io::Write as _;
        let mut pipe = child.stdin.take().expect("stdin");
        pipe.write_all(text.as_bytes()).expect("write stdin");
    }
    child.wait_with_output().expect("runs").stdout
}

/// Findings as (code, line, column, end line, end column), sorted.
fn from_lint(report: &Value) -> Vec<(String, u64, u64, u64, u64)> {
    let mut out: Vec<_> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                format!(
                    "{}/{}",
                    f["rule"].as_str().unwrap_or(""),
                    f["check"].as_str().unwrap_or("")
                ),
                f["line"].as_u64().unwrap_or(0),
                f["column"].as_u64().unwrap_or(0),
                f["end_line"].as_u64().unwrap_or(0),
                f["end_column"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    out.sort();
    out
}

/// Diagnostics as the same tuples (LSP positions are 0-based; the texts are ASCII, so UTF-16
/// units are characters).
fn from_lsp(diagnostics: &Value) -> Vec<(String, u64, u64, u64, u64)> {
    let mut out: Vec<_> = diagnostics
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            assert_eq!(d["source"], "ra2", "{d}");
            let at = |end: &str, key: &str| d["range"][end][key].as_u64().unwrap_or(0) + 1;
            (
                d["code"].as_str().unwrap_or("").to_owned(),
                at("start", "line"),
                at("start", "character"),
                at("end", "line"),
                at("end", "character"),
            )
        })
        .collect();
    out.sort();
    out
}

fn helm() -> Option<PathBuf> {
    let helm = std::env::var_os("RA2_HELM").map_or_else(|| PathBuf::from("helm"), PathBuf::from);
    let works = Command::new(&helm)
        .arg("version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    works.then_some(helm)
}

#[test]
fn neovim_sees_what_ra2_lint_reports() {
    let nvim = Command::new("nvim").arg("--version").output();
    let Some(version) = nvim.ok().filter(|o| o.status.success()) else {
        assert!(!required(), "RA2_REQUIRE_NVIM=1 but nvim cannot be run");
        eprintln!("skipped: nvim is not installed (apt-get install neovim; RA2_REQUIRE_NVIM=1 makes this a failure)");
        return;
    };
    eprintln!(
        "{}",
        String::from_utf8_lossy(&version.stdout)
            .lines()
            .next()
            .unwrap_or("nvim")
    );
    let helm = helm();
    assert!(
        helm.is_some() || !required(),
        "RA2_REQUIRE_NVIM=1 but no helm (RA2_HELM)"
    );
    if helm.is_none() {
        eprintln!("note: no helm (RA2_HELM, or helm on PATH): the chart part is skipped");
    }

    let dir = std::env::temp_dir().join(format!("ra2-lsp-nvim-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("chart/templates")).expect("dirs");
    let dir = dir.canonicalize().expect("canonical");
    std::fs::write(dir.join("pod.yaml"), POD).expect("write");
    std::fs::write(dir.join("edited.txt"), EDITED).expect("write");
    std::fs::write(dir.join("chart/Chart.yaml"), CHART).expect("write");
    std::fs::write(dir.join("chart/values.yaml"), VALUES).expect("write");
    let template = dir.join("chart/templates/deployment.yaml");
    std::fs::write(&template, TEMPLATE).expect("write");
    let out_file = dir.join("out.json");

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lsp/client.lua");
    let mut child = Command::new("nvim")
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c"])
        .arg(format!("luafile {}", script.display()))
        .current_dir(&dir)
        .env("RA2_BIN", env!("CARGO_BIN_EXE_ra2"))
        .env("RA2_LSP_ROOT", &dir)
        .env("RA2_LSP_MANIFEST", dir.join("pod.yaml"))
        .env("RA2_LSP_EDITED", dir.join("edited.txt"))
        .env("RA2_LSP_TEMPLATE", &template)
        .env("RA2_LSP_OUT", &out_file)
        .env("RA2_HELM", helm.as_deref().unwrap_or(Path::new("")))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        // Neovim's messages ("... written"); what the client saw is in the results file.
        .stderr(Stdio::null())
        .spawn()
        .expect("nvim starts");
    let deadline = Instant::now() + Duration::from_secs(180);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("nvim did not finish in 180 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let out: Value =
        serde_json::from_slice(&std::fs::read(&out_file).expect("nvim wrote its results")).expect("results are JSON");
    assert!(out.get("error").is_none(), "the Lua client failed: {}", out["error"]);
    assert!(status.success(), "nvim exited with {status}");
    assert_eq!(out["offset_encoding"], "utf-16");

    // Opened: the diagnostics are `ra2 lint`'s findings of the file.
    let lint = |text: &str| from_lint(&lint_json(&dir, text, &[]));
    let opened = from_lsp(&out["opened"]);
    assert!(!opened.is_empty());
    assert_eq!(opened, lint(POD));
    let hover = out["hover"].as_str().unwrap_or_default();
    assert!(
        hover.contains("Requirement") && hover.contains(&opened[0].0),
        "hover: {hover}"
    );

    // Edited: updated.
    let edited = from_lsp(&out["edited"]);
    assert_eq!(edited, lint(EDITED));
    assert_ne!(edited, opened);

    // The quick fix removed its one finding and added none; the diagnostics followed.
    let quickfixed = out["quickfixed"].as_str().expect("text");
    let after = lint(quickfixed);
    assert_eq!(from_lsp(&out["after_quickfix"]), after);
    let count =
        |v: &[(String, u64, u64, u64, u64)]| v.iter().filter(|f| f.0 == "ra2.app.003/privilege-escalation").count();
    assert_eq!(count(&after), count(&edited) - 1, "{quickfixed}");
    assert_eq!(after.len(), edited.len() - 1, "{quickfixed}");
    assert!(
        out["actions"]
            .as_array()
            .expect("actions")
            .iter()
            .any(|a| a["kind"] == "source.fixAll.ra2")
    );

    // source.fixAll.ra2: the buffer is what `ra2 lint --fix` writes, from either text.
    assert_eq!(out["fix_all_kind"], "source.fixAll.ra2");
    let all_fixed = out["all_fixed"].as_str().expect("text");
    let fix = |text: &str| {
        String::from_utf8(run_with_stdin(
            ra2().args(["lint", "--fix", "-"]).current_dir(&dir),
            text,
        ))
        .expect("UTF-8")
    };
    assert_eq!(all_fixed, fix(quickfixed));
    assert_eq!(all_fixed, fix(EDITED));
    assert_ne!(all_fixed, EDITED);
    assert_eq!(from_lsp(&out["after_fix_all"]), lint(all_fixed));

    // The template: nothing as plain YAML; after the save, the chart's findings at the lines
    // `helm template | ra2 lint -` maps them to.
    assert_eq!(out["template_before_save"], 0);
    let Some(helm) = helm else { return };
    let rendered = Command::new(&helm)
        .args(["template"])
        .arg(dir.join("chart"))
        .output()
        .expect("helm runs");
    assert!(rendered.status.success());
    let report = lint_json(
        &dir,
        &String::from_utf8_lossy(&rendered.stdout),
        &["--chart-root", "chart"],
    );
    let mut expected: Vec<(String, u64, u64)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["template"]["file"] == "chart/templates/deployment.yaml")
        .map(|f| {
            (
                format!(
                    "{}/{}",
                    f["rule"].as_str().unwrap_or(""),
                    f["check"].as_str().unwrap_or("")
                ),
                f["template"]["line"].as_u64().unwrap_or(0),
                f["template"]["column"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    expected.sort();
    assert!(expected.iter().any(|f| f.0 == "ra2.app.003/privileged"), "{expected:?}");
    let got: Vec<(String, u64, u64)> = from_lsp(&out["template"])
        .into_iter()
        .map(|(code, line, column, _, _)| (code, line, column))
        .collect();
    assert_eq!(got, expected);
    let hover = out["template_hover"].as_str().unwrap_or_default();
    assert!(
        got.iter().any(|g| hover.contains(&g.0)) && hover.contains("Requirement"),
        "template hover: {hover}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A client that writes a lot before it reads (50 large documents opened at once) gets every
/// answer: `ra2 lsp` keeps reading while its output waits (it once stopped, both sides
/// waiting for the other to read).
#[test]
fn a_client_that_writes_before_it_reads_is_answered() {
    use std::io::{BufRead as _, BufReader, Read as _, Write as _};
    fn frame(message: &Value) -> Vec<u8> {
        let body = message.to_string();
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }
    let mut child = ra2()
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("ra2 lsp starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let documents: usize = 50;
    let writer = std::thread::spawn(move || {
        let mut out = frame(&serde_json::json!({
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": { "processId": null, "rootUri": null, "capabilities": {},
                        "initializationOptions": { "debounceMs": 0 } }
        }));
        out.extend(frame(
            &serde_json::json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }),
        ));
        let text = POD.repeat(40).replace("kind: Pod", "---\nkind: Pod");
        for i in 0..documents {
            out.extend(frame(&serde_json::json!({
                "jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": { "textDocument": { "uri": format!("untitled:doc-{i}.yaml"), "languageId": "yaml", "version": 1, "text": text } }
            })));
        }
        stdin.write_all(&out).and_then(|()| stdin.flush()).map(|()| stdin)
    });
    // Nothing is read until everything is written.
    let deadline = Instant::now() + Duration::from_secs(60);
    while !writer.is_finished() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("ra2 lsp stopped reading while its answers were not read");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut stdin = writer.join().expect("writer").expect("written");
    let mut reader = BufReader::new(child.stdout.take().expect("stdout"));
    let mut published = std::collections::BTreeSet::new();
    while published.len() < documents {
        let mut length = 0;
        loop {
            let mut line = String::new();
            assert!(
                reader.read_line(&mut line).expect("read") > 0,
                "ra2 lsp closed its output"
            );
            let line = line.trim();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse().expect("length");
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).expect("body");
        let message: Value = serde_json::from_slice(&body).expect("JSON");
        if message["method"] == "textDocument/publishDiagnostics" {
            assert!(!message["params"]["diagnostics"].as_array().expect("array").is_empty());
            published.insert(message["params"]["uri"].as_str().unwrap_or_default().to_owned());
        }
    }
    stdin
        .write_all(&frame(
            &serde_json::json!({ "jsonrpc": "2.0", "id": 2, "method": "shutdown" }),
        ))
        .and_then(|()| stdin.write_all(&frame(&serde_json::json!({ "jsonrpc": "2.0", "method": "exit" }))))
        .expect("shut down");
    drop(stdin);
    // Whatever else it says, then its exit.
    let _ = std::io::copy(&mut reader, &mut std::io::sink());
    assert!(child.wait().expect("exits").success());
}
