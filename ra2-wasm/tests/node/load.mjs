// Loads the built npm package (scripts/build-wasm) in both flavours: `node` (CommonJS, loads
// its .wasm synchronously) and `web` (the ES module browsers and bundlers use, initialised from
// the .wasm bytes as a page would from fetch).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
export const pkg = process.env.RA2_WEB_PKG || join(root, 'ra2-wasm/pkg');

function need(path) {
  try {
    readFileSync(path);
  } catch (e) {
    throw new Error(`${path}: ${e.code}; build the wasm artefacts first with scripts/build-wasm`);
  }
  return path;
}

export async function flavours() {
  const node = createRequire(import.meta.url)(need(join(pkg, 'node/ra2_wasm.js')));
  const web = await import(pathToFileURL(need(join(pkg, 'web/ra2_wasm.js'))).href);
  web.initSync({ module: readFileSync(join(pkg, 'web/ra2_wasm_bg.wasm')) });
  return { node, web };
}
