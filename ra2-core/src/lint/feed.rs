//! A file fed line by line as it is read (standard input, a file too large to read whole): each
//! `---` section goes to the linter as it completes, and a `kind: List` section item by item as
//! each item completes ([`crate::parse::list`]), so that memory holds one document or item.
//! The caller reads (ra2-core does no I/O) and hands each line to [`Feed::line`].

use super::Linter;
use super::file::FileState;
use super::list::ListDoc;
use crate::parse::list::{Cut, ListSplitter};
use crate::parse::source::{Chunk, count_line_breaks, is_document_start, same_length_lossy};

/// What a [`Feed`]'s caller hears as text goes to the linter.
pub trait FeedWatch {
    /// Whether the caller keeps the text read (for snippets); [`FeedWatch::text`] is called
    /// only then.
    fn keeps_text(&self) -> bool;

    /// The next text handed to the linter, in order (bytes that are not UTF-8 as `?`).
    fn text(&mut self, text: &str);

    /// Called after each document or List item is handed to the linter: where a caller takes
    /// settled results as it goes ([`Linter::take_settled`]).
    fn progress(&mut self, linter: &mut Linter<'_>);
}

/// A file being fed to a linter line by line (see the module documentation).
#[derive(Debug)]
pub struct Feed {
    file: FileState,
    section: Section,
    first_line: bool,
    fed_any: bool,
}

impl Feed {
    /// Starts the file `name`; with `skip_non_k8s`, documents that are not Kubernetes objects
    /// are skipped (see [`Linter::add_file_with`]).
    pub fn new(linter: &mut Linter<'_>, name: &str, skip_non_k8s: bool) -> Feed {
        let mut file = linter.begin_file(name);
        file.set_skip_non_k8s(skip_non_k8s);
        Feed {
            file,
            section: Section::default(),
            first_line: true,
            fed_any: false,
        }
    }

    /// Reads the next line of the file (with its line break, if it has one).
    pub fn line(&mut self, linter: &mut Linter<'_>, line: &[u8], watch: &mut dyn FeedWatch) {
        const BOM: &[u8] = "\u{feff}".as_bytes();
        let mut line = line;
        if self.first_line {
            self.first_line = false;
            if let Some(rest) = line.strip_prefix(BOM) {
                line = rest;
                self.section.offset = BOM.len();
                if watch.keeps_text() {
                    watch.text("\u{feff}");
                }
            }
        }
        let content = line.strip_suffix(b"\n").unwrap_or(line);
        if !self.section.is_empty() && is_document_start(content) {
            self.section.finish(linter, &mut self.file, watch);
            self.fed_any = true;
        }
        self.section.push(line, linter, &mut self.file, watch);
    }

    /// Ends the file: hands the linter its last section (an empty file is one empty document).
    pub fn end(mut self, linter: &mut Linter<'_>, watch: &mut dyn FeedWatch) {
        if !self.section.is_empty() || !self.fed_any {
            self.section.finish(linter, &mut self.file, watch);
        }
    }
}

/// The `---` section being read from a stream.
#[derive(Debug, Default)]
struct Section {
    /// Bytes read and not yet handed to the linter.
    pending: Vec<u8>,
    /// Absolute byte offset and 0-based line of `pending`'s first byte.
    offset: usize,
    line: usize,
    /// The 0-based line of the next line read.
    next_line: usize,
    /// Bytes of the section read so far (handed over or not).
    read: usize,
    /// Finds the items of a List: made once the file's format is known (by its first text),
    /// dropped when the section is to be read whole.
    splitter: Option<ListSplitter>,
    /// The splitter was made (or the section is read whole).
    started: bool,
    list: Option<ListDoc>,
    /// Where the List's trailer starts: 0-based line and the characters before it on it.
    trailer: Option<(usize, usize)>,
    cuts: Vec<Cut>,
}

impl Section {
    fn is_empty(&self) -> bool {
        self.read == 0
    }

