// The settings form: edition, fail-on, select and ignore, read into lint options and restored
// from a share link or local storage.
import { $ } from './dom.js';

/** @typedef {import('./types.js').Settings} Settings */
/** @typedef {import('./types.js').Options} Options */

/** The name findings carry as `file`. */
const FILENAME = 'manifest.yaml';

/** @type {{ example: HTMLSelectElement, edition: HTMLSelectElement, failOn: HTMLSelectElement, select: HTMLInputElement, ignore: HTMLInputElement }} */
export const controls = {
  example: $('example'),
  edition: $('edition'),
  failOn: $('fail-on'),
  select: $('select'),
  ignore: $('ignore'),
};

/** @returns {Settings} */
export function settings() {
  return {
    edition: controls.edition.value,
    failOn: controls.failOn.value,
    select: controls.select.value.trim(),
    ignore: controls.ignore.value.trim(),
  };
}

/**
 * Shows saved or shared settings; values the page does not offer are left as they are.
 * @param {Partial<Record<keyof Settings, unknown>>} s
 */
export function applySettings(s) {
  if (s.edition === 'base' || s.edition === 'latest') controls.edition.value = s.edition;
  if (typeof s.failOn === 'string' && ['error', 'warning', 'info', 'never'].includes(s.failOn)) controls.failOn.value = s.failOn;
  controls.select.value = typeof s.select === 'string' ? s.select : '';
  controls.ignore.value = typeof s.ignore === 'string' ? s.ignore : '';
}

/** @param {string} text */
function list(text) {
  const items = text.split(/[\s,]+/).filter(Boolean);
  return items.length ? items : undefined;
}

/**
 * The options of the wasm `lint`, from the form.
 * @returns {Options}
 */
export function lintOptions() {
  const s = settings();
  /** @type {Options} */
  const options = {
    edition: /** @type {Options['edition']} */ (s.edition),
    'fail-on': /** @type {Options['fail-on']} */ (s.failOn),
    filename: FILENAME,
  };
  const select = list(s.select);
  const ignore = list(s.ignore);
  if (select) options.select = select;
  if (ignore) options.ignore = ignore;
  return options;
}

/**
 * Marks the select or ignore field named by a bad-option message (`/select`, `/ignore`).
 * @param {string} message
 * @returns {string | undefined} the setting the message names
 */
export function markSettingInvalid(message) {
  const setting = /\/(select|ignore|edition|fail-on)\b/.exec(message)?.[1];
  if (setting === 'select' || setting === 'ignore') controls[setting].setAttribute('aria-invalid', 'true');
  return setting;
}

export function markSettingsValid() {
  controls.select.removeAttribute('aria-invalid');
  controls.ignore.removeAttribute('aria-invalid');
}
