/**
 * A list send of 100,000 members (issue 21) while transactional mail keeps coming: Herald (roles
 * api and worker, embedded SQLite) → a loopback MX (`@herald/test-peers`, no TLS) found through a
 * loopback DNS peer. The list task is started with `mail/send` and `useAddressList=true` by a
 * batch API_USER; meanwhile a trigger API_USER sends one mail per `mail/send` call at
 * BENCH_TX_RATE per second. Figures:
 *   - list mails/s: the members' mails at the MX, from the call that made the task to the last,
 *     with the time until the task had queued every member (mail/taskinfo);
 *   - a transactional mail's latency, accepted (the call answered) to delivered (at the MX), p50
 *     and p99, while the task runs, and the same measured first with no task (the reference).
 * BENCH_LIST_MEMBERS (default 100000), BENCH_TX_RATE (default 20/s). With BENCH_DATABASE_URL
 * (an admin URL; a fresh database is made and dropped) Herald runs on PostgreSQL instead, with
 * Redis for its queues when BENCH_REDIS_URL is set too.
 *
 *   npm run bench -- list-send-lanes
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test BENCH_REDIS_URL=redis://127.0.0.1:6379 \
 *     npm run bench -- list-send-lanes
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDnsServer, startSmtpMx } from '@herald/test-peers';
import { createDkimKey } from '../server/src/core/domains/dkim-key.ts';
import { openDatabase } from '../server/src/db/database.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { SecretBox } from '../server/src/lib/secret-box.ts';
import { createAccount, createApiUser, createSender } from '../server/test/fixtures/factory.ts';
import { freePort, freshPostgres, waitReady } from './herald-fixtures.ts';
import { paced, percentile, report, round } from './report.ts';

const MEMBERS = Number(process.env.BENCH_LIST_MEMBERS ?? 100_000);
const TX_RATE = Number(process.env.BENCH_TX_RATE ?? 20);
const BASELINE = 100;
const REPO = path.join(import.meta.dirname, '..');
const DOMAIN = 'bench.example.com';
const SINK = 'sink.test';

async function main(): Promise<void> {
  const mx = await startSmtpMx({ starttls: false });
  const dns = await startDnsServer();
  dns.set(SINK, 'MX', [{ priority: 10, exchange: `mx.${SINK}` }]);
  dns.set(`mx.${SINK}`, 'A', ['127.0.0.1']);
  // When each recipient reached the MX (the peer keeps every mail; this is the index).
  const arrivals = new Map<string, number>();
  let seen = 0;
  const arrived = (address: string) => {
    for (; seen < mx.messages.length; seen++) {
      const mail = mx.messages[seen];
      for (const rcpt of mail?.rcptTo ?? []) arrivals.set(rcpt, mail?.receivedAt.getTime() ?? 0);
    }
    return arrivals.get(address);
  };

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-list-'));
  const secret = randomBytes(32);
  const adminUrl = process.env.BENCH_DATABASE_URL;
  const pgDb = adminUrl ? await freshPostgres(adminUrl, 'herald_bench_list_send') : undefined;
  const backendEnv: Record<string, string> = {};
  if (pgDb) backendEnv.DATABASE_URL = pgDb.url;
  if (pgDb && process.env.BENCH_REDIS_URL) {
    backendEnv.REDIS_URL = process.env.BENCH_REDIS_URL;
    backendEnv.HERALD_QUEUE_PREFIX = `herald-bench-list-${Date.now()}`;
  }
  const backend = pgDb ? (backendEnv.REDIS_URL ? 'postgres+redis' : 'postgres') : 'sqlite';
  const database = openDatabase(
    pgDb ? { kind: 'postgres', url: pgDb.url } : { kind: 'sqlite', file: path.join(dataDir, 'herald.db') },
  );
  await migrateToLatest(database);
  const accountId = await createAccount(database, { username: 'bench_lists', plan: 'paid' });
  const batch = await createSender(database, {
    accountId,
    domain: DOMAIN,
    key: await createDkimKey(new SecretBox(secret), accountId),
    checkedNow: true,
    emailType: 'batch',
  });
  const trigger = await createApiUser(database, accountId, {
    emailType: 'trigger',
    domainId: batch.domainId,
  });
  const now = Date.now();
  const list = await database.db
    .insertInto('address_lists')
    .values({
      account_id: accountId,
      name: 'bench',
      prefix: 'bench',
      member_count: MEMBERS,
      var_names: '["code"]',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let i = 0; i < MEMBERS; i += 500) {
    await database.db
      .insertInto('address_list_members')
      .values(
        Array.from({ length: Math.min(500, MEMBERS - i) }, (_, j) => ({
          list_id: Number(list.id),
          address: `m${String(i + j).padStart(7, '0')}@${SINK}`,
          name: `Member ${i + j}`,
          vars: JSON.stringify({ code: `C${i + j}` }),
          import_id: null,
          created_at: now,
        })),
      )
      .execute();
  }
  await database.close();

  const httpPort = await freePort();
  const child = spawn(path.join(REPO, 'node_modules/.bin/node'), ['server/src/main.ts'], {
    cwd: REPO,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      ...backendEnv,
      HERALD_ROLE: 'api,worker',
      HERALD_DATA_DIR: dataDir,
      HERALD_HTTP_HOST: '127.0.0.1',
      HERALD_HTTP_PORT: String(httpPort),
      HERALD_SMTP_PORT: String(await freePort()),
      HERALD_INBOUND_SMTP_PORT: String(await freePort()),
      HERALD_SECRET_KEY: secret.toString('base64'),
      HERALD_LOG_LEVEL: 'warn',
      HERALD_DNS_SERVERS: dns.address,
      HERALD_MTA_PORT: String(mx.port),
      HERALD_HOSTNAME: 'herald.bench',
      HERALD_MAILLIST_DOMAIN: 'maillist.bench',
      HERALD_DELIVERY_POLL_MS: '20',
      HERALD_DESTINATION_LIMITS: JSON.stringify({ '*': { connections: 20 } }),
    },
  });
  const url = `http://127.0.0.1:${httpPort}`;
  const post = async (fields: Record<string, string>, action = 'mail/send') => {
    const response = await fetch(`${url}/apiv2/${action}`, {
      method: 'POST',
      body: new URLSearchParams({ from: `news@${DOMAIN}`, ...fields }),
    });
    return (await response.json()) as { statusCode: number; info: Record<string, unknown> };
  };
  try {
    await waitReady(url, child);
    let sent = 0;
    /** One transactional mail; resolves with its accepted-to-delivered latency in ms. */
    const transactional = async (): Promise<number> => {
      const to = `tx${sent++}@${SINK}`;
      const envelope = await post({
        apiUser: trigger.name,
        apiKey: trigger.apiKey,
        to,
        subject: 'Your code',
        html: '<p>482913</p>',
      });
      if (envelope.statusCode !== 200) throw new Error(`a mail was refused: ${JSON.stringify(envelope)}`);
      const accepted = Date.now();
      for (;;) {
        const at = arrived(to);
        if (at !== undefined) return at - accepted;
        await new Promise((r) => setTimeout(r, 2));
      }
    };
    /** Mails at TX_RATE per second until `until()` says stop (or `count` were sent). */
    const stream = (until: () => boolean, count?: number) => paced(TX_RATE, transactional, until, count);

    const idle = await stream(() => false, BASELINE);

    const started = Date.now();
    const task = await post({
      apiUser: batch.apiUser,
      apiKey: batch.apiKey,
      useAddressList: 'true',
      to: 'bench@maillist.bench',
      subject: 'News for %name%',
      html: '<p>Dear %name%, your code is %code%</p>',
    });
    if (task.statusCode !== 40821) throw new Error(`the list send was refused: ${JSON.stringify(task)}`);
    const listDone = () => mx.messages.length >= MEMBERS + sent;
    // When the task had written every member into the delivery queue (mail/taskinfo's queued).
    const [taskId] = task.info.maillistTaskId as number[];
    let allQueuedAt = 0;
    const watchQueued = (async () => {
      while (allQueuedAt === 0) {
        const info = await post(
          {
            apiUser: batch.apiUser,
            apiKey: batch.apiKey,
            maillistTaskId: String(taskId),
          },
          'mail/taskinfo',
        );
        const data = (info.info as { data?: { queued?: number } }).data;
        if ((data?.queued ?? 0) >= MEMBERS) allQueuedAt = Date.now();
        else await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const busy = await stream(listDone);
    await watchQueued;
    await mx.waitForMessages(MEMBERS + sent, 900_000);
    arrived('');
    const lastListMail = Math.max(
      ...[...arrivals].filter(([address]) => address.startsWith('m')).map(([, at]) => at),
    );
    const seconds = (lastListMail - started) / 1000;

    const common = { members: MEMBERS, txRate: TX_RATE, backend };
    report({
      bench: 'list-send-lanes',
      figure: 'list mails/s at the MX',
      value: round(MEMBERS / seconds),
      seconds: round(seconds, 1),
      allQueuedSeconds: round((allQueuedAt - started) / 1000, 1),
      ...common,
    });
    report({
      bench: 'list-send-lanes',
      figure: 'transactional p99 ms, accepted to delivered, while the list task runs',
      value: round(percentile(busy, 99), 1),
      p50Ms: round(percentile(busy, 50), 1),
      mails: busy.length,
      reference: round(percentile(idle, 99), 1),
      referenceP50Ms: round(percentile(idle, 50), 1),
      ...common,
    });
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await mx.close();
    await dns.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await pgDb?.drop();
  }
}

await main();
