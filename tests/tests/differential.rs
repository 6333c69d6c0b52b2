//! Differential tests: ra2's Kubernetes semantics against Kubernetes' own Go libraries.
//!
//! `tests/differential` is a small Go program over k8s.io/apimachinery (`resource.Quantity`),
//! sigs.k8s.io/yaml (YAML to JSON), sigs.k8s.io/json (the API server's JSON decoder), k8s.io/api,
//! kubectl's QoS helper, k8s.io/apiserver (`--runtime-config`) and k8s.io/component-base
//! (`--feature-gates`). It answers newline-delimited JSON requests; each property below sends
//! its whole batch to one process. Inputs come from a seeded PRNG (the same every run) and from the
//! real-world corpus; every property compares at least [`MIN_INPUTS`] distinct inputs and fails on
//! any disagreement, listing the first few. Without a `go` toolchain the tests say so and pass.
//!
//! Properties:
//! * quantity: `Quantity::parse` against `resource.ParseQuantity`, and `Quantity::parse_json_text`
//!   against `Quantity.UnmarshalJSON` of the JSON-encoded string: validity, error kind (suffix or
//!   not), exact value in nanos, format, `Value()` and `MilliValue()` where Go's int64 holds them;
//! * integer CPU: `Quantity::is_integer` against the CPU manager's `Value()*1000 == MilliValue()`;
//! * quantity from YAML: the cpu limit of a pod written with every kind of YAML scalar, read by
//!   ra2's model against the API server's decoding (sigs.k8s.io/yaml, then sigs.k8s.io/json);
//! * YAML values and YAML keys: `ra2_core::yaml_to_json` against `yaml.YAMLToJSON` for one plain
//!   scalar as a value (`v: <s>`) and as a key (`<s>: v`);
//! * QoS: `resources::pod_qos` against kubectl's `ComputePodQOS` on generated pods and on every
//!   workload of the corpus, before Kubernetes 1.34 (pod-level `spec.resources` dropped) and from
//!   1.34 (generated pods with pod-level resources, defaulted as the API server does);
//! * `--runtime-config`: `RuntimeConfig::resolve` against k8s.io/apiserver (the flag's
//!   `cliflag.ConfigurationMap`, `APIEnablementOptions.Validate`'s checks over `ParseGroups`, and
//!   `MergeAPIResourceConfigs`) on generated flag sets over api/all, api/ga, api/beta, api/alpha,
//!   group versions and resources, with true, false, bare and invalid values, repeats and every
//!   order: whether the API server starts, and which versions and resources it serves;
//! * `--feature-gates`: `flags::feature_gates` against component-base's compatibility registry
//!   and feature gate (`Set`, `SetFromMap`) on generated flag sets: whether the component starts,
//!   and which gates are on.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use ra2_core::doc::{Limits, Value, read_chunk};
use ra2_core::model::{Object, PodSpec};
use ra2_core::quantity::{Quantity, QuantityError};
use ra2_core::source::chunks;
use ra2_core::view::Located;
use ra2_yaml::ScalarStyle;
use serde_json::{Value as Json, json};

/// Distinct inputs each property must compare.
const MIN_INPUTS: usize = 10_000;
/// Disagreements listed in a failure message, per property (`RA2_DIFFERENTIAL_SHOW` overrides).
fn shown() -> usize {
    std::env::var("RA2_DIFFERENTIAL_SHOW")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12)
}

// ---------------------------------------------------------------------------------------------
// The Go oracle

struct Oracle {
    binary: PathBuf,
}

static ORACLE: OnceLock<Option<Oracle>> = OnceLock::new();

/// The built oracle, or `None` (with a message) when there is no Go toolchain.
fn oracle() -> Option<&'static Oracle> {
    ORACLE.get_or_init(build_oracle).as_ref()
}

fn build_oracle() -> Option<Oracle> {
    if !Command::new("go")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        eprintln!(
            "differential: skipped: no `go` toolchain on PATH (install Go to compare against Kubernetes' libraries)"
        );
        return None;
    }
    let dir = ra2_tests::root().join("tests").join("differential");
    let binary = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ra2-differential");
    // -mod=mod lets `go build` fetch the pinned modules (go.sum) on a fresh machine.
    let output = Command::new("go")
        .args(["build", "-o"])
        .arg(&binary)
        .arg(".")
        .current_dir(&dir)
        .env("GOFLAGS", "-mod=mod -buildvcs=false")
        .output()
        .expect("run go build");
    assert!(
        output.status.success(),
        "go build of tests/differential failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(Oracle { binary })
}

impl Oracle {
    /// Sends every request to one process and returns the answers in order.
    fn ask(&self, requests: &[Json]) -> Vec<Json> {
        let mut child = Command::new(&self.binary)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start the Go oracle");
        let mut stdin = child.stdin.take().expect("oracle stdin");
        let mut input = String::new();
        for request in requests {
            input.push_str(&request.to_string());
            input.push('\n');
        }
        let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
        let stdout = child.stdout.take().expect("oracle stdout");
        let answers: Vec<Json> = BufReader::new(stdout)
            .lines()
            .map(|line| serde_json::from_str(&line.expect("read an answer")).expect("answers are JSON"))
            .collect();
        writer.join().expect("writer thread").expect("write requests");
        assert!(child.wait().expect("oracle exit").success(), "the Go oracle failed");
        assert_eq!(answers.len(), requests.len(), "one answer per request");
        if let Some(bad) = answers.iter().find(|a| a.get("protocolError").is_some()) {
            panic!("protocol error: {bad}");
        }
        answers
    }
}

// ---------------------------------------------------------------------------------------------
// Bookkeeping

/// Compared inputs and disagreements of one property.
struct Tally {
    name: &'static str,
    inputs: usize,
    disagreements: Vec<String>,
    notes: Vec<String>,
}

impl Tally {
    fn new(name: &'static str) -> Self {
        Tally {
            name,
            inputs: 0,
            disagreements: Vec::new(),
            notes: Vec::new(),
        }
    }

    fn compare(&mut self, disagreement: Option<String>) {
        self.inputs += 1;
        if let Some(d) = disagreement {
            self.disagreements.push(d);
        }
    }

    fn summary(&self) -> String {
        let mut s = format!(
            "differential: {} {} inputs, {} disagreements",
            self.name,
            self.inputs,
            self.disagreements.len()
        );
        for note in &self.notes {
            let _ = write!(s, "; {note}");
        }
        s
    }
}

/// Prints every tally and fails if one disagreed or compared too few inputs.
fn finish(tallies: &[&Tally]) {
    let mut failures = String::new();
    for tally in tallies {
        println!("{}", tally.summary());
        if !tally.disagreements.is_empty() {
            let _ = writeln!(failures, "{}:", tally.summary());
            for d in tally.disagreements.iter().take(shown()) {
                let _ = writeln!(failures, "  {d}");
            }
        }
        if tally.inputs < MIN_INPUTS {
            let _ = writeln!(
                failures,
                "{}: only {} inputs (at least {MIN_INPUTS} needed)",
                tally.name, tally.inputs
            );
        }
    }
    assert!(failures.is_empty(), "ra2 and Kubernetes disagree:\n{failures}");
}

