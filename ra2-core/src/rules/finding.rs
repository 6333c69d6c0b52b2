//! Findings built from where they are: a node of the object being linted, a [`Place`] kept for
//! cross-document checks, a duplicate key.

use crate::catalogue::YAML_RULE;
use crate::model::bundle::Place;
use crate::parse::view::Located;
use crate::report::{Finding, ObjectRef, Severity};
use crate::rules::Target;

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

/// The `yaml/duplicate-key` finding of `problem`, at (start, end, offset).
pub(crate) fn duplicate_key(
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
