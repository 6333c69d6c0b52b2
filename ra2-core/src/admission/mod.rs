//! The admission decision (DESIGN.md, admission contract): an `admission.k8s.io/v1`
//! AdmissionReview, or the request inside it, in; the response out. Plain data, no I/O: the
//! Kubewarden policy, JS `review`, Python `review` and a future `ra2 serve` all decide here.
//!
//! CREATE and UPDATE judge the object the request carries (for UPDATE the new one); DELETE
//! and CONNECT are allowed. Every kind is linted, so a Deployment or CronJob with a bad pod
//! template is refused before any Pod exists. Findings at or above the threshold (`fail-on`,
//! default `error`) deny with 403 and `rule pointer: message` lines; the others become
//! warnings, each short enough for the API server to pass on whole.

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use crate::config::Config;
use crate::parse::doc::{Doc, Entry as DocEntry, Limits, NodeId, Value as DocValue};
use crate::parse::json::{Reading, sort_entries};
use crate::parse::source::{Chunk, Span};
use crate::parse::view::Located;
use crate::report::{Finding, Report};

/// The status code of a denial.
pub const FORBIDDEN: u16 = 403;
/// The status code for a request ra2 cannot judge (no object, not an AdmissionReview).
pub const BAD_REQUEST: u16 = 400;
/// Longest warning and message line, in bytes: the API server truncates warnings at 256
/// characters, so ours stay whole.
pub const MAX_LINE_BYTES: usize = 255;
/// Most `rule pointer: message` lines in a denial; the rest are counted.
pub const MAX_MESSAGE_LINES: usize = 10;
/// Budget for all warnings of one response, in bytes: the API server keeps about 4096
/// characters of warnings per response and drops the rest silently, so ra2 counts what does
/// not fit instead.
pub const MAX_WARNING_BYTES: usize = 3800;
/// The name findings carry as their `file` when they come from an admission request.
pub const SOURCE_NAME: &str = "<admission>";

/// A request ra2 cannot judge: not an AdmissionReview, no operation, no object.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct AdmissionError {
    pub message: String,
}

impl AdmissionError {
    fn new(message: impl Into<String>) -> Self {
        AdmissionError {
            message: message.into(),
        }
    }
}

/// What to answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub allowed: bool,
    /// 403 when denied because of findings; `None` when allowed.
    pub code: Option<u16>,
    /// `rule pointer: message` lines, one per finding at or above the threshold.
    pub message: Option<String>,
    /// Findings below the threshold, one line each.
    pub warnings: Vec<String>,
    /// The lint report behind the decision (empty for DELETE and CONNECT).
    pub report: Report,
}

/// Decides on an AdmissionRequest (the `request` of an AdmissionReview, or of a Kubewarden
/// ValidationRequest).
pub fn decide(request: &Value, config: &Config) -> Result<Decision, AdmissionError> {
    let Some(request) = request.as_object() else {
        return Err(AdmissionError::new(format!(
            "the admission request is {}, not an object",
            type_name(request)
        )));
    };
    let operation = match request.get("operation") {
        Some(Value::String(op)) => op.as_str(),
        None | Some(Value::Null) => return Err(AdmissionError::new("the admission request has no operation")),
        Some(other) => {
            return Err(AdmissionError::new(format!(
                "the admission request's operation is {}, not a string",
                type_name(other)
            )));
        }
    };
    match operation {
        "CREATE" | "UPDATE" => {}
        "DELETE" | "CONNECT" => return Ok(allow()),
        other => {
            return Err(AdmissionError::new(format!(
                "unknown operation {other:?} (expected CREATE, UPDATE, DELETE or CONNECT)"
            )));
        }
    }
    // A subresource write (status, scale, binding, ...) cannot change the pod spec ra2 judges;
    // refusing it would stop the kubelet and controllers from reporting on an object that already
    // exists. Ephemeral containers are the exception: they add containers to a running pod.
    let sub_resource = request.get("subResource").and_then(Value::as_str).unwrap_or_default();
    if !sub_resource.is_empty() && sub_resource != "ephemeralcontainers" {
        return Ok(allow());
    }
    let object = match request.get("object") {
        Some(Value::Object(object)) => object,
        None | Some(Value::Null) => {
            return Err(AdmissionError::new(format!(
                "the {operation} request carries no object"
            )));
        }
        Some(other) => {
            return Err(AdmissionError::new(format!(
                "the {operation} request's object is {}, not an object",
                type_name(other)
            )));
        }
    };
    let object = prepare(object, request);
    let text = serde_json::to_string(&object).unwrap_or_default();
    let mut report = crate::lint_str(SOURCE_NAME, &text, config);
    if operation == "UPDATE" {
        // The API server refuses ephemeral containers only on create; an update (the
        // ephemeralcontainers subresource) is how they are added.
        report
            .findings
            .retain(|f| !(f.rule == crate::rules::api_server::ID && f.check == "ephemeral-containers"));
        report.finalize();
    }
    if let Some(error) = report.errors.first() {
        return Err(AdmissionError::new(format!(
            "ra2 cannot read the object: {}",
            error.message
        )));
    }
    Ok(judge(report, config))
}

/// Decides on an AdmissionReview and answers with one: the same `uid`, `allowed`, a 403
/// status listing the findings at or above the threshold, and the others as warnings. A
/// review ra2 cannot judge is refused with 400 and says why.
pub fn review(review: &Value, config: &Config) -> Value {
    let uid = review
        .pointer("/request/uid")
        .and_then(Value::as_str)
        .unwrap_or_default();
    // Answer in the version asked; v1beta1 has the same shape.
    let api_version = review
        .get("apiVersion")
        .and_then(Value::as_str)
        .filter(|v| *v == "admission.k8s.io/v1beta1")
        .unwrap_or("admission.k8s.io/v1");
    let response = match check_review(review).and_then(|request| decide(request, config)) {
        Ok(decision) => response_of(uid, decision),
        Err(error) => rejection(uid, &error),
    };
    admission_review(api_version, response)
}

/// An AdmissionReview holding `response`, moved in (`json!` would copy it).
fn admission_review(api_version: &str, response: Value) -> Value {
    let mut out = Map::new();
    out.insert("apiVersion".to_owned(), Value::from(api_version));
    out.insert("kind".to_owned(), Value::from("AdmissionReview"));
    out.insert("response".to_owned(), response);
    Value::Object(out)
}

