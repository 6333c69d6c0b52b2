//! The admission settings: the `.ra2.yaml` schema (`--config`), read at start and again on
//! SIGHUP or when the file changes. A new file that does not validate is refused with its
//! errors and the settings in use are kept.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI64, Ordering};
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
    /// The day (since 1970, UTC) the settings' `today` is: waivers' expiry dates are judged
    /// against it, and it moves on when the date does.
    day: AtomicI64,
}

impl Settings {
    /// The defaults (no `--config`), or the file's settings; an error here stops the server
    /// from starting. The limits set on the command line replace the file's, now and on every
    /// reload.
    pub fn new(path: Option<&Path>, overrides: LimitOverrides) -> Result<Settings, String> {
        let mut config = path.map(load).transpose()?.unwrap_or_default();
        overrides.apply(&mut config.limits);
        let day = today();
        config.today = Some(date(day));
        Ok(Settings {
            path: path.map(Path::to_path_buf),
            overrides,
            current: RwLock::new(Arc::new(config)),
            stamp: RwLock::new(path.and_then(modified)),
            day: AtomicI64::new(day),
        })
    }

    /// The settings requests are judged with (with today's date: a new day gives them a new
    /// `today`, once).
    pub fn current(&self) -> Arc<Config> {
        let day = today();
        if day != self.day.load(Ordering::Relaxed) {
            let mut current = self.current.write().unwrap_or_else(std::sync::PoisonError::into_inner);
            let mut config = (**current).clone();
            config.today = Some(date(day));
            *current = Arc::new(config);
            self.day.store(day, Ordering::Relaxed);
        }
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
            config.today = Some(date(self.day.load(Ordering::Relaxed)));
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

/// Today, as days since 1970-01-01 (UTC).
fn today() -> i64 {
    let seconds = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    i64::try_from(seconds / 86_400).unwrap_or(0)
}

/// A day since 1970-01-01 as `YYYY-MM-DD`.
fn date(day: i64) -> String {
    ra2_core::config::date_of_day(day)
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
    fn the_settings_carry_todays_date_for_waivers() {
        let settings = Settings::new(None, LimitOverrides::default()).unwrap();
        assert_eq!(settings.current().today.as_deref(), Some(date(today()).as_str()));
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(20_818), "2026-12-31");
        // A new day gives the settings a new date.
        settings.day.store(0, Ordering::Relaxed);
        assert_eq!(settings.current().today.as_deref(), Some(date(today()).as_str()));
    }

    #[test]
    fn no_config_file_means_the_defaults_and_nothing_to_reload() {
        let settings = Settings::new(None, LimitOverrides::default()).unwrap();
        assert_eq!(settings.current().fail_on, FailOn::Error);
        assert!(settings.reload().is_none());
        assert!(Settings::new(Some(Path::new("/nonexistent/.ra2.yaml")), LimitOverrides::default()).is_err());
    }
}
