//! The rule catalogue: `rules/<id>.yaml`, compiled into Rust statics at build time (`build.rs`,
//! [`crate::data`]). It gives every rule its title, severities per edition, docs and examples.

use serde::{Deserialize, Serialize};

use crate::data::Json;
use crate::report::Severity;

/// A rule set. `base` matches the RA2 text ra2 is built on; `latest` the newest RA2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Edition {
    #[default]
    Base,
    Latest,
}

impl Edition {
    pub fn as_str(self) -> &'static str {
        match self {
            Edition::Base => "base",
            Edition::Latest => "latest",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "base" => Some(Edition::Base),
            "latest" => Some(Edition::Latest),
            _ => None,
        }
    }

    pub const ALL: [Edition; 2] = [Edition::Base, Edition::Latest];
}

/// A severity, possibly different per edition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum EditionSeverity {
    Same(Severity),
    /// In edition order.
    PerEdition(#[serde(serialize_with = "crate::data::pairs")] &'static [(Edition, Severity)]),
}

impl Ord for Edition {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (*self as u8).cmp(&(*other as u8))
    }
}

impl PartialOrd for Edition {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl EditionSeverity {
    pub fn get(&self, edition: Edition) -> Option<Severity> {
        match self {
            EditionSeverity::Same(s) => Some(*s),
            EditionSeverity::PerEdition(map) => map.iter().find(|(e, _)| *e == edition).map(|(_, s)| *s),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CheckDoc {
    pub slug: &'static str,
    pub title: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub severity: Option<EditionSeverity>,
    /// The editions that report this check, when fewer than the rule's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub editions: Option<&'static [Edition]>,
    pub description: &'static str,
    /// The check's mechanical remedy, when it has one: what `ra2 lint --fix` does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<FixDoc>,
}

/// What a check's fix does and why it is safe or unsafe (ruff's "fix safety").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FixDoc {
    pub applicability: crate::report::fix::Applicability,
    /// What the fix does, imperative (the title every fix of the check carries).
    pub title: &'static str,
    /// Why it is safe (the object stays valid and means the same except for what RA2
    /// forbids) or unsafe (it may change how the workload runs).
    pub reason: &'static str,
}

impl CheckDoc {
    /// Does a run in `edition` report this check (given that it runs the rule)?
    pub fn in_edition(&self, edition: Edition) -> bool {
        self.editions.is_none_or(|e| e.contains(&edition))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ParamDoc {
    pub name: &'static str,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub default: Json,
    pub description: &'static str,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Example {
    pub title: &'static str,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub expect: &'static [&'static str],
    /// Rule parameters to lint this example with, by name.
    #[serde(skip_serializing_if = "<[_]>::is_empty", serialize_with = "crate::data::pairs")]
    pub params: &'static [(&'static str, Json)],
    /// The target Kubernetes version (`"1.34"`) to lint this example for, when not the default.
    #[serde(rename = "kubernetes-version", skip_serializing_if = "Option::is_none")]
    pub kubernetes_version: Option<&'static str>,
    pub manifest: &'static str,
}

/// A rule's examples; empty in a build without the `examples` feature (the admission policy).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Examples {
    pub failing: &'static [Example],
    pub passing: &'static [Example],
}

/// One catalogue file.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RuleDoc {
    pub id: &'static str,
    pub title: &'static str,
    pub requirement: &'static str,
    pub spec: &'static str,
    pub editions: &'static [Edition],
    pub severity: EditionSeverity,
    pub rationale: &'static str,
    pub remediation: &'static str,
    pub checks: &'static [CheckDoc],
    pub params: &'static [ParamDoc],
    /// For the rules that are security controls: a CVSS-like score from 0.1 to 10.0, which
    /// GitHub code scanning reads (`properties.security-severity`) to file the rule's findings
    /// as security alerts (rules/README.md says how the scores were chosen).
    #[serde(rename = "security-severity", skip_serializing_if = "Option::is_none")]
    pub security_severity: Option<&'static str>,
    pub examples: Examples,
}

impl RuleDoc {
    pub fn check(&self, slug: &str) -> Option<&'static CheckDoc> {
        self.checks.iter().find(|c| c.slug == slug)
    }

