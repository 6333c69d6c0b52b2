//! `--format markdown` and `--format html` of `ra2 lint` and `ra2 audit`: the RA2 conformance
//! reports people read ([`ra2_report::conformance`], [`ra2_report::markdown`],
//! [`ra2_report::html`]). What the command adds: the settings the matrix is judged with, links
//! to the repository on GitHub Actions, and the source lines of the HTML page, read from the
//! inputs (standard input from what the run kept) and the chart templates findings map to.

use std::collections::BTreeMap;

use ra2_core::Report;

use crate::{Format, Options};

/// `$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/blob/$GITHUB_SHA/` inside a GitHub Actions job, for
/// links from the Markdown summary to the lines of the checkout.
fn github_blob_base() -> Option<String> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    if var("GITHUB_ACTIONS").as_deref() != Some("true") {
        return None;
    }
    Some(format!(
        "{}/{}/blob/{}/",
        var("GITHUB_SERVER_URL")?.trim_end_matches('/'),
        var("GITHUB_REPOSITORY")?,
        var("GITHUB_SHA")?
    ))
}

/// What was judged, for the page's heading: `ra2 audit <server>` for a cluster's listings, else
/// `ra2 lint <paths>`.
fn title(options: &Options, report: &Report) -> String {
    if let Some(server) = report
        .objects
        .iter()
        .find_map(|o| o.file.strip_prefix("https://").and_then(|rest| rest.split('/').next()))
    {
        return format!("ra2 audit https://{server}");
    }
    let paths: Vec<String> = options.paths.iter().map(|p| p.display().to_string()).collect();
    if paths.is_empty() {
        "ra2 lint .".to_owned()
    } else {
        format!("ra2 lint {}", paths.join(" "))
    }
}

/// The Markdown summary or the HTML page of a run.
pub(crate) fn render(
    options: &Options,
    config: &ra2_core::Config,
    report: &Report,
    sources: &BTreeMap<String, String>,
) -> String {
    let matrix = ra2_report::conformance::matrix(report, config);
    if options.format == Format::Markdown {
        let base = github_blob_base();
        let markdown = ra2_report::markdown::Options {
            link_base: base.as_deref(),
            ..ra2_report::markdown::Options::new()
        };
        return ra2_report::markdown::render(report, &matrix, &markdown);
    }
    let read = |file: &str| -> Option<String> {
        sources.get(file).cloned().or_else(|| {
            let path = std::path::Path::new(file);
            // Only files of the run's inputs or their templates: regular files, not too large.
            let meta = std::fs::metadata(path).ok()?;
            (meta.is_file() && meta.len() <= 64 * 1024 * 1024)
                .then(|| std::fs::read_to_string(path).ok())
                .flatten()
        })
    };
    let title = title(options, report);
    let html = ra2_report::html::Options {
        source: Some(&read),
        title: &title,
        ..ra2_report::html::Options::default()
    };
    ra2_report::html::render(report, &matrix, &html)
}
