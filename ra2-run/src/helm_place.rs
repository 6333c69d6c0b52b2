//! Where in its chart one edit of Helm output goes ([`crate::helm_fix`] says the rules): the
//! template line that writes the node literally, the values file a `.Values` path reads, or
//! nowhere (a reason why).

use std::path::{Path, PathBuf};

use ra2_core::fix::edit::Edit;
use ra2_core::fix::{Op, Operation};
use ra2_core::{Finding, Report};

use crate::chart::Charts;
use crate::helm_fix::{ChartFiles, Target};
use crate::template_map::{How, Mapped, Template};

/// Where an edit of the rendered text goes.
pub(crate) enum Routed {
    /// No chart: the rendered text itself.
    Rendered,
    /// The chart's files; with the rendered edit as the fixed chart renders it.
    Chart(Edit, Target),
}

/// A finding's object in the rendered text and in its template.
pub(crate) struct Place<'t> {
    /// The rendered text and the finding.
    output: &'t str,
    finding: &'t Finding,
    template: PathBuf,
    /// The template's text as fixing left it, and its lines (start, end before the line break).
    written: String,
    tlines: Vec<(usize, usize)>,
    tpl: Template,
    kind: Option<String>,
    ordinal: usize,
    object: serde_json::Value,
    /// The rendered document: its byte range in the rendered text.
    chunk: (usize, usize),
    /// The template document's lines (0-based, end excluded).
    doc: (usize, usize),
    /// The chart's directory, and its parent chart's directory and its key in the parent's
    /// values (a subchart); `None` in `parent` for a top chart, `Err` for a deeper one.
    chart: PathBuf,
    parent: Result<Option<(PathBuf, String)>, ()>,
}

/// The lines of `text`: start and end (before `\n` or `\r\n`) of each.
fn lines_of(text: &str, offset: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' {
            let end = if i > start && text.as_bytes().get(i - 1) == Some(&b'\r') {
                i - 1
            } else {
                i
            };
            out.push((offset + start, offset + end));
            start = i + 1;
        }
    }
    if start < text.len() {
        out.push((offset + start, offset + text.len()));
    }
    out
}

fn parent_of(pointer: &str) -> &str {
    pointer.rsplit_once('/').map_or("", |(p, _)| p)
}

fn segments(pointer: &str) -> Vec<String> {
    ra2_core::view::pointer_segments(pointer).collect()
}

impl<'t> Place<'t> {
    pub(crate) fn of(
        text: &'t str,
        report: &Report,
        finding: &'t Finding,
        charts: &mut Charts,
        files: &mut ChartFiles,
    ) -> Result<Place<'t>, String> {
        if ra2_core::fix::object_prefix(&finding.pointer).is_some() {
            return Err("the object is an item of a List".to_owned());
        }
        let source = finding.source_template.as_deref().unwrap_or_default();
        let template = charts
            .template_path(source)
            .ok_or_else(|| "its template was not found".to_owned())?;
        let written = files.text(&template)?;
        let (ordinals, _) = crate::chart::template_ordinals(&report.objects);
        let ordinal = ordinals
            .get(&(finding.file.as_str(), finding.document))
            .copied()
            .unwrap_or(0);
        let (body, bom) = ra2_core::source::strip_bom(text);
        let parts = ra2_core::source::chunks(body, bom, 0);
        let (chunk, object) = parts
            .iter()
            .rev()
            .find(|c| c.offset <= finding.offset)
            .and_then(|c| {
                Some((
                    (c.offset, c.offset + c.text.len()),
                    ra2_core::yaml_to_json(c.text).ok()?,
                ))
            })
            .ok_or_else(|| "its rendered document was not read".to_owned())?;
        let tpl = Template::new(&written);
        let kind = finding.object.kind.clone();
        let doc = tpl.pick_document(kind.as_deref(), ordinal);
        let chart = template
            .ancestors()
            .skip(1)
            .find(|d| d.join("Chart.yaml").is_file())
            .map(Path::to_path_buf)
            .ok_or_else(|| "its chart's directory was not found".to_owned())?;
        let parts: Vec<&str> = source.split('/').collect();
        let parent = match parts.as_slice() {
            [_, "templates", ..] => Ok(None),
            [name, "charts", sub, "templates", ..] => {
                charts.chart_dir(name).map(|d| Some((d, (*sub).to_owned()))).ok_or(())
            }
            _ => Err(()),
        };
        Ok(Place {
            output: text,
            finding,
            template,
            tlines: lines_of(&written, 0),
            written,
            tpl,
            kind,
            ordinal,
            object,
            chunk,
            doc,
            chart,
            parent,
        })
    }

    fn map(&self, pointer: &str) -> Mapped {
        self.tpl
            .map(self.kind.as_deref(), self.ordinal, pointer, Some((&self.object, 1)))
    }

    fn tline(&self, i: usize) -> &str {
        self.tlines
            .get(i)
            .and_then(|&(s, e)| self.written.get(s..e))
            .unwrap_or_default()
    }

    /// Where the edit `rendered` of `text` that makes `op` goes.
    pub(crate) fn target(&self, op: &Operation, rendered: &Edit, files: &mut ChartFiles) -> Result<Routed, String> {
        let exists = self.object.pointer(&op.path).is_some();
        let node = if exists { op.path.as_str() } else { parent_of(&op.path) };
        if self.object.pointer(node).is_none() {
            return Err("its place is not in the rendered object".to_owned());
        }
        if let Some(routed) = self.via_values(op, rendered, node, exists, files)? {
            return Ok(routed);
        }
        self.literal(rendered, node)
            .map(|edit| Routed::Chart(rendered.clone(), Target::Template(self.template.clone(), edit)))
    }
}

