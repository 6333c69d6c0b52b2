//! The RA2 requirement matrix of a run, for the reports people read (`--format markdown` and
//! `--format html`): every requirement of the edition with a status, overall and per object.
//!
//! - **violated**: the rule has findings in the input (counted by severity);
//! - **met**: the rule ran, applies to the input and found nothing;
//! - **not applicable to this input**: the input holds none of what the rule judges. What a rule
//!   judges is read from its own catalogue examples, not kept beside them: the rule applies when
//!   the input holds the kinds of one of its failing examples (any object with a pod spec
//!   counting as one kind), so a workload rule applies to any workload and a platform rule only
//!   to an input with Nodes and the DaemonSets it reads;
//! - **not checked**: the configuration switched the rule off (`--select`, `--ignore`);
//! - **not checkable** / **not required**: the chapter-4 requirements ra2 does not check
//!   statically (`ra2 rules --all`), with the reason.

use std::collections::{BTreeMap, BTreeSet};

use ra2_core::catalogue::{self, Coverage};
use ra2_core::{Config, Edition, Report, Severity};

/// A requirement's status in a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    Violated,
    Met,
    NotApplicable,
    NotChecked,
    NotCheckable,
    NotRequired,
}

impl Status {
    /// The status as a report says it.
    pub fn label(self) -> &'static str {
        match self {
            Status::Violated => "violated",
            Status::Met => "met",
            Status::NotApplicable => "not applicable to this input",
            Status::NotChecked => "not checked (switched off)",
            Status::NotCheckable => "not checkable from manifests",
            Status::NotRequired => "not required",
        }
    }

    /// A symbol beside the label (never the only signal).
    pub fn symbol(self) -> &'static str {
        match self {
            Status::Violated => "✗",
            Status::Met => "✓",
            Status::NotApplicable | Status::NotRequired => "–",
            Status::NotChecked => "○",
            Status::NotCheckable => "?",
        }
    }

    /// A stable name for styles and machines.
    pub fn slug(self) -> &'static str {
        match self {
            Status::Violated => "violated",
            Status::Met => "met",
            Status::NotApplicable => "not-applicable",
            Status::NotChecked => "not-checked",
            Status::NotCheckable => "not-checkable",
            Status::NotRequired => "not-required",
        }
    }

    pub const ALL: [Status; 6] = [
        Status::Violated,
        Status::Met,
        Status::NotApplicable,
        Status::NotChecked,
        Status::NotCheckable,
        Status::NotRequired,
    ];
}

/// Findings counted by severity: error, warning, info.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub error: usize,
    pub warning: usize,
    pub info: usize,
}

impl Counts {
    fn add(&mut self, severity: Severity) {
        match severity {
            Severity::Error => self.error += 1,
            Severity::Warning => self.warning += 1,
            Severity::Info => self.info += 1,
        }
    }

    pub fn total(self) -> usize {
        self.error + self.warning + self.info
    }

    /// `2 errors, 1 warning`; empty when there are none.
    pub fn describe(self) -> String {
        let mut parts = Vec::new();
        for (n, one, many) in [
            (self.error, "error", "errors"),
            (self.warning, "warning", "warnings"),
            (self.info, "info", "infos"),
        ] {
            if n > 0 {
                parts.push(format!("{n} {}", if n == 1 { one } else { many }));
            }
        }
        parts.join(", ")
    }
}

/// `1 object`, `3 objects`.
pub fn objects_phrase(n: usize) -> String {
    if n == 1 {
        "1 object".to_owned()
    } else {
        format!("{n} objects")
    }
}

/// One requirement (or, for the unchecked ones, a row of RA2's table that may name several).
#[derive(Clone, Debug)]
pub struct Row {
    /// The requirement ids (a rule's id, or the ids of an unchecked row).
    pub ids: Vec<&'static str>,
    pub title: &'static str,
    pub status: Status,
    pub counts: Counts,
    /// Objects with findings of the rule.
    pub objects: usize,
    /// Why a requirement is not checkable or not required.
    pub reason: Option<&'static str>,
    /// Whether the row is a catalogue rule (its findings are grouped under it).
    pub rule: bool,
}

