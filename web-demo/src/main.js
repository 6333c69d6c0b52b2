// The ra2 playground: an editor, linting as you type in a Web Worker, findings inline and in a
// panel, the rule behind each finding, settings, share links and downloads. No server: the
// page, the worker and the WebAssembly module are all static files.
//
// This file is the controller: it holds the state (the editor, the last report, the selected
// finding) and wires events to the views (views.js), the settings form (settings.js) and the
// lint worker (lint-client.js).
import { setDiagnostics } from '@codemirror/lint';
import { EditorSelection } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { $, el, narrow } from './dom.js';
import { createEditor } from './editor.js';
import { DEFAULT_EXAMPLE, EXAMPLES } from './examples.js';
import { severityIn } from './labels.js';
import { LintClient } from './lint-client.js';
import { rangeOf } from './positions.js';
import { applySettings, controls, lintOptions, markSettingInvalid, markSettingsValid, settings } from './settings.js';
import { decodeState, encodeState, isShareFragment } from './share.js';
import * as views from './views.js';
import './style.css';

/** @typedef {import('./types.js').Report} Report */
/** @typedef {import('./types.js').Finding} Finding */
/** @typedef {import('./types.js').Verdict} Verdict */
/** @typedef {import('./types.js').RuleDoc} RuleDoc */
/** @typedef {import('./types.js').PseudoRule} PseudoRule */
/** @typedef {import('./types.js').RulePaneDoc} RulePaneDoc */

// ra2 lints 2,000 lines in ~8 ms off the main thread, so a short pause is enough: results show
// under 100 ms after typing stops.
const DEBOUNCE_MS = 40;
const STORAGE_KEY = 'ra2-playground:v1';

/** What the tests read: timings of each lint, from the request to the painted result. */
const metrics = { lints: /** @type {object[]} */ ([]), docVersion: 0, lastInputAt: 0, ready: false, view: /** @type {EditorView | undefined} */ (undefined) };
/** @type {any} */ (window).__ra2 = metrics;

/** @type {EditorView} */
let view;
/** @type {LintClient} */
let client;
let docVersion = 0;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let debounceTimer;
let inFlight = false;
let queued = false;
/** @type {Report | null} */
let lastReport = null;
/** @type {Finding[]} */
let lastFindings = [];
/** The text the last report is of. @type {import('@codemirror/state').Text | null} */
let lastDoc = null;
let selected = -1;
/** @type {Map<string, Promise<RuleDoc[]>>} */
const catalogues = new Map();
/** @type {Promise<PseudoRule[]> | null} */
let pseudoRuleList = null;

// ---------------------------------------------------------------- linting

function scheduleLint(delay = DEBOUNCE_MS) {
  clearTimeout(debounceTimer);
  debounceTimer = setTimeout(runLint, delay);
}

