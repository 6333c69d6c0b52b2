//! A safe YAML event reader over libyaml, with byte-exact spans.
//!
//! This crate is the one place in ra2 with `unsafe` code: a thin wrapper over
//! [`unsafe_libyaml`], the Rust transpilation of libyaml that `serde_yaml` uses.
//! libyaml is what go-yaml v2 (and therefore `kubectl` and the API server, through
//! `sigs.k8s.io/yaml`) was ported from, so it accepts exactly the lenient YAML real
//! charts contain (flow collections indented less than their parent, for example),
//! which stricter YAML 1.2 parsers reject.
//!
//! The reader only produces events. It does not resolve plain scalars, expand
//! aliases or merge keys: `ra2-core` does that the way the API server does.
//!
//! ```
//! use ra2_yaml::{EventKind, Parser};
//! let kinds: Vec<_> = Parser::new("a: 1").map(|e| e.unwrap().kind).collect();
//! assert!(matches!(kinds[3], EventKind::Scalar(ref s) if s.value == "a"));
//! ```

use std::borrow::Cow;
use std::ffi::CStr;
use std::fmt;
use std::mem::MaybeUninit;
use std::ptr::addr_of_mut;

// `sys` reads like the FFI binding it is; the `unsafe` stays visible at every call site.
#[allow(clippy::unsafe_removed_from_name)]
use unsafe_libyaml as sys;

/// A position in the input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mark {
    /// Byte offset from the start of the input.
    pub offset: usize,
    /// 0-based line.
    pub line: usize,
    /// 0-based column, in characters.
    pub column: usize,
}

impl Mark {
    fn from_sys(mark: sys::yaml_mark_t) -> Self {
        Mark {
            offset: usize::try_from(mark.index).unwrap_or(usize::MAX),
            line: usize::try_from(mark.line).unwrap_or(usize::MAX),
            column: usize::try_from(mark.column).unwrap_or(usize::MAX),
        }
    }
}

/// How a scalar was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarStyle {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

/// A scalar event's payload.
#[derive(Clone, Debug, PartialEq)]
pub struct Scalar<'a> {
    /// The scalar's content after unescaping and folding. Borrowed from the input when it is
    /// written there verbatim (the common case for plain scalars).
    pub value: Cow<'a, str>,
    pub style: ScalarStyle,
    pub anchor: Option<String>,
    /// The resolved tag (`tag:yaml.org,2002:str` for `!!str`), if one was written.
    pub tag: Option<String>,
}

/// What happened.
#[derive(Clone, Debug, PartialEq)]
pub enum EventKind<'a> {
    StreamStart,
    StreamEnd,
    DocumentStart {
        /// `---` was written.
        explicit: bool,
    },
    DocumentEnd,
    Alias {
        anchor: String,
    },
    Scalar(Scalar<'a>),
    SequenceStart {
        anchor: Option<String>,
        tag: Option<String>,
        flow: bool,
    },
    SequenceEnd,
    MappingStart {
        anchor: Option<String>,
        tag: Option<String>,
        flow: bool,
    },
    MappingEnd,
}

/// One event with the span of input it covers.
#[derive(Clone, Debug, PartialEq)]
pub struct Event<'a> {
    pub kind: EventKind<'a>,
    pub start: Mark,
    pub end: Mark,
}

/// A syntax error reported by libyaml.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What went wrong, e.g. `did not find expected key`.
    pub problem: String,
    /// Where the problem was found.
    pub mark: Mark,
    /// What libyaml was reading, e.g. `while parsing a block mapping`.
    pub context: Option<String>,
    /// Where that construct started.
    pub context_mark: Option<Mark>,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.problem)?;
        if let (Some(context), Some(mark)) = (&self.context, self.context_mark) {
            write!(f, " {context} started at line {}", mark.line + 1)?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// An iterator of [`Event`]s over a UTF-8 string. It stops after `StreamEnd` or the first error.
pub struct Parser<'a> {
    // Boxed so that the address libyaml stores in `read_handler_data` stays valid.
    sys: Box<sys::yaml_parser_t>,
    input: &'a str,
    finished: bool,
}

impl fmt::Debug for Parser<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Parser")
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}

impl<'a> Parser<'a> {
    /// Reads `input`. The input is borrowed for the parser's lifetime.
    #[must_use]
    pub fn new(input: &'a str) -> Self {
        let mut uninit: Box<MaybeUninit<sys::yaml_parser_t>> = Box::new(MaybeUninit::uninit());
        let ptr = uninit.as_mut_ptr();
        // SAFETY: `ptr` points to writable, properly aligned memory for a `yaml_parser_t`;
        // `yaml_parser_initialize` fully initialises it (it only fails on allocation failure,
        // which aborts in Rust's allocator before returning). The input pointer and length
        // describe `input`, which outlives the parser ('a), and libyaml only reads from it.
        let ok = unsafe {
            let ok = !sys::yaml_parser_initialize(ptr).fail;
            if ok {
                sys::yaml_parser_set_encoding(ptr, sys::YAML_UTF8_ENCODING);
                sys::yaml_parser_set_input_string(ptr, input.as_ptr(), input.len() as u64);
            }
            ok
        };
        // SAFETY: initialised above (on failure libyaml zeroes the struct before failing,
        // and we mark the parser finished so it is never used).
        let sys = unsafe { Box::from_raw(Box::into_raw(uninit).cast::<sys::yaml_parser_t>()) };
        Parser {
            sys,
            input,
            finished: !ok,
        }
    }

