//! ra2.k8s.019: objects use a beta API version only when the API has no GA version.

use crate::k8s::api_versions::{Level, Owner, level, lookup, owner, unchanged_successor};
use crate::model::Object;
use crate::rules::alpha_api::THIRD_PARTY_HELP;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    object: Some(check_object),
    ..Checks::NONE
};

/// beta-with-ga: a Kubernetes-owned beta whose GA version the target release serves, or that
/// the target no longer serves at all; beta-no-ga: any other Kubernetes-owned beta;
/// third-party-beta: a CRD group at a beta version.
fn check_object(object: &Object<'_>, cx: &mut Context<'_>) {
    let (Some((group, version)), Some(at)) = (object.group_version(), object.root.get("apiVersion")) else {
        return;
    };
    if level(version) != Some(Level::Beta) {
        return;
    }
    let kind = object.kind.unwrap_or_default();
    let api_version = object.api_version.unwrap_or_default();
    let target = cx.config().kubernetes_minor;
    match owner(group) {
        Owner::Kubernetes => match lookup(group, version, kind) {
            Some(entry) if entry.removed_by(target).is_some() || entry.replacement_at(target).is_some() => {
                let with_ga = if entry.removed_by(target).is_some() {
                    ""
                } else {
                    " with a GA version"
                };
                let message = format!(
                    "apiVersion {api_version} is a beta API{with_ga}{}{}",
                    entry.history(target),
                    entry.advice(target)
                );
                match unchanged_successor(group, version, kind, target) {
                    Some(ga) => {
                        let patch = crate::report::fix::set(&object.root, &["apiVersion"], ga.into());
                        cx.report_fixable("beta-with-ga", &at, message, None, patch);
                    }
                    None => cx.report("beta-with-ga", &at, message),
                }
            }
            Some(entry) => {
                let coming = match (entry.replacement, entry.replacement_since()) {
                    (Some(ga), Some(since)) => format!(" ({ga} arrives in 1.{since})"),
                    _ => String::new(),
                };
                cx.report(
                    "beta-no-ga",
                    &at,
                    format!(
                        "apiVersion {api_version} is a beta API{}; Kubernetes 1.{target} has no GA version of it{coming}",
                        entry.history(target)
                    ),
                );
            }
            None => cx.report(
                "beta-no-ga",
                &at,
                format!("apiVersion {api_version} is a beta API with no GA version that ra2 knows of"),
            ),
        },
        Owner::ThirdParty => cx.report_with_help(
            "third-party-beta",
            &at,
            format!("apiVersion {api_version} is a beta version of a third-party API"),
            THIRD_PARTY_HELP,
        ),
        Owner::NotServed => {}
    }
}

#[cfg(test)]
mod tests {
    use crate::Config;

    fn checks(text: &str, minor: u32) -> Vec<String> {
        let config = Config {
            kubernetes_minor: minor,
            ..Config::default()
        };
        crate::lint_str("t.yaml", text, &config)
            .findings
            .into_iter()
            .filter(|f| f.rule == "ra2.k8s.019")
            .map(|f| f.check)
            .collect()
    }

    #[test]
    fn the_target_release_decides_whether_a_ga_version_exists() {
        let claim = "apiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass\nmetadata: {name: fpga}\nspec: {}\n";
        assert_eq!(checks(claim, 33), ["beta-no-ga"]);
        assert_eq!(checks(claim, 34), ["beta-with-ga"]);
        assert_eq!(checks(claim, 36), ["beta-with-ga"]);
        let ingress = "apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata: {name: web}\nspec: {}\n";
        assert_eq!(checks(ingress, 21), ["beta-with-ga"]);
        assert_eq!(checks(ingress, 18), ["beta-no-ga"]);
    }
}