/// The open `if`/`with`/`range`/`define` blocks after each line of a template: a number for
/// each block, and whether it repeats or is defined for use elsewhere (`range`, `define`,
/// `block`).
fn blocks_after(text: &str, lines: usize) -> Vec<Vec<(usize, bool)>> {
    // Each action's first word, by the line it starts on.
    let mut actions: Vec<(usize, String)> = Vec::new();
    let mut line = 0;
    let mut rest = text;
    while let Some(i) = rest.find("{{") {
        line += ra2_core::source::count_line_breaks(rest.get(..i).unwrap_or_default().as_bytes());
        let after = rest.get(i + 2..).unwrap_or_default();
        let close = after.find("}}").unwrap_or(after.len());
        let inner = after.get(..close).unwrap_or_default();
        let word = inner
            .trim_start_matches('-')
            .trim()
            .split(|c: char| c.is_whitespace() || c == '(')
            .next()
            .unwrap_or_default();
        actions.push((line, word.to_owned()));
        line += ra2_core::source::count_line_breaks(inner.as_bytes());
        rest = after.get((close + 2).min(after.len())..).unwrap_or_default();
    }
    let mut out = Vec::with_capacity(lines);
    let mut open: Vec<(usize, bool)> = Vec::new();
    let mut next_id = 0;
    let mut actions = actions.into_iter().peekable();
    for i in 0..lines {
        while let Some((_, word)) = actions.next_if(|(l, _)| *l <= i) {
            match word.as_str() {
                "if" | "with" | "range" | "define" | "block" => {
                    open.push((next_id, matches!(word.as_str(), "range" | "define" | "block")));
                    next_id += 1;
                }
                "else" => {
                    let repeats = open.pop().is_some_and(|(_, r)| r);
                    open.push((next_id, repeats));
                    next_id += 1;
                }
                "end" => {
                    open.pop();
                }
                _ => {}
            }
        }
        out.push(open.clone());
    }
    out
}

