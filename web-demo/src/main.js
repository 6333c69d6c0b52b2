// The ra2 playground: an editor, linting as you type in a Web Worker, findings inline and in a
// panel, the rule behind each finding, settings, share links and downloads. No server: the
// page, the worker and the WebAssembly module are all static files.
import { setDiagnostics } from '@codemirror/lint';
import { EditorSelection } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { createEditor } from './editor.js';
import { DEFAULT_EXAMPLE, EXAMPLES } from './examples.js';
import { LintClient } from './lint-client.js';
import { rangeOf } from './positions.js';
import { decodeState, encodeState, isShareFragment } from './share.js';
import { objectLabel, REFUSED, severityIn } from './labels.js';
import './style.css';

// ra2 lints 2,000 lines in ~8 ms off the main thread, so a short pause is enough: results show
// under 100 ms after typing stops.
const DEBOUNCE_MS = 40;
const STORAGE_KEY = 'ra2-playground:v1';
const FILENAME = 'manifest.yaml';

const $ = (id) => document.getElementById(id);
const narrow = () => window.matchMedia('(max-width: 820px)').matches;
const controls = {
  example: $('example'),
  edition: $('edition'),
  failOn: $('fail-on'),
  select: $('select'),
  ignore: $('ignore'),
};

/** What the tests read: timings of each lint, from the request to the painted result. */
const metrics = { lints: [], docVersion: 0, lastInputAt: 0, ready: false };
window.__ra2 = metrics;

let view;
let client;
let docVersion = 0;
let debounceTimer;
let inFlight = false;
let queued = false;
let lastReport = null;
let lastFindings = [];
let selected = -1;
const catalogues = new Map();

// ---------------------------------------------------------------- settings

function settings() {
  return {
    edition: controls.edition.value,
    failOn: controls.failOn.value,
    select: controls.select.value.trim(),
    ignore: controls.ignore.value.trim(),
  };
}

function applySettings(s) {
  if (s.edition === 'base' || s.edition === 'latest') controls.edition.value = s.edition;
  if (['error', 'warning', 'info', 'never'].includes(s.failOn)) controls.failOn.value = s.failOn;
  controls.select.value = typeof s.select === 'string' ? s.select : '';
  controls.ignore.value = typeof s.ignore === 'string' ? s.ignore : '';
}

function list(text) {
  const items = text.split(/[\s,]+/).filter(Boolean);
  return items.length ? items : undefined;
}

function lintOptions() {
  const s = settings();
  const options = { edition: s.edition, 'fail-on': s.failOn, filename: FILENAME };
  const select = list(s.select);
  const ignore = list(s.ignore);
  if (select) options.select = select;
  if (ignore) options.ignore = ignore;
  return options;
}

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
  setStatus('linting…', 'busy');
  try {
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
      setStatus(describeRun(report, ms));
    }
  } catch (error) {
    showProblem(error.message);
    metrics.lints.push({ docVersion: version, lines: doc.lines, sentAt, failed: error.message });
  } finally {
    inFlight = false;
    if (queued) {
      queued = false;
      runLint();
    }
  }
}

