//! The browser/Node face (wasm-bindgen): `lint`, `review`, `rules`, `version`, and `sarif`,
//! `junit` and `verdict` of a report (ra2-report, as the CLI and Python render them), with
//! TypeScript declarations written out in [`TYPES`].
//!
//! Values cross the boundary as JSON text, read with `JSON.parse`: the CLI's own serializer, so
//! the objects have the contract's fields in its order, and no extra crate. Building the
//! objects with serde-wasm-bindgen measured the same within noise (2,400 findings: about 100 ms
//! either way, nearly all of it the lint) and added 20 KB. Every failure is a thrown JS
//! `Error`, never a trap.

// Exported functions take their arguments as wasm-bindgen hands them over: owned.
#![allow(clippy::needless_pass_by_value)]
// The `#[wasm_bindgen]` functions are exported to JavaScript by name, not as Rust paths.
#![allow(unreachable_pub)]

use js_sys::JSON;
use ra2_core::admission::{self, Input};
use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::api::{self, Options};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** Settings: the keys of `.ra2.yaml` (ra2-core/schemas/config.schema.json). */
export interface Config {
  edition?: "base" | "latest";
  "fail-on"?: "error" | "warning" | "info" | "never";
  "kubernetes-version"?: string;
  select?: string | string[];
  ignore?: string | string[];
  severity?: Record<string, Severity>;
  params?: Record<string, Record<string, unknown>>;
  exemptions?: { rule: string; kind?: string; namespace?: string; name?: string; reason: string }[];
  "default-namespace"?: string;
  "workload-kinds"?: { "api-version": string; kind: string; template: string; resource?: string }[];
  limits?: { "max-document-bytes"?: number; "max-depth"?: number; "max-alias-expansion"?: number };
}

/** Options of `lint`: the `.ra2.yaml` keys, plus the name findings carry as `file`. */
export interface Options extends Config {
  /** Default `<input>`. */
  filename?: string;
}

export type Severity = "error" | "warning" | "info";

export interface ObjectRef { apiVersion?: string; kind?: string; namespace?: string; name?: string }

export interface Finding {
  rule: string;
  check: string;
  severity: Severity;
  message: string;
  help: string;
  file: string;
  /** 1-based. */
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  /** 0-based index of the YAML document in the text. */
  document: number;
  object: ObjectRef;
  /** JSON pointer of the offending node, e.g. `/spec/template/spec/volumes/0/hostPath`. */
  pointer: string;
  /** The Helm template the document was rendered from (`# Source:`), if any. */
  source_template?: string;
  /** Where in the chart's template the finding was mapped (the CLI only: the JS module reads no chart). */
  template?: { file: string; line: number; column: number; mapped: "key" | "action" | "ancestor" | "document" };
  related?: { message: string; line: number; column: number; end_line: number; end_column: number }[];
  /** Present (and `true`) when the API server itself refuses the object for this condition. */
  refused_by_api_server?: true;
  /** The mechanical remedy, when the check has one: RFC 6902 operations on the object. */
  fix?: Fix;
}

export interface Fix {
  applicability: "safe" | "unsafe";
  title: string;
  patch: { op: "add" | "replace" | "remove" | "move"; from?: string; path: string; value?: unknown }[];
}

export interface LintError { file: string; line: number; column: number; document: number; message: string; code: string }

export interface ObjectSummary {
  file: string;
  document: number;
  apiVersion?: string;
  kind: string | null;
  name: string | null;
  namespace: string | null;
  profile: "basic" | "network-intensive" | null;
  line: number;
  /** The Helm template the document was rendered from, if any. */
  source_template?: string;
  /** `test` for a Helm test hook. */
  hook?: string;
}

export interface Summary {
  files: number;
  documents: number;
  objects: number;
  errors: number;
  findings: { error: number; warning: number; info: number };
  suppressed: number;
  suppressed_by_reason: Record<string, number>;
  /** Files and documents skipped because they are not Kubernetes manifests. */
  skipped: number;
  skipped_by_reason: Record<string, number>;
  /** Strict mode only (not in this build): objects of kinds without a schema, and by kind. */
  strict_skipped?: number;
  strict_skipped_kinds?: Record<string, number>;
  /** With a baseline (the CLI's `--baseline`; not in this build): findings the baseline hides, and recorded findings no longer found. */
  baselined?: number;
  stale?: number;
  /** With the CLI's `--fix` (not in this build): fixes applied before the report was made. */
  fixed?: number;
  /** The waivers in force that silenced findings: suppression annotations and config exemptions, not expired. */
  waivers?: { source: "annotation" | "exemption"; rule: string; object?: ObjectRef; exemption?: string; reason: string; expires?: string; suppressed: number }[];
}

