//! What is a Kubernetes manifest. Real repositories keep Kubernetes objects next to files that
//! are not: kustomize inputs, Helm chart metadata and values, docker-compose files, CI configs,
//! application configs that happen to end in `.yml`. When ra2 walks a directory (or when the
//! user asks with `--skip-non-k8s` / `skip-non-k8s: true`) such files and documents are skipped
//! and counted in `summary.skipped` by reason, instead of being reported as objects without an
//! `apiVersion`.
//!
//! Two tests: [`file_skip_reason`] judges a file by its name alone (before it is read), and
//! [`document_skip_reason`] judges one YAML document by its top-level keys. A document with one
//! of `apiVersion`/`kind` but not the other is never skipped: it is a broken object.

use ra2_yaml::ScalarStyle;

use crate::parse::doc::{Doc, Value};
use crate::parse::source::{Span, helm_action};
use crate::parse::view::Located;

/// Reason: a kustomization file, by name or by `apiVersion: kustomize.config.k8s.io/...`.
pub const KUSTOMIZE: &str = "kustomize input";
/// Reason: a kustomize built-in plugin config (`apiVersion: builtin`).
pub const KUSTOMIZE_PLUGIN: &str = "kustomize plugin config (apiVersion: builtin)";
/// Reason: Helm's `Chart.yaml`/`Chart.lock`.
pub const HELM_CHART: &str = "Helm chart metadata";
/// Reason: Helm values files and their schema.
pub const HELM_VALUES: &str = "Helm values";
/// Reason: a docker-compose file.
pub const COMPOSE: &str = "docker-compose file";
/// Reason: a CI pipeline config.
pub const CI: &str = "CI config";
/// Reason: a document with neither `apiVersion` nor `kind`.
pub const NO_API_VERSION_OR_KIND: &str = "no apiVersion or kind";
/// Reason: a document that is not a mapping (a list or a scalar at the top).
pub const NOT_A_MAPPING: &str = "not a mapping";
/// Reason: a file with template actions outside a chart's `templates/` that is not a Kubernetes
/// object once they are blanked (a chart's configuration files, `resources/config/*.yaml`).
pub const TEMPLATED_NOT_K8S: &str = "template of a file that is not Kubernetes";

/// Whether a file is one of a Helm chart's templates: a `templates` directory is on its path.
/// Its documents are Kubernetes objects once rendered, never configuration to skip.
pub fn in_chart_templates(name: &str) -> bool {
    // The last segment is the file's own name: a file named `templates` is not in the directory.
    name.split(['/', '\\']).rev().skip(1).any(|part| part == "templates")
}

/// Where a document that was read holds an unrendered Helm template action (`{{ .Values.x }}`,
/// `{{ include "..." . }}`) in a key or in a plain or quoted scalar: the document is a chart's
/// template, not an object, and its field values are template text. Block scalars (`|`, `>`)
/// and ConfigMap and Secret data are left out: rendered objects carry configuration files and
/// other tools' templates there. JSON documents (admission requests) are never templates.
pub fn unrendered_action(doc: &Doc<'_>) -> Option<Span> {
    if doc.json || !doc.chunk.text.contains("{{") {
        return None;
    }
    let root = Located::root(doc);
    let data: Vec<Span> = ["data", "stringData", "binaryData"]
        .iter()
        .filter_map(|key| root.get(key).map(|node| node.span()))
        .collect();
    let outside_data = |span: Span| !data.iter().any(|d| d.start <= span.start && span.end <= d.end);
    let in_value = doc.nodes.iter().find_map(|node| match (&node.value, node.style) {
        (Value::Str(text), Some(ScalarStyle::Plain | ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted))
            if outside_data(node.span) && helm_action(text).is_some() =>
        {
            Some(node.span)
        }
        _ => None,
    });
    let in_key = doc
        .entries
        .iter()
        .find(|entry| outside_data(entry.key_span) && helm_action(&entry.key).is_some())
        .map(|entry| entry.key_span);
    match (in_value, in_key) {
        (Some(a), Some(b)) => Some(if a.start <= b.start { a } else { b }),
        (a, b) => a.or(b),
    }
}

