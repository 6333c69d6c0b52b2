//! The subcommands: what each reads, what it prints, and its exit status.

use ra2_run::{DEFAULT_WIDTH, EXIT_ERROR, EXIT_OK, emit, settings, terminal_width, warn};

use crate::cli::{Cli, Command, DocFormat, ExplainArgs, ExportCommand, RulesArgs, VapArgs};

pub fn run(cli: Cli) -> u8 {
    match cli.command {
        Command::Lint(args) => ra2_run::lint(&args.options()),
        Command::Fix(args) => ra2_run::lint(&ra2_run::Options {
            fix: true,
            ..args.options()
        }),
        #[cfg(feature = "audit")]
        Command::Audit(args) => crate::audit::run(&args),
        Command::Rules(args) => rules(&args),
        Command::Explain(args) => explain(&args),
        Command::Export(ExportCommand::Vap(args)) => export_vap(&args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve(&args),
        #[cfg(feature = "lsp")]
        Command::Lsp(_) => lsp(),
        Command::Completions(args) => {
            let mut out = Vec::new();
            clap_complete::generate(
                args.shell,
                &mut <Cli as clap::CommandFactory>::command(),
                "ra2",
                &mut out,
            );
            emit(&String::from_utf8_lossy(&out));
            EXIT_OK
        }
        Command::Man(args) => man(args.command.as_deref()),
    }
}

/// `ra2 man [COMMAND]`: ra2(1), or ra2-COMMAND(1) for a subcommand.
fn man(command: Option<&str>) -> u8 {
    let mut ra2 = <Cli as clap::CommandFactory>::command();
    // Building names each subcommand for its page: ra2-lint, ra2-serve, ...
    ra2.build();
    let page = match command {
        None => ra2,
        Some(name) => {
            let Some(sub) = ra2.find_subcommand(name) else {
                let names: Vec<&str> = ra2.get_subcommands().map(clap::Command::get_name).collect();
                warn(&[format!("error: no command {name:?} (commands: {})", names.join(", "))]);
                return EXIT_ERROR;
            };
            sub.clone()
        }
    };
    let mut out = Vec::new();
    match clap_mangen::Man::new(page).render(&mut out) {
        Ok(()) => {
            emit(&String::from_utf8_lossy(&out));
            EXIT_OK
        }
        Err(e) => {
            warn(&[format!("error: cannot render the man page: {e}")]);
            EXIT_ERROR
        }
    }
}

/// `ra2 serve`: runs until SIGTERM; exit 0 when drained, 2 when it cannot start.
#[cfg(feature = "serve")]
fn serve(args: &crate::cli::ServeArgs) -> u8 {
    let mut options = ra2_serve::Options::new(args.listen, args.cert.clone(), args.key.clone(), args.config.clone());
    options.access_log = args.access_log;
    options.limits.max_in_flight = args.max_in_flight.max(1);
    options.limits.max_body_bytes = args.max_body_bytes;
    options.limits.request_timeout = std::time::Duration::from_secs(args.request_timeout);
    options.document_limits = args.limits.overrides();
    match ra2_serve::server::run_until_signalled(&options) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            warn(&[format!("error: {e}")]);
            EXIT_ERROR
        }
    }
}

/// `ra2 lsp`: serves until the client exits; 2 when the connection fails.
#[cfg(feature = "lsp")]
fn lsp() -> u8 {
    match ra2_lsp::run_stdio(&ra2_lsp::Options::default()) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            warn(&[format!("error: {e}")]);
            EXIT_ERROR
        }
    }
}

/// `ra2 rules`.
pub fn rules(args: &RulesArgs) -> u8 {
    // The edition `ra2 lint` would run here: the flag, else `.ra2.yaml`'s, else base.
    let edition = match args.edition {
        Some(edition) => edition.into(),
        None => match ra2_input::config::load(None) {
            Ok(config) => config.edition,
            Err(e) => {
                warn(&e.lines());
                return EXIT_ERROR;
            }
        },
    };
    let mut output = match (args.format, args.all) {
        (DocFormat::Text, false) => ra2_report::catalogue::rules_table(edition),
        (DocFormat::Json, false) => ra2_report::catalogue::rules_json(edition),
        (DocFormat::Text, true) => ra2_report::catalogue::rules_table_all(
            edition,
            terminal_width().unwrap_or(DEFAULT_WIDTH).min(DEFAULT_WIDTH),
        ),
        (DocFormat::Json, true) => ra2_report::catalogue::rules_json_all(edition),
    };
    if !output.ends_with('\n') {
        output.push('\n');
    }
    emit(&output);
    EXIT_OK
}

