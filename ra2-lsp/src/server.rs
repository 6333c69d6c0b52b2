//! The main loop: the documents the editor has open, the workspace's settings, and the
//! protocol's messages. Linting is the worker's ([`crate::worker`]); code actions and Helm
//! renders run on threads of their own, so the loop answers at once.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    Notification as _, PublishDiagnostics,
};
use lsp_types::request::{CodeActionRequest, HoverRequest, RegisterCapability, Request as _};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, Diagnostic, Hover, HoverContents,
    HoverProviderCapability, InitializeParams, MarkupContent, MarkupKind, PublishDiagnosticsParams, Registration,
    RegistrationParams, SaveOptions, ServerCapabilities, ServerInfo, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextDocumentSyncOptions, TextDocumentSyncSaveOptions, Url,
};

use crate::diagnostics::{Analysis, hover_text, of_config_errors};
use crate::worker::lock;
use crate::workspace::{Kind, Workspace, kind_of};

/// How `ra2 lsp` runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// How long changes must pause before a document is linted (a burst costs one lint).
    pub debounce: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            debounce: Duration::from_millis(DEBOUNCE_MS),
        }
    }
}

/// The default debounce: shorter than the pause between a person's keystrokes in a word, longer
/// than a paste or an editor's burst of changes.
const DEBOUNCE_MS: u64 = 30;

/// The `source.fixAll` kind of ra2's own fixes.
pub(crate) const FIX_ALL: &str = "source.fixAll.ra2";

/// An open document.
#[derive(Debug)]
pub(crate) struct Document {
    pub(crate) version: i32,
    pub(crate) text: Arc<str>,
    /// How reports name it.
    pub(crate) name: String,
    pub(crate) kind: Kind,
    /// The lint of `version`, once the worker has made it.
    pub(crate) analysis: Option<Arc<Analysis>>,
}

/// What the main loop, the worker and the render threads share.
#[derive(Debug)]
pub(crate) struct State {
    pub(crate) docs: HashMap<Url, Document>,
    pub(crate) workspace: Workspace,
    /// Documents to lint.
    pub(crate) dirty: BTreeSet<Url>,
    /// Changes so far (the worker waits for it to stand still).
    pub(crate) changes: u64,
    pub(crate) shutdown: bool,
    /// Per chart directory: the latest render started, and the templates it published to.
    pub(crate) charts: HashMap<PathBuf, (u64, BTreeSet<Url>)>,
    /// The findings a chart's render published on each template (for hover).
    pub(crate) templates: HashMap<Url, Vec<(ra2_core::Finding, lsp_types::Range)>>,
}

pub(crate) struct Shared {
    pub(crate) state: Mutex<State>,
    pub(crate) wake: Condvar,
    pub(crate) sender: Sender,
    pub(crate) debounce: Duration,
}

/// Sends a message to the client (a closed connection drops it: the loop then ends).
pub(crate) type Sender = Arc<dyn Fn(Message) + Send + Sync>;

/// Publishes a document's diagnostics.
pub(crate) fn publish(sender: &Sender, uri: &Url, version: Option<i32>, diagnostics: Vec<Diagnostic>) {
    let params = PublishDiagnosticsParams {
        uri: uri.clone(),
        diagnostics,
        version,
    };
    sender(Message::Notification(Notification::new(
        PublishDiagnostics::METHOD.to_owned(),
        params,
    )));
}

