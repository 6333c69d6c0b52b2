//! The Kubewarden policy protocol: the waPC operations `validate`, `validate_settings` and
//! `protocol_version` as functions from request bytes to response bytes. The decision is
//! `ra2_core::admission`; the waPC entry (`wapc.rs`, wasm32-wasip1 only) just registers these.
//!
//! The payloads are Kubewarden's: a ValidationRequest `{"request": <AdmissionRequest>,
//! "settings": <.ra2.yaml keys>}` answered by a ValidationResponse `{"accepted", "message",
//! "code", "warnings", ...}`; settings answered by `{"valid", "message"}`.

use std::cell::RefCell;
use std::rc::Rc;

use ra2_core::Config;
use ra2_core::admission::{self, BAD_REQUEST};
use serde_json::{Value, json};

/// The Kubewarden policy protocol version this policy speaks.
pub const PROTOCOL_VERSION: &str = "v1";

thread_local! {
    /// The settings of the last request and their Config: a policy instance keeps its
    /// settings, so they are validated once rather than on every request.
    static SETTINGS: RefCell<Option<(Value, i64, Rc<Config>)>> = const { RefCell::new(None) };
}

/// `validate`: a ValidationRequest in, a ValidationResponse out. Never fails: a request ra2
/// cannot judge is rejected with 400 and says why.
pub fn validate(payload: &[u8]) -> Vec<u8> {
    match admission::validate(admission::Input::Bytes(payload), config_of) {
        Ok(decision) => response(
            decision.allowed,
            decision.message.as_deref(),
            decision.code,
            &decision.warnings,
        ),
        Err(error) => rejected(BAD_REQUEST, &format!("ra2: {error}")),
    }
}

/// `validate_settings`: the settings (`.ra2.yaml` keys) in, `{"valid": ..., "message": ...}`
/// out, with every problem named by its pointer.
pub fn validate_settings(payload: &[u8]) -> Vec<u8> {
    let result = match serde_json::from_slice::<Value>(payload) {
        Ok(settings) => crate::api::settings_from_json(&settings, "ra2 settings").map(|_| ()),
        Err(e) => Err(format!("ra2 settings are not JSON: {e}")),
    };
    let answer = match result {
        Ok(()) => json!({"valid": true, "message": null}),
        Err(message) => json!({"valid": false, "message": message}),
    };
    serde_json::to_vec(&answer).unwrap_or_default()
}

/// `protocol_version`: `"v1"`.
pub fn protocol_version(_payload: &[u8]) -> Vec<u8> {
    serde_json::to_vec(PROTOCOL_VERSION).unwrap_or_default()
}

/// The Config of `settings`: the last one when the settings are the same.
fn config_of(settings: &Value) -> Result<Rc<Config>, String> {
    SETTINGS.with(|cell| {
        let mut cached = cell.borrow_mut();
        // Waivers expire by the host's clock (WASI's): a new day makes new settings.
        let day = today();
        match cached.as_ref() {
            Some((value, cached_day, config)) if value == settings && *cached_day == day => Ok(Rc::clone(config)),
            _ => {
                let mut config = crate::api::settings_from_json(settings, "ra2 settings")?;
                config.today = (day >= 0).then(|| ra2_core::config::date_of_day(day));
                let config = Rc::new(config);
                *cached = Some((settings.clone(), day, Rc::clone(&config)));
                Ok(config)
            }
        }
    })
}

/// Today as days since 1970 (UTC); -1 where there is no clock (the browser build, which never
/// runs the policy).
fn today() -> i64 {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::SystemTime::UNIX_EPOCH)
            .map_or(-1, |d| i64::try_from(d.as_secs() / 86_400).unwrap_or(-1))
    }
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        -1
    }
}

fn rejected(code: u16, message: &str) -> Vec<u8> {
    response(false, Some(message), Some(code), &[])
}

