//! ra2-py: the Python face of ra2 (`import ra2`). A thin layer: it turns Python arguments into
//! ra2-core's settings, runs ra2-core (with ra2-input's input discovery, and ra2-run for
//! `python -m ra2`) with the GIL released, and turns the report into Python objects. Nothing
//! here decides anything about manifests.

use std::path::PathBuf;

use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyList, PyString};
use serde_json::Value;

use ra2_core::admission::{self, ReviewError, Verdict};
use ra2_core::settings::{self, Overrides};
use ra2_core::{Config, ConfigError, Edition, FailOn, Linter};
use ra2_input::ReadProblem;
use ra2_input::config::ConfigFileError;

/// The name `lint` gives its text when no `filename` is passed.
const DEFAULT_FILENAME: &str = "<string>";

// ---------------------------------------------------------------------------------------------
// JSON <-> Python

/// A JSON value as plain Python data (dict, list, str, int, float, bool, None).
fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN)).into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(fields) => {
            let dict = PyDict::new(py);
            for (key, item) in fields {
                dict.set_item(key, to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

/// Python data as JSON, through the standard `json` module, which also refuses cycles, NaN and
/// objects it cannot represent (with a Python exception, never a crash).
fn json_text(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<String> {
    let kwargs = PyDict::new(py);
    kwargs.set_item("allow_nan", false)?;
    py.import("json")?
        .call_method("dumps", (value,), Some(&kwargs))?
        .extract()
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "object".to_owned(), |n| n.to_string())
}

fn is_pathlike(value: &Bound<'_, PyAny>) -> bool {
    value.is_instance_of::<PyString>() || value.hasattr("__fspath__").unwrap_or(false)
}

fn is_mapping(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<bool> {
    if value.is_instance_of::<PyDict>() {
        return Ok(true);
    }
    let mapping = py.import("collections.abc")?.getattr("Mapping")?;
    value.is_instance(&mapping)
}

// ---------------------------------------------------------------------------------------------
// Settings

/// `config /exemptions/0: missing required key "reason"` lines for a config given as data.
fn data_config_error(what: &str, errors: &[ConfigError]) -> PyErr {
    let lines: Vec<String> = errors
        .iter()
        .map(|e| {
            if e.pointer.is_empty() {
                format!("{what}: {}", e.message)
            } else {
                format!("{what} {}: {}", e.pointer, e.message)
            }
        })
        .collect();
    PyValueError::new_err(lines.join("\n"))
}

/// An `OSError` (the subclass Python picks for the error number, such as FileNotFoundError).
fn os_error(file: &str, errno: Option<i32>, message: &str) -> PyErr {
    let reason = message.strip_prefix("cannot read: ").unwrap_or(message);
    let reason = reason
        .find(" (os error")
        .map_or(reason, |i| reason.get(..i).unwrap_or(reason));
    match errno {
        Some(errno) => PyOSError::new_err((errno, reason.to_owned(), file.to_owned())),
        None => PyOSError::new_err(format!("{file}: {reason}")),
    }
}

fn read_problem_error(problem: &ReadProblem) -> PyErr {
    os_error(&problem.file, problem.errno, &problem.message)
}

/// The `config` option: a mapping of `.ra2.yaml` keys, or the path of a `.ra2.yaml` file.
fn base_config(py: Python<'_>, config: &Bound<'_, PyAny>) -> PyResult<Config> {
    if is_mapping(py, config)? {
        let dict = py.import("builtins")?.getattr("dict")?.call1((config,))?;
        let text = json_text(py, &dict).map_err(|e| {
            PyValueError::new_err(format!(
                "config must hold only dicts, lists, strings, numbers, booleans and None: {e}"
            ))
        })?;
        let value: Value =
            serde_json::from_str(&text).map_err(|e| PyValueError::new_err(format!("config is not JSON data: {e}")))?;
        return Config::from_json(&value, "config").map_err(|errors| data_config_error("config", &errors));
    }
    if is_pathlike(config) {
        let path: PathBuf = config.extract()?;
        return py
            .detach(|| ra2_input::config::load(Some(&path)))
            .map_err(|e| config_file_error(&e));
    }
    Err(PyValueError::new_err(format!(
        "config must be a mapping of .ra2.yaml keys or the path of a .ra2.yaml file, found {}",
        type_name(config)
    )))
}

/// A config file that could not be read (OSError) or is not a valid `.ra2.yaml` (ValueError).
fn config_file_error(error: &ConfigFileError) -> PyErr {
    match error {
        ConfigFileError::Read { name, error } => os_error(name, error.raw_os_error(), &error.to_string()),
        ConfigFileError::NotUtf8 { name } => PyValueError::new_err(format!("config file {name} is not UTF-8")),
        ConfigFileError::Invalid(errors) => {
            let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
            PyValueError::new_err(lines.join("\n"))
        }
    }
}

/// `select` and `ignore`: one selector (comma-separated like the CLI's flags) or an iterable of
/// them.
fn selectors(option: &str, value: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let wrong = |found: &Bound<'_, PyAny>| {
        PyValueError::new_err(format!(
            "{option} must be a rule id, prefix or id/check, or a list of them, found {}",
            type_name(found)
        ))
    };
    if let Ok(text) = value.cast::<PyString>() {
        let text = text.to_cow()?;
        return Ok(text
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect());
    }
    let Ok(items) = value.try_iter() else {
        return Err(wrong(value));
    };
    let mut out = Vec::new();
    for item in items {
        let item = item?;
        let text = item.cast::<PyString>().map_err(|_| wrong(&item))?.to_cow()?;
        let text = text.trim();
        if !text.is_empty() {
            out.push(text.to_owned());
        }
    }
    Ok(out)
}

/// The settings of a run: `config` first, then `edition`, `select` and `ignore` on top, resolved
/// by ra2-core's settings as the CLI's flags are (an unknown rule id is refused with a "did you
/// mean").
fn settings(
    py: Python<'_>,
    edition: Option<&Bound<'_, PyAny>>,
    select: Option<&Bound<'_, PyAny>>,
    ignore: Option<&Bound<'_, PyAny>>,
    config: Option<&Bound<'_, PyAny>>,
) -> PyResult<Config> {
    let resolved = match config.filter(|c| !c.is_none()) {
        Some(config) => base_config(py, config)?,
        None => Config::default(),
    };
    apply(resolved, edition, select, ignore)
}

/// The settings of `lint_paths`: as [`settings`], but without `config` the `.ra2.yaml` found
/// from the working directory up is read, as `ra2 lint` reads it.
fn file_settings(
    py: Python<'_>,
    edition: Option<&Bound<'_, PyAny>>,
    select: Option<&Bound<'_, PyAny>>,
    ignore: Option<&Bound<'_, PyAny>>,
    config: Option<&Bound<'_, PyAny>>,
) -> PyResult<Config> {
    let resolved = match config.filter(|c| !c.is_none()) {
        Some(config) => base_config(py, config)?,
        None => py
            .detach(|| ra2_input::config::load(None))
            .map_err(|e| config_file_error(&e))?,
    };
    apply(resolved, edition, select, ignore)
}

/// `edition`, `select` and `ignore` on top of a config.
fn apply(
    resolved: Config,
    edition: Option<&Bound<'_, PyAny>>,
    select: Option<&Bound<'_, PyAny>>,
    ignore: Option<&Bound<'_, PyAny>>,
) -> PyResult<Config> {
    let mut overrides = Overrides::default();
    if let Some(edition) = edition.filter(|e| !e.is_none()) {
        let text = edition.cast::<PyString>().map_err(|_| {
            PyValueError::new_err(format!(
                "edition must be \"base\" or \"latest\", found {}",
                type_name(edition)
            ))
        })?;
        let edition =
            settings::parse_edition(&text.to_cow()?).map_err(|e| PyValueError::new_err(format!("edition: {e}")))?;
        overrides.edition = Some(edition);
    }
    if let Some(value) = select.filter(|v| !v.is_none()) {
        overrides.select = Some(selectors("select", value)?);
    }
    if let Some(value) = ignore.filter(|v| !v.is_none()) {
        overrides.ignore = Some(selectors("ignore", value)?);
    }
    let mut config = overrides.apply(resolved).map_err(|unknown| {
        let lines: Vec<String> = unknown
            .iter()
            .map(|u| format!("{}: {}{}", u.option, u.message(), u.hint("")))
            .collect();
        PyValueError::new_err(lines.join("\n"))
    })?;
    // Waivers expire by the clock (or SOURCE_DATE_EPOCH), as in `ra2 lint`.
    config.today = Some(ra2_run::settings::today().map_err(|lines| PyValueError::new_err(lines.join("\n")))?);
    Ok(config)
}

fn name_of(option: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    if !is_pathlike(value) {
        return Err(PyValueError::new_err(format!(
            "{option} must be a string, found {}",
            type_name(value)
        )));
    }
    let path: PathBuf = value.extract()?;
    Ok(Some(path.to_string_lossy().into_owned()))
}

// ---------------------------------------------------------------------------------------------
// Result types

/// What a getter hands Python for a field of a report record: strings borrowed, optional
/// strings as `str | None`, numbers and flags copied.
trait Attr<'a, T> {
    fn attr(&'a self) -> T;
}

impl<'a> Attr<'a, &'a str> for String {
    fn attr(&'a self) -> &'a str {
        self
    }
}

impl<'a> Attr<'a, Option<&'a str>> for Option<String> {
    fn attr(&'a self) -> Option<&'a str> {
        self.as_deref()
    }
}

impl<T: Copy> Attr<'_, T> for T {
    fn attr(&self) -> T {
        *self
    }
}

/// A frozen Python class over one record of the JSON output (`struct Py…(record)`): a
/// read-only attribute for each field listed in `fields` (its doc comment is the docstring),
/// `to_dict()` (the record's JSON shape; the doc comment before `to_dict;` is its docstring) and
/// the class's own methods after that.
macro_rules! record_class {
    (
        $(#[doc = $class_doc:literal])*
        #[derive($($derive:ident),*)]
        struct $class:ident($record:ty) as $name:literal;
        fields {
            $( $(#[doc = $doc:literal])* $field:ident: $ty:ty, )*
        }
        $(#[doc = $dict_doc:literal])*
        to_dict;
        $($methods:tt)*
    ) => {
        $(#[doc = $class_doc])*
        #[pyclass(frozen, eq, module = "ra2", name = $name)]
        #[derive($($derive),*)]
        struct $class($record);

        #[pymethods]
        impl $class {
            $(
                $(#[doc = $doc])*
                #[getter]
                fn $field(&self) -> $ty {
                    Attr::attr(&self.0.$field)
                }
            )*
            $(#[doc = $dict_doc])*
            fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                to_py(py, &serde_json::to_value(&self.0).unwrap_or(Value::Null))
            }
            $($methods)*
        }
    };
}

record_class! {
    /// The object a finding is about: `Finding.object`.
    #[derive(Clone, PartialEq)]
    struct PyObjectRef(ra2_core::ObjectRef) as "ObjectRef";
    fields {
        /// `apiVersion` of the object, if it has one.
        api_version: Option<&str>,
        /// `kind` of the object.
        kind: Option<&str>,
        /// `metadata.namespace`, if set.
        namespace: Option<&str>,
        /// `metadata.name`, if set.
        name: Option<&str>,
    }
    /// The JSON shape: `{"apiVersion": ..., "kind": ..., "namespace": ..., "name": ...}`, without
    /// the keys that are not set.
    to_dict;
    fn __repr__(&self) -> String {
        format!("<ra2.ObjectRef {}>", self.0)
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }
}

record_class! {
    /// A second place a finding refers to: `Finding.related`.
    #[derive(Clone, PartialEq)]
    struct PyRelated(ra2_core::report::Related) as "Related";
    fields {
        /// What is there.
        message: &str,
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// 1-based line where the range ends.
        end_line: usize,
        /// 1-based column where the range ends.
        end_column: usize,
    }
    /// The JSON shape.
    to_dict;
    fn __repr__(&self) -> String {
        format!("<ra2.Related {}:{} {:?}>", self.0.line, self.0.column, self.0.message)
    }
}

record_class! {
    /// One rule violation: the fields of a finding in the JSON output, as attributes.
    #[derive(PartialEq)]
    struct PyFinding(ra2_core::Finding) as "Finding";
    fields {
        /// The rule id (`ra2.app.007`), or `yaml`, `suppression` or `exemption`.
        rule: &str,
        /// The check within the rule (`host-path`).
        check: &str,
        /// What is wrong, naming the concrete thing.
        message: &str,
        /// How to fix it (a sentence).
        help: &str,
        /// The file (as given, `<stdin>`, or the `filename` of `lint`).
        file: &str,
        /// 1-based line of the offending node.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// 1-based line where the offending node ends.
        end_line: usize,
        /// 1-based column where the offending node ends.
        end_column: usize,
        /// 0-based index of the YAML document in its file.
        document: usize,
        /// JSON pointer of the offending field in its object (`/spec/template/spec/volumes/0/hostPath`).
        pointer: &str,
        /// The Helm template the document was rendered from (its `# Source:` comment), if any.
        source_template: Option<&str>,
        /// True when the API server itself refuses the object for this condition.
        refused_by_api_server: bool,
    }
    /// The finding as in the JSON output: a dict with the same keys.
    to_dict;
    /// `error`, `warning` or `info`.
    #[getter]
    fn severity(&self) -> &'static str {
        self.0.severity.as_str()
    }
    /// The object the finding is about.
    #[getter]
    fn object(&self) -> PyObjectRef {
        PyObjectRef(self.0.object.clone())
    }
    /// Other places the finding refers to (for example the anchor an alias expanded).
    #[getter]
    fn related(&self) -> Vec<PyRelated> {
        self.0.related.iter().cloned().map(PyRelated).collect()
    }
    /// The mechanical remedy as in the JSON output (`applicability`, `title`, `patch`), or
    /// `None` when the check has none.
    #[getter]
    fn fix<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.0
            .fix
            .as_ref()
            .map(|fix| to_py(py, &serde_json::to_value(fix).unwrap_or(Value::Null)))
            .transpose()
    }
    fn __repr__(&self) -> String {
        let f = &self.0;
        format!(
            "<ra2.Finding {}/{} {} {}:{}:{} {:?}>",
            f.rule, f.check, f.severity, f.file, f.line, f.column, f.message
        )
    }
    fn __str__(&self) -> String {
        let f = &self.0;
        format!(
            "{}:{}:{}: {} {}/{}: {}",
            f.file, f.line, f.column, f.severity, f.rule, f.check, f.message
        )
    }
}

record_class! {
    /// Input that could not be read or is not a Kubernetes object (a record in `Report.errors`, not
    /// an exception).
    #[derive(PartialEq)]
    struct PyLintError(ra2_core::LintError) as "LintError";
    fields {
        /// The file.
        file: &str,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// 0-based index of the YAML document in its file.
        document: usize,
        /// What went wrong.
        message: &str,
        /// A stable code such as `ra2::parse::yaml`.
        code: &str,
    }
    /// The error as in the JSON output.
    to_dict;
    fn __repr__(&self) -> String {
        let e = &self.0;
        format!("<ra2.LintError {}:{}:{} {:?}>", e.file, e.line, e.column, e.message)
    }
    fn __str__(&self) -> String {
        let e = &self.0;
        format!("{}:{}:{}: {}", e.file, e.line, e.column, e.message)
    }
}

record_class! {
    /// One object that was linted: an entry of `Report.objects`.
    #[derive(PartialEq)]
    struct PyObjectInfo(ra2_core::report::ObjectSummary) as "ObjectInfo";
    fields {
        /// The file.
        file: &str,
        /// 0-based index of the YAML document in its file.
        document: usize,
        /// 1-based line where the object starts.
        line: usize,
        /// `apiVersion`, if set.
        api_version: Option<&str>,
        /// `kind`.
        kind: Option<&str>,
        /// `metadata.name`, if set.
        name: Option<&str>,
        /// `metadata.namespace`, if set.
        namespace: Option<&str>,
        /// The Helm template the document was rendered from, if any.
        source_template: Option<&str>,
        /// `test` for a Helm test hook, else None.
        hook: Option<&str>,
    }
    /// The object as in the JSON output.
    to_dict;
    /// The workload profile (`basic` or `network-intensive`), for objects with a pod spec.
    #[getter]
    fn profile(&self) -> Option<&'static str> {
        self.0.profile.map(|p| match p {
            ra2_core::report::Profile::Basic => "basic",
            ra2_core::report::Profile::NetworkIntensive => "network-intensive",
        })
    }
    fn __repr__(&self) -> String {
        let o = &self.0;
        format!(
            "<ra2.ObjectInfo {} {}{} {}:{}>",
            o.kind.as_deref().unwrap_or("?"),
            o.namespace.as_deref().map(|n| format!("{n}/")).unwrap_or_default(),
            o.name.as_deref().unwrap_or("?"),
            o.file,
            o.line
        )
    }
}

/// Everything one lint run found: findings (sorted by file, line, column, rule), errors, the
/// objects linted and a summary. `len(report)` is the number of findings and iterating it yields
/// them; `report.to_json()` is exactly what `ra2 lint --format json` prints.
#[pyclass(frozen, module = "ra2", name = "Report")]
struct PyReport {
    report: ra2_core::Report,
    fail_on: FailOn,
    findings: PyOnceLock<Vec<Py<PyFinding>>>,
}

impl PyReport {
    fn new(report: ra2_core::Report, fail_on: FailOn) -> Self {
        PyReport {
            report,
            fail_on,
            findings: PyOnceLock::new(),
        }
    }

    fn finding_objects(&self, py: Python<'_>) -> PyResult<&Vec<Py<PyFinding>>> {
        self.findings.get_or_try_init(py, || {
            self.report
                .findings
                .iter()
                .map(|f| Py::new(py, PyFinding(f.clone())))
                .collect()
        })
    }
}

#[pymethods]
impl PyReport {
    /// The findings, sorted by file, line, column and rule.
    #[getter]
    fn findings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.finding_objects(py)?.iter().map(|f| f.clone_ref(py)))
    }
    /// Input that could not be read or is not a Kubernetes object.
    #[getter]
    fn errors(&self) -> Vec<PyLintError> {
        self.report.errors.iter().cloned().map(PyLintError).collect()
    }
    /// Every object linted, with its workload profile.
    #[getter]
    fn objects(&self) -> Vec<PyObjectInfo> {
        self.report.objects.iter().cloned().map(PyObjectInfo).collect()
    }
    /// Counts: files, documents, objects, errors, findings by severity, suppressed findings
    /// (also by reason), as in the JSON output.
    #[getter]
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &serde_json::to_value(&self.report.summary).unwrap_or(Value::Null))
    }
    /// The edition the rules ran in: `base` or `latest`.
    #[getter]
    fn edition(&self) -> &str {
        &self.report.edition
    }
    /// What `ra2 lint` would exit with: 2 when some input could not be read, else 1 when a
    /// finding is at or above the run's `fail-on` (default `error`), else 0.
    #[getter]
    fn exit_code(&self) -> u8 {
        ra2_report::exit_status(&self.report, self.fail_on)
    }
    /// The JSON output contract (version 1), pretty-printed: the same text as
    /// `ra2 lint --format json`, without the final newline.
    fn to_json(&self, py: Python<'_>) -> String {
        let report = &self.report;
        py.detach(|| report.to_json())
    }
    /// The JSON output contract as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.report.to_json_value())
    }
    /// SARIF 2.1.0: byte for byte what `ra2 lint --format sarif` prints (final newline included).
    fn to_sarif(&self, py: Python<'_>) -> String {
        let report = &self.report;
        py.detach(|| ra2_report::sarif::render(report))
    }
    /// JUnit XML: byte for byte what `ra2 lint --format junit` prints.
    fn to_junit(&self, py: Python<'_>) -> String {
        let report = &self.report;
        py.detach(|| ra2_report::junit::render(report))
    }
    fn __len__(&self) -> usize {
        self.report.findings.len()
    }
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.findings(py)?.try_iter()?.into_any())
    }
    fn __repr__(&self) -> String {
        let s = &self.report.summary;
        format!(
            "<ra2.Report {} findings ({} error, {} warning, {} info), {} errors, {} objects in {} files, edition {}>",
            self.report.findings.len(),
            s.findings.error,
            s.findings.warning,
            s.findings.info,
            s.errors,
            s.objects,
            s.files,
            self.report.edition
        )
    }
}

