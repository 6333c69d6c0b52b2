//! Fixes as edits of the source text: each patch operation becomes a replacement of the bytes
//! of the node it changes, or an insertion where a person would write the missing key (after
//! the mapping's last entry, at its indentation, in its block or flow style, as JSON in JSON).
//! Every other byte — comments, key order, quoting, indentation, line endings — stays.
//!
//! Values that come through an alias are not edited: the change would reach every other use of
//! the anchor. Such a fix is dropped with that reason.

use crate::fix::{NotApplied, Op, Operation, object_prefix};
use crate::parse::doc::{Doc, Limits, NodeId, Value};
use crate::parse::scalar::{Resolved, resolve_plain};
use crate::parse::source::{Chunk, chunks, strip_bom};
use crate::parse::view::{Located, pointer_segments};
use crate::report::Finding;
use ra2_yaml::ScalarStyle;

/// Replace the bytes `start..end` of the text with `text` (an insertion when they are equal).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

impl Edit {
    fn overlaps(&self, other: &Edit) -> bool {
        self.start == other.start || (self.start < other.end && other.start < self.end)
    }

    fn is_insertion(&self) -> bool {
        self.start == self.end
    }

    /// Are the two edits insertions of keys after the last entry of a mapping at the same
    /// place: different keys of one mapping (the same separator and indentation), or keys of a
    /// nested block mapping and of a parent that ends where it does (line breaks alike, the
    /// indentations not)? Then both can go in at once, in the order of their text: the order
    /// passes one after the other write them in, each after the entry the one before wrote (the
    /// more deeply indented text is the smaller, and the parent's last entry ends after what
    /// went into the nested mapping).
    fn beside(&self, other: &Edit) -> bool {
        self.start == other.start
            && self.is_insertion()
            && other.is_insertion()
            && match (self.inserted_key(), other.inserted_key()) {
                (Some((lead, a)), Some((other_lead, b))) if lead == other_lead => a != b,
                (Some((lead, _)), Some((other_lead, _))) => nested_block_leads(lead, other_lead),
                _ => false,
            }
    }

    /// What an insertion after a mapping's last entry writes before the key (the separator, a
    /// line break or a comma, and the indentation), and the key (up to its colon); `None` for
    /// any other edit: a list item, or the first entry of an empty flow mapping (which has no
    /// separator).
    fn inserted_key(&self) -> Option<(&str, &str)> {
        if !self.text.starts_with([',', '\n', '\r']) {
            return None;
        }
        let rest = self.text.trim_start_matches([',', ' ', '\t', '\r', '\n']);
        let lead = self.text.get(..self.text.len() - rest.len())?;
        if rest.starts_with('-') {
            return None;
        }
        let (key, _) = rest.split_once(':')?;
        (!key.is_empty()).then_some((lead, key))
    }
}

/// Are `one` and `other` the leads of insertions into block mappings at different indentations: a
/// line break (the same one) and spaces only?
fn nested_block_leads(one: &str, other: &str) -> bool {
    fn split(lead: &str) -> Option<(&str, usize)> {
        let indent = lead.trim_start_matches(['\r', '\n']);
        let line_break = lead.get(..lead.len() - indent.len())?;
        let single = line_break == "\n" || line_break == "\r\n";
        (single && indent.bytes().all(|b| b == b' ')).then_some((line_break, indent.len()))
    }
    matches!(
        (split(one), split(other)),
        (Some((line_break, indent)), Some((other_break, other_indent))) if line_break == other_break && indent != other_indent
    )
}

/// The edits of one pass: groups of findings that one set of edits fixes (two rules may
/// report the same remedy), none overlapping another; and the fixes that cannot be edited.
#[derive(Debug, Default)]
pub(crate) struct Planned {
    pub(crate) edits: Vec<(Vec<Finding>, Vec<Edit>)>,
    pub(crate) failed: Vec<NotApplied>,
    /// Where insertions went in [`Edit::beside`] each other (planned `together`): the
    /// offset, and the largest text inserted there into one mapping (one entry for each
    /// mapping, when nested mappings end there).
    pub(crate) together: Vec<(usize, String)>,
}

