//! `ra2`: lint Kubernetes manifests against the Anuket Reference Architecture 2.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = ra2_cli::cli::Cli::parse();
    ExitCode::from(ra2_cli::app::run(cli))
}
