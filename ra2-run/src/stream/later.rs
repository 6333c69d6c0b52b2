//! Snippets for what a streaming text run prints at the end ([`Later`]): cross-document
//! findings, findings of pods whose profile other documents decided, unused exemptions. Their
//! documents were printed and dropped long before, so the lines around each one are read
//! again: from the file when the input is one, else (standard input, text handed in) from a
//! temporary file the run wrote that text to as it went. Memory holds one block of text at a
//! time; the snippet is the one the run would show holding everything, byte for byte.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use crate::render::text;

/// Line breaks (bytes `\n` and `\r`) read on each side of a snippet's spans: twice the lines
/// a snippet window shows around them, so that `\r\n` endings count right too.
const BREAKS: usize = 2 * (text::WINDOW_CONTEXT + 1);
/// Bytes read on each side of the spans at first; more (up to [`MAX_MARGIN`]) for long lines.
const MARGIN: usize = 32 << 10;
/// Lines longer than this around a finding: no snippet.
const MAX_MARGIN: usize = 8 << 20;
/// Text gathered before it is written to the temporary file.
const SPOOL_BUFFER: usize = 1 << 20;

/// Where to read an input's text again (see the module documentation).
#[derive(Default)]
pub(super) struct Later {
    /// Whether each input seen is a file that can be read again.
    files: BTreeMap<String, bool>,
    /// The temporary file with the text of the other inputs, once one needed it.
    spool: Option<Spool>,
    /// A temporary file could not be made (the other inputs then get no snippets).
    no_spool: bool,
    /// The last block read: input name, its first byte's offset in the input, its bytes, and
    /// whether it ends at the end of the input.
    block: Option<Block>,
}

struct Spool {
    file: File,
    /// The file's path: off Unix the file stays in the directory until the run ends.
    #[cfg(not(unix))]
    path: std::path::PathBuf,
    /// Bytes written to `file` and in `buffer`.
    len: u64,
    buffer: Vec<u8>,
    /// By input name: where its text is in the spool (the input's offset of the first byte,
    /// the spool position, the length), in input order.
    segments: BTreeMap<String, Vec<(usize, u64, usize)>>,
}

// On Unix the file left the directory when it was made (see `Spool::new`); removing the path
// again could remove another file made there since.
#[cfg(not(unix))]
impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

struct Block {
    name: String,
    offset: usize,
    bytes: Vec<u8>,
    /// The block ends where the input (or what the spool has of it) ends.
    at_end: bool,
    /// The block starts where what can be read of the input starts.
    at_start: bool,
}

/// A snippet's text: part of an input, lines whole.
pub(super) struct Chunk {
    name: String,
    text: String,
    offset: usize,
    line: usize,
}

impl Chunk {
    pub(super) fn source(&self) -> text::Source<'_> {
        text::Source {
            name: &self.name,
            text: &self.text,
            offset: self.offset,
            line: self.line,
        }
    }
}

impl Later {
    /// Whether `name` is a file that can be read again for snippets.
    fn is_file(&mut self, name: &str) -> bool {
        if let Some(&known) = self.files.get(name) {
            return known;
        }
        let file = name != ra2_input::STDIN_NAME && Path::new(name).is_file();
        self.files.insert(name.to_owned(), file);
        file
    }

    /// Keeps `text`, which starts at byte `offset` of input `name`, when the input is not a
    /// file: what was kept already is not written again.
    pub(super) fn keep(&mut self, name: &str, offset: usize, text: &str) {
        if self.is_file(name) {
            return;
        }
        if self.spool.is_none() && !self.no_spool {
            self.spool = Spool::new();
            self.no_spool = self.spool.is_none();
        }
        if let Some(spool) = self.spool.as_mut() {
            spool.push(name, offset, text.as_bytes());
        }
    }