// ---------------------------------------------------------------------------------------------
// Functions

/// Lints manifests given as text: a YAML stream (`---` between documents), JSON, or a
/// `kind: List`.
///
/// `text` is a str, or bytes that must be UTF-8 (invalid bytes become an entry of
/// `Report.errors`, as in the CLI). `filename` is the name findings carry (default
/// `<string>`). `config` is a mapping of `.ra2.yaml` keys or the path of a `.ra2.yaml` file;
/// `edition` (`base` or `latest`), `select` and `ignore` (rule ids, prefixes or `id/check`, as
/// a list or a comma-separated string) override it. A bad option raises ValueError. The GIL is
/// released while the rules run.
#[pyfunction]
#[pyo3(signature = (text, *, filename=None, edition=None, select=None, ignore=None, config=None))]
fn lint(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    filename: Option<&Bound<'_, PyAny>>,
    edition: Option<&Bound<'_, PyAny>>,
    select: Option<&Bound<'_, PyAny>>,
    ignore: Option<&Bound<'_, PyAny>>,
    config: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyReport> {
    let filename = name_of("filename", filename)?.unwrap_or_else(|| DEFAULT_FILENAME.to_owned());
    let config = settings(py, edition, select, ignore, config)?;
    let report = if let Ok(text) = text.cast::<PyString>() {
        let text = text.to_cow()?;
        py.detach(|| {
            let mut linter = new_linter(&config);
            linter.add_file(&filename, &text);
            linter.finish()
        })
    } else if let Ok(bytes) = text.cast::<PyBytes>() {
        let bytes = bytes.as_bytes();
        py.detach(|| lint_bytes(&filename, bytes, &config))
    } else if let Ok(bytes) = text.cast::<PyByteArray>() {
        let bytes = bytes.to_vec();
        py.detach(|| lint_bytes(&filename, &bytes, &config))
    } else {
        return Err(PyTypeError::new_err(format!(
            "text must be str or bytes, found {}",
            type_name(text)
        )));
    };
    Ok(PyReport::new(report, config.fail_on))
}

/// Applies the fixes of the findings in `text` (a str) and returns the fixed text: the safe
/// fixes, and the unsafe ones too with `unsafe_fixes=True`, as `ra2 lint --fix` does. Only
/// the nodes a fix edits change; a fix whose result would not parse or would gain a finding is
/// left out. The options are `lint`'s. The GIL is released while fixing.
#[pyfunction]
#[pyo3(signature = (text, *, filename=None, edition=None, select=None, ignore=None, config=None, unsafe_fixes=false))]
#[allow(clippy::too_many_arguments)]
fn fix(
    py: Python<'_>,
    text: &str,
    filename: Option<&Bound<'_, PyAny>>,
    edition: Option<&Bound<'_, PyAny>>,
    select: Option<&Bound<'_, PyAny>>,
    ignore: Option<&Bound<'_, PyAny>>,
    config: Option<&Bound<'_, PyAny>>,
    unsafe_fixes: bool,
) -> PyResult<String> {
    let filename = name_of("filename", filename)?.unwrap_or_else(|| DEFAULT_FILENAME.to_owned());
    let config = settings(py, edition, select, ignore, config)?;
    Ok(py.detach(|| ra2_core::fix::fix_text(&filename, text, &config, unsafe_fixes).text))
}

fn lint_bytes(filename: &str, bytes: &[u8], config: &Config) -> ra2_core::Report {
    // Each document is decoded on its own: invalid UTF-8 fails only its document.
    let mut linter = new_linter(config);
    linter.add_file_bytes(filename, bytes);
    linter.finish()
}

/// A linter for `config`, with strict mode's schema checks when the config asks for them (as
/// `ra2 lint --strict`).
fn new_linter(config: &Config) -> Linter<'_> {
    let linter = Linter::new(config);
    if config.strict {
        linter.with_object_hook(Box::new(ra2_strict::Strict::new()))
    } else {
        linter
    }
}

