//! Writes the prepared JSON Schema of every built-in kind (`build/kinds.rs`, `build/prepare.rs`)
//! into `$OUT_DIR/kinds.rs` for `src/kinds.rs`: the definitions once (compact JSON text, by
//! name), and per kind its root schema and the definitions it reaches. k8s-openapi and
//! schemars run here, at build time; the binary holds the schemas as data (about 1 MB) instead
//! of their generator, and a run reads only the schemas of the kinds it meets.

#[path = "build/kinds.rs"]
#[allow(dead_code)]
mod kinds;
#[path = "build/prepare.rs"]
mod prepare;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde_json::Value;

/// The definitions `schema` refers to (`#/$defs/<name>`), directly.
fn refs(schema: &Value, out: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map {
                match (key.as_str(), value) {
                    ("$ref", Value::String(target)) => {
                        if let Some(name) = target.strip_prefix("#/$defs/") {
                            out.push(name.to_owned());
                        }
                    }
                    _ => refs(value, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| refs(item, out)),
        _ => {}
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build");
    let mut defs: BTreeMap<String, String> = BTreeMap::new();
    let mut kinds = Vec::new();
    for builtin in kinds::KINDS {
        let mut root = prepare::prepare((builtin.schema)());
        let own = match root.as_object_mut().and_then(|r| r.remove("$defs")) {
            Some(Value::Object(own)) => own,
            _ => serde_json::Map::new(),
        };
        let mut reached = BTreeSet::new();
        let mut todo = Vec::new();
        refs(&root, &mut todo);
        while let Some(name) = todo.pop() {
            if !reached.insert(name.clone()) {
                continue;
            }
            let def = own
                .get(&name)
                .unwrap_or_else(|| panic!("{} refers to {name}, which it does not define", builtin.kind));
            refs(def, &mut todo);
            let text = def.to_string();
            let known = defs.entry(name.clone()).or_insert_with(|| text.clone());
            assert!(*known == text, "{name} differs between kinds");
        }
        kinds.push((builtin.api_version, builtin.kind, root.to_string(), reached));
    }
    let index: BTreeMap<&String, usize> = defs.keys().enumerate().map(|(i, name)| (name, i)).collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "/// Every definition: its name and its schema (JSON), sorted by name."
    );
    let _ = writeln!(out, "pub(crate) static DEFS: &[(&str, &str)] = &[");
    for (name, text) in &defs {
        let _ = writeln!(out, "    ({name:?}, {text:?}),");
    }
    let _ = writeln!(out, "];");
    let _ = writeln!(out, "/// Every built-in kind.");
    let _ = writeln!(out, "pub(crate) static KINDS: &[Builtin] = &[");
    for (api_version, kind, root, reached) in &kinds {
        let reached: Vec<String> = reached.iter().map(|name| index[name].to_string()).collect();
        let _ = writeln!(
            out,
            "    Builtin {{ api_version: {api_version:?}, kind: {kind:?}, root: {root:?}, defs: &[{}] }},",
            reached.join(", ")
        );
    }
    let _ = writeln!(out, "];");
    let path = std::path::Path::new(&std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("kinds.rs");
    std::fs::write(path, out).expect("OUT_DIR is writable");
}
