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
fn is_document_start(line: &[u8]) -> bool {
    line.starts_with(b"---") && matches!(line.get(3), None | Some(b' ' | b'\t' | b'\r'))
}

/// Splits `text` (which starts at `offset`, line `line` of its file) into chunks.
pub fn chunks(text: &str, offset: usize, line: usize) -> Vec<Chunk<'_>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut chunk_start = 0;
    let mut chunk_line = line;
    let mut pos = 0;
    let mut current_line = line;
    while pos < bytes.len() {
        let rest = bytes.get(pos..).unwrap_or_default();
        let line_end = rest.iter().position(|&b| b == b'\n').map_or(bytes.len(), |i| pos + i);
        if pos > chunk_start && is_document_start(bytes.get(pos..line_end).unwrap_or_default()) {
            out.push(Chunk {
                text: text.get(chunk_start..pos).unwrap_or_default(),
                offset: offset + chunk_start,
                line: chunk_line,
            });
            chunk_start = pos;
            chunk_line = current_line;
        }
        pos = line_end + 1;
        current_line += 1;
    }
    if chunk_start < bytes.len() || out.is_empty() {
        out.push(Chunk {
            text: text.get(chunk_start..).unwrap_or_default(),
            offset: offset + chunk_start,
            line: chunk_line,
        });
    }
    out
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
    /// Absolute offsets where each line of the chunk starts.
    starts: Vec<usize>,
    first_line: usize,
    offset: usize,
}

impl LineIndex {
    pub fn new(chunk: &Chunk<'_>) -> Self {
        let mut starts = vec![chunk.offset];
        starts.extend(
            chunk
                .text
                .bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| chunk.offset + i + 1),
        );
        LineIndex {
            starts,
            first_line: chunk.line,
            offset: chunk.offset,
        }
    }

    /// The position of absolute byte `offset`, which must lie in the chunk `text`.
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let idx = self.starts.partition_point(|&s| s <= offset).saturating_sub(1);
        let line_start = self.starts.get(idx).copied().unwrap_or(self.offset);
        let rel_start = line_start.saturating_sub(self.offset);
        let rel_end = offset.saturating_sub(self.offset).min(text.len());
        let column = text
            .get(rel_start..rel_end)
            .map_or(rel_end.saturating_sub(rel_start), |s| s.chars().count());
        Position {
            line: self.first_line + idx + 1,
            column: column + 1,
        }
    }
}

/// The Helm template a chunk was rendered from: `helm template` writes
/// `# Source: <chart>/templates/<file>` in the comment lines that open each document. Only
/// those opening lines are read, so this costs nothing on large documents.
pub fn helm_source(text: &str) -> Option<&str> {
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
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

/// True when the text looks like an unrendered Helm/Go template (`{{ ... }}` actions).
pub fn looks_templated(text: &str) -> bool {
    text.contains("{{") && text.contains("}}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> Vec<&str> {
        chunks(s, 0, 0).into_iter().map(|c| c.text).collect()
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
}
