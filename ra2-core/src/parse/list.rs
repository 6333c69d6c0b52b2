//! `kind: List` documents item by item. `kubectl get ... -o json|yaml` writes a whole cluster
//! as one List document; the API server's size limit is per object, and so is ra2's: a List's
//! items are found line by line, without reading the document, and each item is read and
//! linted on its own, so memory is bounded by the largest item and the limit applies per item.
//!
//! [`ListSplitter`] is fed the lines of one `---` section and says where the List's header
//! ends, where each item starts and ends, and where the trailer (the keys after `items`)
//! begins. It splits only when the header shows a List before the items: `apiVersion: v1`
//! (kubectl's `kind: List`, whose `kind` comes after its items) or a kind ending in `List`;
//! anything else is read whole, as any document. What it cannot split exactly (flow-style
//! items, a YAML document that is not a block mapping) is left whole as well.

/// A cut in a List section, in absolute byte offsets of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// The items start here; the text before is the List's header.
    ItemsStart(usize),
    /// One item: its bytes, the 0-based line of its first byte, and the characters before it
    /// on that line (JSON items may start mid-line).
    Item {
        start: usize,
        end: usize,
        line: usize,
        column: usize,
    },
    /// The items ended; the trailer (the List's keys after `items`) starts at this byte, on
    /// this 0-based line, after this many characters of it.
    ItemsEnd { at: usize, line: usize, column: usize },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Before `items`.
    Header,
    /// YAML: after `items:`, waiting for the first `- ` line.
    AwaitItems,
    Items,
    Trailer,
    /// Not a List that can be split: read whole.
    Whole,
}

/// An item being read: where it started.
#[derive(Clone, Copy, Debug)]
struct Open {
    start: usize,
    line: usize,
    column: usize,
}

/// Finds the items of a `kind: List` section line by line (see the module documentation).
#[derive(Debug)]
#[allow(clippy::struct_excessive_bools)] // a byte scanner's flags
pub struct ListSplitter {
    json: bool,
    state: State,
    api_version: Option<String>,
    kind: Option<String>,
    /// Lines fed so far.
    lines: usize,
    /// Where the text fed so far ends: 0-based line and characters on it.
    end: (usize, usize),
    /// YAML: the indentation of the items' `- `.
    indent: usize,
    open: Option<Open>,
    // JSON scanner state.
    depth: usize,
    in_string: bool,
    escape: bool,
    /// The text of the string being read at depth 1 (short strings only).
    string: Option<String>,
    /// The last complete string at depth 1 and whether it was a value.
    key: Option<String>,
    awaiting_value: bool,
    /// The key whose value is being read at depth 1.
    value_of: Option<String>,
    /// JSON: the first byte of the section was seen.
    started: bool,
    /// JSON: the open item is a container (else a scalar, which ends at `,`/`]`/space).
    container: bool,
}

/// Longest key or value the JSON scanner keeps (`apiVersion`, `kind`, `items` and their values).
const SHORT: usize = 256;

impl ListSplitter {
    /// A splitter for a section of a JSON file (`json`) or a YAML one.
    pub fn new(json: bool) -> Self {
        ListSplitter {
            json,
            state: State::Header,
            api_version: None,
            kind: None,
            lines: 0,
            end: (0, 0),
            indent: 0,
            open: None,
            depth: 0,
            in_string: false,
            escape: false,
            string: None,
            key: None,
            awaiting_value: false,
            value_of: None,
            started: false,
            container: false,
        }
    }

    /// True once the section is known not to be a splittable List: the caller reads it whole.
    pub fn is_whole(&self) -> bool {
        self.state == State::Whole
    }

    /// True once the items started (the section is being split).
    pub fn is_split(&self) -> bool {
        matches!(self.state, State::Items | State::Trailer)
    }

    /// Feeds the next line of the section (with its line break), which starts at absolute byte
    /// `offset` and 0-based line `line` of the file; appends the cuts it completes to `out`.
    pub fn feed(&mut self, text: &[u8], offset: usize, line: usize, out: &mut Vec<Cut>) {
        let first = self.lines == 0;
        self.lines += 1;
        self.end = if text.ends_with(b"\n") || text.ends_with(b"\r") {
            (line + 1, 0)
        } else {
            (line, chars_before(text, text.len()))
        };
        match self.state {
            State::Whole | State::Trailer => {}
            _ if self.json => self.feed_json(text, offset, line, out),
            _ => self.feed_yaml(text, offset, line, first, out),
        }
    }

