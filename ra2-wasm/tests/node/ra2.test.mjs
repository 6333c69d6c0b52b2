// The built npm package in Node (`node --test`): lint, review, rules and version through both
// flavours, on the rule fixtures, the admission fixtures, bad input and a large bundle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flavours, pkg, root } from './load.mjs';

const faces = await flavours();
const cargoVersion = /^version = "(.*)"/m.exec(readFileSync(join(root, 'Cargo.toml'), 'utf8'))[1];

const fixtureDir = join(root, 'tests/fixtures');
const fixtures = readdirSync(fixtureDir)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => {
    const text = readFileSync(join(fixtureDir, f), 'utf8');
    const id = f.replace(/\.yaml$/, '');
    const edition = /^# edition: (\S+)/m.exec(text)?.[1] ?? 'base';
    // The target Kubernetes release, when the fixture names one (as tests/tests/rules.rs reads it).
    const kubernetesVersion = /^# kubernetes-version: (\S+)/m.exec(text)?.[1];
    // `# expect: rule[/check], ...` on each line where a finding must be reported.
    const expected = [];
    text.split('\n').forEach((line, i) => {
      const m = line.split('# expect: ')[1];
      if (m === undefined) return;
      for (const marker of m.split(',').map((s) => s.trim()).filter(Boolean)) {
        const [rule, check] = marker.split('/');
        expected.push({ line: i + 1, rule, check });
      }
    });
    return { id, file: `fixtures/${f}`, text, edition, kubernetesVersion, expected };
  });

const admissionDir = join(root, 'ra2-wasm/tests/admission');
const admission = JSON.parse(readFileSync(join(admissionDir, 'expected.json'), 'utf8')).cases;
const readReview = (name) => JSON.parse(readFileSync(join(admissionDir, name), 'utf8'));
const head = (line) => line.split(': ')[0];
const sorted = (a) => [...a].sort();

