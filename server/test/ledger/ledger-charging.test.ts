import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { statDay, statDayStart } from '@herald/shared';
import { chargeMailEvents, MAIL_CHARGING_CURSOR } from '../../src/core/ledger/charging.ts';
import { postEntry } from '../../src/core/ledger/ledger.repo.ts';
import { LedgerService } from '../../src/core/ledger/ledger.service.ts';
import { MailEventsService } from '../../src/core/mail-events/mail-events.service.ts';
import type { Database } from '../../src/db/database.ts';
import { createAccount } from '../fixtures/factory.ts';
import { createTestDatabase, type TestDatabase, testDialect } from '../helpers/database.ts';

/**
 * The ledger's invariants and charging by result, on the backend the run uses (SQLite, or
 * PostgreSQL with TEST_DATABASE_URL): several connections post and charge at once, and every
 * account's balance equals the sum of its entries; a batch killed mid-way is charged once when
 * the consumer runs again from its cursor; a day's email is charged its exact amount rounded up
 * to the fen, and SMS per part at its price class.
 */
const DAY = 86_400_000;

describe('ledger and charging', () => {
  let testDb: TestDatabase;
  let handles: Database[];
  let db: Database;

  before(async () => {
    testDb = await createTestDatabase();
    // PostgreSQL: four pools race for real. SQLite: better-sqlite3 waits for a lock synchronously,
    // so handles in one process would block each other's event loop; one handle's transactions
    // interleave instead (other processes are what busy_timeout and BEGIN IMMEDIATE are for).
    handles = Array.from({ length: testDialect === 'postgres' ? 4 : 1 }, () => testDb.open());
    db = handles[0] as Database;
  });
  after(async () => {
    for (const h of handles) await h.close();
    await testDb.drop();
  });

  const sums = async (accountId: number) => {
    const entries = await db.db
      .selectFrom('ledger_entries')
      .select((eb) => [eb.fn.sum<number>('amount_fen').as('sum'), eb.fn.countAll<number>().as('n')])
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    const balance = await new LedgerService(db).balance({ accountId });
    return { sum: Number(entries.sum ?? 0), n: Number(entries.n), balance };
  };

  const mailEvents = async (accountId: number, kinds: [string, number | null][], at: number) => {
    const rows = kinds.map(([kind, subStatus], i) => ({
      account_id: accountId,
      kind: kind as 'deliver',
      at,
      message_id: 1,
      recipient_id: i + 1,
      email_id: `e${i}`,
      recipient: `r${i}@example.org`,
      recipient_domain: 'example.org',
      api_user_id: null,
      label_id: null,
      sub_status: subStatus,
      reason: null,
      latency_ms: null,
      data: null,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await db.db
        .insertInto('mail_events')
        .values(rows.slice(i, i + 500))
        .execute();
    }
  };
  const credit = (accountId: number) =>
    new LedgerService(db).adjust(null, accountId, { amountFen: 10_000, reason: 'test credit' });
  const drain = async (ledger: LedgerService, limit: number) => {
    while ((await ledger.chargeMail(limit)) > 0) {}
  };

  it('keeps every balance equal to the sum of its entries under concurrent posts', async () => {
    const accounts = [await createAccount(db), await createAccount(db), await createAccount(db)];
    // Every fifth post repeats the one before it (same key and content): it must change nothing.
    const posts = Array.from({ length: 240 }, (_, i) => {
      const j = i % 5 === 4 ? i - 1 : i;
      return {
        accountId: accounts[j % 3] as number,
        key: `concurrent:${j}`,
        amountFen: -(j % 7) - 1,
        kind: 'charge' as const,
      };
    });
    const credits = accounts.map((accountId) => ({
      accountId,
      key: `credit:${accountId}`,
      amountFen: 10_000,
      kind: 'recharge' as const,
    }));
    await Promise.all(
      [...credits, ...posts].map((p, i) =>
        (handles[i % handles.length] as Database).db.transaction().execute((trx) =>
          postEntry(trx, {
            accountId: p.accountId,
            kind: p.kind,
            amountFen: p.amountFen,
            reason: 'test',
            idempotencyKey: p.key,
            at: Date.now(),
          }),
        ),
      ),
    );
    const distinct = new Map(posts.map((p) => [p.key, p]));
    for (const accountId of accounts) {
      const { sum, n, balance } = await sums(accountId);
      const expected =
        10_000 +
        [...distinct.values()].filter((p) => p.accountId === accountId).reduce((s, p) => s + p.amountFen, 0);
      assert.equal(balance, sum, 'the balance is the sum of the entries');
      assert.equal(sum, expected);
      assert.equal(n, 1 + [...distinct.values()].filter((p) => p.accountId === accountId).length);
    }
    assert.equal(await new LedgerService(db).drift(), 0);
    await assert.rejects(
      db.db.transaction().execute((trx) =>
        postEntry(trx, {
          accountId: accounts[0] as number,
          kind: 'charge',
          amountFen: -999,
          reason: 'x',
          idempotencyKey: 'concurrent:0',
          at: 1,
        }),
      ),
      (e: { code?: string }) => e.code === 'LEDGER_KEY_CONFLICT',
      'a key reused for a different amount is refused',
    );
    await assert.rejects(
      db.db
        .updateTable('ledger_entries')
        .set({ amount_fen: 0 })
        .where('idempotency_key', '=', 'concurrent:0')
        .execute(),
      /immutable/,
    );
    await assert.rejects(
      db.db.deleteFrom('ledger_entries').where('idempotency_key', '=', 'concurrent:0').execute(),
      /immutable/,
    );
  });

  it('charges a day’s mail outcomes once, rounded up per thousand, across a crash and concurrent consumers', async () => {
    const paid = await createAccount(db, { plan: 'paid' });
    const free = await createAccount(db, { plan: 'free' });
    const untracked = await createAccount(db, { plan: 'paid' });
    await credit(paid);
    const day1 = statDayStart(statDay(Date.now())) - DAY + 3_600_000;
    const billable: [string, number | null][] = [];
    for (let i = 0; i < 1234; i++) {
      billable.push(i % 3 === 0 ? ['soft_bounce', 503] : i % 3 === 1 ? ['invalid', 406] : ['deliver', null]);
    }
    const notBilled: [string, number | null][] = [
      ['request', null],
      ['open', null],
      ['invalid', 401],
      ['invalid', 402],
      ['click', null],
    ];
    await mailEvents(paid, [...billable.slice(0, 700), ...notBilled], day1);
    await mailEvents(free, billable.slice(0, 50), day1);
    await mailEvents(untracked, billable.slice(0, 50), day1);
    const ledger = new LedgerService(db);
    assert.equal(await ledger.chargeMail(300), 300, 'a first batch commits');

    // A worker killed after charging a batch but before its commit: nothing of it stays.
    const log = new MailEventsService(db);
    await assert.rejects(
      log.consume(MAIL_CHARGING_CURSOR, 400, async (events, trx) => {
        await chargeMailEvents(trx, events, Date.now());
        throw new Error('SIGKILL');
      }),
      /SIGKILL/,
    );
    await mailEvents(paid, billable.slice(700), day1);
    await mailEvents(paid, billable.slice(0, 5), day1 + DAY);
    // Several workers resume at once; the cursor row lets one batch through at a time.
    await Promise.all(handles.map((h) => drain(new LedgerService(h), 137)));

    // 1,234 mails at 100 fen per 1,000 is 123.4 fen, charged as 124; the next day's 5 as 1.
    const { sum, balance } = await sums(paid);
    assert.equal(balance, sum);
    assert.equal(balance, 10_000 - 125);
    assert.deepEqual(await sums(free), { sum: 0, n: 0, balance: 0 }, 'the free plan is not charged');
    assert.deepEqual(
      await sums(untracked),
      { sum: 0, n: 0, balance: 0 },
      'a paid account with no money on the ledger is arranged offline: not charged',
    );
    const accruals = await db.db
      .selectFrom('charge_accruals')
      .select(['day', 'units', 'charged_fen'])
      .where('account_id', '=', paid)
      .orderBy('day')
      .execute();
    assert.deepEqual(
      accruals.map((a) => [a.day, Number(a.units), Number(a.charged_fen)]),
      [
        [statDay(day1), 1234, 124],
        [statDay(day1 + DAY), 5, 1],
      ],
    );
  });

  it('charges traffic over 200 KB per delivered mail by the started megabyte', async () => {
    const paid = await createAccount(db, { plan: 'paid' });
    await credit(paid);
    const message = async (sizeBytes: number) =>
      Number(
        (
          await db.db
            .insertInto('messages')
            .values({
              account_id: paid,
              api_user_id: null,
              message_id: `traffic-${sizeBytes}`,
              source: 'api',
              email_type: 'trigger',
              from_address: 'a@example.org',
              from_name: null,
              reply_to: null,
              subject: 'traffic',
              content_summary: null,
              label_id: null,
              template_id: null,
              headers: null,
              xsmtpapi: null,
              recipient_count: 1,
              size_bytes: sizeBytes,
              created_at: Date.now(),
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    // 200 KB: free. 200 KB + 1 byte: 1 MB. 5.5 MB: 6 MB (5.5 MB − 200 KB started). Soft bounce: no traffic.
    const sizes = [200 * 1024, 200 * 1024 + 1, Math.round(5.5 * 1024 * 1024)];
    const ids = await Promise.all(sizes.map(message));
    const at = statDayStart(statDay(Date.now())) + 3_600_000;
    const rows = [
      ...ids.map((id, i) => ({ id, kind: 'deliver', n: i })),
      { id: ids[2] as number, kind: 'soft_bounce', n: 9 },
    ].map(({ id, kind, n }) => ({
      account_id: paid,
      kind: kind as 'deliver',
      at,
      message_id: id,
      recipient_id: 1000 + n,
      email_id: `t${n}`,
      recipient: `t${n}@example.org`,
      recipient_domain: 'example.org',
      api_user_id: null,
      label_id: null,
      sub_status: kind === 'soft_bounce' ? 503 : null,
      reason: null,
      latency_ms: null,
      data: null,
    }));
    await db.db.insertInto('mail_events').values(rows).execute();
    await drain(new LedgerService(db), 1000);
    const traffic = await db.db
      .selectFrom('charge_accruals')
      .select(['units', 'accrued_millifen', 'charged_fen'])
      .where('account_id', '=', paid)
      .where('price_code', '=', 'email_traffic')
      .executeTakeFirstOrThrow();
    // 7 MB at 0.002 yuan (0.2 fen) each: 1.4 fen, charged as 2.
    assert.deepEqual(
      [Number(traffic.units), Number(traffic.accrued_millifen), Number(traffic.charged_fen)],
      [7, 1400, 2],
    );
    const { sum, balance } = await sums(paid);
    assert.equal(balance, sum);
  });

  it('charges SMS receipts per part by price class, delivered ones only', async () => {
    const paid = await createAccount(db, { plan: 'paid' });
    await credit(paid);
    const now = Date.now();
    await db.db
      .insertInto('sms_country_prices')
      .values({ country: 'SG', price_milli: 45, sender_rule: 'any', sender_id: null, updated_at: now })
      .execute();
    const sms = async (priceClass: string, country: string, parts: number) => {
      const row = await db.db
        .insertInto('sms_messages')
        .values({
          sms_id: `${priceClass}-${parts}-${Math.random()}`,
          account_id: paid,
          sms_user_id: null,
          template_id: null,
          label_id: null,
          msg_type: priceClass === 'international' ? 2 : 0,
          phone: '+8613800138000',
          country,
          price_class: priceClass,
          parts,
          content: 'x',
          tag: null,
          source: 'api',
          status: 'delivered',
          status_code: 200,
          reason: null,
          carrier_id: null,
          due_at: now,
          lease_owner: null,
          lease_until: null,
          requested_at: now,
          submitted_at: now,
          done_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    };
    const event = (id: number, kind: 'deliver' | 'delivererror') =>
      db.db
        .insertInto('sms_events')
        .values({
          account_id: paid,
          sms_message_id: id,
          kind,
          status_code: kind === 'deliver' ? 200 : 500,
          message: null,
          at: now,
        })
        .execute();
    await event(await sms('domestic', 'CN', 2), 'deliver'); // 2 parts × 4 fen
    await event(await sms('domestic', 'CN', 1), 'delivererror'); // not delivered: free
    await event(await sms('international', 'SG', 3), 'deliver'); // 3 × 4.5 fen = 13.5
    await event(await sms('voice', 'CN', 1), 'deliver'); // 10 fen
    const ledger = new LedgerService(db);
    while ((await ledger.chargeSms(2)) > 0) {}
    const { sum, balance } = await sums(paid);
    assert.equal(balance, sum);
    // Domestic 8 + international ceil(13.5) = 14 + voice 10.
    assert.equal(balance, 10_000 - 32);
  });
});
