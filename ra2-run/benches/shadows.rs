//! The speed-only implementations against the simpler paths they shadow, on the inputs users
//! have: the shared corpus, one typical Pod, a 20,000-pod `kubectl get -o json` List and a
//! 200,000-document stream. Each must win by at least 20% on one of them to stay (issue 31).
//!
//! - the JSON reader (`ra2_core::parse::json`) against libyaml reading the same JSON
//!   ([`Linter::with_libyaml_only`]);
//! - the YAML reader (`ra2_core::parse::yaml`) against libyaml reading the same YAML (the same
//!   switch);
//! - the thread pool (`ra2_input::parallel`) against one thread (`--jobs 1`);
//! - the compact store (`ra2_report::compact`) against holding the findings as they are, for a
//!   stream whose report is printed at the end (`--format json`): peak memory, measured in a
//!   child process per path.
//!
//! (A parallel JSON writer was measured here too and removed: 0.66x serde's on a loaded machine, and
//! at best a few milliseconds of a run that prints a report of at most 20,000 findings.)
//!
//! `cargo bench -p ra2-run --bench shadows` (`RA2_BENCH_ROUNDS` rounds, 5 by default). Without
//! `../shared/corpus` the corpus rows are left out with a note.

// Rates and ratios are printed with a few significant digits.
#![allow(clippy::cast_precision_loss)]

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use ra2_core::lint::{Feed, FeedWatch};
use ra2_core::{Config, Finding, Linter, Report};
use ra2_input::Input;
use ra2_report::compact::Store;
use serde_json::Value;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// The median of `rounds` runs of each of `a` and `b`, alternating so that a machine's drift
/// falls on both.
fn pair(rounds: usize, mut a: impl FnMut() -> usize, mut b: impl FnMut() -> usize) -> (Duration, Duration) {
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let start = Instant::now();
        std::hint::black_box(a());
        ta.push(start.elapsed());
        let start = Instant::now();
        std::hint::black_box(b());
        tb.push(start.elapsed());
    }
    (median(ta), median(tb))
}

fn row(what: &str, input: &str, shadow: Duration, simple: Duration) {
    let (s, p) = (shadow.as_secs_f64(), simple.as_secs_f64());
    println!(
        "  {what:<34} {input:<28} {:>10.3} ms {:>10.3} ms {:>7.2}x",
        s * 1e3,
        p * 1e3,
        p / s
    );
}

/// The typical Pod of the admission tests, as `kubectl get -o json` prints it.
fn typical_pod() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ra2-wasm/tests/admission/pod-create-warns.json");
    let text = std::fs::read_to_string(path).expect("the typical Pod");
    let review: Value = serde_json::from_str(&text).expect("JSON");
    let mut pod = review["request"]["object"].clone();
    if let Some(meta) = pod["metadata"].as_object_mut() {
        meta.remove("managedFields");
    }
    pod
}

/// `scripts/bench-scale`'s 20,000-pod List: 4-space indented, keys sorted, as kubectl writes it.
fn pod_list(pod: &Value, pods: usize) -> String {
    let items: Vec<Value> = (0..pods)
        .map(|i| {
            let mut p = pod.clone();
            p["metadata"]["name"] = Value::from(format!("pod-{i}"));
            p["metadata"]["namespace"] = Value::from(format!("ns-{}", i % 50));
            p
        })
        .collect();
    let list =
        serde_json::json!({"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": items});
    let mut out = Vec::new();
    let mut writer =
        serde_json::Serializer::with_formatter(&mut out, serde_json::ser::PrettyFormatter::with_indent(b"    "));
    serde::Serialize::serialize(&list, &mut writer).expect("serializes");
    String::from_utf8(out).expect("UTF-8")
}

/// `scripts/bench-scale`'s 200,000-document stream.
fn stream(docs: usize) -> String {
    let mut out = String::new();
    for i in 0..docs {
        let _ = write!(
            out,
            "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-{i}\n  namespace: ns-{}\nspec:\n  hostNetwork: true\n  containers:\n  - name: app\n    image: registry.example.com/app:1.{i}\n",
            i % 50
        );
    }
    out
}

fn lint(config: &Config, files: &[(String, String)], json_reader: bool) -> Report {
    let mut linter = Linter::new(config);
    if !json_reader {
        linter = linter.with_libyaml_only();
    }
    for (name, text) in files {
        linter.add_file(name, text);
    }
    linter.finish()
}

