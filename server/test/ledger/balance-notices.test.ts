import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { testDialect } from '../helpers/database.ts';
import { createOwner } from '../helpers/members.ts';

/**
 * Low-balance notices (issue 18): a paid account's owner is mailed once when the balance falls
 * under 50 yuan and once more when it runs out; a small top-up that leaves it low mails nothing;
 * a recharge above the line clears it, so the next fall is noticed again. Free accounts are not
 * noticed.
 */
describe(`low-balance notices on ${testDialect}`, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t?.close());

  const mailsTo = async (email: string) =>
    t.core.database.db
      .selectFrom('system_messages')
      .select(['subject', 'body'])
      .where('recipient', '=', email)
      .orderBy('id')
      .execute();
  const notice = async () => {
    await t.core.ledger.noticeLowBalances();
    await t.core.siteMessages.notifyPending();
  };
  const move = (accountId: number, yuan: number) =>
    t.core.ledger.adjust(null, accountId, { amountFen: yuan * 100, reason: 'test' });

  it('mails once per crossing: low, then run out, then again after a recharge', async () => {
    const owner = await createOwner(t, 'notice_owner');
    const email = 'notice_owner@example.com';
    const { accountId } = owner.ctx;
    await t.core.recharges.recordOffline(null, accountId, {
      amount: '100',
      remitter: 'Notice Co.',
      bankRef: 'NOTICE-1',
    });
    await notice();
    assert.equal((await mailsTo(email)).length, 0, 'no notice above the line');

    await move(accountId, -60);
    await notice();
    await notice();
    let mails = await mailsTo(email);
    assert.equal(mails.length, 1, 'one notice for one crossing');
    assert.equal(mails[0]?.subject, '余额不足提醒 / Your balance is low');
    assert.match(mails[0]?.body ?? '', /余额为 40\.00 元，已低于 50\.00 元/);
    assert.match(mails[0]?.body ?? '', /Your balance is 40\.00 yuan, below 50\.00 yuan/);
    assert.match(mails[0]?.body ?? '', /\/accountSetting\/financialMangement\/charge/);

    await move(accountId, -40);
    await notice();
    mails = await mailsTo(email);
    assert.equal(mails.length, 2);
    assert.equal(mails[1]?.subject, '余额已用完，发送已暂停 / Your balance has run out');

    await move(accountId, 10);
    await notice();
    assert.equal((await mailsTo(email)).length, 2, 'still low after a small top-up: no new mail');

    await move(accountId, 100);
    await notice();
    await move(accountId, -70);
    await notice();
    mails = await mailsTo(email);
    assert.equal(mails.length, 3, 'noticed again after recovering');
    assert.match(mails[2]?.body ?? '', /余额为 40\.00 元/);
  });

  it('leaves free accounts alone', async () => {
    const owner = await createOwner(t, 'notice_free');
    await move(owner.ctx.accountId, 10);
    await notice();
    assert.equal((await mailsTo('notice_free@example.com')).length, 0);
  });
});
