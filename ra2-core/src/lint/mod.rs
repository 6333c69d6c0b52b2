//! The linter: documents -> objects -> rules -> findings, with suppression, select/ignore and
//! cross-document checks. One path for every face.

pub mod hook;

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use crate::catalogue::{EXEMPTION_RULE, Edition, SUPPRESSION_RULE, YAML_RULE};
use crate::config::Config;
use crate::lint::hook::{HookContext, ObjectHook};
use crate::model::Object;
use crate::model::bundle::{Bundle, BundleFinding, Place};
use crate::parse::doc::{Doc, DocError, Limits, read_chunk};
use crate::parse::list::Cut;
use crate::parse::source::{Chunk, chunks, looks_templated, strip_bom};
use crate::parse::view::Located;
use crate::report::{Finding, LintError, ObjectRef, ObjectSummary, Profile, Report, Severity};
use crate::rules::{BundleContext, Checks, Context, Gather, Pending, RULES, Settings, Target};

/// The object index of a duplicate-key finding in a document with no object, read before any
/// object of its linter: the previous object of the run (see [`Linter::absorb`]).
const PREVIOUS_OBJECT: usize = usize::MAX;

const SUPPRESS_PREFIX: &str = "ignore-check.ra2.dev/";
const SUPPRESS_ALL: &str = "ra2.dev/ignore-all";

/// What an object's annotations suppress, with the reasons they give.
#[derive(Clone, Debug, Default)]
struct Suppressions {
    /// The reason of `ra2.dev/ignore-all`, when present.
    all: Option<String>,
    /// `rule` or `rule.check` (as written after the prefix), and the reason.
    keys: Vec<(String, String)>,
}

impl Suppressions {
    /// The reason this check is suppressed, if it is.
    fn reason_for(&self, rule: &str, check: &str) -> Option<&str> {
        self.keys
            .iter()
            .find(|(k, _)| k == rule || k.strip_prefix(rule).and_then(|r| r.strip_prefix('.')) == Some(check))
            .map(|(_, reason)| reason.as_str())
            .or(self.all.as_deref())
    }
}

/// How an annotation's reason is counted in the summary.
fn reason_text(value: &Located<'_>) -> String {
    match value.as_str().map(str::trim) {
        Some(reason) if !reason.is_empty() => reason.to_owned(),
        _ => "(no reason)".to_owned(),
    }
}

/// Is this object a Helm test hook? `helm.sh/hook` holds a comma-separated list of hooks.
fn helm_hook(object: &Object<'_>) -> Option<String> {
    let hooks = object.annotation("helm.sh/hook")?;
    hooks
        .as_str()?
        .split(',')
        .map(str::trim)
        .any(|h| h == "test" || h == "test-success")
        .then(|| "test".to_owned())
}

/// The checks a run uses, each with its rule's id and catalogue entry and its decoded
/// parameters (same order).
#[derive(Debug)]
struct RuleSet {
    rules: Vec<Running>,
    docs: Vec<Option<&'static crate::catalogue::RuleDoc>>,
    /// Decoded once for the run, or the shared catalogue defaults.
    params: Vec<Option<crate::rules::params::Decoded>>,
}

impl RuleSet {
    /// The rules `config` runs. A config that selects, ignores and sets no parameter (every
    /// admission decision under the default config) shares one set per edition, made once per
    /// process: each decision used to build it again.
    fn of(config: &Config) -> Arc<RuleSet> {
        static DEFAULT: [OnceLock<Arc<RuleSet>>; 2] = [OnceLock::new(), OnceLock::new()];
        let slot = match config.edition {
            Edition::Base => DEFAULT.first(),
            Edition::Latest => DEFAULT.get(1),
        };
        match slot {
            Some(slot) if config.select.is_empty() && config.ignore.is_empty() && config.params.is_empty() => {
                Arc::clone(slot.get_or_init(|| Arc::new(RuleSet::new(config))))
            }
            _ => Arc::new(RuleSet::new(config)),
        }
    }

    fn new(config: &Config) -> RuleSet {
        let edition_bit = 1 << config.edition as u8;
        let mut set = RuleSet {
            rules: Vec::with_capacity(crate::rules::PARTS),
            docs: Vec::with_capacity(crate::rules::PARTS),
            params: Vec::with_capacity(crate::rules::PARTS),
        };
        // Each part's index over the whole registry, which the shared default parameters use.
        let mut part = 0;
        for ((rule, bits), doc) in RULES.iter().zip(RULE_EDITIONS.iter()).zip(RULE_DOCS.iter()) {
            let first = part;
            part += rule.parts.len();
            if bits & edition_bit == 0 || !config.rule_enabled(rule.id) {
                continue;
            }
            for (index, checks) in (first..).zip(rule.parts.iter().copied()) {
                set.rules.push(Running { id: rule.id, checks });
                set.docs.push(*doc);
                set.params
                    .push(crate::rules::params::decoded(index, rule.id, checks, *doc, config));
            }
        }
        set
    }
}

/// One [`Checks`] of a rule that runs, and the rule's id.
#[derive(Clone, Copy, Debug)]
struct Running {
    id: &'static str,
    checks: &'static Checks,
}

/// Lints any number of files and produces one report.
pub struct Linter<'c> {
    config: &'c Config,
    limits: Limits,
    /// The rules that run, shared by every linter of a config that selects, ignores and sets
    /// nothing (see [`RuleSet::of`]).
    rules: Arc<RuleSet>,
    report: Report,
    bundle: Bundle,
    /// What each object's annotations suppress (`None`: nothing, the common case, in a word).
    suppressions: Vec<Option<Box<Suppressions>>>,
    /// The Helm template of each object (same index as `suppressions`).
    templates: Vec<Option<Box<str>>>,
    /// Report config exemptions that matched nothing (off for single-object admission
    /// reviews, where every exemption for another object would look stale).
    report_unused_exemptions: bool,
    /// (finding, object index) before suppression.
    pending: Vec<(Finding, usize)>,
    /// Findings of network-intensive-only checks on pods whose profile depends on documents
    /// not read yet; settled in [`Linter::finish`].
    deferred: Vec<Pending>,
    /// The device table of this run (workload profile).
    devices: crate::k8s::devices::Classifier,
    /// Extra object checks from outside ra2-core (strict mode), run after the rules.
    hooks: Vec<Box<dyn ObjectHook + Send + 'c>>,
    /// Read strict JSON with the JSON reader (off only to test it against libyaml).
    json_reader: bool,
    /// Read `kind: List` documents item by item (off only to test against reading them whole).
    split_lists: bool,
    /// The last object read (duplicate keys in a document without one are reported on it).
    last_object: Option<ObjectRef>,
    /// Which config exemptions matched a finding.
    used: Vec<bool>,
    /// What [`Linter::take_settled`] handed out so far (see [`Taken`]).
    taken: Taken,
}

