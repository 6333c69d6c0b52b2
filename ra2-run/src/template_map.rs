//! Mapping a finding in `helm template` output back to the line of the chart template that
//! wrote it. Pure: the template's text, the finding's JSON pointer and the rendered object
//! in, a line out.
//!
//! A template is not YAML, but its structure is YAML's once the template actions (`{{ … }}`)
//! are treated as opaque text: keys and list items by indentation. The pointer is walked
//! through that structure. A key written literally maps to its own line (`key`). Where the
//! walk meets a field that an action produces — `toYaml`, `include`, `tpl`, a value, a `range`
//! — it stops at that action's line under the deepest key it found (`action`). A field that
//! is absent from the template maps to the deepest enclosing key found (`ancestor`), and
//! when not even the pointer's first key is there, to the document's first line (`document`).
//!
//! Control actions (`if`, `else`, `with`, `end`, comments, variable assignments) are
//! transparent to the walk. A list index is not a position in the template, though: items
//! behind a switched-off `if` are missing from the rendered list, and an `include`, `toYaml`
//! or `range` writes any number of them. So where the rendered object is known, each list
//! on the pointer's way is aligned with the template's list by content ([`align`]): the
//! rendered item goes to the literal item whose keys and literal values agree with it, or to
//! the action that wrote it. Without the rendered object, items are counted as written.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// How a template line was found (the JSON report's `template.mapped`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    Key,
    Action,
    Ancestor,
    Document,
}

impl How {
    pub fn as_str(self) -> &'static str {
        match self {
            How::Key => "key",
            How::Action => "action",
            How::Ancestor => "ancestor",
            How::Document => "document",
        }
    }
}

/// A 1-based line and column (in characters) in the template, and how it was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mapped {
    pub line: usize,
    pub column: usize,
    pub how: How,
}

/// What a template action does to the structure around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ActionKind {
    /// `if`, `else`, `with`, `end`, `define`, comments, `$x := …`: writes nothing itself.
    Control,
    /// `range`: repeats what follows.
    Range,
    /// Anything else writes text: `toYaml`, `include`, `tpl`, `.Values.x`, ...
    Output,
}

/// One line of the template, with its actions blanked.
#[derive(Clone, Debug)]
struct Line {
    /// 0-based column (characters) of the first character that is not a space.
    indent: usize,
    /// Nothing but spaces, comments or a document marker: ignored by the walk.
    blank: bool,
    /// The line holds only template actions (and spaces); the kind of the first one.
    action: Option<ActionKind>,
    /// Column of a list item's dash.
    dash: Option<usize>,
    /// The mapping key on the line (after any dash) and its column.
    key: Option<(String, usize)>,
    /// What follows the key's colon.
    value: Value,
    /// The literal text of the value (comments included), for `kind:`.
    text: String,
    /// How many blocks the line's actions open (`if`, `with`, `range`, `define`: +1) less
    /// how many they close (`end`: -1).
    nesting: i32,
    /// The indentation the line's first output action gives its text (`nindent 8`).
    indent_to: Option<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value {
    /// Nothing: the value is on the following lines.
    None,
    /// A template action (possibly among text): the field comes out of it.
    Action,
    /// A block scalar (`|`, `>`): the following deeper lines are its text.
    Block,
    /// Any other literal value.
    Literal,
}

impl Line {
    /// Column where this line's structure starts (the dash, else the key or text).
    fn column(&self) -> usize {
        self.dash.unwrap_or(self.indent)
    }

