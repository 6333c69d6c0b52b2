// A tiny static file server for the built playground (dist/), on 127.0.0.1 only. Used by the
// browser tests and by scripts/web-demo; `node serve.mjs [dir] [port]` serves until stopped.
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.yaml': 'text/yaml; charset=utf-8',
};

/** Serves `dir` on 127.0.0.1; resolves to {url, requests, close()} once listening. */
export function serve(dir, port = 0) {
  const root = resolve(dir);
  const requests = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    requests.push(path);
    let file = normalize(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      const { size } = statSync(file);
      const hashed = path.startsWith('/assets/');
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-length': size,
        // Built assets carry a content hash in their names; the page and sw.js do not.
        'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
        'x-content-type-options': 'nosniff',
      });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address();
      done({
        url: `http://127.0.0.1:${actual}/`,
        requests,
        close: () =>
          new Promise((closed) => {
            server.closeAllConnections?.();
            server.close(() => closed());
          }),
      });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const dir = process.argv[2] ?? join(here, 'dist');
  const port = Number(process.argv[3] ?? process.env.PORT ?? 5178);
  const { url } = await serve(dir, port);
  console.log(`ra2 playground: ${url}  (Ctrl-C stops it)`);
}
