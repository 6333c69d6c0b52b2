//! The floor guest: what any Kubewarden policy pays at least. It answers the three operations a
//! policy-server calls, parsing each `validate` payload as JSON and accepting it.

use wapc_guest::{CallResult, register_function};

#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn wapc_init() {
    register_function("validate", |payload| -> CallResult {
        let accepted = serde_json::from_slice::<serde_json::Value>(payload).is_ok();
        Ok(serde_json::to_vec(&serde_json::json!({"accepted": accepted}))?)
    });
    register_function("validate_settings", |_| -> CallResult {
        Ok(br#"{"valid":true}"#.to_vec())
    });
    register_function("protocol_version", |_| -> CallResult { Ok(br#""v1""#.to_vec()) });
}
