//! Splitting a manifest stream into documents, and turning byte offsets into lines and columns.
//!
//! A line that starts with `---` (followed by a space, tab or line end) always starts a new
//! document in YAML, even inside a block or quoted scalar, so splitting on those lines before
//! parsing is exact. It lets one malformed document fail alone while the others are linted,
//! and lets a caller stream large inputs one document at a time.

/// A span of bytes in a file (absolute offsets).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    pub const fn len(self) -> usize {
        self.end.saturating_sub(self.start)
    }

    pub const fn is_empty(self) -> bool {
        self.end <= self.start
    }
}

/// One chunk of a stream: the text from one `---` line (inclusive) to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunk<'a> {
    pub text: &'a str,
    /// Byte offset of `text` in the file.
    pub offset: usize,
    /// 0-based line of `text`'s first line in the file.
    pub line: usize,
}

/// Strips a UTF-8 byte order mark. Returns the text and how many bytes were removed.
pub fn strip_bom(text: &str) -> (&str, usize) {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => (rest, '\u{feff}'.len_utf8()),
        None => (text, 0),
    }
}

/// True when `line` (without its line break) is a document start marker.
pub(crate) fn is_document_start(line: &[u8]) -> bool {
    line.starts_with(b"---") && matches!(line.get(3), None | Some(b' ' | b'\t' | b'\r'))
}

/// The end of the line that starts at `pos` (the offset of its line break, or the end of
/// `bytes`) and the start of the next line. A line break is `\n`, `\r\n` or a lone `\r`, as in
/// YAML (and libyaml).
pub fn line_end(bytes: &[u8], pos: usize) -> (usize, usize) {
    let rest = bytes.get(pos..).unwrap_or_default();
    match find_break(rest) {
        None => (bytes.len(), bytes.len()),
        Some(i) => {
            let end = pos + i;
            let crlf = bytes.get(end) == Some(&b'\r') && bytes.get(end + 1) == Some(&b'\n');
            (end, end + if crlf { 2 } else { 1 })
        }
    }
}

/// The first `\n` or `\r` in `bytes`. Long lines (compact JSON is one line) are skipped a block
/// at a time: the test of a whole block compiles to vector instructions (hence `|`, not `||`,
/// which would branch per byte).
#[allow(clippy::needless_bitwise_bool)]
fn find_break(bytes: &[u8]) -> Option<usize> {
    const BLOCK: usize = 32;
    let mut skipped = 0;
    for block in bytes.chunks_exact(BLOCK) {
        if block.iter().fold(false, |hit, &b| hit | (b == b'\n') | (b == b'\r')) {
            break;
        }
        skipped += BLOCK;
    }
    let rest = bytes.get(skipped..).unwrap_or_default();
    rest.iter().position(|&b| b == b'\n' || b == b'\r').map(|i| skipped + i)
}

/// The number of line breaks (`\n`, `\r\n`, lone `\r`) in `bytes`.
pub fn count_line_breaks(bytes: &[u8]) -> usize {
    // Carriage returns are rare, and only a lone one (not before a line feed) adds a line.
    let feeds = bytecount::count(bytes, b'\n');
    let lone_returns = memchr::memchr_iter(b'\r', bytes)
        .filter(|&i| bytes.get(i + 1) != Some(&b'\n'))
        .count();
    feeds + lone_returns
}

/// Where the chunks of `bytes` start: (byte offset in `bytes`, 0-based line relative to the
/// first line). The first chunk always starts at 0.
pub fn chunk_starts(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = vec![(0, 0)];
    // Only a `---` at the start of a line can start a chunk: find those, and count the lines
    // between them, instead of looking at every line.
    let (mut counted, mut line) = (0, 0);
    for pos in memchr::memmem::find_iter(bytes, b"---") {
        let at_line_start = matches!(pos.checked_sub(1).and_then(|i| bytes.get(i)), Some(b'\n' | b'\r'));
        if !at_line_start || !is_document_start(bytes.get(pos..line_end(bytes, pos).0).unwrap_or_default()) {
            continue;
        }
        line += count_line_breaks(bytes.get(counted..pos).unwrap_or_default());
        counted = pos;
        out.push((pos, line));
    }
    out
}

