//! The document tree: every YAML node with its span, scalars resolved as the API server
//! resolves them, anchors, aliases and `<<` merge keys expanded without copying, and hard
//! limits that turn YAML bombs and pathological nesting into errors.

use std::borrow::Cow;
use std::cell::{Cell, OnceCell};
use std::collections::HashMap;

use ra2_yaml::{Event, EventKind, Parser, ScalarStyle};

use crate::parse::json::{Reading, Unusual};
use crate::parse::scalar::{Resolved, resolve_json, resolve_plain};
use crate::parse::source::{Chunk, LineIndex, Position, Span, count_position};

/// Index of a node in its document's arena.
pub type NodeId = u32;

/// Limits that bound the work one document can cause (`limits:` in `.ra2.yaml`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct Limits {
    /// Largest document, in bytes.
    pub max_document_bytes: usize,
    /// Deepest nesting of collections.
    pub max_depth: usize,
    /// Nodes that aliases and merge keys may add on top of the nodes written out.
    pub max_alias_expansion: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_document_bytes: 32 << 20,
            max_depth: 256,
            max_alias_expansion: 1_000_000,
        }
    }
}

/// Limits set on a command line (`ra2 lint`, `ra2 serve`): each one that is set replaces the
/// configuration file's value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LimitOverrides {
    pub max_document_bytes: Option<usize>,
    pub max_depth: Option<usize>,
    pub max_alias_expansion: Option<u64>,
}

impl LimitOverrides {
    /// `limits` with the overrides that are set.
    pub fn apply(&self, limits: &mut Limits) {
        if let Some(n) = self.max_document_bytes {
            limits.max_document_bytes = n;
        }
        if let Some(n) = self.max_depth {
            limits.max_depth = n;
        }
        if let Some(n) = self.max_alias_expansion {
            limits.max_alias_expansion = n;
        }
    }
}

/// A resolved value. A collection's entries or items live in its document's arenas
/// ([`Doc::map_entries`], [`Doc::seq_items`]): one allocation per document, not one per
/// collection.
#[derive(Clone, Debug, PartialEq)]
pub enum Value<'s> {
    Null,
    Bool(bool),
    Int(Int),
    Float(f64),
    Str(Cow<'s, str>),
    Seq(Children),
    Map(Children),
}

/// An integer as read: go-yaml's int64 and uint64 range, and for JSON anything up to 39 digits
/// (the API server refuses those; ra2 keeps them to say so). Kept as two 64-bit halves, so a
/// [`Value`] is 24 bytes and 8-byte aligned (an `i128` field made it 32 and 16).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Int {
    high: i64,
    low: u64,
}

impl Int {
    pub const fn new(value: i128) -> Self {
        // Two's complement halves: the casts keep every bit.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Int {
            high: (value >> 64) as i64,
            low: value as u64,
        }
    }

    pub const fn get(self) -> i128 {
        ((self.high as i128) << 64) | self.low as i128
    }
}

impl From<i128> for Int {
    fn from(value: i128) -> Self {
        Int::new(value)
    }
}

impl std::fmt::Debug for Int {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

/// Where a collection's entries (or items) are in its document's arena.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Children {
    pub start: u32,
    pub len: u32,
}

impl Children {
    pub(crate) fn range(self) -> std::ops::Range<usize> {
        let start = self.start as usize;
        start..start + self.len as usize
    }

    /// The next `len` places of an arena that holds `used` of them (`None` beyond `u32`).
    pub(crate) fn after(used: usize, len: usize) -> Option<Self> {
        Some(Children {
            start: u32::try_from(used).ok()?,
            len: u32::try_from(len).ok()?,
        })
    }
}

/// Where an alias (`*name`) or a `<<` merge key put an entry or item, if one did: a place in
/// its document's list of alias sites ([`Doc::alias_site`]). Kept out of line, so that an
/// [`Entry`] is 48 bytes and an [`Item`] 8 (they were 72 and 32 with an `Option<Span>`), which
/// every read and sort of them pays for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AliasSite(u32);

impl AliasSite {
    /// Not put here by an alias or merge key.
    pub const NONE: AliasSite = AliasSite(0);

    pub const fn is_some(self) -> bool {
        self.0 != 0
    }

    pub const fn is_none(self) -> bool {
        self.0 == 0
    }
}

/// The span of alias site `via` in a document's list of them.
fn site_span(sites: &[Span], via: AliasSite) -> Option<Span> {
    sites.get((via.0 as usize).checked_sub(1)?).copied()
}

/// A sequence element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Item {
    pub node: NodeId,
    /// Where an alias (`*name`) put this node here, if it did.
    pub via: AliasSite,
}

/// A mapping entry. Keys are strings, as sigs.k8s.io/yaml makes them.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry<'s> {
    pub key: Cow<'s, str>,
    pub key_span: Span,
    pub value: NodeId,
    /// Where an alias or a `<<` merge key put this entry here, if one did.
    pub via: AliasSite,
}

/// A node.
#[derive(Clone, Debug, PartialEq)]
pub struct Node<'s> {
    pub value: Value<'s>,
    pub span: Span,
    /// How the scalar was written; `None` for collections.
    pub style: Option<ScalarStyle>,
}

/// A problem found while building a document that does not stop it from being linted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub span: Span,
    pub message: String,
}

/// Why a document could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct DocError {
    pub span: Span,
    pub message: String,
    /// A stable code such as `ra2::parse::yaml`.
    pub code: &'static str,
}

static NULL_NODE: Node<'static> = Node {
    value: Value::Null,
    span: Span::new(0, 0),
    style: None,
};

