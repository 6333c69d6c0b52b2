//! ra2.app.041: no container of a pod runs in privileged mode (regular, init, sidecar or
//! ephemeral).

use crate::model::PodSpec;
use crate::rules::{Checks, Context, process};

pub(super) static RULE: Checks = Checks {
    pod: Some(check),
    ..Checks::NONE
};

fn check(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for container in pod.containers() {
        process::privileged(container, cx);
    }
}
