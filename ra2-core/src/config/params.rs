//! Reading one rule's parameters: the config's `params`, else the default in the rule's
//! catalogue entry. Shared by the rules' typed parameters ([`crate::rules::params`]) and the
//! device table ([`crate::k8s::devices`]), which reads two rules' patterns.

use crate::catalogue::RuleDoc;
use crate::config::Config;
use crate::data::Json;

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
    use super::Param;

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
}