    /// A line that shapes the YAML structure (neither blank nor a whole-line action).
    fn structural(&self) -> bool {
        !self.blank && self.action.is_none()
    }
}

/// How many blocks an action opens (+1) or closes (-1).
fn action_nesting(inner: &str) -> i32 {
    let body = inner.trim_start_matches('-').trim_end_matches('-').trim();
    let word = body.split(|c: char| c.is_whitespace() || c == '(').next().unwrap_or("");
    match word {
        "if" | "with" | "range" | "define" | "block" => 1,
        "end" => -1,
        _ => 0,
    }
}

fn action_kind(inner: &str) -> ActionKind {
    let body = inner.trim_start_matches('-').trim_end_matches('-').trim();
    let word = body.split(|c: char| c.is_whitespace() || c == '(').next().unwrap_or("");
    if body.starts_with("/*") || body.contains(":=") && body.starts_with('$') {
        return ActionKind::Control;
    }
    match word {
        "if" | "else" | "with" | "end" | "define" | "block" | "break" | "continue" => ActionKind::Control,
        "range" => ActionKind::Range,
        _ => ActionKind::Output,
    }
}

/// A line of the template with its actions blanked.
#[derive(Clone, Debug, Default)]
struct Blanked {
    text: String,
    actions: Vec<ActionKind>,
    nesting: i32,
    /// The indentation the line's first output action gives its text (`nindent 8`).
    indent_to: Option<usize>,
}

/// The indentation `indent N` or `nindent N` gives an action's text.
fn indent_to(inner: &str) -> Option<usize> {
    let mut words = inner.split(|c: char| c.is_whitespace() || c == '|' || c == '(' || c == ')');
    while let Some(word) = words.next() {
        if word == "indent" || word == "nindent" {
            return words.find(|w| !w.is_empty())?.parse().ok();
        }
    }
    None
}

/// Splits the template into lines with their actions blanked: every `{{ … }}` (which may
/// span lines) is replaced by a placeholder character that is not YAML syntax, so a key whose
/// value is an action still parses as a key.
fn blank_actions(template: &str) -> Vec<Blanked> {
    const PLACEHOLDER: char = '\u{1}';
    let mut lines: Vec<Blanked> = vec![Blanked::default()];
    let mut rest = template;
    while !rest.is_empty() {
        let open = rest.find("{{");
        let newline = rest.find(['\n', '\r']);
        match (open, newline) {
            (Some(o), n) if n.is_none_or(|n| o < n) => {
                if let Some(last) = lines.last_mut() {
                    last.text.push_str(rest.get(..o).unwrap_or(""));
                }
                let after = rest.get(o + 2..).unwrap_or("");
                let close = after.find("}}").unwrap_or(after.len());
                let inner = after.get(..close).unwrap_or("");
                if let Some(last) = lines.last_mut() {
                    last.text.push(PLACEHOLDER);
                    let kind = action_kind(inner);
                    if kind != ActionKind::Control && last.actions.iter().all(|k| *k == ActionKind::Control) {
                        last.indent_to = indent_to(inner);
                    }
                    last.actions.push(kind);
                    last.nesting += action_nesting(inner);
                }
                // An action spanning lines keeps the line count: its lines become empty
                // continuation lines of the line it starts on.
                let breaks = crate::template_map::line_breaks(inner);
                for _ in 0..breaks {
                    lines.push(Blanked {
                        actions: vec![ActionKind::Control],
                        ..Blanked::default()
                    });
                }
                rest = after.get((close + 2).min(after.len())..).unwrap_or("");
            }
            (_, Some(n)) => {
                if let Some(last) = lines.last_mut() {
                    last.text.push_str(rest.get(..n).unwrap_or(""));
                }
                let crlf = rest.get(n..n + 2) == Some("\r\n");
                rest = rest.get(n + if crlf { 2 } else { 1 }..).unwrap_or("");
                lines.push(Blanked::default());
            }
            (_, None) => {
                if let Some(last) = lines.last_mut() {
                    last.text.push_str(rest);
                }
                rest = "";
            }
        }
    }
    lines
}

fn line_breaks(text: &str) -> usize {
    ra2_core::source::count_line_breaks(text.as_bytes())
}

/// The key at the start of `text` (after a dash and spaces) and what follows its colon.
fn parse_key(text: &str) -> Option<(String, &str)> {
    const PLACEHOLDER: char = '\u{1}';
    let (key, after) = if let Some(quote) = text.chars().next().filter(|c| *c == '"' || *c == '\'') {
        let body = text.get(1..)?;
        let end = body.find(quote)?;
        (body.get(..end)?.to_owned(), body.get(end + 1..)?)
    } else {
        if text.starts_with(['#', '{', '[', '|', '>', '&', '*', '!', '%', '@', '`', PLACEHOLDER]) {
            return None;
        }
        let mut end = None;
        for (i, c) in text.char_indices() {
            if c == ':'
                && text
                    .get(i + 1..)
                    .is_none_or(|r| r.is_empty() || r.starts_with([' ', '\t']))
            {
                end = Some(i);
                break;
            }
            if c == PLACEHOLDER || (c == '#' && text.get(..i).is_some_and(|b| b.ends_with(' '))) {
                return None;
            }
        }
        let end = end?;
        (text.get(..end)?.trim_end().to_owned(), text.get(end..)?)
    };
    let value = after.strip_prefix(':')?;
    if !(value.is_empty() || value.starts_with([' ', '\t'])) {
        return None;
    }
    Some((key, value.trim()))
}

fn classify(text: &str, actions: &[ActionKind], nesting: i32) -> Line {
    const PLACEHOLDER: char = '\u{1}';
    let indent = text.chars().take_while(|c| *c == ' ').count();
    let content = text.trim();
    let blank_line = Line {
        indent,
        blank: true,
        action: None,
        dash: None,
        key: None,
        value: Value::None,
        text: String::new(),
        nesting,
        indent_to: None,
    };
    if content.is_empty() {
        return if actions.is_empty() {
            blank_line
        } else {
            // A continuation line of an action that spans lines.
            Line {
                action: Some(ActionKind::Control),
                ..blank_line
            }
        };
    }
    if content.starts_with('#') || content == "---" || content.starts_with("--- ") || content == "..." {
        return blank_line;
    }
    if content.chars().all(|c| c == PLACEHOLDER || c.is_whitespace()) {
        let kind = actions
            .iter()
            .copied()
            .find(|k| *k != ActionKind::Control)
            .unwrap_or(ActionKind::Control);
        return Line {
            blank: false,
            action: Some(kind),
            ..blank_line
        };
    }
    let mut column = indent;
    let mut rest = content;
    let mut dash = None;
    while let Some(after) = rest
        .strip_prefix('-')
        .filter(|a| a.is_empty() || a.starts_with([' ', '\t']))
    {
        // Nested items on one line (`- - a`): the innermost dash is the one that counts.
        dash = Some(column);
        let trimmed = after.trim_start();
        column += 1 + (after.len() - trimmed.len());
        rest = trimmed;
    }
    let key = parse_key(rest);
    // What follows the key's colon, or the whole text of a line without a key.
    let after = key.as_ref().map_or(rest, |(_, v)| v);
    let value = if after.is_empty() || (key.is_some() && after.starts_with('#')) {
        Value::None
    } else if after.contains(PLACEHOLDER) {
        Value::Action
    } else if after.starts_with(['|', '>']) {
        Value::Block
    } else {
        Value::Literal
    };
    let text = after.to_owned();
    Line {
        indent,
        blank: false,
        action: None,
        dash,
        key: key.map(|(k, _)| (k, column)),
        value,
        text,
        nesting,
        indent_to: None,
    }
}

/// The lines of a template (blanked by [`blank_actions`]), with the bodies of block scalars
/// blanked.
fn parse(blanked: &[Blanked]) -> Vec<Line> {
    let mut lines: Vec<Line> = blanked
        .iter()
        .map(|b| Line {
            indent_to: b.indent_to,
            ..classify(&b.text, &b.actions, b.nesting)
        })
        .collect();
    let mut i = 0;
    while i < lines.len() {
        let block = lines
            .get(i)
            .filter(|l| l.value == Value::Block)
            .map(|l| l.key.as_ref().map_or(l.column(), |k| k.1));
        i += 1;
        if let Some(key_column) = block {
            while let Some(line) = lines.get_mut(i) {
                if line.structural() && line.indent <= key_column {
                    break;
                }
                line.blank = true;
                line.action = None;
                i += 1;
            }
        }
    }
    lines
}

/// The 0-based line ranges of the template's documents (split at `---` lines).
fn documents(blanked: &[Blanked]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut count = 0;
    for (i, line) in blanked.iter().enumerate() {
        let text = line.text.trim_end();
        if text == "---" || text.starts_with("--- ") {
            out.push((start, i));
            start = i + 1;
        }
        count = i + 1;
    }
    out.push((start, count));
    out
}

/// Picks the template document a rendered object came from: among the documents that write
/// `kind: <kind>` literally, the `ordinal`-th (the last when there are fewer); else the
/// `ordinal`-th document with any content; else the first.
pub fn pick_document(template: &str, kind: Option<&str>, ordinal: usize) -> (usize, usize) {
    Template::new(template).pick_document(kind, ordinal)
}

/// A template read once for every finding mapped into it.
#[derive(Debug)]
pub struct Template {
    lines: Vec<Line>,
    /// The line ranges of its documents that have any content.
    docs: Vec<(usize, usize)>,
    /// The lists of the last object mapped, aligned.
    aligned: RefCell<Alignments>,
}

impl Template {
    pub fn new(template: &str) -> Template {
        let blanked = blank_actions(template);
        let lines = parse(&blanked);
        let docs = documents(&blanked)
            .into_iter()
            .filter(|&(lo, hi)| lines.get(lo..hi).is_some_and(|ls| ls.iter().any(|l| !l.blank)))
            .collect();
        Template {
            lines,
            docs,
            aligned: RefCell::default(),
        }
    }

