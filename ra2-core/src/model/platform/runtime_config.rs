//! kube-apiserver's `--runtime-config`, resolved as the API server resolves it.
//!
//! The flag is a `cliflag.ConfigurationMap` ([`configuration_map`](super::flags::configuration_map)),
//! so the order its entries are written in is lost before k8s.io/apiserver reads them:
//! `APIEnablementOptions.Validate` refuses keys that are not `api/<level>`, `group/version` or
//! `group/version/resource`, groups the server does not know, and `api/all=false` alone; then
//! `MergeAPIResourceConfigs` applies `api/all`, `api/ga`, `api/beta` and `api/alpha` in that
//! order (each only as exactly `true` or `false`), then every `group/version`, then every
//! `group/version/resource` (a bare key is `true`, any other value is read by `strconv.ParseBool`,
//! and a resource must be lower case), so `api/all=true,api/alpha=false` serves no alpha API
//! whichever way round it is written. Anything refused stops the API server at start.

use std::collections::BTreeMap;
use std::fmt;

use super::flags::{Entry, parse_bool};
use crate::k8s::api_versions::{Level, level_by};

/// The group versions an API server knows (k8s.io/apiserver's `GroupVersionRegistry`).
pub trait Registry {
    fn is_group_registered(&self, group: &str) -> bool;
    fn is_version_registered(&self, group: &str, version: &str) -> bool;
}

/// What ra2 assumes of an API server it has no list of group versions for: every group is known,
/// and so is every version written as Kubernetes writes versions (`v1`, `v2beta1`, `v1alpha3`).
#[derive(Clone, Copy, Debug, Default)]
pub struct AnyApi;

impl Registry for AnyApi {
    fn is_group_registered(&self, _group: &str) -> bool {
        true
    }

    fn is_version_registered(&self, _group: &str, version: &str) -> bool {
        level_of(version).is_some()
    }
}

/// The level of a version by the API server's patterns for `api/ga`, `api/beta` and
/// `api/alpha`: `^v\d+$`, `^v\d+beta\d+$`, `^v\d+alpha\d+$`; `None` for a version none matches.
pub(crate) fn level_of(version: &str) -> Option<Level> {
    level_by(version, |n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The `api/...` keys in the order the API server applies them, and what each matches.
const LEVEL_KEYS: [(&str, Option<Level>); 4] = [
    ("api/all", None),
    ("api/ga", Some(Level::Ga)),
    ("api/beta", Some(Level::Beta)),
    ("api/alpha", Some(Level::Alpha)),
];

/// Why the API server refuses a `--runtime-config` and does not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuntimeConfigError {
    /// `api/all=false` and nothing else.
    OnlyAllFalse,
    /// A key that is neither `api/<level>` nor has two or three `/`-separated parts.
    InvalidKey(String),
    /// A group version of a group the server does not know.
    UnknownGroup(String),
    /// A known group at a version the server does not have.
    UnregisteredVersion(String),
    /// `api/<level>` with a value other than `true` or `false`, or a group version (or resource)
    /// whose value `strconv.ParseBool` does not read.
    InvalidValue { key: String, value: String },
    /// `group/version/Resource`: resources are lower case.
    UpperCaseResource(String),
}

impl fmt::Display for RuntimeConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuntimeConfigError::OnlyAllFalse => write!(f, "api/all=false is the only entry"),
            RuntimeConfigError::InvalidKey(key) => write!(f, "invalid key {key}"),
            RuntimeConfigError::UnknownGroup(key) => write!(f, "unknown API group in {key}"),
            RuntimeConfigError::UnregisteredVersion(key) => write!(f, "group version {key} is not registered"),
            RuntimeConfigError::InvalidValue { key, value } => write!(f, "invalid value {key}={value}"),
            RuntimeConfigError::UpperCaseResource(key) => write!(f, "resource of {key} is not lower case"),
        }
    }
}

/// One decision of the flag: on or off, and the entry that says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting<At> {
    pub on: bool,
    pub entry: Entry<At>,
}