impl Row {
    /// `2 errors, 1 warning in 3 objects` when the requirement is violated.
    pub fn counted(&self) -> Option<String> {
        (self.counts.total() > 0).then(|| format!("{} in {}", self.counts.describe(), objects_phrase(self.objects)))
    }
}

/// One object's violations: the object's index in `report.objects`, and the rules it violates
/// with their counts, in rule order.
#[derive(Clone, Debug)]
pub struct ObjectRow {
    pub object: usize,
    pub violated: Vec<(String, Counts)>,
}

/// The matrix of a run.
#[derive(Clone, Debug)]
pub struct Matrix {
    pub edition: Edition,
    pub rows: Vec<Row>,
    /// Objects with findings, in the report's order.
    pub objects: Vec<ObjectRow>,
}

impl Matrix {
    /// How many rows have each status.
    pub fn tally(&self) -> BTreeMap<Status, usize> {
        let mut tally = BTreeMap::new();
        for row in &self.rows {
            *tally.entry(row.status).or_insert(0) += 1;
        }
        tally
    }
}

/// What an object is for applicability: `pod spec` for any object with one, else its kind.
fn class(kind: Option<&str>, has_pod_spec: bool) -> String {
    if has_pod_spec {
        "pod spec".to_owned()
    } else {
        kind.unwrap_or_default().to_owned()
    }
}

/// The classes of a report's objects.
fn classes(report: &Report) -> BTreeSet<String> {
    report
        .objects
        .iter()
        .map(|o| class(o.kind.as_deref(), o.profile.is_some()))
        .collect()
}

/// Whether a rule applies to an input holding `held`: the classes of one of its failing
/// examples are all there. A rule without examples (a build without them) always applies.
fn applies(doc: &catalogue::RuleDoc, edition: Edition, held: &BTreeSet<String>) -> bool {
    if doc.examples.failing.is_empty() {
        return true;
    }
    let config = Config {
        edition,
        ..Config::default()
    };
    doc.examples.failing.iter().any(|example| {
        let report = ra2_core::lint_str("example.yaml", example.manifest, &config);
        let needs = classes(&report);
        !needs.is_empty() && needs.is_subset(held)
    })
}

/// The requirement matrix of `report`, linted with `config`.
pub fn matrix(report: &Report, config: &Config) -> Matrix {
    let edition = Edition::parse(&report.edition).unwrap_or(config.edition);
    let mut counts: BTreeMap<&str, Counts> = BTreeMap::new();
    let mut objects_of: BTreeMap<&str, BTreeSet<(&str, usize)>> = BTreeMap::new();
    for finding in &report.findings {
        counts.entry(&finding.rule).or_default().add(finding.severity);
        objects_of
            .entry(&finding.rule)
            .or_default()
            .insert((&finding.file, finding.document));
    }
    let held = classes(report);
    let mut rows = Vec::new();
    for doc in catalogue::all().iter().filter(|d| d.in_edition(edition)) {
        let found = counts.get(doc.id).copied().unwrap_or_default();
        let status = if found.total() > 0 {
            Status::Violated
        } else if !config.rule_enabled(doc.id) {
            Status::NotChecked
        } else if applies(doc, edition, &held) {
            Status::Met
        } else {
            Status::NotApplicable
        };
        rows.push(Row {
            ids: vec![doc.id],
            title: doc.title,
            status,
            counts: found,
            objects: objects_of.get(doc.id).map_or(0, BTreeSet::len),
            reason: None,
            rule: true,
        });
    }
    for unchecked in catalogue::unchecked().iter().filter(|u| u.in_edition(edition)) {
        rows.push(Row {
            ids: unchecked.ids.to_vec(),
            title: unchecked.title,
            status: match unchecked.status {
                Coverage::NotCheckable => Status::NotCheckable,
                Coverage::NotApplicable => Status::NotRequired,
            },
            counts: Counts::default(),
            objects: 0,
            reason: Some(unchecked.reason),
            rule: false,
        });
    }
    rows.sort_by_key(|row| id_key(row.ids.first().copied()));
    // Per object: the rules each violates.
    let index: BTreeMap<(&str, usize), usize> = report
        .objects
        .iter()
        .enumerate()
        .map(|(i, o)| ((o.file.as_str(), o.document), i))
        .collect();
    let mut per_object: BTreeMap<usize, BTreeMap<&str, Counts>> = BTreeMap::new();
    for finding in &report.findings {
        if let Some(&i) = index.get(&(finding.file.as_str(), finding.document)) {
            per_object
                .entry(i)
                .or_default()
                .entry(&finding.rule)
                .or_default()
                .add(finding.severity);
        }
    }
    let objects = per_object
        .into_iter()
        .map(|(object, rules)| ObjectRow {
            object,
            violated: rules.into_iter().map(|(r, c)| (r.to_owned(), c)).collect(),
        })
        .collect();
    Matrix { edition, rows, objects }
}

