// Size budget of the built playground: everything in dist/ is fetched on the first visit (the
// page, then the service worker caches the rest), so the sum of the gzip sizes of all its
// files is the first load's transfer. Budget: 1 MB.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { dist, requireBuild } from './helpers.mjs';

const BUDGET = 1_000_000;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

test('the first load is at most 1 MB gzipped', () => {
  requireBuild();
  const sizes = files(dist).map((path) => {
    const bytes = readFileSync(path);
    return { name: relative(dist, path), raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  const total = sizes.reduce((sum, s) => sum + s.gzip, 0);
  for (const s of sizes.sort((a, b) => b.gzip - a.gzip)) {
    console.log(`${s.name.padEnd(40)} ${String(s.raw).padStart(9)} bytes, ${String(s.gzip).padStart(8)} gzipped`);
  }
  console.log(`total first-load transfer: ${total} bytes gzipped (budget ${BUDGET})`);
  assert.ok(total <= BUDGET, `the build is ${total} bytes gzipped, over the ${BUDGET}-byte budget`);
  assert.ok(sizes.some((s) => s.name.endsWith('.wasm')), 'the build includes the ra2 WebAssembly module');
  assert.ok(sizes.some((s) => s.name === 'sw.js'), 'the build includes the offline service worker');
});

test('the build loads nothing from other origins', () => {
  requireBuild();
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  const remote = sources.filter((s) => /^(https?:)?\/\//.test(s) && !s.startsWith('https://github.com/ra2-lint/'));
  assert.deepEqual(remote, [], 'index.html refers to remote scripts, styles or images');
  for (const s of sources.filter((s) => s.startsWith('./'))) {
    statSync(join(dist, s)); // exists
  }
});