/// Splits `text` (which starts at `offset`, line `line` of its file) into chunks.
pub fn chunks(text: &str, offset: usize, line: usize) -> Vec<Chunk<'_>> {
    let starts = chunk_starts(text.as_bytes());
    let ends = starts.iter().skip(1).map(|&(start, _)| start).chain([text.len()]);
    starts
        .iter()
        .zip(ends)
        .map(|(&(start, rel_line), end)| Chunk {
            text: text.get(start..end).unwrap_or_default(),
            offset: offset + start,
            line: line + rel_line,
        })
        .collect()
}

/// A 1-based position as users and editors count it: line, and column in characters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// Maps absolute byte offsets inside one chunk to positions.
#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Absolute offsets where each line of the chunk starts (the first line's may be left out:
    /// it is the chunk's offset).
    starts: Vec<usize>,
    first_line: usize,
    offset: usize,
    /// Characters before the chunk on its first line (a List item that starts mid-line).
    first_column: usize,
    /// For a chunk with non-ASCII text, the characters before each [`CHECKPOINT`]-byte block
    /// of it, so that a column on a long line (compact JSON is one line) is counted from the
    /// nearest checkpoints, not from the line start. Empty for ASCII text, where a column is a
    /// byte count.
    chars_before: Vec<usize>,
}

/// Bytes between two character-count checkpoints of a [`LineIndex`].
const CHECKPOINT: usize = 1024;

/// The characters in `bytes` that start at a char boundary: every byte but UTF-8 continuation
/// bytes. For a range between two char boundaries of a `str`, its number of characters.
fn char_starts(bytes: &[u8]) -> usize {
    // `as i8`: the continuation bytes 0x80..=0xBF are exactly those below -0x40.
    #[allow(clippy::cast_possible_wrap)]
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

impl LineIndex {
    pub fn new(chunk: &Chunk<'_>) -> Self {
        let bytes = chunk.text.as_bytes();
        let mut starts = Vec::with_capacity(count_line_breaks(bytes) + 1);
        starts.push(chunk.offset);
        // A line starts after each line break; a `\r` before a `\n` is one break with it.
        if memchr::memchr(b'\r', bytes).is_none() {
            starts.extend(memchr::memchr_iter(b'\n', bytes).map(|i| chunk.offset + i + 1));
        } else {
            starts.extend(
                memchr::memchr2_iter(b'\n', b'\r', bytes)
                    .filter(|&i| bytes.get(i) == Some(&b'\n') || bytes.get(i + 1) != Some(&b'\n'))
                    .map(|i| chunk.offset + i + 1),
            );
        }
        let chars_before = if bytes.is_ascii() {
            Vec::new()
        } else {
            let mut before = 0;
            bytes
                .chunks(CHECKPOINT)
                .map(|block| {
                    let at = before;
                    before += char_starts(block);
                    at
                })
                .collect()
        };
        LineIndex {
            starts,
            first_line: chunk.line,
            offset: chunk.offset,
            first_column: 0,
            chars_before,
        }
    }

    /// The index of a chunk known to be one line of ASCII (a JSON reader saw no line break and
    /// no byte from 0x80), built without reading it.
    pub(crate) fn one_ascii_line(chunk: &Chunk<'_>) -> Self {
        LineIndex {
            // No line start after a break: the chunk's start is the only one.
            starts: Vec::new(),
            first_line: chunk.line,
            offset: chunk.offset,
            first_column: 0,
            chars_before: Vec::new(),
        }
    }

    /// The index of a chunk that starts after `column` characters of its first line.
    #[must_use]
    pub fn with_first_column(mut self, column: usize) -> Self {
        self.first_column = column;
        self
    }

    /// The characters of chunk `text` before byte `at` (a char boundary), from the checkpoint
    /// before it.
    fn chars_to(&self, text: &str, at: usize) -> usize {
        let block = at / CHECKPOINT;
        let base = self.chars_before.get(block).copied().unwrap_or_default();
        base + char_starts(text.as_bytes().get(block * CHECKPOINT..at).unwrap_or_default())
    }

    /// The position of absolute byte `offset`, which must lie in the chunk `text`.
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let idx = self.starts.partition_point(|&s| s <= offset).saturating_sub(1);
        let line_start = self.starts.get(idx).copied().unwrap_or(self.offset);
        let rel_start = line_start.saturating_sub(self.offset);
        let rel_end = offset.saturating_sub(self.offset).min(text.len());
        let bytes = rel_end.saturating_sub(rel_start);
        let column = match text.get(rel_start..rel_end) {
            _ if self.chars_before.is_empty() => bytes,
            Some(s) if bytes <= 2 * CHECKPOINT => s.chars().count(),
            Some(_) => self.chars_to(text, rel_end) - self.chars_to(text, rel_start),
            None => bytes,
        };
        Position {
            line: self.first_line + idx + 1,
            column: column + 1 + if idx == 0 { self.first_column } else { 0 },
        }
    }
}

