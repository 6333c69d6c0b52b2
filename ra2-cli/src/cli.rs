//! The command line: clap definitions and their mapping onto ra2-core's types.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use ra2_core::{Edition, FailOn};
use ra2_run::Format;

/// Lint Kubernetes manifests against the Anuket Reference Architecture 2 (RA2).
#[derive(Debug, Parser)]
#[command(name = "ra2", version, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

// Parsed once per run; without `serve` and `audit` (the pre-commit hook's build) `lint`'s
// arguments are the one large variant.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lint manifests: files, directories (recursively), or `-` for standard input.
    Lint(LintArgs),
    /// Fix manifests: `ra2 lint --fix` (the same arguments).
    Fix(LintArgs),
    /// Audit a live cluster read-only through its API with your kubeconfig (nodes, every
    /// namespace's workloads, NetworkAttachmentDefinitions, CSIDrivers, StorageClasses), plus
    /// kubelet configuration files and any manifests given: platform and workload findings in
    /// one report, in every format of `ra2 lint`.
    #[cfg(feature = "audit")]
    Audit(AuditArgs),
    /// List the rule catalogue.
    Rules(RulesArgs),
    /// Print a rule's documentation: requirement, checks, parameters, examples.
    Explain(ExplainArgs),
    /// Run the admission webhook: HTTPS, `POST /validate` takes an AdmissionReview and answers
    /// with ra2's decision; `/healthz`, `/readyz`, `/metrics`. The certificate and key are
    /// reloaded when they change on disk, the config on SIGHUP or change; SIGTERM drains.
    #[cfg(feature = "serve")]
    Serve(ServeArgs),
    /// Run the language server on standard input and output (the Language Server Protocol):
    /// RA2 findings as diagnostics while manifests are edited, hover text from `ra2 explain`,
    /// quick fixes and `source.fixAll.ra2` from `ra2 lint --fix`'s fixes, the workspace's
    /// `.ra2.yaml`, and a Helm chart's findings on its templates' lines when one is saved.
    #[cfg(feature = "lsp")]
    Lsp(LspArgs),
    /// Export ra2's checks for other enforcement engines.
    #[command(subcommand)]
    Export(ExportCommand),
    /// Print a shell completion script: `ra2 completions bash > /etc/bash_completion.d/ra2`,
    /// `ra2 completions zsh > "${fpath[1]}/_ra2"`, `ra2 completions fish >
    /// ~/.config/fish/completions/ra2.fish`.
    Completions(CompletionsArgs),
    /// Print a man page (roff): `ra2 man > ra2.1` for ra2(1), `ra2 man lint > ra2-lint.1` for
    /// a subcommand's page.
    Man(ManArgs),
}

#[derive(Debug, Subcommand)]
pub enum ExportCommand {
    /// Write ValidatingAdmissionPolicies and their bindings (admissionregistration.k8s.io/v1) as
    /// YAML for `kubectl apply --server-side -f -`: the checks CEL can decide from the one object
    /// under admission, for Pods and every workload kind, under the config's select/ignore,
    /// severities, exemptions and fail-on (at or above: Deny; below: Warn and Audit). A setting
    /// the policies cannot express is an error, never a weaker policy. `--list` shows which
    /// checks are exported, and why the others are not.
    Vap(VapArgs),
}

#[derive(Debug, Args)]
pub struct VapArgs {
    /// Rule set [default: base, or the config file's `edition`].
    #[arg(long, value_enum)]
    pub edition: Option<EditionArg>,

    /// Configuration file [default: `.ra2.yaml` in the working directory or a parent].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// The Kubernetes version the policies are for (`1.33`; at least 1.30) [default: the config
    /// file's `kubernetes-version`, else 1.33].
    #[arg(long, value_name = "VERSION")]
    pub kubernetes_version: Option<String>,

    /// List every check of the edition with whether it is exported and, if not, why; writes no
    /// policy.
    #[arg(long)]
    pub list: bool,

