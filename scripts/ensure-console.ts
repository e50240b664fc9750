/**
 * `npm start` runs this first: builds the console when console/dist is missing or older than its
 * sources, so a fresh clone needs no separate build step and an unchanged one starts at once.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.join(import.meta.dirname, '..');
const index = path.join(root, 'console/dist/index.html');
const sources = ['console/src', 'console/index.html', 'console/vite.config.ts', 'packages/shared/src'];

function newest(entry: string): number {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(full).map((name) => newest(path.join(entry, name))));
}

const built = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
if (built < Math.max(...sources.map(newest))) {
  process.stderr.write('herald: building the console (first start or sources changed)…\n');
  const result = spawnSync('npm', ['run', 'build', '-w', 'console'], { cwd: root, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
