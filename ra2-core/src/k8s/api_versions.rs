//! Kubernetes API versions for ra2.k8s.012, ra2.k8s.019 and ra2.app.016: who owns a group, how
//! stable a version is, and the deprecation table shipped as data (`data/api-versions.yaml`,
//! ra2-rules.md §2.8), compiled into the binary by `build.rs`.

use serde::Serialize;

use crate::config::parse_kubernetes_version;

/// One alpha or beta group version (for some or all of its kinds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Entry {
    pub group: &'static str,
    pub version: &'static str,
    /// Empty: any kind of the group version without an entry of its own.
    pub kinds: &'static [&'static str],
    pub deprecated_in: Option<&'static str>,
    pub removed_in: Option<&'static str>,
    /// The GA `apiVersion` to use instead.
    pub replacement: Option<&'static str>,
    /// First release serving the replacement; `None`: any supported release.
    pub replacement_in: Option<&'static str>,
    /// What took the API's place when there is no replacement.
    pub note: Option<&'static str>,
}

/// `data/api-versions.yaml`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Table {
    pub dotless_groups: &'static [&'static str],
    pub client_side_groups: &'static [&'static str],
    pub versions: &'static [Entry],
}

// `API_VERSIONS: Table`, compiled from data/api-versions.yaml by build.rs, which also refuses a
// release that is not a quoted version like "1.16" (unquoted 1.20 would be the number 1.2).
include!(concat!(env!("OUT_DIR"), "/api_versions.rs"));

/// The shipped table.
pub(crate) fn table() -> &'static Table {
    &API_VERSIONS
}

/// Who defines an API group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Owner {
    /// The core group, the built-in dot-less groups, and groups under `k8s.io` or
    /// `kubernetes.io` (including CRD-based ones such as `gateway.networking.k8s.io`, §5.10).
    Kubernetes,
    /// Any other group with a dot: a CRD's group.
    ThirdParty,
    /// Not an API the server serves: a tool's file format.
    NotServed,
}

fn matches_group(pattern: &str, group: &str) -> bool {
    match pattern.strip_prefix('*') {
        Some(suffix) => group.ends_with(suffix),
        None => pattern == group,
    }
}

/// Classifies an API group.
pub(crate) fn owner(group: &str) -> Owner {
    let table = table();
    if group.is_empty() || table.dotless_groups.contains(&group) {
        return Owner::Kubernetes;
    }
    if !group.contains('.') || table.client_side_groups.iter().any(|p| matches_group(p, group)) {
        return Owner::NotServed;
    }
    if group.ends_with(".k8s.io") || group.ends_with(".kubernetes.io") {
        Owner::Kubernetes
    } else {
        Owner::ThirdParty
    }
}

/// How stable a version is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    Ga,
    Beta,
    Alpha,
}

/// `v1` is GA, `v2beta1` beta, `v1alpha3` alpha; anything else (`v1beta`, `V1`, `v0`) is not a
/// Kubernetes version: `^v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?$`.
pub(crate) fn level(version: &str) -> Option<Level> {
    fn number(s: &str) -> bool {
        s.starts_with(|c: char| ('1'..='9').contains(&c)) && s.bytes().all(|b| b.is_ascii_digit())
    }
    level_by(version, number)
}

/// The level of `v<major>`, `v<major>beta<n>` or `v<major>alpha<n>`, where `number` says which
/// digits make a number (the API server's `--runtime-config` patterns take any, `v0` and `v01`
/// included).
pub(crate) fn level_by(version: &str, number: fn(&str) -> bool) -> Option<Level> {
    let rest = version.strip_prefix('v')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let (major, qualifier) = rest.split_at(digits);
    if !number(major) {
        return None;
    }
    if qualifier.is_empty() {
        return Some(Level::Ga);
    }
    if let Some(n) = qualifier.strip_prefix("beta") {
        return number(n).then_some(Level::Beta);
    }
    qualifier
        .strip_prefix("alpha")
        .filter(|n| number(n))
        .map(|_| Level::Alpha)
}

