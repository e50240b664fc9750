/**
 * SMS end to end (issue 20): signed /smsapi/send calls → Herald (roles api and worker, embedded
 * SQLite) → a loopback carrier with delivery receipts (SMPP 3.4, `@herald/test-peers`), 70-character
 * messages; BENCH_SMS_PROTOCOL=cmpp for a CMPP 3.0 gateway instead. Figures:
 *   - accepted messages/s: numbers answered with smsIds, from the first call to the last answer;
 *   - submitted messages/s: numbers the carrier took, from the first call to the last submit;
 *   - receipts matched: messages whose row is `delivered` after the carrier's receipts, of all;
 *   - p50/p99 accept latency of one call.
 * BENCH_PHONES_PER_CALL (default 1: one verification code per call, the common case; also run
 * with 100) numbers go in each call, BENCH_CONCURRENCY calls in flight (default 32),
 * BENCH_SMS (default 20000) numbers in all; BENCH_GUARD=0 turns the anti-bombing template guard off
 * (its counting is in the path by default, at a maximum the run never reaches);
 * BENCH_SMS_CONNECTIONS (default 1) connections to the carrier under its one account (the URL's
 * `connections`); BENCH_CARRIER_RESPONSE_MS (default 0) holds every submit's answer back that
 * long at the carrier, as a distant one would, so a connection's window of 16 bounds it at
 * 16 / that time. Target: 3,000 messages/s accepted and submitted.
 *
 *   npm run bench -- sms-send
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startCmppGateway, startSmppCarrier } from '@herald/test-peers';
import { Pool } from 'undici';
import { SmsCarriersService } from '../server/src/core/sms-carriers/sms-carriers.service.ts';
import { openDatabase } from '../server/src/db/database.ts';
import { SecretBox } from '../server/src/lib/secret-box.ts';
import { createAccount } from '../server/test/fixtures/factory.ts';
import { createSmsSender } from '../server/test/fixtures/sms-factory.ts';
import { freePort, signedSmsForm, waitReady } from './herald-fixtures.ts';
import { percentile, report, round } from './report.ts';

const TOTAL = Number(process.env.BENCH_SMS ?? 20_000);
const PER_CALL = Number(process.env.BENCH_PHONES_PER_CALL ?? 1);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
/** smpp (default) or cmpp (CMPP 3.0). */
const PROTOCOL = process.env.BENCH_SMS_PROTOCOL === 'cmpp' ? 'cmpp' : 'smpp';
const CONNECTIONS = Number(process.env.BENCH_SMS_CONNECTIONS ?? 1);
const RESPONSE_MS = Number(process.env.BENCH_CARRIER_RESPONSE_MS ?? 0);
const TARGET = 3000;
const REPO = path.join(import.meta.dirname, '..');
const SMS_USER = 'bench_sms';
// 70 characters once the signature 【赫耳墨斯】 (6) is in front: one UCS-2 part.
const CONTENT =
  '您的验证码是%code%，请在五分钟内完成验证。如非本人操作请忽略本短信，验证码切勿告知他人，谢谢您的支持与配合，祝您生活愉快！';

