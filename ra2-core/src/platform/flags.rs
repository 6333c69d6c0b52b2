//! Command-line flags of Kubernetes components, read as the components read them.
//!
//! The control-plane binaries parse their flags with spf13/pflag (`--flag=value`, `--flag value`
//! for flags that take a value, a bare `--flag` for booleans, `--` ends the flags) and etcd with
//! Go's `flag` package, which also accepts one dash (`-name=value`). A repeated flag sets its
//! value again: the last one wins for plain values, while map-valued flags (`--feature-gates`,
//! `--runtime-config`) merge every occurrence, later keys overriding earlier ones.

use std::collections::BTreeMap;

use crate::parse::view::Located;

/// Flags of the control-plane components that are booleans: a bare `--flag` sets them and the
/// next argument is not their value (pflag's `NoOptDefVal`). Any other flag written without `=`
/// takes the next argument as its value, as pflag does, unless that argument is itself a flag.
const BOOLEAN_FLAGS: &[&str] = &[
    "allow-privileged",
    "anonymous-auth",
    "authorization-always-allow-paths",
    "enable-aggregator-routing",
    "enable-bootstrap-token-auth",
    "enable-garbage-collector",
    "enable-priority-and-fairness",
    "leader-elect",
    "profiling",
    "use-service-account-credentials",
    "client-cert-auth",
    "peer-client-cert-auth",
    "auto-tls",
    "peer-auto-tls",
    "experimental-initial-corrupt-check",
    "strict-reconfig-check",
    "logtostderr",
    "v",
];

/// One flag as written.
#[derive(Clone, Debug)]
pub(crate) struct Flag<'d> {
    /// Without its dashes.
    pub name: &'d str,
    /// `None` for a bare boolean flag.
    pub value: Option<&'d str>,
    /// Where the value is written: the same argument, or the next one.
    pub value_at: Located<'d>,
}

/// The flags of a command line: each argument node in order (the binary itself excluded).
pub(crate) fn parse<'d>(args: &[Located<'d>]) -> Vec<Flag<'d>> {
    let mut flags = Vec::new();
    let mut rest = args.iter().peekable();
    while let Some(arg) = rest.next() {
        let Some(text) = arg.as_str() else { continue };
        if text == "--" {
            break;
        }
        let Some(body) = text.strip_prefix("--").or_else(|| text.strip_prefix('-')) else {
            continue;
        };
        if body.is_empty() {
            continue;
        }
        if let Some((name, value)) = body.split_once('=') {
            flags.push(Flag {
                name,
                value: Some(value),
                value_at: arg.clone(),
            });
            continue;
        }
        let next_is_value = !BOOLEAN_FLAGS.contains(&body)
            && rest
                .peek()
                .and_then(|n| n.as_str())
                .is_some_and(|n| !n.starts_with('-'));
        match rest.next_if(|_| next_is_value) {
            Some(next) => flags.push(Flag {
                name: body,
                value: next.as_str(),
                value_at: next.clone(),
            }),
            None => flags.push(Flag {
                name: body,
                value: None,
                value_at: arg.clone(),
            }),
        }
    }
    flags
}

/// Go's `strconv.ParseBool`.
pub(crate) fn parse_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// One entry of a map-valued flag (`--feature-gates=A=true`): its key, value and where it is.
#[derive(Clone, Debug)]
pub(crate) struct MapEntry<'d> {
    pub key: String,
    /// The value as written; empty for a bare key (`--runtime-config=batch/v2alpha1`).
    pub value: String,
    pub at: Located<'d>,
}

/// Every entry of every occurrence of a map-valued flag, later keys overriding earlier ones
/// (pflag's `mapStringBool` and component-base's `ConfigurationMap` merge occurrences). Keys
/// and values are trimmed, as both parsers do.
pub(crate) fn map_flag<'d>(flags: &[Flag<'d>], name: &str) -> BTreeMap<String, MapEntry<'d>> {
    merge_map_values(
        flags
            .iter()
            .filter(|f| f.name == name)
            .filter_map(|f| Some((f.value?, &f.value_at))),
    )
}

/// The entries of a map-valued flag's occurrences (`(value, where)` in order), later keys
/// overriding earlier ones: for command lines ([`map_flag`]) and kubeadm's `extraArgs` alike.
pub(crate) fn merge_map_values<'v, 'd: 'v>(
    occurrences: impl Iterator<Item = (&'v str, &'v Located<'d>)>,
) -> BTreeMap<String, MapEntry<'d>> {
    let mut merged = BTreeMap::new();
    for (value, at) in occurrences {
        for item in value.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (key, value) = item.split_once('=').unwrap_or((item, ""));
            merged.insert(
                key.trim().to_owned(),
                MapEntry {
                    key: key.trim().to_owned(),
                    value: value.trim().to_owned(),
                    at: at.clone(),
                },
            );
        }
    }
    merged
}

/// The last value of a plain flag.
pub(crate) fn last<'a, 'd>(flags: &'a [Flag<'d>], name: &str) -> Option<&'a Flag<'d>> {
    flags.iter().rev().find(|f| f.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::doc::{Limits, read_chunk};

    fn with_flags(yaml: &str, f: impl FnOnce(Vec<Flag<'_>>)) {
        let chunk = crate::parse::source::chunks(yaml, 0, 0)[0];
        let docs = read_chunk(chunk, false, Limits::default()).docs;
        let doc = docs.first().unwrap();
        let root = Located::root(doc);
        let args: Vec<Located<'_>> = root.items().collect();
        f(parse(&args));
    }

    #[test]
    fn equals_space_bare_and_double_dash() {
        with_flags(
            "[--a=1, --b, '2', --allow-privileged, x, --c, --d=, -name=etcd, --, --e=9]",
            |flags| {
                let got: Vec<(&str, Option<&str>)> = flags.iter().map(|f| (f.name, f.value)).collect();
                assert_eq!(
                    got,
                    [
                        ("a", Some("1")),
                        ("b", Some("2")),
                        ("allow-privileged", None),
                        ("c", None),
                        ("d", Some("")),
                        ("name", Some("etcd")),
                    ]
                );
            },
        );
    }

    #[test]
    fn map_flags_merge_and_last_wins() {
        with_flags(
            "['--feature-gates=A=true, B=false', '--feature-gates', 'B=true,C=false', '--runtime-config=api/alpha,batch/v1=false', --v=2, --v=4]",
            |flags| {
                let gates = map_flag(&flags, "feature-gates");
                let got: Vec<(&str, &str)> = gates.values().map(|e| (e.key.as_str(), e.value.as_str())).collect();
                assert_eq!(got, [("A", "true"), ("B", "true"), ("C", "false")]);
                let runtime = map_flag(&flags, "runtime-config");
                assert_eq!(runtime.get("api/alpha").map(|e| e.value.as_str()), Some(""));
                assert_eq!(last(&flags, "v").and_then(|f| f.value), Some("4"));
            },
        );
    }

    #[test]
    fn parse_bool_is_go_strconv() {
        assert_eq!(parse_bool("True"), Some(true));
        assert_eq!(parse_bool("0"), Some(false));
        assert_eq!(parse_bool("yes"), None);
    }
}