impl Planned {
    /// Would passes one edit at a time have written the insertions planned together in the
    /// same order? Each pass writes the smallest text first, so not when, after those of one
    /// mapping, `next` (the next pass's plan on the text they made) inserts a smaller text:
    /// fixing one of them brought a fix the one-at-a-time passes would have put between them.
    /// (Texts written into a nested mapping are smaller than those into its parent, and go
    /// before them.)
    pub(crate) fn same_order_as(&self, next: &Planned) -> bool {
        if self.together.is_empty() {
            return true;
        }
        let all: Vec<&Edit> = self.edits.iter().flat_map(|(_, e)| e.iter()).collect();
        self.together.iter().all(|(at, largest)| {
            // Where the last of them (and of those into nested mappings) ends in the text they
            // made.
            let end = all.iter().fold(*at, |end, e| match e.start.cmp(at) {
                std::cmp::Ordering::Less => (end + e.text.len()).saturating_sub(e.end - e.start),
                std::cmp::Ordering::Equal if e.text <= *largest => end + e.text.len(),
                std::cmp::Ordering::Equal | std::cmp::Ordering::Greater => end,
            });
            !next
                .edits
                .iter()
                .flat_map(|(_, e)| e.iter())
                .any(|e| e.is_insertion() && e.start == end && e.text < *largest)
        })
    }
}

/// Fixes of one object to edit together: the findings, the document (chunk) and object
/// (pointer prefix) they are in, and the operations.
struct Request {
    findings: Vec<Finding>,
    chunk: usize,
    prefix: String,
    patch: Vec<Operation>,
}

/// Plans the edits of `findings`' fixes on `text`: fixes whose edits overlap an earlier one's
/// wait for the next pass. With `merge`, fixes that each add keys to the same missing mapping
/// (a container's `securityContext`) become one insertion that fixes them all. With `together`,
/// fixes of one insertion each that add different keys after the same entry go in at once (see
/// [`Edit::beside`] and [`Planned::same_order_as`]).
pub(crate) fn plan(text: &str, findings: &[Finding], limits: Limits, merge: bool, together: bool) -> Planned {
    prepare(text, findings, limits, merge).select(together)
}

/// The edits of each fix (what [`plan`] reads its documents for), before [`Prepared::select`]
/// chooses those of one pass: the same text, findings and `merge` prepare the same, whether
/// the pass plans insertions `together` or not.
#[derive(Clone, Debug)]
pub(crate) struct Prepared {
    /// Groups of findings that one set of edits fixes, sorted by their edits.
    groups: Vec<(Vec<Finding>, Vec<Edit>)>,
    failed: Vec<NotApplied>,
}

/// Reads the documents of `findings` in `text` and makes the edits of their fixes (see [`plan`]).
pub(crate) fn prepare(text: &str, findings: &[Finding], limits: Limits, merge: bool) -> Prepared {
    prepare_with(text, findings, limits, merge, &[])
}

/// [`prepare`], taking the documents of `text` that linting it parsed (`read`, by chunk) instead
/// of reading them again: each where it was read as this reads it (the same `json` and limits).
pub(crate) fn prepare_with<'t>(
    text: &'t str,
    findings: &[Finding],
    limits: Limits,
    merge: bool,
    read: &[Option<crate::lint::KeptDoc<'t>>],
) -> Prepared {
    let (body, bom) = strip_bom(text);
    let json = body.trim_start().starts_with(['{', '[']);
    let parts = chunks(body, bom, 0);
    // The file's line break, found once (a search of the whole text).
    let nl = newline(text);
    // Each chunk's document: one linting read, else read here when a fix needs it.
    let mut kept: Vec<Option<&Doc<'t>>> = parts.iter().map(|_| None).collect();
    if read.len() == parts.len() {
        for (slot, doc) in kept.iter_mut().zip(read) {
            if let Some((doc, read_json, read_limits)) = doc {
                if *read_json == json && *read_limits == limits {
                    *slot = Some(doc);
                }
            }
        }
    }
    let mut docs: Vec<Option<Option<Doc<'t>>>> = parts.iter().map(|_| None).collect();
    let mut failed: Vec<NotApplied> = Vec::new();
    let mut requests: Vec<Request> = Vec::new();
    for finding in findings {
        let Some(fix) = &finding.fix else { continue };
        let chunk = parts
            .iter()
            .rposition(|c| c.offset <= finding.offset)
            .unwrap_or_default();
        let prefix = object_prefix(&finding.pointer).unwrap_or("").to_owned();
        if merge {
            let into = requests.iter_mut().find_map(|r| {
                (r.chunk == chunk && r.prefix == prefix && merge_into(&mut r.patch, &fix.patch)).then_some(r)
            });
            if let Some(into) = into {
                into.findings.push(finding.clone());
                continue;
            }
        }
        requests.push(Request {
            findings: vec![finding.clone()],
            chunk,
            prefix,
            patch: fix.patch.clone(),
        });
    }
    let mut groups: Vec<(Vec<Finding>, Vec<Edit>)> = Vec::new();
    for request in requests {
        let (Some(chunk), Some(slot)) = (parts.get(request.chunk), docs.get_mut(request.chunk)) else {
            continue;
        };
        let doc = match kept.get(request.chunk).copied().flatten() {
            Some(doc) => Some(doc),
            None => slot.get_or_insert_with(|| parse(*chunk, json, limits)).as_ref(),
        };
        let Some(doc) = doc else {
            failed.extend(request.findings.into_iter().map(|finding| NotApplied {
                finding,
                reason: "its document could not be read again".to_owned(),
            }));
            continue;
        };
        let edits: Result<Vec<Edit>, String> = request
            .patch
            .iter()
            .map(|op| edit_for(text, nl, doc, &request.prefix, op))
            .collect();
        match edits {
            Ok(mut edits) => {
                edits.sort();
                match groups.iter_mut().find(|(_, e)| *e == edits) {
                    Some((same, _)) => same.extend(request.findings),
                    None => groups.push((request.findings, edits)),
                }
            }
            Err(reason) => failed.extend(request.findings.into_iter().map(|finding| NotApplied {
                finding,
                reason: reason.clone(),
            })),
        }
    }
    groups.sort_by(|a, b| a.1.cmp(&b.1));
    Prepared { groups, failed }
}

