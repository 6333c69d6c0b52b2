//! Data compiled into the binary (DESIGN.md, "start-up is free"). `build.rs` reads the rule
//! catalogue (`rules/*.yaml`) and the tables under `data/` and `schemas/` at build time and emits
//! them as Rust statics, so nothing is parsed or built when ra2 starts: a fresh WebAssembly
//! instance judges its first request as fast as its thousandth. The source files stay the single
//! source; each table's tests compare the compiled form with its file as ra2 reads it.
//!
//! [`Json`] is a JSON value that can live in a `static` (a parameter's default, the settings
//! schema).

use std::fmt;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

/// A JSON value built at compile time. Objects keep their keys sorted, as `serde_json` does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'static str),
    Array(&'static [Json]),
    Object(&'static [(&'static str, Json)]),
}

impl Json {
    /// The value as a `serde_json` value.
    pub fn to_value(self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(b),
            Json::Int(i) => Value::from(i),
            Json::Float(f) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
            Json::Str(s) => Value::from(s),
            Json::Array(items) => Value::Array(items.iter().map(|j| j.to_value()).collect()),
            Json::Object(entries) => {
                Value::Object(entries.iter().map(|(k, v)| ((*k).to_owned(), v.to_value())).collect())
            }
        }
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match *self {
            Json::Object(entries) => entries.iter().find(|(k, _)| *k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&'static str> {
        match *self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Json::Int(i) => u64::try_from(i).ok(),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&'static [Json]> {
        match *self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&'static [(&'static str, Json)]> {
        match *self {
            Json::Object(entries) => Some(entries),
            _ => None,
        }
    }
}

/// Compares as JSON values do: `1` and `1.0` differ, as in `serde_json`.
impl PartialEq<Value> for Json {
    fn eq(&self, other: &Value) -> bool {
        match (*self, other) {
            (Json::Null, Value::Null) => true,
            (Json::Bool(a), Value::Bool(b)) => a == *b,
            (Json::Int(a), Value::Number(b)) => b.as_i64() == Some(a),
            (Json::Float(a), Value::Number(b)) => b.is_f64() && b.as_f64() == Some(a),
            (Json::Str(a), Value::String(b)) => a == b,
            (Json::Array(a), Value::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y),
            (Json::Object(a), Value::Object(b)) => {
                a.len() == b.len() && a.iter().all(|(k, v)| b.get(*k).is_some_and(|w| v == w))
            }
            _ => false,
        }
    }
}

/// Compact JSON, as `serde_json::Value` displays.
impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_value(), f)
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(b),
            Json::Int(i) => serializer.serialize_i64(i),
            Json::Float(f) => serializer.serialize_f64(f),
            Json::Str(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(entries) => pairs(entries, serializer),
        }
    }
}

/// Serialises `(key, value)` pairs as a map (`#[serde(serialize_with = "data::pairs")]`).
pub(crate) fn pairs<K: Serialize, V: Serialize, S: Serializer>(
    entries: &[(K, V)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(entries.len()))?;
    for (k, v) in entries {
        map.serialize_entry(k, v)?;
    }
    map.end()
}

/// Test support: a compiled table and its source file compared as JSON, with the fields a type
/// leaves at their defaults (`null`, `[]`, `{}`) dropped on both sides.
#[cfg(test)]
pub(crate) fn without_defaults(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, without_defaults(v)))
                .filter(|(_, v)| {
                    !(v.is_null()
                        || v.as_array().is_some_and(Vec::is_empty)
                        || v.as_object().is_some_and(serde_json::Map::is_empty))
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_defaults).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    static SAMPLE: Json = Json::Object(&[
        ("a", Json::Array(&[Json::Int(1), Json::Float(1.5), Json::Null])),
        ("b", Json::Str("x\"y")),
        ("c", Json::Bool(true)),
    ]);

    #[test]
    fn converts_compares_and_prints_like_serde_json() {
        let value = json!({"a": [1, 1.5, null], "b": "x\"y", "c": true});
        assert_eq!(SAMPLE.to_value(), value);
        assert_eq!(SAMPLE, value);
        assert_ne!(SAMPLE, json!({"a": [1.0, 1.5, null], "b": "x\"y", "c": true}));
        assert_ne!(Json::Int(1), json!(1.0));
        assert_eq!(SAMPLE.to_string(), value.to_string());
        assert_eq!(serde_json::to_value(SAMPLE).unwrap(), value);
        assert_eq!(SAMPLE.get("b").and_then(Json::as_str), Some("x\"y"));
        assert_eq!(SAMPLE.get("z"), None);
        assert_eq!(Json::Int(-1).as_u64(), None);
    }
}