/// [`review`] on the JSON text of an AdmissionReview (an HTTP body); text that is not JSON is
/// refused with 400 like any other malformed review. The text is read once, straight into the
/// tree ra2 lints ([`Incoming`]); the answer is the one [`review`] gives for the same review.
pub fn review_json(text: &str, config: &Config) -> Value {
    if let Some(answer) = review_text(text, config) {
        return answer;
    }
    match serde_json::from_str::<Value>(text) {
        Ok(value) => review(&value, config),
        Err(e) => json!({
            "apiVersion": "admission.k8s.io/v1",
            "kind": "AdmissionReview",
            "response": rejection("", &AdmissionError::new(format!("the AdmissionReview is not JSON: {e}"))),
        }),
    }
}

/// [`review`] of an AdmissionReview's JSON text read once ([`Incoming`]), or `None` when the
/// text is not a plain, well-formed review that way (the caller then parses it with serde_json
/// and calls [`review`], which words every refusal).
pub fn review_text(text: &str, config: &Config) -> Option<Value> {
    Incoming::read(text)?.review(config)
}

/// Deepest nesting [`Incoming::read`] takes (serde_json, the reference, stops at 128).
const INCOMING_DEPTH: usize = 100;

/// How [`Incoming::read`] reads a request. It reads (refusing the request as before if it is
/// not JSON) without keeping: the object's `managedFields`, which [`prepare`] drops (often a
/// third of a request), and the old object of an UPDATE, which no rule reads. It puts every
/// mapping in serde_json's key order, which the serde_json path's answers follow.
const READING: Reading<'static> = Reading {
    skip: &[
        &["request", "object", "metadata", "managedFields"],
        &["request", "oldObject"],
    ],
    sort_keys: true,
};

/// An AdmissionReview, or Kubewarden's ValidationRequest (the AdmissionRequest at `request`,
/// settings beside it), read from its JSON text straight into ra2's document tree, once. The
/// object is linted where it stands in the request: report positions are in the request's text.
///
/// The answers are those of the serde_json path ([`decide`], [`review`]) byte for byte: the
/// object's mappings are put in key order (serde_json's map order, which the denial and warning
/// order follow) and findings are ordered by where they would be in the object as serde_json
/// writes it. Anything this path cannot vouch for gives `None`, and the caller takes the
/// serde_json path: text ra2's JSON reader gives up on, duplicate keys, numbers serde_json
/// would write differently, strings the JSON reader would refuse once written out, an object
/// without `metadata` that the request would give a name, lint errors, or a message quoting a
/// collection or a differently escaped string.
#[derive(Debug)]
pub struct Incoming<'t> {
    doc: Doc<'t>,
    /// A value serde_json would write otherwise than the text reads ([`crate::parse::json::Unusual::rewritten`]):
    /// the object is measured exactly before it is linted.
    rewritten: bool,
}

impl<'t> Incoming<'t> {
    /// Reads a JSON object, or `None` (see the type's docs).
    pub fn read(text: &'t str) -> Option<Self> {
        if !text.trim_start_matches([' ', '\n', '\r']).starts_with('{') {
            return None;
        }
        let limits = Limits {
            max_document_bytes: usize::MAX,
            max_depth: INCOMING_DEPTH,
            max_alias_expansion: 0,
        };
        let (doc, unusual) = crate::parse::doc::read_json(
            Chunk {
                text,
                offset: 0,
                line: 0,
            },
            limits,
            READING,
        )?;
        // serde_json refuses numbers out of f64's range and reads big integers as floats: leave
        // every float to it.
        let plain = doc.problems.is_empty() && !unusual.floats && matches!(doc.node(doc.root).value, DocValue::Map(_));
        plain.then_some(Incoming {
            doc,
            rewritten: unusual.rewritten,
        })
    }

    /// The string at a JSON pointer (`/request/uid`), if there is one.
    pub fn str_at(&self, pointer: &str) -> Option<&str> {
        Located::root(&self.doc).at_pointer(pointer)?.as_str()
    }

