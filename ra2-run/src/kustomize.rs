//! `ra2 lint --kustomize DIR`: lint what kustomize renders from a kustomization directory, as
//! `kubectl kustomize DIR | ra2 lint -` would, with the real kustomize.
//!
//! The renderer is `$RA2_KUSTOMIZE` (a `kustomize` or `kubectl` binary; `scripts/recipe-tools`
//! builds kustomize), else `kustomize` on PATH, else `kubectl kustomize`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use ra2_input::ReadProblem;

/// The file names kustomize looks for in a directory.
const FILES: &[&str] = &["kustomization.yaml", "kustomization.yml", "Kustomization"];

/// Does `path` name a directory that kustomize can build?
pub fn is_kustomization_dir(path: &Path) -> bool {
    path.is_dir() && FILES.iter().any(|f| path.join(f).is_file())
}

/// The command line's paths split into kustomization directories and the rest (no path means
/// the current directory).
pub fn split(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let default = [PathBuf::from(".")];
    let paths = if paths.is_empty() { &default[..] } else { paths };
    paths.iter().cloned().partition(|p| is_kustomization_dir(p))
}

/// The name a rendered directory has in reports.
pub fn report_name(dir: &Path) -> String {
    let text = dir.to_string_lossy();
    let mut shown: &str = &text;
    while let Some(rest) = shown.strip_prefix("./") {
        shown = rest;
    }
    format!("kustomize build {shown}")
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// The renderer and whether it is kubectl.
fn renderer() -> Option<(PathBuf, bool)> {
    let program = std::env::var_os("RA2_KUSTOMIZE")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| on_path("kustomize"))
        .or_else(|| on_path("kubectl"))?;
    let is_kubectl = program.file_stem().is_some_and(|s| s == "kubectl");
    Some((program, is_kubectl))
}

fn problem(name: &str, message: String) -> ReadProblem {
    ReadProblem {
        file: name.to_owned(),
        line: 1,
        column: 1,
        message,
        code: "ra2::input::kustomize",
        errno: None,
    }
}

/// Renders `dir` with kustomize; a renderer that is missing or fails is a read problem that
/// names the directory and says why.
pub fn render(dir: &Path) -> Result<String, ReadProblem> {
    let name = report_name(dir);
    let Some((program, is_kubectl)) = renderer() else {
        return Err(problem(
            &name,
            "--kustomize needs kustomize or kubectl on PATH (or RA2_KUSTOMIZE naming one)".to_owned(),
        ));
    };
    let verb = if is_kubectl { "kustomize" } else { "build" };
    let output = Command::new(&program)
        .arg(verb)
        .arg(dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| problem(&name, format!("cannot run {}: {e}", program.display())))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let reason = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("no message");
        return Err(problem(
            &name,
            format!("{} {verb} failed: {}", program.display(), reason.trim()),
        ));
    }
    String::from_utf8(output.stdout).map_err(|_| problem(&name, "kustomize output is not UTF-8".to_owned()))
}