function describeRun(report, ms) {
  const { documents, objects } = report.summary;
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(objects, 'object')} in ${plural(documents, 'document')} · ${ms < 1 ? '<1' : Math.round(ms)} ms`;
}

function diagnostics(report, doc) {
  const out = [];
  report.findings.forEach((finding, index) => {
    out.push({
      ...rangeOf(doc, finding),
      severity: finding.severity,
      message: finding.refused_by_api_server ? `${finding.message}. ${REFUSED}` : finding.message,
      source: `${finding.rule}/${finding.check}`,
      actions: [{ name: 'Explain', apply: () => selectFinding(index, { jump: false }) }],
    });
  });
  for (const error of report.errors) {
    out.push({ ...rangeOf(doc, error), severity: 'error', message: error.message, source: 'ra2: unreadable document' });
  }
  return out;
}

function show(report, verdict, doc) {
  const previousFindings = lastFindings;
  lastReport = report;
  lastFindings = report.findings;
  view.dispatch(setDiagnostics(view.state, diagnostics(report, doc)));
  renderVerdict(report, verdict);
  renderProblems(report.errors);
  renderFindings(report.findings);
  // Keep the selected finding selected across edits: the same rule, check, object and field.
  const key = (f) => f && [f.rule, f.check, f.object?.kind, f.object?.namespace, f.object?.name, f.pointer].join('\u0000');
  const previous = key(previousFindings[selected]);
  const keep = previous ? report.findings.findIndex((f) => key(f) === previous) : -1;
  selected = -1;
  if (keep >= 0) selectFinding(keep, { jump: false, scroll: false });
  else renderRule(null);
  setDownloadsEnabled(true);
}

// ---------------------------------------------------------------- rendering

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Text with `code` spans, as nodes. */
function prose(text) {
  return String(text ?? '')
    .trim()
    .split(/(`[^`]+`)/)
    .map((part) => (part.startsWith('`') && part.endsWith('`') ? el('code', {}, part.slice(1, -1)) : part));
}

function setStatus(text, kind = '') {
  const status = $('status');
  status.textContent = text;
  status.dataset.kind = kind;
}

// The verdict is ra2's own (the wasm `verdict`, as `ra2 lint --fail-on` decides it).
function renderVerdict(report, { exit_code: exitCode, failing }) {
  const failOn = controls.failOn.value;
  const counts = report.summary.findings;
  const fails = exitCode !== 0;
  const verdict = $('verdict');
  verdict.hidden = false;
  verdict.dataset.state = fails ? 'fail' : 'pass';
  const headline = report.errors.length
    ? `${report.errors.length} document${report.errors.length === 1 ? '' : 's'} could not be read`
    : fails
      ? `Fails: ${failing} finding${failing === 1 ? '' : 's'} at or above ${failOn}`
      : failOn === 'never'
        ? 'Passes: fail-on is never'
        : `Passes at fail-on ${failOn}`;
  verdict.replaceChildren(
    el('strong', {}, headline),
    el(
      'span',
      { class: 'counts' },
      ['error', 'warning', 'info'].map((s) =>
        el('span', { class: `count sev-${s}`, title: `${counts[s]} ${s}` }, el('i', { class: 'dot', 'aria-hidden': 'true' }), `${counts[s]} ${s}${counts[s] === 1 || s === 'info' ? '' : 's'}`),
      ),
    ),
  );
}

function renderProblems(errors) {
  const box = $('problems');
  if (!errors.length) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  box.replaceChildren(
    el('strong', {}, errors.length === 1 ? 'This document could not be read' : 'These documents could not be read'),
    el(
      'ul',
      {},
      errors.map((error) =>
        el(
          'li',
          {},
          el(
            'button',
            { type: 'button', class: 'link', onclick: () => jumpTo(rangeOf(view.state.doc, error)) },
            `line ${error.line}, column ${error.column}`,
          ),
          ': ',
          error.message,
        ),
      ),
    ),
    el('p', { class: 'note' }, 'The other documents are still checked. Fix the YAML to see their findings in full.'),
  );
}

function showProblem(message) {
  const box = $('problems');
  box.hidden = false;
  const setting = /\/(select|ignore|edition|fail-on)\b/.exec(message)?.[1];
  if (setting === 'select' || setting === 'ignore') controls[setting].setAttribute('aria-invalid', 'true');
  box.replaceChildren(
    el('strong', {}, setting ? 'These settings cannot be used' : 'ra2 could not check this text'),
    el('p', {}, message),
  );
  lastReport = null;
  view.dispatch(setDiagnostics(view.state, []));
  $('verdict').hidden = true;
  renderFindings([]);
  $('empty').hidden = true;
  renderRule(null);
  setDownloadsEnabled(false);
  setStatus('not checked', 'error');
}

function markSettingsValid() {
  controls.select.removeAttribute('aria-invalid');
  controls.ignore.removeAttribute('aria-invalid');
}

