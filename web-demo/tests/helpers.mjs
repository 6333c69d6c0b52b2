// Shared by the tests: where the build and the wasm package are, a browser, a served build.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../serve.mjs';

export const here = dirname(fileURLToPath(import.meta.url));
export const demo = resolve(here, '..');
export const dist = join(demo, 'dist');
export const artifacts = join(here, 'artifacts');
export const repo = resolve(demo, '..');
export const wasmPkg = resolve(demo, process.env.RA2_WASM_PKG || '../ra2-wasm/pkg/web');
/** The official SARIF 2.1.0 schema, in shared/ beside the checkout (as the CLI's tests use it). */
export const sarifSchemaPath = resolve(repo, '..', 'shared', 'schemas', 'sarif-2.1.0.json');

/** The ra2 binary: $RA2_BIN (scripts/test sets it and it must exist), else the workspace's
 * debug build, else null. */
export function ra2Binary() {
  if (process.env.RA2_BIN) {
    if (!existsSync(process.env.RA2_BIN)) throw new Error(`RA2_BIN=${process.env.RA2_BIN} does not exist`);
    return process.env.RA2_BIN;
  }
  const built = join(repo, 'target', 'debug', 'ra2');
  return existsSync(built) ? built : null;
}

export function requireBuild() {
  if (!existsSync(join(dist, 'index.html'))) {
    throw new Error(`no build at ${dist}: run \`npm run build\` in web-demo first (scripts/test-web does)`);
  }
}

export function artifactPath(name) {
  mkdirSync(artifacts, { recursive: true });
  return join(artifacts, name);
}

/** The flags the machine notes give for Chromium as root in a closed network. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

/**
 * A fresh headless Chromium (Debian's, through playwright-core) with its own empty profile.
 * Returns {context, close()}; `options` go to the browser context (viewport, colorScheme...).
 */
export async function launch(options = {}) {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'ra2-playground-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1360, height: 860 },
    acceptDownloads: true,
    ...options,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function serveDist() {
  requireBuild();
  return serve(dist);
}
