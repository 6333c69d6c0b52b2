//! The command line: clap definitions and their mapping onto ra2-core's types.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use ra2_core::{Edition, FailOn};

/// Lint Kubernetes manifests against the Anuket Reference Architecture 2 (RA2).
#[derive(Debug, Parser)]
#[command(name = "ra2", version, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lint manifests: files, directories (recursively), or `-` for standard input.
    Lint(LintArgs),
    /// List the rule catalogue.
    Rules(RulesArgs),
    /// Print a rule's documentation: requirement, checks, parameters, examples.
    Explain(ExplainArgs),
}

/// Output formats of `ra2 lint`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LintFormat {
    /// Diagnostics with source snippets (colour on a terminal).
    Text,
    /// The JSON output contract, version 1.
    Json,
    /// SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
    Sarif,
    /// JUnit XML: a test suite per file, a test case per object, a failure per finding.
    Junit,
    /// GitHub Actions workflow commands: an annotation per finding.
    Github,
}

/// Output formats of `ra2 rules` and `ra2 explain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DocFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FailOnArg {
    Error,
    Warning,
    Info,
    Never,
}

impl From<FailOnArg> for FailOn {
    fn from(value: FailOnArg) -> Self {
        match value {
            FailOnArg::Error => FailOn::Error,
            FailOnArg::Warning => FailOn::Warning,
            FailOnArg::Info => FailOn::Info,
            FailOnArg::Never => FailOn::Never,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EditionArg {
    /// The RA2 rule set ra2 is built on (default).
    Base,
    /// The newest RA2 rules.
    Latest,
}

impl From<EditionArg> for Edition {
    fn from(value: EditionArg) -> Self {
        match value {
            EditionArg::Base => Edition::Base,
            EditionArg::Latest => Edition::Latest,
        }
    }
}

#[derive(Debug, Args)]
pub struct LintArgs {
    /// Files or directories (recursively: *.yaml, *.yml, *.json; hidden entries skipped);
    /// `-` reads standard input. Default: the current directory.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = LintFormat::Text)]
    pub format: LintFormat,

    /// Exit with status 1 when a finding is at or above this severity [default: error].
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub fail_on: Option<FailOnArg>,

    /// Run only these rules: ids, prefixes (`ra2.app`) or `id/check`; repeatable or
    /// comma-separated. Replaces the config file's `select`.
    #[arg(long, value_name = "RULE", value_delimiter = ',')]
    pub select: Vec<String>,

    /// Skip these rules: ids, prefixes or `id/check`; repeatable or comma-separated. Replaces
    /// the config file's `ignore`.
    #[arg(long, value_name = "RULE", value_delimiter = ',')]
    pub ignore: Vec<String>,

    /// Rule set [default: base, or the config file's `edition`].
    #[arg(long, value_enum)]
    pub edition: Option<EditionArg>,

    /// Configuration file [default: `.ra2.yaml` in the working directory or a parent].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Strict mode: also check every object against the Kubernetes OpenAPI schema of its
    /// kind (unknown or misspelt fields, wrong types, missing required fields; rule `schema`).
    /// Same as `strict: true` in the config file.
    #[arg(long)]
    pub strict: bool,

    /// Ignore any `.ra2.yaml`: use defaults and the command line only.
    #[arg(long, conflicts_with = "config")]
    pub no_config: bool,

    /// Lint files on this many threads [default: the available cores]. The output is the
    /// same, byte for byte, whatever the number.
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,

    /// Act as a Helm post-renderer: read the manifests from standard input and copy them
    /// unchanged to standard output when they pass; otherwise print nothing there, write the
    /// report to standard error and exit 1 (or 2). A passing report with findings below
    /// `--fail-on` also goes to standard error.
    #[arg(long)]
    pub post_render: bool,
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Output format: an aligned table, or the rule documents as a JSON array.
    #[arg(long, value_enum, default_value_t = DocFormat::Text)]
    pub format: DocFormat,

    /// List the rules of this edition, with their severity in it.
    #[arg(long, value_enum, default_value_t = EditionArg::Base)]
    pub edition: EditionArg,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A rule id (`ra2.app.007`) or one of its checks (`ra2.app.007/host-path`).
    #[arg(value_name = "RULE")]
    pub rule: String,

    /// Output format: readable text, or the rule document as JSON.
    #[arg(long, value_enum, default_value_t = DocFormat::Text)]
    pub format: DocFormat,
}