    /// Ends the section at absolute byte `end`: closes an item still open.
    pub fn finish(&mut self, end: usize, out: &mut Vec<Cut>) {
        if self.state == State::Items {
            self.close(end, out);
            out.push(Cut::ItemsEnd {
                at: end,
                line: self.end.0,
                column: self.end.1,
            });
            self.state = State::Trailer;
        }
    }

    /// Does the header say List, before the items? `apiVersion` must come first (a kustomize or
    /// plugin config is never split); `kind` decides when it is there, else `v1` does: kubectl's
    /// `kind: List` is written after its items.
    fn header_is_list(&self) -> bool {
        let Some(api) = self.api_version.as_deref() else {
            return false;
        };
        if api == "builtin" || api.starts_with("kustomize.config.k8s.io/") {
            return false;
        }
        match self.kind.as_deref() {
            Some(kind) => is_list_kind(kind),
            None => api == "v1",
        }
    }

    fn close(&mut self, end: usize, out: &mut Vec<Cut>) {
        if let Some(open) = self.open.take() {
            out.push(Cut::Item {
                start: open.start,
                end,
                line: open.line,
                column: open.column,
            });
        }
    }

    fn feed_yaml(&mut self, text: &[u8], offset: usize, line: usize, first: bool, out: &mut Vec<Cut>) {
        let content = trim_line_break(text);
        let indent = content.iter().take_while(|&&b| b == b' ').count();
        let rest = content.get(indent..).unwrap_or_default();
        let blank = rest.iter().all(u8::is_ascii_whitespace) || rest.first() == Some(&b'#');
        match self.state {
            State::Header => {
                if first && content.starts_with(b"---") {
                    // The document start marker; anything after it (a flow collection, a
                    // scalar) is read whole.
                    if !is_blank_or_comment(content.get(3..).unwrap_or_default()) {
                        self.state = State::Whole;
                    }
                    return;
                }
                if blank || indent > 0 {
                    return;
                }
                let Some((key, value)) = yaml_entry(rest) else {
                    self.state = State::Whole;
                    return;
                };
                match key.as_str() {
                    "items" if value.is_empty() => self.state = State::AwaitItems,
                    "items" => self.state = State::Whole,
                    "kind" => self.kind = Some(value),
                    "apiVersion" => self.api_version = Some(value),
                    _ => {}
                }
            }
            State::AwaitItems => {
                if blank {
                    return;
                }
                if is_dash(rest) && self.header_is_list() {
                    self.state = State::Items;
                    self.indent = indent;
                    out.push(Cut::ItemsStart(offset));
                    self.open = Some(Open {
                        start: offset,
                        line,
                        column: 0,
                    });
                } else {
                    self.state = State::Whole;
                }
            }
            State::Items => {
                if blank || indent > self.indent {
                    return;
                }
                self.close(offset, out);
                if indent == self.indent && is_dash(rest) {
                    self.open = Some(Open {
                        start: offset,
                        line,
                        column: 0,
                    });
                } else {
                    out.push(Cut::ItemsEnd {
                        at: offset,
                        line,
                        column: 0,
                    });
                    self.state = State::Trailer;
                }
            }
            State::Trailer | State::Whole => {}
        }
    }

