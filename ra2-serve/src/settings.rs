//! The admission settings: the `.ra2.yaml` schema (`--config`), read at start and again on
//! SIGHUP or when the file changes. A new file that does not validate is refused with its
//! errors and the settings in use are kept.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::SystemTime;

use ra2_core::Config;
use ra2_core::doc::LimitOverrides;

/// Reads and validates a config file.
pub fn load(path: &Path) -> Result<Config, String> {
    let name = path.to_string_lossy();
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read config file {name}: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("config file {name} is not UTF-8"))?;
    Config::from_yaml(&text, &name)
        .map_err(|errors| errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))
}

/// The settings in use, swapped on reload.
#[derive(Debug)]
pub struct Settings {
    path: Option<PathBuf>,
    overrides: LimitOverrides,
    current: RwLock<Arc<Config>>,
    stamp: RwLock<Option<SystemTime>>,
}

impl Settings {
    /// The defaults (no `--config`), or the file's settings; an error here stops the server
    /// from starting. The limits set on the command line replace the file's, now and on every
    /// reload.
    pub fn new(path: Option<&Path>, overrides: LimitOverrides) -> Result<Settings, String> {
        let mut config = path.map(load).transpose()?.unwrap_or_default();
        overrides.apply(&mut config.limits);
        Ok(Settings {
            path: path.map(Path::to_path_buf),
            overrides,
            current: RwLock::new(Arc::new(config)),
            stamp: RwLock::new(path.and_then(modified)),
        })
    }

    /// The settings requests are judged with.
    pub fn current(&self) -> Arc<Config> {
        self.current
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// The config file, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Reloads the file now (SIGHUP). `None` without a config file.
    pub fn reload(&self) -> Option<Result<(), String>> {
        let path = self.path.as_deref()?;
        *self.stamp.write().unwrap_or_else(std::sync::PoisonError::into_inner) = modified(path);
        Some(load(path).map(|mut config| {
            self.overrides.apply(&mut config.limits);
            *self.current.write().unwrap_or_else(std::sync::PoisonError::into_inner) = Arc::new(config);
        }))
    }

    /// Reloads when the file changed since the last look.
    pub fn reload_if_changed(&self) -> Option<Result<(), String>> {
        let path = self.path.as_deref()?;
        let now = modified(path);
        if now == *self.stamp.read().unwrap_or_else(std::sync::PoisonError::into_inner) {
            return None;
        }
        self.reload()
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ra2_core::FailOn;

    #[test]
    fn a_bad_new_config_is_refused_and_the_old_kept() {
        let d = std::env::temp_dir().join(format!("ra2-serve-settings-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let path = d.join(".ra2.yaml");
        std::fs::write(&path, "fail-on: warning\n").unwrap();
        let settings = Settings::new(Some(&path), LimitOverrides::default()).unwrap();
        assert_eq!(settings.current().fail_on, FailOn::Warning);
        assert!(settings.reload_if_changed().is_none());

        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&path, "fail-on: never\n").unwrap();
        assert_eq!(settings.reload_if_changed(), Some(Ok(())));
        assert_eq!(settings.current().fail_on, FailOn::Never);

        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&path, "fail-on: sometimes\nno-such-key: 1\n").unwrap();
        let err = settings.reload_if_changed().unwrap().unwrap_err();
        assert!(err.contains(".ra2.yaml"), "{err}");
        assert_eq!(settings.current().fail_on, FailOn::Never);
        // SIGHUP on the same bad file: still refused, still the old settings.
        assert!(settings.reload().unwrap().is_err());
        assert_eq!(settings.current().fail_on, FailOn::Never);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn no_config_file_means_the_defaults_and_nothing_to_reload() {
        let settings = Settings::new(None, LimitOverrides::default()).unwrap();
        assert_eq!(settings.current().fail_on, FailOn::Error);
        assert!(settings.reload().is_none());
        assert!(Settings::new(Some(Path::new("/nonexistent/.ra2.yaml")), LimitOverrides::default()).is_err());
    }
}
