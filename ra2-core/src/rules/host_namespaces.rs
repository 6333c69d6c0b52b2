//! ra2.app.031: pods do not share the node's process ID or IPC namespace.

use crate::model::PodSpec;
use crate::parse::view::Located;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    ..Checks::NONE
};

/// `hostPID` and `hostIPC` set to a real boolean true (`true`, `yes`, `on`, ...).
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for (key, check, namespace, effect) in [
        (
            "hostPID",
            "host-pid",
            "process ID namespace",
            "sees and can signal every process on the node",
        ),
        (
            "hostIPC",
            "host-ipc",
            "IPC namespace",
            "can reach the shared memory and message queues of node processes",
        ),
    ] {
        if let Some(flag) = pod.get(key).filter(Located::is_true) {
            cx.report(
                check,
                &flag,
                format!(
                    "pod shares the node's {namespace} ({key}: {}), so it {effect}",
                    flag.source_text()
                ),
            );
        }
    }
}