async function main(): Promise<void> {
  const carrier =
    PROTOCOL === 'cmpp'
      ? await startCmppGateway({
          version: '3.0',
          accounts: { '901234': 'secret' },
          receiptDelayMs: 20,
          responseDelayMs: RESPONSE_MS,
        })
      : await startSmppCarrier({
          accounts: { herald: 'secret' },
          receiptDelayMs: 20,
          responseDelayMs: RESPONSE_MS,
        });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-sms-'));
  const httpPort = await freePort();
  const secretKey = randomBytes(32);
  const child = spawn(path.join(REPO, 'node_modules/.bin/node'), ['server/src/main.ts'], {
    cwd: REPO,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      ...(process.env.BENCH_PROFILE_DIR
        ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}` }
        : {}),
      HERALD_ROLE: 'api,worker',
      HERALD_DATA_DIR: dataDir,
      HERALD_HTTP_HOST: '127.0.0.1',
      HERALD_HTTP_PORT: String(httpPort),
      HERALD_SMTP_PORT: String(await freePort()),
      HERALD_INBOUND_SMTP_PORT: String(await freePort()),
      HERALD_SECRET_KEY: secretKey.toString('base64'),
      HERALD_LOG_LEVEL: 'warn',
    },
  });
  const url = `http://127.0.0.1:${httpPort}`;
  const file = path.join(dataDir, 'herald.db');
  const pool = new Pool(url, { connections: CONCURRENCY, pipelining: 1 });
  try {
    await waitReady(url, child);
    const database = openDatabase({ kind: 'sqlite', file });
    const box = new SecretBox(secretKey);
    const accountId = await createAccount(database, { username: 'bench_sms_account', plan: 'paid' });
    const smsKey = randomBytes(32).toString('base64url');
    const { templateId } = await createSmsSender(database, box, {
      accountId,
      smsUser: SMS_USER,
      smsKey,
      content: CONTENT,
    });
    // The bench's one code template sends far more than an attack would: the template guard
    // still counts every call (its cost is measured) but at a maximum the run never reaches.
    await database.db
      .insertInto('sms_frequency_limits')
      .values({
        account_id: accountId,
        per_minute: 3,
        per_day: 20,
        template_max: 1_000_000,
        template_guard: Number(process.env.BENCH_GUARD ?? 1),
        updated_at: Date.now(),
      })
      .execute();
    const carriers = new SmsCarriersService(database, box);
    await carriers.save({
      name: 'bench',
      url:
        PROTOCOL === 'cmpp'
          ? `cmpp://127.0.0.1:${carrier.port}?version=3.0&window=16&serviceId=HERALD&srcId=10690001&connections=${CONNECTIONS}`
          : `smpp://127.0.0.1:${carrier.port}?window=64&connections=${CONNECTIONS}`,
      systemId: PROTOCOL === 'cmpp' ? '901234' : 'herald',
      password: 'secret',
      perSecond: 20_000,
    });
    await carriers.addRoute({ carrier: 'bench', country: 'CN' });
    // The worker reads carriers every 5 s: let it see this one before the clock starts.
    await new Promise((r) => setTimeout(r, 5500));

    const calls = Math.ceil(TOTAL / PER_CALL);
    const bodies = Array.from({ length: calls }, (_, call) => {
      const phones = Array.from(
        { length: PER_CALL },
        (_, i) => `138${String(call * PER_CALL + i).padStart(8, '0')}`,
      );
      return signedSmsForm(smsKey, {
        smsUser: SMS_USER,
        templateId: String(templateId),
        phone: phones.join(','),
        vars: JSON.stringify({ code: String(100000 + (call % 900000)) }),
      });
    });
    const latencies: number[] = [];
    let next = 0;
    let accepted = 0;
    let failed = 0;
    const one = async () => {
      while (next < calls) {
        const body = bodies[next++] as string;
        const began = performance.now();
        const response = await pool.request({
          path: '/smsapi/send',
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
        const envelope = (await response.body.json()) as {
          statusCode: number;
          info: { successCount?: number };
        };
        latencies.push(performance.now() - began);
        if (envelope.statusCode === 200) accepted += envelope.info.successCount ?? 0;
        else failed += 1;
      }
    };
    const start = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, one));
    const acceptSeconds = (performance.now() - start) / 1000;
    await carrier.waitForMessages(accepted, 300_000);
    const submitSeconds = (performance.now() - start) / 1000;
    const until = Date.now() + 120_000;
    let delivered = 0;
    while (Date.now() < until) {
      const row = await database.db
        .selectFrom('sms_messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'delivered')
        .executeTakeFirstOrThrow();
      delivered = Number(row.n);
      if (delivered >= accepted) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    await database.close();
    latencies.sort((a, b) => a - b);
    const common = {
      phonesPerCall: PER_CALL,
      concurrency: CONCURRENCY,
      connections: CONNECTIONS,
      carrierResponseMs: RESPONSE_MS,
      messages: TOTAL,
      failedCalls: failed,
    };
    report({
      bench: 'sms-send',
      figure: `smsapi/send accepted messages/s (${PROTOCOL.toUpperCase()} carrier)`,
      value: round(accepted / acceptSeconds),
      target: TARGET,
      ratio: round(accepted / acceptSeconds / TARGET, 2),
      p50Ms: round(percentile(latencies, 50), 1),
      p99Ms: round(percentile(latencies, 99), 1),
      ...common,
    });
    report({
      bench: 'sms-send',
      figure: `submitted to the carrier messages/s (${PROTOCOL.toUpperCase()})`,
      value: round(carrier.messages.length / submitSeconds),
      target: TARGET,
      ratio: round(carrier.messages.length / submitSeconds / TARGET, 2),
      ...common,
    });
    report({
      bench: 'sms-send',
      figure: `receipts matched to their message (%, ${PROTOCOL.toUpperCase()})`,
      value: round((delivered / Math.max(accepted, 1)) * 100, 2),
      delivered,
      accepted,
      ...common,
    });
  } finally {
    await pool.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await carrier.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