    /// Output format of `--list`.
    #[arg(long, value_enum, default_value_t = DocFormat::Text, requires = "list")]
    pub format: DocFormat,
}

#[cfg(feature = "lsp")]
#[derive(Debug, Args)]
pub struct LspArgs {
    /// Speak over standard input and output (the only transport, and the default; accepted
    /// because some editors pass it).
    #[arg(long)]
    pub stdio: bool,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// The subcommand whose page to print (ra2-<command>(1)); without it, ra2(1).
    pub command: Option<String>,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
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

// Each bool is an independent command-line switch.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Args)]
pub struct LintArgs {
    /// Files or directories (recursively: *.yaml, *.yml, *.json; hidden entries and files that
    /// are not Kubernetes manifests skipped); `-` reads standard input. Default: the current
    /// directory.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

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

    /// Strict mode: also validate every object against the full Kubernetes OpenAPI schema of
    /// its kind (missing required fields, other schema violations; rule `schema`). Unknown
    /// fields and wrong types are reported in every run, as `k8s.api`. Same as `strict: true`
    /// in the config file.
    #[arg(long)]
    pub strict: bool,

    /// Skip files and documents that are not Kubernetes manifests (kustomization files,
    /// Chart.yaml, values*.yaml, docker-compose files, CI configs, documents with neither
    /// apiVersion nor kind) also when named explicitly or read from standard input; directory
    /// walks always skip them. They are counted in the summary. Same as `skip-non-k8s: true`
    /// in the config file.
    #[arg(long)]
    pub skip_non_k8s: bool,

    /// Also lint what ignore files leave out when walking a directory. By default a walk
    /// skips, as ripgrep does, what `.gitignore` (inside a git repository), `.ignore`,
    /// `.git/info/exclude` and git's global excludes file exclude; files named explicitly are
    /// always linted.
    #[arg(long)]
    pub no_ignore: bool,

    /// Render each PATH that is a kustomization directory with kustomize (`$RA2_KUSTOMIZE`,
    /// else `kustomize` or `kubectl kustomize` on PATH) and lint the output instead of the
    /// directory's files, as `kubectl kustomize DIR | ra2 lint -` would.
    #[arg(long)]
    pub kustomize: bool,

    /// Ignore any `.ra2.yaml`: use defaults and the command line only.
    #[arg(long, conflicts_with = "config")]
    pub no_config: bool,

    #[command(flatten)]
    pub limits: LimitArgs,

    /// Lint files on this many threads [default: the available cores]. The output is the
    /// same, byte for byte, whatever the number.
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,

    /// Findings, errors and objects held before the output starts to stream: text, github
    /// and jsonl print as documents are linted, json, sarif and junit keep a compact form
    /// (see the README's "Large inputs"); 0 streams from the start.
    #[arg(long, value_name = "N", default_value_t = ra2_run::stream::STREAM_AFTER)]
    pub stream_after: usize,

    /// Act as a Helm post-renderer: read the manifests from standard input and copy them
    /// unchanged to standard output when they pass; otherwise print nothing there, write the
    /// report to standard error and exit 1 (or 2). A passing report with findings below
    /// `--fail-on` also goes to standard error.
    #[arg(long)]
    pub post_render: bool,

    /// Where the Helm chart of `helm template` output is: its directory or one above it.
    /// Findings move to the template line that wrote them (`# Source:` names the template).
    /// [default: the working directory, then a bounded search below it for the Chart.yaml
    /// of that name]
    #[arg(long, value_name = "DIR")]
    pub chart_root: Option<PathBuf>,

    /// Notes in full: name each Helm chart that `# Source:` comments name and that is not
    /// found (by default, a run over the output of many charts says so in one note)
    #[arg(long, short = 'v')]
    pub verbose: bool,

