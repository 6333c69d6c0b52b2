//! Generates ra2-core's field tables of the built-in kinds (`ra2-core/src/k8s/openapi_tables.rs`)
//! from the same k8s-openapi schemas strict mode validates with, prepared the same way
//! (`build/prepare.rs`, run by the build script).
//!
//! The default run predicts the API server's decoding refusals (unknown fields, wrong scalar
//! types, unknown kinds) from these tables, walking the parsed tree; no JSON Schema validator and
//! no k8s-openapi in ra2-core (nor in its WebAssembly build). The generated file is committed:
//! `generated_tables_are_current` regenerates it and fails when it differs (run it with
//! `RA2_REGENERATE=1` to write the file after changing the Kubernetes version or this generator).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

use crate::kinds::KINDS;

/// A struct type (a schema with `properties`), by its definition name.
struct Def {
    fields: BTreeMap<String, String>,
}

struct Generator {
    /// Every struct definition of every kind, by name (identical across kinds).
    structs: BTreeMap<String, Value>,
    /// Leaf definitions (Quantity, IntOrString, Time, JSON, ...), by name.
    leaves: BTreeMap<String, Value>,
}

impl Generator {
    fn index(&self, name: &str) -> usize {
        self.structs.keys().position(|k| k == name).unwrap_or(usize::MAX)
    }

    /// The Rust expression of a schema's shape.
    fn shape(&self, schema: &Value) -> String {
        if let Some(target) = schema.get("$ref").and_then(Value::as_str) {
            let name = target.trim_start_matches("#/$defs/");
            if self.structs.contains_key(name) {
                return format!("Shape::Struct({})", self.index(name));
            }
            return match self.leaves.get(name) {
                Some(leaf) => self.shape(leaf),
                None => "Shape::Any".to_owned(),
            };
        }
        if let Some(Value::Array(branches)) = schema.get("oneOf") {
            // JSONSchemaPropsOr{Array,Bool,StringArray}: a mapping is the struct, anything else
            // the other branch.
            let mut mapping = None;
            let mut other = None;
            for branch in branches {
                if branch.get("$ref").is_some() {
                    mapping = Some(self.shape(branch));
                } else {
                    other = Some(self.shape(branch));
                }
            }
            return match (mapping, other) {
                (Some(m), Some(o)) => format!("Shape::Or(&{m}, &{o})"),
                _ => "Shape::Any".to_owned(),
            };
        }
        if schema.get(crate::prepare::QUANTITY_MARK).is_some() {
            return "Shape::Quantity".to_owned();
        }
        let format = schema.get("format").and_then(Value::as_str);
        match schema.get("type") {
            Some(Value::Array(types)) => {
                let has = |t: &str| types.iter().any(|x| x == t);
                if has("integer") && has("string") {
                    "Shape::IntOrString".to_owned()
                } else {
                    "Shape::Any".to_owned()
                }
            }
            Some(Value::String(t)) => match t.as_str() {
                "string" if format == Some("byte") => "Shape::Bytes".to_owned(),
                "string" => "Shape::String".to_owned(),
                "boolean" => "Shape::Bool".to_owned(),
                "integer" if format == Some("int32") => "Shape::Int32".to_owned(),
                "integer" => "Shape::Int64".to_owned(),
                "number" => "Shape::Number".to_owned(),
                "array" => match schema.get("items") {
                    Some(items) => format!("Shape::List(&{})", self.shape(items)),
                    None => "Shape::List(&Shape::Any)".to_owned(),
                },
                "object" => match schema.get("additionalProperties") {
                    Some(inner) if inner.is_object() => format!("Shape::Map(&{})", self.shape(inner)),
                    _ => "Shape::Any".to_owned(),
                },
                _ => "Shape::Any".to_owned(),
            },
            _ => "Shape::Any".to_owned(),
        }
    }

    fn def(&self, schema: &Value) -> Def {
        let fields = schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.iter().map(|(name, s)| (name.clone(), self.shape(s))).collect())
            .unwrap_or_default();
        Def { fields }
    }
}

/// The source of `ra2-core/src/k8s/openapi_tables.rs`.
pub(crate) fn core_tables() -> String {
    let mut generator = Generator {
        structs: BTreeMap::new(),
        leaves: BTreeMap::new(),
    };
    let mut kinds = Vec::new();
    for builtin in KINDS {
        let Some(mut root) = builtin.schema() else { continue };
        let title = root
            .get("title")
            .and_then(Value::as_str)
            .unwrap_or(builtin.kind)
            .to_owned();
        let defs = match root.as_object_mut().and_then(|r| r.remove("$defs")) {
            Some(Value::Object(defs)) => defs,
            _ => serde_json::Map::new(),
        };
        for (name, def) in defs.into_iter().chain([(title.clone(), root)]) {
            let target = if def.get("properties").is_some() {
                &mut generator.structs
            } else {
                &mut generator.leaves
            };
            target.entry(name).or_insert(def);
        }
        kinds.push((builtin.api_version, builtin.kind, title));
    }
    kinds.sort();
    let mut out = String::new();
    out.push_str(
        "// Generated from k8s-openapi 0.29 (Kubernetes 1.33) by ra2-strict/src/tables.rs: do not edit.\n\
         // Regenerate with `RA2_REGENERATE=1 cargo test -p ra2-strict generated_tables_are_current`.\n\n\
         use super::{Shape, Struct};\n\n",
    );
    let _ = writeln!(out, "/// Every built-in kind: apiVersion, kind and its struct, sorted.");
    let _ = writeln!(out, "pub(crate) static KINDS: &[(&str, &str, u16)] = &[");
    for (api_version, kind, title) in &kinds {
        let _ = writeln!(out, "    ({api_version:?}, {kind:?}, {}),", generator.index(title));
    }
    let _ = writeln!(out, "];\n");
    let _ = writeln!(out, "/// The struct types, their fields sorted by name.");
    let _ = writeln!(out, "pub(crate) static STRUCTS: &[Struct] = &[");
    for (i, (name, schema)) in generator.structs.iter().enumerate() {
        let def = generator.def(schema);
        let short = name.rsplit('.').next().unwrap_or(name);
        let _ = writeln!(out, "    // {i}: {name}");
        let _ = writeln!(out, "    Struct {{");
        let _ = writeln!(out, "        name: {short:?},");
        let _ = writeln!(out, "        fields: &[");
        for (field, shape) in &def.fields {
            let _ = writeln!(out, "            ({field:?}, {shape}),");
        }
        let _ = writeln!(out, "        ],");
        let _ = writeln!(out, "    }},");
    }
    let _ = writeln!(out, "];");
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn generated_tables_are_current() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../ra2-core/src/k8s/openapi/openapi_tables.rs");
        let generated = super::core_tables();
        if std::env::var_os("RA2_REGENERATE").is_some() {
            std::fs::write(&path, &generated).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == generated,
            "{} is not what ra2-strict generates: run `RA2_REGENERATE=1 cargo test -p ra2-strict generated_tables_are_current`",
            path.display()
        );
    }
}