    /// The text around spans `(offset, length)` of input `name`, for a snippet whose first span
    /// is on 1-based line `first_line`; `None` when it cannot be read.
    pub(super) fn around(&mut self, name: &str, spans: &[(usize, usize)], first_line: usize) -> Option<Chunk> {
        let lo = spans.iter().map(|&(o, _)| o).min()?;
        let hi = spans.iter().map(|&(o, l)| o + l.max(1)).max()?;
        let mut margin = MARGIN;
        let (start, end) = loop {
            let fits = self
                .block
                .as_ref()
                .filter(|b| b.name == name && b.offset <= lo && hi <= b.offset + b.bytes.len())
                .and_then(|b| cut(b, lo, hi));
            if let Some(cut) = fits {
                break cut;
            }
            if margin > MAX_MARGIN {
                return None;
            }
            let from = lo.saturating_sub(margin);
            self.block = None;
            self.block = self.read(name, from, hi + margin - from);
            margin *= 4;
        };
        let block = self.block.as_ref()?;
        let bytes = block.bytes.get(start - block.offset..end - block.offset)?;
        let text = text::lone_cr_as_lf(&ra2_core::source::same_length_lossy(bytes)).into_owned();
        let before = text.as_bytes().get(..lo - start).unwrap_or_default();
        let breaks = ra2_core::source::count_line_breaks(before);
        Some(Chunk {
            name: name.to_owned(),
            text,
            offset: start,
            line: first_line.saturating_sub(1 + breaks),
        })
    }

    /// Up to `len` bytes of input `name` from `offset`.
    fn read(&mut self, name: &str, offset: usize, len: usize) -> Option<Block> {
        let mut bytes = vec![0; len];
        let read = if self.is_file(name) {
            let mut file = File::open(name).ok()?;
            file.seek(SeekFrom::Start(offset as u64)).ok()?;
            read_full(&mut file, &mut bytes)?
        } else {
            let spool = self.spool.as_mut()?;
            spool.flush()?;
            let segments = spool.segments.get(name)?;
            // The piece that holds `offset` (or the first after it).
            let (i, &(start, at, kept)) = segments
                .iter()
                .enumerate()
                .find(|&(_, &(start, _, kept))| offset < start + kept)?;
            let from = offset.max(start);
            let to = (offset + len).min(start + kept);
            let mut bytes = vec![0; to.saturating_sub(from)];
            spool.file.seek(SeekFrom::Start(at + (from - start) as u64)).ok()?;
            let n = read_full(&mut spool.file, &mut bytes)?;
            bytes.truncate(n);
            return Some(Block {
                name: name.to_owned(),
                offset: from,
                at_end: i + 1 == segments.len() && to == start + kept,
                at_start: from == 0,
                bytes,
            });
        };
        bytes.truncate(read);
        Some(Block {
            name: name.to_owned(),
            offset,
            at_end: read < len,
            at_start: offset == 0,
            bytes,
        })
    }
}

