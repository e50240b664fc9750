/**
 * Statistics on the embedded default (SQLite): the queries of the data centre over rollups that
 * hold more than 10 million events, and the rollup loop's own rate.
 *
 * 1. Rollups: half a year of an account with BENCH_STAT_API_USERS API_USERs × BENCH_STAT_LABELS
 *    labels × BENCH_STAT_DOMAINS receiving domains, every one of them sending every hour (the
 *    hour rollup's worst case: one row per combination and hour), written straight into the
 *    rollup tables as the loop would have left them. Row counts and the events they stand for
 *    are reported.
 * 2. The queries (send series for 30 days and 6 months, filtered series, delivery time, receiving
 *    domains, statday/list, stathour/list), BENCH_STAT_RUNS times each: p50 and p95.
 * 3. The rollup loop (core.statistics.rollUp in batches of 5,000) over BENCH_STAT_EVENTS raw
 *    mail_events rows: events per second.
 *
 *   npm run bench -- stats-query
 */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addDays, addMonths, STAT_QUERY_PRESETS, statDay, statDayStart } from '@herald/shared';
import SQLite from 'better-sqlite3';
import { MailEventsService } from '../server/src/core/mail-events/mail-events.service.ts';
import { StatisticsService } from '../server/src/core/statistics/statistics.service.ts';
import { openDatabase } from '../server/src/db/database.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { createAccount, createApiUser, createLabel } from '../server/test/fixtures/factory.ts';
import { report, round } from './report.ts';

const API_USERS = Number(process.env.BENCH_STAT_API_USERS ?? 10);
const LABELS = Number(process.env.BENCH_STAT_LABELS ?? 5);
const DOMAINS = Number(process.env.BENCH_STAT_DOMAINS ?? 20);
const RUNS = Number(process.env.BENCH_STAT_RUNS ?? 30);
const RAW_EVENTS = Number(process.env.BENCH_STAT_EVENTS ?? 500_000);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-stats-bench-'));
const file = path.join(dir, 'herald.db');
const database = openDatabase({ kind: 'sqlite', file });
await migrateToLatest(database);

const now = Date.parse('2026-06-30T04:00:00Z');
const today = statDay(now);
const firstDay = addMonths(today, -6);
const domains = Array.from({ length: DOMAINS }, (_, i) => `mx${i}.example${i % 7}.com`);

// The account, its API_USERs and labels (names for statday/list).
const accountId = await createAccount(database, { username: 'stats_bench' });
const caller = { accountId };
for (let i = 1; i <= API_USERS; i++) {
  await createApiUser(database, accountId, { name: `bench_api_${i}`, emailType: 'batch' });
}
for (let i = 1; i <= LABELS; i++) {
  await createLabel(database, accountId, `label ${i}`);
}
await database.close();

// 1. The rollups, written with one prepared statement per table in one transaction per day.
const sqlite = new SQLite(file);
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = OFF');
const counters =
  'requested, delivered, opened, clicked, unique_opened, unique_clicked, soft_bounced, invalid, spam_reported, unsubscribed';