    fn feed_json(&mut self, text: &[u8], offset: usize, line: usize, out: &mut Vec<Cut>) {
        // Columns counted once along the line: a List written on one line (the API server's
        // compact JSON) opens every item on it.
        let mut columns = Columns {
            line: text,
            at: 0,
            chars: 0,
        };
        for (i, &b) in text.iter().enumerate() {
            if matches!(self.state, State::Whole | State::Trailer) {
                return;
            }
            let at = offset + i;
            if self.in_string {
                if self.escape {
                    self.escape = false;
                } else if b == b'\\' {
                    self.escape = true;
                } else if b == b'"' {
                    self.in_string = false;
                    self.end_string();
                    if self.state == State::Items && self.depth == 2 {
                        // A string item.
                        self.close(at + 1, out);
                    }
                    continue;
                }
                if let Some(s) = self.string.as_mut() {
                    if s.len() < SHORT {
                        s.push(char::from(b));
                    } else {
                        self.string = None;
                    }
                }
                continue;
            }
            if self.state == State::Items && self.depth == 2 {
                // Between items, or in a scalar item.
                if self.open.is_some() && !self.container {
                    if matches!(b, b',' | b']') || b.is_ascii_whitespace() {
                        self.close(at, out);
                    } else {
                        continue;
                    }
                }
                match b {
                    b',' => continue,
                    b']' => {
                        self.depth = 1;
                        out.push(Cut::ItemsEnd {
                            at,
                            line,
                            column: columns.of(i),
                        });
                        self.state = State::Trailer;
                        return;
                    }
                    _ if b.is_ascii_whitespace() => continue,
                    _ => {
                        self.container = matches!(b, b'{' | b'[');
                        self.open = Some(Open {
                            start: at,
                            line,
                            column: columns.of(i),
                        });
                        if b == b'"' {
                            self.in_string = true;
                            self.string = None;
                        } else if self.container {
                            self.depth = 3;
                        }
                        continue;
                    }
                }
            }
            match b {
                b'"' => {
                    self.in_string = true;
                    self.string = (self.depth == 1).then(String::new);
                }
                b'{' | b'[' => {
                    if !self.started {
                        self.started = true;
                        if b != b'{' {
                            self.state = State::Whole;
                            return;
                        }
                        self.depth = 1;
                        continue;
                    }
                    if self.depth == 1 && self.awaiting_value {
                        self.awaiting_value = false;
                        if self.value_of.as_deref() == Some("items") {
                            if b == b'[' && self.header_is_list() {
                                self.depth = 2;
                                self.state = State::Items;
                                out.push(Cut::ItemsStart(at + 1));
                                continue;
                            }
                            self.state = State::Whole;
                            return;
                        }
                    }
                    self.depth += 1;
                }
                b'}' | b']' => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.state == State::Items && self.depth == 2 && self.container {
                        self.close(at + 1, out);
                    }
                    if self.depth == 0 {
                        // The document ended before any items.
                        self.state = State::Whole;
                        return;
                    }
                }
                b':' if self.depth == 1 => {
                    self.value_of = self.key.take();
                    self.awaiting_value = true;
                }
                b',' if self.depth == 1 => {
                    self.value_of = None;
                    self.awaiting_value = false;
                }
                _ if b.is_ascii_whitespace() => {}
                _ => {
                    if !self.started {
                        self.state = State::Whole;
                        return;
                    }
                    if self.depth == 1 {
                        // A number, `true`, `null`...: a value that is not a string.
                        self.awaiting_value = false;
                    }
                }
            }
        }
    }

    /// A string at depth 1 ended: a key, or the value of `kind` / `apiVersion`.
    fn end_string(&mut self) {
        if self.depth != 1 {
            return;
        }
        let text = self.string.take();
        if self.awaiting_value {
            self.awaiting_value = false;
            match self.value_of.as_deref() {
                Some("kind") => self.kind = Some(text.unwrap_or_default()),
                Some("apiVersion") => self.api_version = Some(text.unwrap_or_default()),
                Some("items") => self.state = State::Whole,
                _ => {}
            }
        } else {
            self.key = text;
        }
    }
}

/// `List`, `PodList`, ...: the kinds whose `items` are objects (as [`crate::Linter`] judges).
pub fn is_list_kind(kind: &str) -> bool {
    kind == "List" || kind.ends_with("List")
}

fn trim_line_break(text: &[u8]) -> &[u8] {
    let text = text.strip_suffix(b"\n").unwrap_or(text);
    text.strip_suffix(b"\r").unwrap_or(text)
}

fn is_blank_or_comment(text: &[u8]) -> bool {
    let rest = text.trim_ascii_start();
    rest.is_empty() || rest.first() == Some(&b'#')
}

/// A block sequence entry: `- ...`, or `-` alone.
fn is_dash(rest: &[u8]) -> bool {
    rest.first() == Some(&b'-') && matches!(rest.get(1), None | Some(b' ' | b'\t' | b'\r' | b'\n'))
}

/// Characters (not bytes) before byte `i` of `line`.
/// The character columns of one line, counted from left to right once however many are asked
/// in increasing order (asking before the last one counts again from the start).
struct Columns<'t> {
    line: &'t [u8],
    at: usize,
    chars: usize,
}

