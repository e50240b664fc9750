/**
 * The gateway for customers' systems end to end (issue 17): customers' CMPP 3.0 clients → Herald's
 * CMPP gateway (its own process, embedded SQLite) → the
 * send path → the loopback carrier (CMPP 3.0 gateway peer, receipts 20 ms after each submit) → the
 * receipt relayed back to the customer as a status report. Herald runs roles gateway and worker in
 * one process (BENCH_SPLIT=1 puts the delivery worker in a second one; on the embedded database
 * the two then contend for its one writer). Figures:
 *   - accepted messages/s: SUBMITs answered with result 0, from the first SUBMIT to the last answer;
 *   - submitted messages/s: submits the carrier took, from the first SUBMIT to the last one;
 *   - relayed messages/s: status reports the customers got, from the first SUBMIT to the last one;
 *   - receipts relayed back: the share of accepted messages whose report (DELIVRD, with the Msg_Id
 *     Herald answered with) reached the customer.
 * BENCH_SMS (default 20000) messages over BENCH_CONNECTIONS (default 4) connections with
 * BENCH_IN_FLIGHT (default 32) SUBMITs awaiting their answer on each; 70-character messages (one
 * UCS-2 part) of a passed template, each to its own number. Target: 3,000 messages/s with every
 * receipt relayed back.
 *
 *   npm run bench -- sms-gateway
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startCmppGateway } from '@herald/test-peers';
import { SmsCarriersService } from '../server/src/core/sms-carriers/sms-carriers.service.ts';
import { SmsGatewayUsersService } from '../server/src/core/sms-gateway-users/sms-gateway-users.service.ts';
import { openDatabase } from '../server/src/db/database.ts';
import { SecretBox } from '../server/src/lib/secret-box.ts';
import { createAccount } from '../server/test/fixtures/factory.ts';
import { createSmsSender } from '../server/test/fixtures/sms-factory.ts';
import { CmppCustomer, ucs2 } from '../server/test/sms/cmpp-customer.ts';
import { freePort, waitReady } from './herald-fixtures.ts';
import { report, round } from './report.ts';

const TOTAL = Number(process.env.BENCH_SMS ?? 20_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 32);
const TARGET = 3000;
const REPO = path.join(import.meta.dirname, '..');
const SIGN = '赫耳墨斯';
// 70 characters with the signature 【赫耳墨斯】 (6) in front: one UCS-2 part.
const CONTENT =
  '您的验证码是%code%，请在五分钟内完成验证。如非本人操作请忽略本短信，验证码切勿告知他人，谢谢您的支持与配合，祝您生活愉快！';

async function main(): Promise<void> {
  const carrier = await startCmppGateway({
    version: '3.0',
    accounts: { '901234': 'secret' },
    receiptDelayMs: 20,
  });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-gateway-'));
  const httpPort = await freePort();
  const cmppPort = await freePort();
  const secretKey = randomBytes(32);
  const child = spawn(
    path.join(REPO, 'node_modules/.bin/node'),
    ['server/src/main.ts', ...(process.env.BENCH_SPLIT === '1' ? ['--worker-process=on'] : [])],
    {
      cwd: REPO,
      stdio: ['ignore', process.env.BENCH_HERALD_LOG ? 'inherit' : 'ignore', 'inherit'],
      env: {
        ...process.env,
        ...(process.env.BENCH_PROFILE_DIR
          ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}` }
          : {}),
        HERALD_ROLE: 'gateway,worker',
        HERALD_DATA_DIR: dataDir,
        HERALD_HTTP_HOST: '127.0.0.1',
        HERALD_HTTP_PORT: String(httpPort),
        HERALD_GATEWAY_HOST: '127.0.0.1',
        HERALD_CMPP_PORT: String(cmppPort),
        HERALD_SECRET_KEY: secretKey.toString('base64'),
        HERALD_LOG_LEVEL: 'warn',
      },
    },
  );
  const url = `http://127.0.0.1:${httpPort}`;
  const customers: CmppCustomer[] = [];
  try {
    await waitReady(url, child);
    const database = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'herald.db') });
    const box = new SecretBox(secretKey);
    const accountId = await createAccount(database, { username: 'bench_gateway', plan: 'paid' });
    await createSmsSender(database, box, {
      accountId,
      smsUser: 'bench_gateway_sms',
      smsKey: randomBytes(32).toString('base64url'),
      signName: SIGN,
      content: CONTENT,
    });
    // One code template sending far more than an attack would: the guard still counts every
    // message, at a maximum the run never reaches.
    await database.db
      .insertInto('sms_frequency_limits')
      .values({
        account_id: accountId,
        per_minute: 3,
        per_day: 20,
        template_max: 1_000_000,
        template_guard: 1,
        updated_at: Date.now(),
      })
      .execute();
    const users = new SmsGatewayUsersService({
      database,
      secretBox: box,
      verification: { requireRecentVerification: async () => {} },
    });
    const { secret } = await users.create(
      { accountId },
      { protocol: 'cmpp', name: 'bench1', allowedIps: [], window: 256, perSecond: 10_000 },
    );
    const carriers = new SmsCarriersService(database, box);
    await carriers.save({
      name: 'bench',
      url: `cmpp://127.0.0.1:${carrier.port}?version=3.0&window=64&serviceId=HERALD&srcId=10690001`,
      systemId: '901234',
      password: 'secret',
      perSecond: 20_000,
    });
    await carriers.addRoute({ carrier: 'bench', country: 'CN' });
    // The worker reads carriers every 5 s: let it see this one before the clock starts.
    await new Promise((r) => setTimeout(r, 5500));

    for (let i = 0; i < CONNECTIONS; i += 1) {
      const customer = await CmppCustomer.open(cmppPort);
      const { status } = await customer.login('bench1', secret);
      if (status !== 0) throw new Error(`login refused with status ${status}`);
      customers.push(customer);
    }
    const msgIds = new Set<string>();
    let next = 0;
    let refused = 0;
    let flowControlled = 0;
    const start = performance.now();
    const loop = async (customer: CmppCustomer) => {
      while (next < TOTAL) {
        const n = next++;
        const code = String(100000 + (n % 900000));
        const text = `【${SIGN}】${CONTENT.replace('%code%', code)}`;
        for (;;) {
          const answer = await customer.submit({
            destinations: [`139${String(n).padStart(8, '0')}`],
            content: ucs2(text),
          });
          // Result 8 (flow control): the customer sends it again a moment later, as CMPP clients do.
          if (answer.result === 8) {
            flowControlled += 1;
            await new Promise((r) => setTimeout(r, 10));
            continue;
          }
          if (answer.result === 0) msgIds.add(answer.msgId);
          else refused += 1;
          break;
        }
      }
    };
    await Promise.all(customers.flatMap((c) => Array.from({ length: IN_FLIGHT }, () => loop(c))));
    const acceptSeconds = (performance.now() - start) / 1000;
    const accepted = msgIds.size;
    const relayed = () => {
      let n = 0;
      for (const c of customers)
        for (const d of c.delivered) if (d.report?.stat === 'DELIVRD' && msgIds.has(d.report.msgId)) n += 1;
      return n;
    };
    await carrier.waitForMessages(accepted, 180_000);
    const carrierSeconds = (performance.now() - start) / 1000;
    const until = Date.now() + 180_000;
    while (relayed() < accepted && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const relaySeconds = (performance.now() - start) / 1000;
    const back = relayed();
    await database.close();
    const common = {
      connections: CONNECTIONS,
      inFlight: IN_FLIGHT,
      messages: TOTAL,
      refused,
      flowControlled,
    };
    report({
      bench: 'sms-gateway',
      figure: 'customer CMPP SUBMITs accepted messages/s',
      value: round(accepted / acceptSeconds),
      target: TARGET,
      ratio: round(accepted / acceptSeconds / TARGET, 2),
      ...common,
    });
    report({
      bench: 'sms-gateway',
      figure: 'submitted to the carrier messages/s',
      value: round(carrier.messages.length / carrierSeconds),
      target: TARGET,
      ratio: round(carrier.messages.length / carrierSeconds / TARGET, 2),
      ...common,
    });
    report({
      bench: 'sms-gateway',
      figure: 'customer CMPP → Herald → carrier CMPP, receipts relayed back messages/s',
      value: round(back / relaySeconds),
      target: TARGET,
      ratio: round(back / relaySeconds / TARGET, 2),
      ...common,
    });
    report({
      bench: 'sms-gateway',
      figure: 'receipts relayed back to the customer (%)',
      value: round((back / Math.max(accepted, 1)) * 100, 2),
      relayed: back,
      accepted,
      atCarrier: carrier.messages.length,
      ...common,
    });
  } finally {
    for (const customer of customers) customer.drop();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await carrier.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
