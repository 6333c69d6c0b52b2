//! `--format html`: the conformance report as one self-contained page — the RA2 requirement
//! matrix of the edition first (overall, then per object), then the findings grouped by
//! requirement with their source (or template) lines and help, and a severity chart in inline
//! SVG. Styles and the one small script are inline; nothing is fetched when it is opened, so
//! it reads the same offline, attached to an e-mail or printed (printing opens every group).
//!
//! Accessible by construction: one `h1`, `h2` per part, tables with captions and header cells,
//! every status written as a word beside its symbol and colour, the chart with a text
//! alternative. Large runs stay usable: groups and the object table are collapsed past a size,
//! and source lines are shown for the first [`Options::max_snippets`] findings only.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use ra2_core::{Finding, Report, Severity};

use crate::conformance::{Matrix, Row, Status};

/// Reads a file findings point into: its text, or `None` when it cannot be read.
pub type ReadSource<'a> = &'a dyn Fn(&str) -> Option<String>;

/// What the page needs beyond the report.
#[derive(Clone, Copy)]
pub struct Options<'a> {
    /// The text of a file findings point into, for source lines (none: no snippets).
    pub source: Option<ReadSource<'a>>,
    /// Findings shown with source lines; the rest show their location only.
    pub max_snippets: usize,
    /// What was linted, for the heading (`ra2 lint charts/cnf`, `ra2 audit`).
    pub title: &'a str,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            source: None,
            max_snippets: 2_000,
            title: "ra2 lint",
        }
    }
}

/// Groups (and the object table) with more entries than this start collapsed.
const OPEN_UP_TO: usize = 25;

/// Escapes text for HTML content and double-quoted attribute values (XML's escaping, which
/// HTML reads the same).
fn esc(text: &str) -> String {
    crate::junit::escape(text, true)
}

/// An id usable as a fragment: `req-ra2.app.001`.
fn anchor(id: &str) -> String {
    let safe: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    format!("req-{safe}")
}

fn severity_word(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}

const STYLE: &str = r#"
:root { --fg:#1b1f24; --muted:#57606a; --line:#d0d7de; --bg:#fff; --alt:#f6f8fa;
  --bad:#b42318; --warn:#9a6700; --info:#0a57c2; --ok:#1a7f37; --na:#6e7781; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
  background: var(--bg); margin: 0 auto; max-width: 72rem; padding: 1.5rem; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; } h2 { font-size: 1.25rem; margin-top: 2rem;
  border-bottom: 1px solid var(--line); padding-bottom: .25rem; } h3 { font-size: 1rem; margin: 0; display: inline; }
.meta { color: var(--muted); margin: 0 0 1rem; }
.verdict { font-size: 1.1rem; font-weight: 600; padding: .75rem 1rem; border-radius: 6px;
  border: 2px solid var(--line); } .verdict.fail { border-color: var(--bad); } .verdict.pass { border-color: var(--ok); }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
