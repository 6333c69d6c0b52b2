//! `--format policyreport` and `--format openreports` of `ra2 lint` and `ra2 audit`: the report
//! as `wgpolicyk8s.io` PolicyReports or `openreports.io` Reports ([`ra2_report::policyreport`])
//! for `kubectl create -f`. What the command adds
//! to the renderer: the time of the run (or `SOURCE_DATE_EPOCH`), paths relative to the source
//! root, and for `ra2 audit` the uid of each object as the API server listed it.

use std::collections::BTreeMap;

use ra2_core::{FailOn, ObjectRef, Report};
use serde_json::Value;

use crate::Options;
use crate::{EXIT_ERROR, exit_status, warn};

/// Every result's timestamp: `SOURCE_DATE_EPOCH` when set (the reproducible-builds
/// convention: the same input then gives the same bytes), else the time of the run.
fn timestamp() -> Result<i64, String> {
    match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(text) => text
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|s| (0..=253_402_300_799).contains(s))
            .ok_or_else(|| {
                format!("SOURCE_DATE_EPOCH={text:?} is not a number of seconds since 1970 (up to year 9999)")
            }),
        Err(std::env::VarError::NotPresent) => Ok(std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))),
        Err(std::env::VarError::NotUnicode(_)) => {
            Err("SOURCE_DATE_EPOCH is not a number of seconds since 1970".to_owned())
        }
    }
}

/// The policy reports of `report` (paths relative to the source root), or why not.
pub fn render(
    args: &Options,
    report: &Report,
    fail_on: FailOn,
    uids: Option<&BTreeMap<ObjectRef, String>>,
) -> Result<String, String> {
    let mut report = report.clone();
    crate::source_root::SourceRoot::new(args.source_root.as_deref()).rebase(&mut report);
    let options = ra2_report::policyreport::Options {
        api: args.format.report_api().unwrap_or_default(),
        fail_on,
        timestamp: timestamp()?,
        uids,
    };
    Ok(ra2_report::policyreport::render(&report, &options))
}

/// Writes the policy reports to standard output; the exit status of the run.
pub fn output(args: &Options, report: &Report, fail_on: FailOn, uids: Option<&BTreeMap<ObjectRef, String>>) -> u8 {
    match render(args, report, fail_on, uids) {
        Ok(text) => {
            let mut out = std::io::stdout().lock();
            let _ = std::io::Write::write_all(&mut out, text.as_bytes()).and_then(|()| std::io::Write::flush(&mut out));
            exit_status(report, fail_on)
        }
        Err(why) => {
            warn(&[format!("error: {why}")]);
            EXIT_ERROR
        }
    }
}

/// The uid of every object in `ra2 audit`'s listings (`kind: List` JSON documents separated by
/// `---`), by the object reference its findings carry.
pub fn uids(files: &[(String, String)]) -> BTreeMap<ObjectRef, String> {
    let mut uids = BTreeMap::new();
    for (_, text) in files {
        for page in text.split("\n---\n") {
            let Ok(list) = serde_json::from_str::<Value>(page) else {
                continue;
            };
            let Some(items) = list.get("items").and_then(Value::as_array) else {
                continue;
            };
            for item in items {
                let string = |pointer: &str| item.pointer(pointer).and_then(Value::as_str).map(str::to_owned);
                if let Some(uid) = string("/metadata/uid") {
                    let object = ObjectRef {
                        api_version: string("/apiVersion"),
                        kind: string("/kind"),
                        namespace: string("/metadata/namespace"),
                        name: string("/metadata/name"),
                    };
                    uids.insert(object, uid);
                }
            }
        }
    }
    uids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uids_of_listed_objects() {
        let page = |name: &str, uid: &str| {
            serde_json::json!({"apiVersion": "v1", "kind": "List", "items": [
                {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "core", "uid": uid}},
                {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "no-uid", "namespace": "core"}},
            ]})
            .to_string()
        };
        let files = vec![(
            "https://127.0.0.1/api/v1/pods".to_owned(),
            format!("{}\n---\n{}\n", page("a", "u-a"), page("b", "u-b")),
        )];
        let uids = uids(&files);
        assert_eq!(uids.len(), 2);
        let b = ObjectRef {
            api_version: Some("v1".to_owned()),
            kind: Some("Pod".to_owned()),
            namespace: Some("core".to_owned()),
            name: Some("b".to_owned()),
        };
        assert_eq!(uids.get(&b).map(String::as_str), Some("u-b"));
    }
}