    /// The document of the `ordinal`-th object of `kind` (see [`pick_document`]).
    pub fn pick_document(&self, kind: Option<&str>, ordinal: usize) -> (usize, usize) {
        pick(&self.lines, &self.docs, kind, ordinal)
    }

    /// Maps `pointer` to a line: in the document picked by [`pick_document`] for an object
    /// of `kind` that is the `ordinal`-th object of that kind rendered from this template.
    /// With the `rendered` object (and a number that tells it from the other objects mapped
    /// into this template), list items are aligned with the template's by content
    /// ([`align`]); without it, by index.
    pub fn map(
        &self,
        kind: Option<&str>,
        ordinal: usize,
        pointer: &str,
        rendered: Option<(&serde_json::Value, usize)>,
    ) -> Mapped {
        let doc = self.pick_document(kind, ordinal);
        walk(
            &self.lines,
            doc,
            pointer,
            rendered.map(|(value, object)| (value, object, &self.aligned)),
        )
    }
}

fn pick(lines: &[Line], docs: &[(usize, usize)], kind: Option<&str>, ordinal: usize) -> (usize, usize) {
    let kind_of = |&(lo, hi): &(usize, usize)| -> Option<&str> {
        lines.get(lo..hi)?.iter().find_map(|l| match &l.key {
            Some((k, 0)) if k == "kind" && l.dash.is_none() && l.value == Value::Literal => {
                Some(l.text.trim_matches(['"', '\'']))
            }
            _ => None,
        })
    };
    if let Some(kind) = kind {
        let same: Vec<&(usize, usize)> = docs.iter().filter(|d| kind_of(d) == Some(kind)).collect();
        if let Some(doc) = same.get(ordinal).or(same.last()) {
            return **doc;
        }
    }
    docs.get(ordinal).or(docs.first()).copied().unwrap_or((0, lines.len()))
}

/// A 0-based line and column as a 1-based [`Mapped`].
fn at(line_index: usize, column: usize, how: How) -> Mapped {
    Mapped {
        line: line_index + 1,
        column: column + 1,
        how,
    }
}

/// A container in the walk: the lines `lo..hi` that hold its entries. `item` is the line
/// of a list item whose first key sits on the item's own line (`- name: x`): that line is an
/// entry of the item's mapping, at its key's column.
#[derive(Clone, Copy, Debug)]
struct Container {
    lo: usize,
    hi: usize,
    item: Option<usize>,
}

impl Container {
    /// The column a line's entry starts at, in this container.
    fn column(self, lines: &[Line], j: usize) -> Option<usize> {
        let line = lines.get(j)?;
        if self.item == Some(j) {
            return line.key.as_ref().map(|k| k.1);
        }
        Some(line.column())
    }