/// A ValidationResponse, with every field Kubewarden's SDK writes (`warnings` null when none).
fn response(accepted: bool, message: Option<&str>, code: Option<u16>, warnings: &[String]) -> Vec<u8> {
    let body = json!({
        "accepted": accepted,
        "message": message,
        "code": code,
        "mutated_object": null,
        "audit_annotations": null,
        "warnings": (!warnings.is_empty()).then_some(warnings),
    });
    serde_json::to_vec(&body).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(f: fn(&[u8]) -> Vec<u8>, payload: &Value) -> Value {
        serde_json::from_slice(&f(&serde_json::to_vec(payload).unwrap())).unwrap()
    }

    fn request(operation: &str, spec: &Value, settings: &Value) -> Value {
        json!({
            "settings": settings,
            "request": {
                "uid": "1", "operation": operation, "namespace": "core",
                "kind": {"group": "", "version": "v1", "kind": "Pod"},
                "object": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": spec},
            }
        })
    }

    /// The settings carry today's date, so waivers expire: an expired annotation no longer
    /// suppresses, a future one does.
    #[test]
    fn waivers_expire_by_the_clock() {
        let config = config_of(&json!({})).unwrap();
        assert_eq!(
            config.today.as_deref(),
            Some(ra2_core::config::date_of_day(today()).as_str())
        );
        let privileged = |until: &str| {
            let mut review = request(
                "CREATE",
                &json!({"containers": [{"name": "a", "image": "r/a:1", "securityContext": {"privileged": true}}]}),
                &json!({}),
            );
            review["request"]["object"]["metadata"]["annotations"] =
                json!({"ignore-check.ra2.dev/ra2.app.009": format!("lab; expires {until}")});
            call(validate, &review)
        };
        assert_eq!(privileged("2999-12-31")["accepted"], true);
        assert_eq!(privileged("2000-01-01")["accepted"], false);
    }

    fn control_plane() -> Value {
        json!({"nodeSelector": {"node-role.kubernetes.io/master": ""}, "containers": [{"name": "a", "image": "r/a:1"}]})
    }

    #[test]
    fn denies_with_the_contract_shape() {
        let out = call(validate, &request("CREATE", &control_plane(), &json!({})));
        assert_eq!(out["accepted"], false);
        assert_eq!(out["code"], 403);
        assert!(
            out["message"]
                .as_str()
                .unwrap()
                .starts_with("ra2.app.008 /spec/nodeSelector/node-role.kubernetes.io~1master: ")
        );
        let out = call(
            validate,
            &request("CREATE", &control_plane(), &json!({"fail-on": "never"})),
        );
        assert_eq!(out["accepted"], true);
        assert_eq!(out["code"], Value::Null);
        let warnings = out["warnings"].as_array().unwrap();
        assert!(warnings.iter().any(|w| w.as_str().unwrap().starts_with("ra2.app.008 ")));
    }

    #[test]
    fn settings_are_cached_but_follow_changes() {
        let strict = json!({"fail-on": "info"});
        let quiet = json!({"select": ["ra2.app.010"]});
        let pod = json!({"containers": [{"name": "a", "image": "r/a:1"}]});
        for _ in 0..2 {
            assert_eq!(call(validate, &request("CREATE", &pod, &strict))["accepted"], false);
            assert_eq!(
                call(validate, &request("CREATE", &control_plane(), &quiet))["accepted"],
                true
            );
        }
    }

    #[test]
    fn malformed_payloads_are_rejected_with_400() {
        let out: Value = serde_json::from_slice(&validate(b"{not json")).unwrap();
        assert_eq!(out["accepted"], false);
        assert_eq!(out["code"], 400);
        assert!(
            out["message"]
                .as_str()
                .unwrap()
                .starts_with("ra2: malformed validation request: ")
        );
        let out = call(validate, &json!({"settings": {}, "request": {"operation": "CREATE"}}));
        assert_eq!(
            out["message"],
            "ra2: malformed admission request: the CREATE request carries no object"
        );
        let out = call(
            validate,
            &request("CREATE", &control_plane(), &json!({"edition": "newest"})),
        );
        assert_eq!(out["code"], 400);
        assert_eq!(
            out["message"],
            "ra2: invalid ra2 settings: /edition: \"newest\" is not one of \"base\", \"latest\""
        );
    }

    #[test]
    fn settings_validation() {
        assert_eq!(
            call(validate_settings, &json!({})),
            json!({"valid": true, "message": null})
        );
        assert_eq!(call(validate_settings, &Value::Null)["valid"], true);
        let out = call(
            validate_settings,
            &json!({"fail-on": "warning", "exemptions": [{"rule": "ra2.app.007"}]}),
        );
        assert_eq!(
            out,
            json!({"valid": false, "message": "invalid ra2 settings: /exemptions/0: missing required key \"reason\""})
        );
        let out: Value = serde_json::from_slice(&validate_settings(b"fail-on: error")).unwrap();
        assert_eq!(out["valid"], false);
    }

    #[test]
    fn metadata_watches_pods_and_every_workload_kind() {
        let metadata = ra2_core::yaml_to_json(include_str!("../metadata.yml")).unwrap();
        let mut watched = Vec::new();
        for rule in metadata["rules"].as_array().unwrap() {
            assert_eq!(rule["operations"], json!(["CREATE", "UPDATE"]));
            for group in rule["apiGroups"].as_array().unwrap() {
                for resource in rule["resources"].as_array().unwrap() {
                    watched.push(format!("{}/{}", group.as_str().unwrap(), resource.as_str().unwrap()));
                }
            }
        }
        watched.sort();
        // The kinds ra2_core::model finds a pod spec in, and PersistentVolumes (ra2.app.007).
        let mut expected = [
            "/pods",
            "/podtemplates",
            "/replicationcontrollers",
            "apps/replicasets",
            "apps/deployments",
            "apps/statefulsets",
            "apps/daemonsets",
            "batch/jobs",
            "batch/cronjobs",
            "apps.openshift.io/deploymentconfigs",
            "argoproj.io/rollouts",
            "serving.knative.dev/services",
            "serving.knative.dev/configurations",
            "/persistentvolumes",
        ];
        expected.sort_unstable();
        assert_eq!(watched, expected);
        assert_eq!(metadata["mutating"], false);
        assert_eq!(metadata["executionMode"], "kubewarden-wapc");
        assert_eq!(
            metadata["annotations"]["io.kubewarden.policy.version"],
            env!("CARGO_PKG_VERSION")
        );
    }

    #[test]
    fn speaks_protocol_v1() {
        assert_eq!(protocol_version(b""), b"\"v1\"");
    }
}
