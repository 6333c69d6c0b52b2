//! Settings resolved once for every face: a [`Config`] (from `.ra2.yaml`, JS options or the
//! policy's settings, validated by [`Config::from_yaml`]/[`Config::from_json`]) with a face's own
//! overrides on top (the command line's flags, Python's keyword arguments), their rule selectors
//! checked against the catalogue with a "did you mean".

use crate::catalogue::{self, Edition};
use crate::config::{Config, FailOn, known_selector, near_miss};
use crate::parse::doc::LimitOverrides;

/// What a face sets on top of the configuration. `None` (or `false`) leaves the config's value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    pub edition: Option<Edition>,
    pub fail_on: Option<FailOn>,
    /// `true` turns strict mode on; `false` leaves the config's setting.
    pub strict: bool,
    /// `true` skips files and documents that are not Kubernetes manifests.
    pub skip_non_k8s: bool,
    /// Replace the config's `select`/`ignore`: selectors, trimmed, empty ones dropped.
    pub select: Option<Vec<String>>,
    pub ignore: Option<Vec<String>>,
    pub limits: LimitOverrides,
}

/// A selector in an override that names no rule, check or prefix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSelector {
    /// `select` or `ignore`.
    pub option: &'static str,
    pub selector: String,
    /// The closest rule id or `id/check`, if one is within a few edits.
    pub suggestion: Option<String>,
}

impl UnknownSelector {
    /// `unknown rule "ra2.app.07"` (the face adds where it was given, then [`Self::hint`]).
    pub fn message(&self) -> String {
        format!("unknown rule {:?}", self.selector)
    }

    /// ` (did you mean "ra2.app.007"?)`, or `otherwise` when nothing is close.
    pub fn hint(&self, otherwise: &str) -> String {
        match &self.suggestion {
            Some(s) => format!(" (did you mean {s:?}?)"),
            None => otherwise.to_owned(),
        }
    }
}

impl Overrides {
    /// The config with these overrides on top. Every unknown selector is reported (`select`
    /// first), and nothing is applied when one is.
    pub fn apply(&self, mut config: Config) -> Result<Config, Vec<UnknownSelector>> {
        let clean = |list: &[String]| -> Vec<String> {
            list.iter()
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
                .collect()
        };
        let select = self.select.as_deref().map(clean);
        let ignore = self.ignore.as_deref().map(clean);
        let unknown: Vec<UnknownSelector> = [("select", &select), ("ignore", &ignore)]
            .into_iter()
            .flat_map(|(option, list)| {
                list.iter()
                    .flatten()
                    .filter(|s| !known_selector(s))
                    .map(move |s| UnknownSelector {
                        option,
                        selector: s.clone(),
                        suggestion: suggest(s),
                    })
            })
            .collect();
        if !unknown.is_empty() {
            return Err(unknown);
        }
        if let Some(edition) = self.edition {
            config.edition = edition;
        }
        if let Some(fail_on) = self.fail_on {
            config.fail_on = fail_on;
        }
        config.strict |= self.strict;
        config.skip_non_k8s |= self.skip_non_k8s;
        self.limits.apply(&mut config.limits);
        if let Some(select) = select {
            config.select = select;
        }
        if let Some(ignore) = ignore {
            config.ignore = ignore;
        }
        Ok(config)
    }
}

/// The closest rule id, or `id/check` for a misspelt check, to an unknown selector.
pub fn suggest(selector: &str) -> Option<String> {
    let docs = catalogue::all();
    match selector.split_once('/') {
        Some((rule, check)) => match catalogue::get(rule) {
            Some(doc) => near_miss(check, doc.checks.iter().map(|c| c.slug)).map(|c| format!("{rule}/{c}")),
            None => near_miss(rule, docs.iter().map(|d| d.id)).map(|r| format!("{r}/{check}")),
        },
        None => near_miss(selector, docs.iter().map(|d| d.id)).map(str::to_owned),
    }
}

/// An edition given as text, refused with the config file's message.
pub fn parse_edition(value: &str) -> Result<Edition, String> {
    Edition::parse(value).ok_or_else(|| format!("{value:?} is not one of \"base\", \"latest\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn selectors_are_checked_with_a_suggestion() {
        let overrides = Overrides {
            select: Some(list(&["ra2.app", " ra2.app.07 ", ""])),
            ignore: Some(list(&["ra2.app.007/hostpath", "yaml", "schema/unknown-field", "zzzz"])),
            ..Overrides::default()
        };
        let errors = overrides.apply(Config::default()).unwrap_err();
        let shown: Vec<String> = errors
            .iter()
            .map(|e| format!("{} {}{}", e.option, e.message(), e.hint(" (none)")))
            .collect();
        assert_eq!(
            shown,
            [
                "select unknown rule \"ra2.app.07\" (did you mean \"ra2.app.007\"?)",
                "ignore unknown rule \"ra2.app.007/hostpath\" (did you mean \"ra2.app.007/host-path\"?)",
                "ignore unknown rule \"zzzz\" (none)",
            ]
        );
    }

    #[test]
    fn overrides_replace_the_config_values() {
        let config = Config {
            select: vec!["ra2.app".to_owned()],
            strict: true,
            ..Config::default()
        };
        let overrides = Overrides {
            edition: Some(Edition::Latest),
            fail_on: Some(FailOn::Never),
            ignore: Some(list(&[" ra2.app.007 ", ""])),
            limits: LimitOverrides {
                max_depth: Some(7),
                ..LimitOverrides::default()
            },
            ..Overrides::default()
        };
        let resolved = overrides.apply(config.clone()).unwrap();
        assert_eq!(resolved.edition, Edition::Latest);
        assert_eq!(resolved.fail_on, FailOn::Never);
        assert_eq!(resolved.ignore, ["ra2.app.007"]);
        assert_eq!(resolved.select, ["ra2.app"], "not overridden: the config's");
        assert!(resolved.strict, "false leaves the config's strict mode on");
        assert_eq!(resolved.limits.max_depth, 7);
        assert_eq!(Overrides::default().apply(config.clone()).unwrap(), config);
        assert_eq!(parse_edition("latest"), Ok(Edition::Latest));
        assert_eq!(
            parse_edition("newest").unwrap_err(),
            "\"newest\" is not one of \"base\", \"latest\""
        );
    }
}
