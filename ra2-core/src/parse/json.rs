//! JSON straight into the document tree.
//!
//! Admission requests, `kubectl get -o json` output and `.json` files are JSON, which is
//! (almost) a subset of YAML: libyaml reads them, but slowly (most of a decision's time went
//! there). This module reads strict JSON itself and produces the same events libyaml produces
//! for the same text (same spans, same scalar styles), which [`crate::parse::doc`] turns into the same
//! tree through the same builder: duplicate keys, limits and pointers cannot drift apart.
//!
//! Where libyaml reads a text differently from a JSON parser, the YAML path stays the truth:
//! anything this reader is not sure of (invalid JSON, a tab outside the value, a key more than
//! 1000 bytes before its `:` or on another line, surrogate escapes, characters libyaml treats as
//! line breaks or refuses) makes it give up, and the caller reads the chunk with libyaml as
//! before. Giving up is cheap: it happens before any tree is kept.

// The string scan and the tree builder's steps are inlined into the one loop that reads a
// document: measured, a third fewer instructions per admission request than calls.
#![allow(clippy::inline_always)]

use std::borrow::Cow;

use std::collections::HashMap;

use ra2_yaml::{Error, Mark, ScalarStyle};
#[cfg(test)]
use ra2_yaml::{Event, EventKind, Scalar};

use crate::parse::doc::{AliasSite, Children, Entry, Int, Item, Node, NodeId, Problem, Value as DocValue};
use crate::parse::scalar::{Resolved, resolve_json};
use crate::parse::source::Span;

/// The bytes [`JsonEvents::string`] must look at: the closing quote, escapes, what libyaml
/// refuses or reads as a line break (controls, DEL), and the first bytes of the UTF-8
/// sequences it treats specially (U+0080..U+009F, U+2028/U+2029, U+FEFF, U+FFFE/U+FFFF).
static STRING_STOP: [bool; 256] = string_stop();

/// Whether [`JsonEvents::string`] must look at byte `b` ([`STRING_STOP`]).
fn stops(b: u8) -> bool {
    STRING_STOP.get(usize::from(b)).copied().unwrap_or(true)
}

// Evaluated at compile time only: an index out of range would be a build error, not a panic.
#[allow(clippy::indexing_slicing)]
const fn string_stop() -> [bool; 256] {
    let mut stop = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        stop[b] = true;
        b += 1;
    }
    stop[b'"' as usize] = true;
    stop[b'\\' as usize] = true;
    stop[0x7f] = true;
    stop[0xc2] = true;
    stop[0xe2] = true;
    stop[0xef] = true;
    stop
}

/// The bytes of eight (read little-endian) that may be one of [`STRING_STOP`]'s, each as its
/// high bit: a control, `"`, `\\`, DEL or any byte from 0x80 (the classic bit tricks: a byte
/// below 0x20, a byte equal to one given). A trick may also flag a byte after a flagged one,
/// never before: the lowest flag is exact.
#[inline(always)]
fn look_mask(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    let below_space = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
    let special = zero_byte(word ^ (ONES * u64::from(b'"')))
        | zero_byte(word ^ (ONES * u64::from(b'\\')))
        | zero_byte(word ^ (ONES * 0x7f));
    below_space | special | (word & HIGHS)
}

/// The string of `text` whose opening quote is at `quote`: its content, where it ends (after
/// its closing quote), and whether it has a byte from 0x80. `None` where libyaml might read it
/// differently. A free function returning plain values, not a method writing the reader's
/// fields: the loop that calls it keeps its cursor in a register. Without `keep`, a string
/// with escapes is only checked: its content is left empty.
#[inline(always)]
fn scan_string(text: &str, quote: usize, keep: bool) -> Option<(Cow<'_, str>, usize, bool)> {
    let bytes = text.as_bytes();
    let start = quote + 1;
    let mut i = start;
    let mut non_ascii = false;
    loop {
        // Most bytes need no look: skip them eight at a time up to the first that may.
        let b = loop {
            if let Some(word) = bytes.get(i..i + 8) {
                let mask = look_mask(u64::from_le_bytes(word.try_into().unwrap_or([0; 8])));
                if mask == 0 {
                    i += 8;
                    continue;
                }
                i += (mask.trailing_zeros() / 8) as usize;
            } else {
                while bytes.get(i).is_some_and(|&b| b < 0x80 && !stops(b)) {
                    i += 1;
                }
            }
            break bytes.get(i).copied()?;
        };
        match b {
            b'"' => return Some((Cow::Borrowed(text.get(start..i)?), i + 1, non_ascii)),
            b'\\' => {
                let (value, end, escaped_non_ascii) = escaped_string(text, start, i, keep)?;
                return Some((Cow::Owned(value), end, non_ascii | escaped_non_ascii));
            }
            b if stops(b) => check_stop(bytes, i)?,
            _ => {}
        }
        non_ascii = true;
        i += 1;
    }
}

/// The first byte from `i` on that may be one of [`STRING_STOP`]'s or from 0x80 (or the end of
/// `bytes`): most bytes need no look, and are skipped eight at a time.
#[inline(always)]
fn next_look(bytes: &[u8], mut i: usize) -> usize {
    while let Some(word) = bytes.get(i..i + 8) {
        let mask = look_mask(u64::from_le_bytes(word.try_into().unwrap_or([0; 8])));
        if mask != 0 {
            return i + (mask.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while bytes.get(i).is_some_and(|&b| b < 0x80 && !stops(b)) {
        i += 1;
    }
    i
}

/// The rest of a string of `text` that starts at `start` and has an escape at `i`: its
/// unescaped content (empty without `keep`: then it is only checked), where it ends (after
/// its closing quote), and whether it has a byte from 0x80.
#[cold]
fn escaped_string(text: &str, start: usize, mut i: usize, keep: bool) -> Option<(String, usize, bool)> {
    let bytes = text.as_bytes();
    let mut s = String::new();
    if keep {
        // The content is at most as long as the text up to the closing quote.
        let mut end = i;
        loop {
            end = next_look(bytes, end);
            match bytes.get(end) {
                Some(b'"') | None => break,
                Some(b'\\') => end += 2,
                Some(_) => end += 1,
            }
        }
        s.reserve_exact(end - start);
    }
    let mut run = start;
    let mut non_ascii = false;
    loop {
        i = next_look(bytes, i);
        let &b = bytes.get(i)?;
        match b {
            b'"' => {
                if keep {
                    s.push_str(text.get(run..i)?);
                }
                return Some((s, i + 1, non_ascii));
            }
            b'\\' => {
                if keep {
                    s.push_str(text.get(run..i)?);
                }
                let esc = bytes.get(i + 1).copied()?;
                i += 2;
                let c = match esc {
                    b'u' => {
                        let hex = text.get(i..i + 4)?;
                        if !hex.bytes().all(|h| h.is_ascii_hexdigit()) {
                            return None;
                        }
                        let code = u32::from_str_radix(hex, 16).ok()?;
                        i += 4;
                        // libyaml refuses surrogate escapes (even paired ones).
                        char::from_u32(code)?
                    }
                    _ => short_escape(esc)?,
                };
                if keep {
                    s.push(c);
                }
                run = i;
            }
            _ => {
                check_stop(bytes, i)?;
                non_ascii = true;
                i += 1;
            }
        }
    }
}

/// A stop byte at `i` in a string other than `"` and `\\`: an error for what libyaml refuses
/// or reads as a line break (controls, DEL, U+0080..U+009F, U+2028/U+2029, U+FEFF,
/// U+FFFE/U+FFFF), nothing for the other characters those bytes start.
fn check_stop(bytes: &[u8], i: usize) -> Option<()> {
    let next = |n: usize| bytes.get(i + n).copied();
    let refused = match bytes.get(i).copied() {
        Some(0..=0x1f | 0x7f) | None => true,
        Some(0xc2) => matches!(next(1), Some(0x80..=0x9f)),
        Some(0xe2) => next(1) == Some(0x80) && matches!(next(2), Some(0xa8 | 0xa9)),
        Some(0xef) => matches!(
            (next(1), next(2)),
            (Some(0xbb), Some(0xbf)) | (Some(0xbf), Some(0xbe | 0xbf))
        ),
        Some(_) => false,
    };
    if refused { None } else { Some(()) }
}

/// libyaml forgets a possible simple key more than 1024 characters before its `:`; stay well
/// inside that.
const MAX_KEY_DISTANCE: usize = 1000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))] // the events are the tests' reference; see [`JsonEvents::tree`]
enum State {
    StreamStart,
    DocumentStart,
    /// A value is expected (the root, after `:` or after `,` in a sequence).
    Value,
    /// Just after `{`: a key or `}`.
    FirstKey,
    /// After `,` in a mapping: a key.
    Key,
    /// Just after `[`: a value or `]`.
    FirstItem,
    /// After a complete value: `,`, a closing bracket, or the end of the document.
    Next,
    StreamEnd,
    Done,
}

