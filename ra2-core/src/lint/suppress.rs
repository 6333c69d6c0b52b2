//! Suppression and exemptions: what an object's annotations (`ignore-check.ra2.dev/...`,
//! `ra2.dev/ignore-all`) and the config's exemptions silence, counted in the summary, and the
//! `exemption/unused` findings of exemptions that silenced nothing.

use super::Linter;
use crate::catalogue::{EXEMPTION_RULE, SUPPRESSION_RULE, YAML_RULE};
use crate::model::Object;
use crate::report::{Finding, ObjectRef, Severity, Waiver, WaiverSource};
use crate::rules::finding::finding_on;
use crate::rules::{Pending, Target};

const SUPPRESS_PREFIX: &str = "ignore-check.ra2.dev/";

const SUPPRESS_ALL: &str = "ra2.dev/ignore-all";

/// What an object's annotations suppress (those not expired), with the reasons they give.
#[derive(Clone, Debug, Default)]
pub(super) struct Suppressions {
    /// `ra2.dev/ignore-all`, when present.
    pub(super) all: Option<Waiving>,
    /// `rule` or `rule.check` (as written after the prefix), and what it says.
    pub(super) keys: Vec<(String, Waiving)>,
}

/// An annotation's reason and the expiry date written at its end, if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Waiving {
    pub(super) reason: String,
    pub(super) expires: Option<String>,
}

impl Suppressions {
    /// The annotation that suppresses this check (what it names after the prefix, or
    /// `ra2.dev/ignore-all`), if one does.
    pub(super) fn waiver_for(&self, rule: &str, check: &str) -> Option<(&str, &Waiving)> {
        self.keys
            .iter()
            .find(|(k, _)| k == rule || k.strip_prefix(rule).and_then(|r| r.strip_prefix('.')) == Some(check))
            .map(|(k, w)| (k.as_str(), w))
            .or(self.all.as_ref().map(|w| (SUPPRESS_ALL, w)))
    }
}

/// Splits an annotation's value into its reason and the expiry date at its end:
/// `"vendor agent reads /var/log; expires 2026-12-31"` (also `expires: DATE`, `expires=DATE`,
/// in parentheses or brackets). `Err` when `expires` is written with something that is not a
/// date.
fn reason_and_expiry(value: &str) -> Result<(&str, Option<&str>), String> {
    let trimmed = value.trim();
    let Some(at) = trimmed.to_ascii_lowercase().rfind("expires") else {
        return Ok((trimmed, None));
    };
    let after = trimmed.get(at + "expires".len()..).unwrap_or_default();
    let date = after.trim_start_matches([':', '=', ' ']);
    let rest = date.get(10..).unwrap_or_default();
    let date = date.get(..10).unwrap_or(date);
    if !rest.trim_matches([')', ']', '.', ' ']).is_empty() {
        // `expires` in the middle of the reason's prose is not an expiry.
        return Ok((trimmed, None));
    }
    if !crate::config::valid_date(date) {
        return Err(format!("{date:?} is not a date written YYYY-MM-DD"));
    }
    let reason = trimmed
        .get(..at)
        .unwrap_or_default()
        .trim_end_matches([' ', ';', ',', '(', '[', '-']);
    Ok((reason, Some(date)))
}

/// How an annotation's reason is counted in the summary.
fn reason_text(reason: Option<&str>) -> String {
    match reason.map(str::trim) {
        Some(reason) if !reason.is_empty() => reason.to_owned(),
        _ => "(no reason)".to_owned(),
    }
}

