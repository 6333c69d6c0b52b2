//! Helm charts: when a template or values file is saved, the chart is rendered with the real
//! helm (`helm template`, on a thread of its own), the output linted, and each finding put on
//! the line of the template that wrote it (ra2-run's mapping, as `helm template | ra2 lint -`
//! does). A render that fails gives one diagnostic saying why, on the template helm names (or
//! the saved file). Only the newest render of a chart publishes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_types::{Diagnostic, DiagnosticSeverity, NumberOrString, Range, Url};
use ra2_core::{Config, Finding};

use crate::diagnostics::{SOURCE, lint, of_finding};
use crate::position::Lines;
use crate::server::{Shared, publish};
use crate::worker::lock;

/// Renders `chart` (saved: `saved`) off the main loop and publishes its templates' diagnostics.
pub(crate) fn render(shared: &Arc<Shared>, chart: PathBuf, saved: PathBuf) {
    let (generation, helm, config) = {
        let mut state = lock(shared);
        let entry = state.charts.entry(chart.clone()).or_default();
        entry.0 += 1;
        let generation = entry.0;
        (generation, state.workspace.helm.clone(), state.workspace.config.clone())
    };
    let shared = shared.clone();
    std::thread::spawn(move || {
        let published = diagnostics(&helm, &chart, &saved, &config);
        let mut state = lock(&shared);
        let entry = state.charts.entry(chart).or_default();
        if entry.0 != generation {
            // A newer render is on its way.
            return;
        }
        let old = std::mem::replace(&mut entry.1, published.keys().cloned().collect::<BTreeSet<_>>());
        for uri in old.iter().filter(|u| !published.contains_key(*u)) {
            publish(&shared.sender, uri, None, Vec::new());
            state.templates.remove(uri);
        }
        for (uri, Published { diagnostics, findings }) in published {
            publish(&shared.sender, &uri, None, diagnostics);
            state.templates.insert(uri, findings);
        }
    });
}

/// What a render publishes on one file: its diagnostics, and the findings among them (for
/// hover).
#[derive(Debug, Default)]
struct Published {
    diagnostics: Vec<Diagnostic>,
    findings: Vec<(Finding, Range)>,
}

/// The diagnostics of a render of `chart`, by template.
fn diagnostics(helm: &Path, chart: &Path, saved: &Path, config: &Config) -> BTreeMap<Url, Published> {
    let mut out: BTreeMap<Url, Published> = BTreeMap::new();
    let output = std::process::Command::new(helm)
        .arg("template")
        .arg(chart)
        .current_dir(chart)
        .stdin(std::process::Stdio::null())
        .output();
    let rendered = match output {
        Err(e) => {
            let message = format!(
                "cannot run helm ({}): {e}; put helm on PATH or set the `helm` initialization option",
                helm.display()
            );
            add(&mut out, saved, None, message);
            return out;
        }
        Ok(output) if !output.status.success() => {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let (file, line) = failed_template(&stderr, chart).unwrap_or((saved.to_path_buf(), None));
            let reason = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("helm failed");
            let reason = reason.trim().strip_prefix("Error: ").unwrap_or(reason.trim());
            add(&mut out, &file, line, format!("the chart does not render: {reason}"));
            return out;
        }
        Ok(output) => String::from_utf8_lossy(&output.stdout).into_owned(),
    };
    let name = format!("<helm template {}>", chart.display());
    let mut report = lint(&name, &rendered, config);
    let mut charts = ra2_run::chart::Charts::new(Some(chart));
    charts.map_report(&mut report);
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut texts: BTreeMap<PathBuf, String> = BTreeMap::new();
    for finding in &report.findings {
        let Some(template) = &finding.template else {
            let source = finding.source_template.as_deref().unwrap_or("the rendered chart");
            let message = format!(
                "{}/{} in {source} (not mapped to a template line): {}",
                finding.rule, finding.check, finding.message
            );
            add(&mut out, &chart.join("Chart.yaml"), None, message);
            continue;
        };
        let path = cwd.join(&template.file);
        let Ok(uri) = Url::from_file_path(&path) else { continue };
        let text = texts
            .entry(path.clone())
            .or_insert_with(|| std::fs::read_to_string(&path).unwrap_or_default());
        let lines = Lines::new(text);
        let start = lines.of_ra2(template.line, template.column);
        let end = lines.line_range(start.line as usize).end.max(start);
        let range = Range::new(start, end);
        let mut diagnostic = of_finding(&uri, finding, range, &lines);
        // Related places are in the rendered output, which has no file.
        diagnostic.related_information = None;
        let published = out.entry(uri).or_default();
        published.diagnostics.push(diagnostic);
        published.findings.push((finding.clone(), range));
    }
    for error in &report.errors {
        add(
            &mut out,
            saved,
            None,
            format!("the rendered chart cannot be read: {}", error.message),
        );
    }
    // Every template of the chart gets its (maybe empty) list, so fixed ones are cleared.
    for template in templates(chart) {
        if let Ok(uri) = Url::from_file_path(&template) {
            out.entry(uri).or_default();
        }
    }
    out
}

