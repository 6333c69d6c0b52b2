//! The run's configuration: `.ra2.yaml` (given, or found in the working directory or a
//! parent), then the command line on top of it, with rule selectors checked against the
//! catalogue.

use std::path::{Path, PathBuf};

use ra2_core::Config;
use ra2_core::settings::{Overrides, suggest};

use crate::cli::LintArgs;

/// The file name looked for in the working directory and its parents.
pub const CONFIG_FILE: &str = ".ra2.yaml";

/// The nearest `.ra2.yaml` at or above `start`.
pub fn discover(start: &Path) -> Option<PathBuf> {
    start.ancestors().map(|dir| dir.join(CONFIG_FILE)).find(|p| p.is_file())
}

/// How a config path is shown in messages: relative when it is in the working directory.
fn display(path: &Path, cwd: Option<&Path>) -> String {
    let shown = cwd.and_then(|cwd| path.strip_prefix(cwd).ok()).unwrap_or(path);
    shown.to_string_lossy().into_owned()
}

/// Reads the configuration for `ra2 lint` and applies the command line to it. Errors are
/// lines for standard error (`file:line:column: message` for config problems).
pub fn load(args: &LintArgs) -> Result<Config, Vec<String>> {
    let cwd = std::env::current_dir().ok();
    let path = if args.no_config {
        None
    } else if let Some(given) = &args.config {
        Some(given.clone())
    } else {
        cwd.as_deref().and_then(discover)
    };
    let config = match path {
        None => Config::default(),
        Some(path) => {
            let name = if args.config.is_some() {
                path.to_string_lossy().into_owned()
            } else {
                display(&path, cwd.as_deref())
            };
            let text = match std::fs::read(&path) {
                Ok(bytes) => {
                    String::from_utf8(bytes).map_err(|_| vec![format!("error: config file {name} is not UTF-8")])?
                }
                Err(e) => return Err(vec![format!("error: cannot read config file {name}: {e}")]),
            };
            Config::from_yaml(&text, &name)
                .map_err(|errors| errors.iter().map(ToString::to_string).collect::<Vec<_>>())?
        }
    };
    let overrides = Overrides {
        edition: args.edition.map(Into::into),
        fail_on: args.fail_on.map(Into::into),
        strict: args.strict,
        skip_non_k8s: args.skip_non_k8s,
        select: (!args.select.is_empty()).then(|| args.select.clone()),
        ignore: (!args.ignore.is_empty()).then(|| args.ignore.clone()),
        limits: args.limits.overrides(),
    };
    overrides.apply(config).map_err(|unknown| {
        unknown
            .iter()
            .map(|u| format!("error: {} in --{}{}", u.message(), u.option, u.hint(NO_SUGGESTION)))
            .collect()
    })
}

/// What an unknown rule's message ends with when no rule is close.
const NO_SUGGESTION: &str = " (`ra2 rules` lists them)";

/// A "did you mean" suffix for an unknown rule id or `id/check`.
pub fn hint(selector: &str) -> String {
    match suggest(selector) {
        Some(s) => format!(" (did you mean {s:?}?)"),
        None => NO_SUGGESTION.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints() {
        assert_eq!(hint("ra2.app.07"), " (did you mean \"ra2.app.007\"?)");
        assert_eq!(
            hint("ra2.app.007/hostpath"),
            " (did you mean \"ra2.app.007/host-path\"?)"
        );
        assert_eq!(hint("zzzz"), NO_SUGGESTION);
    }
}
