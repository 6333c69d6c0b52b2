//! ra2.app.027: every long-running container has a readiness probe.

use crate::model::PodSpec;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    ..Checks::NONE
};

fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    super::liveness_probe::missing_probe(pod, "readinessProbe", "readiness-probe", cx);
}