/// A `--runtime-config` the API server accepts, as it applies it.
#[derive(Clone, Debug, Default)]
pub struct RuntimeConfig<At> {
    /// `api/all`, `api/ga`, `api/beta`, `api/alpha`, in that order, where set.
    levels: Vec<(Option<Level>, Setting<At>)>,
    /// `group/version` entries by group and version.
    versions: BTreeMap<(String, String), Setting<At>>,
    /// `group/version/resource` entries by group, version and resource.
    resources: BTreeMap<(String, String, String), Setting<At>>,
}

impl<At: Clone> RuntimeConfig<At> {
    /// Validates and resolves a merged `--runtime-config` map against the server's registry.
    pub fn resolve(map: &BTreeMap<String, Entry<At>>, registry: &impl Registry) -> Result<Self, RuntimeConfigError> {
        if map.len() == 1 && map.get("api/all").is_some_and(|e| e.value == "false") {
            return Err(RuntimeConfigError::OnlyAllFalse);
        }
        let mut config = RuntimeConfig {
            levels: Vec::new(),
            versions: BTreeMap::new(),
            resources: BTreeMap::new(),
        };
        // Validate: every other key has two or three parts and a known group.
        for key in map.keys().filter(|k| !LEVEL_KEYS.iter().any(|(l, _)| l == k)) {
            let parts: Vec<&str> = key.split('/').collect();
            let (Some(group), 2..=3) = (parts.first(), parts.len()) else {
                return Err(RuntimeConfigError::InvalidKey(key.clone()));
            };
            if !registry.is_group_registered(group) {
                return Err(RuntimeConfigError::UnknownGroup(key.clone()));
            }
        }
        for (key, level) in LEVEL_KEYS {
            let Some(entry) = map.get(key) else { continue };
            let on = match entry.value.as_str() {
                "true" => true,
                "false" => false,
                _ => return Err(invalid(entry)),
            };
            config.levels.push((
                level,
                Setting {
                    on,
                    entry: entry.clone(),
                },
            ));
        }
        for (key, entry) in map {
            if LEVEL_KEYS.iter().any(|(l, _)| l == key) {
                continue;
            }
            let parts: Vec<&str> = key.split('/').collect();
            let (group, version, resource) = match parts.as_slice() {
                [group, version] => (*group, *version, None),
                [group, version, resource] => (*group, *version, Some(*resource)),
                _ => continue,
            };
            if !registry.is_group_registered(group) {
                continue;
            }
            if !registry.is_version_registered(group, version) {
                return Err(RuntimeConfigError::UnregisteredVersion(format!("{group}/{version}")));
            }
            let on = if entry.value.is_empty() {
                true
            } else {
                parse_bool(&entry.value).ok_or_else(|| invalid(entry))?
            };
            let setting = Setting {
                on,
                entry: entry.clone(),
            };
            match resource {
                None => {
                    config.versions.insert((group.to_owned(), version.to_owned()), setting);
                }
                Some(resource) if resource.to_lowercase() != resource => {
                    return Err(RuntimeConfigError::UpperCaseResource(key.clone()));
                }
                Some(resource) => {
                    config
                        .resources
                        .insert((group.to_owned(), version.to_owned(), resource.to_owned()), setting);
                }
            }
        }
        Ok(config)
    }
}

fn invalid<At>(entry: &Entry<At>) -> RuntimeConfigError {
    RuntimeConfigError::InvalidValue {
        key: entry.key.clone(),
        value: entry.value.clone(),
    }
}

impl<At> RuntimeConfig<At> {
    /// What the flag decides for every version at a level: the last of `api/all` and the level's
    /// own key that is set. `None` leaves such versions at the server's defaults.
    pub(crate) fn level(&self, level: Level) -> Option<&Setting<At>> {
        self.matching(Some(level))
    }

    /// The last level key set that matches versions at `level` (only `api/all` matches a
    /// version of no level).
    fn matching(&self, level: Option<Level>) -> Option<&Setting<At>> {
        self.levels
            .iter()
            .rev()
            .find(|(l, _)| l.is_none() || *l == level)
            .map(|(_, s)| s)
    }

    /// What the flag decides for a registered group version: its own entry, else its level's.
    pub fn version(&self, group: &str, version: &str) -> Option<&Setting<At>> {
        self.versions
            .get(&(group.to_owned(), version.to_owned()))
            .or_else(|| self.matching(level_of(version)))
    }

