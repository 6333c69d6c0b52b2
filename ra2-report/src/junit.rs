//! JUnit XML (`--format junit`), for CI systems that show test reports (GitLab, Jenkins,
//! Azure Pipelines): one `<testsuite>` per file, one `<testcase>` per object named
//! `Kind/namespace/name`, a `<failure type="<severity>">` per finding and an `<error>` per
//! document that could not be read. An object without findings is a passing test.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use ra2_core::{Finding, LintError, ObjectRef, Report};

use crate::object_path;

/// One test case: an object, or a document or config entry that findings or errors point at.
struct Case<'a> {
    name: String,
    document: usize,
    line: usize,
    failures: Vec<&'a Finding>,
    errors: Vec<&'a LintError>,
}

/// The test case name of something that is not an object: a config entry (`/exemptions/0`)
/// or a document.
fn fallback_name(pointer: &str, document: usize) -> String {
    if pointer.is_empty() {
        format!("document {document}")
    } else {
        pointer.to_owned()
    }
}

/// Escapes text for XML 1.0 content or a double-quoted attribute. Characters XML 1.0 cannot
/// carry at all (most C0 controls) become U+FFFD.
fn escape(text: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            '\n' if attribute => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' if attribute => out.push_str("&#9;"),
            '\t' | '\n' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

fn failure_body(f: &Finding) -> String {
    // Helm output mapped back to its chart: the template line first, then the rendered one.
    let mut body = match &f.template {
        Some(t) => format!("{}:{}:{}", t.file, t.line, t.column),
        None => format!("{}:{}:{}", f.file, f.line, f.column),
    };
    if f.object.kind.is_some() {
        let _ = write!(body, " {}", f.object);
    }
    if !f.pointer.is_empty() {
        let _ = write!(body, " {}", f.pointer);
    }
    match (&f.template, &f.source_template) {
        (Some(_), _) => {
            let _ = write!(body, "\nrendered: {}:{}:{}", f.file, f.line, f.column);
        }
        (None, Some(template)) => {
            let _ = write!(body, "\ntemplate: {template}");
        }
        (None, None) => {}
    }
    if !f.help.is_empty() {
        let _ = write!(body, "\nhelp: {}", f.help);
    }
    body
}

/// Test cases by file, found by (file, document, name).
#[derive(Default)]
struct Suites<'a> {
    files: BTreeMap<&'a str, Vec<Case<'a>>>,
    index: BTreeMap<(&'a str, usize, String), usize>,
}

impl<'a> Suites<'a> {
    fn case(&mut self, file: &'a str, document: usize, name: String, line: usize) -> Option<&mut Case<'a>> {
        let cases = self.files.entry(file).or_default();
        let i = *self.index.entry((file, document, name.clone())).or_insert_with(|| {
            cases.push(Case {
                name,
                document,
                line,
                failures: Vec::new(),
                errors: Vec::new(),
            });
            cases.len() - 1
        });
        cases.get_mut(i)
    }
}

/// The JUnit XML report.
pub fn render(report: &Report) -> String {
    let mut suites = Suites::default();
    for object in &report.objects {
        let name = object_path(&ObjectRef {
            api_version: None,
            kind: object.kind.clone(),
            namespace: object.namespace.clone(),
            name: object.name.clone(),
        });
        suites.case(&object.file, object.document, name, object.line);
    }
    for finding in &report.findings {
        let name = if finding.object.kind.is_some() {
            object_path(&finding.object)
        } else {
            fallback_name(&finding.pointer, finding.document)
        };
        if let Some(case) = suites.case(&finding.file, finding.document, name, finding.line) {
            case.failures.push(finding);
        }
    }
    for error in &report.errors {
        let name = fallback_name("", error.document);
        if let Some(case) = suites.case(&error.file, error.document, name, error.line) {
            case.errors.push(error);
        }
    }
    let mut suites = suites.files;

    let count = |cases: &[Case<'_>]| {
        let failures = cases.iter().filter(|c| !c.failures.is_empty()).count();
        let errors = cases.iter().filter(|c| !c.errors.is_empty()).count();
        (cases.len(), failures, errors)
    };
    let (mut tests, mut failures, mut errors) = (0, 0, 0);
    for cases in suites.values() {
        let (t, f, e) = count(cases);
        tests += t;
        failures += f;
        errors += e;
    }
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"ra2\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\">"
    );
    for (file, cases) in &mut suites {
        cases.sort_by_key(|c| (c.document, c.line));
        let (t, f, e) = count(cases);
        let file = escape(file, true);
        let _ = writeln!(
            out,
            "  <testsuite name=\"{file}\" tests=\"{t}\" failures=\"{f}\" errors=\"{e}\">"
        );
        for case in cases.iter() {
            let open = format!(
                "    <testcase name=\"{}\" classname=\"{file}\"",
                escape(&case.name, true)
            );
            if case.failures.is_empty() && case.errors.is_empty() {
                let _ = writeln!(out, "{open}/>");
                continue;
            }
            let _ = writeln!(out, "{open}>");
            for error in &case.errors {
                let _ = writeln!(
                    out,
                    "      <error type=\"{}\" message=\"{}\">{}</error>",
                    escape(&error.code, true),
                    escape(&error.message, true),
                    escape(&format!("{}:{}:{}", error.file, error.line, error.column), false)
                );
            }
            for finding in &case.failures {
                let _ = writeln!(
                    out,
                    "      <failure type=\"{}\" message=\"{}\">{}</failure>",
                    finding.severity,
                    escape(
                        &format!("{}/{}: {}", finding.rule, finding.check, finding.message),
                        true
                    ),
                    escape(&failure_body(finding), false)
                );
            }
            let _ = writeln!(out, "    </testcase>");
        }
        let _ = writeln!(out, "  </testsuite>");
    }
    out.push_str("</testsuites>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(escape("a<b & \"c\"\n", true), "a&lt;b &amp; &quot;c&quot;&#10;");
        assert_eq!(escape("a<b\n\"c\"", false), "a&lt;b\n\"c\"");
        assert_eq!(escape("bell\u{7}", false), "bell\u{FFFD}");
    }
}
