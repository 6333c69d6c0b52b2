//! The admission decision (DESIGN.md, admission contract): an `admission.k8s.io/v1`
//! AdmissionReview in, the AdmissionReview response with the same `uid` out. Plain data, no
//! I/O, so every face (Python `review`, JS `review`, the Kubewarden policy, `ra2 serve`) decides
//! the same way.
//!
//! CREATE and UPDATE judge the object the request carries (for UPDATE, the new one); DELETE and
//! CONNECT are allowed, as are writes to subresources other than `ephemeralcontainers` (a
//! status or scale update cannot change what the rules judge). Every kind is linted, so a
//! Deployment or CronJob with a bad pod template is refused before any Pod exists. Findings at
//! or above the threshold (`fail-on`, default `error`) deny with 403 and `rule pointer: message`
//! lines; the others become warnings, each under 256 bytes.

use serde_json::{Map, Value, json};

use crate::config::Config;
use crate::lint::Linter;
use crate::report::Finding;

/// The AdmissionReview version read and written.
pub const API_VERSION: &str = "admission.k8s.io/v1";

/// The name the judged object has inside the linter (it appears nowhere in the response).
const OBJECT_NAME: &str = "request.object";

/// Lines listed in a denial message before the rest are counted.
pub const MAX_DENIAL_LINES: usize = 10;

/// Warnings are cut to fewer bytes than this: the API server passes on warnings of up to 256
/// characters whole and may truncate longer ones.
pub const WARNING_LIMIT: usize = 256;

/// A request that cannot be judged, with what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct AdmissionError {
    /// The request's uid, when it could be read (a server answers with it).
    pub uid: Option<String>,
    pub message: String,
}

impl AdmissionError {
    fn new(uid: Option<&str>, message: impl Into<String>) -> Self {
        AdmissionError {
            uid: uid.map(str::to_owned),
            message: message.into(),
        }
    }
}

/// What the linter decided about one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub uid: String,
    pub allowed: bool,
    /// The denial message: one `rule pointer: message` line per finding at or above the threshold.
    pub message: Option<String>,
    /// The findings below the threshold, one line each.
    pub warnings: Vec<String>,
    /// Every finding about the object, for callers that want more than the response carries.
    pub findings: Vec<Finding>,
}

/// The JSON type of a value, for messages.
fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Judges a whole AdmissionReview and answers with the AdmissionReview response.
pub fn review(review: &Value, config: &Config) -> Result<Value, AdmissionError> {
    let Some(fields) = review.as_object() else {
        return Err(AdmissionError::new(
            None,
            format!("an AdmissionReview must be a JSON object, found {}", type_name(review)),
        ));
    };
    if let Some(api_version) = fields.get("apiVersion") {
        if api_version.as_str() != Some(API_VERSION) {
            return Err(AdmissionError::new(
                None,
                format!("unsupported AdmissionReview apiVersion {api_version}: ra2 reads {API_VERSION}"),
            ));
        }
    }
    if let Some(kind) = fields.get("kind") {
        if kind.as_str() != Some("AdmissionReview") {
            return Err(AdmissionError::new(
                None,
                format!("expected kind AdmissionReview, found {kind}"),
            ));
        }
    }
    let request = fields
        .get("request")
        .ok_or_else(|| AdmissionError::new(None, "the AdmissionReview has no request"))?;
    decide(request, config).map(|decision| response(&decision))
}