// ---------------------------------------------------------------------------------------------
// Deterministic inputs

/// SplitMix64: small, seeded, the same on every platform.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap_or(0)
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    fn digits(&mut self, alphabet: &[u8], len: usize) -> String {
        (0..len)
            .map(|_| char::from(alphabet[self.below(alphabet.len())]))
            .collect()
    }

    /// A length: usually short, sometimes long.
    fn len(&mut self, short: usize, long: usize) -> usize {
        if self.chance(8) {
            self.below(long + 1)
        } else {
            self.below(short + 1)
        }
    }
}

const DEC: &[u8] = b"0123456789";

/// Quantity strings k8s must agree on, beyond what the generator tends to produce.
const QUANTITY_EDGES: &[&str] = &[
    "",
    " ",
    "0",
    "-0",
    "+0",
    "00",
    "0.0",
    ".",
    "-",
    "+",
    "Mi",
    "k",
    "e3",
    "Pi",
    "Ei",
    "e-10",
    ".e-10",
    "-.",
    "+.",
    "0.1n",
    "-0.1n",
    "0.5n",
    "1n",
    "1u",
    "1m",
    "8Ei",
    "9Ei",
    "7.99Ei",
    "16Ei",
    "1E",
    "1E3",
    "1e3m",
    "1 ",
    " 1",
    "1e",
    "1e+",
    "1e-",
    "1E+3",
    "1e-3",
    "1e-9",
    "1e-10",
    "1.5e-9",
    "1k1",
    "1Ki1",
    "1K",
    "1mi",
    "1KB",
    "1Gb",
    "1ki",
    "0x10",
    "1_000",
    "1,000",
    "１",
    "1.0001",
    "1.000000001",
    "1.0000000001",
    "2000000000n",
    "1000m",
    "1.0",
    "1e+0",
    "1500m",
    "0.9999999999",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "9223372036854775807k",
    "9223372036854775.807",
    "9223372036854775807m",
    "18446744073709551616",
    "1e4294967299",
    "1e-4294967299",
    "1e9223372036854775807",
    "1e-9223372036854775808",
    "1e9223372036854775808",
    "1e99999999999999999999",
    "1e18",
    "1e19",
    "1e20",
    "1e38",
    "1e39",
    "1e40",
    "1.7e29",
    "1.8e29",
    "-1.8e29",
    "0.000000000000000000001",
    "00000000000000000000000000001",
    "1.00000000000000000000000000",
    "123456789012345678901234567890",
    "0.5Ki",
    "0.0001Ki",
    "-0.5Ki",
    "1.5Gi",
    "1.5Mi",
    "0.1Ki",
    "1024Mi",
    "1Gi",
    "1G",
    "1000M",
    "+1k",
    "-1k",
    "05",
];

