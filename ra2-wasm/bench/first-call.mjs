// First calls of the Node package (scripts/bench-wasm runs it): in fresh Node processes, how
// long loading the package takes, then the first and the second `lint` of a small manifest
// (examples/broken/cnf.yaml). Medians over a few processes.
//
//   node ra2-wasm/bench/first-call.mjs [RUNS] [-- NODE_FLAGS...]
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { root, pkg } from '../tests/node/load.mjs';

const args = process.argv.slice(2);
const split = args.indexOf('--');
const runs = Number((split < 0 ? args : args.slice(0, split))[0] || 7);
const flags = split < 0 ? [] : args.slice(split + 1);

const child = `
const t0 = process.hrtime.bigint();
const ra2 = require(${JSON.stringify(join(pkg, 'node/ra2_wasm.js'))});
const t1 = process.hrtime.bigint();
const text = require('fs').readFileSync(${JSON.stringify(join(root, 'examples/broken/cnf.yaml'))}, 'utf8');
const t2 = process.hrtime.bigint();
ra2.lint(text);
const t3 = process.hrtime.bigint();
ra2.lint(text);
const t4 = process.hrtime.bigint();
console.log(JSON.stringify([t1 - t0, t3 - t2, t4 - t3].map((n) => Number(n) / 1e6)));
`;

const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const rows = [];
for (let i = 0; i < runs; i++) {
  rows.push(JSON.parse(execFileSync(process.execPath, [...flags, '-e', child], { encoding: 'utf8' })));
}
const [load, first, second] = [0, 1, 2].map((k) => median(rows.map((r) => r[k])));
console.log(`node ${flags.join(' ') || '(default flags)'}: load ${load.toFixed(1)} ms, first lint ${first.toFixed(1)} ms, second lint ${second.toFixed(2)} ms (median of ${runs} processes)`);