    /// The JSON text of the top-level member `key` as written (Kubewarden's `settings`).
    pub fn member_text(&self, key: &str) -> Option<&'t str> {
        let node = Located::root(&self.doc).get(key)?;
        Some(self.doc.text(node.span()))
    }

    /// [`review`] on this AdmissionReview, or `None`: take the serde_json path.
    pub fn review(self, config: &Config) -> Option<Value> {
        let root = Located::root(&self.doc);
        if root.get("kind").is_some_and(|k| k.as_str() != Some("AdmissionReview")) {
            return None;
        }
        let uid = root
            .get("request")
            .and_then(|request| request.str_at("uid"))
            .unwrap_or_default()
            .to_owned();
        let api_version = if root.str_at("apiVersion") == Some("admission.k8s.io/v1beta1") {
            "admission.k8s.io/v1beta1"
        } else {
            "admission.k8s.io/v1"
        };
        let decision = self.decide(config)?.ok()?;
        Some(admission_review(api_version, response_of(&uid, decision)))
    }

    /// [`decide`] on the AdmissionRequest at `request`, or `None`: take the serde_json path.
    pub fn decide(mut self, config: &Config) -> Option<Result<Decision, AdmissionError>> {
        let root = Located::root(&self.doc);
        let request = root.get("request").filter(Located::is_map)?;
        let operation = request.str_at("operation")?;
        match operation {
            "CREATE" | "UPDATE" => {}
            "DELETE" | "CONNECT" => return Some(Ok(allow())),
            _ => return None,
        }
        let sub_resource = request.str_at("subResource").unwrap_or_default();
        if !sub_resource.is_empty() && sub_resource != "ephemeralcontainers" {
            return Some(Ok(allow()));
        }
        let update = operation == "UPDATE";
        let object = request.get("object").filter(Located::is_map)?.id();
        let fills: Vec<(&'static str, Span, NodeId)> = ["namespace", "name"]
            .into_iter()
            .filter_map(|key| {
                let (key_span, value) = entry(&self.doc, request.id(), key)?;
                str_value(&self.doc, value).filter(|s| !s.is_empty())?;
                Some((key, key_span, value))
            })
            .collect();
        prepare_in_place(&mut self.doc, object, &fills)?;
        // Filled-in values stand outside `metadata`'s span: its subtree is always walked for
        // columns (see [`Canonical::columns`]).
        let filled = if fills.is_empty() {
            None
        } else {
            entry(&self.doc, object, "metadata").map(|(_, v)| v)
        };
        // serde_json writes every value of the object in at most the bytes of its text (escapes
        // in no more bytes than the text's, no whitespace), and the filled-in entries as
        // `,"key":value`: the limits hold unless this bound passes the size limit, or a value
        // is written otherwise ([`Incoming::rewritten`]), or the depth limit is below the
        // reader's. Then the object is measured exactly.
        let bound = self.doc.node(object).span.len()
            + fills
                .iter()
                .map(|(key, _, value)| key.len() + 4 + self.doc.node(*value).span.len())
                .sum::<usize>();
        let limits = config.limits;
        if let Some(metadata) = filled {
            // The filled-in entries were added last.
            if let Some(entries) = self.doc.map_entries_mut(metadata) {
                sort_entries(entries);
            }
        }
        let mut canon = if !self.rewritten && bound <= limits.max_document_bytes && limits.max_depth >= INCOMING_DEPTH {
            Canonical::unmeasured()
        } else {
            let canon = Canonical::measure(&self.doc, object)?;
            if canon.bytes > limits.max_document_bytes || canon.depth > limits.max_depth {
                return None;
            }
            canon
        };
        self.doc.root = object;
        self.doc.quote_check = Some(std::cell::Cell::new(false));
        let mut linter = crate::Linter::new(config);
        linter.add_doc(SOURCE_NAME, &self.doc);
        let mut report = linter.finish();
        if self.doc.quote_check.as_ref().is_some_and(std::cell::Cell::get) || !report.errors.is_empty() {
            return None;
        }
        if update {
            report
                .findings
                .retain(|f| !(f.rule == crate::rules::api_server::ID && f.check == "ephemeral-containers"));
            report.finalize();
        }
        // The order of the serde_json path: by place in the object as serde_json writes it.
        let mut wanted: Vec<usize> = report
            .findings
            .iter()
            .filter(|f| f.file == SOURCE_NAME)
            .map(|f| f.offset)
            .collect();
        wanted.sort_unstable();
        wanted.dedup();
        canon.columns(&self.doc, object, wanted, filled);
        let mut keyed = Vec::with_capacity(report.findings.len());
        for finding in std::mem::take(&mut report.findings) {
            let (line, column) = if finding.file == SOURCE_NAME {
                (1, canon.column(finding.offset)?)
            } else {
                (finding.line, finding.column)
            };
            keyed.push(((line, column), finding));
        }
        keyed.sort_by(|(a, f), (b, g)| {
            (&f.file, a, &f.rule, &f.check, &f.message).cmp(&(&g.file, b, &g.rule, &g.check, &g.message))
        });
        report.findings = keyed.into_iter().map(|(_, f)| f).collect();
        Some(Ok(judge(report, config)))
    }
}

/// The key span and value of `key` in the mapping `map`.
fn entry(doc: &Doc<'_>, map: NodeId, key: &str) -> Option<(Span, NodeId)> {
    doc.map_entries(map)
        .iter()
        .find(|e| e.key == key)
        .map(|e| (e.key_span, e.value))
}

fn str_value<'d>(doc: &'d Doc<'_>, id: NodeId) -> Option<&'d str> {
    match &doc.node(id).value {
        DocValue::Str(s) => Some(s.as_ref()),
        _ => None,
    }
}

/// [`prepare`] on the tree: drops `status` (not a Node's) and `metadata.managedFields`, and
/// fills in the request's namespace and name (`fills`: key, the request's key span, the value
/// node). `None` when there is something to fill and no `metadata` to fill it into.
fn prepare_in_place(doc: &mut Doc<'_>, object: NodeId, fills: &[(&'static str, Span, NodeId)]) -> Option<()> {
    let here = |key: &str| entry(doc, object, key).and_then(|(_, v)| str_value(doc, v));
    let node = here("kind") == Some("Node") && here("apiVersion") == Some("v1");
    let metadata = entry(doc, object, "metadata").map(|(_, v)| v);
    if !matches!(doc.node(object).value, DocValue::Map(_)) {
        return None;
    }
    if !node {
        doc.retain_entries(object, |e| e.key != "status");
    }
    if let Some(metadata) = metadata {
        doc.retain_entries(metadata, |e| e.key != "managedFields");
    }
    if fills.is_empty() {
        return Some(());
    }
    let metadata = metadata?;
    for &(key, key_span, value) in fills {
        let current = entry(doc, metadata, key);
        let absent = current.is_none_or(|(_, v)| str_value(doc, v).is_none_or(str::is_empty));
        if !absent {
            continue;
        }
        // Not a mapping: serde_json's path leaves it alone too.
        let Some(entries) = doc.map_entries_mut(metadata) else {
            break;
        };
        match entries.iter_mut().find(|e| e.key == key) {
            Some(e) => e.value = value,
            None => doc.push_entry(
                metadata,
                DocEntry {
                    key: Cow::Borrowed(key),
                    key_span,
                    value,
                    via: crate::parse::doc::AliasSite::NONE,
                },
            ),
        }
    }
    Some(())
}

/// The object as serde_json writes it (compact, keys in order, as [`decide`] writes it before
/// linting it): its size and nesting, and the column (in characters, what the serde_json path
/// reported) where each wanted key or value of the request's text would start there. `None`
/// when serde_json's text would read differently (see [`Incoming`]).
struct Canonical {
    /// Each node's length in characters as serde_json writes it, by node id (measured nodes
    /// only).
    lengths: Vec<usize>,
    /// Request offsets whose columns are wanted, sorted.
    wanted: Vec<usize>,
    /// Their columns; `usize::MAX` where two places share an offset.
    columns: Vec<Option<usize>>,
    chars: usize,
    bytes: usize,
    depth: usize,
    /// The request's text is ASCII: so is every string borrowed from it.
    ascii: bool,
}