/// CI configs with a fixed file name (hidden ones such as `.gitlab-ci.yml` are never walked).
const CI_FILES: &[&str] = &[
    "azure-pipelines.yml",
    "azure-pipelines.yaml",
    "bitbucket-pipelines.yml",
    "cloudbuild.yaml",
    "cloudbuild.yml",
    "appveyor.yml",
    "appveyor.yaml",
    "codecov.yml",
    "codecov.yaml",
    "buildspec.yml",
    "buildspec.yaml",
];

/// Why a file is not a Kubernetes manifest, judged by its name (the last path component,
/// compared case-insensitively for the extension).
pub fn file_skip_reason(path: &str) -> Option<&'static str> {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let lower = name.to_ascii_lowercase();
    let split = ["yaml", "yml", "json"]
        .iter()
        .find_map(|ext| Some((lower.strip_suffix(ext)?.strip_suffix('.')?, *ext)));
    if name == "Kustomization" || matches!(split, Some(("kustomization", _))) {
        return Some(KUSTOMIZE);
    }
    if name == "Chart.yaml" || name == "Chart.yml" || name == "Chart.lock" {
        return Some(HELM_CHART);
    }
    if lower == "values.schema.json" {
        return Some(HELM_VALUES);
    }
    let (stem, _) = split.filter(|(_, ext)| *ext != "json")?;
    if stem == "values" || stem.starts_with("values-") || stem.starts_with("values.") || stem.starts_with("values_") {
        return Some(HELM_VALUES);
    }
    if stem.starts_with("docker-compose") || stem == "compose" || stem.starts_with("compose.") {
        return Some(COMPOSE);
    }
    if CI_FILES.contains(&lower.as_str()) {
        return Some(CI);
    }
    None
}

