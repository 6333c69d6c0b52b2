//! ra2-run: one `ra2 lint` run, from a plain [`Options`] to the bytes on standard output and the
//! exit status. Reads the inputs (ra2-input), lints them (ra2-core, with ra2-strict in strict
//! mode), maps Helm output onto its chart's templates, and writes the report in any format: the
//! terminal text here, the machine formats from ra2-report.
//!
//! Two faces parse their own command line into [`Options`] and call [`lint`]: the `ra2` command
//! (clap, in ra2-cli, which also runs `ra2 audit` through [`run`]) and `python -m ra2`
//! (argparse, in ra2-py). No command-line parser is linked here, so the Python extension does
//! not carry the CLI's.

use std::path::PathBuf;

use ra2_core::doc::LimitOverrides;
use ra2_core::{Edition, FailOn};

mod baseline;
pub mod chart;
mod conformance;
mod fix;
mod helm_fix;
mod helm_place;
pub mod kustomize;
pub mod policyreport;
pub mod render;
mod run;
pub mod settings;
pub mod source_root;
pub mod stream;
pub mod template_map;

pub use ra2_report::{EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, exit_status};
pub use run::{DEFAULT_WIDTH, Inputs, emit, lint, new_linter, run, terminal_width, warn};

/// Output formats of `ra2 lint` (`--format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Format {
    /// Diagnostics with source snippets (colour on a terminal).
    #[default]
    Text,
    /// The JSON output contract, version 1.
    Json,
    /// JSON Lines: a finding or error object per line in input order, then a summary line.
    Jsonl,
    /// SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
    Sarif,
    /// JUnit XML: a test suite per file, a test case per object, a failure per finding.
    Junit,
    /// GitHub Actions workflow commands: an annotation per finding.
    Github,
    /// GitLab Code Quality (Code Climate JSON): findings on the merge request's diff.
    Codeclimate,
    /// Kubernetes PolicyReports (wgpolicyk8s.io/v1alpha2, a YAML stream for `kubectl create
    /// -f`): one per namespace, a ClusterPolicyReport for cluster-scoped objects.
    Policyreport,
    /// OpenReports (openreports.io/v1alpha1, where the Policy working group's reports moved):
    /// the same reports as Report and ClusterReport objects.
    Openreports,
    /// The RA2 conformance summary in Markdown (a CI job summary, a pull-request comment):
    /// the requirement matrix and the top findings, within GitHub's 1 MiB limit.
    Markdown,
    /// The RA2 conformance report as one self-contained HTML page: the requirement matrix,
    /// overall and per object, then the findings by requirement with their source lines.
    Html,
}

impl Format {
    /// Every format, in `--help`'s order.
    pub const ALL: [Format; 11] = [
        Format::Text,
        Format::Json,
        Format::Jsonl,
        Format::Sarif,
        Format::Junit,
        Format::Github,
        Format::Codeclimate,
        Format::Policyreport,
        Format::Openreports,
        Format::Markdown,
        Format::Html,
    ];

    /// The format's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Jsonl => "jsonl",
            Format::Sarif => "sarif",
            Format::Junit => "junit",
            Format::Github => "github",
            Format::Codeclimate => "codeclimate",
            Format::Policyreport => "policyreport",
            Format::Openreports => "openreports",
            Format::Markdown => "markdown",
            Format::Html => "html",
        }
    }

    /// The report API of `policyreport` and `openreports`; `None` for the other formats.
    pub fn report_api(self) -> Option<ra2_report::policyreport::Api> {
        match self {
            Format::Policyreport => Some(ra2_report::policyreport::Api::PolicyReport),
            Format::Openreports => Some(ra2_report::policyreport::Api::OpenReports),
            _ => None,
        }
    }

    /// The format of that name.
    pub fn parse(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// Everything `ra2 lint` takes, as plain values: each field is the flag of the same name.
// Each bool is an independent command-line switch.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Debug)]
pub struct Options {
    /// Files or directories; `-` is standard input; none: the working directory.
    pub paths: Vec<PathBuf>,
    pub format: Format,
    /// `None`: the config file's, else `error`.
    pub fail_on: Option<FailOn>,
    /// Replace the config file's `select` and `ignore` when not empty.
    pub select: Vec<String>,
    pub ignore: Vec<String>,
    /// `None`: the config file's, else base.
    pub edition: Option<Edition>,
    /// The config file; `None`: `.ra2.yaml` in the working directory or a parent.
    pub config: Option<PathBuf>,
    /// Read no config file.
    pub no_config: bool,
    pub strict: bool,
    pub skip_non_k8s: bool,
    /// Directory walks lint what `.gitignore`, `.ignore` and git's excludes leave out too.
    pub no_ignore: bool,
    pub kustomize: bool,
    pub limits: LimitOverrides,
    /// Threads; `None`: the available cores (0 counts as 1).
    pub jobs: Option<usize>,
    /// Findings, errors and objects held before output streams.
    pub stream_after: usize,
    pub post_render: bool,
    pub chart_root: Option<PathBuf>,
    pub source_root: Option<PathBuf>,
    /// SARIF `runs[0].automationDetails.id`.
    pub category: Option<String>,
    /// Report only findings this baseline file does not record (`None`: the config file's
    /// `baseline`, if any).
    pub baseline: Option<PathBuf>,
    /// Record every finding in this baseline file.
    pub write_baseline: Option<PathBuf>,
    /// Apply the safe fixes to the files (`-`: write the fixed stream to standard output),
    /// then report what remains.
    pub fix: bool,
    /// With `fix` or `diff`: the unsafe fixes too.
    pub unsafe_fixes: bool,
    /// Print the fixes as a unified diff and write nothing; exit 1 when something would change.
    pub diff: bool,
    /// Notes in full: each Helm chart not found is named in a note of its own.
    pub verbose: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            paths: Vec::new(),
            format: Format::Text,
            fail_on: None,
            select: Vec::new(),
            ignore: Vec::new(),
            edition: None,
            config: None,
            no_config: false,
            strict: false,
            skip_non_k8s: false,
            no_ignore: false,
            kustomize: false,
            limits: LimitOverrides::default(),
            jobs: None,
            stream_after: stream::STREAM_AFTER,
            post_render: false,
            chart_root: None,
            source_root: None,
            category: None,
            baseline: None,
            write_baseline: None,
            fix: false,
            unsafe_fixes: false,
            diff: false,
            verbose: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_names_round_trip() {
        for format in Format::ALL {
            assert_eq!(Format::parse(format.name()), Some(format));
        }
        assert_eq!(Format::parse("yaml"), None);
    }

    /// The `ra2` command's `--format` values are these names.
    #[cfg(feature = "clap")]
    #[test]
    fn clap_values_are_the_names() {
        use clap::ValueEnum as _;
        let clap: Vec<String> = Format::value_variants()
            .iter()
            .filter_map(|f| f.to_possible_value().map(|v| v.get_name().to_owned()))
            .collect();
        let ours: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        assert_eq!(clap, ours);
    }
}