/// Is the template line structure (not blank, a comment or only template actions)?
fn structural(line: &str) -> bool {
    let mut rest = line;
    let mut bare = String::new();
    while let Some(i) = rest.find("{{") {
        bare.push_str(rest.get(..i).unwrap_or_default());
        let after = rest.get(i + 2..).unwrap_or_default();
        rest = after.find("}}").and_then(|c| after.get(c + 2..)).unwrap_or_default();
    }
    bare.push_str(rest);
    let bare = bare.trim();
    !(bare.is_empty() || bare.starts_with('#'))
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// Is the template line written literally: no action, something to write?
fn literal(line: &str) -> bool {
    !line.contains("{{") && structural(line)
}

impl Place<'_> {
    /// The line after the block of the key or list item on template line `m`.
    fn block_end(&self, m: usize) -> usize {
        let column = indent(self.tline(m));
        (m + 1..self.doc.1)
            .find(|&j| {
                let line = self.tline(j);
                structural(line) && indent(line) <= column || line.trim_end() == "---"
            })
            .unwrap_or(self.doc.1)
    }

    /// The rendered document's lines, and for each the template line it is written by
    /// literally, where a line diff of the two aligns them.
    fn aligned(&self) -> (Vec<(usize, usize)>, Vec<Option<usize>>) {
        let text = self.output;
        let chunk = text.get(self.chunk.0..self.chunk.1).unwrap_or_default();
        let rlines = lines_of(chunk, self.chunk.0);
        let rendered: Vec<&str> = rlines
            .iter()
            .map(|&(s, e)| text.get(s..e).unwrap_or_default())
            .collect();
        let template: Vec<&str> = (self.doc.0..self.doc.1).map(|i| self.tline(i)).collect();
        let mut out = vec![None; rendered.len()];
        for op in similar::capture_diff_slices(similar::Algorithm::Myers, &template, &rendered) {
            let (tag, old, new) = op.as_tag_tuple();
            if tag != similar::DiffTag::Equal {
                continue;
            }
            for (o, n) in old.zip(new) {
                if template.get(o).is_some_and(|l| literal(l)) {
                    if let Some(slot) = out.get_mut(n) {
                        *slot = Some(self.doc.0 + o);
                    }
                }
            }
        }
        (rlines, out)
    }

    /// The template edit that makes `rendered` where the template writes the node literally.
    fn literal(&self, rendered: &Edit, node: &str) -> Result<Edit, String> {
        let text = self.output;
        let blocks = blocks_after(&self.written, self.tlines.len());
        let repeats = |i: usize| blocks.get(i).is_some_and(|b| b.iter().any(|(_, r)| *r));
        let in_line = !rendered.text.contains(['\n', '\r'])
            && !text
                .get(rendered.start..rendered.end)
                .unwrap_or_default()
                .contains('\n');
        // The object itself: its first line; else the key or item of the mapping.
        let m = if node.is_empty() {
            (self.doc.0..self.doc.1)
                .find(|&j| structural(self.tline(j)))
                .filter(|&j| indent(self.tline(j)) == 0)
                .ok_or("the template does not write the object's first line literally")?
        } else {
            let mapped = self.map(node);
            match mapped.how {
                How::Key => mapped.line - 1,
                How::Action => {
                    return Err("the template writes it with an action, not from one .Values path".to_owned());
                }
                How::Ancestor | How::Document => {
                    return Err("the template does not write its place literally".to_owned());
                }
            }
        };
        if repeats(m) {
            return Err("the template writes it inside a range or define".to_owned());
        }
        if in_line {
            let (rs, re) = line_around(text, rendered.start);
            let tline = self.tline(m);
            if !literal(tline) || Some(tline) != text.get(rs..re) || rendered.end > re {
                return Err("its template line is not written literally".to_owned());
            }
            let ts = self.tlines.get(m).map_or(0, |l| l.0);
            return Ok(Edit {
                start: ts + rendered.start - rs,
                end: ts + rendered.end - rs,
                text: rendered.text.clone(),
            });
        }
        let nl = if rendered.text.starts_with("\r\n") {
            "\r\n"
        } else {
            "\n"
        };
        if rendered.start != rendered.end || !rendered.text.starts_with(nl) {
            return Err("the edit spans template lines".to_owned());
        }
        let (rlines, aligned) = self.aligned();
        let r = rlines
            .iter()
            .position(|&(s, e)| s <= rendered.start && rendered.start <= e)
            .ok_or("the edit is outside its document")?;
        let end = if node.is_empty() { self.doc.1 } else { self.block_end(m) };
        let same = |i: usize| blocks.get(i) == blocks.get(m);
        // After the mapping's last line, written literally in the mapping's block.
        if let Some(t) = aligned
            .get(r)
            .copied()
            .flatten()
            .filter(|&t| m < t && t < end && same(t))
        {
            let at = self.tlines.get(t).map_or(0, |l| l.1);
            return Ok(Edit {
                start: at,
                end: at,
                text: rendered.text.clone(),
            });
        }
        // Before the line after it, where only blank lines and blocks that close lie between.
        let next = aligned.get(r + 1).copied().flatten();
        if let Some(u) = next.filter(|&u| {
            u > m
                && u >= end
                && (end..u).all(|j| !structural(self.tline(j)))
                && same(u - 1)
                && !self.tline(u - 1).trim_end().ends_with("-}}")
        }) {
            let at = self.tlines.get(u).map_or(0, |l| l.0);
            let body = rendered.text.get(nl.len()..).unwrap_or_default();
            return Ok(Edit {
                start: at,
                end: at,
                text: format!("{body}{nl}"),
            });
        }
        Err("the mapping's last line is not written literally in the template".to_owned())
    }
}

