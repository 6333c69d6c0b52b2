//! The rules a run uses: selected once per config (shared between the linters of one run and,
//! under the default config, between runs), with their catalogue entries and decoded parameters.

use std::sync::{Arc, OnceLock};

use crate::catalogue::Edition;
use crate::config::Config;
use crate::rules::{Checks, Collect, RULES, Settle};

/// The checks a run uses, each with its rule's id and catalogue entry and its decoded
/// parameters (same order).
#[derive(Debug)]
pub(super) struct RuleSet {
    pub(super) rules: Vec<Running>,
    pub(super) docs: Vec<Option<&'static crate::catalogue::RuleDoc>>,
    /// Decoded once for the run, or the shared catalogue defaults.
    pub(super) params: Vec<Option<crate::rules::params::Decoded>>,
    /// The registry's [`Checks::collect`] hooks, of every rule (run or not), in registry order.
    pub(super) collect: Vec<Collect>,
    /// The registry's [`Checks::settle`] hooks, of every rule (run or not), in registry order.
    pub(super) settle: Vec<Settle>,
}

impl RuleSet {
    /// The rules `config` runs. A config that selects, ignores and sets no parameter (every
    /// admission decision under the default config) shares one set per edition, made once per
    /// process: each decision used to build it again.
    pub(super) fn of(config: &Config) -> Arc<RuleSet> {
        static DEFAULT: [OnceLock<Arc<RuleSet>>; 2] = [OnceLock::new(), OnceLock::new()];
        let slot = match config.edition {
            Edition::Base => DEFAULT.first(),
            Edition::Latest => DEFAULT.get(1),
        };
        match slot {
            Some(slot) if config.select.is_empty() && config.ignore.is_empty() && config.params.is_empty() => {
                Arc::clone(slot.get_or_init(|| Arc::new(RuleSet::new(config))))
            }
            _ => Arc::new(RuleSet::new(config)),
        }
    }

    fn new(config: &Config) -> RuleSet {
        let edition_bit = 1 << config.edition as u8;
        let mut set = RuleSet {
            rules: Vec::with_capacity(crate::rules::PARTS),
            docs: Vec::with_capacity(crate::rules::PARTS),
            params: Vec::with_capacity(crate::rules::PARTS),
            collect: Vec::new(),
            settle: Vec::new(),
        };
        // Each part's index over the whole registry, which the shared default parameters use.
        let mut part = 0;
        for ((rule, bits), doc) in RULES.iter().zip(RULE_EDITIONS.iter()).zip(RULE_DOCS.iter()) {
            let first = part;
            part += rule.parts.len();
            for checks in rule.parts {
                set.collect.extend(checks.collect);
                set.settle.extend(checks.settle);
            }
            if bits & edition_bit == 0 || !config.rule_enabled(rule.id) {
                continue;
            }
            for (index, checks) in (first..).zip(rule.parts.iter().copied()) {
                set.rules.push(Running { id: rule.id, checks });
                set.docs.push(*doc);
                set.params
                    .push(crate::rules::params::decoded(index, rule.id, checks, *doc, config));
            }
        }
        set
    }
}

/// One [`Checks`] of a rule that runs, and the rule's id.
#[derive(Clone, Copy, Debug)]
pub(super) struct Running {
    pub(super) id: &'static str,
    pub(super) checks: &'static Checks,
}

/// The editions each rule of [`RULES`] runs in ([`crate::catalogue::edition_bits`]), in the
/// same order, worked out at compile time: a linter (one per admission request) looks nothing
/// up in the catalogue to choose its rules.
static RULE_EDITIONS: [u8; RULES.len()] = rule_editions();

// Evaluated at compile time only: an index out of range would be a build error, not a panic.
#[allow(clippy::indexing_slicing)]
const fn rule_editions() -> [u8; RULES.len()] {
    let mut bits = [0; RULES.len()];
    let mut i = 0;
    while i < RULES.len() {
        bits[i] = crate::catalogue::edition_bits(RULES[i].id);
        i += 1;
    }
    bits
}

/// The catalogue entry of each rule of [`RULES`], in the same order, found at compile time: the
/// cross-document checks of every run (one per admission request) get theirs without a search.
static RULE_DOCS: [Option<&'static crate::catalogue::RuleDoc>; RULES.len()] = rule_docs();

// Evaluated at compile time only: an index out of range would be a build error, not a panic.
#[allow(clippy::indexing_slicing)]
const fn rule_docs() -> [Option<&'static crate::catalogue::RuleDoc>; RULES.len()] {
    let mut docs = [None; RULES.len()];
    let mut i = 0;
    while i < RULES.len() {
        docs[i] = crate::catalogue::find(RULES[i].id);
        i += 1;
    }
    docs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compile-time table says what the catalogue says.
    #[test]
    fn rule_editions_follow_the_catalogue() {
        assert_eq!(RULE_EDITIONS.len(), RULES.len());
        for (rule, bits) in RULES.iter().zip(RULE_EDITIONS) {
            for edition in Edition::ALL {
                let runs = crate::catalogue::get(rule.id).is_none_or(|d| d.in_edition(edition));
                assert_eq!(bits & (1 << edition as u8) != 0, runs, "{} in {edition:?}", rule.id);
            }
        }
        // Not every rule runs in every edition, so the table is not trivially full.
        assert!(RULE_EDITIONS.iter().any(|b| *b != 0b11));
    }

    #[test]
    fn rule_docs_are_the_catalogues() {
        for (rule, doc) in RULES.iter().zip(RULE_DOCS) {
            assert_eq!(
                doc.map(|d| d.id),
                crate::catalogue::get(rule.id).map(|d| d.id),
                "{}",
                rule.id
            );
        }
        assert!(RULE_DOCS.iter().all(Option::is_some));
    }
}
