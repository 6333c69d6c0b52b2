//! A report held compactly ([`Store`]), for the formats that print only once the whole report
//! is known (JSON, SARIF, JUnit): a long stream's findings are kept in a few machine words
//! each instead of a dozen strings, and each [`Finding`] is rebuilt while it is written.
//!
//! Every string (rule, check, message, help, pointer, Helm template, object names) is stored
//! once, and a finding keeps numbers: string ids, the object's id, its position. The rare
//! finding that does not fit (a template location, related locations, a number over
//! `u32::MAX`) is also kept whole. Nothing is lost: [`Store::findings`] gives back exactly the
//! findings that went in, offsets included, and [`Store::finalize`] sorts and deduplicates
//! them as [`Report::finalize`] does. The writers of this crate (SARIF, JUnit) and
//! [`Store::write_json`] print from a store, so a [`Report`] and the store built from it print
//! the same bytes.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::Arc;

use ra2_core::lint::Settled;
use ra2_core::report::{ObjectSummary, Profile, SeverityCounts, Summary};
use ra2_core::{FailOn, Finding, LintError, ObjectRef, Report, Severity};
use serde::Serialize;

/// No string (an absent `Option`); no whole copy.
const NONE: u32 = u32::MAX;

/// Strings stored once each, numbered in the order they were first seen. (More than four
/// billion distinct strings would not fit in memory anyway.)
#[derive(Default)]
struct Strings {
    list: Vec<Arc<str>>,
    ids: HashMap<Arc<str>, u32>,
}

impl Strings {
    fn id(&mut self, text: &str) -> u32 {
        if let Some(&id) = self.ids.get(text) {
            return id;
        }
        let id = u32::try_from(self.list.len()).unwrap_or(NONE - 1);
        let text: Arc<str> = Arc::from(text);
        self.list.push(Arc::clone(&text));
        self.ids.insert(text, id);
        id
    }

    fn opt(&mut self, text: Option<&str>) -> u32 {
        text.map_or(NONE, |text| self.id(text))
    }

    fn get(&self, id: u32) -> &str {
        self.list.get(id as usize).map_or("", |s| s)
    }

    fn get_opt(&self, id: u32) -> Option<&str> {
        (id != NONE).then(|| self.get(id))
    }

    /// The shared string `id` names, if any (no copy of its text).
    fn get_arc(&self, id: u32) -> Option<Arc<str>> {
        (id != NONE).then(|| self.list.get(id as usize).cloned()).flatten()
    }

    /// Compares two strings by id: equal ids are equal strings.
    fn cmp(&self, a: u32, b: u32) -> Ordering {
        if a == b {
            Ordering::Equal
        } else {
            self.get(a).cmp(self.get(b))
        }
    }
}

/// A finding as numbers. `full` is the index of a whole copy, for the findings that do not
/// fit (see the module documentation); the string ids are set either way, for sorting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    rule: u32,
    check: u32,
    message: u32,
    help: u32,
    file: u32,
    pointer: u32,
    /// [`Finding::named_pointer`] (an optional string).
    named_pointer: u32,
    /// An object identity (`[apiVersion, kind, namespace, name]`).
    object: u32,
    source_template: u32,
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
    document: u32,
    offset: u32,
    len: u32,
    full: u32,
    severity: Severity,
    refused: bool,
}

/// An object summary as numbers (`full` as for [`Entry`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ObjectEntry {
    file: u32,
    document: u32,
    object: u32,
    line: u32,
    source_template: u32,
    hook: u32,
    /// [`ObjectSummary::rendered`] (an optional string).
    rendered: u32,
    full: u32,
    profile: Option<Profile>,
}

fn narrow(n: usize) -> Option<u32> {
    u32::try_from(n).ok().filter(|&n| n != NONE)
}

