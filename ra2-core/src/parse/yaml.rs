//! Block and flow YAML as Helm, kustomize and kubectl write it, read without libyaml.
//!
//! libyaml decodes its input character by character and copies every scalar; most of a corpus
//! run went there. This module reads the common shapes straight from the bytes and produces the
//! events libyaml produces for the same text (same values, spans and scalar styles), which
//! [`crate::parse::doc`] turns into the same tree through the same builder, as the JSON reader
//! ([`crate::parse::json`]) does for JSON.
//!
//! What it reads: one document per chunk (an optional `---` line first), block mappings and
//! sequences (indentless ones too), plain, single- and double-quoted scalars (all of libyaml's
//! escapes; a value in block context may go on over lines, a quoted one's continuation lines at
//! any indentation, as libyaml reads them), literal and folded block scalars (chomping and
//! indentation indicators), comments, and flow collections (on one line, or continued over
//! indented lines between their entries, without comments inside). Anything else (anchors,
//! aliases, tags, directives, `?` keys, keys or flow entries over several lines, tabs outside
//! scalars and comments, `...`, carriage returns, characters libyaml refuses or reads as line
//! breaks, keys near libyaml's 1024-character limit, nesting past the depth limit) makes it give
//! up, and the caller reads the whole chunk with libyaml as before.

use std::borrow::Cow;

use ra2_yaml::{Event, EventKind, Mark, Scalar, ScalarStyle};

/// A token's start: where it is and its column (`-1` at the end of the text).
#[derive(Clone, Copy, Debug)]
struct Tok {
    pos: usize,
    col: isize,
}

/// Where a node starts: on a line of its own, after `key:` or after `- ` on the same line.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    NextLine,
    AfterKey,
    AfterDash,
}

/// A key as read, up to its `:`.
struct Key<'s> {
    value: Cow<'s, str>,
    style: ScalarStyle,
    start: usize,
    end: usize,
    colon: usize,
}

/// libyaml forgets a possible simple key more than 1024 characters before its `:`.
const MAX_KEY: usize = 1000;

/// The deepest nesting read here, whatever the configured limit: the reader recurses, and a
/// deeper document (libyaml's path builds it without recursion) must not exhaust a worker
/// thread's stack.
const MAX_NESTING: usize = 512;

struct Reader<'s, F> {
    text: &'s str,
    /// Where the events go, one by one.
    sink: F,
    depth: usize,
    max_depth: usize,
}

fn mark(offset: usize) -> Mark {
    Mark {
        offset,
        line: 0,
        column: 0,
    }
}

fn col(pos: usize, line_start: usize) -> isize {
    isize::try_from(pos - line_start).unwrap_or(isize::MAX)
}

/// Whether the text has a byte libyaml would read differently from this reader: a control
/// character other than tab and line feed (a carriage return included), DEL, a C1 control
/// (NEL among them), U+2028/U+2029, a byte order mark, U+FFFE/U+FFFF.
fn clean(bytes: &[u8]) -> bool {
    // Nearly every byte is printable ASCII, a tab or a line feed: a block of those is passed
    // at once (the test of a whole block compiles to vector instructions, hence `&`, not `&&`),
    // and only a block with another byte is looked at byte by byte. A multi-byte sequence that
    // starts in such a block is read past its end, so nothing is missed at block edges.
    const BLOCK: usize = 32;
    let mut at = 0;
    for block in bytes.chunks(BLOCK) {
        #[allow(clippy::needless_bitwise_bool)]
        let plain = block.iter().fold(true, |all, &b| {
            all & ((b' '..=0x7e).contains(&b) | (b == b'\n') | (b == b'\t'))
        });
        if !plain && (at..at + block.len()).any(|i| refused(bytes, i)) {
            return false;
        }
        at += block.len();
    }
    true
}

/// Whether the byte at `i` starts something [`clean`] refuses.
fn refused(bytes: &[u8], i: usize) -> bool {
    match bytes.get(i).copied().unwrap_or(b' ') {
        b'\n' | b'\t' | b' '..=0x7e | 0x80..=0xc1 | 0xc3..=0xe1 | 0xe3..=0xee | 0xf0..=0xff => false,
        0xc2 => matches!(bytes.get(i + 1), Some(0x80..=0x9f)),
        0xe2 => bytes.get(i + 1) == Some(&0x80) && matches!(bytes.get(i + 2), Some(0xa8 | 0xa9)),
        0xef => matches!(
            (bytes.get(i + 1), bytes.get(i + 2)),
            (Some(0xbb), Some(0xbf)) | (Some(0xbf), Some(0xbe | 0xbf))
        ),
        _ => true,
    }
}

