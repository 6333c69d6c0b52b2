//! Shared parts of the fuzz targets: the configurations they lint with, and the structure-aware
//! mutators (YAML text for `lint_structured`, JSON trees for `admission_review`).
//!
//! The mutators take libFuzzer's seed for their choices, so a run is reproducible, and fall back
//! to libFuzzer's byte-level mutations for input they cannot read (and now and then anyway, so
//! that both kinds of change mix).
//!
//! Every target runs its input inside [`within_budget`], which fails the input when the heap it
//! holds at its peak exceeds [`BUDGET`]: the per-input memory limit, measured by a counting
//! allocator, so that it is independent of libFuzzer's own corpus (which the process-wide
//! `-rss_limit_mb` counts too).
#![deny(unsafe_code)]

mod budget;

pub use budget::{BUDGET, within_budget};
use ra2_core::{Config, Edition};
use serde_json::{Map, Value};

/// The configuration for an input: the edition follows the input's length, so that both editions
/// are fuzzed and a crash reproduces from the input alone.
pub fn config_for(data: &[u8]) -> Config {
    let mut config = Config::default();
    if data.len() % 2 == 1 {
        config.edition = Edition::Latest;
    }
    config
}

/// What `lint_bytes` and `lint_structured` do with an input: lint it as a file, within the
/// budget, and write the report as JSON (the renderers must cope with whatever was found).
pub fn lint_file_bytes(data: &[u8]) {
    within_budget(|| {
        let config = config_for(data);
        let mut linter = ra2_core::Linter::new(&config);
        linter.add_file_bytes("fuzz.yaml", data);
        let report = linter.finish();
        let _ = report.to_json_compact();
    });
}

