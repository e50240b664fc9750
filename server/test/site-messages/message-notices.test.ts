import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NOTICE_SMS_MONTHLY_LIMIT } from '@herald/shared';
import { type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import { postSiteMessage } from '../../src/core/site-messages/site-messages.service.ts';
import { startWorkers, type Workers } from '../../src/worker/start-workers.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { testDialect } from '../helpers/database.ts';
import { createOwner, type SignedIn } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { api } from '../templates/template-helpers.ts';

/**
 * Message settings and notices: per category, mail (on by default, to the owner unless notifiers
 * are named) and SMS (paid accounts, at least one phone, at most 20 a month, each charged at the
 * sms_notification price); the SMS reaches the loopback SMPP carrier. Every rule answers in the
 * caller's language.
 */
describe(`message notices on ${testDialect}`, () => {
  let t: TestApp;
  let carrier: SmppCarrier;
  let workers: Workers;
  let call: ReturnType<typeof api>;
  let owner: SignedIn;

  before(async () => {
    carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 20 });
    t = await buildTestApp({
      env: {
        HERALD_SMPP_URL: `smpp://127.0.0.1:${carrier.port}`,
        HERALD_SMPP_SYSTEM_ID: 'herald',
        HERALD_SMPP_PASSWORD: 'secret',
      },
    });
    workers = await startWorkers(t.core);
    call = api(t);
    owner = await createOwner(t, 'notice_setter');
  });
  after(async () => {
    await workers?.close(1000);
    await t?.close();
    await carrier?.close();
  });

  const mailsTo = (email: string) =>
    t.core.database.db
      .selectFrom('system_messages')
      .select(['subject', 'body'])
      .where('channel', '=', 'email')
      .where('recipient', '=', email)
      .orderBy('id')
      .execute();
  const settings = async (lang = 'en') => {
    const res = await call('GET', '/v3/api/messageSettings', owner, undefined, lang);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };
  const review = (name: string) =>
    postSiteMessage(t.core.database, owner.ctx.accountId, 'template_passed', { name });

  it('mails a new message to the owner by default, in both languages, with the link', async () => {
    const view = await settings();
    assert.deepEqual(view.settings, [
      { category: 'review', site: true, email: true, sms: false },
      { category: 'balance', site: true, email: true, sms: false },
    ]);
    assert.equal(view.ownerEmail, 'notice_setter@example.com');
    assert.equal(view.smsPriceFen, 6);
    await review('first_tpl');
    await t.core.siteMessages.notifyPending();
    await t.core.siteMessages.notifyPending();
    const mails = await mailsTo('notice_setter@example.com');
    assert.equal(mails.length, 1, 'once, however often the task runs');
    assert.equal(mails[0]?.subject, '邮件模板审核通过 / Email template approved');
    assert.match(mails[0]?.body ?? '', /邮件模板「first_tpl」已审核通过/);
    assert.match(mails[0]?.body ?? '', /The email template "first_tpl" passed review/);
    assert.match(mails[0]?.body ?? '', /\/sendRelative\/template/);
  });

  it('mails the notifiers instead of the owner, and nothing when mail is off', async () => {
    const added = await call('POST', '/v3/api/messageSettings/notifiers', owner, {
      kind: 'email',
      address: 'Ops@Example.com',
    });
    assert.equal(added.statusCode, 201, added.body);
    assert.deepEqual(
      added.json().data.notifiers.map((n: { kind: string; address: string }) => [n.kind, n.address]),
      [['email', 'ops@example.com']],
    );
    await review('second_tpl');
    await t.core.siteMessages.notifyPending();
    assert.equal((await mailsTo('ops@example.com')).length, 1);
    assert.equal((await mailsTo('notice_setter@example.com')).length, 1, 'the owner gets no more');

    const off = await call('POST', '/v3/api/messageSettings', owner, {
      category: 'review',
      email: false,
      sms: false,
    });
    assert.equal(off.statusCode, 200, off.body);
    await review('third_tpl');
    await t.core.siteMessages.notifyPending();
    assert.equal((await mailsTo('ops@example.com')).length, 1, 'mail is off for reviews');
    assert.equal((await settings()).settings[1].email, true, 'the balance category keeps its own setting');
  });

  it('checks notifiers: format, duplicates, at most 3 of each kind, another account’s id', async () => {
    for (const [lang, body, message] of [
      ['en', { kind: 'phone', address: '12345' }, 'Enter an 11-digit mainland China mobile number'],
      ['zh-cn', { kind: 'phone', address: '12345' }, '请输入11位中国大陆手机号'],
      ['en', { kind: 'email', address: 'not-an-address' }, 'Invalid email format'],
      ['zh-cn', { kind: 'fax', address: '1' }, '请选择邮箱或手机号'],
    ] as const) {
      const res = await call('POST', '/v3/api/messageSettings/notifiers', owner, body, lang);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().fields?.[0]?.message ?? res.json().message, message);
    }
    const twice = await call('POST', '/v3/api/messageSettings/notifiers', owner, {
      kind: 'email',
      address: 'ops@example.com',
    });
    assert.deepEqual(
      [twice.statusCode, twice.json().message],
      [409, 'ops@example.com is already a notifier'],
    );
    for (const address of ['b@example.com', 'c@example.com']) {
      await call('POST', '/v3/api/messageSettings/notifiers', owner, { kind: 'email', address });
    }
    const fourth = await call(
      'POST',
      '/v3/api/messageSettings/notifiers',
      owner,
      { kind: 'email', address: 'd@example.com' },
      'zh-cn',
    );
    assert.deepEqual([fourth.statusCode, fourth.json().message], [400, '最多设置3个通知邮箱和3个通知手机号']);

    const other = await createOwner(t, 'notice_other');
    const mine = (await settings()).notifiers[0].id as number;
    const foreign = await call('DELETE', `/v3/api/messageSettings/notifiers/${mine}`, other);
    assert.equal(foreign.statusCode, 404);
    assert.equal((await settings()).notifiers.length, 3);
  });

  it('texts paid accounts only, needs a phone, charges each SMS, and stops at the monthly limit', async () => {
    const free = await call(
      'POST',
      '/v3/api/messageSettings',
      owner,
      { category: 'review', email: false, sms: true },
      'zh-cn',
    );
    assert.deepEqual(
      [free.statusCode, free.json().message],
      [403, '该功能仅对付费用户开放：免费用户不能开启短信通知'],
    );

    const { accountId } = owner.ctx;
    await t.core.recharges.recordOffline(null, accountId, {
      amount: '100',
      remitter: 'Notice Co.',
      bankRef: 'NOTICE-SMS',
    });
    const noPhone = await call('POST', '/v3/api/messageSettings', owner, {
      category: 'review',
      email: false,
      sms: true,
    });
    assert.deepEqual(
      [noPhone.statusCode, noPhone.json().message],
      [400, 'At least one notification member: SMS notices need at least one notification phone'],
    );
    const phone = await call('POST', '/v3/api/messageSettings/notifiers', owner, {
      kind: 'phone',
      address: '13800138000',
    });
    assert.equal(phone.statusCode, 201, phone.body);
    const on = await call('POST', '/v3/api/messageSettings', owner, {
      category: 'review',
      email: false,
      sms: true,
    });
    assert.equal(on.statusCode, 200, on.body);
    const phoneId = on.json().data.notifiers.find((n: { kind: string }) => n.kind === 'phone').id;
    const last = await call('DELETE', `/v3/api/messageSettings/notifiers/${phoneId}`, owner);
    assert.equal(last.statusCode, 400, 'the last phone stays while SMS is on');

    const balanceBefore = await t.core.ledger.balance(owner.ctx);
    await review('texted_tpl');
    await t.core.siteMessages.notifyPending();
    const sms = await waitFor('the SMS notice at the carrier', () =>
      carrier.messages.find((m) => m.destination === '13800138000'),
    );
    assert.match(sms.text, /^【Herald】邮件模板审核通过：邮件模板「texted_tpl」已审核通过/);
    assert.equal(balanceBefore - (await t.core.ledger.balance(owner.ctx)), 6, '0.06 yuan for the SMS');

    for (let n = 1; n < NOTICE_SMS_MONTHLY_LIMIT + 3; n++) await review(`bulk_${n}`);
    await t.core.siteMessages.notifyPending();
    const view = await settings();
    assert.equal(view.smsThisMonth, NOTICE_SMS_MONTHLY_LIMIT);
    assert.equal(balanceBefore - (await t.core.ledger.balance(owner.ctx)), 6 * NOTICE_SMS_MONTHLY_LIMIT);
    await waitFor('every notice at the carrier', () =>
      carrier.messages.filter((m) => m.destination === '13800138000').length === NOTICE_SMS_MONTHLY_LIMIT
        ? true
        : undefined,
    );
  });
});
