//! What both wasm faces share: options and settings into a [`Config`] (the `.ra2.yaml` schema,
//! validated by `ra2_core`), and the calls they expose, on strings and JSON values.

use ra2_core::catalogue::{self, Edition, RuleDoc};
use ra2_core::{Config, ConfigError, Report};
use serde_json::Value;

/// The key of the JS options that is not a `.ra2.yaml` key: the name findings carry as `file`.
pub const FILENAME_OPTION: &str = "filename";
/// The `file` of findings when no filename is given.
pub const DEFAULT_FILENAME: &str = "<input>";

/// Lint options: the configuration and the name of the text.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub config: Config,
    pub filename: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            config: Config::default(),
            filename: DEFAULT_FILENAME.to_owned(),
        }
    }
}

impl Options {
    /// Options given as an object: the `.ra2.yaml` keys plus `filename`. `null` means the
    /// defaults.
    pub fn from_json(value: &Value) -> Result<Options, String> {
        let mut value = value.clone();
        let mut filename = DEFAULT_FILENAME.to_owned();
        if let Value::Object(map) = &mut value {
            match map.remove(FILENAME_OPTION) {
                None | Some(Value::Null) => {}
                Some(Value::String(name)) => filename = name,
                Some(other) => {
                    return Err(format!(
                        "invalid ra2 options: /{FILENAME_OPTION}: expected string, found {}",
                        json_type(&other)
                    ));
                }
            }
        } else if !value.is_null() {
            return Err(format!(
                "invalid ra2 options: expected an object with .ra2.yaml keys or the text of a .ra2.yaml file, found {}",
                json_type(&value)
            ));
        }
        let config = settings_from_json(&value, "ra2 options")?;
        Ok(Options { config, filename })
    }

    /// Options given as the text of a `.ra2.yaml` file.
    pub fn from_yaml(text: &str) -> Result<Options, String> {
        let config = Config::from_yaml(text, ".ra2.yaml").map_err(|errors| {
            let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
            format!("invalid ra2 options: {}", lines.join("; "))
        })?;
        supported(&config, "ra2 options")?;
        Ok(Options {
            config,
            ..Options::default()
        })
    }
}

/// Settings as a JSON value (JS options, policy settings) into a [`Config`]; the error names
/// each offending value by its pointer: `invalid ra2 options: /fail-on: "x" is not one of ...`.
pub fn settings_from_json(value: &Value, what: &str) -> Result<Config, String> {
    let config = Config::from_json(value, what).map_err(|errors| format!("invalid {what}: {}", describe(&errors)))?;
    supported(&config, what)?;
    Ok(config)
}

/// Refuses a setting this build cannot honour, rather than ignoring it: strict mode needs the
/// Kubernetes OpenAPI schemas (`ra2-strict`), which the WebAssembly builds leave out for size.
fn supported(config: &Config, what: &str) -> Result<(), String> {
    if config.strict {
        return Err(format!(
            "invalid {what}: /strict: strict mode is not available in the WebAssembly build (it needs the Kubernetes schemas); use `ra2 lint --strict` or Python's ra2.lint(..., config={{\"strict\": true}})"
        ));
    }
    Ok(())
}

/// Config errors as `pointer: message` parts joined by `; `.
pub fn describe(errors: &[ConfigError]) -> String {
    let parts: Vec<String> = errors
        .iter()
        .map(|e| {
            if e.pointer.is_empty() {
                e.message.clone()
            } else {
                format!("{}: {}", e.pointer, e.message)
            }
        })
        .collect();
    parts.join("; ")
}

/// Lints one text.
pub fn lint(text: &str, options: &Options) -> Report {
    ra2_core::lint_str(&options.filename, text, &options.config)
}

/// One edit of a text, in UTF-16 code units (what JavaScript strings and editors count).
#[derive(Debug, PartialEq, Eq)]
pub struct Utf16Edit {
    pub from: usize,
    pub to: usize,
    pub insert: String,
}

/// The edits of the fix of finding number `index` of [`lint`]'s report on the same text and
/// options, as `ra2 lsp` offers it as a quick fix ([`ra2_core::fix::edits_of`]).
pub fn fix_edits(text: &str, index: usize, options: &Options) -> Result<Vec<Utf16Edit>, String> {
    let report = lint(text, options);
    let finding = report
        .findings
        .get(index)
        .ok_or_else(|| format!("there is no finding {index} ({} findings)", report.findings.len()))?;
    if finding.fix.is_none() {
        return Err(format!("{}/{} has no fix", finding.rule, finding.check));
    }
    let edits = ra2_core::fix::edits_of(text, finding, options.config.limits)?;
    let utf16 = |byte: usize| text.get(..byte).map_or(0, |t| t.encode_utf16().count());
    Ok(edits
        .into_iter()
        .map(|e| Utf16Edit {
            from: utf16(e.start),
            to: utf16(e.end),
            insert: e.text,
        })
        .collect())
}

