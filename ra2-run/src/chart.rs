//! Finding the Helm chart that rendered the linted output, and putting each finding on the
//! line of the template that wrote it ([`crate::template_map`] does the mapping).
//!
//! `helm template` names each document's template in a `# Source: <chart>/templates/<file>`
//! comment (subcharts: `<chart>/charts/<sub>/templates/<file>`); the core records it as the
//! finding's `source_template`. Here the chart is looked up on disk: the directory given with
//! `--chart-root` or the working directory, if its `Chart.yaml` has that name, else a
//! breadth-first walk under it, nearest first, for the first one that has (skipping hidden
//! directories, `node_modules` and `target`) and that holds the chart's own templates named in
//! the output (another chart of the same name is never mapped into). The walk goes on from
//! where it stopped for the next name, and reads at most [`MAX_ENTRIES`] directory entries in
//! all, so that a run from `/` or a home directory costs milliseconds, not seconds.
//! A subchart is `charts/<sub>/` of its parent, or the `file://` path its parent's
//! `dependencies` give. A chart or template that cannot be found leaves its findings on the
//! rendered output and is reported once, on standard error.

use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use ra2_core::report::ObjectSummary;
use ra2_core::{Report, TemplateLocation};

use crate::template_map;

/// How deep below the search root the walk looks for `Chart.yaml`.
const MAX_DEPTH: usize = 6;
/// How many directory entries (files and directories) the walk reads at most, in all.
pub const MAX_ENTRIES: usize = 10_000;
/// How many charts of one name the walk collects (a repository may vendor copies).
const MAX_CANDIDATES: usize = 16;

/// Where charts are looked for, and what was found (each chart and template read once).
pub struct Charts {
    root: PathBuf,
    /// The working directory: template paths are reported relative to it when under it.
    cwd: PathBuf,
    found: BTreeMap<String, Result<Vec<PathBuf>, String>>,
    /// The charts under `root` by name, from one walk made as far as names need it.
    search: Option<ChartSearch>,
    /// Templates that no chart of their name holds, by chart name.
    missing: BTreeMap<String, Vec<String>>,
    templates: BTreeMap<String, Result<(String, Rc<template_map::Template>), String>>,
    /// The file each `# Source:` template was read from.
    paths: BTreeMap<String, PathBuf>,
    /// Templates' texts as fixing left them (`--fix` edits them before writing them), by path.
    overrides: BTreeMap<PathBuf, String>,
    /// What could not be found, one line each.
    pub notes: Vec<String>,
    /// The names of the charts not found at all, and the note that says so for each: a run
    /// over the output of many charts says it in one line ([`Charts::take_notes`]).
    not_found: Vec<(String, String)>,
}

impl Charts {
    /// Charts under `root` (`--chart-root`), else under the working directory.
    pub fn new(root: Option<&Path>) -> Self {
        let cwd = std::env::current_dir().unwrap_or_default();
        Charts {
            root: root.map_or_else(|| cwd.clone(), Path::to_path_buf),
            cwd,
            found: BTreeMap::new(),
            search: None,
            missing: BTreeMap::new(),
            templates: BTreeMap::new(),
            paths: BTreeMap::new(),
            overrides: BTreeMap::new(),
            notes: Vec::new(),
            not_found: Vec::new(),
        }
    }

