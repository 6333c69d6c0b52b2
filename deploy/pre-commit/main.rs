//! `ra2-pre-commit`: the `ra2` command under the name the pre-commit hook installs it as (see
//! the root Cargo.toml and `.pre-commit-hooks.yaml`).

fn main() -> std::process::ExitCode {
    ra2_cli::main()
}
