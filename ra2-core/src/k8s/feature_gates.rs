//! The stage of every Kubernetes feature gate, release by release (`data/feature-gates.yaml`,
//! generated from the Kubernetes source by `scripts/feature-gates` and compiled in by
//! `build.rs`). ra2.k8s.012 reads it to tell an alpha gate switched on in `--feature-gates` or a
//! kubelet's `featureGates` from a beta or GA one.

/// A gate's stage (Kubernetes' `featuregate.PreRelease`, plus `Removed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    #[allow(
        dead_code,
        reason = "a stage Kubernetes has; no gate in the shipped table is in it today"
    )]
    PreAlpha,
    Alpha,
    Beta,
    Ga,
    Deprecated,
    /// The components no longer know the gate.
    Removed,
}

impl Stage {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Stage::PreAlpha => "pre-alpha",
            Stage::Alpha => "alpha",
            Stage::Beta => "beta",
            Stage::Ga => "GA",
            Stage::Deprecated => "deprecated",
            Stage::Removed => "removed",
        }
    }
}

/// One stage of a gate, from release `1.since` until the gate's next entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Spec {
    /// The minor release the stage starts in.
    pub since: u32,
    pub stage: Stage,
    pub default: bool,
    /// The gate can no longer be set to anything but its default.
    pub locked: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Gate {
    pub name: &'static str,
    /// In release order.
    pub stages: &'static [Spec],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Table {
    /// The minor releases whose source the table was generated from, oldest first.
    pub releases: &'static [u32],
    /// Sorted by name.
    pub gates: &'static [Gate],
}

include!(concat!(env!("OUT_DIR"), "/feature_gates.rs"));

#[cfg(test)]
pub(crate) fn table() -> &'static Table {
    &FEATURE_GATES
}

/// The newest release the table knows.
pub(crate) fn newest_release() -> u32 {
    FEATURE_GATES.releases.last().copied().unwrap_or(0)
}

pub(crate) fn gate(name: &str) -> Option<&'static Gate> {
    let gates = FEATURE_GATES.gates;
    gates
        .binary_search_by(|g| g.name.cmp(name))
        .ok()
        .and_then(|i| gates.get(i))
}

/// A gate's stage in minor release `1.minor`: `None` when the table does not know the gate in that
/// release (an unknown name, a release before the gate's first entry, or one after the newest
/// release the table was generated from).
pub(crate) fn stage(name: &str, minor: u32) -> Option<Spec> {
    if minor > newest_release() {
        return None;
    }
    gate(name)?.stages.iter().rev().find(|s| s.since <= minor).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compiled table is the file, entry by entry.
    #[test]
    fn compiled_table_equals_the_file() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/feature-gates.yaml");
        let file = crate::yaml_to_json(&std::fs::read_to_string(path).unwrap()).unwrap();
        let release =
            |v: &serde_json::Value| -> u32 { v.as_str().unwrap().strip_prefix("1.").unwrap().parse().unwrap() };
        let releases: Vec<u32> = file["releases"].as_array().unwrap().iter().map(release).collect();
        assert_eq!(table().releases, releases.as_slice());
        let gates = file["gates"].as_array().unwrap();
        assert_eq!(gates.len(), table().gates.len());
        assert!(gates.len() > 150, "the generator found {} gates", gates.len());
        for (compiled, source) in table().gates.iter().zip(gates) {
            assert_eq!(compiled.name, source["name"].as_str().unwrap());
            let stages = source["stages"].as_array().unwrap();
            assert_eq!(compiled.stages.len(), stages.len(), "{}", compiled.name);
            for (c, s) in compiled.stages.iter().zip(stages) {
                assert_eq!(c.since, release(&s["since"]), "{}", compiled.name);
                let stage = s["stage"].as_str().unwrap();
                assert_eq!(c.stage.as_str().to_ascii_lowercase(), stage, "{}", compiled.name);
                assert_eq!(c.default, s["default"].as_bool().unwrap_or(false), "{}", compiled.name);
                assert_eq!(c.locked, s["locked"].as_bool().unwrap_or(false), "{}", compiled.name);
            }
        }
    }

    #[test]
    fn stages_by_release() {
        // InPlacePodVerticalScaling: alpha since 1.27, beta since 1.33 (KEP-1287).
        assert_eq!(stage("InPlacePodVerticalScaling", 1).map(|s| s.stage), None);
        assert_eq!(
            stage("InPlacePodVerticalScaling", 32).map(|s| s.stage),
            Some(Stage::Alpha)
        );
        assert_eq!(
            stage("InPlacePodVerticalScaling", 33).map(|s| s.stage),
            Some(Stage::Beta)
        );
        assert_eq!(stage("NoSuchGate", 33), None);
        assert_eq!(stage("InPlacePodVerticalScaling", newest_release() + 1), None);
    }
}
