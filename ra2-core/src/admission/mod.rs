//! The admission decision (DESIGN.md, admission contract): an `admission.k8s.io/v1`
//! AdmissionReview in, the AdmissionReview to send back out ([`review`]); or Kubewarden's
//! ValidationRequest in, the decision out ([`validate`]). Plain data, no I/O: `ra2 serve`, the
//! Kubewarden policy, JS `review` and Python `review` all decide here, and only here.
//!
//! CREATE and UPDATE judge the object the request carries (for UPDATE the new one); DELETE
//! and CONNECT are allowed. Every kind is linted, so a Deployment or CronJob with a bad pod
//! template is refused before any Pod exists. Findings at or above the threshold (`fail-on`,
//! default `error`) deny with 403 and `rule pointer: message` lines; the others become
//! warnings, each short enough for the API server to pass on whole.
//!
//! Text is read once, straight into the tree the rules walk ([`text`]); what that path cannot
//! vouch for is parsed with serde_json and judged from the parsed value ([`value`]), which
//! answers the same, byte for byte. Which path a request takes is chosen here, in the two
//! entry points, and nowhere else.

mod text;
mod value;

#[doc(hidden)]
pub use text::read_into_tree;

use std::borrow::Borrow;

use serde_json::{Map, Value, json};

use crate::config::Config;
use crate::report::{Finding, Report};

/// The status code of a denial.
const FORBIDDEN: u16 = 403;
/// The status code for a request ra2 cannot judge (no object, not an AdmissionReview).
pub const BAD_REQUEST: u16 = 400;
/// Longest warning and message line, in bytes: the API server truncates warnings at 256
/// characters, so ours stay whole.
const MAX_LINE_BYTES: usize = 255;
/// Most `rule pointer: message` lines in a denial; the rest are counted.
const MAX_MESSAGE_LINES: usize = 10;
/// Budget for all warnings of one response, in bytes: the API server keeps about 4096
/// characters of warnings per response and drops the rest silently, so ra2 counts what does
/// not fit instead.
const MAX_WARNING_BYTES: usize = 3800;
/// The name findings carry as their `file` when they come from an admission request.
const SOURCE_NAME: &str = "<admission>";
/// The AdmissionReview versions ra2 answers (v1beta1 has the same shape).
const V1: &str = "admission.k8s.io/v1";
const V1BETA1: &str = "admission.k8s.io/v1beta1";

/// An admission request as a face holds it.
#[derive(Clone, Copy, Debug)]
pub enum Input<'a> {
    /// An HTTP body or a waPC payload: JSON text, or bytes that are not even UTF-8.
    Bytes(&'a [u8]),
    /// JSON text.
    Text(&'a str),
    /// A request already parsed (a value built in memory): judged as it stands.
    Value(&'a Value),
}

/// The answer to an AdmissionReview ([`review`]).
#[derive(Clone, Debug)]
pub struct Answer {
    /// The AdmissionReview to send back: the same `uid`, `allowed`, a 403 status listing the
    /// findings at or above the threshold, the others as warnings; 400 saying why for a review
    /// ra2 cannot judge.
    pub review: Value,
    pub verdict: Verdict,
    /// The request's `uid`, `kind.kind` and `operation`, for logs and metrics; empty when the
    /// request has none (or is not there).
    pub uid: String,
    pub kind: String,
    pub operation: String,
    /// The lint report behind the decision (empty when nothing was linted).
    pub report: Report,
    /// Whether the text was read straight into ra2's tree rather than through serde_json (the
    /// answer is the same either way; tests check that the first path is taken).
    pub read_once: bool,
    /// An `apiVersion` other than v1 and v1beta1 (answered as v1; see [`Answer::not_a_review`]).
    unknown_api_version: Option<String>,
}

/// What [`review`] decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Allowed, perhaps with warnings.
    Allowed,
    /// Refused with 403: a finding at or above the threshold.
    Denied,
    /// Refused with 400: ra2 cannot judge the review, for this reason.
    Invalid(ReviewError),
}

impl Verdict {
    /// `allowed`, `denied` or `invalid` (the label `ra2 serve`'s metrics and access log use).
    pub fn label(&self) -> &'static str {
        match self {
            Verdict::Allowed => "allowed",
            Verdict::Denied => "denied",
            Verdict::Invalid(_) => "invalid",
        }
    }
}

/// Why ra2 cannot judge an AdmissionReview.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    /// Empty bytes (the review sent back words it as text that is not JSON).
    #[error("the body is empty; POST an admission.k8s.io/v1 AdmissionReview")]
    Empty,
    /// Not JSON: serde_json's reason.
    #[error("the AdmissionReview is not JSON: {0}")]
    NotJson(String),
    /// An `apiVersion` other than v1 and v1beta1: only [`Answer::not_a_review`] says so; the
    /// review sent back answers it as v1.
    #[error("expected apiVersion admission.k8s.io/v1, found {0:?}")]
    ApiVersion(String),
    /// Not an object, another kind, no request.
    #[error("{0}")]
    NotAReview(AdmissionError),
    /// The request inside the review cannot be judged: no operation, no object, an object ra2
    /// cannot read.
    #[error("{0}")]
    Request(AdmissionError),
}