/// The paths argument of `lint_paths`: one path, or an iterable of them.
fn path_list(paths: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if is_pathlike(paths) {
        return Ok(vec![paths.extract()?]);
    }
    let wrong = |found: &Bound<'_, PyAny>| {
        PyTypeError::new_err(format!(
            "paths must be a path (str or os.PathLike) or an iterable of them, found {}",
            type_name(found)
        ))
    };
    let Ok(items) = paths.try_iter() else {
        return Err(wrong(paths));
    };
    let mut out = Vec::new();
    for item in items {
        let item = item?;
        if !is_pathlike(&item) {
            return Err(wrong(&item));
        }
        out.push(item.extract()?);
    }
    Ok(out)
}

/// Lints files and directories, as `ra2 lint PATH...` does.
///
/// `paths` is one path or an iterable of them (str or os.PathLike). Directories are walked
/// recursively for `*.yaml`, `*.yml` and `*.json` files in name order, skipping hidden entries,
/// symlinked directories and, unless `respect_ignore_files=False`, what `.gitignore` (in a git
/// repository), `.ignore` and git's excludes leave out (as ripgrep does), and skipping
/// (counting in `summary["skipped"]`) files and
/// documents that are not Kubernetes manifests (kustomization files, `Chart.yaml`,
/// `values*.yaml`, docker-compose files, documents with neither apiVersion nor kind); files
/// named explicitly are linted whatever their name and extension, strictly unless the config
/// sets `skip-non-k8s`; `-` reads standard input. Findings carry each path as written. A path that cannot be read
/// raises OSError (FileNotFoundError, PermissionError, ...); a file that is not UTF-8 is an
/// entry of `Report.errors`, as in the CLI. Without `config`, the `.ra2.yaml` in the working
/// directory or a parent is read, as `ra2 lint` reads it (`config={}`: none). The
/// options are those of `lint`. The GIL is released while files are read and linted, on every
/// available core (the report is the same as on one thread).
#[pyfunction]
#[pyo3(signature = (paths, *, edition=None, select=None, ignore=None, config=None, respect_ignore_files=true))]
fn lint_paths(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    edition: Option<&Bound<'_, PyAny>>,
    select: Option<&Bound<'_, PyAny>>,
    ignore: Option<&Bound<'_, PyAny>>,
    config: Option<&Bound<'_, PyAny>>,
    respect_ignore_files: bool,
) -> PyResult<PyReport> {
    let paths = path_list(paths)?;
    let config = file_settings(py, edition, select, ignore, config)?;
    let report = py
        .detach(|| lint_inputs(&paths, &config, respect_ignore_files))
        .map_err(|problem| read_problem_error(&problem))?;
    Ok(PyReport::new(report, config.fail_on))
}