impl Canonical {
    /// Measures the object, its mappings in key order ([`Incoming::read`]): one walk over the
    /// tree before it is linted.
    fn measure(doc: &Doc<'_>, object: NodeId) -> Option<Canonical> {
        let mut canon = Canonical {
            lengths: vec![0; doc.nodes.len()],
            wanted: Vec::new(),
            columns: Vec::new(),
            chars: 0,
            bytes: 0,
            depth: 0,
            ascii: doc.chunk.text.is_ascii(),
        };
        if !canon.measure_scalar(doc, object)? {
            canon.measure_collection(doc, object, 1)?;
        }
        Some(canon)
    }

    /// For an object whose text serde_json writes as it reads (see [`Incoming::decide`]), its
    /// mappings in key order already ([`Incoming::read`]): nothing measured. Unmeasured
    /// subtrees count by the length of their text, so the places [`Canonical::columns`] finds
    /// are not serde_json's columns, but they are in the same order, and order is all they are
    /// for.
    fn unmeasured() -> Canonical {
        Canonical {
            lengths: Vec::new(),
            wanted: Vec::new(),
            columns: Vec::new(),
            chars: 0,
            bytes: 0,
            depth: 0,
            // Any length above zero keeps the order: ASCII's is the cheapest.
            ascii: true,
        }
    }

    /// Measures a mapping or sequence and everything in it, and records its length.
    fn measure_collection(&mut self, doc: &Doc<'_>, id: NodeId, depth: usize) -> Option<()> {
        let start = self.chars;
        self.depth = self.depth.max(depth);
        self.punct();
        match doc.nodes.get(id as usize)?.value {
            DocValue::Map(children) => {
                for (i, index) in children.range().enumerate() {
                    if i > 0 {
                        self.punct();
                    }
                    let e = doc.entries.get(index)?;
                    let value = e.value;
                    // The JSON reader gives up on a key this far from its `:`.
                    if self.string(&e.key)? > 1000 {
                        return None;
                    }
                    self.punct();
                    if !self.measure_scalar(doc, value)? {
                        self.measure_collection(doc, value, depth + 1)?;
                    }
                }
            }
            DocValue::Seq(children) => {
                for (i, index) in children.range().enumerate() {
                    if i > 0 {
                        self.punct();
                    }
                    let item = doc.items.get(index)?.node;
                    if !self.measure_scalar(doc, item)? {
                        self.measure_collection(doc, item, depth + 1)?;
                    }
                }
            }
            _ => return None,
        }
        self.punct();
        if let Some(length) = self.lengths.get_mut(id as usize) {
            *length = self.chars - start;
        }
        Some(())
    }

    /// Measures a scalar; `Some(false)` for a mapping or sequence (not measured here).
    // Measured: inlined into the walk, the Pod's measure takes 12k instructions instead of 16k
    // (`#[inline]` alone left it a call).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn measure_scalar(&mut self, doc: &Doc<'_>, id: NodeId) -> Option<bool> {
        let node = doc.nodes.get(id as usize)?;
        let (bytes, chars) = match &node.value {
            DocValue::Map(_) | DocValue::Seq(_) => return Some(false),
            DocValue::Str(s) => written_string(s, self.ascii)?,
            DocValue::Int(i) => {
                // serde_json keeps integers of i64 and u64 and writes them in plain decimal.
                let written = doc.text(node.span);
                let i = i.get();
                let fits = i64::try_from(i).is_ok() || u64::try_from(i).is_ok();
                // The value was read from `written`: serde_json writes the same text exactly when
                // it is plain decimal (no leading zero or `+`, not `-0`).
                if !fits || !plain_decimal(written) {
                    return None;
                }
                (written.len(), written.len())
            }
            DocValue::Bool(true) | DocValue::Null => (4, 4),
            DocValue::Bool(false) => (5, 5),
            DocValue::Float(_) => return None,
        };
        self.bytes += bytes;
        self.chars += chars;
        Some(true)
    }

    /// Finds the columns of the `wanted` offsets (sorted) in the measured object. Only the
    /// subtrees whose span holds a wanted offset are walked; the others count by their measured
    /// length. `filled` (the `metadata` the request's namespace or name went into, whose span
    /// does not hold those values) is always walked.
    fn columns(&mut self, doc: &Doc<'_>, object: NodeId, wanted: Vec<usize>, filled: Option<NodeId>) {
        self.columns = vec![None; wanted.len()];
        self.wanted = wanted;
        self.chars = 0;
        if !self.wanted.is_empty() {
            // The object itself is always walked: filled-in values lie outside its span too.
            self.place_in(doc, object, filled);
        }
    }

    fn column(&self, offset: usize) -> Option<usize> {
        let i = self.wanted.binary_search(&offset).ok()?;
        self.columns
            .get(i)
            .copied()
            .flatten()
            .filter(|c| *c != usize::MAX)
            .map(|c| c + 1)
    }

    fn mark(&mut self, offset: usize) {
        let Ok(i) = self.wanted.binary_search(&offset) else {
            return;
        };
        let at = self.chars;
        if let Some(column) = self.columns.get_mut(i) {
            *column = match *column {
                Some(c) if c != at => Some(usize::MAX),
                _ => Some(at),
            };
        }
    }

    /// Whether a wanted offset lies in `span`.
    fn wants_in(&self, span: Span) -> bool {
        let first = self.wanted.partition_point(|&w| w < span.start);
        self.wanted.get(first).is_some_and(|&w| w < span.end)
    }

    fn place(&mut self, doc: &Doc<'_>, id: NodeId, filled: Option<NodeId>) {
        let node = doc.node(id);
        if !matches!(node.value, DocValue::Map(_) | DocValue::Seq(_)) {
            self.mark(node.span.start);
            self.chars += self.scalar_chars(doc, node);
            return;
        }
        if Some(id) != filled && !self.wants_in(node.span) {
            // Unmeasured ([`Canonical::unmeasured`]): the length of its text.
            self.chars += self.lengths.get(id as usize).copied().unwrap_or(node.span.len());
            return;
        }
        self.place_in(doc, id, filled);
    }

    /// [`Canonical::place`] of a mapping or sequence that is walked.
    fn place_in(&mut self, doc: &Doc<'_>, id: NodeId, filled: Option<NodeId>) {
        let node = doc.node(id);
        self.mark(node.span.start);
        match &node.value {
            DocValue::Map(children) => {
                self.chars += 1;
                for (i, e) in doc.entries.get(children.range()).unwrap_or_default().iter().enumerate() {
                    if i > 0 {
                        self.chars += 1;
                    }
                    self.mark(e.key_span.start);
                    self.chars += written_string(&e.key, self.ascii).map_or(0, |(_, chars)| chars) + 1;
                    self.place(doc, e.value, filled);
                }
                self.chars += 1;
            }
            DocValue::Seq(children) => {
                self.chars += 1;
                for (i, item) in doc.items.get(children.range()).unwrap_or_default().iter().enumerate() {
                    if i > 0 {
                        self.chars += 1;
                    }
                    self.place(doc, item.node, filled);
                }
                self.chars += 1;
            }
            _ => {}
        }
    }

    /// A measured scalar's length in characters as serde_json writes it.
    fn scalar_chars(&self, doc: &Doc<'_>, node: &crate::parse::doc::Node<'_>) -> usize {
        match &node.value {
            DocValue::Str(s) => written_string(s, self.ascii).map_or(0, |(_, chars)| chars),
            DocValue::Int(_) => doc.text(node.span).len(),
            DocValue::Bool(false) => 5,
            DocValue::Bool(true) | DocValue::Null => 4,
            DocValue::Map(_) | DocValue::Seq(_) | DocValue::Float(_) => 0,
        }
    }

    fn punct(&mut self) {
        self.chars += 1;
        self.bytes += 1;
    }

    /// A string as serde_json writes it; `None` for what the JSON reader would refuse then.
    #[allow(clippy::ptr_arg)] // whether it is borrowed is what matters
    fn string(&mut self, s: &Cow<'_, str>) -> Option<usize> {
        let (bytes, chars) = written_string(s, self.ascii)?;
        self.bytes += bytes;
        self.chars += chars;
        Some(bytes)
    }
}

