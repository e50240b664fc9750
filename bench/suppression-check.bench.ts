/**
 * Suppression check: how many recipients a second the delivery engine's suppression check clears,
 * against an account with 5,000 listed addresses (a third each as spam reports, format-error
 * bounces and non-existent addresses, which also land on the global invalid list; one in ten also
 * unsubscribed), with one recipient in ten on some list.
 *
 * Two shapes, both as the engine uses them:
 * - check(): one recipient at a time, 8 lanes side by side (the fallback when a batch check fails);
 * - checkMany(): one call per claimed batch of 50 recipients (the engine's normal path).
 *
 *   npm run bench -- suppression-check        BENCH_CHECKS (default 20000); the PostgreSQL row
 *                                             when BENCH_DATABASE_URL is set
 */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SuppressionService } from '../server/src/core/suppression/suppression.service.ts';
import { type Database, openDatabase } from '../server/src/db/database.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { createAccount } from '../server/test/fixtures/factory.ts';
import { report, round } from './report.ts';

const CHECKS = Number(process.env.BENCH_CHECKS ?? 20_000);
const LISTED = 5000;
const LANES = 8;
const BATCH = 50;
const HOUR = 3_600_000;

async function measure(backend: string, database: Database): Promise<void> {
  await migrateToLatest(database);
  const now = Date.now();
  const tag = `${process.pid}${now}`;
  const accountId = await createAccount(database, { username: `suppress${tag}` });
  const check = new SuppressionService(database);
  const categories = ['spam', 'format_error', 'not_exist'] as const;
  for (let i = 0; i < LISTED; i++) {
    const category = categories[i % categories.length] as (typeof categories)[number];
    await check.recordFailure(accountId, `listed${i}@${tag}.example`, {
      category,
      kind: 'invalid',
      detail: '550 5.1.1 user unknown',
      at: now - HOUR,
    });
  }
  for (let i = 0; i < LISTED; i += 10)
    await check.recordUnsubscribe({ accountId }, `listed${i}@${tag}.example`, {});
  // One recipient in ten is on a list; the rest are not.
  const recipient = (i: number) =>
    i % 10 === 0 ? `listed${(i * 7) % LISTED}@${tag}.example` : `clean${i}@${tag}.example`;
  const context = { apiUserId: 1, labelId: null, emailType: 'batch' as const };

  let suppressed = 0;
  const one = performance.now();
  await Promise.all(
    Array.from({ length: LANES }, async (_, lane) => {
      for (let i = lane; i < CHECKS; i += LANES)
        if (await check.check(accountId, recipient(i), context)) suppressed++;
    }),
  );
  const oneSeconds = (performance.now() - one) / 1000;

  const many = performance.now();
  for (let start = 0; start < CHECKS; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, CHECKS - start) }, (_, i) => ({
      recipient: recipient(start + i),
      context,
    }));
    await check.checkMany(accountId, batch);
  }
  const manySeconds = (performance.now() - many) / 1000;

  report({
    bench: 'suppression-check',
    backend,
    checks: CHECKS,
    listed_addresses: LISTED,
    suppressed_share: round(suppressed / CHECKS, 2),
    check_per_second: Math.round(CHECKS / oneSeconds),
    check_many_per_second: Math.round(CHECKS / manySeconds),
    batch: BATCH,
    lanes: LANES,
  });
  await database.close();
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-'));
try {
  await measure('sqlite', openDatabase({ kind: 'sqlite', file: path.join(dir, 'bench.db') }));
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
if (process.env.BENCH_DATABASE_URL) {
  await measure('postgres', openDatabase({ kind: 'postgres', url: process.env.BENCH_DATABASE_URL }));
}