/// libyaml-shaped events for one chunk of strict JSON (optionally opened by a bare `---`
/// line). Yields an error, and then nothing, as soon as the text is not JSON it can vouch for.
pub(crate) struct JsonEvents<'s> {
    text: &'s str,
    pos: usize,
    /// A line break (`\n` or `\r`) was read.
    breaks: bool,
    /// One entry per open collection: true for a mapping.
    #[cfg_attr(not(test), allow(dead_code))]
    stack: Vec<bool>,
    #[cfg_attr(not(test), allow(dead_code))]
    state: State,
}

fn mark(offset: usize) -> Mark {
    Mark {
        offset,
        line: 0,
        column: 0,
    }
}

#[cfg(test)]
fn event(kind: EventKind<'_>, start: usize, end: usize) -> Event<'_> {
    Event {
        kind,
        start: mark(start),
        end: mark(end),
    }
}

fn give_up(at: usize) -> Error {
    Error {
        problem: "not strict JSON".to_owned(),
        mark: mark(at),
        context: None,
        context_mark: None,
    }
}

impl<'s> JsonEvents<'s> {
    pub(crate) fn new(text: &'s str) -> Self {
        JsonEvents {
            text,
            pos: 0,
            breaks: false,
            stack: Vec::new(),
            state: State::StreamStart,
        }
    }

    fn bytes(&self) -> &'s [u8] {
        self.text.as_bytes()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes().get(self.pos).copied()
    }

    /// Skips JSON whitespace inside the root value. Returns whether a line break was crossed.
    #[cfg(test)]
    fn skip_ws(&mut self) -> bool {
        let mut newline = false;
        while let Some(b) = self.peek() {
            match b {
                b' ' | b'\t' => {}
                b'\r' => self.breaks = true,
                b'\n' => {
                    newline = true;
                    self.breaks = true;
                }
                _ => break,
            }
            self.pos += 1;
        }
        newline
    }

    /// Skips whitespace outside the root value, where libyaml refuses tabs in places.
    #[inline(always)]
    fn skip_outer_ws(&mut self) -> Result<(), Error> {
        while let Some(b) = self.peek() {
            match b {
                b' ' => self.pos += 1,
                b'\r' | b'\n' => {
                    self.breaks = true;
                    self.pos += 1;
                }
                b'\t' => return Err(give_up(self.pos)),
                _ => break,
            }
        }
        Ok(())
    }

    /// A `---` line with nothing else on it, as a chunk after the first starts.
    #[inline(always)]
    fn skip_document_marker(&mut self) -> bool {
        let Some(rest) = self.text.strip_prefix("---") else {
            return false;
        };
        let line = rest.split('\n').next().unwrap_or_default();
        if rest.len() == line.len() || !line.bytes().all(|b| b == b' ' || b == b'\r') {
            return false;
        }
        self.pos = 3 + line.len() + 1;
        self.breaks = true;
        true
    }

    #[cfg(test)]
    /// A string starting at the `"` under the cursor; returns its content.
    #[inline(always)]
    fn string(&mut self) -> Option<Cow<'s, str>> {
        let (value, end, _) = scan_string(self.text, self.pos, true)?;
        self.pos = end;
        Some(value)
    }

    /// A number, `true`, `false` or `null` under the cursor, as libyaml's plain scalar.
    #[inline(always)]
    fn plain(&mut self) -> Option<&'s str> {
        let bytes = self.bytes();
        let start = self.pos;
        let end = start
            + bytes
                .get(start..)
                .unwrap_or_default()
                .iter()
                .position(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b',' | b']' | b'}'))
                .unwrap_or(bytes.len() - start);
        let word = self.text.get(start..end)?;
        if !(matches!(word, "true" | "false" | "null") || is_json_number(word.as_bytes())) {
            return None;
        }
        self.pos = end;
        Some(word)
    }

    #[cfg(test)]
    /// The event of the value under the cursor.
    fn value(&mut self) -> Result<Event<'s>, Error> {
        let start = self.pos;
        match self.peek() {
            Some(b'{') => {
                self.push(true)?;
                self.pos += 1;
                self.state = State::FirstKey;
                Ok(event(
                    EventKind::MappingStart {
                        anchor: None,
                        tag: None,
                        flow: true,
                    },
                    start,
                    self.pos,
                ))
            }
            Some(b'[') => {
                self.push(false)?;
                self.pos += 1;
                self.state = State::FirstItem;
                Ok(event(
                    EventKind::SequenceStart {
                        anchor: None,
                        tag: None,
                        flow: true,
                    },
                    start,
                    self.pos,
                ))
            }
            _ if self.stack.is_empty() => Err(give_up(start)),
            Some(b'"') => {
                let value = self.string().ok_or_else(|| give_up(start))?;
                self.state = State::Next;
                Ok(scalar(value, ScalarStyle::DoubleQuoted, start, self.pos))
            }
            _ => {
                let word = self.plain().ok_or_else(|| give_up(start))?;
                self.state = State::Next;
                Ok(scalar(Cow::Borrowed(word), ScalarStyle::Plain, start, self.pos))
            }
        }
    }

    #[cfg(test)]
    fn push(&mut self, map: bool) -> Result<(), Error> {
        // The builder refuses deep nesting long before this; the bound keeps the stack small
        // when it is not in the way.
        if self.stack.len() > 4096 {
            return Err(give_up(self.pos));
        }
        self.stack.push(map);
        Ok(())
    }

    /// A key and its `:`.
    #[cfg(test)]
    fn key(&mut self) -> Result<Event<'s>, Error> {
        let (value, start, end) = self.key_text().ok_or_else(|| give_up(self.pos))?;
        self.state = State::Value;
        Ok(scalar(value, ScalarStyle::DoubleQuoted, start, end))
    }

    #[cfg(test)]
    /// A key (its content, and where its quotes start and end) and its `:`.
    #[inline(always)]
    fn key_text(&mut self) -> Option<(Cow<'s, str>, usize, usize)> {
        let start = self.pos;
        if self.peek() != Some(b'"') {
            return None;
        }
        let value = self.string()?;
        let end = self.pos;
        if self.skip_ws() || self.peek() != Some(b':') || self.pos - start > MAX_KEY_DISTANCE {
            return None;
        }
        self.pos += 1;
        Some((value, start, end))
    }

    #[cfg(test)]
    fn close(&mut self, map: bool) -> Event<'s> {
        let start = self.pos;
        self.pos += 1;
        self.stack.pop();
        self.state = State::Next;
        let kind = if map {
            EventKind::MappingEnd
        } else {
            EventKind::SequenceEnd
        };
        event(kind, start, self.pos)
    }

    #[cfg(test)]
    fn step(&mut self) -> Result<Option<Event<'s>>, Error> {
        loop {
            match self.state {
                State::StreamStart => {
                    self.state = State::DocumentStart;
                    return Ok(Some(event(EventKind::StreamStart, 0, 0)));
                }
                State::DocumentStart => {
                    let explicit = self.skip_document_marker();
                    self.skip_outer_ws()?;
                    self.state = State::Value;
                    return Ok(Some(event(EventKind::DocumentStart { explicit }, self.pos, self.pos)));
                }
                State::Value => {
                    self.skip_ws();
                    return self.value().map(Some);
                }
                State::FirstKey => {
                    self.skip_ws();
                    if self.peek() == Some(b'}') {
                        return Ok(Some(self.close(true)));
                    }
                    return self.key().map(Some);
                }
                State::Key => {
                    self.skip_ws();
                    return self.key().map(Some);
                }
                State::FirstItem => {
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        return Ok(Some(self.close(false)));
                    }
                    self.state = State::Value;
                }
                State::Next => {
                    let Some(&map) = self.stack.last() else {
                        self.skip_outer_ws()?;
                        if self.pos < self.text.len() {
                            return Err(give_up(self.pos));
                        }
                        self.state = State::StreamEnd;
                        return Ok(Some(event(EventKind::DocumentEnd, self.pos, self.pos)));
                    };
                    self.skip_ws();
                    match (self.peek(), map) {
                        (Some(b','), true) => {
                            self.pos += 1;
                            self.state = State::Key;
                        }
                        (Some(b','), false) => {
                            self.pos += 1;
                            self.state = State::Value;
                        }
                        (Some(b'}'), true) => return Ok(Some(self.close(true))),
                        (Some(b']'), false) => return Ok(Some(self.close(false))),
                        _ => return Err(give_up(self.pos)),
                    }
                }
                State::StreamEnd => {
                    self.state = State::Done;
                    return Ok(Some(event(EventKind::StreamEnd, self.pos, self.pos)));
                }
                State::Done => return Ok(None),
            }
        }
    }
}

