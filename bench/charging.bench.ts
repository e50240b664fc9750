/**
 * Charging by result: how many recorded outcomes the charging consumers turn into ledger charges
 * per second (core.ledger.chargeMail / chargeSms in batches of 5,000, each batch one transaction
 * with its cursor, the same calls the worker's charging loop makes), beside the delivery rate
 * BENCHMARKS.md records for mta-throughput: charging must keep up with the fastest delivery.
 *
 * BENCH_CHARGING_EVENTS mail events (default 300,000: delivered, soft bounces, invalid, and the
 * opens and requests a real log holds between them) and a tenth as many SMS receipts, over
 * BENCH_CHARGING_ACCOUNTS paid accounts (default 200), across two days, are written straight into
 * the logs as the delivery paths would have left them; then the consumers drain them.
 * On SQLite always, and on PostgreSQL when BENCH_DATABASE_URL is set (a fresh database is made
 * on that server and dropped afterwards).
 *
 *   npm run bench -- charging
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LedgerService } from '../server/src/core/ledger/ledger.service.ts';
import { type Database, openDatabase } from '../server/src/db/database.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { createAccount } from '../server/test/fixtures/factory.ts';
import { freshPostgres } from './herald-fixtures.ts';
import { report, round } from './report.ts';

const EVENTS = Number(process.env.BENCH_CHARGING_EVENTS ?? 300_000);
const ACCOUNTS = Number(process.env.BENCH_CHARGING_ACCOUNTS ?? 200);
const BATCH = 5000;
/** The SQLite delivery rate of the latest mta-throughput table in BENCHMARKS.md (msg/s). */
const MTA_THROUGHPUT_RECORDED = 2665;

const KINDS: [string, number | null][] = [
  ['request', null],
  ['deliver', null],
  ['deliver', null],
  ['open', null],
  ['soft_bounce', 503],
  ['invalid', 406],
  ['invalid', 401],
  ['deliver', null],
];

async function fill(database: Database): Promise<{ accounts: number[]; mail: number; sms: number }> {
  const accounts: number[] = [];
  const ledger = new LedgerService(database);
  for (let i = 0; i < ACCOUNTS; i++) {
    const accountId = await createAccount(database, { plan: 'paid' });
    await ledger.adjust(null, accountId, { amountFen: 1_000_000, reason: 'bench credit' });
    accounts.push(accountId);
  }
  const start = Date.now() - 86_400_000;
  const chunk = 1000;
  for (let i = 0; i < EVENTS; i += chunk) {
    const rows = Array.from({ length: Math.min(chunk, EVENTS - i) }, (_, k) => {
      const n = i + k;
      const [kind, subStatus] = KINDS[n % KINDS.length] as [string, number | null];
      return {
        account_id: accounts[n % ACCOUNTS] as number,
        kind: kind as 'deliver',
        at: start + Math.floor((n / EVENTS) * 2 * 86_400_000) - 3_600_000,
        message_id: n,
        recipient_id: n,
        email_id: `e${n}`,
        recipient: `r${n}@example.org`,
        recipient_domain: 'example.org',
        api_user_id: null,
        label_id: null,
        sub_status: subStatus,
        reason: null,
        latency_ms: null,
        data: null,
      };
    });
    await database.db.insertInto('mail_events').values(rows).execute();
  }
  const smsCount = Math.floor(EVENTS / 10);
  const now = Date.now();
  for (let i = 0; i < smsCount; i += chunk) {
    const messages = Array.from({ length: Math.min(chunk, smsCount - i) }, (_, k) => ({
      sms_id: `bench-${i + k}`,
      account_id: accounts[(i + k) % ACCOUNTS] as number,
      sms_user_id: null,
      template_id: null,
      label_id: null,
      msg_type: 0,
      phone: '+8613800138000',
      country: 'CN',
      price_class: 'domestic',
      parts: 1 + ((i + k) % 3),
      content: 'x',
      tag: null,
      source: 'api',
      status: 'delivered' as const,
      status_code: 200,
      reason: null,
      carrier_id: null,
      due_at: now,
      lease_owner: null,
      lease_until: null,
      requested_at: now,
      submitted_at: now,
      done_at: now,
    }));
    const ids = await database.db
      .insertInto('sms_messages')
      .values(messages)
      .returning(['id', 'account_id'])
      .execute();
    await database.db
      .insertInto('sms_events')
      .values(
        ids.map((r, k) => ({
          account_id: Number(r.account_id),
          sms_message_id: Number(r.id),
          kind: k % 10 === 9 ? ('delivererror' as const) : ('deliver' as const),
          status_code: k % 10 === 9 ? 500 : 200,
          message: null,
          at: now,
        })),
      )
      .execute();
  }
  return { accounts, mail: EVENTS, sms: smsCount };
}

async function measure(backend: string, database: Database): Promise<void> {
  await migrateToLatest(database);
  const { accounts, mail, sms } = await fill(database);
  const ledger = new LedgerService(database);
  let t0 = performance.now();
  while ((await ledger.chargeMail(BATCH)) > 0) {}
  const mailSeconds = (performance.now() - t0) / 1000;
  t0 = performance.now();
  while ((await ledger.chargeSms(BATCH)) > 0) {}
  const smsSeconds = (performance.now() - t0) / 1000;
  const drift = await ledger.drift();
  report({
    bench: 'charging',
    backend,
    accounts: accounts.length,
    mailEvents: mail,
    mailEventsPerSecond: round(mail / mailSeconds, 0),
    smsEvents: sms,
    smsEventsPerSecond: round(sms / smsSeconds, 0),
    mtaThroughputRecorded: MTA_THROUGHPUT_RECORDED,
    timesDeliveryRate: round(mail / mailSeconds / MTA_THROUGHPUT_RECORDED, 1),
    balancesOffTheirSum: drift,
  });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-charging-bench-'));
const sqlite = openDatabase({ kind: 'sqlite', file: path.join(dir, 'herald.db') });
try {
  await measure('sqlite', sqlite);
} finally {
  await sqlite.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

const adminUrl = process.env.BENCH_DATABASE_URL;
if (adminUrl) {
  const pgDb = await freshPostgres(adminUrl, 'herald_bench_charging');
  const database = openDatabase({ kind: 'postgres', url: pgDb.url });
  try {
    await measure('postgres', database);
  } finally {
    await database.close();
    await pgDb.drop();
  }
}
