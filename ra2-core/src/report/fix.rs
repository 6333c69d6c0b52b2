//! The fix model: what a finding carries when its remedy is mechanical ([`Fix`]: applicability,
//! title and an RFC 6902 patch on its object), and [`set`], how rules build the patch. Plain
//! data beside [`crate::report::Finding`], so that rules depend on it and not on the stage
//! that applies fixes ([`crate::fix`]).

use serde::{Deserialize, Serialize};

use crate::parse::view::Located;

/// Whether a fix may be applied without review (`ra2 lint --fix`) or only when asked
/// (`--unsafe-fixes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    Safe,
    Unsafe,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "safe" => Some(Applicability::Safe),
            "unsafe" => Some(Applicability::Unsafe),
            _ => None,
        }
    }
}

/// An RFC 6902 operation: `add` (a mapping key, or `/-` to append to a list), `replace`,
/// `remove`, or `move` (`from` to `path`; ra2 moves a value only to another key of the same
/// mapping: a rename); paths are relative to the object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Operation {
    pub op: Op,
    /// Where a `move` takes the value from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<serde_json::Value>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    Add,
    Replace,
    Remove,
    Move,
}

/// The operation that renames the key `at` is the value of to `key` (a `move` within its
/// mapping). Paths are relative to the object `at` belongs to.
pub(crate) fn rename(at: &Located<'_>, key: &str) -> Operation {
    let from = in_object(&at.pointer());
    let parent = from.rsplit_once('/').map_or("", |(parent, _)| parent);
    let mut path = parent.to_owned();
    push_key(&mut path, key);
    Operation {
        op: Op::Move,
        from: Some(from),
        path,
        value: None,
    }
}

/// A finding's mechanical remedy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fix {
    pub applicability: Applicability,
    /// What the fix does, imperative: `Set allowPrivilegeEscalation: false`.
    pub title: String,
    pub patch: Vec<Operation>,
}

/// The operations that make `keys` (a path of mapping keys below `at`) hold `value`: a
/// `replace` when the whole path exists, else an `add` of the first missing key holding the
/// rest as nested mappings. Paths are relative to the object `at` belongs to.
pub(crate) fn set(at: &Located<'_>, keys: &[&str], value: serde_json::Value) -> Vec<Operation> {
    let mut here = at.clone();
    for (i, key) in keys.iter().enumerate() {
        if !here.is_map() {
            let nested = nest(keys.get(i..).unwrap_or_default(), value);
            return vec![Operation {
                op: Op::Replace,
                from: None,
                path: in_object(&here.pointer()),
                value: Some(nested),
            }];
        }
        let Some(next) = here.get(key) else {
            let mut path = in_object(&here.pointer());
            push_key(&mut path, key);
            return vec![Operation {
                op: Op::Add,
                from: None,
                path,
                value: Some(nest(keys.get(i + 1..).unwrap_or_default(), value)),
            }];
        };
        here = next;
    }
    vec![Operation {
        op: Op::Replace,
        from: None,
        path: in_object(&here.pointer()),
        value: Some(value),
    }]
}

/// `value` under `keys`, innermost last: `nest(["a", "b"], 1)` is `{"a": {"b": 1}}`.
fn nest(keys: &[&str], value: serde_json::Value) -> serde_json::Value {
    keys.iter().rev().fold(value, |inner, key| {
        let mut map = serde_json::Map::new();
        map.insert((*key).to_owned(), inner);
        serde_json::Value::Object(map)
    })
}

fn push_key(path: &mut String, key: &str) {
    path.push('/');
    path.push_str(&key.replace('~', "~0").replace('/', "~1"));
}

/// A document pointer made relative to its object: the items of a `kind: List` are at
/// `/items/N`, and no other kind has a top-level `items`.
pub(crate) fn in_object(pointer: &str) -> String {
    object_prefix(pointer).map_or_else(
        || pointer.to_owned(),
        |prefix| pointer.get(prefix.len()..).unwrap_or_default().to_owned(),
    )
}

/// The `/items/N` a List item's pointers start with, if `pointer` is one's.
pub fn object_prefix(pointer: &str) -> Option<&str> {
    let rest = pointer.strip_prefix("/items/")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let after = rest.get(digits..)?;
    (digits > 0 && (after.is_empty() || after.starts_with('/'))).then(|| pointer.get(..7 + digits).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_item_prefixes() {
        assert_eq!(object_prefix("/items/3/spec"), Some("/items/3"));
        assert_eq!(object_prefix("/items/3"), Some("/items/3"));
        assert_eq!(object_prefix("/items/x"), None);
        assert_eq!(object_prefix("/spec/items/3"), None);
        assert_eq!(in_object("/items/12/spec/a"), "/spec/a");
        assert_eq!(in_object("/spec/a"), "/spec/a");
    }
}
