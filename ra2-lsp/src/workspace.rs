//! The workspace: its root, its `.ra2.yaml` (found from the root up, as `ra2 lint` run there
//! finds it), the helm command, and what kind of file a document is.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ra2_core::Config;

/// The settings every lint of the workspace uses.
#[derive(Debug, Clone)]
pub(crate) struct Workspace {
    pub(crate) root: Option<PathBuf>,
    pub(crate) config: Arc<Config>,
    /// The `.ra2.yaml` in use, if any.
    pub(crate) config_path: Option<PathBuf>,
    /// The helm command (`helm` on PATH unless configured).
    pub(crate) helm: PathBuf,
}

impl Workspace {
    pub(crate) fn new(root: Option<PathBuf>, helm: Option<PathBuf>) -> Self {
        Workspace {
            root,
            config: Arc::new(defaults()),
            config_path: None,
            helm: helm.unwrap_or_else(|| PathBuf::from("helm")),
        }
    }

    /// Reads the `.ra2.yaml` found from the root up (or none: the defaults). On an invalid
    /// file the settings in use are kept and the errors returned, for the config file's own
    /// diagnostics.
    pub(crate) fn load_config(&mut self) -> Result<(), Vec<ra2_core::ConfigError>> {
        let Some(path) = self.root.as_deref().and_then(ra2_input::config::discover) else {
            self.config = Arc::new(defaults());
            self.config_path = None;
            return Ok(());
        };
        let name = self.name_of(&path);
        match ra2_input::config::read(&path, &name) {
            Ok(mut config) => {
                config.today = ra2_run::settings::today().ok();
                self.config = Arc::new(config);
                self.config_path = Some(path);
                Ok(())
            }
            Err(ra2_input::config::ConfigFileError::Invalid(errors)) => {
                self.config_path = Some(path);
                Err(errors)
            }
            Err(other) => {
                self.config_path = Some(path);
                Err(vec![ra2_core::ConfigError {
                    file: name,
                    line: 1,
                    column: 1,
                    message: other.lines().join("; "),
                    code: "ra2::config::read",
                    pointer: String::new(),
                }])
            }
        }
    }

    /// How reports name `path`: relative to the root when under it, as `ra2 lint` run in the
    /// root names it.
    pub(crate) fn name_of(&self, path: &Path) -> String {
        let shown = self
            .root
            .as_deref()
            .and_then(|root| path.strip_prefix(root).ok())
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(path);
        shown.to_string_lossy().replace('\\', "/")
    }

    /// Is `path` the config file in use (or the one that would be found)?
    pub(crate) fn is_config(&self, path: &Path) -> bool {
        path.file_name().is_some_and(|n| n == ra2_input::config::CONFIG_FILE)
            && (self.config_path.as_deref() == Some(path)
                || self
                    .root
                    .as_deref()
                    .is_some_and(|root| path.parent().is_some_and(|dir| root.starts_with(dir))))
    }
}

fn defaults() -> Config {
    Config {
        today: ra2_run::settings::today().ok(),
        ..Config::default()
    }
}

/// What a document is, for the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A YAML or JSON file that may hold manifests: linted as it is edited.
    Manifest,
    /// A file of the Helm chart in this directory: never linted as plain YAML; saving a
    /// template or values file renders the chart.
    Chart { chart: PathBuf, renders: bool },
    /// Anything else.
    Other,
}

/// The kind of the file at `path` (`None`: not a file on disk, linted as a manifest when its
/// language says YAML or JSON).
pub(crate) fn kind_of(path: Option<&Path>, language: &str) -> Kind {
    let Some(path) = path else {
        return if matches!(language, "yaml" | "json" | "helm") {
            Kind::Manifest
        } else {
            Kind::Other
        };
    };
    if let Some(chart) = chart_of(path) {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let under_templates = path
            .strip_prefix(&chart)
            .ok()
            .is_some_and(|rest| rest.starts_with("templates"));
        let extension = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
        let values = name.starts_with("values") && matches!(extension.as_deref(), Some("yaml" | "yml"));
        return Kind::Chart {
            renders: under_templates || values,
            chart,
        };
    }
    let extension = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
    if matches!(extension.as_deref(), Some("yaml" | "yml" | "json")) || matches!(language, "yaml" | "json") {
        Kind::Manifest
    } else {
        Kind::Other
    }
}

/// The Helm chart whose file `path` is: the nearest directory above it with a `Chart.yaml`,
/// when `path` is in its `templates/` or is one of its values files (a `Chart.yaml` beside a
/// plain manifest does not make that manifest a template).
pub(crate) fn chart_of(path: &Path) -> Option<PathBuf> {
    let mut dir = path.parent()?;
    let mut below: Option<&std::ffi::OsStr> = None;
    loop {
        if dir.join("Chart.yaml").is_file() {
            let name = path.file_name()?.to_string_lossy();
            let in_templates = below.is_some_and(|b| b == "templates");
            let beside = below.is_none() && (name.starts_with("values") || name == "Chart.yaml");
            return (in_templates || beside).then(|| dir.to_path_buf());
        }
        below = dir.file_name();
        dir = dir.parent()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chart_files_are_known() {
        let dir = std::env::temp_dir().join(format!("ra2-lsp-kind-{}", std::process::id()));
        let chart = dir.join("chart");
        let _ = std::fs::create_dir_all(chart.join("templates/sub"));
        let _ = std::fs::write(chart.join("Chart.yaml"), "apiVersion: v2\nname: c\nversion: 0.1.0\n");
        let template = chart.join("templates/sub/deploy.yaml");
        assert_eq!(
            kind_of(Some(&template), "yaml"),
            Kind::Chart {
                chart: chart.clone(),
                renders: true
            }
        );
        assert_eq!(
            kind_of(Some(&chart.join("values.yaml")), "yaml"),
            Kind::Chart {
                chart: chart.clone(),
                renders: true
            }
        );
        assert_eq!(kind_of(Some(&chart.join("README.md")), "markdown"), Kind::Other);
        assert_eq!(kind_of(Some(&dir.join("pod.yaml")), "yaml"), Kind::Manifest);
        assert_eq!(kind_of(None, "yaml"), Kind::Manifest);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