    /// The directory that SARIF, GitHub and Code Quality paths are relative to (SARIF:
    /// `%SRCROOT%`), so a file has one path however it was named [default: the git work tree
    /// that holds the working directory, else the working directory]
    #[arg(long, value_name = "DIR")]
    pub source_root: Option<PathBuf>,

    /// SARIF `runs[0].automationDetails.id`: tells code scanning apart two uploads for one
    /// commit (two charts, two editions), which would otherwise replace each other's alerts.
    #[arg(long, value_name = "ID")]
    pub category: Option<String>,

    /// Report only findings that this baseline file does not record (written by
    /// `--write-baseline`); the summary counts the findings it hid (`baselined`) and those it
    /// records that are gone (`stale`). Same as `baseline: FILE` in the config file.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,

    /// Record every current finding in this baseline file (sorted JSON, to commit), print
    /// the report as usual and exit 0 (2 if some input could not be read).
    #[arg(long, value_name = "FILE", conflicts_with = "baseline")]
    pub write_baseline: Option<PathBuf>,

    /// Apply every safe fix in place (files are rewritten atomically; `-` writes the fixed
    /// stream to standard output and the findings that remain to standard error), then report
    /// what remains. A fix changes only the nodes it edits, and is dropped (with a note) when
    /// the result would not parse or would gain a finding. `ra2 fix` is the same.
    ///
    /// Helm output whose chart is found (as for --chart-root) is fixed in the chart: the
    /// template where it writes the key literally, values.yaml where the value comes from one
    /// `.Values` path; the rendered file (or, from `-`, standard output) becomes the output as
    /// the fixed chart renders it. Other fixes stay suggestions at their template lines (a
    /// note counts them; --verbose lists each).
    #[arg(long)]
    pub fix: bool,

    /// With --fix or --diff, apply the unsafe fixes too (those that may change how the
    /// workload runs: `ra2 explain` says which and why).
    #[arg(long)]
    pub unsafe_fixes: bool,

    /// Print the fixes as a unified diff and write nothing; exit 1 when something would
    /// change. Helm output: the diffs of the chart's files and of the rendered output.
    #[arg(long)]
    pub diff: bool,
}

impl LintArgs {
    /// The options of the run.
    pub fn options(&self) -> ra2_run::Options {
        ra2_run::Options {
            paths: self.paths.clone(),
            format: self.format,
            fail_on: self.fail_on.map(Into::into),
            select: self.select.clone(),
            ignore: self.ignore.clone(),
            edition: self.edition.map(Into::into),
            config: self.config.clone(),
            no_config: self.no_config,
            strict: self.strict,
            skip_non_k8s: self.skip_non_k8s,
            no_ignore: self.no_ignore,
            kustomize: self.kustomize,
            limits: self.limits.overrides(),
            jobs: self.jobs.map(usize::from),
            stream_after: self.stream_after,
            post_render: self.post_render,
            chart_root: self.chart_root.clone(),
            source_root: self.source_root.clone(),
            category: self.category.clone(),
            baseline: self.baseline.clone(),
            write_baseline: self.write_baseline.clone(),
            fix: self.fix,
            unsafe_fixes: self.unsafe_fixes,
            diff: self.diff,
            verbose: self.verbose,
        }
    }
}

#[cfg(feature = "audit")]
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// The kubeconfig [default: the first file of $KUBECONFIG, else ~/.kube/config].
    #[arg(long, value_name = "FILE")]
    pub kubeconfig: Option<PathBuf>,

    /// The kubeconfig context to use [default: its current-context].
    #[arg(long, value_name = "NAME")]
    pub context: Option<String>,

    /// A kubelet configuration file (KubeletConfiguration) of the cluster's nodes; repeatable.
    #[arg(long, value_name = "FILE")]
    pub kubelet_config: Vec<PathBuf>,

    /// Objects per list request (the API server's `limit`; larger lists come in pages).
    #[arg(long, value_name = "N", default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..))]
    pub page_size: u32,