for (const [flavour, ra2] of Object.entries(faces)) {
  test(`${flavour}: version is the crate version`, () => {
    assert.equal(ra2.version(), cargoVersion);
  });

  test(`${flavour}: lint returns the JSON output contract`, () => {
    const text = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: core}\nspec:\n  volumes: [{name: h, hostPath: {path: /var/lib/x}}]\n  containers: [{name: a, image: r/a:1.0}]\n';
    const report = ra2.lint(text, { filename: 'pod.yaml', select: ['ra2.app.007'] });
    assert.deepEqual(Object.keys(report), ['version', 'tool', 'edition', 'findings', 'errors', 'objects', 'summary']);
    assert.equal(report.version, 1);
    assert.deepEqual(report.tool, { name: 'ra2', version: cargoVersion });
    assert.equal(report.edition, 'base');
    assert.deepEqual(report.findings, [{
      rule: 'ra2.app.007', check: 'host-path', severity: 'warning',
      message: 'volume "h" mounts host path /var/lib/x',
      help: report.findings[0].help,
      file: 'pod.yaml', line: 5, column: 23, end_line: 5, end_column: 31, document: 0,
      object: { apiVersion: 'v1', kind: 'Pod', namespace: 'core', name: 'p' },
      pointer: '/spec/volumes/0/hostPath',
    }]);
    assert.match(report.findings[0].help, /\.$/);
    assert.deepEqual(report.errors, []);
    assert.deepEqual(report.objects, [{ file: 'pod.yaml', document: 0, apiVersion: 'v1', kind: 'Pod', name: 'p', namespace: 'core', profile: 'basic', line: 1 }]);
    assert.deepEqual(report.summary, { files: 1, documents: 1, objects: 1, errors: 0, findings: { error: 0, warning: 1, info: 0 }, suppressed: 0, suppressed_by_reason: {}, skipped: 0, skipped_by_reason: {} });
    // Without options: every rule of the base edition, and the default file name.
    const all = ra2.lint(text);
    assert.ok(all.findings.length > 1);
    assert.ok(all.findings.every((f) => f.file === '<input>'));
    assert.deepEqual(ra2.lint(text, null).findings, all.findings);
  });

  test(`${flavour}: findings carry fixes and fix applies them`, () => {
    const text = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}  # kept\nspec:\n  containers:\n  - name: a\n    image: r/a:1\n';
    const escalation = ra2.lint(text).findings.find((f) => f.check === 'privilege-escalation');
    assert.deepEqual(escalation.fix, {
      applicability: 'safe',
      title: "Set allowPrivilegeEscalation: false in the container's securityContext",
      patch: [{ op: 'add', path: '/spec/containers/0/securityContext', value: { allowPrivilegeEscalation: false } }],
    });
    const fixed = ra2.fix(text);
    assert.equal(fixed, text + '    securityContext:\n      allowPrivilegeEscalation: false\n');
    assert.equal(ra2.fix(fixed), fixed);
    assert.match(ra2.fix(text, null, true), /readOnlyRootFilesystem: true/);
    assert.throws(() => ra2.fix(42), /fix: text must be a string/);
    // One finding's fix as edits in UTF-16 offsets (the comment holds a character outside the BMP).
    const wide = `# 🚀\n${text}`;
    const index = ra2.lint(wide).findings.findIndex((f) => f.check === 'privilege-escalation');
    const edits = ra2.fixEdits(wide, index);
    let one = wide;
    for (const edit of [...edits].reverse()) one = one.slice(0, edit.from) + edit.insert + one.slice(edit.to);
    assert.equal(one, `# 🚀\n${fixed}`);
    assert.throws(() => ra2.fixEdits(wide, 999), /there is no finding 999/);
  });

  test(`${flavour}: waivers expire by the host's clock`, () => {
    const pod = (until) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n    ignore-check.ra2.dev/ra2.app.009: "lab only; expires ${until}"\nspec:\n  containers: [{name: c, image: r/c:1, securityContext: {privileged: true}}]\n`;
    const checks = (report) => report.findings.map((f) => `${f.rule}/${f.check}`);
    const held = ra2.lint(pod('2999-12-31'));
    assert.ok(!checks(held).includes('ra2.app.009/privileged-device'));
    assert.equal(held.summary.waivers[0].expires, '2999-12-31');
    const lapsed = ra2.lint(pod('2000-01-01'));
    assert.ok(checks(lapsed).includes('ra2.app.009/privileged-device'));
    assert.ok(checks(lapsed).includes('suppression/expired'));
  });

  test(`${flavour}: options as .ra2.yaml text`, () => {
    const text = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  volumes: [{name: h, hostPath: {path: /x}}]\n  containers: [{name: a, image: r/a:1}]\n';
    const report = ra2.lint(text, 'edition: latest\nselect: [ra2.app.007]\nseverity:\n  ra2.app.007: info\n');
    assert.equal(report.edition, 'latest');
    assert.deepEqual(report.findings.map((f) => [f.rule, f.severity]), [['ra2.app.007', 'info']]);
  });

  test(`${flavour}: every rule fixture fires exactly where marked`, () => {
    for (const fx of fixtures) {
      const options = { filename: fx.file, edition: fx.edition };
      if (fx.kubernetesVersion) options['kubernetes-version'] = fx.kubernetesVersion;
      const report = ra2.lint(fx.text, options);
      assert.deepEqual(report.errors, [], fx.id);
      const actual = report.findings.filter((f) => f.rule === fx.id);
      for (const e of fx.expected.filter((e) => e.rule === fx.id)) {
        assert.ok(actual.some((f) => f.line === e.line && (!e.check || f.check === e.check)),
          `${fx.id}:${e.line}: expected ${e.rule}${e.check ? '/' + e.check : ''} but it did not fire`);
      }
      for (const f of actual) {
        assert.ok(fx.expected.some((e) => e.line === f.line && e.rule === f.rule && (!e.check || e.check === f.check)),
          `${fx.id}:${f.line}: ${f.rule}/${f.check} fired without an \`# expect:\` marker`);
      }
    }
  });

  test(`${flavour}: review answers the admission fixtures like the policy`, () => {
    for (const c of admission) {
      const review = readReview(c.review);
      const what = `${c.review} with ${JSON.stringify(c.settings ?? {})}`;
      const out = ra2.review(review, c.settings);
      assert.equal(out.kind, 'AdmissionReview', what);
      assert.equal(out.apiVersion, 'admission.k8s.io/v1', what);
      assert.equal(out.response.uid, review.request.uid, what);
      assert.equal(out.response.allowed, c.allowed, what);
      const message = out.response.status?.message ?? '';
      if (c.allowed) assert.equal(out.response.status, undefined, what);
      else assert.equal(out.response.status.code, c.code, what);
      assert.deepEqual(sorted(message.split('\n').filter(Boolean).map(head)), sorted(c.deny), `${what}: denial lines`);
      const warnings = out.response.warnings ?? [];
      assert.ok(warnings.every((w) => w.length < 256), what);
      assert.deepEqual(sorted(warnings.map(head)), sorted(c.warnings), `${what}: warnings`);
      // The JSON text of the review (an HTTP body) gets the same answer.
      assert.deepEqual(ra2.review(JSON.stringify(review), c.settings), out, what);
    }
  });

  test(`${flavour}: rules lists the catalogue per edition`, () => {
    const files = readdirSync(join(root, 'rules')).filter((f) => /^(ra2|sec|k8s)\..*\.yaml$/.test(f));
    const base = ra2.rules();
    assert.deepEqual(ra2.rules('base'), base);
    const latest = ra2.rules('latest');
    assert.deepEqual(sorted(new Set([...base, ...latest].map((r) => r.id))), sorted(files.map((f) => f.replace(/\.yaml$/, ''))));
    assert.deepEqual(base.map((r) => r.id), sorted(base.map((r) => r.id)));
    for (const r of [...base, ...latest]) {
      assert.ok(r.title && r.requirement && r.rationale && r.remediation, r.id);
      assert.ok(r.checks.length > 0 && r.checks.every((c) => c.slug && c.description), r.id);
      assert.ok(r.examples.failing.length >= 2 && r.examples.passing.length >= 2, r.id);
    }
    assert.ok(base.every((r) => r.editions.includes('base')));
    assert.ok(latest.every((r) => r.editions.includes('latest')));
    assert.throws(() => ra2.rules('newest'), { name: 'Error', message: 'unknown edition "newest" (expected base or latest)' });
  });

  test(`${flavour}: sarif, junit and verdict render a report (byte parity with the CLI: ra2-py/tests/test_output_parity.py)`, () => {
    const text = readFileSync(join(root, 'examples/broken/cnf.yaml'), 'utf8');
    const report = ra2.lint(text, { filename: 'cnf.yaml', edition: 'latest' });
    const sarif = JSON.parse(ra2.sarif(report));
    assert.equal(sarif.runs[0].results.length, report.findings.length);
    assert.ok(sarif.runs[0].tool.driver.rules.some((r) => r.id === 'exemption'), 'pseudo-rules are listed');
    const junit = ra2.junit(report);
    assert.ok(junit.startsWith('<?xml'), junit.slice(0, 40));
    const errors = report.findings.filter((f) => f.severity === 'error').length;
    assert.ok(errors > 0);
    assert.deepEqual(ra2.verdict(report), { exit_code: 1, failing: errors });
    assert.deepEqual(ra2.verdict(report, 'never'), { exit_code: 0, failing: 0 });
    assert.deepEqual(ra2.verdict(report, 'info'), { exit_code: 1, failing: report.findings.length });
    const unreadable = ra2.lint('kind: [\n');
    assert.equal(ra2.verdict(unreadable, 'never').exit_code, 2);
    assert.deepEqual(ra2.pseudoRules().map((r) => r.id), ['yaml', 'suppression', 'exemption', 'schema']);
    assert.throws(() => ra2.sarif(null), /sarif: not a ra2 report/);
    assert.throws(() => ra2.junit({ findings: 'x' }), /junit: not a ra2 report/);
    assert.throws(() => ra2.verdict(report, 'sometimes'), /verdict: unknown fail-on "sometimes"/);
  });

  test(`${flavour}: unreadable input is reported, not thrown`, () => {
    const report = ra2.lint('apiVersion: v1\nkind: Pod\nmetadata: {name: [\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: ok}\nspec:\n  nodeName: n1\n  containers: [{name: a, image: r/a:1}]\n', { select: 'ra2.app.008' });
    assert.equal(report.errors.length, 1);
    assert.equal(report.errors[0].code, 'ra2::parse::yaml');
    assert.equal(report.errors[0].document, 0);
    assert.ok(report.errors[0].line >= 3);
    // The next document is still linted.
    assert.deepEqual(report.findings.map((f) => [f.check, f.document, f.line]), [['node-name', 1, 9]]);
    for (const text of ['', '---\n', '\u0000\u0001', '[1, 2', '{"a": ', 'a: *nope', '- just\n- a list\n', 'x'.repeat(100000), '\uFEFFkind: Pod', '{'.repeat(10000)]) {
      const r = ra2.lint(text);
      assert.equal(r.version, 1);
    }
    // Alias bombs stop at the expansion limit.
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill('*' + String.fromCharCode(96 + i)).join(',')}]`);
    const r = ra2.lint(bomb.join('\n') + '\n');
    assert.equal(r.errors.length, 1, JSON.stringify(r.errors));
  });

  test(`${flavour}: bad arguments throw an Error with a clear message`, () => {
    const cases = [
      [() => ra2.lint(42), 'lint: text must be a string, found number'],
      [() => ra2.lint(undefined), 'lint: text must be a string, found undefined'],
      [() => ra2.lint('', { 'fail-on': 'sometimes' }), 'invalid ra2 options: /fail-on: "sometimes" is not one of "error", "warning", "info", "never"'],
      [() => ra2.lint('', { selct: ['ra2.app'] }), 'invalid ra2 options: /selct: unknown key "selct" (did you mean "select"?)'],
      [() => ra2.lint('', { ignore: ['ra2.app.07'] }), 'invalid ra2 options: /ignore/0: unknown rule "ra2.app.07" (did you mean "ra2.app.007"?)'],
      [() => ra2.lint('', { params: { 'ra2.app.009': { network_resources_injector: 'yes' } } }), 'invalid ra2 options: /params/ra2.app.009/network_resources_injector: parameter "network_resources_injector" of ra2.app.009 must be a boolean, found string'],
      [() => ra2.lint('', { exemptions: [{ rule: 'ra2.app.007' }] }), 'invalid ra2 options: /exemptions/0: missing required key "reason"'],
      [() => ra2.lint('', { filename: 7 }), 'invalid ra2 options: /filename: expected string, found a number'],
      [() => ra2.lint('', 7), 'invalid ra2 options: expected an object with .ra2.yaml keys or the text of a .ra2.yaml file, found a number'],
      [() => ra2.lint('', [1]), 'invalid ra2 options: expected an object with .ra2.yaml keys or the text of a .ra2.yaml file, found an array'],
      [() => ra2.lint('', 'fail-on: sometimes\n'), /^invalid ra2 options: \.ra2\.yaml:1:\d+: "sometimes" is not one of/],
      [() => { const o = {}; o.self = o; ra2.lint('', o); }, /^ra2 options cannot be written as JSON: Converting circular structure to JSON/],
      [() => ra2.review({ request: { big: 1n } }), 'the AdmissionReview cannot be written as JSON: Do not know how to serialize a BigInt'],
      [() => ra2.review({}, { edition: 'newest' }), 'invalid ra2 options: /edition: "newest" is not one of "base", "latest"'],
    ];
    for (const [call, message] of cases) {
      assert.throws(call, (e) => {
        assert.ok(e instanceof Error, String(e));
        if (message instanceof RegExp) assert.match(e.message, message);
        else assert.equal(e.message, message);
        return true;
      });
    }
    // The module is still usable after every one of them.
    assert.equal(ra2.lint('apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n').summary.objects, 1);
  });

  test(`${flavour}: malformed admission reviews get 400, not an exception`, () => {
    const cases = [
      [undefined, 'the AdmissionReview is null, not an object'],
      [null, 'the AdmissionReview is null, not an object'],
      ['{"request": ', 'the AdmissionReview is not JSON: EOF while parsing'],
      [[], 'the AdmissionReview is an array, not an object'],
      [{ kind: 'Pod' }, 'expected kind AdmissionReview, found "Pod"'],
      [{ kind: 'AdmissionReview' }, 'the AdmissionReview has no request'],
      [{ request: { uid: 'u1' } }, 'the admission request has no operation'],
      [{ request: { uid: 'u2', operation: 'PATCH' } }, 'unknown operation "PATCH"'],
      [{ request: { uid: 'u3', operation: 'CREATE' } }, 'the CREATE request carries no object'],
      [{ request: { uid: 'u4', operation: 'UPDATE', object: 'x' } }, "the UPDATE request's object is a string, not an object"],
      [{ request: { uid: 'u5', operation: 'CREATE', object: { kind: 'Pod' } } }, 'ra2 cannot read the object: object has no apiVersion'],
    ];
    for (const [input, why] of cases) {
      const out = ra2.review(input);
      assert.equal(out.kind, 'AdmissionReview');
      assert.equal(out.response.allowed, false, why);
      assert.equal(out.response.status.code, 400, why);
      assert.ok(out.response.status.message.startsWith(`ra2: malformed admission request: ${why}`), out.response.status.message);
      assert.equal(out.response.uid, input?.request?.uid ?? '');
    }
  });

  test(`${flavour}: a large bundle`, () => {
    // The largest file of the shared corpus when it is there, and always a generated bundle of
    // 1,000 Deployments with 4 findings each.
    const corpus = join(root, '../shared/corpus');
    if (existsSync(corpus)) {
      const largest = execFileSync('find', [corpus, '-type', 'f', '(', '-name', '*.yaml', '-o', '-name', '*.yml', ')', '-printf', '%s %p\\n'], { encoding: 'utf8' })
        .trim().split('\n').map((l) => [Number(l.split(' ')[0]), l.slice(l.indexOf(' ') + 1)]).sort((a, b) => b[0] - a[0])[0][1];
      const report = ra2.lint(readFileSync(largest, 'utf8'), { filename: largest });
      assert.ok(report.summary.documents > 50, largest);
    }
    const doc = (i) => `---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d${i}, namespace: ns${i % 7}}\nspec:\n  selector: {matchLabels: {app: d${i}}}\n  template:\n    metadata: {labels: {app: d${i}}}\n    spec:\n      nodeSelector: {node-role.kubernetes.io/master: ""}\n      volumes: [{name: h, hostPath: {path: /var/d${i}}}]\n      containers:\n      - name: c\n        image: registry.example.com/c:${i}\n        volumeMounts: [{name: h, mountPath: /d}]\n`;
    const text = Array.from({ length: 1000 }, (_, i) => doc(i)).join('');
    const report = ra2.lint(text, { select: ['ra2.app.007', 'ra2.app.008'] });
    assert.equal(report.summary.documents, 1000);
    assert.deepEqual(report.summary.findings, { error: 1000, warning: 1000, info: 0 });
    assert.equal(report.findings.at(-1).document, 999);
    assert.equal(report.findings.at(-1).line, 999 * 15 + 11); // the hostPath of the last one
  });
}

test('the package resolves by name in Node, as CommonJS and as an ES module', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ra2-wasm-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(pkg, join(dir, 'node_modules', 'ra2-wasm'), 'dir');
    writeFileSync(join(dir, 'cjs.cjs'), "const { lint, version } = require('ra2-wasm'); console.log(version(), lint('kind: Pod').errors.length);\n");
    writeFileSync(join(dir, 'esm.mjs'), "import { lint, version } from 'ra2-wasm'; console.log(version(), lint('kind: Pod').errors.length);\n");
    writeFileSync(join(dir, 'web.mjs'), "import init, { version } from 'ra2-wasm/web'; import { readFileSync } from 'node:fs';\nawait init({ module_or_path: readFileSync(new URL(import.meta.resolve('ra2-wasm/ra2_wasm_bg.wasm'))) }); console.log(version());\n");
    for (const script of ['cjs.cjs', 'esm.mjs']) {
      assert.equal(execFileSync(process.execPath, [script], { cwd: dir, encoding: 'utf8' }), `${cargoVersion} 1\n`, script);
    }
    assert.equal(execFileSync(process.execPath, ['web.mjs'], { cwd: dir, encoding: 'utf8' }), `${cargoVersion}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the package ships TypeScript declarations for both flavours', () => {
  const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
  assert.equal(manifest.version, cargoVersion);
  for (const flavour of ['web', 'node']) {
    const dts = readFileSync(join(pkg, flavour, 'ra2_wasm.d.ts'), 'utf8');
    for (const decl of [
      'export function lint(text: string, options?: Options | string | null): Report;',
      'export function review(admissionReview: AdmissionReview | string, options?: Config | string | null): AdmissionReviewResponse;',
      'export function rules(edition?: "base" | "latest" | null): RuleDoc[];',
      'export function version(): string;',
      'export function sarif(report: Report): string;',
      'export function junit(report: Report): string;',
      'export function verdict(report: Report, failOn?: "error" | "warning" | "info" | "never" | null): Verdict;',
      'export function pseudoRules(): PseudoRule[];',
      'export interface Report {',
      'export interface Finding {',
    ]) {
      assert.ok(dts.includes(decl), `${flavour}: ${decl}`);
    }
    assert.ok(statSync(join(pkg, flavour, 'ra2_wasm_bg.wasm')).size > 0);
  }
});