/// Discovers and lints, as the CLI does; I/O failures stop the run (the caller raises OSError).
fn lint_inputs(
    paths: &[PathBuf],
    config: &Config,
    respect_ignore_files: bool,
) -> Result<ra2_core::Report, ReadProblem> {
    let mut linter = new_linter(config);
    if paths.is_empty() {
        return Ok(linter.finish());
    }
    let mut content_problems = Vec::new();
    let mut io_problem = None;
    // Every core, with the same report as one thread (ra2_input::parallel).
    let jobs = ra2_input::parallel::default_jobs();
    let found = ra2_input::parallel::lint_paths(
        paths,
        ra2_input::Discovery {
            skip_non_k8s: config.skip_non_k8s,
            respect_ignore_files,
        },
        &mut linter,
        jobs,
        false,
        |_, outcome| match outcome.problem {
            Some(problem) if problem.errno.is_some() => {
                io_problem = Some(problem);
                false
            }
            Some(problem) => {
                content_problems.push(problem);
                true
            }
            None => true,
        },
        None,
    );
    // A path that cannot be walked is the first failure, as if nothing had been read.
    if let Some(problem) = found.problems.into_iter().next().or(io_problem) {
        return Err(problem);
    }
    for file in &found.skipped {
        linter.record_skipped(file.reason);
    }
    let mut report = linter.finish();
    report
        .errors
        .extend(content_problems.into_iter().map(ReadProblem::into_lint_error));
    report.finalize();
    Ok(report)
}