/// Lints `inputs` on `jobs` threads as `ra2 lint` reads files.
fn lint_inputs(config: &Config, inputs: &[Input], jobs: usize) -> usize {
    let mut linter = Linter::new(config);
    ra2_input::parallel::lint_inputs(inputs, &mut linter, jobs, false, |_, _| true);
    linter.finish().findings.len()
}

/// Takes what settles after each document into a store, as a run's output does once it streams.
struct IntoStore(Store);

impl FeedWatch for IntoStore {
    fn keeps_text(&self) -> bool {
        false
    }
    fn text(&mut self, _: &str) {}
    fn progress(&mut self, linter: &mut Linter<'_>) {
        self.0.take(linter.take_settled());
    }
}

/// Takes what settles after each document and holds it whole.
#[derive(Default)]
struct Whole(
    Vec<Finding>,
    Vec<ra2_core::LintError>,
    Vec<ra2_core::report::ObjectSummary>,
);

impl FeedWatch for Whole {
    fn keeps_text(&self) -> bool {
        false
    }
    fn text(&mut self, _: &str) {}
    fn progress(&mut self, linter: &mut Linter<'_>) {
        let settled = linter.take_settled();
        self.0.extend(settled.findings);
        self.1.extend(settled.errors);
        self.2.extend(settled.objects);
    }
}

fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// A child process: feeds the 200,000-document stream line by line, keeps what settles in a
/// store or whole, writes the JSON report to a sink, and prints its peak RSS and JSON length.
fn child(mode: &str) {
    let text = stream(200_000);
    let config = Config::default();
    let mut linter = Linter::new(&config);
    let mut feed = Feed::new(&mut linter, "-", false);
    let mut sink = std::io::sink();
    let mut counted = Counted(0);
    let start = Instant::now();
    if mode == "store" {
        let mut watch = IntoStore(Store::new());
        for line in text.split_inclusive('\n') {
            feed.line(&mut linter, line.as_bytes(), &mut watch);
        }
        feed.end(&mut linter, &mut watch);
        let mut store = watch.0;
        store.finish(linter.finish());
        store.finalize();
        store.write_json(&mut counted).expect("writes");
    } else {
        let mut watch = Whole::default();
        for line in text.split_inclusive('\n') {
            feed.line(&mut linter, line.as_bytes(), &mut watch);
        }
        feed.end(&mut linter, &mut watch);
        let mut report = linter.finish();
        report.findings.extend(watch.0);
        report.errors.extend(watch.1);
        report.objects.extend(watch.2);
        report.finalize();
        report.write_json(&mut counted).expect("writes");
    }
    let elapsed = start.elapsed();
    std::io::Write::flush(&mut sink).ok();
    println!("{} {} {}", peak_rss_kib(), elapsed.as_secs_f64(), counted.0);
}

struct Counted(usize);