/// One error diagnostic on `file`, at its 1-based `line` (whole line) or its first line.
fn add(out: &mut BTreeMap<Url, Published>, file: &Path, line: Option<usize>, message: String) {
    let Ok(uri) = Url::from_file_path(file) else { return };
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let lines = Lines::new(&text);
    out.entry(uri).or_default().diagnostics.push(Diagnostic {
        range: lines.line_range(line.unwrap_or(1).saturating_sub(1)),
        severity: Some(DiagnosticSeverity::ERROR),
        code: Some(NumberOrString::String("helm".to_owned())),
        code_description: None,
        source: Some(SOURCE.to_owned()),
        message,
        related_information: None,
        tags: None,
        data: None,
    });
}

/// The template (and line) a helm error names: `parse error at (demo/templates/x.yaml:7)`,
/// `template: demo/templates/x.yaml:7:20: executing ...`, `YAML parse error on
/// demo/templates/x.yaml: ...`.
fn failed_template(stderr: &str, chart: &Path) -> Option<(PathBuf, Option<usize>)> {
    stderr
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .find_map(|token| {
            if !token.contains("/templates/") {
                return None;
            }
            // Below the chart's name: `templates/x.yaml`, `charts/sub/templates/x.yaml`.
            let rest = token.split_once('/')?.1;
            let mut parts = rest.split(':');
            let path = chart.join(parts.next()?);
            let line = parts.next().and_then(|l| l.parse().ok());
            path.is_file().then_some((path, line))
        })
}

/// The files under the chart's `templates/` (not its subcharts').
fn templates(chart: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![chart.join("templates")];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helm_errors_name_their_template() {
        let chart = std::env::temp_dir().join(format!("ra2-lsp-helm-{}", std::process::id()));
        let _ = std::fs::create_dir_all(chart.join("templates"));
        let _ = std::fs::write(chart.join("templates/x.yaml"), "a: 1\n");
        let x = chart.join("templates/x.yaml");
        assert_eq!(
            failed_template(
                "Error: parse error at (demo/templates/x.yaml:7): unexpected \"}\" in operand\n",
                &chart
            ),
            Some((x.clone(), Some(7)))
        );
        assert_eq!(
            failed_template(
                "Error: template: demo/templates/x.yaml:3:20: executing \"demo/templates/x.yaml\" at <.Values.a.b>: nil pointer\n",
                &chart
            ),
            Some((x.clone(), Some(3)))
        );
        assert_eq!(
            failed_template(
                "Error: YAML parse error on demo/templates/x.yaml: error converting YAML to JSON\n",
                &chart
            ),
            Some((x, None))
        );
        assert_eq!(failed_template("Error: Chart.yaml file is missing\n", &chart), None);
        let _ = std::fs::remove_dir_all(&chart);
    }
}