#[cfg(test)]
fn scalar(value: Cow<'_, str>, style: ScalarStyle, start: usize, end: usize) -> Event<'_> {
    event(
        EventKind::Scalar(Scalar {
            value,
            style,
            anchor: None,
            tag: None,
        }),
        start,
        end,
    )
}

/// A collection still open while [`JsonEvents::tree`] reads it. `Copy`: closing one drops
/// nothing.
#[derive(Clone, Copy)]
struct Open {
    node: NodeId,
    map: bool,
    /// Its entries have an index, the last of [`TreeBuilder::indexes`], built once it is large
    /// enough for scans to hurt (as the YAML builder does).
    indexed: bool,
    /// Where its entries (or items) start in the shared scratch list.
    start: usize,
    /// One bit per key hash ([`key_bit`]) of its entries: a key whose bit is clear is new, with
    /// no scan. Every bit once the mapping has an index.
    seen: u64,
    /// The entry (in its scratch list) whose key was just written again: reported once its
    /// new value is complete, after any problem inside that value, as the YAML builder does.
    duplicate: Option<u32>,
    /// One bit per [`Reading::skip`] path whose keys lead from the root to this mapping.
    skip: u8,
}

/// How [`JsonEvents::tree`] reads a document for a caller with needs of its own.
#[derive(Clone, Copy, Default)]
pub(crate) struct Reading<'p> {
    /// Values read (and refused, as ever, if they are not JSON) without being kept: each is
    /// named by the mapping keys leading to it from the root, as `["request", "oldObject"]`.
    /// At most eight. Nothing of a skipped value is in the tree, not even its key.
    pub(crate) skip: &'p [&'p [&'p str]],
    /// Every mapping's entries in [`key_order`] (serde_json's), not as written.
    pub(crate) sort_keys: bool,
}

impl Reading<'_> {
    /// Every path: the root's mask.
    fn all(self) -> u8 {
        u8::try_from((1u16 << self.skip.len().min(8)) - 1).unwrap_or(u8::MAX)
    }

    /// For the key `key` at `depth` (0: a key of the root) in a mapping that `mask`'s paths
    /// lead to: the mask of its value, and whether the value is skipped.
    #[cold]
    fn step(self, mask: u8, depth: usize, key: &str) -> (u8, bool) {
        let mut child = 0;
        for (i, path) in self.skip.iter().take(8).enumerate() {
            if mask & (1 << i) == 0 || path.get(depth) != Some(&key) {
                continue;
            }
            if path.len() == depth + 1 {
                return (0, true);
            }
            child |= 1 << i;
        }
        (child, false)
    }
}

/// Puts a mapping's entries in [`key_order`]. Many small mappings (`name`, `value`; `limits`,
/// `requests`) are in order already.
pub(crate) fn sort_entries(entries: &mut [Entry<'_>]) {
    if !entries.is_sorted_by(|a, b| key_order(&a.key, &b.key).is_le()) {
        // The keys of a mapping are distinct (a key written again takes the earlier entry's
        // place): an unstable sort gives the one order there is, without a stable sort's buffer.
        entries.sort_unstable_by(|a, b| key_order(&a.key, &b.key));
    }
}

/// `a.cmp(b)`, serde_json's map order: most neighbouring keys differ in their first byte,
/// which decides without a call to `memcmp`.
pub(crate) fn key_order(a: &str, b: &str) -> std::cmp::Ordering {
    match (a.as_bytes().first(), b.as_bytes().first()) {
        (Some(x), Some(y)) if x != y => x.cmp(y),
        _ => a.cmp(b),
    }
}

/// A key's bit in [`Open::seen`]: a cheap hash of its length and its first and last bytes.
#[inline(always)]
fn key_bit(key: &str) -> u64 {
    let bytes = key.as_bytes();
    let first = usize::from(bytes.first().copied().unwrap_or_default());
    let last = usize::from(bytes.last().copied().unwrap_or_default());
    let hash = bytes
        .len()
        .wrapping_mul(31)
        .wrapping_add(first)
        .wrapping_mul(31)
        .wrapping_add(last);
    1 << (hash & 63)
}

/// The tree [`JsonEvents::tree`] builds: what [`crate::parse::doc`]'s builder makes of the same text's
/// events.
pub(crate) struct Tree<'s> {
    pub(crate) nodes: Vec<Node<'s>>,
    pub(crate) entries: Vec<Entry<'s>>,
    pub(crate) items: Vec<Item>,
    pub(crate) root: NodeId,
    pub(crate) problems: Vec<Problem>,
    pub(crate) unusual: Unusual,
    /// The text is one line of ASCII: its line index needs no reading of it.
    pub(crate) one_ascii_line: bool,
}

/// What [`JsonEvents::tree`] noticed of values that serde_json reads, or writes, otherwise
/// than their text reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Unusual {
    /// A number was read as a float.
    pub(crate) floats: bool,
    /// serde_json would write a value in a form other than its text's with escapes undone,
    /// or one this reader refuses: `-0`, an integer of more than 18 digits, or an escaped
    /// character this reader refuses unescaped (`\u0085`).
    pub(crate) rewritten: bool,
}

/// Whether serde_json writes `s` with a character that [`scan_string`] refuses unescaped.
#[cold]
fn writes_refused(s: &str) -> bool {
    s.chars().any(|c| {
        matches!(
            c,
            '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'
        )
    })
}

/// An entry of a mapping still open: an [`Entry`] whose key, if it was unescaped into a
/// `String`, waits in [`TreeBuilder::owned_keys`]. `Copy`, so that closing the mapping copies
/// its entries to the arena in one pass.
#[derive(Clone, Copy)]
struct OpenEntry<'s> {
    /// The key as written, or "" for one in `owned_keys`.
    key: &'s str,
    /// 1 + the key's place in `owned_keys`, or 0.
    owned: u32,
    value: NodeId,
    /// Where the key's quotes start and end in the chunk.
    start: u32,
    end: u32,
}

impl<'s> OpenEntry<'s> {
    fn key<'a>(&'a self, owned_keys: &'a [String]) -> &'a str {
        match self.owned.checked_sub(1) {
            None => self.key,
            Some(at) => owned_keys.get(at as usize).map_or("", String::as_str),
        }
    }

    /// The entry in a document at `offset`, its owned key taken from `owned_keys`.
    #[inline(always)]
    fn close(&self, offset: usize, owned_keys: &mut [String]) -> Entry<'s> {
        Entry {
            key: match self.owned.checked_sub(1) {
                None => Cow::Borrowed(self.key),
                Some(at) => Cow::Owned(owned_keys.get_mut(at as usize).map(std::mem::take).unwrap_or_default()),
            },
            key_span: Span::new(offset + self.start as usize, offset + self.end as usize),
            value: self.value,
            via: AliasSite::NONE,
        }
    }
}

struct TreeBuilder<'s> {
    offset: usize,
    /// [`Reading::sort_keys`].
    sort_keys: bool,
    nodes: Vec<Node<'s>>,
    /// `nodes.len()`, the id of the next node.
    next: NodeId,
    stack: Vec<Open>,
    /// The indexes of the open mappings that have one ([`Open::indexed`]), innermost last.
    indexes: Vec<HashMap<Cow<'s, str>, usize>>,
    /// The entries (or items) of the open collections, each one's together: closing one moves
    /// its children into the arena in one copy.
    open_entries: Vec<OpenEntry<'s>>,
    open_items: Vec<Item>,
    /// The keys with escapes of the open entries ([`OpenEntry::owned`]).
    owned_keys: Vec<String>,
    /// Closed collections' entries and items: the document's arenas.
    entries: Vec<Entry<'s>>,
    items: Vec<Item>,
    problems: Vec<Problem>,
}