/// Why a document is not a Kubernetes object: it is not a mapping, it has neither `apiVersion`
/// nor `kind`, or it is a kustomize input (`kustomize.config.k8s.io` kinds, `apiVersion:
/// builtin` transformer and generator configs).
pub fn document_skip_reason(root: &Located<'_>) -> Option<&'static str> {
    if !root.is_map() {
        return Some(NOT_A_MAPPING);
    }
    let api_version = root.get("apiVersion");
    if api_version.is_none() && root.get("kind").is_none() {
        return Some(NO_API_VERSION_OR_KIND);
    }
    let api_version = api_version.as_ref().and_then(Located::as_str)?;
    if api_version == "builtin" {
        return Some(KUSTOMIZE_PLUGIN);
    }
    if api_version.starts_with("kustomize.config.k8s.io/") {
        return Some(KUSTOMIZE);
    }
    None
}

/// The file names a kustomization file (`kustomization.yaml`, `.yml`, `Kustomization`) may have.
pub const KUSTOMIZATION_FILES: &[&str] = &["kustomization.yaml", "kustomization.yml", "Kustomization"];

/// The files a kustomization reads other than as resources, as written (relative to its
/// directory): patches (`patches`, `patchesStrategicMerge`, `patchesJson6902`), generator
/// sources (`configMapGenerator` and `secretGenerator` `files`, `envs`, `env`), `replacements`,
/// plugin configs (`generators`, `transformers`, `validators`), Helm `valuesFile`s and the
/// `openapi` schema. A strategic-merge patch is part of an object, not an object: linted
/// alone it would be judged for what it leaves out. Inline patches (text with a line break)
/// are not files. A kustomization that cannot be read names none.
pub fn kustomization_inputs(text: &str) -> Vec<String> {
    let Ok(root) = crate::yaml_to_json(text) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    let mut add = |value: Option<&serde_json::Value>| {
        if let Some(path) = value.and_then(serde_json::Value::as_str) {
            // `files:` entries may be `key=path`.
            let path = path.split_once('=').map_or(path, |(_, path)| path);
            if !path.contains('\n') && !path.trim().is_empty() {
                files.push(path.trim().to_owned());
            }
        }
    };
    let list = |key: &str| {
        root.get(key)
            .and_then(serde_json::Value::as_array)
            .into_iter()
            .flatten()
    };
    for key in ["patchesStrategicMerge", "generators", "transformers", "validators"] {
        list(key).for_each(|item| add(Some(item)));
    }
    for key in ["patches", "patchesJson6902", "replacements"] {
        list(key).for_each(|item| add(item.get("path")));
    }
    for key in ["configMapGenerator", "secretGenerator"] {
        for generator in list(key) {
            for source in ["files", "envs"] {
                generator
                    .get(source)
                    .and_then(serde_json::Value::as_array)
                    .into_iter()
                    .flatten()
                    .for_each(|item| add(Some(item)));
            }
            add(generator.get("env"));
        }
    }
    list("helmCharts").for_each(|chart| add(chart.get("valuesFile")));
    add(root.get("openapi").and_then(|o| o.get("path")));
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_judged_by_name() {
        for (name, reason) in [
            ("kustomization.yaml", Some(KUSTOMIZE)),
            ("a/b/Kustomization", Some(KUSTOMIZE)),
            ("overlays/prod/kustomization.YML", Some(KUSTOMIZE)),
            ("chart/Chart.yaml", Some(HELM_CHART)),
            ("chart/values.yaml", Some(HELM_VALUES)),
            ("chart/values-prod.yml", Some(HELM_VALUES)),
            ("chart/values.schema.json", Some(HELM_VALUES)),
            ("docker-compose.yml", Some(COMPOSE)),
            ("deploy/docker-compose.override.yaml", Some(COMPOSE)),
            ("compose.yaml", Some(COMPOSE)),
            ("azure-pipelines.yml", Some(CI)),
            ("deployment.yaml", None),
            ("values.json", None),
            ("my-values.yaml", None),
            ("chart.yaml", None),
            ("kustomization-patch.yaml", None),
        ] {
            assert_eq!(file_skip_reason(name), reason, "{name}");
        }
    }

    fn reason(text: &str) -> Option<&'static str> {
        let (text, bom) = crate::parse::source::strip_bom(text);
        let chunk = crate::parse::source::Chunk {
            text,
            offset: bom,
            line: 0,
        };
        let result = crate::parse::doc::read_chunk(chunk, false, crate::parse::doc::Limits::default());
        let doc = result.docs.first().expect("a document");
        document_skip_reason(&Located::root(doc))
    }

    #[test]
    fn kustomization_inputs_are_its_patches_sources_and_configs() {
        let text = "resources: [deployment.yaml]
patchesStrategicMerge:
  - patch-replicas.yaml
  - |-
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: inline}
patches:
  - path: ../common/patch-sec.yaml
    target: {kind: Deployment}
  - patch: |-
      - op: remove
        path: /spec/x
patchesJson6902:
  - target: {kind: Service, name: s}
    path: svc-ops.yaml
configMapGenerator:
  - name: cfg
    files: [app.yaml, cfg=settings.json]
    envs: [vars.env]
secretGenerator:
  - name: s
    env: secret.env
replacements: [{path: repl.yaml}]
transformers: [labels.yaml]
helmCharts: [{name: c, valuesFile: values-prod.yaml}]
openapi: {path: schema.json}
";
        assert_eq!(
            kustomization_inputs(text),
            [
                "patch-replicas.yaml",
                "labels.yaml",
                "../common/patch-sec.yaml",
                "svc-ops.yaml",
                "repl.yaml",
                "app.yaml",
                "settings.json",
                "vars.env",
                "secret.env",
                "values-prod.yaml",
                "schema.json",
            ]
        );
        assert!(kustomization_inputs("resources: [a.yaml]\n").is_empty());
        assert!(kustomization_inputs("{{ not yaml").is_empty());
    }

    #[test]
    fn documents_judged_by_content() {
        assert_eq!(
            reason("services: {web: {image: nginx}}\n"),
            Some(NO_API_VERSION_OR_KIND)
        );
        assert_eq!(reason("- a\n- b\n"), Some(NOT_A_MAPPING));
        assert_eq!(
            reason("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"),
            Some(KUSTOMIZE)
        );
        assert_eq!(
            reason("apiVersion: builtin\nkind: ValueAddTransformer\nmetadata: {name: x}\n"),
            Some(KUSTOMIZE_PLUGIN)
        );
        assert_eq!(reason("apiVersion: v1\nkind: Pod\n"), None);
        // Half an object is a broken object, not something else.
        assert_eq!(reason("kind: Pod\n"), None);
        assert_eq!(reason("apiVersion: v2\nname: chart\n"), None);
    }
}