/// The position of absolute byte `offset` in `chunk` (which starts after `first_column`
/// characters of its first line), counted from the chunk's start: what [`LineIndex::position`]
/// gives, without building the index, for a document asked only a few positions.
pub fn count_position(chunk: &Chunk<'_>, first_column: usize, offset: usize) -> Position {
    let text = chunk.text;
    let bytes = text.as_bytes();
    let rel = offset.saturating_sub(chunk.offset).min(bytes.len());
    // The `\n` of a `\r\n` is on the line that the `\r` ends.
    let in_crlf = rel > 0 && bytes.get(rel - 1) == Some(&b'\r') && bytes.get(rel) == Some(&b'\n');
    let head = bytes.get(..if in_crlf { rel - 1 } else { rel }).unwrap_or_default();
    let line = count_line_breaks(head);
    let line_start = memchr::memrchr2(b'\n', b'\r', head).map_or(0, |i| i + 1);
    let column = text
        .get(line_start..rel)
        .map_or(rel.saturating_sub(line_start), |s| char_starts(s.as_bytes()));
    Position {
        line: chunk.line + line + 1,
        column: column + 1 + if line == 0 { first_column } else { 0 },
    }
}

/// The Helm template a chunk was rendered from: `helm template` writes
/// `# Source: <chart>/templates/<file>` in the comment lines that open each document. Only
/// those opening lines are read, so this costs nothing on large documents.
pub fn helm_source(text: &str) -> Option<&str> {
    for (i, line) in lines(text).enumerate() {
        if i == 0 && is_document_start(line.as_bytes()) {
            if line.get(3..).is_some_and(|rest| !rest.trim().is_empty()) {
                return None;
            }
            continue;
        }
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let comment = line.strip_prefix('#')?;
        if let Some(path) = comment.trim_start().strip_prefix("Source:") {
            let path = path.trim();
            return (!path.is_empty()).then_some(path);
        }
    }
    None
}

/// `bytes` as text of the same length, each byte of an invalid UTF-8 sequence shown as `?`, so
/// that byte offsets into the original stay right (for snippets around a document that is not
/// UTF-8).
pub fn same_length_lossy(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(text) => {
                out.push_str(text);
                return out;
            }
            Err(e) => {
                let (valid, after) = rest.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                let bad = e.error_len().unwrap_or(after.len()).max(1).min(after.len());
                out.extend(std::iter::repeat_n('?', bad));
                rest = after.get(bad..).unwrap_or_default();
                if rest.is_empty() {
                    return out;
                }
            }
        }
    }
}

/// The 1-based line and column (in characters) of byte `at` of `bytes`, whose first line is
/// 0-based line `first_line` of its file.
pub fn byte_position(bytes: &[u8], at: usize, first_line: usize) -> Position {
    let before = bytes.get(..at).unwrap_or(bytes);
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
        .map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(before.get(line_start..).unwrap_or_default())
        .chars()
        .count();
    Position {
        line: first_line + count_line_breaks(before) + 1,
        column: column + 1,
    }
}

