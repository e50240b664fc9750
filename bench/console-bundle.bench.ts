/**
 * The console's bundle budget, read from the Vite manifest of console/dist (run
 * `npm run build -w console` first):
 *  - the gzipped JS a browser needs for /login: the entry, every chunk it imports statically,
 *    the login screen's lazy chunk and that chunk's static imports (budget: 250 KB);
 *  - how many backend screens sit in a chunk of their own (no other screen's code in it).
 * The route table is read as data, so the figures follow the table as screens are built.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { screenRoutes } from '../console/src/routes/routes.ts';
import { report, round } from './report.ts';

const LOGIN_BUDGET_KB = 250;
const dist = path.join(import.meta.dirname, '..', 'console', 'dist');
const manifestFile = path.join(dist, '.vite', 'manifest.json');

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

if (!fs.existsSync(manifestFile)) {
  process.stderr.write(`no ${manifestFile}: run \`npm run build -w console\` first\n`);
  process.exit(1);
}
const manifest: Record<string, ManifestChunk> = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));

function staticClosure(keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no ${key}`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return seen;
}

const gzipKb = (file: string) => gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length / 1024;
const pageKey = (page: string) => `src/pages/${page}.tsx`;

const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry)?.[0];
const login = screenRoutes.find((route) => route.path === '/login');
if (!entry || !login) throw new Error('the manifest has no entry or the route table no /login');

const loginChunks = staticClosure([entry, pageKey(login.page)]);
const loginFiles = [...loginChunks].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'));
const loginKb = loginFiles.reduce((sum, file) => sum + gzipKb(file), 0);
const loginCss = [...new Set([...loginChunks].flatMap((key) => manifest[key]!.css ?? []))];
const loginCssKb = loginCss.reduce((sum, file) => sum + gzipKb(file), 0);

report({
  bench: 'console-bundle',
  figure: 'login_js_gzip_kb',
  value: round(loginKb, 1),
  chunks: loginFiles.length,
  css_gzip_kb: round(loginCssKb, 1),
  budget_kb: LOGIN_BUDGET_KB,
  within_budget: loginKb <= LOGIN_BUDGET_KB,
});

// Backend screens: one page module may serve several routes (the two dashboards share a view).
const backendPages = [
  ...new Set(screenRoutes.filter((route) => route.frame === 'backend').map((route) => route.page)),
];
const fileOwners = new Map<string, string[]>();
for (const chunk of Object.entries(manifest)) {
  const [key, { file }] = chunk;
  if (!key.startsWith('src/pages/')) continue;
  fileOwners.set(file, [...(fileOwners.get(file) ?? []), key]);
}
const entryFiles = new Set([...staticClosure([entry])].map((key) => manifest[key]!.file));
const ownChunk = backendPages.filter((page) => {
  const chunk = manifest[pageKey(page)];
  return chunk !== undefined && !entryFiles.has(chunk.file) && fileOwners.get(chunk.file)?.length === 1;
});

report({
  bench: 'console-bundle',
  figure: 'backend_screens_own_chunk',
  value: ownChunk.length,
  backend_screens: backendPages.length,
  backend_routes: screenRoutes.filter((route) => route.frame === 'backend').length,
  all_own_chunk: ownChunk.length === backendPages.length,
});

if (loginKb > LOGIN_BUDGET_KB || ownChunk.length !== backendPages.length) process.exitCode = 1;
