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
pub fn parse_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// One `key=value` item of a map-valued flag (`--feature-gates=A=true`), and where it is written
/// (`At`: a [`Located`] node in a manifest, anything else in tests).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry<At> {
    pub key: String,
    /// The value as written, trimmed; empty for a bare key (`--runtime-config=batch/v2alpha1`).
    pub value: String,
    pub at: At,
}

/// An entry of a flag in a manifest.
pub(crate) type MapEntry<'d> = Entry<Located<'d>>;

/// The occurrences of a map-valued flag (`(value, where)` in order) read as component-base's
/// `cliflag.ConfigurationMap` reads them (`--runtime-config`): items split at commas, an empty
/// item skipped (one of white space is not empty: it is the key `""`), key and value split at the
/// first `=` and trimmed, a bare key given the value `""`, later keys overriding earlier ones.
pub fn configuration_map<'v, At>(occurrences: impl IntoIterator<Item = (&'v str, At)>) -> BTreeMap<String, Entry<At>>
where
    At: Clone,
{
    let mut merged = BTreeMap::new();
    for (value, at) in occurrences {
        for item in value.split(',').filter(|i| !i.is_empty()) {
            let (key, value) = item.split_once('=').unwrap_or((item, ""));
            let key = key.trim().to_owned();
            merged.insert(
                key.clone(),
                Entry {
                    key,
                    value: value.trim().to_owned(),
                    at: at.clone(),
                },
            );
        }
    }
    merged
}

/// What a component knows of a feature gate (component-base's `FeatureSpec` at the emulated
/// version), for [`feature_gates`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GateSpec {
    /// A gate the component knows: its default, whether it is locked to it, and whether it is
    /// pre-alpha (which cannot be set).
    Known {
        default: bool,
        locked: bool,
        pre_alpha: bool,
    },
    /// A gate the component does not know: it refuses to start.
    Unknown,
    /// A gate ra2 cannot tell about (not in its table for the release): taken as set.
    Unjudged,
}

/// Why a component refuses its `--feature-gates` and does not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FeatureGateError {
    /// A `component:` prefix other than `kube` (the only component a control-plane binary
    /// registers), or the default prefix mixed with `kube:`.
    Component(String),
    /// An item without `=`.
    MissingValue(String),
    /// A value `strconv.ParseBool` does not read.
    InvalidValue { key: String, value: String },
    /// A gate the component does not know.
    Unknown(String),
    /// A gate locked to its default and set to the other value, or a pre-alpha gate.
    CannotSet(String),
}

impl std::fmt::Display for FeatureGateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FeatureGateError::Component(c) => write!(f, "component {c:?} is not the component's own (kube)"),
            FeatureGateError::MissingValue(k) => write!(f, "missing bool value for {k}"),
            FeatureGateError::InvalidValue { key, value } => write!(f, "invalid value of {key}={value}"),
            FeatureGateError::Unknown(k) => write!(f, "unrecognized feature gate {k}"),
            FeatureGateError::CannotSet(k) => write!(f, "feature gate {k} cannot be set so"),
        }
    }
}