impl Prepared {
    /// The edits of one pass (see [`plan`]).
    pub(crate) fn select(&self, together: bool) -> Planned {
        let mut planned = Planned {
            failed: self.failed.clone(),
            ..Planned::default()
        };
        // Each edit taken, and whether its group has no other.
        let mut taken: Vec<(Edit, bool)> = Vec::new();
        for (findings, edits) in &self.groups {
            let single = together && edits.len() == 1;
            let blocked = edits.iter().any(|e| {
                taken
                    .iter()
                    .any(|(t, alone)| t.overlaps(e) && !(single && *alone && t.beside(e)))
            });
            if blocked {
                continue;
            }
            taken.extend(edits.iter().map(|e| (e.clone(), single)));
            planned.edits.push((findings.clone(), edits.clone()));
        }
        for (i, (edit, alone)) in taken.iter().enumerate() {
            let first = !taken.iter().take(i).any(|(t, _)| t.start == edit.start);
            if *alone && first && taken.iter().skip(i + 1).any(|(t, _)| t.beside(edit)) {
                // The largest text of each mapping written into there (each lead).
                let mut largest: Vec<(Option<&str>, &str)> = Vec::new();
                for e in taken.iter().map(|(t, _)| t).filter(|t| t.start == edit.start) {
                    let lead = e.inserted_key().map(|(lead, _)| lead);
                    match largest.iter_mut().find(|(l, _)| *l == lead) {
                        Some((_, text)) => *text = (*text).max(e.text.as_str()),
                        None => largest.push((lead, e.text.as_str())),
                    }
                }
                planned
                    .together
                    .extend(largest.into_iter().map(|(_, text)| (edit.start, text.to_owned())));
            }
        }
        planned
    }
}

/// Merges `more` into `patch` when both are one `add` of a mapping at the same path whose
/// values do not disagree (the same key with another value): then one insertion writes both.
fn merge_into(patch: &mut [Operation], more: &[Operation]) -> bool {
    let ([op], [other]) = (patch, more) else {
        return false;
    };
    if op.op != Op::Add || other.op != Op::Add || op.path != other.path {
        return false;
    }
    let (Some(value), Some(extra)) = (op.value.as_mut(), other.value.as_ref()) else {
        return false;
    };
    if !value.is_object() || !extra.is_object() || !agree(value, extra) {
        return false;
    }
    deep_merge(value, extra);
    true
}

/// Do two values agree wherever both have a key?
fn agree(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    match (a, b) {
        (serde_json::Value::Object(a), serde_json::Value::Object(b)) => {
            b.iter().all(|(k, v)| a.get(k).is_none_or(|mine| agree(mine, v)))
        }
        _ => a == b,
    }
}

fn deep_merge(into: &mut serde_json::Value, from: &serde_json::Value) {
    let (serde_json::Value::Object(into), serde_json::Value::Object(from)) = (into, from) else {
        return;
    };
    for (k, v) in from {
        match into.get_mut(k) {
            Some(mine) => deep_merge(mine, v),
            None => {
                into.insert(k.clone(), v.clone());
            }
        }
    }
}