pub(super) fn suppressions_of(
    object: &Object<'_>,
    pod: Option<&crate::model::PodSpec<'_>>,
    target: Target<'_>,
    today: Option<&str>,
    found: &mut Vec<Pending>,
) -> Suppressions {
    let mut out = Suppressions::default();
    // The pod template's annotations too, unless they are the object's own: a Pod's metadata
    // is at `/metadata` when the Pod is the document (in a List it is `/items/N/metadata`, and
    // read a second time, as it always was).
    let template = pod
        .and_then(|p| p.metadata.as_ref().map(|meta| (p.workload, meta)))
        .filter(|(workload, _)| *workload != crate::model::WorkloadKind::Pod || !object.root.pointer().is_empty())
        .and_then(|(_, meta)| meta.get("annotations"));
    let sources = [object.metadata().and_then(|m| m.get("annotations")), template];
    for annotations in sources.into_iter().flatten() {
        for (key, value) in annotations.entries() {
            if key != SUPPRESS_ALL && !key.starts_with(SUPPRESS_PREFIX) {
                continue;
            }
            let (reason, expires) = match value.as_str().map(reason_and_expiry) {
                Some(Ok((reason, expires))) => (Some(reason), expires),
                Some(Err(why)) => {
                    found.push((
                        finding_on(
                            SUPPRESSION_RULE,
                            "bad-expiry",
                            Severity::Warning,
                            format!("suppression {key:?} has an expiry that is not a date: {why}, so it never expires"),
                            Some(
                                "End the annotation's value with `expires YYYY-MM-DD`, the last day it holds."
                                    .to_owned(),
                            ),
                            target,
                            &value,
                        ),
                        target.object_index,
                    ));
                    (value.as_str(), None)
                }
                None => (None, None),
            };
            let lapsed = expires.filter(|e| crate::config::expired(e, today));
            if let Some(date) = lapsed {
                found.push((
                    finding_on(
                        SUPPRESSION_RULE,
                        "expired",
                        Severity::Warning,
                        format!(
                            "suppression {key:?} expired on {date}, so the findings it silenced are reported again"
                        ),
                        Some(
                            "Fix the findings, or renew the waiver with a new date and a reason that still holds."
                                .to_owned(),
                        ),
                        target,
                        &value,
                    ),
                    target.object_index,
                ));
            }
            let waiving = Waiving {
                reason: reason_text(reason),
                expires: expires.map(str::to_owned),
            };
            let what = if key == SUPPRESS_ALL {
                if lapsed.is_none() {
                    out.all = Some(waiving);
                }
                "all rules".to_owned()
            } else if let Some(rest) = key.strip_prefix(SUPPRESS_PREFIX) {
                if lapsed.is_none() {
                    out.keys.push((rest.to_owned(), waiving));
                }
                let known = crate::catalogue::all()
                    .iter()
                    .map(|d| d.id)
                    .chain([crate::config::SCHEMA_RULE])
                    .any(|id| rest == id || rest.strip_prefix(id).is_some_and(|c| c.starts_with('.')));
                if !known {
                    found.push((
    finding_on(SUPPRESSION_RULE, "unknown-rule", Severity::Warning, format!("suppression names unknown rule or check {rest:?}"), Some("Use a rule id such as ra2.app.007, or rule.check such as ra2.app.009.privileged-device.".to_owned()), target, &value),
    target.object_index,
));
                }
                rest.to_owned()
            } else {
                continue;
            };
            if reason.is_none_or(|r| r.trim().is_empty()) {
                found.push((
                    finding_on(
                        SUPPRESSION_RULE,
                        "missing-reason",
                        Severity::Info,
                        format!("suppression of {what} gives no reason"),
                        Some("Write why the exemption is justified as the annotation's value.".to_owned()),
                        target,
                        &value,
                    ),
                    target.object_index,
                ));
            }
        }
    }
    out
}

