//! ra2.app.027: every long-running container has a readiness probe.

use crate::model::PodSpec;
use crate::rules::{Context, Rule};

pub(super) static RULE: Rule = Rule {
    pod: Some(check_pod),
    ..Rule::new("ra2.app.027")
};

fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    super::liveness_probe::missing_probe(pod, "readinessProbe", "readiness-probe", cx);
}