/// The table's entry for a kind in a group version: its own entry, else the group version's
/// catch-all entry.
pub(crate) fn lookup(group: &str, version: &str, kind: &str) -> Option<&'static Entry> {
    let candidates = || {
        table()
            .versions
            .iter()
            .filter(move |e| e.group == group && e.version == version)
    };
    candidates()
        .find(|e| e.kinds.contains(&kind))
        .or_else(|| candidates().find(|e| e.kinds.is_empty()))
}

fn minor(release: Option<&str>) -> Option<u32> {
    release.and_then(parse_kubernetes_version)
}

impl Entry {
    /// The release that stopped serving it, if that is the target or earlier.
    pub(crate) fn removed_by(&self, target: u32) -> Option<u32> {
        minor(self.removed_in).filter(|&m| m <= target)
    }

    /// The replacement when the target serves it.
    pub(crate) fn replacement_at(&self, target: u32) -> Option<&str> {
        let replacement = self.replacement?;
        minor(self.replacement_in)
            .is_none_or(|m| m <= target)
            .then_some(replacement)
    }

    /// First release serving the replacement, when the table says.
    pub(crate) fn replacement_since(&self) -> Option<u32> {
        minor(self.replacement_in)
    }

    /// Its life at the target release, for messages: `, which Kubernetes stopped serving in
    /// 1.16`, `, deprecated in Kubernetes 1.33 and to be removed in 1.36`, or nothing.
    pub(crate) fn history(&self, target: u32) -> String {
        if let Some(removed) = self.removed_by(target) {
            return format!(", which Kubernetes stopped serving in 1.{removed}");
        }
        let deprecated = minor(self.deprecated_in).filter(|&m| m <= target);
        let removal = minor(self.removed_in);
        match (deprecated, removal) {
            (Some(d), Some(r)) => format!(", deprecated in Kubernetes 1.{d} and to be removed in 1.{r}"),
            (Some(d), None) => format!(", deprecated in Kubernetes 1.{d}"),
            (None, Some(r)) => format!(", to be removed in Kubernetes 1.{r}"),
            (None, None) => String::new(),
        }
    }

    /// What to use instead, for messages: `; use apps/v1`, `; resource.k8s.io/v1 replaces it
    /// from Kubernetes 1.34`, or `; it has no replacement (...)`.
    pub(crate) fn advice(&self, target: u32) -> String {
        match (self.replacement_at(target), self.replacement) {
            (Some(now), _) => format!("; use {now}"),
            (None, Some(later)) => {
                let since = minor(self.replacement_in).unwrap_or(target);
                format!("; {later} replaces it from Kubernetes 1.{since}")
            }
            (None, None) => match self.note {
                Some(note) => format!("; it has no replacement ({note})"),
                None => "; it has no replacement".to_owned(),
            },
        }
    }
}