async function runLint() {
  if (inFlight) {
    queued = true;
    return;
  }
  inFlight = true;
  const doc = view.state.doc;
  const version = docVersion;
  const sentAt = performance.now();
  views.setStatus('linting…', 'busy');
  try {
    /** @type {{ report: Report, verdict: Verdict, ms: number }} */
    const { report, verdict, ms } = await client.lint(doc.toString(), lintOptions());
    markSettingsValid();
    if (version === docVersion) {
      const receivedAt = performance.now();
      show(report, verdict, doc);
      requestAnimationFrame(() => {
        const renderedAt = performance.now();
        metrics.lints.push({ docVersion: version, lines: doc.lines, sentAt, receivedAt, renderedAt, wasmMs: ms });
        if (metrics.lints.length > 50) metrics.lints.shift();
      });
      views.setStatus(views.describeRun(report, ms));
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    showProblem(message);
    metrics.lints.push({ docVersion: version, lines: doc.lines, sentAt, failed: message });
  } finally {
    inFlight = false;
    if (queued) {
      queued = false;
      runLint();
    }
  }
}

/**
 * @param {Report} report
 * @param {Verdict} verdict
 * @param {import('@codemirror/state').Text} doc the text that was linted
 */
function show(report, verdict, doc) {
  const previousFindings = lastFindings;
  lastReport = report;
  lastDoc = doc;
  lastFindings = report.findings;
  view.dispatch(setDiagnostics(view.state, views.diagnostics(report, doc, (index) => selectFinding(index, { jump: false }))));
  views.renderVerdict(report, verdict, controls.failOn.value);
  views.renderProblems(report.errors, (error) => jumpTo(rangeOf(view.state.doc, error)));
  views.renderFindings(report.findings, { report, onSelect: selectFinding });
  // Keep the selected finding selected across edits: the same rule, check, object and field.
  /** @param {Finding | undefined} f */
  const key = (f) => f && [f.rule, f.check, f.object?.kind, f.object?.namespace, f.object?.name, f.pointer].join('\u0000');
  const previous = key(previousFindings[selected]);
  const keep = previous ? report.findings.findIndex((f) => key(f) === previous) : -1;
  selected = -1;
  if (keep >= 0) selectFinding(keep, { jump: false, scroll: false });
  else views.hideRule();
  views.setDownloadsEnabled(true);
  $('fix-all').disabled = !report.findings.some((f) => f.fix?.applicability === 'safe');
}

/** Nothing could be checked: bad settings, or the module failed. @param {string} message */
function showProblem(message) {
  views.renderNotChecked(message, markSettingInvalid(message));
  lastReport = null;
  $('fix-all').disabled = true;
  view.dispatch(setDiagnostics(view.state, []));
  views.hideVerdict();
  views.renderFindings([], { report: null, onSelect: selectFinding });
  views.hideEmpty();
  views.hideRule();
  views.setDownloadsEnabled(false);
  views.setStatus('not checked', 'error');
}

// ---------------------------------------------------------------- findings and rules

/** Marks the findings under the editor's cursor in the list. @param {number} pos */
function markFindingsAt(pos) {
  if (!lastReport) return;
  const doc = view.state.doc;
  /** @type {Set<number>} */
  const under = new Set();
  lastFindings.forEach((finding, index) => {
    const { from, to } = rangeOf(doc, finding);
    if (pos >= from && pos <= to) under.add(index);
  });
  views.markAtCursor(under);
}

/** @param {{ from: number, to: number }} range */
function jumpTo({ from, to }) {
  view.dispatch({
    selection: EditorSelection.single(from, to),
    effects: EditorView.scrollIntoView(from, { y: 'center' }),
  });
}

/** The findings ra2 reports that are not catalogue rules, from the wasm module. */
function pseudoRules() {
  const pending = (pseudoRuleList ??= client.pseudoRules());
  pending.catch(() => {
    pseudoRuleList = null;
  });
  return pending;
}

/** @param {string} edition */
async function catalogue(edition) {
  let pending = catalogues.get(edition);
  if (!pending) {
    pending = client.rules(edition);
    catalogues.set(edition, pending);
    pending.catch(() => catalogues.delete(edition));
  }
  return pending;
}

/**
 * @param {number} index
 * @param {{ jump?: boolean, scroll?: boolean }} [how]
 */
function selectFinding(index, { jump = true, scroll = true } = {}) {
  const finding = lastFindings[index];
  if (!finding) return;
  selected = index;
  const button = views.markSelected(index);
  if (jump) jumpTo(rangeOf(view.state.doc, finding));
  showRule(finding).then(() => {
    if (!scroll || selected !== index) return;
    // The rule pane takes room from the list: keep the finding in view. On a phone the rule
    // pane is below the list: bring it into view.
    if (jump && narrow()) $('rule').scrollIntoView({ block: 'start', behavior: 'smooth' });
    else button?.scrollIntoView({ block: 'nearest' });
  });
}

/** The rule pane for a finding, once its catalogue entry is loaded. @param {Finding} finding */
async function showRule(finding) {
  const edition = lastReport?.edition ?? controls.edition.value;
  /** @type {RulePaneDoc | undefined} */
  let doc;
  try {
    doc = (await catalogue(edition)).find((d) => d.id === finding.rule);
  } catch {
    doc = undefined;
  }
  if (lastFindings[selected] !== finding) return;
  if (!doc) {
    const pseudo = (await pseudoRules().catch(() => /** @type {PseudoRule[]} */ ([]))).find((r) => r.id === finding.rule);
    if (lastFindings[selected] !== finding) return;
    // A pseudo-rule as a rule document, for the pane.
    if (pseudo) doc = { id: pseudo.id, title: pseudo.title, requirement: pseudo.description, severity: pseudo.severity, checks: [] };
  }
  views.renderRule({
    finding,
    doc,
    check: doc?.checks?.find((c) => c.slug === finding.check),
    severity: doc ? severityIn(doc, edition) : finding.severity,
    edition,
    onClose: views.hideRule,
    onShowInEditor: () => showInEditor(finding),
    onApplyFix: () => applyFix(lastFindings.indexOf(finding)),
  });
}

/**
 * Applies one finding's fix (safe or unsafe: the user chose it), as `ra2 lsp`'s quick fix
 * does: only the nodes it edits change, in one undoable edit. @param {number} index
 */
async function applyFix(index) {
  const text = view.state.doc.toString();
  // The finding must be of the text in the editor (not of a lint still running).
  if (index < 0 || !lastFindings[index]?.fix || lastDoc?.toString() !== text) return;
  try {
    const edits = await client.fixEdits(text, index, lintOptions());
    if (view.state.doc.toString() !== text) return;
    view.dispatch({ changes: edits.map((e) => ({ from: e.from, to: e.to, insert: e.insert })), userEvent: 'input.fix' });
  } catch (error) {
    views.notice(error instanceof Error ? error.message : String(error));
  }
}

/** @param {Finding} finding */
function showInEditor(finding) {
  jumpTo(rangeOf(view.state.doc, finding));
  if (narrow()) $('editor').scrollIntoView({ block: 'start', behavior: 'smooth' });
}

// ---------------------------------------------------------------- downloads and sharing

/**
 * @param {string} name
 * @param {string} text
 * @param {string} type
 */
function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Applies every safe fix (the wasm `fix`, as `ra2 lint --fix`): one undoable edit. */
async function fixAll() {
  const text = view.state.doc.toString();
  try {
    const fixed = await client.fix(text, lintOptions());
    if (fixed !== text && view.state.doc.toString() === text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: fixed }, userEvent: 'input.fix' });
    }
  } catch (error) {
    views.notice(error instanceof Error ? error.message : String(error));
  }
}