/// Serves `connection` until the client exits: the initialize handshake, then the loop.
pub fn serve(connection: Connection, options: &Options) -> Result<(), String> {
    let (id, params) = connection
        .initialize_start()
        .map_err(|e| format!("no initialize request: {e}"))?;
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let init = InitOptions::of(params.initialization_options.as_ref());
    let result = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": ServerInfo { name: "ra2".to_owned(), version: Some(env!("CARGO_PKG_VERSION").to_owned()) },
    });
    connection
        .initialize_finish(id, result)
        .map_err(|e| format!("the initialize handshake failed: {e}"))?;

    // lsp-server hands each message to its stdout writer through a rendezvous channel, so a
    // send blocks while the client is not reading, and a client busy writing (50 documents
    // opened at once) waits for us to read: both would stop. Messages go through a queue of
    // our own instead, emptied by a forwarding thread, so the loop and the worker never block
    // on the client. The thread ends when the last sender (in `Shared`) is dropped.
    let (queue, outbox) = std::sync::mpsc::channel::<Message>();
    let out = connection.sender.clone();
    std::thread::Builder::new()
        .name("ra2-lsp-out".to_owned())
        .spawn(move || {
            for message in outbox {
                if out.send(message).is_err() {
                    // The client is gone; the loop ends on its own.
                    break;
                }
            }
        })
        .map_err(|e| format!("cannot start the output thread: {e}"))?;
    let sender: Sender = Arc::new(move |message| {
        let _ = queue.send(message);
    });
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            docs: HashMap::new(),
            workspace: Workspace::new(root_of(&params), init.helm),
            dirty: BTreeSet::new(),
            changes: 0,
            shutdown: false,
            charts: HashMap::new(),
            templates: HashMap::new(),
        }),
        wake: Condvar::new(),
        sender,
        debounce: init.debounce.unwrap_or(options.debounce),
    });
    reload_config(&shared);
    let watch = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files)
        .and_then(|w| w.dynamic_registration)
        .unwrap_or(false);

    let worker = {
        let shared = shared.clone();
        std::thread::Builder::new()
            .name("ra2-lint".to_owned())
            .spawn(move || crate::worker::run(&shared))
            .map_err(|e| format!("cannot start the lint thread: {e}"))?
    };
    let mut requests = 0;
    let outcome = main_loop(&connection, &shared, watch, &mut requests);
    lock(&shared).shutdown = true;
    shared.wake.notify_all();
    let _ = worker.join();
    // Closing our end lets lsp-server's writer thread finish once the last answer is out.
    drop(connection);
    outcome
}

/// What the client may say in `initializationOptions` (`{"helm": "/usr/local/bin/helm"}`, or
/// the same under `"ra2"`, as VS Code sends its settings section).
#[derive(Debug, Default)]
struct InitOptions {
    helm: Option<PathBuf>,
    debounce: Option<Duration>,
}

impl InitOptions {
    fn of(value: Option<&serde_json::Value>) -> Self {
        let Some(value) = value else {
            return InitOptions::default();
        };
        let value = value.get("ra2").unwrap_or(value);
        InitOptions {
            helm: value
                .get("helm")
                .and_then(serde_json::Value::as_str)
                .filter(|s| !s.is_empty())
                .map(PathBuf::from),
            debounce: value
                .get("debounceMs")
                .and_then(serde_json::Value::as_u64)
                .map(Duration::from_millis),
        }
    }
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::FULL),
            will_save: None,
            will_save_wait_until: None,
            save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                include_text: Some(false),
            })),
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX, CodeActionKind::new(FIX_ALL)]),
            work_done_progress_options: lsp_types::WorkDoneProgressOptions::default(),
            resolve_provider: None,
        })),
        ..ServerCapabilities::default()
    }
}

/// The workspace root: the first workspace folder, else the root URI, else none (then the
/// settings are the defaults).
fn root_of(params: &InitializeParams) -> Option<PathBuf> {
    if let Some(folder) = params.workspace_folders.as_ref().and_then(|f| f.first()) {
        return folder.uri.to_file_path().ok();
    }
    #[allow(deprecated)] // Older clients send only rootUri.
    params.root_uri.as_ref().and_then(|u| u.to_file_path().ok())
}

