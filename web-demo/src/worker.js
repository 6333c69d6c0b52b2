// Lints off the main thread: loads the ra2 WebAssembly module once, then answers requests
// {id, type: 'lint', text, options}, {id, type: 'rules', edition}, {id, type: 'sarif', report}
// {id, type: 'fix', text, options}, {id, type: 'fix-edits', text, index, options} and
// {id, type: 'pseudo-rules'} with {id, ok, ...}.
// Requests are answered in order; the page drops answers it no longer needs.
import init, { fix, fixEdits, lint, pseudoRules, rules, sarif, verdict, version } from 'ra2-wasm/ra2_wasm.js';
import wasmUrl from 'ra2-wasm/ra2_wasm_bg.wasm?url';

const ready = init({ module_or_path: wasmUrl }).then(
  () => {
    self.postMessage({ type: 'ready', version: version() });
  },
  (/** @type {unknown} */ error) => {
    self.postMessage({ type: 'fatal', error: `the ra2 WebAssembly module did not load: ${error}` });
    throw error;
  },
);

/** @param {unknown} error */
function message(error) {
  return error instanceof Error ? error.message : String(error);
}

self.onmessage = async ({ data }) => {
  try {
    await ready;
  } catch (error) {
    self.postMessage({ id: data.id, ok: false, error: message(error) });
    return;
  }
  try {
    if (data.type === 'lint') {
      const start = performance.now();
      const report = lint(data.text, data.options);
      const ms = performance.now() - start;
      self.postMessage({ id: data.id, ok: true, report, verdict: verdict(report, data.options?.['fail-on']), ms });
    } else if (data.type === 'rules') {
      self.postMessage({ id: data.id, ok: true, rules: rules(data.edition) });
    } else if (data.type === 'sarif') {
      self.postMessage({ id: data.id, ok: true, sarif: sarif(data.report) });
    } else if (data.type === 'fix-edits') {
      // One finding's fix, safe or unsafe: the user chose it.
      self.postMessage({ id: data.id, ok: true, edits: fixEdits(data.text, data.index, data.options) });
    } else if (data.type === 'fix') {
      // Safe fixes only, as `ra2 lint --fix` applies them.
      self.postMessage({ id: data.id, ok: true, text: fix(data.text, data.options, false) });
    } else if (data.type === 'pseudo-rules') {
      self.postMessage({ id: data.id, ok: true, rules: pseudoRules() });
    } else {
      self.postMessage({ id: data.id, ok: false, error: `unknown request ${data.type}` });
    }
  } catch (error) {
    self.postMessage({ id: data.id, ok: false, error: message(error) });
  }
};