impl ReviewError {
    /// The message the review sent back carries (`status.message`).
    pub fn status_message(&self) -> String {
        format!("ra2: malformed admission request: {self}")
    }
}

impl Answer {
    /// Why a webhook server should refuse the body with HTTP 400 rather than answer it: it is
    /// not an AdmissionReview (empty, not JSON, an `apiVersion` other than v1 and v1beta1, not
    /// an object, another kind, no request). `None` when [`Answer::review`] is the answer,
    /// including a request inside the review that ra2 cannot judge (400 inside the review).
    pub fn not_a_review(&self) -> Option<ReviewError> {
        match (&self.verdict, &self.unknown_api_version) {
            (Verdict::Invalid(error @ (ReviewError::Empty | ReviewError::NotJson(_))), _) => Some(error.clone()),
            (_, Some(version)) => Some(ReviewError::ApiVersion(version.clone())),
            (Verdict::Invalid(error @ ReviewError::NotAReview(_)), _) => Some(error.clone()),
            _ => None,
        }
    }

    /// The answer to a decision on the request of a review.
    fn decided(asked: Asked, request: Fields, decision: Decision, read_once: bool) -> Answer {
        let Decision {
            allowed,
            code,
            message,
            warnings,
            report,
        } = decision;
        let response = answer(&request.uid, allowed, code, message, warnings);
        Answer {
            review: admission_review(asked.answer_in, response),
            verdict: if allowed { Verdict::Allowed } else { Verdict::Denied },
            uid: request.uid,
            kind: request.kind,
            operation: request.operation,
            report,
            read_once,
            unknown_api_version: asked.unknown,
        }
    }

    /// The answer refusing a review ra2 cannot judge.
    fn invalid(asked: Asked, request: Fields, error: ReviewError) -> Answer {
        Answer {
            review: admission_review(asked.answer_in, rejection(&request.uid, &error)),
            verdict: Verdict::Invalid(error),
            uid: request.uid,
            kind: request.kind,
            operation: request.operation,
            report: Report::default(),
            read_once: false,
            unknown_api_version: asked.unknown,
        }
    }
}

/// The `uid`, `kind.kind` and `operation` of a request, as [`Answer`] carries them.
#[derive(Default)]
struct Fields {
    uid: String,
    kind: String,
    operation: String,
}

/// The `apiVersion` a review asked in: the answer's version (the one asked, or v1), and the
/// one asked if ra2 does not know it.
struct Asked {
    answer_in: &'static str,
    unknown: Option<String>,
}

impl Asked {
    fn of(api_version: Option<&str>) -> Asked {
        Asked {
            answer_in: if api_version == Some(V1BETA1) { V1BETA1 } else { V1 },
            unknown: api_version.filter(|v| *v != V1 && *v != V1BETA1).map(str::to_owned),
        }
    }
}

/// Decides on an AdmissionReview and answers with one (see [`Answer`]). Text is read once,
/// straight into ra2's tree; what that path cannot vouch for, and every malformed review, is
/// parsed with serde_json and answered from the parsed value, the same way.
pub fn review(input: Input<'_>, config: &Config) -> Answer {
    if let Input::Value(review) = input {
        return value::review(review, config);
    }
    if let Some(answer) = input.text().and_then(|text| text::review(text, config)) {
        return answer;
    }
    match input.parse() {
        Ok(review) => value::review(&review, config),
        Err(e) => {
            let mut answer = Answer::invalid(Asked::of(None), Fields::default(), ReviewError::NotJson(e.to_string()));
            if matches!(input, Input::Bytes(b"")) {
                // An empty body: the review sent back words it as serde_json does.
                answer.verdict = Verdict::Invalid(ReviewError::Empty);
            }
            answer
        }
    }
}

/// Kubewarden's ValidationRequest (the AdmissionRequest at `request`, the policy's settings at
/// `settings`) decided. `config_of` turns the settings (`null` when there are none) into the
/// Config to judge by, or says why it cannot; it may be called twice for one request.
pub fn validate<C: Borrow<Config>>(
    input: Input<'_>,
    mut config_of: impl FnMut(&Value) -> Result<C, String>,
) -> Result<Decision, ValidationError> {
    if let Input::Value(request) = input {
        return value::validate(request, config_of);
    }
    if let Some(decided) = input.text().and_then(|text| text::validate(text, &mut config_of)) {
        return decided;
    }
    match input.parse() {
        Ok(request) => value::validate(&request, config_of),
        Err(e) => Err(ValidationError::NotJson(e.to_string())),
    }
}

