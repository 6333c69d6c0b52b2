//! The text path: an AdmissionReview or ValidationRequest read from its JSON text straight into
//! ra2's document tree, once ([`Incoming`]), and judged there. `None` wherever it cannot vouch
//! for answering as the serde_json path ([`super::value`]) does; the entry points then take that.

use std::borrow::{Borrow, Cow};

use serde_json::Value;

use super::{Answer, Asked, Decision, Fields, SOURCE_NAME, ValidationError, allow, judge};
use crate::config::Config;
use crate::parse::doc::{Doc, Entry as DocEntry, Limits, NodeId, Value as DocValue};
use crate::parse::json::{Reading, sort_entries};
use crate::parse::source::{Chunk, Span};
use crate::parse::view::Located;

/// [`super::review`] of an AdmissionReview's text, or `None`: take the serde_json path.
pub(super) fn review(text: &str, config: &Config) -> Option<Answer> {
    let incoming = Incoming::read(text)?;
    let root = Located::root(&incoming.doc);
    if root.get("kind").is_some_and(|k| k.as_str() != Some("AdmissionReview")) {
        return None;
    }
    let asked = Asked::of(root.str_at("apiVersion"));
    let request = root.get("request");
    let field = |map: Option<&Located<'_>>, key: &str| map.and_then(|m| m.str_at(key)).unwrap_or_default().to_owned();
    let fields = Fields {
        uid: field(request.as_ref(), "uid"),
        kind: field(request.as_ref().and_then(|r| r.get("kind")).as_ref(), "kind"),
        operation: field(request.as_ref(), "operation"),
    };
    let decision = incoming.decide(config)?;
    Some(Answer::decided(asked, fields, decision, true))
}

/// [`super::validate`] of a ValidationRequest's text, or `None`: take the serde_json path.
pub(super) fn validate<C: Borrow<Config>>(
    text: &str,
    config_of: &mut impl FnMut(&Value) -> Result<C, String>,
) -> Option<Result<Decision, ValidationError>> {
    let incoming = Incoming::read(text)?;
    let settings = match incoming.member_text("settings") {
        Some(settings) => serde_json::from_str(settings).ok()?,
        None => Value::Null,
    };
    match config_of(&settings) {
        Ok(config) => incoming.decide(config.borrow()).map(Ok),
        Err(message) => Some(Err(ValidationError::Settings(message))),
    }
}

/// Reads (without keeping it) a request's text as [`review`] and [`validate`] do first: what
/// the benchmark measures of that step.
#[doc(hidden)]
pub fn read_into_tree(text: &str) -> bool {
    Incoming::read(text).is_some()
}

/// Deepest nesting [`Incoming::read`] takes (serde_json, the reference, stops at 128).
const INCOMING_DEPTH: usize = 100;

/// How [`Incoming::read`] reads a request. It reads (refusing the request as before if it is
/// not JSON) without keeping: the object's `managedFields`, which [`super::value::prepare`]
/// drops (often a third of a request), and the old object of an UPDATE, which no rule reads.
/// It puts every mapping in serde_json's key order, which the serde_json path's answers follow.
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
/// The answers are those of the serde_json path ([`super::value::decide`],
/// [`super::value::review`]) byte for byte: the object's mappings are put in key order
/// (serde_json's map order, which the denial and warning order follow) and findings are
/// ordered by where they would be in the object as serde_json writes it. Anything this path cannot vouch for gives `None`, and the caller takes the
/// serde_json path: text ra2's JSON reader gives up on, duplicate keys, numbers serde_json
/// would write differently, strings the JSON reader would refuse once written out, an object
/// without `metadata` that the request would give a name, lint errors, or a message quoting a
/// collection or a differently escaped string.
#[derive(Debug)]
struct Incoming<'t> {
    doc: Doc<'t>,
    /// A value serde_json would write otherwise than the text reads ([`crate::parse::json::Unusual::rewritten`]):
    /// the object is measured exactly before it is linted.
    rewritten: bool,
}

impl<'t> Incoming<'t> {
    /// Reads a JSON object, or `None` (see the type's docs).
    fn read(text: &'t str) -> Option<Self> {
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

    /// The JSON text of the top-level member `key` as written (Kubewarden's `settings`).
    fn member_text(&self, key: &str) -> Option<&'t str> {
        let node = Located::root(&self.doc).get(key)?;
        Some(self.doc.text(node.span()))
    }

    /// [`super::value::decide`] on the AdmissionRequest at `request`, or `None`: take the serde_json
    /// path.
    fn decide(mut self, config: &Config) -> Option<Decision> {
        let root = Located::root(&self.doc);
        let request = root.get("request").filter(Located::is_map)?;
        let operation = request.str_at("operation")?;
        match operation {
            "CREATE" | "UPDATE" => {}
            "DELETE" | "CONNECT" => return Some(allow()),
            _ => return None,
        }
        let sub_resource = request.str_at("subResource").unwrap_or_default();
        if !sub_resource.is_empty() && sub_resource != "ephemeralcontainers" {
            return Some(allow());
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
        let mut linter = crate::Linter::new(config).with_decoded_objects();
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
        Some(judge(report, config))
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

#[cfg(test)]
mod tests {
    use super::*;

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
            assert_eq!(plain_decimal(text), same, "{text:?}");
        }
    }
}
