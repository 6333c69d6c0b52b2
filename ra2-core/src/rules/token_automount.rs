//! ra2.app.029: pods do not get a service account token mounted automatically: the pod sets
//! `automountServiceAccountToken: false`, or leaves it to a service account in the input that
//! does.

use std::sync::Arc;

use crate::model::bundle::{Bundle, Fact, Place};
use crate::model::{Object, PodSpec};
use crate::parse::view::Located;
use crate::rules::{BundleContext, Checks, Context, Gather};

pub(crate) static RULE: Checks = Checks {
    pod: Some(check_pod),
    gather: Some(gather),
    bundle: Some(check_bundle),
    ..Checks::NONE
};

const FIELD: &str = "automountServiceAccountToken";

/// The pod's own value wins over the service account's. An unset (or null) value is judged
/// once every document is read, against the service account.
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let Some(setting) = pod.get(FIELD).filter(|v| !v.is_null()) else {
        return;
    };
    let fix = || crate::report::fix::set(&pod.spec, &[FIELD], false.into());
    match setting.as_bool() {
        Some(false) => {}
        Some(true) => cx.report_fixable(
            "token-automount",
            &setting,
            format!("pod sets {FIELD} to true, so every container gets the service account's API token"),
            None,
            fix(),
        ),
        None => cx.report_fixable(
            "token-automount",
            &setting,
            format!(
                "pod sets {FIELD} to {}, {} rather than the boolean false",
                setting.source_text(),
                super::with_article(setting.type_name())
            ),
            None,
            fix(),
        ),
    }
}

/// A pod that leaves `automountServiceAccountToken` unset, so its service account decides (one
/// per such pod: kept small, its strings shared).
#[derive(Clone, Debug)]
struct TokenPod {
    namespace: Arc<str>,
    /// `serviceAccountName` (or the deprecated `serviceAccount`), else `default`.
    service_account: Arc<str>,
    /// Where the service account is named, else the pod spec.
    place: Place,
    /// The fix: `automountServiceAccountToken: false` in the pod spec.
    fix: Vec<crate::report::fix::Operation>,
}

impl Fact for TokenPod {
    const CARRIES_FIX: bool = true;

    fn shift(&mut self, by: crate::model::bundle::Shift) {
        self.place.shift(by);
    }
}

fn gather(object: &Object<'_>, cx: &mut Gather<'_>) {
    let Some(pod) = object.pod_spec() else { return };
    if pod.get(FIELD).is_some_and(|v| !v.is_null()) {
        return;
    }
    let account = ["serviceAccountName", "serviceAccount"]
        .into_iter()
        .filter_map(|key| pod.get(key))
        .find(|v| v.as_str().is_some_and(|s| !s.is_empty()));
    let fact = TokenPod {
        namespace: cx.intern(cx.namespace),
        service_account: cx.intern(account.as_ref().and_then(Located::as_str).unwrap_or("default")),
        place: cx.place(account.as_ref().unwrap_or(&pod.spec)),
        fix: crate::report::fix::set(&pod.spec, &[FIELD], false.into()),
    };
    cx.record(fact);
}

/// A pod without its own value takes its service account's: only a `false` there keeps the
/// token out. A service account that is not in the input cannot show that.
fn check_bundle(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    for pod in cx.facts::<TokenPod>(bundle) {
        let account = &pod.service_account;
        let why = match bundle.service_account(&pod.namespace, account) {
            Some(sa) if sa.automount_token == Some(false) => continue,
            Some(sa) if sa.automount_token == Some(true) => {
                format!("its service account {account:?} sets it to true, so the API token is mounted")
            }
            Some(_) => format!("its service account {account:?} does not set it to false, so the API token is mounted"),
            None => format!(
                "service account {account:?} is not in the input, so the API token is mounted unless that account turns it off"
            ),
        };
        cx.report_fixable(
            "token-automount",
            &pod.place,
            format!("pod leaves {FIELD} unset and {why}"),
            pod.fix.clone(),
        );
    }
}
