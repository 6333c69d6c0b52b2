//! DANM, Nokia's CNI meta-plugin: the pod annotation that selects its networks
//! (`danm.io/interfaces`, older `danm.k8s.io/interfaces`) and the network objects it names
//! (`DanmNet`, `TenantNetwork`, `ClusterNetwork`). DANM attachments count like Multus ones for
//! ra2.app.006, ra2.ntw.003 and ra2.ntw.009.
//!
//! The annotation is a JSON array of interface objects, decoded by Go's `encoding/json` into
//! DANM's `Interface` struct (keys matched case-insensitively, unknown keys ignored, a wrong value
//! type is an error); each interface names its network with exactly one of `network` (a
//! `DanmNet` of the pod's namespace), `tenantNetwork` (a `TenantNetwork` of the pod's namespace)
//! or `clusterNetwork` (a cluster-scoped `ClusterNetwork`); `ip` and `ip6` are `dynamic`, `none`
//! or an address with its prefix length; `proutes` and `proutes6` map destination CIDRs to
//! gateways.

use std::fmt;

use serde_json::Value;

/// The annotations, newest first.
pub(crate) const ANNOTATIONS: &[&str] = &["danm.io/interfaces", "danm.k8s.io/interfaces"];

/// The API groups of DANM's network kinds (`danm.k8s.io` before DANM 4).
pub(crate) const GROUPS: &[&str] = &["danm.io", "danm.k8s.io"];

/// Which kind of DANM network an interface names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum NetworkKind {
    DanmNet,
    TenantNetwork,
    ClusterNetwork,
}

impl NetworkKind {
    /// The annotation key that names this kind.
    pub fn key(self) -> &'static str {
        match self {
            NetworkKind::DanmNet => "network",
            NetworkKind::TenantNetwork => "tenantNetwork",
            NetworkKind::ClusterNetwork => "clusterNetwork",
        }
    }

    /// The object kind.
    pub fn kind(self) -> &'static str {
        match self {
            NetworkKind::DanmNet => "DanmNet",
            NetworkKind::TenantNetwork => "TenantNetwork",
            NetworkKind::ClusterNetwork => "ClusterNetwork",
        }
    }

    /// The kind of a DANM network object, if `kind` is one.
    pub fn of_kind(kind: &str) -> Option<NetworkKind> {
        [
            NetworkKind::DanmNet,
            NetworkKind::TenantNetwork,
            NetworkKind::ClusterNetwork,
        ]
        .into_iter()
        .find(|k| k.kind() == kind)
    }

    /// Cluster-scoped networks are named without a namespace.
    pub fn namespaced(self) -> bool {
        self != NetworkKind::ClusterNetwork
    }
}

impl fmt::Display for NetworkKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind())
    }
}

/// One interface of the annotation: the network it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Interface {
    pub kind: NetworkKind,
    pub name: String,
}

/// The parsed annotation: the interfaces that name a network, and what is wrong.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Selection {
    pub interfaces: Vec<Interface>,
    pub problems: Vec<String>,
}

/// The value of `key` in `object`, matched as Go's decoder does: the exact key, else any key
/// equal ignoring case (the last such key wins, as each one overwrites the field).
fn field<'v>(object: &'v serde_json::Map<String, Value>, key: &str) -> Option<&'v Value> {
    object.get(key).or_else(|| {
        object
            .iter()
            .rev()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v)
    })
}

/// A string field: `None` when absent, null or empty (Go leaves the field empty).
fn string_field<'v>(
    object: &'v serde_json::Map<String, Value>,
    key: &str,
    at: &str,
    problems: &mut Vec<String>,
) -> Option<&'v str> {
    match field(object, key)? {
        Value::Null => None,
        Value::String(s) if s.is_empty() => None,
        Value::String(s) => Some(s),
        other => {
            problems.push(format!(
                "{at}.{key} is {}, not a string",
                crate::report::words::json_type(other)
            ));
            None
        }
    }
}

/// `ip`/`ip6`: `dynamic`, `none`, or an address of the family with a prefix length.
fn check_ip(value: &str, v6: bool, at: &str, key: &str, problems: &mut Vec<String>) {
    if value == "dynamic" || value == "none" {
        return;
    }
    let family_ok = value.split_once('/').is_some_and(|(addr, prefix)| {
        let max = if v6 { 128 } else { 32 };
        let prefix_ok = prefix.parse::<u8>().is_ok_and(|p| p <= max) && !prefix.starts_with('+');
        let addr_ok = if v6 {
            addr.parse::<std::net::Ipv6Addr>().is_ok()
        } else {
            addr.parse::<std::net::Ipv4Addr>().is_ok()
        };
        prefix_ok && addr_ok
    });
    if !family_ok {
        let family = if v6 { "IPv6" } else { "IPv4" };
        problems.push(format!(
            "{at}.{key} is {value:?}; DANM accepts \"dynamic\", \"none\" or an {family} address with its prefix length"
        ));
    }
}

