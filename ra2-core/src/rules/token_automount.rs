//! ra2.app.029: pods do not get a service account token mounted automatically: the pod sets
//! `automountServiceAccountToken: false`, or leaves it to a service account in the input that
//! does.

use crate::bundle::Bundle;
use crate::model::PodSpec;
use crate::rules::{BundleContext, Context, Rule};

pub static RULE: Rule = Rule {
    pod: Some(check_pod),
    bundle: Some(check_bundle),
    ..Rule::new("ra2.app.029")
};

const FIELD: &str = "automountServiceAccountToken";

/// The pod's own value wins over the service account's. An unset (or null) value is judged
/// once every document is read, against the service account.
fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let Some(setting) = pod.get(FIELD).filter(|v| !v.is_null()) else {
        return;
    };
    match setting.as_bool() {
        Some(false) => {}
        Some(true) => cx.report(
            "token-automount",
            &setting,
            format!("pod sets {FIELD} to true, so every container gets the service account's API token"),
        ),
        None => cx.report(
            "token-automount",
            &setting,
            format!(
                "pod sets {FIELD} to {}, {} rather than the boolean false",
                setting.source_text(),
                super::with_article(setting.type_name())
            ),
        ),
    }
}

/// A pod without its own value takes its service account's: only a `false` there keeps the
/// token out. A service account that is not in the input cannot show that.
fn check_bundle(bundle: &Bundle, cx: &mut BundleContext<'_>) {
    for pod in &bundle.token_pods {
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
        cx.report(
            "token-automount",
            &pod.place,
            format!("pod leaves {FIELD} unset and {why}"),
        );
    }
}
