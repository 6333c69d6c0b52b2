//! `Located`: a node together with its JSON pointer and where it was written, so that rules
//! never build pointers or compute line numbers themselves.

use std::borrow::Cow;
use std::rc::Rc;

use crate::parse::doc::{Doc, NodeId, Value};
use crate::parse::source::Span;

/// A node of a document, reached by a path from the document root.
#[derive(Clone, Debug)]
pub struct Located<'d> {
    doc: &'d Doc<'d>,
    id: NodeId,
    /// The path from the root, kept as steps and written out as a JSON pointer only when asked
    /// for ([`Located::pointer`]): most nodes rules visit are never reported.
    path: Path,
    /// The collection this node is entry or item `index` of ([`NO_PARENT`] for none): where its
    /// key (if any) is.
    parent: NodeId,
    index: u32,
    /// The outermost alias or merge key on the path, if the node came through one.
    via: Via,
}

/// Steps kept inline before a path is written out into its base. With them a `Located` stays
/// within 72 bytes, which the compiler copies inline (it called `memcpy` for the 144 bytes a
/// path of `u32` steps took). Every rule makes one per key it looks up, so its size counts.
const PATH_STEPS: usize = 12;

const NO_PARENT: NodeId = NodeId::MAX;

/// The entry or item (by its place in the document's arena) that brought a node here through
/// an alias or merge key, whose `via` span is the alias site; 0 for none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Via(u32);

const VIA_ITEM: u32 = 1 << 31;

impl Via {
    fn entry(at: usize) -> Via {
        Via(u32::try_from(at + 1).ok().filter(|n| n & VIA_ITEM == 0).unwrap_or(0))
    }

    fn item(at: usize) -> Via {
        Via(u32::try_from(at + 1)
            .ok()
            .filter(|n| n & VIA_ITEM == 0)
            .map_or(0, |n| n | VIA_ITEM))
    }

    fn span(self, doc: &Doc<'_>) -> Option<Span> {
        let at = ((self.0 & !VIA_ITEM) as usize).checked_sub(1)?;
        doc.alias_site(if self.0 & VIA_ITEM == 0 {
            doc.entries.get(at)?.via
        } else {
            doc.items.get(at)?.via
        })
    }
}

/// A path without an allocation per step: a written-out base pointer (the enclosing document's
/// part, or the steps beyond [`PATH_STEPS`]) that leads to node `from`, then up to
/// [`PATH_STEPS`] steps from there, each the index of an entry (of a mapping) or item (of a
/// sequence).
#[derive(Clone, Debug, Default)]
struct Path {
    base: Option<Rc<str>>,
    from: NodeId,
    steps: [u16; PATH_STEPS],
    len: u8,
}

/// Where to report something: the region a user should look at, and (when the node came
/// through an alias) the anchored definition too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Site {
    pub span: Span,
    pub related: Option<Span>,
}

/// The unescaped segments of a JSON pointer (`/a~1b/0` gives `a/b`, `0`); none for the empty
/// pointer (the whole document).
pub fn pointer_segments(pointer: &str) -> impl Iterator<Item = String> + '_ {
    pointer
        .strip_prefix('/')
        .map(|rest| rest.split('/'))
        .into_iter()
        .flatten()
        .map(|raw| raw.replace("~1", "/").replace("~0", "~"))
}

