// What the page shows: the verdict, the findings list, the rule pane, unreadable documents,
// the status line and the editor's diagnostics. Each view renders the data it is given and
// reports clicks through callbacks; the state lives in the controller (main.js).
import { $, el, prose } from './dom.js';
import { objectLabel, REFUSED } from './labels.js';
import { rangeOf } from './positions.js';

/** @typedef {import('./types.js').Report} Report */
/** @typedef {import('./types.js').Finding} Finding */
/** @typedef {import('./types.js').LintError} LintError */
/** @typedef {import('./types.js').Verdict} Verdict */
/** @typedef {import('./types.js').Check} Check */
/** @typedef {import('./types.js').RulePaneDoc} RulePaneDoc */
/** @typedef {import('@codemirror/state').Text} Text */
/** @typedef {import('@codemirror/lint').Diagnostic} Diagnostic */

/**
 * @param {string} text
 * @param {'' | 'busy' | 'error'} [kind]
 */
export function setStatus(text, kind = '') {
  const status = $('status');
  status.textContent = text;
  status.dataset.kind = kind;
}

/**
 * The status line after a lint: what was checked, and how long the wasm took.
 * @param {Report} report
 * @param {number} ms
 */
export function describeRun(report, ms) {
  const { documents, objects } = report.summary;
  /** @type {(n: number, word: string) => string} */
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(objects, 'object')} in ${plural(documents, 'document')} · ${ms < 1 ? '<1' : Math.round(ms)} ms`;
}

/**
 * The editor's inline diagnostics: one per finding (with an Explain action) and one per
 * unreadable document.
 * @param {Report} report
 * @param {Text} doc
 * @param {(index: number) => void} onExplain
 * @returns {Diagnostic[]}
 */
export function diagnostics(report, doc, onExplain) {
  /** @type {Diagnostic[]} */
  const out = [];
  report.findings.forEach((finding, index) => {
    out.push({
      ...rangeOf(doc, finding),
      severity: finding.severity,
      message: finding.refused_by_api_server ? `${finding.message}. ${REFUSED}` : finding.message,
      source: `${finding.rule}/${finding.check}`,
      actions: [{ name: 'Explain', apply: () => onExplain(index) }],
    });
  });
  for (const error of report.errors) {
    out.push({ ...rangeOf(doc, error), severity: 'error', message: error.message, source: 'ra2: unreadable document' });
  }
  return out;
}

/**
 * The verdict is ra2's own (the wasm `verdict`, as `ra2 lint --fail-on` decides it).
 * @param {Report} report
 * @param {Verdict} verdict
 * @param {string} failOn
 */
export function renderVerdict(report, { exit_code: exitCode, failing }, failOn) {
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
      /** @type {const} */ (['error', 'warning', 'info']).map((s) =>
        el('span', { class: `count sev-${s}`, title: `${counts[s]} ${s}` }, el('i', { class: 'dot', 'aria-hidden': 'true' }), `${counts[s]} ${s}${counts[s] === 1 || s === 'info' ? '' : 's'}`),
      ),
    ),
  );
}

export function hideVerdict() {
  $('verdict').hidden = true;
}

/**
 * The documents that could not be read, each a link to its place in the editor.
 * @param {LintError[]} errors
 * @param {(error: LintError) => void} onJump
 */
export function renderProblems(errors, onJump) {
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
        el('li', {}, el('button', { type: 'button', class: 'link', onclick: () => onJump(error) }, `line ${error.line}, column ${error.column}`), ': ', error.message),
      ),
    ),
    el('p', { class: 'note' }, 'The other documents are still checked. Fix the YAML to see their findings in full.'),
  );
}

/**
 * Why nothing could be checked: bad settings (`setting` names one) or a failed module.
 * @param {string} message
 * @param {string | undefined} setting
 */
export function renderNotChecked(message, setting) {
  const box = $('problems');
  box.hidden = false;
  box.replaceChildren(el('strong', {}, setting ? 'These settings cannot be used' : 'ra2 could not check this text'), el('p', {}, message));
}

/**
 * The findings list. The "no findings" note shows only for a report that has none and read
 * every document.
 * @param {Finding[]} findings
 * @param {{ report: Report | null, onSelect: (index: number) => void }} context
 */
export function renderFindings(findings, { report, onSelect }) {
  $('empty').hidden = findings.length > 0 || !report || report.errors.length > 0;
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
            onclick: () => onSelect(index),
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

/** Hides the "no findings" note (nothing was checked). */
export function hideEmpty() {
  $('empty').hidden = true;
}

/** @returns {HTMLButtonElement[]} */
function findingButtons() {
  return [...$('findings').querySelectorAll('button.finding')];
}

/**
 * Marks one finding of the list as selected.
 * @param {number} index
 * @returns {HTMLButtonElement | undefined} its button
 */
export function markSelected(index) {
  let button;
  for (const candidate of findingButtons()) {
    const on = Number(candidate.dataset.index) === index;
    candidate.classList.toggle('selected', on);
    candidate.setAttribute('aria-pressed', String(on));
    if (on) button = candidate;
  }
  return button;
}

/**
 * Marks the findings under the editor's cursor.
 * @param {Set<number>} indices
 */
export function markAtCursor(indices) {
  for (const button of findingButtons()) {
    button.classList.toggle('at-cursor', indices.has(Number(button.dataset.index)));
  }
}

export function hideRule() {
  const pane = $('rule');
  pane.hidden = true;
  pane.replaceChildren();
}

/**
 * The rule behind a finding: the requirement, the check, why it matters and how to fix it (with
 * a button that applies the finding's fix, when it has one).
 * @param {{ finding: Finding, doc: RulePaneDoc | undefined, check: Check | undefined, severity: string, edition: string, onClose: () => void, onShowInEditor: () => void, onApplyFix: () => void }} model
 */
export function renderRule({ finding, doc, check, severity, edition, onClose, onShowInEditor, onApplyFix }) {
  const pane = $('rule');
  pane.hidden = false;
  const content = [
    el(
      'header',
      {},
      el('span', { class: `badge sev-${severity}`, 'data-testid': 'rule-severity' }, `${severity} in ${edition}`),
      el('h2', { 'data-testid': 'rule-title' }, el('span', { class: 'rule-id' }, finding.rule), ' ', doc?.title ?? ''),
      el('button', { type: 'button', class: 'button close', 'aria-label': 'Close the rule', onclick: onClose }, '✕'),
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
        el('button', { type: 'button', class: 'link', onclick: onShowInEditor }, `line ${finding.line}`),
      ),
      finding.pointer ? el('code', { class: 'pointer' }, finding.pointer) : null,
    ),
    finding.refused_by_api_server ? el('p', { class: 'refused', 'data-testid': 'rule-refused' }, REFUSED) : null,
    doc?.requirement ? [el('h3', {}, 'RA2 requirement'), el('p', { 'data-testid': 'rule-requirement' }, prose(doc.requirement))] : null,
    check ? [el('h3', {}, 'This check: ', el('code', {}, check.slug)), el('p', {}, el('em', {}, check.title), ' — ', prose(check.description))] : null,
    doc?.rationale ? [el('h3', {}, 'Why it matters'), el('p', {}, prose(doc.rationale))] : null,
    el('h3', {}, 'How to fix it'),
    el('p', { class: 'fix', 'data-testid': 'rule-fix' }, prose(finding.help || doc?.remediation)),
    finding.fix
      ? el(
          'p',
          { class: 'apply-fix' },
          el('button', { type: 'button', class: 'button', 'data-testid': 'apply-fix', onclick: onApplyFix }, `Apply fix: ${finding.fix.title}`),
          finding.fix.applicability === 'unsafe' ? el('span', { class: 'note', 'data-testid': 'unsafe-fix' }, ' Unsafe: it may change how the workload runs. Review it; Ctrl+Z undoes it.') : null,
        )
      : null,
    doc?.remediation && finding.help && doc.remediation.trim() !== finding.help.trim() ? el('p', { class: 'note' }, 'In general: ', prose(doc.remediation)) : null,
    doc?.spec ? el('p', { class: 'spec' }, 'Source: ', doc.spec) : null,
  ];
  pane.replaceChildren(...content.flat().filter(Boolean));
}

/** @param {boolean} on */
export function setDownloadsEnabled(on) {
  $('download-json').disabled = !on;
  $('download-sarif').disabled = !on;
}

/**
 * Shows the share link, selected for copying.
 * @param {string} url
 * @param {boolean} copied whether it is on the clipboard already
 */
export function showShareBox(url, copied) {
  const input = $('share-url');
  input.value = url;
  $('share-box').hidden = false;
  $('share-status').textContent = copied
    ? 'Link copied. It holds this manifest and these settings (in the part after #, which never reaches a server):'
    : 'Copy this link. It holds this manifest and these settings (in the part after #, which never reaches a server):';
  input.focus();
  input.select();
}

/** @param {string} message */
export function notice(message) {
  $('notice-text').textContent = message;
  $('notice').hidden = false;
}