/// Decides an admission request, as a validating admission webhook would.
///
/// `review` is an `admission.k8s.io/v1` AdmissionReview (a dict, as decoded from the request
/// body); the result is the AdmissionReview response with the same `uid`. The object is denied
/// (`allowed: False`, `status.code` 403, a message of `rule pointer: message` lines) when a
/// finding is at or above the `fail-on` of the settings (default `error`); findings below it
/// become `warnings`. DELETE and CONNECT are allowed; UPDATE judges the new object; controllers
/// are judged by their pod template. A malformed request raises ValueError saying what is
/// wrong. The options are those of `lint`.
#[pyfunction]
#[pyo3(signature = (review, *, edition=None, select=None, ignore=None, config=None))]
fn review<'py>(
    py: Python<'py>,
    review: &Bound<'py, PyAny>,
    edition: Option<&Bound<'py, PyAny>>,
    select: Option<&Bound<'py, PyAny>>,
    ignore: Option<&Bound<'py, PyAny>>,
    config: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    if !is_mapping(py, review)? {
        return Err(PyTypeError::new_err(format!(
            "review must be an AdmissionReview dict, found {}",
            type_name(review)
        )));
    }
    let config = settings(py, edition, select, ignore, config)?;
    if config.strict {
        // The admission decision judges the object the API server has already decoded, so an
        // unknown field is gone by then: refuse the setting rather than ignore it.
        return Err(PyValueError::new_err(
            "config /strict: strict mode does not apply to review (the API server has already decoded the object and dropped unknown fields); use ra2.lint(..., config={\"strict\": True}) on the manifest",
        ));
    }
    let dict = py.import("builtins")?.getattr("dict")?.call1((review,))?;
    let text = json_text(py, &dict).map_err(|e| PyValueError::new_err(format!("review is not JSON data: {e}")))?;
    let response = py.detach(|| {
        let answer = admission::review(admission::Input::Text(&text), &config);
        // A review ra2 cannot judge is answered 400 (what a webhook must do); from Python it
        // is a ValueError, so callers never mistake it for a policy decision.
        match answer.verdict {
            Verdict::Invalid(ReviewError::NotJson(e)) => Err(format!("review is not JSON data: {e}")),
            Verdict::Invalid(error) => Err(error.status_message()),
            Verdict::Allowed | Verdict::Denied => Ok(answer.review),
        }
    });
    match response {
        Ok(value) => to_py(py, &value),
        Err(message) => Err(PyValueError::new_err(message)),
    }
}