function renderFindings(findings) {
  $('empty').hidden = findings.length > 0 || !lastReport || lastReport.errors.length > 0;
  $('findings').replaceChildren(
    ...findings.map((finding, index) =>
      el(
        'li',
        {},
        el(
          'button',
          {
            type: 'button',
            class: `finding sev-${finding.severity}`,
            dataset: { index: String(index), rule: finding.rule, check: finding.check, line: String(finding.line) },
            'aria-pressed': 'false',
            onclick: () => selectFinding(index),
          },
          el('span', { class: 'sev' }, el('i', { class: 'dot', 'aria-hidden': 'true' }), finding.severity),
          el('span', { class: 'id' }, finding.rule, el('span', { class: 'check' }, `/${finding.check}`)),
          el('span', { class: 'line' }, `line ${finding.line}`),
          el('span', { class: 'msg' }, finding.message),
          finding.refused_by_api_server ? el('span', { class: 'refused', 'data-testid': 'refused' }, REFUSED) : null,
          finding.object?.kind ? el('span', { class: 'obj' }, objectLabel(finding.object)) : null,
        ),
      ),
    ),
  );
}

/** Marks the findings under the editor's cursor in the list. */
function markFindingsAt(pos) {
  if (!lastReport) return;
  const doc = view.state.doc;
  const under = new Set();
  lastFindings.forEach((finding, index) => {
    const { from, to } = rangeOf(doc, finding);
    if (pos >= from && pos <= to) under.add(index);
  });
  for (const button of $('findings').querySelectorAll('button.finding')) {
    button.classList.toggle('at-cursor', under.has(Number(button.dataset.index)));
  }
}

function jumpTo({ from, to }) {
  view.dispatch({
    selection: EditorSelection.single(from, to),
    effects: EditorView.scrollIntoView(from, { y: 'center' }),
  });
}

let pseudoRuleList = null;

/** The findings ra2 reports that are not catalogue rules, from the wasm module. */
function pseudoRules() {
  pseudoRuleList ??= client.pseudoRules();
  pseudoRuleList.catch(() => {
    pseudoRuleList = null;
  });
  return pseudoRuleList;
}

async function catalogue(edition) {
  if (!catalogues.has(edition)) {
    const pending = client.rules(edition);
    catalogues.set(edition, pending);
    pending.catch(() => catalogues.delete(edition));
  }
  return catalogues.get(edition);
}

function selectFinding(index, { jump = true, scroll = true } = {}) {
  const finding = lastFindings[index];
  if (!finding) return;
  selected = index;
  let button;
  for (const candidate of $('findings').querySelectorAll('button.finding')) {
    const on = Number(candidate.dataset.index) === index;
    candidate.classList.toggle('selected', on);
    candidate.setAttribute('aria-pressed', String(on));
    if (on) button = candidate;
  }
  if (jump) jumpTo(rangeOf(view.state.doc, finding));
  renderRule(finding).then(() => {
    if (!scroll || selected !== index) return;
    // The rule pane takes room from the list: keep the finding in view. On a phone the rule
    // pane is below the list: bring it into view.
    if (jump && narrow()) $('rule').scrollIntoView({ block: 'start', behavior: 'smooth' });
    else button?.scrollIntoView({ block: 'nearest' });
  });
}