fn parse(chunk: Chunk<'_>, json: bool, limits: Limits) -> Option<Doc<'_>> {
    let result = crate::parse::doc::read_chunk(chunk, json, limits);
    if result.error.is_some() {
        return None;
    }
    result.docs.into_iter().next()
}

/// `text` with `edits` made (they must not overlap).
pub fn apply<'e>(text: &str, edits: impl Iterator<Item = &'e Edit>) -> String {
    let mut edits: Vec<&Edit> = edits.collect();
    edits.sort();
    let mut out = String::with_capacity(text.len() + 64 * edits.len());
    let mut at = 0;
    for edit in edits {
        out.push_str(text.get(at..edit.start).unwrap_or_default());
        out.push_str(&edit.text);
        at = edit.end.max(at);
    }
    out.push_str(text.get(at..).unwrap_or_default());
    out
}

/// The edit that makes `op` (relative to the object at `prefix`) on `doc`, whose spans index
/// `text`.
fn edit_for(text: &str, nl: &str, doc: &Doc<'_>, prefix: &str, op: &Operation) -> Result<Edit, String> {
    let root = Located::root(doc);
    let path = format!("{prefix}{}", op.path);
    let value = op.value.as_ref();
    match op.op {
        Op::Replace => {
            let node = root
                .at_pointer(&path)
                .ok_or_else(|| format!("nothing is at {} any more", op.path))?;
            replace(text, doc, &node, value.unwrap_or(&serde_json::Value::Null))
        }
        Op::Add => {
            let (parent, last) = path
                .rsplit_once('/')
                .ok_or_else(|| format!("cannot add at {}", op.path))?;
            let key = pointer_segments(&format!("/{last}")).next().unwrap_or_default();
            let parent = root
                .at_pointer(parent)
                .ok_or_else(|| format!("nothing is at the parent of {} any more", op.path))?;
            not_through_alias(&parent)?;
            let value = value.unwrap_or(&serde_json::Value::Null);
            if parent.is_seq() && key == "-" {
                return append(text, nl, doc, &parent, value);
            }
            if let Some(existing) = parent.get(&key) {
                return replace(text, doc, &existing, value);
            }
            if !parent.is_map() {
                return Err(format!("cannot add {key:?}: its parent is a {}", parent.type_name()));
            }
            insert(text, nl, doc, &parent, &key, value)
        }
        Op::Remove => Err("removing fields is not supported yet".to_owned()),
        Op::Move => rename(text, doc, &root, prefix, op),
    }
}

/// A `move` to another key of the same mapping: the key's own text rewritten, in its quoting
/// (plain when the new name reads back as itself), the value and everything else untouched.
fn rename(text: &str, doc: &Doc<'_>, root: &Located<'_>, prefix: &str, op: &Operation) -> Result<Edit, String> {
    let from = op.from.as_deref().ok_or("a move without `from`")?;
    let (from_parent, _) = from.rsplit_once('/').ok_or_else(|| format!("cannot move {from}"))?;
    let (to_parent, last) = op
        .path
        .rsplit_once('/')
        .ok_or_else(|| format!("cannot move to {}", op.path))?;
    if from_parent != to_parent {
        return Err("only a rename within one mapping is supported".to_owned());
    }
    let key = pointer_segments(&format!("/{last}")).next().unwrap_or_default();
    let node = root
        .at_pointer(&format!("{prefix}{from}"))
        .ok_or_else(|| format!("nothing is at {from} any more"))?;
    not_through_alias(&node)?;
    let parent = root
        .at_pointer(&format!("{prefix}{from_parent}"))
        .ok_or_else(|| format!("nothing is at the parent of {from} any more"))?;
    not_through_alias(&parent)?;
    if parent.get(&key).is_some() {
        return Err(format!("the mapping already has {key:?}"));
    }
    let span = node.key_span().ok_or("the value has no key to rename")?;
    let written = text.get(span.start..span.end).unwrap_or_default();
    let new = match written.chars().next() {
        Some('"') => quoted(&key),
        Some('\'') if !key.contains('\'') => format!("'{key}'"),
        _ => key_text(&key, doc.json),
    };
    Ok(Edit {
        start: span.start,
        end: span.end,
        text: new,
    })
}

fn not_through_alias(node: &Located<'_>) -> Result<(), String> {
    if node.site().related.is_some() {
        return Err("the value comes through a YAML alias; edit its anchor instead".to_owned());
    }
    Ok(())
}

fn replace(text: &str, doc: &Doc<'_>, node: &Located<'_>, value: &serde_json::Value) -> Result<Edit, String> {
    not_through_alias(node)?;
    let span = node.span();
    if span.is_empty() {
        return Err("the value is empty in the source; write it out first".to_owned());
    }
    if node.is_map() || node.is_seq() {
        if !text.get(span.start..).is_some_and(|t| t.starts_with(['{', '['])) {
            return Err("replacing a block collection is not supported".to_owned());
        }
        return Ok(Edit {
            start: span.start,
            end: span.end,
            text: flow(value, doc.json),
        });
    }
    let style = doc.node(node.id()).style;
    let rendered = if value.is_object() || value.is_array() {
        flow(value, doc.json)
    } else {
        scalar(value, doc.json, style)
    };
    Ok(Edit {
        start: span.start,
        end: span.end,
        text: rendered,
    })
}