/// A report held compactly (see the module documentation).
#[derive(Default)]
pub struct Store {
    /// Every string but file names.
    strings: Strings,
    /// File names, apart so that they can be renamed ([`Store::rename_files`]).
    files: Strings,
    /// Object identities: string ids of apiVersion, kind, namespace and name.
    identities: Vec<[u32; 4]>,
    identity_ids: HashMap<[u32; 4], u32>,
    /// The last object identity looked up (findings come object by object).
    last_identity: Option<(ObjectRef, u32)>,
    findings: Vec<Entry>,
    full_findings: Vec<Finding>,
    errors: Vec<LintError>,
    objects: Vec<ObjectEntry>,
    full_objects: Vec<ObjectSummary>,
    /// The report's edition and summary ([`Store::finalize`] recounts findings, errors and
    /// objects).
    pub edition: String,
    pub summary: Summary,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("findings", &self.findings.len())
            .field("errors", &self.errors.len())
            .field("objects", &self.objects.len())
            .field("strings", &self.strings.list.len())
            .finish_non_exhaustive()
    }
}

impl Store {
    pub fn new() -> Self {
        Self::default()
    }

    /// A report's findings, errors and objects, in the report's order (not sorted again).
    pub fn from_report(report: &Report) -> Self {
        let mut store = Store {
            edition: report.edition.clone(),
            summary: report.summary.clone(),
            ..Store::default()
        };
        for finding in &report.findings {
            store.push_finding(finding.clone());
        }
        store.errors.clone_from(&report.errors);
        for object in &report.objects {
            store.push_object(object.clone());
        }
        store
    }

    /// Adds what [`ra2_core::Linter::take_settled`] handed out.
    pub fn take(&mut self, settled: Settled) {
        for finding in settled.findings {
            self.push_finding(finding);
        }
        self.errors.extend(settled.errors);
        for object in settled.objects {
            self.push_object(object);
        }
    }

    /// Adds the rest of a run (what [`ra2_core::Linter::finish`] returns once things were
    /// taken) and takes its edition and summary; then [`Store::finalize`] sorts it all.
    pub fn finish(&mut self, report: Report) {
        let Report {
            edition,
            findings,
            errors,
            objects,
            summary,
        } = report;
        for finding in findings {
            self.push_finding(finding);
        }
        self.errors.extend(errors);
        for object in objects {
            self.push_object(object);
        }
        self.edition = edition;
        self.summary = summary;
    }

    fn identity(&mut self, object: &ObjectRef) -> u32 {
        if let Some((last, id)) = &self.last_identity {
            if last == object {
                return *id;
            }
        }
        let key = [
            self.strings.opt(object.api_version.as_deref()),
            self.strings.opt(object.kind.as_deref()),
            self.strings.opt(object.namespace.as_deref()),
            self.strings.opt(object.name.as_deref()),
        ];
        let next = u32::try_from(self.identities.len()).unwrap_or(NONE - 1);
        let id = *self.identity_ids.entry(key).or_insert(next);
        if id == next {
            self.identities.push(key);
        }
        self.last_identity = Some((object.clone(), id));
        id
    }

    fn object_ref(&self, id: u32) -> ObjectRef {
        let [api_version, kind, namespace, name] = self.identities.get(id as usize).copied().unwrap_or([NONE; 4]);
        let get = |id| self.strings.get_opt(id).map(str::to_owned);
        ObjectRef {
            api_version: get(api_version),
            kind: get(kind),
            namespace: get(namespace),
            name: get(name),
        }
    }

    pub fn push_finding(&mut self, finding: Finding) {
        let numbers = [
            narrow(finding.line),
            narrow(finding.column),
            narrow(finding.end_line),
            narrow(finding.end_column),
            narrow(finding.document),
            narrow(finding.offset),
            narrow(finding.len),
        ];
        let fits = numbers.iter().all(Option::is_some)
            && finding.template.is_none()
            && finding.related.is_empty()
            && finding.fix.is_none();
        let [line, column, end_line, end_column, document, offset, len] = numbers.map(|n| n.unwrap_or(NONE));
        let mut entry = Entry {
            rule: self.strings.id(&finding.rule),
            check: self.strings.id(&finding.check),
            message: self.strings.id(&finding.message),
            help: self.strings.id(&finding.help),
            file: self.files.id(&finding.file),
            pointer: self.strings.id(&finding.pointer),
            named_pointer: self.strings.opt(finding.named_pointer.as_deref()),
            object: self.identity(&finding.object),
            source_template: self.strings.opt(finding.source_template.as_deref()),
            line,
            column,
            end_line,
            end_column,
            document,
            offset,
            len,
            full: NONE,
            severity: finding.severity,
            refused: finding.refused_by_api_server,
        };
        if !fits {
            entry.full = u32::try_from(self.full_findings.len()).unwrap_or(NONE - 1);
            self.full_findings.push(finding);
        }
        self.findings.push(entry);
    }