/// One YAML document.
#[derive(Debug)]
pub struct Doc<'s> {
    pub nodes: Vec<Node<'s>>,
    /// Every mapping's entries, each mapping's together ([`Value::Map`]).
    pub(crate) entries: Vec<Entry<'s>>,
    /// Every sequence's items, each sequence's together ([`Value::Seq`]).
    pub(crate) items: Vec<Item>,
    /// The spans of the aliases and merge keys that put entries and items in place
    /// ([`AliasSite`]).
    pub(crate) alias_sites: Vec<Span>,
    pub root: NodeId,
    /// Duplicate keys and similar: reported, but the document is still linted.
    pub problems: Vec<Problem>,
    /// The chunk's text; spans are absolute, so subtract `chunk.offset` to index it.
    pub chunk: Chunk<'s>,
    /// Built when a position is asked for after the first [`COUNTED_POSITIONS`] (found by
    /// counting lines instead): most documents need few positions or none — the object's own
    /// line and a finding or two — and building it reads the whole chunk.
    lines: OnceCell<LineIndex>,
    /// Positions found by counting so far.
    counted: Cell<u8>,
    /// Characters before the chunk on its first line (a List item that starts mid-line).
    first_column: usize,
    /// The stream is JSON (scalars resolve as JSON).
    pub json: bool,
    /// Set when the tree stands for a JSON text other than its source (the admission decision
    /// lints the object where it stands in the request, but its messages must read as if the
    /// object had been written out by serde_json): `Some(true)` once a message quoted a node
    /// whose source text differs from that rendering (see [`Doc::note_quoted`]).
    pub(crate) quote_check: Option<Cell<bool>>,
}

impl<'s> Doc<'s> {
    pub fn node(&self, id: NodeId) -> &Node<'s> {
        // Ids only come from this arena, so they are always in range; fall back to a null node
        // rather than panic if that invariant were ever broken.
        self.nodes.get(id as usize).unwrap_or(&NULL_NODE)
    }

    /// Where the alias or merge key that put an entry or item in place is, if one did.
    pub fn alias_site(&self, via: AliasSite) -> Option<Span> {
        site_span(&self.alias_sites, via)
    }

    /// The entries of mapping `id` (none for anything else).
    pub fn map_entries(&self, id: NodeId) -> &[Entry<'s>] {
        match self.node(id).value {
            Value::Map(children) => self.entries.get(children.range()).unwrap_or_default(),
            _ => &[],
        }
    }

    /// The items of sequence `id` (none for anything else).
    pub fn seq_items(&self, id: NodeId) -> &[Item] {
        match self.node(id).value {
            Value::Seq(children) => self.items.get(children.range()).unwrap_or_default(),
            _ => &[],
        }
    }

    /// The entries of mapping `id`, to change in place.
    pub(crate) fn map_entries_mut(&mut self, id: NodeId) -> Option<&mut [Entry<'s>]> {
        match self.nodes.get(id as usize)?.value {
            Value::Map(children) => self.entries.get_mut(children.range()),
            _ => None,
        }
    }

    /// Keeps the entries of mapping `id` that `keep` accepts, in order.
    pub(crate) fn retain_entries(&mut self, id: NodeId, mut keep: impl FnMut(&Entry<'s>) -> bool) {
        let Some(Node {
            value: Value::Map(children),
            ..
        }) = self.nodes.get_mut(id as usize)
        else {
            return;
        };
        let Some(entries) = self.entries.get_mut(children.range()) else {
            return;
        };
        let mut kept = 0;
        for i in 0..entries.len() {
            if entries.get(i).is_some_and(&mut keep) {
                entries.swap(kept, i);
                kept += 1;
            }
        }
        children.len = u32::try_from(kept).unwrap_or(children.len);
    }

    /// Adds an entry at the end of mapping `id` (its entries move to the end of the arena
    /// unless they are there already).
    pub(crate) fn push_entry(&mut self, id: NodeId, entry: Entry<'s>) {
        let Some(Node {
            value: Value::Map(children),
            ..
        }) = self.nodes.get_mut(id as usize)
        else {
            return;
        };
        let range = children.range();
        if range.end != self.entries.len() {
            let moved: Vec<Entry<'s>> = self.entries.get(range.clone()).unwrap_or_default().to_vec();
            let Some(start) = Children::after(self.entries.len(), 0) else {
                return;
            };
            children.start = start.start;
            self.entries.extend(moved);
        }
        children.len += 1;
        self.entries.push(entry);
    }

    /// The tree below the root, one line per node in document order (value, span, style; for
    /// entries their key, key span and alias site): equal for two documents exactly when their
    /// trees are, whatever their node numbering. For tests comparing readers.
    pub fn outline(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.outline_node(self.root, "", &mut out, 0);
        out
    }

    fn outline_node(&self, id: NodeId, prefix: &str, out: &mut Vec<String>, depth: usize) {
        let node = self.node(id);
        let shown = match &node.value {
            Value::Map(c) => format!("map of {}", c.len),
            Value::Seq(c) => format!("seq of {}", c.len),
            other => format!("{other:?}"),
        };
        out.push(format!("{prefix} {shown} {:?} {:?}", node.span, node.style));
        if depth > 1024 {
            return;
        }
        for e in self.map_entries(id) {
            let prefix = format!("{prefix}/{:?}@{:?}via{:?}", e.key, e.key_span, self.alias_site(e.via));
            self.outline_node(e.value, &prefix, out, depth + 1);
        }
        for (i, item) in self.seq_items(id).iter().enumerate() {
            let prefix = format!("{prefix}/{i}via{:?}", self.alias_site(item.via));
            self.outline_node(item.node, &prefix, out, depth + 1);
        }
    }

    pub fn position(&self, offset: usize) -> Position {
        if self.lines.get().is_none() && self.counted.get() < COUNTED_POSITIONS {
            self.counted.set(self.counted.get() + 1);
            return count_position(&self.chunk, self.first_column, offset);
        }
        self.lines
            .get_or_init(|| LineIndex::new(&self.chunk).with_first_column(self.first_column))
            .position(self.chunk.text, offset)
    }

    /// The text of a span (empty if it lies outside this document).
    pub fn text(&self, span: Span) -> &'s str {
        let base = self.chunk.offset;
        self.chunk
            .text
            .get(span.start.saturating_sub(base)..span.end.saturating_sub(base))
            .unwrap_or("")
    }

    pub fn root_is_null(&self) -> bool {
        matches!(self.node(self.root).value, Value::Null)
    }

    /// Called whenever a node's source text is quoted (in a message): with a quote check on,
    /// notes a node whose text is not what serde_json writes for its value (a collection,
    /// laid out and ordered as its writer chose, or a string with other escapes).
    pub(crate) fn note_quoted(&self, id: NodeId) {
        let Some(flag) = &self.quote_check else { return };
        let node = self.node(id);
        let same = match &node.value {
            Value::Map(_) | Value::Seq(_) => false,
            Value::Str(s) => serde_json::to_string(s.as_ref()).is_ok_and(|quoted| quoted == self.text(node.span)),
            // Numbers were checked to be written as serde_json writes them.
            Value::Null | Value::Bool(_) | Value::Int(_) | Value::Float(_) => true,
        };
        if !same {
            flag.set(true);
        }
    }
}