/// Reads `text`, giving `sink` the events libyaml produces for it, one by one; `None` where this
/// reader does not follow libyaml (the events given so far are then to be thrown away).
pub(crate) fn read<'s>(text: &'s str, max_depth: usize, sink: impl FnMut(Event<'s>)) -> Option<()> {
    if !clean(text.as_bytes()) {
        return None;
    }
    let mut reader = Reader {
        text,
        sink,
        depth: 0,
        max_depth: max_depth.min(MAX_NESTING),
    };
    reader.stream()
}

/// The events libyaml produces for `text`, or `None` where this reader does not follow it.
#[cfg(test)]
pub(crate) fn events(text: &str, max_depth: usize) -> Option<Vec<Event<'_>>> {
    let mut events = Vec::new();
    read(text, max_depth, |e| events.push(e))?;
    Some(events)
}

impl<'s, F: FnMut(Event<'s>)> Reader<'s, F> {
    fn byte(&self, at: usize) -> Option<u8> {
        self.text.as_bytes().get(at).copied()
    }

    fn len(&self) -> usize {
        self.text.len()
    }

    /// A space, tab, line break or the end of the text at `at`.
    fn blankz(&self, at: usize) -> bool {
        matches!(self.byte(at), None | Some(b' ' | b'\t' | b'\n'))
    }

    fn push(&mut self, kind: EventKind<'s>, start: usize, end: usize) {
        (self.sink)(Event {
            kind,
            start: mark(start),
            end: mark(end),
        });
    }

    fn scalar(&mut self, value: Cow<'s, str>, style: ScalarStyle, start: usize, end: usize) {
        self.push(
            EventKind::Scalar(Scalar {
                value,
                style,
                anchor: None,
                tag: None,
            }),
            start,
            end,
        );
    }

    fn eof(&self) -> Tok {
        Tok {
            pos: self.len(),
            col: -1,
        }
    }

    fn skip_spaces(&self, mut at: usize) -> usize {
        while self.byte(at) == Some(b' ') {
            at += 1;
        }
        at
    }

    /// Spaces, and the line breaks a flow collection may continue over: each next line
    /// indented (so no document marker) and going on with the collection, not blank and not a
    /// tab or a comment before it (those give up). Where the next token is.
    fn skip_flow_spaces(&self, at: usize) -> Option<usize> {
        let mut at = self.skip_spaces(at);
        while self.byte(at) == Some(b'\n') {
            let next = self.skip_spaces(at + 1);
            if next == at + 1 || matches!(self.byte(next), None | Some(b'\n' | b'\t' | b'#')) {
                return None;
            }
            at = next;
        }
        Some(at)
    }

    /// `---` or `...` at `at`, followed by a blank or the end.
    fn marker(&self, at: usize) -> Option<u8> {
        let three = self.text.as_bytes().get(at..at + 3)?;
        (matches!(three, b"---" | b"...") && self.blankz(at + 3)).then_some(three.first().copied().unwrap_or(0))
    }

    /// The first token at or after line start `line`, past blank and comment lines. A tab
    /// before it, or a document marker where `markers` is false, gives up.
    fn token_from_line(&self, mut line: usize, markers: bool) -> Option<Tok> {
        loop {
            let at = self.skip_spaces(line);
            match self.byte(at) {
                None => return Some(self.eof()),
                Some(b'\n') => line = at + 1,
                Some(b'#') => match memchr(b'\n', self.text.as_bytes(), at) {
                    Some(nl) => line = nl + 1,
                    None => return Some(self.eof()),
                },
                Some(b'\t') => return None,
                Some(_) => {
                    if at == line && !markers && self.marker(at).is_some() {
                        return None;
                    }
                    return Some(Tok {
                        pos: at,
                        col: col(at, line),
                    });
                }
            }
        }
    }

    /// After a token that ends at `at`: only spaces and a comment (after a space) may follow on
    /// its line; the next token.
    fn after_value(&self, at: usize) -> Option<Tok> {
        let nl = self.end_of_line(at)?;
        self.next_line_token(nl)
    }

    /// The line break (or end) that ends the line of `at`, if only spaces and a comment are
    /// left on it.
    fn end_of_line(&self, at: usize) -> Option<usize> {
        let rest = self.skip_spaces(at);
        match self.byte(rest) {
            None => Some(self.len()),
            Some(b'\n') => Some(rest),
            Some(b'#') if rest > at => Some(memchr(b'\n', self.text.as_bytes(), rest).unwrap_or(self.len())),
            _ => None,
        }
    }

    fn next_line_token(&self, nl: usize) -> Option<Tok> {
        if nl >= self.len() {
            return Some(self.eof());
        }
        self.token_from_line(nl + 1, false)
    }

    fn stream(&mut self) -> Option<()> {
        self.push(EventKind::StreamStart, 0, 0);
        let mut tok = self.token_from_line(0, true)?;
        let explicit = tok.col == 0 && self.marker(tok.pos).is_some();
        if explicit {
            if self.marker(tok.pos) != Some(b'-') {
                return None;
            }
            tok = self.after_value(tok.pos + 3)?;
        }
        let end = self.len();
        if tok.col < 0 && !explicit {
            self.push(EventKind::StreamEnd, end, end);
            return Some(());
        }
        self.push(EventKind::DocumentStart { explicit }, tok.pos, tok.pos);
        if tok.col < 0 {
            self.scalar(Cow::Borrowed(""), ScalarStyle::Plain, end, end);
        } else {
            let after = self.node(tok, -1, Place::NextLine)?;
            if after.col >= 0 {
                return None;
            }
        }
        self.push(EventKind::DocumentEnd, end, end);
        self.push(EventKind::StreamEnd, end, end);
        Some(())
    }

    /// A node starting at `tok`, inside a block collection at column `parent` (`-1` at the
    /// root); the next token after it.
    fn node(&mut self, tok: Tok, parent: isize, place: Place) -> Option<Tok> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return None;
        }
        let next = self.node_inner(tok, parent, place);
        self.depth -= 1;
        next
    }

    fn node_inner(&mut self, tok: Tok, parent: isize, place: Place) -> Option<Tok> {
        let p = tok.pos;
        match self.byte(p)? {
            b'-' if self.blankz(p + 1) => {
                if place == Place::AfterKey {
                    return None;
                }
                self.block_seq(tok, false)
            }
            b'[' | b'{' => {
                let end = self.flow(p)?;
                self.after_value(end)
            }
            b'|' | b'>' => self.block_scalar(p, parent),
            b'\'' | b'"' => {
                let (value, style, end, lines) = self.quoted(p, true)?;
                let colon = self.skip_spaces(end);
                if self.byte(colon) == Some(b':') && self.blankz(colon + 1) {
                    if place == Place::AfterKey || colon - p > MAX_KEY || lines {
                        return None;
                    }
                    return self.block_map(
                        tok,
                        Key {
                            value,
                            style,
                            start: p,
                            end,
                            colon,
                        },
                    );
                }
                self.scalar(value, style, p, end);
                self.after_value(end)
            }
            _ if self.plain_start(p) => {
                let (end, colon) = self.plain(p)?;
                if let Some(colon) = colon {
                    let value = Cow::Borrowed(self.text.get(p..end)?);
                    if place == Place::AfterKey || colon - p > MAX_KEY {
                        return None;
                    }
                    let style = ScalarStyle::Plain;
                    return self.block_map(
                        tok,
                        Key {
                            value,
                            style,
                            start: p,
                            end,
                            colon,
                        },
                    );
                }
                let (value, end) = self.plain_lines(p, end, parent)?;
                self.scalar(value, ScalarStyle::Plain, p, end);
                self.after_value(end)
            }
            _ => None,
        }
    }

    /// Whether a plain scalar may start at `at` (in block context; `?` and `:` starts give up).
    fn plain_start(&self, at: usize) -> bool {
        match self.byte(at) {
            Some(b'-') => !self.blankz(at + 1),
            None
            | Some(
                b'?' | b':' | b',' | b'[' | b']' | b'{' | b'}' | b'#' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\'' | b'"'
                | b'%' | b'@' | b'`' | b' ' | b'\t' | b'\n',
            ) => false,
            Some(_) => true,
        }
    }

    /// A single-line plain scalar in block context: where it ends, and the `:` after it if it
    /// is a key. A tab gives up.
    fn plain(&self, p: usize) -> Option<(usize, Option<usize>)> {
        let mut j = p;
        let mut end = p;
        loop {
            match self.byte(j) {
                None | Some(b'\n') => return Some((end, None)),
                Some(b':') if self.blankz(j + 1) => return Some((end, Some(j))),
                Some(b' ') => {
                    j = self.skip_spaces(j);
                    if self.byte(j) == Some(b'#') {
                        return Some((end, None));
                    }
                }
                Some(b'\t') => return None,
                Some(_) => {
                    j += 1;
                    end = j;
                }
            }
        }
    }

    /// A plain scalar value whose first line (from `p`) ends at `end`, with the lines that
    /// continue it (more indented than `parent`, as libyaml's `scan_plain_scalar` reads them):
    /// its value and where it ends.
    fn plain_lines(&self, p: usize, mut end: usize, parent: isize) -> Option<(Cow<'s, str>, usize)> {
        let mut folded: Option<String> = None;
        let mut nl = self.skip_spaces(end);
        while self.byte(nl) == Some(b'\n') {
            let mut j = nl;
            let mut breaks = 0;
            let line = loop {
                j += 1;
                breaks += 1;
                let line = j;
                j = self.skip_spaces(j);
                if self.byte(j) != Some(b'\n') {
                    break line;
                }
            };
            match self.byte(j) {
                None | Some(b'#') => break,
                Some(b'\t') => return None,
                Some(_) => {}
            }
            if col(j, line) <= parent {
                break;
            }
            if j == line && self.marker(j).is_some() {
                return None;
            }
            let (line_end, colon) = self.plain(j)?;
            if colon.is_some() {
                return None;
            }
            let s = match &mut folded {
                Some(s) => s,
                None => folded.insert(self.text.get(p..end)?.to_owned()),
            };
            if breaks == 1 {
                s.push(' ');
            } else {
                for _ in 1..breaks {
                    s.push('\n');
                }
            }
            s.push_str(self.text.get(j..line_end)?);
            end = line_end;
            nl = self.skip_spaces(end);
        }
        let value = match folded {
            Some(s) => Cow::Owned(s),
            None => Cow::Borrowed(self.text.get(p..end)?),
        };
        Some((value, end))
    }

    /// The key starting at `tok` (plain or quoted, then `:` and a blank).
    fn key_at(&self, tok: Tok) -> Option<Key<'s>> {
        let p = tok.pos;
        let (value, style, end, colon) = match self.byte(p)? {
            b'\'' | b'"' => {
                let (value, style, end, _) = self.quoted(p, false)?;
                (value, style, end, self.skip_spaces(end))
            }
            _ if self.plain_start(p) => {
                let (end, colon) = self.plain(p)?;
                (Cow::Borrowed(self.text.get(p..end)?), ScalarStyle::Plain, end, colon?)
            }
            _ => return None,
        };
        (self.byte(colon) == Some(b':') && self.blankz(colon + 1) && colon - p <= MAX_KEY).then_some(Key {
            value,
            style,
            start: p,
            end,
            colon,
        })
    }

    fn block_map(&mut self, tok: Tok, first: Key<'s>) -> Option<Tok> {
        let m = tok.col;
        self.push(
            EventKind::MappingStart {
                anchor: None,
                tag: None,
                flow: false,
            },
            tok.pos,
            tok.pos,
        );
        let mut key = first;
        loop {
            self.scalar(key.value, key.style, key.start, key.end);
            let next = self.value_after(key.colon + 1, m, true)?;
            if next.col == m {
                key = self.key_at(next)?;
                continue;
            }
            if next.col > m {
                return None;
            }
            self.push(EventKind::MappingEnd, next.pos, next.pos);
            return Some(next);
        }
    }

    /// The value after an indicator (`:` or `-`) that ends at `at`, in a block collection at
    /// column `indent`; the next token after it.
    fn value_after(&mut self, at: usize, indent: isize, in_map: bool) -> Option<Tok> {
        let q = self.skip_spaces(at);
        match self.byte(q) {
            None | Some(b'\n' | b'#') => {
                let nl = self.end_of_line(at)?;
                let next = self.next_line_token(nl)?;
                if next.col > indent {
                    return self.node(next, indent, Place::NextLine);
                }
                if in_map && next.col == indent && self.byte(next.pos) == Some(b'-') && self.blankz(next.pos + 1) {
                    return self.block_seq(next, true);
                }
                self.scalar(Cow::Borrowed(""), ScalarStyle::Plain, at, at);
                Some(next)
            }
            Some(b'\t') => None,
            Some(_) => {
                let (place, column) = if in_map {
                    (Place::AfterKey, -1)
                } else {
                    // Only `-` and spaces lie between the dash and `q`.
                    (Place::AfterDash, indent + col(q, at) + 1)
                };
                self.node(Tok { pos: q, col: column }, indent, place)
            }
        }
    }

    /// A block sequence whose first `-` is at `tok` (indentless: at its mapping's column).
    fn block_seq(&mut self, tok: Tok, indentless: bool) -> Option<Tok> {
        let s = tok.col;
        let start_end = if indentless { tok.pos + 1 } else { tok.pos };
        self.push(
            EventKind::SequenceStart {
                anchor: None,
                tag: None,
                flow: false,
            },
            tok.pos,
            start_end,
        );
        let mut dash = tok;
        loop {
            let next = self.value_after(dash.pos + 1, s, false)?;
            if next.col == s && self.byte(next.pos) == Some(b'-') && self.blankz(next.pos + 1) {
                dash = next;
                continue;
            }
            if next.col > s || (next.col == s && !indentless) {
                return None;
            }
            self.push(EventKind::SequenceEnd, next.pos, next.pos);
            return Some(next);
        }
    }
}