/// Why a ValidationRequest is refused (400); the policy says `ra2: ` and this.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValidationError {
    #[error("malformed validation request: {0}")]
    NotJson(String),
    /// The settings' Config could not be made: `config_of`'s reason.
    #[error("{0}")]
    Settings(String),
    #[error("malformed admission request: {0}")]
    Request(AdmissionError),
}

impl<'a> Input<'a> {
    /// The text to read into the tree: none for bytes that are not UTF-8, or a parsed value.
    fn text(self) -> Option<&'a str> {
        match self {
            Input::Bytes(bytes) => std::str::from_utf8(bytes).ok(),
            Input::Text(text) => Some(text),
            Input::Value(_) => None,
        }
    }

    /// The input parsed with serde_json: text as text, bytes as bytes (serde_json says why bytes
    /// that are not UTF-8 are not JSON).
    fn parse(self) -> serde_json::Result<Value> {
        match self {
            Input::Bytes(bytes) => serde_json::from_slice(bytes),
            Input::Text(text) => serde_json::from_str(text),
            Input::Value(value) => Ok(value.clone()),
        }
    }
}

/// A request ra2 cannot judge: not an AdmissionReview, no operation, no object.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct AdmissionError {
    pub message: String,
}

impl AdmissionError {
    fn new(message: impl Into<String>) -> Self {
        AdmissionError {
            message: message.into(),
        }
    }
}

/// What to answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub allowed: bool,
    /// 403 when denied because of findings; `None` when allowed.
    pub code: Option<u16>,
    /// `rule pointer: message` lines, one per finding at or above the threshold.
    pub message: Option<String>,
    /// Findings below the threshold, one line each.
    pub warnings: Vec<String>,
    /// The lint report behind the decision (empty for DELETE and CONNECT).
    pub report: Report,
}

/// An AdmissionReview holding `response`, moved in (`json!` would copy it).
fn admission_review(api_version: &str, response: Value) -> Value {
    let mut out = Map::new();
    out.insert("apiVersion".to_owned(), Value::from(api_version));
    out.insert("kind".to_owned(), Value::from("AdmissionReview"));
    out.insert("response".to_owned(), response);
    Value::Object(out)
}

fn answer(uid: &str, allowed: bool, code: Option<u16>, message: Option<String>, warnings: Vec<String>) -> Value {
    let mut out = Map::new();
    out.insert("uid".to_owned(), Value::from(uid));
    out.insert("allowed".to_owned(), Value::Bool(allowed));
    if !allowed {
        let mut status = Map::new();
        status.insert("code".to_owned(), Value::from(code.unwrap_or(FORBIDDEN)));
        status.insert("message".to_owned(), Value::from(message.unwrap_or_default()));
        out.insert("status".to_owned(), Value::Object(status));
    }
    if !warnings.is_empty() {
        out.insert("warnings".to_owned(), Value::from(warnings));
    }
    Value::Object(out)
}

/// The `response` of an AdmissionReview for a review ra2 cannot judge.
fn rejection(uid: &str, error: &ReviewError) -> Value {
    json!({
        "uid": uid,
        "allowed": false,
        "status": {"code": BAD_REQUEST, "message": error.status_message()},
    })
}

fn allow() -> Decision {
    Decision {
        allowed: true,
        code: None,
        message: None,
        warnings: Vec::new(),
        report: Report::default(),
    }
}

/// Splits findings at the threshold into the denial message and warnings.
fn judge(report: Report, config: &Config) -> Decision {
    let threshold = config.fail_on.threshold();
    let (deny, warn): (Vec<&Finding>, Vec<&Finding>) = report
        .findings
        .iter()
        .partition(|f| threshold.is_some_and(|t| f.severity >= t));
    let message = (!deny.is_empty()).then(|| denial_message(&deny));
    Decision {
        allowed: deny.is_empty(),
        code: (!deny.is_empty()).then_some(FORBIDDEN),
        message,
        warnings: warnings(&warn),
        report,
    }
}

/// `ra2.app.007 /spec/volumes/0/hostPath: volume "data" mounts host path /var/lib/x`, cut to
/// [`MAX_LINE_BYTES`].
fn finding_line(finding: &Finding) -> String {
    let line = if finding.pointer.is_empty() {
        format!("{}: {}", finding.rule, finding.message)
    } else {
        format!("{} {}: {}", finding.rule, finding.pointer, finding.message)
    };
    truncate(line, MAX_LINE_BYTES)
}

fn denial_message(findings: &[&Finding]) -> String {
    let mut lines: Vec<String> = findings
        .iter()
        .take(MAX_MESSAGE_LINES)
        .map(|f| finding_line(f))
        .collect();
    if findings.len() > MAX_MESSAGE_LINES {
        lines.push(more(findings.len() - MAX_MESSAGE_LINES));
    }
    lines.join("\n")
}