const hourInsert = sqlite.prepare(
  `INSERT INTO stat_hours (account_id, day, hour, api_user_id, label_id, recipient_domain, ${counters}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
const dayInsert = sqlite.prepare(
  `INSERT INTO stat_days (account_id, day, api_user_id, label_id, recipient_domain, ${counters}, inv_not_found, inv_rejected) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
const domainInsert = sqlite.prepare(
  `INSERT INTO stat_domain_days (account_id, day, recipient_domain, ${counters}, inv_not_found, inv_rejected) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
const accountInsert = sqlite.prepare(
  `INSERT INTO stat_account_days (account_id, day, ${counters}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
const timesInsert = sqlite.prepare(
  'INSERT INTO stat_delivery_times (account_id, day, recipient_domain, dt_1s, dt_5s, dt_30s, dt_1m, dt_5m, dt_30m, dt_1h, dt_over) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
);

let seed = 42;
const rand = (n: number) => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed % n;
};
let hourRows = 0;
let events = 0;
const loadStart = performance.now();
const writeDay = sqlite.transaction((day: string) => {
  const account = new Array(10).fill(0);
  const perDomain = new Map<string, number[]>();
  for (let api = 1; api <= API_USERS; api++) {
    for (let label = 1; label <= LABELS; label++) {
      for (const domain of domains) {
        const total = new Array(10).fill(0);
        for (let hour = 0; hour < 24; hour++) {
          const requested = 1 + rand(2);
          const invalid = rand(20) === 0 ? 1 : 0;
          const delivered = requested - invalid;
          const opened = rand(3) === 0 ? 1 : 0;
          const clicked = opened && rand(4) === 0 ? 1 : 0;
          const row = [requested, delivered, opened, clicked, opened, clicked, 0, invalid, 0, 0];
          hourInsert.run(accountId, day, hour, api, label, domain, ...row);
          hourRows++;
          for (let i = 0; i < 10; i++) total[i] += row[i] ?? 0;
        }
        dayInsert.run(accountId, day, api, label, domain, ...total, total[7], 0);
        for (let i = 0; i < 10; i++) account[i] += total[i];
        const domainTotal = perDomain.get(domain) ?? new Array(10).fill(0);
        for (let i = 0; i < 10; i++) domainTotal[i] += total[i];
        perDomain.set(domain, domainTotal);
        events += total.reduce((a, b) => a + b, 0) - (total[4] ?? 0) - (total[5] ?? 0);
      }
    }
  }
  accountInsert.run(accountId, day, ...account);
  for (const [domain, total] of perDomain) {
    domainInsert.run(accountId, day, domain, ...total, total[7], 0);
    const delivered = total[1] ?? 0;
    const share = [0.55, 0.25, 0.1, 0.05, 0.03, 0.015, 0.004, 0.001].map((p) => Math.round(delivered * p));
    timesInsert.run(accountId, day, domain, ...share);
  }
});
let days = 0;
for (let day = firstDay; day <= today; day = addDays(day, 1)) {
  writeDay(day);
  days++;
}
const rows = (table: string) =>
  Number((sqlite.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n);
report({
  bench: 'stats-query',
  figure: 'rollup data set',
  days,
  apiUsers: API_USERS,
  labels: LABELS,
  domains: DOMAINS,
  events,
  statHoursRows: rows('stat_hours'),
  statDaysRows: rows('stat_days'),
  statDomainDaysRows: rows('stat_domain_days'),
  statAccountDaysRows: rows('stat_account_days'),
  statDeliveryTimesRows: rows('stat_delivery_times'),
  dbMiB: round(fs.statSync(file).size / 2 ** 20),
  loadSeconds: round((performance.now() - loadStart) / 1000),
});
sqlite.pragma('wal_checkpoint(TRUNCATE)');
sqlite.close();
if (hourRows === 0) throw new Error('nothing generated');

// 2. The queries, through the service as the routes call it.
const reader = openDatabase({ kind: 'sqlite', file });
const stats = new StatisticsService(reader, new MailEventsService(reader), () => now);
const q = (input: Record<string, unknown>) => stats.parseQuery(input, STAT_QUERY_PRESETS);
const last30 = q({ preset: 'last30' });
const half = q({ preset: 'months6' });
const week = { from: addDays(today, -6), to: today };
const cases: [string, () => Promise<unknown>][] = [
  ['send series, 30 days', () => stats.sendSeries(caller, last30)],
  ['send series, 6 months', () => stats.sendSeries(caller, half)],
  ['send series, 30 days, one API_USER', () => stats.sendSeries(caller, { ...last30, apiUserId: 3 })],
  ['send series, 6 months, one domain', () => stats.sendSeries(caller, { ...half, domain: domains[1] })],
  ['send series, 1 day by hour', () => stats.sendSeries(caller, q({ preset: 'today', groupBy: 'hour' }))],
  ['delivery time, 30 days', () => stats.deliveryTime(caller, last30)],
  ['delivery time, 6 months', () => stats.deliveryTime(caller, half)],
  ['receiving domains, 30 days', () => stats.receiveDomains(caller, last30)],
  ['receiving domains, 6 months', () => stats.receiveDomains(caller, half)],
  ['statday/list, 7 days', () => stats.apiRows(caller, week, {})],
  ['statday/list, 6 months, aggregate', () => stats.apiRows(caller, half, { aggregate: true })],
  [
    'statday/list, 6 months, one API_USER, aggregate',
    () => stats.apiRows(caller, { ...half, apiUserIds: [2] }, { aggregate: true }),
  ],
  ['stathour/list, 1 day', () => stats.apiRows(caller, { from: today, to: today }, { hourly: true })],
  [
    'invalidstat/list, 30 days, aggregate',
    () => stats.apiRows(caller, last30, { invalid: true, aggregate: true }),
  ],
  ['overview, 30 days', () => stats.overview(caller, last30)],
];
for (const [name, run] of cases) {
  await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => round(times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0, 2);
  report({
    bench: 'stats-query',
    query: name,
    runs: RUNS,
    p50Ms: at(0.5),
    p95Ms: at(0.95),
    under200ms: at(0.95) < 200,
  });
}
await reader.close();

// 3. The rollup loop over raw events, in a database of its own.
const loopFile = path.join(dir, 'loop.db');
const loopDb = openDatabase({ kind: 'sqlite', file: loopFile });
await migrateToLatest(loopDb);
await loopDb.close();
const raw = new SQLite(loopFile);
raw.pragma('journal_mode = WAL');
const eventInsert = raw.prepare(
  `INSERT INTO mail_events (account_id, kind, at, message_id, recipient_id, email_id, recipient, recipient_domain, api_user_id, label_id, sub_status, reason, latency_ms, data)
   VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, NULL, ?, ?)`,
);
const KINDS = [
  'request',
  'request',
  'request',
  'deliver',
  'deliver',
  'deliver',
  'open',
  'click',
  'invalid',
  'soft_bounce',
];
const start = statDayStart(addDays(today, -1));
raw.transaction(() => {
  for (let i = 0; i < RAW_EVENTS; i++) {
    const kind = KINDS[i % KINDS.length] as string;
    const data = kind === 'open' || kind === 'click' ? JSON.stringify({ first: rand(2) === 0 }) : null;
    eventInsert.run(
      1 + (i % 3),
      kind,
      start + Math.floor((i / RAW_EVENTS) * 86_400_000),
      i,
      i,
      `r${i}@${domains[i % DOMAINS]}`,
      domains[i % DOMAINS],
      1 + (i % API_USERS),
      i % (LABELS + 1),
      kind === 'invalid' ? 406 : kind === 'soft_bounce' ? 509 : null,
      kind === 'deliver' ? rand(120_000) : null,
      data,
    );
  }
})();
raw.close();
const loopDatabase = openDatabase({ kind: 'sqlite', file: loopFile });
const loopStats = new StatisticsService(loopDatabase, new MailEventsService(loopDatabase), () => now);
const loopStart = performance.now();
let applied = 0;
let batch: number;
do {
  batch = await loopStats.rollUp(5000);
  applied += batch;
} while (batch > 0);
const loopSeconds = (performance.now() - loopStart) / 1000;
report({
  bench: 'stats-query',
  figure: 'rollup loop',
  events: applied,
  batch: 5000,
  seconds: round(loopSeconds, 2),
  eventsPerSecond: round(applied / loopSeconds),
});
await loopDatabase.close();
fs.rmSync(dir, { recursive: true, force: true });