/// The result of reading one chunk: zero or more documents, and at most one error (which
/// ends the chunk).
#[derive(Debug, Default)]
pub struct ChunkResult<'s> {
    pub docs: Vec<Doc<'s>>,
    pub error: Option<DocError>,
}

enum Frame<'s> {
    Seq {
        node: NodeId,
        items: Vec<Item>,
        anchor: Option<String>,
    },
    Map {
        node: NodeId,
        entries: Vec<Entry<'s>>,
        /// Index of entries by key, built once a mapping is large enough for scans to hurt.
        index: Option<HashMap<Cow<'s, str>, usize>>,
        /// A key waiting for its value: (key, span, is a merge key).
        pending_key: Option<(Cow<'s, str>, Span, bool)>,
        anchor: Option<String>,
    },
}

pub(crate) const INDEX_THRESHOLD: usize = 24;

/// Positions of a document found by counting lines before its line index is built: counting
/// reads the text up to the offset at a fraction of a byte's instruction, the index costs about
/// two instructions a byte of the whole chunk.
const COUNTED_POSITIONS: u8 = 8;

/// A key written twice in one mapping.
pub(crate) fn duplicate_key(key: &str, span: Span) -> Problem {
    Problem {
        span,
        message: format!(
            "duplicate key {key:?}: the API server keeps only the last value (and rejects the object with strict field validation)"
        ),
    }
}

struct Builder<'s> {
    chunk: Chunk<'s>,
    json: bool,
    limits: Limits,
    nodes: Vec<Node<'s>>,
    entries: Vec<Entry<'s>>,
    items: Vec<Item>,
    alias_sites: Vec<Span>,
    /// Expanded size of each node (itself plus everything below it, aliases included).
    weights: Vec<u64>,
    anchors: HashMap<String, NodeId>,
    stack: Vec<Frame<'s>>,
    /// Emptied entry and item vectors of closed collections, reused by the next ones opened
    /// (a document has thousands of small mappings; each would otherwise allocate and grow).
    spare_entries: Vec<Vec<Entry<'s>>>,
    spare_items: Vec<Vec<Item>>,
    problems: Vec<Problem>,
    written: u64,
    expanded: u64,
}

