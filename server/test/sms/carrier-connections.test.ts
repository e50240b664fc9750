import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { smsCarrierUrlProblem } from '@herald/shared';
import { type CmppGateway, startCmppGateway, startSmppCarrier } from '@herald/test-peers';
import { createLogger } from '../../src/logger.ts';
import { carrierOpener } from '../../src/sms/carriers/open-carrier.ts';
import type { DeliveryReceipt, SmsCarrier, SubmitOutcome } from '../../src/sms/ports.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * `connections=N` in a carrier URL: N logged-in connections under one account, submits spread
 * over them, receipts matched whichever connection brings them, and each connection reconnecting
 * on its own while the others carry on. Against the loopback CMPP gateway and SMPP carrier.
 */
const logger = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent', roles: ['worker'] });

const submitMany = (carrier: SmsCarrier, count: number, tag: string): Promise<SubmitOutcome[]> =>
  Promise.all(
    Array.from({ length: count }, (_, i) =>
      carrier.submit({ to: `86138${String(i).padStart(8, '0')}`, from: '1069001', text: `${tag} ${i}` }),
    ),
  );

const acceptedIds = (outcomes: SubmitOutcome[]): string[] =>
  outcomes.flatMap((o) => {
    assert.equal(o.kind, 'accepted', JSON.stringify(o));
    return o.kind === 'accepted' ? o.messageIds : [];
  });

/** How many of the gateway's accepted submits came on each connection, by connection number. */
const perConnection = (gateway: CmppGateway, from = 0): Map<number, number> => {
  const counts = new Map<number, number>();
  for (const m of gateway.messages.slice(from)) counts.set(m.connection, (counts.get(m.connection) ?? 0) + 1);
  return counts;
};

describe('a CMPP carrier with connections=3', () => {
  let gateway: CmppGateway;
  let carrier: SmsCarrier | undefined;
  const receipts: DeliveryReceipt[] = [];

  const open = (query: string) => {
    const url = `cmpp://127.0.0.1:${gateway.port}?version=3.0&serviceId=HERALD&srcId=1069001&${query}`;
    carrier = carrierOpener({ url, systemId: '901234', password: 'secret' }, logger)((r) => receipts.push(r));
    return carrier;
  };
  /** Starts every connection with one submit and waits until all `count` are logged in. */
  const warmUp = async (opened: SmsCarrier, count: number) => {
    acceptedIds(await submitMany(opened, 1, 'warm-up'));
    await waitFor(`${count} logged-in connections`, () => gateway.loggedIn.length === count);
  };

  before(async () => {
    gateway = await startCmppGateway({
      version: '3.0',
      accounts: { '901234': 'secret' },
      receiptDelayMs: 5,
      // Answers take a moment, so submits are under way at once and have to be spread.
      responseDelayMs: 5,
      reportsOn: 'another',
    });
  });
  after(() => gateway.close());
  beforeEach(() => {
    gateway.clear();
    receipts.length = 0;
  });
  afterEach(async () => {
    await carrier?.close();
    carrier = undefined;
    await waitFor('every connection closed', () => gateway.sessions === 0);
  });

  it('logs in three times, spreads the submits, and matches every report from another connection', async () => {
    const cmpp = open('connections=3&window=4');
    await warmUp(cmpp, 3);
    assert.deepEqual(
      gateway.logins.map((l) => [l.spId, l.status]),
      [
        ['901234', 0],
        ['901234', 0],
        ['901234', 0],
      ],
      'three authenticated logins, no more',
    );

    const ids = acceptedIds(await submitMany(cmpp, 90, 'burst'));
    const spread = perConnection(gateway, 1);
    assert.deepEqual([...spread.keys()].sort(), [...gateway.loggedIn].sort());
    for (const [connection, count] of spread)
      assert.ok(
        count >= 20,
        `connection ${connection} carried ${count} of 90: ${JSON.stringify([...spread])}`,
      );

    await waitFor('a report for every part', () => receipts.length === 91);
    const submittedOn = new Map(gateway.messages.map((m) => [m.msgId, m.connection]));
    for (const report of gateway.reports)
      assert.notEqual(
        report.connection,
        submittedOn.get(report.msgId),
        'the report came on another connection',
      );
    const reported = new Set(receipts.map((r) => r.messageId));
    for (const id of ids) assert.ok(reported.has(id), `no report matched ${id}`);
    assert.ok(receipts.every((r) => r.delivered && submittedOn.has(r.messageId)));
  });

  it('reconnects a killed connection while the others keep submitting', async () => {
    const cmpp = open('connections=3&window=4');
    await warmUp(cmpp, 3);
    const [killed, ...others] = gateway.loggedIn as [number, ...number[]];
    gateway.drop(killed);
    await waitFor('the drop seen', () => gateway.loggedIn.length === 2);

    const before = gateway.messages.length;
    acceptedIds(await submitMany(cmpp, 40, 'during'));
    assert.deepEqual(
      [...perConnection(gateway, before).keys()].sort(),
      [...others].sort(),
      'the two live connections took every submit while the third was away',
    );

    await waitFor('the third connection back', () => gateway.loggedIn.length === 3, { timeoutMs: 5000 });
    const [reborn] = gateway.loggedIn.filter((c) => !others.includes(c));
    assert.ok(reborn !== undefined && reborn > killed, 'a new connection, logged in anew');
    assert.equal(gateway.logins.filter((l) => l.status === 0).length, 4);

    const again = gateway.messages.length;
    acceptedIds(await submitMany(cmpp, 30, 'after'));
    assert.ok((perConnection(gateway, again).get(reborn) ?? 0) > 0, 'the new connection takes submits again');
    await waitFor('every report', () => receipts.length === gateway.messages.length);
  });

  it('retries a connection the gateway refuses while the allowed ones carry the traffic', async () => {
    const limited = await startCmppGateway({
      version: '3.0',
      accounts: { '901234': 'secret' },
      receiptDelayMs: 5,
      maxConnections: 2,
    });
    const url = `cmpp://127.0.0.1:${limited.port}?connections=3`;
    const cmpp = carrierOpener(
      { url, systemId: '901234', password: 'secret' },
      logger,
    )((r) => receipts.push(r));
    try {
      acceptedIds(await submitMany(cmpp, 30, 'limited'));
      assert.equal(limited.sessions, 2);
      await waitFor('the refused connection tried again', () =>
        limited.logins.filter((l) => l.status === 5).length >= 2 ? true : undefined,
      );
      assert.equal(limited.sessions, 2, 'never more than the gateway allows');
      await waitFor('every report', () => receipts.length === 30);
    } finally {
      await cmpp.close();
      await limited.close();
    }
  });
});