/// A small deterministic generator (xorshift64*), seeded by libFuzzer.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u32) -> Self {
        Rng(u64::from(seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// One of `items` (which must not be empty).
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

/// Characters that YAML, JSON or terminals treat specially: line breaks libyaml knows (NEL, LS,
/// PS), a BOM in the middle, zero-width and bidi controls, NBSP, a combining mark, an astral-plane
/// character, the replacement character, and a NUL.
const UNICODE: &[&str] = &[
    "\u{85}",
    "\u{2028}",
    "\u{2029}",
    "\u{feff}",
    "\u{200b}",
    "\u{202e}",
    "\u{a0}",
    "\u{301}",
    "\u{1f600}",
    "\u{fffd}",
    "\0",
    "\t",
    "\r",
    "\r\n",
    "é",
    "ﬀ",
    "İ",
    "ß",
    "\u{10ffff}",
];

/// Scalars with a past: YAML 1.1 booleans and octals, huge and odd numbers and quantities,
/// special floats, timestamps, empty and quoted forms, and an alias to nowhere.
const SCALARS: &[&str] = &[
    "yes",
    "No",
    "on",
    "OFF",
    "y",
    "~",
    "null",
    "0o17",
    "017",
    "0x1F",
    "1e400",
    "-0",
    ".nan",
    "-.inf",
    "9223372036854775808",
    "-9223372036854775809",
    "3642100000",
    "1_000",
    "2001-12-14",
    "''",
    "\"\"",
    "\"\\u0000\"",
    "'it''s'",
    "1Ei",
    "100Mi",
    "0.5m",
    "1e3",
    "1E-3",
    "+5",
    "1.5Gi",
    "999999999999999999999999Ki",
    "*missing",
    "!!binary aGVsbG8=",
    "!!str 1",
    "!custom x",
    "!!int \"12\"",
    "!!float 1",
    "? complex",
    "|",
    ">-",
];

const KEYS: &[&str] = &[
    "apiVersion",
    "kind",
    "metadata",
    "name",
    "namespace",
    "labels",
    "annotations",
    "spec",
    "template",
    "containers",
    "initContainers",
    "image",
    "resources",
    "limits",
    "requests",
    "cpu",
    "memory",
    "hugepages-2Mi",
    "securityContext",
    "privileged",
    "capabilities",
    "add",
    "hostPath",
    "volumes",
    "hostNetwork",
    "hostPID",
    "ports",
    "containerPort",
    "targetPort",
    "k8s.v1.cni.cncf.io/networks",
    "danm.k8s.io/interfaces",
    "nodeSelector",
    "affinity",
    "jobTemplate",
    "items",
    "<<",
    "readOnlyRootFilesystem",
    "runAsNonRoot",
    "config",
    "type",
];

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// The byte offset of the `:` that separates a block mapping line's key from its value.
fn key_colon(line: &str) -> Option<usize> {
    let trimmed = line.trim_start();
    let start = line.len() - trimmed.len();
    let body = trimmed.strip_prefix("- ").unwrap_or(trimmed);
    let skip = trimmed.len() - body.len();
    if body.starts_with('#') || body.starts_with('"') || body.starts_with('\'') {
        return None;
    }
    let pos = body.find(": ").or_else(|| body.strip_suffix(':').map(str::len))?;
    Some(start + skip + pos)
}

fn char_boundary_at(text: &str, rng: &mut Rng) -> usize {
    let mut at = rng.below(text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The structure-aware mutator of the YAML targets (`fuzz_mutator!`): one to three
/// [`mutate_yaml`] changes of the input's text, or libFuzzer's own byte mutation one time in five,
/// for input that is not UTF-8, and when the result would not fit.
pub fn mutate_manifest(data: &mut [u8], size: usize, max_size: usize, seed: u32) -> usize {
    let mut rng = Rng::new(seed);
    let Ok(text) = std::str::from_utf8(&data[..size]) else {
        return libfuzzer_sys::fuzzer_mutate(data, size, max_size);
    };
    if rng.chance(5) {
        return libfuzzer_sys::fuzzer_mutate(data, size, max_size);
    }
    let mut text = text.to_owned();
    for _ in 0..=rng.below(3) {
        if let Some(next) = mutate_yaml(&text, &mut rng) {
            text = next;
        }
    }
    if text.len() > max_size {
        return libfuzzer_sys::fuzzer_mutate(data, size, max_size);
    }
    data[..text.len()].copy_from_slice(text.as_bytes());
    text.len()
}

/// One structural change to a YAML document's text, or `None` when the chosen change has no place
/// in this text.
#[allow(clippy::too_many_lines)]
pub fn mutate_yaml(text: &str, rng: &mut Rng) -> Option<String> {
    let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    let mut keyed: Vec<usize> = (0..lines.len()).filter(|&i| key_colon(&lines[i]).is_some()).collect();
    if keyed.is_empty() {
        // No key lines: the changes that need one fall back to the first line.
        keyed.push(0);
    }
    let anchor = format!("a{}", rng.below(4));
    match rng.below(14) {
        // An anchor on a value (or on a nested node), and aliases to it elsewhere.
        0 => {
            let i = rng.pick(&keyed);
            let colon = key_colon(&lines[i])?;
            lines[i].insert_str(colon + 1, &format!(" &{anchor}"));
            for _ in 0..=rng.below(3) {
                let j = rng.pick(&keyed);
                let colon = key_colon(&lines[j])?;
                lines[j].truncate(colon + 1);
                lines[j].push_str(&format!(" *{anchor}"));
            }
        }
        // A merge key (single alias, list of aliases, or inline mapping) at some mapping's level.
        1 => {
            let i = rng.pick(&keyed);
            let indent = " ".repeat(indent_of(&lines[i]));
            let value = match rng.below(4) {
                0 => format!("*{anchor}"),
                1 => format!("[*{anchor}, *a{}]", rng.below(4)),
                2 => "{a: 1, <<: {b: 2}}".to_owned(),
                _ => rng.pick(SCALARS).to_string(),
            };
            lines.insert(i, format!("{indent}<<: {value}"));
        }
        // A duplicate key: a key line (with its value) repeated, or renamed to a sibling's key.
        2 => {
            let i = rng.pick(&keyed);
            if rng.chance(2) {
                let copy = lines[i].clone();
                lines.insert(i + rng.below(2), copy);
            } else {
                let colon = key_colon(&lines[i])?;
                let key = rng.pick(KEYS);
                let indent = indent_of(&lines[i]);
                let prefix = if lines[i].trim_start().starts_with("- ") {
                    "- "
                } else {
                    ""
                };
                lines[i] = format!("{}{prefix}{key}{}", " ".repeat(indent), &lines[i][colon..]);
            }
        }
        // Block to flow: a key's nested block (mapping or sequence) written as one flow node.
        3 => {
            let i = rng.pick(&keyed);
            let indent = indent_of(&lines[i]);
            if !lines[i].trim_end().ends_with(':') {
                return None;
            }
            let mut end = i + 1;
            while end < lines.len() && (lines[end].trim().is_empty() || indent_of(&lines[end]) > indent) {
                end += 1;
            }
            let items: Vec<String> = lines[i + 1..end]
                .iter()
                .map(|l| l.trim().trim_start_matches("- ").to_owned())
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .collect();
            let seq = lines.get(i + 1).is_some_and(|l| l.trim_start().starts_with("- "));
            let flow = if seq {
                format!("[{}]", items.join(", "))
            } else {
                format!("{{{}}}", items.join(", "))
            };
            lines[i].push(' ');
            lines[i].push_str(&flow);
            lines.drain(i + 1..end);
        }
        // Flow to block: a flow sequence or mapping spread over lines.
        4 => {
            let i = (0..lines.len()).find(|&i| lines[i].contains(": [") || lines[i].contains(": {"))?;
            let open = lines[i].find(": [").or_else(|| lines[i].find(": {"))? + 2;
            let inner = lines[i][open + 1..].trim_end().trim_end_matches([']', '}']).to_owned();
            let seq = lines[i][open..].starts_with('[');
            let indent = " ".repeat(indent_of(&lines[i]) + 2);
            lines[i].truncate(open - 1);
            let block: Vec<String> = inner
                .split(',')
                .map(|item| {
                    if seq {
                        format!("{indent}- {}", item.trim())
                    } else {
                        format!("{indent}{}", item.trim())
                    }
                })
                .collect();
            for (k, line) in block.into_iter().enumerate() {
                lines.insert(i + 1 + k, line);
            }
        }
        // Indentation shifts: one line or a run of lines, by spaces or a tab.
        5 => {
            let i = rng.below(lines.len());
            let n = 1 + rng.below(6);
            for line in lines.iter_mut().skip(i).take(n) {
                match rng.below(3) {
                    0 => line.insert_str(0, &" ".repeat(1 + rng.below(3))),
                    1 => {
                        let drop = indent_of(line).min(1 + rng.below(2));
                        line.drain(..drop);
                    }
                    _ => line.insert(0, '\t'),
                }
            }
        }
        // Unicode (and control characters) at a random place.
        6 => {
            let mut out = lines.join("\n");
            for _ in 0..=rng.below(3) {
                let at = char_boundary_at(&out, rng);
                out.insert_str(at, rng.pick(UNICODE));
            }
            return Some(out);
        }
        // A value replaced by an odd scalar.
        7 => {
            let i = rng.pick(&keyed);
            let colon = key_colon(&lines[i])?;
            lines[i].truncate(colon + 1);
            lines[i].push(' ');
            lines[i].push_str(rng.pick(SCALARS));
        }
        // Document markers and directives.
        8 => {
            let i = rng.below(lines.len() + 1);
            let marker = rng.pick(&[
                "---",
                "...",
                "--- |",
                "%YAML 1.1\n---",
                "%TAG !e! tag:x,2000:\n---",
                "--- # c",
                "---\n---",
                "# only a comment\n---",
            ]);
            lines.insert(i, marker.to_owned());
        }
        // A key line duplicated under a new parent, nesting a document deeper.
        9 => {
            let i = rng.below(lines.len());
            let n = 1 + rng.below(lines.len() - i);
            let copy: Vec<String> = lines[i..i + n].iter().map(|l| format!("  {l}")).collect();
            let at = rng.below(lines.len() + 1);
            let key = format!("{}:", rng.pick(KEYS));
            lines.insert(at, key);
            for (k, line) in copy.into_iter().enumerate() {
                lines.insert(at + 1 + k, line);
            }
        }
        // Lines removed or swapped.
        10 => {
            let i = rng.below(lines.len());
            if rng.chance(2) {
                lines.remove(i);
            } else {
                let j = rng.below(lines.len());
                lines.swap(i, j);
            }
        }
        // A new key with an odd value (or a block scalar) at a key's level.
        11 => {
            let i = rng.pick(&keyed);
            let indent = " ".repeat(indent_of(&lines[i]));
            let value = if rng.chance(3) {
                format!(
                    "|{}\n{indent}  text\n{indent}   more",
                    rng.pick(&["", "-", "+", "2", "9"])
                )
            } else {
                rng.pick(SCALARS).to_string()
            };
            lines.insert(i, format!("{indent}{}: {value}", rng.pick(KEYS)));
        }
        // Quoting: a value wrapped in quotes, or a key made complex.
        12 => {
            let i = rng.pick(&keyed);
            let colon = key_colon(&lines[i])?;
            let value = lines[i][colon + 1..].trim().to_owned();
            lines[i].truncate(colon + 1);
            match rng.below(3) {
                0 => lines[i].push_str(&format!(" \"{}\"", value.replace('"', "\\\""))),
                1 => lines[i].push_str(&format!(" '{}'", value.replace('\'', "''"))),
                _ => lines[i].push_str(&format!(" !!str {value}")),
            }
        }
        // Line endings: CRLF or lone CR for the whole text.
        _ => {
            let eol = rng.pick(&["\r\n", "\r", "\n\n"]);
            return Some(lines.join(eol));
        }
    }
    Some(lines.join("\n"))
}

/// Values for JSON nodes: every type, edge numbers and odd strings.
fn json_value(rng: &mut Rng) -> Value {
    match rng.below(16) {
        0 => Value::Null,
        1 => Value::Bool(rng.chance(2)),
        2 => Value::from(i64::MIN),
        3 => Value::from(u64::MAX),
        4 => serde_json::json!(-0.0),
        5 => serde_json::json!(1e308),
        6 => Value::from(3_642_100_000_i64),
        7 => Value::String(String::new()),
        8 => Value::String(rng.pick(UNICODE).repeat(1 + rng.below(3))),
        9 => Value::String(rng.pick(SCALARS).to_string()),
        10 => Value::Array(Vec::new()),
        11 => Value::Object(Map::new()),
        12 => Value::String(
            rng.pick(&["CREATE", "UPDATE", "DELETE", "CONNECT", "create", ""])
                .to_string(),
        ),
        13 => Value::String(
            rng.pick(&[
                "Pod",
                "Deployment",
                "CronJob",
                "DaemonSet",
                "StatefulSet",
                "Job",
                "ReplicaSet",
                "DeploymentConfig",
                "Rollout",
                "Service",
                "Configuration",
                "List",
                "NetworkAttachmentDefinition",
                "Namespace",
                "AdmissionReview",
            ])
            .to_string(),
        ),
        14 => Value::String(
            rng.pick(&[
                "v1",
                "apps/v1",
                "batch/v1",
                "admission.k8s.io/v1",
                "admission.k8s.io/v1beta1",
                "k8s.cni.cncf.io/v1",
                "apps.openshift.io/v1",
                "argoproj.io/v1alpha1",
                "serving.knative.dev/v1",
            ])
            .to_string(),
        ),
        _ => Value::String(
            rng.pick(&["1Gi", "500m", "2", "1e3", "-1", "0.0001m", "1Ei", "x"])
                .to_string(),
        ),
    }
}

/// The JSON pointers of every node of a tree.
fn pointers(value: &Value, at: &mut String, out: &mut Vec<String>) {
    out.push(at.clone());
    let len = at.len();
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                at.push('/');
                at.push_str(&key.replace('~', "~0").replace('/', "~1"));
                pointers(child, at, out);
                at.truncate(len);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                at.push_str(&format!("/{i}"));
                pointers(child, at, out);
                at.truncate(len);
            }
        }
        _ => {}
    }
}

/// One structural change to a JSON tree (an AdmissionReview).
pub fn mutate_json(value: &mut Value, rng: &mut Rng) {
    let mut all = Vec::new();
    pointers(value, &mut String::new(), &mut all);
    let at = all[rng.below(all.len())].clone();
    let donor = value
        .pointer(&all[rng.below(all.len())])
        .cloned()
        .unwrap_or(Value::Null);
    let Some(node) = value.pointer_mut(&at) else { return };
    match rng.below(8) {
        // A node replaced by a value of any type.
        0 | 1 => *node = json_value(rng),
        // A key removed, renamed, or added.
        2 => {
            if let Value::Object(map) = node {
                let keys: Vec<String> = map.keys().cloned().collect();
                if !keys.is_empty() {
                    let key = keys[rng.below(keys.len())].clone();
                    if let Some(v) = map.remove(&key) {
                        if rng.chance(2) {
                            map.insert(rng.pick(KEYS).to_string(), v);
                        }
                    }
                }
            }
        }
        3 => {
            if let Value::Object(map) = node {
                map.insert(rng.pick(KEYS).to_string(), json_value(rng));
            }
        }
        // Another part of the tree copied here (objects inside objects, lists of lists).
        4 => *node = donor,
        // Array elements duplicated or removed.
        5 => {
            if let Value::Array(items) = node {
                if let Some(first) = items.first().cloned() {
                    if rng.chance(2) {
                        items.push(first);
                    } else {
                        items.remove(rng.below(items.len()));
                    }
                }
            }
        }
        // A node wrapped in an array or an object.
        6 => {
            let inner = node.take();
            *node = if rng.chance(2) {
                Value::Array(vec![inner])
            } else {
                serde_json::json!({ rng.pick(KEYS).to_string(): inner })
            };
        }
        // A string stretched with unicode, or turned into a number string.
        _ => {
            if let Value::String(s) = node {
                let at = char_boundary_at(s, rng);
                s.insert_str(at, rng.pick(UNICODE));
            } else {
                *node = Value::String(node.to_string());
            }
        }
    }
}