/// The line (start, end before its break) of `text` holding byte `at`.
fn line_around(text: &str, at: usize) -> (usize, usize) {
    let start = text.get(..at).and_then(|t| t.rfind('\n')).map_or(0, |i| i + 1);
    let end = text.get(at..).and_then(|t| t.find('\n')).map_or(text.len(), |i| at + i);
    let end = if end > start && text.as_bytes().get(end - 1) == Some(&b'\r') {
        end - 1
    } else {
        end
    };
    (start, end)
}

/// How a template line writes a whole scalar from one `.Values` path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// `{{ .Values.x }}`
    Plain,
    /// `"{{ .Values.x }}"`
    Quoted,
    /// `{{ .Values.x | quote }}`
    Quote,
}

impl Form {
    /// How a value Helm prints as `s` is written.
    fn wrap(self, s: &str) -> Option<String> {
        match self {
            Form::Plain => Some(s.to_owned()),
            Form::Quoted | Form::Quote if s.contains(['"', '\\']) || s.chars().any(char::is_control) => None,
            Form::Quoted | Form::Quote => Some(format!("\"{s}\"")),
        }
    }
}

/// How Go's templates print a value (`None`: not one whose printing is known here).
fn go_format(value: &serde_json::Value) -> Option<String> {
    match value {
        serde_json::Value::Bool(b) => Some(b.to_string()),
        serde_json::Value::Number(n) if n.is_i64() || n.is_u64() => Some(n.to_string()),
        serde_json::Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// Would `toYaml` write `value` as ra2's edits write it (plain scalars, block mappings)?
fn to_yaml_same(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Bool(_) => true,
        serde_json::Value::Number(n) => n.is_i64() || n.is_u64(),
        serde_json::Value::String(s) => plain(s),
        serde_json::Value::Object(map) => !map.is_empty() && map.iter().all(|(k, v)| plain(k) && to_yaml_same(v)),
        _ => false,
    }
}

/// Would both `toYaml` and ra2's edits write the string plain (`500m`, `RuntimeDefault`)?
fn plain(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
        && matches!(ra2_core::scalar::resolve_plain(s), ra2_core::scalar::Resolved::Str)
}

/// The `.Values` path of an action's text (`.Values.a.b`), if it is just that.
fn values_path(inner: &str) -> Option<Vec<String>> {
    let path = inner.trim().strip_prefix(".Values.")?;
    let segments: Vec<String> = path.split('.').map(str::to_owned).collect();
    segments
        .iter()
        .all(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then_some(segments)
}

/// A line whose one action writes a whole scalar from `.Values`: the value's byte range in
/// the line, its form and path.
fn scalar_form(line: &str) -> Option<(usize, usize, Form, Vec<String>)> {
    let i = line.find("{{")?;
    let j = i + line.get(i..)?.find("}}")? + 2;
    if line.get(j..)?.contains("{{") {
        return None;
    }
    let inner = line.get(i + 2..j - 2)?;
    if inner.starts_with('-') || inner.ends_with('-') {
        return None;
    }
    let (path, quote) = match inner.split_once('|') {
        Some((path, pipe)) if pipe.trim() == "quote" => (path, true),
        Some(_) => return None,
        None => (inner, false),
    };
    let path = values_path(path)?;
    let quoted = line.get(..i)?.ends_with('"') && line.get(j..)?.starts_with('"');
    match (quoted, quote) {
        (true, true) => None,
        (true, false) => Some((i - 1, j + 1, Form::Quoted, path)),
        (false, true) => Some((i, j, Form::Quote, path)),
        (false, false) => Some((i, j, Form::Plain, path)),
    }
}

/// A line that is one `toYaml .Values.x | nindent N` (or `indent N`) action: the path.
fn to_yaml_line(line: &str) -> Option<Vec<String>> {
    let inner = line.trim().strip_prefix("{{")?.strip_suffix("}}")?;
    if inner.contains("{{") || inner.contains("}}") {
        return None;
    }
    let inner = inner.trim_start_matches('-').trim_end_matches('-').trim();
    let (call, pipe) = inner.split_once('|')?;
    let mut pipe = pipe.split_whitespace();
    let (Some("nindent" | "indent"), Some(n), None) = (pipe.next(), pipe.next(), pipe.next()) else {
        return None;
    };
    n.parse::<usize>().ok()?;
    values_path(call.trim().strip_prefix("toYaml ")?)
}

/// Every `.Values` reference of `text` related to `path` (the path itself, one above it or
/// below it, or all of `.Values`): the 0-based lines.
fn uses_in(text: &str, path: &[String]) -> Vec<usize> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(i) = rest.find(".Values") {
            let after = rest.get(i + ".Values".len()..).unwrap_or_default();
            let mut used: Vec<&str> = Vec::new();
            let mut tail = after;
            while let Some(next) = tail.strip_prefix('.') {
                let len = next
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(next.len());
                if len == 0 {
                    break;
                }
                used.push(next.get(..len).unwrap_or_default());
                tail = next.get(len..).unwrap_or_default();
            }
            let related = used.iter().zip(path).all(|(u, p)| *u == p.as_str());
            if related && !out.contains(&n) {
                out.push(n);
            }
            rest = tail;
        }
    }
    out
}

