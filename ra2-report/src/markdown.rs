//! `--format markdown`: the conformance summary for a CI job summary (`$GITHUB_STEP_SUMMARY`)
//! or a pull-request comment — the verdict, the requirement matrix with counts, and the top
//! findings with `file:line` (links when the caller gives a base URL) — always within GitHub's
//! 1 MiB step-summary limit: findings past the budget are left out with a note saying how many.

use std::fmt::Write as _;

use ra2_core::{Report, Severity};

use crate::conformance::{Matrix, Status};

/// GitHub's limit on one step summary (1 MiB), less room for the note that ends a cut report.
pub const LIMIT: usize = 1024 * 1024 - 4096;

/// What the summary needs beyond the report.
#[derive(Debug, Clone, Default)]
pub struct Options<'a> {
    /// A URL each finding's `file#Lline` is appended to (on GitHub:
    /// `$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/blob/$GITHUB_SHA/`); plain `file:line` without it.
    pub link_base: Option<&'a str>,
    /// The most findings listed (by severity, then position).
    pub max_findings: usize,
    /// The byte budget of the whole summary.
    pub limit: usize,
}

impl Options<'_> {
    pub fn new() -> Self {
        Options {
            link_base: None,
            max_findings: 100,
            limit: LIMIT,
        }
    }
}

/// Escapes text for a Markdown table cell or line: no HTML, no table breaks, no emphasis.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '|' | '\\' | '*' | '_' | '`' | '[' | ']' | '<' | '>' | '#' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// ra2's own text (titles, reasons) in a table cell: its Markdown kept, only cell breaks escaped.
fn trusted(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

fn severity_word(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}

/// The Markdown summary of a report and its matrix.
pub fn render(report: &Report, matrix: &Matrix, options: &Options<'_>) -> String {
    let mut out = String::new();
    let s = &report.summary;
    let tally = matrix.tally();
    let count = |status: Status| tally.get(&status).copied().unwrap_or(0);
    let _ = writeln!(out, "## RA2 conformance ({} edition)\n", matrix.edition.as_str());
    let verdict = if count(Status::Violated) == 0 && report.errors.is_empty() {
        "**No RA2 requirement is violated.**"
    } else {
        "**RA2 requirements are violated.**"
    };
    let _ = writeln!(
        out,
        "{verdict} {} objects in {} files: {} errors, {} warnings, {} infos{}.\n",
        s.objects,
        s.files,
        s.findings.error,
        s.findings.warning,
        s.findings.info,
        if s.errors > 0 {
            format!("; {} documents could not be read", s.errors)
        } else {
            String::new()
        }
    );
    let parts: Vec<String> = Status::ALL
        .iter()
        .filter(|st| count(**st) > 0)
        .map(|st| format!("{} {} {}", st.symbol(), count(*st), st.label()))
        .collect();
    let _ = writeln!(out, "Requirements: {}.\n", parts.join(" · "));

    out.push_str("| Requirement | Title | Status | Findings |\n|---|---|---|---|\n");
    for row in &matrix.rows {
        let ids = row.ids.iter().map(|i| format!("`{i}`")).collect::<Vec<_>>().join(", ");
        let findings = row
            .counted()
            .unwrap_or_else(|| row.reason.map(trusted).unwrap_or_default());
        let _ = writeln!(
            out,
            "| {ids} | {} | {} {} | {findings} |",
            trusted(row.title),
            row.status.symbol(),
            row.status.label()
        );
    }

    if !report.errors.is_empty() {
        out.push_str("\n### Documents that could not be read\n\n");
        for error in report.errors.iter().take(20) {
            let _ = writeln!(
                out,
                "- {}: {}",
                location(&error.file, error.line, options),
                escape(&error.message)
            );
        }
        if report.errors.len() > 20 {
            let _ = writeln!(out, "- and {} more", report.errors.len() - 20);
        }
    }

    let mut order: Vec<usize> = (0..report.findings.len()).collect();
    order.sort_by_key(|&i| {
        let f = &report.findings[i];
        (std::cmp::Reverse(f.severity), i)
    });
    if !order.is_empty() {
        let _ = writeln!(out, "\n### Findings\n");
    }
    let mut listed = 0;
    let mut budget_hit = false;
    for &i in &order {
        if listed == options.max_findings {
            break;
        }
        let f = &report.findings[i];
        let object = crate::object_path(&f.object);
        let mut line = format!(
            "- **{}** `{}/{}` {} — {}: {}\n",
            severity_word(f.severity),
            f.rule,
            f.check,
            location(&f.file, f.line, options),
            escape(&object),
            escape(&f.message)
        );
        if let Some(template) = &f.template {
            line.insert_str(
                line.len() - 1,
                &format!(" (template {})", location(&template.file, template.line, options)),
            );
        }
        if out.len() + line.len() > options.limit {
            budget_hit = true;
            break;
        }
        out.push_str(&line);
        listed += 1;
    }
    let left = order.len() - listed;
    if left > 0 {
        let why = if budget_hit {
            "to stay within GitHub's 1 MiB step-summary limit"
        } else {
            "here"
        };
        let _ = writeln!(
            out,
            "\n{left} more findings are not listed {why}: run `ra2 lint --format text` or see the SARIF report."
        );
    }
    out
}

/// `file:line`, or a link to the line under `link_base`.
fn location(file: &str, line: usize, options: &Options<'_>) -> String {
    match options.link_base {
        Some(base) => format!(
            "[{}:{line}]({}{}#L{line})",
            escape(file),
            base,
            file.replace(' ', "%20").replace(')', "%29")
        ),
        None => format!("`{file}:{line}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ra2_core::Config;

    #[test]
    fn the_summary_names_every_requirement_and_links_findings() {
        let config = Config::default();
        let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: p|q, namespace: core}\nspec:\n  hostNetwork: true\n  containers: [{name: c, image: r/c:1.0}]\n";
        let report = ra2_core::lint_str("a b.yaml", text, &config);
        let matrix = crate::conformance::matrix(&report, &config);
        let options = Options {
            link_base: Some("https://github.com/o/r/blob/abc/"),
            ..Options::new()
        };
        let md = render(&report, &matrix, &options);
        for row in &matrix.rows {
            for id in &row.ids {
                assert!(md.contains(&format!("`{id}`")), "{id}");
            }
        }
        assert!(md.contains("| `ra2.app.004` |"), "{md}");
        assert!(md.contains("✗ violated"));
        assert!(
            md.contains("[a b.yaml:5](https://github.com/o/r/blob/abc/a%20b.yaml#L5)"),
            "{md}"
        );
        assert!(md.contains("Pod/core/p\\|q"), "a | in a name does not break the table");
    }

    #[test]
    fn a_huge_report_stays_within_the_limit() {
        let config = Config::default();
        let mut text = String::new();
        for i in 0..3000 {
            let _ = write!(
                text,
                "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p{i}, namespace: core}}\nspec:\n  hostNetwork: true\n  hostPID: true\n  containers: [{{name: c, image: r/c:1.0}}]\n"
            );
        }
        let report = ra2_core::lint_str("big.yaml", &text, &config);
        let matrix = crate::conformance::matrix(&report, &config);
        let options = Options {
            max_findings: usize::MAX,
            limit: 200_000,
            ..Options::new()
        };
        let md = render(&report, &matrix, &options);
        assert!(md.len() <= 200_000 + 512, "{}", md.len());
        assert!(md.contains("to stay within GitHub's 1 MiB step-summary limit"));
    }
}