/// `proutes`/`proutes6`: an object of strings.
fn check_routes(object: &serde_json::Map<String, Value>, key: &str, at: &str, problems: &mut Vec<String>) {
    match field(object, key) {
        None | Some(Value::Null) => {}
        Some(Value::Object(routes)) => {
            for (destination, gateway) in routes {
                if !gateway.is_string() {
                    problems.push(format!(
                        "{at}.{key}[{destination:?}] is {}, not a string",
                        crate::report::words::json_type(gateway)
                    ));
                }
            }
        }
        Some(other) => problems.push(format!(
            "{at}.{key} is {}, not an object of destination: gateway strings",
            crate::report::words::json_type(other)
        )),
    }
}

/// Parses a DANM interfaces annotation.
pub(crate) fn parse_interfaces(text: &str) -> Selection {
    let mut out = Selection::default();
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => {
            out.problems
                .push(format!("DANM interfaces annotation is not valid JSON: {e}"));
            return out;
        }
    };
    let items = match value {
        Value::Null => return out,
        Value::Array(items) => items,
        other => {
            out.problems.push(format!(
                "DANM interfaces annotation is {}, not a JSON array of interfaces",
                crate::report::words::json_type(&other)
            ));
            return out;
        }
    };
    for (i, item) in items.iter().enumerate() {
        let at = format!("interface {i}");
        let object = match item {
            Value::Object(object) => object,
            Value::Null => continue,
            other => {
                out.problems.push(format!(
                    "{at} is {}, not an object",
                    crate::report::words::json_type(other)
                ));
                continue;
            }
        };
        let mut named = Vec::new();
        for kind in [
            NetworkKind::DanmNet,
            NetworkKind::TenantNetwork,
            NetworkKind::ClusterNetwork,
        ] {
            if let Some(name) = string_field(object, kind.key(), &at, &mut out.problems) {
                named.push(Interface {
                    kind,
                    name: name.to_owned(),
                });
            }
        }
        for (key, v6) in [("ip", false), ("ip6", true)] {
            if let Some(ip) = string_field(object, key, &at, &mut out.problems) {
                check_ip(ip, v6, &at, key, &mut out.problems);
            }
        }
        check_routes(object, "proutes", &at, &mut out.problems);
        check_routes(object, "proutes6", &at, &mut out.problems);
        match named.len() {
            0 => out.problems.push(format!(
                "{at} names no network: set one of \"network\", \"tenantNetwork\" or \"clusterNetwork\""
            )),
            1 => out.interfaces.append(&mut named),
            _ => {
                let keys: Vec<&str> = named.iter().map(|n| n.kind.key()).collect();
                out.problems.push(format!(
                    "{at} names more than one network ({}); each interface connects to exactly one",
                    keys.join(", ")
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interfaces_name_their_networks() {
        let s = parse_interfaces(
            r#"[{"network": "oam", "ip": "dynamic"}, {"TenantNetwork": "media", "ip6": "2001:db8::5/64"}, {"clusterNetwork": "default", "ip": "10.0.0.5/24", "proutes": {"10.1.0.0/16": "10.0.0.1"}, "extra": 1}]"#,
        );
        assert_eq!(s.problems, Vec::<String>::new());
        assert_eq!(
            s.interfaces,
            [
                Interface {
                    kind: NetworkKind::DanmNet,
                    name: "oam".to_owned()
                },
                Interface {
                    kind: NetworkKind::TenantNetwork,
                    name: "media".to_owned()
                },
                Interface {
                    kind: NetworkKind::ClusterNetwork,
                    name: "default".to_owned()
                },
            ]
        );
        assert_eq!(parse_interfaces("null"), Selection::default());
        assert_eq!(parse_interfaces("[]"), Selection::default());
    }

    #[test]
    fn malformed_annotations_say_what_is_wrong() {
        for (text, problem) in [
            ("oam", "not valid JSON"),
            (r#"{"network": "oam"}"#, "an object, not a JSON array"),
            (r#"["oam"]"#, "interface 0 is a string, not an object"),
            (r#"[{"ip": "dynamic"}]"#, "interface 0 names no network"),
            (r#"[{"network": "a", "clusterNetwork": "b"}]"#, "more than one network"),
            (r#"[{"network": 5}]"#, "interface 0.network is a number, not a string"),
            (r#"[{"network": "a", "ip": "10.0.0.5"}]"#, "prefix length"),
            (r#"[{"network": "a", "ip": "2001:db8::1/64"}]"#, "IPv4 address"),
            (r#"[{"network": "a", "ip6": "dynamic6"}]"#, "IPv6 address"),
            (
                r#"[{"network": "a", "proutes": ["10.0.0.0/8"]}]"#,
                "not an object of destination",
            ),
        ] {
            let s = parse_interfaces(text);
            assert!(
                s.problems.iter().any(|p| p.contains(problem)),
                "{text}: {:?}",
                s.problems
            );
        }
    }
}
