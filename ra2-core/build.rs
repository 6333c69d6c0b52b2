//! Embeds every `rules/*.yaml` catalogue file, so adding a rule file needs no code change here.

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let rules = manifest.join("..").join("rules");
    println!("cargo:rerun-if-changed={}", rules.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&rules)
        .map(|dir| dir.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "yaml"));
    files.sort();
    let mut out = String::from("static CATALOGUE_FILES: &[(&str, &str)] = &[\n");
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let _ = writeln!(out, "    ({name:?}, include_str!({:?})),", path.display().to_string());
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default()).join("catalogue_files.rs");
    if let Err(e) = std::fs::write(&dest, out) {
        println!("cargo:warning=cannot write {}: {e}", dest.display());
        std::process::exit(1);
    }
}