    /// The severity of a check in an edition (the check's own, else the rule's).
    pub fn severity_of(&self, slug: &str, edition: Edition) -> Severity {
        self.check(slug)
            .and_then(|c| c.severity.as_ref())
            .and_then(|s| s.get(edition))
            .or_else(|| self.severity.get(edition))
            .unwrap_or(Severity::Warning)
    }

    pub fn in_edition(&self, edition: Edition) -> bool {
        self.editions.contains(&edition)
    }

    /// Does a run in `edition` report `slug` of this rule? An undeclared check follows the rule.
    pub fn check_in_edition(&self, slug: &str, edition: Edition) -> bool {
        self.in_edition(edition) && self.check(slug).is_none_or(|c| c.in_edition(edition))
    }

    /// The checks a run in `edition` reports.
    pub fn checks_in(&self, edition: Edition) -> impl Iterator<Item = &'static CheckDoc> + use<> {
        let checks = self.checks;
        checks.iter().filter(move |c| c.in_edition(edition))
    }

    pub fn param(&self, name: &str) -> Option<&'static ParamDoc> {
        self.params.iter().find(|p| p.name == name)
    }
}

// `CATALOGUE: &[RuleDoc]`, sorted by id: every rules/*.yaml, compiled by build.rs.
include!(concat!(env!("OUT_DIR"), "/catalogue.rs"));

/// Every rule's documentation, sorted by id.
pub fn all() -> &'static [RuleDoc] {
    CATALOGUE
}

pub fn get(id: &str) -> Option<&'static RuleDoc> {
    CATALOGUE
        .binary_search_by(|doc| doc.id.cmp(id))
        .ok()
        .and_then(|i| CATALOGUE.get(i))
}

/// [`get`] at compile time (a scan: for tables built once into the binary).
pub(crate) const fn find(id: &str) -> Option<&'static RuleDoc> {
    let mut rest: &'static [RuleDoc] = CATALOGUE;
    while let [doc, tail @ ..] = rest {
        if same_str(doc.id, id) {
            return Some(doc);
        }
        rest = tail;
    }
    None
}

const fn same_str(a: &str, b: &str) -> bool {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    loop {
        match (a, b) {
            ([x, a_rest @ ..], [y, b_rest @ ..]) => {
                if *x != *y {
                    return false;
                }
                a = a_rest;
                b = b_rest;
            }
            ([], []) => return true,
            _ => return false,
        }
    }
}

/// The editions that run the rule `id`, one bit per edition (`1 << edition as u8`), worked out
/// at compile time; a rule without a catalogue entry runs in every edition.
pub(crate) const fn edition_bits(id: &str) -> u8 {
    let Some(doc) = find(id) else {
        return (1 << Edition::Base as u8) | (1 << Edition::Latest as u8);
    };
    let mut bits = 0;
    let mut rest = doc.editions;
    while let [edition, tail @ ..] = rest {
        bits |= 1 << *edition as u8;
        rest = tail;
    }
    bits
}

/// Why ra2 does not check a chapter-4 requirement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Coverage {
    /// No manifest, configuration file or command line states it (or ra2 does not judge it yet:
    /// the reason says so).
    NotCheckable,
    /// A "may", or met by every Kubernetes cluster.
    NotApplicable,
}

/// A chapter-4 requirement that ra2 does not check statically (`data/unchecked.yaml`, the
/// "no" and "n/a" rows of the coverage table in rules/README.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Unchecked {
    pub ids: &'static [&'static str],
    /// The RA2 table's names of the requirements.
    pub title: &'static str,
    pub status: Coverage,
    pub reason: &'static str,
    /// The editions whose chapter 4 has the requirements; `None`: both.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub editions: Option<&'static [Edition]>,
}

impl Unchecked {
    /// Whether the edition's chapter 4 has these requirements.
    pub fn in_edition(&self, edition: Edition) -> bool {
        self.editions.is_none_or(|e| e.contains(&edition))
    }
}

include!(concat!(env!("OUT_DIR"), "/unchecked.rs"));

/// The chapter-4 requirements ra2 does not check statically, in RA2 order.
pub fn unchecked() -> &'static [Unchecked] {
    UNCHECKED
}