    /// Also read each node's running kubelet configuration from its `configz` endpoint, through
    /// the API server's node proxy (needs the `nodes/proxy` get permission; a node whose
    /// kubelet cannot be reached is noted and skipped).
    #[arg(long)]
    pub configz: bool,

    /// The options of `ra2 lint`; PATHs are extra manifests (kubeadm configuration, static pod
    /// manifests) read with the cluster.
    #[command(flatten)]
    pub lint: LintArgs,
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Output format: an aligned table, or the rule documents as a JSON array.
    #[arg(long, value_enum, default_value_t = DocFormat::Text)]
    pub format: DocFormat,

    /// List the rules of this edition, with their severity in it [default: base, or the
    /// `edition` of the `.ra2.yaml` in the working directory or a parent].
    #[arg(long, value_enum)]
    pub edition: Option<EditionArg>,

    /// Also list the RA2 chapter-4 requirements ra2 cannot check statically, with the reason
    /// (in JSON: an object with `rules` and `unchecked` instead of the bare array).
    #[arg(long)]
    pub all: bool,
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

#[cfg(feature = "serve")]
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address and port to listen on (HTTPS only).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8443")]
    pub listen: std::net::SocketAddr,

    /// Serving certificate chain, PEM (reloaded when it changes).
    #[arg(long, value_name = "FILE")]
    pub cert: PathBuf,

    /// Private key of the certificate, PEM (reloaded when it changes).
    #[arg(long, value_name = "FILE")]
    pub key: PathBuf,

    /// Settings: a `.ra2.yaml` (edition, fail-on, select, ignore, severity, params,
    /// exemptions), reloaded on SIGHUP or change; a bad new file is refused and the old kept.
    /// Without it, the defaults.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Log one JSON line per admission request on standard error.
    #[arg(long)]
    pub access_log: bool,

    /// Requests judged at once; more are answered 503 straight away.
    #[arg(long, value_name = "N", default_value_t = 1024)]
    pub max_in_flight: usize,

    /// Longest request body, in bytes; longer ones are answered 413 (the default holds the
    /// largest AdmissionReview an API server sends: a 3 MiB object and its old version).
    #[arg(long, value_name = "BYTES", default_value_t = ra2_serve::limits::MAX_BODY_BYTES,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub max_body_bytes: usize,

    /// Seconds to read a request and answer it; slower ones are answered 408 or 503 (the API
    /// server waits at most its webhook's timeoutSeconds, 10 by default, 30 at most).
    #[arg(long, value_name = "SECONDS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=30))]
    pub request_timeout: u64,

    #[command(flatten)]
    pub limits: LimitArgs,
}

/// The limits on one document, shared by `ra2 lint` and `ra2 serve`.
#[derive(Args, Debug, Clone, Default)]
pub struct LimitArgs {
    /// Largest document ra2 reads, in bytes (bounds memory) [default: 33554432, or the config
    /// file's `limits.max-document-bytes`].
    #[arg(long, value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_document_bytes: Option<u64>,

    /// Deepest nesting of mappings and lists ra2 reads (bounds the stack) [default: 256, or
    /// the config file's `limits.max-depth`].
    #[arg(long, value_name = "LEVELS", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_depth: Option<u64>,

    /// Nodes that aliases and merge keys may add to a document (stops YAML bombs) [default:
    /// 1000000, or the config file's `limits.max-alias-expansion`].
    #[arg(long, value_name = "NODES", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_alias_expansion: Option<u64>,
}

impl LimitArgs {
    /// The limits set on the command line.
    pub fn overrides(&self) -> ra2_core::doc::LimitOverrides {
        let size = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        ra2_core::doc::LimitOverrides {
            max_document_bytes: self.max_document_bytes.map(size),
            max_depth: self.max_depth.map(size),
            max_alias_expansion: self.max_alias_expansion,
        }
    }
}