/// The template files of the chart at `chart` (under `templates/`, any depth).
fn template_files(chart: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![chart.join("templates")];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                dirs.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

impl Place<'_> {
    /// The uses of the values `path` in the chart's templates (file, 0-based line): `own`
    /// first.
    fn uses(&self, path: &[String], own: usize, files: &mut ChartFiles) -> Result<Vec<(PathBuf, usize)>, String> {
        let mut out = vec![(self.template.clone(), own)];
        // A subchart's values are its parent's too, under the subchart's key.
        let mut charts = vec![(self.chart.clone(), path.to_vec())];
        if let Ok(Some((dir, sub))) = &self.parent {
            charts.push((
                dir.clone(),
                std::iter::once(sub.clone()).chain(path.iter().cloned()).collect(),
            ));
        }
        for (chart, path) in charts {
            for file in template_files(&chart) {
                let text = files
                    .text(&file)
                    .map_err(|e| format!("the value's uses are not known: {e}"))?;
                for line in uses_in(&text, &path) {
                    if !out.contains(&(file.clone(), line)) {
                        out.push((file.clone(), line));
                    }
                }
            }
        }
        Ok(out)
    }

    /// The values file and its text as JSON, when the path is the chart's own to set.
    fn values(&self, path: &[String], files: &mut ChartFiles) -> Result<(PathBuf, String, serde_json::Value), String> {
        if path.first().is_some_and(|p| p == "global") {
            return Err("a global value: subcharts read it too".to_owned());
        }
        let parent = self
            .parent
            .clone()
            .map_err(|()| "the chart is a subchart of a subchart".to_owned())?;
        if let Some((dir, sub)) = parent {
            let text = files.text(&dir.join("values.yaml")).unwrap_or_default();
            let json = ra2_core::yaml_to_json(&text).unwrap_or_default();
            let mut pointer = format!("/{sub}");
            for segment in path {
                pointer.push('/');
                pointer.push_str(segment);
                if json.pointer(&pointer).is_some() {
                    return Err(format!("the parent chart's values.yaml sets {sub}.{}", path.join(".")));
                }
            }
        }
        let file = self.chart.join("values.yaml");
        let text = files.text(&file)?;
        let json = ra2_core::yaml_to_json(&text)
            .map_err(|e| format!("{}: not YAML: {}", crate::helm_fix::shown(&file), e.message))?;
        Ok((file, text, json))
    }

    /// Where the node comes from `.Values`: the values file's edit (and the rendered one as
    /// Helm writes it); `None` when the template does not take it from `.Values`.
    fn via_values(
        &self,
        op: &Operation,
        rendered: &Edit,
        node: &str,
        exists: bool,
        files: &mut ChartFiles,
    ) -> Result<Option<Routed>, String> {
        let all = segments(node);
        // The deepest key written literally above (or at) the node.
        for depth in (1..=all.len()).rev() {
            let mut above = String::new();
            for s in all.iter().take(depth) {
                above.push('/');
                above.push_str(&s.replace('~', "~0").replace('/', "~1"));
            }
            let m = self.map(&above);
            if m.how != How::Key {
                continue;
            }
            let line = self.tline(m.line - 1);
            if exists && depth == all.len() {
                if let Some((vs, ve, form, path)) = scalar_form(line) {
                    return self
                        .scalar(op, rendered, (m.line - 1, line, vs, ve, form), &path, files)
                        .map(Some);
                }
            }
            let next = m.line;
            let Some(path) = self.to_yaml_below(m.line - 1) else {
                return Ok(None);
            };
            let mut rest: Vec<String> = all.iter().skip(depth).cloned().collect();
            if !exists {
                rest.push(segments(&op.path).pop().unwrap_or_default());
            }
            return self.block(op, rendered, (next, &above, &path, &rest), files).map(Some);
        }
        Ok(None)
    }

    /// The `.Values` path of a `toYaml` line that alone writes the block of the key on line `m`.
    fn to_yaml_below(&self, m: usize) -> Option<Vec<String>> {
        let key = self.tline(m).trim_end();
        if !key.ends_with(':') || key.contains("{{") {
            return None;
        }
        let path = to_yaml_line(self.tline(m + 1))?;
        let column = indent(key);
        // The next line that is not blank ends the key's block.
        let Some(after) = (m + 2..self.doc.1)
            .map(|j| self.tline(j))
            .find(|l| !l.trim().is_empty())
        else {
            return Some(path);
        };
        let ends = (structural(after) && indent(after) <= column)
            || (!structural(after) && after.contains("{{") && {
                let word = after.trim().trim_start_matches("{{").trim_start_matches('-').trim();
                word.starts_with("end") || word.starts_with("else") || word.starts_with("if ")
            });
        ends.then_some(path)
    }

    /// A whole scalar from `.Values`: its form on template line `l` (`vs..ve` the value).
    fn scalar(
        &self,
        op: &Operation,
        rendered: &Edit,
        (l, line, vs, ve, form): (usize, &str, usize, usize, Form),
        path: &[String],
        files: &mut ChartFiles,
    ) -> Result<Routed, String> {
        let (text, finding) = (self.output, self.finding);
        let (rs, re) = line_around(text, rendered.start);
        let same_around = rendered.end <= re
            && text.get(rs..rendered.start) == line.get(..vs)
            && text.get(rendered.end..re) == line.get(ve..);
        if !same_around {
            return Err("its template line writes more than the value".to_owned());
        }
        let (file, vtext, json) = self.values(path, files)?;
        let dotted = path.join(".");
        let current = json
            .pointer(&pointer_of(path))
            .ok_or_else(|| format!(".Values.{dotted} is not in values.yaml"))?;
        let was = go_format(current).and_then(|s| form.wrap(&s));
        if was.as_deref() != text.get(rendered.start..rendered.end) {
            return Err(format!(
                ".Values.{dotted} renders to another value than values.yaml's (set with -f or --set?)"
            ));
        }
        let value = op.value.clone().unwrap_or_default();
        if go_format(&value).and_then(|s| form.wrap(&s)).as_deref() != Some(rendered.text.as_str()) {
            return Err(format!(".Values.{dotted} would not render as the fix writes it"));
        }
        let edit = values_edit(&vtext, finding, Op::Replace, path, &value)?;
        Ok(Routed::Chart(
            rendered.clone(),
            Target::Values {
                file,
                edit,
                uses: self.uses(path, l, files)?,
            },
        ))
    }

    /// A node in the block `toYaml .Values.<path>` writes under the key at `above` (the
    /// action on template line `l`); `rest` the node's path below it.
    fn block(
        &self,
        op: &Operation,
        rendered: &Edit,
        (l, above, path, rest): (usize, &str, &[String], &[String]),
        files: &mut ChartFiles,
    ) -> Result<Routed, String> {
        let (text, finding) = (self.output, self.finding);
        let (file, vtext, json) = self.values(path, files)?;
        let dotted = path.join(".");
        if json.pointer(&pointer_of(path)) != self.object.pointer(above) {
            return Err(format!(
                ".Values.{dotted} renders to another value than values.yaml's (set with -f or --set?)"
            ));
        }
        let value = op.value.clone().unwrap_or_default();
        if !to_yaml_same(&value) || op.path.ends_with("/-") {
            return Err(format!("toYaml would write the fixed .Values.{dotted} otherwise"));
        }
        let full: Vec<String> = path.iter().chain(rest).cloned().collect();
        let exists = self.object.pointer(&op.path).is_some();
        let op_kind = if exists { Op::Replace } else { Op::Add };
        let edit = values_edit(&vtext, finding, op_kind, &full, &value)?;
        let rendered = if exists {
            if go_format(&value).as_deref() != Some(rendered.text.as_str()) {
                return Err(format!("toYaml would write the fixed .Values.{dotted} otherwise"));
            }
            rendered.clone()
        } else {
            as_to_yaml_writes(text, self.chunk, &op.path, rendered)?
        };
        Ok(Routed::Chart(
            rendered,
            Target::Values {
                file,
                edit,
                uses: self.uses(&full, l, files)?,
            },
        ))
    }
}