impl Linter<'_> {
    /// Whether an annotation of object `index` (from Helm template `template`) or a config
    /// exemption silences `finding`; nothing is counted or marked used (see [`Linter::keeps`]).
    pub(super) fn silences(&self, index: usize, template: Option<&str>, finding: &Finding) -> bool {
        let today = self.config.today.as_deref();
        self.suppressions
            .get(index)
            .and_then(Option::as_deref)
            .and_then(|s| s.waiver_for(&finding.rule, &finding.check))
            .is_some()
            || self.config.exemptions.iter().any(|e| {
                e.lapsed(today).is_none() && e.matches_in(&finding.rule, &finding.check, &finding.object, template)
            })
    }

    /// Applies the config's select/ignore, the object's suppression annotations and the
    /// config's exemptions to a finding of object `index` (counting what they silence), and
    /// sets its Helm template: the finding as reported, or `None`.
    pub(super) fn settle(&mut self, mut finding: Finding, index: usize) -> Option<Finding> {
        if !self.keeps(&finding.rule, &finding.check, &finding.object, index) {
            return None;
        }
        if !is_meta(&finding.rule) {
            finding.source_template = self.templates.get(index).and_then(Option::as_deref).map(str::to_owned);
        }
        Some(finding)
    }

    /// Whether a finding of `rule`/`check` on `object` (object index `index`) is reported:
    /// the config's select/ignore, the object's suppression annotations and the config's
    /// exemptions (what they silence is counted, and the exemptions used are marked).
    pub(super) fn keeps(&mut self, rule: &str, check: &str, object: &ObjectRef, index: usize) -> bool {
        let is_meta = is_meta(rule);
        if !self.config.enabled(rule, check) {
            return false;
        }
        let template = if is_meta {
            None
        } else {
            self.templates.get(index).and_then(Option::as_deref)
        };
        let annotated = if is_meta {
            None
        } else {
            self.suppressions
                .get(index)
                .and_then(Option::as_deref)
                .and_then(|s| s.waiver_for(rule, check))
        };
        let today = self.config.today.as_deref();
        let mut exempted: Option<&crate::config::Exemption> = None;
        if !is_meta {
            for (exemption, used) in self.config.exemptions.iter().zip(self.used.iter_mut()) {
                if exemption.lapsed(today).is_none() && exemption.matches_in(rule, check, object, template) {
                    *used = true;
                    exempted = exempted.or(Some(exemption));
                }
            }
        }
        let waiver = match (annotated, exempted) {
            (Some((key, waiving)), _) => Waiver {
                source: WaiverSource::Annotation,
                rule: if key == SUPPRESS_ALL {
                    "*".to_owned()
                } else {
                    key.to_owned()
                },
                object: Some(object.clone()),
                exemption: None,
                reason: waiving.reason.clone(),
                expires: waiving.expires.clone(),
                suppressed: 0,
            },
            (None, Some(exemption)) => Waiver {
                source: WaiverSource::Exemption,
                rule: exemption.rule.clone(),
                object: None,
                exemption: Some(exemption.describe()),
                reason: exemption.reason.clone(),
                expires: exemption.expires.clone(),
                suppressed: 0,
            },
            (None, None) => return true,
        };
        self.report.summary.count_suppressed(&waiver.reason);
        self.report.summary.count_waiver(waiver);
        false
    }
}

impl Linter<'_> {
    /// Did a rule this exemption names run? An exemption for a rule left out by `select`,
    /// `ignore` or the edition is not stale, just idle.
    pub(super) fn could_apply(&self, exemption: &crate::config::Exemption) -> bool {
        let selector = exemption.rule.split('/').next().unwrap_or(&exemption.rule);
        self.rules
            .rules
            .iter()
            .any(|r| crate::config::selector_matches(selector, r.id, ""))
    }
}

/// Findings about the input itself (suppression annotations, YAML), which no suppression or
/// exemption applies to.
pub(super) fn is_meta(rule: &str) -> bool {
    rule == SUPPRESSION_RULE || rule == YAML_RULE
}

/// The `exemption/expired` warning, at the exemption in the config file.
pub(super) fn expired_exemption(
    exemption: &crate::config::Exemption,
    site: &crate::config::ConfigSite,
    date: &str,
) -> Finding {
    Finding {
        check: "expired".to_owned(),
        severity: Severity::Warning,
        message: format!(
            "exemption for {} expired on {date}, so the findings it silenced are reported again",
            exemption.describe()
        ),
        help: "Fix the findings, or renew the exemption with a new date and a reason that still holds.".to_owned(),
        ..unused_exemption(exemption, site)
    }
}

/// The `exemption/unused` finding, at the exemption in the config file.
pub(super) fn unused_exemption(exemption: &crate::config::Exemption, site: &crate::config::ConfigSite) -> Finding {
    Finding {
        rule: EXEMPTION_RULE.to_owned(),
        check: "unused".to_owned(),
        severity: Severity::Info,
        message: format!("exemption for {} matched no finding", exemption.describe()),
        help: "Remove the exemption if it is stale, or fix its rule, kind, namespace, name or template pattern."
            .to_owned(),
        file: site.file.clone(),
        line: site.start.line,
        column: site.start.column,
        end_line: site.end.line,
        end_column: site.end.column,
        document: 0,
        object: ObjectRef::default(),
        pointer: site.pointer.clone(),
        source_template: None,
        template: None,
        related: Vec::new(),
        refused_by_api_server: false,
        named_pointer: None,
        fix: None,
        offset: site.offset,
        len: site.len,
    }
}
