//! The rule catalogue: `rules/<id>.yaml`, embedded at build time and read with ra2's own YAML
//! reader. It gives every rule its title, severities per edition, docs and examples.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum EditionSeverity {
    Same(Severity),
    PerEdition(BTreeMap<Edition, Severity>),
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
            EditionSeverity::PerEdition(map) => map.get(&edition).copied(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckDoc {
    pub slug: String,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub severity: Option<EditionSeverity>,
    pub description: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamDoc {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub default: serde_json::Value,
    pub description: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Example {
    pub title: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expect: Vec<String>,
    /// Rule parameters to lint this example with.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, serde_json::Value>,
    /// The target Kubernetes version (`"1.34"`) to lint this example for, when not the default.
    #[serde(default, rename = "kubernetes-version", skip_serializing_if = "Option::is_none")]
    pub kubernetes_version: Option<String>,
    pub manifest: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Examples {
    pub failing: Vec<Example>,
    pub passing: Vec<Example>,
}

/// One catalogue file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleDoc {
    pub id: String,
    pub title: String,
    pub requirement: String,
    pub spec: String,
    pub editions: Vec<Edition>,
    pub severity: EditionSeverity,
    pub rationale: String,
    pub remediation: String,
    pub checks: Vec<CheckDoc>,
    #[serde(default)]
    pub params: Vec<ParamDoc>,
    pub examples: Examples,
}

impl RuleDoc {
    pub fn check(&self, slug: &str) -> Option<&CheckDoc> {
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

    pub fn param(&self, name: &str) -> Option<&ParamDoc> {
        self.params.iter().find(|p| p.name == name)
    }
}

// `CATALOGUE_FILES: &[(&str, &str)]`: (file name, contents) of every rules/*.yaml.
include!(concat!(env!("OUT_DIR"), "/catalogue_files.rs"));

/// The embedded catalogue files, as (file name, YAML text).
pub fn sources() -> &'static [(&'static str, &'static str)] {
    CATALOGUE_FILES
}

/// Reads one catalogue file.
pub fn parse_rule_doc(text: &str) -> Result<RuleDoc, String> {
    let value = crate::yaml_to_json(text).map_err(|e| e.to_string())?;
    serde_json::from_value(value).map_err(|e| e.to_string())
}

/// Every rule's documentation, by id. Built once; a catalogue file that fails to parse is a
/// build defect caught by the catalogue tests, and is left out here rather than panicking.
pub fn all() -> &'static BTreeMap<String, RuleDoc> {
    static DOCS: OnceLock<BTreeMap<String, RuleDoc>> = OnceLock::new();
    DOCS.get_or_init(|| {
        CATALOGUE_FILES
            .iter()
            .filter_map(|(_, text)| parse_rule_doc(text).ok())
            .map(|doc| (doc.id.clone(), doc))
            .collect()
    })
}

pub fn get(id: &str) -> Option<&'static RuleDoc> {
    all().get(id)
}