/// The lines of `text` without their line breaks (`\n`, `\r\n` or a lone `\r`).
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut pos = 0;
    std::iter::from_fn(move || {
        if pos >= bytes.len() {
            return None;
        }
        let (end, next) = line_end(bytes, pos);
        let line = text.get(pos..end).unwrap_or_default();
        pos = next;
        Some(line)
    })
}

/// True when the text looks like an unrendered Helm/Go template (`{{ ... }}` actions).
pub fn looks_templated(text: &str) -> bool {
    text.contains("{{") && text.contains("}}")
}

/// The `{{ ... }}` actions of a text, as byte ranges (an action left open runs to the end).
fn actions(text: &str) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let mut from = 0;
    std::iter::from_fn(move || {
        let start = from + text.get(from..)?.find("{{")?;
        let end = text
            .get(start + 2..)
            .and_then(|rest| rest.find("}}"))
            .map_or(text.len(), |at| start + 2 + at + 2);
        from = end;
        Some(start..end)
    })
}

/// What only a Helm template says: its built-in objects and its template functions. Other Go
/// templates that rendered manifests carry as data (Prometheus' `{{ $labels.pod }}`,
/// Alertmanager's `{{ .CommonLabels }}`, Argo's `{{inputs.parameters.x}}`) use none of them.
const HELM_WORDS: &[&str] = &[
    ".Values",
    ".Release.",
    ".Chart.",
    ".Capabilities.",
    ".Files.",
    ".Template.",
    "include \"",
    "tpl ",
];

/// The first action of `text` that only an unrendered Helm template holds (see [`HELM_WORDS`]),
/// as a byte range of `text`.
pub fn helm_action(text: &str) -> Option<std::ops::Range<usize>> {
    actions(text).find(|range| {
        text.get(range.clone())
            .is_some_and(|action| HELM_WORDS.iter().any(|word| action.contains(word)))
    })
}

/// The text of [`helm_action`]'s action in `text`, shortened to 60 bytes.
pub fn helm_action_text(text: &str) -> Option<&str> {
    let range = helm_action(text)?;
    let action = text.get(range)?;
    let end = (0..=action.len().min(60))
        .rev()
        .find(|&at| action.is_char_boundary(at))
        .unwrap_or(0);
    Some(action.get(..end).unwrap_or(action))
}