describe('an SMPP carrier with connections=2', () => {
  it('binds twice and matches every receipt, whatever notation the carrier writes it in', async () => {
    const smsc = await startSmppCarrier({
      accounts: { herald: 'secret' },
      receiptDelayMs: 5,
      responseDelayMs: 5,
      ids: { response: 'hex', receipt: 'decimal', receiptedMessageId: 'none' },
    });
    const receipts: DeliveryReceipt[] = [];
    const url = `smpp://127.0.0.1:${smsc.port}?connections=2&window=4`;
    const smpp = carrierOpener(
      { url, systemId: 'herald', password: 'secret' },
      logger,
    )((r) => receipts.push(r));
    try {
      acceptedIds(await submitMany(smpp, 1, 'warm-up'));
      await waitFor('two bound sessions', () => smsc.sessions === 2);
      const ids = acceptedIds(await submitMany(smpp, 40, 'burst'));
      await waitFor('every receipt', () => receipts.length === 41);
      const reported = new Set(receipts.map((r) => r.messageId));
      for (const id of ids) assert.ok(reported.has(id), `no receipt matched ${id}`);
    } finally {
      await smpp.close();
      await smsc.close();
    }
  });
});

describe('the connections setting', () => {
  it('takes 1 to 16, and turns anything else away before a connection opens', () => {
    for (const bad of ['0', '17', '2.5', 'x', ''])
      assert.equal(smsCarrierUrlProblem(`cmpp://gw.example.com:7890?connections=${bad}`), 'connections');
    assert.equal(smsCarrierUrlProblem('smpp://smsc.example.com:2775?connections=16'), null);
    assert.throws(
      () =>
        carrierOpener({ url: 'cmpp://127.0.0.1:7890?connections=0', systemId: 'x', password: 'y' }, logger),
      /connections must be 1 to 16, not 0/,
    );
  });
});
