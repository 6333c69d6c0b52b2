//! sec.sys.021: pods run in their own user namespace (`hostUsers: false`), which RA2 requires
//! platforms to support. Advisory.

use crate::model::PodSpec;
use crate::rules::{Checks, Context, with_article};

pub(super) static RULE: Checks = Checks {
    pod: Some(check),
    ..Checks::NONE
};

/// The API server forbids a user namespace together with the host's network, PID or IPC
/// namespace, and Windows pods have none; those pods are not told to set it.
const HOST_NAMESPACES: &[&str] = &["hostNetwork", "hostPID", "hostIPC"];

fn check(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    if pod.is_windows() || HOST_NAMESPACES.iter().any(|key| pod.flag(key)) {
        return;
    }
    match pod.get("hostUsers") {
        Some(value) if value.as_bool() == Some(false) => {}
        Some(value) if value.is_true() => cx.report(
            "host-users",
            &value,
            "pod sets hostUsers to true, so its containers share the node's user ids",
        ),
        Some(value) => cx.report(
            "host-users",
            &value,
            format!(
                "pod sets hostUsers to {} {}, not the boolean false, so its containers share the node's user ids",
                with_article(value.type_name()),
                value.source_text()
            ),
        ),
        None => cx.report(
            "host-users",
            &pod.spec,
            "pod does not set hostUsers: false, so its containers share the node's user ids",
        ),
    }
}