/// The text with every `{{ ... }}` action replaced by spaces (line breaks kept, so positions
/// stay), for reading a template as the file it would render to.
pub fn blank_actions(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for range in actions(text) {
        out.push_str(text.get(last..range.start).unwrap_or_default());
        for c in text.get(range.clone()).unwrap_or_default().chars() {
            match c {
                '\n' | '\r' => out.push(c),
                _ => (0..c.len_utf8()).for_each(|_| out.push(' ')),
            }
        }
        last = range.end;
    }
    out.push_str(text.get(last..).unwrap_or_default());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> Vec<&str> {
        chunks(s, 0, 0).into_iter().map(|c| c.text).collect()
    }

    /// The block-wise search finds what a byte-by-byte one finds, at every place in a block.
    #[test]
    fn line_breaks_are_found_in_and_across_blocks() {
        for len in [0, 1, 31, 32, 33, 64, 100] {
            for at in 0..len {
                for brk in [b'\n', b'\r'] {
                    let mut bytes = vec![b'x'; len];
                    bytes[at] = brk;
                    assert_eq!(find_break(&bytes), Some(at), "{len} {at}");
                    if at + 1 < len {
                        bytes[at + 1] = b'\n';
                        assert_eq!(find_break(&bytes), Some(at));
                    }
                }
            }
            assert_eq!(find_break(&vec![b'x'; len]), None);
        }
    }

    #[test]
    fn helm_actions_and_blanking() {
        assert_eq!(helm_action("a {{ .Values.x }} b"), Some(2..17));
        assert_eq!(helm_action("{{ $labels.pod }} {{ include \"x\" . }}"), Some(18..37));
        assert_eq!(helm_action("{{ $labels.pod }} is down ({{ .CommonLabels }})"), None);
        assert_eq!(helm_action("{{ .Values.x"), Some(0..12));
        assert_eq!(helm_action("no action"), None);
        let text = "a: {{ .Values.a }}\n{{- if .Values.b }}\nb: \"{{ x\n}}\"\n{{- end }}\n";
        let blanked = blank_actions(text);
        assert_eq!(blanked.len(), text.len());
        assert_eq!(
            blanked,
            "a:                \n                   \nb: \"    \n  \"\n          \n"
        );
        assert_eq!(
            blank_actions("é {{ é }} é"),
            format!("é {} é", " ".repeat(8)),
            "bytes, not characters"
        );
    }

    #[test]
    fn splits_on_document_markers_only_at_line_start() {
        assert_eq!(texts("a: 1\n---\nb: 2\n"), vec!["a: 1\n", "---\nb: 2\n"]);
        assert_eq!(texts("---\na: 1\n--- \nb: 2"), vec!["---\na: 1\n", "--- \nb: 2"]);
        assert_eq!(texts("s: |\n  ---\n  x\n"), vec!["s: |\n  ---\n  x\n"]);
        assert_eq!(texts("a: ---x\n----\n"), vec!["a: ---x\n----\n"]);
        assert_eq!(texts("a\r\n---\r\nb"), vec!["a\r\n", "---\r\nb"]);
        assert_eq!(texts(""), vec![""]);
    }

    #[test]
    fn every_yaml_line_break_ends_a_line() {
        assert_eq!(texts("a\r---\rb\r"), vec!["a\r", "---\rb\r"]);
        assert_eq!(texts("a\r\n---\r\nb"), vec!["a\r\n", "---\r\nb"]);
        let c = chunks("a\r\rb\r---\rc", 0, 0);
        assert_eq!((c[1].offset, c[1].line), (5, 3));
        for (text, want) in [
            ("k: 1\nx: 2\n", 2),
            ("k: 1\r\nx: 2\r\n", 2),
            ("k: 1\rx: 2\r", 2),
            ("k: 1\r\n\rx: 2", 3),
        ] {
            let chunk = Chunk {
                text,
                offset: 0,
                line: 0,
            };
            let x = text.find('x').unwrap();
            let pos = LineIndex::new(&chunk).position(text, x);
            assert_eq!(pos, Position { line: want, column: 1 }, "{text:?}");
            assert_eq!(
                count_line_breaks(text.get(..x).unwrap().as_bytes()),
                want - 1,
                "{text:?}"
            );
        }
        assert_eq!(lines("a\rb\r\nc\nd").collect::<Vec<_>>(), vec!["a", "b", "c", "d"]);
        assert_eq!(
            helm_source("---\r# Source: a/templates/b.yaml\rkind: Pod\r"),
            Some("a/templates/b.yaml")
        );
    }

    proptest::proptest! {
        /// The searches by `memchr` and by blocks find what a walk line by line finds: chunk
        /// starts and their lines, line starts, line-break counts; texts of short lines, line
        /// breaks of every kind and document markers in every shape, across block edges.
        #[test]
        fn searches_agree_with_a_line_walk(
            parts in proptest::collection::vec(
                proptest::sample::select(vec!["---", "--- ", "----", "---x", "a", "key: value", "\n", "\r", "\r\n", " ", "\u{e9}", "\t"]),
                0..80,
            )
        ) {
            let text: String = parts.concat();
            let bytes = text.as_bytes();
            let (mut want_chunks, mut want_starts, mut pos, mut line) = (vec![(0, 0)], vec![7], 0, 0);
            while pos < bytes.len() {
                let (end, next) = line_end(bytes, pos);
                if pos > 0 && is_document_start(&bytes[pos..end]) {
                    want_chunks.push((pos, line));
                }
                if end < bytes.len() {
                    want_starts.push(7 + next);
                }
                pos = next;
                line += 1;
            }
            proptest::prop_assert_eq!(chunk_starts(bytes), want_chunks);
            let chunk = Chunk { text: &text, offset: 7, line: 0 };
            proptest::prop_assert_eq!(LineIndex::new(&chunk).starts, want_starts.clone());
            proptest::prop_assert_eq!(count_line_breaks(bytes), want_starts.len() - 1);
        }
    }

    proptest::proptest! {
        /// A position counted equals the line index's, at every offset (before the chunk, in
        /// a `\r\n`, inside a multi-byte character, past the end), on the first line and later.
        #[test]
        fn counted_positions_are_the_index_positions(
            parts in proptest::collection::vec(
                proptest::sample::select(vec!["a", "key: v", "\n", "\r", "\r\n", " ", "\u{e9}", "\u{1F600}", "\t"]),
                0..40,
            ),
            first_column in 0usize..3,
        ) {
            let text: String = parts.concat();
            let chunk = Chunk { text: &text, offset: 5, line: 2 };
            let index = LineIndex::new(&chunk).with_first_column(first_column);
            for offset in 0..text.len() + 8 {
                proptest::prop_assert_eq!(
                    count_position(&chunk, first_column, offset),
                    index.position(&text, offset),
                    "offset {}", offset
                );
            }
        }
    }

    #[test]
    fn invalid_utf8_keeps_its_length_and_position() {
        let bytes = b"a: 1\r\nb: \xff\xfe\xe2\x82\nc: \xc3\xa9";
        let text = same_length_lossy(bytes);
        assert_eq!(text.len(), bytes.len());
        assert_eq!(text, "a: 1\r\nb: ????\nc: \u{e9}");
        assert_eq!(byte_position(bytes, 9, 4), Position { line: 6, column: 4 });
    }

    #[test]
    fn chunk_offsets_and_lines() {
        let c = chunks("a\n---\nb\n---\nc", 10, 3);
        assert_eq!((c[1].offset, c[1].line), (12, 4));
        assert_eq!((c[2].offset, c[2].line), (18, 6));
    }

    #[test]
    fn helm_sources_come_from_the_opening_comments() {
        assert_eq!(
            helm_source("---\n# Source: cnf/templates/upf.yaml\napiVersion: v1\n"),
            Some("cnf/templates/upf.yaml")
        );
        assert_eq!(
            helm_source("# Source: cnf/charts/db/templates/sts.yaml\r\nkind: StatefulSet\r\n"),
            Some("cnf/charts/db/templates/sts.yaml")
        );
        assert_eq!(
            helm_source("---\n\n# generated\n#Source: a/templates/b.yaml\nkind: Pod\n"),
            Some("a/templates/b.yaml")
        );
        assert_eq!(helm_source("kind: Pod\n# Source: a/templates/b.yaml\n"), None);
        assert_eq!(helm_source("--- {kind: Pod}\n# Source: x\n"), None);
        assert_eq!(helm_source("# Source:\nkind: Pod\n"), None);
        assert_eq!(helm_source(""), None);
    }

    #[test]
    fn positions_count_characters() {
        let text = "é: 1\nab: ñx\n";
        let chunk = Chunk {
            text,
            offset: 100,
            line: 9,
        };
        let idx = LineIndex::new(&chunk);
        assert_eq!(idx.position(text, 100), Position { line: 10, column: 1 });
        let x = 100 + text.find('x').unwrap();
        assert_eq!(idx.position(text, x), Position { line: 11, column: 6 });
    }

    /// On a long line with non-ASCII text, a column counted from the checkpoints is the
    /// character count from the line start, wherever the checkpoints fall.
    #[test]
    fn long_line_columns_count_characters() {
        let mut text = String::from("ab\n");
        for i in 0..3000 {
            text.push(if i % 7 == 0 {
                'é'
            } else if i % 11 == 0 {
                '€'
            } else {
                'x'
            });
        }
        text.push_str("\ny");
        let chunk = Chunk {
            text: &text,
            offset: 5,
            line: 0,
        };
        let idx = LineIndex::new(&chunk);
        for (at, _) in text.char_indices() {
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let want = Position {
                line: 1 + text[..at].matches('\n').count(),
                column: 1 + text[line_start..at].chars().count(),
            };
            assert_eq!(idx.position(&text, 5 + at), want, "{at}");
        }
        let ascii = "x".repeat(5000);
        let chunk = Chunk {
            text: &ascii,
            offset: 0,
            line: 0,
        };
        assert_eq!(
            LineIndex::new(&chunk).position(&ascii, 4321),
            Position { line: 1, column: 4322 }
        );
    }
}