/// A finding ra2 reports that is not a catalogue rule: the YAML reader's, the suppression
/// annotations', the config exemptions' and strict mode's. Selectable, ignorable and
/// suppressible like a rule; listed in SARIF's rules; documented in the README.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PseudoRule {
    pub id: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub severity: Severity,
    /// The README section that documents it (the anchor, without `#`).
    pub readme_section: &'static str,
}

/// YAML the API server reads differently from how it looks (duplicate keys).
pub const YAML_RULE: &str = "yaml";
/// `ignore-check.ra2.dev/...` annotations naming unknown rules or giving no reason.
pub const SUPPRESSION_RULE: &str = "suppression";
/// `.ra2.yaml` exemptions that matched nothing.
pub const EXEMPTION_RULE: &str = "exemption";
/// Strict mode's findings (reported by `ra2-strict` through [`crate::lint::hook`]).
pub const SCHEMA_RULE: &str = "schema";

/// Every pseudo-rule, in the order SARIF lists them after the catalogue.
pub const PSEUDO_RULES: &[PseudoRule] = &[
    PseudoRule {
        id: YAML_RULE,
        title: "YAML the API server reads differently from how it looks",
        description: "Duplicate keys and similar YAML problems: the API server keeps only one of the values, silently.",
        severity: Severity::Error,
        readme_section: "using-ra2-lint",
    },
    PseudoRule {
        id: SUPPRESSION_RULE,
        title: "Suppression annotations name known rules, give a reason and have not expired",
        description: "An ignore-check.ra2.dev annotation names a rule or check that does not exist, gives no reason, has expired (its value ends with `expires YYYY-MM-DD`, a day before today), or has an expiry that is not a date.",
        severity: Severity::Warning,
        readme_section: "suppressing-findings",
    },
    PseudoRule {
        id: EXEMPTION_RULE,
        title: "Config exemptions still match something and have not expired",
        description: "An exemption in .ra2.yaml matched no finding in this run (it may be stale), or its expires date has passed, so it no longer suppresses.",
        severity: Severity::Info,
        readme_section: "exemptions-without-editing-manifests",
    },
    PseudoRule {
        id: SCHEMA_RULE,
        title: "Objects match the Kubernetes OpenAPI schema (strict mode)",
        description: "A missing required field, or another violation of the kind's full schema: the API server rejects the object. (Unknown fields and values of the wrong type are k8s.api findings of every run.)",
        severity: Severity::Error,
        readme_section: "strict-mode",
    },
];

/// The pseudo-rule with this id.
pub fn pseudo_rule(id: &str) -> Option<&'static PseudoRule> {
    PSEUDO_RULES.iter().find(|r| r.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::without_defaults;

    /// The compiled catalogue is `rules/*.yaml` as ra2 reads them: every file, every field.
    #[test]
    fn compiled_catalogue_equals_the_rule_files() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules");
        let mut ids = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "yaml") {
                continue;
            }
            let mut source = crate::yaml_to_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
            if !cfg!(feature = "examples") {
                source["examples"] = serde_json::json!({"failing": [], "passing": []});
            }
            let id = source["id"].as_str().unwrap().to_owned();
            let doc = get(&id).unwrap_or_else(|| panic!("{} is not compiled in", path.display()));
            let compiled = serde_json::to_value(doc).unwrap();
            assert_eq!(
                without_defaults(compiled),
                without_defaults(source),
                "{}",
                path.display()
            );
            ids.push(id);
        }
        ids.sort();
        let compiled: Vec<&str> = all().iter().map(|d| d.id).collect();
        assert_eq!(compiled, ids);
    }

    #[test]
    fn lookups() {
        assert!(all().windows(2).all(|w| w[0].id < w[1].id));
        for doc in all() {
            assert_eq!(get(doc.id).map(|d| d.id), Some(doc.id));
        }
        assert!(get("ra2.app.000").is_none());
        assert!(get("").is_none());
        let doc = get("ra2.app.006").unwrap();
        assert_eq!(doc.param("ni_resource_patterns").map(|p| p.kind), Some("string-list"));
        assert!(doc.check("annotation-invalid").is_some());
    }
}
