//! ra2.app.030: pods do not join the node's network namespace (`hostNetwork`).

use crate::model::PodSpec;
use crate::parse::view::Located;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    ..Checks::NONE
};

/// `hostNetwork` set to a real boolean true, however YAML spells it (`true`, `yes`, `on`).
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    if let Some(host_network) = pod.get("hostNetwork").filter(Located::is_true) {
        cx.report(
            "host-network",
            &host_network,
            format!(
                "pod shares the node's network namespace (hostNetwork: {}), so it sees and can bind every node interface",
                host_network.source_text()
            ),
        );
    }
}
