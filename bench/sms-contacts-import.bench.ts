/**
 * Contact-list import: one CSV of BENCH_CONTACT_ROWS (default 1,000,000) lines of phone and name,
 * a share of them numbers seen earlier in the file, imported into an empty list as Herald does it:
 * the upload streamed to disk, then the import job (reading thread, batched writes under the
 * import's id, the commit). Issue 17 asks for at most 10 s on this machine. Also printed: the
 * event loop's worst delay meanwhile, which is what the SMS accept path would wait at most.
 *
 *   npm run bench -- sms-contacts-import     BENCH_CONTACT_ROWS, BENCH_CONTACT_DUPLICATES (share,
 *                                            default 0.02); the PostgreSQL row when
 *                                            BENCH_DATABASE_URL is set
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { SmsContactImportsService } from '../server/src/core/sms-contacts/sms-contact-imports.service.ts';
import { SmsContactsService } from '../server/src/core/sms-contacts/sms-contacts.service.ts';
import { type Database, openDatabase } from '../server/src/db/database.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { createLogger } from '../server/src/logger.ts';
import { DatabaseQueue } from '../server/src/queue/database/database-queue.ts';
import { createAccount } from '../server/test/fixtures/factory.ts';
import { report, round } from './report.ts';

const ROWS = Number(process.env.BENCH_CONTACT_ROWS ?? 1_000_000);
const DUPLICATES = Number(process.env.BENCH_CONTACT_DUPLICATES ?? 0.02);

/** The CSV: distinct mainland mobiles in a scattered order, every so often one repeated. */
function writeCsv(file: string): { unique: number } {
  const out = fs.openSync(file, 'w');
  const every = DUPLICATES > 0 ? Math.round(1 / DUPLICATES) : 0;
  let unique = 0;
  let chunk = 'phone,name\n';
  for (let i = 0; i < ROWS; i++) {
    const repeat = every > 0 && i > 0 && i % every === 0;
    const n = repeat ? i - 1 : i;
    if (!repeat) unique++;
    // A multiplier coprime with 10^8 scatters consecutive i over the number space.
    const national = `13${String((n * 7_919_213) % 100_000_000).padStart(8, '0')}9`;
    chunk += `${national},用户${n}\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(out, chunk);
      chunk = '';
    }
  }
  fs.writeSync(out, chunk);
  fs.closeSync(out);
  return { unique };
}

async function measure(backend: string, database: Database, dir: string): Promise<void> {
  await migrateToLatest(database);
  const accountId = await createAccount(database, { username: `contacts${process.pid}${Date.now()}` });
  const queue = new DatabaseQueue(database);
  const contacts = new SmsContactsService({ database, queue });
  const imports = new SmsContactImportsService({
    database,
    queue,
    dataDir: dir,
    logger: createLogger({ level: 'warn', roles: new Set() }),
  });
  const file = path.join(dir, 'contacts.csv');
  const { unique } = writeCsv(file);
  const size = fs.statSync(file).size;
  const caller = { accountId };
  const list = await contacts.createList(caller, { name: 'bench', description: '' });

  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  const { id } = await imports.start(caller, {
    listId: list.id,
    fileName: 'contacts.csv',
    content: fs.createReadStream(file),
    lang: 'en',
  });
  const uploaded = performance.now();
  await imports.run(id, new AbortController().signal);
  const seconds = (performance.now() - started) / 1000;
  delay.disable();

  const result = await imports.progress(caller, { importId: id }, 'en');
  const after = await contacts.getList(caller, list.id);
  if (result?.status !== 'done' || after.memberCount !== unique) {
    throw new Error(
      `import ended ${result?.status} (${result?.errorCode}) with ${after.memberCount} members, ${unique} expected`,
    );
  }
  report({
    bench: 'sms-contacts-import',
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
  await measure('sqlite', openDatabase({ kind: 'sqlite', file: path.join(dir, 'bench.db') }), dir);
  if (process.env.BENCH_DATABASE_URL) {
    await measure('postgres', openDatabase({ kind: 'postgres', url: process.env.BENCH_DATABASE_URL }), dir);
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
