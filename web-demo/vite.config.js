// The playground is a static site: `npm run build` writes dist/, which any static server can
// serve. The ra2 WebAssembly package comes from ../ra2-wasm/pkg/web, built by scripts/build-wasm
// (RA2_WASM_PKG points elsewhere, e.g. at a copy while developing).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
const wasmPkg = resolve(here, process.env.RA2_WASM_PKG || '../ra2-wasm/pkg/web');

function requireWasmPkg() {
  return {
    name: 'ra2-wasm-package',
    buildStart() {
      if (!existsSync(join(wasmPkg, 'ra2_wasm.js')) || !existsSync(join(wasmPkg, 'ra2_wasm_bg.wasm'))) {
        this.error(`the ra2 WebAssembly package is not at ${wasmPkg}: build it with scripts/build-wasm`);
      }
    },
  };
}

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

// Writes dist/sw.js, a service worker that caches every file of the build on first load, so
// the playground works offline afterwards. Its cache name is a digest of the files, so a new
// build replaces the old cache.
function offlineServiceWorker() {
  let outDir;
  return {
    name: 'ra2-offline-service-worker',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const files = filesUnder(outDir)
        .map((path) => relative(outDir, path).split(sep).join('/'))
        .filter((name) => name !== 'sw.js')
        .sort();
      const digest = createHash('sha256');
      for (const name of files) digest.update(name).update('\0').update(readFileSync(join(outDir, name)));
      const version = digest.digest('hex').slice(0, 16);
      const template = readFileSync(join(here, 'src', 'sw-template.js'), 'utf8');
      const urls = ['./', ...files.filter((name) => name !== 'index.html')];
      writeFileSync(
        join(outDir, 'sw.js'),
        template.replace('__CACHE__', `ra2-playground-${version}`).replace('__FILES__', JSON.stringify(urls)),
      );
    },
  };
}

export default defineConfig({
  base: './',
  plugins: [requireWasmPkg(), offlineServiceWorker()],
  resolve: {
    alias: [{ find: /^ra2-wasm\/(.*)$/, replacement: `${wasmPkg}/$1` }],
  },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    assetsInlineLimit: 0,
    reportCompressedSize: true,
  },
  server: { fs: { allow: [here, wasmPkg, resolve(here, '../examples')] } },
});