    /// What the flag decides for a resource of a registered group version: its own entry, else
    /// its version's (which also drops the server's default for the resource).
    pub fn resource(&self, group: &str, version: &str, resource: &str) -> Option<&Setting<At>> {
        self.resources
            .get(&(group.to_owned(), version.to_owned(), resource.to_owned()))
            .or_else(|| self.version(group, version))
    }

    /// The `group/version` entries: group, version and setting.
    pub fn versions(&self) -> impl Iterator<Item = (&str, &str, &Setting<At>)> {
        self.versions.iter().map(|((g, v), s)| (g.as_str(), v.as_str(), s))
    }

    /// The `group/version/resource` entries: group, version, resource and setting.
    pub fn resources(&self) -> impl Iterator<Item = (&str, &str, &str, &Setting<At>)> {
        self.resources
            .iter()
            .map(|((g, v, r), s)| (g.as_str(), v.as_str(), r.as_str(), s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::platform::flags::configuration_map;

    fn resolve(flags: &[&str]) -> Result<RuntimeConfig<usize>, RuntimeConfigError> {
        let map = configuration_map(flags.iter().enumerate().map(|(i, f)| (*f, i)));
        RuntimeConfig::resolve(&map, &AnyApi)
    }

    fn on(setting: Option<&Setting<usize>>) -> Option<bool> {
        setting.map(|s| s.on)
    }

    #[test]
    fn levels_apply_in_the_servers_order_not_as_written() {
        for flags in [["api/all=true,api/alpha=false"], ["api/alpha=false,api/all=true"]] {
            let config = resolve(&flags).unwrap();
            assert_eq!(on(config.level(Level::Alpha)), Some(false));
            assert_eq!(on(config.level(Level::Beta)), Some(true));
            assert_eq!(on(config.version("batch", "v2alpha1")), Some(false));
        }
        let config = resolve(&["api/alpha=true", "api/all=false,batch/v1=true"]).unwrap();
        assert_eq!(on(config.level(Level::Alpha)), Some(true));
        assert_eq!(on(config.level(Level::Ga)), Some(false));
        assert_eq!(on(config.version("batch", "v1")), Some(true));
        assert_eq!(on(config.version("apps", "v1")), Some(false));
    }

    #[test]
    fn versions_then_resources_override_levels() {
        let config = resolve(&["api/alpha=false,resource.k8s.io/v1alpha3=true,batch/v1/jobs=false"]).unwrap();
        assert_eq!(on(config.version("resource.k8s.io", "v1alpha3")), Some(true));
        assert_eq!(on(config.version("storage.k8s.io", "v1alpha1")), Some(false));
        assert_eq!(on(config.resource("batch", "v1", "jobs")), Some(false));
        assert_eq!(on(config.resource("batch", "v1", "cronjobs")), None);
    }

    #[test]
    fn values_the_server_accepts() {
        assert_eq!(
            on(resolve(&["batch/v2alpha1"]).unwrap().version("batch", "v2alpha1")),
            Some(true)
        );
        assert_eq!(
            on(resolve(&["batch/v1=F"]).unwrap().version("batch", "v1")),
            Some(false)
        );
        assert!(matches!(
            resolve(&["api/alpha"]),
            Err(RuntimeConfigError::InvalidValue { .. })
        ));
        assert!(matches!(
            resolve(&["api/alpha=True"]),
            Err(RuntimeConfigError::InvalidValue { .. })
        ));
        assert!(matches!(
            resolve(&["batch/v1=yes"]),
            Err(RuntimeConfigError::InvalidValue { .. })
        ));
        assert_eq!(
            resolve(&["api/all=false"]).err(),
            Some(RuntimeConfigError::OnlyAllFalse)
        );
        assert!(matches!(resolve(&["v1=false"]), Err(RuntimeConfigError::InvalidKey(_))));
        // One item of white space is the key "", which is no key the server takes.
        assert!(matches!(
            resolve(&["api/ga=true, "]),
            Err(RuntimeConfigError::InvalidKey(_))
        ));
        assert!(matches!(
            resolve(&["apps/v1/Deployments=false"]),
            Err(RuntimeConfigError::UpperCaseResource(_))
        ));
    }
}
