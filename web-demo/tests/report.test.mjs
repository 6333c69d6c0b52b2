// The conformance report (`ra2 lint --format html`) as a person opens it: the page ra2 writes
// for the examples, for a cluster's platform manifests and for the latest edition is loaded in
// headless Chromium from a file (nothing served, nothing fetched), renders without a console
// error or a request, lists every requirement of the edition, and gives each the status the
// JSON report implies. A screenshot of each is kept in tests/artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { artifactPath, launch, ra2Binary, repo } from './helpers.mjs';

/** Runs ra2 in the repository; its standard output whatever the exit status (1 and 2 report). */
function ra2(bin, args) {
  try {
    return execFileSync(bin, args, { cwd: repo, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (error) {
    if (typeof error.stdout === 'string' && (error.status === 1 || error.status === 2)) return error.stdout;
    throw error;
  }
}

const CASES = [
  { name: 'examples', edition: 'base', args: ['examples'] },
  {
    name: 'cluster',
    edition: 'base',
    args: [
      'tests/fixtures/ra2.k8s.003.yaml',
      'tests/fixtures/ra2.k8s.004.yaml',
      'tests/fixtures/ra2.ch.018.yaml',
      'tests/fixtures/ra2.ntw.012.yaml',
    ],
  },
  { name: 'examples-latest', edition: 'latest', args: ['examples'] },
];

const bin = ra2Binary();

for (const { name, edition, args } of CASES) {
  test(`conformance report (${name}) renders in Chromium with every requirement and its status`, { skip: bin ? false : 'no ra2 binary: cargo build -p ra2-cli (or set RA2_BIN)' }, async () => {
    const common = ['lint', '--no-config', '--edition', edition, ...args];
    const report = JSON.parse(ra2(bin, [...common, '--format', 'json']));
    const catalogue = JSON.parse(ra2(bin, ['rules', '--all', '--edition', edition, '--format', 'json']));
    const html = ra2(bin, [...common, '--format', 'html']);
    const dir = mkdtempSync(join(tmpdir(), 'ra2-report-'));
    const file = join(dir, `${name}.html`);
    writeFileSync(file, html);

    const browser = await launch();
    try {
      const page = await browser.context.newPage();
      const problems = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
      });
      const requests = [];
      page.on('request', (request) => {
        if (!request.url().startsWith('file:')) requests.push(request.url());
      });
      const start = Date.now();
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      const loaded = Date.now() - start;
      assert.deepEqual(problems, []);
      assert.deepEqual(requests, [], 'the page fetches nothing');

      const rows = await page.$$eval('#matrix tbody tr', (trs) =>
        trs.map((tr) => ({ ids: tr.dataset.ids.split(' '), status: tr.dataset.status, text: tr.querySelector('.status').textContent })),
      );
      const statusOf = new Map(rows.flatMap((row) => row.ids.map((id) => [id, row])));
      const expected = [
        ...catalogue.rules.map((rule) => rule.id),
        ...catalogue.unchecked.flatMap((row) => row.ids),
      ];
      for (const id of expected) assert.ok(statusOf.has(id), `${id} is in the matrix`);
      const violated = new Set(report.findings.map((finding) => finding.rule));
      for (const rule of catalogue.rules) {
        const row = statusOf.get(rule.id);
        if (violated.has(rule.id)) {
          assert.equal(row.status, 'violated', rule.id);
          assert.match(row.text, /violated/, 'the status is written, not only coloured');
          assert.ok(await page.$(`[id="req-${rule.id}"]`), `${rule.id} has its group of findings`);
        } else {
          assert.ok(['met', 'not-applicable'].includes(row.status), `${rule.id}: ${row.status}`);
        }
      }
      for (const row of catalogue.unchecked) {
        assert.ok(['not-checkable', 'not-required'].includes(statusOf.get(row.ids[0]).status), row.ids[0]);
      }
      const headings = await page.$$eval('h1, h2', (hs) => hs.map((h) => `${h.tagName}:${h.textContent}`));
      assert.deepEqual(headings.slice(0, 1), ['H1:RA2 conformance report']);
      assert.ok(await page.$('svg[role="img"][aria-label]'), 'the chart has a text alternative');
      const findings = await page.$$eval('ol.findings > li', (lis) => lis.length);
      assert.equal(findings, report.findings.length + report.errors.length, 'every finding and error is listed');

      await page.screenshot({ path: artifactPath(`report-${name}.png`), fullPage: true });
      if (name === 'examples' && process.env.UPDATE_SCREENSHOT === '1') {
        // The README's picture: the top of the page.
        await page.screenshot({ path: join(repo, 'web-demo', 'report.png'), clip: { x: 0, y: 0, width: 1360, height: 1100 } });
      }
      console.log(`report ${name}: ${html.length} bytes, ${rows.length} rows, ${findings} findings, loaded in ${loaded} ms`);
    } finally {
      await browser.close();
    }
  });
}
