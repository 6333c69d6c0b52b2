//! ra2's output layer, shared by every face (the `ra2` command, Python, the JS module): the
//! machine-readable renderers of a [`ra2_core::Report`] (SARIF, JUnit, GitHub Actions commands,
//! JSON Lines), the catalogue's renderings (`ra2 rules`, `ra2 explain`), the summary line and the
//! pass/fail verdict. Each turns values into text; none does I/O. Terminal rendering (miette
//! snippets) stays with the command.
//!
//! A crate of its own rather than a module of ra2-core: the admission policy links the core but
//! never renders a report, so it does not even compile this layer.

#![forbid(unsafe_code)]

pub mod baseline;
pub mod catalogue;
pub mod codeclimate;
pub mod compact;
pub mod conformance;
pub mod github;
pub mod html;
pub mod jsonl;
pub mod junit;
pub mod line_hash;
pub mod markdown;
pub mod policyreport;
pub mod sarif;
mod summary;
mod verdict;

pub use summary::summary_line;
pub use verdict::{EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, Verdict, exit_status, verdict};

use ra2_core::ObjectRef;

/// How an object is named in SARIF logical locations and JUnit test cases:
/// `Kind/namespace/name`, or `Kind/name` when the manifest sets no namespace.
pub fn object_path(object: &ObjectRef) -> String {
    let kind = object.kind.as_deref().unwrap_or("object");
    match (&object.namespace, &object.name) {
        (Some(ns), Some(name)) => format!("{kind}/{ns}/{name}"),
        (None, Some(name)) => format!("{kind}/{name}"),
        _ => kind.to_owned(),
    }
}

/// The documentation of a rule id or pseudo-rule, for links in SARIF output.
pub fn rule_doc_url(rule: &str) -> String {
    let repository = env!("CARGO_PKG_REPOSITORY");
    match ra2_core::catalogue::pseudo_rule(rule) {
        Some(pseudo) => format!("{repository}#{}", pseudo.readme_section),
        None => format!("{repository}/blob/main/rules/{rule}.yaml"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_paths() {
        let mut object = ObjectRef {
            api_version: Some("apps/v1".to_owned()),
            kind: Some("Deployment".to_owned()),
            namespace: Some("core".to_owned()),
            name: Some("upf".to_owned()),
        };
        assert_eq!(object_path(&object), "Deployment/core/upf");
        object.namespace = None;
        assert_eq!(object_path(&object), "Deployment/upf");
        assert_eq!(object_path(&ObjectRef::default()), "object");
    }

    #[test]
    fn pseudo_rules_link_to_readme_sections() {
        let readme = include_str!("../../README.md");
        let slugs: Vec<String> = readme
            .lines()
            .filter_map(|l| l.strip_prefix('#'))
            .map(|h| {
                h.trim_start_matches('#')
                    .trim()
                    .to_lowercase()
                    .chars()
                    .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-')
                    .map(|c| if c == ' ' { '-' } else { c })
                    .collect()
            })
            .collect();
        for rule in ra2_core::catalogue::PSEUDO_RULES {
            assert!(
                ra2_core::catalogue::get(rule.id).is_none(),
                "{} is also a catalogue rule",
                rule.id
            );
            assert!(
                slugs.iter().any(|s| s == rule.readme_section),
                "{}: no README section #{}",
                rule.id,
                rule.readme_section
            );
            assert!(rule_doc_url(rule.id).ends_with(&format!("#{}", rule.readme_section)));
        }
    }
}