    /// Sets `template` on every finding of `report` whose `# Source:` template is found.
    pub fn map_report(&mut self, report: &mut Report) {
        // Every template the output names, by chart: where several charts have the name, the
        // one that holds most of them is the one that rendered it.
        let mut wanted: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for source in report.findings.iter().filter_map(|f| f.source_template.as_deref()) {
            if let Some((name, rest)) = source.split_once('/') {
                let rests = wanted.entry(name.to_owned()).or_default();
                if !rests.iter().any(|r| r == rest) {
                    rests.push(rest.to_owned());
                }
            }
        }
        for (name, rests) in &wanted {
            self.choose_chart(name, rests);
        }
        // Made when a first template is found (for output whose charts are not found, never).
        let mut ordinals = None;
        // The rendered object of the findings being mapped (findings come object by object),
        // read once, and a number for each object read.
        let mut rendered: Option<((String, usize), Option<serde_json::Value>)> = None;
        let mut objects_read = 0;
        for finding in &mut report.findings {
            let Some(source) = finding.source_template.as_deref() else {
                continue;
            };
            let Some((file, template)) = self.template(source) else {
                continue;
            };
            let (ordinals, texts) = ordinals.get_or_insert_with(|| template_ordinals(&report.objects));
            let place = (finding.file.as_str(), finding.document);
            let ordinal = ordinals.get(&place).copied().unwrap_or(0);
            if rendered.as_ref().is_none_or(|((f, d), _)| (f.as_str(), *d) != place) {
                let object = texts.get(&place).and_then(|text| ra2_core::yaml_to_json(text).ok());
                rendered = Some(((finding.file.clone(), finding.document), object));
                objects_read += 1;
            }
            let object = rendered.as_ref().and_then(|(_, o)| o.as_ref());
            let mapped = template.map(
                finding.object.kind.as_deref(),
                ordinal,
                &finding.pointer,
                object.map(|o| (o, objects_read)),
            );
            finding.template = Some(TemplateLocation {
                file,
                line: mapped.line,
                column: mapped.column,
                mapped: mapped.how.as_str().to_owned(),
            });
        }
    }

    /// The reported name and text of the template a `# Source:` comment names.
    fn template(&mut self, source: &str) -> Option<(String, Rc<template_map::Template>)> {
        if let Some(known) = self.templates.get(source) {
            return known.as_ref().ok().cloned();
        }
        let found = self.read_template(source);
        if let Err(note) = &found {
            self.notes.push(note.clone());
        }
        let result = found.as_ref().ok().cloned();
        self.templates.insert(source.to_owned(), found);
        result
    }

    fn read_template(&mut self, source: &str) -> Result<(String, Rc<template_map::Template>), String> {
        let mut parts = source.split('/');
        let name = parts.next().unwrap_or_default();
        let rest: Vec<&str> = parts.collect();
        let charts = self.chart(name)?;
        let Some(path) = charts.iter().find_map(|chart| resolve(chart, &rest)) else {
            // Reported once per chart, with every template it lacks.
            self.missing.entry(name.to_owned()).or_default().push(source.to_owned());
            return Err(String::new());
        };
        self.paths.insert(source.to_owned(), path.clone());
        let text = match self.overrides.get(&path) {
            Some(text) => text.clone(),
            None => std::fs::read_to_string(&path).map_err(|e| {
                format!(
                    "note: {}: cannot read: {e}; its findings stay on the rendered output",
                    path.display()
                )
            })?,
        };
        Ok((self.display(&path), Rc::new(template_map::Template::new(&text))))
    }

    /// The file of the template a `# Source:` comment names, if found (after [`Charts::map_report`]).
    pub fn template_path(&mut self, source: &str) -> Option<PathBuf> {
        self.template(source)?;
        self.paths.get(source).cloned()
    }

    /// Is a chart called `name` found (under the search root)?
    pub fn has_chart(&mut self, name: &str) -> bool {
        self.chart(name).is_ok_and(|c| !c.is_empty())
    }

    /// The directory of the chart called `name`, as chosen for the output (after
    /// [`Charts::map_report`]).
    pub fn chart_dir(&self, name: &str) -> Option<PathBuf> {
        self.found.get(name)?.as_ref().ok()?.first().cloned()
    }

    /// Maps templates as if `path` held `text` from now on (fixing edits the templates it maps
    /// into before it writes them).
    pub fn set_text(&mut self, path: &Path, text: &str) {
        self.overrides.insert(path.to_path_buf(), text.to_owned());
        let stale: Vec<String> = self
            .paths
            .iter()
            .filter(|(_, p)| p.as_path() == path)
            .map(|(source, _)| source.clone())
            .collect();
        for source in stale {
            self.templates.remove(&source);
        }
    }

