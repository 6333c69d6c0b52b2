//! Throughput over `../shared/corpus`: the full lint (parse with spans, resolve, model, every
//! rule, JSON out) against a bare `serde_yaml` parse of the same files into
//! `serde_yaml::Value`, the reference for what the common Rust YAML reader costs; and both ra2
//! rows again through libyaml only (ra2's own YAML and JSON readers off), the path they replace.
//!
//! `cargo bench -p ra2-core --bench corpus` (set `RA2_BENCH_ROUNDS` for more rounds).

// Rates are printed with a few significant digits; f64 precision is irrelevant here.
#![allow(clippy::cast_precision_loss)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
        {
            out.push(path);
        }
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn measure(rounds: usize, mut f: impl FnMut() -> usize) -> (Duration, usize) {
    let mut times = Vec::new();
    let mut n = 0;
    for _ in 0..rounds {
        let start = Instant::now();
        n = std::hint::black_box(f());
        times.push(start.elapsed());
    }
    (median(times), n)
}

fn main() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let mut paths = Vec::new();
    collect(&corpus, &mut paths);
    paths.sort();
    if paths.is_empty() {
        eprintln!("no corpus at {}; nothing to measure", corpus.display());
        return;
    }
    let files: Vec<(String, String)> = paths
        .iter()
        .filter_map(|p| Some((p.display().to_string(), std::fs::read_to_string(p).ok()?)))
        .collect();
    let bytes: usize = files.iter().map(|(_, t)| t.len()).sum();
    let rounds: usize = std::env::var("RA2_BENCH_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);

    let (reference, ref_docs) = measure(rounds, || {
        let mut docs = 0;
        for (_, text) in &files {
            for de in serde_yaml::Deserializer::from_str(text) {
                match <serde_yaml::Value as serde::Deserialize>::deserialize(de) {
                    Ok(v) => docs += usize::from(!v.is_null()),
                    Err(_) => break,
                }
            }
        }
        docs
    });

    let config = ra2_core::Config::default();
    let mut json_len = 0;
    let (full, docs) = measure(rounds, || {
        let mut linter = ra2_core::Linter::new(&config);
        for (name, text) in &files {
            linter.add_file(name, text);
        }
        let report = linter.finish();
        json_len = report.to_json().len();
        report.summary.documents
    });

    let (parse_only, _) = measure(rounds, || {
        let mut n = 0;
        for (_, text) in &files {
            let (text, bom) = ra2_core::source::strip_bom(text);
            for chunk in ra2_core::source::chunks(text, bom, 0) {
                n += ra2_core::doc::read_chunk(chunk, false, ra2_core::doc::Limits::default())
                    .docs
                    .len();
            }
        }
        n
    });

    // The same two through libyaml only (the YAML and JSON readers off): what they replace.
    let (full_libyaml, _) = measure(rounds, || {
        let mut linter = ra2_core::Linter::new(&config).with_libyaml_only();
        for (name, text) in &files {
            linter.add_file(name, text);
        }
        linter.finish().summary.documents
    });
    let (parse_libyaml, _) = measure(rounds, || {
        let mut n = 0;
        for (_, text) in &files {
            let (text, bom) = ra2_core::source::strip_bom(text);
            for chunk in ra2_core::source::chunks(text, bom, 0) {
                n += ra2_core::doc::read_chunk_yaml(chunk, false, ra2_core::doc::Limits::default())
                    .docs
                    .len();
            }
        }
        n
    });

    let mb = bytes as f64 / 1e6;
    let row = |name: &str, d: Duration, docs: usize| {
        let s = d.as_secs_f64();
        println!(
            "{name:<44} {:>8.1} ms {:>10.0} docs/s {:>7.1} MB/s",
            s * 1e3,
            docs as f64 / s,
            mb / s
        );
    };
    println!(
        "corpus: {} files, {} documents, {:.1} MB; median of {rounds} rounds",
        files.len(),
        docs,
        mb
    );
    row("reference: serde_yaml -> serde_yaml::Value", reference, ref_docs);
    row("ra2: parse with spans + resolve", parse_only, docs);
    row("ra2: full lint + JSON report", full, docs);
    row("ra2: parse, libyaml only", parse_libyaml, docs);
    row("ra2: full lint + JSON report, libyaml only", full_libyaml, docs);
    println!(
        "full lint throughput = {:.0}% of the reference (goal: >= 70%); JSON report {} bytes",
        100.0 * reference.as_secs_f64() / full.as_secs_f64(),
        json_len
    );
}