    pub fn push_error(&mut self, error: LintError) {
        self.errors.push(error);
    }

    pub fn push_object(&mut self, object: ObjectSummary) {
        let identity = self.identity(&ObjectRef {
            api_version: object.api_version.clone(),
            kind: object.kind.clone(),
            namespace: object.namespace.clone(),
            name: object.name.clone(),
        });
        let (document, line) = (narrow(object.document), narrow(object.line));
        let mut entry = ObjectEntry {
            file: self.files.id(&object.file),
            document: document.unwrap_or(NONE),
            object: identity,
            line: line.unwrap_or(NONE),
            source_template: self.strings.opt(object.source_template.as_deref()),
            hook: self.strings.opt(object.hook.as_deref()),
            rendered: self.strings.opt(object.rendered.as_deref()),
            full: NONE,
            profile: object.profile,
        };
        if document.is_none() || line.is_none() {
            entry.full = u32::try_from(self.full_objects.len()).unwrap_or(NONE - 1);
            self.full_objects.push(object);
        }
        self.objects.push(entry);
    }

    fn full_finding(&self, entry: &Entry) -> Option<&Finding> {
        (entry.full != NONE).then(|| self.full_findings.get(entry.full as usize))?
    }

    fn finding(&self, entry: &Entry) -> Finding {
        if let Some(full) = self.full_finding(entry) {
            return full.clone();
        }
        Finding {
            rule: self.strings.get(entry.rule).to_owned(),
            check: self.strings.get(entry.check).to_owned(),
            severity: entry.severity,
            message: self.strings.get(entry.message).to_owned(),
            help: self.strings.get(entry.help).to_owned(),
            file: self.files.get(entry.file).to_owned(),
            line: entry.line as usize,
            column: entry.column as usize,
            end_line: entry.end_line as usize,
            end_column: entry.end_column as usize,
            document: entry.document as usize,
            object: self.object_ref(entry.object),
            pointer: self.strings.get(entry.pointer).to_owned(),
            source_template: self.strings.get_opt(entry.source_template).map(str::to_owned),
            template: None,
            related: Vec::new(),
            refused_by_api_server: entry.refused,
            named_pointer: self.strings.get_opt(entry.named_pointer).map(str::to_owned),
            fix: None,
            offset: entry.offset as usize,
            len: entry.len as usize,
        }
    }

    fn object(&self, entry: &ObjectEntry) -> ObjectSummary {
        if entry.full != NONE {
            if let Some(full) = self.full_objects.get(entry.full as usize) {
                return full.clone();
            }
        }
        let ObjectRef {
            api_version,
            kind,
            namespace,
            name,
        } = self.object_ref(entry.object);
        ObjectSummary {
            file: self.files.get(entry.file).to_owned(),
            document: entry.document as usize,
            api_version,
            kind,
            name,
            namespace,
            profile: entry.profile,
            line: entry.line as usize,
            source_template: self.strings.get_opt(entry.source_template).map(str::to_owned),
            hook: self.strings.get_opt(entry.hook).map(str::to_owned),
            rendered: self.strings.get_arc(entry.rendered),
        }
    }