/// The rule catalogue of an edition (`base` by default, as `ra2 rules`): one dict per rule with
/// its id, title, requirement, severity per edition, rationale, remediation, checks, params and
/// examples, as `ra2 rules --format json` prints them.
#[pyfunction]
#[pyo3(signature = (*, edition=None))]
fn rules<'py>(py: Python<'py>, edition: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
    let edition = match edition.filter(|e| !e.is_none()) {
        None => Edition::Base,
        Some(value) => value
            .cast::<PyString>()
            .ok()
            .and_then(|s| s.to_cow().ok().and_then(|s| Edition::parse(&s)))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "edition must be \"base\" or \"latest\", found {}",
                    value.repr().map_or_else(|_| type_name(value), |r| r.to_string())
                ))
            })?,
    };
    let docs = ra2_report::catalogue::rules_in(edition);
    to_py(py, &serde_json::to_value(docs).unwrap_or(Value::Null))
}

/// `python -m ra2`: `ra2 lint` with options that `ra2/__main__.py` parsed from the command line
/// (each argument is the flag of the same name); returns the exit status. Output goes straight
/// to the process's standard output and error.
#[pyfunction]
#[pyo3(signature = (
    *, paths, format, fail_on, select, ignore, edition, config, no_config, strict, skip_non_k8s,
    no_ignore, kustomize, max_document_bytes, max_depth, max_alias_expansion, jobs, stream_after,
    post_render, chart_root, source_root, category, baseline=None, write_baseline=None, fix=false,
    unsafe_fixes=false, diff=false, verbose=false
))]
#[allow(clippy::too_many_arguments, clippy::fn_params_excessive_bools)]
fn _run(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    format: &str,
    fail_on: Option<&str>,
    select: Vec<String>,
    ignore: Vec<String>,
    edition: Option<&str>,
    config: Option<PathBuf>,
    no_config: bool,
    strict: bool,
    skip_non_k8s: bool,
    no_ignore: bool,
    kustomize: bool,
    max_document_bytes: Option<usize>,
    max_depth: Option<usize>,
    max_alias_expansion: Option<u64>,
    jobs: Option<usize>,
    stream_after: Option<usize>,
    post_render: bool,
    chart_root: Option<PathBuf>,
    source_root: Option<PathBuf>,
    category: Option<String>,
    baseline: Option<PathBuf>,
    write_baseline: Option<PathBuf>,
    fix: bool,
    unsafe_fixes: bool,
    diff: bool,
    verbose: bool,
) -> PyResult<u8> {
    let unknown = |what: &str, value: &str| PyValueError::new_err(format!("{what}: unknown value {value:?}"));
    let options = ra2_run::Options {
        paths,
        format: ra2_run::Format::parse(format).ok_or_else(|| unknown("format", format))?,
        fail_on: fail_on
            .map(|v| FailOn::parse(v).ok_or_else(|| unknown("fail_on", v)))
            .transpose()?,
        select,
        ignore,
        edition: edition
            .map(|v| Edition::parse(v).ok_or_else(|| unknown("edition", v)))
            .transpose()?,
        config,
        no_config,
        strict,
        skip_non_k8s,
        no_ignore,
        kustomize,
        limits: ra2_core::doc::LimitOverrides {
            max_document_bytes,
            max_depth,
            max_alias_expansion,
        },
        jobs,
        stream_after: stream_after.unwrap_or(ra2_run::stream::STREAM_AFTER),
        post_render,
        chart_root,
        source_root,
        category,
        baseline,
        write_baseline,
        fix,
        unsafe_fixes,
        diff,
        verbose,
    };
    Ok(py.detach(|| ra2_run::lint(&options)))
}

/// The native part of the `ra2` package.
#[pymodule]
fn _ra2(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // For the benchmark, which should not time a debug build by mistake.
    m.add("_debug_build", cfg!(debug_assertions))?;
    m.add_function(wrap_pyfunction!(lint, m)?)?;
    m.add_function(wrap_pyfunction!(fix, m)?)?;
    m.add_function(wrap_pyfunction!(lint_paths, m)?)?;
    m.add_function(wrap_pyfunction!(review, m)?)?;
    m.add_function(wrap_pyfunction!(rules, m)?)?;
    m.add_function(wrap_pyfunction!(_run, m)?)?;
    m.add_class::<PyReport>()?;
    m.add_class::<PyFinding>()?;
    m.add_class::<PyLintError>()?;
    m.add_class::<PyObjectInfo>()?;
    m.add_class::<PyObjectRef>()?;
    m.add_class::<PyRelated>()?;
    Ok(())
}
