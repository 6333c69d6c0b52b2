//! Helpers shared by the cross-crate tests.
// Test support: failing loudly on a broken fixture is the point.
#![allow(clippy::missing_panics_doc)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ra2_core::{Config, Report};

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `../shared/corpus` beside the checkout, if present.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = root().join("..").join("shared").join("corpus");
    dir.is_dir().then_some(dir)
}

/// Every manifest of the corpus (`.yaml`, `.yml`, `.json`) as (path relative to the corpus, text),
/// sorted by path; `None` when the corpus is not beside the checkout.
pub fn corpus_files() -> Option<Vec<(String, String)>> {
    let dir = corpus_dir()?;
    let mut files = Vec::new();
    let mut stack = vec![dir.clone()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("readable corpus dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
            {
                let name = path
                    .strip_prefix(&dir)
                    .expect("under corpus")
                    .to_string_lossy()
                    .into_owned();
                let text = std::fs::read_to_string(&path).expect("corpus files are UTF-8");
                files.push((name, text));
            }
        }
    }
    files.sort();
    Some(files)
}

/// A rule fixture: `tests/fixtures/<id>.yaml` with `# expect: rule[/check]` markers, or
/// `<id>.<anything>.yaml` for another fixture of the same rule (e.g. `<id>.latest.yaml` for
/// another edition). Header comments set the configuration it is linted with:
/// `# edition: latest`, `# kubernetes-version: 1.33`, and `# params: {key: value, ...}` (a YAML
/// flow mapping: the rule's params, as under `params: <id>:` in `.ra2.yaml`).
#[derive(Debug)]
pub struct Fixture {
    pub id: String,
    /// The file's stem: the id, or `<id>.<edition>`.
    pub name: String,
    pub path: PathBuf,
    pub text: String,
    pub config: Config,
    /// (line, rule, check or None) for every marker.
    pub expected: Vec<(usize, String, Option<String>)>,
}

impl Fixture {
    pub fn load(path: &Path) -> Fixture {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_owned();
        // The longest registered rule id the name starts with; else the name itself (the
        // one-to-one test then reports a fixture without a rule).
        let id = ra2_core::rules::RULES
            .iter()
            .map(|r| r.id)
            .filter(|id| name == *id || name.starts_with(&format!("{id}.")))
            .max_by_key(|id| id.len())
            .unwrap_or(&name)
            .to_owned();
        let mut config = Config::default();
        let mut expected = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if let Some(edition) = line.strip_prefix("# edition: ") {
                config.edition = ra2_core::Edition::parse(edition.trim()).expect("edition");
            }
            if let Some(version) = line.strip_prefix("# kubernetes-version: ") {
                config.kubernetes_minor =
                    ra2_core::config::parse_kubernetes_version(version.trim()).expect("kubernetes-version");
            }
            if let Some(params) = line.strip_prefix("# params: ") {
                let value = ra2_core::yaml_to_json(params)
                    .unwrap_or_else(|e| panic!("{}: `# params:` is not YAML: {e}", path.display()));
                let serde_json::Value::Object(map) = value else {
                    panic!("{}: `# params:` is not a mapping", path.display());
                };
                config.params.insert(id.clone(), map.into_iter().collect());
            }
            if let Some((_, markers)) = line.split_once("# expect: ") {
                for marker in markers.split(',').map(str::trim).filter(|m| !m.is_empty()) {
                    let (rule, check) = match marker.split_once('/') {
                        Some((r, c)) => (r.to_owned(), Some(c.to_owned())),
                        None => (marker.to_owned(), None),
                    };
                    expected.push((i + 1, rule, check));
                }
            }
        }
        Fixture {
            id,
            name,
            path: path.to_owned(),
            text,
            config,
            expected,
        }
    }

    pub fn file_name(&self) -> String {
        format!("fixtures/{}.yaml", self.name)
    }

    pub fn lint(&self) -> Report {
        ra2_core::lint_str(&self.file_name(), &self.text, &self.config)
    }
}

/// Every fixture file, sorted.
pub fn fixtures() -> Vec<Fixture> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("tests").join("fixtures"))
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    paths.retain(|p| p.extension().is_some_and(|e| e == "yaml"));
    paths.sort();
    paths.iter().map(|p| Fixture::load(p)).collect()
}

/// Renders a report the way `ra2 lint` prints it (no colour, fixed width).
pub fn render_text(report: &Report, file: &str, text: &str) -> String {
    let mut sources = BTreeMap::new();
    sources.insert(file.to_owned(), text.to_owned());
    ra2_run::render::text::render(report, &sources, ra2_run::render::text::Style::default())
}

/// Keeps only one rule's findings.
pub fn only_rule(report: &Report, rule: &str) -> Report {
    let mut r = report.clone();
    r.findings.retain(|f| f.rule == rule);
    r.finalize();
    r
}

/// The config a catalogue example is linted with: its edition, its parameters (for its rule) and
/// its target Kubernetes release.
pub fn example_config(
    doc: &ra2_core::catalogue::RuleDoc,
    example: &ra2_core::catalogue::Example,
    edition: ra2_core::Edition,
) -> Config {
    let mut config = Config {
        edition,
        ..Config::default()
    };
    if !example.params.is_empty() {
        config.params.insert(
            doc.id.to_owned(),
            example
                .params
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.to_value()))
                .collect(),
        );
    }
    if let Some(version) = example.kubernetes_version {
        config.kubernetes_minor = ra2_core::config::parse_kubernetes_version(version)
            .unwrap_or_else(|| panic!("{}: example {:?}: bad kubernetes-version", doc.id, example.title));
    }
    config
}

/// The JSON report of linting `text` as the file `name` with the default config; with
/// `libyaml_only`, every document goes through libyaml (the readers of our own off), for the
/// differentials that prove those readers equal to it.
pub fn report_json(name: &str, text: &str, libyaml_only: bool) -> String {
    let config = Config::default();
    let mut linter = ra2_core::Linter::new(&config);
    if libyaml_only {
        linter = linter.with_libyaml_only();
    }
    linter.add_file(name, text);
    linter.finish().to_json()
}
