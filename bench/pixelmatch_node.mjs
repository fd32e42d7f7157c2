// Times pixelmatch 7.2.0 on PNG pairs decoded once (pngjs): only the pixelmatch call is timed.
// usage: node pixelmatch_node.mjs PEERS_DIR JOBS.json
// JOBS.json: [{"a": path, "b": path, "options": {...}, "repeat": n, "output": bool}, ...]
// prints [{"mismatch": n, "times_ms": [...]}, ...] on stdout, one entry per job.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const [peers, jobsFile] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(peers), 'package.json'));
const { PNG } = require('pngjs');
const pixelmatch = (await import(pathToFileURL(require.resolve('pixelmatch')).href)).default;

const decoded = new Map();
function load(file) {
    if (!decoded.has(file)) decoded.set(file, PNG.sync.read(fs.readFileSync(file)));
    return decoded.get(file);
}

const results = [];
for (const job of JSON.parse(fs.readFileSync(jobsFile, 'utf8'))) {
    const a = load(job.a);
    const b = load(job.b);
    const output = job.output ? new Uint8Array(a.data.length) : undefined;
    let mismatch = 0;
    for (let i = 0; i < 2; i++) mismatch = pixelmatch(a.data, b.data, output, a.width, a.height, job.options);
    const times = [];
    for (let i = 0; i < job.repeat; i++) {
        const start = process.hrtime.bigint();
        mismatch = pixelmatch(a.data, b.data, output, a.width, a.height, job.options);
        times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    results.push({ mismatch, times_ms: times });
}
process.stdout.write(JSON.stringify(results) + '\n');
