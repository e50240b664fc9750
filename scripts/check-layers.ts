/**
 * The import direction of the server and the console, checked on every `npm run lint`.
 *
 * Each tree is a stack of layers; a file may import its own layer and the layers below it, never
 * one above. The rule is this table and nothing else: a new folder gets a row (with the reason it
 * sits where it does) before it gets code. `npm run lint` prints every import that runs the wrong
 * way and fails.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface Layer {
  name: string;
  /** Path prefixes relative to the tree's root; a prefix ending in `/` is a folder. */
  paths: string[];
  why: string;
  /** What the layers named in `for` may import of this one: these files and no others. */
  narrow?: { for: string[]; files: string[] };
}

export interface Tree {
  name: string;
  root: string;
  /** Top first. */
  layers: Layer[];
  /** Layers whose folders must not import one another (siblings such as channels). */
  isolated?: string[];
}

export const SERVER: Tree = {
  name: 'server',
  root: 'server/src',
  layers: [
    {
      name: 'entry',
      paths: ['main.ts', 'herald.ts', 'worker-process.ts'],
      why: 'starts a process and the roles it was asked for; nothing imports it',
    },
    {
      name: 'adapters',
      paths: ['http/', 'smtp/', 'worker/', 'gateway/', 'cli.ts'],
      why: "translate one protocol (HTTP, SMTP, jobs and timers, the command line, CMPP and SMPP from customers' systems in gateway/) into core calls; gateway/ reuses the SMS channel's CMPP codec",
    },
    {
      name: 'compose',
      paths: ['compose.ts'],
      why: 'the composition root: builds the database, queue, services and channels once per process',
    },
    {
      name: 'core',
      paths: ['core/'],
      why: 'business rules and their SQL, one folder per entity; knows no protocol',
    },
    {
      name: 'channels',
      paths: ['mta/', 'sms/', 'channel/'],
      why: 'deliver messages over a protocol; ask the core for what they need only through the ports they declare',
      // The core sees of a channel only the ports it implements and the channel contract;
      // the composition root and the adapters build and run channels, so they see more.
      narrow: { for: ['core'], files: ['mta/ports.ts', 'sms/ports.ts', 'channel/'] },
    },
    {
      name: 'infrastructure',
      paths: ['queue/', 'db/', 'lib/', 'config.ts', 'delivery-settings.ts', 'logger.ts', 'metrics.ts'],
      why: 'neither business rule nor transport: storage, the queue, configuration, crypto, DNS, MIME',
    },
  ],
  isolated: ['mta/', 'sms/'],
};

export const CONSOLE: Tree = {
  name: 'console',
  root: 'console/src',
  layers: [
    {
      name: 'shell',
      paths: ['main.tsx', 'app/'],
      why: 'the application shell: router, layout, guard, session; builds the screens',
    },
    {
      name: 'screens',
      paths: ['pages/'],
      why: 'one screen per route, composed from components, stores and api modules',
    },
    {
      name: 'building blocks',
      paths: ['components/', 'stores/', 'api/', 'routes/'],
      why: 'shared components, client state, typed calls of the console API and the route table',
    },
    {
      name: 'infrastructure',
      paths: ['infra/', 'locales/', 'styles/', 'vite-env.d.ts'],
      why: 'the http client, storage, i18n and theme: knows no screen and no entity',
    },
  ],
};

export interface Import {
  from: string;
  to: string;
}

export interface Violation extends Import {
  reason: string;
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|new\s+URL\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Relative imports of one source text, resolved to paths relative to the tree's root. */
export function importsOf(file: string, source: string): Import[] {
  const found: Import[] = [];
  for (const match of source.matchAll(SPECIFIER)) {
    const to = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1] as string));
    found.push({ from: file, to });
  }
  return found;
}

function layerOf(tree: Tree, file: string): { index: number; layer: Layer; prefix: string } | null {
  for (const [index, layer] of tree.layers.entries()) {
    for (const prefix of layer.paths) {
      if (prefix.endsWith('/') ? file.startsWith(prefix) : file === prefix) return { index, layer, prefix };
    }
  }
  return null;
}

/** Every import that runs up the stack, crosses between isolated siblings or reaches a non-public file. */
export function violations(tree: Tree, imports: Import[]): Violation[] {
  const found: Violation[] = [];
  for (const edge of imports) {
    if (edge.to.startsWith('../')) continue; // outside the tree: packages are checked by their own build
    const from = layerOf(tree, edge.from);
    const to = layerOf(tree, edge.to);
    if (!from || !to) {
      const unknown = from ? edge.to : edge.from;
      found.push({ ...edge, reason: `${unknown} is in no layer of ${tree.name}: give its folder a row` });
      continue;
    }
    if (to.index < from.index) {
      found.push({ ...edge, reason: `${from.layer.name} may not import ${to.layer.name} (${to.layer.why})` });
    } else if (to.index > from.index && to.layer.narrow?.for.includes(from.layer.name)) {
      const { files } = to.layer.narrow;
      if (!files.some((p) => (p.endsWith('/') ? edge.to.startsWith(p) : edge.to === p)))
        found.push({
          ...edge,
          reason: `${from.layer.name} may import only ${files.join(', ')} of ${to.layer.name}`,
        });
    } else if (to.index === from.index && from.prefix !== to.prefix && tree.isolated?.includes(from.prefix)) {
      if (tree.isolated.includes(to.prefix))
        found.push({
          ...edge,
          reason: `${from.prefix} and ${to.prefix} are siblings and may not import each other`,
        });
    }
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(ts|tsx)$/.test(entry.name)) files.push(path.join(entry.parentPath, entry.name));
  }
  return files;
}

export function checkTree(repoRoot: string, tree: Tree): Violation[] {
  const root = path.join(repoRoot, tree.root);
  const imports = sourceFiles(root).flatMap((file) =>
    importsOf(path.relative(root, file).split(path.sep).join('/'), fs.readFileSync(file, 'utf8')),
  );
  return violations(tree, imports);
}

if (import.meta.main) {
  const repoRoot = path.join(import.meta.dirname, '..');
  let failed = 0;
  for (const tree of [SERVER, CONSOLE]) {
    for (const v of checkTree(repoRoot, tree)) {
      failed++;
      process.stderr.write(`${tree.root}/${v.from} → ${v.to}: ${v.reason}\n`);
    }
  }
  if (failed > 0) {
    process.stderr.write(
      `check-layers: ${failed} import(s) run the wrong way (rules in scripts/check-layers.ts)\n`,
    );
    process.exit(1);
  }
  process.stdout.write('check-layers: every import runs down its layers\n');
}