/// A place in the text as the `u32` that [`OpenEntry`] keeps: exact, as [`JsonEvents::tree`]
/// leaves texts of `u32::MAX` bytes or more to libyaml.
#[allow(clippy::cast_possible_truncation)]
#[inline(always)]
fn at32(at: usize) -> u32 {
    at as u32
}

impl<'s> TreeBuilder<'s> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.offset + start, self.offset + end)
    }

    /// A node with `value` from `start` to `end` in the text.
    #[inline(always)]
    fn push(&mut self, value: DocValue<'s>, start: usize, end: usize, style: Option<ScalarStyle>) {
        let span = self.span(start, end);
        self.nodes.push(Node { value, span, style });
        // No overflow: a node takes at least a byte, and the text is shorter than `NodeId::MAX`
        // bytes ([`JsonEvents::tree`]).
        self.next += 1;
    }

    /// Opens a mapping (or a sequence) whose bracket is at `start`; `skip`: the mapping's
    /// [`Open::skip`].
    #[inline(always)]
    fn open(&mut self, map: bool, start: usize, skip: u8) {
        let node = self.next;
        let value = if map {
            DocValue::Map(Children::default())
        } else {
            DocValue::Seq(Children::default())
        };
        self.push(value, start, start + 1, None);
        self.stack.push(Open {
            node,
            map,
            start: if map {
                self.open_entries.len()
            } else {
                self.open_items.len()
            },
            indexed: false,
            seen: 0,
            duplicate: None,
            skip,
        });
    }

    /// A key read in the mapping on top of the stack (its quotes from `start` to `end`): its
    /// entry, whose value is the next node (nodes are numbered in document order, so a value's
    /// id is known before it is read).
    #[inline(always)]
    fn key(&mut self, key: Cow<'s, str>, start: usize, end: usize) -> Option<()> {
        let open = self.stack.last_mut()?;
        let bit = key_bit(&key);
        // An indexed mapping has every bit set.
        if open.seen & bit != 0 {
            return self.key_seen(key, start, end);
        }
        open.seen |= bit;
        let len = self.open_entries.len() - open.start;
        self.push_entry(key, start, end);
        if len + 1 > crate::parse::doc::INDEX_THRESHOLD {
            self.index_entries();
        }
        Some(())
    }

    /// [`Self::key`] for a mapping with an index, or with a key of the same bit before: a
    /// key written before takes the earlier entry's place, as the YAML builder's does.
    #[cold]
    #[inline(never)]
    fn key_seen(&mut self, key: Cow<'s, str>, start: usize, end: usize) -> Option<()> {
        let open = self.stack.last_mut()?;
        let entries = self.open_entries.get_mut(open.start..).unwrap_or_default();
        let owned_keys = &self.owned_keys;
        let index = if open.indexed { self.indexes.last_mut() } else { None };
        let existing = match &index {
            Some(index) => index.get(&key).copied(),
            None => entries.iter().position(|e| e.key(owned_keys) == key),
        };
        if let Some(at) = existing {
            let entry = entries.get_mut(at)?;
            entry.start = at32(start);
            entry.end = at32(end);
            entry.value = self.next;
            open.duplicate = u32::try_from(at).ok();
            return Some(());
        }
        open.seen |= key_bit(&key);
        let len = entries.len();
        if let Some(index) = index {
            index.insert(key.clone(), len);
        }
        let indexed = open.indexed;
        self.push_entry(key, start, end);
        if !indexed && len + 1 > crate::parse::doc::INDEX_THRESHOLD {
            self.index_entries();
        }
        Some(())
    }

    /// A new entry of the mapping on top of the stack, whose value is the next node; an owned
    /// (unescaped) key is kept aside.
    #[inline(always)]
    fn push_entry(&mut self, key: Cow<'s, str>, start: usize, end: usize) {
        let (key, owned) = match key {
            Cow::Borrowed(key) => (key, 0),
            Cow::Owned(key) => {
                self.owned_keys.push(key);
                ("", at32(self.owned_keys.len()))
            }
        };
        self.open_entries.push(OpenEntry {
            key,
            owned,
            value: self.next,
            start: at32(start),
            end: at32(end),
        });
    }

    /// Indexes the entries of the mapping on top of the stack by key.
    #[cold]
    fn index_entries(&mut self) {
        let Some(open) = self.stack.last_mut() else { return };
        let entries = self.open_entries.get(open.start..).unwrap_or_default();
        let owned_keys = &self.owned_keys;
        open.seen = u64::MAX;
        open.indexed = true;
        self.indexes.push(
            entries
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let key = match e.owned {
                        0 => Cow::Borrowed(e.key),
                        _ => Cow::Owned(e.key(owned_keys).to_owned()),
                    };
                    (key, i)
                })
                .collect(),
        );
    }

    /// An item of the sequence on top of the stack: the next node.
    #[inline(always)]
    fn item(&mut self) {
        let node = self.next;
        self.open_items.push(Item {
            node,
            via: AliasSite::NONE,
        });
    }

    /// The value of the mapping entry `at` (in the scratch list) that repeated a key is
    /// complete: the problem, after any inside that value.
    #[cold]
    fn report_duplicate(&mut self, at: u32) {
        let Some(open) = self.stack.last() else { return };
        if let Some(entry) = self.open_entries.get(open.start + at as usize) {
            let span = self.span(entry.start as usize, entry.end as usize);
            self.problems
                .push(crate::parse::doc::duplicate_key(entry.key(&self.owned_keys), span));
        }
    }

    /// Closes the collection on top of the stack at `end`.
    #[inline(always)]
    fn close(&mut self, end: usize) -> Option<()> {
        let open = self.stack.pop()?;
        if open.indexed {
            self.indexes.pop();
        }
        let value = if open.map {
            let children = Children::after(self.entries.len(), self.open_entries.len().checked_sub(open.start)?)?;
            let offset = self.offset;
            let owned_keys = &mut self.owned_keys;
            let entries = self.open_entries.get(open.start..).unwrap_or_default();
            let first = self.entries.len();
            self.entries.extend(entries.iter().map(|e| e.close(offset, owned_keys)));
            self.open_entries.truncate(open.start);
            if self.sort_keys {
                sort_entries(self.entries.get_mut(first..).unwrap_or_default());
            }
            DocValue::Map(children)
        } else {
            let children = Children::after(self.items.len(), self.open_items.len().checked_sub(open.start)?)?;
            self.items
                .extend_from_slice(self.open_items.get(open.start..).unwrap_or_default());
            self.open_items.truncate(open.start);
            DocValue::Seq(children)
        };
        let end = self.offset + end;
        let node = self.nodes.get_mut(open.node as usize)?;
        node.value = value;
        node.span.end = end;
        Some(())
    }
}

/// Skips JSON whitespace inside the root value from `pos`: where it ends, and whether it
/// crossed a line break (`\n`). Sets `breaks` on any line break. Out of line: compact JSON,
/// which every admission request is, has none, and the callers test for it first.
#[inline(never)]
fn skip_ws_from(bytes: &[u8], mut pos: usize, breaks: &mut bool) -> (usize, bool) {
    let mut newline = false;
    while let Some(&b) = bytes.get(pos) {
        match b {
            b' ' | b'\t' => {}
            b'\r' => *breaks = true,
            b'\n' => {
                newline = true;
                *breaks = true;
            }
            _ => break,
        }
        pos += 1;
    }
    (pos, newline)
}

/// Whether the byte at `pos` may be JSON whitespace (or the text has ended).
#[inline(always)]
fn at_ws(bytes: &[u8], pos: usize) -> bool {
    bytes.get(pos).is_none_or(|&b| b <= b' ')
}