    /// Whether the line is a list item of this container (not the container's own item line).
    fn is_dash(self, lines: &[Line], j: usize) -> bool {
        self.item != Some(j) && lines.get(j).is_some_and(|l| l.dash.is_some())
    }
}

/// The end of the block that belongs to the line at `i` whose structure starts at `column`:
/// the next structural line at or left of `column`. With `dash_may_align`, a list item may
/// sit at the key's own column (`containers:` then `- name: …`) and still be in its block.
fn block_end(lines: &[Line], i: usize, hi: usize, column: usize, dash_may_align: bool) -> usize {
    let mut j = i + 1;
    while j < hi {
        if let Some(line) = lines.get(j) {
            if line.structural() {
                let ends = match line.dash {
                    Some(d) if dash_may_align => d < column,
                    Some(d) => d <= column,
                    None => line.indent <= column,
                };
                if ends {
                    break;
                }
            }
        }
        j += 1;
    }
    j
}

/// Whether the action line `j` writes the value of the key just above it (a key with nothing
/// after its colon, whatever the action's indentation: `resources:` then `{{ toYaml … }}`).
fn writes_previous_key(lines: &[Line], lo: usize, j: usize) -> bool {
    (lo..j)
        .rev()
        .find(|&p| lines.get(p).is_some_and(Line::structural))
        .and_then(|p| lines.get(p))
        .is_some_and(|p| p.key.is_some() && p.value == Value::None)
}

/// Whether line `j` is an action that writes entries of a container whose entries sit at
/// `column` (not the value of one of its keys).
fn writes_entries(lines: &[Line], container: Container, column: usize, j: usize) -> bool {
    lines.get(j).is_some_and(|l| {
        matches!(l.action, Some(ActionKind::Output | ActionKind::Range))
            && l.indent <= column
            && !writes_previous_key(lines, container.lo, j)
    })
}

/// Whether line `j` is an action that writes items of a list whose dashes sit at `column`:
/// its text goes to that column or left of it (`nindent`/`indent` say where, else the line's
/// own indentation), and it is not the value of the key above it.
fn writes_items(lines: &[Line], container: Container, column: usize, j: usize) -> bool {
    lines.get(j).is_some_and(|l| {
        matches!(l.action, Some(ActionKind::Output | ActionKind::Range))
            && l.indent_to.unwrap_or(l.indent) <= column
            && !writes_previous_key(lines, container.lo, j)
    })
}

fn indent_of(lines: &[Line], j: usize) -> usize {
    lines.get(j).map_or(0, |l| l.indent)
}

/// Maps `pointer` (a JSON pointer into the rendered object) to a line of the document
/// `doc` (0-based line range) of the template.
fn walk(
    lines: &[Line],
    doc: (usize, usize),
    pointer: &str,
    rendered: Option<(&serde_json::Value, usize, &RefCell<Alignments>)>,
) -> Mapped {
    let first = (doc.0..doc.1)
        .find(|&j| lines.get(j).is_some_and(Line::structural))
        .or_else(|| (doc.0..doc.1).find(|&j| lines.get(j).is_some_and(|l| !l.blank)))
        .unwrap_or(doc.0);
    let document_start = at(first, indent_of(lines, first), How::Document);
    let segments: Vec<String> = ra2_core::view::pointer_segments(pointer).collect();
    let mut container = Container {
        lo: doc.0,
        hi: doc.1,
        item: None,
    };
    // The deepest key or item found so far.
    let mut found: Option<Mapped> = None;
    // The rendered node at the container, where the rendered object is known, and its pointer.
    let mut here = rendered.map(|r| r.0);
    let mut prefix = String::new();
    let ancestor = |found: Option<Mapped>| {
        found.map_or(document_start, |f| Mapped {
            how: How::Ancestor,
            ..f
        })
    };
    for (depth, segment) in segments.iter().enumerate() {
        // The container's entries start at the column of its first structural line.
        let Some(first) = (container.lo..container.hi).find(|&j| lines.get(j).is_some_and(Line::structural)) else {
            // Nothing literal: the container's content comes from an action, if any.
            return (container.lo..container.hi)
                .find(|&j| {
                    matches!(
                        lines.get(j).and_then(|l| l.action),
                        Some(ActionKind::Output | ActionKind::Range)
                    )
                })
                .map_or_else(|| ancestor(found), |j| at(j, indent_of(lines, j), How::Action));
        };
        let Some(column) = container.column(lines, first) else {
            return ancestor(found);
        };
        let next = if container.is_dash(lines, first) {
            segment.parse::<usize>().ok().and_then(|index| {
                match (here.and_then(serde_json::Value::as_array), rendered) {
                    (Some(items), Some((_, object, cache))) => {
                        let list = RenderedList {
                            items,
                            object,
                            prefix: &prefix,
                            cache,
                        };
                        aligned_item(lines, container, column, &list, index)
                    }
                    _ => item(lines, container, column, index),
                }
            })
        } else {
            key(lines, container, column, segment)
        };
        here = here.and_then(|node| match node {
            serde_json::Value::Object(map) => map.get(segment.as_str()),
            serde_json::Value::Array(items) => segment.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        });
        if here.is_some() {
            push_segment(&mut prefix, segment);
        }
        match next {
            Some(Step::Found {
                line,
                column: key_column,
                value,
                block,
            }) => {
                let here = at(line, key_column, How::Key);
                found = Some(here);
                let last = depth + 1 == segments.len();
                match value {
                    // Anything deeper comes out of this line's action.
                    Value::Action if !last => {
                        return Mapped {
                            how: How::Action,
                            ..here
                        };
                    }
                    // A flow collection or scalar: deeper fields are on this line.
                    Value::Literal | Value::Block | Value::Action => return here,
                    Value::None => {}
                }
                container = block;
            }
            Some(Step::Action(line)) => return at(line, indent_of(lines, line), How::Action),
            None => return ancestor(found),
        }
    }
    found.unwrap_or(document_start)
}

enum Step {
    /// A key or item written literally: its line and column, the kind of its inline value,
    /// and the lines of its block.
    Found {
        line: usize,
        column: usize,
        value: Value,
        block: Container,
    },
    /// The field comes out of the action on this line.
    Action(usize),
}

/// The mapping entry `name` of `container`, whose keys sit at `column`.
fn key(lines: &[Line], container: Container, column: usize, name: &str) -> Option<Step> {
    for j in container.lo..container.hi {
        let Some(line) = lines.get(j) else { break };
        if !line.structural() || container.is_dash(lines, j) || container.column(lines, j) != Some(column) {
            continue;
        }
        if let Some((k, key_column)) = &line.key {
            if k == name {
                let end = block_end(lines, j, container.hi, *key_column, true);
                return Some(Step::Found {
                    line: j,
                    column: *key_column,
                    value: line.value,
                    block: Container {
                        lo: j + 1,
                        hi: end,
                        item: None,
                    },
                });
            }
        }
    }
    // Not written literally: an action among the entries writes it.
    (container.lo..container.hi)
        .find(|&j| writes_entries(lines, container, column, j))
        .map(Step::Action)
}

/// Item `index` of the sequence `container`, whose dashes sit at `column`. Items inside `if`
/// count as written; an action that writes items (`range`, `toYaml`, `include`) before the
/// wanted one makes the count unknowable, so the walk stops there.
fn item(lines: &[Line], container: Container, column: usize, index: usize) -> Option<Step> {
    let mut count = 0;
    for j in container.lo..container.hi {
        let Some(line) = lines.get(j) else { break };
        if writes_entries(lines, container, column, j) {
            // A `range` whose body is a literal item writes every item from here on with
            // that body: the walk goes on in it. Anything else is opaque.
            let body = (j + 1..container.hi).find(|&k| lines.get(k).is_some_and(Line::structural));
            return Some(match body {
                Some(k)
                    if line.action == Some(ActionKind::Range)
                        && lines.get(k).is_some_and(|l| l.dash == Some(column)) =>
                {
                    found_item(lines, container, column, k)
                }
                _ => Step::Action(j),
            });
        }
        if line.structural() && line.dash == Some(column) {
            if count == index {
                return Some(found_item(lines, container, column, j));
            }
            count += 1;
        }
    }
    None
}

/// The end of the list item on line `j` (dashes at `column`): its block, up to an action
/// that writes items of the list itself (indented to the dashes' column or left of it).
fn item_end(lines: &[Line], container: Container, column: usize, j: usize) -> usize {
    let end = block_end(lines, j, container.hi, column, false);
    (j + 1..end)
        .find(|&k| writes_items(lines, container, column, k))
        .unwrap_or(end)
}

/// The list item on line `j`, whose dash sits at `column`.
fn found_item(lines: &[Line], container: Container, column: usize, j: usize) -> Step {
    let end = item_end(lines, container, column, j);
    match lines.get(j).and_then(|l| l.key.as_ref()) {
        // `- name: x`: a mapping whose first key is on the item's line.
        Some(_) => Step::Found {
            line: j,
            column,
            value: Value::None,
            block: Container {
                lo: j,
                hi: end,
                item: Some(j),
            },
        },
        None => Step::Found {
            line: j,
            column,
            value: lines.get(j).map_or(Value::None, |l| l.value),
            block: Container {
                lo: j + 1,
                hi: end,
                item: None,
            },
        },
    }
}

/// Where the items of a template list come from, in the template's order.
#[derive(Clone, Debug)]
enum Slot {
    /// A literal item (`- name: x`) on this line; `conditional` when it sits inside an `if`,
    /// `with` or `range` of the list, so the rendered list may lack it.
    Literal { line: usize, conditional: bool },
    /// An action that writes any number of items (`include`, `toYaml`, a `range` whose body
    /// is not a literal item).
    Action(usize),
    /// A `range` whose body is literal items (on these lines): any number of copies.
    Range { body: Vec<usize> },
}

/// The end (exclusive) of the `range` that opens on line `j`: the line after the `end` that
/// closes it, or `hi`.
fn range_end(lines: &[Line], j: usize, hi: usize) -> usize {
    let mut depth = 0;
    for k in j..hi {
        depth += lines.get(k).map_or(0, |l| l.nesting);
        if depth <= 0 {
            return k + 1;
        }
    }
    hi
}

/// The slots of the list `container`, whose dashes sit at `column`.
fn slots(lines: &[Line], container: Container, column: usize) -> Vec<Slot> {
    let mut out = Vec::new();
    // Blocks opened since the list's start: an item inside one may be switched off.
    let mut depth = 0;
    let mut j = container.lo;
    while j < container.hi {
        let Some(line) = lines.get(j) else { break };
        if writes_items(lines, container, column, j) {
            if line.action == Some(ActionKind::Range) {
                let end = range_end(lines, j, container.hi);
                let body: Vec<usize> = (j + 1..end)
                    .filter(|&k| lines.get(k).is_some_and(|l| l.structural() && l.dash == Some(column)))
                    .collect();
                out.push(if body.is_empty() {
                    Slot::Action(j)
                } else {
                    Slot::Range { body }
                });
                depth += (j..end).map(|k| lines.get(k).map_or(0, |l| l.nesting)).sum::<i32>();
                j = end.max(j + 1);
                continue;
            }
            out.push(Slot::Action(j));
        } else if line.structural() && line.dash == Some(column) {
            out.push(Slot::Literal {
                line: j,
                conditional: depth != 0,
            });
            // The item's own lines, actions among them included, belong to it.
            let end = item_end(lines, container, column, j);
            depth += (j..end).map(|k| lines.get(k).map_or(0, |l| l.nesting)).sum::<i32>();
            j = end.max(j + 1);
            continue;
        }
        depth += line.nesting;
        j += 1;
    }
    out
}

/// A segment of a JSON pointer, escaped.
fn push_segment(path: &mut String, segment: &str) {
    path.push('/');
    path.push_str(&segment.replace('~', "~0").replace('/', "~1"));
}

/// What the template's literal item on line `j` writes: each key's path below the item
/// (list items as `*`) with its literal value where it has one (`None`: written by an
/// action, a block scalar or the lines below), and the key on the item's own line.
struct ItemText {
    fields: Vec<(String, Option<Literal>)>,
    first_key: Option<String>,
    /// The item is a scalar written literally (`- NET_ADMIN`).
    scalar: Option<Literal>,
}

/// A literal value as JSON (`None`: not one ra2 reads alone).
type Literal = Option<serde_json::Value>;

fn item_text(lines: &[Line], j: usize, end: usize) -> ItemText {
    let mut text = ItemText {
        fields: Vec::new(),
        first_key: None,
        scalar: None,
    };
    let Some(root) = lines.get(j).and_then(|l| l.dash) else {
        return text;
    };
    // (column, path, is a list item) of the enclosing keys and items.
    let mut stack: Vec<(usize, String, bool)> = vec![(root, String::new(), true)];
    for k in j..end {
        let Some(line) = lines.get(k).filter(|l| l.structural()) else {
            continue;
        };
        let literal = (line.value == Value::Literal).then(|| ra2_core::yaml_to_json(&line.text).ok());
        if let Some(dash) = line.dash.filter(|_| k != j) {
            while stack.len() > 1 && stack.last().is_some_and(|t| t.0 > dash || (t.2 && t.0 == dash)) {
                stack.pop();
            }
            let mut path = stack.last().map(|t| t.1.clone()).unwrap_or_default();
            path.push_str("/*");
            stack.push((dash, path.clone(), true));
            if line.key.is_none() {
                text.fields.push((path, literal.clone()));
            }
        }
        match &line.key {
            Some((key, key_column)) => {
                while stack.len() > 1 && stack.last().is_some_and(|t| t.0 >= *key_column) {
                    stack.pop();
                }
                let mut path = stack.last().map(|t| t.1.clone()).unwrap_or_default();
                push_segment(&mut path, key);
                if k == j {
                    text.first_key = Some(path.clone());
                }
                text.fields.push((path.clone(), literal));
                stack.push((*key_column, path, false));
            }
            None if k == j => text.scalar = literal,
            None => {}
        }
    }
    text
}

/// Every path of `value` (list items as `*`).
fn rendered_paths(value: &serde_json::Value, prefix: &mut String, out: &mut HashSet<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, child) in map {
                let len = prefix.len();
                push_segment(prefix, key);
                out.insert(prefix.clone());
                rendered_paths(child, prefix, out);
                prefix.truncate(len);
            }
        }
        serde_json::Value::Array(items) => {
            let len = prefix.len();
            prefix.push_str("/*");
            out.insert(prefix.clone());
            for child in items {
                rendered_paths(child, prefix, out);
            }
            prefix.truncate(len);
        }
        _ => {}
    }
}

