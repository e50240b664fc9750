/**
 * Runs every bench/*.bench.ts (or those whose name contains an argument), each in its own
 * process so one cannot warm or starve another. Each benchmark prints one JSON line per figure
 * on stdout; this runner passes them through and adds nothing else to stdout.
 *
 *   npm run bench                      all benchmarks
 *   npm run bench -- queue-throughput  only matching ones
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
const filters = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => filters.length === 0 || filters.some((f) => name.includes(f)))
  .sort();

if (files.length === 0) {
  process.stderr.write(`no benchmark matches ${filters.join(', ')}\n`);
  process.exit(1);
}
let failed = false;
for (const file of files) {
  process.stderr.write(`bench: ${file}\n`);
  const result = spawnSync(process.execPath, [path.join(dir, file)], { stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    failed = true;
    process.stderr.write(`bench: ${file} exited with ${result.status}\n`);
  }
}
process.exit(failed ? 1 : 0);
