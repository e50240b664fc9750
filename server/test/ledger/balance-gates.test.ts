import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, type SignedIn } from '../helpers/members.ts';
import { listen, postForm } from '../send/send-client.ts';
import { smsapi, smsReadyAccount } from '../sms/sms-fixtures.ts';
import { api, operatorSession } from '../templates/template-helpers.ts';

/**
 * The balance gates (issue 18) where users meet them: a paid account at zero balance is refused
 * mail (40904 with the balance message, in both languages) and SMS (499); an operator's
 * adjustment credits it, the console's userBalance shows the new balance, and sending resumes.
 * A free account keeps its free quota and is not refused for its balance.
 */
describe('balance gates', () => {
  let t: TestApp;
  let base: string;
  let call: ReturnType<typeof api>;
  let operator: SignedIn;

  before(async () => {
    t = await buildTestApp();
    base = await listen(t);
    call = api(t);
    operator = await operatorSession(t);
  });
  after(() => t?.close());

  /** A paid account that recharged and spent it all: its balance is 0. */
  const makePaid = async (accountId: number) => {
    const res = await call('PUT', `/v3/api/admin/accounts/${accountId}/limits`, operator, {
      plan: 'paid',
      dailyQuota: null,
    });
    assert.equal(res.statusCode, 200, res.body);
    await t.core.ledger.adjust(null, accountId, { amountFen: 990, reason: 'first recharge (stand-in)' });
    await t.core.ledger.adjust(null, accountId, { amountFen: -990, reason: 'spent' });
  };
  const balanceOf = async (who: SignedIn) => {
    const res = await call('GET', '/v3/api/userInfo/userBalance', who);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };

  it('refuses a paid account’s mail at zero balance and resumes after an adjustment', async () => {
    const owner = await createOwner(t, 'gate_mail');
    const f = await createSender(t.core.database, { accountId: owner.ctx.accountId });
    const send = (lang: 'zh-cn' | 'en') =>
      postForm(
        base,
        'mail/send',
        {
          apiUser: f.apiUser,
          apiKey: f.apiKey,
          from: `a@${f.domain}`,
          to: 'x@example.org',
          subject: 's',
          plain: 'p',
        },
        lang,
      );
    assert.equal((await send('en')).statusCode, 200, 'a free account sends within its free quota');

    await makePaid(owner.ctx.accountId);
    const en = await send('en');
    assert.deepEqual([en.result, en.statusCode], [false, 40904]);
    assert.equal(
      en.message,
      'Insufficient balance: the account balance is 0.00 yuan, which cannot cover sending; recharge and try again',
    );
    const zh = await send('zh-cn');
    assert.equal(zh.message, '余额不足: 账户余额0.00元, 无法继续发送邮件; 请充值后重试');

    const credited = await call(
      'POST',
      `/v3/api/admin/accounts/${owner.ctx.accountId}/adjustments`,
      operator,
      {
        amountFen: 1000,
        reason: 'goodwill credit',
        idempotencyKey: 'gate-mail-1',
      },
    );
    assert.equal(credited.statusCode, 201, credited.body);
    assert.deepEqual(credited.json().data, { balance: 1000 });
    assert.deepEqual(await balanceOf(owner), { balance: 1000, currency: 'CNY' });
    assert.equal((await send('en')).statusCode, 200, 'sending resumes');

    const again = await call('POST', `/v3/api/admin/accounts/${owner.ctx.accountId}/adjustments`, operator, {
      amountFen: 1000,
      reason: 'goodwill credit',
      idempotencyKey: 'gate-mail-1',
    });
    assert.deepEqual(again.json().data, { balance: 1000 }, 'the same key credits once');
    const ledger = await call('GET', `/v3/api/admin/accounts/${owner.ctx.accountId}/ledger`, operator);
    assert.deepEqual(
      ledger
        .json()
        .data.entries.map((e: { kind: string; amountFen: number; reason: string }) => [
          e.kind,
          e.amountFen,
          e.reason,
        ]),
      [
        ['adjustment', 1000, 'goodwill credit'],
        ['adjustment', -990, 'spent'],
        ['adjustment', 990, 'first recharge (stand-in)'],
      ],
    );
  });

  it('answers SMS 499 at zero balance, in both languages, until the account is credited', async () => {
    const owner = await createOwner(t, 'gate_sms');
    const ready = await smsReadyAccount(t, owner.ctx.accountId, 'gate_sms_user');
    await makePaid(owner.ctx.accountId);
    const send = (lang: string) =>
      smsapi(
        t,
        'send',
        ready,
        {
          templateId: String(ready.templateId),
          phone: '13800138000',
          vars: JSON.stringify({ code: '1234' }),
          msgType: '0',
        },
        lang,
      );
    const en = await send('en');
    assert.deepEqual([en.body.result, en.body.statusCode], [false, 499]);
    assert.match(en.body.message, /^Insufficient balance: the account balance is 0\.00 yuan/);
    const zh = await send('zh-cn');
    assert.equal(zh.body.message, '余额不足: 账户余额0.00元, 无法继续发送短信; 请充值后重试');

    const res = await call('POST', `/v3/api/admin/accounts/${owner.ctx.accountId}/adjustments`, operator, {
      amountFen: 500,
      reason: 'bank transfer 2026-11-27',
    });
    assert.equal(res.statusCode, 201, res.body);
    const ok = await send('en');
    assert.deepEqual([ok.body.result, ok.body.statusCode], [true, 200], ok.body.message);
  });

  it('keeps adjustments and prices to operators, and checks what they enter', async () => {
    const owner = await createOwner(t, 'gate_rules');
    for (const [method, url] of [
      ['POST', `/v3/api/admin/accounts/${owner.ctx.accountId}/adjustments`],
      ['GET', `/v3/api/admin/accounts/${owner.ctx.accountId}/ledger`],
      ['GET', '/v3/api/admin/prices'],
      ['PUT', '/v3/api/admin/prices/email'],
    ] as const) {
      const res = await call(method, url, owner, { amountFen: 100, reason: 'x', unit: 1000, fen: 1 });
      assert.equal(res.statusCode, 403, `${method} ${url}`);
    }
    const noReason = await call(
      'POST',
      `/v3/api/admin/accounts/${owner.ctx.accountId}/adjustments`,
      operator,
      { amountFen: 100, reason: ' ' },
      'zh-cn',
    );
    assert.equal(noReason.statusCode, 400);
    assert.equal(noReason.json().message, '调账金额须为非零整数(分), 且须填写1到500个字符的原因');
    const missing = await call('POST', '/v3/api/admin/accounts/999999/adjustments', operator, {
      amountFen: 100,
      reason: 'x',
    });
    assert.equal(missing.statusCode, 404);

    const price = await call('PUT', '/v3/api/admin/prices/email', operator, { unit: 1000, fen: 120 });
    assert.equal(price.statusCode, 200, price.body);
    assert.deepEqual([price.json().data.unit, price.json().data.fen], [1000, 120]);
    const listed = await call('GET', '/v3/api/admin/prices', operator);
    const codes = listed.json().data.map((p: { code: string }) => p.code);
    assert.ok(codes.includes('sms_notification') && codes.includes('dedicated_ip'));
    assert.equal(
      listed.json().data.find((p: { code: string }) => p.code === 'sms_notification').fen,
      6,
      'SMS notification is 0.06 yuan (product-spec §9)',
    );
    const bad = await call('PUT', '/v3/api/admin/prices/email', operator, { unit: 3, fen: 1 });
    assert.equal(bad.statusCode, 400);
    const unknown = await call('PUT', '/v3/api/admin/prices/nothing', operator, { unit: 1, fen: 1 });
    assert.equal(unknown.statusCode, 404);
  });
});
