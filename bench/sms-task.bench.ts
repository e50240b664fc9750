/**
 * An SMS task of 100,000 numbers (issue 17) while verification codes keep coming: Herald (roles
 * api and worker, embedded SQLite) → a loopback SMPP carrier with receipts (`@herald/test-peers`).
 * The task is started with a signed `smsapi/sendContactListTask` to one contact list; meanwhile
 * codes are sent one per `/smsapi/send` call at BENCH_CODE_RATE per second. Figures:
 *   - task messages/s: the task's numbers at the carrier, from the call that started it to the
 *     last of them;
 *   - a code's latency, call to carrier (p50, p99), while the task runs, and the same measured
 *     first with no task (the reference, same run), with the ratio of the two p99s.
 * BENCH_TASK_NUMBERS (default 100000), BENCH_CODE_RATE (default 20/s), BENCH_CARRIER_RATE (the
 * carrier contract's submits/s, default 3000; the window is 64).
 *
 *   npm run bench -- sms-task
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSmppCarrier } from '@herald/test-peers';
import { SmsCarriersService } from '../server/src/core/sms-carriers/sms-carriers.service.ts';
import { openDatabase } from '../server/src/db/database.ts';
import { SecretBox } from '../server/src/lib/secret-box.ts';
import { createAccount } from '../server/test/fixtures/factory.ts';
import { createSmsSender, createSmsTemplate } from '../server/test/fixtures/sms-factory.ts';
import { freePort, signedSmsForm, waitReady } from './herald-fixtures.ts';
import { paced, percentile, report, round } from './report.ts';

const NUMBERS = Number(process.env.BENCH_TASK_NUMBERS ?? 100_000);
const CODE_RATE = Number(process.env.BENCH_CODE_RATE ?? 20);
const CARRIER_RATE = Number(process.env.BENCH_CARRIER_RATE ?? 3000);
/** Codes timed with no task, the reference. */
const BASELINE_CODES = 200;
const REPO = path.join(import.meta.dirname, '..');
const SMS_USER = 'bench_task';

async function main(): Promise<void> {
  const carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 20 });
  // When each destination reached the carrier (the peer keeps every submit; this is the index).
  const arrivals = new Map<string, number>();
  let seen = 0;
  const arrived = (destination: string) => {
    for (; seen < carrier.messages.length; seen++) {
      const message = carrier.messages[seen];
      if (message) arrivals.set(message.destination, message.receivedAt.getTime());
    }
    return arrivals.get(destination);
  };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-task-'));
  const httpPort = await freePort();
  const secretKey = randomBytes(32);
  const child = spawn(path.join(REPO, 'node_modules/.bin/node'), ['server/src/main.ts'], {
    cwd: REPO,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
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
  try {
    await waitReady(url, child);
    const database = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'herald.db') });
    const box = new SecretBox(secretKey);
    const accountId = await createAccount(database, { username: 'bench_task_account', plan: 'paid' });
    const smsKey = randomBytes(32).toString('base64url');
    const { templateId: codeTemplate, signId } = await createSmsSender(database, box, {
      accountId,
      smsUser: SMS_USER,
      smsKey,
    });
    const now = Date.now();
    // More codes than the anti-bombing template guard's default allows in 10 minutes: raised, as
    // an account sending this many codes would have it.
    await database.db
      .insertInto('sms_frequency_limits')
      .values({
        account_id: accountId,
        per_minute: 3,
        per_day: 20,
        template_max: 1_000_000,
        template_guard: 1,
        updated_at: now,
      })
      .execute();
    const marketing = await createSmsTemplate(database, accountId, {
      name: 'bench_marketing',
      smsType: 'marketing',
      content: '%name%您好，会员日全场八折，回T退订',
      variables: { name: '张三' },
      signId,
    });
    const list = await database.db
      .insertInto('sms_contact_lists')
      .values({
        account_id: accountId,
        name: 'bench_list',
        member_count: NUMBERS,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (let i = 0; i < NUMBERS; i += 500) {
      await database.db
        .insertInto('sms_contact_members')
        .values(
          Array.from({ length: Math.min(500, NUMBERS - i) }, (_, j) => ({
            list_id: Number(list.id),
            phone: `+86139${String(i + j).padStart(8, '0')}`,
            name: `会员${i + j}`,
            vars: null,
            import_id: null,
            created_at: now,
          })),
        )
        .execute();
    }
    const carriers = new SmsCarriersService(database, box);
    await carriers.save({
      name: 'bench',
      url: `smpp://127.0.0.1:${carrier.port}?window=64`,
      systemId: 'herald',
      password: 'secret',
      perSecond: CARRIER_RATE,
    });
    await carriers.addRoute({ carrier: 'bench', country: 'CN' });
    // The worker reads carriers every 5 s: let it see this one before the clock starts.
    await new Promise((r) => setTimeout(r, 5500));

    let codeNumber = 0;
    /** Sends one code; resolves with its call-to-carrier latency in ms. */
    const code = async (): Promise<number> => {
      const phone = `138${String(codeNumber++).padStart(8, '0')}`;
      const began = Date.now();
      const response = await fetch(`${url}/smsapi/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: signedSmsForm(smsKey, {
          smsUser: SMS_USER,
          templateId: String(codeTemplate),
          phone,
          vars: JSON.stringify({ code: '482913' }),
        }),
      });
      const envelope = (await response.json()) as { statusCode: number };
      if (envelope.statusCode !== 200) throw new Error(`a code was refused: ${JSON.stringify(envelope)}`);
      for (;;) {
        const at = arrived(`86${phone}`);
        if (at !== undefined) return at - began;
        await new Promise((r) => setTimeout(r, 2));
      }
    };
    /** Codes at CODE_RATE per second until `until()` says stop (or `count` were sent). */
    const codes = (until: () => boolean, count?: number) => paced(CODE_RATE, code, until, count);

    const idle = await codes(() => false, BASELINE_CODES);

    const started = Date.now();
    const task = await fetch(`${url}/smsapi/sendContactListTask`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: signedSmsForm(smsKey, {
        smsUser: SMS_USER,
        contactListName: 'bench_list',
        taskName: 'bench',
        templateId: String(marketing),
      }),
    });
    const envelope = (await task.json()) as { statusCode: number };
    if (envelope.statusCode !== 200) throw new Error(`the task was refused: ${JSON.stringify(envelope)}`);
    const taskDone = () => carrier.messages.length >= NUMBERS + codeNumber;
    const busy = await codes(taskDone);
    await carrier.waitForMessages(NUMBERS + codeNumber, 600_000);
    const lastTaskMessage = Math.max(
      ...carrier.messages.filter((m) => m.destination.startsWith('86139')).map((m) => m.receivedAt.getTime()),
    );
    const seconds = (lastTaskMessage - started) / 1000;
    await database.close();

    const common = { numbers: NUMBERS, codeRate: CODE_RATE, carrierRate: CARRIER_RATE };
    report({
      bench: 'sms-task',
      figure: 'task messages/s at the carrier (SMPP)',
      value: round(NUMBERS / seconds),
      seconds: round(seconds, 1),
      ...common,
    });
    report({
      bench: 'sms-task',
      figure: 'verification code p99 ms, call to carrier, while the task runs',
      value: round(percentile(busy, 99), 1),
      p50Ms: round(percentile(busy, 50), 1),
      codes: busy.length,
      reference: round(percentile(idle, 99), 1),
      referenceP50Ms: round(percentile(idle, 50), 1),
      ratio: round(percentile(busy, 99) / Math.max(1, percentile(idle, 99)), 2),
      ...common,
    });
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await carrier.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
