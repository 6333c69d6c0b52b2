//! JUnit XML (`--format junit`), for CI systems that show test reports (GitLab, Jenkins,
//! Azure Pipelines): one `<testsuite>` per file, one `<testcase>` per object named
//! `Kind/namespace/name`, a `<failure type="<severity>">` per finding and an `<error>` per
//! document that could not be read. An object without findings is a passing test.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use ra2_core::{Finding, ObjectRef, Report};

use crate::compact::Store;
use crate::object_path;

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
pub(crate) fn escape(text: &str, attribute: bool) -> String {
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

/// One test case: an object, or a document or config entry that findings or errors point at.
struct Case<'a> {
    file: &'a str,
    document: usize,
    name: String,
    line: usize,
    failures: bool,
    errors: bool,
}

/// What names a finding's test case: file, document, object and pointer.
type CaseKey<'a> = (&'a str, usize, ObjectRef, String);

/// Test cases in the order they were found, by (file, document, name).
#[derive(Default)]
struct Cases<'a> {
    list: Vec<Case<'a>>,
    index: HashMap<(&'a str, usize, String), u32>,
}

impl<'a> Cases<'a> {
    fn case(&mut self, file: &'a str, document: usize, name: String, line: usize) -> u32 {
        let list = &mut self.list;
        *self.index.entry((file, document, name.clone())).or_insert_with(|| {
            list.push(Case {
                file,
                document,
                name,
                line,
                failures: false,
                errors: false,
            });
            u32::try_from(list.len() - 1).unwrap_or(u32::MAX)
        })
    }
}

/// Indices `0..of.len()` grouped by `of[i]` (a case number below `cases`), each group in
/// index order: the group of case `c` is `order[start[c]..start[c + 1]]`.
fn group_by_case(of: &[u32], cases: usize) -> (Vec<usize>, Vec<u32>) {
    let mut start = vec![0usize; cases + 1];
    for &case in of {
        if let Some(n) = start.get_mut(case as usize + 1) {
            *n += 1;
        }
    }
    for i in 1..start.len() {
        let before = start.get(i - 1).copied().unwrap_or(0);
        if let Some(n) = start.get_mut(i) {
            *n += before;
        }
    }
    let mut next = start.clone();
    let mut order = vec![0u32; of.len()];
    for (i, &case) in of.iter().enumerate() {
        if let Some(at) = next.get_mut(case as usize) {
            if let Some(slot) = order.get_mut(*at) {
                *slot = u32::try_from(i).unwrap_or(u32::MAX);
            }
            *at += 1;
        }
    }
    (start, order)
}

/// The JUnit XML report.
pub fn render(report: &Report) -> String {
    let mut out = Vec::new();
    // Writing to memory does not fail.
    let _ = write(&Store::from_report(report), &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// Writes the JUnit XML report of a report held in a [`Store`]: the bytes of [`render`] for
/// the same report.
pub fn write(store: &Store, mut out: impl std::io::Write) -> std::io::Result<()> {
    let mut cases = Cases::default();
    for (object, file) in store.objects().zip(store.object_files()) {
        let name = object_path(&ObjectRef {
            api_version: None,
            kind: object.kind,
            namespace: object.namespace,
            name: object.name,
        });
        cases.case(file, object.document, name, object.line);
    }
    // The case of each finding; findings come object by object, so the last one is often it.
    let mut finding_cases = Vec::with_capacity(store.finding_count());
    let mut last: Option<(CaseKey<'_>, u32)> = None;
    for (finding, file) in store.findings().zip(store.finding_files()) {
        let key = (file, finding.document, finding.object, finding.pointer);
        let case = match &last {
            Some((last_key, case)) if *last_key == key => *case,
            _ => {
                let (file, document, object, pointer) = &key;
                let name = if object.kind.is_some() {
                    object_path(object)
                } else {
                    fallback_name(pointer, *document)
                };
                let case = cases.case(file, *document, name, finding.line);
                last = Some((key, case));
                case
            }
        };
        if let Some(case) = cases.list.get_mut(case as usize) {
            case.failures = true;
        }
        finding_cases.push(case);
    }
    let mut error_cases = Vec::with_capacity(store.errors().len());
    for error in store.errors() {
        let name = fallback_name("", error.document);
        let case = cases.case(&error.file, error.document, name, error.line);
        if let Some(case) = cases.list.get_mut(case as usize) {
            case.errors = true;
        }
        error_cases.push(case);
    }
    let cases = cases.list;
    let (finding_start, finding_order) = group_by_case(&finding_cases, cases.len());
    drop(finding_cases);
    let (error_start, error_order) = group_by_case(&error_cases, cases.len());

    // Suites by file name; cases by document and line, in the order they were found.
    let mut suites: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
    for (i, case) in cases.iter().enumerate() {
        suites
            .entry(case.file)
            .or_default()
            .push(u32::try_from(i).unwrap_or(u32::MAX));
    }
    let case_at = |i: u32| cases.get(i as usize);
    let count = |list: &[u32]| {
        let (mut failures, mut errors) = (0, 0);
        for case in list.iter().filter_map(|&i| case_at(i)) {
            failures += usize::from(case.failures);
            errors += usize::from(case.errors);
        }
        (list.len(), failures, errors)
    };
    let (mut tests, mut failures, mut errors) = (0, 0, 0);
    for list in suites.values() {
        let (t, f, e) = count(list);
        tests += t;
        failures += f;
        errors += e;
    }
    let group = |start: &[usize], order: &'_ [u32], case: u32| -> Vec<u32> {
        let from = start.get(case as usize).copied().unwrap_or(0);
        let to = start.get(case as usize + 1).copied().unwrap_or(from);
        order.get(from..to).map(<[u32]>::to_vec).unwrap_or_default()
    };
    writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
    writeln!(
        out,
        "<testsuites name=\"ra2\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\">"
    )?;
    for (file, list) in &mut suites {
        list.sort_by_key(|&i| case_at(i).map(|c| (c.document, c.line)));
        let (t, f, e) = count(list);
        let file = escape(file, true);
        writeln!(
            out,
            "  <testsuite name=\"{file}\" tests=\"{t}\" failures=\"{f}\" errors=\"{e}\">"
        )?;
        for &i in list.iter() {
            let Some(case) = case_at(i) else { continue };
            let open = format!(
                "    <testcase name=\"{}\" classname=\"{file}\"",
                escape(&case.name, true)
            );
            if !case.failures && !case.errors {
                writeln!(out, "{open}/>")?;
                continue;
            }
            writeln!(out, "{open}>")?;
            for error in group(&error_start, &error_order, i)
                .into_iter()
                .filter_map(|e| store.errors().get(e as usize))
            {
                writeln!(
                    out,
                    "      <error type=\"{}\" message=\"{}\">{}</error>",
                    escape(&error.code, true),
                    escape(&error.message, true),
                    escape(&format!("{}:{}:{}", error.file, error.line, error.column), false)
                )?;
            }
            for finding in group(&finding_start, &finding_order, i)
                .into_iter()
                .filter_map(|f| store.finding_at(f as usize))
            {
                writeln!(
                    out,
                    "      <failure type=\"{}\" message=\"{}\">{}</failure>",
                    finding.severity,
                    escape(
                        &format!("{}/{}: {}", finding.rule, finding.check, finding.message),
                        true
                    ),
                    escape(&failure_body(&finding), false)
                )?;
            }
            writeln!(out, "    </testcase>")?;
        }
        writeln!(out, "  </testsuite>")?;
    }
    out.write_all(b"</testsuites>\n")?;
    out.flush()
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