impl Utf16Edit {
    /// `{from, to, insert}`.
    pub fn to_json(&self) -> Value {
        serde_json::json!({"from": self.from, "to": self.to, "insert": self.insert})
    }
}

/// The rule documents of an edition (`base` when `None`), in id order: what `ra2 rules
/// --format json` prints.
pub fn rules(edition: Option<&str>) -> Result<Vec<&'static RuleDoc>, String> {
    let edition = match edition {
        None => Edition::default(),
        Some(name) => {
            Edition::parse(name).ok_or_else(|| format!("unknown edition {name:?} (expected base or latest)"))?
        }
    };
    Ok(catalogue::all().iter().filter(|d| d.in_edition(edition)).collect())
}

/// The ra2 version.
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// `a string`, `an array`: for messages about JSON values.
pub use ra2_core::words::json_type;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fix_edits_count_utf16_and_fix_only_their_finding() {
        // A comment with characters outside ASCII (é: 2 bytes, 1 unit; 🚀: 4 bytes, 2 units)
        // before the edit: its offsets are those of a JavaScript string.
        let text = "# café 🚀\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: a\n    image: r/a:1\n";
        let options = Options::default();
        let report = lint(text, &options);
        let index = report
            .findings
            .iter()
            .position(|f| f.check == "privilege-escalation")
            .unwrap();
        let edits = fix_edits(text, index, &options).unwrap();
        let mut fixed: Vec<u16> = text.encode_utf16().collect();
        for edit in edits.iter().rev() {
            fixed.splice(edit.from..edit.to, edit.insert.encode_utf16());
        }
        let fixed = String::from_utf16(&fixed).unwrap();
        assert!(
            fixed.starts_with("# café 🚀\n") && fixed.ends_with("      allowPrivilegeEscalation: false\n"),
            "{fixed}"
        );
        let after = lint(&fixed, &options);
        assert!(!after.findings.iter().any(|f| f.check == "privilege-escalation"));
        assert_eq!(after.findings.len(), report.findings.len() - 1);
        assert!(
            fix_edits(text, 999, &options)
                .unwrap_err()
                .contains("there is no finding 999")
        );
        let unfixable = report.findings.iter().position(|f| f.fix.is_none()).unwrap();
        assert!(
            fix_edits(text, unfixable, &options)
                .unwrap_err()
                .ends_with("has no fix")
        );
    }

    #[test]
    fn options_are_the_config_keys_plus_filename() {
        let options = Options::from_json(&json!({"edition": "latest", "filename": "cnf.yaml"})).unwrap();
        assert_eq!(options.config.edition, Edition::Latest);
        assert_eq!(options.filename, "cnf.yaml");
        assert_eq!(Options::from_json(&Value::Null).unwrap(), Options::default());
    }

    #[test]
    fn bad_options_name_the_value() {
        let error = Options::from_json(&json!({"fail-on": "sometimes", "edition": 2})).unwrap_err();
        assert_eq!(
            error,
            "invalid ra2 options: /edition: 2 is not one of \"base\", \"latest\"; \
             /fail-on: \"sometimes\" is not one of \"error\", \"warning\", \"info\", \"never\""
        );
        assert_eq!(
            Options::from_json(&json!({"ignore": ["ra2.app.07"]})).unwrap_err(),
            "invalid ra2 options: /ignore/0: unknown rule \"ra2.app.07\" (did you mean \"ra2.app.007\"?)"
        );
        assert_eq!(
            Options::from_json(&json!({"filename": 3})).unwrap_err(),
            "invalid ra2 options: /filename: expected string, found a number"
        );
        assert!(Options::from_json(&json!([1])).unwrap_err().ends_with("found an array"));
        // A setting this build cannot honour is refused, never silently ignored.
        for error in [
            Options::from_json(&json!({"strict": true})).unwrap_err(),
            Options::from_yaml("strict: true\n").unwrap_err(),
        ] {
            assert!(
                error.starts_with("invalid ra2 options: /strict: strict mode is not available"),
                "{error}"
            );
        }
        assert!(Options::from_json(&json!({"strict": false})).is_ok());
    }

    #[test]
    fn options_as_yaml_text_report_lines() {
        let error = Options::from_yaml("edition: base\nfail-on: sometimes\n").unwrap_err();
        assert!(error.starts_with("invalid ra2 options: .ra2.yaml:2:"), "{error}");
        assert_eq!(
            Options::from_yaml("select: ra2.app.007\n").unwrap().config.select,
            ["ra2.app.007"]
        );
    }

    #[test]
    fn rules_follow_the_edition() {
        let base = rules(None).unwrap();
        assert!(base.iter().any(|d| d.id == "ra2.app.001"));
        assert!(rules(Some("latest")).unwrap().iter().all(|d| d.id != "ra2.app.001"));
        assert_eq!(
            rules(Some("new")).unwrap_err(),
            "unknown edition \"new\" (expected base or latest)"
        );
    }
}