fn warnings(findings: &[&Finding]) -> Vec<String> {
    let mut out = Vec::new();
    let mut used = 0;
    for (i, finding) in findings.iter().enumerate() {
        let line = finding_line(finding);
        let rest = findings.len() - i - 1;
        // Keep room for the closing count unless this is the last finding.
        let reserve = if rest > 0 { more(rest).len() } else { 0 };
        if used + line.len() + reserve > MAX_WARNING_BYTES {
            out.push(more(findings.len() - i));
            return out;
        }
        used += line.len();
        out.push(line);
    }
    out
}

fn more(n: usize) -> String {
    format!(
        "… and {n} more {} (`ra2 lint` lists them all)",
        if n == 1 { "finding" } else { "findings" }
    )
}

fn truncate(mut s: String, max: usize) -> String {
    if s.len() <= max {
        return s;
    }
    let ellipsis = "…";
    let mut cut = max - ellipsis.len();
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    s.truncate(cut);
    s.push_str(ellipsis);
    s
}

#[cfg(test)]
mod subresource_tests {
    use super::value::decide;
    use super::*;

    #[test]
    fn status_and_scale_writes_are_allowed_ephemeral_containers_judged() {
        let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
            "spec": {"nodeSelector": {"node-role.kubernetes.io/control-plane": ""}, "containers": [{"name": "a", "image": "r/a:1"}]}});
        let request = |sub: &str| json!({"uid": "u", "operation": "UPDATE", "subResource": sub, "object": pod});
        let config = Config::default();
        assert!(decide(&request("status"), &config).is_ok_and(|d| d.allowed));
        assert!(decide(&request("scale"), &config).is_ok_and(|d| d.allowed));
        assert!(decide(&request("ephemeralcontainers"), &config).is_ok_and(|d| !d.allowed));
        assert!(decide(&request(""), &config).is_ok_and(|d| !d.allowed));
    }

    #[test]
    fn ephemeral_containers_are_refused_on_create_only() {
        let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "n"},
            "spec": {"containers": [{"name": "a", "image": "r/a:1"}],
                     "ephemeralContainers": [{"name": "debug", "image": "r/d:1"}]}});
        let config = Config::default();
        let refusals = |operation: &str, sub: &str| {
            let request = json!({"uid": "u", "operation": operation, "subResource": sub, "object": pod});
            decide(&request, &config).map_or(usize::MAX, |d| {
                d.report
                    .findings
                    .iter()
                    .filter(|f| f.check == "ephemeral-containers")
                    .count()
            })
        };
        assert_eq!(refusals("CREATE", ""), 1);
        assert_eq!(refusals("UPDATE", "ephemeralcontainers"), 0);
    }
}

#[cfg(test)]
mod tests {
    use super::value::decide;
    use super::*;
    use crate::FailOn;

    /// The review sent back for a parsed review.
    fn review(review: &Value, config: &Config) -> Value {
        super::review(Input::Value(review), config).review
    }

    /// The review sent back for a review's text.
    fn review_json(text: &str, config: &Config) -> Value {
        super::review(Input::Text(text), config).review
    }

    fn pod(spec: &Value) -> Value {
        json!({
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": "upf", "namespace": "core"},
            "spec": spec,
        })
    }

    fn request(operation: &str, object: Option<Value>) -> Value {
        let mut r = json!({
            "uid": "705ab4f5-6393-11e8-b7cc-42010a800002",
            "kind": {"group": "", "version": "v1", "kind": "Pod"},
            "resource": {"group": "", "version": "v1", "resource": "pods"},
            "namespace": "core",
            "operation": operation,
            "userInfo": {"username": "admin"},
            "dryRun": false,
        });
        if let Some(object) = object {
            r["object"] = object;
        }
        r
    }

    fn host_path_pod() -> Value {
        pod(&json!({
            "volumes": [{"name": "logs", "hostPath": {"path": "/var/log/upf"}}],
            "containers": [{"name": "upf", "image": "registry.example/upf:1.0",
                            "volumeMounts": [{"name": "logs", "mountPath": "/logs"}]}],
        }))
    }

    fn control_plane_pod() -> Value {
        pod(&json!({
            "nodeSelector": {"node-role.kubernetes.io/control-plane": ""},
            "containers": [{"name": "upf", "image": "registry.example/upf:1.0"}],
        }))
    }

    #[test]
    fn findings_below_the_threshold_only_warn() {
        let decision = decide(&request("CREATE", Some(host_path_pod())), &Config::default()).unwrap();
        assert!(decision.allowed);
        assert_eq!(decision.code, None);
        assert!(
            decision
                .warnings
                .iter()
                .any(|w| w.starts_with("ra2.app.007 /spec/volumes/0/hostPath: volume \"logs\"")),
            "{:?}",
            decision.warnings
        );
    }