fn push_segment(pointer: &mut String, segment: &str) {
    pointer.push('/');
    if !segment.contains(['~', '/']) {
        pointer.push_str(segment);
        return;
    }
    for c in segment.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// Writes `index` in decimal, without formatting machinery: every finding's pointer has some.
fn push_index(pointer: &mut String, index: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = index;
    loop {
        at -= 1;
        if let Some(d) = digits.get_mut(at) {
            *d = b"0123456789".get(n % 10).copied().unwrap_or(b'0');
        }
        n /= 10;
        if n == 0 || at == 0 {
            break;
        }
    }
    for &d in digits.get(at..).unwrap_or_default() {
        pointer.push(char::from(d));
    }
}

/// The name of item `index` of `parent`, when `parent` is a sequence and the item a mapping
/// with a string `name` (containers, volumes, env, ports), else a `metadata.name` (volume
/// claim templates, the objects of a List).
fn item_name<'d>(doc: &'d Doc<'d>, parent: NodeId, index: usize) -> Option<&'d str> {
    if !matches!(doc.node(parent).value, Value::Seq(_)) {
        return None;
    }
    let item = doc.seq_items(parent).get(index)?.node;
    string_at(doc, item, "name").or_else(|| {
        let metadata = map_value(doc, item, "metadata")?;
        string_at(doc, metadata, "name")
    })
}

/// The value of `key` in the mapping `map` (the last, as duplicate keys resolve).
fn map_value(doc: &Doc<'_>, map: NodeId, key: &str) -> Option<NodeId> {
    if !matches!(doc.node(map).value, Value::Map(_)) {
        return None;
    }
    doc.map_entries(map)
        .iter()
        .rev()
        .find(|e| e.key.as_ref() == key)
        .map(|e| e.value)
}

/// The non-empty string value of `key` in the mapping `map`.
fn string_at<'d>(doc: &'d Doc<'d>, map: NodeId, key: &str) -> Option<&'d str> {
    match &doc.node(map_value(doc, map, key)?).value {
        Value::Str(name) if !name.is_empty() => Some(name.as_ref()),
        _ => None,
    }
}

/// Writes one step of a path from `parent` (the mapping key or the sequence index); the node
/// it leads to.
fn push_step(pointer: &mut String, doc: &Doc<'_>, parent: NodeId, index: usize) -> NodeId {
    if let Value::Map(_) = &doc.node(parent).value {
        let entry = doc.map_entries(parent).get(index);
        push_segment(pointer, entry.map_or("", |e| e.key.as_ref()));
        entry.map_or(NO_PARENT, |e| e.value)
    } else {
        pointer.push('/');
        push_index(pointer, index);
        doc.seq_items(parent).get(index).map_or(NO_PARENT, |i| i.node)
    }
}

impl<'d> Located<'d> {
    /// The root of `doc`.
    pub fn root(doc: &'d Doc<'d>) -> Self {
        Located {
            doc,
            id: doc.root,
            path: Path {
                from: doc.root,
                ..Path::default()
            },
            parent: NO_PARENT,
            index: 0,
            via: Via::default(),
        }
    }

    /// Node `id` of `doc` at `pointer`, as if reached from an enclosing document: a List item
    /// read on its own is `/items/N` (see [`crate::parse::list`]).
    pub fn with_pointer(doc: &'d Doc<'d>, id: NodeId, pointer: &str) -> Self {
        Located {
            doc,
            id,
            path: Path {
                base: Some(Rc::from(pointer)),
                from: id,
                ..Path::default()
            },
            parent: NO_PARENT,
            index: 0,
            via: Via::default(),
        }
    }

    pub fn doc(&self) -> &'d Doc<'d> {
        self.doc
    }

    pub fn id(&self) -> NodeId {
        self.id
    }

    pub fn value(&self) -> &'d Value<'d> {
        &self.doc.node(self.id).value
    }

    /// The RFC 6901 JSON pointer of this node, written out from its path (most nodes rules
    /// visit are never reported, so it is not kept).
    pub fn pointer(&self) -> String {
        let base = self.path.base.as_deref().unwrap_or("");
        // Room for typical steps, so the string is not grown step by step.
        let mut pointer = String::with_capacity(base.len() + 16 * usize::from(self.path.len));
        pointer.push_str(base);
        let mut node = self.path.from;
        for index in self.path.steps.iter().take(usize::from(self.path.len)) {
            node = push_step(&mut pointer, self.doc, node, usize::from(*index));
        }
        pointer
    }

    /// The pointer with each list index replaced by the item's name where the item has one
    /// (`/spec/containers/name=app/image` for `/spec/containers/0/image`): containers,
    /// volumes, volume mounts, env, ports and anything else keyed by `name`. What a baseline
    /// and SARIF's `ra2/v2` fingerprint identify a finding by, since it stays the same when
    /// items are reordered or added before it. `None` when no item on the path has a name
    /// (the pointer is the identity then).
    pub fn named_pointer(&self) -> Option<String> {
        let base = self.path.base.as_deref().unwrap_or("");
        let mut pointer = String::with_capacity(base.len() + 16 * usize::from(self.path.len));
        pointer.push_str(base);
        let mut node = self.path.from;
        let mut named = false;
        for index in self.path.steps.iter().take(usize::from(self.path.len)) {
            let index = usize::from(*index);
            let parent = node;
            // A List's objects stay `/items/N`, as when a long List is read item by item
            // (the object's own name identifies it apart).
            let name = if pointer == "/items" {
                None
            } else {
                item_name(self.doc, parent, index)
            };
            match name {
                Some(name) => {
                    named = true;
                    pointer.push_str("/name=");
                    // Escaped as a pointer segment, so a name with `/` stays one step.
                    let mut segment = String::new();
                    push_segment(&mut segment, name);
                    pointer.push_str(segment.get(1..).unwrap_or_default());
                    node = self.doc.seq_items(parent).get(index).map_or(NO_PARENT, |i| i.node);
                }
                None => node = push_step(&mut pointer, self.doc, parent, index),
            }
        }
        named.then_some(pointer)
    }

    /// The node's own span.
    pub fn span(&self) -> Span {
        self.doc.node(self.id).span
    }

    /// The span of the key this node is the value of.
    pub fn key_span(&self) -> Option<Span> {
        if self.parent == NO_PARENT || !matches!(self.doc.node(self.parent).value, Value::Map(_)) {
            return None;
        }
        self.doc
            .map_entries(self.parent)
            .get(self.index as usize)
            .map(|e| e.key_span)
    }

    /// Where a finding about this node should point. A value with a key points at the key
    /// (and, for a scalar on the same line, through the value); a sequence item points at its
    /// first line. When the node came through an alias, the alias is the site and the anchor
    /// the related location.
    pub fn site(&self) -> Site {
        let own = self.own_span();
        match self.via.span(self.doc) {
            Some(via) if via != own && !(own.start >= via.start && own.end <= via.end) => Site {
                span: via,
                related: Some(own),
            },
            _ => Site {
                span: own,
                related: None,
            },
        }
    }

    /// The region for this node itself, ignoring aliases.
    fn own_span(&self) -> Span {
        let node_span = self.span();
        if let Some(key) = self.key_span() {
            let scalar = !matches!(self.value(), Value::Map(_) | Value::Seq(_));
            let same_line = !self.doc.text(Span::new(key.start, node_span.end)).contains('\n');
            return if scalar && same_line && node_span.end >= key.end {
                Span::new(key.start, node_span.end)
            } else {
                key
            };
        }
        // A mapping (typically a list item like `- name: dp`) is shown by its first entry,
        // unless that entry came from elsewhere through a merge key.
        if self.doc.map_entries(self.id).first().is_some_and(|e| e.via.is_none()) {
            if let Some(first) = self.entry_child(0) {
                return first.own_span();
            }
        }
        self.first_line(node_span)
    }

    fn first_line(&self, span: Span) -> Span {
        let text = self.doc.text(span);
        match text.find('\n') {
            Some(i) => Span::new(span.start, span.start + text[..i].trim_end().len()),
            None => span,
        }
    }

    /// Entry or item `index` of this node, which is node `id` (brought here through an alias
    /// if `aliased`).
    fn child(&self, index: usize, id: NodeId, aliased: bool) -> Located<'d> {
        let step = u16::try_from(index).ok();
        let mut path = if usize::from(self.path.len) == PATH_STEPS || step.is_none() {
            // Deep: write the steps so far out into the base.
            Path {
                base: Some(Rc::from(self.pointer())),
                from: self.id,
                ..Path::default()
            }
        } else {
            self.path.clone()
        };
        if let Some(step) = step {
            if let Some(slot) = path.steps.get_mut(usize::from(path.len)) {
                *slot = step;
                path.len += 1;
            }
        } else {
            // An index beyond the steps' range goes into the base at once.
            let mut base = String::from(path.base.as_deref().unwrap_or(""));
            push_step(&mut base, self.doc, self.id, index);
            path.base = Some(Rc::from(base));
            path.from = id;
        }
        let via = if self.via != Via::default() || !aliased {
            self.via
        } else {
            match self.value() {
                Value::Map(c) => Via::entry(c.start as usize + index),
                Value::Seq(c) => Via::item(c.start as usize + index),
                _ => Via::default(),
            }
        };
        Located {
            doc: self.doc,
            id,
            path,
            parent: self.id,
            index: u32::try_from(index).unwrap_or(u32::MAX),
            via,
        }
    }

    /// Entry `index` of this mapping.
    fn entry_child(&self, index: usize) -> Option<Located<'d>> {
        let entry = self.doc.map_entries(self.id).get(index)?;
        Some(self.child(index, entry.value, entry.via.is_some()))
    }

    /// The value under `key`, if this is a mapping that has it.
    pub fn get(&self, key: &str) -> Option<Located<'d>> {
        let entries = self.doc.map_entries(self.id);
        let index = entries.iter().position(|e| e.key == key)?;
        let entry = entries.get(index)?;
        Some(self.child(index, entry.value, entry.via.is_some()))
    }

    /// Follows a path of keys.
    pub fn path(&self, keys: &[&str]) -> Option<Located<'d>> {
        let Some((first, rest)) = keys.split_first() else {
            return Some(self.clone());
        };
        let mut here = self.get(first)?;
        for key in rest {
            here = here.get(key)?;
        }
        Some(here)
    }

    /// The node at an RFC 6901 JSON pointer relative to this one (`""` is this node,
    /// `/spec/volumes/0` a list item): how a pointer from a JSON validator becomes a node with
    /// a line and column.
    pub fn at_pointer(&self, pointer: &str) -> Option<Located<'d>> {
        if pointer.is_empty() {
            return Some(self.clone());
        }
        if !pointer.starts_with('/') {
            return None;
        }
        let mut here = self.clone();
        for segment in pointer_segments(pointer) {
            here = match here.value() {
                Value::Map(_) => here.get(&segment)?,
                Value::Seq(_) => {
                    let index: usize = segment.parse().ok()?;
                    here.items().nth(index)?
                }
                _ => return None,
            };
        }
        Some(here)
    }

    /// The entries of a mapping (empty for anything else).
    pub fn entries(&self) -> impl Iterator<Item = (&'d str, Located<'d>)> + '_ {
        self.doc
            .map_entries(self.id)
            .iter()
            .enumerate()
            .map(move |(i, e)| (e.key.as_ref(), self.child(i, e.value, e.via.is_some())))
    }

    /// The entries of a mapping whose key passes `keep`: no view is made for the others.
    pub fn entries_where<'s>(
        &'s self,
        keep: impl Fn(&str) -> bool + 's,
    ) -> impl Iterator<Item = (&'d str, Located<'d>)> + 's {
        self.doc
            .map_entries(self.id)
            .iter()
            .enumerate()
            .filter(move |(_, e)| keep(e.key.as_ref()))
            .map(move |(i, e)| (e.key.as_ref(), self.child(i, e.value, e.via.is_some())))
    }

    /// The items of a sequence (empty for anything else).
    pub fn items(&self) -> impl Iterator<Item = Located<'d>> + '_ {
        self.doc
            .seq_items(self.id)
            .iter()
            .enumerate()
            .map(move |(i, item)| self.child(i, item.node, item.via.is_some()))
    }

    pub fn is_map(&self) -> bool {
        matches!(self.value(), Value::Map(_))
    }

    pub fn is_seq(&self) -> bool {
        matches!(self.value(), Value::Seq(_))
    }

    pub fn is_null(&self) -> bool {
        matches!(self.value(), Value::Null)
    }

    pub fn as_str(&self) -> Option<&'d str> {
        match self.value() {
            Value::Str(s) => Some(s.as_ref()),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.value() {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_int(&self) -> Option<i128> {
        match self.value() {
            Value::Int(i) => Some(i.get()),
            _ => None,
        }
    }

    /// True only for a real boolean `true` (YAML `true`, `yes`, `on`, ...).
    pub fn is_true(&self) -> bool {
        self.as_bool() == Some(true)
    }

    /// The value under `key`, without making it a `Located` (no path to keep).
    fn value_at(&self, key: &str) -> Option<&'d Value<'d>> {
        let doc = self.doc;
        let entry = doc.map_entries(self.id).iter().find(|e| e.key == key)?;
        Some(&doc.node(entry.value).value)
    }

    /// The string under `key`.
    pub fn str_at(&self, key: &str) -> Option<&'d str> {
        match self.value_at(key)? {
            Value::Str(s) => Some(s.as_ref()),
            _ => None,
        }
    }

    /// The boolean under `key`.
    pub fn bool_at(&self, key: &str) -> Option<bool> {
        match self.value_at(key)? {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The text a scalar would have in the JSON the API server decodes (numbers as Go's
    /// `encoding/json` prints them); `None` for collections and null.
    pub fn scalar_text(&self) -> Option<Cow<'d, str>> {
        match self.value() {
            Value::Str(s) => Some(Cow::Borrowed(s.as_ref())),
            Value::Int(i) => Some(Cow::Owned(i.get().to_string())),
            Value::Float(f) => Some(Cow::Owned(crate::parse::scalar::go_json_float(*f))),
            Value::Bool(b) => Some(Cow::Borrowed(if *b { "true" } else { "false" })),
            Value::Null | Value::Seq(_) | Value::Map(_) => None,
        }
    }

    /// The node as written in the source (for messages).
    pub fn source_text(&self) -> &'d str {
        self.doc.note_quoted(self.id);
        self.doc.text(self.span())
    }

    /// What kind of value this is, for messages: `string`, `boolean`, `integer`, ...
    pub fn type_name(&self) -> &'static str {
        match self.value() {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Int(_) => "integer",
            Value::Float(_) => "number",
            Value::Str(_) => "string",
            Value::Seq(_) => "list",
            Value::Map(_) => "mapping",
        }
    }

    /// Converts the subtree to JSON the way sigs.k8s.io/yaml would.
    pub fn to_json(&self) -> serde_json::Value {
        to_json(self.doc, self.id, 0)
    }
}

