//! The catalogue for people: `ra2 rules` (a table) and `ra2 explain` (one rule's docs).

use std::fmt::Write as _;

use ra2_core::Edition;
use ra2_core::catalogue::{self, EditionSeverity, RuleDoc};

/// The rules of an edition, in id order.
pub fn rules_in(edition: Edition) -> Vec<&'static RuleDoc> {
    catalogue::all().iter().filter(|d| d.in_edition(edition)).collect()
}

/// `ra2 rules`: id, severity in the edition, title and checks, in aligned columns. A check
/// whose severity differs from its rule's is shown with it: `pv (error)`.
pub fn rules_table(edition: Edition) -> String {
    let docs = rules_in(edition);
    let rows: Vec<[String; 4]> = docs
        .iter()
        .map(|d| {
            let rule_severity = d.severity.get(edition).unwrap_or(ra2_core::Severity::Warning);
            let checks: Vec<String> = d
                .checks_in(edition)
                .map(|c| {
                    let s = d.severity_of(c.slug, edition);
                    if s == rule_severity {
                        c.slug.to_owned()
                    } else {
                        format!("{} ({s})", c.slug)
                    }
                })
                .collect();
            [
                d.id.to_owned(),
                rule_severity.to_string(),
                d.title.to_owned(),
                checks.join(", "),
            ]
        })
        .collect();
    let header = ["RULE", "SEVERITY", "TITLE", "CHECKS"].map(str::to_owned);
    let mut widths = [0usize; 4];
    for row in std::iter::once(&header).chain(&rows) {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in std::iter::once(&header).chain(&rows) {
        let mut line = String::new();
        for (i, (cell, w)) in row.iter().zip(widths).enumerate() {
            if i + 1 == row.len() {
                line.push_str(cell);
            } else {
                let _ = write!(line, "{cell:<w$}  ");
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "\n{} rules in edition {}; `ra2 explain <rule>` for details",
        rows.len(),
        edition.as_str()
    );
    out
}

/// `ra2 rules --format json`: the rule documents of the edition as a JSON array.
pub fn rules_json(edition: Edition) -> String {
    serde_json::to_string_pretty(&rules_in(edition)).unwrap_or_default()
}

/// `ra2 rules --all`: the rules table, then the chapter-4 requirements ra2 does not check
/// statically, each with its reason wrapped to `width` columns.
pub fn rules_table_all(edition: Edition, width: usize) -> String {
    let mut out = rules_table(edition);
    let unchecked: Vec<_> = catalogue::unchecked()
        .iter()
        .filter(|u| u.in_edition(edition))
        .collect();
    let ids: usize = unchecked.iter().map(|u| u.ids.len()).sum();
    let _ = writeln!(
        out,
        "
RA2 chapter 4 requirements ra2 does not check statically ({ids}; rules/README.md, \"Chapter 4 coverage\"):\n"
    );
    for entry in unchecked {
        let status = match entry.status {
            catalogue::Coverage::NotCheckable => "not checkable",
            catalogue::Coverage::NotApplicable => "not applicable",
        };
        let _ = writeln!(out, "{}  {} ({status})", entry.ids.join(", "), entry.title);
        out.push_str(&wrap(entry.reason, "    ", width.max(40)));
    }
    out
}

/// `ra2 rules --all --format json`: `{"rules": [the rule documents], "unchecked": [the
/// requirements ra2 does not check]}`. Without `--all` the output stays the bare array.
pub fn rules_json_all(edition: Edition) -> String {
    let all = serde_json::json!({
        "rules": rules_in(edition),
        "unchecked": catalogue::unchecked().iter().filter(|u| u.in_edition(edition)).collect::<Vec<_>>(),
    });
    serde_json::to_string_pretty(&all).unwrap_or_default()
}

/// `warning` or `warning in base, error in latest`.
fn severity_text(severity: &EditionSeverity, editions: &[Edition]) -> String {
    match severity {
        EditionSeverity::Same(s) => s.to_string(),
        EditionSeverity::PerEdition(_) => {
            let parts: Vec<String> = editions
                .iter()
                .filter_map(|&e| severity.get(e).map(|s| format!("{s} in {}", e.as_str())))
                .collect();
            parts.join(", ")
        }
    }
}

/// Fills `text` to `width` columns, each line starting with `indent`. Paragraph breaks
/// (blank lines) are kept.
fn wrap(text: &str, indent: &str, width: usize) -> String {
    let mut out = String::new();
    for (i, paragraph) in text.trim().split("\n\n").enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut line = String::from(indent);
        for word in paragraph.split_whitespace() {
            let fits = line.chars().count() + 1 + word.chars().count() <= width;
            if line.len() > indent.len() && !fits {
                out.push_str(&line);
                out.push('\n');
                line = String::from(indent);
            }
            if line.len() > indent.len() {
                line.push(' ');
            }
            line.push_str(word);
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn indent_block(text: &str, indent: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                "\n".to_owned()
            } else {
                format!("{indent}{l}\n")
            }
        })
        .collect()
}

/// `ra2 explain`: everything the catalogue says about a rule, or about one of its checks
/// (then only that check, and the failing examples that exercise it).
pub fn explain(doc: &RuleDoc, check: Option<&str>, width: usize) -> String {
    let width = width.max(40);
    let mut out = String::new();
    let _ = writeln!(out, "{}: {}", doc.id, doc.title);
    if let Some(slug) = check {
        let title = doc.check(slug).map_or("", |c| c.title);
        let _ = writeln!(out, "check {slug}: {title}");
    }
    let editions: Vec<&str> = doc.editions.iter().map(|e| e.as_str()).collect();
    let _ = writeln!(out, "\nEditions: {}", editions.join(", "));
    let _ = writeln!(out, "Severity: {}", severity_text(&doc.severity, doc.editions));
    let _ = writeln!(out, "\nRequirement\n{}", wrap(doc.requirement, "  ", width));
    let _ = writeln!(out, "Spec basis\n{}", wrap(doc.spec, "  ", width));
    let _ = writeln!(out, "Rationale\n{}", wrap(doc.rationale, "  ", width));
    out.push_str("Checks\n");
    for (i, c) in doc
        .checks
        .iter()
        .filter(|c| check.is_none_or(|s| s == c.slug))
        .enumerate()
    {
        if i > 0 {
            out.push('\n');
        }
        let severity = match &c.severity {
            Some(s) => severity_text(s, doc.editions),
            None => severity_text(&doc.severity, doc.editions),
        };
        let only = match c.editions {
            Some(editions) => {
                let names: Vec<&str> = editions.iter().map(|e| e.as_str()).collect();
                format!(" [{} edition only]", names.join(", "))
            }
            None => String::new(),
        };
        let _ = writeln!(out, "  {} ({severity}): {}{only}", c.slug, c.title);
        out.push_str(&wrap(c.description, "    ", width));
        if let Some(fix) = &c.fix {
            let line = format!(
                "Fix ({}, `ra2 lint --{}`): {}. {}",
                fix.applicability.as_str(),
                if fix.applicability == ra2_core::fix::Applicability::Safe {
                    "fix"
                } else {
                    "fix --unsafe-fixes"
                },
                fix.title,
                fix.reason
            );
            out.push_str(&wrap(&line, "    ", width));
        }
    }
    out.push_str("\nParameters\n");
    if doc.params.is_empty() {
        out.push_str("  none\n");
    }
    for (i, p) in doc.params.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let _ = writeln!(out, "  {} ({}, default {})", p.name, p.kind, p.default);
        out.push_str(&wrap(p.description, "    ", width));
    }
    if doc
        .params
        .iter()
        .any(|p| p.name == ra2_core::devices::NETWORK_PARAM || p.name == ra2_core::devices::ACCELERATOR_PARAM)
    {
        out.push_str(&device_table(width));
    }
    let _ = writeln!(out, "\nRemediation\n{}", wrap(doc.remediation, "  ", width));
    let failing: Vec<_> = doc
        .examples
        .failing
        .iter()
        .filter(|e| check.is_none_or(|s| e.expect.is_empty() || e.expect.contains(&s)))
        .collect();
    for (heading, examples) in [
        ("Failing examples", failing),
        ("Passing examples", doc.examples.passing.iter().collect()),
    ] {
        if examples.is_empty() {
            continue;
        }
        let _ = writeln!(out, "{heading}");
        for e in examples {
            let expect = if e.expect.is_empty() {
                String::new()
            } else {
                format!(" (fires: {})", e.expect.join(", "))
            };
            let _ = writeln!(out, "\n  # {}{expect}", e.title);
            if !e.params.is_empty() {
                let params: Vec<String> = e.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
                let _ = writeln!(out, "  # with params: {}", params.join(", "));
            }
            if let Some(version) = &e.kubernetes_version {
                let _ = writeln!(out, "  # for Kubernetes {version}");
            }
            out.push_str(&indent_block(e.manifest, "  "));
        }
        out.push('\n');
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// The shipped device table (`ra2-core/data/devices.yaml`), for the rules whose parameters extend it.
fn device_table(width: usize) -> String {
    let table = ra2_core::devices::table();
    let mut out =
        String::from("\nDevice table (extended resources by what they are; the parameters above take precedence)\n");
    for (class, entries) in [("accelerator", table.accelerator), ("network", table.network)] {
        let _ = writeln!(out, "  {class}:");
        for e in entries {
            out.push_str(&wrap(&format!("{} — {}", e.pattern, e.note), "    ", width));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_fills_lines_and_keeps_paragraphs() {
        assert_eq!(wrap("a bb ccc dddd", "  ", 9), "  a bb\n  ccc\n  dddd\n");
        assert_eq!(wrap("a\n\nb", "", 80), "a\n\nb\n");
        assert_eq!(wrap("averyveryverylongword x", "", 5), "averyveryverylongword\nx\n");
    }
}
