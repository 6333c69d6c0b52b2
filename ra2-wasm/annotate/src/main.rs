//! `ra2-annotate <metadata.yml> <policy.wasm> [<out.wasm>]`: writes Kubewarden's metadata section
//! into a policy module (in place without `<out.wasm>`), as `kwctl annotate` does.

use std::process::ExitCode;

fn run(args: &[String]) -> Result<(), String> {
    let [metadata, input, rest @ ..] = args else {
        return Err("usage: ra2-annotate <metadata.yml> <policy.wasm> [<out.wasm>]".to_owned());
    };
    let output = rest.first().unwrap_or(input);
    let yaml = std::fs::read_to_string(metadata).map_err(|e| format!("{metadata}: {e}"))?;
    let module = std::fs::read(input).map_err(|e| format!("{input}: {e}"))?;
    let annotated = ra2_annotate::annotate(&module, &yaml).map_err(|e| format!("{input}: {e}"))?;
    std::fs::write(output, annotated).map_err(|e| format!("{output}: {e}"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ra2-annotate: {e}");
            ExitCode::FAILURE
        }
    }
}
