// Benchmark of the built web package in Node (scripts/bench-wasm runs it): `lint` time for the
// largest file of the shared corpus and for a generated bundle, node and web flavours.
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { flavours, root } from '../tests/node/load.mjs';

const faces = await flavours();

function inputs() {
  const out = [];
  const corpus = join(root, '../shared/corpus');
  if (existsSync(corpus)) {
    const [size, path] = execFileSync('find', [corpus, '-type', 'f', '(', '-name', '*.yaml', '-o', '-name', '*.yml', '-o', '-name', '*.json', ')', '-printf', '%s %p\\n'], { encoding: 'utf8' })
      .trim().split('\n').map((l) => [Number(l.split(' ')[0]), l.slice(l.indexOf(' ') + 1)]).sort((a, b) => b[0] - a[0])[0];
    out.push([`largest corpus file (${path.slice(corpus.length + 1)})`, readFileSync(path, 'utf8')]);
  }
  const broken = readFileSync(join(root, 'examples/broken/cnf.yaml'), 'utf8');
  out.push(['examples/broken/cnf.yaml x 200', Array.from({ length: 200 }, () => `---\n${broken}`).join('\n')]);
  return out;
}

const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
for (const [name, text] of inputs()) {
  for (const [flavour, ra2] of Object.entries(faces)) {
    ra2.lint(text); // warm-up
    const times = [];
    let report;
    for (let i = 0; i < 15; i++) {
      const t = process.hrtime.bigint();
      report = ra2.lint(text);
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const mb = Buffer.byteLength(text) / 1e6;
    console.log(`${flavour.padEnd(4)} lint ${name}: ${mb.toFixed(2)} MB, ${report.summary.documents} documents, ${report.findings.length} findings: median ${median(times).toFixed(1)} ms (${(mb / median(times) * 1000).toFixed(1)} MB/s), min ${Math.min(...times).toFixed(1)} ms`);
  }
}