/// Reads as much of `buf` as the source has; the number of bytes read.
fn read_full(source: &mut impl Read, buf: &mut [u8]) -> Option<usize> {
    let mut filled = 0;
    while let Some(rest) = buf.get_mut(filled..).filter(|r| !r.is_empty()) {
        match source.read(rest) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    Some(filled)
}

/// Is there a line break before byte `i` of `bytes`, one not in the middle of `\r\n`?
/// (`None`: the byte after a `\r` at the end is not known.)
fn line_starts_at(bytes: &[u8], i: usize) -> Option<bool> {
    match bytes.get(i.checked_sub(1)?) {
        Some(b'\n') => Some(true),
        Some(b'\r') => bytes.get(i).map(|&next| next != b'\n'),
        _ => Some(false),
    }
}

/// The absolute byte range of `block` to show around `lo..hi`: from the start of a line
/// [`BREAKS`] line-break bytes before `lo` (or the start of the input) to the end of a line
/// as many after `hi` (or the end of the input); `None` when the block does not reach that far.
fn cut(block: &Block, lo: usize, hi: usize) -> Option<(usize, usize)> {
    let bytes = &block.bytes;
    let (lo, hi) = (lo - block.offset, (hi - block.offset).min(bytes.len()));
    let is_break = |b: &u8| matches!(b, b'\n' | b'\r');
    let mut start = lo;
    let mut seen = 0;
    loop {
        if start == 0 {
            if !block.at_start {
                return None;
            }
            break;
        }
        if bytes.get(start - 1).is_some_and(is_break) {
            seen += 1;
        }
        if seen >= BREAKS && line_starts_at(bytes, start)? {
            break;
        }
        start -= 1;
    }
    let mut end = hi;
    let mut seen = 0;
    loop {
        if end >= bytes.len() {
            if !block.at_end {
                return None;
            }
            end = bytes.len();
            break;
        }
        if bytes.get(end).is_some_and(is_break) {
            seen += 1;
        }
        end += 1;
        if seen >= BREAKS {
            match line_starts_at(bytes, end) {
                Some(true) => break,
                Some(false) => {}
                None if block.at_end => break,
                None => return None,
            }
        }
    }
    Some((start + block.offset, end + block.offset))
}

impl Spool {
    fn new() -> Option<Spool> {
        let dir = std::env::temp_dir();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        for attempt in 0..16u32 {
            let path = dir.join(format!("ra2-stream-{}-{nanos}-{attempt}", std::process::id()));
            if let Ok(file) = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
            {
                // Gone from the directory at once where the system allows it (the open file
                // stays readable), so nothing is left behind if the run is killed.
                #[cfg(unix)]
                let _ = std::fs::remove_file(&path);
                return Some(Spool {
                    file,
                    #[cfg(not(unix))]
                    path,
                    len: 0,
                    buffer: Vec::new(),
                    segments: BTreeMap::new(),
                });
            }
        }
        None
    }

    fn push(&mut self, name: &str, offset: usize, bytes: &[u8]) {
        let segments = self.segments.entry(name.to_owned()).or_default();
        let end = segments.last().map(|&(start, _, len)| start + len);
        let bytes = match end {
            Some(end) if end >= offset + bytes.len() => return,
            Some(end) if end >= offset => bytes.get(end - offset..).unwrap_or_default(),
            _ => bytes,
        };
        match segments.last_mut() {
            Some((start, _, len)) if *start + *len >= offset => *len += bytes.len(),
            _ => segments.push((offset, self.len, bytes.len())),
        }
        self.buffer.extend_from_slice(bytes);
        self.len += bytes.len() as u64;
        if self.buffer.len() >= SPOOL_BUFFER {
            let _ = self.flush();
        }
    }

    fn flush(&mut self) -> Option<()> {
        if !self.buffer.is_empty() {
            self.file.seek(SeekFrom::End(0)).ok()?;
            self.file.write_all(&self.buffer).ok()?;
            self.buffer.clear();
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;

    fn lines(n: usize) -> String {
        (0..n).fold(String::new(), |mut text, i| {
            let _ = writeln!(text, "line {i}");
            text
        })
    }

    fn block(text: &str, offset: usize, at_start: bool, at_end: bool) -> Block {
        Block {
            name: "f".to_owned(),
            offset,
            bytes: text.as_bytes().to_vec(),
            at_start,
            at_end,
        }
    }

    #[test]
    fn cuts_whole_lines_around_the_spans() {
        let text = lines(40);
        let at = text.find("line 20").unwrap_or_default();
        let (start, end) = cut(&block(&text, 0, true, true), at, at + 4).unwrap_or_default();
        assert!(text[start..end].starts_with("line 13\n"), "{}", &text[start..end]);
        assert!(text[start..end].ends_with("line 27\n"), "{}", &text[start..end]);
        // Near the start, the start of the input; a block that does not reach far enough: none.
        let (start, _) = cut(&block(&text, 0, true, true), 3, 4).unwrap_or_default();
        assert_eq!(start, 0);
        assert!(cut(&block(&text[..at + 20], 0, true, false), at, at + 4).is_none());
        // `\r\n` endings: never cut between the two.
        let crlf = text.replace('\n', "\r\n");
        let at = crlf.find("line 20").unwrap_or_default();
        let (start, end) = cut(&block(&crlf, 0, true, true), at, at + 4).unwrap_or_default();
        assert!(crlf[start..end].starts_with("line 16\r\n"), "{}", &crlf[start..end]);
        assert!(crlf[start..end].ends_with("line 23\r\n"), "{}", &crlf[start..end]);
    }

    #[test]
    fn spooled_text_reads_back() {
        let mut later = Later::default();
        let text = lines(5000);
        // Kept in overlapping pieces, as a stream keeps its last lines.
        later.keep("<stdin>", 0, &text[..30_000]);
        later.keep("<stdin>", 29_000, &text[29_000..]);
        let at = text.find("line 4000\n").unwrap_or_default();
        let chunk = later.around("<stdin>", &[(at, 4)], 4001).expect("spooled");
        let source = chunk.source();
        assert!(source.text.starts_with("line 3993\n"), "{}", source.text);
        assert_eq!(&text[source.offset..source.offset + source.text.len()], source.text);
        assert_eq!(source.line, 3993, "0-based: `line 0` is on the first line");
        assert!(later.around("<none>", &[(0, 1)], 1).is_none());
    }
}
