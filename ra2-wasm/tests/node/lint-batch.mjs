// For the parity test (ra2-wasm/host-tests/tests/parity.rs): reads a JSON array of
// {text, options} from standard input, lints each with the node flavour of the built package,
// and prints the array of reports.
import { readFileSync } from 'node:fs';
import { flavours } from './load.mjs';

const { node } = await flavours();
const inputs = JSON.parse(readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(inputs.map(({ text, options }) => node.lint(text, options))));