/// A string as serde_json writes it: its length in bytes and in characters, quotes included;
/// `None` for what the JSON reader would refuse then. `ascii`: the request's text is ASCII.
#[allow(clippy::ptr_arg)] // whether it is borrowed is what matters
#[allow(clippy::inline_always)] // see `Canonical::measure_scalar`
#[inline(always)]
fn written_string(s: &Cow<'_, str>, ascii: bool) -> Option<(usize, usize)> {
    // Borrowed: the request's text had it without escapes (one would have made it owned),
    // so it has no quote or backslash, and nothing the JSON reader refuses unescaped:
    // controls and the characters refused below. serde_json writes it as it is.
    match s {
        Cow::Borrowed(s) if ascii => Some((s.len() + 2, s.len() + 2)),
        _ => written_string_slow(s, ascii),
    }
}

/// [`written_string`] of an owned string, or a borrowed one of a request that is not ASCII.
#[allow(clippy::ptr_arg)] // whether it is borrowed is what matters
fn written_string_slow(s: &Cow<'_, str>, ascii: bool) -> Option<(usize, usize)> {
    if let Cow::Borrowed(s) = s {
        let continuations = if ascii || s.is_ascii() {
            0
        } else {
            s.bytes().filter(|b| b & 0xc0 == 0x80).count()
        };
        return Some((s.len() + 2, s.len() + 2 - continuations));
    }
    // Most strings are printable ASCII without quotes or backslashes: written as they are.
    if s.bytes().all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\') {
        return Some((s.len() + 2, s.len() + 2));
    }
    let mut bytes = 2;
    let mut chars = 2;
    for c in s.chars() {
        let (b, n) = match c {
            '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => (2, 2),
            '\0'..='\u{1f}' => (6, 6),
            '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}' => return None,
            c => (c.len_utf8(), 1),
        };
        bytes += b;
        chars += n;
    }
    Some((bytes, chars))
}

/// An integer as Rust and serde_json write one: `0`, or digits not starting with `0` after an
/// optional `-`.
fn plain_decimal(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" && digits.len() == text.len() || !digits.starts_with('0'))
}

/// The `response` of an AdmissionReview for a decision.
pub fn response(uid: &str, decision: &Decision) -> Value {
    answer(
        uid,
        decision.allowed,
        decision.code,
        decision.message.clone(),
        decision.warnings.clone(),
    )
}

/// [`response`] for a decision that is not needed afterwards: its message and warnings move
/// into the answer.
fn response_of(uid: &str, decision: Decision) -> Value {
    answer(
        uid,
        decision.allowed,
        decision.code,
        decision.message,
        decision.warnings,
    )
}

fn answer(uid: &str, allowed: bool, code: Option<u16>, message: Option<String>, warnings: Vec<String>) -> Value {
    let mut out = Map::new();
    out.insert("uid".to_owned(), Value::from(uid));
    out.insert("allowed".to_owned(), Value::Bool(allowed));
    if !allowed {
        let mut status = Map::new();
        status.insert("code".to_owned(), Value::from(code.unwrap_or(FORBIDDEN)));
        status.insert("message".to_owned(), Value::from(message.unwrap_or_default()));
        out.insert("status".to_owned(), Value::Object(status));
    }
    if !warnings.is_empty() {
        out.insert("warnings".to_owned(), Value::from(warnings));
    }
    Value::Object(out)
}

/// The `response` of an AdmissionReview for a request ra2 cannot judge.
pub fn rejection(uid: &str, error: &AdmissionError) -> Value {
    json!({
        "uid": uid,
        "allowed": false,
        "status": {"code": BAD_REQUEST, "message": format!("ra2: malformed admission request: {error}")},
    })
}

/// The request inside an AdmissionReview, or why the review cannot be read (not an object,
/// not kind AdmissionReview, no request object). `ra2 serve` answers such a body with HTTP 400
/// instead of a review.
pub fn check_review(review: &Value) -> Result<&Value, AdmissionError> {
    let Some(fields) = review.as_object() else {
        return Err(AdmissionError::new(format!(
            "the AdmissionReview is {}, not an object",
            type_name(review)
        )));
    };
    if let Some(kind) = fields.get("kind").filter(|k| k.as_str() != Some("AdmissionReview")) {
        return Err(AdmissionError::new(format!(
            "expected kind AdmissionReview, found {kind}"
        )));
    }
    match fields.get("request") {
        Some(request @ Value::Object(_)) => Ok(request),
        None | Some(Value::Null) => Err(AdmissionError::new("the AdmissionReview has no request")),
        Some(other) => Err(AdmissionError::new(format!(
            "the AdmissionReview's request is {}, not an object",
            type_name(other)
        ))),
    }
}