impl<'s> Builder<'s> {
    /// The document built, rooted at `root`.
    fn into_doc(self, root: NodeId) -> Doc<'s> {
        Doc {
            nodes: self.nodes,
            entries: self.entries,
            items: self.items,
            alias_sites: self.alias_sites,
            root,
            problems: self.problems,
            chunk: self.chunk,
            lines: OnceCell::new(),
            counted: Cell::new(0),
            first_column: 0,
            json: self.json,
            quote_check: None,
        }
    }

    fn new(chunk: Chunk<'s>, json: bool, limits: Limits) -> Self {
        // Sized from the text (the corpus has a node per 26 bytes and a mapping entry per 56 on
        // average), so that growing does not copy the tree several times over.
        let nodes = chunk.text.len() / 20 + 4;
        Builder {
            chunk,
            json,
            limits,
            nodes: Vec::with_capacity(nodes),
            entries: Vec::with_capacity(nodes / 2 + 4),
            items: Vec::new(),
            alias_sites: Vec::new(),
            weights: Vec::with_capacity(nodes),
            anchors: HashMap::new(),
            stack: Vec::new(),
            spare_entries: Vec::new(),
            spare_items: Vec::new(),
            problems: Vec::new(),
            written: 0,
            expanded: 0,
        }
    }

    fn span(&self, ev: &Event<'_>) -> Span {
        Span::new(self.chunk.offset + ev.start.offset, self.chunk.offset + ev.end.offset)
    }

    #[allow(clippy::unused_self)] // a method, so every error site reads `self.error(..)`
    fn error(&self, span: Span, code: &'static str, message: impl Into<String>) -> DocError {
        DocError {
            span,
            message: message.into(),
            code,
        }
    }

    /// Keeps the span of an alias or merge key that puts an entry or item in place.
    fn site(&mut self, via: Option<Span>) -> AliasSite {
        let Some(span) = via else {
            return AliasSite::NONE;
        };
        // Past u32 sites (never, within any memory) the site is not kept.
        let Ok(at) = u32::try_from(self.alias_sites.len() + 1) else {
            return AliasSite::NONE;
        };
        self.alias_sites.push(span);
        AliasSite(at)
    }

    fn alias_site_span(&self, via: AliasSite) -> Option<Span> {
        site_span(&self.alias_sites, via)
    }

    fn push_node(&mut self, node: Node<'s>, weight: u64) -> Result<NodeId, DocError> {
        let id = NodeId::try_from(self.nodes.len())
            .map_err(|_| self.error(node.span, "ra2::parse::too-large", "document has too many nodes"))?;
        self.nodes.push(node);
        self.weights.push(weight);
        self.written += 1;
        Ok(id)
    }

    fn add_expansion(&mut self, extra: u64, span: Span) -> Result<(), DocError> {
        self.expanded = self.expanded.saturating_add(extra);
        if self.expanded > self.limits.max_alias_expansion {
            return Err(self.error(
                span,
                "ra2::parse::alias-bomb",
                format!(
                    "aliases expand this document by more than {} nodes; refusing to expand it (a YAML bomb?)",
                    self.limits.max_alias_expansion
                ),
            ));
        }
        Ok(())
    }

    fn resolve_scalar(&self, value: Cow<'s, str>, style: ScalarStyle, tag: Option<&str>) -> Value<'s> {
        // A core-schema tag (`!!int "3"`) makes even a quoted scalar resolve like a plain one.
        let core_tag = matches!(
            tag,
            Some(
                "tag:yaml.org,2002:int"
                    | "tag:yaml.org,2002:float"
                    | "tag:yaml.org,2002:bool"
                    | "tag:yaml.org,2002:null"
            )
        );
        let resolved = match (style, tag) {
            (_, Some("tag:yaml.org,2002:str" | "tag:yaml.org,2002:binary")) => Resolved::Str,
            (ScalarStyle::Plain, _) | (_, Some(_)) if self.json => resolve_json(&value),
            _ if style == ScalarStyle::Plain || core_tag => resolve_plain(&value),
            _ => Resolved::Str,
        };
        match resolved {
            Resolved::Null => Value::Null,
            Resolved::Bool(b) => Value::Bool(b),
            Resolved::Int(i) => Value::Int(Int::new(i)),
            Resolved::Float(f) => Value::Float(f),
            Resolved::Str => Value::Str(value),
        }
    }

    /// Attaches a finished node to the collection on top of the stack (or makes it the root).
    fn attach(&mut self, id: NodeId, via: Option<Span>, root: &mut Option<NodeId>) -> Result<(), DocError> {
        let weight = self.weights.get(id as usize).copied().unwrap_or(1);
        let span = self.nodes.get(id as usize).map(|n| n.span).unwrap_or_default();
        let item_site = if matches!(self.stack.last(), Some(Frame::Seq { .. })) {
            self.site(via)
        } else {
            AliasSite::NONE
        };
        match self.stack.last_mut() {
            None => {
                *root = Some(id);
                Ok(())
            }
            Some(Frame::Seq { node, items, .. }) => {
                items.push(Item {
                    node: id,
                    via: item_site,
                });
                let parent = *node as usize;
                if let Some(w) = self.weights.get_mut(parent) {
                    *w = w.saturating_add(weight);
                }
                Ok(())
            }
            Some(Frame::Map { pending_key: None, .. }) => {
                let key = self.key_text(id, span)?;
                if let Some(Frame::Map { pending_key, .. }) = self.stack.last_mut() {
                    *pending_key = Some((key.0, span, key.1));
                }
                Ok(())
            }
            Some(Frame::Map { pending_key, .. }) => {
                let Some((key, key_span, is_merge)) = pending_key.take() else {
                    return Ok(());
                };
                if is_merge {
                    self.merge(id, via.or(Some(span)), span)
                } else {
                    {
                        self.insert(key, key_span, id, via, weight, false);
                        Ok(())
                    }
                }
            }
        }
    }

    /// The string a key becomes in JSON (sigs.k8s.io/yaml stringifies non-string keys: integers
    /// in decimal, booleans as `true`/`false`, floats rounded to float32), and whether it is a
    /// `<<` merge key. Keys sigs.k8s.io/yaml refuses (null, an integer above 2^63-1, a collection)
    /// make the document unreadable, as for kubectl and the API server.
    fn key_text(&self, id: NodeId, span: Span) -> Result<(Cow<'s, str>, bool), DocError> {
        let node = self.nodes.get(id as usize);
        Ok(match node.map(|n| &n.value) {
            Some(Value::Str(s)) => {
                let is_merge = s == "<<" && node.and_then(|n| n.style) == Some(ScalarStyle::Plain);
                (s.clone(), is_merge)
            }
            Some(Value::Int(i)) if i64::try_from(i.get()).is_ok() => (Cow::Owned(i.get().to_string()), false),
            Some(Value::Int(_)) => {
                return Err(self.error(
                    span,
                    "ra2::parse::key",
                    "a mapping key is an integer above 2^63-1, which Kubernetes cannot read (quote it)",
                ));
            }
            Some(Value::Bool(b)) => (Cow::Owned(b.to_string()), false),
            Some(Value::Float(f)) => (Cow::Owned(crate::parse::scalar::go_yaml_float_key(*f)), false),
            Some(Value::Null) => {
                return Err(self.error(
                    span,
                    "ra2::parse::key",
                    "a mapping key is null (empty, `~` or `null`), which Kubernetes cannot read (quote it)",
                ));
            }
            _ => {
                return Err(self.error(
                    span,
                    "ra2::parse::key",
                    "a mapping key is itself a mapping or sequence, which Kubernetes cannot read",
                ));
            }
        })
    }

    /// Inserts an entry into the mapping on top of the stack; the last value for a key wins,
    /// as in go-yaml v2. Duplicates written out are reported; those from merges are not.
    fn insert(
        &mut self,
        key: Cow<'s, str>,
        key_span: Span,
        value: NodeId,
        via: Option<Span>,
        weight: u64,
        from_merge: bool,
    ) {
        let via = self.site(via);
        let Some(Frame::Map {
            node, entries, index, ..
        }) = self.stack.last_mut()
        else {
            return;
        };
        let existing = match index {
            Some(index) => index.get(&key).copied(),
            None => entries.iter().position(|e| e.key == key),
        };
        let parent = *node as usize;
        if let Some(w) = self.weights.get_mut(parent) {
            *w = w.saturating_add(weight);
        }
        if let Some(entry) = existing.and_then(|i| entries.get_mut(i)) {
            if !from_merge && entry.via.is_none() {
                self.problems.push(duplicate_key(&key, key_span));
            }
            entry.key_span = key_span;
            entry.value = value;
            entry.via = via;
        } else {
            if let Some(index) = index {
                index.insert(key.clone(), entries.len());
            }
            entries.push(Entry {
                key,
                key_span,
                value,
                via,
            });
            if index.is_none() && entries.len() > INDEX_THRESHOLD {
                *index = Some(entries.iter().enumerate().map(|(i, e)| (e.key.clone(), i)).collect());
            }
        }
    }

    /// `<<: *defaults` or `<<: [*a, *b]`: copies the referenced mappings' entries in, as
    /// go-yaml v2 does (later sources override earlier ones; in a list, earlier maps win).
    fn merge(&mut self, source: NodeId, via: Option<Span>, span: Span) -> Result<(), DocError> {
        let sites = &self.alias_sites;
        let maps: Vec<(NodeId, Option<Span>)> = match self.nodes.get(source as usize).map(|n| &n.value) {
            Some(Value::Map(_)) => vec![(source, via)],
            Some(Value::Seq(items)) => self
                .items
                .get(items.range())
                .unwrap_or_default()
                .iter()
                .rev()
                .map(|i| (i.node, site_span(sites, i.via).or(via)))
                .collect(),
            _ => {
                return Err(self.error(
                    span,
                    "ra2::parse::merge",
                    "a `<<` merge key needs a mapping or a list of mappings",
                ));
            }
        };
        for (map, via) in maps {
            let Some(Value::Map(entries)) = self.nodes.get(map as usize).map(|n| &n.value) else {
                return Err(self.error(span, "ra2::parse::merge", "a `<<` merge list may only contain mappings"));
            };
            let copied: Vec<Entry<'s>> = self.entries.get(entries.range()).unwrap_or_default().to_vec();
            self.add_expansion(copied.len() as u64, span)?;
            for entry in copied {
                let weight = self.weights.get(entry.value as usize).copied().unwrap_or(1);
                let via = self.alias_site_span(entry.via).or(via);
                self.insert(entry.key, entry.key_span, entry.value, via, weight, true);
            }
        }
        Ok(())
    }

    fn register_anchor(&mut self, anchor: Option<String>, id: NodeId) {
        if let Some(anchor) = anchor {
            self.anchors.insert(anchor, id);
        }
    }

    fn build<E>(&mut self, parser: &mut E) -> Result<Option<NodeId>, DocError>
    where
        E: Iterator<Item = Result<Event<'s>, ra2_yaml::Error>>,
    {
        let mut root = None;
        loop {
            let Some(event) = parser.next() else {
                return Ok(root);
            };
            let event = event.map_err(|e| {
                let at = self.chunk.offset + e.mark.offset;
                // Lines in libyaml's context are counted from the chunk; make them file lines.
                let context = match (&e.context, e.context_mark) {
                    (Some(context), Some(mark)) => {
                        format!(" ({context} started at line {})", self.chunk.line + mark.line + 1)
                    }
                    _ => String::new(),
                };
                self.error(
                    Span::new(at, at),
                    "ra2::parse::yaml",
                    format!("invalid YAML: {}{context}", e.problem),
                )
            })?;
            if self.handle(event, &mut root)? {
                return Ok(root);
            }
        }
    }

    /// One event: the tree grows by it. `true` when it ends the document (or the stream).
    fn handle(&mut self, event: Event<'s>, root: &mut Option<NodeId>) -> Result<bool, DocError> {
        let span = self.span(&event);
        let is_seq = matches!(event.kind, EventKind::SequenceStart { .. });
        match event.kind {
            EventKind::DocumentEnd | EventKind::StreamEnd => return Ok(true),
            EventKind::StreamStart | EventKind::DocumentStart { .. } => {}
            EventKind::Scalar(s) => {
                let value = self.resolve_scalar(s.value, s.style, s.tag.as_deref());
                let id = self.push_node(
                    Node {
                        value,
                        span,
                        style: Some(s.style),
                    },
                    1,
                )?;
                self.register_anchor(s.anchor, id);
                self.attach(id, None, root)?;
            }
            EventKind::Alias { anchor } => {
                let Some(&target) = self.anchors.get(&anchor) else {
                    return Err(self.error(span, "ra2::parse::alias", format!("unknown anchor {anchor:?}")));
                };
                let weight = self.weights.get(target as usize).copied().unwrap_or(1);
                self.add_expansion(weight, span)?;
                self.attach(target, Some(span), root)?;
            }
            EventKind::SequenceStart { anchor, .. } | EventKind::MappingStart { anchor, .. } => {
                if self.stack.len() >= self.limits.max_depth {
                    return Err(self.error(
                        span,
                        "ra2::parse::too-deep",
                        format!("nesting deeper than {} levels", self.limits.max_depth),
                    ));
                }
                let value = if is_seq {
                    Value::Seq(Children::default())
                } else {
                    Value::Map(Children::default())
                };
                let node = self.push_node(
                    Node {
                        value,
                        span,
                        style: None,
                    },
                    1,
                )?;
                self.stack.push(if is_seq {
                    Frame::Seq {
                        node,
                        items: self.spare_items.pop().unwrap_or_default(),
                        anchor,
                    }
                } else {
                    Frame::Map {
                        node,
                        entries: self.spare_entries.pop().unwrap_or_default(),
                        index: None,
                        pending_key: None,
                        anchor,
                    }
                });
            }
            EventKind::SequenceEnd | EventKind::MappingEnd => {
                let Some(frame) = self.stack.pop() else {
                    return Ok(false);
                };
                let too_large = || self.error(span, "ra2::parse::too-large", "document has too many nodes");
                let (node, value, anchor) = match frame {
                    Frame::Seq {
                        node,
                        mut items,
                        anchor,
                    } => {
                        let children = Children::after(self.items.len(), items.len()).ok_or_else(too_large)?;
                        self.items.append(&mut items);
                        self.spare_items.push(items);
                        (node, Value::Seq(children), anchor)
                    }
                    Frame::Map {
                        node,
                        mut entries,
                        anchor,
                        ..
                    } => {
                        let children = Children::after(self.entries.len(), entries.len()).ok_or_else(too_large)?;
                        self.entries.append(&mut entries);
                        self.spare_entries.push(entries);
                        (node, Value::Map(children), anchor)
                    }
                };
                if let Some(n) = self.nodes.get_mut(node as usize) {
                    n.value = value;
                    n.span.end = span.end;
                }
                // Anchors on collections become usable once the collection is complete
                // (an alias to an enclosing collection is a cycle; libyaml reports it as an
                // unknown anchor, and so do we).
                self.register_anchor(anchor, node);
                self.attach(node, None, root)?;
            }
        }
        Ok(false)
    }
}

