//! `--baseline FILE` (or `baseline:` in `.ra2.yaml`) and `--write-baseline FILE` in a run: the
//! file is read before anything is linted (a bad file stops the run), and applied to or
//! recorded from the whole report once the run is known ([`ra2_report::baseline`] says what a
//! finding's identity is). A run with a baseline holds its results to the end rather than
//! streaming them (see [`crate::stream`]).

use std::path::{Path, PathBuf};

use ra2_core::{Config, Finding, Report};
use ra2_report::baseline::Baseline;

use crate::Options;
use crate::source_root::SourceRoot;

/// What a run does with baselines.
pub(crate) enum Plan {
    None,
    /// Hide what this baseline (read from the file named so) records.
    Apply(Baseline, String),
    /// Record every finding in this file.
    Write(PathBuf),
}

impl Plan {
    /// The run's plan: `--write-baseline`, else `--baseline`, else the config file's
    /// `baseline`, read and checked now. Errors are lines for standard error.
    pub(crate) fn of(options: &Options, config: &Config) -> Result<Plan, String> {
        if let Some(path) = &options.write_baseline {
            return Ok(Plan::Write(path.clone()));
        }
        let Some(path) = options
            .baseline
            .clone()
            .or_else(|| config.baseline.as_ref().map(PathBuf::from))
        else {
            return Ok(Plan::None);
        };
        let name = path.to_string_lossy().into_owned();
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("error: cannot read baseline file {name}: {e}"))?;
        let baseline = Baseline::parse(&text, &name).map_err(|e| format!("error: {e}"))?;
        Ok(Plan::Apply(baseline, name))
    }

    /// Does this run use a baseline (and so hold its results to the end)?
    pub(crate) fn is_some(&self) -> bool {
        !matches!(self, Plan::None)
    }

    /// Applies the plan to the finished `report`; returns lines for standard error.
    pub(crate) fn run(&self, options: &Options, report: &mut Report) -> Result<Vec<String>, String> {
        let root = SourceRoot::new(options.source_root.as_deref());
        let file = |f: &Finding| root.relative(&f.file).unwrap_or_else(|| f.file.clone());
        match self {
            Plan::None => Ok(Vec::new()),
            Plan::Write(path) => {
                let baseline = Baseline::record(&report.edition, &report.findings, file);
                write_atomically(path, baseline.to_json().as_bytes())
                    .map_err(|e| format!("error: cannot write baseline file {}: {e}", path.display()))?;
                Ok(vec![format!(
                    "wrote baseline {}: {} finding{}",
                    path.display(),
                    baseline.len(),
                    if baseline.len() == 1 { "" } else { "s" }
                )])
            }
            Plan::Apply(baseline, name) => {
                let applied = baseline.apply(&mut report.findings, file);
                report.summary.baselined = Some(applied.baselined);
                report.summary.stale = Some(applied.stale);
                report.finalize();
                let mut notes = Vec::new();
                if baseline.edition != report.edition {
                    notes.push(format!(
                        "warning: baseline {name} was written for edition {}; this run is edition {}, whose findings differ",
                        baseline.edition, report.edition
                    ));
                }
                Ok(notes)
            }
        }
    }
}

/// Writes `bytes` to `path` through a temporary file beside it and a rename, so a reader
/// never sees half a file; an existing file's permissions are kept.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(".{name}.ra2-{}.tmp", std::process::id()));
    let written = std::fs::write(&temp, bytes).and_then(|()| {
        if let Ok(meta) = std::fs::metadata(path) {
            std::fs::set_permissions(&temp, meta.permissions())?;
        }
        std::fs::rename(&temp, path)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}