async function renderRule(finding) {
  const pane = $('rule');
  if (!finding) {
    pane.hidden = true;
    pane.replaceChildren();
    return;
  }
  const edition = lastReport?.edition ?? controls.edition.value;
  let doc;
  try {
    doc = (await catalogue(edition)).find((d) => d.id === finding.rule);
  } catch {
    doc = undefined;
  }
  if (lastFindings[selected] !== finding) return;
  if (!doc) {
    const pseudo = (await pseudoRules().catch(() => [])).find((r) => r.id === finding.rule);
    if (lastFindings[selected] !== finding) return;
    // A pseudo-rule as a rule document, for the pane.
    if (pseudo) doc = { id: pseudo.id, title: pseudo.title, requirement: pseudo.description, severity: pseudo.severity, checks: [] };
  }
  const check = doc?.checks?.find((c) => c.slug === finding.check);
  const severity = doc ? severityIn(doc, edition) : finding.severity;
  pane.hidden = false;
  const content = [
    el(
      'header',
      {},
      el('span', { class: `badge sev-${severity}`, 'data-testid': 'rule-severity' }, `${severity} in ${edition}`),
      el('h2', { 'data-testid': 'rule-title' }, el('span', { class: 'rule-id' }, finding.rule), ' ', doc?.title ?? ''),
      el('button', { type: 'button', class: 'button close', 'aria-label': 'Close the rule', onclick: () => renderRule(null) }, '✕'),
    ),
    el(
      'p',
      { class: 'this-finding' },
      el('span', { class: `sev sev-${finding.severity}` }, el('i', { class: 'dot', 'aria-hidden': 'true' }), finding.severity),
      ' ',
      finding.message,
      el(
        'span',
        { class: 'obj' },
        finding.object?.kind ? ` — ${objectLabel(finding.object)}, ` : ' — ',
        el('button', { type: 'button', class: 'link', onclick: () => showInEditor(finding) }, `line ${finding.line}`),
      ),
      finding.pointer ? el('code', { class: 'pointer' }, finding.pointer) : null,
    ),
    finding.refused_by_api_server ? el('p', { class: 'refused', 'data-testid': 'rule-refused' }, REFUSED) : null,
    doc?.requirement ? [el('h3', {}, 'RA2 requirement'), el('p', { 'data-testid': 'rule-requirement' }, prose(doc.requirement))] : null,
    check
      ? [el('h3', {}, 'This check: ', el('code', {}, check.slug)), el('p', {}, el('em', {}, check.title), ' — ', prose(check.description))]
      : null,
    doc?.rationale ? [el('h3', {}, 'Why it matters'), el('p', {}, prose(doc.rationale))] : null,
    el('h3', {}, 'How to fix it'),
    el('p', { class: 'fix', 'data-testid': 'rule-fix' }, prose(finding.help || doc?.remediation)),
    doc?.remediation && finding.help && doc.remediation.trim() !== finding.help.trim()
      ? el('p', { class: 'note' }, 'In general: ', prose(doc.remediation))
      : null,
    doc?.spec ? el('p', { class: 'spec' }, 'Source: ', doc.spec) : null,
  ];
  pane.replaceChildren(...content.flat().filter(Boolean));
}

function showInEditor(finding) {
  jumpTo(rangeOf(view.state.doc, finding));
  if (narrow()) $('editor').scrollIntoView({ block: 'start', behavior: 'smooth' });
}

function setDownloadsEnabled(on) {
  $('download-json').disabled = !on;
  $('download-sarif').disabled = !on;
}

// ---------------------------------------------------------------- downloads and sharing

function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
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
  const box = $('share-box');
  const input = $('share-url');
  input.value = url;
  box.hidden = false;
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch {
    copied = false;
  }
  $('share-status').textContent = copied
    ? 'Link copied. It holds this manifest and these settings (in the part after #, which never reaches a server):'
    : 'Copy this link. It holds this manifest and these settings (in the part after #, which never reaches a server):';
  input.focus();
  input.select();
}

function loadText(text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: 0 } });
  view.scrollDOM.scrollTop = 0;
}

async function loadShared(hash) {
  try {
    const state = await decodeState(hash);
    applySettings(state);
    loadText(state.text);
    return true;
  } catch (error) {
    notice(error.message);
    return false;
  }
}

function notice(message) {
  $('notice-text').textContent = message;
  $('notice').hidden = false;
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
  $('settings').addEventListener('submit', (event) => event.preventDefault());
  $('share').addEventListener('click', share);
  $('share-close').addEventListener('click', () => {
    $('share-box').hidden = true;
  });
  $('notice-close').addEventListener('click', () => {
    $('notice').hidden = true;
  });
  $('download-json').addEventListener('click', downloadJson);
  $('download-sarif').addEventListener('click', downloadSarif);
  setDownloadsEnabled(false);
}

async function main() {
  setUpControls();
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
      setStatus('unavailable', 'error');
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