impl<'s> JsonEvents<'s> {
    /// The document tree of the text, built straight from it: the nodes, in the same order,
    /// with the same spans and values, and the same duplicate-key problems as [`crate::parse::doc`]'s
    /// builder makes of this reader's events (a test compares the two), without the events.
    /// `None` where the events would end in an error (the text is not JSON this reader vouches
    /// for) or the builder would refuse the document (nesting from `max_depth` on). The values
    /// `reading` skips are read the same way (and may make it `None` the same way), but left
    /// out of the tree.
    pub(crate) fn tree(self, offset: usize, max_depth: usize, reading: Reading<'_>) -> Option<Tree<'s>> {
        if reading.skip.is_empty() && !reading.sort_keys {
            self.tree_as::<false>(offset, max_depth, reading)
        } else {
            self.tree_as::<true>(offset, max_depth, reading)
        }
    }

    /// [`Self::tree`], compiled twice: without `ASKED`, the loop has none of the checks that
    /// [`Reading`] asks for (most documents, the CLI's).
    #[inline(never)]
    // The reader's main loop: its cursor stays in locals only while it is one function.
    #[allow(clippy::too_many_lines)]
    fn tree_as<const ASKED: bool>(mut self, offset: usize, max_depth: usize, reading: Reading<'_>) -> Option<Tree<'s>> {
        self.skip_document_marker();
        self.skip_outer_ws().ok()?;
        if !matches!(self.peek(), Some(b'{' | b'[')) {
            return None;
        }
        // Node ids are `u32`: a longer text (never an admission request) is left to libyaml.
        if NodeId::try_from(self.text.len()).is_err() {
            return None;
        }
        let text = self.text;
        let bytes = text.as_bytes();
        // The cursor, and what the reader notes, live in locals (registers) in the loop.
        let mut pos = self.pos;
        let mut breaks = self.breaks;
        let mut non_ascii = false;
        let mut unusual = Unusual::default();
        // The event reader's bound (4096 open collections), then the builder's limit.
        let depth_limit = max_depth.min(4097);
        let mut b = TreeBuilder {
            offset,
            sort_keys: reading.sort_keys,
            next: 0,
            // Compact Kubernetes JSON has about one value per 16 to 32 bytes, most of them in
            // mappings.
            nodes: Vec::with_capacity(text.len() / 16 + 4),
            stack: Vec::with_capacity(16),
            indexes: Vec::new(),
            open_entries: Vec::with_capacity(64),
            open_items: Vec::with_capacity(64),
            owned_keys: Vec::new(),
            entries: Vec::with_capacity(text.len() / 16 + 4),
            items: Vec::with_capacity(text.len() / 64 + 4),
            problems: Vec::new(),
        };
        // A key comes first (after `{` or after `,` in a mapping).
        let mut want_key = false;
        // The [`Open::skip`] of the next value if it is a mapping: the root is reached by
        // every path.
        let mut next_skip = if ASKED { reading.all() } else { 0 };
        // The next value is skipped ([`Reading::skip`]).
        let mut skip_next = false;
        // A value starts at the cursor (after whitespace); the root is the first.
        'value: loop {
            if at_ws(bytes, pos) {
                pos = skip_ws_from(bytes, pos, &mut breaks).0;
            }
            if want_key {
                want_key = false;
                let key_start = pos;
                let (key, key_end, key_non_ascii, value) = key_and_colon(text, pos, true, &mut breaks)?;
                pos = value;
                non_ascii |= key_non_ascii;
                if let Cow::Owned(key) = &key {
                    unusual.rewritten |= writes_refused(key);
                }
                if ASKED {
                    let open = b.stack.last()?;
                    if open.skip != 0 {
                        (next_skip, skip_next) = reading.step(open.skip, b.stack.len() - 1, &key);
                    }
                }
                if !skip_next {
                    b.key(key, key_start, key_end)?;
                }
            }
            let start = pos;
            let value_skip = if ASKED { std::mem::take(&mut next_skip) } else { 0 };
            if ASKED && skip_next {
                skip_next = false;
                let mut seen = Seen {
                    breaks,
                    non_ascii,
                    floats: unusual.floats,
                };
                pos = skip_value(text, pos, depth_limit.saturating_sub(b.stack.len()), &mut seen)?;
                (breaks, non_ascii, unusual.floats) = (seen.breaks, seen.non_ascii, seen.floats);
            } else {
                match bytes.get(pos).copied() {
                    Some(b'"') => {
                        let (value, end, value_non_ascii) = scan_string(text, pos, true)?;
                        non_ascii |= value_non_ascii;
                        pos = end;
                        if let Cow::Owned(value) = &value {
                            unusual.rewritten |= writes_refused(value);
                        }
                        b.push(DocValue::Str(value), start, end, Some(ScalarStyle::DoubleQuoted));
                    }
                    Some(open @ (b'{' | b'[')) => {
                        // The event reader's bound, then the builder's limit.
                        if b.stack.len() >= depth_limit {
                            return None;
                        }
                        let map = open == b'{';
                        pos += 1;
                        b.open(map, start, if map { value_skip } else { 0 });
                        if at_ws(bytes, pos) {
                            pos = skip_ws_from(bytes, pos, &mut breaks).0;
                        }
                        let close = if map { b'}' } else { b']' };
                        if bytes.get(pos) == Some(&close) {
                            pos += 1;
                            b.close(pos)?;
                        } else {
                            if map {
                                want_key = true;
                            } else {
                                b.item();
                            }
                            continue 'value;
                        }
                    }
                    _ => {
                        let (value, end) = if let Some(short) = short_plain(bytes, pos) {
                            // `-0`, which serde_json writes `0`.
                            unusual.rewritten |= bytes.get(pos..pos + 2) == Some(b"-0");
                            short
                        } else {
                            self.pos = pos;
                            let word = self.plain()?;
                            let value = match resolve_json(word) {
                                Resolved::Null => DocValue::Null,
                                Resolved::Bool(v) => DocValue::Bool(v),
                                Resolved::Int(v) => {
                                    unusual.rewritten = true;
                                    DocValue::Int(Int::new(v))
                                }
                                Resolved::Float(v) => {
                                    unusual.floats = true;
                                    DocValue::Float(v)
                                }
                                Resolved::Str => DocValue::Str(Cow::Borrowed(word)),
                            };
                            (value, self.pos)
                        };
                        pos = end;
                        b.push(value, start, end, Some(ScalarStyle::Plain));
                    }
                }
            }
            // A value is complete: what follows it in the collections it ends.
            loop {
                let Some(open) = b.stack.last_mut() else {
                    break 'value;
                };
                let map = open.map;
                if let Some(at) = open.duplicate {
                    open.duplicate = None;
                    b.report_duplicate(at);
                }
                if at_ws(bytes, pos) {
                    pos = skip_ws_from(bytes, pos, &mut breaks).0;
                }
                match (bytes.get(pos).copied(), map) {
                    (Some(b','), true) => {
                        pos += 1;
                        want_key = true;
                        continue 'value;
                    }
                    (Some(b','), false) => {
                        pos += 1;
                        b.item();
                        continue 'value;
                    }
                    (Some(b'}'), true) | (Some(b']'), false) => {
                        pos += 1;
                        b.close(pos)?;
                    }
                    _ => return None,
                }
            }
        }
        self.pos = pos;
        self.breaks = breaks;
        self.skip_outer_ws().ok()?;
        if self.pos < text.len() {
            return None;
        }
        Some(Tree {
            nodes: b.nodes,
            entries: b.entries,
            items: b.items,
            root: 0,
            problems: b.problems,
            unusual,
            one_ascii_line: !self.breaks && !non_ascii,
        })
    }
}

/// A mapping key at `pos` and its `:`, as [`JsonEvents::tree`] and [`skip_value`] read them:
/// the key (its content only with `keep`, see [`scan_string`]), where its quotes end, whether it
/// has a byte from 0x80, and where the value after the `:` (and any whitespace) starts. `None`
/// where the reader gives up: no key, a line break before the `:`, or a key too far from it.
#[inline(always)]
fn key_and_colon<'t>(
    text: &'t str,
    pos: usize,
    keep: bool,
    breaks: &mut bool,
) -> Option<(Cow<'t, str>, usize, bool, usize)> {
    let bytes = text.as_bytes();
    if bytes.get(pos) != Some(&b'"') {
        return None;
    }
    let (key, key_end, non_ascii) = scan_string(text, pos, keep)?;
    let mut colon = key_end;
    if bytes.get(colon) != Some(&b':') {
        let (after, newline) = skip_ws_from(bytes, colon, breaks);
        if newline || bytes.get(after) != Some(&b':') {
            return None;
        }
        colon = after;
    }
    if colon - pos > MAX_KEY_DISTANCE {
        return None;
    }
    let mut value = colon + 1;
    if at_ws(bytes, value) {
        value = skip_ws_from(bytes, value, breaks).0;
    }
    Some((key, key_end, non_ascii, value))
}

