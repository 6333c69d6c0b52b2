// The npm package as a user gets it (`node --test`): `npm pack` of the built package
// (scripts/build-wasm writes ra2-wasm/pkg; RA2_WEB_PKG overrides), `npm install` of that
// tarball into a scratch project (offline: the package has no dependencies), then the project
// imports it by name as CommonJS and as an ES module (both flavours) and runs lint, review and
// rules, and `tsc --noEmit` type-checks a TypeScript consumer against the shipped declarations
// (the compiler from RA2_TSC, which scripts/typescript provides; without it that test is
// skipped, and fails when RA2_REQUIRE_TSC=1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pkg, root } from '../node/load.mjs';

const cargoVersion = /^version = "(.*)"/m.exec(readFileSync(join(root, 'Cargo.toml'), 'utf8'))[1];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const quiet = ['--no-audit', '--no-fund', '--loglevel=error'];

const scratch = mkdtempSync(join(tmpdir(), 'ra2-npm-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

// npm pack: the tarball and what it holds.
const [packed] = JSON.parse(
  execFileSync(npm, ['pack', pkg, '--pack-destination', scratch, '--json', ...quiet], { encoding: 'utf8' }),
);
const tarball = join(scratch, packed.filename);

// A scratch project with the tarball installed, and its inputs.
const project = join(scratch, 'project');
cpSync(join(root, 'examples'), join(project, 'examples'), { recursive: true });
cpSync(join(root, 'ra2-wasm/tests/admission'), join(project, 'admission'), { recursive: true });
writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, version: '1.0.0' }));
execFileSync(npm, ['install', '--offline', ...quiet, tarball], { cwd: project, encoding: 'utf8' });

// One program, written for each way of loading the package: lints the broken example, reviews
// a denied and a clean admission request, lists the rules; prints what it found.
const body = `
const report = lint(readFileSync('examples/broken/cnf.yaml', 'utf8'), { filename: 'cnf.yaml', edition: 'latest' });
const denied = review(JSON.parse(readFileSync('admission/pod-create-denied.json', 'utf8'))).response;
const clean = review(JSON.parse(readFileSync('admission/pod-create-clean.json', 'utf8'))).response;
console.log(JSON.stringify({
  version: version(),
  findings: report.findings.map((f) => \`\${f.file}:\${f.line} \${f.rule}/\${f.check}\`),
  summary: report.summary.findings,
  denied: [denied.allowed, denied.status?.code],
  clean: clean.allowed,
  rules: rules('latest').length,
}));
`;
const programs = {
  'commonjs.cjs': `const { lint, review, rules, version } = require('ra2-wasm');\nconst { readFileSync } = require('node:fs');\n${body}`,
  'esm.mjs': `import { lint, review, rules, version } from 'ra2-wasm';\nimport { readFileSync } from 'node:fs';\n${body}`,
  'web.mjs':
    `import init, { lint, review, rules, version } from 'ra2-wasm/web';\nimport { readFileSync } from 'node:fs';\n` +
    `await init({ module_or_path: readFileSync(new URL(import.meta.resolve('ra2-wasm/ra2_wasm_bg.wasm'))) });\n${body}`,
};
for (const [name, text] of Object.entries(programs)) {
  writeFileSync(join(project, name), text);
}

test('npm pack: the tarball holds both flavours, their declarations and nothing else', (t) => {
  const files = packed.files.map((f) => f.path).sort();
  assert.deepEqual(files, [
    'README.md',
    'node/package.json',
    'node/ra2_wasm.d.ts',
    'node/ra2_wasm.js',
    'node/ra2_wasm_bg.wasm',
    'node/ra2_wasm_bg.wasm.d.ts',
    'package.json',
    'web/package.json',
    'web/ra2_wasm.d.ts',
    'web/ra2_wasm.js',
    'web/ra2_wasm_bg.wasm',
    'web/ra2_wasm_bg.wasm.d.ts',
  ]);
  assert.equal(packed.name, 'ra2-wasm');
  assert.equal(packed.version, cargoVersion);
  t.diagnostic(`${packed.filename}: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked`);
});