fn to_json(doc: &Doc<'_>, id: NodeId, depth: usize) -> serde_json::Value {
    use serde_json::Value as J;
    // The builder already limits depth; this guard only protects against future changes.
    if depth > 1024 {
        return J::Null;
    }
    match &doc.node(id).value {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => i64::try_from(i.get())
            .map(J::from)
            .or_else(|_| u64::try_from(i.get()).map(J::from))
            .unwrap_or(J::Null),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
        Value::Str(s) => J::String(s.to_string()),
        Value::Seq(_) => J::Array(
            doc.seq_items(id)
                .iter()
                .map(|i| to_json(doc, i.node, depth + 1))
                .collect(),
        ),
        Value::Map(_) => J::Object(
            doc.map_entries(id)
                .iter()
                .map(|e| (e.key.to_string(), to_json(doc, e.value, depth + 1)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::doc::{Limits, read_chunk};
    use crate::parse::source::chunks;

    #[test]
    fn pointers_escape_and_sites_point_at_keys() {
        let text =
            "metadata:\n  annotations:\n    a/b~c: x\nspec:\n  volumes:\n  - name: v\n    hostPath:\n      path: /x\n";
        let r = read_chunk(chunks(text, 0, 0)[0], false, Limits::default());
        let doc = &r.docs[0];
        let root = Located::root(doc);
        let ann = root.path(&["metadata", "annotations", "a/b~c"]).unwrap();
        assert_eq!(ann.pointer(), "/metadata/annotations/a~1b~0c");
        assert_eq!(doc.text(ann.site().span), "a/b~c: x");
        let vol = root.path(&["spec", "volumes"]).unwrap().items().next().unwrap();
        assert_eq!(vol.pointer(), "/spec/volumes/0");
        assert_eq!(doc.text(vol.site().span), "name: v");
        let hp = vol.get("hostPath").unwrap();
        assert_eq!(doc.text(hp.site().span), "hostPath");
        assert_eq!(doc.position(hp.site().span.start).line, 7);
    }

    #[test]
    fn pointers_lead_back_to_nodes() {
        let text =
            "metadata:\n  annotations:\n    a/b~c: x\nspec:\n  volumes:\n  - name: v\n    hostPath:\n      path: /x\n";
        let r = read_chunk(chunks(text, 0, 0)[0], false, Limits::default());
        let root = Located::root(&r.docs[0]);
        for pointer in ["", "/metadata/annotations/a~1b~0c", "/spec/volumes/0/hostPath/path"] {
            assert_eq!(root.at_pointer(pointer).unwrap().pointer(), pointer);
        }
        let volume = root.at_pointer("/spec/volumes/0").unwrap();
        assert_eq!(volume.at_pointer("/hostPath/path").unwrap().as_str(), Some("/x"));
        for missing in [
            "spec",
            "/spec/volumes/1",
            "/spec/volumes/x",
            "/spec/volumes/0/name/z",
            "/nope",
        ] {
            assert!(root.at_pointer(missing).is_none(), "{missing}");
        }
    }

    /// Paths deeper than the steps kept inline, and below a given base, write out the same.
    #[test]
    fn deep_pointers_and_based_pointers() {
        let mut text = String::new();
        let mut pointer = String::new();
        for depth in 0..30 {
            let key = if depth % 3 == 0 {
                format!("k~{depth}")
            } else {
                format!("k/{depth}")
            };
            text.push('{');
            text.push('"');
            text.push_str(&key);
            text.push('"');
            text.push_str(": [0, ");
            pointer.push('/');
            pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
            pointer.push_str("/1");
        }
        text.push_str("true");
        text.push_str(&"]}".repeat(30));
        let r = read_chunk(chunks(&text, 0, 0)[0], true, Limits::default());
        let doc = &r.docs[0];
        let leaf = Located::root(doc).at_pointer(&pointer).unwrap();
        assert_eq!(leaf.as_bool(), Some(true));
        assert_eq!(leaf.pointer(), pointer);
        let based = Located::with_pointer(doc, doc.root, "/items/3");
        let leaf = based.at_pointer(&pointer).unwrap();
        assert_eq!(leaf.pointer(), format!("/items/3{pointer}"));
        let first = based.entries().next().unwrap().1.items().next().unwrap();
        assert_eq!(first.pointer(), "/items/3/k~00/0");
    }

    /// Indices beyond a path step's range are written out at once, keys as keys.
    #[test]
    fn indexes_are_written_in_decimal() {
        for n in [0, 7, 10, 99, 100, 65_535, 65_536, 1_234_567, usize::MAX] {
            let mut pointer = String::from("/a");
            super::push_index(&mut pointer, n);
            assert_eq!(pointer, format!("/a{n}"));
        }
    }

    #[test]
    fn pointers_past_the_step_range() {
        let items: Vec<String> = (0..70_000).map(|i| format!("{{\"k{i}\": [{i}]}}")).collect();
        let keys: Vec<String> = (0..70_000).map(|i| format!("\"k{i}\": [{i}]")).collect();
        let text = format!("{{\"a\": [{}], \"b\": {{{}}}}}", items.join(","), keys.join(","));
        let r = read_chunk(chunks(&text, 0, 0)[0], true, Limits::default());
        let root = Located::root(&r.docs[0]);
        for pointer in ["/a/69999/k69999/0", "/b/k69999/0", "/a/3/k3/0"] {
            let node = root.at_pointer(pointer).unwrap();
            assert_eq!(node.pointer(), pointer);
            assert_eq!(
                node.scalar_text().as_deref(),
                pointer.split('/').nth(2).map(|s| s.trim_start_matches('k'))
            );
        }
        let last = root.get("b").unwrap().entries().last().unwrap().1;
        assert_eq!(r.docs[0].text(last.key_span().unwrap()), "\"k69999\"");
    }

    #[test]
    fn aliased_nodes_report_at_the_use_site_with_the_anchor_related() {
        let text = "x: &r {cpu: 1}\nz:\n  resources: *r\n";
        let r = read_chunk(chunks(text, 0, 0)[0], false, Limits::default());
        let doc = &r.docs[0];
        let cpu = Located::root(doc).path(&["z", "resources", "cpu"]).unwrap();
        let site = cpu.site();
        assert_eq!(doc.text(site.span), "*r");
        assert_eq!(doc.text(site.related.unwrap()), "cpu: 1");
    }
}

#[cfg(test)]
mod size_tests {
    /// Small enough to be copied without a call (see [`super::PATH_STEPS`]).
    #[test]
    fn located_stays_small() {
        assert!(std::mem::size_of::<super::Located<'_>>() <= 72);
    }
}