caption { text-align: left; color: var(--muted); padding: .25rem 0; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: var(--alt); } tbody tr:nth-child(even) { background: #fbfcfd; }
code, pre { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.status { white-space: nowrap; font-weight: 600; }
.s-violated { color: var(--bad); } .s-met { color: var(--ok); } .s-not-applicable, .s-not-required { color: var(--na); }
.s-not-checkable, .s-not-checked { color: var(--warn); }
.sev { font-weight: 600; text-transform: uppercase; font-size: .75rem; padding: 0 .3rem; border-radius: 3px; border: 1px solid; }
.sev-error { color: var(--bad); } .sev-warning { color: var(--warn); } .sev-info { color: var(--info); }
details { border: 1px solid var(--line); border-radius: 6px; margin: .5rem 0; padding: .25rem .75rem; }
summary { cursor: pointer; padding: .25rem 0; }
ol.findings { padding-left: 1.25rem; } ol.findings > li { margin: .75rem 0; }
pre.snippet { background: var(--alt); border: 1px solid var(--line); border-radius: 4px; padding: .4rem .6rem; overflow-x: auto; margin: .3rem 0; }
pre.snippet .hit { background: #fff1c2; display: inline-block; min-width: 100%; }
.help { color: var(--muted); margin: .2rem 0 0; }
.chart text { font: 12px system-ui, sans-serif; fill: var(--fg); }
a { color: #0a57c2; }
@media print { body { max-width: none; padding: 0; font-size: 11pt; } details { break-inside: avoid-page; }
  summary { list-style: none; } a { color: inherit; text-decoration: none; } }
"#;

/// Opens every group before printing, so the printed report holds everything.
const SCRIPT: &str = "addEventListener('beforeprint',function(){document.querySelectorAll('details').forEach(function(d){d.open=true;});});";

/// The page of a report and its matrix.
pub fn render(report: &Report, matrix: &Matrix, options: &Options<'_>) -> String {
    let mut out = String::with_capacity(16_384 + report.findings.len() * 700);
    let tally = matrix.tally();
    let count = |status: Status| tally.get(&status).copied().unwrap_or(0);
    let violated = count(Status::Violated);
    let s = &report.summary;
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"generator\" content=\"ra2 {}\">\n<title>RA2 conformance: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<header>\n<h1>RA2 conformance report</h1>\n<p class=\"meta\">{} · Anuket RA2, {} edition · ra2 {}</p>\n",
        env!("CARGO_PKG_VERSION"),
        esc(options.title),
        esc(options.title),
        matrix.edition.as_str(),
        env!("CARGO_PKG_VERSION"),
    );
    let (class, text) = if violated == 0 && report.errors.is_empty() {
        ("pass", "✓ No RA2 requirement is violated.".to_owned())
    } else {
        (
            "fail",
            format!(
                "✗ {violated} of {} requirements are violated.",
                matrix.rows.iter().filter(|r| r.rule).count()
            ),
        )
    };
    let _ = writeln!(
        out,
        "<p class=\"verdict {class}\" id=\"verdict\">{text} {} objects in {} files: {} errors, {} warnings, {} infos{}.</p>\n</header>\n<main>",
        s.objects,
        s.files,
        s.findings.error,
        s.findings.warning,
        s.findings.info,
        if s.errors > 0 {
            format!("; {} documents could not be read", s.errors)
        } else {
            String::new()
        },
    );
    chart(&mut out, report, matrix);
    requirements(&mut out, matrix);
    objects(&mut out, report, matrix);
    findings(&mut out, report, matrix, options);
    out.push_str("</main>\n<script>");
    out.push_str(SCRIPT);
    out.push_str("</script>\n</body>\n</html>\n");
    out
}

/// Two bar charts in SVG: findings by severity, requirements by status; each bar labelled with
/// its word and number, and the whole described in text for screen readers.
fn chart(out: &mut String, report: &Report, matrix: &Matrix) {
    let f = &report.summary.findings;
    let sev = [
        ("errors", f.error, "var(--bad)"),
        ("warnings", f.warning, "var(--warn)"),
        ("infos", f.info, "var(--info)"),
    ];
    let tally = matrix.tally();
    let statuses: Vec<(&str, usize, &str)> = Status::ALL
        .iter()
        .map(|st| {
            let colour = match st {
                Status::Violated => "var(--bad)",
                Status::Met => "var(--ok)",
                Status::NotChecked | Status::NotCheckable => "var(--warn)",
                Status::NotApplicable | Status::NotRequired => "var(--na)",
            };
            (st.label(), tally.get(st).copied().unwrap_or(0), colour)
        })
        .collect();
    out.push_str("<section aria-labelledby=\"summary-h\">\n<h2 id=\"summary-h\">Summary</h2>\n");
    let describe = |bars: &[(&str, usize, &str)]| {
        bars.iter()
            .map(|(label, n, _)| format!("{n} {label}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for (title, bars) in [
        ("Findings by severity", &sev[..]),
        ("Requirements by status", &statuses[..]),
    ] {
        let max = bars.iter().map(|b| b.1).max().unwrap_or(0).max(1);
        let height = 24 * bars.len() + 8;
        let _ = write!(
            out,
            "<figure class=\"chart\"><figcaption>{title}</figcaption><svg role=\"img\" width=\"520\" height=\"{height}\" viewBox=\"0 0 520 {height}\" aria-label=\"{}: {}\"><title>{}: {}</title>",
            title,
            esc(&describe(bars)),
            title,
            esc(&describe(bars))
        );
        for (i, (label, n, colour)) in bars.iter().enumerate() {
            let y = 4 + i * 24;
            let width = (*n * 260).div_ceil(max);
            let _ = write!(
                out,
                "<text x=\"0\" y=\"{}\">{}</text><rect x=\"200\" y=\"{y}\" width=\"{width}\" height=\"18\" fill=\"{colour}\"></rect><text x=\"{}\" y=\"{}\">{n}</text>",
                y + 14,
                esc(label),
                206 + width,
                y + 14
            );
        }
        out.push_str("</svg></figure>\n");
    }
    out.push_str("</section>\n");
}

fn requirements(out: &mut String, matrix: &Matrix) {
    out.push_str("<section aria-labelledby=\"matrix-h\">\n<h2 id=\"matrix-h\">Requirements</h2>\n<table id=\"matrix\">\n<caption>Every requirement of the edition and its status for this input</caption>\n<thead><tr><th scope=\"col\">Requirement</th><th scope=\"col\">Title</th><th scope=\"col\">Status</th><th scope=\"col\">Findings or reason</th></tr></thead>\n<tbody>\n");
    for row in &matrix.rows {
        requirement_row(out, row);
    }
    out.push_str("</tbody>\n</table>\n</section>\n");
}

fn requirement_row(out: &mut String, row: &Row) {
    let ids: Vec<String> = row
        .ids
        .iter()
        .map(|id| {
            if row.status == Status::Violated {
                format!("<a href=\"#{}\"><code>{}</code></a>", anchor(id), esc(id))
            } else {
                format!("<code>{}</code>", esc(id))
            }
        })
        .collect();
    let detail = row.counted().unwrap_or_else(|| row.reason.map(esc).unwrap_or_default());
    let _ = writeln!(
        out,
        "<tr data-ids=\"{}\" data-status=\"{}\"><th scope=\"row\">{}</th><td>{}</td><td class=\"status s-{}\">{} {}</td><td>{detail}</td></tr>",
        esc(&row.ids.join(" ")),
        row.status.slug(),
        ids.join(", "),
        esc(row.title),
        row.status.slug(),
        row.status.symbol(),
        row.status.label(),
    );
}

fn objects(out: &mut String, report: &Report, matrix: &Matrix) {
    out.push_str("<section aria-labelledby=\"objects-h\">\n<h2 id=\"objects-h\">Objects</h2>\n");
    let clean = report.objects.len().saturating_sub(matrix.objects.len());
    let _ = writeln!(
        out,
        "<p>{} of {} objects violate a requirement; {clean} violate none.</p>",
        matrix.objects.len(),
        report.objects.len()
    );
    if matrix.objects.is_empty() {
        out.push_str("</section>\n");
        return;
    }
    let open = if matrix.objects.len() <= OPEN_UP_TO {
        " open"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "<details{open}><summary>The {} objects with findings</summary>\n<table id=\"objects\">\n<caption>Requirements each object violates</caption>\n<thead><tr><th scope=\"col\">Object</th><th scope=\"col\">Where</th><th scope=\"col\">Violated requirements</th></tr></thead>\n<tbody>",
        matrix.objects.len()
    );
    for row in &matrix.objects {
        let Some(object) = report.objects.get(row.object) else {
            continue;
        };
        let name = crate::object_path(&ra2_core::ObjectRef {
            api_version: object.api_version.clone(),
            kind: object.kind.clone(),
            namespace: object.namespace.clone(),
            name: object.name.clone(),
        });
        let rules: Vec<String> = row
            .violated
            .iter()
            .map(|(rule, counts)| {
                format!(
                    "<a href=\"#{}\"><code>{}</code></a> ({})",
                    anchor(rule),
                    esc(rule),
                    counts.describe()
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "<tr><th scope=\"row\">{}</th><td><code>{}:{}</code></td><td>{}</td></tr>",
            esc(&name),
            esc(&object.file),
            object.line,
            rules.join(", ")
        );
    }
    out.push_str("</tbody>\n</table>\n</details>\n</section>\n");
}

fn findings(out: &mut String, report: &Report, matrix: &Matrix, options: &Options<'_>) {
    out.push_str("<section aria-labelledby=\"findings-h\">\n<h2 id=\"findings-h\">Findings by requirement</h2>\n");
    if report.findings.is_empty() && report.errors.is_empty() {
        out.push_str("<p>No findings.</p>\n</section>\n");
        return;
    }
    let mut by_rule: BTreeMap<&str, Vec<&Finding>> = BTreeMap::new();
    for finding in &report.findings {
        by_rule.entry(&finding.rule).or_default().push(finding);
    }
    let mut texts: BTreeMap<String, Option<Vec<String>>> = BTreeMap::new();
    let mut snippets = 0;
    // Matrix order first, then findings of rules outside it (pseudo-rules such as `yaml`).
    let mut order: Vec<&str> = matrix
        .rows
        .iter()
        .filter(|r| r.rule && r.counts.total() > 0)
        .flat_map(|r| r.ids.iter().copied())
        .collect();
    for rule in by_rule.keys() {
        if !order.contains(rule) {
            order.push(rule);
        }
    }
    for rule in order {
        let Some(list) = by_rule.get(rule) else { continue };
        let title = ra2_core::catalogue::get(rule).map_or("", |d| d.title);
        let open = if list.len() <= OPEN_UP_TO { " open" } else { "" };
        let _ = writeln!(
            out,
            "<details id=\"{}\"{open}><summary><h3><code>{}</code> {}</h3> — {} findings</summary>\n<ol class=\"findings\">",
            anchor(rule),
            esc(rule),
            esc(title),
            list.len()
        );
        for finding in list {
            let snippet = if snippets < options.max_snippets {
                snippets += 1;
                snippet_of(finding, options, &mut texts)
            } else {
                String::new()
            };
            let object = crate::object_path(&finding.object);
            let template = finding
                .template
                .as_ref()
                .map(|t| format!(" (template <code>{}:{}</code>)", esc(&t.file), t.line))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "<li><span class=\"sev sev-{0}\">{0}</span> <code>{1}/{2}</code> {3}<br><code>{4}:{5}</code>{6} · {7}{8}{9}</li>",
                severity_word(finding.severity),
                esc(&finding.rule),
                esc(&finding.check),
                esc(&finding.message),
                esc(&finding.file),
                finding.line,
                template,
                esc(&object),
                snippet,
                if finding.help.is_empty() {
                    String::new()
                } else {
                    format!("<p class=\"help\">{}</p>", esc(&finding.help))
                },
            );
        }
        out.push_str("</ol>\n</details>\n");
    }
    if !report.errors.is_empty() {
        let _ = writeln!(
            out,
            "<details id=\"errors\" open><summary><h3>Documents that could not be read</h3> — {}</summary>\n<ol class=\"findings\">",
            report.errors.len()
        );
        for error in &report.errors {
            let _ = writeln!(
                out,
                "<li><span class=\"sev sev-error\">error</span> <code>{}</code> {}<br><code>{}:{}</code></li>",
                esc(&error.code),
                esc(&error.message),
                esc(&error.file),
                error.line
            );
        }
        out.push_str("</ol>\n</details>\n");
    }
    if snippets == options.max_snippets && report.findings.len() > snippets {
        let _ = writeln!(
            out,
            "<p>Source lines are shown for the first {snippets} findings; the others give their location.</p>"
        );
    }
    out.push_str("</section>\n");
}

/// The lines around a finding (two before, the finding's lines, one after), the finding's own
/// marked; from its chart template when it was mapped to one.
fn snippet_of(finding: &Finding, options: &Options<'_>, texts: &mut BTreeMap<String, Option<Vec<String>>>) -> String {
    let Some(source) = options.source else {
        return String::new();
    };
    let (file, line, end) = match &finding.template {
        Some(t) => (t.file.as_str(), t.line, t.line),
        None => (finding.file.as_str(), finding.line, finding.end_line.max(finding.line)),
    };
    let lines = texts
        .entry(file.to_owned())
        .or_insert_with(|| source(file).map(|t| t.lines().map(str::to_owned).collect()));
    let Some(lines) = lines else { return String::new() };
    if line == 0 || line > lines.len() {
        return String::new();
    }
    let end = end.min(line + 4).min(lines.len());
    let first = line.saturating_sub(2).max(1);
    let last = (end + 1).min(lines.len());
    let width = last.to_string().len();
    let mut out = String::from("<pre class=\"snippet\">");
    for n in first..=last {
        let text = lines.get(n - 1).map_or("", String::as_str);
        let shown: String = text.chars().take(200).collect();
        if (line..=end).contains(&n) {
            let _ = writeln!(out, "<span class=\"hit\">{n:>width$} │ {}</span>", esc(&shown));
        } else {
            let _ = writeln!(out, "{n:>width$} │ {}", esc(&shown));
        }
    }
    out.push_str("</pre>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ra2_core::Config;

    #[test]
    fn the_page_holds_the_matrix_findings_and_snippets_and_escapes_input() {
        let config = Config::default();
        let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: \"<script>x</script>\", namespace: core}\nspec:\n  hostNetwork: true\n  containers: [{name: c, image: r/c:1.0}]\n";
        let report = ra2_core::lint_str("p.yaml", text, &config);
        let matrix = crate::conformance::matrix(&report, &config);
        let source = |file: &str| (file == "p.yaml").then(|| text.to_owned());
        let page = render(
            &report,
            &matrix,
            &Options {
                source: Some(&source),
                ..Options::default()
            },
        );
        assert!(page.starts_with("<!doctype html>"));
        assert!(!page.contains("<script>x"), "input is escaped");
        assert!(
            !page.contains("http://") && !page.contains("https://"),
            "nothing to fetch"
        );
        let listed: Vec<&str> = page
            .split("data-ids=\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .flat_map(str::split_whitespace)
            .collect();
        for row in &matrix.rows {
            for id in &row.ids {
                assert!(listed.contains(id), "{id}");
            }
        }
        assert!(page.contains("data-ids=\"ra2.app.004\" data-status=\"violated\""));
        assert!(page.contains("id=\"req-ra2.app.004\""));
        assert!(
            page.contains("<span class=\"hit\">5 │   hostNetwork: true</span>"),
            "{page}"
        );
        assert_eq!(page.matches("<h1>").count(), 1);
    }
}
