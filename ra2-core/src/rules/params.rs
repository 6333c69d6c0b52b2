//! Typed rule parameters. A tunable rule declares a struct ([`RuleParams`]) that the linter
//! decodes once per run; each value comes from the config's `params`, else the default in the
//! rule's catalogue entry (`rules/<id>.yaml`), the one place defaults are written. Unknown or
//! mistyped parameters in a config file are refused when it is read (see [`crate::config`]).

use std::any::Any;
use std::sync::{Arc, OnceLock};

use crate::catalogue::RuleDoc;
use crate::config::Config;
pub use crate::config::params::Params;

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
