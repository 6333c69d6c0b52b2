//! The `ra2` command's library: the command line (clap) and the subcommands. `ra2 lint`'s run
//! and output are in ra2-run, shared with `python -m ra2`; input discovery is in ra2-input, the
//! machine-readable renderers in ra2-report.

pub mod app;
#[cfg(feature = "audit")]
pub mod audit;
pub mod cli;

/// The `ra2` command: parses the command line and runs it (`ra2`, and `ra2-pre-commit`, the
/// same command as the pre-commit hook installs it).
pub fn main() -> std::process::ExitCode {
    let cli = <cli::Cli as clap::Parser>::parse();
    std::process::ExitCode::from(app::run(cli))
}