    #[test]
    fn errors_deny_with_403_and_pointer_lines() {
        let decision = decide(&request("CREATE", Some(control_plane_pod())), &Config::default()).unwrap();
        assert!(!decision.allowed);
        assert_eq!(decision.code, Some(FORBIDDEN));
        let message = decision.message.unwrap();
        assert!(
            message.starts_with("ra2.app.008 /spec/nodeSelector/node-role.kubernetes.io~1control-plane: "),
            "{message}"
        );
    }

    #[test]
    fn the_threshold_is_fail_on() {
        let config = Config {
            fail_on: FailOn::Warning,
            ..Config::default()
        };
        let decision = decide(&request("CREATE", Some(host_path_pod())), &config).unwrap();
        assert!(!decision.allowed);
        let config = Config {
            fail_on: FailOn::Never,
            ..Config::default()
        };
        let decision = decide(&request("CREATE", Some(control_plane_pod())), &config).unwrap();
        assert!(decision.allowed);
        assert!(decision.warnings.iter().any(|w| w.starts_with("ra2.app.008 ")));
    }

    #[test]
    fn delete_and_connect_are_allowed_without_looking() {
        for op in ["DELETE", "CONNECT"] {
            let decision = decide(&request(op, Some(control_plane_pod())), &Config::default()).unwrap();
            assert!(decision.allowed && decision.warnings.is_empty(), "{op}");
            assert!(decide(&request(op, None), &Config::default()).unwrap().allowed);
        }
    }

    #[test]
    fn update_judges_the_new_object() {
        let mut r = request("UPDATE", Some(control_plane_pod()));
        r["oldObject"] = pod(&json!({"containers": [{"name": "upf", "image": "registry.example/upf:1.0"}]}));
        assert!(!decide(&r, &Config::default()).unwrap().allowed);
        let mut r = request("UPDATE", Some(r["oldObject"].clone()));
        r["oldObject"] = control_plane_pod();
        assert!(decide(&r, &Config::default()).unwrap().allowed);
    }

    #[test]
    fn controllers_are_judged_through_their_template() {
        let cron = json!({
            "apiVersion": "batch/v1", "kind": "CronJob",
            "metadata": {"name": "backup", "namespace": "core"},
            "spec": {"schedule": "0 * * * *", "jobTemplate": {"spec": {"template": {"spec": {
                "restartPolicy": "Never",
                "nodeName": "master-0",
                "tolerations": [{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}],
                "containers": [{"name": "b", "image": "registry.example/b:1"}]}}}}}
        });
        let decision = decide(&request("CREATE", Some(cron)), &Config::default()).unwrap();
        assert!(!decision.allowed);
        assert!(
            decision
                .message
                .unwrap()
                .contains("ra2.app.008 /spec/jobTemplate/spec/template/spec/tolerations/0")
        );
    }

