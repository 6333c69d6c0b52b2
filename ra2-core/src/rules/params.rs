//! Typed rule parameters. A tunable rule declares a struct ([`RuleParams`]) that the linter
//! decodes once per run; each value comes from the config's `params`, else the default in the
//! rule's catalogue entry (`rules/<id>.yaml`), the one place defaults are written. Unknown or
//! mistyped parameters in a config file are refused when it is read (see [`crate::config`]).

use std::any::Any;

use crate::catalogue::RuleDoc;
use crate::config::Config;

/// A rule's parameters, decoded once per run.
pub trait RuleParams: Any + Send + Sync + Clone {
    fn decode(params: &mut Params<'_>) -> Self;
}

/// Decodes a rule's parameters (see [`crate::rules::Rule::params`]).
pub type Decoder = fn(&mut Params<'_>) -> Box<dyn Any + Send + Sync>;

/// The [`Decoder`] of `P`.
pub fn decoder<P: RuleParams>(params: &mut Params<'_>) -> Box<dyn Any + Send + Sync> {
    Box::new(P::decode(params))
}

/// Reads one rule's parameters from the config, with the catalogue's defaults.
pub struct Params<'c> {
    rule: &'static str,
    config: &'c Config,
    doc: Option<&'static RuleDoc>,
    /// The names read, in order (to check them against the catalogue).
    pub(crate) read: Vec<&'static str>,
}

impl<'c> Params<'c> {
    pub fn new(rule: &'static str, config: &'c Config) -> Self {
        Params {
            rule,
            config,
            doc: crate::catalogue::get(rule),
            read: Vec::new(),
        }
    }

    /// The configured value when `get` accepts it, else the catalogue default's.
    fn read<T>(&mut self, name: &'static str, get: impl Fn(&serde_json::Value) -> Option<T>) -> Option<T> {
        self.read.push(name);
        self.config
            .param(self.rule, name)
            .and_then(&get)
            .or_else(|| get(&self.doc?.param(name)?.default.to_value()))
    }

    pub fn string(&mut self, name: &'static str) -> String {
        self.read(name, |v| v.as_str().map(str::to_owned)).unwrap_or_default()
    }

    pub fn boolean(&mut self, name: &'static str) -> bool {
        self.read(name, serde_json::Value::as_bool).unwrap_or(false)
    }

    pub fn integer(&mut self, name: &'static str) -> Option<u64> {
        self.read(name, serde_json::Value::as_u64)
    }

    pub fn list(&mut self, name: &'static str) -> Vec<String> {
        self.read(name, |v| {
            v.as_array()
                .map(|items| items.iter().filter_map(|i| i.as_str().map(str::to_owned)).collect())
        })
        .unwrap_or_default()
    }

    /// A quantity written as a number or a string.
    pub fn quantity(&mut self, name: &'static str) -> Option<crate::k8s::quantity::Quantity> {
        self.read(name, |v| {
            let text = match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Number(n) => n.to_string(),
                _ => return None,
            };
            crate::k8s::quantity::Quantity::parse_json_text(&text).ok()
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use super::Params;
    use crate::Config;

    /// Every parameter the code reads has a catalogue entry (with its default), and every
    /// catalogued parameter is read.
    #[test]
    fn code_and_catalogue_name_the_same_parameters() {
        let config = Config::default();
        let mut read: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for rule in crate::rules::RULES {
            if let Some(decode) = rule.params {
                let mut params = Params::new(rule.id, &config);
                decode(&mut params);
                read.entry(rule.id).or_default().extend(params.read);
            }
        }
        for (rule, name) in crate::k8s::devices::PARAMS {
            read.entry(rule).or_default().insert(name);
        }
        let mut catalogued: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for doc in crate::catalogue::all() {
            for param in doc.params {
                catalogued.entry(doc.id).or_default().insert(param.name);
            }
        }
        assert_eq!(read, catalogued);
    }
}
