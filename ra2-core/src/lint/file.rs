//! Files fed to the linter: whole (text or bytes) or chunk by chunk (one `---` section at a
//! time), each section read into documents, and errors for what cannot be read.

use super::Linter;
use crate::parse::doc::{Doc, DocError, read_chunk};
use crate::parse::source::{Chunk, chunks, looks_templated, strip_bom};
use crate::parse::view::Located;
use crate::report::LintError;

/// Per-file state while a file is fed in chunks (for streaming standard input).
#[derive(Clone, Debug)]
pub(crate) struct FileState {
    pub(super) name: String,
    pub(super) next_document: usize,
    pub(super) json: Option<bool>,
    /// Skip documents that are not Kubernetes objects (see [`crate::model::manifest`]) instead of
    /// reporting them as errors.
    pub(super) skip_non_k8s: bool,
}

impl FileState {
    /// The state of the file `name` before its first chunk, as [`Linter::begin_file`] starts
    /// it, for chunks read by linters of their own (see [`crate::fix`]).
    pub(crate) fn new(name: &str, skip_non_k8s: bool) -> FileState {
        FileState {
            name: name.to_owned(),
            next_document: 0,
            json: None,
            skip_non_k8s,
        }
    }

    /// Whether the file is JSON, once its first text decided it.
    pub(super) fn json(&self) -> Option<bool> {
        self.json
    }

    /// Skips (and counts) documents that are not Kubernetes objects, as for files found by
    /// walking a directory; off by default unless the config's `skip-non-k8s` is set.
    pub(crate) fn set_skip_non_k8s(&mut self, on: bool) {
        self.skip_non_k8s = on;
    }

    /// The index of the next document read.
    pub(crate) fn next_document(&self) -> usize {
        self.next_document
    }

    /// Goes on with the document at `index` (documents before it were read elsewhere: see
    /// [`crate::fix`]).
    pub(crate) fn set_next_document(&mut self, index: usize) {
        self.next_document = index;
    }
}

/// A document a chunk's reading parsed, with whether it was read as JSON and the limits it was
/// read with ([`Linter::add_chunk_keeping`]; [`crate::fix`] plans fixes on it).
pub(crate) type KeptDoc<'t> = (Doc<'t>, bool, crate::parse::doc::Limits);