/// Reads a chunk of strict JSON without libyaml (see [`crate::parse::json`]): the tree the builder
/// makes of libyaml's events, built straight from the text. `None` when the reader gave up or
/// the builder would refuse the document; the caller then reads the chunk with libyaml, which
/// decides (and words any error) as always.
pub fn read_json_chunk(chunk: Chunk<'_>, limits: Limits) -> Option<Doc<'_>> {
    read_json(chunk, limits, Reading::default()).map(|(doc, _)| doc)
}

/// [`read_json_chunk`] read as `reading` asks, and what was [`Unusual`] in the document.
pub(crate) fn read_json<'t>(chunk: Chunk<'t>, limits: Limits, reading: Reading<'_>) -> Option<(Doc<'t>, Unusual)> {
    if chunk.text.len() > limits.max_document_bytes {
        return None;
    }
    let tree = crate::parse::json::JsonEvents::new(chunk.text).tree(chunk.offset, limits.max_depth, reading)?;
    let lines = if tree.one_ascii_line {
        OnceCell::from(LineIndex::one_ascii_line(&chunk))
    } else {
        OnceCell::new()
    };
    let doc = Doc {
        nodes: tree.nodes,
        entries: tree.entries,
        items: tree.items,
        alias_sites: Vec::new(),
        root: tree.root,
        problems: tree.problems,
        chunk,
        lines,
        counted: Cell::new(0),
        first_column: 0,
        json: true,
        quote_check: None,
    };
    Some((doc, tree.unusual))
}

