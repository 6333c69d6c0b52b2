//! ra2.k8s.012 (base) and ra2.app.016 (latest): objects do not use alpha API versions, which
//! conformant clusters leave disabled. One check, two ids: the latest edition reports an alpha
//! API once, as ra2.app.016, and exempts the alpha APIs RA2 itself requires (§5.16).

use crate::k8s::api_versions::{Level, Owner, level, lookup, owner, unchanged_successor};
use crate::model::Object;
use crate::rules::{Checks, Context};

/// ra2.k8s.012, base edition.
pub(super) static RULE: Checks = Checks {
    object: Some(check_base),
    ..Checks::NONE
};

/// ra2.app.016, latest edition.
pub(super) static LATEST_RULE: Checks = Checks {
    object: Some(check_latest),
    ..Checks::NONE
};

/// Help for third-party groups, whose versions their own project governs.
pub(crate) const THIRD_PARTY_HELP: &str = "Check that the platform installs this custom resource at this version, and move to its stable version when the project offers one.";

/// Alpha groups the newer RA2 requires platforms to serve: Node Feature Discovery's
/// `NodeFeatureRule` and `NodeFeature`.
pub(crate) const REQUIRED_BY_RA2: &[&str] = &["nfd.k8s-sigs.io"];

fn check_base(object: &Object<'_>, cx: &mut Context<'_>) {
    check(object, &[], cx);
}

fn check_latest(object: &Object<'_>, cx: &mut Context<'_>) {
    check(object, REQUIRED_BY_RA2, cx);
}

/// alpha-api: a Kubernetes-owned group at an alpha version, or at no valid version at all;
/// third-party-alpha: a CRD group at an alpha version, unless RA2 requires it.
fn check(object: &Object<'_>, exempt: &[&str], cx: &mut Context<'_>) {
    let (Some((group, version)), Some(at)) = (object.group_version(), object.root.get("apiVersion")) else {
        return;
    };
    let api_version = object.api_version.unwrap_or_default();
    match (owner(group), level(version)) {
        (Owner::Kubernetes, None) => cx.report_with_help(
            "alpha-api",
            &at,
            format!("apiVersion {api_version:?} is not a valid Kubernetes API version"),
            "Write apiVersion as group/version with a version such as v1 or v2 (GA), v1beta1 or v1alpha1.",
        ),
        (Owner::Kubernetes, Some(Level::Alpha)) => {
            let target = cx.config().kubernetes_minor;
            let kind = object.kind.unwrap_or_default();
            let (history, advice) = lookup(group, version, kind)
                .map(|e| (e.history(target), e.advice(target)))
                .unwrap_or_default();
            let message = format!("apiVersion {api_version} is an alpha API{history}{advice}");
            match unchanged_successor(group, version, kind, target) {
                Some(ga) => {
                    let patch = crate::report::fix::set(&object.root, &["apiVersion"], ga.into());
                    cx.report_fixable("alpha-api", &at, message, None, patch);
                }
                None => cx.report("alpha-api", &at, message),
            }
        }
        (Owner::ThirdParty, Some(Level::Alpha)) if !exempt.contains(&group) => cx.report_with_help(
            "third-party-alpha",
            &at,
            format!("apiVersion {api_version} is an alpha version of a third-party API"),
            THIRD_PARTY_HELP,
        ),
        _ => {}
    }
}
