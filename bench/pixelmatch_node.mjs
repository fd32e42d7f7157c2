// Times pixelmatch 7.2.0 on two PNG files decoded once: only the pixelmatch call is timed.
// usage: node pixelmatch_node.mjs PEERS_DIR A.png B.png REPEAT WITH_OUTPUT(0|1) [OPTIONS_JSON]
// prints {"mismatch": n, "times_ms": [...]} on stdout.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const [peers, fileA, fileB, repeatText, withOutputText, optionsText] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(peers), 'package.json'));
const { PNG } = require('pngjs');
const pixelmatch = (await import(pathToFileURL(require.resolve('pixelmatch')).href)).default;

const a = PNG.sync.read(fs.readFileSync(fileA));
const b = PNG.sync.read(fs.readFileSync(fileB));
const options = optionsText ? JSON.parse(optionsText) : {};
const repeat = Number(repeatText);
const output = withOutputText === '1' ? new Uint8Array(a.data.length) : undefined;

let mismatch = 0;
for (let i = 0; i < 3; i++) mismatch = pixelmatch(a.data, b.data, output, a.width, a.height, options);
const times = [];
for (let i = 0; i < repeat; i++) {
    const start = process.hrtime.bigint();
    mismatch = pixelmatch(a.data, b.data, output, a.width, a.height, options);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
}
process.stdout.write(JSON.stringify({ mismatch, times_ms: times }) + '\n');
