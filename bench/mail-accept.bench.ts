/**
 * Accept rate of mail (issue 5): how many messages per second Herald accepts, durably, on the
 * embedded default (SQLite in WAL mode; each group commit is fsynced), on one machine.
 *
 *   (a) HTTP: POST /apiv2/mail/send, form-encoded, 1 recipient, 1 KB html, BENCH_CONCURRENCY
 *       requests in flight over as many keep-alive connections (undici Pool), BENCH_MESSAGES in total.
 *   (b) SMTP: Postfix's smtp-source, 10 sessions, 1 KB messages, against the submission port.
 *       smtp-source cannot AUTH, so the server trusts 127.0.0.1 for the bench API_USER
 *       (HERALD_SMTP_TRUSTED_NETWORKS / HERALD_SMTP_TRUSTED_API_USER, see README).
 *
 * Herald runs as its own process (`node server/src/main.ts`, roles api and smtp) with a fresh
 * data directory and HERALD_LOG_LEVEL=warn; fixtures are written to its SQLite file before the
 * first call. Target: 3,000 accepted messages per second each.
 *
 *   npm run bench -- mail-accept      BENCH_MESSAGES (default 20000), BENCH_CONCURRENCY (default 48)
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { openDatabase } from '../server/src/db/database.ts';
import { freePort, waitReady, writeSendingFixture } from './herald-fixtures.ts';
import { report, round } from './report.ts';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 48);
const SMTP_SESSIONS = 10;
const TARGET = 3000;
const REPO = path.join(import.meta.dirname, '..');
const SMTP_SOURCE = '/usr/sbin/smtp-source';
const DOMAIN = 'bench.example.com';
const API_USER = 'bench_user';

async function countRecipients(file: string): Promise<number> {
  const database = openDatabase({ kind: 'sqlite', file });
  const row = await database.db
    .selectFrom('message_recipients')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'requested')
    .executeTakeFirstOrThrow();
  await database.close();
  return Number(row.n);
}

async function httpAccept(url: string, apiKey: string): Promise<{ seconds: number; failed: number }> {
  const html = `<html><body>${'<p>Hello from the accept benchmark.</p>'.repeat(26)}</body></html>`.slice(
    0,
    1024,
  );
  const body = new URLSearchParams({
    apiUser: API_USER,
    apiKey,
    from: `news@${DOMAIN}`,
    to: 'reader@example.org',
    subject: 'Benchmark',
    html,
  }).toString();
  const pool = new Pool(url, { connections: CONCURRENCY, pipelining: 1 });
  let next = 0;
  let failed = 0;
  const one = async () => {
    while (next < MESSAGES) {
      next += 1;
      const response = await pool.request({
        path: '/apiv2/mail/send',
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      const envelope = (await response.body.json()) as { statusCode: number };
      if (envelope.statusCode !== 200) failed += 1;
    }
  };
  // Warm up connections and caches before the clock starts.
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () =>
      (await pool.request({ path: '/healthz', method: 'GET' })).body.text(),
    ),
  );
  const start = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, one));
  const seconds = (performance.now() - start) / 1000;
  await pool.close();
  return { seconds, failed };
}

function smtpAccept(
  port: number,
  keepConnection: boolean,
  messages: number,
): { seconds: number; output: string } {
  const args = [
    '-s',
    String(SMTP_SESSIONS),
    '-m',
    String(messages),
    '-l',
    '1024',
    '-S',
    'Benchmark',
    '-f',
    `news@${DOMAIN}`,
    '-t',
    'reader@example.org',
    ...(keepConnection ? ['-d'] : []),
    `127.0.0.1:${port}`,
  ];
  const start = performance.now();
  const result = spawnSync(SMTP_SOURCE, args, { encoding: 'utf8' });
  const seconds = (performance.now() - start) / 1000;
  if (result.status !== 0) throw new Error(`smtp-source failed: ${result.stderr}`);
  return { seconds, output: `${result.stdout}${result.stderr}` };
}

async function main(): Promise<void> {
  if (!fs.existsSync(SMTP_SOURCE))
    throw new Error(`${SMTP_SOURCE} is missing: apt-get install postfix (tools only)`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-accept-'));
  const httpPort = await freePort();
  const smtpPort = await freePort();
  const inboundPort = await freePort();
  const apiKey = randomBytes(32).toString('base64url');
  const child = spawn(path.join(REPO, 'node_modules/.bin/node'), ['server/src/main.ts'], {
    cwd: REPO,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      ...(process.env.BENCH_PROFILE_DIR
        ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}` }
        : {}),
      HERALD_ROLE: 'api,smtp',
      HERALD_DATA_DIR: dataDir,
      HERALD_HTTP_HOST: '127.0.0.1',
      HERALD_HTTP_PORT: String(httpPort),
      HERALD_SMTP_HOST: '127.0.0.1',
      HERALD_SMTP_PORT: String(smtpPort),
      HERALD_INBOUND_SMTP_PORT: String(inboundPort),
      HERALD_LOG_LEVEL: 'warn',
      HERALD_SMTP_TRUSTED_NETWORKS: '127.0.0.1/32',
      HERALD_SMTP_TRUSTED_API_USER: API_USER,
    },
  });
  const url = `http://127.0.0.1:${httpPort}`;
  const file = path.join(dataDir, 'herald.db');
  try {
    await waitReady(url, child);
    await writeSendingFixture(
      { kind: 'sqlite', file },
      { username: 'bench', domain: DOMAIN, apiUser: API_USER, apiKey },
    );

    const http = await httpAccept(url, apiKey);
    const afterHttp = await countRecipients(file);
    const httpRate = (MESSAGES - http.failed) / http.seconds;
    report({
      bench: 'mail-accept',
      figure: 'http mail/send accepted messages/s',
      value: round(httpRate),
      target: TARGET,
      ratio: round(httpRate / TARGET, 2),
      messages: MESSAGES,
      failed: http.failed,
      stored: afterHttp,
      concurrency: CONCURRENCY,
      seconds: round(http.seconds, 2),
    });

    for (const keep of process.env.BENCH_SMTP_MODES === 'all' ? [true, false] : [true]) {
      const before = await countRecipients(file);
      // A new connection per message used to cost about 100 ms before the greeting (see
      // BENCHMARKS.md); that mode still sends fewer messages, so runs stay comparable.
      const messages = keep ? MESSAGES : Math.min(MESSAGES, 500);
      const smtp = smtpAccept(smtpPort, keep, messages);
      const stored = (await countRecipients(file)) - before;
      const rate = stored / smtp.seconds;
      report({
        bench: 'mail-accept',
        figure: keep
          ? 'smtp submission accepted messages/s (smtp-source -d: sessions kept open)'
          : 'smtp submission accepted messages/s (smtp-source: one connection per message)',
        value: round(rate),
        target: TARGET,
        ratio: round(rate / TARGET, 2),
        messages,
        stored,
        sessions: SMTP_SESSIONS,
        seconds: round(smtp.seconds, 2),
      });
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