/** The JSON output contract, version 1 (what `ra2 lint --format json` prints; its JSON Schema is ra2-core/schemas/report.schema.json). */
export interface Report {
  version: 1;
  tool: { name: "ra2"; version: string };
  edition: "base" | "latest";
  findings: Finding[];
  errors: LintError[];
  objects: ObjectSummary[];
  summary: Summary;
}

/** An `admission.k8s.io/v1` AdmissionReview (only the fields ra2 reads are typed). */
export interface AdmissionReview {
  apiVersion?: string;
  kind?: "AdmissionReview";
  request?: {
    uid: string;
    operation: "CREATE" | "UPDATE" | "DELETE" | "CONNECT";
    namespace?: string;
    name?: string;
    object?: Record<string, unknown> | null;
    oldObject?: Record<string, unknown> | null;
    dryRun?: boolean;
    [key: string]: unknown;
  };
}

/** The AdmissionReview ra2 answers with. */
export interface AdmissionReviewResponse {
  apiVersion: string;
  kind: "AdmissionReview";
  response: {
    uid: string;
    allowed: boolean;
    /** When denied: 403 with `rule pointer: message` lines, or 400 for a malformed review. */
    status?: { code: number; message: string };
    /** Findings below the threshold, `rule pointer: message`, each under 256 characters. */
    warnings?: string[];
  };
}

export interface Check { slug: string; title: string; severity?: Severity | Record<string, Severity>; description: string; fix?: { applicability: "safe" | "unsafe"; title: string; reason: string } }
export interface Param { name: string; type: string; default: unknown; description: string }
export interface Example { title: string; expect?: string[]; params?: Record<string, unknown>; 'kubernetes-version'?: string; manifest: string }

/** One catalogue entry (`rules/<id>.yaml`). */
export interface RuleDoc {
  id: string;
  title: string;
  requirement: string;
  spec: string;
  editions: ("base" | "latest")[];
  severity: Severity | Record<string, Severity>;
  rationale: string;
  remediation: string;
  checks: Check[];
  params: Param[];
  /** Security controls only: GitHub code scanning's CVSS-like score, "0.1" to "10.0". */
  'security-severity'?: string;
  examples: { failing: Example[]; passing: Example[] };
}

/**
 * Lints a text (a YAML stream, JSON, or a `kind: List`) and returns the JSON output contract.
 * `options` is an object with the `.ra2.yaml` keys (plus `filename`), or the text of a
 * `.ra2.yaml` file. Unreadable documents are reported in `errors`; bad options throw an
 * `Error` that names each bad value by its JSON pointer.
 */
export function lint(text: string, options?: Options | string | null): Report;

/**
 * The text with its findings' safe fixes applied (and the unsafe ones too when `unsafeFixes`
 * is true), as `ra2 lint --fix` does: only the nodes a fix edits change, and a fix whose
 * result would not parse or would gain a finding is left out. Options as for `lint`.
 */
export function fix(text: string, options?: Options | string | null, unsafeFixes?: boolean | null): string;

/**
 * The edits that apply one finding's fix, safe or unsafe, and nothing else: `index` is the
 * finding's place in what `lint` returns for the same text and options. Offsets count UTF-16
 * code units, as JavaScript strings and editors do, into the text as given; apply them from the
 * last to the first (or all at once in an editor transaction). Throws when the finding has no
 * fix or its fix cannot be written into this text (a node reached through an alias, say).
 */
export function fixEdits(text: string, index: number, options?: Options | string | null): { from: number; to: number; insert: string }[];

/**
 * Answers an AdmissionReview (an object, or its JSON text) the way the admission policy does:
 * the same `uid`; `allowed: false` with status 403 and `rule pointer: message` lines when a
 * finding is at or above `fail-on` (default `error`); the other findings as `warnings`.
 * DELETE and CONNECT are allowed. A review ra2 cannot judge gets `allowed: false` with status
 * 400 saying why. Bad options throw.
 */