impl Columns<'_> {
    fn of(&mut self, i: usize) -> usize {
        if i < self.at {
            self.at = 0;
            self.chars = 0;
        }
        self.chars += chars_before(self.line.get(self.at..).unwrap_or_default(), i - self.at);
        self.at = i;
        self.chars
    }
}

fn chars_before(line: &[u8], i: usize) -> usize {
    line.get(..i)
        .unwrap_or_default()
        .iter()
        .filter(|&&b| b & 0xC0 != 0x80)
        .count()
}

/// A top-level YAML entry `key: value` (plain, single- or double-quoted key), with the value's
/// text as written (quotes removed, a trailing comment dropped); `None` for anything else.
fn yaml_entry(rest: &[u8]) -> Option<(String, String)> {
    let text = std::str::from_utf8(rest).ok()?;
    let first = text.chars().next()?;
    let (key, after) = if let quote @ ('"' | '\'') = first {
        let body = text.get(1..)?;
        let close = body.find(quote)?;
        let key = body.get(..close)?;
        if key.contains(['\\', quote]) {
            return None;
        }
        (key, body.get(close + 1..)?.strip_prefix(':')?)
    } else {
        let colon = text.find(": ").or_else(|| {
            text.trim_end()
                .strip_suffix(':')
                .map(str::len)
                .filter(|_| !text.trim_end().contains(": "))
        })?;
        (text.get(..colon)?, text.get(colon + 1..)?)
    };
    if key.is_empty() || key.starts_with(['-', '?', '[', '{', '&', '*', '!', '|', '>', '%', '@', '`', '#']) {
        return None;
    }
    if !after.is_empty() && !after.starts_with([' ', '\t']) {
        return None;
    }
    let value = after.trim();
    let value = match value.find(" #") {
        Some(i) => value.get(..i).unwrap_or_default().trim_end(),
        None if value.starts_with('#') => "",
        None => value,
    };
    let value = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
        .unwrap_or(value);
    Some((key.trim_end().to_owned(), value.to_owned()))
}