    /// The findings, rebuilt one at a time, in the store's order.
    pub fn findings(&self) -> impl ExactSizeIterator<Item = Finding> + '_ {
        self.findings.iter().map(|entry| self.finding(entry))
    }

    /// Finding number `i`, rebuilt.
    pub fn finding_at(&self, i: usize) -> Option<Finding> {
        self.findings.get(i).map(|entry| self.finding(entry))
    }

    /// The object summaries, rebuilt one at a time, in the store's order.
    pub fn objects(&self) -> impl ExactSizeIterator<Item = ObjectSummary> + '_ {
        self.objects.iter().map(|entry| self.object(entry))
    }

    /// The file of each finding, in the store's order.
    pub(crate) fn finding_files(&self) -> impl Iterator<Item = &str> + '_ {
        self.findings.iter().map(|entry| match self.full_finding(entry) {
            Some(full) => full.file.as_str(),
            None => self.files.get(entry.file),
        })
    }

    /// The file of each object, in the store's order.
    pub(crate) fn object_files(&self) -> impl Iterator<Item = &str> + '_ {
        self.objects.iter().map(|entry| {
            match (entry.full != NONE)
                .then(|| self.full_objects.get(entry.full as usize))
                .flatten()
            {
                Some(full) => full.file.as_str(),
                None => self.files.get(entry.file),
            }
        })
    }

    pub fn errors(&self) -> &[LintError] {
        &self.errors
    }

    pub fn finding_count(&self) -> usize {
        self.findings.len()
    }

    /// Whether a finding came from Helm output (it has a `source_template`).
    pub fn has_source_templates(&self) -> bool {
        self.findings.iter().any(|e| e.source_template != NONE)
    }

    /// The whole report, as [`Report`].
    pub fn into_report(self) -> Report {
        Report {
            findings: self.findings().collect(),
            objects: self.objects().collect(),
            errors: self.errors,
            edition: self.edition,
            summary: self.summary,
        }
    }

    /// A finding's position, for sorting: (line, column).
    fn position(&self, entry: &Entry) -> (usize, usize) {
        match self.full_finding(entry) {
            Some(full) => (full.line, full.column),
            None => (entry.line as usize, entry.column as usize),
        }
    }

    /// The order of [`Report::finalize`]: file, line, column, rule, check, message.
    fn finding_order(&self, a: &Entry, b: &Entry) -> Ordering {
        self.files
            .cmp(a.file, b.file)
            .then_with(|| self.position(a).cmp(&self.position(b)))
            .then_with(|| self.strings.cmp(a.rule, b.rule))
            .then_with(|| self.strings.cmp(a.check, b.check))
            .then_with(|| self.strings.cmp(a.message, b.message))
    }

    /// Whether two findings are equal (as [`Finding`]s are).
    fn same_finding(&self, a: &Entry, b: &Entry) -> bool {
        match (self.full_finding(a), self.full_finding(b)) {
            (None, None) => a == b,
            (Some(a), Some(b)) => a == b,
            _ => false,
        }
    }

    fn object_position(&self, entry: &ObjectEntry) -> (usize, usize) {
        match (entry.full != NONE)
            .then(|| self.full_objects.get(entry.full as usize))
            .flatten()
        {
            Some(full) => (full.document, full.line),
            None => (entry.document as usize, entry.line as usize),
        }
    }

    /// Sorts and recounts as [`Report::finalize`] does: findings by file, line, column, rule,
    /// check and message, consecutive equal findings once; errors by file, line and column;
    /// objects by file, document and line; the summary's finding, error and object counts.
    pub fn finalize(&mut self) {
        let mut findings = std::mem::take(&mut self.findings);
        sort_stable(&mut findings, |a, b| self.finding_order(a, b));
        findings.dedup_by(|a, b| self.same_finding(a, b));
        self.findings = findings;
        self.errors
            .sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
        let mut objects = std::mem::take(&mut self.objects);
        sort_stable(&mut objects, |a, b| {
            self.files
                .cmp(a.file, b.file)
                .then_with(|| self.object_position(a).cmp(&self.object_position(b)))
        });
        self.objects = objects;
        let mut counts = SeverityCounts::default();
        for entry in &self.findings {
            counts.add(entry.severity);
        }
        self.summary.findings = counts;
        self.summary.errors = self.errors.len();
        self.summary.objects = self.objects.len();
    }

    /// The verdict at a `fail-on` threshold, as [`crate::verdict`] gives it for the report.
    pub fn verdict(&self, fail_on: FailOn) -> crate::Verdict {
        let failing = fail_on.threshold().map_or(0, |threshold| {
            self.findings.iter().filter(|f| f.severity >= threshold).count()
        });
        crate::verdict::from_counts(!self.errors.is_empty(), failing)
    }

    /// Renames files (`rename` gives the new name, or `None` to keep it), everywhere a file
    /// is named: findings, their template locations, errors and objects. The order is kept.
    pub fn rename_files(&mut self, rename: impl Fn(&str) -> Option<String>) {
        let mut renamed = Strings::default();
        for name in &mut self.files.list {
            if let Some(new) = rename(name) {
                *name = Arc::from(new);
            }
            // Two names may now be one: the first id is the one looked up.
            let id = u32::try_from(renamed.list.len()).unwrap_or(NONE - 1);
            renamed.list.push(Arc::clone(name));
            renamed.ids.entry(Arc::clone(name)).or_insert(id);
        }
        self.files = renamed;
        ra2_core::report::rename_files(
            &mut self.full_findings,
            &mut self.errors,
            &mut self.full_objects,
            rename,
        );
    }

    /// Where each finding's primary location is (a finding mapped to its Helm template is on
    /// the template's line): its file and 1-based line (at least 1), in the store's order.
    pub fn primary_lines(&self) -> impl Iterator<Item = (&str, usize)> + '_ {
        self.findings.iter().map(|entry| {
            let full = self.full_finding(entry);
            match full.and_then(|f| f.template.as_ref()) {
                Some(template) => (template.file.as_str(), template.line.max(1)),
                None => match full {
                    Some(full) => (full.file.as_str(), full.line.max(1)),
                    None => (self.files.get(entry.file), (entry.line as usize).max(1)),
                },
            }
        })
    }

    /// For each finding whose identity (rule, check, file, object kind, namespace and name,
    /// pointer: what [`crate::sarif::fingerprint`] hashes) an earlier finding already has:
    /// its index and how many came before it. Sorted by index.
    pub(crate) fn repeats(&self) -> Vec<(usize, usize)> {
        // File ids by name: two ids may name one file after renaming.
        let mut canonical_files: HashMap<&str, u32> = HashMap::new();
        let files: Vec<u32> = self
            .files
            .list
            .iter()
            .enumerate()
            .map(|(i, name)| *canonical_files.entry(name).or_insert(i as u32))
            .collect();
        let file_of = |entry: &Entry| files.get(entry.file as usize).copied().unwrap_or(entry.file);
        let identity = |entry: &Entry| {
            let [_, kind, namespace, name] = self.identities.get(entry.object as usize).copied().unwrap_or([NONE; 4]);
            // An absent part hashes as an empty one.
            [kind, namespace, name].map(|id| self.strings.get_opt(id).unwrap_or(""))
        };
        let key = |entry: &Entry| (entry.rule, entry.check, file_of(entry), entry.pointer);
        let mut order: Vec<usize> = (0..self.findings.len()).collect();
        let at = |i: usize| self.findings.get(i);
        order.sort_by(|&a, &b| match (at(a), at(b)) {
            (Some(a), Some(b)) => key(a).cmp(&key(b)).then_with(|| identity(a).cmp(&identity(b))),
            _ => Ordering::Equal,
        });
        let mut repeats = Vec::new();
        let mut count = 0;
        for pair in order.windows(2) {
            let (Some(a), Some(b)) = (pair.first().and_then(|&i| at(i)), pair.get(1).and_then(|&i| at(i))) else {
                continue;
            };
            if key(a) == key(b) && identity(a) == identity(b) {
                count += 1;
                if let Some(&i) = pair.get(1) {
                    repeats.push((i, count));
                }
            } else {
                count = 0;
            }
        }
        repeats.sort_unstable();
        repeats
    }

    /// Writes the JSON output contract, pretty-printed: the bytes [`Report::write_json`]
    /// writes for the same report.
    pub fn write_json(&self, writer: impl std::io::Write) -> serde_json::Result<()> {
        ra2_core::report::write_json_parts(
            writer,
            &self.edition,
            &Sequence(|| self.findings()),
            &self.errors,
            &Sequence(|| self.objects()),
            &self.summary,
        )
    }
}