/// [`read_json_chunk`] through the JSON reader's events and the YAML builder: the reference the
/// direct tree is tested against.
#[cfg(test)]
pub(crate) fn read_json_events(chunk: Chunk<'_>, limits: Limits) -> Option<Doc<'_>> {
    if chunk.text.len() > limits.max_document_bytes {
        return None;
    }
    let mut events = crate::parse::json::JsonEvents::new(chunk.text);
    let mut builder = Builder::new(chunk, true, limits);
    let root = builder.build(&mut events).ok()??;
    // The reader ends the stream right after the one document.
    if !matches!(
        events.next(),
        Some(Ok(Event {
            kind: EventKind::StreamEnd,
            ..
        }))
    ) {
        return None;
    }
    Some(builder.into_doc(root))
}

/// Reads a chunk of YAML without libyaml (see [`crate::parse::yaml`]): the tree the builder
/// makes of libyaml's events, from the same events read straight from the text. `None` when the
/// reader gave up or the builder refused the document; the caller then reads the chunk with
/// libyaml, which decides (and words any error) as always.
pub fn read_yaml_chunk(chunk: Chunk<'_>, limits: Limits) -> Option<ChunkResult<'_>> {
    if chunk.text.len() > limits.max_document_bytes {
        return None;
    }
    // The reader's events go straight into the builder, as libyaml's do: the one document of the
    // chunk, if there is one.
    let mut builder = Builder::new(chunk, false, limits);
    let mut root = None;
    let mut ended = false;
    let mut failed = false;
    crate::parse::yaml::read(chunk.text, limits.max_depth, |event| {
        if ended || failed {
            return;
        }
        match builder.handle(event, &mut root) {
            Ok(end) => ended = end,
            Err(_) => failed = true,
        }
    })?;
    if failed {
        return None;
    }
    let docs = root.map(|root| builder.into_doc(root)).into_iter().collect();
    Some(ChunkResult { docs, error: None })
}

/// Reads every document in one chunk.
pub fn read_chunk(chunk: Chunk<'_>, json: bool, limits: Limits) -> ChunkResult<'_> {
    if let Some(error) = too_large(chunk, limits) {
        return error;
    }
    if json {
        if let Some(doc) = read_json_chunk(chunk, limits) {
            return ChunkResult {
                docs: vec![doc],
                error: None,
            };
        }
    } else if let Some(result) = read_yaml_chunk(chunk, limits) {
        return result;
    }
    read_with_libyaml(chunk, json, limits)
}

/// Reads one item of a List (see [`crate::parse::list`]): a chunk that may start after `column`
/// characters of its first line. With `json_reader` off, through libyaml only.
pub fn read_item(chunk: Chunk<'_>, json: bool, limits: Limits, column: usize, json_reader: bool) -> ChunkResult<'_> {
    let mut result = if json_reader {
        read_chunk(chunk, json, limits)
    } else {
        read_chunk_yaml(chunk, json, limits)
    };
    if column > 0 {
        for doc in &mut result.docs {
            doc.lines = doc
                .lines
                .take()
                .map_or_else(OnceCell::new, |lines| OnceCell::from(lines.with_first_column(column)));
            doc.first_column = column;
        }
    }
    result
}

/// [`read_chunk`] through libyaml only, even for strict JSON: the reference the JSON reader is
/// tested against.
pub fn read_chunk_yaml(chunk: Chunk<'_>, json: bool, limits: Limits) -> ChunkResult<'_> {
    too_large(chunk, limits).unwrap_or_else(|| read_with_libyaml(chunk, json, limits))
}

fn too_large(chunk: Chunk<'_>, limits: Limits) -> Option<ChunkResult<'_>> {
    (chunk.text.len() > limits.max_document_bytes).then(|| ChunkResult {
        docs: Vec::new(),
        error: Some(DocError {
            span: Span::new(chunk.offset, chunk.offset),
            message: format!(
                "document is {} bytes, more than the limit of {} bytes",
                chunk.text.len(),
                limits.max_document_bytes
            ),
            code: "ra2::parse::too-large",
        }),
    })
}

fn read_with_libyaml(chunk: Chunk<'_>, json: bool, limits: Limits) -> ChunkResult<'_> {
    let mut result = ChunkResult::default();
    let mut parser = Parser::new(chunk.text);
    loop {
        let mut builder = Builder::new(chunk, json, limits);
        match builder.build(&mut parser) {
            Ok(Some(root)) => {
                result.docs.push(builder.into_doc(root));
            }
            Ok(None) => return result,
            Err(e) => {
                result.error = Some(e);
                return result;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::source::chunks;
    use std::fmt::Write as _;

    fn read(text: &str) -> ChunkResult<'_> {
        let chunk = chunks(text, 0, 0)[0];
        read_chunk(chunk, false, Limits::default())
    }

    fn get<'a>(doc: &'a Doc<'_>, id: NodeId, key: &str) -> Option<&'a Node<'a>> {
        doc.map_entries(id)
            .iter()
            .find(|e| e.key == key)
            .map(|e| doc.node(e.value))
    }

    #[test]
    fn resolves_scalars_and_keeps_spans() {
        let r = read("a: yes\nb: '010'\nc: 010\n");
        let doc = &r.docs[0];
        assert_eq!(get(doc, doc.root, "a").unwrap().value, Value::Bool(true));
        assert_eq!(get(doc, doc.root, "b").unwrap().value, Value::Str("010".into()));
        let c = get(doc, doc.root, "c").unwrap();
        assert_eq!(c.value, Value::Int(8.into()));
        assert_eq!(doc.text(c.span), "010");
        assert_eq!(doc.position(c.span.start), Position { line: 3, column: 4 });
    }

    #[test]
    fn duplicate_keys_last_wins_and_are_reported() {
        let r = read("hostNetwork: false\nhostNetwork: true\n");
        let doc = &r.docs[0];
        assert_eq!(get(doc, doc.root, "hostNetwork").unwrap().value, Value::Bool(true));
        assert_eq!(doc.problems.len(), 1);
        assert!(doc.problems[0].message.contains("duplicate key \"hostNetwork\""));
        assert_eq!(doc.position(doc.problems[0].span.start).line, 2);
    }

    #[test]
    fn keys_are_stringified_like_sigs_yaml() {
        // Found by the differential test: float keys are printed as float32, and null keys and
        // integer keys beyond int64 make sigs.k8s.io/yaml fail.
        let r = read("0.123456789: a\n1e3: b\n.inf: c\n10: d\ntrue: e\n");
        let doc = &r.docs[0];
        let keys: Vec<&str> = doc.map_entries(doc.root).iter().map(|e| e.key.as_ref()).collect();
        assert_eq!(keys, ["0.12345679", "1000", ".inf", "10", "true"]);
        for text in ["~: a\n", "? \n: a\n", "null: a\n", "18446744073709551615: a\n"] {
            let r = read(text);
            assert_eq!(r.error.map(|e| e.code), Some("ra2::parse::key"), "{text:?}");
        }
        assert!(read("\"~\": a\n9223372036854775807: b\n").error.is_none());
    }

    #[test]
    fn merge_keys_follow_go_yaml_v2() {
        let r = read("d: &d {a: 1, b: 2}\nx:\n  <<: *d\n  b: 3\n");
        let doc = &r.docs[0];
        let x = doc.map_entries(doc.root).iter().find(|e| e.key == "x").unwrap().value;
        let entries = doc.map_entries(x);
        let keys: Vec<_> = entries
            .iter()
            .map(|e| (e.key.as_ref(), doc.node(e.value).value.clone()))
            .collect();
        assert_eq!(keys, vec![("a", Value::Int(1.into())), ("b", Value::Int(3.into()))]);
        assert!(entries[0].via.is_some(), "merged entries remember the alias site");
        assert!(doc.problems.is_empty());
    }

    #[test]
    fn billion_laughs_is_refused_quickly() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let prev = format!("*a{}", i - 1);
            let _ = writeln!(text, "a{i}: &a{i} [{}]", [prev.as_str(); 10].join(", "));
        }
        let start = std::time::Instant::now();
        let r = read(&text);
        assert_eq!(r.error.unwrap().code, "ra2::parse::alias-bomb");
        assert!(start.elapsed().as_secs() < 1);
    }

    #[test]
    fn deep_nesting_is_refused() {
        let text = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        let r = read(&text);
        assert_eq!(r.error.unwrap().code, "ra2::parse::too-deep");
    }

    #[test]
    fn syntax_error_has_position() {
        let r = read("a: 1\n  b: 2\n");
        let e = r.error.unwrap();
        assert_eq!(e.code, "ra2::parse::yaml");
        assert!(e.message.contains("mapping values are not allowed"), "{}", e.message);
    }

    #[test]
    fn unknown_alias_is_an_error() {
        assert_eq!(read("a: *nope\n").error.unwrap().code, "ra2::parse::alias");
    }

    #[test]
    fn explicit_str_tag_keeps_string() {
        let r = read("a: !!str 010\n");
        let doc = &r.docs[0];
        assert_eq!(get(doc, doc.root, "a").unwrap().value, Value::Str("010".into()));
    }

    /// Integers keep their exact value in every range a reader gives them (go-yaml's int64 and
    /// uint64, and for JSON anything up to i128), so the verdicts and messages on numbers the API
    /// server refuses stay what they were when `Value::Int` held an `i128`.
    #[test]
    fn integers_keep_every_value_they_are_read_with() {
        let cases = [
            "0",
            "-1",
            "2147483648",
            "-9223372036854775808",
            "9223372036854775807",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775809",
            "170141183460469231731687303715884105727",
            "-170141183460469231731687303715884105728",
        ];
        for text in cases {
            let json = format!("{{\"n\": {text}}}");
            let r = read_chunk(chunks(&json, 0, 0)[0], true, Limits::default());
            let n = crate::parse::view::Located::root(&r.docs[0]).get("n").unwrap();
            let want: i128 = text.parse().unwrap();
            assert_eq!(n.as_int(), Some(want), "{text}");
            assert_eq!(n.scalar_text().as_deref(), Some(text));
            assert_eq!(n.type_name(), "integer");
            let json_value = i64::try_from(want)
                .map(serde_json::Value::from)
                .or_else(|_| u64::try_from(want).map(serde_json::Value::from))
                .unwrap_or(serde_json::Value::Null);
            assert_eq!(n.to_json(), json_value, "{text}");
            assert_eq!(Int::new(want).get(), want);
        }
        // One past i128 is a float, as before.
        let r = read_chunk(
            chunks("{\"n\": 170141183460469231731687303715884105728}", 0, 0)[0],
            true,
            Limits::default(),
        );
        let n = crate::parse::view::Located::root(&r.docs[0]).get("n").unwrap();
        assert_eq!(n.type_name(), "number");
    }

    /// An id beyond uint64 in JSON is still an integer, refused with its digits quoted.
    #[test]
    fn an_id_beyond_uint64_is_refused_with_its_digits() {
        let text = r#"{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"securityContext": {"runAsUser": 18446744073709551616}, "containers": [{"name": "c", "image": "r/c:1"}]}}"#;
        let config = crate::Config::default();
        let mut linter = crate::Linter::new(&config);
        linter.add_file("pod.json", text);
        let report = linter.finish();
        assert!(
            report.findings.iter().any(|f| f.rule == crate::rules::api_server::ID
                && f.message
                    .contains("Invalid value: 18446744073709551616: must be between 0 and 2147483647")),
            "{:#?}",
            report.findings
        );
    }

    /// A JSON document's positions are the ones a line index read from its text gives, whether
    /// the reader vouched for one line of ASCII or not, and for a List item that starts mid-line.
    #[test]
    fn json_positions_are_the_line_index_ones() {
        for text in [
            "{\"a\": [1, \"x\"], \"b\": {\"c\": null}}",
            "{\"a\": \"é€\", \"b\": [true]}",
            "{\"a\": \"\\u00e9\\n\", \"b\": 2}",
            "{\"k\\\"\": \"a\\tb€c\", \"z\": \"done\"}",
            "{\n  \"a\": 1,\r\n  \"b\": [\r 2]\n}\n",
            "---\n{\"a\": 1}",
        ] {
            for column in [0, 7] {
                let chunk = Chunk {
                    text,
                    offset: 40,
                    line: 3,
                };
                assert!(read_json_chunk(chunk, Limits::default()).is_some(), "{text:?}");
                let r = read_item(chunk, true, Limits::default(), column, true);
                let doc = &r.docs[0];
                let lines = LineIndex::new(&chunk).with_first_column(column);
                for (at, _) in text.char_indices() {
                    assert_eq!(doc.position(40 + at), lines.position(text, 40 + at), "{text:?} {at}");
                }
            }
        }
    }

    #[test]
    fn json_documents_resolve_as_json() {
        let chunk = chunks("{\"a\": 1e3, \"b\":yes}", 0, 0)[0];
        let r = read_chunk(chunk, true, Limits::default());
        let doc = &r.docs[0];
        assert_eq!(get(doc, doc.root, "a").unwrap().value, Value::Float(1000.0));
    }
}

#[cfg(test)]
mod size_tests {
    /// The tree's sizes, which reading and walking it pay for on every node.
    #[test]
    fn nodes_and_values_stay_small() {
        assert_eq!(std::mem::size_of::<super::Value<'_>>(), 24);
        assert_eq!(std::mem::size_of::<super::Node<'_>>(), 48);
        assert_eq!(std::mem::size_of::<super::Entry<'_>>(), 48);
        assert_eq!(std::mem::size_of::<super::Item>(), 8);
    }
}