/// Adds `key: value` to the mapping `map`.
fn insert(
    text: &str,
    nl: &str,
    doc: &Doc<'_>,
    map: &Located<'_>,
    key: &str,
    value: &serde_json::Value,
) -> Result<Edit, String> {
    let span = map.span();
    let entries = doc.map_entries(map.id());
    let is_flow = text.get(span.start..).is_some_and(|t| t.starts_with('{'));
    let entry = format!("{}: ", key_text(key, doc.json));
    if is_flow {
        let Some(last) = entries.last() else {
            return Ok(Edit {
                start: span.start + 1,
                end: span.start + 1,
                text: format!("{entry}{}", flow(value, doc.json)),
            });
        };
        let end = entry_end(text, doc, last);
        let inside = text.get(span.start..span.end).unwrap_or_default();
        let separator = if inside.contains('\n') {
            format!(",{nl}{}", " ".repeat(column(text, last.key_span.start)))
        } else {
            ", ".to_owned()
        };
        return Ok(Edit {
            start: end,
            end,
            text: format!("{separator}{entry}{}", flow(value, doc.json)),
        });
    }
    let (Some(first), Some(last)) = (entries.first(), entries.last()) else {
        return Err("the mapping has no entries to align with".to_owned());
    };
    let indent = column(text, first.key_span.start);
    let at = line_end(text, entry_end(text, doc, last));
    let rendered = match value {
        serde_json::Value::Object(map) if !map.is_empty() => {
            format!("{}:{}", key_text(key, false), block(value, indent + 2, nl))
        }
        _ => format!("{entry}{}", scalar_or_flow(value)),
    };
    Ok(Edit {
        start: at,
        end: at,
        text: format!("{nl}{}{rendered}", " ".repeat(indent)),
    })
}

/// Appends `value` to the sequence `seq`.
fn append(text: &str, nl: &str, doc: &Doc<'_>, seq: &Located<'_>, value: &serde_json::Value) -> Result<Edit, String> {
    let span = seq.span();
    let items = doc.seq_items(seq.id());
    let is_flow = text.get(span.start..).is_some_and(|t| t.starts_with('['));
    let rendered = if doc.json {
        flow(value, true)
    } else {
        scalar_or_flow(value)
    };
    if is_flow {
        let Some(last) = items.last() else {
            return Ok(Edit {
                start: span.start + 1,
                end: span.start + 1,
                text: rendered,
            });
        };
        let end = item_end(text, doc, *last);
        return Ok(Edit {
            start: end,
            end,
            text: format!(", {rendered}"),
        });
    }
    let (Some(first), Some(last)) = (items.first(), items.last()) else {
        return Err("the list has no items to align with".to_owned());
    };
    let first_start = doc.node(first.node).span.start;
    let line_start = text
        .get(..first_start)
        .map_or(0, |t| t.rfind('\n').map_or(0, |i| i + 1));
    let dash = text
        .get(line_start..first_start)
        .and_then(|t| t.rfind('-'))
        .map(|i| line_start + i)
        .ok_or("the list's dash was not found")?;
    let indent = column(text, dash);
    let at = line_end(text, item_end(text, doc, *last));
    Ok(Edit {
        start: at,
        end: at,
        text: format!("{nl}{}- {rendered}", " ".repeat(indent)),
    })
}

/// Where the text of a mapping entry ends: its value's last character (an alias or merge key:
/// where that is written).
fn entry_end(text: &str, doc: &Doc<'_>, entry: &crate::parse::doc::Entry<'_>) -> usize {
    match doc.alias_site(entry.via) {
        Some(site) => site.end,
        None => content_end(text, doc, entry.value),
    }
}

fn item_end(text: &str, doc: &Doc<'_>, item: crate::parse::doc::Item) -> usize {
    match doc.alias_site(item.via) {
        Some(site) => site.end,
        None => content_end(text, doc, item.node),
    }
}

