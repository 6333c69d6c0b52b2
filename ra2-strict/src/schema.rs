//! From k8s-openapi's generated schemas to schemas that judge manifests the way the API server
//! decodes them.
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

use serde_json::{Map, Value, json};

/// Marks the Quantity schema, so a wrong type can be explained as a quantity.
pub(crate) const QUANTITY_MARK: &str = "x-ra2-quantity";

const INT_OR_STRING: &str = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
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

/// Follows a local `$ref` (`#/$defs/...`).
fn resolve<'s>(root: &'s Value, schema: &'s Value) -> &'s Value {
    let mut here = schema;
    // A reference may lead to another reference; a few hops at most.
    for _ in 0..8 {
        let Some(target) = here.get("$ref").and_then(Value::as_str) else {
            return here;
        };
        match target.strip_prefix('#').and_then(|p| root.pointer(p)) {
            Some(next) => here = next,
            None => return here,
        }
    }
    here
}

/// The schemas that apply to a node: the node's own, or the branches of a `oneOf`/`anyOf`.
fn alternatives<'s>(root: &'s Value, schema: &'s Value) -> Vec<&'s Value> {
    let schema = resolve(root, schema);
    let mut out = vec![schema];
    for keyword in ["oneOf", "anyOf", "allOf"] {
        if let Some(Value::Array(branches)) = schema.get(keyword) {
            out.extend(branches.iter().map(|b| resolve(root, b)));
        }
    }
    out
}

/// The schema of the node at `segments` below the root, if the schema describes it.
pub(crate) fn at<'s>(root: &'s Value, segments: &[String]) -> Option<&'s Value> {
    let mut here = resolve(root, root);
    for segment in segments {
        let next = alternatives(root, here).into_iter().find_map(|s| {
            let by_name = s.get("properties").and_then(|p| p.get(segment));
            let by_index = s.get("items").filter(|_| segment.parse::<usize>().is_ok());
            let by_map = s.get("additionalProperties").filter(|a| a.is_object());
            by_name.or(by_index).or(by_map)
        })?;
        here = resolve(root, next);
    }
    Some(here)
}

/// The property names a mapping at `segments` may have.
pub(crate) fn property_names<'s>(root: &'s Value, segments: &[String]) -> Vec<&'s str> {
    let Some(schema) = at(root, segments) else {
        return Vec::new();
    };
    alternatives(root, schema)
        .into_iter()
        .filter_map(|s| s.get("properties").and_then(Value::as_object))
        .flat_map(Map::keys)
        .map(String::as_str)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_are_closed_and_maps_stay_open() {
        let root = prepare(json!({
            "type": "object",
            "properties": {
                "metadata": {"$ref": "#/$defs/meta"},
                "spec": {"type": "object", "description": "x", "required": ["description", "ref"], "properties": {
                    "description": {"type": "string"},
                    "ref": {"type": "string", "description": "effectively required, but allowed to be empty"},
                    "properties": {"type": "object", "additionalProperties": {"$ref": "#/$defs/meta"}}
                }}
            },
            "required": ["metadata", "spec"],
            "$defs": {
                "meta": {"type": "object", "properties": {"labels": {"type": "object", "additionalProperties": {"type": "string"}}}},
                INT_OR_STRING: {"x-kubernetes-int-or-string": true}
            }
        }));
        assert_eq!(root["additionalProperties"], json!(false));
        assert_eq!(root["required"], json!(["spec"]));
        assert_eq!(root["properties"]["spec"]["additionalProperties"], json!(false));
        assert!(root["properties"]["spec"].get("description").is_none());
        assert_eq!(root["properties"]["spec"]["required"], json!(["description"]));
        assert_eq!(
            root["properties"]["spec"]["properties"]["description"],
            json!({"type": "string"})
        );
        assert_eq!(root["$defs"]["meta"]["additionalProperties"], json!(false));
        assert_eq!(
            root["$defs"]["meta"]["properties"]["labels"]["additionalProperties"],
            json!({"type": "string"})
        );
        assert_eq!(
            root["$defs"][INT_OR_STRING],
            json!({"type": ["integer", "string"], "format": "int32", "minimum": i32::MIN, "maximum": i32::MAX})
        );
        let names = property_names(&root, &["metadata".to_owned()]);
        assert_eq!(names, vec!["labels"]);
        let nested = property_names(&root, &["spec".to_owned(), "properties".to_owned(), "x".to_owned()]);
        assert_eq!(nested, vec!["labels"]);
    }
}