/// What [`Linter::take_settled`] handed out, for the summary, and the objects it holds back.
#[derive(Debug, Default)]
struct Taken {
    findings: crate::report::SeverityCounts,
    errors: usize,
    /// Objects handed out or held back: `report.objects` starts at this object index.
    objects_base: usize,
    objects: usize,
    /// Objects whose profile other documents may still decide (see [`Linter::finish`]),
    /// by object index.
    undecided: std::collections::BTreeSet<usize>,
    held: BTreeMap<usize, ObjectSummary>,
    /// An object came from Helm output (`# Source:`).
    saw_templates: bool,
}

/// The findings, errors and objects of the documents read so far that no later document can
/// change (see [`Linter::take_settled`]), each sorted as in the report.
#[derive(Debug, Default)]
pub struct Settled {
    pub findings: Vec<Finding>,
    pub errors: Vec<LintError>,
    pub objects: Vec<ObjectSummary>,
}

/// A `kind: List` document being read item by item (see [`crate::parse::list`] and
/// [`Linter::begin_list`]).
#[derive(Debug)]
pub struct ListDoc {
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

/// The editions each rule of [`RULES`] runs in ([`crate::catalogue::edition_bits`]), in the
/// same order, worked out at compile time: a linter (one per admission request) looks nothing
/// up in the catalogue to choose its rules.
static RULE_EDITIONS: [u8; RULES.len()] = rule_editions();

// Evaluated at compile time only: an index out of range would be a build error, not a panic.
#[allow(clippy::indexing_slicing)]
const fn rule_editions() -> [u8; RULES.len()] {
    let mut bits = [0; RULES.len()];
    let mut i = 0;
    while i < RULES.len() {
        bits[i] = crate::catalogue::edition_bits(RULES[i].id);
        i += 1;
    }
    bits
}

/// The catalogue entry of each rule of [`RULES`], in the same order, found at compile time: the
/// cross-document checks of every run (one per admission request) get theirs without a search.
static RULE_DOCS: [Option<&'static crate::catalogue::RuleDoc>; RULES.len()] = rule_docs();

// Evaluated at compile time only: an index out of range would be a build error, not a panic.
#[allow(clippy::indexing_slicing)]
const fn rule_docs() -> [Option<&'static crate::catalogue::RuleDoc>; RULES.len()] {
    let mut docs = [None; RULES.len()];
    let mut i = 0;
    while i < RULES.len() {
        docs[i] = crate::catalogue::find(RULES[i].id);
        i += 1;
    }
    docs
}

/// Per-file state while a file is fed in chunks (for streaming standard input).
#[derive(Debug)]
pub struct FileState {
    name: String,
    next_document: usize,
    json: Option<bool>,
    /// Skip documents that are not Kubernetes objects (see [`crate::model::manifest`]) instead of
    /// reporting them as errors.
    skip_non_k8s: bool,
}

impl FileState {
    /// Whether the file is JSON, once its first text decided it.
    pub fn json(&self) -> Option<bool> {
        self.json
    }

    /// Skips (and counts) documents that are not Kubernetes objects, as for files found by
    /// walking a directory; off by default unless the config's `skip-non-k8s` is set.
    pub fn set_skip_non_k8s(&mut self, on: bool) {
        self.skip_non_k8s = on;
    }
}

/// What a linter for a run is made from: the config and the rules it selects, with their
/// catalogue entries and decoded parameters. Shared between threads, it makes linters for the
/// same run ([`Seed::linter`]) without selecting and decoding again.
#[derive(Clone, Debug)]
pub struct Seed<'c> {
    config: &'c Config,
    limits: Limits,
    rules: Arc<RuleSet>,
    devices: crate::k8s::devices::Classifier,
    report_unused_exemptions: bool,
    json_reader: bool,
    split_lists: bool,
}

impl<'c> Seed<'c> {
    fn new(config: &'c Config) -> Self {
        Seed {
            config,
            limits: config.limits,
            rules: RuleSet::of(config),
            devices: crate::k8s::devices::Classifier::new(config),
            report_unused_exemptions: true,
            json_reader: true,
            split_lists: true,
        }
    }

    /// A linter for the run with nothing read yet (see [`Linter::fork`]).
    #[must_use]
    pub fn linter(&self) -> Linter<'c> {
        self.clone().into_linter()
    }

    fn into_linter(self) -> Linter<'c> {
        let config = self.config;
        Linter {
            config,
            limits: self.limits,
            rules: self.rules,
            report: Report {
                edition: config.edition.as_str().to_owned(),
                ..Report::default()
            },
            bundle: Bundle::default(),
            suppressions: Vec::new(),
            templates: Vec::new(),
            report_unused_exemptions: self.report_unused_exemptions,
            pending: Vec::new(),
            deferred: Vec::new(),
            devices: self.devices,
            hooks: Vec::new(),
            json_reader: self.json_reader,
            split_lists: self.split_lists,
            last_object: None,
            used: vec![false; config.exemptions.len()],
            taken: Taken::default(),
        }
    }
}

impl<'c> Linter<'c> {
    pub fn new(config: &'c Config) -> Self {
        Seed::new(config).into_linter()
    }

    /// Adds a check that runs on every object after the rules (see [`crate::lint::hook`]).
    #[must_use]
    pub fn with_object_hook(mut self, hook: Box<dyn ObjectHook + Send + 'c>) -> Self {
        self.hooks.push(hook);
        self
    }

    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Reads JSON documents with libyaml instead of the JSON reader: the reference the JSON
    /// reader is tested against (the reports must be identical).
    #[doc(hidden)]
    #[must_use]
    pub fn with_libyaml_only(mut self) -> Self {
        self.json_reader = false;
        self
    }

    /// Reads `kind: List` documents whole, as one tree, instead of item by item: the reference
    /// reading Lists item by item is tested against (the reports must be identical).
    #[doc(hidden)]
    #[must_use]
    pub fn with_whole_lists(mut self) -> Self {
        self.split_lists = false;
        self
    }

