//! The run's configuration: `.ra2.yaml` (ra2_input::config), then the command line on top of it
//! (ra2_core::settings).

use ra2_core::Config;
use ra2_core::settings::{Overrides, suggest};

use crate::Options;

/// Reads the configuration for `ra2 lint` (`--config`, else the `.ra2.yaml` found from the
/// working directory up, unless `--no-config`) and applies the command line to it. Errors are
/// lines for standard error (`file:line:column: message` for config problems).
pub fn load(args: &Options) -> Result<Config, Vec<String>> {
    let config = if args.no_config {
        Config::default()
    } else {
        ra2_input::config::load(args.config.as_deref()).map_err(|e| e.lines())?
    };
    let overrides = Overrides {
        edition: args.edition,
        fail_on: args.fail_on,
        strict: args.strict,
        skip_non_k8s: args.skip_non_k8s,
        select: (!args.select.is_empty()).then(|| args.select.clone()),
        ignore: (!args.ignore.is_empty()).then(|| args.ignore.clone()),
        limits: args.limits,
    };
    let mut config = overrides.apply(config).map_err(|unknown| {
        unknown
            .iter()
            .map(|u| format!("error: {} in --{}{}", u.message(), u.option, u.hint(NO_SUGGESTION)))
            .collect::<Vec<_>>()
    })?;
    config.today = Some(today()?);
    Ok(config)
}

/// Today's date (UTC), against which waivers' expiry dates are judged: `SOURCE_DATE_EPOCH`
/// (seconds since 1970, for reproducible runs) when set, else the system clock.
pub fn today() -> Result<String, Vec<String>> {
    let seconds: i64 = match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(epoch) => epoch.trim().parse().map_err(|_| {
            vec![format!(
                "error: SOURCE_DATE_EPOCH must be seconds since 1970, found {epoch:?}"
            )]
        })?,
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::SystemTime::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX)),
    };
    Ok(ra2_core::config::date_of_day(seconds.div_euclid(86_400)))
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