fn pointer_of(path: &[String]) -> String {
    let mut out = String::new();
    for segment in path {
        out.push('/');
        out.push_str(&segment.replace('~', "~0").replace('/', "~1"));
    }
    out
}

/// The edit of the values file `text` that sets `path` to `value`.
fn values_edit(
    text: &str,
    finding: &Finding,
    op: Op,
    path: &[String],
    value: &serde_json::Value,
) -> Result<Edit, String> {
    let one = crate::helm_fix::values_finding(finding, op, path, value);
    let edits = ra2_core::fix::edits_of(text, &one, ra2_core::doc::Limits::default())
        .map_err(|e| format!("values.yaml: {e}"))?;
    match edits.as_slice() {
        [edit] => Ok(edit.clone()),
        _ => Err("values.yaml: the edit is not one change".to_owned()),
    }
}

/// The insertion of a key into a mapping `toYaml` wrote, where `toYaml` writes it: keys in
/// order (`{}` becomes the entry).
fn as_to_yaml_writes(text: &str, chunk: (usize, usize), pointer: &str, rendered: &Edit) -> Result<Edit, String> {
    let other = || "toYaml would write the fixed mapping otherwise".to_owned();
    let key = segments(pointer).pop().unwrap_or_default();
    let (body, bom) = ra2_core::source::strip_bom(text);
    let parts = ra2_core::source::chunks(body, bom, 0);
    let part = parts.iter().find(|c| c.offset == chunk.0).ok_or_else(other)?;
    let read = ra2_core::doc::read_chunk(*part, false, ra2_core::doc::Limits::default());
    let doc = read.docs.first().ok_or_else(other)?;
    let root = ra2_core::view::Located::root(doc);
    let map = root.at_pointer(parent_of(pointer)).ok_or_else(other)?;
    let span = map.span();
    let nl = if rendered.text.starts_with("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    if text.get(span.start..span.end) == Some("{}") {
        let entry = rendered.text.trim_start_matches(['{']).trim_end_matches('}');
        if rendered.text.contains('\n') || !entry.starts_with(&format!("{key}: ")) {
            return Err(other());
        }
        return Ok(Edit {
            start: span.start,
            end: span.end,
            text: entry.to_owned(),
        });
    }
    let keys: Vec<(String, usize)> = map
        .entries()
        .filter_map(|(k, v)| Some((k.to_owned(), v.key_span()?.start)))
        .collect();
    let unordered = keys.windows(2).any(|w| matches!(w, [a, b] if a.0 >= b.0));
    if unordered || !rendered.text.starts_with(nl) {
        return Err(other());
    }
    match keys.iter().find(|(k, _)| *k > key) {
        None => Ok(rendered.clone()),
        Some((_, at)) => {
            let (start, _) = line_around(text, *at);
            Ok(Edit {
                start,
                end: start,
                text: format!("{}{nl}", rendered.text.get(nl.len()..).unwrap_or_default()),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(p: &[&str]) -> Vec<String> {
        p.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn whole_scalars_from_one_values_path_are_recognised() {
        let line = "    readOnly: {{ .Values.a.b }}  # x";
        assert_eq!(scalar_form(line), Some((14, 31, Form::Plain, path(&["a", "b"]))));
        assert_eq!(
            scalar_form("  tag: \"{{ .Values.tag }}\""),
            Some((7, 26, Form::Quoted, path(&["tag"])))
        );
        assert_eq!(
            scalar_form("  k: {{ .Values.k | quote }}").map(|f| f.2),
            Some(Form::Quote)
        );
        for not in [
            "  k: {{ .Values.k | default 1 }}",
            "  image: \"{{ .Values.a }}:{{ .Values.b }}\"",
            "  k: {{- .Values.k }}",
            "  k: {{ .Values }}",
            "  k: {{ $.Values.k }}",
        ] {
            assert_eq!(scalar_form(not).map(|f| f.2), None, "{not}");
        }
        assert_eq!(Form::Quote.wrap("a\"b"), None);
        assert_eq!(Form::Quoted.wrap("ab").as_deref(), Some("\"ab\""));
    }

    #[test]
    fn to_yaml_lines_of_one_values_path_are_recognised() {
        assert_eq!(
            to_yaml_line("            {{- toYaml .Values.securityContext | nindent 12 }}"),
            Some(path(&["securityContext"]))
        );
        assert_eq!(
            to_yaml_line("  {{ toYaml .Values.a.b | indent 2 }}"),
            Some(path(&["a", "b"]))
        );
        for not in [
            "  {{- toYaml . | nindent 4 }}",
            "  {{- include \"x\" . | nindent 4 }}",
            "  {{- toYaml .Values.a | nindent 4 | trim }}",
            "  x: {{- toYaml .Values.a | nindent 4 }}",
        ] {
            assert_eq!(to_yaml_line(not), None, "{not}");
        }
    }

    #[test]
    fn every_related_use_of_a_value_is_found() {
        let text = "a: {{ .Values.shared.readOnly }}\n\
                    b: {{ .Values.sharedX }}\n\
                    {{- with .Values.shared }}\n\
                    c: {{ $.Values.shared.readOnly | quote }}\n\
                    d: {{ toYaml .Values | nindent 2 }}\n\
                    e: {{ .Values.shared.other }}\n\
                    f: {{ .Values.shared.readOnly.deeper }}\n";
        assert_eq!(uses_in(text, &path(&["shared", "readOnly"])), [0, 2, 3, 4, 6]);
    }

    #[test]
    fn blocks_tell_one_branch_from_another_and_ranges_apart() {
        let text =
            "a:\n{{- if .x }}\n  b: 1\n{{- else }}\n  c: 2\n{{- end }}\n{{- range .y }}\n- d\n{{- end }}\ne: 3\n";
        let blocks = blocks_after(text, 10);
        assert_eq!(blocks[0], blocks[9], "outside every block");
        assert_ne!(blocks[2], blocks[4], "if and else are different blocks");
        assert!(blocks[7].iter().any(|(_, repeats)| *repeats), "inside the range");
        assert!(!blocks[2].iter().any(|(_, repeats)| *repeats));
    }

    #[test]
    fn keys_go_where_to_yaml_writes_them() {
        let text = "kind: Pod\nspec:\n  sc:\n    b: 1\n    d: 2\n  empty:\n    {}\n";
        let chunk = (0, text.len());
        let append = Edit {
            start: text.find("d: 2").unwrap() + 4,
            end: text.find("d: 2").unwrap() + 4,
            text: "\n    c: true".to_owned(),
        };
        let edit = as_to_yaml_writes(text, chunk, "/spec/sc/c", &append).unwrap();
        let fixed = ra2_core::fix::edit::apply(text, [&edit].into_iter());
        assert_eq!(fixed, text.replace("    d: 2\n", "    c: true\n    d: 2\n"));
        let after = Edit {
            text: "\n    e: true".to_owned(),
            ..append
        };
        assert_eq!(as_to_yaml_writes(text, chunk, "/spec/sc/e", &after), Ok(after.clone()));
        let brace = text.find("{}").unwrap();
        let into_empty = Edit {
            start: brace + 1,
            end: brace + 1,
            text: "a: 1".to_owned(),
        };
        let edit = as_to_yaml_writes(text, chunk, "/spec/empty/a", &into_empty).unwrap();
        let fixed = ra2_core::fix::edit::apply(text, [&edit].into_iter());
        assert_eq!(fixed, text.replace("{}", "a: 1"));
    }

    #[test]
    fn values_toyaml_writes_alike_are_scalars_and_mappings_of_them() {
        assert!(to_yaml_same(&serde_json::json!(true)));
        assert!(to_yaml_same(&serde_json::json!({"limits": {"cpu": 1}})));
        assert!(!to_yaml_same(&serde_json::json!(["ALL"])));
        assert!(!to_yaml_same(&serde_json::json!("yes")));
        assert!(!to_yaml_same(&serde_json::json!("1")));
        assert!(to_yaml_same(&serde_json::json!("500m")));
        assert!(!to_yaml_same(&serde_json::json!(1.5)));
    }
}