/// How well the rendered `item` agrees with the template's literal item `text`: `None`
/// when the template cannot have written it (a literal value differs, the key on the item's
/// own line is missing, a scalar for a mapping); else more for each literal value found and
/// each key found.
fn agreement(text: &ItemText, (item, paths): (&serde_json::Value, &HashSet<String>)) -> Option<i64> {
    const BASE: i64 = 4;
    if let Some(scalar) = &text.scalar {
        return scalar
            .as_ref()
            .filter(|v| !item.is_object() && !item.is_array() && *v == item)
            .map(|_| BASE + 3);
    }
    if text.first_key.is_some() && !item.is_object() {
        return None;
    }
    if let Some(first) = &text.first_key {
        item.pointer(first)?;
    }
    let mut score = BASE;
    let mut seen: Vec<&str> = Vec::new();
    for (path, _) in &text.fields {
        if seen.contains(&path.as_str()) {
            continue;
        }
        seen.push(path);
        if paths.contains(path) {
            score += 1;
        }
        // A path outside lists whose every writer is literal: the rendered value is one of
        // them, or the template did not write this item.
        if path.contains("/*") {
            continue;
        }
        // Written by an action, or a literal ra2 cannot read alone: anything goes.
        let Some(literals) = text
            .fields
            .iter()
            .filter(|(p, _)| p == path)
            .map(|(_, v)| v.as_ref().and_then(Option::as_ref))
            .collect::<Option<Vec<&serde_json::Value>>>()
        else {
            continue;
        };
        let Some(rendered) = item.pointer(path) else { continue };
        if literals.contains(&rendered) {
            score += 3;
        } else {
            return None;
        }
    }
    Some(score)
}

/// Where a rendered list item comes from: the literal item (or `range` body item) on a line,
/// or the action on a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Item(usize),
    Action(usize),
}

/// The rendered list items aligned with their template list, by object, list lines and
/// rendered pointer (`None`: too long to align).
#[derive(Debug, Default)]
struct Alignments {
    object: Option<usize>,
    lists: HashMap<(usize, usize, String), Aligned>,
}

/// Each item's place, or `None` for a list too long to align ([`align`]).
type Aligned = Rc<Option<Vec<Option<Place>>>>;

/// A rendered list: its items, the number of the object it is in, its pointer, and the
/// alignments of that object's lists.
struct RenderedList<'a> {
    items: &'a [serde_json::Value],
    object: usize,
    prefix: &'a str,
    cache: &'a RefCell<Alignments>,
}

