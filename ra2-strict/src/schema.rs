//! Reading the prepared schemas (see `build/prepare.rs`): where a node's schema is, and which
//! property names it allows.

use serde_json::{Map, Value};

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
    use serde_json::json;

    use super::*;
    use crate::prepare::{INT_OR_STRING, prepare};

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
