/**
 * Memory of a large SMTP-submitted message sent to many recipients (issue 19). One message of
 * about 16 MB (a text part and an HTML part with %name% and a link, and a 15 MB attachment) is
 * submitted over Herald's SMTP submission port twice, each time with X-SMTPAPI `to` naming 100
 * recipients (the most one message may have), `sub` giving each its own %name%, and click
 * tracking on: 200 copies that all differ, delivered to the loopback MX of @herald/test-peers.
 *
 * Herald runs as `npm start` runs it on this machine: the delivery worker in its own process.
 * The figures are the time from the first submission to the MX's 200th message, the peak
 * resident memory (VmHWM) of the worker process and of the process that took the submission, and
 * when in the run the worker's peak came. Run once with the default copy budget and once with
 * BENCH_SMALL_BUDGET_MB (default 32); BENCH_MESSAGE_MB=1 gives the same run with small copies,
 * the worker's memory without the large message, for reference.
 *
 *   npm run bench -- large-smtp-fanout
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDnsServer, startSmtpMx } from '../packages/test-peers/src/index.ts';
import { createDkimKey } from '../server/src/core/domains/dkim-key.ts';
import { SecretBox } from '../server/src/lib/secret-box.ts';
import { dotWithoutMark, SmtpConnection } from '../server/src/mta/smtp-client/smtp-connection.ts';
import {
  freePort,
  mailBenchEnv,
  reportLoggedErrors,
  waitReady,
  writeSendingFixture,
} from './herald-fixtures.ts';
import { report, round } from './report.ts';

const REPO = path.join(import.meta.dirname, '..');
const DOMAIN = 'bench.example.com';
const API_USER = 'fanout_bench';
const SECRET = randomBytes(32);
const PER_MESSAGE = 100;
const MESSAGES = 2;
/** The submitted size; BENCH_MESSAGE_MB=1 gives the worker's memory without large copies, for reference. */
const SIZE = Math.round(Number(process.env.BENCH_MESSAGE_MB ?? 15.9) * 1e6);
const SMALL_BUDGET_MB = process.env.BENCH_SMALL_BUDGET_MB ?? '32';

/** The submitted message: %name% in the subject and both text parts, a tracked link, a large attachment. */
function message(batch: number): Buffer {
  const to = Array.from({ length: PER_MESSAGE }, (_, i) => `reader${batch * PER_MESSAGE + i}@sink.test`);
  const xsmtpapi = {
    to,
    sub: { '%name%': to.map((_, i) => `Reader ${batch * PER_MESSAGE + i}`) },
    filters: { click_tracking: { settings: { enable: '1' } } },
  };
  const head = [
    `From: "Shop" <news@${DOMAIN}>`,
    'To: readers@sink.test',
    'Subject: Your catalogue, %name%',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="outer"',
    `X-SMTPAPI: ${Buffer.from(JSON.stringify(xsmtpapi)).toString('base64')}`,
    '',
    '--outer',
    'Content-Type: multipart/alternative; boundary="inner"',
    '',
    '--inner',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Hello %name%, the catalogue is attached: https://shop.example/catalogue',
    '--inner',
    'Content-Type: text/html; charset=utf-8',
    '',
    '<html><body><p>Hello %name%,</p><p><a href="https://shop.example/catalogue">The catalogue</a></p></body></html>',
    '--inner--',
    '--outer',
    'Content-Type: application/pdf; name="catalogue.pdf"',
    'Content-Transfer-Encoding: base64',
    'Content-Disposition: attachment; filename="catalogue.pdf"',
    '',
    '',
  ].join('\r\n');
  const tail = '--outer--\r\n';
  const room = SIZE - head.length - tail.length;
  const raw = randomBytes(Math.floor(room / 78) * 57);
  const lines = raw.toString('base64').replace(/.{76}/g, '$&\r\n');
  return Buffer.from(`${head}${lines}${lines.endsWith('\r\n') ? '' : '\r\n'}${tail}`, 'latin1');
}