    /// Whether config exemptions that matched no finding are reported (`exemption/unused`,
    /// on by default).
    #[must_use]
    pub fn with_unused_exemptions(mut self, report: bool) -> Self {
        self.report_unused_exemptions = report;
        self
    }

    /// A linter for the same run with nothing read yet, to read some files independently
    /// (on another thread, say) and hand back with [`Linter::absorb`]. Object hooks are not
    /// carried over: a run with hooks reads in one linter.
    #[must_use]
    pub fn fork(&self) -> Linter<'c> {
        self.seed().into_linter()
    }

    /// What [`Linter::fork`] makes its linters from, for threads that make their own.
    #[must_use]
    pub fn seed(&self) -> Seed<'c> {
        Seed {
            config: self.config,
            limits: self.limits,
            rules: Arc::clone(&self.rules),
            devices: self.devices.clone(),
            report_unused_exemptions: self.report_unused_exemptions,
            json_reader: self.json_reader,
            split_lists: self.split_lists,
        }
    }

    /// Whether [`Linter::fork`] gives linters that read like this one (no object hooks).
    pub fn can_fork(&self) -> bool {
        self.hooks.is_empty()
    }

    /// Takes in what a [`Linter::fork`] read, as if this linter had read the same files right
    /// now: forks absorbed in input order give the same report, byte for byte, as one linter
    /// reading every file in that order.
    pub fn absorb(&mut self, later: Linter<'c>) {
        let base = self.suppressions.len();
        let previous = self.last_object.clone();
        if later.last_object.is_some() {
            self.last_object.clone_from(&later.last_object);
        }
        self.taken
            .undecided
            .extend(later.taken.undecided.iter().map(|i| i + base));
        for (used, later) in self.used.iter_mut().zip(&later.used) {
            *used |= later;
        }
        self.taken.saw_templates |= later.taken.saw_templates;
        let resolve = |(mut finding, index): Pending| {
            let index = if index == PREVIOUS_OBJECT {
                finding.object = previous.clone().unwrap_or_default();
                base.saturating_sub(1)
            } else {
                index + base
            };
            (finding, index)
        };
        self.pending.extend(later.pending.into_iter().map(resolve));
        self.deferred
            .extend(later.deferred.into_iter().map(|(f, i)| (f, i + base)));
        self.suppressions.extend(later.suppressions);
        self.templates.extend(later.templates);
        self.bundle.absorb(later.bundle, base);
        let report = later.report;
        self.report.objects.extend(report.objects);
        self.report.errors.extend(report.errors);
        self.report.findings.extend(report.findings);
        self.report.summary.files += report.summary.files;
        self.report.summary.documents += report.summary.documents;
        self.report.summary.skipped += report.summary.skipped;
        for (reason, count) in report.summary.skipped_by_reason {
            *self.report.summary.skipped_by_reason.entry(reason).or_default() += count;
        }
    }

    pub fn edition(&self) -> Edition {
        self.config.edition
    }

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
    pub fn add_chunk_bytes(&mut self, file: &mut FileState, bytes: &[u8], offset: usize, line: usize) {
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
    fn utf8_error(&mut self, file: &str, document: usize, bytes: &[u8], valid_up_to: usize, at: (usize, usize, usize)) {
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
    pub fn begin_file(&mut self, name: &str) -> FileState {
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
    pub fn file_is_json(file: &mut FileState, text: &str) -> bool {
        *file
            .json
            .get_or_insert_with(|| text.trim_start().starts_with(['{', '[']))
    }

    /// Lints one chunk of a file: one `---` section.
    pub fn add_chunk(&mut self, file: &mut FileState, chunk: Chunk<'_>) {
        let json = Self::file_is_json(file, chunk.text);
        // JSON Lists are read item by item; YAML ones when they are over the size limit (an
        // alias may use an anchor of another item, which reading item by item cannot follow).
        let split = self.split_lists && (json || chunk.text.len() > self.limits.max_document_bytes);
        if let Some(cuts) = split
            .then(|| crate::parse::list::split(chunk.text, chunk.offset, chunk.line, json))
            .flatten()
        {
            self.add_list_chunk(file, chunk, &cuts);
            return;
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
            let pos = crate::parse::source::LineIndex::new(&chunk).position(chunk.text, error.span.start);
            self.read_error(&file.name, index, chunk.text, pos, error);
        }
    }

    /// A document (or List item) that could not be read, at `pos`.
    fn read_error(
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

    /// A section that [`crate::parse::list::split`] cut into a List's header, items and trailer.
    fn add_list_chunk(&mut self, file: &mut FileState, chunk: Chunk<'_>, cuts: &[Cut]) {
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
    pub fn begin_list(&mut self, file: &mut FileState, header: Chunk<'_>) -> ListDoc {
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
    pub fn add_list_item_bytes(
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
    pub fn add_list_item(&mut self, file: &FileState, list: &mut ListDoc, item: Chunk<'_>, column: usize) {
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
    pub fn end_list_bytes(&mut self, file: &mut FileState, list: ListDoc, bytes: &[u8], at: (usize, usize, usize)) {
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
    pub fn end_list(&mut self, file: &mut FileState, list: ListDoc, trailer: Chunk<'_>, column: usize) {
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

    /// Lints a document read elsewhere as the only document of a file named `name`: the
    /// admission decision reads the object where it stands in the request.
    pub fn add_doc(&mut self, name: &str, doc: &Doc<'_>) {
        let mut state = self.begin_file(name);
        self.add_read_doc(&mut state, doc, None);
    }

    fn add_read_doc(&mut self, file: &mut FileState, doc: &Doc<'_>, template: Option<&str>) {
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
        self.lint_doc(&file.name, index, doc, template);
    }

    fn error(&mut self, file: &str, document: usize, at: &Located<'_>, code: &str, message: String) {
        let span = at.site().span;
        let pos = at.doc().position(span.start);
        self.report.errors.push(LintError {
            file: file.to_owned(),
            line: pos.line,
            column: pos.column,
            document,
            message,
            code: code.to_owned(),
            offset: span.start,
        });
    }

    fn lint_doc(&mut self, file: &str, document: usize, doc: &Doc<'_>, template: Option<&str>) {
        let root = Located::root(doc);
        if !root.is_map() {
            let what = root.type_name();
            self.error(
                file,
                document,
                &root,
                "ra2::object::not-a-mapping",
                format!("document is a {what}, not a Kubernetes object (a mapping with apiVersion and kind)"),
            );
            return;
        }
        let is_list = root.str_at("kind").is_some_and(|k| k == "List" || k.ends_with("List"))
            && root.get("items").is_some_and(|i| i.is_seq());
        let first_object = self.suppressions.len();
        if is_list {
            if let Some(items) = root.get("items") {
                for node in items.items() {
                    self.lint_object(file, document, node, template);
                }
            }
        } else {
            self.lint_object(file, document, root, template);
        }
        self.push_problems(file, document, doc, template, first_object);
    }

    /// Reports the duplicate keys of `doc`, on the last object read and suppressed as the
    /// first object of the document (`first_object`) is.
    fn push_problems(
        &mut self,
        file: &str,
        document: usize,
        doc: &Doc<'_>,
        template: Option<&str>,
        first_object: usize,
    ) {
        for problem in &doc.problems {
            let pos = doc.position(problem.span.start);
            let end = doc.position(problem.span.end);
            let object = self.last_object.clone();
            self.pending.push((
                duplicate_key(
                    problem,
                    file,
                    document,
                    (pos, end, problem.span.start),
                    object.unwrap_or_default(),
                    template,
                ),
                if self.suppressions.is_empty() {
                    // No object of this linter's own yet: the run's previous object, which
                    // [`Linter::absorb`] resolves when this linter was forked.
                    PREVIOUS_OBJECT
                } else {
                    first_object.min(self.suppressions.len() - 1)
                },
            ));
        }
    }

    fn lint_object(&mut self, file: &str, document: usize, node: Located<'_>, template: Option<&str>) {
        if !node.is_map() {
            self.error(
                file,
                document,
                &node,
                "ra2::object::not-a-mapping",
                format!("list item is a {}, not a Kubernetes object", node.type_name()),
            );
            return;
        }
        let object = Object::new(node);
        for key in ["apiVersion", "kind"] {
            match object.root.get(key) {
                None => {
                    self.error(
                        file,
                        document,
                        &object.root,
                        "ra2::object::missing-field",
                        format!("object has no {key}, so Kubernetes cannot read it"),
                    );
                    return;
                }
                Some(v) if v.as_str().is_none() => {
                    self.error(
                        file,
                        document,
                        &v,
                        "ra2::object::wrong-type",
                        format!("{key} must be a string, found {} {}", v.type_name(), v.source_text()),
                    );
                    return;
                }
                Some(_) => {}
            }
        }
        let object_index = self.suppressions.len();
        let object_ref = ObjectRef {
            api_version: object.api_version.map(str::to_owned),
            kind: object.kind.map(str::to_owned),
            namespace: object.namespace.map(str::to_owned),
            name: object.name.map(str::to_owned),
        };
        let pod = object.pod_spec();
        let target = Target {
            file,
            document,
            object: &object_ref,
            object_index,
        };
        let mut found: Vec<Pending> = Vec::new();
        let suppressions = suppressions_of(&object, pod, target, &mut found);
        self.suppressions
            .push((suppressions.all.is_some() || !suppressions.keys.is_empty()).then(|| Box::new(suppressions)));
        self.templates.push(template.map(Box::from));
        let settings = Settings {
            edition: self.config.edition,
            config: self.config,
        };
        let mut gated: Vec<Pending> = Vec::new();
        for (rule, params) in self.rules.rules.iter().zip(&self.rules.params) {
            let params = params.as_deref();
            if let Some(check) = rule.checks.object {
                check(
                    &object,
                    &mut Context::new(rule.id, settings, target, &mut found).with_params(params),
                );
            }
            if let (Some(check), Some(pod)) = (rule.checks.pod, pod) {
                check(
                    pod,
                    &mut Context::new(rule.id, settings, target, &mut found)
                        .with_gated(&mut gated)
                        .with_params(params),
                );
            }
        }
        let profile = pod.map(|pod| self.record_profile(target, &object, pod));
        match profile {
            Some(Some(Profile::NetworkIntensive)) => found.append(&mut gated),
            Some(None) => self.deferred.append(&mut gated),
            _ => {}
        }
        for hook in &mut self.hooks {
            let mut cx = HookContext {
                config: self.config,
                target,
                out: &mut found,
            };
            hook.check_object(&object, &mut cx);
        }
        let silenced = |f: &Finding| {
            self.suppressions
                .get(object_index)
                .and_then(Option::as_deref)
                .and_then(|s| s.reason_for(&f.rule, &f.check))
                .is_some()
                || self
                    .config
                    .exemptions
                    .iter()
                    .any(|e| e.matches_in(&f.rule, &f.check, &f.object, template))
        };
        crate::rules::api_server::settle(&mut found, &silenced);
        let line = object.root.doc().position(object.root.span().start).line;
        if profile == Some(None) {
            self.taken.undecided.insert(object_index);
        }
        self.taken.saw_templates |= template.is_some();
        self.report.objects.push(ObjectSummary {
            file: file.to_owned(),
            document,
            api_version: object_ref.api_version.clone(),
            kind: object_ref.kind.clone(),
            name: object_ref.name.clone(),
            namespace: object_ref.namespace.clone(),
            // Undecided pods start basic; `finish` upgrades them when other documents tell.
            profile: profile.map(|p| p.unwrap_or(Profile::Basic)),
            line,
            source_template: template.map(str::to_owned),
            hook: helm_hook(&object),
        });
        self.collect_facts(target, &object);
        crate::platform::collect(&mut self.bundle.platform, target, &object, pod);
        self.pending.extend(found);
        self.last_object = Some(object_ref);
    }

    /// Records the pod's profile facts (ra2-rules.md §1.2) and returns its profile, or `None`
    /// when `NetworkAttachmentDefinitions` elsewhere in the input decide it.
    fn record_profile(
        &mut self,
        target: Target<'_>,
        object: &Object<'_>,
        pod: &crate::model::PodSpec<'_>,
    ) -> Option<Profile> {
        let namespace = object.namespace.unwrap_or(&self.config.default_namespace);
        let place = |node: &Located<'_>| Place::of(target, node);
        let facts =
            crate::model::profile::facts(pod, namespace, target.object_index, self.config, &self.devices, &place);
        let profile = if facts.local.is_some() {
            Some(Profile::NetworkIntensive)
        } else if facts.undecided() {
            None
        } else {
            return Some(Profile::Basic);
        };
        self.bundle.workloads.push(facts);
        profile
    }

    /// Settles the profile of pods that depended on other documents: upgrades their
    /// `objects[].profile` and releases their network-intensive-only findings.
    fn settle_profiles(&mut self) {
        let network_intensive: std::collections::BTreeSet<usize> = self
            .bundle
            .workloads
            .iter()
            .filter(|w| w.undecided() && crate::model::profile::resolve(w, &self.bundle).is_some())
            .map(|w| w.object_index)
            .collect();
        for &index in &network_intensive {
            let object = match index.checked_sub(self.taken.objects_base) {
                Some(i) => self.report.objects.get_mut(i),
                None => self.taken.held.get_mut(&index),
            };
            if let Some(object) = object {
                object.profile = Some(Profile::NetworkIntensive);
            }
        }
        for (finding, index) in std::mem::take(&mut self.deferred) {
            if network_intensive.contains(&index) {
                self.pending.push((finding, index));
            }
        }
    }

    /// Records what cross-document rules need from this object: the objects several rules
    /// look up, and each running rule's own facts.
    fn collect_facts(&mut self, target: Target<'_>, object: &Object<'_>) {
        let namespace = object.namespace.unwrap_or(&self.config.default_namespace);
        self.bundle.record(target, object, namespace);
        for rule in &self.rules.rules {
            if let Some(gather) = rule.checks.gather {
                let mut cx = Gather {
                    target,
                    namespace,
                    rule: rule.id,
                    strings: &mut self.bundle.strings,
                    facts: &mut self.bundle.rule_facts,
                };
                gather(object, &mut cx);
            }
        }
    }

    /// Runs cross-document rules, applies suppression and exemptions, sorts, and returns the
    /// report.
    pub fn finish(self) -> Report {
        self.finish_in_order().into_report()
    }

    /// [`Linter::finish`] for a caller that hands the findings on as it gets them: the
    /// report's findings come out of [`Finished::next_batch`] in report order (sorted and
    /// deduplicated as [`Report::finalize`] does), each built only then, so that a run with a
    /// cross-document finding per pod never holds them all as [`Finding`]s.
    pub fn finish_in_order(mut self) -> Finished {
        // Read before any object of the run: there is no previous object.
        for (_, index) in &mut self.pending {
            if *index == PREVIOUS_OBJECT {
                *index = 0;
            }
        }
        self.settle_profiles();
        let settings = Settings {
            edition: self.config.edition,
            config: self.config,
        };
        let mut bundle_findings: Vec<BundleFinding> = Vec::new();
        let mut texts = crate::model::bundle::Strings::default();
        for ((rule, params), doc) in self.rules.rules.iter().zip(&self.rules.params).zip(&self.rules.docs) {
            if let Some(check) = rule.checks.bundle {
                let mut cx = BundleContext {
                    rule: rule.id,
                    doc: *doc,
                    settings,
                    out: &mut bundle_findings,
                    texts: &mut texts,
                    params: params.as_deref(),
                };
                check(&self.bundle, &mut cx);
            }
        }
        // The facts are not needed any more: freed before the findings they lead to are built.
        drop(std::mem::take(&mut self.bundle));
        drop(texts);
        // In the order `finish` always collected them (which a stable sort keeps for equal
        // keys): findings already in the report, pending ones, cross-document ones, then what
        // hooks and unused exemptions add.
        let mut before = std::mem::take(&mut self.report.findings);
        for (finding, index) in std::mem::take(&mut self.pending) {
            if let Some(finding) = self.settle(finding, index) {
                before.push(finding);
            }
        }
        // Cross-document findings (one per pod for some rules) stay in their compact form:
        // suppressed and exempted ones are dropped (and counted) now, the rest are sorted as
        // the report is and built one at a time as they are handed out.
        bundle_findings.retain(|f| {
            let object = f.place.object.to_ref();
            self.keeps(f.rule, f.check, &object, f.place.object_index)
        });
        let mut order: Vec<usize> = (0..bundle_findings.len()).collect();
        order.sort_by(|&a, &b| match (bundle_findings.get(a), bundle_findings.get(b)) {
            (Some(a), Some(b)) => bundle_key(a).cmp(&bundle_key(b)),
            _ => std::cmp::Ordering::Equal,
        });
        // Last first: handed out by popping.
        order.reverse();
        permute(&mut bundle_findings, order);
        // Objects held back by [`Linter::take_settled`] until their profile was decided.
        let held = std::mem::take(&mut self.taken.held);
        self.report.objects.extend(held.into_values());
        for hook in &mut self.hooks {
            hook.finish(&mut self.report);
        }
        let mut after = std::mem::take(&mut self.report.findings);
        if self.report_unused_exemptions && self.config.enabled(EXEMPTION_RULE, "unused") {
            for (exemption, &used) in self.config.exemptions.iter().zip(&self.used) {
                if !used && self.could_apply(exemption) {
                    if let Some(site) = &exemption.site {
                        after.push(unused_exemption(exemption, site));
                    }
                }
            }
        }
        self.report.finalize();
        // What was handed out before counts too.
        let summary = &mut self.report.summary;
        summary.errors += self.taken.errors;
        summary.objects += self.taken.objects;
        let sorted = |mut findings: Vec<Finding>| {
            findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
            findings.reverse();
            findings
        };
        Finished {
            report: self.report,
            before: sorted(before),
            bundle: bundle_findings,
            after: sorted(after),
            templates: self.templates,
            last: None,
            counts: self.taken.findings,
        }
    }

    /// Applies the config's select/ignore, the object's suppression annotations and the
    /// config's exemptions to a finding of object `index` (counting what they silence), and
    /// sets its Helm template: the finding as reported, or `None`.
    fn settle(&mut self, mut finding: Finding, index: usize) -> Option<Finding> {
        if !self.keeps(&finding.rule, &finding.check, &finding.object, index) {
            return None;
        }
        if !is_meta(&finding.rule) {
            finding.source_template = self.templates.get(index).and_then(Option::as_deref).map(str::to_owned);
        }
        Some(finding)
    }

    /// Whether a finding of `rule`/`check` on `object` (object index `index`) is reported:
    /// the config's select/ignore, the object's suppression annotations and the config's
    /// exemptions (what they silence is counted, and the exemptions used are marked).
    fn keeps(&mut self, rule: &str, check: &str, object: &ObjectRef, index: usize) -> bool {
        let is_meta = is_meta(rule);
        if !self.config.enabled(rule, check) {
            return false;
        }
        let template = if is_meta {
            None
        } else {
            self.templates.get(index).and_then(Option::as_deref)
        };
        let annotated = if is_meta {
            None
        } else {
            self.suppressions
                .get(index)
                .and_then(Option::as_deref)
                .and_then(|s| s.reason_for(rule, check))
        };
        let mut exempted: Option<&str> = None;
        if !is_meta {
            for (exemption, used) in self.config.exemptions.iter().zip(self.used.iter_mut()) {
                if exemption.matches_in(rule, check, object, template) {
                    *used = true;
                    exempted = exempted.or(Some(&exemption.reason));
                }
            }
        }
        if let Some(reason) = annotated.or(exempted) {
            self.report.summary.count_suppressed(reason);
            return false;
        }
        true
    }

    /// Hands out what the documents read so far settled: their findings (suppressed and
    /// exempted ones left out, and counted), read errors and objects. What other documents
    /// decide stays for [`Linter::finish`]: cross-document findings, findings of pods whose
    /// profile is not decided yet, and those pods' objects. `finish` then reports the rest,
    /// and its summary counts everything, taken or not. Taking changes nothing else: the
    /// findings taken plus those of `finish` are the findings of a run that takes nothing.
    pub fn take_settled(&mut self) -> Settled {
        let mut findings = Vec::new();
        for (finding, index) in std::mem::take(&mut self.pending) {
            if index == PREVIOUS_OBJECT {
                // Read before any object of the run: settled in `finish`.
                self.pending.push((finding, index));
            } else if let Some(finding) = self.settle(finding, index) {
                findings.push(finding);
            }
        }
        let mut batch = Report {
            findings,
            errors: std::mem::take(&mut self.report.errors),
            ..Report::default()
        };
        batch.finalize();
        let counts = batch.summary.findings;
        self.taken.findings.error += counts.error;
        self.taken.findings.warning += counts.warning;
        self.taken.findings.info += counts.info;
        self.taken.errors += batch.errors.len();
        let base = self.taken.objects_base;
        let read = std::mem::take(&mut self.report.objects);
        self.taken.objects_base += read.len();
        let mut objects = Vec::with_capacity(read.len());
        for (i, object) in read.into_iter().enumerate() {
            if self.taken.undecided.remove(&(base + i)) {
                self.taken.held.insert(base + i, object);
            } else {
                objects.push(object);
            }
        }
        self.taken.objects += objects.len();
        Settled {
            findings: batch.findings,
            errors: batch.errors,
            objects,
        }
    }

    /// Whether documents that are not Kubernetes objects are skipped by default (the config's
    /// `skip-non-k8s`).
    pub fn skips_non_k8s(&self) -> bool {
        self.config.skip_non_k8s
    }

    /// The limits documents are read with.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Whether an object read came from Helm output (a `# Source:` comment names its template).
    pub fn saw_templates(&self) -> bool {
        self.taken.saw_templates
    }

    /// Findings, errors and objects read and not handed out yet (to decide when to take).
    pub fn held(&self) -> usize {
        self.pending.len() + self.report.errors.len() + self.report.objects.len()
    }
}

impl Linter<'_> {
    /// Did a rule this exemption names run? An exemption for a rule left out by `select`,
    /// `ignore` or the edition is not stale, just idle.
    fn could_apply(&self, exemption: &crate::config::Exemption) -> bool {
        let selector = exemption.rule.split('/').next().unwrap_or(&exemption.rule);
        self.rules
            .rules
            .iter()
            .any(|r| crate::config::selector_matches(selector, r.id, ""))
    }
}

/// The end of a run ([`Linter::finish_in_order`]): its findings, handed out in report order.
pub struct Finished {
    /// The report without its findings: edition, errors and objects (sorted), and the
    /// summary. [`Finished::into_report`] puts the findings not handed out in, and counts
    /// every finding of the run in the summary.
    pub report: Report,
    /// Findings collected before the cross-document ones, sorted, last first.
    before: Vec<Finding>,
    /// Cross-document findings, sorted, last first.
    bundle: Vec<BundleFinding>,
    /// Findings collected after the cross-document ones (hooks, unused exemptions), sorted,
    /// last first.
    after: Vec<Finding>,
    /// The Helm template of each object.
    templates: Vec<Option<Box<str>>>,
    /// The last finding handed out, to leave out its duplicates.
    last: Option<Finding>,
    /// The findings handed out, by [`Linter::take_settled`] and here.
    counts: crate::report::SeverityCounts,
}

impl std::fmt::Debug for Finished {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Finished")
            .field("left", &(self.before.len() + self.bundle.len() + self.after.len()))
            .finish_non_exhaustive()
    }
}

impl Finished {
    /// Up to `max` (at least one) more findings, in report order: sorted by file, line,
    /// column, rule, check and message, equal ones in the order they were collected, and a
    /// finding equal to the one before it left out, as [`Report::finalize`] does. Empty once
    /// every finding was handed out.
    pub fn next_batch(&mut self, max: usize) -> Vec<Finding> {
        let batch = self.take(max);
        if let Some(last) = batch.last() {
            self.last = Some(last.clone());
        }
        batch
    }

    /// [`Finished::next_batch`] without remembering the last finding handed out (for the last
    /// batch, after which nothing is compared with it).
    fn take(&mut self, max: usize) -> Vec<Finding> {
        let mut batch: Vec<Finding> = Vec::new();
        while batch.len() < max.max(1) {
            let Some(finding) = self.next_finding() else { break };
            if batch.last().or(self.last.as_ref()) == Some(&finding) {
                continue;
            }
            self.counts.add(finding.severity);
            batch.push(finding);
        }
        batch
    }

    /// The report: the findings not handed out yet, and a summary that counts every finding
    /// of the run, handed out or not.
    pub fn into_report(mut self) -> Report {
        let findings = self.take(usize::MAX);
        self.report.findings = findings;
        self.report.summary.findings = self.counts;
        self.report
    }

    /// The first of the findings left (ties: collected first), taken out.
    fn next_finding(&mut self) -> Option<Finding> {
        let keys = [
            self.before.last().map(Finding::sort_key),
            self.bundle.last().map(bundle_key),
            self.after.last().map(Finding::sort_key),
        ];
        let mut first: Option<(usize, SortKey<'_>)> = None;
        for (i, key) in keys.into_iter().enumerate() {
            if let Some(key) = key {
                if first.as_ref().is_none_or(|(_, best)| key < *best) {
                    first = Some((i, key));
                }
            }
        }
        let which = first.map(|(i, _)| i)?;
        let finding = match which {
            0 => self.before.pop(),
            1 => self.bundle.pop().map(|f| {
                let index = f.place.object_index;
                let help = f.help.as_deref().map(str::to_owned);
                let mut finding = finding_at(f.rule, f.check, f.severity, f.message.to_string(), help, f.place);
                finding.fix = f.fix.map(|fix| *fix);
                if !is_meta(&finding.rule) {
                    finding.source_template = self.templates.get(index).and_then(Option::as_deref).map(str::to_owned);
                }
                finding
            }),
            _ => self.after.pop(),
        };
        shrink(&mut self.before);
        shrink(&mut self.bundle);
        shrink(&mut self.after);
        finding
    }
}

/// The order of findings in a report: file, line, column, rule, check, message.
type SortKey<'f> = (&'f str, usize, usize, &'f str, &'f str, &'f str);

/// A cross-document finding's [`SortKey`], as the [`Finding`] built from it has it.
fn bundle_key(f: &BundleFinding) -> SortKey<'_> {
    (
        &f.place.file,
        f.place.start.line,
        f.place.start.column,
        f.rule,
        f.check,
        &f.message,
    )
}

/// Frees the memory of a large list as it empties.
fn shrink<T>(items: &mut Vec<T>) {
    if items.len() * 2 < items.capacity() && items.capacity() > 4096 {
        items.shrink_to_fit();
    }
}

/// Puts `items` in `order`: position `i` gets the item at `order[i]` (a permutation of the
/// positions), moving items in place.
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    for start in 0..order.len() {
        let mut at = start;
        while let Some(next) = order.get_mut(at).map(|next| std::mem::replace(next, at)) {
            if next == start || next == at {
                break;
            }
            items.swap(at, next);
            at = next;
        }
    }
}

/// Findings about the input itself (suppression annotations, YAML), which no suppression or
/// exemption applies to.
fn is_meta(rule: &str) -> bool {
    rule == SUPPRESSION_RULE || rule == YAML_RULE
}

/// The `exemption/unused` finding, at the exemption in the config file.
fn unused_exemption(exemption: &crate::config::Exemption, site: &crate::config::ConfigSite) -> Finding {
    Finding {
        rule: EXEMPTION_RULE.to_owned(),
        check: "unused".to_owned(),
        severity: Severity::Info,
        message: format!("exemption for {} matched no finding", exemption.describe()),
        help: "Remove the exemption if it is stale, or fix its rule, kind, namespace, name or template pattern."
            .to_owned(),
        file: site.file.clone(),
        line: site.start.line,
        column: site.start.column,
        end_line: site.end.line,
        end_column: site.end.column,
        document: 0,
        object: ObjectRef::default(),
        pointer: site.pointer.clone(),
        source_template: None,
        template: None,
        related: Vec::new(),
        refused_by_api_server: false,
        named_pointer: None,
        fix: None,
        offset: site.offset,
        len: site.len,
    }
}

/// The `yaml/duplicate-key` finding of `problem`, at (start, end, offset).
fn duplicate_key(
    problem: &crate::parse::doc::Problem,
    file: &str,
    document: usize,
    at: (crate::parse::source::Position, crate::parse::source::Position, usize),
    object: ObjectRef,
    template: Option<&str>,
) -> Finding {
    let (pos, end, offset) = at;
    Finding {
        rule: YAML_RULE.to_owned(),
        check: "duplicate-key".to_owned(),
        severity: Severity::Error,
        message: problem.message.clone(),
        help: "Remove the earlier occurrence; only the last value is used.".to_owned(),
        file: file.to_owned(),
        line: pos.line,
        column: pos.column,
        end_line: end.line,
        end_column: end.column,
        document,
        object,
        pointer: String::new(),
        source_template: template.map(str::to_owned),
        template: None,
        related: Vec::new(),
        refused_by_api_server: false,
        named_pointer: None,
        fix: None,
        offset,
        len: problem.span.len(),
    }
}

/// [`finding_at`] for the node `at` of the object `target`, built straight from the tree: a
/// rule's finding on the object being linted needs no [`Place`] (whose strings are shared
/// for facts kept to the end of the run).
pub(crate) fn finding_on(
    rule: &str,
    check: &str,
    severity: Severity,
    message: String,
    help: Option<String>,
    target: Target<'_>,
    at: &Located<'_>,
) -> Finding {
    let help = help.unwrap_or_else(|| remediation(rule));
    let site = at.site();
    let doc = at.doc();
    let related = site
        .related
        .map(|span| vec![crate::model::bundle::alias_related(doc, span)])
        .unwrap_or_default();
    let start = doc.position(site.span.start);
    let end = doc.position(site.span.end);
    Finding {
        rule: rule.to_owned(),
        check: check.to_owned(),
        severity,
        message,
        help,
        file: target.file.to_owned(),
        line: start.line,
        column: start.column,
        end_line: end.line,
        end_column: end.column,
        document: target.document,
        object: target.object.clone(),
        pointer: at.pointer(),
        source_template: None,
        template: None,
        related,
        refused_by_api_server: false,
        named_pointer: at.named_pointer(),
        fix: None,
        offset: site.span.start,
        len: site.span.len(),
    }
}

/// A finding's help when its rule gave none: the rule's remediation from the catalogue.
fn remediation(rule: &str) -> String {
    crate::catalogue::get(rule)
        .map(|d| d.remediation.to_owned())
        .unwrap_or_default()
}

pub(crate) fn finding_at(
    rule: &str,
    check: &str,
    severity: Severity,
    message: String,
    help: Option<String>,
    place: Place,
) -> Finding {
    let help = help.unwrap_or_else(|| remediation(rule));
    let place = place.into_data();
    Finding {
        rule: rule.to_owned(),
        check: check.to_owned(),
        severity,
        message,
        help,
        file: place.file.as_ref().to_owned(),
        line: place.start.line,
        column: place.start.column,
        end_line: place.end.line,
        end_column: place.end.column,
        document: place.document,
        object: place.object.to_ref(),
        pointer: place.pointer.as_ref().to_owned(),
        source_template: None,
        template: None,
        related: place.related.map(|r| vec![*r]).unwrap_or_default(),
        refused_by_api_server: false,
        named_pointer: None,
        fix: None,
        offset: place.offset,
        len: place.len,
    }
}

fn suppressions_of(
    object: &Object<'_>,
    pod: Option<&crate::model::PodSpec<'_>>,
    target: Target<'_>,
    found: &mut Vec<Pending>,
) -> Suppressions {
    let mut out = Suppressions::default();
    // The pod template's annotations too, unless they are the object's own: a Pod's metadata
    // is at `/metadata` when the Pod is the document (in a List it is `/items/N/metadata`, and
    // read a second time, as it always was).
    let template = pod
        .and_then(|p| p.metadata.as_ref().map(|meta| (p.workload, meta)))
        .filter(|(workload, _)| *workload != crate::model::WorkloadKind::Pod || !object.root.pointer().is_empty())
        .and_then(|(_, meta)| meta.get("annotations"));
    let sources = [object.metadata().and_then(|m| m.get("annotations")), template];
    for annotations in sources.into_iter().flatten() {
        for (key, value) in annotations.entries() {
            let what = if key == SUPPRESS_ALL {
                out.all = Some(reason_text(&value));
                "all rules".to_owned()
            } else if let Some(rest) = key.strip_prefix(SUPPRESS_PREFIX) {
                out.keys.push((rest.to_owned(), reason_text(&value)));
                let known = crate::catalogue::all()
                    .iter()
                    .map(|d| d.id)
                    .chain([crate::config::SCHEMA_RULE])
                    .any(|id| rest == id || rest.strip_prefix(id).is_some_and(|c| c.starts_with('.')));
                if !known {
                    found.push((
    finding_on(SUPPRESSION_RULE, "unknown-rule", Severity::Warning, format!("suppression names unknown rule or check {rest:?}"), Some("Use a rule id such as ra2.app.007, or rule.check such as ra2.app.009.privileged-device.".to_owned()), target, &value),
    target.object_index,
));
                }
                rest.to_owned()
            } else {
                continue;
            };
            if value.as_str().is_none_or(|r| r.trim().is_empty()) {
                found.push((
                    finding_on(
                        SUPPRESSION_RULE,
                        "missing-reason",
                        Severity::Info,
                        format!("suppression of {what} gives no reason"),
                        Some("Write why the exemption is justified as the annotation's value.".to_owned()),
                        target,
                        &value,
                    ),
                    target.object_index,
                ));
            }
        }
    }
    out
}

/// A forked linter goes to another thread and back (see [`Linter::fork`]).
const _: fn() = || {
    fn send<T: Send>() {}
    send::<Linter<'static>>();
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The compile-time table says what the catalogue says.
    #[test]
    fn rule_editions_follow_the_catalogue() {
        assert_eq!(RULE_EDITIONS.len(), RULES.len());
        for (rule, bits) in RULES.iter().zip(RULE_EDITIONS) {
            for edition in Edition::ALL {
                let runs = crate::catalogue::get(rule.id).is_none_or(|d| d.in_edition(edition));
                assert_eq!(bits & (1 << edition as u8) != 0, runs, "{} in {edition:?}", rule.id);
            }
        }
        // Not every rule runs in every edition, so the table is not trivially full.
        assert!(RULE_EDITIONS.iter().any(|b| *b != 0b11));
    }

    #[test]
    fn rule_docs_are_the_catalogues() {
        for (rule, doc) in RULES.iter().zip(RULE_DOCS) {
            assert_eq!(
                doc.map(|d| d.id),
                crate::catalogue::get(rule.id).map(|d| d.id),
                "{}",
                rule.id
            );
        }
        assert!(RULE_DOCS.iter().all(Option::is_some));
    }

    #[test]
    fn permuting_moves_each_item_to_its_place() {
        let mut items = vec!['a', 'b', 'c', 'd', 'e', 'f'];
        permute(&mut items, vec![3, 0, 1, 2, 5, 4]);
        assert_eq!(items, ['d', 'a', 'b', 'c', 'f', 'e']);
        let mut same = vec![1, 2, 3];
        permute(&mut same, vec![0, 1, 2]);
        assert_eq!(same, [1, 2, 3]);
    }

    /// Findings handed out a few at a time (cross-document ones built as they go) are the
    /// report's findings, in its order, with its summary; an annotation still suppresses a
    /// cross-document finding.
    #[test]
    fn findings_in_batches_are_the_reports() {
        let fixture = include_str!("../../../tests/fixtures/ra2.app.029.yaml");
        let pod = |name: &str, extra: &str| {
            format!(
                "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  namespace: core\n{extra}spec:\n  hostNetwork: true\n  containers: [{{name: a, image: r/a:1}}]\n"
            )
        };
        let quiet = pod("quiet", "  annotations: {ignore-check.ra2.dev/ra2.app.029: tested}\n");
        let twice = pod("twice", "");
        let config = Config {
            edition: Edition::Latest,
            ..Config::default()
        };
        let run = || {
            let mut linter = Linter::new(&config);
            linter.add_file("b.yaml", fixture);
            linter.add_file("a.yaml", &format!("{twice}---\n{quiet}---\n{twice}"));
            linter.add_file("c.yaml", include_str!("../../../examples/broken/cnf.yaml"));
            linter
        };
        let report = run().finish();
        assert!(report.findings.iter().filter(|f| f.rule == "ra2.app.029").count() > 3);
        assert!(report.summary.suppressed > 0);
        for size in [1, 3, 1000] {
            let mut finished = run().finish_in_order();
            let mut findings = Vec::new();
            loop {
                let batch = finished.next_batch(size);
                if batch.is_empty() {
                    break;
                }
                assert!(batch.len() <= size);
                findings.extend(batch);
            }
            let rest = finished.into_report();
            assert!(rest.findings.is_empty());
            assert_eq!(findings, report.findings, "batches of {size}");
            assert_eq!(rest.summary, report.summary, "batches of {size}");
            assert_eq!(
                (rest.errors, rest.objects),
                (report.errors.clone(), report.objects.clone())
            );
        }
    }
}