/// A quantity-like string: mostly well-formed with every suffix kind, sometimes malformed, padded
/// with white space, or noise.
fn gen_quantity(rng: &mut Rng) -> String {
    match rng.below(24) {
        0 => return rng.pick(QUANTITY_EDGES).to_owned(),
        1 => {
            let len = 1 + rng.below(6);
            return rng.digits(b"0123456789.+-eEinumkKMGTPx _i", len);
        }
        _ => {}
    }
    let mut s = String::new();
    match rng.below(12) {
        0 => s.push('-'),
        1 => s.push('+'),
        _ => {}
    }
    if rng.chance(6) {
        s.push_str(&"0".repeat(1 + rng.below(3)));
    }
    let int_len = rng.len(4, 30);
    s.push_str(&rng.digits(DEC, int_len));
    if rng.chance(3) {
        s.push('.');
        let frac_len = rng.len(4, 30);
        s.push_str(&rng.digits(DEC, frac_len));
    }
    if !s.bytes().any(|b| b.is_ascii_digit()) && !rng.chance(8) {
        s.push('1');
    }
    let suffix: String = match rng.below(10) {
        0..=2 => String::new(),
        3 | 4 => rng.pick(&["n", "u", "m", "k", "M", "G", "T", "P", "E"]).to_owned(),
        5 | 6 => rng.pick(&["Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]).to_owned(),
        7 | 8 => {
            let e = rng.pick(&["e", "E"]);
            let sign = rng.pick(&["", "", "+", "-"]);
            let exponent = match rng.below(40) {
                0 => rng
                    .pick(&[
                        "4294967296",
                        "4294967299",
                        "4294967286",
                        "9223372036854775807",
                        "9223372036854775808",
                        "0000000003",
                    ])
                    .to_owned(),
                1..=4 => (rng.below(400)).to_string(),
                _ => (rng.below(30)).to_string(),
            };
            format!("{e}{sign}{exponent}")
        }
        _ => rng
            .pick(&[
                "K", "mi", "Gb", "KB", "ki", "i", "e", "E+", "MiB", "m3", "k-1", "Ki2", "ee3", "x",
            ])
            .to_owned(),
    };
    s.push_str(&suffix);
    if rng.chance(12) {
        let spaces = [
            " ", "\t", "\n", "\r", "\u{a0}", "\u{85}", "\u{2003}", "\u{3000}", "\u{2028}", "\u{feff}", "\u{200b}",
            "\u{1680}",
        ];
        let space = rng.pick(&spaces);
        s = match rng.below(3) {
            0 => format!("{space}{s}"),
            1 => format!("{s}{space}"),
            _ => format!("{space}{s}{space}"),
        };
    }
    s
}

// ---------------------------------------------------------------------------------------------
// The corpus

struct CorpusInputs {
    /// Single-line plain scalars as written.
    plain: BTreeSet<String>,
    /// Every value of a resource list (requests, limits, quota), as the JSON text ra2 reads.
    quantities: BTreeSet<String>,
    /// (document text, pod spec pointer) of every workload in a single-document chunk.
    workloads: Vec<(String, String)>,
}

/// Keys whose values are resource lists.
const RESOURCE_LISTS: &[&str] = &[
    "requests",
    "limits",
    "hard",
    "default",
    "defaultRequest",
    "max",
    "min",
    "capacity",
    "allocatable",
    "overhead",
];

fn collect_quantities(node: &Located<'_>, out: &mut BTreeSet<String>) {
    for (key, value) in node.entries() {
        if RESOURCE_LISTS.contains(&key) && value.is_map() {
            for (_, amount) in value.entries() {
                if let Some(text) = amount.scalar_text() {
                    out.insert(text.into_owned());
                }
            }
        }
        if matches!(key, "sizeLimit" | "storage")
            && let Some(text) = value.scalar_text()
        {
            out.insert(text.into_owned());
        }
        collect_quantities(&value, out);
    }
    for item in node.items() {
        collect_quantities(&item, out);
    }
}

fn corpus_inputs() -> Option<CorpusInputs> {
    let files = ra2_tests::corpus_files()?;
    let mut inputs = CorpusInputs {
        plain: BTreeSet::new(),
        quantities: BTreeSet::new(),
        workloads: Vec::new(),
    };
    for (name, text) in &files {
        let json = std::path::Path::new(name)
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"));
        let (text, bom) = ra2_core::source::strip_bom(text);
        for chunk in chunks(text, bom, 0) {
            let result = read_chunk(chunk, json, Limits::default());
            for doc in &result.docs {
                if !json {
                    for node in &doc.nodes {
                        let raw = doc.text(node.span);
                        if node.style == Some(ScalarStyle::Plain) && !raw.is_empty() && !raw.contains(['\n', '\r']) {
                            inputs.plain.insert(raw.to_owned());
                        }
                    }
                }
                let root = Located::root(doc);
                collect_quantities(&root, &mut inputs.quantities);
                if result.docs.len() == 1
                    && result.error.is_none()
                    && let Some(pod) = Object::new(root).pod_spec()
                {
                    inputs.workloads.push((chunk.text.to_owned(), pod.spec.pointer()));
                }
            }
        }
    }
    Some(inputs)
}

static CORPUS: OnceLock<Option<CorpusInputs>> = OnceLock::new();

fn corpus() -> Option<&'static CorpusInputs> {
    CORPUS
        .get_or_init(|| {
            let inputs = corpus_inputs();
            if inputs.is_none() {
                eprintln!("differential: ../shared/corpus is not beside the checkout; generated inputs only");
            }
            inputs
        })
        .as_ref()
}

// ---------------------------------------------------------------------------------------------
// Reading documents with ra2

/// Reads one YAML document and hands its pod spec (if any) to `f`; `None` when the document
/// cannot be read or holds no pod spec.
fn with_pod<T>(text: &str, f: impl FnOnce(Option<&PodSpec<'_>>) -> T) -> T {
    let Some(&chunk) = chunks(text, 0, 0).first() else {
        return f(None);
    };
    let result = read_chunk(chunk, false, Limits::default());
    match (&result.error, result.docs.first()) {
        (None, Some(doc)) => f(Object::new(Located::root(doc)).pod_spec()),
        _ => f(None),
    }
}

/// A NaN or infinite float among the values (not keys: those become `.inf`/`.nan` strings).
fn has_non_finite_value(node: &Located<'_>) -> bool {
    matches!(node.value(), Value::Float(f) if !f.is_finite())
        || node.entries().any(|(_, v)| has_non_finite_value(&v))
        || node.items().any(|v| has_non_finite_value(&v))
}

/// JSON as Go's `encoding/json` would print it, keys sorted: numbers are compared by the text the
/// API server receives (an integer 8 and a float 8.0 both print `8`).
fn canonical(value: &Json) -> String {
    match value {
        Json::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.to_string()
            } else if let Some(u) = n.as_u64() {
                u.to_string()
            } else {
                ra2_core::scalar::go_json_float(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Json::Array(items) => format!("[{}]", items.iter().map(canonical).collect::<Vec<_>>().join(",")),
        Json::Object(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let parts: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("{}:{}", Json::String((*k).clone()), canonical(v)))
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        other => other.to_string(),
    }
}

/// ra2's JSON for a YAML text, or an error. A NaN or infinite float is an error, as in Go, whose
/// `json.Marshal` refuses them ("unsupported value"); ra2 keeps them in its tree.
fn ra2_yaml(text: &str) -> Result<String, String> {
    let json = ra2_core::yaml_to_json(text).map_err(|e| e.message)?;
    let non_finite = chunks(text, 0, 0).first().is_some_and(|&chunk| {
        read_chunk(chunk, false, Limits::default())
            .docs
            .iter()
            .any(|doc| has_non_finite_value(&Located::root(doc)))
    });
    if non_finite {
        return Err("unsupported value (NaN or infinity)".to_owned());
    }
    Ok(canonical(&json))
}

// ---------------------------------------------------------------------------------------------
// Quantities

fn go_bool(answer: &Json, key: &str) -> bool {
    answer.get(key).and_then(Json::as_bool).unwrap_or(false)
}

fn go_int(answer: &Json, key: &str) -> i64 {
    answer.get(key).and_then(Json::as_i64).unwrap_or(0)
}

fn go_str<'a>(answer: &'a Json, key: &str) -> &'a str {
    answer.get(key).and_then(Json::as_str).unwrap_or("")
}

/// Compares one parse result; `None` when they agree. Also counts Go's own `Value()` on negative
/// quantities, which ra2 deliberately does not reproduce (see `quantity.rs`).
fn compare_parsed(ra2: &Result<Quantity, QuantityError>, go: &Json, negative_quirks: &mut usize) -> Option<String> {
    let q = match (ra2, go_bool(go, "ok")) {
        (Err(e), false) => {
            let go_suffix = go_str(go, "errKind") == "suffix";
            let ra2_suffix = matches!(e, QuantityError::Suffix(_));
            return (go_suffix != ra2_suffix).then(|| format!("ra2 error {e:?}, Go error {}", go_str(go, "err")));
        }
        (Err(e), true) => {
            return Some(format!(
                "ra2 rejects ({e:?}), Go accepts: nanos {}",
                go_str(go, "nanos")
            ));
        }
        (Ok(q), false) => {
            return Some(format!(
                "ra2 accepts (nanos {}), Go rejects: {}",
                q.nanos(),
                go_str(go, "err")
            ));
        }
        (Ok(q), true) => q,
    };
    let go_nanos = go_str(go, "nanos");
    let nanos_agree = match go_nanos.parse::<i128>() {
        Ok(n) => !q.is_saturated() && n == q.nanos(),
        // Beyond i128: ra2 saturates with the same sign.
        Err(_) => q.is_saturated() && go_nanos.starts_with('-') == q.is_negative() && !go_nanos.starts_with('i'),
    };
    if !nanos_agree {
        return Some(format!("nanos: ra2 {}, Go {go_nanos}", q.nanos()));
    }
    // A JSON null decodes to Go's zero Quantity, whose format is empty; ra2's zero is DecimalSI.
    let go_format = go_str(go, "format");
    if q.format().as_str() != go_format && !(go_format.is_empty() && q.is_zero()) {
        return Some(format!("format: ra2 {}, Go {}", q.format(), go_str(go, "format")));
    }
    // Value() and MilliValue() where Go's int64 holds the exact answer; negatives through Neg().
    let (value_key, milli_key, sign) = if q.is_negative() {
        if i64::try_from(q.value()).is_ok_and(|v| v != go_int(go, "value")) {
            *negative_quirks += 1;
        }
        ("absValue", "absMilli", -1)
    } else {
        ("value", "milli", 1)
    };
    if let Ok(v) = i64::try_from(sign * q.value())
        && v != go_int(go, value_key)
    {
        let go_value = sign * i128::from(go_int(go, value_key));
        return Some(format!("Value(): ra2 {}, Go {go_value}", q.value()));
    }
    if let Ok(m) = i64::try_from(sign * q.milli_value())
        && m != go_int(go, milli_key)
    {
        let go_milli = sign * i128::from(go_int(go, milli_key));
        return Some(format!("MilliValue(): ra2 {}, Go {go_milli}", q.milli_value()));
    }
    None
}

#[test]
fn differential_quantities_agree_with_apimachinery() {
    let Some(oracle) = oracle() else { return };
    let mut rng = Rng(0x5241_3251_7561_6e74);
    let mut texts: BTreeSet<String> = QUANTITY_EDGES.iter().map(|s| (*s).to_owned()).collect();
    if let Some(corpus) = corpus() {
        texts.extend(corpus.quantities.iter().cloned());
    }
    while texts.len() < 30_000 {
        texts.insert(gen_quantity(&mut rng));
    }
    let texts: Vec<String> = texts.into_iter().collect();
    let requests: Vec<Json> = texts.iter().map(|t| json!({"op": "quantity", "text": t})).collect();
    let answers = oracle.ask(&requests);

    let mut parse = Tally::new("quantity (ParseQuantity)");
    let mut from_json = Tally::new("quantity (UnmarshalJSON of a string)");
    let mut integer = Tally::new("integer CPU (Value()*1000 == MilliValue())");
    let mut negative_quirks = 0;
    for (text, answer) in texts.iter().zip(&answers) {
        let ra2 = Quantity::parse(text);
        let d = compare_parsed(&ra2, &answer["parse"], &mut negative_quirks);
        parse.compare(d.map(|d| format!("{text:?}: {d}")));
        let mut ignored = 0;
        let ra2_json = Quantity::parse_json_text(text);
        let d = compare_parsed(&ra2_json, &answer["json"], &mut ignored);
        from_json.compare(d.map(|d| format!("{text:?}: {d}")));
        // The CPU manager reads validated (non-negative) requests; Go's int64 must hold the result.
        if let Ok(q) = &ra2
            && !q.is_negative()
            && q.milli_value() <= i128::from(i64::MAX) - 1000
        {
            let go = go_bool(&answer["parse"], "integerCPU");
            integer.compare((q.is_integer() != go).then(|| format!("{text:?}: ra2 {}, Go {go}", q.is_integer())));
        }
    }
    parse.notes.push(format!(
        "Go's own Value() differs on {negative_quirks} negative inputs (ra2 rounds away from zero, as the int64 path and Value()'s doc do; compared through Neg())"
    ));

    let yaml = yaml_quantities(oracle, &mut rng);
    finish(&[&parse, &from_json, &integer, &yaml]);
}

/// A YAML scalar for a resource amount: plain numbers in every YAML 1.1 notation, quantity
/// strings plain, quoted and double-quoted with escapes, nulls and booleans.
fn gen_yaml_amount(rng: &mut Rng) -> String {
    match rng.below(8) {
        0 | 1 => gen_number_scalar(rng),
        2 => serde_json::to_string(&gen_quantity(rng)).unwrap_or_default(),
        3 => format!("'{}'", gen_quantity(rng).replace('\'', "''")),
        4 => rng
            .pick(&[
                "~",
                "null",
                "",
                "true",
                "yes",
                "on",
                "no",
                "[]",
                "{}",
                "!!str 1",
                "!!int \"3\"",
                "!!float 1",
            ])
            .to_owned(),
        _ => gen_quantity(rng),
    }
}

/// The cpu limit of a pod, written with one YAML scalar, as ra2's model reads it and as the API
/// server decodes it.
fn yaml_quantities(oracle: &Oracle, rng: &mut Rng) -> Tally {
    let mut amounts = BTreeSet::new();
    while amounts.len() < 12_000 {
        amounts.insert(gen_yaml_amount(rng));
    }
    let pods: Vec<String> = amounts
        .iter()
        .map(|a| {
            format!("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: a\n    image: a\n    resources:\n      limits:\n        cpu: {a}\n")
        })
        .collect();
    let requests: Vec<Json> = pods.iter().map(|p| json!({"op": "podcpu", "text": p})).collect();
    let answers = oracle.ask(&requests);
    let mut tally = Tally::new("quantity from YAML (pod cpu limit)");
    let mut ignored = 0;
    for ((amount, pod), answer) in amounts.iter().zip(&pods).zip(&answers) {
        let ra2 = with_pod(pod, |spec| {
            spec.and_then(|p| p.containers().first())
                .and_then(|c| c.resources.limit("cpu"))
                .map_or(Err(QuantityError::Format), |a| a.quantity.clone())
        });
        let d = compare_parsed(&ra2, answer, &mut ignored);
        tally.compare(d.map(|d| format!("cpu: {amount}: {d}")));
    }
    tally
}

// ---------------------------------------------------------------------------------------------
// YAML scalars

/// A number-like plain scalar: integers with every Go/YAML prefix, underscores, signs and
/// overflow; floats with and without (signed) exponents; special floats.
fn gen_number_scalar(rng: &mut Rng) -> String {
    let sign = rng.pick(&["", "", "", "-", "+"]);
    let body = match rng.below(10) {
        0 => {
            let (prefix, alphabet): (&str, &[u8]) = match rng.below(7) {
                0 => ("0x", b"0123456789abcdefABCDEFg"),
                1 => ("0X", b"0123456789abcdef"),
                2 => ("0o", b"012345678"),
                3 => ("0O", b"01234567"),
                4 => ("0b", b"012"),
                5 => ("0B", b"01"),
                _ => ("0", b"012345679"),
            };
            let len = rng.len(6, 70);
            format!("{prefix}{}", rng.digits(alphabet, len))
        }
        1..=3 => {
            let len = 1 + rng.len(6, 25);
            rng.digits(DEC, len)
        }
        4..=7 => {
            let int_len = rng.len(4, 25);
            let frac_len = rng.len(4, 25);
            let mut s = rng.digits(DEC, int_len);
            if !rng.chance(6) {
                s.push('.');
            }
            s.push_str(&rng.digits(DEC, frac_len));
            if rng.chance(2) {
                s.push_str(rng.pick(&["e", "E"]));
                s.push_str(rng.pick(&["", "+", "-"]));
                let exp_len = rng.below(4);
                s.push_str(&rng.digits(DEC, exp_len));
            }
            s
        }
        8 => rng
            .pick(&[
                ".inf",
                ".Inf",
                ".INF",
                ".nan",
                ".NaN",
                ".NAN",
                "inf",
                "nan",
                "Infinity",
                ".iNf",
                "1.",
                ".",
                "..",
                "0.",
                "1e5",
                "1e+5",
                "1E-5",
                "1e400",
                "1e+400",
                "1e-400",
                "4.9e-324",
                "2.5e-324",
                "1.7976931348623157e+308",
                "1.8e+308",
                "9223372036854775807",
                "9223372036854775808",
                "18446744073709551615",
                "18446744073709551616",
                "0x8000000000000000",
                "0xffffffffffffffff",
                "0x10000000000000000",
            ])
            .to_owned(),
        _ => {
            // Underscores anywhere in a number.
            let len = 1 + rng.below(8);
            let mut s = rng.digits(b"0123456789_", len);
            if rng.chance(2) {
                s.push('.');
                let frac = rng.below(4);
                s.push_str(&rng.digits(b"0123456789_", frac));
            }
            format!("{}{s}", rng.pick(&["", "0x", "0b", "0o", "0"]))
        }
    };
    format!("{sign}{body}")
}

/// A plain scalar of any kind the YAML 1.1 resolver distinguishes.
fn gen_plain_scalar(rng: &mut Rng) -> String {
    match rng.below(12) {
        0 | 1 => {
            let word = rng.pick(&[
                "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false", "False",
                "FALSE", "on", "On", "ON", "off", "Off", "OFF", "~", "null", "Null", "NULL", "yES", "tRUE", "nULL",
                "oN", "o", "of", "offf", "nope", "t", "f", "Nil", "none", "None", "NaN", "Yes!", "y1",
            ]);
            word.to_owned()
        }
        2..=6 => gen_number_scalar(rng),
        7 => {
            // Timestamps and near misses (go-yaml keeps them as strings).
            let year_len = 3 + rng.below(3);
            let year = rng.digits(DEC, year_len);
            let month = 1 + rng.below(13);
            let day = 1 + rng.below(32);
            let date = format!("{year}-{month}-{day:02}");
            match rng.below(5) {
                0 => date,
                1 => format!("{date}T{}:{:02}:{:02}Z", rng.below(25), rng.below(61), rng.below(61)),
                2 => format!("{date}t21:59:43.10-05:00"),
                3 => format!("{date} 21:59:43.10 -5"),
                _ => {
                    let len = 1 + rng.below(10);
                    format!("{date}T21:59:43.{}", rng.digits(DEC, len))
                }
            }
        }
        8 => gen_quantity(rng).trim().to_owned(),
        _ => {
            let len = 1 + rng.below(8);
            rng.digits(b"0123456789abefxobn.-+_:eEyYsoNt~lu", len)
        }
    }
}

/// A scalar fit for `v: <s>` / `<s>: v` in block context.
fn usable_plain(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 200
        && !s.contains(['\n', '\r', '#'])
        && !s.contains(": ")
        && !s.ends_with(':')
        && s.trim() == s
}

#[test]
fn differential_yaml_scalars_agree_with_sigs_yaml() {
    let Some(oracle) = oracle() else { return };
    let mut rng = Rng(0x7961_6d6c_2d73_6361);
    let mut scalars: BTreeSet<String> = BTreeSet::new();
    while scalars.len() < 14_000 {
        let s = gen_plain_scalar(&mut rng);
        if usable_plain(&s) {
            scalars.insert(s);
        }
    }
    if let Some(corpus) = corpus() {
        scalars.extend(corpus.plain.iter().filter(|s| usable_plain(s)).cloned());
    }
    let scalars: Vec<String> = scalars.into_iter().collect();
    let value_docs: Vec<String> = scalars.iter().map(|s| format!("v: {s}\n")).collect();
    let key_docs: Vec<String> = scalars.iter().map(|s| format!("{s}: v\n")).collect();
    let mut values = Tally::new("YAML value scalars (v: <s>)");
    let mut keys = Tally::new("YAML key scalars (<s>: v)");
    for (docs, tally) in [(&value_docs, &mut values), (&key_docs, &mut keys)] {
        let requests: Vec<Json> = docs.iter().map(|d| json!({"op": "yaml", "text": d})).collect();
        let answers = oracle.ask(&requests);
        for (doc, answer) in docs.iter().zip(&answers) {
            let go = if go_bool(answer, "ok") {
                let parsed: Json = serde_json::from_str(go_str(answer, "json")).expect("Go's JSON");
                Ok(canonical(&parsed))
            } else {
                Err(go_str(answer, "err").to_owned())
            };
            let ra2 = ra2_yaml(doc);
            let d = match (&ra2, &go) {
                (Ok(a), Ok(b)) if a == b => None,
                (Err(_), Err(_)) => None,
                _ => Some(format!("{doc:?}: ra2 {ra2:?}, Go {go:?}")),
            };
            tally.compare(d);
        }
    }
    finish(&[&values, &keys]);
}

// ---------------------------------------------------------------------------------------------
// QoS

/// One resource amount for a generated pod: the same value in many spellings, so that equal,
/// unequal and zero pairs all occur.
fn gen_amount(rng: &mut Rng, resource: &str) -> String {
    let choices: &[&str] = match resource {
        "cpu" => &[
            "1", "1000m", "\"1\"", "1.0", "'1000m'", "2", "2000m", "500m", "0.5", "\"0.5\"", "0", "0m", "100m", "0.1",
            "1e+0", "1e0", "10e-1", "1001m", "999m", "~",
        ],
        "memory" => &[
            "1Gi",
            "1024Mi",
            "1073741824",
            "1G",
            "1000M",
            "1e9",
            "1e+9",
            "128Mi",
            "134217728",
            "512Mi",
            "0",
            "0Mi",
            "1Gi",
            "2Gi",
            "1.5Gi",
            "1536Mi",
            "~",
        ],
        _ => &["1", "2", "0", "1Gi", "2Mi", "4Mi"],
    };
    rng.pick(choices).to_owned()
}

/// A resource list over `keys`: each key is left out one time in `skip_one_in`; with `like`, a
/// key it has is copied from it (an equal pair) except one time in `differ_one_in`.
fn gen_resource_map(
    rng: &mut Rng,
    keys: &[&str],
    like: Option<&[(String, String)]>,
    (skip_one_in, differ_one_in): (usize, usize),
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for key in keys {
        if rng.chance(skip_one_in) {
            continue;
        }
        let copied = like
            .and_then(|l| l.iter().find(|(k, _)| k == key))
            .filter(|_| !rng.chance(differ_one_in));
        let value = copied.map_or_else(|| gen_amount(rng, key), |(_, v)| v.clone());
        out.push(((*key).to_owned(), value));
    }
    out
}

fn write_resource_map(out: &mut String, name: &str, map: &[(String, String)]) {
    let _ = writeln!(out, "      {name}:");
    for (k, v) in map {
        let _ = writeln!(out, "        {k}: {v}");
    }
}

/// One container; `near_guaranteed` makes complete, equal cpu and memory pairs likely, so that
/// Guaranteed pods and their near misses are common.
fn gen_container(rng: &mut Rng, out: &mut String, name: &str, sidecar: bool, near_guaranteed: bool) {
    let _ = writeln!(out, "  - name: {name}\n    image: r/{name}:1");
    if sidecar {
        out.push_str("    restartPolicy: Always\n");
    }
    let mut keys = vec!["cpu", "memory"];
    if rng.chance(6) {
        keys.push(rng.pick(&["nvidia.com/gpu", "ephemeral-storage", "hugepages-2Mi"]));
    }
    match rng.below(if near_guaranteed { 40 } else { 8 }) {
        0 => return,
        1 => {
            out.push_str("    resources: {}\n");
            return;
        }
        _ => {}
    }
    out.push_str("    resources:\n");
    let odds = if near_guaranteed { (16, 8) } else { (3, 3) };
    let limits = gen_resource_map(rng, &keys, None, odds);
    let requests = gen_resource_map(rng, &keys, Some(&limits), (odds.0 / 2, odds.1));
    // Limits first or requests first: ra2 must not care.
    let sides = [("limits", &limits), ("requests", &requests)];
    let order: [usize; 2] = if rng.chance(2) { [0, 1] } else { [1, 0] };
    for i in order {
        let (side, map) = sides[i];
        if map.is_empty() {
            match rng.below(3) {
                0 => continue,
                1 => {
                    let _ = writeln!(out, "      {side}: {{}}");
                    continue;
                }
                _ => {
                    let _ = writeln!(out, "      {side}: ~");
                    continue;
                }
            }
        }
        write_resource_map(out, side, map);
    }
}

/// Pod-level `spec.resources` (the PodLevelResources feature): cpu and memory limits and requests,
/// now and then hugepages, each side sometimes missing so that the API server's defaulting of a
/// missing pod-level request (KEP-2837) is exercised.
fn gen_pod_resources(rng: &mut Rng, out: &mut String, near_guaranteed: bool) {
    match rng.below(10) {
        0 => return,
        1 => {
            out.push_str("  resources: {}\n");
            return;
        }
        _ => {}
    }
    out.push_str("  resources:\n");
    let mut keys = vec!["cpu", "memory"];
    if rng.chance(8) {
        keys.push("hugepages-2Mi");
    }
    let odds = if near_guaranteed { (12, 6) } else { (3, 3) };
    let limits = gen_resource_map(rng, &keys, None, odds);
    // Requests are left out entirely often: the case the defaulting decides.
    let requests = if rng.chance(2) {
        Vec::new()
    } else {
        gen_resource_map(rng, &keys, Some(&limits), (odds.0 / 2, odds.1))
    };
    for (side, map) in [("limits", &limits), ("requests", &requests)] {
        if !map.is_empty() {
            // Two more spaces than a container's lists: write then shift.
            let mut list = String::new();
            write_resource_map(&mut list, side, map);
            for line in list.lines() {
                let _ = writeln!(out, "{}", line.strip_prefix("  ").unwrap_or(line));
            }
        }
    }
}

fn gen_pod(rng: &mut Rng, pod_level: bool) -> String {
    let mut out = String::from("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n");
    let near = rng.chance(2);
    if pod_level {
        gen_pod_resources(rng, &mut out, near);
    }
    let inits = if rng.chance(2) { 0 } else { 1 + rng.below(3) };
    if inits > 0 {
        out.push_str("  initContainers:\n");
        for i in 0..inits {
            let sidecar = rng.chance(2);
            gen_container(rng, &mut out, &format!("init{i}"), sidecar, near);
        }
    }
    out.push_str("  containers:\n");
    for i in 0..=rng.below(3) {
        gen_container(rng, &mut out, &format!("c{i}"), false, near);
    }
    if rng.chance(8) {
        // Ephemeral containers never count (and cannot set resources through the API).
        out.push_str("  ephemeralContainers:\n");
        gen_container(rng, &mut out, "debug", false, false);
    }
    out
}

#[test]
fn differential_qos_agrees_with_kubectl() {
    qos_against_kubectl(false, 0x716f_735f_636c_6173);
}

/// Kubernetes 1.34 (PodLevelResources on by default): pods with pod-level `spec.resources`.
#[test]
fn differential_qos_with_pod_level_resources_agrees_with_kubectl() {
    qos_against_kubectl(true, 0x706f_645f_6c65_7665);
}

fn qos_against_kubectl(pod_level: bool, seed: u64) {
    let Some(oracle) = oracle() else { return };
    let mut rng = Rng(seed);
    let mut pods: BTreeSet<String> = BTreeSet::new();
    while pods.len() < 12_000 {
        pods.insert(gen_pod(&mut rng, pod_level));
    }
    let mut inputs: Vec<(String, Option<String>)> = pods.into_iter().map(|p| (p, None)).collect();
    if let Some(corpus) = corpus() {
        inputs.extend(corpus.workloads.iter().map(|(t, p)| (t.clone(), Some(p.clone()))));
    }
    let requests: Vec<Json> = inputs
        .iter()
        .map(|(text, pointer)| match pointer {
            Some(p) => json!({"op": "qos", "text": text, "pointer": p, "podLevel": pod_level}),
            None => json!({"op": "qos", "text": text, "podLevel": pod_level}),
        })
        .collect();
    let answers = oracle.ask(&requests);
    let mut tally = Tally::new(if pod_level {
        "QoS class, pod-level resources (1.34)"
    } else {
        "QoS class"
    });
    let mut undecodable = 0;
    let mut classes = std::collections::BTreeMap::<&str, usize>::new();
    for ((text, pointer), answer) in inputs.iter().zip(&answers) {
        if !go_bool(answer, "ok") {
            // The API server would reject the object (an invalid quantity or a wrongly typed
            // field): there is no QoS class to compare. Generated pods must always decode.
            if pointer.is_some() {
                undecodable += 1;
            } else {
                tally.compare(Some(format!(
                    "Go cannot decode a generated pod ({}):\n{text}",
                    go_str(answer, "err")
                )));
            }
            continue;
        }
        let ra2 = with_pod(text, |pod| {
            pod.map(|p| ra2_core::resources::pod_qos(p, pod_level).as_str())
        });
        let go = go_str(answer, "class");
        *classes.entry(go).or_default() += 1;
        tally.compare((ra2 != Some(go)).then(|| format!("ra2 {ra2:?}, Go {go}:\n{text}")));
    }
    let workloads = inputs.iter().filter(|(_, p)| p.is_some()).count();
    tally.notes.push(format!(
        "{} generated pods and {} corpus workloads ({undecodable} the API server would reject skipped); Go classes {classes:?}",
        inputs.len() - workloads,
        workloads - undecodable
    ));
    finish(&[&tally]);
}

// ---------------------------------------------------------------------------------------------
// Component flags: --runtime-config and --feature-gates

/// The group versions the API server of the runtime-config property knows: GA, beta and alpha
/// versions of a few groups, the core group written as `v1`.
const REGISTRY: &[&str] = &[
    "v1",
    "apps/v1",
    "batch/v1",
    "batch/v1beta1",
    "batch/v2alpha1",
    "autoscaling/v1",
    "autoscaling/v2",
    "networking.k8s.io/v1",
    "networking.k8s.io/v1beta1",
    "resource.k8s.io/v1",
    "resource.k8s.io/v1beta1",
    "resource.k8s.io/v1beta2",
    "resource.k8s.io/v1alpha3",
    "storage.k8s.io/v1",
    "storage.k8s.io/v1beta1",
    "storage.k8s.io/v1alpha1",
    "internal.apiserver.k8s.io/v1alpha1",
];

/// Resources the default configuration enables one by one (as kube-apiserver's defaults do for
/// some resources of versions that are off), so a level or version entry must drop them.
const DEFAULT_RESOURCES: &[&str] = &[
    "batch/v2alpha1/cronjobs",
    "resource.k8s.io/v1beta1/deviceclasses",
    "storage.k8s.io/v1alpha1/volumeattributesclasses",
];

const RESOURCES: &[&str] = &["jobs", "cronjobs", "deviceclasses", "volumeattributesclasses", "pods"];

/// `(group, version)` of a registry entry; the core group is `""`.
fn split_gv(gv: &str) -> (&str, &str) {
    gv.split_once('/').unwrap_or(("", gv))
}

struct TestRegistry;

impl ra2_core::runtime_config::Registry for TestRegistry {
    fn is_group_registered(&self, group: &str) -> bool {
        REGISTRY.iter().any(|gv| split_gv(gv).0 == group)
    }

    fn is_version_registered(&self, group: &str, version: &str) -> bool {
        REGISTRY.iter().any(|gv| split_gv(gv) == (group, version))
    }
}

/// A `--runtime-config` value for a group version as written on a command line: the core group
/// as `/v1` (its group is empty), other groups as `group/version`.
fn written_gv(gv: &str) -> String {
    match gv.split_once('/') {
        Some(_) => gv.to_owned(),
        None => format!("/{gv}"),
    }
}

fn gen_runtime_value(rng: &mut Rng) -> String {
    const GOOD: &[&str] = &["true", "false"];
    const ODD: &[&str] = &[
        "", "1", "0", "t", "F", "TRUE", "False", "yes", "on", "2", " true", "false ",
    ];
    if rng.chance(6) {
        rng.pick(ODD).to_owned()
    } else {
        rng.pick(GOOD).to_owned()
    }
}

/// One `--runtime-config` item: mostly well-formed, over every kind of key.
fn gen_runtime_item(rng: &mut Rng) -> String {
    let key = match rng.below(20) {
        0..=6 => rng.pick(&["api/all", "api/ga", "api/beta", "api/alpha"]).to_owned(),
        7..=12 => written_gv(rng.pick(REGISTRY)),
        13..=15 => {
            let resource = if rng.chance(12) { "Jobs" } else { rng.pick(RESOURCES) };
            format!("{}/{resource}", written_gv(rng.pick(REGISTRY)))
        }
        16 if rng.chance(2) => rng
            .pick(&[
                "v1",
                "api/v1",
                "apps/v1beta2",
                "foo.example.com/v1",
                "/",
                "api/legacy",
                "a/b/c/d",
                "",
                " ",
            ])
            .to_owned(),
        _ => rng
            .pick(&["api/alpha", "batch/v2alpha1", "resource.k8s.io/v1alpha3"])
            .to_owned(),
    };
    let pad = |rng: &mut Rng| if rng.chance(6) { " " } else { "" };
    let (a, b) = (pad(rng), pad(rng));
    match rng.below(16) {
        // A bare key.
        0 => format!("{a}{key}{b}"),
        _ => format!("{a}{key}{b}={}", gen_runtime_value(rng)),
    }
}

fn gen_runtime_config(rng: &mut Rng) -> Vec<String> {
    let occurrences = 1 + rng.below(3);
    (0..occurrences)
        .map(|_| {
            let items = 1 + rng.below(5);
            let mut items: Vec<String> = (0..items).map(|_| gen_runtime_item(rng)).collect();
            if rng.chance(10) {
                items.push(String::new());
            }
            items.join(",")
        })
        .collect()
}

/// Go's default in the oracle: GA versions on, others off.
fn go_ga(version: &str) -> bool {
    version.len() > 1 && version.starts_with('v') && version[1..].bytes().all(|b| b.is_ascii_digit())
}

/// ra2's answer in the oracle's form: every registry version and probed resource, served or not.
fn ra2_runtime_config(flags: &[String], probes: &[String]) -> Result<Json, String> {
    use ra2_core::runtime_config::RuntimeConfig;
    let map = ra2_core::flags::configuration_map(flags.iter().map(|f| (f.as_str(), ())));
    let config = RuntimeConfig::resolve(&map, &TestRegistry).map_err(|e| e.to_string())?;
    let mut versions = serde_json::Map::new();
    for gv in REGISTRY {
        let (group, version) = split_gv(gv);
        let on = config.version(group, version).map_or(go_ga(version), |s| s.on);
        versions.insert(format!("{group}/{version}"), Json::Bool(on));
    }
    let mut resources = serde_json::Map::new();
    for probe in probes {
        let mut parts = probe.splitn(3, '/');
        let (group, version, resource) = (
            parts.next().unwrap_or(""),
            parts.next().unwrap_or(""),
            parts.next().unwrap_or(""),
        );
        let on = config.resource(group, version, resource).map_or_else(
            || DEFAULT_RESOURCES.contains(&probe.as_str()) || go_ga(version),
            |s| s.on,
        );
        resources.insert(probe.clone(), Json::Bool(on));
    }
    Ok(json!({"versions": versions, "resources": resources}))
}

#[test]
fn differential_runtime_config_agrees_with_apiserver() {
    let Some(oracle) = oracle() else { return };
    let mut rng = Rng(0x7275_6e74_696d_6563);
    let mut sets: BTreeSet<Vec<String>> = BTreeSet::new();
    for edge in [
        &["api/all=true,api/alpha=false"][..],
        &["api/alpha=false,api/all=true"],
        &["api/alpha=true", "api/all=false"],
        &["api/all=false"],
        &["api/alpha"],
        &["batch/v2alpha1"],
        &["api/alpha=false,batch/v2alpha1=true"],
        &["api/all=true,batch/v2alpha1/cronjobs=false"],
        &["/v1=false,api/ga=true"],
        &["api/ga=true, "],
    ] {
        sets.insert(edge.iter().map(|s| (*s).to_owned()).collect());
    }
    while sets.len() < 12_000 {
        sets.insert(gen_runtime_config(&mut rng));
    }
    let mut probes: Vec<String> = Vec::new();
    for gv in REGISTRY {
        let (group, version) = split_gv(gv);
        probes.extend(RESOURCES.iter().map(|r| format!("{group}/{version}/{r}")));
    }
    let requests: Vec<Json> = sets
        .iter()
        .map(|flags| {
            json!({"op": "runtimeconfig", "flags": flags, "registry": REGISTRY,
                   "defaultResources": DEFAULT_RESOURCES, "probes": probes})
        })
        .collect();
    let answers = oracle.ask(&requests);
    let mut tally = Tally::new("--runtime-config");
    let mut alpha_served = 0;
    let accepted = compare_flag_outcomes(&mut tally, &sets, &answers, |flags, answer| {
        let ours = ra2_runtime_config(flags, &probes)?;
        let alpha = answer["versions"]
            .as_object()
            .is_some_and(|m| m.iter().any(|(gv, on)| gv.contains("alpha") && on == &Json::Bool(true)));
        alpha_served += usize::from(alpha);
        Ok(
            (ours["versions"] != answer["versions"] || ours["resources"] != answer["resources"])
                .then(|| format!("ra2 {ours}, Go {answer}")),
        )
    });
    tally.notes.push(format!(
        "{accepted} accepted by both ({alpha_served} serving an alpha version), {} refused by both",
        tally.inputs - accepted - tally.disagreements.len()
    ));
    finish(&[&tally]);
}

/// Compares each flag set's outcome: both refuse it, or both accept it and `agree` (ra2's refusal
/// as `Err`, a difference in what is on as `Ok(Some)`) finds nothing. Returns how many both
/// accepted.
fn compare_flag_outcomes(
    tally: &mut Tally,
    sets: &BTreeSet<Vec<String>>,
    answers: &[Json],
    mut agree: impl FnMut(&[String], &Json) -> Result<Option<String>, String>,
) -> usize {
    let mut accepted = 0;
    for (flags, answer) in sets.iter().zip(answers) {
        let disagreement = match (agree(flags, answer), go_bool(answer, "ok")) {
            (Ok(difference), true) => {
                accepted += 1;
                difference.map(|d| format!("{flags:?}: {d}"))
            }
            (Err(_), false) => None,
            (Ok(_), false) => Some(format!("{flags:?}: ra2 accepts, Go refuses: {}", go_str(answer, "err"))),
            (Err(e), true) => Some(format!("{flags:?}: ra2 refuses ({e}), Go accepts")),
        };
        tally.compare(disagreement);
    }
    accepted
}

/// The gates the component of the feature-gates property knows, and their stages as the oracle
/// reads them (see `featureGates` in tests/differential/flags.go).
const KNOWN_GATES: &[(&str, &str)] = &[
    ("AlphaOne", "alpha"),
    ("AlphaTwo", "alpha"),
    ("BetaOn", "beta+on"),
    ("BetaOff", "beta"),
    ("GaLocked", "ga+on+locked"),
    ("GaOpen", "ga+on"),
    ("Old", "deprecated"),
    ("Early", "prealpha"),
];

fn gate_spec(name: &str) -> ra2_core::flags::GateSpec {
    use ra2_core::flags::GateSpec;
    match KNOWN_GATES.iter().find(|(n, _)| *n == name) {
        Some((_, stage)) => GateSpec::Known {
            default: stage.contains("+on"),
            locked: stage.contains("+locked"),
            pre_alpha: stage.starts_with("prealpha"),
        },
        None => GateSpec::Unknown,
    }
}

fn gen_gate_item(rng: &mut Rng) -> String {
    let key = match rng.below(12) {
        0 => "AllAlpha",
        1 => "AllBeta",
        2 if rng.chance(4) => "NoSuchGate",
        // Early (pre-alpha) can never be set: seldom.
        _ => {
            let gates = if rng.chance(8) { KNOWN_GATES } else { &KNOWN_GATES[..7] };
            rng.pick(gates).0
        }
    };
    let value = if rng.chance(10) {
        rng.pick(&["", "yes", "on", "2", "TRUE", "True", "t", "0", "F"])
    } else {
        rng.pick(&["true", "false"])
    };
    let pad = |rng: &mut Rng| if rng.chance(6) { " " } else { "" };
    let (a, b, c) = (pad(rng), pad(rng), pad(rng));
    let item = if rng.chance(40) {
        format!("{a}{key}{b}")
    } else {
        format!("{a}{key}{b}={c}{value}")
    };
    match rng.below(80) {
        0 => format!("kube:{item}"),
        1 => format!(" kube :{item}"),
        2 => format!("wardle:{item}"),
        3 => format!(":{item}"),
        _ => item,
    }
}

fn gen_feature_gates(rng: &mut Rng) -> Vec<String> {
    let prefixed = rng.chance(6);
    let occurrences = 1 + rng.below(3);
    (0..occurrences)
        .map(|_| {
            let items = 1 + rng.below(5);
            let mut items: Vec<String> = (0..items)
                .map(|_| {
                    let item = gen_gate_item(rng);
                    // Mostly one way of naming the component throughout, as the flag requires.
                    if prefixed && !item.contains(':') {
                        format!("kube:{item}")
                    } else {
                        item
                    }
                })
                .collect();
            if rng.chance(10) {
                items.push(rng.pick(&["", " "]).to_owned());
            }
            items.join(",")
        })
        .collect()
}

/// ra2's answer in the oracle's form: whether each gate is on.
fn ra2_feature_gates(flags: &[String]) -> Result<Json, String> {
    let set =
        ra2_core::flags::feature_gates(flags.iter().map(|f| (f.as_str(), ())), gate_spec).map_err(|e| e.to_string())?;
    let explicit = |name: &str| set.get(name).map(|(on, _)| *on);
    let mut enabled = serde_json::Map::new();
    for name in ["AllAlpha", "AllBeta"] {
        enabled.insert(name.to_owned(), Json::Bool(explicit(name).unwrap_or(false)));
    }
    for (name, stage) in KNOWN_GATES {
        let all = if stage.starts_with("alpha") {
            explicit("AllAlpha")
        } else if stage.starts_with("beta") {
            explicit("AllBeta")
        } else {
            None
        };
        let on = explicit(name).or(all).unwrap_or(stage.contains("+on"));
        enabled.insert((*name).to_owned(), Json::Bool(on));
    }
    Ok(Json::Object(enabled))
}

#[test]
fn differential_feature_gates_agree_with_component_base() {
    let Some(oracle) = oracle() else { return };
    let mut rng = Rng(0x6665_6174_7572_6567);
    let mut sets: BTreeSet<Vec<String>> = BTreeSet::new();
    for edge in [
        &["AllAlpha=true", "AllAlpha=false"][..],
        &["AllAlpha=false,AlphaOne=true"],
        &["AlphaOne=true,AllAlpha=false"],
        &["AllAlpha"],
        &["kube:AlphaOne=true", "AlphaTwo=true"],
        &["GaLocked=false"],
        &[" , AlphaOne = 1 "],
    ] {
        sets.insert(edge.iter().map(|s| (*s).to_owned()).collect());
    }
    while sets.len() < 12_000 {
        sets.insert(gen_feature_gates(&mut rng));
    }
    let known: serde_json::Map<String, Json> = KNOWN_GATES
        .iter()
        .map(|(n, s)| ((*n).to_owned(), Json::from(*s)))
        .collect();
    let requests: Vec<Json> = sets
        .iter()
        .map(|flags| json!({"op": "featuregates", "flags": flags, "known": known}))
        .collect();
    let answers = oracle.ask(&requests);
    let mut tally = Tally::new("--feature-gates");
    let accepted = compare_flag_outcomes(&mut tally, &sets, &answers, |flags, answer| {
        let ours = ra2_feature_gates(flags)?;
        Ok((ours != answer["enabled"]).then(|| format!("ra2 {ours}, Go {answer}")))
    });
    tally.notes.push(format!(
        "{accepted} accepted by both, {} refused by both",
        tally.inputs - accepted - tally.disagreements.len()
    ));
    finish(&[&tally]);
}
