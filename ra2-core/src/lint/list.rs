//! `kind: List` documents read item by item (see [`crate::parse::list`]): the List's header,
//! each item as it completes, and its trailer, so that memory holds one item.

use super::file::FileState;
use super::{Linter, PREVIOUS_OBJECT};
use crate::parse::doc::{Limits, read_chunk};
use crate::parse::list::Cut;
use crate::parse::source::Chunk;
use crate::parse::view::Located;
use crate::report::LintError;
use crate::rules::finding::duplicate_key;

/// A `kind: List` document being read item by item (see [`crate::parse::list`] and
/// [`Linter::begin_list`]).
#[derive(Debug)]
pub(super) struct ListDoc {
    document: usize,
    next_item: usize,
    template: Option<String>,
    /// The List's text before its items, read with the trailer at the end.
    header: String,
    header_offset: usize,
    header_line: usize,
    /// The run's object index of the List's first item.
    first_object: usize,
}

impl Linter<'_> {
    /// A section that [`crate::parse::list::split`] cut into a List's header, items and trailer.
    pub(super) fn add_list_chunk(&mut self, file: &mut FileState, chunk: Chunk<'_>, cuts: &[Cut]) {
        let piece = |start: usize, end: usize, line: usize| Chunk {
            text: chunk
                .text
                .get(start.saturating_sub(chunk.offset)..end.saturating_sub(chunk.offset))
                .unwrap_or_default(),
            offset: start,
            line,
        };
        let end = chunk.offset + chunk.text.len();
        let mut list = None;
        for cut in cuts {
            match (*cut, list.as_mut()) {
                (Cut::ItemsStart(at), None) => {
                    list = Some(self.begin_list(file, piece(chunk.offset, at, chunk.line)));
                }
                (
                    Cut::Item {
                        start,
                        end,
                        line,
                        column,
                    },
                    Some(list),
                ) => self.add_list_item(file, list, piece(start, end, line), column),
                (Cut::ItemsEnd { at, line, column }, Some(_)) => {
                    if let Some(list) = list.take() {
                        self.end_list(file, list, piece(at, end, line), column);
                    }
                }
                _ => {}
            }
        }
    }

    /// Starts a `kind: List` document read item by item (see [`crate::parse::list`]): `header` is its
    /// text before the items.
    pub(super) fn begin_list(&mut self, file: &mut FileState, header: Chunk<'_>) -> ListDoc {
        let document = file.next_document;
        file.next_document += 1;
        self.report.summary.documents += 1;
        ListDoc {
            document,
            next_item: 0,
            template: crate::parse::source::helm_source(header.text).map(str::to_owned),
            header: header.text.to_owned(),
            header_offset: header.offset,
            header_line: header.line,
            first_object: self.suppressions.len(),
        }
    }

    /// Lints one item of a List given as bytes: as [`Linter::add_list_item`] when it is UTF-8,
    /// else an `ra2::input::utf8` error for it.
    pub(super) fn add_list_item_bytes(
        &mut self,
        file: &FileState,
        list: &mut ListDoc,
        bytes: &[u8],
        at: (usize, usize, usize),
    ) {
        let (offset, line, column) = at;
        match std::str::from_utf8(bytes) {
            Ok(text) => self.add_list_item(file, list, Chunk { text, offset, line }, column),
            Err(e) => {
                list.next_item += 1;
                self.utf8_error(&file.name, list.document, bytes, e.valid_up_to(), at);
            }
        }
    }

    /// Lints one item of a List: `item` is its text (a YAML item with its `- `), which starts
    /// after `column` characters of its first line. The size limit applies to the item.
    fn add_list_item(&mut self, file: &FileState, list: &mut ListDoc, item: Chunk<'_>, column: usize) {
        let json = file.json.unwrap_or(false);
        let result = crate::parse::doc::read_item(item, json, self.limits, column, self.json_reader);
        for doc in &result.docs {
            let root = Located::root(doc);
            // A YAML item is read with its `- `: a sequence of the one item.
            let nodes: Vec<crate::parse::doc::NodeId> = if json {
                vec![doc.root]
            } else {
                root.items().map(|i| i.id()).collect()
            };
            let first_object = self.suppressions.len();
            for id in nodes {
                let index = list.next_item;
                list.next_item += 1;
                let node = Located::with_pointer(doc, id, &format!("/items/{index}"));
                if let Some(nested) = node
                    .get("items")
                    .filter(|i| i.is_seq() && node.str_at("kind").is_some_and(crate::parse::list::is_list_kind))
                {
                    self.error(
                        &file.name,
                        list.document,
                        &nested,
                        "ra2::object::nested-list",
                        format!("item {index} of the List is itself a List, whose items are not read; list its objects in the outer List"),
                    );
                    continue;
                }
                self.lint_object(&file.name, list.document, node, list.template.as_deref());
            }
            self.push_problems(&file.name, list.document, doc, list.template.as_deref(), first_object);
        }
        if let Some(mut error) = result.error {
            let lines = crate::parse::source::LineIndex::new(&item).with_first_column(column);
            let pos = lines.position(item.text, error.span.start);
            if error.code == "ra2::parse::too-large" {
                error.message = format!(
                    "item {} of the List is {} bytes, more than the limit of {} bytes",
                    list.next_item,
                    item.text.len(),
                    self.limits.max_document_bytes
                );
            }
            list.next_item += 1;
            self.read_error(&file.name, list.document, item.text, pos, error);
        }
    }

    /// [`Linter::end_list`] with the trailer as bytes (at absolute offset, 0-based line and
    /// column): a trailer that is not UTF-8 is an `ra2::input::utf8` error, and is read with
    /// each bad byte as `?`.
    pub(super) fn end_list_bytes(
        &mut self,
        file: &mut FileState,
        list: ListDoc,
        bytes: &[u8],
        at: (usize, usize, usize),
    ) {
        let (offset, line, column) = at;
        if let Err(e) = std::str::from_utf8(bytes) {
            self.utf8_error(&file.name, list.document, bytes, e.valid_up_to(), at);
        }
        let text = crate::parse::source::same_length_lossy(bytes);
        self.end_list(
            file,
            list,
            Chunk {
                text: &text,
                offset,
                line,
            },
            column,
        );
    }

    /// Ends a List read item by item: `trailer` is its text after the items (starting after
    /// `column` characters of its first line). The List itself (its header and trailer) is
    /// read for what it says: its kind, duplicate keys, syntax errors.
    fn end_list(&mut self, file: &mut FileState, list: ListDoc, trailer: Chunk<'_>, column: usize) {
        let ListDoc {
            document,
            template,
            header: header_text,
            header_offset,
            header_line,
            first_object,
            ..
        } = list;
        let json = file.json.unwrap_or(false);
        let mut text = header_text.clone();
        text.push_str(trailer.text);
        let header = Chunk {
            text: &header_text,
            offset: header_offset,
            line: header_line,
        };
        let header_lines = crate::parse::source::LineIndex::new(&header);
        let trailer_lines = crate::parse::source::LineIndex::new(&trailer).with_first_column(column);
        // Offsets in the shell (header then trailer) back to the file.
        let place = |at: usize| -> (usize, crate::parse::source::Position) {
            let rel = at.saturating_sub(header_offset);
            if rel < header_text.len() {
                (at, header_lines.position(header.text, at))
            } else {
                let at = trailer.offset + (rel - header_text.len());
                (at, trailer_lines.position(trailer.text, at))
            }
        };
        let shell = Chunk {
            text: &text,
            offset: header_offset,
            line: header_line,
        };
        let limits = Limits {
            max_document_bytes: self.limits.max_document_bytes.max(text.len()),
            ..self.limits
        };
        let result = if self.json_reader {
            read_chunk(shell, json, limits)
        } else {
            crate::parse::doc::read_chunk_yaml(shell, json, limits)
        };
        let mut docs = result.docs.iter();
        if let Some(doc) = docs.next() {
            let root = Located::root(doc);
            let kind = root.get("kind");
            if !kind
                .as_ref()
                .and_then(Located::as_str)
                .is_some_and(crate::parse::list::is_list_kind)
            {
                let at = kind.as_ref().unwrap_or(&root);
                let (offset, pos) = place(at.site().span.start);
                let what = match kind.as_ref() {
                    Some(k) => format!("its kind is {}", k.source_text()),
                    None => "it has no kind".to_owned(),
                };
                self.report.errors.push(LintError {
                    file: file.name.clone(),
                    line: pos.line,
                    column: pos.column,
                    document,
                    message: format!(
                        "document has items like a List of apiVersion v1, but {what}; its items were read as a List's"
                    ),
                    code: "ra2::object::not-a-list".to_owned(),
                    offset,
                });
            }
            let object = self.last_object.clone();
            for problem in &doc.problems {
                let (offset, pos) = place(problem.span.start);
                let (_, end) = place(problem.span.end);
                let finding = duplicate_key(
                    problem,
                    &file.name,
                    document,
                    (pos, end, offset),
                    object.clone().unwrap_or_default(),
                    template.as_deref(),
                );
                let index = if self.suppressions.is_empty() {
                    PREVIOUS_OBJECT
                } else {
                    first_object.min(self.suppressions.len() - 1)
                };
                self.pending.push((finding, index));
            }
        }
        if let Some(doc) = docs.next() {
            let (offset, pos) = place(doc.node(doc.root).span.start);
            self.report.errors.push(LintError {
                file: file.name.clone(),
                line: pos.line,
                column: pos.column,
                document,
                message: "a document follows a List after `...` in the same section; start it with `---`".to_owned(),
                code: "ra2::parse::list".to_owned(),
                offset,
            });
        }
        if let Some(error) = result.error {
            let (offset, pos) = place(error.span.start);
            let mut error = error;
            error.span = crate::parse::source::Span::new(offset, offset);
            self.read_error(&file.name, document, &text, pos, error);
        }
    }
}
