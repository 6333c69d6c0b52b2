//! The server loop over lsp-server's in-memory connection: the handshake, diagnostics on open
//! and change (a burst of changes costs one lint, and no stale result is published), hover,
//! code actions, bad input, and shutdown. The real-client test is ra2-cli's `lsp` test (Neovim).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};

const POD: &str = "apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
    - name: app
      image: registry.example.com/app:1.0
";

struct Client {
    conn: Connection,
    next: i32,
    server: Option<std::thread::JoinHandle<Result<(), String>>>,
}

impl Client {
    fn start(root: &std::path::Path) -> Client {
        let (server, conn) = Connection::memory();
        let handle = std::thread::spawn(move || {
            ra2_lsp::serve(
                server,
                &ra2_lsp::Options {
                    debounce: Duration::from_millis(50),
                },
            )
        });
        let mut client = Client {
            conn,
            next: 0,
            server: Some(handle),
        };
        let root = url(root);
        let answer = client.request(
            "initialize",
            json!({ "processId": null, "rootUri": root, "capabilities": {} }),
        );
        assert_eq!(answer["serverInfo"]["name"], "ra2");
        let caps = &answer["capabilities"];
        assert_eq!(caps["hoverProvider"], true);
        assert_eq!(caps["textDocumentSync"]["change"], 1);
        // Nothing a YAML server also offers.
        assert!(caps.get("completionProvider").is_none() && caps.get("documentFormattingProvider").is_none());
        client.notify("initialized", json!({}));
        client
    }

    fn notify(&self, method: &str, params: Value) {
        self.conn
            .sender
            .send(Message::Notification(Notification::new(method.to_owned(), params)))
            .expect("send");
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = RequestId::from(self.next);
        self.conn
            .sender
            .send(Message::Request(Request::new(id.clone(), method.to_owned(), params)))
            .expect("send");
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.conn.receiver.recv_timeout(left).expect("an answer") {
                Message::Response(r) if r.id == id => {
                    assert!(r.error.is_none(), "{method}: {:?}", r.error);
                    return r.result.unwrap_or(Value::Null);
                }
                _ => {}
            }
        }
    }

    /// Every `publishDiagnostics` for `uri` until `quiet` passes without one (or 30 s).
    fn diagnostics(&self, uri: &str, quiet: Duration) -> Vec<Value> {
        let mut out = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            let wait = if out.is_empty() { Duration::from_secs(30) } else { quiet };
            let Ok(message) = self.conn.receiver.recv_timeout(wait) else {
                break;
            };
            if let Message::Notification(n) = message {
                if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri {
                    out.push(n.params);
                }
            }
        }
        out
    }

    fn stop(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let result = self.server.take().expect("server").join().expect("server thread");
        assert_eq!(result, Ok(()));
    }
}