    #[test]
    fn a_deployment_config_is_denied_like_a_deployment() {
        let workload = |api_version: &str, kind: &str| {
            json!({
                "apiVersion": api_version, "kind": kind,
                "metadata": {"name": "upf", "namespace": "core"},
                "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "upf"}}, "template": {
                    "metadata": {"labels": {"app": "upf"}},
                    "spec": {
                        "securityContext": {"runAsUser": 0},
                        "tolerations": [{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}],
                        "containers": [{"name": "upf", "image": "registry.example/upf:1",
                            "resources": {"limits": {"cpu": "4", "memory": "4Gi", "hugepages-1Gi": "4Gi"}}}],
                        "volumes": [{"name": "vfio", "hostPath": {"path": "/dev/vfio"}}]}}}
            })
        };
        let answer = |object: Value| {
            let review_in = json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
                "request": request("CREATE", Some(object))});
            let by_value = review(&review_in, &Config::default());
            let by_text = review_json(&review_in.to_string(), &Config::default());
            assert_eq!(by_value, by_text);
            by_value["response"].clone()
        };
        let deployment = answer(workload("apps/v1", "Deployment"));
        let config = answer(workload("apps.openshift.io/v1", "DeploymentConfig"));
        assert_eq!(config["allowed"], false);
        assert_eq!(config["status"]["code"], 403);
        let message = config["status"]["message"].as_str().unwrap_or_default();
        for needle in [
            "ra2.app.008 /spec/template/spec/tolerations/0",
            "ra2.app.009 /spec/template/spec/volumes/0/hostPath/path",
        ] {
            assert!(message.contains(needle), "{needle} in {message}");
        }
        let warnings = config["warnings"].to_string();
        assert!(warnings.contains("ra2.app.007"), "{warnings}");
        // The same findings in the same words, the warnings (root, the host path) included.
        assert_eq!(config, deployment);
    }

    #[test]
    fn a_declared_workload_kind_is_denied_like_a_deployment() {
        // A custom resource that keeps its pod template somewhere of its own.
        let object = json!({
            "apiVersion": "example.com/v1", "kind": "Cnf",
            "metadata": {"name": "upf", "namespace": "core"},
            "spec": {"workload": {"pod": {
                "metadata": {"labels": {"app": "upf"}},
                "spec": {"containers": [{"name": "upf", "image": "registry.example/upf:1",
                    "securityContext": {"privileged": true}}]}}}}
        });
        let review_in = json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
            "request": request("CREATE", Some(object))});
        let settings = json!({"workload-kinds": [
            {"api-version": "example.com/v1", "kind": "Cnf", "template": "spec.workload.pod"}]});
        let config = Config::from_json(&settings, "settings").unwrap();
        assert_eq!(config.workload_kinds[0].resource, "cnfs");
        let denied = review(&review_in, &config);
        let by_text = review_json(&review_in.to_string(), &config);
        assert_eq!(denied, by_text);
        assert_eq!(denied["response"]["allowed"], false, "{denied}");
        let message = denied["response"]["status"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("/spec/workload/pod/spec/containers/0/securityContext/privileged"),
            "{message}"
        );
        // Without the declaration, a custom resource is not a workload.
        let allowed = review(&review_in, &Config::default());
        assert_eq!(allowed["response"]["allowed"], true, "{allowed}");
    }

    #[test]
    fn bookkeeping_is_not_linted() {
        let mut object = control_plane_pod();
        object["metadata"]["managedFields"] = json!([{"manager": "kubectl", "fieldsV1": {"f:spec": {}}}]);
        object["status"] = json!({"phase": "Pending"});
        let decision = decide(&request("CREATE", Some(object)), &Config::default()).unwrap();
        let plain = decide(&request("CREATE", Some(control_plane_pod())), &Config::default()).unwrap();
        assert_eq!(decision, plain);
    }

    #[test]
    fn the_request_namespace_reaches_exemptions() {
        let mut object = control_plane_pod();
        object["metadata"] = json!({"generateName": "upf-"});
        let config = Config::from_json(
            &json!({"exemptions": [{"rule": "ra2.app.008", "namespace": "core", "name": "upf-x", "reason": "lab"}]}),
            "settings",
        )
        .unwrap();
        let mut r = request("CREATE", Some(object));
        r["name"] = json!("upf-x");
        let decision = decide(&r, &config).unwrap();
        assert!(decision.allowed, "{:?}", decision.message);
        assert_eq!(decision.report.summary.suppressed, 1);
    }

    #[test]
    fn malformed_requests_say_what_is_wrong() {
        let config = Config::default();
        let cases = [
            (json!("x"), "the admission request is a string, not an object"),
            (json!({"uid": "1"}), "the admission request has no operation"),
            (
                json!({"operation": 5}),
                "the admission request's operation is a number, not a string",
            ),
            (
                json!({"operation": "PATCH", "object": {}}),
                "unknown operation \"PATCH\"",
            ),
            (json!({"operation": "CREATE"}), "the CREATE request carries no object"),
            (
                json!({"operation": "UPDATE", "object": [1]}),
                "the UPDATE request's object is an array",
            ),
            (
                json!({"operation": "CREATE", "object": {"kind": "Pod"}}),
                "ra2 cannot read the object: object has no apiVersion",
            ),
        ];
        for (input, expected) in cases {
            let error = decide(&input, &config).unwrap_err();
            assert!(error.message.starts_with(expected), "{input}: {error}");
        }
    }

    #[test]
    fn the_answer_says_what_was_decided() {
        let config = Config::default();
        let text =
            |request: Value| json!({"apiVersion": V1, "kind": "AdmissionReview", "request": request}).to_string();
        let denied = super::review(
            Input::Bytes(text(request("CREATE", Some(control_plane_pod()))).as_bytes()),
            &config,
        );
        assert_eq!(
            (denied.verdict.clone(), denied.verdict.label()),
            (Verdict::Denied, "denied")
        );
        assert!(denied.read_once);
        assert_eq!(
            (denied.uid.as_str(), denied.kind.as_str(), denied.operation.as_str()),
            ("705ab4f5-6393-11e8-b7cc-42010a800002", "Pod", "CREATE")
        );
        assert_eq!(denied.not_a_review(), None);
        assert!(denied.report.findings.iter().any(|f| f.rule == "ra2.app.008"));
        let warned = super::review(Input::Text(&text(request("CREATE", Some(host_path_pod())))), &config);
        assert_eq!(
            (warned.verdict.clone(), warned.verdict.label()),
            (Verdict::Allowed, "allowed")
        );
        assert!(warned.review["response"]["warnings"].is_array());
        // A request inside a review that cannot be judged: answered (400 inside the review).
        let invalid = super::review(Input::Text(&text(json!({"uid": "u", "operation": "CREATE"}))), &config);
        assert_eq!(invalid.verdict.label(), "invalid");
        assert!(
            matches!(&invalid.verdict, Verdict::Invalid(ReviewError::Request(e)) if e.message == "the CREATE request carries no object")
        );
        assert_eq!(invalid.not_a_review(), None);
        assert_eq!(invalid.review["response"]["status"]["code"], 400);
        assert_eq!((invalid.uid.as_str(), invalid.operation.as_str()), ("u", "CREATE"));
    }

    #[test]
    fn what_is_not_a_review_is_typed() {
        let config = Config::default();
        let not_a_review = |input: Input<'_>| super::review(input, &config).not_a_review();
        let empty = super::review(Input::Bytes(b""), &config);
        assert_eq!(empty.not_a_review(), Some(ReviewError::Empty));
        assert_eq!(
            empty.review["response"]["status"]["message"],
            "ra2: malformed admission request: the AdmissionReview is not JSON: EOF while parsing a value at line 1 column 0"
        );
        assert!(matches!(not_a_review(Input::Text("")), Some(ReviewError::NotJson(_))));
        assert!(matches!(
            not_a_review(Input::Bytes(b"{\"a\": \"\xff\"}")),
            Some(ReviewError::NotJson(_))
        ));
        assert_eq!(
            not_a_review(Input::Bytes(br#"{"apiVersion": "v1", "kind": "Pod"}"#)).map(|e| e.to_string()),
            Some("expected apiVersion admission.k8s.io/v1, found \"v1\"".to_owned())
        );
        assert_eq!(
            not_a_review(Input::Bytes(br#"{"apiVersion": "admission.k8s.io/v1", "kind": "Pod"}"#))
                .map(|e| e.to_string()),
            Some("expected kind AdmissionReview, found \"Pod\"".to_owned())
        );
        assert!(matches!(
            not_a_review(Input::Value(&json!([]))),
            Some(ReviewError::NotAReview(_))
        ));
        // An apiVersion ra2 does not know: decided and answered as v1, but not a review to a
        // webhook server.
        let review = json!({"apiVersion": "admission.k8s.io/v2", "kind": "AdmissionReview",
                            "request": request("CREATE", Some(control_plane_pod()))});
        let answer = super::review(Input::Text(&review.to_string()), &config);
        assert_eq!(answer.verdict, Verdict::Denied);
        assert_eq!(answer.review["apiVersion"], V1);
        assert_eq!(
            answer.not_a_review(),
            Some(ReviewError::ApiVersion("admission.k8s.io/v2".to_owned()))
        );
    }

    #[test]
    fn validation_requests_decide_with_their_settings() {
        let payload =
            json!({"request": request("CREATE", Some(control_plane_pod())), "settings": {"fail-on": "never"}});
        for input in [Input::Text(&payload.to_string()), Input::Value(&payload)] {
            let mut seen = Vec::new();
            let decision = validate(input, |settings: &Value| {
                seen.push(settings.clone());
                Config::from_json(settings, "settings").map_err(|e| format!("{e:?}"))
            })
            .unwrap();
            assert!(decision.allowed && !decision.warnings.is_empty());
            assert_eq!(seen, vec![json!({"fail-on": "never"})]);
        }
        let config = Config::default();
        let default = |_: &Value| Ok::<_, String>(&config);
        assert!(matches!(
            validate(Input::Bytes(b"{"), default),
            Err(ValidationError::NotJson(_))
        ));
        assert_eq!(
            validate(Input::Bytes(b"{}"), |_: &Value| Err::<&Config, _>(
                "bad settings".to_owned()
            )),
            Err(ValidationError::Settings("bad settings".to_owned()))
        );
        assert_eq!(
            validate(Input::Bytes(b"{}"), default).map_err(|e| e.to_string()),
            Err("malformed admission request: the admission request is null, not an object".to_owned())
        );
    }

    #[test]
    fn reviews_answer_with_the_same_uid() {
        let review_in = json!({
            "apiVersion": "admission.k8s.io/v1",
            "kind": "AdmissionReview",
            "request": request("CREATE", Some(control_plane_pod())),
        });
        let out = review(&review_in, &Config::default());
        assert_eq!(out["kind"], "AdmissionReview");
        assert_eq!(out["apiVersion"], "admission.k8s.io/v1");
        assert_eq!(out["response"]["uid"], "705ab4f5-6393-11e8-b7cc-42010a800002");
        assert_eq!(out["response"]["allowed"], false);
        assert_eq!(out["response"]["status"]["code"], 403);
        let bad = review(&json!({"kind": "Pod"}), &Config::default());
        assert_eq!(bad["response"]["allowed"], false);
        assert_eq!(bad["response"]["status"]["code"], 400);
        assert_eq!(
            bad["response"]["status"]["message"],
            "ra2: malformed admission request: expected kind AdmissionReview, found \"Pod\""
        );
        let allowed = review(&json!({"request": request("DELETE", None)}), &Config::default());
        assert_eq!(
            allowed["response"],
            json!({"uid": "705ab4f5-6393-11e8-b7cc-42010a800002", "allowed": true})
        );
        let text = review_json("{\"request\": ", &Config::default());
        assert_eq!(text["kind"], "AdmissionReview");
        assert_eq!(text["response"]["status"]["code"], 400);
        assert!(
            text["response"]["status"]["message"]
                .as_str()
                .unwrap()
                .starts_with("ra2: malformed admission request: the AdmissionReview is not JSON: EOF while parsing")
        );
        assert_eq!(
            review_json(&review_in.to_string(), &Config::default()),
            review(&review_in, &Config::default())
        );
    }

    #[test]
    fn lines_and_warnings_stay_within_kubernetes_limits() {
        let long = "x".repeat(300);
        let containers: Vec<Value> = (0..80)
            .map(|i| {
                json!({"name": format!("c{i}"), "image": "r/a:1",
                            "volumeMounts": [{"name": format!("{long}{i}é"), "mountPath": "/logs"}]})
            })
            .collect();
        let volumes: Vec<Value> = (0..80)
            .map(|i| json!({"name": format!("{long}{i}é"), "hostPath": {"path": format!("/var/{i}")}}))
            .collect();
        let object = pod(&json!({"volumes": volumes, "containers": containers}));
        let decision = decide(&request("CREATE", Some(object)), &Config::default()).unwrap();
        assert!(decision.warnings.iter().all(|w| w.len() <= MAX_LINE_BYTES));
        assert!(decision.warnings.iter().map(String::len).sum::<usize>() <= MAX_WARNING_BYTES);
        let last = decision.warnings.last().unwrap();
        assert!(last.starts_with("… and ") && last.ends_with("more findings (`ra2 lint` lists them all)"));
        let shown = decision.warnings.len() - 1;
        let count: usize = last.split(' ').nth(2).unwrap().parse().unwrap();
        // The 300-character volume names are also refused by the API server (k8s.api errors,
        // which deny rather than warn); every finding below the threshold is a warning.
        let below = decision
            .report
            .findings
            .iter()
            .filter(|f| f.severity < crate::report::Severity::Error)
            .count();
        assert_eq!(shown + count, below);
        let config = Config {
            fail_on: FailOn::Info,
            ..Config::default()
        };
        let twelve = pod(&json!({
            "volumes": (0..12).map(|i| json!({"name": format!("v{i}"), "hostPath": {"path": "/x"}})).collect::<Vec<_>>(),
            "containers": [{"name": "a", "image": "r/a:1"}],
        }));
        let message = decide(&request("CREATE", Some(twelve)), &config)
            .unwrap()
            .message
            .unwrap();
        assert_eq!(message.lines().count(), MAX_MESSAGE_LINES + 1);
        assert!(message.lines().all(|l| l.len() <= MAX_LINE_BYTES));
    }

    /// `key_order` is byte order, the order serde_json's maps keep.
    #[test]
    fn key_order_is_byte_order() {
        let keys = [
            "",
            "a",
            "ab",
            "abc",
            "b",
            "B",
            "a\u{0}",
            "é",
            "e",
            "spec",
            "status",
            "securityContext",
        ];
        for a in keys {
            for b in keys {
                assert_eq!(crate::parse::json::key_order(a, b), a.cmp(b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn settings_from_json_use_the_config_schema() {
        let errors = Config::from_json(&json!({"fail-on": "sometimes", "selct": ["ra2.app"]}), "settings").unwrap_err();
        let shown: Vec<(String, String)> = errors.iter().map(|e| (e.pointer.clone(), e.message.clone())).collect();
        assert_eq!(
            shown,
            vec![
                (
                    "/fail-on".to_owned(),
                    "\"sometimes\" is not one of \"error\", \"warning\", \"info\", \"never\"".to_owned()
                ),
                (
                    "/selct".to_owned(),
                    "unknown key \"selct\" (did you mean \"select\"?)".to_owned()
                ),
            ]
        );
        assert_eq!(Config::from_json(&Value::Null, "s").unwrap(), Config::default());
        assert_eq!(Config::from_json(&json!({}), "s").unwrap(), Config::default());
        let config = Config::from_json(
            &json!({"edition": "latest", "params": {"ra2.app.009": {"network_resources_injector": true}}}),
            "s",
        )
        .unwrap();
        assert_eq!(config.edition, crate::Edition::Latest);
        let errors = Config::from_json(&json!({"params": {"ra2.app.009": {"nope": 1}}}), "s").unwrap_err();
        assert_eq!(errors[0].pointer, "/params/ra2.app.009/nope");
    }
}