/** A /proc/<pid>/status field in MB. */
function statusMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function run(budgetMb: string | null): Promise<void> {
  const dns = await startDnsServer();
  const mx = await startSmtpMx({ starttls: false });
  dns.set('sink.test', 'MX', [{ priority: 10, exchange: 'mx.sink.test' }]);
  dns.set('mx.sink.test', 'A', ['127.0.0.1']);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-fanout-bench-'));
  await writeSendingFixture(
    { kind: 'sqlite', file: path.join(dataDir, 'herald.db') },
    {
      username: 'fanoutbench',
      domain: DOMAIN,
      apiUser: API_USER,
      apiKey: randomBytes(24).toString('base64url'),
      dkim: (accountId) => createDkimKey(new SecretBox(SECRET), accountId),
    },
  );
  const httpPort = await freePort();
  const smtpPort = await freePort();
  const logFile = path.join(dataDir, 'herald.log');
  const logFd = fs.openSync(logFile, 'w');
  const child = spawn(
    path.join(REPO, 'node_modules/.bin/node'),
    ['server/src/main.ts', '--worker-process=on'],
    {
      cwd: REPO,
      stdio: ['ignore', logFd, 'inherit'],
      env: {
        ...process.env,
        HERALD_ROLE: 'all',
        ...(await mailBenchEnv({
          dataDir,
          secret: SECRET,
          httpPort,
          smtpPort,
          apiUser: API_USER,
          dnsAddress: dns.address,
          mtaPort: mx.port,
        })),
        HERALD_TRACKING_URL: 'https://track.herald.bench',
        ...(budgetMb ? { HERALD_DELIVERY_COPY_BUDGET_MB: budgetMb } : {}),
      },
    },
  );
  const workerPid = () => {
    const children = fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim();
    return Number(children.split(' ')[0]);
  };
  try {
    await waitReady(`http://127.0.0.1:${httpPort}`, child);
    const worker = workerPid();
    const baseline = statusMb(worker, 'VmRSS');
    const bodies = Array.from({ length: MESSAGES }, (_, i) => message(i));
    let delivered = 0;
    const subjects = new Set<string | undefined>();
    // The MX keeps what it takes; counted and dropped as it arrives (200 × 16 MB would not fit).
    // The worker's memory is sampled with it, to say where in the run its peak came.
    const peak = { rss: 0, delivered: 0, second: 0 };
    const start = Date.now();
    const drain = setInterval(() => {
      const taken = mx.messages.splice(0);
      delivered += taken.length;
      for (const mail of taken) subjects.add(mail.subject);
      const rss = statusMb(worker, 'VmRSS');
      if (rss > peak.rss) Object.assign(peak, { rss, delivered, second: (Date.now() - start) / 1000 });
    }, 50);
    const submission = await SmtpConnection.open({
      host: '127.0.0.1',
      port: smtpPort,
      timeoutMs: 120_000,
      localName: 'bench.local',
    });
    for (const body of bodies) {
      const result = await submission.send(
        { from: `news@${DOMAIN}`, to: ['readers@sink.test'] },
        body,
        dotWithoutMark,
      );
      if (result.final?.code !== 250) throw new Error(`submission refused: ${result.final?.text}`);
    }
    await submission.quit();
    const submittedAt = Date.now();
    const total = MESSAGES * PER_MESSAGE;
    while (delivered < total) {
      if (Date.now() - start > 900_000) throw new Error(`the MX has ${delivered} of ${total}`);
      if (child.exitCode !== null) throw new Error(`Herald exited with ${child.exitCode}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    clearInterval(drain);
    report({
      bench: 'large-smtp-fanout',
      message_mb: round((bodies[0]?.length ?? 0) / 1e6, 1),
      recipients: total,
      distinct_subjects: subjects.size,
      copy_budget_mb: budgetMb ?? 'default',
      submit_seconds: round((submittedAt - start) / 1000, 2),
      seconds: round((Date.now() - start) / 1000, 2),
      worker_baseline_rss_mb: Math.round(baseline),
      worker_peak_rss_mb: Math.round(statusMb(worker, 'VmHWM')),
      worker_peak_at: `${round(peak.second, 1)} s, ${peak.delivered} delivered`,
      main_peak_rss_mb: Math.round(statusMb(child.pid as number, 'VmHWM')),
      load_average: os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
    });
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await mx.close();
    await dns.close();
    fs.closeSync(logFd);
    reportLoggedErrors(logFile);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await run(null);
await run(SMALL_BUDGET_MB);