fn url(path: &std::path::Path) -> String {
    lsp_types::Url::from_file_path(path).expect("absolute path").to_string()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ra2-lsp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn codes(published: &Value) -> Vec<String> {
    published["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["code"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn diagnostics_hover_and_fixes() {
    let dir = temp_dir("loop");
    let mut client = Client::start(&dir);
    let uri = url(&dir.join("pod.yaml"));
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": POD } }),
    );
    let published = client.diagnostics(&uri, Duration::from_millis(300));
    assert_eq!(published.len(), 1, "{published:#?}");
    let first = &published[0];
    assert_eq!(first["version"], 1);
    let expected: Vec<String> = ra2_core::lint_str("pod.yaml", POD, &ra2_core::Config::default())
        .findings
        .iter()
        .map(|f| format!("{}/{}", f.rule, f.check))
        .collect();
    assert!(!expected.is_empty());
    let mut got = codes(first);
    got.sort();
    let mut want = expected.clone();
    want.sort();
    assert_eq!(got, want);
    for d in first["diagnostics"].as_array().expect("array") {
        assert_eq!(d["source"], "ra2");
    }

    // Hover on a diagnostic: the catalogue's text.
    let escalation = first["diagnostics"]
        .as_array()
        .expect("array")
        .iter()
        .find(|d| d["code"] == "ra2.app.003/privilege-escalation")
        .expect("a privilege-escalation finding")
        .clone();
    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": escalation["range"]["start"] }),
    );
    let text = hover["contents"]["value"].as_str().expect("hover text");
    assert!(text.contains("ra2.app.003/privilege-escalation"), "{text}");
    assert!(text.contains("Requirement"), "{text}");

    // A quick fix for it, and the fix-all action, whose edit is `ra2 lint --fix`'s text.
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": uri },
            "range": escalation["range"],
            "context": { "diagnostics": [escalation] }
        }),
    );
    let actions = actions.as_array().expect("actions");
    let quick = actions
        .iter()
        .find(|a| a["kind"] == "quickfix" && a["diagnostics"][0]["code"] == "ra2.app.003/privilege-escalation")
        .expect("a quick fix");
    assert_eq!(quick["isPreferred"], true);
    assert!(actions.iter().any(|a| a["kind"] == "source.fixAll.ra2"));
    let only = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": uri },
            "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 0 } },
            "context": { "diagnostics": [], "only": ["source.fixAll"] }
        }),
    );
    let only = only.as_array().expect("actions");
    assert_eq!(only.len(), 1, "{only:#?}");
    assert_eq!(only[0]["kind"], "source.fixAll.ra2");

    // A burst of changes: one lint, of the last text.
    for version in 2..=21 {
        let text = format!("{POD}# edit {version}\n");
        client.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": text }] }),
        );
    }
    let published = client.diagnostics(&uri, Duration::from_millis(400));
    assert_eq!(published.len(), 1, "one lint for the burst: {published:#?}");
    assert_eq!(published[0]["version"], 21);

    // Text that does not parse: one diagnostic naming the reason.
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 22 }, "contentChanges": [{ "text": "apiVersion: v1\nkind: Pod\nmetadata: [\n" }] }),
    );
    let published = client.diagnostics(&uri, Duration::from_millis(300));
    let last = published.last().expect("diagnostics");
    assert_eq!(last["diagnostics"].as_array().map(Vec::len), Some(1), "{last:#?}");
    assert!(codes(last)[0].starts_with("ra2::parse"), "{last:#?}");

    // Not a manifest: nothing.
    let other = url(&dir.join("compose.yaml"));
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": other, "languageId": "yaml", "version": 1, "text": "services:\n  web:\n    image: nginx\n" } }),
    );
    let published = client.diagnostics(&other, Duration::from_millis(300));
    assert_eq!(codes(published.last().expect("diagnostics")), Vec::<String>::new());

    // Nonsense does not bring the server down.
    client.notify("textDocument/didChange", json!({ "nonsense": true }));
    client.notify("textDocument/didOpen", json!(42));
    let answer = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": "file:///nowhere.yaml" }, "position": { "line": 0, "character": 0 } }),
    );
    assert_eq!(answer, Value::Null);
    client.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_workspace_config_applies_and_reloads() {
    let dir = temp_dir("config");
    std::fs::write(dir.join(".ra2.yaml"), "ignore: [ra2.app.003]\n").expect("config");
    let client = Client::start(&dir);
    let uri = url(&dir.join("pod.yaml"));
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": POD } }),
    );
    let published = client.diagnostics(&uri, Duration::from_millis(300));
    let got = codes(published.last().expect("diagnostics"));
    assert!(
        !got.is_empty() && got.iter().all(|c| !c.starts_with("ra2.app.003/")),
        "{got:?}"
    );

    std::fs::write(dir.join(".ra2.yaml"), "ignore: []\n").expect("config");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": url(&dir.join(".ra2.yaml")), "type": 2 }] }),
    );
    let published = client.diagnostics(&uri, Duration::from_millis(300));
    let got = codes(published.last().expect("diagnostics"));
    assert!(got.iter().any(|c| c.starts_with("ra2.app.003/")), "{got:?}");

    // Saved with a mistake: diagnostics on the config file, and the settings in use stay.
    std::fs::write(dir.join(".ra2.yaml"), "ignore: [ra2.app.03]\n").expect("config");
    let config = url(&dir.join(".ra2.yaml"));
    client.notify("textDocument/didSave", json!({ "textDocument": { "uri": config } }));
    let published = client.diagnostics(&config, Duration::from_millis(300));
    let last = published.last().expect("config diagnostics");
    let got = codes(last);
    assert_eq!(got.len(), 1, "{last:#?}");
    assert!(got[0].starts_with("ra2::config::"), "{got:?}");
    let message = last["diagnostics"][0]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("ra2.app.03") && message.contains("previous settings stay"),
        "{message}"
    );
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [{ "text": format!("{POD}# edited\n") }] }),
    );
    let published = client.diagnostics(&uri, Duration::from_millis(300));
    let got = codes(published.last().expect("diagnostics"));
    assert!(got.iter().any(|c| c.starts_with("ra2.app.003/")), "{got:?}");
    client.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A chart whose render fails: one diagnostic saying why, on the template helm names; a
/// template is never linted as plain YAML.
#[cfg(unix)]
#[test]
fn a_chart_that_does_not_render_says_why() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = temp_dir("helm");
    let chart = dir.join("shop");
    std::fs::create_dir_all(chart.join("templates")).expect("dirs");
    std::fs::write(chart.join("Chart.yaml"), "apiVersion: v2\nname: shop\nversion: 0.1.0\n").expect("write");
    let template = chart.join("templates/pod.yaml");
    std::fs::write(&template, format!("{POD}  labels: {{{{ .Values.labels | toYaml }}\n")).expect("write");
    let helm = dir.join("fake-helm");
    std::fs::write(
        &helm,
        "#!/bin/sh\necho 'Error: parse error at (shop/templates/pod.yaml:3): unexpected \"}\" in operand' >&2\nexit 1\n",
    )
    .expect("write");
    std::fs::set_permissions(&helm, std::fs::Permissions::from_mode(0o755)).expect("chmod");

    let (server, conn) = Connection::memory();
    let handle = std::thread::spawn(move || ra2_lsp::serve(server, &ra2_lsp::Options::default()));
    let mut client = Client {
        conn,
        next: 0,
        server: Some(handle),
    };
    client.request(
        "initialize",
        json!({ "processId": null, "rootUri": url(&dir), "capabilities": {},
                "initializationOptions": { "ra2": { "helm": helm } } }),
    );
    client.notify("initialized", json!({}));
    let uri = url(&template);
    let text = std::fs::read_to_string(&template).expect("read");
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": text } }),
    );
    client.notify("textDocument/didSave", json!({ "textDocument": { "uri": uri } }));
    let published = client.diagnostics(&uri, Duration::from_millis(300));
    // Only the render's: opening the template published nothing.
    assert_eq!(published.len(), 1, "{published:#?}");
    let diagnostics = published[0]["diagnostics"].as_array().expect("array");
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert_eq!(diagnostics[0]["code"], "helm");
    assert_eq!(diagnostics[0]["range"]["start"]["line"], 2);
    let message = diagnostics[0]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("the chart does not render: parse error at"),
        "{message}"
    );
    client.stop();
    let _ = std::fs::remove_dir_all(&dir);
}
