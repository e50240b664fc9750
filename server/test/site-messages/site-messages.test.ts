import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS as P } from '@herald/shared';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { testDialect } from '../helpers/database.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { api, operatorSession, SAMPLE } from '../templates/template-helpers.ts';

/**
 * The message centre: a review decided by the operator and a balance running low are posted to
 * the account's messages, worded in the reader's language with the screen to act on; the unread
 * count falls as they are read; every call keeps to the caller's account and needs code 7.
 */
describe(`message centre on ${testDialect}`, () => {
  let t: TestApp;
  let call: ReturnType<typeof api>;
  let owner: SignedIn;
  let other: SignedIn;
  let operator: SignedIn;

  before(async () => {
    t = await buildTestApp();
    call = api(t);
    owner = await createOwner(t, 'msg_owner');
    other = await createOwner(t, 'msg_other');
    operator = await operatorSession(t);
  });
  after(() => t?.close());

  const messages = async (who: SignedIn, query = '', lang = 'en') => {
    const res = await call('GET', `/v3/api/userMessages${query}`, who, undefined, lang);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as {
      list: { id: number; kind: string; title: string; content: string; link: string; read: boolean }[];
      total: number;
      totalCount: number;
    };
  };
  const unread = async (who: SignedIn) =>
    (await call('GET', '/v3/api/userMessages/unReadCount', who)).json().data.totalCount as number;
  const reviewTemplate = async (invokeName: string, decision: 'approve' | 'reject') => {
    const created = await call('POST', '/v3/api/mail/templates', owner, {
      ...SAMPLE,
      name: invokeName,
      invokeName,
    });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().data.id as number;
    await call('POST', `/v3/api/mail/templates/commitVerify/${id}`, owner);
    const decided = await call(
      'POST',
      `/v3/api/admin/templates/${id}/${decision}`,
      operator,
      decision === 'reject' ? { reason: 'the unsubscribe link is missing' } : undefined,
    );
    assert.equal(decided.statusCode, 200, decided.body);
  };

  it('posts review decisions, worded in the reader’s language, newest first', async () => {
    assert.equal(await unread(owner), 0);
    await reviewTemplate('msg_approved', 'approve');
    await reviewTemplate('msg_rejected', 'reject');

    const en = await messages(owner);
    assert.equal(en.total, 2);
    assert.equal(en.totalCount, 2);
    assert.deepEqual(
      en.list.map((m) => [m.kind, m.title, m.read]),
      [
        ['template_rejected', 'Email template rejected', false],
        ['template_passed', 'Email template approved', false],
      ],
    );
    assert.equal(
      en.list[0]?.content,
      'The email template "msg_rejected" was rejected: the unsubscribe link is missing. Edit it and submit it again.',
    );
    assert.equal(en.list[0]?.link, '/sendRelative/template');
    const zh = await messages(owner, '', 'zh-cn');
    assert.equal(zh.list[0]?.title, '邮件模板审核未通过');
    assert.equal(
      zh.list[0]?.content,
      '邮件模板「msg_rejected」未通过审核，原因：the unsubscribe link is missing。修改后可重新提交。',
    );
    assert.equal(await unread(other), 0, 'another account hears nothing of it');
  });

  it('posts the low-balance notice with the balance', async () => {
    const { accountId } = owner.ctx;
    await t.core.recharges.recordOffline(null, accountId, {
      amount: '100',
      remitter: 'Msg Co.',
      bankRef: 'MSG-1',
    });
    await t.core.ledger.adjust(null, accountId, { amountFen: -6000, reason: 'test' });
    await t.core.ledger.noticeLowBalances();
    const page = await messages(owner, '?category=balance');
    assert.equal(page.total, 1);
    assert.equal(page.list[0]?.title, 'Your balance is low');
    assert.match(page.list[0]?.content ?? '', /Your balance is 40\.00 yuan, below 50\.00 yuan/);
    assert.equal(page.list[0]?.link, '/accountSetting/financialMangement/charge');
  });

  it('marks messages read one by one or all at once; another account’s ids change nothing', async () => {
    const before = await messages(owner, '?unread=true');
    assert.equal(before.total, 3);
    const [first] = before.list;
    assert.ok(first);

    const foreign = await call('POST', '/v3/api/userMessages/read', other, { ids: [first.id] });
    assert.equal(foreign.statusCode, 200, foreign.body);
    assert.equal(await unread(owner), 3, 'another account cannot mark them');

    const one = await call('POST', '/v3/api/userMessages/read', owner, { ids: [first.id] });
    assert.equal(one.json().data.totalCount, 2);
    const after = await messages(owner);
    assert.equal(after.list.find((m) => m.id === first.id)?.read, true);
    assert.equal((await messages(owner, '?unread=1')).total, 2);

    const all = await call('POST', '/v3/api/userMessages/read', owner, { all: true });
    assert.equal(all.json().data.totalCount, 0);
    assert.equal(await unread(owner), 0);
  });

  it('refuses a malformed read call in the caller’s language', async () => {
    for (const [lang, pattern] of [
      ['en', /[a-z]/i],
      ['zh-cn', /[\u4e00-\u9fff]/],
    ] as const) {
      const res = await call('POST', '/v3/api/userMessages/read', owner, { ids: ['x'] }, lang);
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json().message, pattern);
    }
  });

  it('needs code 7: a teammate without it gets 403, one with it reads the account’s messages', async () => {
    const without = await joinedMember(t, owner, 'msg_settings', {
      type: 'custom',
      levels: { [P.EMAIL_SETTINGS]: 'full' },
    });
    for (const url of ['/v3/api/userMessages', '/v3/api/userMessages/unReadCount']) {
      assert.equal((await call('GET', url, without)).statusCode, 403, url);
    }
    assert.equal((await call('POST', '/v3/api/userMessages/read', without, { all: true })).statusCode, 403);
    const reader = await joinedMember(t, owner, 'msg_reader', {
      type: 'custom',
      levels: { [P.MESSAGE_CENTRE]: 'full' },
    });
    assert.equal((await messages(reader)).total, 3);
  });
});