/// `ra2 export vap`: the policies on standard output, or with `--list` what is exported.
pub fn export_vap(args: &VapArgs) -> u8 {
    use std::fmt::Write as _;
    let mut config = match ra2_input::config::load(args.config.as_deref()) {
        Ok(config) => config,
        Err(e) => {
            warn(&e.lines());
            return EXIT_ERROR;
        }
    };
    if let Some(edition) = args.edition {
        config.edition = edition.into();
    }
    // Waivers that have lapsed by today are not exported (as `ra2 lint` no longer applies them).
    match settings::today() {
        Ok(today) => config.today = Some(today),
        Err(lines) => {
            warn(&lines);
            return EXIT_ERROR;
        }
    }
    if let Some(version) = &args.kubernetes_version {
        let Some(minor) = ra2_core::config::parse_kubernetes_version(version) else {
            warn(&[format!(
                "error: --kubernetes-version must be a version like \"1.33\", found {version:?}"
            )]);
            return EXIT_ERROR;
        };
        config.kubernetes_minor = minor;
    }
    if args.list {
        let listed = ra2_core::export::vap::list(config.edition);
        let output = match args.format {
            DocFormat::Json => serde_json::to_string_pretty(&listed).unwrap_or_default() + "\n",
            DocFormat::Text => vap_list_text(&listed),
        };
        emit(&output);
        return EXIT_OK;
    }
    match ra2_core::export::vap::generate(&config) {
        Ok((objects, summary)) => {
            let mut output = format!(
                "# ra2 export vap: edition {}, fail-on {}, Kubernetes 1.{}: {} checks deny, {} warn; {} checks of the run are not exported (ra2 export vap --list)\n",
                config.edition.as_str(),
                fail_on_word(config.fail_on),
                config.kubernetes_minor,
                summary.deny,
                summary.warn,
                summary.not_exported
            );
            for lapsed in &summary.lapsed {
                let _ = writeln!(output, "# not exported, its waiver has lapsed: exemption {lapsed}");
            }
            if let Some(date) = &summary.export_again_by {
                let _ = writeln!(
                    output,
                    "# export again by {date}: an exemption stops holding then, and the policies cannot read a clock"
                );
                warn(&[format!(
                    "note: an exemption of these policies stops holding on {date}; the API server cannot tell, so export and apply them again by then"
                )]);
            }
            output.push_str(&ra2_core::export::vap::to_yaml(&objects));
            emit(&output);
            EXIT_OK
        }
        Err(errors) => {
            let lines: Vec<String> = errors.iter().map(|e| format!("error: {e}")).collect();
            warn(&lines);
            EXIT_ERROR
        }
    }
}

fn fail_on_word(fail_on: ra2_core::FailOn) -> &'static str {
    match fail_on {
        ra2_core::FailOn::Error => "error",
        ra2_core::FailOn::Warning => "warning",
        ra2_core::FailOn::Info => "info",
        ra2_core::FailOn::Never => "never",
    }
}

/// `rule/check  yes`, or `no  reason`, one line each, then the count.
fn vap_list_text(listed: &[ra2_core::export::vap::Listed]) -> String {
    use std::fmt::Write as _;
    let width = listed
        .iter()
        .map(|l| l.rule.len() + l.check.len() + 1)
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for l in listed {
        let name = format!("{}/{}", l.rule, l.check);
        let _ = match (l.reason, l.note) {
            (None, Some(note)) => writeln!(out, "{name:width$}  exported ({note})"),
            (None, None) => writeln!(out, "{name:width$}  exported"),
            (Some(reason), _) => writeln!(out, "{name:width$}  not exported: {reason}"),
        };
    }
    let exported = listed.iter().filter(|l| l.exported).count();
    let _ = writeln!(out, "{exported} of {} checks exported", listed.len());
    out
}

/// `ra2 explain`.
pub fn explain(args: &ExplainArgs) -> u8 {
    let wanted = args.rule.trim();
    let (id, check) = match wanted.split_once('/') {
        Some((id, check)) => (id, Some(check)),
        None => (wanted, None),
    };
    let Some(doc) = ra2_core::catalogue::get(id) else {
        warn(&[format!("error: unknown rule {wanted:?}{}", settings::hint(wanted))]);
        return EXIT_ERROR;
    };
    if let Some(check) = check {
        if doc.check(check).is_none() {
            let slugs: Vec<&str> = doc.checks.iter().map(|c| c.slug).collect();
            warn(&[format!(
                "error: {id} has no check {check:?}{} (its checks: {})",
                ra2_core::settings::suggest(wanted)
                    .map(|s| format!(" (did you mean {s:?}?)"))
                    .unwrap_or_default(),
                slugs.join(", ")
            )]);
            return EXIT_ERROR;
        }
    }
    let mut output = match args.format {
        DocFormat::Text => {
            ra2_report::catalogue::explain(doc, check, terminal_width().unwrap_or(DEFAULT_WIDTH).min(DEFAULT_WIDTH))
        }
        DocFormat::Json => serde_json::to_string_pretty(doc).unwrap_or_default(),
    };
    if !output.ends_with('\n') {
        output.push('\n');
    }
    emit(&output);
    EXIT_OK
}
