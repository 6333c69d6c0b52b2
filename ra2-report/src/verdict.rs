//! The pass/fail verdict of a lint run, as every face reports it (`ra2 lint`'s exit status).

use ra2_core::{FailOn, Report};

/// Nothing at or above `--fail-on`.
pub const EXIT_OK: u8 = 0;
/// Findings at or above `--fail-on`.
pub const EXIT_FINDINGS: u8 = 1;
/// Usage error, unreadable input or configuration, or a document that could not be parsed.
pub const EXIT_ERROR: u8 = 2;

/// The verdict of a lint run at a `fail-on` threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// [`EXIT_ERROR`], [`EXIT_FINDINGS`] or [`EXIT_OK`].
    pub exit_code: u8,
    /// The findings at or above the threshold.
    pub failing: usize,
}

/// The verdict of a lint run: read errors outrank findings.
pub fn verdict(report: &Report, fail_on: FailOn) -> Verdict {
    let failing = fail_on.threshold().map_or(0, |threshold| {
        report.findings.iter().filter(|f| f.severity >= threshold).count()
    });
    from_counts(!report.errors.is_empty(), failing)
}

/// The verdict of a run with read errors or not and `failing` findings at or above the
/// threshold.
pub(crate) fn from_counts(errors: bool, failing: usize) -> Verdict {
    let exit_code = if errors {
        EXIT_ERROR
    } else if failing > 0 {
        EXIT_FINDINGS
    } else {
        EXIT_OK
    };
    Verdict { exit_code, failing }
}

/// The exit status of a lint run: read errors outrank findings.
pub fn exit_status(report: &Report, fail_on: FailOn) -> u8 {
    verdict(report, fail_on).exit_code
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_outrank_findings_and_the_threshold_counts() {
        let config = ra2_core::Config::default();
        let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  hostNetwork: true\n  containers: [{name: c, image: r/c:1}]\n";
        let report = ra2_core::lint_str("p.yaml", pod, &config);
        let at = |level: &str| verdict(&report, FailOn::parse(level).unwrap_or_default());
        let infos = report.findings.len();
        assert!(infos > at("error").failing, "some findings are below error");
        assert_eq!(
            at("info"),
            Verdict {
                exit_code: EXIT_FINDINGS,
                failing: infos
            }
        );
        assert_eq!(
            at("never"),
            Verdict {
                exit_code: EXIT_OK,
                failing: 0
            }
        );
        let broken = ra2_core::lint_str("b.yaml", &format!("{pod}---\nkind: [\n"), &config);
        assert_eq!(verdict(&broken, FailOn::Never).exit_code, EXIT_ERROR);
    }
}
