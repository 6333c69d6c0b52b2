//! Positions: ra2 counts 1-based lines and columns in characters (Unicode scalar values), the
//! Language Server Protocol 0-based lines and UTF-16 code units. Both break lines at `\n`,
//! `\r\n` and a lone `\r`. A byte order mark is not part of the first line (ra2 strips it, and
//! editors do not show it).

use lsp_types::{Position, Range};

/// Where each line of a document starts, to convert positions.
#[derive(Debug)]
pub(crate) struct Lines<'t> {
    text: &'t str,
    /// Byte offset of each line's start.
    starts: Vec<usize>,
}

impl<'t> Lines<'t> {
    pub(crate) fn new(text: &'t str) -> Self {
        let first = if text.starts_with('\u{feff}') {
            '\u{feff}'.len_utf8()
        } else {
            0
        };
        let mut starts = vec![first];
        let bytes = text.as_bytes();
        let mut pos = first;
        while pos < bytes.len() {
            let (end, next) = ra2_core::source::line_end(bytes, pos);
            if end == bytes.len() {
                break;
            }
            starts.push(next);
            pos = next;
        }
        Lines { text, starts }
    }

    /// The text of 0-based line `line`, without its line break (empty past the end).
    fn line(&self, line: usize) -> &'t str {
        let Some(&start) = self.starts.get(line) else { return "" };
        let end = ra2_core::source::line_end(self.text.as_bytes(), start).0;
        self.text.get(start..end).unwrap_or_default()
    }

    /// The LSP position of ra2's 1-based `line` and `column` (characters), clamped to the line.
    pub(crate) fn of_ra2(&self, line: usize, column: usize) -> Position {
        let index = line.saturating_sub(1);
        if index >= self.starts.len() {
            // Past the end: the end of the text.
            let last = self.starts.len().saturating_sub(1);
            return Position::new(to_u32(last), to_u32(utf16_len(self.line(last))));
        }
        let units = self
            .line(index)
            .chars()
            .take(column.saturating_sub(1))
            .map(char::len_utf16)
            .sum::<usize>();
        Position::new(to_u32(index), to_u32(units))
    }

    /// The LSP range of ra2's 1-based start and end (exclusive) positions.
    pub(crate) fn range_of_ra2(&self, start: (usize, usize), end: (usize, usize)) -> Range {
        let from = self.of_ra2(start.0, start.1);
        let to = self.of_ra2(end.0, end.1).max(from);
        Range::new(from, to)
    }

    /// The LSP position of byte `offset` (clamped to the text, and back to a char boundary).
    pub(crate) fn of_byte(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let index = self.starts.partition_point(|&s| s <= offset).saturating_sub(1);
        let start = self.starts.get(index).copied().unwrap_or_default().min(offset);
        let units = utf16_len(self.text.get(start..offset).unwrap_or_default());
        Position::new(to_u32(index), to_u32(units))
    }

    /// The whole of 0-based line `line`, start to end (without its break).
    pub(crate) fn line_range(&self, line: usize) -> Range {
        let line = line.min(self.starts.len().saturating_sub(1));
        Range::new(
            Position::new(to_u32(line), 0),
            Position::new(to_u32(line), to_u32(utf16_len(self.line(line)))),
        )
    }
}

fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Do two ranges share a position (touching counts: a cursor at a diagnostic's end is on it)?
pub(crate) fn touches(a: &Range, b: &Range) -> bool {
    a.start <= b.end && b.start <= a.end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_characters_and_positions_utf16() {
        // "é" is one character (two bytes, one UTF-16 unit), "𝄞" one character (four bytes,
        // two UTF-16 units).
        let text = "a: é𝄞x\r\nb: 1\rc: 2\n";
        let lines = Lines::new(text);
        assert_eq!(lines.of_ra2(1, 1), Position::new(0, 0));
        // Column 6 is the character after "a: é𝄞".
        assert_eq!(lines.of_ra2(1, 6), Position::new(0, 6));
        assert_eq!(lines.of_ra2(2, 3), Position::new(1, 2));
        assert_eq!(lines.of_ra2(3, 4), Position::new(2, 3));
        // Past a line's end: its end.
        assert_eq!(lines.of_ra2(2, 99), Position::new(1, 4));
        // Bytes: "x" is at byte 9.
        assert_eq!(lines.of_byte(9), Position::new(0, 6));
        assert_eq!(lines.of_byte(text.find("c:").unwrap_or(0)), Position::new(2, 0));
        assert_eq!(lines.of_byte(9999), Position::new(3, 0));
        assert_eq!(
            lines.line_range(0),
            Range::new(Position::new(0, 0), Position::new(0, 7))
        );
    }

    #[test]
    fn a_byte_order_mark_is_not_a_column() {
        let lines = Lines::new("\u{feff}kind: Pod\n");
        assert_eq!(lines.of_ra2(1, 7), Position::new(0, 6));
        assert_eq!(lines.of_byte(9), Position::new(0, 6));
    }
}