/// Requirement ids in RA2's order: `ra2.ch.001` … by chapter section, numbers as numbers;
/// other ids (`k8s.api`, `sec.sys.021`) after them.
fn id_key(id: Option<&str>) -> (u8, String, u32, String) {
    let id = id.unwrap_or_default();
    let parts: Vec<&str> = id.split('.').collect();
    match parts.as_slice() {
        ["ra2", section, number] => (
            0,
            (*section).to_owned(),
            number.parse().unwrap_or(u32::MAX),
            id.to_owned(),
        ),
        _ => (1, String::new(), 0, id.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lint(text: &str, config: &Config) -> Report {
        ra2_core::lint_str("m.yaml", text, config)
    }

    #[test]
    fn workload_rules_apply_to_workloads_and_platform_rules_to_clusters() {
        let config = Config::default();
        let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: core}\nspec:\n  hostNetwork: true\n  containers: [{name: c, image: r/c:1.0}]\n";
        let report = lint(pod, &config);
        let m = matrix(&report, &config);
        let status = |id: &str| m.rows.iter().find(|r| r.ids.contains(&id)).map(|r| r.status);
        assert_eq!(status("ra2.app.004"), Some(Status::Violated), "host network");
        assert_eq!(status("ra2.app.007"), Some(Status::Met), "no host path");
        assert_eq!(
            status("ra2.ntw.015"),
            Some(Status::NotApplicable),
            "no NetworkAttachmentDefinition"
        );
        assert_eq!(status("ra2.ch.005"), Some(Status::NotCheckable));
        let row = m.rows.iter().find(|r| r.ids.contains(&"ra2.app.004")).expect("row");
        assert_eq!((row.objects, row.counts.total() > 0), (1, true));
        assert_eq!(m.objects.len(), 1);
        assert_eq!(m.objects[0].object, 0);
        // Every rule of the edition and every unchecked row, once, in RA2 order.
        let ids: Vec<&str> = m.rows.iter().flat_map(|r| r.ids.iter().copied()).collect();
        let unique: BTreeSet<&str> = ids.iter().copied().collect();
        assert_eq!(ids.len(), unique.len());
        assert!(ids.iter().position(|i| *i == "ra2.ch.001") < ids.iter().position(|i| *i == "ra2.ch.011"));
    }

    #[test]
    fn rules_switched_off_are_not_checked() {
        let config = Config::from_yaml("ignore: [ra2.app.007]\n", ".ra2.yaml").expect("config");
        let report = lint(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: r/c:1.0}]\n",
            &config,
        );
        let m = matrix(&report, &config);
        let row = m.rows.iter().find(|r| r.ids.contains(&"ra2.app.007")).expect("row");
        assert_eq!(row.status, Status::NotChecked);
    }
}
