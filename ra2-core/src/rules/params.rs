//! Typed rule parameters. A tunable rule declares a struct ([`RuleParams`]) that the linter
//! decodes once per run; each value comes from the config's `params`, else the default in the
//! rule's catalogue entry (`rules/<id>.yaml`), the one place defaults are written. Unknown or
//! mistyped parameters in a config file are refused when it is read (see [`crate::config`]).

use std::any::Any;
use std::sync::{Arc, OnceLock};

use crate::catalogue::RuleDoc;
use crate::config::Config;
use crate::data::Json;

/// A rule's parameters, decoded once per run.
pub trait RuleParams: Any + Send + Sync + Clone {
    fn decode(params: &mut Params<'_>) -> Self;
}

/// Decodes a rule's parameters (see [`crate::rules::Checks::params`]).
pub type Decoder = fn(&mut Params<'_>) -> Box<dyn Any + Send + Sync>;

/// A rule's decoded parameters, shared by every linter that uses the same values.
pub type Decoded = Arc<dyn Any + Send + Sync>;

/// The parameters of `checks`, the registry's part number `index` (counted over every rule's
/// parts, in registry order) of rule `id` (whose catalogue entry is `doc`), for `config`. A
/// config that sets none of the rule's parameters gets the defaults, decoded once per process
/// (once per instance in WebAssembly) and shared: a linter is made for every admission request.
pub(crate) fn decoded(
    index: usize,
    id: &'static str,
    checks: &'static crate::rules::Checks,
    doc: Option<&'static RuleDoc>,
    config: &Config,
) -> Option<Decoded> {
    let decode = checks.params?;
    if !config.params.contains_key(id) {
        if let Some(Some(shared)) = defaults().get(index) {
            return Some(Arc::clone(shared));
        }
    }
    Some(Arc::from(decode(&mut Params::with_doc(id, doc, config))))
}

/// Every part's parameters as the catalogue's defaults give them (in the order of the parts
/// of [`crate::rules::RULES`]).
fn defaults() -> &'static [Option<Decoded>] {
    static DEFAULTS: OnceLock<Vec<Option<Decoded>>> = OnceLock::new();
    DEFAULTS.get_or_init(|| {
        let config = Config::default();
        crate::rules::RULES
            .iter()
            .flat_map(|rule| rule.parts.iter().map(move |checks| (rule.id, checks)))
            .map(|(id, checks)| {
                let decode = checks.params?;
                Some(Arc::from(decode(&mut Params::new(id, &config))))
            })
            .collect()
    })
}

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
    #[cfg(test)]
    pub(crate) read: Vec<&'static str>,
}

impl<'c> Params<'c> {
    pub fn new(rule: &'static str, config: &'c Config) -> Self {
        Params::with_doc(rule, crate::catalogue::get(rule), config)
    }

    /// [`Params::new`] with the rule's catalogue entry already found.
    pub(crate) fn with_doc(rule: &'static str, doc: Option<&'static RuleDoc>, config: &'c Config) -> Self {
        Params {
            rule,
            config,
            doc,
            #[cfg(test)]
            read: Vec::new(),
        }
    }

    /// The configured value when `get` accepts it, else the catalogue default's. The default
    /// is read where it is compiled in ([`Json`]), without building a `serde_json` value: a
    /// linter (one per admission request) decodes every tunable rule's parameters.
    fn read<T>(&mut self, name: &'static str, get: impl Fn(Param<'c>) -> Option<T>) -> Option<T> {
        #[cfg(test)]
        self.read.push(name);
        self.config
            .param(self.rule, name)
            .and_then(|v| get(Param::Config(v)))
            .or_else(|| get(Param::Default(&self.doc?.param(name)?.default)))
    }

    pub fn string(&mut self, name: &'static str) -> String {
        self.read(name, |v| v.as_str().map(str::to_owned)).unwrap_or_default()
    }

    pub fn boolean(&mut self, name: &'static str) -> bool {
        self.read(name, Param::as_bool).unwrap_or(false)
    }

    pub fn integer(&mut self, name: &'static str) -> Option<u64> {
        self.read(name, Param::as_u64)
    }

    pub fn list(&mut self, name: &'static str) -> Vec<String> {
        self.read(name, Param::strings).unwrap_or_default()
    }

    /// A quantity written as a number or a string.
    pub fn quantity(&mut self, name: &'static str) -> Option<crate::k8s::quantity::Quantity> {
        self.read(name, |v| {
            let text = v.quantity_text()?;
            crate::k8s::quantity::Quantity::parse_json_text(&text).ok()
        })
    }
}