    fn error(&mut self) -> Error {
        let parser: &sys::yaml_parser_t = &self.sys;
        // SAFETY: libyaml sets `problem` and `context` to NUL-terminated static strings or null.
        let problem = unsafe { c_str(parser.problem) }.unwrap_or_else(|| "unknown YAML error".to_owned());
        let context = unsafe { c_str(parser.context) };
        let mut mark = Mark::from_sys(parser.problem_mark);
        if parser.error == sys::YAML_READER_ERROR {
            mark.offset = usize::try_from(parser.problem_offset).unwrap_or(mark.offset);
        }
        Error {
            problem,
            mark,
            context_mark: context.as_ref().map(|_| Mark::from_sys(parser.context_mark)),
            context,
        }
    }

    fn next_event(&mut self) -> Result<Event<'a>, Error> {
        let mut event = MaybeUninit::<sys::yaml_event_t>::uninit();
        let parser = addr_of_mut!(*self.sys);
        // SAFETY: the parser was initialised in `new` and has not been deleted; `event` is
        // writable memory that `yaml_parser_parse` initialises when it succeeds.
        let failed = unsafe { sys::yaml_parser_parse(parser, event.as_mut_ptr()).fail };
        if failed {
            return Err(self.error());
        }
        // SAFETY: `yaml_parser_parse` succeeded, so `event` is initialised; it is deleted
        // exactly once, after everything we need has been copied out of it.
        unsafe {
            let event = event.as_mut_ptr();
            let converted = self.convert(&*event);
            sys::yaml_event_delete(event);
            Ok(converted)
        }
    }

    /// Copies an event out of libyaml's memory.
    ///
    /// # Safety
    /// `event` must be a fully initialised event returned by `yaml_parser_parse`.
    unsafe fn convert(&self, event: &sys::yaml_event_t) -> Event<'a> {
        let start = Mark::from_sys(event.start_mark);
        let end = Mark::from_sys(event.end_mark);
        // SAFETY (whole block): each union field read matches `event.type_`, which libyaml
        // sets together with the data; pointers are null or NUL-terminated strings, and the
        // scalar value pointer is valid for `length` bytes.
        let kind = unsafe {
            match event.type_ {
                sys::YAML_STREAM_START_EVENT => EventKind::StreamStart,
                sys::YAML_DOCUMENT_START_EVENT => EventKind::DocumentStart {
                    explicit: !event.data.document_start.implicit,
                },
                sys::YAML_DOCUMENT_END_EVENT => EventKind::DocumentEnd,
                sys::YAML_ALIAS_EVENT => EventKind::Alias {
                    anchor: c_str(event.data.alias.anchor.cast()).unwrap_or_default(),
                },
                sys::YAML_SCALAR_EVENT => {
                    let data = event.data.scalar;
                    let len = usize::try_from(data.length).unwrap_or(0);
                    let bytes: &[u8] = if data.value.is_null() || len == 0 {
                        &[]
                    } else {
                        std::slice::from_raw_parts(data.value, len)
                    };
                    let style = match data.style {
                        sys::YAML_SINGLE_QUOTED_SCALAR_STYLE => ScalarStyle::SingleQuoted,
                        sys::YAML_DOUBLE_QUOTED_SCALAR_STYLE => ScalarStyle::DoubleQuoted,
                        sys::YAML_LITERAL_SCALAR_STYLE => ScalarStyle::Literal,
                        sys::YAML_FOLDED_SCALAR_STYLE => ScalarStyle::Folded,
                        _ => ScalarStyle::Plain,
                    };
                    EventKind::Scalar(Scalar {
                        value: self.borrow_or_copy(bytes, start, end),
                        style,
                        anchor: c_str(data.anchor.cast()),
                        tag: c_str(data.tag.cast()),
                    })
                }
                sys::YAML_SEQUENCE_START_EVENT => {
                    let data = event.data.sequence_start;
                    EventKind::SequenceStart {
                        anchor: c_str(data.anchor.cast()),
                        tag: c_str(data.tag.cast()),
                        flow: data.style == sys::YAML_FLOW_SEQUENCE_STYLE,
                    }
                }
                sys::YAML_SEQUENCE_END_EVENT => EventKind::SequenceEnd,
                sys::YAML_MAPPING_START_EVENT => {
                    let data = event.data.mapping_start;
                    EventKind::MappingStart {
                        anchor: c_str(data.anchor.cast()),
                        tag: c_str(data.tag.cast()),
                        flow: data.style == sys::YAML_FLOW_MAPPING_STYLE,
                    }
                }
                sys::YAML_MAPPING_END_EVENT => EventKind::MappingEnd,
                _ => EventKind::StreamEnd,
            }
        };
        Event { kind, start, end }
    }

    /// Plain scalars are usually written verbatim; borrow them from the input instead of
    /// allocating.
    fn borrow_or_copy(&self, bytes: &[u8], start: Mark, end: Mark) -> Cow<'a, str> {
        if let Some(written) = self.input.get(start.offset..end.offset) {
            if written.as_bytes() == bytes {
                return Cow::Borrowed(written);
            }
        }
        match std::str::from_utf8(bytes) {
            Ok(s) => Cow::Owned(s.to_owned()),
            Err(_) => Cow::Owned(String::from_utf8_lossy(bytes).into_owned()),
        }
    }
}