export function review(admissionReview: AdmissionReview | string, options?: Config | string | null): AdmissionReviewResponse;

/** The rule documents of an edition (default `base`), in id order. Throws on an unknown edition. */
export function rules(edition?: "base" | "latest" | null): RuleDoc[];

/** The ra2 version. */
export function version(): string;

/**
 * A report (what `lint` returned) as SARIF 2.1.0: exactly the text `ra2 lint --format sarif`
 * prints for the same input. Throws when `report` is not a ra2 report.
 */
export function sarif(report: Report): string;

/** A report as JUnit XML: exactly the text `ra2 lint --format junit` prints. */
export function junit(report: Report): string;

/** The pass/fail verdict of a report at a `fail-on` threshold (default `error`). */
export interface Verdict {
  /** What `ra2 lint` exits with: 2 when some input could not be read, 1 when a finding is at or above `fail-on`, else 0. */
  exit_code: 0 | 1 | 2;
  /** The findings at or above `fail-on`. */
  failing: number;
}

/** The verdict of a report, as `ra2 lint --fail-on` decides it. Throws on a bad `failOn`. */
export function verdict(report: Report, failOn?: "error" | "warning" | "info" | "never" | null): Verdict;

/** The findings ra2 reports that are not catalogue rules (`yaml`, `suppression`, `exemption`, `schema`). */
export interface PseudoRule { id: string; title: string; description: string; severity: Severity; help: string }

/** Every pseudo-rule. */
export function pseudoRules(): PseudoRule[];
"#;

/// Lints a text and returns the JSON output contract (declared in [`TYPES`]).
#[wasm_bindgen(skip_typescript)]
pub fn lint(text: JsValue, options: Option<JsValue>) -> Result<JsValue, JsError> {
    let Some(text) = text.as_string() else {
        return Err(JsError::new(&format!(
            "lint: text must be a string, found {}",
            js_type(&text)
        )));
    };
    let options = options_from(options)?;
    let report = api::lint(&text, &options);
    parse(&report.to_json_compact())
}

/// Applies the fixes of a text's findings and returns the fixed text (declared in [`TYPES`]).
#[wasm_bindgen(skip_typescript)]
pub fn fix(text: JsValue, options: Option<JsValue>, unsafe_fixes: Option<bool>) -> Result<String, JsError> {
    let Some(text) = text.as_string() else {
        return Err(JsError::new(&format!(
            "fix: text must be a string, found {}",
            js_type(&text)
        )));
    };
    let options = options_from(options)?;
    Ok(ra2_core::fix::fix_text(&options.filename, &text, &options.config, unsafe_fixes.unwrap_or(false)).text)
}

/// The edits of one finding's fix, in UTF-16 offsets (declared in [`TYPES`]).
#[wasm_bindgen(js_name = fixEdits, skip_typescript)]
pub fn fix_edits(text: JsValue, index: u32, options: Option<JsValue>) -> Result<JsValue, JsError> {
    let Some(text) = text.as_string() else {
        return Err(JsError::new(&format!(
            "fixEdits: text must be a string, found {}",
            js_type(&text)
        )));
    };
    let options = options_from(options)?;
    let edits = api::fix_edits(&text, index as usize, &options).map_err(|e| JsError::new(&e))?;
    let edits: Vec<Value> = edits.iter().map(api::Utf16Edit::to_json).collect();
    parse(&Value::Array(edits).to_string())
}

/// Answers an AdmissionReview the way the admission policy does (declared in [`TYPES`]).
#[wasm_bindgen(skip_typescript)]
pub fn review(admission_review: JsValue, options: Option<JsValue>) -> Result<JsValue, JsError> {
    let options = options_from(options)?;
    let config = &options.config;
    let answer = if let Some(text) = admission_review.as_string() {
        admission::review(Input::Text(&text), config)
    } else if admission_review.is_undefined() {
        admission::review(Input::Value(&Value::Null), config)
    } else {
        admission::review(
            Input::Text(&stringify(&admission_review, "the AdmissionReview")?),
            config,
        )
    };
    parse(&answer.review.to_string())
}

/// The rule documents of an edition (declared in [`TYPES`]).
#[wasm_bindgen(skip_typescript)]
pub fn rules(edition: Option<String>) -> Result<JsValue, JsError> {
    let docs = api::rules(edition.as_deref()).map_err(|e| JsError::new(&e))?;
    parse(&serde_json::to_string(&docs).unwrap_or_default())
}

