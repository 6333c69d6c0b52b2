//! The run's configuration: `.ra2.yaml` (given, or found in the working directory or a
//! parent), then the command line on top of it, with rule selectors checked against the
//! catalogue.

use std::path::{Path, PathBuf};

use ra2_core::Config;
use ra2_core::catalogue;
use ra2_core::config::{SCHEMA_CHECKS, SCHEMA_RULE, strsim};

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
    let mut config = match path {
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
    let mut problems = Vec::new();
    problems.extend(check_selectors(&args.select, "--select"));
    problems.extend(check_selectors(&args.ignore, "--ignore"));
    if !problems.is_empty() {
        return Err(problems);
    }
    if let Some(edition) = args.edition {
        config.edition = edition.into();
    }
    if let Some(fail_on) = args.fail_on {
        config.fail_on = fail_on.into();
    }
    if args.strict {
        config.strict = true;
    }
    args.limits.overrides().apply(&mut config.limits);
    if args.skip_non_k8s {
        config.skip_non_k8s = true;
    }
    let clean = |list: &[String]| -> Vec<String> {
        list.iter()
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .collect()
    };
    if !args.select.is_empty() {
        config.select = clean(&args.select);
    }
    if !args.ignore.is_empty() {
        config.ignore = clean(&args.ignore);
    }
    Ok(config)
}

/// The closest candidate within a few edits, for "did you mean" hints.
pub fn near_miss<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim(word, c), c))
        .filter(|&(d, c)| d <= 2.max(c.len() / 4))
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// Is this selector an id, an id prefix, `id/check`, or a built-in pseudo-rule? The same
/// test `.ra2.yaml` gets.
fn known_selector(selector: &str) -> bool {
    let docs = catalogue::all();
    match selector.split_once('/') {
        Some((rule, check)) if rule == SCHEMA_RULE => SCHEMA_CHECKS.contains(&check),
        Some((rule, check)) => catalogue::get(rule).is_some_and(|d| d.check(check).is_some()),
        None => {
            matches!(selector, "yaml" | "suppression" | "exemption" | SCHEMA_RULE)
                || docs
                    .iter()
                    .map(|d| d.id)
                    .any(|id| id == selector || id.strip_prefix(selector).is_some_and(|rest| rest.starts_with('.')))
        }
    }
}

/// A "did you mean" suffix for an unknown rule id or `id/check`.
pub fn hint(selector: &str) -> String {
    let docs = catalogue::all();
    let suggestion = match selector.split_once('/') {
        Some((rule, check)) => match catalogue::get(rule) {
            Some(doc) => near_miss(check, doc.checks.iter().map(|c| c.slug)).map(|c| format!("{rule}/{c}")),
            None => near_miss(rule, docs.iter().map(|d| d.id)).map(|r| format!("{r}/{check}")),
        },
        None => near_miss(selector, docs.iter().map(|d| d.id)).map(str::to_owned),
    };
    match suggestion {
        Some(s) => format!(" (did you mean {s:?}?)"),
        None => " (`ra2 rules` lists them)".to_owned(),
    }
}

fn check_selectors(selectors: &[String], flag: &str) -> Vec<String> {
    selectors
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty() && !known_selector(s))
        .map(|s| format!("error: unknown rule {s:?} in {flag}{}", hint(s)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors() {
        assert!(known_selector("ra2.app.007"));
        assert!(known_selector("ra2.app"));
        assert!(known_selector("ra2"));
        assert!(known_selector("ra2.app.007/host-path"));
        assert!(known_selector("yaml"));
        assert!(known_selector("schema"));
        assert!(known_selector("schema/unknown-field"));
        assert!(!known_selector("schema/unknown"));
        assert!(!known_selector("ra2.ap"));
        assert!(!known_selector("ra2.app.007/hostpath"));
        assert_eq!(hint("ra2.app.07"), " (did you mean \"ra2.app.007\"?)");
        assert_eq!(
            hint("ra2.app.007/hostpath"),
            " (did you mean \"ra2.app.007/host-path\"?)"
        );
    }
}