/// `--feature-gates` of kube-apiserver, kube-controller-manager and kube-scheduler, read as they
/// read it: the flag belongs to component-base's compatibility registry, whose
/// `ColonSeparatedMultimapStringString` collects every occurrence's comma-separated items by
/// `component:` prefix (none meaning `kube`, the only component registered; an item is trimmed,
/// and one of white space is dropped), then hands the joined items to the feature gate's `Set`:
/// `key=value` pairs, trimmed, each value read by `strconv.ParseBool`, a later key overriding an
/// earlier one; then `SetFromMap` refuses gates it does not know, pre-alpha gates, and a gate
/// locked to its default set to the other value. The result maps each gate set to its value and
/// the entry that set it.
pub fn feature_gates<'v, At>(
    occurrences: impl IntoIterator<Item = (&'v str, At)>,
    spec: impl Fn(&str) -> GateSpec,
) -> Result<BTreeMap<String, (bool, Entry<At>)>, FeatureGateError>
where
    At: Clone,
{
    let mut prefixes = (false, false);
    let mut gates = BTreeMap::new();
    for (value, at) in occurrences {
        for pair in value.split(',').filter(|p| !p.is_empty()) {
            let item = match pair.split_once(':') {
                None => {
                    prefixes.0 = true;
                    pair
                }
                Some((component, item)) => {
                    match component.trim() {
                        "" => prefixes.0 = true,
                        "kube" => prefixes.1 = true,
                        other => return Err(FeatureGateError::Component(other.to_owned())),
                    }
                    item
                }
            };
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let Some((key, value)) = item.split_once('=') else {
                return Err(FeatureGateError::MissingValue(item.to_owned()));
            };
            let (key, value) = (key.trim(), value.trim());
            let Some(on) = parse_bool(value) else {
                return Err(FeatureGateError::InvalidValue {
                    key: key.to_owned(),
                    value: value.to_owned(),
                });
            };
            let entry = Entry {
                key: key.to_owned(),
                value: value.to_owned(),
                at: at.clone(),
            };
            gates.insert(key.to_owned(), (on, entry));
        }
    }
    if prefixes == (true, true) {
        return Err(FeatureGateError::Component("kube".to_owned()));
    }
    for (key, (on, _)) in &gates {
        if key == "AllAlpha" || key == "AllBeta" {
            continue;
        }
        match spec(key) {
            GateSpec::Unknown => return Err(FeatureGateError::Unknown(key.clone())),
            GateSpec::Known {
                default,
                locked,
                pre_alpha,
            } if (locked && default != *on) || pre_alpha => {
                return Err(FeatureGateError::CannotSet(key.clone()));
            }
            GateSpec::Known { .. } | GateSpec::Unjudged => {}
        }
    }
    Ok(gates)
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
            "['--runtime-config=api/alpha,batch/v1=false', '--runtime-config', ' batch/v1 = true ,, ', --v=2, --v=4]",
            |flags| {
                let runtime = configuration_map(
                    flags
                        .iter()
                        .filter(|f| f.name == "runtime-config")
                        .filter_map(|f| Some((f.value?, ()))),
                );
                let got: Vec<(&str, &str)> = runtime.values().map(|e| (e.key.as_str(), e.value.as_str())).collect();
                // One item of white space is the key "", as ConfigurationMap reads it.
                assert_eq!(got, [("", ""), ("api/alpha", ""), ("batch/v1", "true")]);
                assert_eq!(last(&flags, "v").and_then(|f| f.value), Some("4"));
            },
        );
    }

    fn gates(values: &[&str]) -> Result<Vec<(String, bool)>, FeatureGateError> {
        let spec = |name: &str| match name {
            "Locked" => GateSpec::Known {
                default: true,
                locked: true,
                pre_alpha: false,
            },
            "Unheard" => GateSpec::Unknown,
            _ => GateSpec::Unjudged,
        };
        let got = feature_gates(values.iter().map(|v| (*v, ())), spec)?;
        Ok(got.into_iter().map(|(k, (on, _))| (k, on)).collect())
    }

    #[test]
    fn feature_gates_later_entries_win() {
        assert_eq!(
            gates(&["A=true, B=false", " B = t ,C=0", "A=F,,"]).unwrap(),
            [("A".to_owned(), false), ("B".to_owned(), true), ("C".to_owned(), false)]
        );
        assert_eq!(
            gates(&["kube: Locked=true", "kube:A=1"]).unwrap(),
            [("A".to_owned(), true), ("Locked".to_owned(), true)]
        );
    }

    #[test]
    fn feature_gates_the_components_refuse() {
        assert_eq!(
            gates(&["AllAlpha"]),
            Err(FeatureGateError::MissingValue("AllAlpha".to_owned()))
        );
        assert!(matches!(gates(&["A=yes"]), Err(FeatureGateError::InvalidValue { .. })));
        assert!(matches!(
            gates(&["A=true", "kube:B=true"]),
            Err(FeatureGateError::Component(_))
        ));
        assert!(matches!(gates(&["wardle:A=true"]), Err(FeatureGateError::Component(_))));
        assert!(matches!(gates(&["Unheard=false"]), Err(FeatureGateError::Unknown(_))));
        assert!(matches!(gates(&["Locked=false"]), Err(FeatureGateError::CannotSet(_))));
    }

    #[test]
    fn parse_bool_is_go_strconv() {
        assert_eq!(parse_bool("True"), Some(true));
        assert_eq!(parse_bool("0"), Some(false));
        assert_eq!(parse_bool("yes"), None);
    }
}