async function downloadJson() {
  if (lastReport) download('ra2-report.json', `${JSON.stringify(lastReport, null, 2)}\n`, 'application/json');
}

async function downloadSarif() {
  if (!lastReport) return;
  // The text `ra2 lint --format sarif` prints, from the same renderer (the wasm `sarif`).
  download('ra2-report.sarif', await client.sarif(lastReport), 'application/sarif+json');
}

function currentState() {
  return { text: view.state.doc.toString(), ...settings() };
}

async function share() {
  const fragment = await encodeState(currentState());
  history.replaceState(null, '', fragment);
  const url = location.href;
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch {
    copied = false;
  }
  views.showShareBox(url, copied);
}

/** @param {string} text */
function loadText(text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: 0 } });
  view.scrollDOM.scrollTop = 0;
}

/** @param {string} hash */
async function loadShared(hash) {
  try {
    const state = await decodeState(hash);
    applySettings(state);
    loadText(state.text);
    return true;
  } catch (error) {
    views.notice(error instanceof Error ? error.message : String(error));
    return false;
  }
}

/** Once the text or settings change, the share link in the address bar no longer matches. */
function dropShareLink() {
  if (isShareFragment(location.hash)) history.replaceState(null, '', location.pathname + location.search);
}

function saveLocally() {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(currentState()));
  } catch {
    // Private mode or storage full: the share link still works.
  }
}

function savedState() {
  try {
    const state = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
    return state && typeof state.text === 'string' ? state : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- start

function setUpControls() {
  for (const example of EXAMPLES) controls.example.append(el('option', { value: example.id }, example.title));
  controls.example.addEventListener('change', () => {
    const example = EXAMPLES.find((e) => e.id === controls.example.value);
    controls.example.value = '';
    if (example) {
      dropShareLink();
      selected = -1;
      loadText(example.text);
    }
  });
  for (const control of [controls.edition, controls.failOn]) {
    control.addEventListener('change', () => {
      dropShareLink();
      saveLocally();
      runLint();
    });
  }
  for (const control of [controls.select, controls.ignore]) {
    control.addEventListener('input', () => {
      dropShareLink();
      saveLocally();
      scheduleLint(400);
    });
  }
  $('settings').addEventListener('submit', (/** @type {Event} */ event) => event.preventDefault());
  $('share').addEventListener('click', share);
  $('share-close').addEventListener('click', () => {
    $('share-box').hidden = true;
  });
  $('notice-close').addEventListener('click', () => {
    $('notice').hidden = true;
  });
  $('fix-all').addEventListener('click', fixAll);
  $('download-json').addEventListener('click', downloadJson);
  $('download-sarif').addEventListener('click', downloadSarif);
  views.setDownloadsEnabled(false);
}

async function main() {
  setUpControls();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let saveTimer;
  view = createEditor($('editor'), {
    doc: '',
    onSelection: (update) => markFindingsAt(update.state.selection.main.head),
    onChange: (update) => {
      if (update.transactions.some((tr) => tr.isUserEvent('input') || tr.isUserEvent('delete') || tr.isUserEvent('undo') || tr.isUserEvent('redo'))) {
        dropShareLink();
      }
      docVersion += 1;
      metrics.docVersion = docVersion;
      metrics.lastInputAt = performance.now();
      scheduleLint();
      clearTimeout(saveTimer);
      saveTimer = setTimeout(saveLocally, 500);
    },
  });
  metrics.view = view;

  client = new LintClient({
    onReady: (version) => {
      metrics.ready = true;
      $('version').textContent = `ra2 ${version}`;
    },
    onFatal: (message) => {
      views.setStatus('unavailable', 'error');
      showProblem(message);
    },
  });

  if (isShareFragment(location.hash)) {
    if (!(await loadShared(location.hash))) loadText(DEFAULT_EXAMPLE.text);
  } else {
    const saved = savedState();
    if (saved) {
      applySettings(saved);
      loadText(saved.text);
    } else {
      loadText(DEFAULT_EXAMPLE.text);
    }
  }
  window.addEventListener('hashchange', () => {
    if (isShareFragment(location.hash)) loadShared(location.hash).then(() => runLint());
  });
  scheduleLint(0);

  if ('serviceWorker' in navigator && import.meta.env.PROD) {
    navigator.serviceWorker.register('./sw.js').catch(() => {
      // Without a service worker the page still works; it just needs the network to reload.
    });
  }
}

main();
