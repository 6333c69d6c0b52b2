//! Code actions from fixes: a `quickfix` per fixable finding in the requested range (its edits
//! from [`ra2_core::fix::edits_of`], as SARIF's `artifactChanges`), and `source.fixAll.ra2`:
//! what [`ra2_core::fix::fix_text`] makes of the whole document with the safe fixes, which is
//! exactly what `ra2 lint --fix` writes.

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, Range, TextEdit, Url, WorkspaceEdit,
};
use ra2_core::fix::Applicability;

use crate::diagnostics::{analyse, lint, of_finding};
use crate::position::{Lines, touches};
use crate::server::{FIX_ALL, Shared};
use crate::worker::lock;
use crate::workspace::Kind;

pub(crate) fn code_actions(shared: &Shared, params: &CodeActionParams) -> Vec<CodeActionOrCommand> {
    let uri = &params.text_document.uri;
    let (text, name, analysis, config) = {
        let state = lock(shared);
        let Some(doc) = state.docs.get(uri).filter(|d| d.kind == Kind::Manifest) else {
            return Vec::new();
        };
        let analysis = doc.analysis.clone().filter(|a| a.version == doc.version);
        (
            doc.text.clone(),
            doc.name.clone(),
            analysis,
            state.workspace.config.clone(),
        )
    };
    // Not linted yet in this version: lint it here (the fixes must be of this text).
    let analysis = match analysis {
        Some(analysis) => analysis,
        None => std::sync::Arc::new(analyse(uri, 0, &name, &text, lint(&name, &text, &config))),
    };
    let wants = |kind: &CodeActionKind| {
        params.context.only.as_ref().is_none_or(|only| {
            only.iter()
                .any(|o| kind.as_str() == o.as_str() || kind.as_str().starts_with(&format!("{}.", o.as_str())))
        })
    };
    let lines = Lines::new(&text);
    let mut out = Vec::new();
    if wants(&CodeActionKind::QUICKFIX) {
        for (finding, range) in &analysis.findings {
            let Some(fix) = &finding.fix else { continue };
            if !touches(range, &params.range) {
                continue;
            }
            let Ok(edits) = ra2_core::fix::edits_of(&text, finding, config.limits) else {
                continue;
            };
            let safe = fix.applicability == Applicability::Safe;
            let edits = edits
                .into_iter()
                .map(|e| TextEdit::new(Range::new(lines.of_byte(e.start), lines.of_byte(e.end)), e.text))
                .collect();
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: if safe {
                    format!("ra2: {}", fix.title)
                } else {
                    format!("ra2: {} (unsafe fix: may change how the workload runs)", fix.title)
                },
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![of_finding(uri, finding, *range, &lines)]),
                edit: Some(workspace_edit(uri, edits)),
                command: None,
                is_preferred: Some(safe),
                disabled: None,
                data: None,
            }));
        }
    }
    let fix_all = CodeActionKind::new(FIX_ALL);
    let any_safe = analysis.findings.iter().any(|(f, _)| {
        f.fix
            .as_ref()
            .is_some_and(|fix| fix.applicability == Applicability::Safe)
    });
    if any_safe && wants(&fix_all) {
        let fixed = ra2_core::fix::fix_text(&name, &text, &config, false);
        if fixed.text != *text {
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("ra2: apply every safe fix ({})", fixed.applied.len()),
                kind: Some(fix_all),
                diagnostics: None,
                edit: Some(workspace_edit(uri, line_edits(&text, &fixed.text, &lines))),
                command: None,
                is_preferred: None,
                disabled: None,
                data: None,
            }));
        }
    }
    out
}

fn workspace_edit(uri: &Url, edits: Vec<TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        document_changes: None,
        change_annotations: None,
    }
}

/// The edits that turn `old` into `new`, a changed run of lines each (so the cursor and the
/// rest of the buffer stay where they are).
pub(crate) fn line_edits(old: &str, new: &str, lines: &Lines<'_>) -> Vec<TextEdit> {
    let diff = similar::TextDiff::from_lines(old, new);
    let mut old_starts = vec![0];
    for slice in diff.old_slices() {
        old_starts.push(old_starts.last().copied().unwrap_or_default() + slice.len());
    }
    let new_slices = diff.new_slices();
    diff.ops()
        .iter()
        .filter(|op| op.tag() != similar::DiffTag::Equal)
        .map(|op| {
            let old = op.old_range();
            let start = old_starts.get(old.start).copied().unwrap_or(0);
            let end = old_starts.get(old.end).copied().unwrap_or(start);
            let text: String = new_slices.get(op.new_range()).unwrap_or_default().concat();
            TextEdit::new(Range::new(lines.of_byte(start), lines.of_byte(end)), text)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Applies LSP edits (non-overlapping, any order) to ASCII text, as a client does.
    fn apply(text: &str, edits: &[TextEdit]) -> String {
        let offset = |p: lsp_types::Position| {
            let mut line_start = 0;
            for _ in 0..p.line {
                line_start += text[line_start..].find('\n').map_or(text.len() - line_start, |i| i + 1);
            }
            line_start + p.character as usize
        };
        let mut edits: Vec<&TextEdit> = edits.iter().collect();
        edits.sort_by_key(|e| std::cmp::Reverse(offset(e.range.start)));
        let mut out = text.to_owned();
        for e in edits {
            out.replace_range(offset(e.range.start)..offset(e.range.end), &e.new_text);
        }
        out
    }

    #[test]
    fn line_edits_rebuild_the_new_text() {
        let cases = [
            ("a\nb\nc\n", "a\nB\nc\n"),
            ("a\nb\nc\n", "a\nb\nx\ny\nc\n"),
            ("a\nb\nc", "a\nc"),
            ("a\n", "a\nb\n"),
            ("", "x\n"),
        ];
        for (old, new) in cases {
            let lines = Lines::new(old);
            assert_eq!(apply(old, &line_edits(old, new, &lines)), new, "{old:?} -> {new:?}");
        }
    }
}