    /// Looks up the charts called `name` until one holds every template of its own among
    /// `rests` (paths below the chart; a subchart's may be missing, when it is packaged), and
    /// keeps, of those found by then, the nearest that holds most subchart templates too. A chart of
    /// that name that lacks one of its own templates is another chart: none may be left.
    fn choose_chart(&mut self, name: &str, rests: &[String]) {
        let own = |chart: &Path| {
            rests
                .iter()
                .filter(|r| !r.starts_with("charts/"))
                .all(|r| resolve(chart, &r.split('/').collect::<Vec<_>>()).is_some())
        };
        let candidates = match self.chart_until(name, &own) {
            Ok(candidates) => candidates,
            Err(note) if note.is_empty() => return,
            Err(note) => {
                self.not_found.push((name.to_owned(), note));
                return;
            }
        };
        let holds = |chart: &PathBuf, rest: &String| resolve(chart, &rest.split('/').collect::<Vec<_>>()).is_some();
        let mut best: Option<(usize, &PathBuf)> = None;
        for chart in candidates.iter().filter(|c| own(c)) {
            let n = rests.iter().filter(|r| holds(chart, r)).count();
            if best.is_none_or(|(m, _)| n > m) {
                best = Some((n, chart));
            }
        }
        let chosen = match best {
            Some((_, chart)) => Ok(vec![chart.clone()]),
            None => Err(format!(
                "note: Helm chart {name:?} (named by the `# Source:` comments): no chart of that name under {} has its templates ({} looked at); --chart-root DIR says where it is. Findings stay on the rendered output",
                self.root.display(),
                candidates.len()
            )),
        };
        if let Err(note) = &chosen {
            self.notes.push(note.clone());
        }
        self.found.insert(name.to_owned(), chosen);
    }

    /// The directories of the charts called `name` as chosen (see [`Charts::choose_chart`]).
    fn chart(&mut self, name: &str) -> Result<Vec<PathBuf>, String> {
        self.chart_until(name, &|_| false)
    }

    /// The directories of the charts called `name`, nearest first, found by walking on until
    /// one is `enough` (or the walk is over); looked up once.
    fn chart_until(&mut self, name: &str, enough: &dyn Fn(&Path) -> bool) -> Result<Vec<PathBuf>, String> {
        if let Some(known) = self.found.get(name) {
            // Reported once, with the first template that needed it.
            return known.clone().map_err(|_| String::new());
        }
        let search = self.search.get_or_insert_with(|| ChartSearch::new(&self.root));
        let found = Some(search.charts(name, enough)).filter(|c| !c.is_empty()).ok_or_else(|| {
            let bound = if search.budget_spent() {
                format!(" (the search stops after {MAX_ENTRIES} directory entries)")
            } else {
                String::new()
            };
            format!(
                "note: Helm chart {name:?} (named by the `# Source:` comments) not found: no Chart.yaml with that name in {} or {MAX_DEPTH} levels below{bound}; --chart-root DIR says where it is. Findings stay on the rendered output",
                self.root.display()
            )
        });
        self.found.insert(name.to_owned(), found.clone());
        found
    }

    /// A path as reports name files: relative to the working directory when under it.
    pub fn display(&self, path: &Path) -> String {
        let absolute = if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.cwd.join(path)
        };
        let shown = absolute.strip_prefix(&self.cwd).map_or(absolute.as_path(), |p| p);
        shown.to_string_lossy().replace('\\', "/")
    }

    /// The notes, without the empty ones that stand for "already reported". Charts not found
    /// at all are one note each when `verbose` or when there is one; else one note names the
    /// first few and counts the rest.
    pub fn take_notes(&mut self, verbose: bool) -> Vec<String> {
        let not_found = std::mem::take(&mut self.not_found);
        let mut notes: Vec<String> = if verbose || not_found.len() < 2 {
            not_found.into_iter().map(|(_, note)| note).collect()
        } else {
            const NAMED: usize = 5;
            let names: Vec<String> = not_found.iter().take(NAMED).map(|(n, _)| format!("{n:?}")).collect();
            let more = not_found.len().saturating_sub(NAMED);
            let bound = if self.search.as_ref().is_some_and(ChartSearch::budget_spent) {
                format!(", the search stopping after {MAX_ENTRIES} directory entries")
            } else {
                String::new()
            };
            vec![format!(
                "note: {} Helm charts named by `# Source:` comments were not found in {} or {MAX_DEPTH} levels below{bound}: {}{}; their findings stay on the rendered output. --chart-root DIR says where they are; --verbose lists each",
                not_found.len(),
                self.root.display(),
                names.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                },
            )]
        };
        notes.extend(std::mem::take(&mut self.notes).into_iter().filter(|n| !n.is_empty()));
        for (name, sources) in std::mem::take(&mut self.missing) {
            let charts: Vec<String> = self
                .found
                .get(&name)
                .and_then(|f| f.as_ref().ok())
                .map(|c| c.iter().map(|p| self.display(p)).collect())
                .unwrap_or_default();
            notes.push(format!(
                "note: Helm chart {name:?} at {} has no {} (a packaged .tgz subchart, or another chart of that name? --chart-root DIR says where it is); those findings stay on the rendered output",
                charts.join(", "),
                sources.join(", ")
            ));
        }
        notes
    }
}