fn allow() -> Decision {
    Decision {
        allowed: true,
        code: None,
        message: None,
        warnings: Vec::new(),
        report: Report::default(),
    }
}

/// The object as ra2 lints it. On CREATE the object may leave its namespace (and, with
/// generateName, its name) to the request: they are filled in, so exemptions and messages see
/// what the API server will store. `metadata.managedFields` and `status` are dropped: server
/// bookkeeping no rule reads, often half the bytes of a request, and parsing is most of the
/// cost of a decision. A Node keeps its `status` (capacity, allocatable and `nodeInfo` are
/// what the platform checks judge). Pointers to everything else are unchanged.
fn prepare(object: &Map<String, Value>, request: &Map<String, Value>) -> Value {
    let mut object = object.clone();
    let node = object.get("kind").and_then(Value::as_str) == Some("Node")
        && object.get("apiVersion").and_then(Value::as_str) == Some("v1");
    if !node {
        object.remove("status");
    }
    if let Some(Value::Object(metadata)) = object.get_mut("metadata") {
        metadata.remove("managedFields");
    }
    let from_request = |key: &str| {
        request
            .get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    let fills: Vec<(&str, String)> = ["namespace", "name"]
        .into_iter()
        .filter_map(|key| from_request(key).map(|value| (key, value)))
        .collect();
    if !fills.is_empty() {
        let metadata = object.entry("metadata").or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(metadata) = metadata {
            for (key, value) in fills {
                let absent = metadata.get(key).is_none_or(|v| v.as_str().is_none_or(str::is_empty));
                if absent {
                    metadata.insert(key.to_owned(), Value::String(value));
                }
            }
        }
    }
    Value::Object(object)
}

/// Splits findings at the threshold into the denial message and warnings.
fn judge(report: Report, config: &Config) -> Decision {
    let threshold = config.fail_on.threshold();
    let (deny, warn): (Vec<&Finding>, Vec<&Finding>) = report
        .findings
        .iter()
        .partition(|f| threshold.is_some_and(|t| f.severity >= t));
    let message = (!deny.is_empty()).then(|| denial_message(&deny));
    Decision {
        allowed: deny.is_empty(),
        code: (!deny.is_empty()).then_some(FORBIDDEN),
        message,
        warnings: warnings(&warn),
        report,
    }
}

/// `ra2.app.007 /spec/volumes/0/hostPath: volume "data" mounts host path /var/lib/x`, cut to
/// [`MAX_LINE_BYTES`].
pub fn finding_line(finding: &Finding) -> String {
    let line = if finding.pointer.is_empty() {
        format!("{}: {}", finding.rule, finding.message)
    } else {
        format!("{} {}: {}", finding.rule, finding.pointer, finding.message)
    };
    truncate(line, MAX_LINE_BYTES)
}

fn denial_message(findings: &[&Finding]) -> String {
    let mut lines: Vec<String> = findings
        .iter()
        .take(MAX_MESSAGE_LINES)
        .map(|f| finding_line(f))
        .collect();
    if findings.len() > MAX_MESSAGE_LINES {
        lines.push(more(findings.len() - MAX_MESSAGE_LINES));
    }
    lines.join("\n")
}

fn warnings(findings: &[&Finding]) -> Vec<String> {
    let mut out = Vec::new();
    let mut used = 0;
    for (i, finding) in findings.iter().enumerate() {
        let line = finding_line(finding);
        let rest = findings.len() - i - 1;
        // Keep room for the closing count unless this is the last finding.
        let reserve = if rest > 0 { more(rest).len() } else { 0 };
        if used + line.len() + reserve > MAX_WARNING_BYTES {
            out.push(more(findings.len() - i));
            return out;
        }
        used += line.len();
        out.push(line);
    }
    out
}

fn more(n: usize) -> String {
    format!(
        "… and {n} more {} (`ra2 lint` lists them all)",
        if n == 1 { "finding" } else { "findings" }
    )
}

fn truncate(mut s: String, max: usize) -> String {
    if s.len() <= max {
        return s;
    }
    let ellipsis = "…";
    let mut cut = max - ellipsis.len();
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    s.truncate(cut);
    s.push_str(ellipsis);
    s
}

use crate::report::words::json_type as type_name;

#[cfg(test)]
mod subresource_tests {
    use super::*;

    #[test]
    fn status_and_scale_writes_are_allowed_ephemeral_containers_judged() {
        let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
            "spec": {"nodeSelector": {"node-role.kubernetes.io/control-plane": ""}, "containers": [{"name": "a", "image": "r/a:1"}]}});
        let request = |sub: &str| json!({"uid": "u", "operation": "UPDATE", "subResource": sub, "object": pod});
        let config = Config::default();
        assert!(decide(&request("status"), &config).is_ok_and(|d| d.allowed));
        assert!(decide(&request("scale"), &config).is_ok_and(|d| d.allowed));
        assert!(decide(&request("ephemeralcontainers"), &config).is_ok_and(|d| !d.allowed));
        assert!(decide(&request(""), &config).is_ok_and(|d| !d.allowed));
    }

    #[test]
    fn ephemeral_containers_are_refused_on_create_only() {
        let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "n"},
            "spec": {"containers": [{"name": "a", "image": "r/a:1"}],
                     "ephemeralContainers": [{"name": "debug", "image": "r/d:1"}]}});
        let config = Config::default();
        let refusals = |operation: &str, sub: &str| {
            let request = json!({"uid": "u", "operation": operation, "subResource": sub, "object": pod});
            decide(&request, &config).map_or(usize::MAX, |d| {
                d.report
                    .findings
                    .iter()
                    .filter(|f| f.check == "ephemeral-containers")
                    .count()
            })
        };
        assert_eq!(refusals("CREATE", ""), 1);
        assert_eq!(refusals("UPDATE", "ephemeralcontainers"), 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FailOn;

    fn pod(spec: &Value) -> Value {
        json!({
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": "upf", "namespace": "core"},
            "spec": spec,
        })
    }

    fn request(operation: &str, object: Option<Value>) -> Value {
        let mut r = json!({
            "uid": "705ab4f5-6393-11e8-b7cc-42010a800002",
            "kind": {"group": "", "version": "v1", "kind": "Pod"},
            "resource": {"group": "", "version": "v1", "resource": "pods"},
            "namespace": "core",
            "operation": operation,
            "userInfo": {"username": "admin"},
            "dryRun": false,
        });
        if let Some(object) = object {
            r["object"] = object;
        }
        r
    }

    fn host_path_pod() -> Value {
        pod(&json!({
            "volumes": [{"name": "logs", "hostPath": {"path": "/var/log/upf"}}],
            "containers": [{"name": "upf", "image": "registry.example/upf:1.0",
                            "volumeMounts": [{"name": "logs", "mountPath": "/logs"}]}],
        }))
    }

    fn control_plane_pod() -> Value {
        pod(&json!({
            "nodeSelector": {"node-role.kubernetes.io/control-plane": ""},
            "containers": [{"name": "upf", "image": "registry.example/upf:1.0"}],
        }))
    }

    #[test]
    fn findings_below_the_threshold_only_warn() {
        let decision = decide(&request("CREATE", Some(host_path_pod())), &Config::default()).unwrap();
        assert!(decision.allowed);
        assert_eq!(decision.code, None);
        assert!(
            decision
                .warnings
                .iter()
                .any(|w| w.starts_with("ra2.app.007 /spec/volumes/0/hostPath: volume \"logs\"")),
            "{:?}",
            decision.warnings
        );
    }

    #[test]
    fn errors_deny_with_403_and_pointer_lines() {
        let decision = decide(&request("CREATE", Some(control_plane_pod())), &Config::default()).unwrap();
        assert!(!decision.allowed);
        assert_eq!(decision.code, Some(FORBIDDEN));
        let message = decision.message.unwrap();
        assert!(
            message.starts_with("ra2.app.008 /spec/nodeSelector/node-role.kubernetes.io~1control-plane: "),
            "{message}"
        );
    }

    #[test]
    fn the_threshold_is_fail_on() {
        let config = Config {
            fail_on: FailOn::Warning,
            ..Config::default()
        };
        let decision = decide(&request("CREATE", Some(host_path_pod())), &config).unwrap();
        assert!(!decision.allowed);
        let config = Config {
            fail_on: FailOn::Never,
            ..Config::default()
        };
        let decision = decide(&request("CREATE", Some(control_plane_pod())), &config).unwrap();
        assert!(decision.allowed);
        assert!(decision.warnings.iter().any(|w| w.starts_with("ra2.app.008 ")));
    }

    #[test]
    fn delete_and_connect_are_allowed_without_looking() {
        for op in ["DELETE", "CONNECT"] {
            let decision = decide(&request(op, Some(control_plane_pod())), &Config::default()).unwrap();
            assert!(decision.allowed && decision.warnings.is_empty(), "{op}");
            assert!(decide(&request(op, None), &Config::default()).unwrap().allowed);
        }
    }

    #[test]
    fn update_judges_the_new_object() {
        let mut r = request("UPDATE", Some(control_plane_pod()));
        r["oldObject"] = pod(&json!({"containers": [{"name": "upf", "image": "registry.example/upf:1.0"}]}));
        assert!(!decide(&r, &Config::default()).unwrap().allowed);
        let mut r = request("UPDATE", Some(r["oldObject"].clone()));
        r["oldObject"] = control_plane_pod();
        assert!(decide(&r, &Config::default()).unwrap().allowed);
    }

    #[test]
    fn controllers_are_judged_through_their_template() {
        let cron = json!({
            "apiVersion": "batch/v1", "kind": "CronJob",
            "metadata": {"name": "backup", "namespace": "core"},
            "spec": {"schedule": "0 * * * *", "jobTemplate": {"spec": {"template": {"spec": {
                "restartPolicy": "Never",
                "nodeName": "master-0",
                "tolerations": [{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}],
                "containers": [{"name": "b", "image": "registry.example/b:1"}]}}}}}
        });
        let decision = decide(&request("CREATE", Some(cron)), &Config::default()).unwrap();
        assert!(!decision.allowed);
        assert!(
            decision
                .message
                .unwrap()
                .contains("ra2.app.008 /spec/jobTemplate/spec/template/spec/tolerations/0")
        );
    }

    #[test]
    fn bookkeeping_is_not_linted() {
        let mut object = control_plane_pod();
        object["metadata"]["managedFields"] = json!([{"manager": "kubectl", "fieldsV1": {"f:spec": {}}}]);
        object["status"] = json!({"phase": "Pending"});
        let decision = decide(&request("CREATE", Some(object)), &Config::default()).unwrap();
        let plain = decide(&request("CREATE", Some(control_plane_pod())), &Config::default()).unwrap();
        assert_eq!(decision, plain);
    }

    #[test]
    fn the_request_namespace_reaches_exemptions() {
        let mut object = control_plane_pod();
        object["metadata"] = json!({"generateName": "upf-"});
        let config = Config::from_json(
            &json!({"exemptions": [{"rule": "ra2.app.008", "namespace": "core", "name": "upf-x", "reason": "lab"}]}),
            "settings",
        )
        .unwrap();
        let mut r = request("CREATE", Some(object));
        r["name"] = json!("upf-x");
        let decision = decide(&r, &config).unwrap();
        assert!(decision.allowed, "{:?}", decision.message);
        assert_eq!(decision.report.summary.suppressed, 1);
    }

    #[test]
    fn malformed_requests_say_what_is_wrong() {
        let config = Config::default();
        let cases = [
            (json!("x"), "the admission request is a string, not an object"),
            (json!({"uid": "1"}), "the admission request has no operation"),
            (
                json!({"operation": 5}),
                "the admission request's operation is a number, not a string",
            ),
            (
                json!({"operation": "PATCH", "object": {}}),
                "unknown operation \"PATCH\"",
            ),
            (json!({"operation": "CREATE"}), "the CREATE request carries no object"),
            (
                json!({"operation": "UPDATE", "object": [1]}),
                "the UPDATE request's object is an array",
            ),
            (
                json!({"operation": "CREATE", "object": {"kind": "Pod"}}),
                "ra2 cannot read the object: object has no apiVersion",
            ),
        ];
        for (input, expected) in cases {
            let error = decide(&input, &config).unwrap_err();
            assert!(error.message.starts_with(expected), "{input}: {error}");
        }
    }

    #[test]
    fn reviews_answer_with_the_same_uid() {
        let review_in = json!({
            "apiVersion": "admission.k8s.io/v1",
            "kind": "AdmissionReview",
            "request": request("CREATE", Some(control_plane_pod())),
        });
        let out = review(&review_in, &Config::default());
        assert_eq!(out["kind"], "AdmissionReview");
        assert_eq!(out["apiVersion"], "admission.k8s.io/v1");
        assert_eq!(out["response"]["uid"], "705ab4f5-6393-11e8-b7cc-42010a800002");
        assert_eq!(out["response"]["allowed"], false);
        assert_eq!(out["response"]["status"]["code"], 403);
        let bad = review(&json!({"kind": "Pod"}), &Config::default());
        assert_eq!(bad["response"]["allowed"], false);
        assert_eq!(bad["response"]["status"]["code"], 400);
        assert_eq!(
            bad["response"]["status"]["message"],
            "ra2: malformed admission request: expected kind AdmissionReview, found \"Pod\""
        );
        let allowed = review(&json!({"request": request("DELETE", None)}), &Config::default());
        assert_eq!(
            allowed["response"],
            json!({"uid": "705ab4f5-6393-11e8-b7cc-42010a800002", "allowed": true})
        );
        let text = review_json("{\"request\": ", &Config::default());
        assert_eq!(text["kind"], "AdmissionReview");
        assert_eq!(text["response"]["status"]["code"], 400);
        assert!(
            text["response"]["status"]["message"]
                .as_str()
                .unwrap()
                .starts_with("ra2: malformed admission request: the AdmissionReview is not JSON: EOF while parsing")
        );
        assert_eq!(
            review_json(&review_in.to_string(), &Config::default()),
            review(&review_in, &Config::default())
        );
    }

    #[test]
    fn lines_and_warnings_stay_within_kubernetes_limits() {
        let long = "x".repeat(300);
        let containers: Vec<Value> = (0..80)
            .map(|i| {
                json!({"name": format!("c{i}"), "image": "r/a:1",
                            "volumeMounts": [{"name": format!("{long}{i}é"), "mountPath": "/logs"}]})
            })
            .collect();
        let volumes: Vec<Value> = (0..80)
            .map(|i| json!({"name": format!("{long}{i}é"), "hostPath": {"path": format!("/var/{i}")}}))
            .collect();
        let object = pod(&json!({"volumes": volumes, "containers": containers}));
        let decision = decide(&request("CREATE", Some(object)), &Config::default()).unwrap();
        assert!(decision.warnings.iter().all(|w| w.len() <= MAX_LINE_BYTES));
        assert!(decision.warnings.iter().map(String::len).sum::<usize>() <= MAX_WARNING_BYTES);
        let last = decision.warnings.last().unwrap();
        assert!(last.starts_with("… and ") && last.ends_with("more findings (`ra2 lint` lists them all)"));
        let shown = decision.warnings.len() - 1;
        let count: usize = last.split(' ').nth(2).unwrap().parse().unwrap();
        // The 300-character volume names are also refused by the API server (k8s.api errors,
        // which deny rather than warn); every finding below the threshold is a warning.
        let below = decision
            .report
            .findings
            .iter()
            .filter(|f| f.severity < crate::report::Severity::Error)
            .count();
        assert_eq!(shown + count, below);
        let config = Config {
            fail_on: FailOn::Info,
            ..Config::default()
        };
        let twelve = pod(&json!({
            "volumes": (0..12).map(|i| json!({"name": format!("v{i}"), "hostPath": {"path": "/x"}})).collect::<Vec<_>>(),
            "containers": [{"name": "a", "image": "r/a:1"}],
        }));
        let message = decide(&request("CREATE", Some(twelve)), &config)
            .unwrap()
            .message
            .unwrap();
        assert_eq!(message.lines().count(), MAX_MESSAGE_LINES + 1);
        assert!(message.lines().all(|l| l.len() <= MAX_LINE_BYTES));
    }

    /// `key_order` is byte order, the order serde_json's maps keep.
    #[test]
    fn key_order_is_byte_order() {
        let keys = [
            "",
            "a",
            "ab",
            "abc",
            "b",
            "B",
            "a\u{0}",
            "é",
            "e",
            "spec",
            "status",
            "securityContext",
        ];
        for a in keys {
            for b in keys {
                assert_eq!(crate::parse::json::key_order(a, b), a.cmp(b), "{a:?} {b:?}");
            }
        }
    }

    /// `plain_decimal` says exactly when an integer's text is how it is written back.
    #[test]
    fn plain_decimals_are_what_integers_write() {
        for text in [
            "0",
            "-0",
            "00",
            "01",
            "-01",
            "7",
            "-7",
            "10",
            "+1",
            "",
            "-",
            "1a",
            "18446744073709551615",
        ] {
            let same = text.parse::<i128>().is_ok_and(|i| i.to_string() == text);
            assert_eq!(super::plain_decimal(text), same, "{text:?}");
        }
    }

    #[test]
    fn settings_from_json_use_the_config_schema() {
        let errors = Config::from_json(&json!({"fail-on": "sometimes", "selct": ["ra2.app"]}), "settings").unwrap_err();
        let shown: Vec<(String, String)> = errors.iter().map(|e| (e.pointer.clone(), e.message.clone())).collect();
        assert_eq!(
            shown,
            vec![
                (
                    "/fail-on".to_owned(),
                    "\"sometimes\" is not one of \"error\", \"warning\", \"info\", \"never\"".to_owned()
                ),
                (
                    "/selct".to_owned(),
                    "unknown key \"selct\" (did you mean \"select\"?)".to_owned()
                ),
            ]
        );
        assert_eq!(Config::from_json(&Value::Null, "s").unwrap(), Config::default());
        assert_eq!(Config::from_json(&json!({}), "s").unwrap(), Config::default());
        let config = Config::from_json(
            &json!({"edition": "latest", "params": {"ra2.app.009": {"network_resources_injector": true}}}),
            "s",
        )
        .unwrap();
        assert_eq!(config.edition, crate::Edition::Latest);
        let errors = Config::from_json(&json!({"params": {"ra2.app.009": {"nope": 1}}}), "s").unwrap_err();
        assert_eq!(errors[0].pointer, "/params/ra2.app.009/nope");
    }
}