    /// Appends one line (with its line break) of the section.
    fn push(&mut self, line: &[u8], linter: &mut Linter<'_>, state: &mut FileState, watch: &mut dyn FeedWatch) {
        let at = self.offset + self.pending.len();
        let line_no = self.next_line;
        self.next_line += count_line_breaks(line);
        self.read += line.len();
        self.pending.extend_from_slice(line);
        if !self.started {
            // The file's first text decides whether it is JSON; blank lines before it change
            // nothing for the splitter.
            let json = match state.json() {
                Some(json) => json,
                None if String::from_utf8_lossy(line).trim().is_empty() => return,
                None => Linter::file_is_json(state, &String::from_utf8_lossy(&self.pending)),
            };
            self.started = true;
            self.splitter = Some(ListSplitter::new(json));
        }
        let Some(splitter) = self.splitter.as_mut() else {
            return;
        };
        splitter.feed(line, at, line_no, &mut self.cuts);
        if splitter.is_whole() {
            self.splitter = None;
            self.cuts.clear();
            return;
        }
        // A YAML List within the size limit is read whole, as any document (an alias may use
        // an anchor of another item); the cuts wait until it is over the limit.
        if state.json() == Some(true) || self.read > linter.limits().max_document_bytes {
            self.apply_cuts(linter, state, watch);
        }
    }

    /// Hands the linter what the splitter's cuts complete: the List's header, each item, the
    /// start of its trailer.
    fn apply_cuts(&mut self, linter: &mut Linter<'_>, state: &mut FileState, watch: &mut dyn FeedWatch) {
        for cut in std::mem::take(&mut self.cuts) {
            match cut {
                Cut::ItemsStart(at) => {
                    let len = at.saturating_sub(self.offset);
                    let header = self.pending.get(..len).unwrap_or_default();
                    let Ok(text) = std::str::from_utf8(header) else {
                        // Not UTF-8: the section is read whole, and fails as a whole.
                        self.splitter = None;
                        return;
                    };
                    let chunk = Chunk {
                        text,
                        offset: self.offset,
                        line: self.line,
                    };
                    self.list = Some(linter.begin_list(state, chunk));
                    self.drain(len, watch);
                }
                Cut::Item {
                    start,
                    end,
                    line,
                    column,
                } => {
                    let Some(list) = self.list.as_mut() else { continue };
                    let from = start.saturating_sub(self.offset);
                    let to = end.saturating_sub(self.offset);
                    let bytes = self.pending.get(from..to).unwrap_or_default();
                    linter.add_list_item_bytes(state, list, bytes, (start, line, column));
                    self.drain(to, watch);
                    watch.progress(linter);
                }
                Cut::ItemsEnd { at, line, column } => {
                    self.drain(at.saturating_sub(self.offset), watch);
                    self.trailer = Some((line, column));
                }
            }
        }
    }

    /// Drops the first `len` pending bytes (handed to the linter).
    fn drain(&mut self, len: usize, watch: &mut dyn FeedWatch) {
        let len = len.min(self.pending.len());
        let drained = self.pending.get(..len).unwrap_or_default();
        if watch.keeps_text() {
            watch.text(&same_length_lossy(drained));
        }
        self.line += count_line_breaks(drained);
        self.pending.drain(..len);
        self.offset += len;
    }

    /// Hands the linter the rest of the section, and starts the next one.
    fn finish(&mut self, linter: &mut Linter<'_>, state: &mut FileState, watch: &mut dyn FeedWatch) {
        let end = self.offset + self.pending.len();
        let end_line = self.next_line;
        if let Some(splitter) = self.splitter.as_mut() {
            if self.list.is_some() || state.json() == Some(true) {
                splitter.finish(end, &mut self.cuts);
                self.apply_cuts(linter, state, watch);
            }
        }
        self.cuts.clear();
        let bytes = std::mem::take(&mut self.pending);
        match self.list.take() {
            Some(list) => {
                let (line, column) = self.trailer.unwrap_or((end_line, 0));
                linter.end_list_bytes(state, list, &bytes, (self.offset, line, column));
            }
            None => linter.add_chunk_bytes(state, &bytes, self.offset, self.line),
        }
        if watch.keeps_text() {
            watch.text(&same_length_lossy(&bytes));
        }
        watch.progress(linter);
        *self = Section {
            offset: end,
            line: end_line,
            next_line: end_line,
            ..Section::default()
        };
    }
}
