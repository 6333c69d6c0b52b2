//! Waivers that expire: suppression annotations whose value ends with `expires YYYY-MM-DD` and
//! exemptions with `expires:` hold through that day; after it they stop suppressing and a
//! warning names them and the date. The waivers in force are listed in the summary.

use ra2_core::{Config, Report, WaiverSource};

const POD: &str = "apiVersion: v1
kind: Pod
metadata:
  name: agent
  namespace: ops
  annotations:
    ignore-check.ra2.dev/ra2.app.007: \"reads /var/log for the vendor; expires 2026-12-31\"
spec:
  volumes: [{name: logs, hostPath: {path: /var/log}}]
  containers: [{name: a, image: r/a:1}]
";

fn lint(text: &str, today: &str, exemptions: &str) -> Report {
    let mut config = Config::from_yaml(exemptions, ".ra2.yaml").expect("config");
    config.today = Some(today.to_owned());
    ra2_core::lint_str("pod.yaml", text, &config)
}

fn checks(report: &Report, rule: &str) -> Vec<String> {
    report
        .findings
        .iter()
        .filter(|f| f.rule == rule)
        .map(|f| format!("{}:{}", f.check, f.line))
        .collect()
}

#[test]
fn an_annotation_holds_through_its_date_then_reports_again() {
    let held = lint(POD, "2026-12-31", "{}");
    assert_eq!(checks(&held, "ra2.app.007"), Vec::<String>::new());
    assert_eq!(checks(&held, "suppression"), Vec::<String>::new());
    assert_eq!(held.summary.suppressed, 1);
    let [waiver] = held.summary.waivers.as_slice() else {
        panic!("{:?}", held.summary.waivers)
    };
    assert_eq!(waiver.source, WaiverSource::Annotation);
    assert_eq!(waiver.rule, "ra2.app.007");
    assert_eq!(waiver.reason, "reads /var/log for the vendor");
    assert_eq!(waiver.expires.as_deref(), Some("2026-12-31"));
    assert_eq!(waiver.suppressed, 1);
    assert_eq!(waiver.object.as_ref().and_then(|o| o.name.as_deref()), Some("agent"));
    assert_eq!(
        held.summary.suppressed_by_reason.keys().collect::<Vec<_>>(),
        ["reads /var/log for the vendor"]
    );

    let lapsed = lint(POD, "2027-01-01", "{}");
    assert_eq!(checks(&lapsed, "ra2.app.007"), ["host-path:9"]);
    assert_eq!(checks(&lapsed, "suppression"), ["expired:7"]);
    let expired = lapsed.findings.iter().find(|f| f.check == "expired").expect("expired");
    assert_eq!(expired.severity, ra2_core::Severity::Warning);
    assert!(expired.message.contains("expired on 2026-12-31"), "{}", expired.message);
    assert!(lapsed.summary.waivers.is_empty());

    // Without a clock (a face that has none), nothing expires.
    let config = Config::default();
    let timeless = ra2_core::lint_str("pod.yaml", POD, &config);
    assert_eq!(checks(&timeless, "ra2.app.007"), Vec::<String>::new());
}

#[test]
fn expiry_spellings_and_bad_dates() {
    for value in [
        "reason (expires 2026-12-31)",
        "reason; expires: 2026-12-31",
        "reason [expires=2026-12-31]",
        "reason, EXPIRES 2026-12-31.",
    ] {
        let text = POD.replace("reads /var/log for the vendor; expires 2026-12-31", value);
        let report = lint(&text, "2026-06-01", "{}");
        assert_eq!(
            report
                .summary
                .waivers
                .first()
                .map(|w| (w.reason.as_str(), w.expires.as_deref())),
            Some(("reason", Some("2026-12-31"))),
            "{value}"
        );
    }
    // Prose that mentions expiry is a reason, not a date.
    let prose = POD.replace("; expires 2026-12-31", ": the licence expires soon, see CNF-12");
    let report = lint(&prose, "2030-01-01", "{}");
    assert_eq!(report.summary.waivers.first().map(|w| w.expires.clone()), Some(None));
    // A date that is not one: warned about, and the waiver holds without expiry.
    let bad = POD.replace("2026-12-31", "2026-02-30");
    let report = lint(&bad, "2030-01-01", "{}");
    assert_eq!(checks(&report, "suppression"), ["bad-expiry:7"]);
    assert_eq!(checks(&report, "ra2.app.007"), Vec::<String>::new());
}

#[test]
fn exemptions_expire_too_and_bad_dates_are_config_errors() {
    let unannotated = POD.replace(
        "    ignore-check.ra2.dev/ra2.app.007: \"reads /var/log for the vendor; expires 2026-12-31\"\n",
        "    owner: ops\n",
    );
    let exemptions =
        "exemptions:\n  - rule: ra2.app.007\n    name: agent\n    reason: vendor agent\n    expires: 2026-12-31\n";
    let held = lint(&unannotated, "2026-12-31", exemptions);
    assert_eq!(checks(&held, "ra2.app.007"), Vec::<String>::new());
    let [waiver] = held.summary.waivers.as_slice() else {
        panic!("{:?}", held.summary.waivers)
    };
    assert_eq!(waiver.source, WaiverSource::Exemption);
    assert_eq!(waiver.exemption.as_deref(), Some("ra2.app.007 (name agent)"));
    assert_eq!(waiver.expires.as_deref(), Some("2026-12-31"));

    let lapsed = lint(&unannotated, "2027-03-01", exemptions);
    assert_eq!(checks(&lapsed, "ra2.app.007"), ["host-path:9"]);
    let expired: Vec<_> = lapsed.findings.iter().filter(|f| f.rule == "exemption").collect();
    assert_eq!(expired.len(), 1, "expired, and not also unused: {expired:?}");
    assert_eq!(
        (expired[0].check.as_str(), expired[0].file.as_str(), expired[0].line),
        ("expired", ".ra2.yaml", 2)
    );
    assert!(expired[0].message.contains("expired on 2026-12-31"));

    let errors = Config::from_yaml(&exemptions.replace("2026-12-31", "2026-13-01"), ".ra2.yaml").expect_err("bad date");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!((errors[0].line, errors[0].code), (5, "ra2::config::date"));
    assert!(errors[0].message.contains("YYYY-MM-DD"), "{}", errors[0].message);
    let errors =
        Config::from_yaml(&exemptions.replace("2026-12-31", "next week"), ".ra2.yaml").expect_err("not a date");
    assert_eq!(errors.len(), 1, "{errors:?}");
}