/// The end of a node's own text: a block collection's last entry or item, not the blank lines
/// and comments its span may run on to.
fn content_end(text: &str, doc: &Doc<'_>, id: NodeId) -> usize {
    let node = doc.node(id);
    let flow = text.get(node.span.start..).is_some_and(|t| t.starts_with(['{', '[']));
    let end = match node.value {
        Value::Map(_) if !flow => doc
            .map_entries(id)
            .last()
            .map_or(node.span.end, |e| entry_end(text, doc, e)),
        Value::Seq(_) if !flow => doc
            .seq_items(id)
            .last()
            .map_or(node.span.end, |i| item_end(text, doc, *i)),
        _ => node.span.end,
    };
    // Block scalars' spans take the line breaks after them.
    let mut end = end.min(text.len());
    while end > node.span.start
        && text
            .as_bytes()
            .get(end - 1)
            .is_some_and(|b| matches!(b, b'\n' | b'\r' | b' ' | b'\t'))
    {
        end -= 1;
    }
    end
}

/// The offset of the line break that ends the line holding `at` (the text's end if none).
fn line_end(text: &str, at: usize) -> usize {
    match text.get(at..).and_then(|t| t.find('\n')) {
        Some(i) if at + i > 0 && text.as_bytes().get(at + i - 1) == Some(&b'\r') => at + i - 1,
        Some(i) => at + i,
        None => text.len(),
    }
}

fn newline(text: &str) -> &'static str {
    // memmem: a SIMD search (a file without CRLF is read whole, once per inserted line).
    if memchr::memmem::find(text.as_bytes(), b"\r\n").is_some() {
        "\r\n"
    } else {
        "\n"
    }
}

/// The column (in characters, 0-based) of byte `at`.
fn column(text: &str, at: usize) -> usize {
    let before = text.get(..at).unwrap_or_default();
    let line = before
        .rfind('\n')
        .map_or(before, |i| before.get(i + 1..).unwrap_or_default());
    line.chars().count()
}

/// A key as written in YAML (plain when that reads back as the same string) or JSON.
fn key_text(key: &str, json: bool) -> String {
    if json || !plain_ok(key) {
        quoted(key)
    } else {
        key.to_owned()
    }
}

fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
}

/// Can `s` be written as a plain YAML scalar and read back as the same string (YAML 1.1, as
/// the API server reads it)?
fn plain_ok(s: &str) -> bool {
    let safe = |c: char| c.is_ascii_alphanumeric() || "._/-+@=".contains(c);
    s.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '/' || c == '.')
        && s.chars().all(safe)
        && matches!(resolve_plain(s), Resolved::Str)
}