fn main_loop(connection: &Connection, shared: &Arc<Shared>, watch: bool, requests: &mut i32) -> Result<(), String> {
    if watch {
        *requests += 1;
        let params = RegistrationParams {
            registrations: vec![Registration {
                id: "ra2-config".to_owned(),
                method: DidChangeWatchedFiles::METHOD.to_owned(),
                register_options: Some(serde_json::json!({
                    "watchers": [{ "globPattern": format!("**/{}", ra2_input::config::CONFIG_FILE) }]
                })),
            }],
        };
        (shared.sender)(Message::Request(Request::new(
            RequestId::from(*requests),
            RegisterCapability::METHOD.to_owned(),
            params,
        )));
    }
    // After `shutdown`, only `exit` is expected; an editor that quits without sending it (its
    // end of the pipe closes) has still shut the server down properly.
    let mut shut_down = false;
    for message in &connection.receiver {
        match message {
            Message::Request(request) if request.method == "shutdown" => {
                shut_down = true;
                respond(shared, Response::new_ok(request.id, ()));
            }
            Message::Request(request) if shut_down => respond(
                shared,
                Response::new_err(
                    request.id,
                    lsp_server::ErrorCode::InvalidRequest as i32,
                    "the server is shutting down".to_owned(),
                ),
            ),
            Message::Request(request) => request_(shared, request),
            Message::Notification(notification) if notification.method == "exit" => {
                return if shut_down {
                    Ok(())
                } else {
                    Err("exit without shutdown".to_owned())
                };
            }
            Message::Notification(notification) => notify(shared, notification),
            // Answers to our registration: nothing to do either way.
            Message::Response(_) => {}
        }
    }
    if shut_down {
        Ok(())
    } else {
        Err("the client went away without shutting the server down".to_owned())
    }
}

fn request_(shared: &Arc<Shared>, request: Request) {
    let Request { id, method, params } = request;
    match method.as_str() {
        HoverRequest::METHOD => {
            let answer = serde_json::from_value(params).ok().and_then(|p| hover(shared, &p));
            respond(shared, Response::new_ok(id, answer));
        }
        CodeActionRequest::METHOD => {
            let Ok(params) = serde_json::from_value::<lsp_types::CodeActionParams>(params) else {
                respond(
                    shared,
                    Response::new_err(
                        id,
                        lsp_server::ErrorCode::InvalidParams as i32,
                        "bad code action params".to_owned(),
                    ),
                );
                return;
            };
            // Fixing re-lints the text (several times for `fixAll`): off the loop.
            let shared = shared.clone();
            std::thread::spawn(move || {
                let actions = crate::actions::code_actions(&shared, &params);
                respond(&shared, Response::new_ok(id, actions));
            });
        }
        _ => respond(
            shared,
            Response::new_err(
                id,
                lsp_server::ErrorCode::MethodNotFound as i32,
                format!("ra2 lsp does not handle {method}"),
            ),
        ),
    }
}

fn respond(shared: &Shared, response: Response) {
    (shared.sender)(Message::Response(response));
}

fn notify(shared: &Arc<Shared>, notification: Notification) {
    let Notification { method, params } = notification;
    match method.as_str() {
        DidOpenTextDocument::METHOD => {
            let Ok(p) = serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(params) else {
                return;
            };
            let doc = p.text_document;
            open(shared, doc.uri, doc.version, &doc.language_id, doc.text.into());
        }
        DidChangeTextDocument::METHOD => {
            let Ok(p) = serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(params) else {
                return;
            };
            // Full sync: the last change holds the whole text.
            let Some(change) = p.content_changes.into_iter().rev().find(|c| c.range.is_none()) else {
                return;
            };
            let mut state = lock(shared);
            let Some(doc) = state.docs.get_mut(&p.text_document.uri) else {
                return;
            };
            doc.version = p.text_document.version;
            doc.text = change.text.into();
            if doc.kind == Kind::Manifest {
                state.dirty.insert(p.text_document.uri);
                state.changes += 1;
                drop(state);
                shared.wake.notify_all();
            }
        }
        DidSaveTextDocument::METHOD => {
            let Ok(p) = serde_json::from_value::<lsp_types::DidSaveTextDocumentParams>(params) else {
                return;
            };
            saved(shared, &p.text_document.uri);
        }
        DidCloseTextDocument::METHOD => {
            let Ok(p) = serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(params) else {
                return;
            };
            let uri = p.text_document.uri;
            let removed = lock(shared).docs.remove(&uri);
            // A template keeps its chart's diagnostics; a manifest's go with it.
            if removed.is_some_and(|d| d.kind == Kind::Manifest) {
                publish(&shared.sender, &uri, None, Vec::new());
            }
        }
        DidChangeWatchedFiles::METHOD => {
            let Ok(p) = serde_json::from_value::<lsp_types::DidChangeWatchedFilesParams>(params) else {
                return;
            };
            let config = p.changes.iter().any(|c| {
                c.uri
                    .to_file_path()
                    .is_ok_and(|path| path.file_name().is_some_and(|n| n == ra2_input::config::CONFIG_FILE))
            });
            if config {
                reload_config(shared);
            }
        }
        _ => {}
    }
}

