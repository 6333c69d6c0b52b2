//! The serde_json path: a review or request parsed first, then judged from the parsed value.
//! The reference the text path ([`super::text`]) answers the same as, byte for byte, and the
//! path of everything that one cannot vouch for.

use std::borrow::Borrow;

use serde_json::{Map, Value};

use super::{AdmissionError, Answer, Asked, Decision, Fields, ReviewError, SOURCE_NAME, ValidationError, allow, judge};
use crate::config::Config;
use crate::report::words::json_type as type_name;

/// Decides on an AdmissionRequest (the `request` of an AdmissionReview, or of a Kubewarden
/// ValidationRequest).
pub(super) fn decide(request: &Value, config: &Config) -> Result<Decision, AdmissionError> {
    let Some(request) = request.as_object() else {
        return Err(AdmissionError::new(format!(
            "the admission request is {}, not an object",
            type_name(request)
        )));
    };
    let operation = match request.get("operation") {
        Some(Value::String(op)) => op.as_str(),
        None | Some(Value::Null) => return Err(AdmissionError::new("the admission request has no operation")),
        Some(other) => {
            return Err(AdmissionError::new(format!(
                "the admission request's operation is {}, not a string",
                type_name(other)
            )));
        }
    };
    match operation {
        "CREATE" | "UPDATE" => {}
        "DELETE" | "CONNECT" => return Ok(allow()),
        other => {
            return Err(AdmissionError::new(format!(
                "unknown operation {other:?} (expected CREATE, UPDATE, DELETE or CONNECT)"
            )));
        }
    }
    // A subresource write (status, scale, binding, ...) cannot change the pod spec ra2 judges;
    // refusing it would stop the kubelet and controllers from reporting on an object that already
    // exists. Ephemeral containers are the exception: they add containers to a running pod.
    let sub_resource = request.get("subResource").and_then(Value::as_str).unwrap_or_default();
    if !sub_resource.is_empty() && sub_resource != "ephemeralcontainers" {
        return Ok(allow());
    }
    let object = match request.get("object") {
        Some(Value::Object(object)) => object,
        None | Some(Value::Null) => {
            return Err(AdmissionError::new(format!(
                "the {operation} request carries no object"
            )));
        }
        Some(other) => {
            return Err(AdmissionError::new(format!(
                "the {operation} request's object is {}, not an object",
                type_name(other)
            )));
        }
    };
    let object = prepare(object, request);
    let text = serde_json::to_string(&object).unwrap_or_default();
    let mut linter = crate::Linter::new(config).with_decoded_objects();
    linter.add_file(SOURCE_NAME, &text);
    let mut report = linter.finish();
    if operation == "UPDATE" {
        // The API server refuses ephemeral containers only on create; an update (the
        // ephemeralcontainers subresource) is how they are added.
        report
            .findings
            .retain(|f| !(f.rule == crate::rules::api_server::ID && f.check == "ephemeral-containers"));
        report.finalize();
    }
    if let Some(error) = report.errors.first() {
        return Err(AdmissionError::new(format!(
            "ra2 cannot read the object: {}",
            error.message
        )));
    }
    Ok(judge(report, config))
}

/// [`super::review`] of a parsed AdmissionReview.
pub(super) fn review(review: &Value, config: &Config) -> Answer {
    let field = |request: &Value, pointer: &str| {
        request
            .pointer(pointer)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let asked = Asked::of(review.get("apiVersion").and_then(Value::as_str));
    let request = match check_review(review) {
        Ok(request) => request,
        Err(error) => {
            let fields = Fields {
                uid: field(review, "/request/uid"),
                ..Fields::default()
            };
            return Answer::invalid(asked, fields, ReviewError::NotAReview(error));
        }
    };
    let fields = Fields {
        uid: field(request, "/uid"),
        kind: field(request, "/kind/kind"),
        operation: field(request, "/operation"),
    };
    match decide(request, config) {
        Ok(decision) => Answer::decided(asked, fields, decision, false),
        Err(error) => Answer::invalid(asked, fields, ReviewError::Request(error)),
    }
}

/// [`super::validate`] of a parsed ValidationRequest.
pub(super) fn validate<C: Borrow<Config>>(
    request: &Value,
    mut config_of: impl FnMut(&Value) -> Result<C, String>,
) -> Result<Decision, ValidationError> {
    let config = config_of(request.get("settings").unwrap_or(&Value::Null)).map_err(ValidationError::Settings)?;
    decide(request.get("request").unwrap_or(&Value::Null), config.borrow()).map_err(ValidationError::Request)
}

/// The request inside an AdmissionReview, or why the review cannot be read (not an object,
/// not kind AdmissionReview, no request object). `ra2 serve` answers such a body with HTTP 400
/// instead of a review.
fn check_review(review: &Value) -> Result<&Value, AdmissionError> {
    let Some(fields) = review.as_object() else {
        return Err(AdmissionError::new(format!(
            "the AdmissionReview is {}, not an object",
            type_name(review)
        )));
    };
    if let Some(kind) = fields.get("kind").filter(|k| k.as_str() != Some("AdmissionReview")) {
        return Err(AdmissionError::new(format!(
            "expected kind AdmissionReview, found {kind}"
        )));
    }
    match fields.get("request") {
        Some(request @ Value::Object(_)) => Ok(request),
        None | Some(Value::Null) => Err(AdmissionError::new("the AdmissionReview has no request")),
        Some(other) => Err(AdmissionError::new(format!(
            "the AdmissionReview's request is {}, not an object",
            type_name(other)
        ))),
    }
}

/// The object as ra2 lints it. On CREATE the object may leave its namespace (and, with
/// generateName, its name) to the request: they are filled in, so exemptions and messages see
/// what the API server will store. `metadata.managedFields` and `status` are dropped: server
/// bookkeeping no rule reads, often half the bytes of a request, and parsing is most of the
/// cost of a decision. A Node keeps its `status` (capacity, allocatable and `nodeInfo` are
/// what the platform checks judge). Pointers to everything else are unchanged.
fn prepare(object: &Map<String, Value>, request: &Map<String, Value>) -> Value {
    let mut object = object.clone();
    let node = object.get("kind").and_then(Value::as_str) == Some("Node")
        && object.get("apiVersion").and_then(Value::as_str) == Some("v1");
    if !node {
        object.remove("status");
    }
    if let Some(Value::Object(metadata)) = object.get_mut("metadata") {
        metadata.remove("managedFields");
    }
    let from_request = |key: &str| {
        request
            .get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    let fills: Vec<(&str, String)> = ["namespace", "name"]
        .into_iter()
        .filter_map(|key| from_request(key).map(|value| (key, value)))
        .collect();
    if !fills.is_empty() {
        let metadata = object.entry("metadata").or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(metadata) = metadata {
            for (key, value) in fills {
                let absent = metadata.get(key).is_none_or(|v| v.as_str().is_none_or(str::is_empty));
                if absent {
                    metadata.insert(key.to_owned(), Value::String(value));
                }
            }
        }
    }
    Value::Object(object)
}
