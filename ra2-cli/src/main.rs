//! `ra2`: lint Kubernetes manifests against the Anuket Reference Architecture 2.

fn main() -> std::process::ExitCode {
    ra2_cli::main()
}
