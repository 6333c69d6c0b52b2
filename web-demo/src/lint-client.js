// Talks to the lint worker: one request at a time, answers matched by id. A request that is
// not answered within `timeoutMs` (a pathological input, a wasm trap that killed the worker)
// ends the worker and starts a new one, so the page never waits on it for ever.

/** @typedef {import('./types.js').Report} Report */
/** @typedef {import('./types.js').Verdict} Verdict */
/** @typedef {import('./types.js').Options} Options */
/** @typedef {import('./types.js').RuleDoc} RuleDoc */
/** @typedef {import('./types.js').PseudoRule} PseudoRule */
/** @typedef {{ resolve: (data: any) => void, reject: (error: Error) => void, timer: ReturnType<typeof setTimeout> }} Pending */

export class LintClient {
  /**
   * @param {{ timeoutMs?: number, onReady?: (version: string) => void, onFatal?: (message: string) => void }} [options]
   */
  constructor({ timeoutMs = 10_000, onReady, onFatal } = {}) {
    this.timeoutMs = timeoutMs;
    this.onReady = onReady;
    this.onFatal = onFatal;
    this.nextId = 1;
    /** @type {Map<number, Pending>} */
    this.pending = new Map();
    this.failures = 0;
    /** @type {Promise<void>} */
    this.ready = Promise.resolve();
    /** @type {() => void} */
    this.markReady = () => {};
    /** @type {(error: Error) => void} */
    this.markFailed = () => {};
    /** @type {Worker | undefined} */
    this.worker = undefined;
    this.start();
  }

  start() {
    /** @type {Promise<void>} */
    this.ready = new Promise((resolve, reject) => {
      this.markReady = resolve;
      this.markFailed = reject;
    });
    this.ready.catch(() => {});
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'ra2-lint' });
    this.worker = worker;
    worker.onmessage = ({ data }) => this.receive(data);
    worker.onerror = (event) => {
      event.preventDefault?.();
      this.restart(`the lint worker failed: ${event.message || 'it could not be started'}`);
    };
  }

  /** @param {string} reason */
  restart(reason) {
    this.worker?.terminate();
    this.markFailed(new Error(reason));
    for (const { reject, timer } of this.pending.values()) {
      clearTimeout(timer);
      reject(new Error(reason));
    }
    this.pending.clear();
    // A worker that keeps failing before it is ready would fail again: give up and say so.
    this.failures += 1;
    if (this.failures > 3) {
      this.onFatal?.(reason);
      return;
    }
    this.start();
  }

  /** @param {any} data a message from the worker */
  receive(data) {
    if (data.type === 'ready') {
      this.failures = 0;
      this.markReady();
      return this.onReady?.(data.version);
    }
    if (data.type === 'fatal') {
      this.markFailed(new Error(data.error));
      return this.onFatal?.(data.error);
    }
    const entry = this.pending.get(data.id);
    if (!entry) return undefined;
    this.pending.delete(data.id);
    clearTimeout(entry.timer);
    if (data.ok) entry.resolve(data);
    else entry.reject(new Error(data.error));
    return undefined;
  }

  /**
   * @param {Record<string, unknown>} message
   * @returns {Promise<any>}
   */
  async request(message) {
    // The time limit starts once the module is loaded: a slow network is not a slow lint.
    await this.ready;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.restart(`ra2 took longer than ${this.timeoutMs / 1000} s on this input and was stopped`);
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.worker?.postMessage({ ...message, id });
    });
  }

  /**
   * {report, verdict, ms}; rejects with the message of a bad option.
   * @param {string} text
   * @param {Options} options
   * @returns {Promise<{ report: Report, verdict: Verdict, ms: number }>}
   */
  lint(text, options) {
    return this.request({ type: 'lint', text, options });
  }

  /**
   * The catalogue of an edition.
   * @param {string} edition
   * @returns {Promise<RuleDoc[]>}
   */
  async rules(edition) {
    return (await this.request({ type: 'rules', edition })).rules;
  }

  /**
   * A report as SARIF text, exactly as `ra2 lint --format sarif` prints it.
   * @param {Report} report
   * @returns {Promise<string>}
   */
  async sarif(report) {
    return (await this.request({ type: 'sarif', report })).sarif;
  }

  /**
   * The text with every safe fix applied, exactly as `ra2 lint --fix` writes it.
   * @param {string} text
   * @param {Options} options
   * @returns {Promise<string>}
   */
  async fix(text, options) {
    return (await this.request({ type: 'fix', text, options })).text;
  }

  /**
   * The edits that apply the fix of finding number `index` of the report `lint` gives for the
   * same text and options (safe or unsafe), in UTF-16 offsets.
   * @param {string} text
   * @param {number} index
   * @param {Options} options
   * @returns {Promise<{ from: number, to: number, insert: string }[]>}
   */
  async fixEdits(text, index, options) {
    return (await this.request({ type: 'fix-edits', text, index, options })).edits;
  }

  /**
   * The pseudo-rules (`yaml`, `suppression`, `exemption`, `schema`).
   * @returns {Promise<PseudoRule[]>}
   */
  async pseudoRules() {
    return (await this.request({ type: 'pseudo-rules' })).rules;
  }
}