/// Item `index` of the rendered list `items` (at `prefix` of `object`), aligned with the
/// template list `container` by [`align`] once per list.
fn aligned_item(
    lines: &[Line],
    container: Container,
    column: usize,
    list: &RenderedList<'_>,
    index: usize,
) -> Option<Step> {
    let RenderedList {
        items,
        object,
        prefix,
        cache,
    } = *list;
    let key = (container.lo, container.hi, prefix.to_owned());
    let known = {
        let mut cache = cache.borrow_mut();
        if cache.object != Some(object) {
            cache.object = Some(object);
            cache.lists.clear();
        }
        cache.lists.get(&key).cloned()
    };
    let places = known.unwrap_or_else(|| {
        let places = Rc::new(align(lines, container, column, items));
        cache.borrow_mut().lists.insert(key, Rc::clone(&places));
        places
    });
    match &*places {
        None => item(lines, container, column, index),
        Some(places) => match places.get(index).copied().flatten()? {
            Place::Action(j) => Some(Step::Action(j)),
            Place::Item(k) => Some(found_item(lines, container, column, k)),
        },
    }
}

/// The rendered list `items` aligned with the template list `container` (dashes at `column`)
/// by content: the best order-keeping assignment of rendered items to the template's literal
/// items (each at most once, skipping those switched off), `range` bodies and item-writing
/// actions (any number each). An item that the best assignments give to different places
/// has none. `None` when the list is too long to be worth it.
fn align(
    lines: &[Line],
    container: Container,
    column: usize,
    items: &[serde_json::Value],
) -> Option<Vec<Option<Place>>> {
    /// Above this many cells the alignment is not worth its cost: items by index.
    const MAX_CELLS: usize = 1 << 16;
    /// What an item written by an action scores: less than any literal item.
    const ACTION: i64 = 1;
    /// Leaving out a literal item that no `if` switches off.
    const SKIP: i64 = -50;
    /// A rendered item that nothing in the template can have written (the template was
    /// edited since, or ra2 misread it): placed nowhere, so the others still are.
    const UNEXPLAINED: i64 = -100;
    let slots = slots(lines, container, column);
    let (n_items, n_slots) = (items.len(), slots.len());
    if (n_items + 1).saturating_mul(n_slots + 1) > MAX_CELLS {
        return None;
    }
    let texts: Vec<Vec<(usize, ItemText)>> = slots
        .iter()
        .map(|slot| {
            let item_lines: &[usize] = match slot {
                Slot::Literal { line, .. } => std::slice::from_ref(line),
                Slot::Range { body } => body,
                Slot::Action(_) => &[],
            };
            item_lines
                .iter()
                .map(|&k| (k, item_text(lines, k, item_end(lines, container, column, k))))
                .collect()
        })
        .collect();
    let paths: Vec<HashSet<String>> = items
        .iter()
        .map(|item| {
            let mut paths = HashSet::new();
            rendered_paths(item, &mut String::new(), &mut paths);
            paths
        })
        .collect();
    // score[i][s]: item i written by slot s (and by which of its lines).
    let score = |i: usize, s: usize| -> Option<(i64, usize)> {
        let item = (items.get(i)?, paths.get(i)?);
        match slots.get(s)? {
            Slot::Action(j) => Some((ACTION, *j)),
            _ => texts
                .get(s)?
                .iter()
                .filter_map(|(k, text)| agreement(text, item).map(|v| (v, *k)))
                .fold(None, |best: Option<(i64, usize)>, (v, k)| match best {
                    Some((b, _)) if b >= v => best,
                    _ => Some((v, k)),
                }),
        }
    };
    let scores: Vec<Vec<Option<(i64, usize)>>> = (0..n_items)
        .map(|i| (0..n_slots).map(|s| score(i, s)).collect())
        .collect();
    let cell = |i: usize, s: usize| scores.get(i).and_then(|r| r.get(s)).copied().flatten();
    let skip = |s: usize| match slots.get(s) {
        Some(Slot::Literal { conditional: false, .. }) => SKIP,
        _ => 0,
    };
    let repeats = |s: usize| !matches!(slots.get(s), Some(Slot::Literal { .. }));
    let width = n_slots + 1;
    let get = |t: &[Option<i64>], i: usize, s: usize| t.get(i * width + s).copied().flatten();
    // after[i][s]: the best score of items i.. from slots s.. .
    let mut after: Vec<Option<i64>> = vec![None; (n_items + 1) * width];
    for i in (0..=n_items).rev() {
        for s in (0..=n_slots).rev() {
            let mut best = (i == n_items && s == n_slots).then_some(0);
            if s < n_slots {
                best = best.max(get(&after, i, s + 1).map(|v| v + skip(s)));
                if let Some((v, _)) = cell(i, s) {
                    let next = if repeats(s) { s } else { s + 1 };
                    best = best.max(get(&after, i + 1, next).map(|rest| v + rest));
                }
            }
            if i < n_items {
                best = best.max(get(&after, i + 1, s).map(|rest| UNEXPLAINED + rest));
            }
            if let Some(slot) = after.get_mut(i * width + s) {
                *slot = best;
            }
        }
    }
    // before[i][s]: the best score of items ..i from slots ..s, standing at slot s.
    let mut before: Vec<Option<i64>> = vec![None; (n_items + 1) * width];
    if let Some(start) = before.get_mut(0) {
        *start = Some(0);
    }
    for i in 0..=n_items {
        for s in 0..=n_slots {
            let Some(here) = get(&before, i, s) else { continue };
            let mut raise = |i: usize, s: usize, v: i64| {
                if let Some(slot) = before.get_mut(i * width + s) {
                    *slot = (*slot).max(Some(v));
                }
            };
            if s < n_slots {
                raise(i, s + 1, here + skip(s));
                if let Some((v, _)) = cell(i, s) {
                    raise(i + 1, if repeats(s) { s } else { s + 1 }, here + v);
                }
            }
            if i < n_items {
                raise(i + 1, s, here + UNEXPLAINED);
            }
        }
    }
    let Some(best) = get(&after, 0, 0) else {
        // No assignment at all (every item may be unexplained, so never).
        return Some(vec![None; n_items]);
    };
    let place = |index: usize| {
        // The places item `index` has in the best assignments: none if it is unexplained in
        // one of them.
        let unexplained = (0..=n_slots).any(|s| {
            get(&before, index, s)
                .zip(get(&after, index + 1, s))
                .is_some_and(|(a, b)| a + UNEXPLAINED + b == best)
        });
        if unexplained {
            return None;
        }
        let mut places = (0..n_slots).filter_map(|s| {
            let (v, k) = cell(index, s)?;
            let next = if repeats(s) { s } else { s + 1 };
            (get(&before, index, s)? + v + get(&after, index + 1, next)? == best).then_some((s, k))
        });
        let (chosen, k) = places.next()?;
        if places.any(|(other, _)| other != chosen) {
            return None;
        }
        Some(match slots.get(chosen)? {
            Slot::Action(j) => Place::Action(*j),
            _ => Place::Item(k),
        })
    };
    Some((0..n_items).map(place).collect())
}

