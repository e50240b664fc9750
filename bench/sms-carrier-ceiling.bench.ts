/**
 * The raw ceiling of Herald's carrier connectors, without Herald around them: each loopback peer
 * (the SMPP carrier, the CMPP 3.0 gateway) takes 70-character Chinese submits (one UCS-2 message
 * each) from one connector with many submits in flight, for BENCH_SECONDS (default 10). It prints
 * one JSON line per protocol: submits accepted per second, and the delivery receipts that came
 * back under an id `submit` had returned. The peer and the connector share this one process and
 * its event loop, so the figure is what one connection can carry on this machine at best, not a
 * carrier's limit.
 *
 *   npm run bench -- sms-carrier-ceiling
 *
 * BENCH_CONCURRENCY (default 256) submits are started at once and each is followed by the next;
 * BENCH_WINDOW (default 64) is the connector's window of unanswered submits; no rate limit.
 */
import { startCmppGateway, startSmppCarrier } from '../packages/test-peers/src/index.ts';
import { createLogger } from '../server/src/logger.ts';
import { CmppConnector } from '../server/src/sms/carriers/cmpp.ts';
import { SmppConnector } from '../server/src/sms/carriers/smpp.ts';
import type { DeliveryReceipt, SmsCarrier } from '../server/src/sms/ports.ts';
import { report, round } from './report.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 256);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 64);
const TEXT =
  '【Herald】您的验证码是 482913，五分钟内有效。请勿将验证码告诉他人，如非本人操作请忽略本短信，谢谢！感谢您使用本服务祝您生活愉快';
const logger = createLogger({ level: 'silent', roles: ['worker'] });

if ([...TEXT].length !== 70) throw new Error(`the bench text has ${[...TEXT].length} characters, not 70`);

interface Run {
  accepted: number;
  refused: number;
  seconds: number;
  matched: number;
  unmatched: number;
}

async function blast(open: (onReceipt: (r: DeliveryReceipt) => void) => SmsCarrier): Promise<Run> {
  const issued = new Set<string>();
  let matched = 0;
  let unmatched = 0;
  const early = new Set<string>();
  const warmUp = new Set<string>();
  const carrier = open((receipt) => {
    if (issued.delete(receipt.messageId)) matched += 1;
    else if (!warmUp.has(receipt.messageId)) early.add(receipt.messageId);
  });
  // One submit first, so the connection is up before the clock starts.
  const first = await carrier.submit({ to: '8613800000000', from: '1069001', text: 'warm-up' });
  if (first.kind !== 'accepted') throw new Error(`the warm-up submit was refused: ${first.reason}`);
  for (const id of first.messageIds) warmUp.add(id);
  early.clear();
  let accepted = 0;
  let refused = 0;
  let n = 0;
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  const loop = async () => {
    while (performance.now() < deadline) {
      n += 1;
      const outcome = await carrier.submit({
        to: `86138${String(n % 1e8).padStart(8, '0')}`,
        from: '1069001',
        text: TEXT,
      });
      if (outcome.kind !== 'accepted') {
        refused += 1;
        continue;
      }
      accepted += 1;
      for (const id of outcome.messageIds) {
        // A receipt may beat the submit's own continuation here; it counts once it is known.
        if (early.delete(id)) matched += 1;
        else issued.add(id);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  const seconds = (performance.now() - started) / 1000;
  const settleBy = performance.now() + 5000;
  while (issued.size > 0 && performance.now() < settleBy) await new Promise((r) => setTimeout(r, 50));
  unmatched = early.size;
  await carrier.close();
  return { accepted, refused, seconds, matched, unmatched };
}

function print(protocol: string, run: Run): void {
  report({
    bench: 'sms-carrier-ceiling',
    protocol,
    seconds: round(run.seconds, 2),
    accepted: run.accepted,
    refused: run.refused,
    messagesPerSecond: round(run.accepted / run.seconds, 0),
    receiptsMatched: run.matched,
    receiptsMissing: run.accepted - run.matched,
    receiptsUnmatched: run.unmatched,
    window: WINDOW,
    concurrency: CONCURRENCY,
  });
}

const smppPeer = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 5 });
try {
  const run = await blast(
    (onReceipt) =>
      new SmppConnector({
        url: `smpp://127.0.0.1:${smppPeer.port}`,
        systemId: 'herald',
        password: 'secret',
        logger,
        onReceipt,
        windowSize: WINDOW,
      }),
  );
  print('smpp', run);
} finally {
  await smppPeer.close();
}

const cmppPeer = await startCmppGateway({
  version: '3.0',
  accounts: { '901234': 'secret' },
  receiptDelayMs: 5,
});
try {
  const run = await blast(
    (onReceipt) =>
      new CmppConnector({
        url: `cmpp://127.0.0.1:${cmppPeer.port}`,
        version: '3.0',
        spId: '901234',
        secret: 'secret',
        srcId: '1069001',
        logger,
        onReceipt,
        windowSize: WINDOW,
      }),
  );
  print('cmpp-3.0', run);
} finally {
  await cmppPeer.close();
}
