//! From k8s-openapi's generated schemas to schemas that judge manifests the way the API server
//! decodes them. Run by the build script (`build.rs`), so the binary carries the prepared
//! schemas as data, not k8s-openapi and schemars; compiled into the library's tests as well.
//!
//! schemars output for k8s-openapi types is permissive in some places and wrong in others:
//! - object schemas never say `additionalProperties: false`, so unknown fields pass. It is
//!   added to every schema that lists `properties` and has no `additionalProperties` of its
//!   own; maps (labels, annotations, `data`) keep their `additionalProperties: {type: string}`.
//! - `IntOrString` and `Quantity` carry only `x-kubernetes-int-or-string` and no type, so a
//!   mapping or a boolean would pass. They become an integer or a string, and a string or a
//!   number (the API server reads `memory: 1e9` and `cpu: 0.5`).
//! - `JSON` (a CRD schema's `default`, `example` and `enum` values) says `type: object`, but it
//!   is any JSON value.
//! - `required` lists every field the Go type does not mark optional, including some the API
//!   server accepts when missing: `metadata` at the top level (k8s-openapi's Rust field is
//!   not optional; other rules report a missing name), reference names "allowed to be empty"
//!   for backwards compatibility (as their descriptions say), and `roleRef.apiGroup`, which
//!   the API server defaults to `rbac.authorization.k8s.io`. Those are not required here.
//!
//! - integer formats (`int32`, `int64`) are only annotations to a JSON Schema validator, but
//!   the API server decodes into Go's `int32`/`int64` and rejects a number out of range
//!   (`targetPort: 3642100000`). Schemas with such a format get the format's `minimum` and
//!   `maximum`; `IntOrString`'s integer is an `int32`.
//!
//! Descriptions are dropped: they are most of the text, and nothing reads them.

use serde_json::{Value, json};

/// Marks the Quantity schema, so a wrong type can be explained as a quantity.
pub(crate) const QUANTITY_MARK: &str = "x-ra2-quantity";

pub(crate) const INT_OR_STRING: &str = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
const QUANTITY: &str = "io.k8s.apimachinery.pkg.api.resource.Quantity";
const ANY_JSON: &str = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON";
const ROLE_REF: &str = "io.k8s.api.rbac.v1.RoleRef";

/// Prepares a kind's root schema for validation.
pub(crate) fn prepare(mut root: Value) -> Value {
    if let Some(Value::Object(defs)) = root.get_mut("$defs") {
        for (name, def) in defs.iter_mut() {
            match name.as_str() {
                INT_OR_STRING => *def = json!({"type": ["integer", "string"], "format": "int32"}),
                QUANTITY => *def = json!({"type": ["string", "number"], QUANTITY_MARK: true}),
                ANY_JSON => *def = json!({}),
                ROLE_REF => {
                    if let Some(Value::Array(required)) = def.get_mut("required") {
                        required.retain(|r| r != "apiGroup");
                    }
                }
                _ => {}
            }
        }
    }
    if let Some(Value::Array(required)) = root.get_mut("required") {
        required.retain(|r| r != "metadata");
    }
    tighten(&mut root);
    root
}

/// Adds `additionalProperties: false` to every schema with `properties`, and drops
/// descriptions, walking only through keywords that hold schemas (a property may itself be
/// called `description` or `properties`, as in a CRD's `openAPIV3Schema`).
fn tighten(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    // "This field is effectively required, but due to backwards compatibility is allowed to
    // be empty": the API server accepts the object without it.
    let may_be_empty: Vec<String> = match map.get("properties") {
        Some(Value::Object(properties)) => properties
            .iter()
            .filter(|(_, p)| {
                p.get("description")
                    .and_then(Value::as_str)
                    .is_some_and(|d| d.contains("allowed to be empty"))
            })
            .map(|(name, _)| name.clone())
            .collect(),
        _ => Vec::new(),
    };
    if let Some(Value::Array(required)) = map.get_mut("required") {
        required.retain(|r| r.as_str().is_none_or(|r| !may_be_empty.iter().any(|m| m == r)));
    }
    map.remove("description");
    if let Some((min, max)) = map.get("format").and_then(Value::as_str).and_then(integer_range) {
        map.entry("minimum").or_insert_with(|| json!(min));
        map.entry("maximum").or_insert_with(|| json!(max));
    }
    if map.contains_key("properties") && !map.contains_key("additionalProperties") {
        map.insert("additionalProperties".to_owned(), Value::Bool(false));
    }
    for keyword in ["properties", "$defs", "patternProperties"] {
        if let Some(Value::Object(children)) = map.get_mut(keyword) {
            children.values_mut().for_each(tighten);
        }
    }
    for keyword in ["additionalProperties", "items", "not"] {
        if let Some(child) = map.get_mut(keyword) {
            tighten(child);
        }
    }
    for keyword in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(children)) = map.get_mut(keyword) {
            children.iter_mut().for_each(tighten);
        }
    }
}

/// The values a Go integer of an OpenAPI integer format holds.
pub(crate) fn integer_range(format: &str) -> Option<(i64, i64)> {
    match format {
        "int32" => Some((i64::from(i32::MIN), i64::from(i32::MAX))),
        "int64" => Some((i64::MIN, i64::MAX)),
        _ => None,
    }
}
