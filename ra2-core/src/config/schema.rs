//! A small JSON Schema validator over spanned documents, for ra2's own settings schema.
//!
//! It implements the keywords that schema uses (`type`, `enum`, `const`, `properties`,
//! `additionalProperties`, `required`, `items`, `minLength`, `anyOf`, local `$ref`) and
//! reports each error at the line of the offending node. A test checks it against the full
//! `jsonschema` crate so the two cannot drift.

use crate::data::Json as J;

use crate::parse::doc::Value;
use crate::parse::view::Located;

/// One schema violation.
#[derive(Clone, Debug)]
pub struct Violation<'d> {
    pub at: Located<'d>,
    pub message: String,
    /// The violation is an unknown key (point at the key, suggest a near miss).
    pub unknown_key: bool,
}

/// Validates `node` against `schema` (whose `$defs` are resolved against `root`).
pub fn validate<'d>(node: &Located<'d>, schema: &J, root: &J) -> Vec<Violation<'d>> {
    let mut out = Vec::new();
    check(node, schema, root, &mut out, 0);
    out
}

fn resolve<'s>(schema: &'s J, root: &'s J) -> &'s J {
    match schema.get("$ref").and_then(J::as_str) {
        Some(r) => r
            .strip_prefix("#/")
            .and_then(|path| path.split('/').try_fold(root, J::get))
            .unwrap_or(schema),
        None => schema,
    }
}

fn type_matches(node: &Located<'_>, ty: &str) -> bool {
    match (ty, node.value()) {
        ("object", Value::Map(_))
        | ("array", Value::Seq(_))
        | ("string", Value::Str(_))
        | ("boolean", Value::Bool(_))
        | ("integer", Value::Int(_))
        | ("number", Value::Int(_) | Value::Float(_))
        | ("null", Value::Null) => true,
        ("integer", Value::Float(f)) => f.fract() == 0.0,
        _ => false,
    }
}

fn json_of(node: &Located<'_>) -> serde_json::Value {
    node.to_json()
}

fn describe(node: &Located<'_>) -> String {
    match node.value() {
        Value::Str(s) => format!("{s:?}"),
        Value::Map(_) | Value::Seq(_) => format!("a {}", node.type_name()),
        _ => node.source_text().to_owned(),
    }
}

fn check<'d>(node: &Located<'d>, schema: &J, root: &J, out: &mut Vec<Violation<'d>>, depth: usize) {
    if depth > 64 {
        return;
    }
    let schema = resolve(schema, root);
    let start = out.len();
    if let Some(ty) = schema.get("type") {
        let types: Vec<&str> = match *ty {
            J::Str(s) => vec![s],
            J::Array(items) => items.iter().filter_map(J::as_str).collect(),
            _ => Vec::new(),
        };
        if !types.iter().any(|t| type_matches(node, t)) {
            out.push(Violation {
                at: node.clone(),
                message: format!("expected {}, found {}", types.join(" or "), node.type_name()),
                unknown_key: false,
            });
            return;
        }
    }
    if let Some(J::Array(options)) = schema.get("enum") {
        let value = json_of(node);
        if !options.iter().any(|o| *o == value) {
            let allowed: Vec<String> = options.iter().map(ToString::to_string).collect();
            out.push(Violation {
                at: node.clone(),
                message: format!("{} is not one of {}", describe(node), allowed.join(", ")),
                unknown_key: false,
            });
        }
    }
    if let Some(c) = schema.get("const") {
        if *c != json_of(node) {
            out.push(Violation {
                at: node.clone(),
                message: format!("expected {c}"),
                unknown_key: false,
            });
        }
    }
    if let (Some(min), Some(s)) = (schema.get("minLength").and_then(J::as_u64), node.as_str()) {
        if (s.chars().count() as u64) < min {
            out.push(Violation {
                at: node.clone(),
                message: "must not be empty".to_owned(),
                unknown_key: false,
            });
        }
    }
    if node.is_map() {
        let properties = schema.get("properties").and_then(J::as_object);
        if let Some(J::Array(required)) = schema.get("required") {
            for key in required.iter().filter_map(J::as_str) {
                if node.get(key).is_none() {
                    out.push(Violation {
                        at: node.clone(),
                        message: format!("missing required key {key:?}"),
                        unknown_key: false,
                    });
                }
            }
        }
        for (key, value) in node.entries() {
            if let Some((_, sub)) = properties.and_then(|p| p.iter().find(|(k, _)| *k == key)) {
                check(&value, sub, root, out, depth + 1);
                continue;
            }
            match schema.get("additionalProperties") {
                Some(J::Bool(false)) => out.push(Violation {
                    at: value,
                    message: format!("unknown key {key:?}"),
                    unknown_key: true,
                }),
                Some(sub @ J::Object(_)) => check(&value, sub, root, out, depth + 1),
                _ => {}
            }
        }
    }
    if let (Some(items), true) = (schema.get("items"), node.is_seq()) {
        for item in node.items() {
            check(&item, items, root, out, depth + 1);
        }
    }
    if let Some(J::Array(options)) = schema.get("anyOf") {
        let any = options.iter().any(|o| {
            let mut scratch = Vec::new();
            check(node, o, root, &mut scratch, depth + 1);
            scratch.is_empty()
        });
        if !any {
            out.push(Violation {
                at: node.clone(),
                message: format!("{} does not match any allowed form", describe(node)),
                unknown_key: false,
            });
        }
    }
    // Report the most specific problem only once per node.
    if out.len() > start + 1 && out.iter().skip(start).all(|v| v.at.pointer() == node.pointer()) {
        out.truncate(start + 1);
    }
}