/// Judges the `request` of an AdmissionReview.
pub fn decide(request: &Value, config: &Config) -> Result<Decision, AdmissionError> {
    let Some(request) = request.as_object() else {
        return Err(AdmissionError::new(
            None,
            format!("request must be a JSON object, found {}", type_name(request)),
        ));
    };
    let uid = match request.get("uid") {
        Some(Value::String(uid)) if !uid.is_empty() => uid.as_str(),
        Some(Value::String(_)) => return Err(AdmissionError::new(None, "request.uid is empty")),
        Some(other) => {
            return Err(AdmissionError::new(
                None,
                format!("request.uid must be a string, found {}", type_name(other)),
            ));
        }
        None => return Err(AdmissionError::new(None, "request.uid is missing")),
    };
    let fail = |message: String| AdmissionError::new(Some(uid), message);
    let operation = match request.get("operation") {
        Some(Value::String(op)) => op.as_str(),
        Some(other) => {
            return Err(fail(format!(
                "request.operation must be a string, found {}",
                type_name(other)
            )));
        }
        None => return Err(fail("request.operation is missing".to_owned())),
    };
    let allow = || Decision {
        uid: uid.to_owned(),
        allowed: true,
        message: None,
        warnings: Vec::new(),
        findings: Vec::new(),
    };
    match operation {
        "CREATE" | "UPDATE" => {}
        "DELETE" | "CONNECT" => return Ok(allow()),
        other => {
            return Err(fail(format!(
                "request.operation {other:?} is not CREATE, UPDATE, DELETE or CONNECT"
            )));
        }
    }
    let subresource = request.get("subResource").and_then(Value::as_str).unwrap_or("");
    if !subresource.is_empty() && subresource != "ephemeralcontainers" {
        return Ok(allow());
    }
    let object = match request.get("object") {
        Some(Value::Object(object)) => object,
        None | Some(Value::Null) => {
            return Err(fail(format!(
                "request.object is missing: a {operation} request carries the object to judge"
            )));
        }
        Some(other) => {
            return Err(fail(format!(
                "request.object must be a JSON object, found {}",
                type_name(other)
            )));
        }
    };
    let namespace = request.get("namespace").and_then(Value::as_str).unwrap_or("");
    let text = serde_json::to_string(&with_namespace(object, namespace)).map_err(|e| fail(e.to_string()))?;
    let mut linter = Linter::new(config).with_unused_exemptions(false);
    linter.add_file(OBJECT_NAME, &text);
    let report = linter.finish();
    if !report.errors.is_empty() {
        let problems: Vec<&str> = report.errors.iter().map(|e| e.message.as_str()).collect();
        return Err(fail(format!("request.object: {}", problems.join("; "))));
    }
    let threshold = config.fail_on.threshold();
    let (denying, warning): (Vec<&Finding>, Vec<&Finding>) = report
        .findings
        .iter()
        .partition(|f| threshold.is_some_and(|t| f.severity >= t));
    Ok(Decision {
        uid: uid.to_owned(),
        allowed: denying.is_empty(),
        message: (!denying.is_empty()).then(|| denial_message(&denying)),
        warnings: warning.iter().map(|f| warning_text(f)).collect(),
        findings: report.findings.clone(),
    })
}

/// The object as the API server will store it: on create, `metadata.namespace` is often left
/// to the request's namespace, and namespace-dependent rules and exemptions need it.
fn with_namespace(object: &Map<String, Value>, namespace: &str) -> Value {
    let mut object = object.clone();
    if !namespace.is_empty() {
        if let Some(Value::Object(metadata)) = object.get_mut("metadata") {
            let unset = metadata
                .get("namespace")
                .is_none_or(|n| n.is_null() || n.as_str() == Some(""));
            if unset {
                metadata.insert("namespace".to_owned(), Value::String(namespace.to_owned()));
            }
        }
    }
    Value::Object(object)
}

