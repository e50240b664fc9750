import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppError, ERRORS, type ErrorCode, SMS_FREQUENCY_DEFAULTS } from '@herald/shared';
import { smsStatusCode } from '../../src/http/smsapi/smsapi.plugin.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner } from '../helpers/members.ts';
import { type SmsReady, sign, smsapi, smsReadyAccount } from './sms-fixtures.ts';

type Lang = 'en' | 'zh-cn';
type Answer = Awaited<ReturnType<typeof smsapi>>['body'];

interface Case {
  name: string;
  code: number;
  /** The call, made once per language (English first). */
  call: (lang: Lang) => Promise<Answer>;
  message: Record<Lang, string | RegExp>;
  /** More to check on the answer (info.items of 311 and 312). */
  check?: (body: Answer, lang: Lang) => void;
}

/**
 * Every return code of the SendCloud SMS API (reference §11) as a client meets it, in both
 * languages: the code, `result`, and the message word for word. The decisions behind the codes
 * (312 only for several numbers, 471 unknown and 472 missing smsUser, no 474, 473 only for the
 * paid-only task calls, 601 for any refusal without an SMS number) are in sms-api.errors.ts and
 * smsStatusCode.
 */
describe('SMS API return codes, in zh-cn and en', () => {
  let t: TestApp;
  let ready: SmsReady;
  let unpassed: SmsReady;
  let tester: SmsReady;
  let bombed: SmsReady;
  let broke: SmsReady;
  const cases: Case[] = [];

  const account = async (name: string, options: { smsUserType?: 'normal' | 'test' } = {}) =>
    smsReadyAccount(t, (await createOwner(t, name)).ctx.accountId, name, options);

  /** A form post made by hand, for what the signing helper will not send (no smsUser, a bad signature). */
  const post = async (body: Record<string, string>, lang: Lang, headers: Record<string, string> = {}) =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/smsapi/send',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': lang, ...headers },
        payload: new URLSearchParams(body).toString(),
      })
    ).json() as Answer;

  const send = async (who: SmsReady, params: Record<string, string>, lang: Lang) =>
    (
      await smsapi(
        t,
        'send',
        who,
        { templateId: String(who.templateId), vars: '{"code":"2468"}', ...params },
        lang,
      )
    ).body;

  /** A distinct mainland mobile per language and case, so no case meets another's anti-bombing count. */
  let serial = 0;
  const fresh = () => `139${String(10_000_000 + ++serial).slice(-8)}`;

  before(async () => {
    t = await buildTestApp();
    ready = await account('codes_ready');
    unpassed = await account('codes_unpassed');
    await t.core.database.db
      .updateTable('sms_templates')
      .set({ status: 'rejected', reject_reason: 'not this way' })
      .where('id', '=', unpassed.templateId)
      .execute();
    tester = await account('codes_tester', { smsUserType: 'test' });
    bombed = await account('codes_bombed');
    broke = await account('codes_broke');
    // A paid account that recharged and spent it all (balance-gates.test.ts does it through /admin).
    await t.core.database.db
      .updateTable('accounts')
      .set({ plan: 'paid' })
      .where('id', '=', broke.accountId)
      .execute();
    await t.core.ledger.adjust(null, broke.accountId, {
      amountFen: 990,
      reason: 'first recharge (stand-in)',
    });
    await t.core.ledger.adjust(null, broke.accountId, { amountFen: -990, reason: 'spent' });
  });
  after(() => t?.close());

  cases.push(
    {
      name: '311 partial success lists the refused number',
      code: 311,
      call: (lang) => send(ready, { phone: `${fresh()},99` }, lang),
      message: { en: 'partial success', 'zh-cn': '部分成功' },
      check: (body, lang) => {
        assert.equal(body.result, true);
        assert.equal(body.info.successCount, 1);
        assert.equal((body.info.smsIds as string[]).length, 1);
        assert.deepEqual(body.info.items, [
          {
            phone: '99',
            vars: { code: '2468' },
            message: lang === 'en' ? 'Invalid phone number: 99' : '手机号格式错误：99',
          },
        ]);
      },
    },
    {
      name: '312 when several numbers are all refused, each with its reason',
      code: 312,
      call: (lang) => send(ready, { phone: '99,12345', vars: '{"code":"2468"}' }, lang),
      message: { en: 'Every number was refused (2)', 'zh-cn': '全部请求失败：2个手机号均被拒绝' },
      check: (body, lang) => {
        assert.equal(body.result, false);
        assert.deepEqual(body.info, {
          successCount: 0,
          smsIds: [],
          failedCount: 2,
          items: [
            {
              phone: '99',
              vars: { code: '2468' },
              message: lang === 'en' ? 'Invalid phone number: 99' : '手机号格式错误：99',
            },
            {
              phone: '12345',
              vars: { code: '2468' },
              message: lang === 'en' ? 'Invalid phone number: 12345' : '手机号格式错误：12345',
            },
          ],
        });
      },
    },
    {
      name: '411 no phone number',
      code: 411,
      call: (lang) => send(ready, { phone: '' }, lang),
      message: { en: 'The phone number is empty', 'zh-cn': '手机号不能为空' },
    },
    {
      name: '412 one bad number',
      code: 412,
      call: (lang) => send(ready, { phone: '12345' }, lang),
      message: { en: 'Invalid phone number: 12345', 'zh-cn': '手机号格式错误：12345' },
    },
    {
      name: '412 more than 2,000 numbers',
      code: 412,
      call: (lang) =>
        send(
          ready,
          { phone: Array.from({ length: 2001 }, (_, i) => `1380${String(i).padStart(7, '0')}`).join(',') },
          lang,
        ),
      message: { en: 'At most 2000 phone numbers per call', 'zh-cn': '一次最多发送2000个手机号' },
    },
    {
      name: '412 sendx with more than 200 recipients',
      code: 412,
      call: async (lang) =>
        (
          await smsapi(
            t,
            'sendx',
            ready,
            {
              templateId: String(ready.templateId),
              tos: JSON.stringify(
                Array.from({ length: 201 }, (_, i) => ({
                  phone: `1370${String(i).padStart(7, '0')}`,
                  vars: { code: '1' },
                })),
              ),
            },
            lang,
          )
        ).body,
      message: { en: 'At most 200 phone numbers per call', 'zh-cn': '一次最多发送200个手机号' },
    },
    {
      name: '413 the same number twice',
      code: 413,
      call: (lang) => send(ready, { phone: '13800138000,+8613800138000' }, lang),
      message: { en: 'Duplicate phone number: +8613800138000', 'zh-cn': '手机号重复：+8613800138000' },
    },
    {
      name: '421 no signature',
      code: 421,
      call: (lang) =>
        post({ smsUser: ready.smsUser, templateId: String(ready.templateId), phone: '13800138000' }, lang),
      message: { en: 'The signature parameter is missing or malformed', 'zh-cn': '签名参数错误' },
    },
    {
      name: '422 a signature made with another key',
      code: 422,
      call: (lang) => {
        const params = { smsUser: ready.smsUser, templateId: String(ready.templateId), phone: '13800138000' };
        return post({ ...params, signature: sign('not-the-key', params) }, lang);
      },
      message: { en: 'The signature does not match', 'zh-cn': '签名错误' },
    },
    {
      name: '432 a template that has not passed review',
      code: 432,
      call: (lang) => send(unpassed, { phone: fresh() }, lang),
      message: { en: 'The template has not passed review', 'zh-cn': '模板未提交审核或未审核通过' },
    },
    {
      name: '461 a timestamp two minutes old',
      code: 461,
      call: (lang) => send(ready, { phone: fresh(), timestamp: String(Date.now() - 120_000) }, lang),
      message: {
        en: 'The timestamp is invalid or more than 60 seconds away from the server time',
        'zh-cn': '时间戳无效或与服务器时间相差超过60秒',
      },
    },
    {
      name: '471 an smsUser nobody has',
      code: 471,
      call: (lang) => send({ ...ready, smsUser: 'nobody_here' }, { phone: fresh() }, lang),
      message: { en: 'No such smsUser', 'zh-cn': 'smsUser不存在' },
    },
    {
      name: '472 no smsUser',
      code: 472,
      call: (lang) => {
        const params = { templateId: String(ready.templateId), phone: '13800138000' };
        return post({ ...params, signature: sign(ready.smsKey, params) }, lang);
      },
      message: { en: 'smsUser is required', 'zh-cn': 'smsUser不能为空' },
    },
    {
      name: '481 a variable longer than 32 characters',
      code: 481,
      call: (lang) => send(ready, { phone: fresh(), vars: JSON.stringify({ code: 'x'.repeat(33) }) }, lang),
      message: {
        en: 'The value of variable code is longer than 32 characters',
        'zh-cn': '变量code的值超过32个字符',
      },
    },
    {
      name: '496 too many to one number within a minute',
      code: 496,
      call: async (lang) => {
        await t.core.smsProtection.set(
          { accountId: bombed.accountId },
          { ...SMS_FREQUENCY_DEFAULTS, perMinute: 1, perDay: 2 },
        );
        await send(bombed, { phone: '13300133000' }, lang);
        return send(bombed, { phone: '13300133000' }, lang);
      },
      message: {
        en: 'Too many SMS to +8613300133000 within one minute (at most 1)',
        'zh-cn': '一分钟内向手机号+8613300133000发送的短信过多（上限1条）',
      },
    },
    {
      name: '498 too many to one number within a day',
      code: 498,
      call: async (lang) => {
        await t.core.smsProtection.set(
          { accountId: bombed.accountId },
          { ...SMS_FREQUENCY_DEFAULTS, perMinute: 5, perDay: 2 },
        );
        await send(bombed, { phone: '13300133000' }, lang);
        return send(bombed, { phone: '13300133000' }, lang);
      },
      message: {
        en: 'Too many SMS to +8613300133000 within one day (at most 2)',
        'zh-cn': '一天内向手机号+8613300133000发送的短信过多（上限2条）',
      },
    },
    {
      name: '499 a paid account at zero balance',
      code: 499,
      call: (lang) => send(broke, { phone: fresh() }, lang),
      message: {
        en: 'Insufficient balance: the account balance is 0.00 yuan, which cannot cover sending SMS; recharge and try again',
        'zh-cn': '余额不足: 账户余额0.00元, 无法继续发送短信; 请充值后重试',
      },
    },
    {
      name: '601 a test SMS_USER’s fourth SMS to one number in a day',
      code: 601,
      call: async (lang) => {
        for (let i = 0; i < 3; i++) {
          const body = await send(tester, { phone: '13200132000' }, lang);
          if (lang === 'en') assert.equal(body.statusCode, 200, body.message);
        }
        return send(tester, { phone: '13200132000' }, lang);
      },
      message: {
        en: 'Test SMS limit reached: +8613200132000 3/day',
        'zh-cn': '测试短信已达上限：+8613200132000 3/day',
      },
    },
    {
      name: '601 a test SMS_USER over its 10 domestic SMS a day',
      code: 601,
      call: async (lang) => {
        // Three went to one number above; seven more fill the day's ten.
        if (lang === 'en') {
          const seven = Array.from({ length: 7 }, () => fresh()).join(',');
          assert.equal((await send(tester, { phone: seven }, lang)).statusCode, 200);
        }
        return send(tester, { phone: fresh() }, lang);
      },
      message: { en: 'Test SMS limit reached: domestic 10', 'zh-cn': '测试短信已达上限：domestic 10' },
    },
    {
      name: '601 for a generic 403 (a cross-site browser post), not the email API’s 6001',
      code: 601,
      call: (lang) => {
        const params = { smsUser: ready.smsUser, templateId: String(ready.templateId), phone: fresh() };
        return post({ ...params, signature: sign(ready.smsKey, params) }, lang, {
          'sec-fetch-site': 'cross-site',
        });
      },
      message: {
        en: 'The request came from another site and was refused',
        'zh-cn': '请求来自其他网站，已拒绝',
      },
    },
  );

  for (const c of cases) {
    it(c.name, async () => {
      for (const lang of ['en', 'zh-cn'] as const) {
        const body = await c.call(lang);
        assert.equal(body.statusCode, c.code, `${lang}: ${body.message}`);
        assert.equal(body.result, c.code === 311, lang);
        if (typeof c.message[lang] === 'string') assert.equal(body.message, c.message[lang]);
        else assert.match(body.message, c.message[lang]);
        c.check?.(body, lang);
      }
    });
  }

  it('stores nothing for a refused call: only the accepted numbers of 311 and the sends before a limit', async () => {
    const { n } = await t.core.database.db
      .selectFrom('sms_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', ready.accountId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(n), 2, 'the one good number of each 311');
  });

  it('maps codes without an SMS number the SMS way: 403 is 601, too many calls 50000; nothing answers 474', () => {
    const table: [ErrorCode, number][] = [
      ['COMMON_CROSS_SITE', 601],
      ['AUTH_PERMISSION_DENIED', 601],
      ['SMS_LINK_PAID_ONLY', 601],
      ['ACCOUNT_SUSPENDED', 601],
      ['ACCOUNT_FROZEN', 601],
      ['SMS_TEST_LIMIT', 601],
      ['COMMON_RATE_LIMITED', 50000],
      ['SMS_TASK_PAID_ONLY', 473],
      ['SMS_PHONE_ALL_REFUSED', 312],
      ['SMS_USER_UNKNOWN', 471],
      ['SMS_USER_MISSING', 472],
      ['LEDGER_SMS_BALANCE_INSUFFICIENT', 499],
      ['COMMON_INTERNAL', 501],
    ];
    for (const [code, expected] of table) assert.equal(smsStatusCode(new AppError(code)), expected, code);
    const answering474 = Object.entries(ERRORS).filter(
      ([, d]) => (d as { sendCloud?: number }).sendCloud === 474,
    );
    assert.deepEqual(answering474, []);
  });
});