impl std::io::Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn run_child(mode: &str) -> (u64, f64, usize) {
    let out = std::process::Command::new(std::env::current_exe().expect("this benchmark"))
        .env("RA2_SHADOWS_CHILD", mode)
        .output()
        .expect("the child runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let mut words = text.split_whitespace();
    let mut next = || words.next().unwrap_or("0").to_string();
    (
        next().parse().unwrap_or(0),
        next().parse().unwrap_or(0.0),
        next().parse().unwrap_or(0),
    )
}

fn main() {
    if let Ok(mode) = std::env::var("RA2_SHADOWS_CHILD") {
        child(&mode);
        return;
    }
    // `cargo bench` passes `--bench`; nothing else to read.
    let rounds: usize = std::env::var("RA2_BENCH_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let config = Config::default();
    let pod = typical_pod();
    let one_pod = vec![(
        "pod.json".to_string(),
        serde_json::to_string_pretty(&pod).expect("JSON"),
    )];
    let list = vec![("list.json".to_string(), pod_list(&pod, 20_000))];

    let corpus_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    // The files `ra2 lint ../shared/corpus` reads, found by the same walk.
    let corpus_inputs: Vec<Input> = if corpus_dir.is_dir() {
        ra2_input::discover(std::slice::from_ref(&corpus_dir), ra2_input::Discovery::default()).0
    } else {
        Vec::new()
    };
    let corpus: Vec<(String, String)> = corpus_inputs
        .iter()
        .filter_map(|input| match input {
            Input::File { path, name, .. } => Some((name.clone(), std::fs::read_to_string(path).ok()?)),
            Input::Stdin => None,
        })
        .collect();
    if corpus.is_empty() {
        println!("(no corpus at {}: its rows are left out)", corpus_dir.display());
    }
    let corpus_json: Vec<(String, String)> = corpus
        .iter()
        .filter(|(name, _)| {
            Path::new(name)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("json"))
        })
        .cloned()
        .collect();

    println!(
        "median of {rounds} alternating rounds; {} cores available",
        ra2_input::parallel::default_jobs()
    );
    println!(
        "  {:<34} {:<28} {:>13} {:>13} {:>8}",
        "shadow", "input", "shadow", "simple path", "win"
    );

    // The JSON reader against libyaml.
    let mut json_inputs = vec![("one Pod (JSON)", &one_pod), ("20,000-pod List (JSON)", &list)];
    if !corpus_json.is_empty() {
        json_inputs.insert(1, ("the corpus's .json files", &corpus_json));
    }
    for (name, files) in json_inputs {
        let r = if name.starts_with("one") { rounds * 200 } else { rounds };
        let (a, b) = pair(
            r,
            || lint(&config, files, true).findings.len(),
            || lint(&config, files, false).findings.len(),
        );
        assert_eq!(
            lint(&config, files, true).to_json(),
            lint(&config, files, false).to_json()
        );
        row("JSON reader vs libyaml", name, a, b);
    }

    // The YAML reader against libyaml (the same switch turns both readers off).
    let corpus_yaml: Vec<(String, String)> = corpus
        .iter()
        .filter(|(name, _)| {
            !Path::new(name)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("json"))
        })
        .cloned()
        .collect();
    let yaml_stream = vec![("stream.yaml".to_string(), stream(20_000))];
    let mut yaml_inputs = vec![("20,000-document stream (YAML)", &yaml_stream)];
    if !corpus_yaml.is_empty() {
        yaml_inputs.insert(0, ("the corpus's YAML files", &corpus_yaml));
    }
    for (name, files) in yaml_inputs {
        let (a, b) = pair(
            rounds,
            || lint(&config, files, true).findings.len(),
            || lint(&config, files, false).findings.len(),
        );
        assert_eq!(
            lint(&config, files, true).to_json(),
            lint(&config, files, false).to_json()
        );
        row("YAML reader vs libyaml", name, a, b);
    }

    // The thread pool against one thread.
    let jobs = ra2_input::parallel::default_jobs();
    let dir = std::env::temp_dir().join(format!("ra2-shadows-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("writes");
        vec![Input::File {
            name: name.to_string(),
            path,
            skip_non_k8s: false,
        }]
    };
    let pod_input = write("pod.json", &one_pod[0].1);
    let list_input = write("list.json", &list[0].1);
    let mut pool_inputs = vec![
        ("one Pod (a file)", &pod_input),
        ("20,000-pod List (a file)", &list_input),
    ];
    let corpus_name = format!("the corpus ({} files)", corpus_inputs.len());
    if !corpus_inputs.is_empty() {
        pool_inputs.insert(1, (corpus_name.as_str(), &corpus_inputs));
    }
    for (name, inputs) in pool_inputs {
        let r = if name.starts_with("one") { rounds * 200 } else { rounds };
        let (a, b) = pair(
            r,
            || lint_inputs(&config, inputs, jobs),
            || lint_inputs(&config, inputs, 1),
        );
        row(&format!("thread pool ({jobs} jobs) vs 1"), name, a, b);
    }
    std::fs::remove_dir_all(&dir).ok();

    // The compact store against the findings held whole: peak memory of a child each.
    let (store_kib, store_s, store_len) = run_child("store");
    let (whole_kib, whole_s, whole_len) = run_child("whole");
    assert_eq!(
        store_len, whole_len,
        "the store and the whole report print different lengths"
    );
    println!(
        "  {:<34} {:<28} {:>10.1} MiB {:>9.1} MiB {:>7.2}x  (time {:.2} s vs {:.2} s)",
        "compact store vs whole findings",
        "200,000-document stream",
        store_kib as f64 / 1024.0,
        whole_kib as f64 / 1024.0,
        whole_kib as f64 / store_kib.max(1) as f64,
        store_s,
        whole_s
    );
}