/// The ra2 version (declared in [`TYPES`]).
#[wasm_bindgen(skip_typescript)]
pub fn version() -> String {
    api::version().to_owned()
}

/// A report as SARIF (declared in [`TYPES`]).
#[wasm_bindgen(skip_typescript)]
pub fn sarif(report: JsValue) -> Result<String, JsError> {
    Ok(ra2_report::sarif::render(&report_from(&report, "sarif")?))
}

/// A report as JUnit XML (declared in [`TYPES`]).
#[wasm_bindgen(skip_typescript)]
pub fn junit(report: JsValue) -> Result<String, JsError> {
    Ok(ra2_report::junit::render(&report_from(&report, "junit")?))
}

/// The verdict of a report at a threshold (declared in [`TYPES`]).
#[wasm_bindgen(skip_typescript)]
pub fn verdict(report: JsValue, fail_on: Option<String>) -> Result<JsValue, JsError> {
    let fail_on = match fail_on.as_deref() {
        None => ra2_core::FailOn::default(),
        Some(name) => ra2_core::FailOn::parse(name).ok_or_else(|| {
            JsError::new(&format!(
                "verdict: unknown fail-on {name:?} (expected error, warning, info or never)"
            ))
        })?,
    };
    let verdict = ra2_report::verdict(&report_from(&report, "verdict")?, fail_on);
    parse(&serde_json::json!({"exit_code": verdict.exit_code, "failing": verdict.failing}).to_string())
}

/// The pseudo-rules (declared in [`TYPES`]).
#[wasm_bindgen(js_name = pseudoRules, skip_typescript)]
pub fn pseudo_rules() -> Result<JsValue, JsError> {
    let rules: Vec<Value> = ra2_core::catalogue::PSEUDO_RULES
        .iter()
        .map(|r| {
            serde_json::json!({
                "id": r.id,
                "title": r.title,
                "description": r.description,
                "severity": r.severity,
                "help": ra2_report::rule_doc_url(r.id),
            })
        })
        .collect();
    parse(&Value::Array(rules).to_string())
}

/// A report object (the JSON contract `lint` returns) back into a [`ra2_core::Report`].
fn report_from(report: &JsValue, what: &str) -> Result<ra2_core::Report, JsError> {
    let json = stringify(report, &format!("{what}: the report"))?;
    serde_json::from_str(&json).map_err(|e| JsError::new(&format!("{what}: not a ra2 report: {e}")))
}

fn options_from(options: Option<JsValue>) -> Result<Options, JsError> {
    let mut options = match options.filter(|o| !o.is_undefined() && !o.is_null()) {
        None => Options::default(),
        Some(options) => {
            let result = if let Some(yaml) = options.as_string() {
                Options::from_yaml(&yaml)
            } else {
                let json = stringify(&options, "ra2 options")?;
                Options::from_json(&serde_json::from_str::<Value>(&json).unwrap_or(Value::Null))
            };
            result.map_err(|e| JsError::new(&e))?
        }
    };
    // Waivers expire by the host's clock (UTC), as in the CLI.
    let now = String::from(js_sys::Date::new_0().to_iso_string());
    options.config.today = now.get(..10).map(str::to_owned);
    Ok(options)
}

/// `JSON.stringify`, with what went wrong (a cycle, a BigInt) in the error.
fn stringify(value: &JsValue, what: &str) -> Result<String, JsError> {
    match JSON::stringify(value) {
        Ok(s) => s
            .as_string()
            .ok_or_else(|| JsError::new(&format!("{what} cannot be written as JSON: found {}", js_type(value)))),
        Err(e) => {
            let why = e
                .dyn_ref::<js_sys::Error>()
                .map_or_else(|| "JSON.stringify failed".to_owned(), |e| String::from(e.message()));
            Err(JsError::new(&format!("{what} cannot be written as JSON: {why}")))
        }
    }
}

fn parse(json: &str) -> Result<JsValue, JsError> {
    JSON::parse(json).map_err(|_| JsError::new("ra2: internal error: output is not JSON"))
}

fn js_type(value: &JsValue) -> String {
    value.js_typeof().as_string().unwrap_or_else(|| "a value".to_owned())
}