/// Alpha and beta versions whose objects convert to the GA version unchanged: the same fields
/// with the same meaning and the same defaults, so rewriting `apiVersion` is the whole
/// migration (group, version, kind, GA apiVersion). Left out on purpose, because the GA version
/// changed something an object may use: extensions/v1beta1 and apps/v1beta1 workloads (selector
/// and update-strategy defaults), Ingress (backend shape), PodDisruptionBudget (an empty
/// selector selects every pod in policy/v1), autoscaling/v2beta1 (metric targets),
/// CustomResourceDefinition (per-version schemas), webhook configurations (defaults of
/// failurePolicy, matchPolicy, timeoutSeconds; required sideEffects), CertificateSigningRequest
/// (signerName), EndpointSlice (topology), Event, FlowSchema and PriorityLevelConfiguration
/// (concurrency shares), DRA (device requests), RBAC v1alpha1 (subjects' apiVersion), CronJob
/// batch/v2alpha1 (history limit defaults), VolumeSnapshot (validation).
const UNCHANGED: &[(&str, &str, &str, &str)] = &[
    ("apps", "v1beta2", "Deployment", "apps/v1"),
    ("apps", "v1beta2", "StatefulSet", "apps/v1"),
    ("apps", "v1beta2", "DaemonSet", "apps/v1"),
    ("apps", "v1beta2", "ReplicaSet", "apps/v1"),
    ("batch", "v1beta1", "CronJob", "batch/v1"),
    ("autoscaling", "v2beta2", "HorizontalPodAutoscaler", "autoscaling/v2"),
    (
        "rbac.authorization.k8s.io",
        "v1beta1",
        "Role",
        "rbac.authorization.k8s.io/v1",
    ),
    (
        "rbac.authorization.k8s.io",
        "v1beta1",
        "ClusterRole",
        "rbac.authorization.k8s.io/v1",
    ),
    (
        "rbac.authorization.k8s.io",
        "v1beta1",
        "RoleBinding",
        "rbac.authorization.k8s.io/v1",
    ),
    (
        "rbac.authorization.k8s.io",
        "v1beta1",
        "ClusterRoleBinding",
        "rbac.authorization.k8s.io/v1",
    ),
    ("storage.k8s.io", "v1beta1", "StorageClass", "storage.k8s.io/v1"),
    ("storage.k8s.io", "v1beta1", "VolumeAttachment", "storage.k8s.io/v1"),
    ("storage.k8s.io", "v1beta1", "CSINode", "storage.k8s.io/v1"),
    ("storage.k8s.io", "v1beta1", "CSIDriver", "storage.k8s.io/v1"),
    ("storage.k8s.io", "v1beta1", "CSIStorageCapacity", "storage.k8s.io/v1"),
    (
        "storage.k8s.io",
        "v1beta1",
        "VolumeAttributesClass",
        "storage.k8s.io/v1",
    ),
    ("scheduling.k8s.io", "v1alpha1", "PriorityClass", "scheduling.k8s.io/v1"),
    ("scheduling.k8s.io", "v1beta1", "PriorityClass", "scheduling.k8s.io/v1"),
    ("node.k8s.io", "v1beta1", "RuntimeClass", "node.k8s.io/v1"),
    ("coordination.k8s.io", "v1beta1", "Lease", "coordination.k8s.io/v1"),
    (
        "apiregistration.k8s.io",
        "v1beta1",
        "APIService",
        "apiregistration.k8s.io/v1",
    ),
    ("networking.k8s.io", "v1beta1", "IngressClass", "networking.k8s.io/v1"),
    (
        "gateway.networking.k8s.io",
        "v1beta1",
        "Gateway",
        "gateway.networking.k8s.io/v1",
    ),
    (
        "gateway.networking.k8s.io",
        "v1beta1",
        "GatewayClass",
        "gateway.networking.k8s.io/v1",
    ),
    (
        "gateway.networking.k8s.io",
        "v1beta1",
        "HTTPRoute",
        "gateway.networking.k8s.io/v1",
    ),
];