/// `Chart.yaml` of `dir`, as JSON.
fn chart_yaml(dir: &Path) -> Option<serde_json::Value> {
    let text = std::fs::read_to_string(dir.join("Chart.yaml")).ok()?;
    ra2_core::yaml_to_json(&text).ok()
}

fn chart_name(dir: &Path) -> Option<String> {
    chart_yaml(dir)?.get("name")?.as_str().map(str::to_owned)
}

/// The charts under a search root, by name: one breadth-first walk, nearest first, answers
/// every name the output gives (a walk per name read the same directories over and over),
/// and goes only as far as the names need, within [`MAX_ENTRIES`] directory entries.
struct ChartSearch {
    root: PathBuf,
    /// The name in the root's own `Chart.yaml`.
    root_name: Option<String>,
    /// The charts found so far below the root by name, nearest first, at most
    /// [`MAX_CANDIDATES`] each.
    below: BTreeMap<String, Vec<PathBuf>>,
    /// Directories still to look at, and their depth.
    queue: VecDeque<(PathBuf, usize)>,
    /// Directory entries the walk may still read.
    entries_left: usize,
    /// The walk ran out of entries with some left unread.
    stopped_short: bool,
}

impl ChartSearch {
    fn new(root: &Path) -> ChartSearch {
        ChartSearch {
            root: root.to_path_buf(),
            root_name: chart_name(root),
            below: BTreeMap::new(),
            queue: VecDeque::from([(root.to_path_buf(), 0)]),
            entries_left: MAX_ENTRIES,
            stopped_short: false,
        }
    }

    /// The charts called `name`: the root itself, else those below it, nearest first, as far
    /// as the walk has to go for one that is `enough`.
    fn charts(&mut self, name: &str, enough: &dyn Fn(&Path) -> bool) -> Vec<PathBuf> {
        if self.root_name.as_deref() == Some(name) {
            return vec![self.root.clone()];
        }
        while !self.below.get(name).is_some_and(|c| c.iter().any(|c| enough(c))) && self.step() {}
        self.below.get(name).cloned().unwrap_or_default()
    }

    /// Did the walk stop for its budget, with directories left to read?
    fn budget_spent(&self) -> bool {
        self.stopped_short || self.entries_left == 0 && !self.queue.is_empty()
    }

    /// Looks at the next directory; false when the walk is over.
    fn step(&mut self) -> bool {
        if self.entries_left == 0 {
            return false;
        }
        let Some((dir, depth)) = self.queue.pop_front() else {
            return false;
        };
        if depth > 0
            && let Some(name) = chart_name(&dir)
        {
            let charts = self.below.entry(name).or_default();
            if charts.len() < MAX_CANDIDATES {
                charts.push(dir.clone());
            }
        }
        if depth >= MAX_DEPTH {
            return true;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return true;
        };
        let mut children: Vec<PathBuf> = Vec::new();
        for entry in entries.filter_map(Result::ok) {
            if self.entries_left == 0 {
                self.stopped_short = true;
                break;
            }
            self.entries_left -= 1;
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if entry.file_type().is_ok_and(|t| t.is_dir())
                && !(name.starts_with('.') || name == "node_modules" || name == "target")
            {
                children.push(entry.path());
            }
        }
        children.sort();
        self.queue.extend(children.into_iter().map(|c| (c, depth + 1)));
        true
    }
}

/// The charts called `name` under `root` (one walk; [`Charts`] keeps its walk for every name).
/// Each object's ordinal and rendered text, by file and document ([`template_ordinals`]).
pub(crate) type Ordinals<'a> = (BTreeMap<(&'a str, usize), usize>, BTreeMap<(&'a str, usize), &'a str>);

