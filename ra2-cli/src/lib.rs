//! The `ra2` command's library: the command line and terminal output (input discovery is in
//! ra2-input, the other renderers in ra2-report),
//! kept apart from `main` so that tests render exactly what users see.

pub mod app;
pub mod audit;
pub mod chart;
pub mod cli;
pub mod kustomize;
pub mod policyreport;
pub mod render;
pub mod settings;
pub mod source_root;
pub mod template_map;

/// The `ra2` command: parses the command line and runs it (`ra2`, and `ra2-pre-commit`, the
/// same command as the pre-commit hook installs it).
pub fn main() -> std::process::ExitCode {
    let cli = <cli::Cli as clap::Parser>::parse();
    std::process::ExitCode::from(app::run(cli))
}