fn open(shared: &Arc<Shared>, uri: Url, version: i32, language: &str, text: Arc<str>) {
    let path = uri.to_file_path().ok();
    let kind = kind_of(path.as_deref(), language);
    let mut state = lock(shared);
    let name = path
        .as_deref()
        .map_or_else(|| uri.to_string(), |p| state.workspace.name_of(p));
    let lint = kind == Kind::Manifest;
    state.docs.insert(
        uri.clone(),
        Document {
            version,
            text,
            name,
            kind,
            analysis: None,
        },
    );
    if lint {
        state.dirty.insert(uri);
        state.changes += 1;
        drop(state);
        shared.wake.notify_all();
    }
}

fn saved(shared: &Arc<Shared>, uri: &Url) {
    let (path, kind, is_config) = {
        let state = lock(shared);
        let path = uri.to_file_path().ok();
        let kind = state
            .docs
            .get(uri)
            .map_or_else(|| kind_of(path.as_deref(), ""), |d| d.kind.clone());
        let is_config = path.as_deref().is_some_and(|p| state.workspace.is_config(p));
        (path, kind, is_config)
    };
    if is_config {
        reload_config(shared);
        return;
    }
    if let (Kind::Chart { chart, renders: true }, Some(path)) = (kind, path) {
        crate::helm::render(shared, chart, path);
    }
}

/// Reads the workspace's `.ra2.yaml` again and re-lints every open manifest; an invalid file
/// keeps the settings in use (and the diagnostics made with them) and gets diagnostics of its
/// own.
pub(crate) fn reload_config(shared: &Arc<Shared>) {
    let mut state = lock(shared);
    let result = state.workspace.load_config();
    if let Some(path) = state.workspace.config_path.clone() {
        if let Ok(uri) = Url::from_file_path(&path) {
            let diagnostics = match &result {
                Ok(()) => Vec::new(),
                Err(errors) => of_config_errors(errors, &std::fs::read_to_string(&path).unwrap_or_default()),
            };
            publish(&shared.sender, &uri, None, diagnostics);
        }
    }
    if result.is_err() {
        // The settings in use are unchanged: nothing to lint again.
        return;
    }
    let manifests: Vec<Url> = state
        .docs
        .iter()
        .filter(|(_, d)| d.kind == Kind::Manifest)
        .map(|(u, _)| u.clone())
        .collect();
    if manifests.is_empty() {
        return;
    }
    state.dirty.extend(manifests);
    state.changes += 1;
    drop(state);
    shared.wake.notify_all();
}

/// The findings under the cursor (a manifest's lint of this version, or a template's from its
/// chart's last render), with the catalogue's text for each.
fn hover(shared: &Shared, params: &lsp_types::HoverParams) -> Option<Hover> {
    let at = &params.text_document_position_params;
    let state = lock(shared);
    let uri = &at.text_document.uri;
    let findings = match state.docs.get(uri).map(|d| (d, &d.kind)) {
        Some((doc, Kind::Manifest)) => &doc.analysis.as_ref().filter(|a| a.version == doc.version)?.findings,
        _ => state.templates.get(uri)?,
    };
    let here = lsp_types::Range::new(at.position, at.position);
    let found: Vec<&(ra2_core::Finding, lsp_types::Range)> = findings
        .iter()
        .filter(|(_, range)| crate::position::touches(range, &here))
        .collect();
    let range = found.first()?.1;
    let findings: Vec<&ra2_core::Finding> = found.iter().map(|(f, _)| f).collect();
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: hover_text(&findings),
        }),
        range: Some(range),
    })
}