/// The GA apiVersion an object of `kind` at `group`/`version` converts to unchanged (see
/// [`UNCHANGED`]), when the `target` release serves it.
pub(crate) fn unchanged_successor(group: &str, version: &str, kind: &str, target: u32) -> Option<&'static str> {
    let (.., ga) = UNCHANGED
        .iter()
        .find(|(g, v, k, _)| *g == group && *v == version && *k == kind)?;
    let served = lookup(group, version, kind).and_then(|e| e.replacement_at(target));
    (served == Some(*ga)).then_some(*ga)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unchanged_conversions_name_the_table_s_replacement() {
        for (group, version, kind, ga) in UNCHANGED {
            let entry = lookup(group, version, kind);
            assert_eq!(entry.and_then(|e| e.replacement), Some(*ga), "{group}/{version} {kind}");
        }
        assert_eq!(unchanged_successor("batch", "v1beta1", "CronJob", 33), Some("batch/v1"));
        assert_eq!(unchanged_successor("batch", "v1beta1", "CronJob", 20), None);
        assert_eq!(
            unchanged_successor("policy", "v1beta1", "PodDisruptionBudget", 33),
            None
        );
        assert_eq!(unchanged_successor("networking.k8s.io", "v1beta1", "Ingress", 33), None);
    }

    #[test]
    fn compiled_table_equals_its_file() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/api-versions.yaml")).unwrap();
        let source = crate::yaml_to_json(&text).unwrap();
        let compiled = serde_json::to_value(table()).unwrap();
        let clean = crate::data::without_defaults;
        assert_eq!(clean(compiled), clean(source));
    }

    #[test]
    fn every_entry_is_alpha_or_beta_of_a_kubernetes_group() {
        let table = table();
        assert!(table.versions.len() > 30);
        for e in table.versions {
            assert_eq!(owner(e.group), Owner::Kubernetes, "{}", e.group);
            assert!(
                matches!(level(e.version), Some(Level::Alpha | Level::Beta)),
                "{}/{}",
                e.group,
                e.version
            );
            if let Some(r) = e.replacement {
                let (_, v) = r.rsplit_once('/').unwrap_or(("", r));
                assert_eq!(level(v), Some(Level::Ga), "{r}");
            }
        }
    }

    #[test]
    fn levels_follow_the_kubernetes_version_grammar() {
        for (v, l) in [
            ("v1", Some(Level::Ga)),
            ("v2", Some(Level::Ga)),
            ("v10", Some(Level::Ga)),
            ("v1beta1", Some(Level::Beta)),
            ("v2beta2", Some(Level::Beta)),
            ("v1alpha1", Some(Level::Alpha)),
            ("v2alpha10", Some(Level::Alpha)),
            ("v1beta", None),
            ("v1alpha0", None),
            ("v0", None),
            ("V1", None),
            ("1", None),
            ("v01", None),
            ("v1gamma1", None),
            ("", None),
        ] {
            assert_eq!(level(v), l, "{v}");
        }
    }

    #[test]
    fn owners() {
        for g in [
            "",
            "apps",
            "policy",
            "networking.k8s.io",
            "gateway.networking.k8s.io",
            "foo.kubernetes.io",
        ] {
            assert_eq!(owner(g), Owner::Kubernetes, "{g}");
        }
        for g in [
            "k8s.cni.cncf.io",
            "nfd.k8s-sigs.io",
            "cluster.x-k8s.io",
            "cert-manager.io",
        ] {
            assert_eq!(owner(g), Owner::ThirdParty, "{g}");
        }
        for g in [
            "skaffold",
            "kustomize.config.k8s.io",
            "kubeadm.k8s.io",
            "kubelet.config.k8s.io",
        ] {
            assert_eq!(owner(g), Owner::NotServed, "{g}");
        }
    }

    #[test]
    fn kind_entries_win_over_the_catch_all() {
        let ingress = lookup("extensions", "v1beta1", "Ingress").unwrap();
        assert_eq!(ingress.removed_in, Some("1.22"));
        assert_eq!(ingress.replacement, Some("networking.k8s.io/v1"));
        let deployment = lookup("extensions", "v1beta1", "Deployment").unwrap();
        assert_eq!(deployment.removed_in, Some("1.16"));
        let other = lookup("extensions", "v1beta1", "Scale").unwrap();
        assert!(other.kinds.is_empty());
        assert!(lookup("apps", "v1beta2", "StatefulSet").is_some());
        assert!(lookup("storage.k8s.io", "v1beta1", "Unknown").is_none());
    }

    #[test]
    fn the_target_release_picks_the_verdict() {
        let dra = lookup("resource.k8s.io", "v1beta1", "DeviceClass").unwrap();
        assert_eq!(dra.replacement_at(33), None);
        assert_eq!(dra.replacement_at(34), Some("resource.k8s.io/v1"));
        assert_eq!(
            dra.history(33),
            ", deprecated in Kubernetes 1.33 and to be removed in 1.36"
        );
        assert_eq!(dra.history(36), ", which Kubernetes stopped serving in 1.36");
        assert_eq!(dra.advice(33), "; resource.k8s.io/v1 replaces it from Kubernetes 1.34");
        let psp = lookup("policy", "v1beta1", "PodSecurityPolicy").unwrap();
        assert_eq!(psp.removed_by(33), Some(25));
        assert_eq!(psp.removed_by(24), None);
        assert_eq!(
            psp.advice(33),
            "; it has no replacement (Pod Security admission took its place)"
        );
    }
}