impl Linter<'_> {
    /// Lints a whole file.
    pub fn add_file(&mut self, name: &str, text: &str) {
        self.add_file_with(name, text, self.config.skip_non_k8s);
    }

    /// Lints a whole file; with `skip_non_k8s`, documents that are not Kubernetes objects are
    /// skipped and counted instead of being errors (see [`crate::model::manifest`]).
    pub fn add_file_with(&mut self, name: &str, text: &str, skip_non_k8s: bool) {
        let mut state = self.begin_file(name);
        state.set_skip_non_k8s(skip_non_k8s);
        let (text, bom) = strip_bom(text);
        for chunk in chunks(text, bom, 0) {
            self.add_chunk(&mut state, chunk);
        }
    }

    /// Lints a whole file given as bytes. Each `---` section is decoded on its own, so a section
    /// that is not UTF-8 fails alone (an error for its document) while the others are linted; a
    /// UTF-16 file fails as a whole.
    pub fn add_file_bytes(&mut self, name: &str, bytes: &[u8]) {
        self.add_file_bytes_with(name, bytes, self.config.skip_non_k8s);
    }

    /// [`Linter::add_file_bytes`], with `skip_non_k8s` as in [`Linter::add_file_with`].
    pub fn add_file_bytes_with(&mut self, name: &str, bytes: &[u8], skip_non_k8s: bool) {
        if let Ok(text) = std::str::from_utf8(bytes) {
            self.add_file_with(name, text, skip_non_k8s);
            return;
        }
        let mut state = self.begin_file(name);
        state.set_skip_non_k8s(skip_non_k8s);
        if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
            let index = state.next_document;
            state.next_document += 1;
            self.report.summary.documents += 1;
            self.report.errors.push(LintError {
                file: name.to_owned(),
                line: 1,
                column: 1,
                document: index,
                message: "file is UTF-16, not UTF-8; convert it (for example with iconv -f UTF-16 -t UTF-8)".to_owned(),
                code: "ra2::input::utf8".to_owned(),
                offset: 0,
            });
            return;
        }
        let bom = if bytes.starts_with("\u{feff}".as_bytes()) { 3 } else { 0 };
        let body = bytes.get(bom..).unwrap_or_default();
        let starts = crate::parse::source::chunk_starts(body);
        let ends = starts.iter().skip(1).map(|&(start, _)| start).chain([body.len()]);
        for (&(start, line), end) in starts.iter().zip(ends) {
            let piece = body.get(start..end).unwrap_or_default();
            self.add_chunk_bytes(&mut state, piece, bom + start, line);
        }
    }

    /// Lints one chunk given as bytes (from byte `offset`, 0-based line `line` of its file):
    /// as [`Linter::add_chunk`] when it is UTF-8, else an `ra2::input::utf8` error for its
    /// document.
    pub(super) fn add_chunk_bytes(&mut self, file: &mut FileState, bytes: &[u8], offset: usize, line: usize) {
        let valid_up_to = match std::str::from_utf8(bytes) {
            Ok(text) => {
                for chunk in chunks(text, offset, line) {
                    self.add_chunk(file, chunk);
                }
                return;
            }
            Err(e) => e.valid_up_to(),
        };
        let index = file.next_document;
        file.next_document += 1;
        self.report.summary.documents += 1;
        self.utf8_error(&file.name, index, bytes, valid_up_to, (offset, line, 0));
    }

    /// The `ra2::input::utf8` error for `bytes` (at absolute offset, 0-based line, and column
    /// of its first character on that line), which are valid UTF-8 up to `valid_up_to`.
    pub(super) fn utf8_error(
        &mut self,
        file: &str,
        document: usize,
        bytes: &[u8],
        valid_up_to: usize,
        at: (usize, usize, usize),
    ) {
        let (offset, line, column) = at;
        let mut pos = crate::parse::source::byte_position(bytes, valid_up_to, line);
        if pos.line == line + 1 {
            pos.column += column;
        }
        let byte = bytes.get(valid_up_to).copied().unwrap_or_default();
        self.report.errors.push(LintError {
            file: file.to_owned(),
            line: pos.line,
            column: pos.column,
            document,
            message: format!(
                "not UTF-8: invalid byte 0x{byte:02X} at line {}, column {}",
                pos.line, pos.column
            ),
            code: "ra2::input::utf8".to_owned(),
            offset: offset + valid_up_to,
        });
    }

    /// Starts a file that will be fed chunk by chunk (see [`crate::parse::source::chunks`]).
    pub(crate) fn begin_file(&mut self, name: &str) -> FileState {
        self.report.summary.files += 1;
        FileState {
            name: name.to_owned(),
            next_document: 0,
            json: None,
            skip_non_k8s: self.config.skip_non_k8s,
        }
    }

    /// Counts a file or document that was not linted because it is not a Kubernetes manifest,
    /// under `reason` (`summary.skipped`, `summary.skipped_by_reason`).
    pub fn record_skipped(&mut self, reason: &str) {
        self.report.summary.count_skipped(reason);
    }

    /// Whether the file's documents are JSON, decided by its first chunk (`text`).
    pub(crate) fn file_is_json(file: &mut FileState, text: &str) -> bool {
        *file
            .json
            .get_or_insert_with(|| text.trim_start().starts_with(['{', '[']))
    }

    /// Lints one chunk of a file: one `---` section.
    pub(crate) fn add_chunk(&mut self, file: &mut FileState, chunk: Chunk<'_>) {
        let _ = self.add_chunk_keeping(file, chunk);
    }

    /// [`Linter::add_chunk`], handing back the document it read when it read one with
    /// [`read_chunk`] (not a List item by item, not through libyaml only) without an error: the
    /// first of the chunk's documents, as `read_chunk(chunk, json, limits)` gives it, with the
    /// `json` and `limits` it was read with (see [`crate::fix`], which plans fixes on it instead
    /// of reading the chunk again).
    pub(crate) fn add_chunk_keeping<'t>(&mut self, file: &mut FileState, chunk: Chunk<'t>) -> Option<KeptDoc<'t>> {
        let json = Self::file_is_json(file, chunk.text);
        // JSON Lists are read item by item; YAML ones when they are over the size limit (an
        // alias may use an anchor of another item, which reading item by item cannot follow).
        let split = self.split_lists && (json || chunk.text.len() > self.limits.max_document_bytes);
        if let Some(cuts) = split
            .then(|| crate::parse::list::split(chunk.text, chunk.offset, chunk.line, json))
            .flatten()
        {
            self.add_list_chunk(file, chunk, &cuts);
            return None;
        }
        let result = if self.json_reader {
            read_chunk(chunk, json, self.limits)
        } else {
            crate::parse::doc::read_chunk_yaml(chunk, json, self.limits)
        };
        let template = crate::parse::source::helm_source(chunk.text);
        for doc in &result.docs {
            self.add_read_doc(file, doc, template);
        }
        if let Some(error) = result.error {
            let index = file.next_document;
            file.next_document += 1;
            self.report.summary.documents += 1;
            if file.skip_non_k8s && self.renders_to_non_k8s(&file.name, chunk, json) {
                self.record_skipped(crate::model::manifest::TEMPLATED_NOT_K8S);
                return None;
            }
            let pos = crate::parse::source::LineIndex::new(&chunk).position(chunk.text, error.span.start);
            self.read_error(&file.name, index, chunk.text, pos, error);
            return None;
        }
        if !self.json_reader {
            return None;
        }
        result.docs.into_iter().next().map(|doc| (doc, json, self.limits))
    }

    /// May anything this linter read carry a fix: a finding in its report, or one waiting for
    /// [`Linter::finish`], or a fact a cross-document finding with a fix may be made of (those
    /// are not made before `finish`: see [`crate::model::bundle::Fact::CARRIES_FIX`])?
    pub(crate) fn holds_fix(&self) -> bool {
        self.report.findings.iter().any(|f| f.fix.is_some())
            || self.pending.iter().any(|(f, _)| f.fix.is_some())
            || self.deferred.iter().any(|(f, _)| f.fix.is_some())
            || self.bundle.holds_fix()
    }

    /// Whether a section that could not be read is a template of a file that is not Kubernetes:
    /// it has template actions, is not one of a chart's templates, and read with its actions
    /// blanked it is no Kubernetes object (a chart's configuration file, `resources/*.yaml`).
    fn renders_to_non_k8s(&self, name: &str, chunk: Chunk<'_>, json: bool) -> bool {
        if !looks_templated(chunk.text) || crate::model::manifest::in_chart_templates(name) {
            return false;
        }
        let blanked = crate::parse::source::blank_actions(chunk.text);
        let result = read_chunk(
            Chunk {
                text: &blanked,
                ..chunk
            },
            json,
            self.limits,
        );
        result.error.is_none()
            && result.docs.iter().all(|doc| {
                doc.root_is_null() || crate::model::manifest::document_skip_reason(&Located::root(doc)).is_some()
            })
    }

    /// A document (or List item) that could not be read, at `pos`.
    pub(super) fn read_error(
        &mut self,
        file: &str,
        document: usize,
        text: &str,
        pos: crate::parse::source::Position,
        error: DocError,
    ) {
        let mut message = error.message;
        if looks_templated(text) {
            message = format!("unrendered Helm template: run `helm template` first ({message})");
        }
        self.report.errors.push(LintError {
            file: file.to_owned(),
            line: pos.line,
            column: pos.column,
            document,
            message,
            code: if looks_templated(text) {
                "ra2::parse::template".to_owned()
            } else {
                error.code.to_owned()
            },
            offset: error.span.start,
        });
    }

    /// Lints a document read elsewhere as the only document of a file named `name`: the
    /// admission decision reads the object where it stands in the request.
    pub(crate) fn add_doc(&mut self, name: &str, doc: &Doc<'_>) {
        let mut state = self.begin_file(name);
        self.add_read_doc(&mut state, doc, None);
    }

    pub(super) fn add_read_doc(&mut self, file: &mut FileState, doc: &Doc<'_>, template: Option<&str>) {
        // Every document counts, empty ones (only comments, or `---` twice) included, as
        // YAML libraries' load-all does, so that `document` matches what they see.
        let index = file.next_document;
        file.next_document += 1;
        self.report.summary.documents += 1;
        if doc.root_is_null() {
            return;
        }
        if file.skip_non_k8s {
            if let Some(reason) = crate::model::manifest::document_skip_reason(&Located::root(doc)) {
                self.record_skipped(reason);
                return;
            }
        }
        if let Some(span) = crate::model::manifest::unrendered_action(doc) {
            let pos = doc.position(span.start);
            let action = doc
                .chunk
                .text
                .get(span.start.saturating_sub(doc.chunk.offset)..span.end.saturating_sub(doc.chunk.offset))
                .and_then(crate::parse::source::helm_action_text)
                .unwrap_or("{{ ... }}");
            self.report.errors.push(LintError {
                file: file.name.clone(),
                line: pos.line,
                column: pos.column,
                document: index,
                message: format!(
                    "unrendered Helm template: run `helm template` first ({action} is a template action, so the values of this document are not what Kubernetes would get)"
                ),
                code: "ra2::parse::template".to_owned(),
                offset: span.start,
            });
            return;
        }
        self.lint_doc(&file.name, index, doc, template);
    }
}