/// What [`JsonEvents::tree`] notes of the text as it reads, which [`skip_value`] notes too.
struct Seen {
    breaks: bool,
    non_ascii: bool,
    floats: bool,
}

/// Reads the value at `pos` (after any whitespace) as [`JsonEvents::tree`] reads a value,
/// refusing what it refuses with at most `depth` collections open inside, but keeping
/// nothing: where the value ends. A loop of its own: the tree's loop keeps no checks for it.
#[inline(never)]
fn skip_value(text: &str, mut pos: usize, depth: usize, seen: &mut Seen) -> Option<usize> {
    let bytes = text.as_bytes();
    // The collections open inside the value, innermost last (`true`: a mapping).
    let mut open: Vec<bool> = Vec::new();
    let mut want_key = false;
    'value: loop {
        if at_ws(bytes, pos) {
            pos = skip_ws_from(bytes, pos, &mut seen.breaks).0;
        }
        if want_key {
            want_key = false;
            let (_, _, key_non_ascii, value) = key_and_colon(text, pos, false, &mut seen.breaks)?;
            pos = value;
            seen.non_ascii |= key_non_ascii;
        }
        match bytes.get(pos).copied() {
            Some(b'"') => {
                let (_, end, value_non_ascii) = scan_string(text, pos, false)?;
                seen.non_ascii |= value_non_ascii;
                pos = end;
            }
            Some(bracket @ (b'{' | b'[')) => {
                if open.len() >= depth {
                    return None;
                }
                let map = bracket == b'{';
                pos += 1;
                if at_ws(bytes, pos) {
                    pos = skip_ws_from(bytes, pos, &mut seen.breaks).0;
                }
                if bytes.get(pos) == Some(if map { &b'}' } else { &b']' }) {
                    pos += 1;
                } else {
                    open.push(map);
                    want_key = map;
                    continue 'value;
                }
            }
            _ => {
                if let Some((_, end)) = short_plain(bytes, pos) {
                    pos = end;
                } else {
                    let mut plain = JsonEvents::new(text);
                    plain.pos = pos;
                    let word = plain.plain()?;
                    seen.floats |= matches!(resolve_json(word), Resolved::Float(_));
                    pos = plain.pos;
                }
            }
        }
        // A value is complete: what follows it in the collections it ends.
        loop {
            let Some(&map) = open.last() else {
                return Some(pos);
            };
            if at_ws(bytes, pos) {
                pos = skip_ws_from(bytes, pos, &mut seen.breaks).0;
            }
            match (bytes.get(pos).copied(), map) {
                (Some(b','), true) => {
                    pos += 1;
                    want_key = true;
                    continue 'value;
                }
                (Some(b','), false) => {
                    pos += 1;
                    continue 'value;
                }
                (Some(b'}'), true) | (Some(b']'), false) => {
                    pos += 1;
                    open.pop();
                }
                _ => return None,
            }
        }
    }
}

/// Whether a plain scalar may end before byte `b` (or the text's end), as
/// [`JsonEvents::plain`] ends it.
#[inline(always)]
fn ends_plain(b: Option<&u8>) -> bool {
    matches!(b, None | Some(b' ' | b'\t' | b'\r' | b'\n' | b',' | b']' | b'}'))
}

/// The commonest plain scalars at `start`, read without [`JsonEvents::plain`] and
/// [`resolve_json`]: `true`, `false`, `null` and integers of at most 18 digits (ports, counts,
/// ids), with where they end. `None` for anything else, which those two then read (or refuse)
/// as before, so the value is always theirs.
#[inline(always)]
fn short_plain<'s>(bytes: &[u8], start: usize) -> Option<(DocValue<'s>, usize)> {
    let word = |w: &[u8], value: DocValue<'s>| {
        let end = start + w.len();
        (bytes.get(start..end) == Some(w) && ends_plain(bytes.get(end))).then_some((value, end))
    };
    match bytes.get(start)? {
        b't' => return word(b"true", DocValue::Bool(true)),
        b'f' => return word(b"false", DocValue::Bool(false)),
        b'n' => return word(b"null", DocValue::Null),
        _ => {}
    }
    let negative = bytes.get(start) == Some(&b'-');
    let first = start + usize::from(negative);
    let mut end = first;
    let mut magnitude: u64 = 0;
    while let Some(&digit) = bytes.get(end) {
        if !digit.is_ascii_digit() {
            break;
        }
        magnitude = magnitude.wrapping_mul(10).wrapping_add(u64::from(digit - b'0'));
        end += 1;
    }
    let digits = end - first;
    // One to 18 digits (no overflow), no leading zero (JSON refuses it), and nothing after.
    if digits == 0 || digits > 18 || (digits > 1 && bytes.get(first) == Some(&b'0')) || !ends_plain(bytes.get(end)) {
        return None;
    }
    let value = i128::from(magnitude);
    Some((DocValue::Int(Int::new(if negative { -value } else { value })), end))
}

