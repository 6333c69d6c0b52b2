//! The kinds strict mode knows and their prepared schemas, written by the build script from
//! k8s-openapi's Kubernetes 1.33 types (`build/kinds.rs`, `build/prepare.rs`).

use serde_json::{Map, Value};

/// A kind with a built-in schema.
#[derive(Debug)]
pub(crate) struct Builtin {
    pub api_version: &'static str,
    pub kind: &'static str,
    /// The kind's root schema (JSON Schema draft 2020-12, prepared), without its definitions.
    root: &'static str,
    /// The definitions it reaches: indices into [`DEFS`].
    defs: &'static [u16],
}

include!(concat!(env!("OUT_DIR"), "/kinds.rs"));

impl Builtin {
    /// The kind's schema, its definitions under `$defs`.
    pub(crate) fn schema(&self) -> Option<Value> {
        let mut root: Value = serde_json::from_str(self.root).ok()?;
        let mut defs = Map::new();
        for &i in self.defs {
            let (name, text) = DEFS.get(usize::from(i))?;
            defs.insert((*name).to_owned(), serde_json::from_str(text).ok()?);
        }
        if !defs.is_empty() {
            root.as_object_mut()?.insert("$defs".to_owned(), Value::Object(defs));
        }
        Some(root)
    }
}