/// The ordinal of each object (by file and document) among the objects of its kind rendered
/// from the same template, in document order: it picks the template document when a template
/// writes several of one kind. With it, the rendered text of each (Helm output's) object.
pub(crate) fn template_ordinals(objects: &[ObjectSummary]) -> Ordinals<'_> {
    let mut ordinals = BTreeMap::new();
    let mut texts = BTreeMap::new();
    let mut seen: BTreeMap<(&str, &str, Option<&str>), usize> = BTreeMap::new();
    let mut objects: Vec<_> = objects.iter().collect();
    objects.sort_by_key(|o| (&o.file, o.document));
    for object in objects {
        if let Some(template) = &object.source_template {
            let n = seen
                .entry((object.file.as_str(), template.as_str(), object.kind.as_deref()))
                .or_default();
            ordinals.insert((object.file.as_str(), object.document), *n);
            *n += 1;
            if let Some(text) = &object.rendered {
                texts.insert((object.file.as_str(), object.document), &**text);
            }
        }
    }
    (ordinals, texts)
}

/// Every chart called `name` under `root` that the whole walk finds.
#[cfg(test)]
fn find_charts(root: &Path, name: &str) -> Vec<PathBuf> {
    ChartSearch::new(root).charts(name, &|_| false)
}

/// The file a `# Source:` path names inside the chart at `chart`: `charts/<sub>/…` goes into
/// the subchart, found under `charts/` or at the `file://` path of the dependency.
fn resolve(chart: &Path, rest: &[&str]) -> Option<PathBuf> {
    if let ["charts", sub, inner @ ..] = rest {
        if !inner.is_empty() {
            let nested = chart.join("charts").join(sub);
            let sub_dir = if nested.join("Chart.yaml").is_file() {
                Some(nested)
            } else {
                file_dependency(chart, sub)
            };
            if let Some(found) = sub_dir.and_then(|d| resolve(&d, inner)) {
                return Some(found);
            }
        }
    }
    let path = rest.iter().fold(chart.to_path_buf(), |p, part| p.join(part));
    path.is_file().then_some(path)
}

