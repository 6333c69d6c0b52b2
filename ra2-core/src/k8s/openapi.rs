//! The fields and value types of the built-in kinds, as the API server decodes them (Kubernetes
//! 1.33): what `k8s.api/unknown-field`, `wrong-type` and `unknown-kind` read.
//!
//! The tables (`openapi_tables.rs`) are generated from k8s-openapi's OpenAPI schemas of
//! Kubernetes 1.33 by `ra2-strict/src/tables.rs` and committed; a test there regenerates them
//! and fails when they differ, so they cannot drift from the schemas strict mode validates
//! with. Keeping the generator out of ra2-core keeps k8s-openapi (and schemars) out of its
//! build, and so out of the WebAssembly module, the Python extension and the fuzz targets.

#[rustfmt::skip]
mod openapi_tables;

use openapi_tables::{KINDS, STRUCTS};

/// The Kubernetes minor version the tables describe (1.33).
pub(crate) const MINOR: u32 = 33;

/// What a field holds, as the API server's decoder (Go's `encoding/json` into the API types,
/// after sigs.k8s.io/yaml turned YAML into JSON) accepts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Anything (`RawExtension`, `JSON`, `FieldsV1`, free-form objects).
    Any,
    String,
    /// A Go `[]byte`: a string in standard base64 (`Secret.data`, `caBundle`).
    Bytes,
    Bool,
    /// A Go `int32`: an integer (or a float with an integral value) in its range.
    Int32,
    Int64,
    /// A Go `float64`.
    Number,
    /// `intstr.IntOrString`: a string, or an `int32`.
    IntOrString,
    /// `resource.Quantity`: a string or a number.
    Quantity,
    /// A struct, by its index in [`STRUCTS`].
    Struct(u16),
    /// A mapping of any keys to values of a shape.
    Map(&'static Shape),
    List(&'static Shape),
    /// A mapping is the first shape, anything else the second (a CRD schema's
    /// `JSONSchemaPropsOrBool` and the like).
    Or(&'static Shape, &'static Shape),
}

/// A struct type: its Go name and its fields, sorted by name.
#[derive(Debug)]
pub(crate) struct Struct {
    pub name: &'static str,
    pub fields: &'static [(&'static str, Shape)],
}

impl Struct {
    /// The shape of field `name` (case matters, as to the API server).
    pub(crate) fn field(&self, name: &str) -> Option<Shape> {
        self.fields
            .binary_search_by(|(f, _)| (*f).cmp(name))
            .ok()
            .and_then(|i| self.fields.get(i))
            .map(|(_, shape)| *shape)
    }

    /// The field names, for "did you mean".
    pub(crate) fn names(&self) -> impl Iterator<Item = &'static str> + Clone {
        self.fields.iter().map(|(f, _)| *f)
    }
}

/// Struct number `index`.
pub(crate) fn structure(index: u16) -> Option<&'static Struct> {
    STRUCTS.get(usize::from(index))
}

/// The struct of a built-in kind, by apiVersion and kind (both as written, case-sensitive).
pub(crate) fn kind(api_version: &str, kind: &str) -> Option<u16> {
    KINDS
        .binary_search_by(|(v, k, _)| (*v, *k).cmp(&(api_version, kind)))
        .ok()
        .and_then(|i| KINDS.get(i))
        .map(|(_, _, s)| *s)
}

/// The kinds of a built-in group version (empty for one the tables do not have).
pub(crate) fn kinds_of(api_version: &str) -> impl Iterator<Item = &'static str> + Clone + '_ {
    KINDS
        .iter()
        .filter(move |(v, _, _)| *v == api_version)
        .map(|(_, k, _)| *k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_and_consistent() {
        assert!(KINDS.windows(2).all(|w| (w[0].0, w[0].1) < (w[1].0, w[1].1)));
        for s in STRUCTS {
            assert!(s.fields.windows(2).all(|w| w[0].0 < w[1].0), "{}", s.name);
        }
        let pod = kind("v1", "Pod").and_then(structure).unwrap();
        assert_eq!(pod.name, "Pod");
        let Some(Shape::Struct(spec)) = pod.field("spec") else {
            panic!("Pod spec")
        };
        let spec = structure(spec).unwrap();
        assert_eq!(spec.field("hostNetwork"), Some(Shape::Bool));
        assert_eq!(spec.field("hostnetwork"), None);
        assert!(kind("apps/v1", "deployment").is_none());
        assert!(kinds_of("apps/v1").any(|k| k == "Deployment"));
    }
}
