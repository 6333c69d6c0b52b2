//! JSON straight into the document tree.
//!
//! Admission requests, `kubectl get -o json` output and `.json` files are JSON, which is
//! (almost) a subset of YAML: libyaml reads them, but slowly (most of a decision's time went
//! there). This module reads strict JSON itself and produces the same events libyaml produces
//! for the same text (same spans, same scalar styles), which [`crate::doc`] turns into the same
//! tree through the same builder: duplicate keys, limits and pointers cannot drift apart.
//!
//! Where libyaml reads a text differently from a JSON parser, the YAML path stays the truth:
//! anything this reader is not sure of (invalid JSON, a tab outside the value, a key more than
//! 1000 bytes before its `:` or on another line, surrogate escapes, characters libyaml treats as
//! line breaks or refuses) makes it give up, and the caller reads the chunk with libyaml as
//! before. Giving up is cheap: it happens before any tree is kept.

use std::borrow::Cow;

use ra2_yaml::{Error, Event, EventKind, Mark, Scalar, ScalarStyle};

/// libyaml forgets a possible simple key more than 1024 characters before its `:`; stay well
/// inside that.
const MAX_KEY_DISTANCE: usize = 1000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// One entry per open collection: true for a mapping.
    stack: Vec<bool>,
    state: State,
}

fn mark(offset: usize) -> Mark {
    Mark {
        offset,
        line: 0,
        column: 0,
    }
}

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
    fn skip_ws(&mut self) -> bool {
        let mut newline = false;
        while let Some(b) = self.peek() {
            match b {
                b' ' | b'\t' | b'\r' => {}
                b'\n' => newline = true,
                _ => break,
            }
            self.pos += 1;
        }
        newline
    }

    /// Skips whitespace outside the root value, where libyaml refuses tabs in places.
    fn skip_outer_ws(&mut self) -> Result<(), Error> {
        while let Some(b) = self.peek() {
            match b {
                b' ' | b'\r' | b'\n' => self.pos += 1,
                b'\t' => return Err(give_up(self.pos)),
                _ => break,
            }
        }
        Ok(())
    }

    /// A `---` line with nothing else on it, as a chunk after the first starts.
    fn skip_document_marker(&mut self) -> bool {
        let Some(rest) = self.text.strip_prefix("---") else {
            return false;
        };
        let line = rest.split('\n').next().unwrap_or_default();
        if rest.len() == line.len() || !line.bytes().all(|b| b == b' ' || b == b'\r') {
            return false;
        }
        self.pos = 3 + line.len() + 1;
        true
    }

    /// A string starting at the `"` under the cursor; returns its content.
    fn string(&mut self) -> Result<Cow<'s, str>, Error> {
        let text = self.text;
        let bytes = self.bytes();
        let start = self.pos + 1;
        let mut i = start;
        let mut owned: Option<String> = None;
        let mut run = start;
        loop {
            let Some(&b) = bytes.get(i) else {
                return Err(give_up(i));
            };
            match b {
                b'"' => {
                    let tail = text.get(run..i).ok_or_else(|| give_up(i))?;
                    self.pos = i + 1;
                    return Ok(match owned {
                        Some(mut s) => {
                            s.push_str(tail);
                            Cow::Owned(s)
                        }
                        None => Cow::Borrowed(tail),
                    });
                }
                b'\\' => {
                    let s = owned.get_or_insert_with(String::new);
                    s.push_str(text.get(run..i).ok_or_else(|| give_up(i))?);
                    let esc = bytes.get(i + 1).copied().ok_or_else(|| give_up(i))?;
                    i += 2;
                    let c = match esc {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hex = text.get(i..i + 4).ok_or_else(|| give_up(i))?;
                            if !hex.bytes().all(|h| h.is_ascii_hexdigit()) {
                                return Err(give_up(i));
                            }
                            let code = u32::from_str_radix(hex, 16).map_err(|_| give_up(i))?;
                            i += 4;
                            // libyaml refuses surrogate escapes (even paired ones).
                            char::from_u32(code).ok_or_else(|| give_up(i))?
                        }
                        _ => return Err(give_up(i)),
                    };
                    s.push(c);
                    run = i;
                }
                0..=0x1f | 0x7f => return Err(give_up(i)),
                0xc2 if matches!(bytes.get(i + 1), Some(0x80..=0x9f)) => return Err(give_up(i)),
                0xe2 if bytes.get(i + 1) == Some(&0x80) && matches!(bytes.get(i + 2), Some(0xa8 | 0xa9)) => {
                    return Err(give_up(i));
                }
                0xef if matches!(
                    (bytes.get(i + 1), bytes.get(i + 2)),
                    (Some(0xbb), Some(0xbf)) | (Some(0xbf), Some(0xbe | 0xbf))
                ) =>
                {
                    return Err(give_up(i));
                }
                _ => i += 1,
            }
        }
    }

    /// A number, `true`, `false` or `null` under the cursor, as libyaml's plain scalar.
    fn plain(&mut self) -> Result<&'s str, Error> {
        let bytes = self.bytes();
        let start = self.pos;
        let end = start
            + bytes
                .get(start..)
                .unwrap_or_default()
                .iter()
                .position(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b',' | b']' | b'}'))
                .unwrap_or(bytes.len() - start);
        let word = self.text.get(start..end).ok_or_else(|| give_up(start))?;
        if !(matches!(word, "true" | "false" | "null") || is_json_number(word.as_bytes())) {
            return Err(give_up(start));
        }
        self.pos = end;
        Ok(word)
    }

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
                let value = self.string()?;
                self.state = State::Next;
                Ok(scalar(value, ScalarStyle::DoubleQuoted, start, self.pos))
            }
            _ => {
                let word = self.plain()?;
                self.state = State::Next;
                Ok(scalar(Cow::Borrowed(word), ScalarStyle::Plain, start, self.pos))
            }
        }
    }

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
    fn key(&mut self) -> Result<Event<'s>, Error> {
        let start = self.pos;
        if self.peek() != Some(b'"') {
            return Err(give_up(start));
        }
        let value = self.string()?;
        let end = self.pos;
        if self.skip_ws() || self.peek() != Some(b':') || self.pos - start > MAX_KEY_DISTANCE {
            return Err(give_up(self.pos));
        }
        self.pos += 1;
        self.state = State::Value;
        Ok(scalar(value, ScalarStyle::DoubleQuoted, start, end))
    }

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
