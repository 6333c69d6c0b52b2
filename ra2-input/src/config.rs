//! `.ra2.yaml`: the file given, or the one found in the working directory or a parent, read
//! and validated into a [`Config`]. Every face that reads files (`ra2 lint`, `ra2 rules`,
//! Python's `lint_paths`) looks it up the same way.

use std::path::{Path, PathBuf};

use ra2_core::{Config, ConfigError};

/// The file name looked for in the working directory and its parents.
pub const CONFIG_FILE: &str = ".ra2.yaml";

/// The nearest `.ra2.yaml` at or above `start`.
pub fn discover(start: &Path) -> Option<PathBuf> {
    start.ancestors().map(|dir| dir.join(CONFIG_FILE)).find(|p| p.is_file())
}

/// Why a config file gave no configuration.
#[derive(Debug)]
pub enum ConfigFileError {
    Read { name: String, error: std::io::Error },
    NotUtf8 { name: String },
    Invalid(Vec<ConfigError>),
}

impl ConfigFileError {
    /// Lines for standard error (`file:line:column: message` for config problems).
    pub fn lines(&self) -> Vec<String> {
        match self {
            ConfigFileError::Read { name, error } => vec![format!("error: cannot read config file {name}: {error}")],
            ConfigFileError::NotUtf8 { name } => vec![format!("error: config file {name} is not UTF-8")],
            ConfigFileError::Invalid(errors) => errors.iter().map(ToString::to_string).collect(),
        }
    }
}

/// Reads and validates a config file; `name` is how messages and findings name it.
pub fn read(path: &Path, name: &str) -> Result<Config, ConfigFileError> {
    let bytes = std::fs::read(path).map_err(|error| ConfigFileError::Read {
        name: name.to_owned(),
        error,
    })?;
    let text = String::from_utf8(bytes).map_err(|_| ConfigFileError::NotUtf8 { name: name.to_owned() })?;
    let mut config = Config::from_yaml(&text, name).map_err(ConfigFileError::Invalid)?;
    // `baseline:` is relative to the config file, wherever ra2 runs from.
    if let (Some(file), Some(dir)) = (&mut config.baseline, path.parent()) {
        if Path::new(file.as_str()).is_relative() && !dir.as_os_str().is_empty() {
            *file = dir.join(&*file).to_string_lossy().into_owned();
        }
    }
    Ok(config)
}

/// The configuration of a run: the file `given` (named as given), else the `.ra2.yaml` found
/// from the working directory up (named relative to it), else the defaults.
pub fn load(given: Option<&Path>) -> Result<Config, ConfigFileError> {
    if let Some(path) = given {
        return read(path, &path.to_string_lossy());
    }
    let cwd = std::env::current_dir().ok();
    match cwd.as_deref().and_then(discover) {
        None => Ok(Config::default()),
        Some(path) => {
            let shown = cwd
                .as_deref()
                .and_then(|cwd| path.strip_prefix(cwd).ok())
                .unwrap_or(&path);
            read(&path, &shown.to_string_lossy())
        }
    }
}
