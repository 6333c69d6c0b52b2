//! The subcommands: what each reads, what it prints, and its exit status.

use ra2_run::{DEFAULT_WIDTH, EXIT_ERROR, EXIT_OK, emit, settings, terminal_width, warn};

use crate::cli::{Cli, Command, DocFormat, ExplainArgs, RulesArgs};

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
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve(&args),
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
