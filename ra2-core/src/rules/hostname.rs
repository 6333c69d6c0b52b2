//! ra2.app.004: pods get their own valid host name (OCI hostname parameter group): no host
//! network, DNS-label hostname and subdomain, and a fully qualified name the kernel accepts.

use crate::k8s::names::{DNS1123_LABEL_MAX_LEN, is_dns1123_label};
use crate::model::{Object, PodSpec, WorkloadKind};
use crate::parse::view::Located;
use crate::rules::params::RuleParams;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    object: Some(check_object),
    params: Some(super::params::decoder::<Params>),
    ..Checks::NONE
};

/// The cluster's DNS domain (`cluster.local` by default).
#[derive(Clone, Debug)]
struct Params {
    cluster_domain: String,
}

impl RuleParams for Params {
    fn decode(params: &mut super::params::Params<'_>) -> Self {
        Params {
            cluster_domain: params.string("cluster_domain"),
        }
    }
}

/// The kubelet refuses host names longer than this (the kernel's nodename limit).
const HOSTNAME_MAX_LEN: usize = 64;

fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    if let Some(host_network) = pod.get("hostNetwork").filter(Located::is_true) {
        cx.report(
            "host-network",
            &host_network,
            "pod shares the node's network and UTS namespaces, so it sees the node's host name",
        );
    }
    for key in ["hostname", "subdomain"] {
        let Some(node) = pod.get(key) else { continue };
        let Some(name) = node.as_str().filter(|s| !s.is_empty()) else {
            continue;
        };
        if is_dns1123_label(name) {
            continue;
        }
        cx.report_with_help(
            "hostname-invalid",
            &node,
            format!("{key} {name:?} is not a DNS-1123 label: {}", label_problems(name)),
            "Use at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit.",
        );
    }
}

/// Why `name` is not a DNS-1123 label, in words.
fn label_problems(name: &str) -> String {
    let mut problems = Vec::new();
    if name.len() > DNS1123_LABEL_MAX_LEN {
        problems.push(format!(
            "it is {} characters long, more than {DNS1123_LABEL_MAX_LEN}",
            name.len()
        ));
    }
    let mut has = Vec::new();
    if name.chars().any(|c| c.is_ascii_uppercase()) {
        has.push("upper-case letters".to_owned());
    }
    let mut seen = Vec::new();
    for c in name.chars().filter(|c| !(c.is_ascii_alphanumeric() || *c == '-')) {
        if !seen.contains(&c) {
            seen.push(c);
            has.push(format!("{c:?}"));
        }
    }
    if !has.is_empty() {
        problems.push(format!("it contains {}", has.join(" and ")));
    }
    if name.starts_with('-') {
        problems.push("it starts with '-'".to_owned());
    }
    if name.ends_with('-') {
        problems.push("it ends with '-'".to_owned());
    }
    if problems.is_empty() {
        // Unreachable while this agrees with `is_dns1123_label`; kept as a readable fallback.
        problems.push("only lower-case letters, digits and '-' are allowed".to_owned());
    }
    problems.join(", ")
}

/// The pod's host name as the kubelet derives it, and whether it is exact or a lower bound.
struct Host {
    name: String,
    exact: bool,
}

/// `setHostnameAsFQDN: true`: `<host>.<subdomain>.<namespace>.svc.<cluster_domain>` must fit in
/// 64 characters, or the kubelet cannot start the pod.
fn check_object(object: &Object<'_>, cx: &mut Context<'_>) {
    let Some(pod) = object.pod_spec() else { return };
    let Some(flag) = pod.get("setHostnameAsFQDN").filter(Located::is_true) else {
        return;
    };
    let (host, subdomain) = if pod.workload == WorkloadKind::StatefulSet {
        // The controller names pods `<set>-<ordinal>` and sets subdomain to spec.serviceName.
        let Some(set) = object.name else { return };
        let host = Host {
            name: format!("{set}-0"),
            exact: true,
        };
        (
            host,
            object.root.path(&["spec", "serviceName"]).and_then(|s| s.as_str()),
        )
    } else {
        let hostname = pod.get("hostname").and_then(|h| h.as_str()).filter(|h| !h.is_empty());
        let host = if let Some(hostname) = hostname {
            Host {
                name: hostname.to_owned(),
                exact: true,
            }
        } else {
            // Without a hostname the pod's own name is used; only a Pod's fixed name is exact.
            let Some(name) = object.name else { return };
            let named = object
                .metadata()
                .and_then(|m| m.str_at("name"))
                .is_some_and(|n| !n.is_empty());
            Host {
                name: name.to_owned(),
                exact: pod.workload == WorkloadKind::Pod && named,
            }
        };
        (host, pod.get("subdomain").and_then(|s| s.as_str()))
    };
    let Some(subdomain) = subdomain.filter(|s| !s.is_empty()) else {
        return;
    };
    let namespace = object.namespace.unwrap_or("default");
    let domain = &cx.params::<Params>().cluster_domain;
    let fqdn = format!("{}.{subdomain}.{namespace}.svc.{domain}", truncate_hostname(&host.name));
    if fqdn.len() <= HOSTNAME_MAX_LEN {
        return;
    }
    let message = if host.exact {
        format!(
            "fully qualified host name {fqdn:?} has {} characters, more than the {HOSTNAME_MAX_LEN} the kernel allows",
            fqdn.len()
        )
    } else {
        format!(
            "fully qualified host name has at least {} characters ({fqdn:?} before the generated pod-name suffix), more than the {HOSTNAME_MAX_LEN} the kernel allows",
            fqdn.len()
        )
    };
    cx.report_with_help(
        "fqdn-too-long",
        &flag,
        message,
        "Shorten the hostname, subdomain or namespace until the fully qualified name fits in 64 characters, or drop setHostnameAsFQDN.",
    );
}

/// The kubelet's `truncatePodHostnameIfNeeded`: cut to 63 characters, then trim trailing `-`
/// and `.`.
fn truncate_hostname(name: &str) -> &str {
    if name.len() <= DNS1123_LABEL_MAX_LEN {
        return name;
    }
    let cut = name.get(..DNS1123_LABEL_MAX_LEN).unwrap_or(name);
    cut.trim_end_matches(['-', '.'])
}

#[cfg(test)]
mod tests {
    use super::{is_dns1123_label, label_problems, truncate_hostname};

    #[test]
    fn label_problems_name_each_fault() {
        assert_eq!(label_problems("CNF_A"), "it contains upper-case letters and '_'");
        assert_eq!(
            label_problems("-a.b-"),
            "it contains '.', it starts with '-', it ends with '-'"
        );
        let long = "a".repeat(64);
        assert!(!is_dns1123_label(&long));
        assert_eq!(label_problems(&long), "it is 64 characters long, more than 63");
    }

    #[test]
    fn long_pod_names_are_cut_like_the_kubelet_does() {
        let name = format!("{}-x", "a".repeat(62));
        assert_eq!(truncate_hostname(&name), "a".repeat(62));
        assert_eq!(truncate_hostname("short"), "short");
    }
}
