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

// What each screen costs on the wire: the JS of the entry and of the screen's chunk with their
// static imports, as the server sends it to a browser that takes brotli (the build's .br files).
const SCREEN_BUDGET_KB = 600;
const sentKb = (file: string) => {
  const full = path.join(dist, file);
  return (fs.existsSync(`${full}.br`) ? fs.statSync(`${full}.br`).size : fs.statSync(full).size) / 1024;
};
const screens = [...new Set(screenRoutes.map((route) => route.page))].map((page) => {
  const files = [...staticClosure([entry, pageKey(page)])]
    .map((key) => manifest[key]!.file)
    .filter((file) => file.endsWith('.js'));
  return { page, kb: files.reduce((sum, file) => sum + sentKb(file), 0), files };
});
const largest = screens.reduce((a, b) => (b.kb > a.kb ? b : a));
const over = screens.filter((screen) => screen.page !== login.page && screen.kb > SCREEN_BUDGET_KB);
const loginSent = screens.find((screen) => screen.page === login.page)?.kb ?? 0;
// The drag-and-drop editor (grapesjs) belongs to its own screen only.
const withEditor = screens
  .filter((screen) => screen.files.some((file) => /grapes/i.test(file)))
  .map((s) => s.page);
const editorLoadedBy = Object.entries(manifest)
  .filter(([, chunk]) =>
    (chunk.dynamicImports ?? []).some((key) => /grapes/i.test(manifest[key]?.file ?? key)),
  )
  .map(([key]) => key);

report({
  bench: 'console-bundle',
  figure: 'login_js_sent_br_kb',
  value: round(loginSent, 1),
  budget_kb: LOGIN_BUDGET_KB,
  within_budget: loginSent <= LOGIN_BUDGET_KB,
});
report({
  bench: 'console-bundle',
  figure: 'largest_screen_js_sent_br_kb',
  value: round(largest.kb, 1),
  screen: largest.page,
  screens: screens.length,
  over_budget: over.map((screen) => screen.page).join(' ') || 'none',
  budget_kb: SCREEN_BUDGET_KB,
  editor_screens: withEditor.join(' ') || 'none',
  editor_loaded_lazily_by: editorLoadedBy.join(' ') || 'none',
});
if (process.argv.includes('--per-screen')) {
  for (const screen of [...screens].sort((a, b) => b.kb - a.kb)) {
    process.stdout.write(`${screen.page.padEnd(48)} ${round(screen.kb, 1)} KB\n`);
  }
}

if (
  loginKb > LOGIN_BUDGET_KB ||
  loginSent > LOGIN_BUDGET_KB ||
  over.length > 0 ||
  withEditor.length > 1 ||
  ownChunk.length !== backendPages.length
)
  process.exitCode = 1;
