// End-to-end tests of the BUILT playground (dist/) in Debian's Chromium, driven by
// playwright-core and served by serve.mjs on 127.0.0.1. They do what a person does: paste a
// manifest, read the findings, open a rule, change the edition, follow a share link, break the
// YAML, go offline, and use a phone-sized window. Screenshots land in tests/artifacts/.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { artifactPath, demo, dist, launch, ra2Binary, repo, sarifSchemaPath, serveDist } from './helpers.mjs';

const HOST_PATH_POD = `apiVersion: v1
kind: Pod
metadata:
  name: log-shipper
  namespace: core
spec:
  containers:
    - name: shipper
      image: registry.example.com/tools/shipper:2.1.0
      volumeMounts:
        - name: logs
          mountPath: /var/log/host
  volumes:
    - name: logs
      hostPath:
        path: /var/log
`;
const HOST_PATH_LINE = 15;

let server;
let browser;
let page;
const pageErrors = [];

/** Replaces the editor's text the way a paste does (a ClipboardEvent with text/plain). */
async function paste(target, text) {
  await target.click('.cm-content');
  await target.keyboard.press('ControlOrMeta+a');
  await target.evaluate((value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    const content = document.querySelector('.cm-content');
    content.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

/** Waits until the findings shown are those of the current text. */
async function settled(target) {
  await target.waitForFunction(() => {
    const m = window.__ra2;
    const last = m?.lints.at(-1);
    return last && last.docVersion === m.docVersion && document.getElementById('status').dataset.kind !== 'busy';
  });
}

async function findings(target) {
  return target.$$eval('#findings button.finding', (buttons) =>
    buttons.map((b) => ({
      rule: b.dataset.rule,
      check: b.dataset.check,
      line: Number(b.dataset.line),
      severity: [...b.classList].find((c) => c.startsWith('sev-'))?.slice(4),
      text: b.textContent,
    })),
  );
}

async function editorText(target) {
  return target.evaluate(() => window.__ra2.view.state.doc.toString());
}

before(async () => {
  server = await serveDist();
  browser = await launch();
  page = await browser.context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

describe('the playground', () => {
  test('loads, lints the default example and loads nothing but its own files', async () => {
    const requested = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(server.url);
    await page.waitForSelector('#findings button.finding');
    await settled(page);
    assert.match(await page.textContent('#version'), /^ra2 \d+\.\d+\.\d+/);
    assert.match(await page.textContent('#status'), /objects? in \d+ documents?/);
    await page.evaluate(() => navigator.serviceWorker.ready);
    const foreign = requested.filter((url) => !url.startsWith(server.url) && !url.startsWith('data:') && !url.startsWith('blob:'));
    assert.deepEqual(foreign, [], 'no request leaves the page\'s own origin');

    // The first load's transfer: the gzip size of every file it fetched (the service worker
    // fetches the rest of the build, so this is all of dist/).
    const files = new Set(server.requests.map((path) => (path.endsWith('/') ? `${path}index.html` : path)));
    let total = 0;
    const rows = [];
    for (const path of [...files].sort()) {
      const size = gzipSync(readFileSync(join(dist, path)), { level: 9 }).length;
      rows.push(`${path} ${size}`);
      total += size;
    }
    console.log(`first load: ${files.size} files, ${total} bytes gzipped (budget 1,000,000): ${rows.join(', ')}`);
    assert.ok(total <= 1_000_000, `first load is ${total} bytes gzipped, over the 1 MB budget`);
    assert.deepEqual(pageErrors, []);
  });

  test('a pasted hostPath volume is a finding in the panel, a squiggle, a gutter marker and a tooltip', async () => {
    await paste(page, HOST_PATH_POD);
    await settled(page);
    assert.equal(await editorText(page), HOST_PATH_POD);
    const found = (await findings(page)).filter((f) => f.rule === 'ra2.app.007');
    assert.equal(found.length, 1, JSON.stringify(await findings(page)));
    assert.deepEqual(
      { check: found[0].check, line: found[0].line, severity: found[0].severity },
      { check: 'host-path', line: HOST_PATH_LINE, severity: 'warning' },
    );
    assert.match(found[0].text, /volume "logs" mounts host path \/var\/log/);
    assert.match(found[0].text, /Pod core\/log-shipper/);

    // Other rules may underline other parts of the pod: find the squiggle on hostPath.
    const squiggle = page.locator('.cm-lintRange-warning', { hasText: /^hostPath$/ });
    await squiggle.waitFor();
    assert.equal(await squiggle.evaluate((node) => {
      const view = window.__ra2.view;
      return view.state.doc.lineAt(view.posAtDOM(node)).number;
    }), HOST_PATH_LINE);
    const markerLines = await page.$$eval('.cm-gutter-lint .cm-lint-marker-warning', (markers) =>
      markers.map((marker) => {
        const view = window.__ra2.view;
        const block = view.lineBlockAtHeight(marker.getBoundingClientRect().top + 2 - view.documentTop);
        return view.state.doc.lineAt(block.from).number;
      }),
    );
    assert.ok(markerLines.includes(HOST_PATH_LINE), `warning markers on lines ${markerLines}`);

    await squiggle.hover();
    const tooltip = await page.waitForSelector('.cm-tooltip-lint');
    assert.match(await tooltip.textContent(), /mounts host path \/var\/log.*ra2\.app\.007\/host-path/s);
    await page.mouse.move(0, 0);
  });

  test('a finding opens its rule: title, RA2 requirement, rationale and fix', async () => {
    await page.click('#findings button.finding[data-rule="ra2.app.007"]');
    await page.waitForSelector('#rule:not([hidden]) [data-testid="rule-requirement"]');
    assert.match(await page.textContent('[data-testid="rule-title"]'), /ra2\.app\.007\s+Host volumes are not used/);
    assert.match(await page.textContent('[data-testid="rule-requirement"]'), /hostPath/);
    assert.match(await page.textContent('#rule'), /Why it matters/);
    assert.match(await page.textContent('[data-testid="rule-fix"]'), /PersistentVolumeClaim/);
    assert.equal(await page.textContent('[data-testid="rule-severity"]'), 'warning in base');
    const cursorLine = await page.evaluate(() => {
      const { state } = window.__ra2.view;
      return state.doc.lineAt(state.selection.main.from).number;
    });
    assert.equal(cursorLine, HOST_PATH_LINE, 'the editor jumps to the finding');
  });

  test('the latest edition makes ra2.app.007 an error', async () => {
    await page.selectOption('#edition', 'latest');
    await page.waitForSelector('#findings button.finding.sev-error[data-rule="ra2.app.007"]');
    await settled(page);
    const found = (await findings(page)).find((f) => f.rule === 'ra2.app.007');
    assert.equal(found.severity, 'error');
    await page.waitForSelector('.cm-lintRange-error');
    await page.click('#findings button.finding[data-rule="ra2.app.007"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="rule-severity"]')?.textContent === 'error in latest');
  });

  test('Fix all applies the safe fixes, as ra2 lint --fix does, in one undoable edit', async () => {
    const text = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: amf  # the AMF\n  namespace: core\nspec:\n  selector: {matchLabels: {app: amf}}\n  template:\n    metadata: {labels: {app: amf}}\n    spec:\n      containers:\n      - name: amf\n        image: registry.example.com/core/amf:1.2.0\n      - name: proxy\n        image: registry.example.com/core/proxy:2.0.1\n        securityContext: {runAsNonRoot: true}\n';
    const original = await editorText(page);
    await paste(page, text);
    await settled(page);
    await page.waitForSelector('#fix-all:not([disabled])');
    const before = await findings(page);
    await page.click('#fix-all');
    await page.waitForFunction((old) => window.__ra2.view.state.doc.toString() !== old, text);
    await settled(page);
    const fixed = await editorText(page);
    const after = await findings(page);
    assert.ok(after.length < before.length, `${before.length} findings before, ${after.length} after`);
    assert.ok(fixed.includes('# the AMF'), 'comments stay');
    const bin = ra2Binary();
    if (bin) {
      const edition = await page.inputValue('#edition');
      // `ra2 fix -` writes the fixed text; it exits 1 because unfixable findings remain.
      const cli = spawnSync(bin, ['fix', '--no-config', '--edition', edition, '-'], { input: text, encoding: 'utf8' });
      assert.ok([0, 1].includes(cli.status ?? -1), cli.stderr);
      assert.equal(fixed, cli.stdout, 'the same text as `ra2 fix -`');
    }
    // One undo restores the text as it was.
    await page.click('.cm-content');
    await page.keyboard.press('ControlOrMeta+z');
    await page.waitForFunction((old) => window.__ra2.view.state.doc.toString() === old, text);
    // The tests after this one read the text the earlier ones left.
    await paste(page, original);
    await settled(page);
  });

  test('Apply fix on one finding changes only what its fix edits, in one undoable edit', async () => {
    // A non-ASCII comment before the edit: the wasm edits count UTF-16 units, as the editor does.
    const text = '# café 🚀 pod\napiVersion: v1\nkind: Pod\nmetadata: {name: p}  # kept\nspec:\n  containers:\n  - name: a\n    image: r/a:1\n';
    const original = await editorText(page);
    await paste(page, text);
    await settled(page);
    const before = await findings(page);
    const target = before.find((f) => f.check === 'privilege-escalation');
    assert.ok(target, JSON.stringify(before));
    await page.click('#findings button.finding[data-check="privilege-escalation"]');
    await page.waitForSelector('#rule [data-testid=apply-fix]');
    assert.match(await page.textContent('#rule [data-testid=apply-fix]'), /^Apply fix: Set allowPrivilegeEscalation: false/);
    await page.click('#rule [data-testid=apply-fix]');
    await page.waitForFunction((old) => window.__ra2.view.state.doc.toString() !== old, text);
    await settled(page);
    const fixed = await editorText(page);
    assert.equal(fixed, `${text}    securityContext:\n      allowPrivilegeEscalation: false\n`);
    const after = await findings(page);
    assert.ok(!after.some((f) => f.check === 'privilege-escalation'), 'the finding is gone');
    assert.equal(after.length, before.length - 1, 'and no other finding came or went');
    const bin = ra2Binary();
    if (bin) {
      // The same text as `ra2 fix` with only that check selected.
      const edition = await page.inputValue('#edition');
      const cli = spawnSync(bin, ['fix', '--no-config', '--edition', edition, '--select', `${target.rule}/privilege-escalation`, '-'], { input: text, encoding: 'utf8' });
      assert.equal(fixed, cli.stdout, cli.stderr);
    }
    // An unsafe fix says so.
    await page.click('#findings button.finding[data-check="readonly-root"]');
    await page.waitForSelector('#rule [data-testid=unsafe-fix]');
    // One undo restores the text.
    await page.click('.cm-content');
    await page.keyboard.press('ControlOrMeta+z');
    await page.waitForFunction((old) => window.__ra2.view.state.doc.toString() === old, text);
    await paste(page, original);
    await settled(page);
  });

  test('downloads the findings as JSON and as valid SARIF 2.1.0', async (t) => {
    const [jsonDownload] = await Promise.all([page.waitForEvent('download'), page.click('#download-json')]);
    assert.equal(jsonDownload.suggestedFilename(), 'ra2-report.json');
    const report = JSON.parse(readFileSync(await jsonDownload.path(), 'utf8'));
    assert.equal(report.version, 1);
    assert.equal(report.edition, 'latest');
    const hostPath = report.findings.find((f) => f.rule === 'ra2.app.007');
    assert.equal(hostPath.line, HOST_PATH_LINE);
    assert.equal(hostPath.pointer, '/spec/volumes/0/hostPath');
    assert.equal(hostPath.file, 'manifest.yaml');

    const [sarifDownload] = await Promise.all([page.waitForEvent('download'), page.click('#download-sarif')]);
    assert.equal(sarifDownload.suggestedFilename(), 'ra2-report.sarif');
    const sarif = JSON.parse(readFileSync(await sarifDownload.path(), 'utf8'));
    const result = sarif.runs[0].results.find((r) => r.ruleId === 'ra2.app.007');
    assert.equal(result.level, 'error');
    assert.equal(result.locations[0].physicalLocation.region.startLine, HOST_PATH_LINE);
    const { default: Ajv } = await import('ajv-draft-04');
    const { default: addFormats } = await import('ajv-formats');
    try {
      const ajv = new Ajv({ allErrors: true, strict: false });
      addFormats(ajv);
      const validate = ajv.compile(JSON.parse(readFileSync(sarifSchemaPath, 'utf8')));
      assert.ok(validate(sarif), JSON.stringify(validate.errors?.slice(0, 5)));
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
      t.diagnostic(`schema validation skipped: ${sarifSchemaPath} is not there`);
    }
  });

  test('a share link opens the same text and settings in a fresh browser', async () => {
    await page.fill('#select', 'ra2.app.007');
    await page.selectOption('#fail-on', 'warning');
    await page.waitForFunction(() => [...document.querySelectorAll('#findings button.finding')].every((b) => b.dataset.rule === 'ra2.app.007'));
    await settled(page);
    await page.click('#share');
    await page.waitForFunction(() => document.getElementById('share-url').value.includes('#s='));
    const url = await page.inputValue('#share-url');
    assert.match(url, /#s=[A-Za-z0-9_-]+$/);
    const before = await findings(page);

    const other = await launch();
    try {
      const fresh = await other.context.newPage();
      await fresh.goto(url);
      await fresh.waitForSelector('#findings button.finding');
      await settled(fresh);
      assert.equal(await editorText(fresh), HOST_PATH_POD);
      assert.equal(await fresh.inputValue('#edition'), 'latest');
      assert.equal(await fresh.inputValue('#fail-on'), 'warning');
      assert.equal(await fresh.inputValue('#select'), 'ra2.app.007');
      assert.deepEqual(await findings(fresh), before);
      assert.match(await fresh.textContent('#verdict'), /at or above warning/);
      // The link stays in the address bar until the text is edited.
      assert.match(await fresh.evaluate(() => location.hash), /^#s=/);
      await fresh.click('.cm-content');
      await fresh.keyboard.press('ControlOrMeta+End');
      await fresh.keyboard.type('# edited\n');
      await fresh.waitForFunction(() => location.hash === '');
    } finally {
      await other.close();
    }
  });

  test('bad YAML is reported clearly and never freezes the page', async () => {
    await page.fill('#select', '');
    const broken = `${HOST_PATH_POD}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x\ndata: [\n`;
    await paste(page, broken);
    const problems = await page.waitForSelector('#problems:not([hidden])');
    await settled(page);
    const text = await problems.textContent();
    assert.match(text, /could not be read/);
    assert.match(text, /line \d+, column \d+: invalid YAML/);
    assert.ok((await findings(page)).some((f) => f.rule === 'ra2.app.007'), 'the readable document is still checked');
    assert.match(await page.textContent('#verdict'), /could not be read/);
    await page.waitForSelector('.cm-lintRange-error');

    // The page answers while ra2 works on a large broken text in the worker.
    const big = `${'# filler line for a big document\n'.repeat(20_000)}${broken}`;
    await paste(page, big);
    const start = Date.now();
    const roundTrips = [];
    for (let i = 0; i < 5; i += 1) {
      const t0 = Date.now();
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())));
      roundTrips.push(Date.now() - t0);
    }
    await settled(page);
    console.log(`main thread while linting 20,000 lines: frames in ${roundTrips.join(', ')} ms; lint done after ${Date.now() - start} ms`);
    assert.ok(Math.max(...roundTrips) < 1000, `the page stalled: ${roundTrips}`);

    await paste(page, HOST_PATH_POD);
    await settled(page);
    assert.equal(await page.isHidden('#problems'), true, 'fixing the YAML clears the error');
  });

  test('a bad setting is shown next to the settings, not as a crash', async () => {
    await page.fill('#select', 'ra2.nope');
    await page.waitForSelector('#problems:not([hidden])');
    assert.match(await page.textContent('#problems'), /settings cannot be used[\s\S]*ra2\.nope/);
    assert.equal(await page.getAttribute('#select', 'aria-invalid'), 'true');
    await page.fill('#select', '');
    await page.waitForSelector('#findings button.finding');
    await settled(page);
    assert.equal(await page.isHidden('#problems'), true);
  });

  test('shows a 2,000-line manifest\'s findings quickly after typing stops', async () => {
    const example = readFileSync(join(repo, 'examples/broken/cnf.yaml'), 'utf8');
    let big = '';
    let copy = 0;
    while (big.split('\n').length < 2000) {
      big += example.replaceAll('name: upf', `name: upf-${copy}`);
      if (!big.endsWith('\n')) big += '\n';
      big += '---\n';
      copy += 1;
    }
    big = big.split('\n').slice(0, 2000).join('\n');
    await paste(page, big);
    await settled(page);
    assert.equal(await page.evaluate(() => window.__ra2.view.state.doc.lines), 2000);
    const hostPaths = (await findings(page)).filter((f) => f.rule === 'ra2.app.007');
    assert.equal(hostPaths.length, copy - 1, 'one hostPath finding in each whole copy');

    // Type at the end of a comment, several times; each time wait for the painted result.
    await page.evaluate(() => {
      const { view } = window.__ra2;
      view.dispatch({ selection: { anchor: view.state.doc.line(1).to } });
      view.focus();
    });
    const samples = [];
    for (let i = 0; i < 7; i += 1) {
      await page.keyboard.type('x');
      await settled(page);
      samples.push(
        await page.evaluate(() => {
          const m = window.__ra2;
          const last = m.lints.at(-1);
          return {
            lint: last.renderedAt - last.sentAt,
            worker: last.receivedAt - last.sentAt,
            wasm: last.wasmMs,
            afterTyping: last.renderedAt - m.lastInputAt,
          };
        }),
      );
    }
    const median = (key) => samples.map((s) => s[key]).sort((a, b) => a - b)[Math.floor(samples.length / 2)];
    console.log(
      `lint latency, 2,000 lines (median of ${samples.length}): ${median('lint').toFixed(1)} ms from the request to the painted findings ` +
        `(worker round trip ${median('worker').toFixed(1)} ms, of which ra2 in wasm ${median('wasm').toFixed(1)} ms); ${median('afterTyping').toFixed(1)} ms after the last keystroke, including the 40 ms debounce`,
    );
    assert.ok(median('lint') < 2000, `lint took ${median('lint')} ms`);
  });

  test('keeps working offline once loaded', async () => {
    const offlineServer = await serveDist();
    const other = await launch();
    try {
      const first = await other.context.newPage();
      await first.goto(offlineServer.url);
      await first.waitForSelector('#findings button.finding');
      await first.evaluate(async () => {
        await navigator.serviceWorker.ready;
        if (!navigator.serviceWorker.controller) {
          await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
        }
      });
      await offlineServer.close();
      await first.reload();
      await first.waitForSelector('.cm-content');
      await paste(first, HOST_PATH_POD);
      await first.waitForSelector('#findings button.finding[data-rule="ra2.app.007"]');
      assert.match(await first.textContent('#version'), /^ra2 /);
    } finally {
      await other.close();
      await offlineServer.close().catch(() => {});
    }
  });

  test('looks right: screenshots (light, dark, phone) without overflow on a phone', async () => {
    await page.selectOption('#edition', 'base');
    await page.selectOption('#fail-on', 'error');
    await page.fill('#select', '');
    await page.fill('#ignore', '');
    await page.selectOption('#example', 'upf-broken');
    await settled(page);
    if (await page.isVisible('#share-close')) await page.click('#share-close');
    await page.click('#findings button.finding[data-rule="ra2.app.007"]');
    await page.waitForSelector('[data-testid="rule-requirement"]');
    await page.locator('.cm-lintRange-warning', { hasText: /^hostPath$/ }).hover();
    await page.waitForSelector('.cm-tooltip-lint');
    const light = artifactPath('playground-light.png');
    await page.screenshot({ path: light });
    if (process.env.UPDATE_SCREENSHOT) copyFileSync(light, join(demo, 'screenshot.png'));

    for (const [name, options] of [
      ['playground-dark.png', { colorScheme: 'dark' }],
      ['playground-phone.png', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
    ]) {
      const other = await launch(options);
      try {
        const shot = await other.context.newPage();
        await shot.goto(server.url);
        await shot.waitForSelector('#findings button.finding');
        await settled(shot);
        if (options.viewport) {
          const overflow = await shot.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          assert.ok(overflow <= 0, `the page is ${overflow}px wider than the phone`);
          assert.ok(await shot.isVisible('.cm-content'));
          assert.ok(await shot.isVisible('#findings'));
        }
        await shot.screenshot({ path: artifactPath(name), fullPage: Boolean(options.viewport) });
      } finally {
        await other.close();
      }
    }
    assert.deepEqual(pageErrors, []);
  });
});
