/**
 * List imports: one CSV of BENCH_LIST_ROWS (default 1,000,000) lines of key and name, a share of
 * them keys seen earlier in the file, imported into an empty list as Herald does it: the upload
 * streamed to disk, then the import job (reading thread, batched writes under the import's id,
 * the commit). Run for both kinds of list, which share the machinery: an SMS contact list (mobile
 * numbers; issue 17) and an email address list (addresses, lower-cased; issue 21). Both issues
 * ask for at most 10 s on this machine. Also printed: the event loop's worst delay meanwhile,
 * which is what the accept paths would wait at most.
 *
 *   npm run bench -- list-imports     BENCH_LIST_ROWS, BENCH_LIST_DUPLICATES (share, default 0.02),
 *                                     BENCH_LIST_KINDS (default sms-contacts,address-lists); the
 *                                     PostgreSQL rows when BENCH_DATABASE_URL is set
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { AddressListImportsService } from '../server/src/core/address-lists/address-list-imports.service.ts';
import { AddressListsService } from '../server/src/core/address-lists/address-lists.service.ts';
import type {
  ListImportsDeps,
  ListImportsService,
} from '../server/src/core/list-imports/list-imports.service.ts';
import { SmsContactImportsService } from '../server/src/core/sms-contacts/sms-contact-imports.service.ts';
import { SmsContactsService } from '../server/src/core/sms-contacts/sms-contacts.service.ts';
import { type Database, openDatabase } from '../server/src/db/database.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { createLogger } from '../server/src/logger.ts';
import { DatabaseQueue } from '../server/src/queue/database/database-queue.ts';
import { createAccount } from '../server/test/fixtures/factory.ts';
import { report, round } from './report.ts';

const ROWS = Number(process.env.BENCH_LIST_ROWS ?? 1_000_000);
const DUPLICATES = Number(process.env.BENCH_LIST_DUPLICATES ?? 0.02);
const KINDS = (process.env.BENCH_LIST_KINDS ?? 'sms-contacts,address-lists').split(',');

type Caller = { accountId: number };

/** One kind of list: its file's lines, its list's creation and count, its import service. */
interface Kind {
  bench: string;
  header: string;
  /** The n-th distinct key; a multiplier coprime with 10^8 scatters consecutive n. */
  key: (n: number) => string;
  open: (deps: ListImportsDeps) => {
    imports: ListImportsService;
    createList: (caller: Caller) => Promise<{ id: number }>;
    memberCount: (caller: Caller, listId: number) => Promise<number>;
  };
}

const scatter = (n: number) => String((n * 7_919_213) % 100_000_000).padStart(8, '0');

const LIST_KINDS: Record<string, Kind> = {
  'sms-contacts': {
    bench: 'sms-contacts-import',
    header: 'phone,name',
    key: (n) => `13${scatter(n)}9`,
    open: (deps) => {
      const lists = new SmsContactsService(deps);
      return {
        imports: new SmsContactImportsService(deps),
        createList: (caller) => lists.createList(caller, { name: 'bench', description: '' }),
        memberCount: async (caller, id) => (await lists.getList(caller, id)).memberCount,
      };
    },
  },
  'address-lists': {
    bench: 'address-list-import',
    header: 'email,name',
    key: (n) => `user${scatter(n)}@mail${n % 97}.example.com`,
    open: (deps) => {
      const lists = new AddressListsService({ ...deps, domain: 'maillist.bench.example' });
      return {
        imports: new AddressListImportsService(deps),
        createList: (caller) => lists.createList(caller, { name: 'bench', description: '', prefix: 'bench' }),
        memberCount: async (caller, id) => (await lists.getList(caller, id)).memberCount,
      };
    },
  },
};

/** The CSV: distinct keys in a scattered order, every so often one repeated. */
function writeCsv(kind: Kind, file: string): { unique: number } {
  const out = fs.openSync(file, 'w');
  const every = DUPLICATES > 0 ? Math.round(1 / DUPLICATES) : 0;
  let unique = 0;
  let chunk = `${kind.header}\n`;
  for (let i = 0; i < ROWS; i++) {
    const repeat = every > 0 && i > 0 && i % every === 0;
    const n = repeat ? i - 1 : i;
    if (!repeat) unique++;
    chunk += `${kind.key(n)},用户${n}\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(out, chunk);
      chunk = '';
    }
  }
  fs.writeSync(out, chunk);
  fs.closeSync(out);
  return { unique };
}

async function measure(kind: Kind, backend: string, database: Database, dir: string): Promise<void> {
  await migrateToLatest(database);
  const accountId = await createAccount(database, {
    username: `lists${process.pid}${Date.now()}`,
    plan: 'paid',
  });
  const queue = new DatabaseQueue(database);
  const { imports, createList, memberCount } = kind.open({
    database,
    queue,
    dataDir: dir,
    logger: createLogger({ level: 'warn', roles: new Set() }),
  });
  const file = path.join(dir, `${kind.bench}.csv`);
  const { unique } = writeCsv(kind, file);
  const size = fs.statSync(file).size;
  const caller = { accountId };
  const list = await createList(caller);

  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  const { id } = await imports.start(caller, {
    listId: list.id,
    fileName: path.basename(file),
    content: fs.createReadStream(file),
    lang: 'en',
  });
  const uploaded = performance.now();
  await imports.run(id, new AbortController().signal);
  const seconds = (performance.now() - started) / 1000;
  delay.disable();

  const result = await imports.progress(caller, { importId: id }, 'en');
  const members = await memberCount(caller, list.id);
  if (result?.status !== 'done' || members !== unique) {
    throw new Error(
      `${kind.bench} ended ${result?.status} (${result?.errorCode}) with ${members} members, ${unique} expected`,
    );
  }
  report({
    bench: kind.bench,
    backend,
    rows: ROWS,
    file_mb: round(size / 2 ** 20),
    added: result.added,
    duplicates: result.duplicates,
    seconds: round(seconds, 2),
    upload_seconds: round((uploaded - started) / 1000, 2),
    rows_per_second: Math.round(ROWS / seconds),
    target_seconds: 10,
    event_loop_max_ms: round(delay.max / 1e6),
    event_loop_p99_ms: round(delay.percentile(99) / 1e6),
  });
  await queue.close();
  await database.close();
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-'));
try {
  for (const name of KINDS) {
    const kind = LIST_KINDS[name];
    if (!kind) throw new Error(`BENCH_LIST_KINDS: no kind ${name} (${Object.keys(LIST_KINDS).join(', ')})`);
    await measure(kind, 'sqlite', openDatabase({ kind: 'sqlite', file: path.join(dir, `${name}.db`) }), dir);
    if (process.env.BENCH_DATABASE_URL) {
      await measure(
        kind,
        'postgres',
        openDatabase({ kind: 'postgres', url: process.env.BENCH_DATABASE_URL }),
        dir,
      );
    }
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