test('the tarball is installed as a package, not linked to the checkout', () => {
  const installed = join(project, 'node_modules', 'ra2-wasm');
  assert.ok(!lstatSync(installed).isSymbolicLink());
  assert.equal(JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).version, cargoVersion);
});

test('CommonJS, ES module and the web flavour give the same results', () => {
  const outputs = Object.keys(programs).map((name) => [
    name,
    execFileSync(process.execPath, [name], { cwd: project, encoding: 'utf8' }),
  ]);
  const result = JSON.parse(outputs[0][1]);
  assert.equal(result.version, cargoVersion);
  assert.ok(result.findings.includes('cnf.yaml:208 ra2.app.007/host-path'), result.findings.join('\n'));
  assert.ok(result.summary.error > 0);
  assert.deepEqual(result.denied, [false, 403]);
  assert.equal(result.clean, true);
  assert.ok(result.rules > 30, `${result.rules} rules`);
  for (const [name, output] of outputs.slice(1)) {
    assert.equal(output, outputs[0][1], name);
  }
});

// A TypeScript consumer of each flavour: correct uses compile, and each `@ts-expect-error`
// line must be an error, so declarations that degrade to `any` fail the check.
const consumers = {
  'node-consumer.ts': `import { lint, review, rules, version, type Report, type Finding } from 'ra2-wasm';
const report: Report = lint('kind: Pod', { edition: 'latest', 'fail-on': 'warning', filename: 'p.yaml' });
const first: Finding | undefined = report.findings[0];
const line: number = first ? first.line : 0;
const severity: 'error' | 'warning' | 'info' | undefined = first?.severity;
const allowed: boolean = review({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid: 'u', operation: 'CREATE', object: {} } }).response.allowed;
// @ts-expect-error: an operation is CREATE, UPDATE, DELETE or CONNECT
review({ request: { uid: 'u', operation: 'PATCH' } });
const ids: string[] = rules('base').map((r) => r.id);
const v: string = version();
// @ts-expect-error: editions are "base" and "latest"
rules('newest');
// @ts-expect-error: a finding's rule is a string
const wrong: number = report.findings[0].rule;
// @ts-expect-error: lint needs the text
lint();
export { line, severity, allowed, ids, v, wrong };
`,
  'web-consumer.mts': `import init, { lint, type Report } from 'ra2-wasm/web';
await init();
const report: Report = lint('kind: Pod');
const documents: number = report.summary.documents;
// @ts-expect-error: a summary has no "total"
const total: number = report.summary.total;
export { documents, total };
`,
};

test('tsc --noEmit type-checks a consumer against the shipped declarations', (t) => {
  const tsc = process.env.RA2_TSC;
  if (!tsc) {
    assert.notEqual(process.env.RA2_REQUIRE_TSC, '1', 'RA2_REQUIRE_TSC=1 but no RA2_TSC');
    t.skip('no TypeScript compiler (RA2_TSC; scripts/typescript installs one)');
    return;
  }
  for (const [name, text] of Object.entries(consumers)) {
    writeFileSync(join(project, name), text);
  }
  const options = {
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: 'es2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      lib: ['es2022', 'dom'],
      types: [],
      skipLibCheck: false,
    },
    files: Object.keys(consumers),
  };
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(options, null, 2));
  const run = () => execFileSync(process.execPath, [tsc, '--noEmit', '-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8' });
  try {
    run();
  } catch (e) {
    assert.fail(`tsc --noEmit:\n${e.stdout}${e.stderr}`);
  }
  // The check can fail: a consumer with a real type error does not compile.
  writeFileSync(join(project, 'web-consumer.mts'), consumers['web-consumer.mts'].replace('// @ts-expect-error: a summary has no "total"\n', ''));
  assert.throws(run, (e) => /web-consumer\.mts.*Property 'total' does not exist/s.test(e.stdout));
});
