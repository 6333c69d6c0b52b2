// Node-side tests of the playground's pure modules: share links, positions, and the SARIF the
// download button saves (the wasm `sarif`, validated against the official SARIF 2.1.0 schema).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Text } from '@codemirror/state';
import { offsetAt, rangeOf } from '../src/positions.js';
import { REFUSED } from '../src/labels.js';
import { decodeState, encodeState, isShareFragment } from '../src/share.js';
import { repo, sarifSchemaPath, wasmPkg } from './helpers.mjs';

async function loadWasm() {
  const module = await import(join(wasmPkg, 'ra2_wasm.js'));
  module.initSync({ module: readFileSync(join(wasmPkg, 'ra2_wasm_bg.wasm')) });
  return module;
}

async function sarifValidator() {
  if (!existsSync(sarifSchemaPath)) return null;
  const { default: Ajv } = await import('ajv-draft-04');
  const { default: addFormats } = await import('ajv-formats').catch(() => ({ default: null }));
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats?.(ajv);
  return ajv.compile(JSON.parse(readFileSync(sarifSchemaPath, 'utf8')));
}

describe('share links', () => {
  test('round-trip text and settings through the fragment', async () => {
    const state = {
      text: 'apiVersion: v1\nkind: Pod\n# ünïcödé ✓ 𝄞\n'.repeat(200),
      edition: 'latest',
      failOn: 'warning',
      select: 'ra2.app',
      ignore: 'ra2.app.001',
    };
    const fragment = await encodeState(state);
    assert.ok(isShareFragment(fragment));
    assert.match(fragment, /^#s=[A-Za-z0-9_-]+$/, 'base64url, no padding');
    assert.ok(fragment.length < state.text.length / 4, `compressed: ${fragment.length} < ${state.text.length}`);
    assert.deepEqual(await decodeState(fragment), state);
  });

  test('a damaged link is an error that says so', async () => {
    const fragment = await encodeState({ text: 'a: b\n', edition: 'base' });
    await assert.rejects(decodeState(fragment.slice(0, fragment.length - 5)), /damaged/);
    await assert.rejects(decodeState('#s=!!!'), /damaged/);
    assert.equal(isShareFragment('#other'), false);
  });
});

describe('positions', () => {
  const doc = Text.of(['kind: Pod', 'name: "é𝄞x"', '', 'end']);

  test('columns count characters, offsets count UTF-16 units', () => {
    assert.equal(offsetAt(doc, 1, 1), 0);
    assert.equal(offsetAt(doc, 2, 1), 10);
    // "𝄞" is one character and two UTF-16 units.
    assert.equal(offsetAt(doc, 2, 10), 10 + 'name: "é'.length + 2);
    assert.equal(offsetAt(doc, 99, 1), doc.line(4).from, 'lines past the end clamp to the last');
    assert.equal(offsetAt(doc, 1, 99), doc.line(1).to, 'columns past the end clamp to the line end');
  });

  test('empty spans widen to something visible', () => {
    assert.deepEqual(rangeOf(doc, { line: 1, column: 1, end_line: 1, end_column: 5 }), { from: 0, to: 4 });
    assert.deepEqual(rangeOf(doc, { line: 1, column: 7 }), { from: 6, to: 9 }, 'a point: the rest of the line');
    assert.deepEqual(rangeOf(doc, { line: 4, column: 4 }), { from: doc.line(4).from, to: doc.line(4).to });
  });
});

describe('SARIF', () => {
  test('the log of the broken example is valid SARIF 2.1.0 in both editions', async (t) => {
    const ra2 = await loadWasm();
    const validate = await sarifValidator();
    if (!validate) t.diagnostic(`schema validation skipped: ${sarifSchemaPath} is not there`);
    const text = readFileSync(join(repo, 'examples/broken/cnf.yaml'), 'utf8');
    for (const edition of ['base', 'latest']) {
      const report = ra2.lint(`${text}\n---\napiVersion: v1\nkind: [broken\n`, { edition, filename: 'cnf.yaml' });
      assert.ok(report.findings.length > 0);
      assert.ok(report.errors.length > 0, 'the trailing document is unreadable');
      const log = ra2.sarif(report);
      assert.ok(log.endsWith('}\n'), 'the text ra2 lint --format sarif prints, final newline included');
      const sarif = JSON.parse(log);
      if (validate) {
        const ok = validate(sarif);
        assert.ok(ok, `invalid SARIF (${edition}):\n${JSON.stringify(validate.errors?.slice(0, 5), null, 2)}`);
      }
      const [run] = sarif.runs;
      assert.equal(sarif.version, '2.1.0');
      assert.equal(run.results.length, report.findings.length);
      assert.equal(run.invocations[0].executionSuccessful, false);
      assert.equal(run.invocations[0].toolExecutionNotifications.length, report.errors.length);
      for (const [i, result] of run.results.entries()) {
        const finding = report.findings[i];
        assert.equal(run.tool.driver.rules[result.ruleIndex].id, finding.rule);
        assert.equal(result.properties.check, finding.check);
        assert.equal(result.locations[0].physicalLocation.region.startLine, finding.line);
        assert.match(result.partialFingerprints['ra2/v1'], /^[0-9a-f]{32}(:\d+)?$/);
      }
      const hostPath = run.results.find((r) => r.ruleId === 'ra2.app.007');
      assert.equal(hostPath.level, edition === 'base' ? 'warning' : 'error');
    }
  });

  test('a finding the API server refuses says so in SARIF, as ra2 does', async () => {
    const ra2 = await loadWasm();
    const pod = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nspec:\n  containers:\n  - name: c\n    image: r/c:1\n    ports:\n    - {containerPort: 80, protocol: tcp}\n';
    const report = ra2.lint(pod, { filename: 'pod.yaml' });
    const refused = report.findings.filter((f) => f.refused_by_api_server === true);
    assert.deepEqual(refused.map((f) => `${f.rule}/${f.check}`), ['k8s.api/port']);
    assert.ok(report.findings.filter((f) => !f.refused_by_api_server).every((f) => !('refused_by_api_server' in f)));
    const [run] = JSON.parse(ra2.sarif(report)).runs;
    const result = run.results.find((r) => r.ruleId === 'k8s.api');
    assert.ok(result.message.text.endsWith(`. ${REFUSED}`), result.message.text);
  });

  test('a value that is not a report is refused, not rendered', async () => {
    const ra2 = await loadWasm();
    assert.throws(() => ra2.sarif({ findings: 3 }), /sarif: not a ra2 report/);
    assert.throws(() => ra2.verdict(ra2.lint('kind: Pod\n'), 'sometimes'), /unknown fail-on "sometimes"/);
  });
});
