//! The waPC entry of the Kubewarden policy: registers the three operations of [`crate::policy`].

use wapc_guest::{CallResult, register_function};

// waPC hosts call the guest's `wapc_init` export by name before anything else; an exported
// symbol is the protocol, and nothing else in the module defines it.
#[allow(unsafe_code, unreachable_pub)]
#[unsafe(no_mangle)]
pub extern "C" fn wapc_init() {
    register_function("validate", |payload| -> CallResult {
        Ok(crate::policy::validate(payload))
    });
    register_function("validate_settings", |payload| -> CallResult {
        Ok(crate::policy::validate_settings(payload))
    });
    register_function("protocol_version", |payload| -> CallResult {
        Ok(crate::policy::protocol_version(payload))
    });
}
