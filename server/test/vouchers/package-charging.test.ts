import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { statDay } from '@herald/shared';
import { chargeMailEvents, MAIL_CHARGING_CURSOR } from '../../src/core/ledger/charging.ts';
import { LedgerService } from '../../src/core/ledger/ledger.service.ts';
import { MailEventsService } from '../../src/core/mail-events/mail-events.service.ts';
import { BenefitPackagesService } from '../../src/core/vouchers/packages.service.ts';
import type { Database } from '../../src/db/database.ts';
import { createAccount } from '../fixtures/factory.ts';
import { createTestDatabase, type TestDatabase, testDialect } from '../helpers/database.ts';

/**
 * Benefit packages are consumed before the balance (issue 18), on the backend the run uses:
 * a package of 1,000 emails covers the first 1,000 delivered and the 1,001st is charged; an
 * expired package covers nothing; a charging batch killed before its commit draws nothing, and
 * the consumers that resume (several at once on PostgreSQL) draw each outcome once.
 */
describe(`benefit packages in charging on ${testDialect}`, () => {
  let testDb: TestDatabase;
  let handles: Database[];
  let db: Database;

  before(async () => {
    testDb = await createTestDatabase();
    handles = Array.from({ length: testDialect === 'postgres' ? 4 : 1 }, () => testDb.open());
    db = handles[0] as Database;
    // One fen a mail, so every uncovered mail shows in the balance.
    await new LedgerService(db).setPrice('email', { unit: 1000, fen: 1000 });
  });
  after(async () => {
    for (const h of handles) await h.close();
    await testDb.drop();
  });

  const delivered = async (accountId: number, count: number, at: number) => {
    const rows = Array.from({ length: count }, (_, i) => ({
      account_id: accountId,
      kind: 'deliver' as const,
      at,
      message_id: 1,
      recipient_id: i + 1,
      email_id: `e${i}`,
      recipient: `r${i}@example.org`,
      recipient_domain: 'example.org',
      api_user_id: null,
      label_id: null,
      sub_status: null,
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
  const funded = async () => {
    const accountId = await createAccount(db, { plan: 'paid' });
    await new LedgerService(db).adjust(null, accountId, { amountFen: 10_000, reason: 'test credit' });
    return accountId;
  };
  const drain = async (ledger: LedgerService, limit: number) => {
    while ((await ledger.chargeMail(limit)) > 0) {}
  };
  const packageRow = (id: number) =>
    db.db
      .selectFrom('benefit_packages')
      .select(['used', 'status'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const usage = (id: number) =>
    db.db.selectFrom('package_usage').select(['day', 'units']).where('package_id', '=', id).execute();

  it('covers the first 1,000 emails with a package of 1,000 and charges the 1,001st', async () => {
    const accountId = await funded();
    const granted = await new BenefitPackagesService(db).grant(null, {
      accountId,
      type: 'email',
      quota: 1000,
      months: 3,
    });
    const at = Date.now();
    await delivered(accountId, 1000, at);
    const ledger = new LedgerService(db);
    await drain(ledger, 300);
    assert.equal(await ledger.balance({ accountId }), 10_000, 'the package paid for 1,000');
    await delivered(accountId, 1, at);
    await drain(ledger, 300);
    assert.equal(await ledger.balance({ accountId }), 9_999, 'the 1,001st is charged one fen');

    const row = await packageRow(granted.id);
    assert.deepEqual([Number(row.used), row.status], [1000, 'exhausted']);
    assert.deepEqual(
      (await usage(granted.id)).map((u) => [u.day, Number(u.units)]),
      [[statDay(at), 1000]],
    );
    const [view] = await new BenefitPackagesService(db).list({ accountId });
    assert.equal(view?.used, 1000);
    assert.equal(view?.status, 'exhausted');
  });

  it('does not use an expired package, nor another account’s or another item’s', async () => {
    const accountId = await funded();
    const other = await funded();
    const packages = new BenefitPackagesService(db);
    const expired = await packages.grant(null, { accountId, type: 'email', quota: 1000 });
    await db.db
      .updateTable('benefit_packages')
      .set({ expires_at: Date.now() - 1000 })
      .where('id', '=', expired.id)
      .execute();
    const sms = await packages.grant(null, { accountId, type: 'sms_domestic', quota: 1000 });
    const others = await packages.grant(null, { accountId: other, type: 'email', quota: 1000 });
    await delivered(accountId, 20, Date.now());
    await drain(new LedgerService(db), 100);
    assert.equal(await new LedgerService(db).balance({ accountId }), 10_000 - 20);
    for (const id of [expired.id, sms.id, others.id]) assert.equal(Number((await packageRow(id)).used), 0);
    assert.equal((await packages.list({ accountId })).find((p) => p.id === expired.id)?.status, 'expired');
    assert.equal(await packages.expireDue(), 1, 'the expiry task marks it');
    assert.equal((await packageRow(expired.id)).status, 'expired');
  });

  it('draws once across a killed batch and consumers resuming at once', async () => {
    const accountId = await funded();
    const granted = await new BenefitPackagesService(db).grant(null, {
      accountId,
      type: 'email',
      quota: 1000,
    });
    const at = Date.now();
    await delivered(accountId, 600, at);
    // A worker killed after drawing and charging a batch but before its commit: nothing stays.
    await assert.rejects(
      new MailEventsService(db).consume(MAIL_CHARGING_CURSOR, 1000, async (events, trx) => {
        await chargeMailEvents(trx, events, Date.now());
        throw new Error('SIGKILL');
      }),
      /SIGKILL/,
    );
    assert.equal(Number((await packageRow(granted.id)).used), 0, 'the killed draw rolled back');
    await delivered(accountId, 500, at);
    await Promise.all(handles.map((h) => drain(new LedgerService(h), 137)));

    const row = await packageRow(granted.id);
    assert.equal(Number(row.used), 1000);
    assert.equal(
      await new LedgerService(db).balance({ accountId }),
      10_000 - 100,
      '100 mails past the quota',
    );
    assert.deepEqual(
      (await usage(granted.id)).map((u) => Number(u.units)),
      [1000],
    );
    assert.equal(await new LedgerService(db).drift(), 0);
  });
});