/// A scalar value, in the style the replaced node had when it is a string.
fn scalar(value: &serde_json::Value, json: bool, style: Option<ScalarStyle>) -> String {
    match value {
        serde_json::Value::String(s) if !json => match style {
            Some(ScalarStyle::SingleQuoted) => format!("'{}'", s.replace('\'', "''")),
            Some(ScalarStyle::DoubleQuoted) => quoted(s),
            _ if plain_ok(s) => s.clone(),
            _ => quoted(s),
        },
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

fn scalar_or_flow(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Object(_) | serde_json::Value::Array(_) => flow(value, false),
        other => scalar(other, false, None),
    }
}

/// A value in flow style (`{a: 1, b: [x]}`), or JSON in JSON.
fn flow(value: &serde_json::Value, json: bool) -> String {
    match value {
        serde_json::Value::Object(map) => {
            let entries: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", key_text(k, json), flow(v, json)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
        serde_json::Value::Array(items) => {
            let items: Vec<String> = items.iter().map(|v| flow(v, json)).collect();
            format!("[{}]", items.join(", "))
        }
        other => scalar(other, json, None),
    }
}

/// A mapping in block style, each entry on its own line at `indent`; starts with a newline.
fn block(value: &serde_json::Value, indent: usize, nl: &str) -> String {
    let serde_json::Value::Object(map) = value else {
        return format!(" {}", scalar_or_flow(value));
    };
    let mut out = String::new();
    for (k, v) in map {
        out.push_str(nl);
        out.push_str(&" ".repeat(indent));
        out.push_str(&key_text(k, false));
        out.push(':');
        match v {
            serde_json::Value::Object(inner) if !inner.is_empty() => out.push_str(&block(v, indent + 2, nl)),
            other => {
                out.push(' ');
                out.push_str(&scalar_or_flow(other));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fix::{Applicability, Fix};

    /// A finding at `pointer` whose fix is `patch`.
    fn finding(pointer: &str, patch: Vec<Operation>) -> Finding {
        Finding {
            rule: "r".to_owned(),
            check: "c".to_owned(),
            severity: crate::Severity::Error,
            message: String::new(),
            help: String::new(),
            file: "t.yaml".to_owned(),
            line: 1,
            column: 1,
            end_line: 1,
            end_column: 1,
            document: 0,
            object: crate::ObjectRef::default(),
            pointer: pointer.to_owned(),
            source_template: None,
            template: None,
            related: Vec::new(),
            refused_by_api_server: false,
            named_pointer: None,
            fix: Some(Fix {
                applicability: Applicability::Safe,
                title: String::new(),
                patch,
            }),
            offset: 0,
            len: 0,
        }
    }

    /// The text after fixing the one finding at `pointer` with `patch`.
    fn fixed(text: &str, pointer: &str, patch: Vec<Operation>) -> Result<String, String> {
        let planned = plan(text, &[finding(pointer, patch)], Limits::default(), true, false);
        if let Some(failed) = planned.failed.first() {
            return Err(failed.reason.clone());
        }
        Ok(apply(text, planned.edits.iter().flat_map(|(_, e)| e.iter())))
    }

    /// Two findings' fixes planned at once, with insertions `together` or not: the text after
    /// the first pass, and how many fixes it applied.
    fn one_pass(text: &str, patches: [Vec<Operation>; 2], together: bool) -> (String, usize) {
        let findings: Vec<Finding> = patches.into_iter().map(|patch| finding("/spec", patch)).collect();
        let planned = plan(text, &findings, Limits::default(), true, together);
        let out = apply(text, planned.edits.iter().flat_map(|(_, e)| e.iter()));
        (out, planned.edits.len())
    }

    #[test]
    fn keys_added_after_the_same_entry_go_in_together_in_the_order_passes_write_them() {
        let user = || add("/spec/containers/0/securityContext/runAsNonRoot", true.into());
        let group = || add("/spec/containers/0/securityContext/runAsGroup", 10001.into());
        let (first, n) = one_pass(POD, [user(), group()], false);
        assert_eq!(n, 1);
        let (second, _) = one_pass(&first, [user(), group()], false);
        let (together, n) = one_pass(POD, [user(), group()], true);
        assert_eq!(n, 2);
        assert_eq!(together, second);
        // The same key twice waits for the next pass.
        let (_, n) = one_pass(
            POD,
            [group(), add("/spec/containers/0/securityContext/runAsGroup", 1.into())],
            true,
        );
        assert_eq!(n, 1);
    }

    /// Keys of a nested mapping and of its parent that end at the same place (the container's
    /// `securityContext`, the pod spec) go in at once, as two passes write them: the nested
    /// one first, whichever is planned first; in LF and CRLF texts.
    #[test]
    fn keys_of_a_nested_mapping_and_its_parent_go_in_together_as_passes_write_them() {
        let group = || add("/spec/containers/0/securityContext/runAsGroup", 10001.into());
        let host_pid = || add("/spec/hostPID", false.into());
        for pod in [POD.to_owned(), POD.replace('\n', "\r\n")] {
            for patches in [[group(), host_pid()], [host_pid(), group()]] {
                let (first, n) = one_pass(&pod, patches.clone(), false);
                assert_eq!(n, 1);
                let (second, _) = one_pass(&first, patches.clone(), false);
                let (together, n) = one_pass(&pod, patches, true);
                assert_eq!(n, 2);
                assert_eq!(together, second);
                assert!(together.contains("runAsGroup: 10001"), "{together}");
                assert!(together.contains("hostPID: false"), "{together}");
            }
        }
        // Not when the line breaks differ, nor in flow style (a flow mapping ends with its
        // brace, before its parent's next entry).
        assert!(!nested_block_leads("\n    ", "\r\n  "));
        assert!(!nested_block_leads(", ", "\n  "));
        assert!(!nested_block_leads("\n  ", "\n  "));
        assert!(nested_block_leads("\n      ", "\n  "));
    }

    fn add(path: &str, value: serde_json::Value) -> Vec<Operation> {
        vec![Operation {
            op: Op::Add,
            from: None,
            path: path.to_owned(),
            value: Some(value),
        }]
    }

    const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p   # the pod\nspec:\n  containers:\n  - name: c\n    image: r/c:1  # pinned\n\n    securityContext:\n      runAsUser: 10001\n# trailing\n";

    #[test]
    fn a_key_goes_after_the_last_entry_at_its_indentation() {
        let out = fixed(
            POD,
            "/spec",
            add(
                "/spec/containers/0/securityContext/allowPrivilegeEscalation",
                false.into(),
            ),
        );
        assert_eq!(
            out.as_deref(),
            Ok(POD
                .replace(
                    "runAsUser: 10001\n",
                    "runAsUser: 10001\n      allowPrivilegeEscalation: false\n"
                )
                .as_str())
        );
    }

    #[test]
    fn a_missing_mapping_is_written_as_a_block() {
        let out = fixed(
            POD,
            "/spec",
            add(
                "/spec/containers/0/resources",
                serde_json::json!({"limits": {"cpu": "1"}}),
            ),
        );
        assert_eq!(
            out.as_deref(),
            Ok(POD
                .replace(
                    "runAsUser: 10001\n",
                    "runAsUser: 10001\n    resources:\n      limits:\n        cpu: \"1\"\n"
                )
                .as_str())
        );
    }

    #[test]
    fn flow_mappings_stay_flow_and_json_stays_json() {
        let flow = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: 'r/c:1', securityContext: {}}]\n";
        let out = fixed(
            flow,
            "/spec",
            add("/spec/containers/0/securityContext/privileged", false.into()),
        );
        assert_eq!(out.as_deref(), Ok(flow.replace("{}", "{privileged: false}").as_str()));
        let out = fixed(flow, "/spec", add("/spec/containers/0/stdin", true.into()));
        assert_eq!(out.as_deref(), Ok(flow.replace("{}}", "{}, stdin: true}").as_str()));
        let json = "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"Pod\",\n  \"metadata\": {\"name\": \"p\"},\n  \"spec\": {\"containers\": [{\"name\": \"c\", \"image\": \"r/c:1\"}]}\n}\n";
        let out = fixed(
            json,
            "/spec",
            add(
                "/spec/containers/0/securityContext",
                serde_json::json!({"privileged": false}),
            ),
        );
        assert_eq!(
            out.as_deref(),
            Ok(json
                .replace("\"r/c:1\"}", "\"r/c:1\", \"securityContext\": {\"privileged\": false}}")
                .as_str())
        );
        let out = fixed(json, "/spec", add("/spec/hostPID", false.into()));
        assert_eq!(
            out.as_deref(),
            Ok(json
                .replace("\"r/c:1\"}]}\n", "\"r/c:1\"}], \"hostPID\": false}\n")
                .as_str())
        );
        let out = fixed(json, "", add("/immutable", false.into()));
        assert_eq!(
            out.as_deref(),
            Ok(json
                .replace("\"r/c:1\"}]}\n", "\"r/c:1\"}]},\n  \"immutable\": false\n")
                .as_str())
        );
    }

    #[test]
    fn replacements_keep_quoting_and_aliases_are_refused() {
        let text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m}\nimmutable: 'no'\ndata: {a: \"x\"}\n";
        let out = fixed(
            text,
            "",
            vec![Operation {
                op: Op::Replace,
                from: None,
                path: "/immutable".to_owned(),
                value: Some(true.into()),
            }],
        );
        assert_eq!(out.as_deref(), Ok(text.replace("'no'", "true").as_str()));
        let out = fixed(
            text,
            "",
            vec![Operation {
                op: Op::Replace,
                from: None,
                path: "/data/a".to_owned(),
                value: Some("y z".into()),
            }],
        );
        assert_eq!(out.as_deref(), Ok(text.replace("\"x\"", "\"y z\"").as_str()));
        let aliased = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - &c {name: c, image: r/c:1}\n  - *c\n";
        let out = fixed(aliased, "", add("/spec/containers/1/stdin", true.into()));
        assert!(out.is_err_and(|e| e.contains("alias")));
    }

    #[test]
    fn items_append_to_block_and_flow_lists() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: r/c:1\n    securityContext:\n      capabilities:\n        drop:\n          - NET_RAW\n        add: [NET_ADMIN]\n";
        let out = fixed(
            text,
            "",
            add("/spec/containers/0/securityContext/capabilities/drop/-", "ALL".into()),
        );
        assert_eq!(
            out.as_deref(),
            Ok(text.replace("- NET_RAW\n", "- NET_RAW\n          - ALL\n").as_str())
        );
        let out = fixed(
            text,
            "",
            add(
                "/spec/containers/0/securityContext/capabilities/add/-",
                "SYS_TIME".into(),
            ),
        );
        assert_eq!(
            out.as_deref(),
            Ok(text.replace("[NET_ADMIN]", "[NET_ADMIN, SYS_TIME]").as_str())
        );
    }

    #[test]
    fn crlf_files_keep_their_line_endings() {
        let text = POD.replace('\n', "\r\n");
        let out = fixed(
            &text,
            "/spec",
            add(
                "/spec/containers/0/securityContext/allowPrivilegeEscalation",
                false.into(),
            ),
        );
        assert_eq!(
            out.as_deref(),
            Ok(text
                .replace(
                    "runAsUser: 10001\r\n",
                    "runAsUser: 10001\r\n      allowPrivilegeEscalation: false\r\n"
                )
                .as_str())
        );
    }
}