/// # Safety
/// `ptr` must be null or point to a NUL-terminated string.
unsafe fn c_str(ptr: *const std::ffi::c_char) -> Option<String> {
    if ptr.is_null() {
        None
    } else {
        // SAFETY: guaranteed by the caller.
        Some(unsafe { CStr::from_ptr(ptr) }.to_string_lossy().into_owned())
    }
}

impl<'a> Iterator for Parser<'a> {
    type Item = Result<Event<'a>, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.finished {
            return None;
        }
        let result = self.next_event();
        match &result {
            Err(_)
            | Ok(Event {
                kind: EventKind::StreamEnd,
                ..
            }) => self.finished = true,
            Ok(_) => {}
        }
        Some(result)
    }
}

impl Drop for Parser<'_> {
    fn drop(&mut self) {
        // SAFETY: the parser was initialised in `new` (or zeroed by a failed initialise, which
        // `yaml_parser_delete` accepts) and is deleted exactly once.
        unsafe { sys::yaml_parser_delete(addr_of_mut!(*self.sys)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(input: &str) -> Vec<EventKind<'_>> {
        Parser::new(input)
            .map(|e| e.map(|e| e.kind))
            .collect::<Result<_, _>>()
            .unwrap()
    }

    #[test]
    fn spans_are_byte_offsets() {
        let input = "é: ñ\nk: v\n";
        let events: Vec<_> = Parser::new(input).collect::<Result<_, _>>().unwrap();
        let scalars: Vec<_> = events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Scalar(_)))
            .map(|e| (&input[e.start.offset..e.end.offset], e.start.line, e.start.column))
            .collect();
        assert_eq!(scalars, vec![("é", 0, 0), ("ñ", 0, 3), ("k", 1, 0), ("v", 1, 3)]);
    }

    #[test]
    fn plain_scalars_borrow_and_quoted_unescape() {
        let ks = kinds("a: plain\nb: \"x\\ty\"\n");
        let values: Vec<_> = ks
            .iter()
            .filter_map(|k| match k {
                EventKind::Scalar(s) => Some((s.value.clone(), matches!(s.value, Cow::Borrowed(_)))),
                _ => None,
            })
            .collect();
        assert_eq!(values[1], (Cow::Borrowed("plain"), true));
        assert_eq!(values[3].0, "x\ty");
    }

    #[test]
    fn anchors_tags_and_aliases_are_reported() {
        let ks = kinds("a: &x !!str 010\nb: *x\n");
        assert!(ks.iter().any(|k| matches!(k, EventKind::Scalar(s) if s.anchor.as_deref() == Some("x") && s.tag.as_deref() == Some("tag:yaml.org,2002:str"))));
        assert!(
            ks.iter()
                .any(|k| matches!(k, EventKind::Alias { anchor } if anchor == "x"))
        );
    }

    #[test]
    fn syntax_errors_carry_a_position_and_stop_the_stream() {
        let mut parser = Parser::new("a: b\n c: d\n");
        let err = parser.by_ref().find_map(Result::err).unwrap();
        assert_eq!(err.mark.line, 1);
        assert!(err.problem.contains("mapping values"), "{err}");
        assert!(parser.next().is_none());
    }

    #[test]
    fn lenient_flow_indentation_is_accepted_like_go_yaml() {
        // Real charts write flow sequences less indented than their key; libyaml (and go-yaml)
        // accept this.
        assert!(Parser::new("a:\n  args: [\n \"x\",\n  ]\n").all(|e| e.is_ok()));
    }

    #[test]
    fn block_scalar_at_end_of_input_without_newline() {
        let ks = kinds("a: |\n  text");
        assert!(
            ks.iter()
                .any(|k| matches!(k, EventKind::Scalar(s) if s.value == "text"))
        );
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_input_never_panics(input in "\\PC{0,64}") {
            for event in Parser::new(&input) {
                if event.is_err() { break; }
            }
        }

        #[test]
        fn yaml_like_input_never_panics(input in "([ \\-:\\[\\]{}|>&*!#'\",?\n]|[a-z]{1,3}){0,48}") {
            for event in Parser::new(&input) {
                if event.is_err() { break; }
            }
        }
    }
}