/// Maps `pointer` to a line of `template`: in the document picked by [`pick_document`] for
/// an object of `kind` that is the `ordinal`-th object of that kind rendered from this
/// template.
pub fn map(template: &str, kind: Option<&str>, ordinal: usize, pointer: &str) -> Mapped {
    Template::new(template).map(kind, ordinal, pointer, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(template: &str, pointer: &str) -> (usize, &'static str) {
        let m = map(template, None, 0, pointer);
        (m.line, m.how.as_str())
    }

    const DEPLOYMENT: &str = r#"{{- $name := include "cnf.fullname" . -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $name }}
  labels:
    {{- include "cnf.labels" . | nindent 4 }}
spec:
  replicas: {{ .Values.replicas }}
  template:
    spec:
      {{- with .Values.podSecurityContext }}
      securityContext:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      containers:
        - name: upf
          image: "{{ .Values.image }}"
          securityContext:
            privileged: {{ .Values.privileged }}
          resources:
{{ toYaml .Values.resources | indent 12 }}
          ports:
          {{- range .Values.ports }}
            - containerPort: {{ .port }}
          {{- end }}
      volumes:
        - name: config
          configMap:
            name: {{ $name }}
        {{- if .Values.hostPath.enabled }}
        - name: host
          hostPath:
            path: {{ .Values.hostPath.path }}
        {{- end }}
        {{- with .Values.extraVolumes }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
"#;

    #[test]
    fn literal_keys_map_to_their_line() {
        assert_eq!(
            line(
                DEPLOYMENT,
                "/spec/template/spec/containers/0/securityContext/privileged"
            ),
            (20, "key")
        );
        assert_eq!(line(DEPLOYMENT, "/spec/template/spec/volumes/1/hostPath"), (33, "key"));
        assert_eq!(
            line(DEPLOYMENT, "/spec/template/spec/volumes/1/hostPath/path"),
            (34, "key")
        );
        assert_eq!(line(DEPLOYMENT, "/spec/template/spec/containers/0/image"), (18, "key"));
        assert_eq!(line(DEPLOYMENT, "/spec/template/spec/containers/0"), (17, "key"));
        assert_eq!(line(DEPLOYMENT, "/spec/replicas"), (9, "key"));
        assert_eq!(line(DEPLOYMENT, "/kind"), (3, "key"));
        let m = map(
            DEPLOYMENT,
            None,
            0,
            "/spec/template/spec/containers/0/securityContext/privileged",
        );
        assert_eq!(m.column, 13);
    }

    #[test]
    fn fields_written_by_actions_map_to_the_action() {
        // toYaml under a literal key, with nindent or at column 0 with indent.
        assert_eq!(
            line(DEPLOYMENT, "/spec/template/spec/securityContext/runAsUser"),
            (14, "action")
        );
        assert_eq!(
            line(DEPLOYMENT, "/spec/template/spec/containers/0/resources/limits/cpu"),
            (22, "action")
        );
        // include at the level of the missing key.
        assert_eq!(line(DEPLOYMENT, "/metadata/labels/app"), (7, "action"));
        // A range writes the items with its body: the walk goes on in it.
        assert_eq!(
            line(DEPLOYMENT, "/spec/template/spec/containers/0/ports/1/containerPort"),
            (25, "key")
        );
        assert_eq!(
            line(DEPLOYMENT, "/spec/template/spec/containers/0/ports/3/protocol"),
            (25, "ancestor")
        );
        // A range over something other than literal items is opaque.
        let template =
            "kind: Pod\nspec:\n  containers:\n  {{- range .Values.c }}\n  {{- toYaml . | nindent 2 }}\n  {{- end }}\n";
        assert_eq!(line(template, "/spec/containers/0/image"), (4, "action"));
        // Items after the literal ones come from the toYaml of extra volumes.
        assert_eq!(
            line(DEPLOYMENT, "/spec/template/spec/volumes/2/hostPath"),
            (37, "action")
        );
    }

    #[test]
    fn absent_fields_map_to_the_deepest_ancestor_or_the_document() {
        assert_eq!(
            line(
                DEPLOYMENT,
                "/spec/template/spec/containers/0/securityContext/runAsNonRoot"
            ),
            (19, "ancestor")
        );
        assert_eq!(line(DEPLOYMENT, "/status/x"), (2, "document"));
        assert_eq!(line(DEPLOYMENT, ""), (2, "document"));
    }

    #[test]
    fn documents_are_picked_by_kind_and_ordinal() {
        let template = "apiVersion: v1\nkind: Service\nspec:\n  type: NodePort\n---\napiVersion: v1\nkind: Pod\nspec:\n  hostNetwork: true\n---\nkind: Pod\nspec:\n  hostPID: true\n";
        assert_eq!(map(template, Some("Pod"), 0, "/spec/hostNetwork").line, 9);
        assert_eq!(map(template, Some("Pod"), 1, "/spec/hostPID").line, 13);
        assert_eq!(map(template, Some("Pod"), 5, "/spec/hostPID").line, 13);
        assert_eq!(map(template, Some("Service"), 0, "/spec/type").line, 4);
        assert_eq!(map(template, Some("Job"), 1, "/spec").line, 8);
    }

    #[test]
    fn indentless_sequences_quoted_keys_and_block_scalars() {
        let template = "kind: Pod\nspec:\n  containers:\n  - name: a\n    args:\n    - |\n      privileged: true\n    \"securityContext\": {privileged: true}\n  - name: b\n    command: [sh]\n";
        assert_eq!(
            line(template, "/spec/containers/0/securityContext/privileged"),
            (8, "key")
        );
        assert_eq!(line(template, "/spec/containers/1/command/0"), (10, "key"));
        assert_eq!(line(template, "/spec/containers/0/args/0"), (6, "key"));
        assert_eq!(line(template, "/spec/containers/1"), (9, "key"));
    }

    #[test]
    fn actions_spanning_lines_keep_the_line_count() {
        let template = "{{/*\n a comment\n*/}}\nkind: Pod\nspec:\n  hostIPC: true\n";
        assert_eq!(line(template, "/spec/hostIPC"), (6, "key"));
        let template = "kind: Pod\nspec: {{ include \"x\"\n  . }}\n";
        assert_eq!(line(template, "/spec/hostIPC"), (2, "action"));
    }

    #[test]
    fn whole_documents_from_an_include_map_to_it() {
        let template = "{{- include \"cnf.pod\" . }}\n";
        assert_eq!(line(template, "/spec/hostIPC"), (1, "action"));
        assert_eq!(line("", "/spec"), (1, "document"));
        assert_eq!(line("{{ if }}\n: : [\n  - - -\n\t\"\n", "/a/0/b"), (2, "document"));
    }

    /// Maps `pointer` with the rendered object `rendered` (YAML).
    fn aligned(template: &str, rendered: &str, pointer: &str) -> (usize, &'static str) {
        let object = ra2_core::yaml_to_json(rendered).expect("rendered YAML");
        let m = Template::new(template).map(None, 0, pointer, Some((&object, 0)));
        (m.line, m.how.as_str())
    }

    const BITNAMI: &str = r#"kind: Deployment
spec:
  template:
    spec:
      initContainers:
        {{- if .Values.volumePermissions.enabled }}
        - name: volume-permissions
          securityContext:
            runAsUser: 0
        {{- end }}
        - name: wait
          image: busybox
        {{- include "x.init" . | nindent 8 }}
        - name: migrate
          securityContext:
            privileged: true
      containers:
        - name: app
          ports:
            - name: http
              containerPort: 8080
            {{- if .Values.metrics }}
            - name: metrics
              containerPort: 9090
            {{- end }}
            - name: admin
              containerPort: 8081
        {{- range .Values.sidecars }}
        - name: {{ .name }}
          image: {{ .image }}
        {{- end }}
        - name: debug
          securityContext:
            privileged: true
"#;

    const RENDERED: &str = r"kind: Deployment
spec:
  template:
    spec:
      initContainers:
        - name: wait
          image: busybox
        - name: tuning
          securityContext:
            privileged: true
        - name: migrate
          securityContext:
            privileged: true
      containers:
        - name: app
          ports:
            - name: http
              containerPort: 8080
            - name: admin
              containerPort: 8081
        - name: a
          image: a
        - name: b
          image: b
        - name: debug
          securityContext:
            privileged: true
";

    #[test]
    fn list_items_align_with_the_template_items_by_content() {
        let c = "/spec/template/spec/containers";
        let i = "/spec/template/spec/initContainers";
        // Behind a switched-off if: the first rendered item is the template's second.
        assert_eq!(aligned(BITNAMI, RENDERED, &format!("{i}/0/image")), (12, "key"));
        // From an include between literal items: the include; the literal item after it.
        assert_eq!(
            aligned(BITNAMI, RENDERED, &format!("{i}/1/securityContext/privileged")),
            (13, "action")
        );
        assert_eq!(
            aligned(BITNAMI, RENDERED, &format!("{i}/2/securityContext/privileged")),
            (16, "key")
        );
        // A field the literal item before an include lacks is not the include's.
        assert_eq!(
            aligned(BITNAMI, RENDERED, &format!("{i}/0/resources")),
            (11, "ancestor")
        );
        // After a switched-off item in the middle.
        assert_eq!(
            aligned(BITNAMI, RENDERED, &format!("{c}/0/ports/1/containerPort")),
            (27, "key")
        );
        // Items of a range, then a literal item.
        assert_eq!(aligned(BITNAMI, RENDERED, &format!("{c}/2/image")), (30, "key"));
        assert_eq!(
            aligned(BITNAMI, RENDERED, &format!("{c}/3/securityContext/privileged")),
            (34, "key")
        );
        // By index, as without the rendered object, the range would have taken it.
        assert_eq!(
            line(BITNAMI, &format!("{c}/3/securityContext/privileged")),
            (29, "ancestor")
        );
    }

    #[test]
    fn items_that_cannot_be_placed_stay_at_the_list() {
        // Two actions could each have written the item: neither is claimed.
        let template = "kind: Pod\nspec:\n  volumes:\n    - name: a\n      emptyDir: {}\n    {{- include \"x\" . | nindent 4 }}\n    {{- toYaml .Values.extra | nindent 4 }}\n";
        let rendered = "kind: Pod\nspec:\n  volumes:\n    - name: a\n      emptyDir: {}\n    - name: b\n      hostPath: {path: /}\n";
        assert_eq!(aligned(template, rendered, "/spec/volumes/1/hostPath"), (3, "ancestor"));
        assert_eq!(aligned(template, rendered, "/spec/volumes/0/emptyDir"), (5, "key"));
        // No template item can have written it (a literal value differs), and nothing else
        // writes items.
        let template = "kind: Pod\nspec:\n  volumes:\n    - name: a\n      emptyDir: {}\n";
        let rendered = "kind: Pod\nspec:\n  volumes:\n    - name: b\n      hostPath: {path: /}\n";
        assert_eq!(aligned(template, rendered, "/spec/volumes/0/hostPath"), (3, "ancestor"));
        // An item no template item can have written leaves the others in place.
        let template = "kind: Pod\nspec:\n  volumes:\n    - name: a\n      emptyDir: {}\n    - name: c\n      hostPath: {path: /}\n";
        let rendered = "kind: Pod\nspec:\n  volumes:\n    - name: a\n      emptyDir: {}\n    - name: b\n    - name: c\n      hostPath: {path: /}\n";
        assert_eq!(aligned(template, rendered, "/spec/volumes/2/hostPath"), (7, "key"));
        assert_eq!(aligned(template, rendered, "/spec/volumes/1"), (3, "ancestor"));
        // An include indented as the item's keys whose nindent puts its items in the list.
        let template = "kind: Pod\nspec:\n  volumes:\n    - name: a\n      emptyDir: {}\n      {{- include \"x\" . | nindent 4 }}\n";
        let rendered = "kind: Pod\nspec:\n  volumes:\n    - name: a\n      emptyDir: {}\n    - name: b\n      hostPath: {path: /}\n";
        assert_eq!(aligned(template, rendered, "/spec/volumes/1/hostPath"), (6, "action"));
        assert_eq!(aligned(template, rendered, "/spec/volumes/0/emptyDir"), (5, "key"));
        // Literal scalars: the item whose value it is.
        let template = "kind: Pod\nspec:\n  containers:\n    - name: a\n      securityContext:\n        capabilities:\n          add:\n            {{- if .Values.raw }}\n            - NET_RAW\n            {{- end }}\n            - NET_ADMIN\n";
        let rendered = "kind: Pod\nspec:\n  containers:\n    - name: a\n      securityContext:\n        capabilities:\n          add:\n            - NET_ADMIN\n";
        assert_eq!(
            aligned(
                template,
                rendered,
                "/spec/containers/0/securityContext/capabilities/add/0"
            ),
            (11, "key")
        );
    }
}