/// A parameter's value: configured (`serde_json`) or the catalogue default (compiled in).
#[derive(Clone, Copy)]
enum Param<'a> {
    Config(&'a serde_json::Value),
    Default(&'a Json),
}

impl<'a> Param<'a> {
    fn as_str(self) -> Option<&'a str> {
        match self {
            Param::Config(v) => v.as_str(),
            Param::Default(j) => j.as_str(),
        }
    }

    fn as_bool(self) -> Option<bool> {
        match self {
            Param::Config(v) => v.as_bool(),
            Param::Default(Json::Bool(b)) => Some(*b),
            Param::Default(_) => None,
        }
    }

    fn as_u64(self) -> Option<u64> {
        match self {
            Param::Config(v) => v.as_u64(),
            Param::Default(j) => j.as_u64(),
        }
    }

    /// The strings of an array (other items skipped).
    fn strings(self) -> Option<Vec<String>> {
        match self {
            Param::Config(v) => v
                .as_array()
                .map(|items| items.iter().filter_map(|i| i.as_str().map(str::to_owned)).collect()),
            Param::Default(j) => j
                .as_array()
                .map(|items| items.iter().filter_map(|i| i.as_str().map(str::to_owned)).collect()),
        }
    }

    /// A quantity's text: a string as it is, a number as `serde_json` writes it.
    fn quantity_text(self) -> Option<String> {
        match self {
            Param::Config(serde_json::Value::String(s)) => Some(s.clone()),
            Param::Config(serde_json::Value::Number(n)) => Some(n.to_string()),
            Param::Default(Json::Str(s)) => Some((*s).to_owned()),
            Param::Default(Json::Int(i)) => Some(i.to_string()),
            Param::Default(j @ Json::Float(_)) => match j.to_value() {
                serde_json::Value::Number(n) => Some(n.to_string()),
                _ => None,
            },
            Param::Config(_) | Param::Default(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use super::{Param, Params};
    use crate::Config;

    /// Every parameter the code reads has a catalogue entry (with its default), and every
    /// catalogued parameter is read.
    #[test]
    fn code_and_catalogue_name_the_same_parameters() {
        let config = Config::default();
        let mut read: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for rule in crate::rules::RULES {
            for decode in rule.parts.iter().filter_map(|checks| checks.params) {
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

    /// A default read where it is compiled in gives what the same value would as configured.
    #[test]
    fn defaults_read_as_configured_values_do() {
        use crate::data::Json;
        let mut samples: Vec<Json> = crate::catalogue::all()
            .iter()
            .flat_map(|doc| doc.params.iter().map(|p| p.default))
            .collect();
        assert!(samples.len() > 5);
        samples.extend([
            Json::Null,
            Json::Bool(true),
            Json::Int(-3),
            Json::Int(7),
            Json::Float(1.5),
            Json::Float(2.0),
            Json::Str("250m"),
            Json::Array(&[Json::Str("a"), Json::Int(1), Json::Str("b")]),
        ]);
        for default in samples {
            let value = default.to_value();
            let (a, b) = (Param::Default(&default), Param::Config(&value));
            assert_eq!(a.as_str(), b.as_str(), "{default}");
            assert_eq!(a.as_bool(), b.as_bool(), "{default}");
            assert_eq!(a.as_u64(), b.as_u64(), "{default}");
            assert_eq!(a.strings(), b.strings(), "{default}");
            assert_eq!(a.quantity_text(), b.quantity_text(), "{default}");
        }
    }

    /// A config that sets none of a rule's parameters shares the decoded defaults; one that sets
    /// any gets its own.
    #[test]
    fn defaults_are_shared_unless_configured() {
        let (index, (rule, checks)) = crate::rules::RULES
            .iter()
            .flat_map(|rule| rule.parts.iter().map(move |checks| (rule, *checks)))
            .enumerate()
            .find(|(_, (r, _))| r.id == "ra2.app.009")
            .expect("ra2.app.009");
        let doc = crate::catalogue::get(rule.id);
        let plain = Config::default();
        let a = super::decoded(index, rule.id, checks, doc, &plain).expect("params");
        let b = super::decoded(index, rule.id, checks, doc, &plain).expect("params");
        assert!(std::sync::Arc::ptr_eq(&a, &b));
        let mut configured = Config::default();
        configured.params.insert(
            rule.id.to_owned(),
            [("network_resources_injector".to_owned(), serde_json::Value::Bool(true))].into(),
        );
        let c = super::decoded(index, rule.id, checks, doc, &configured).expect("params");
        assert!(!std::sync::Arc::ptr_eq(&a, &c));
        let read = |p: &super::Decoded| {
            p.downcast_ref::<crate::rules::accelerators::Params>()
                .map(|p| p.network_resources_injector)
        };
        assert_eq!((read(&a), read(&c)), (Some(false), Some(true)));
    }
}