/// The cuts of a whole section (`text`, at absolute `offset` and 0-based line `line`), or
/// `None` when it is not split (see [`ListSplitter`]).
pub fn split(text: &str, offset: usize, line: usize, json: bool) -> Option<Vec<Cut>> {
    // Most documents are not Lists: only those that say `items` are looked at.
    if !text.contains("items") {
        return None;
    }
    let mut splitter = ListSplitter::new(json);
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut pos = 0;
    let mut n = line;
    while pos < bytes.len() && !splitter.is_whole() {
        let (_, next) = crate::parse::source::line_end(bytes, pos);
        splitter.feed(bytes.get(pos..next).unwrap_or_default(), offset + pos, n, &mut out);
        if matches!(splitter.state, State::Trailer) {
            break;
        }
        pos = next;
        n += 1;
    }
    splitter.finish(offset + bytes.len(), &mut out);
    splitter.is_split().then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(text: &str, json: bool) -> Option<(Vec<&str>, &str, &str)> {
        let cuts = split(text, 0, 0, json)?;
        let mut items = Vec::new();
        let mut header = "";
        let mut trailer = "";
        for cut in cuts {
            match cut {
                Cut::ItemsStart(at) => header = &text[..at],
                Cut::Item { start, end, .. } => items.push(&text[start..end]),
                Cut::ItemsEnd { at, .. } => trailer = &text[at..],
            }
        }
        Some((items, header, trailer))
    }

    /// Items of a List written on one line get the columns a count from the line's start gives
    /// (multi-byte characters count once), however many there are.
    #[test]
    fn one_line_json_items_have_their_columns() {
        let text = "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[{\"a\":\"é\"}, {\"b\":\"ü\"},{\"c\":1}]}";
        let cuts = split(text, 0, 0, true).unwrap();
        let columns: Vec<(usize, usize)> = cuts
            .iter()
            .filter_map(|cut| match cut {
                Cut::Item { start, column, .. } => Some((*start, *column)),
                Cut::ItemsEnd { at, column, .. } => Some((*at, *column)),
                Cut::ItemsStart(_) => None,
            })
            .collect();
        for (at, column) in columns {
            assert_eq!(column, text[..at].chars().count(), "at {at}");
        }
        let mut cursor = Columns {
            line: "aé b".as_bytes(),
            at: 0,
            chars: 0,
        };
        assert_eq!(
            (cursor.of(4), cursor.of(1), cursor.of(5)),
            (3, 1, 4),
            "asking back counts again"
        );
    }

    #[test]
    fn kubectl_yaml_list() {
        let text = "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: a\n# between\n- apiVersion: v1\n  kind: Pod\n  data: |\n    - not an item\nkind: List\nmetadata:\n  resourceVersion: \"\"\n";
        let (items, header, trailer) = pieces(text, false).unwrap();
        assert_eq!(header, "apiVersion: v1\nitems:\n");
        assert_eq!(
            items,
            [
                "- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: a\n# between\n",
                "- apiVersion: v1\n  kind: Pod\n  data: |\n    - not an item\n"
            ]
        );
        assert_eq!(trailer, "kind: List\nmetadata:\n  resourceVersion: \"\"\n");
    }

    #[test]
    fn indented_items_and_kind_first() {
        let text = "---\n# Source: x\nkind: PodList\napiVersion: example.com/v1\nitems:\n  - a: 1\n  -\n    b: 2\n";
        let (items, header, trailer) = pieces(text, false).unwrap();
        assert_eq!(
            header,
            "---\n# Source: x\nkind: PodList\napiVersion: example.com/v1\nitems:\n"
        );
        assert_eq!(items, ["  - a: 1\n", "  -\n    b: 2\n"]);
        assert_eq!(trailer, "");
    }

    #[test]
    fn not_split() {
        for text in [
            "apiVersion: v1\nkind: Pod\nitems:\n- a\n",
            "apiVersion: example.com/v1\nitems:\n- a\nkind: FooList\n",
            "kind: List\nitems:\n- a\napiVersion: v1\n",
            "apiVersion: v1\nitems: [a, b]\nkind: List\n",
            "apiVersion: v1\nitems:\n  a: b\nkind: List\n",
            "apiVersion: kustomize.config.k8s.io/v1\nkind: ItemList\nitems:\n- a\n",
            "--- {apiVersion: v1, items: [a]}\n",
        ] {
            assert!(split(text, 0, 0, false).is_none(), "{text}");
        }
        for text in [
            "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"items\": [1]}",
            "[{\"apiVersion\": \"v1\", \"items\": [1]}]",
            "{\"apiVersion\": \"v1\", \"items\": {}}",
            "{\"apiVersion\": \"example.com/v1\", \"items\": [1], \"kind\": \"List\"}",
        ] {
            assert!(split(text, 0, 0, true).is_none(), "{text}");
        }
    }

    #[test]
    fn kubectl_json_list() {
        let text = "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {\n            \"kind\": \"Pod\",\n            \"x\": \"a]}\\\"\"\n        },\n        {\"kind\": \"Pod\"}\n    ],\n    \"kind\": \"List\"\n}\n";
        let cuts = split(text, 10, 5, true).unwrap();
        let item = |c: &Cut| match *c {
            Cut::Item {
                start,
                end,
                line,
                column,
            } => Some((&text[start - 10..end - 10], line, column)),
            _ => None,
        };
        let items: Vec<_> = cuts.iter().filter_map(item).collect();
        assert_eq!(
            items,
            [
                (
                    "{\n            \"kind\": \"Pod\",\n            \"x\": \"a]}\\\"\"\n        }",
                    8,
                    8
                ),
                ("{\"kind\": \"Pod\"}", 12, 8)
            ]
        );
        let Some(&Cut::ItemsEnd { at, line, column }) = cuts.last() else {
            panic!()
        };
        assert_eq!(&text[at - 10..], "],\n    \"kind\": \"List\"\n}\n");
        assert_eq!((line, column), (13, 4));
        let Some(Cut::ItemsStart(start)) = cuts.first() else {
            panic!()
        };
        assert_eq!(&text[..start - 10], "{\n    \"apiVersion\": \"v1\",\n    \"items\": [");
    }

    #[test]
    fn compact_json_with_scalars_and_a_cut_off_end() {
        let text = "{\"kind\":\"List\",\"apiVersion\":\"v1\",\"items\":[1, \"x\" ,{\"a\":[]},[2]";
        let (items, _, trailer) = pieces(text, true).unwrap();
        assert_eq!(items, ["1", "\"x\"", "{\"a\":[]}", "[2]"]);
        assert_eq!(trailer, "");
    }
}