/// The directory of the dependency `sub` (by alias or name) that the chart's `Chart.yaml`
/// takes from a `file://` path.
fn file_dependency(chart: &Path, sub: &str) -> Option<PathBuf> {
    let yaml = chart_yaml(chart)?;
    yaml.get("dependencies")?.as_array()?.iter().find_map(|dep| {
        let called = dep.get("alias").or_else(|| dep.get("name"))?.as_str()?;
        let path = dep.get("repository")?.as_str()?.strip_prefix("file://")?;
        (called == sub).then(|| chart.join(path))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ra2-chart-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn charts_subcharts_and_file_dependencies_are_found() {
        let root = temp_dir("find");
        write(
            &root.join("charts/cnf/Chart.yaml"),
            "apiVersion: v2\nname: cnf\ndependencies:\n  - name: db\n    alias: store\n    repository: file://../../libs/db\n",
        );
        write(&root.join("charts/cnf/templates/a.yaml"), "kind: Pod\n");
        write(&root.join("charts/cnf/charts/cache/Chart.yaml"), "name: cache\n");
        write(&root.join("charts/cnf/charts/cache/templates/c.yaml"), "kind: Pod\n");
        write(&root.join("libs/db/Chart.yaml"), "name: db\n");
        write(&root.join("libs/db/templates/sts.yaml"), "kind: StatefulSet\n");
        write(&root.join("node_modules/x/Chart.yaml"), "name: other\n");
        write(&root.join("vendor/cnf/Chart.yaml"), "name: cnf\n");
        let charts = find_charts(&root, "cnf");
        assert_eq!(
            charts,
            [root.join("charts/cnf"), root.join("vendor/cnf")],
            "nearest first, every copy"
        );
        let chart = charts[0].clone();
        assert_eq!(
            find_charts(&chart, "cnf"),
            std::slice::from_ref(&chart),
            "the root itself"
        );
        assert!(find_charts(&root, "other").is_empty(), "node_modules is skipped");
        assert!(find_charts(&root, "missing").is_empty());

        // A nearer chart of the same name that lacks the chart's own templates is another
        // chart; a missing subchart template (a packaged .tgz) is allowed.
        write(&root.join("a/Chart.yaml"), "name: cnf\n");
        let mut charts = Charts::new(Some(&root));
        let rests = ["templates/a.yaml".to_owned(), "charts/gone/templates/x.yaml".to_owned()];
        charts.choose_chart("cnf", &rests);
        assert_eq!(charts.chart("cnf"), Ok(vec![root.join("charts/cnf")]));
        let mut charts = Charts::new(Some(&root));
        charts.choose_chart("cnf", &["templates/none.yaml".to_owned()]);
        assert!(charts.chart("cnf").is_err());
        assert_eq!(charts.take_notes(false).len(), 1);
        assert_eq!(
            resolve(&chart, &["templates", "a.yaml"]),
            Some(chart.join("templates/a.yaml"))
        );
        assert_eq!(
            resolve(&chart, &["charts", "cache", "templates", "c.yaml"]),
            Some(chart.join("charts/cache/templates/c.yaml"))
        );
        let sts = resolve(&chart, &["charts", "store", "templates", "sts.yaml"]).unwrap();
        assert!(sts.ends_with("libs/db/templates/sts.yaml"), "{}", sts.display());
        assert_eq!(resolve(&chart, &["charts", "gone", "templates", "x.yaml"]), None);
        let _ = std::fs::remove_dir_all(&root);
    }

    /// Charts not found: one note for several (naming the first few), one each with `verbose`.
    #[test]
    fn charts_not_found_are_one_note_unless_verbose() {
        let root = temp_dir("not-found");
        write(&root.join("a/Chart.yaml"), "name: here\n");
        for verbose in [false, true] {
            let mut charts = Charts::new(Some(&root));
            for name in ["gone1", "gone2", "gone3", "gone4", "gone5", "gone6", "gone7"] {
                charts.choose_chart(name, &["templates/a.yaml".to_owned()]);
            }
            // Asked again (another template of the chart): not said again.
            charts.choose_chart("gone1", &["templates/b.yaml".to_owned()]);
            let notes = charts.take_notes(verbose);
            if verbose {
                assert_eq!(notes.len(), 7, "{notes:?}");
                assert!(notes[0].contains("Helm chart \"gone1\""), "{}", notes[0]);
            } else {
                assert_eq!(notes.len(), 1, "{notes:?}");
                assert!(
                    notes[0].starts_with("note: 7 Helm charts named by `# Source:` comments were not found in ")
                        && notes[0].contains(": \"gone1\", \"gone2\", \"gone3\", \"gone4\", \"gone5\" and 2 more;")
                        && notes[0].ends_with("--verbose lists each"),
                    "{}",
                    notes[0]
                );
            }
        }
        let _ = std::fs::remove_dir_all(&root);
    }

    /// The walk goes only as far as a name needs, and no further than its budget in all.
    #[test]
    fn the_search_stops_at_the_first_chart_that_holds_the_templates_and_at_its_budget() {
        let root = temp_dir("budget");
        write(&root.join("near/Chart.yaml"), "name: cnf\n");
        write(&root.join("near/templates/a.yaml"), "kind: Pod\n");
        write(&root.join("x/y/far/Chart.yaml"), "name: cnf\n");
        write(&root.join("x/y/far/templates/a.yaml"), "kind: Pod\n");
        let mut search = ChartSearch::new(&root);
        let holds = |c: &Path| c.join("templates/a.yaml").is_file();
        assert_eq!(search.charts("cnf", &holds), [root.join("near")]);
        assert!(!search.queue.is_empty(), "the walk stopped at the first match");
        assert_eq!(
            search.charts("cnf", &|_| false),
            [root.join("near"), root.join("x/y/far")]
        );
        assert!(search.queue.is_empty() && !search.budget_spent());

        // More entries than the budget, the chart beyond them: not found, and the note says why.
        let wide = root.join("wide");
        for i in 0..MAX_ENTRIES {
            std::fs::create_dir_all(wide.join(format!("d{i:05}"))).unwrap();
        }
        write(&root.join("zz/deep/Chart.yaml"), "name: late\n");
        let mut charts = Charts::new(Some(&root));
        charts.choose_chart("late", &["templates/a.yaml".to_owned()]);
        let notes = charts.take_notes(false);
        assert_eq!(notes.len(), 1);
        assert!(
            notes[0].contains("the search stops after 10000 directory entries"),
            "{}",
            notes[0]
        );
        let _ = std::fs::remove_dir_all(&root);
    }
}