/// A sequence serialized from an iterator made on demand.
pub(crate) struct Sequence<F>(pub F);

impl<F, I> Serialize for Sequence<F>
where
    F: Fn() -> I,
    I: IntoIterator,
    I::Item: Serialize,
{
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((self.0)())
    }
}

/// A stable sort that needs memory for an index per item, not for half the items: most
/// inputs arrive sorted (settled batches in input order), and are left as they are.
fn sort_stable<T: Copy>(items: &mut [T], compare: impl Fn(&T, &T) -> Ordering) {
    if items.is_sorted_by(|a, b| compare(a, b) != Ordering::Greater) {
        return;
    }
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by(|&a, &b| match (items.get(a), items.get(b)) {
        (Some(a), Some(b)) => compare(a, b),
        _ => Ordering::Equal,
    });
    // Position `i` takes item `order[i]`: follow each cycle of the permutation.
    for start in 0..order.len() {
        if order.get(start) == Some(&start) {
            continue;
        }
        let Some(&first) = items.get(start) else { continue };
        let mut at = start;
        while let Some(next) = order.get_mut(at).map(|next| std::mem::replace(next, at)) {
            if next == start {
                if let Some(slot) = items.get_mut(at) {
                    *slot = first;
                }
                break;
            }
            if let Some(&item) = items.get(next) {
                if let Some(slot) = items.get_mut(at) {
                    *slot = item;
                }
            }
            at = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorting_by_index_is_stable() {
        let mut items: Vec<(u8, usize)> = [3u8, 1, 2, 1, 3, 0, 2, 1].iter().copied().zip(0..).collect();
        let mut expected = items.clone();
        expected.sort_by_key(|&(k, _)| k);
        sort_stable(&mut items, |a, b| a.0.cmp(&b.0));
        assert_eq!(items, expected);
        let mut sorted = expected.clone();
        sort_stable(&mut sorted, |a, b| a.0.cmp(&b.0));
        assert_eq!(sorted, expected);
    }

    /// A store gives back the report it was built from (the findings that do not fit the
    /// compact form too), writes the same JSON, and sorts as [`Report::finalize`] does.
    #[test]
    fn a_store_gives_back_its_report_and_sorts_as_finalize_does() {
        let config = ra2_core::Config::default();
        let text = include_str!("../../examples/broken/cnf.yaml");
        let mut report = ra2_core::lint_str("cnf.yaml", text, &config);
        assert!(report.findings.len() > 10 && report.objects.len() > 2);
        // Findings that the compact form cannot hold: a template location, a line past u32.
        let mut mapped = report.findings[1].clone();
        mapped.template = Some(ra2_core::TemplateLocation {
            file: "chart/templates/upf.yaml".to_owned(),
            line: 3,
            column: 5,
            mapped: "key".to_owned(),
        });
        report.findings.push(mapped);
        let mut far = report.findings[2].clone();
        far.line = usize::MAX;
        report.findings.push(far);

        let store = Store::from_report(&report);
        assert_eq!(store.findings().collect::<Vec<_>>(), report.findings);
        assert_eq!(store.objects().collect::<Vec<_>>(), report.objects);
        let (mut from_store, mut from_report) = (Vec::new(), Vec::new());
        store.write_json(&mut from_store).expect("JSON");
        report.write_json(&mut from_report).expect("JSON");
        assert!(from_store == from_report, "the JSON differs");
        assert_eq!(store.into_report(), report);

        // Out of order, with a finding twice: the same order, once, and the same counts.
        let mut shuffled = report.clone();
        shuffled.findings.reverse();
        let twice = shuffled.findings[3].clone();
        shuffled.findings.push(twice);
        shuffled.objects.reverse();
        let mut store = Store::from_report(&shuffled);
        store.finalize();
        shuffled.finalize();
        assert_eq!(store.finding_count(), report.findings.len());
        assert_eq!(store.into_report(), shuffled);
    }
}
