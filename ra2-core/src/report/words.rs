//! How messages name values.

use serde_json::Value;

/// `a string`, `an array`: a JSON value's type with its article, for messages about JSON text
/// (AdmissionReviews, CNI configurations, DANM interfaces). YAML nodes are named by
/// [`crate::parse::view::Located::type_name`], in YAML's words.
pub fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