/// `ra2.app.007 /spec/volumes/0/hostPath: volume "logs" mounts host path /var/log`.
pub fn finding_line(finding: &Finding) -> String {
    let line = if finding.pointer.is_empty() {
        format!("{}: {}", finding.rule, finding.message)
    } else {
        format!("{} {}: {}", finding.rule, finding.pointer, finding.message)
    };
    // One line each: a message never spans lines in a header or a status.
    line.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

fn denial_message(findings: &[&Finding]) -> String {
    let mut lines: Vec<String> = findings
        .iter()
        .take(MAX_DENIAL_LINES)
        .map(|f| finding_line(f))
        .collect();
    if let Some(more) = findings.len().checked_sub(MAX_DENIAL_LINES).filter(|n| *n > 0) {
        lines.push(format!("and {more} more"));
    }
    lines.join("\n")
}

/// A warning, cut with `…` to fewer than [`WARNING_LIMIT`] bytes.
fn warning_text(finding: &Finding) -> String {
    let line = finding_line(finding);
    if line.len() < WARNING_LIMIT {
        return line;
    }
    let budget = WARNING_LIMIT - 1 - '…'.len_utf8();
    let mut cut = String::new();
    for c in line.chars() {
        if cut.len() + c.len_utf8() > budget {
            break;
        }
        cut.push(c);
    }
    cut.push('…');
    cut
}

/// The AdmissionReview response for a decision.
pub fn response(decision: &Decision) -> Value {
    let mut response = json!({"uid": decision.uid, "allowed": decision.allowed});
    if let Some(fields) = response.as_object_mut() {
        if let Some(message) = &decision.message {
            fields.insert("status".to_owned(), json!({"code": 403, "message": message}));
        }
        if !decision.warnings.is_empty() {
            fields.insert("warnings".to_owned(), json!(decision.warnings));
        }
    }
    json!({"apiVersion": API_VERSION, "kind": "AdmissionReview", "response": response})
}

/// The answer a server gives to a request it cannot judge: not allowed, code 400, and what is
/// wrong with the request.
pub fn rejection(error: &AdmissionError) -> Value {
    json!({
        "apiVersion": API_VERSION,
        "kind": "AdmissionReview",
        "response": {
            "uid": error.uid.as_deref().unwrap_or(""),
            "allowed": false,
            "status": {"code": 400, "message": format!("ra2 cannot judge this request: {}", error.message)},
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn admission(operation: &str, object: Value) -> Value {
        let mut review = json!({
            "apiVersion": API_VERSION,
            "kind": "AdmissionReview",
            "request": {
                "uid": "705ab4f5-6393-11e8-b7cc-42010a800002",
                "kind": {"group": "", "version": "v1", "kind": "Pod"},
                "resource": {"group": "", "version": "v1", "resource": "pods"},
                "namespace": "core",
                "operation": operation,
            },
        });
        review["request"]["object"] = object;
        review
    }

    /// A pod with a hardened container (no findings in either edition) and `extra` spec fields.
    fn pod(extra: Value) -> Value {
        let mut spec = json!({
            "securityContext": {"runAsNonRoot": true, "seccompProfile": {"type": "RuntimeDefault"}},
            "containers": [{
                "name": "amf",
                "image": "registry.example.com/amf:1.0",
                "securityContext": {
                    "readOnlyRootFilesystem": true,
                    "allowPrivilegeEscalation": false,
                    "capabilities": {"drop": ["ALL"]},
                },
            }],
        });
        if let (Some(spec), Value::Object(extra)) = (spec.as_object_mut(), extra) {
            spec.extend(extra);
        }
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "amf"}, "spec": spec})
    }

    fn clean_pod() -> Value {
        pod(json!({}))
    }

    fn control_plane_pod() -> Value {
        pod(json!({"nodeSelector": {"node-role.kubernetes.io/control-plane": ""}}))
    }

    fn host_path_pod() -> Value {
        pod(json!({"volumes": [{"name": "logs", "hostPath": {"path": "/var/log/amf"}}]}))
    }

    fn respond(review_value: &Value, config: &Config) -> Value {
        review(review_value, config).expect("a well-formed review")
    }

    #[test]
    fn clean_object_is_allowed_with_the_same_uid() {
        let out = respond(&admission("CREATE", clean_pod()), &Config::default());
        assert_eq!(
            out,
            json!({
                "apiVersion": API_VERSION,
                "kind": "AdmissionReview",
                "response": {"uid": "705ab4f5-6393-11e8-b7cc-42010a800002", "allowed": true},
            })
        );
    }

    #[test]
    fn error_findings_deny_with_403_and_rule_pointer_lines() {
        let out = respond(&admission("CREATE", control_plane_pod()), &Config::default());
        let response = &out["response"];
        assert_eq!(response["allowed"], false);
        assert_eq!(response["status"]["code"], 403);
        let message = response["status"]["message"].as_str().expect("message");
        assert!(
            message.starts_with("ra2.app.008 /spec/nodeSelector/node-role.kubernetes.io~1control-plane: "),
            "{message}"
        );
        assert_eq!(message.lines().count(), 1, "{message}");
    }

    #[test]
    fn findings_below_the_threshold_are_warnings() {
        let out = respond(&admission("CREATE", host_path_pod()), &Config::default());
        let response = &out["response"];
        assert_eq!(response["allowed"], true);
        assert!(response.get("status").is_none());
        let warnings = response["warnings"].as_array().expect("warnings");
        assert_eq!(warnings.len(), 1);
        assert_eq!(
            warnings[0],
            "ra2.app.007 /spec/volumes/0/hostPath: volume \"logs\" mounts host path /var/log/amf"
        );
    }

    #[test]
    fn the_threshold_comes_from_fail_on() {
        let strict = Config::from_yaml("fail-on: warning\n", "settings").expect("config");
        let out = respond(&admission("CREATE", host_path_pod()), &strict);
        assert_eq!(out["response"]["allowed"], false);
        assert!(out["response"].get("warnings").is_none());
        let never = Config::from_yaml("fail-on: never\n", "settings").expect("config");
        let out = respond(&admission("CREATE", control_plane_pod()), &never);
        assert_eq!(out["response"]["allowed"], true);
        assert_eq!(out["response"]["warnings"].as_array().map(Vec::len), Some(1));
    }

    #[test]
    fn the_edition_applies() {
        let latest = Config::from_yaml("edition: latest\n", "settings").expect("config");
        let out = respond(&admission("CREATE", host_path_pod()), &latest);
        let message = out["response"]["status"]["message"].as_str().unwrap_or_default();
        assert!(message.contains("ra2.app.007 /spec/volumes/0/hostPath: "), "{out}");
    }

    #[test]
    fn delete_and_connect_are_allowed_without_an_object() {
        for operation in ["DELETE", "CONNECT"] {
            let mut value = admission(operation, Value::Null);
            value["request"]["oldObject"] = control_plane_pod();
            let out = respond(&value, &Config::default());
            assert_eq!(out["response"]["allowed"], true, "{operation}");
        }
    }

    #[test]
    fn update_judges_the_new_object() {
        let mut value = admission("UPDATE", clean_pod());
        value["request"]["oldObject"] = control_plane_pod();
        assert_eq!(respond(&value, &Config::default())["response"]["allowed"], true);
        let mut value = admission("UPDATE", control_plane_pod());
        value["request"]["oldObject"] = clean_pod();
        assert_eq!(respond(&value, &Config::default())["response"]["allowed"], false);
    }

    #[test]
    fn controllers_are_judged_by_their_pod_template() {
        let deployment = json!({
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "upf"},
            "spec": {
                "selector": {"matchLabels": {"app": "upf"}},
                "template": {
                    "metadata": {"labels": {"app": "upf"}},
                    "spec": control_plane_pod()["spec"].clone(),
                },
            },
        });
        let out = respond(&admission("CREATE", deployment), &Config::default());
        let message = out["response"]["status"]["message"].as_str().unwrap_or_default();
        assert!(
            message.starts_with("ra2.app.008 /spec/template/spec/nodeSelector/"),
            "{out}"
        );
    }

    #[test]
    fn status_updates_are_allowed_but_ephemeral_containers_are_judged() {
        let mut value = admission("UPDATE", control_plane_pod());
        value["request"]["subResource"] = json!("status");
        assert_eq!(respond(&value, &Config::default())["response"]["allowed"], true);
        value["request"]["subResource"] = json!("ephemeralcontainers");
        assert_eq!(respond(&value, &Config::default())["response"]["allowed"], false);
    }

    #[test]
    fn the_request_namespace_fills_in_the_object_namespace() {
        let config = Config::from_yaml(
            "exemptions:\n  - {rule: ra2.app.008, namespace: core, reason: lab cluster}\n",
            "settings",
        )
        .expect("config");
        let out = respond(&admission("CREATE", control_plane_pod()), &config);
        assert_eq!(out["response"]["allowed"], true, "{out}");
        let mut value = admission("CREATE", control_plane_pod());
        value["request"]["namespace"] = json!("ran");
        assert_eq!(respond(&value, &config)["response"]["allowed"], false);
    }

    #[test]
    fn long_warnings_are_cut_under_256_bytes() {
        let name = "é".repeat(200);
        let value = admission(
            "CREATE",
            pod(json!({"volumes": [{"name": "logs", "hostPath": {"path": format!("/var/{name}")}}]})),
        );
        let out = respond(&value, &Config::default());
        let warning = out["response"]["warnings"][0].as_str().expect("warning");
        assert!(warning.len() < WARNING_LIMIT, "{}", warning.len());
        assert!(warning.ends_with('…'));
    }

    #[test]
    fn many_denials_are_counted_past_the_limit() {
        let tolerations: Vec<Value> = (0..15)
            .map(|i| json!({"key": "node-role.kubernetes.io/control-plane", "operator": "Exists", "tolerationSeconds": i}))
            .collect();
        let out = respond(
            &admission("CREATE", pod(json!({"tolerations": tolerations}))),
            &Config::default(),
        );
        let message = out["response"]["status"]["message"].as_str().unwrap_or_default();
        assert_eq!(message.lines().count(), MAX_DENIAL_LINES + 1, "{message}");
        assert!(
            message
                .lines()
                .last()
                .is_some_and(|l| l.starts_with("and ") && l.ends_with(" more")),
            "{message}"
        );
    }

    #[test]
    fn malformed_requests_are_clear_errors() {
        let config = Config::default();
        let cases: Vec<(Value, &str)> = vec![
            (json!([]), "an AdmissionReview must be a JSON object, found an array"),
            (
                json!({"apiVersion": "admission.k8s.io/v1beta1", "kind": "AdmissionReview", "request": {}}),
                "unsupported AdmissionReview apiVersion \"admission.k8s.io/v1beta1\": ra2 reads admission.k8s.io/v1",
            ),
            (
                json!({"apiVersion": API_VERSION, "kind": "Pod"}),
                "expected kind AdmissionReview, found \"Pod\"",
            ),
            (
                json!({"apiVersion": API_VERSION, "kind": "AdmissionReview"}),
                "the AdmissionReview has no request",
            ),
            (json!({"request": 3}), "request must be a JSON object, found a number"),
            (json!({"request": {"operation": "CREATE"}}), "request.uid is missing"),
            (
                json!({"request": {"uid": 7}}),
                "request.uid must be a string, found a number",
            ),
            (json!({"request": {"uid": "u"}}), "request.operation is missing"),
            (
                json!({"request": {"uid": "u", "operation": "PATCH"}}),
                "request.operation \"PATCH\" is not CREATE, UPDATE, DELETE or CONNECT",
            ),
            (
                json!({"request": {"uid": "u", "operation": "CREATE"}}),
                "request.object is missing: a CREATE request carries the object to judge",
            ),
            (
                json!({"request": {"uid": "u", "operation": "UPDATE", "object": "pod"}}),
                "request.object must be a JSON object, found a string",
            ),
            (
                json!({"request": {"uid": "u", "operation": "CREATE", "object": {"kind": "Pod"}}}),
                "request.object: object has no apiVersion, so Kubernetes cannot read it",
            ),
        ];
        for (value, message) in cases {
            let error = review(&value, &config).expect_err(message);
            assert_eq!(error.message, message);
        }
    }

    #[test]
    fn rejection_keeps_the_uid_when_known() {
        let error = review(
            &json!({"request": {"uid": "u-1", "operation": "MOVE"}}),
            &Config::default(),
        )
        .expect_err("bad operation");
        let out = rejection(&error);
        assert_eq!(out["response"]["uid"], "u-1");
        assert_eq!(out["response"]["allowed"], false);
        assert_eq!(out["response"]["status"]["code"], 400);
    }
}