/// The first `byte` in `bytes` at or after `from`.
fn memchr(byte: u8, bytes: &[u8], from: usize) -> Option<usize> {
    bytes.get(from..)?.iter().position(|&b| b == byte).map(|i| from + i)
}

/// A block scalar's state while its lines are read (libyaml's `scan_block_scalar`).
struct Block {
    indent: isize,
    trailing: usize,
    end: usize,
    line: usize,
}

impl<'s, F: FnMut(Event<'s>)> Reader<'s, F> {
    /// libyaml's `scan_block_scalar_breaks`: from `at` (a line start or the end), skips
    /// indentation and empty lines; where the next content is.
    fn breaks(&self, mut at: usize, block: &mut Block, parent: isize) -> Option<usize> {
        let mut max_indent = 0;
        block.end = at;
        block.line = at;
        loop {
            while (block.indent == 0 || col(at, block.line) < block.indent) && self.byte(at) == Some(b' ') {
                at += 1;
            }
            max_indent = max_indent.max(col(at, block.line));
            if (block.indent == 0 || col(at, block.line) < block.indent) && self.byte(at) == Some(b'\t') {
                return None;
            }
            if self.byte(at) != Some(b'\n') {
                break;
            }
            at += 1;
            block.trailing += 1;
            block.line = at;
            block.end = at;
        }
        if block.indent == 0 {
            block.indent = max_indent.max(parent + 1).max(1);
        }
        Some(at)
    }

    /// A block scalar whose indicator is at `p`, in a block collection at column `parent`.
    fn block_scalar(&mut self, p: usize, parent: isize) -> Option<Tok> {
        let literal = self.byte(p) == Some(b'|');
        let mut i = p + 1;
        let mut chomp = 0i8;
        let mut increment = 0isize;
        for _ in 0..2 {
            match self.byte(i) {
                Some(b'+') if chomp == 0 => chomp = 1,
                Some(b'-') if chomp == 0 => chomp = -1,
                Some(d @ b'1'..=b'9') if increment == 0 => increment = isize::from(d - b'0'),
                Some(b'0') => return None,
                _ => break,
            }
            i += 1;
        }
        while matches!(self.byte(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        if self.byte(i) == Some(b'#') {
            i = memchr(b'\n', self.text.as_bytes(), i).unwrap_or(self.len());
        }
        match self.byte(i) {
            None => {}
            Some(b'\n') => i += 1,
            Some(_) => return None,
        }
        let mut block = Block {
            indent: if increment == 0 {
                0
            } else if parent >= 0 {
                parent + increment
            } else {
                increment
            },
            trailing: 0,
            end: i,
            line: i,
        };
        let mut string = String::new();
        let mut leading_break = false;
        let mut leading_blank = false;
        i = self.breaks(i, &mut block, parent)?;
        while col(i, block.line) == block.indent && i < self.len() {
            let trailing_blank = matches!(self.byte(i), Some(b' ' | b'\t'));
            if !literal && leading_break && !leading_blank && !trailing_blank {
                if block.trailing == 0 {
                    string.push(' ');
                }
            } else if leading_break {
                string.push('\n');
            }
            leading_break = false;
            for _ in 0..block.trailing {
                string.push('\n');
            }
            block.trailing = 0;
            leading_blank = trailing_blank;
            let eol = memchr(b'\n', self.text.as_bytes(), i).unwrap_or(self.len());
            string.push_str(self.text.get(i..eol)?);
            i = eol;
            if i < self.len() {
                i += 1;
                leading_break = true;
            }
            i = self.breaks(i, &mut block, parent)?;
        }
        if chomp != -1 && leading_break {
            string.push('\n');
        }
        if chomp == 1 {
            for _ in 0..block.trailing {
                string.push('\n');
            }
        }
        let style = if literal {
            ScalarStyle::Literal
        } else {
            ScalarStyle::Folded
        };
        self.scalar(Cow::Owned(string), style, p, block.end);
        self.token_from_line(block.line, false)
    }

    /// A quoted scalar whose opening quote is at `p`: its value, style, end (after the closing
    /// quote) and whether it spans lines. It may span lines only where `spans_lines` (a value
    /// in block context); its continuation lines may be indented less than its key, even not at
    /// all, as libyaml reads them (a NetworkAttachmentDefinition's config written as quoted
    /// JSON ends with `}'` at the start of a line), but not start with a document marker.
    fn quoted(&self, p: usize, spans_lines: bool) -> Option<(Cow<'s, str>, ScalarStyle, usize, bool)> {
        let single = self.byte(p) == Some(b'\'');
        let mut j = p + 1;
        let mut owned: Option<String> = None;
        let mut segment = j;
        let mut lines = false;
        loop {
            match self.byte(j) {
                None => return None,
                Some(b' ' | b'\t' | b'\n') => {
                    let blanks = j;
                    while matches!(self.byte(j), Some(b' ' | b'\t')) {
                        j += 1;
                    }
                    if self.byte(j) != Some(b'\n') {
                        continue;
                    }
                    // Trailing blanks go, and the line break folds.
                    let s = owned.get_or_insert_with(String::new);
                    s.push_str(self.text.get(segment..blanks)?);
                    let breaks = spans_lines.then(|| self.quoted_breaks(&mut j)).flatten()?;
                    if breaks == 1 {
                        s.push(' ');
                    } else {
                        for _ in 1..breaks {
                            s.push('\n');
                        }
                    }
                    segment = j;
                    lines = true;
                }
                Some(b'\'') if single => {
                    if self.byte(j + 1) != Some(b'\'') {
                        break;
                    }
                    owned
                        .get_or_insert_with(String::new)
                        .push_str(self.text.get(segment..=j)?);
                    j += 2;
                    segment = j;
                }
                Some(b'"') if !single => break,
                Some(b'\\') if !single && self.byte(j + 1) == Some(b'\n') => {
                    // An escaped line break: no space; empty lines after it are line feeds.
                    let s = owned.get_or_insert_with(String::new);
                    s.push_str(self.text.get(segment..j)?);
                    j += 1;
                    let breaks = spans_lines.then(|| self.quoted_breaks(&mut j)).flatten()?;
                    for _ in 1..breaks {
                        s.push('\n');
                    }
                    segment = j;
                    lines = true;
                }
                Some(b'\\') if !single => {
                    let s = owned.get_or_insert_with(String::new);
                    s.push_str(self.text.get(segment..j)?);
                    let (c, len) = self.escape(j)?;
                    s.push(c);
                    j += len;
                    segment = j;
                }
                Some(_) => j += 1,
            }
        }
        let value = match owned {
            None => Cow::Borrowed(self.text.get(p + 1..j)?),
            Some(mut s) => {
                s.push_str(self.text.get(segment..j)?);
                Cow::Owned(s)
            }
        };
        let style = if single {
            ScalarStyle::SingleQuoted
        } else {
            ScalarStyle::DoubleQuoted
        };
        Some((value, style, j + 1, lines))
    }

    /// From the line break at `*j`, the line breaks and leading spaces up to the next content
    /// of a quoted scalar (no document marker): how many line breaks there were.
    fn quoted_breaks(&self, j: &mut usize) -> Option<usize> {
        let mut breaks = 0;
        loop {
            *j += 1;
            breaks += 1;
            let line = *j;
            *j = self.skip_spaces(*j);
            match self.byte(*j) {
                Some(b'\n') => {}
                None | Some(b'\t') => return None,
                Some(_) => {
                    if *j == line && self.marker(*j).is_some() {
                        return None;
                    }
                    return Some(breaks);
                }
            }
        }
    }

    /// The escape whose `\` is at `j`: the character and the escape's length. An escaped line
    /// break gives up (the scalar spans lines), and so does anything libyaml refuses.
    fn escape(&self, j: usize) -> Option<(char, usize)> {
        let c = match self.byte(j + 1)? {
            b'0' => '\0',
            b'a' => '\x07',
            b'b' => '\x08',
            b't' | b'\t' => '\t',
            b'n' => '\n',
            b'v' => '\x0b',
            b'f' => '\x0c',
            b'r' => '\r',
            b'e' => '\x1b',
            b' ' => ' ',
            b'"' => '"',
            b'/' => '/',
            b'\\' => '\\',
            b'N' => '\u{85}',
            b'_' => '\u{a0}',
            b'L' => '\u{2028}',
            b'P' => '\u{2029}',
            b'x' => return self.hex_escape(j, 2),
            b'u' => return self.hex_escape(j, 4),
            b'U' => return self.hex_escape(j, 8),
            _ => return None,
        };
        Some((c, 2))
    }

    fn hex_escape(&self, j: usize, digits: usize) -> Option<(char, usize)> {
        let hex = self.text.as_bytes().get(j + 2..j + 2 + digits)?;
        if !hex.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        let value = u32::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
        Some((char::from_u32(value)?, 2 + digits))
    }

    /// A flow collection whose opening bracket is at `p`, on one line or continued over indented
    /// lines between its entries (a trailing comma allowed, as libyaml allows it); where it
    /// ends. A key and its value stay on one line.
    fn flow(&mut self, p: usize) -> Option<usize> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return None;
        }
        let map = self.byte(p) == Some(b'{');
        let (open, close_kind, close) = if map {
            (
                EventKind::MappingStart {
                    anchor: None,
                    tag: None,
                    flow: true,
                },
                EventKind::MappingEnd,
                b'}',
            )
        } else {
            (
                EventKind::SequenceStart {
                    anchor: None,
                    tag: None,
                    flow: true,
                },
                EventKind::SequenceEnd,
                b']',
            )
        };
        self.push(open, p, p + 1);
        let mut i = self.skip_flow_spaces(p + 1)?;
        if self.byte(i) != Some(close) {
            loop {
                if map {
                    let (value, style, end) = self.flow_scalar(i, true)?;
                    self.scalar(value, style, i, end);
                    let colon = self.skip_spaces(end);
                    if self.byte(colon) != Some(b':') || self.byte(colon + 1) != Some(b' ') || colon - i > MAX_KEY {
                        return None;
                    }
                    i = self.skip_spaces(colon + 1);
                }
                let after = self.flow_item(i)?;
                i = self.skip_flow_spaces(after)?;
                match self.byte(i) {
                    Some(b',') => {
                        i = self.skip_flow_spaces(i + 1)?;
                        if self.byte(i) == Some(close) {
                            break;
                        }
                    }
                    Some(c) if c == close => break,
                    _ => return None,
                }
            }
        }
        self.push(close_kind, i, i + 1);
        self.depth -= 1;
        Some(i + 1)
    }

    fn flow_item(&mut self, i: usize) -> Option<usize> {
        match self.byte(i)? {
            b'[' | b'{' => self.flow(i),
            _ => {
                let (value, style, end) = self.flow_scalar(i, false)?;
                self.scalar(value, style, i, end);
                Some(end)
            }
        }
    }

    /// A quoted or plain scalar inside a flow collection; a plain key ends before `: `.
    fn flow_scalar(&self, i: usize, key: bool) -> Option<(Cow<'s, str>, ScalarStyle, usize)> {
        match self.byte(i)? {
            b'\'' | b'"' => return self.quoted(i, false).map(|(value, style, end, _)| (value, style, end)),
            b'-' if matches!(self.byte(i + 1), Some(b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' | b'.')) => {}
            b'-' => return None,
            _ if !self.plain_start(i) => return None,
            _ => {}
        }
        let mut j = i;
        let mut end = i;
        loop {
            match self.byte(j) {
                None | Some(b'\n' | b'[' | b'{' | b'?' | b'\t') => return None,
                Some(b',' | b']' | b'}') => break,
                Some(b':') => {
                    if key && self.byte(j + 1) == Some(b' ') {
                        break;
                    }
                    return None;
                }
                Some(b' ') => {
                    j = self.skip_spaces(j);
                    if self.byte(j) == Some(b'#') {
                        return None;
                    }
                }
                Some(_) => {
                    j += 1;
                    end = j;
                }
            }
        }
        Some((Cow::Borrowed(self.text.get(i..end)?), ScalarStyle::Plain, end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The block-wise [`clean`] refuses exactly what a byte-by-byte look refuses, with the
        /// refused sequences (split or whole) at every place in and across blocks.
        #[test]
        fn clean_looks_at_every_byte(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    &b"a: b"[..], b"\n", b"\t", b" ", b"\r", b"\x7f", b"\x01", b"\xc2\x85", b"\xc2\xa0", b"\xc2",
                    b"\xe2\x80\xa8", b"\xe2\x80\xa9", b"\xe2\x80\xa0", b"\xe2", b"\xef\xbb\xbf", b"\xef\xbf\xbe",
                    b"\xef\xbf\xbd", b"\xc3\xa9", b"0123456789abcdef0123456789abcde",
                ]),
                0..60,
            )
        ) {
            let bytes = parts.concat();
            let bytewise = (0..bytes.len()).all(|i| !refused(&bytes, i));
            proptest::prop_assert_eq!(clean(&bytes), bytewise);
        }
    }

    /// The events with what the builder reads of them: kind, value, style and span (stream and
    /// document events carry no span the builder reads).
    pub(crate) fn strip(es: &[Event<'_>]) -> Vec<String> {
        es.iter()
            .map(|e| match &e.kind {
                EventKind::Scalar(s) => format!(
                    "scalar {:?} {:?} {:?} {}..{}",
                    s.value, s.style, s.tag, e.start.offset, e.end.offset
                ),
                EventKind::StreamStart | EventKind::StreamEnd | EventKind::DocumentEnd => format!("{:?}", e.kind),
                EventKind::DocumentStart { explicit } => format!("doc {explicit}"),
                EventKind::MappingStart { anchor, tag, .. } | EventKind::SequenceStart { anchor, tag, .. } => {
                    let kind = if matches!(e.kind, EventKind::MappingStart { .. }) {
                        "map"
                    } else {
                        "seq"
                    };
                    format!("{kind} {anchor:?} {tag:?} {}", e.start.offset)
                }
                EventKind::MappingEnd | EventKind::SequenceEnd => format!("end {}", e.end.offset),
                EventKind::Alias { anchor } => format!("alias {anchor}"),
            })
            .collect()
    }

    /// Our events equal libyaml's where we read the text; returns whether we did.
    pub(crate) fn same_as_libyaml(text: &str) -> bool {
        let Some(ours) = events(text, 256) else {
            return false;
        };
        let theirs: Result<Vec<Event<'_>>, _> = ra2_yaml::Parser::new(text).collect();
        let theirs = theirs.unwrap_or_else(|e| panic!("{text:?}: we read what libyaml refuses ({e})"));
        assert_eq!(strip(&ours), strip(&theirs), "{text:?}");
        true
    }

    #[test]
    fn events_match_libyaml() {
        let read = [
            "a: 1\n",
            "a: 1",
            "---\na: b\n",
            "# c\n---\n# d\na:\n  b: c # x\n  d: 'e''f'\n  g: \"h\\ti\\u00e9\\x41\"\n",
            "a:\n- 1\n- 2\nb: 3\n",
            "a:\n  - 1\n  -\n  - x: 1\n    y: 2\n  - - a\n    - b\nc: d\n",
            "a: |\n  foo\n  bar\n\nb: >-\n  x\n  y\n\n  z\n   w\nc: |+\n  k\n\n\n",
            "a: |2\n    two\n  one\n",
            "a: [1, 'b', \"c\", {d: e, f: [g]}]\nb: {}\nc: []\n",
            "a:\nb:\n",
            "- a\n- b: c\n  d: e\n",
            "---\n",
            "# only\n",
            "",
            "plain",
            "  a: 1\n  b: 2\n",
            "a: b\n\n# trailing\n",
            "a: |\n  x\n# c\nb: 1",
            "a: >\n  x\n  \n  y\n",
            "key with spaces: value with spaces and colons:in\n",
            "url: http://x.y/z#frag\n",
            "a :  b  \n",
            "k: -1\nl: -x\n",
            "a:\n  - |\n    x\n  - y\n",
            "a: |-\n\n  x\n\n",
            "a: \"\"\nb: ''\n",
            "ключ: значение\n",
            "|\n x\n",
            "a: b\n  c\n\n   d  \n  # e\nf: 1\n",
            "- b\n  c - d\n- 'x\n\n   y  z '\n- \"p\\\n  q \\\n\n  r\\t\n  s\"\n",
            "a: 'it''s\n  long'\nb:\n  c\n  d\n",
            "plain\nroot\n",
            // Flow collections continued over lines, trailing commas.
            "a: [1,\n 2]\n",
            "a: [1, 2, ]\nb: {c: d, }\n",
            "args: [\n    \"-x\", \"/a\",\n    \"-y\",\n  ]\nnext: 1\n",
            "a:\n  b: [1,\n 2]\n  c: 3\n",
            "- [a,\n   b]\n- {c: d,\n   e: [f,\n     g]}\n",
            "[1,\n 2]\n",
            // Quoted scalars continued at or left of their parent's indentation.
            "spec:\n  config: '{\n  \"type\": \"sriov\",\n  \"name\": \"n\"\n}'\n",
            "a: 'x\ny'\nb: 1\n",
            "- \"a\nb\"\n- c\n",
            "a:\n  b: 'x\n  y'\n  c: d\n",
            "a: 'b\nc'\n",
            "a:\n- 'x\ny'\n- \"p\n  \\\n q\"\nb: 'm\n\n n'\n",
        ];
        for text in read {
            assert!(same_as_libyaml(text), "{text:?} was not read");
        }
        let given_up = [
            "a: &x 1\nb: *x\n",
            "a: !!str 1\n",
            "%YAML 1.1\n---\na: 1\n",
            "'a\n  b': c\n",
            "a: [x, 'y\n z']\n",
            "a: 'x\n---\ny'\n",
            "a: b\n  c: d\n",
            "? a\n: b\n",
            "a:\tb\n",
            "a: 1\r\nb: 2\r\n",
            "a: [1,\n2]\n",
            "a: [1, # one\n 2]\n",
            "a: [1,\n\n 2]\n",
            "a: [1,\n\t2]\n",
            "a: [x\n y]\n",
            "a: {b:\n 1}\n",
            "a: 1\n...\n",
            &"- ".repeat(600),
        ];
        for text in given_up {
            assert!(!same_as_libyaml(text), "{text:?} was read");
        }
    }
}