/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
fn is_json_number(b: &[u8]) -> bool {
    fn digits(b: &[u8], i: &mut usize) -> usize {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    }
    let mut i = 0;
    if b.first() == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(b, &mut i);
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(b, &mut i) == 0 {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(b, &mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

#[cfg(test)]
impl<'s> Iterator for JsonEvents<'s> {
    type Item = Result<Event<'s>, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.step() {
            Ok(event) => event.map(Ok),
            Err(e) => {
                self.state = State::Done;
                Some(Err(e))
            }
        }
    }
}

/// What a two-character JSON escape (`\n`, `\"`, ...) stands for; `None` for `\u` and
/// anything JSON does not allow.
pub(crate) fn short_escape(escaped: u8) -> Option<char> {
    Some(match escaped {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(text: &str) -> Result<Vec<Event<'_>>, Error> {
        JsonEvents::new(text).collect()
    }

    /// The JSON reader's events equal libyaml's, spans included.
    fn same_as_libyaml(text: &str) {
        let ours = events(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        let theirs: Vec<Event<'_>> = ra2_yaml::Parser::new(text).collect::<Result<_, _>>().unwrap();
        let strip = |es: &[Event<'_>]| -> Vec<(EventKind<'static>, usize, usize)> {
            es.iter()
                .map(|e| {
                    let kind = match &e.kind {
                        EventKind::Scalar(s) => EventKind::Scalar(Scalar {
                            value: Cow::Owned(s.value.to_string()),
                            style: s.style,
                            anchor: None,
                            tag: None,
                        }),
                        EventKind::DocumentStart { explicit } => EventKind::DocumentStart { explicit: *explicit },
                        EventKind::MappingStart { .. } => EventKind::MappingStart {
                            anchor: None,
                            tag: None,
                            flow: true,
                        },
                        EventKind::SequenceStart { .. } => EventKind::SequenceStart {
                            anchor: None,
                            tag: None,
                            flow: true,
                        },
                        EventKind::StreamStart => EventKind::StreamStart,
                        EventKind::StreamEnd => EventKind::StreamEnd,
                        EventKind::DocumentEnd => EventKind::DocumentEnd,
                        EventKind::MappingEnd => EventKind::MappingEnd,
                        EventKind::SequenceEnd => EventKind::SequenceEnd,
                        EventKind::Alias { anchor } => EventKind::Alias { anchor: anchor.clone() },
                    };
                    // Stream and document events carry no span the builder reads.
                    let span = match kind {
                        EventKind::StreamStart
                        | EventKind::StreamEnd
                        | EventKind::DocumentStart { .. }
                        | EventKind::DocumentEnd => (0, 0),
                        _ => (e.start.offset, e.end.offset),
                    };
                    (kind, span.0, span.1)
                })
                .collect()
        };
        assert_eq!(strip(&ours), strip(&theirs), "{text:?}");
    }

    #[test]
    fn events_match_libyaml() {
        for text in [
            "{}",
            "[]",
            "{\"a\":1}",
            " {\n  \"a\": [1, -2.5e3, true, false, null, \"x\\ty\\u00e9\\/\"],\n  \"b\": {}\n}\n",
            "---\n{\"kind\": \"Pod\"}",
            "[\"é\", \"\\\"\", [[]], {\"k\":\t\"v\"}]\r\n",
            "{\"a\" : 0, \"b\":-0.0, \"c\": 1E+2}",
        ] {
            same_as_libyaml(text);
        }
    }

    /// The tree built straight from the text equals the builder's tree of the events; whether
    /// there is one, and whether it has problems.
    fn same_tree(text: &str, max_depth: usize) -> (bool, bool) {
        let limits = crate::parse::doc::Limits {
            max_depth,
            ..crate::parse::doc::Limits::default()
        };
        for offset in [0, 17] {
            let chunk = crate::parse::source::Chunk { text, offset, line: 0 };
            let direct = crate::parse::doc::read_json_chunk(chunk, limits).map(|d| (d.outline(), d.problems));
            let reference = crate::parse::doc::read_json_events(chunk, limits).map(|d| (d.outline(), d.problems));
            assert_eq!(direct, reference, "{text:?}");
        }
        let tree = JsonEvents::new(text).tree(0, max_depth, Reading::default());
        (tree.is_some(), tree.is_some_and(|t| !t.problems.is_empty()))
    }

    /// Whether `text` read skipping values (and sorting keys) is refused exactly when it is
    /// refused read whole, with the same floats and the same line index; `true` if a value
    /// was skipped.
    fn same_refusals_when_skipping(text: &str, max_depth: usize) -> bool {
        const SKIP: Reading<'static> = Reading {
            skip: &[&["spec"], &["spec", "key1"], &["key2"], &["key3", "key4"]],
            sort_keys: true,
        };
        let limits = crate::parse::doc::Limits {
            max_depth,
            ..crate::parse::doc::Limits::default()
        };
        let chunk = crate::parse::source::Chunk {
            text,
            offset: 5,
            line: 0,
        };
        let whole = crate::parse::doc::read_json(chunk, limits, Reading::default());
        let skipping = crate::parse::doc::read_json(chunk, limits, SKIP);
        assert_eq!(whole.is_some(), skipping.is_some(), "{text:?} {max_depth}");
        let (Some((whole, whole_unusual)), Some((skipping, skipping_unusual))) = (whole, skipping) else {
            return false;
        };
        assert_eq!(whole_unusual.floats, skipping_unusual.floats, "{text:?}");
        assert_eq!(
            whole.position(5 + text.len()),
            skipping.position(5 + text.len()),
            "{text:?}"
        );
        skipping.nodes.len() < whole.nodes.len()
    }

    #[test]
    fn the_direct_tree_is_the_builders() {
        let wide: String = (0..40)
            .map(|i| format!("\"k{}\": {i}, ", i % 30))
            .collect::<Vec<_>>()
            .concat();
        let wide = format!("{{{wide}\"end\": [1, {{}}, []]}}");
        for text in [
            "{}",
            "[]",
            " {\n  \"a\": [1, -2.5e3, true, false, null, \"x\\ty\\u00e9\\/\"],\n  \"b\": {}\n}\n",
            "---\n{\"kind\": \"Pod\"}",
            "[\"é\", \"\\\"\", [[]], {\"k\":\t\"v\"}]\r\n",
            "{\"a\" : 0, \"b\":-0.0, \"c\": 1E+2, \"d\": 123456789012345678901234567890}",
            "{\"a\": 1, \"a\": {\"x\": [2]}, \"b\": [], \"a\": 3}",
            "{\"k\\u0041\": 1, \"kA\": 2}",
            "[{\"a\": [{\"b\": {\"c\": [[], [1, {\"d\": null}]]}}]}, 5]",
            wide.as_str(),
            "{a: 1}",
            "{\"a\": 1,}",
            "{\"a\"\n: 1}",
            "{} {}",
            "\"scalar\"",
            "{\"a\": [1 2]}",
            "{\"a\": 1]",
            "[1, 2}",
            "{\"a\": ",
            "",
        ] {
            same_tree(text, 256);
        }
        // Depth: the builder refuses nesting from the limit on.
        let deep = format!("{}1{}", "[".repeat(5), "]".repeat(5));
        for max_depth in 3..=7 {
            assert_eq!(same_tree(&deep, max_depth).0, max_depth >= 5);
        }
    }

    /// The tree with `skip`'s values left out is the whole tree with their entries removed;
    /// what makes the whole tree `None`, or a float, inside a skipped value does the same.
    #[test]
    fn skipped_values_are_read_but_not_kept() {
        const SKIP: Reading<'static> = Reading {
            skip: &[&["r", "o", "m"], &["r", "old"]],
            sort_keys: false,
        };
        let limits = crate::parse::doc::Limits {
            max_depth: 8,
            ..crate::parse::doc::Limits::default()
        };
        let read = |text: &'static str, skip| {
            let chunk = crate::parse::source::Chunk {
                text,
                offset: 3,
                line: 0,
            };
            crate::parse::doc::read_json(chunk, limits, skip)
        };
        for text in [
            r#"{"r": {"o": {"m": [{"a": 1, "a": {"b": [2, "x\u0041"]}}], "n": "p"}, "old": {"m": 1}}}"#,
            r#"{"r": {"old": [], "o": {"m": {}, "m2": {"m": 1}}, "x": {"old": 1}}, "old": {"r": 1}}"#,
            r#"{"r": {"old": "s", "o": {"m": null}}, "o": {"m": 1}}"#,
            r#"{"r": [{"o": {"m": 1}}, {"old": 2}], "x": {"r": {"old": 3}}}"#,
            r#"{"r": {"o": {"m": 1, "k": 2, "m": 3}, "old": true, "old": false}}"#,
            r#"[{"r": {"old": 1}}]"#,
            "{\n \"r\" : {\"old\":\t[ 1 , {} ] } }",
        ] {
            let (skipped, _) = read(text, SKIP).unwrap();
            let (mut whole, _) = read(text, Reading::default()).unwrap();
            for path in SKIP.skip {
                let (last, parents) = path.split_last().unwrap();
                let mut at = Some(whole.root);
                for key in parents {
                    at = at.and_then(|id| whole.map_entries(id).iter().find(|e| e.key == *key).map(|e| e.value));
                }
                if let Some(parent) = at {
                    whole.retain_entries(parent, |e| e.key != *last);
                }
            }
            assert_eq!(skipped.outline(), whole.outline(), "{text}");
            // Duplicate keys in skipped places: in the first text one, in the fifth two.
            let inside = [r#""a": 1, "a""#, r#""m": 1, "k": 2, "m""#, r#""old": true, "old""#]
                .iter()
                .filter(|d| text.contains(*d))
                .count();
            assert_eq!(skipped.problems.len() + inside, whole.problems.len(), "{text}");
        }
        for (text, floats) in [
            (r#"{"r": {"old": [1.5]}}"#, true),
            (r#"{"r": {"o": {"m": 2e3}}}"#, true),
            (r#"{"r": {"old": [15]}}"#, false),
        ] {
            assert_eq!(read(text, SKIP).map(|(_, u)| u.floats), Some(floats), "{text}");
        }
        for text in [
            r#"{"r": {"old": [1 2]}}"#,
            r#"{"r": {"old": {"a" 1}}}"#,
            r#"{"r": {"old": [01]}}"#,
            r#"{"r": {"old": "\x"}}"#,
            r#"{"r": {"old": tru}}"#,
            r#"{"r": {"old": [[[[[[[[1]]]]]]]]}}"#,
            r#"{"r": {"o": {"m": {"a": [}}}}"#,
            r#"{"r": {"old": {}}"#,
        ] {
            assert!(read(text, Reading::default()).is_none(), "{text}");
            assert!(read(text, SKIP).is_none(), "{text}");
        }
    }

    /// Sorting keys reorders each mapping's entries and changes nothing else.
    #[test]
    fn sorted_keys_are_in_serde_json_order() {
        let sorted = Reading {
            skip: &[],
            sort_keys: true,
        };
        for text in [
            r#"{"b": 1, "a": {"z": [{"y": 1, "x": 2, "\u0041": 3}], "": null}, "B": [], "a\u0000": 0}"#,
            r#"{"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "p", "labels": {"b": "", "a": ""}}}"#,
            r#"[{"b": 1, "a": 2}, {"c": {"e": 1, "d": 2}}]"#,
            r#"{"b": 1, "a": 2, "b": 3}"#,
        ] {
            let chunk = crate::parse::source::Chunk {
                text,
                offset: 0,
                line: 0,
            };
            let limits = crate::parse::doc::Limits::default();
            let (doc, _) = crate::parse::doc::read_json(chunk, limits, sorted).unwrap();
            let (written, _) = crate::parse::doc::read_json(chunk, limits, Reading::default()).unwrap();
            for (i, node) in doc.nodes.iter().enumerate() {
                if let DocValue::Map(_) = node.value {
                    let keys: Vec<&str> = doc
                        .map_entries(NodeId::try_from(i).unwrap())
                        .iter()
                        .map(|e| e.key.as_ref())
                        .collect();
                    assert!(keys.is_sorted(), "{text}: {keys:?}");
                }
            }
            let mut outline = doc.outline();
            let mut reference = written.outline();
            assert_ne!(outline, reference, "{text}: the test sorts something");
            outline.sort();
            reference.sort();
            assert_eq!(outline, reference, "{text}");
            assert_eq!(doc.problems, written.problems, "{text}");
        }
    }

    /// Generated documents: random nesting, duplicate keys, escapes, numbers and layout.
    #[test]
    fn generated_trees_are_the_builders() {
        struct Gen(u64);
        impl Gen {
            fn next(&mut self, n: u64) -> u64 {
                self.0 = self
                    .0
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (self.0 >> 33) % n
            }
            fn ws(&mut self, out: &mut String) {
                out.push_str(["", " ", "\n  ", "\t", "\r\n"][usize::try_from(self.next(5)).unwrap_or(0)]);
            }
            fn value(&mut self, out: &mut String, depth: usize) {
                let pick = if depth > 5 { 3 + self.next(6) } else { self.next(9) };
                match pick {
                    0..=1 => {
                        out.push('{');
                        let wide = self.next(8) == 0;
                        let n = self.next(if wide { 40 } else { 5 });
                        for i in 0..n {
                            if i > 0 {
                                out.push(',');
                            }
                            self.ws(out);
                            let key = self.next(if wide { 32 } else { 6 });
                            out.push_str(if key % 5 == 0 { "\"kéy" } else { "\"key" });
                            out.push_str(&key.to_string());
                            out.push_str(if key % 7 == 0 { "\\n\"" } else { "\"" });
                            // A line break here makes the reader give up.
                            if self.next(8) == 0 {
                                self.ws(out);
                            }
                            out.push(':');
                            self.ws(out);
                            self.value(out, depth + 1);
                        }
                        self.ws(out);
                        out.push('}');
                    }
                    2 => {
                        out.push('[');
                        for i in 0..self.next(4) {
                            if i > 0 {
                                out.push(',');
                            }
                            self.ws(out);
                            self.value(out, depth + 1);
                        }
                        out.push(']');
                    }
                    3 => out.push_str(["true", "false", "null"][usize::try_from(self.next(3)).unwrap_or(0)]),
                    4 => out.push_str(
                        ["0", "-12", "3.5", "1e9", "99999999999999999999999"]
                            [usize::try_from(self.next(5)).unwrap_or(0)],
                    ),
                    5 => out.push_str("\"a\\\"b\\u00e9\""),
                    6 => out.push_str("\"é\""),
                    // Now and then something the reader gives up on.
                    7 => out.push_str(
                        ["\"\"", "\"\"", "\"\"", "\"\"", "\"\"", "\"x\ty\"", "01", "[1,]"]
                            [usize::try_from(self.next(8)).unwrap_or(0)],
                    ),
                    _ => out.push_str("\"plain text\""),
                }
            }
        }
        let mut generator = Gen(7);
        let (mut read, mut duplicates, mut refused, mut skipped) = (0, 0, 0, 0);
        for _ in 0..3000 {
            let mut text = String::new();
            if generator.next(2) == 0 {
                text.push('{');
                text.push_str("\"spec\": ");
                generator.value(&mut text, 1);
                text.push('}');
            } else {
                generator.value(&mut text, 0);
            }
            generator.ws(&mut text);
            for depth in [6, 256] {
                let (some, problems) = same_tree(&text, depth);
                read += usize::from(some);
                refused += usize::from(!some);
                duplicates += usize::from(problems);
                skipped += usize::from(same_refusals_when_skipping(&text, depth));
            }
        }
        // The generator reaches every outcome.
        assert!(
            read > 2000 && refused > 1000 && duplicates > 100 && skipped > 500,
            "{read} {refused} {duplicates} {skipped}"
        );
    }

    /// The short path for plain scalars reads what `plain` and `resolve_json` read, and
    /// takes the common ones.
    #[test]
    fn short_plain_scalars_are_read_as_before() {
        let mut taken = 0;
        for word in [
            "0",
            "-0",
            "7",
            "-12",
            "123456789012345678",
            "-123456789012345678",
            "1234567890123456789",
            "99999999999999999999999",
            "01",
            "-",
            "-01",
            "1.5",
            "1e3",
            "2E-2",
            "true",
            "false",
            "null",
            "tru",
            "nul",
            "truex",
            "true1",
            "nullnull",
        ] {
            for tail in ["", ",", "}", "]", " ", "\t", "\r", "\n", "x", "0", "."] {
                let text = format!("{word}{tail}");
                let mut reader = JsonEvents::new(&text);
                let reference = reader.plain().map(|word| {
                    let value = match resolve_json(word) {
                        Resolved::Null => DocValue::Null,
                        Resolved::Bool(v) => DocValue::Bool(v),
                        Resolved::Int(v) => DocValue::Int(Int::new(v)),
                        Resolved::Float(v) => DocValue::Float(v),
                        Resolved::Str => DocValue::Str(Cow::Borrowed(word)),
                    };
                    (value, reader.pos)
                });
                if let Some(short) = short_plain(text.as_bytes(), 0) {
                    assert_eq!(Some(short), reference, "{text:?}");
                    taken += 1;
                }
            }
        }
        // The 9 integers of up to 18 digits and literals before each of the 8 endings, and
        // "70", "-120" and "-0" made with the tail "0".
        assert_eq!(taken, 9 * 8 + 3, "short path taken {taken} times");
    }

    /// The eight-byte skip never passes over a byte the string reader must look at.
    #[test]
    fn the_word_test_sees_every_stop_byte() {
        for b in 0..=255u8 {
            for at in 0..8 {
                let mut word = [b'a'; 8];
                word[at] = b;
                let mask = look_mask(u64::from_le_bytes(word));
                let looks = mask != 0;
                // The lowest flagged byte is the first that may stop.
                assert!(!looks || mask.trailing_zeros() as usize / 8 == at, "{b:#x} at {at}");
                assert!(looks || !stops(b), "{b:#x} at {at}");
                assert!(!looks || stops(b) || b >= 0x80, "{b:#x} at {at}");
            }
        }
        assert_eq!(look_mask(u64::from_le_bytes(*b"abc-/:. ")), 0);
        // Words with several candidates: the lowest flag is the first byte that may stop.
        let mut seed = 1u64;
        for _ in 0..100_000 {
            let mut word = [0u8; 8];
            for byte in &mut word {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let pick = (seed >> 33) % 8;
                *byte = [b'a', b'"', b'\\', 0x1f, 0x7f, 0x80, 0xc3, b' '][usize::try_from(pick).unwrap()];
            }
            let first = word
                .iter()
                .position(|&b| stops(b) || b >= 0x80)
                .map_or(64, |at| at * 8 + 7);
            assert_eq!(
                look_mask(u64::from_le_bytes(word)).trailing_zeros() as usize,
                first,
                "{word:?}"
            );
        }
    }

    #[test]
    fn gives_up_where_libyaml_might_differ() {
        let long_key = format!("{{\"{}\": 1}}", "k".repeat(2000));
        for text in [
            "{a: 1}",
            "{\"a\": yes}",
            "{\"a\": 01}",
            "{\"a\": 1,}",
            "{\"a\"\n: 1}",
            "\t{}",
            "{}\n\t",
            "{} {}",
            "{\"a\": \"\\ud83d\\ude00\"}",
            "{\"a\": \"\u{85}\"}",
            "{\"a\": \"\u{2028}\"}",
            "{\"a\": \"\u{7f}\"}",
            "{\"a\": \"tab\there\"}",
            "\"scalar\"",
            "--- {}",
            "{} # comment",
            long_key.as_str(),
        ] {
            assert!(events(text).is_err(), "{text:?}");
        }
    }
}
