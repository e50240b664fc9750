import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS as P } from '@herald/shared';
import { createSender, type Sender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { solvedCaptcha } from '../helpers/challenges.ts';
import { testDialect } from '../helpers/database.ts';
import { bearer, createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';

const BASE = '/v3/api/subInvite';

/**
 * The console's subscriptions (`/subInvite`) and the public form without a confirmation mail:
 * every rule of product-spec §5 in both languages, the API_KEY proved and never stored, the from
 * domain and the list the account's own, another account's subscription not found, read-only
 * teammates refused changes, a deleted subscription's page and snippet saying so, and what the
 * form does with blocked and unsubscribed addresses.
 */
describe(`Subscriptions on ${testDialect}`, () => {
  let t: TestApp;
  let owner: SignedIn;
  let other: SignedIn;
  let f: Sender;
  let listId = 0;
  let otherListId = 0;

  before(async () => {
    t = await buildTestApp();
    owner = await createOwner(t, 'subs_owner');
    other = await createOwner(t, 'subs_other');
    f = await createSender(t.core.database, { accountId: owner.ctx.accountId, domainStatus: 'verified' });
    await createSender(t.core.database, { accountId: other.ctx.accountId, domain: 'their-subs.example.com' });
    await t.core.database.db
      .updateTable('accounts')
      .set({ plan: 'paid' })
      .where('id', 'in', [owner.ctx.accountId, other.ctx.accountId])
      .execute();
    listId = (
      await t.core.addressLists.createList(owner.ctx, { name: 'News', prefix: 'subs_news', description: '' })
    ).id;
    otherListId = (
      await t.core.addressLists.createList(other.ctx, {
        name: 'Theirs',
        prefix: 'subs_theirs',
        description: '',
      })
    ).id;
  });
  after(() => t?.close());

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    who: SignedIn,
    payload?: object,
    lang = 'en',
  ) => t.app.inject({ method, url, headers: { ...bearer(who.token), 'accept-language': lang }, payload });

  const form = (over: Record<string, unknown> = {}) => ({
    name: 'Monthly news',
    logoUrl: 'https://example.com/logo.png',
    subject: 'Please confirm',
    fromName: 'Example',
    fromAddress: `news@${f.domain}`,
    apiUser: f.apiUser,
    apiKey: f.apiKey,
    listId,
    confirm: false,
    displayMode: 'embedded',
    themeColor: '#AA3300',
    ...over,
  });

  const create = async (over: Record<string, unknown> = {}) => {
    const response = await call('POST', BASE, owner, form(over));
    assert.equal(response.statusCode, 201, response.body);
    return response.json().data;
  };

  it('refuses every missing or malformed field with the rule of §5, in both languages', async () => {
    const cases: [string, unknown, string, string][] = [
      ['name', '', 'Enter a name', '请输入订阅名称'],
      [
        'logoUrl',
        '',
        'Enter a logo URL beginning with http:// or https://',
        '请输入以http://或https://开头的Logo地址',
      ],
      [
        'logoUrl',
        'ftp://example.com/a.png',
        'Enter a logo URL beginning with http:// or https://',
        '请输入以http://或https://开头的Logo地址',
      ],
      ['subject', ' ', 'Enter the confirmation mail subject', '请输入确认邮件标题'],
      ['fromName', '', 'Enter the from name', '请输入发信人名称'],
      ['fromAddress', 'not-an-address', 'Invalid email format', '邮箱格式错误'],
      ['apiUser', '', 'Choose an API_USER', '请选择API_USER'],
      ['apiKey', '', 'Enter the API_KEY', '请输入API_KEY'],
      ['listId', '', 'Choose an address list', '请选择地址列表'],
      [
        'displayMode',
        'sideways',
        'The display mode is new tab, embedded, pop-up, bottom bar or top bar',
        '展示方式为新页面、嵌入、弹窗、底部栏或顶部栏',
      ],
      [
        'themeColor',
        'red',
        'The theme colour is # and 6 hexadecimal digits',
        '主题色为#开头的6位十六进制颜色',
      ],
      ['name', 'x'.repeat(65), 'Length exceeds limit', '长度超出限制'],
    ];
    for (const [field, value, en, zh] of cases) {
      const english = await call('POST', BASE, owner, form({ [field]: value }));
      assert.equal(english.statusCode, 400, field);
      assert.deepEqual(
        english.json().fields.map((e: { field: string; message: string }) => [e.field, e.message]),
        [[field, en]],
      );
      const chinese = await call('POST', BASE, owner, form({ [field]: value }), 'zh-cn');
      assert.equal(chinese.json().fields[0].message, zh, field);
    }
  });

  it('proves the API_KEY without keeping it, and checks the from domain and the list', async () => {
    const badKey = await call('POST', BASE, owner, form({ apiKey: 'wrong-key' }), 'zh-cn');
    assert.deepEqual([badKey.statusCode, badKey.json().message], [400, 'API_USER或API_KEY错误']);
    const theirKey = await call(
      'POST',
      BASE,
      other,
      form({ listId: otherListId, fromAddress: 'a@their-subs.example.com' }),
    );
    assert.deepEqual([theirKey.statusCode, theirKey.json().code], [400, 'SUBSCRIPTION_API_KEY_INVALID']);
    const foreignDomain = await call('POST', BASE, owner, form({ fromAddress: 'news@elsewhere.org' }));
    assert.deepEqual(
      [foreignDomain.statusCode, foreignDomain.json().message],
      [400, 'The from address must be on one of your verified sending domains (elsewhere.org is not)'],
    );
    const theirList = await call('POST', BASE, owner, form({ listId: otherListId }));
    assert.deepEqual([theirList.statusCode, theirList.json().code], [404, 'ADDRESS_LIST_NOT_FOUND']);

    const made = await create();
    assert.deepEqual(
      { ...made, id: 0, publicId: '', createdAt: 0, updatedAt: 0 },
      {
        id: 0,
        publicId: '',
        name: 'Monthly news',
        logoUrl: 'https://example.com/logo.png',
        subject: 'Please confirm',
        fromName: 'Example',
        fromAddress: `news@${f.domain}`,
        apiUser: f.apiUser,
        listId,
        listName: 'News',
        listAddress: `subs_news@${t.core.addressLists.domain}`,
        confirm: false,
        displayMode: 'embedded',
        themeColor: '#aa3300',
        createdAt: 0,
        updatedAt: 0,
      },
    );
    assert.match(made.publicId, /^[\w-]{22}$/);
    const stored = JSON.stringify(
      await t.core.database.db.selectFrom('subscriptions').selectAll().where('id', '=', made.id).execute(),
    );
    assert.ok(!stored.includes(f.apiKey), 'the API_KEY is not stored');

    // A change keeping the API_USER needs no key; naming another needs its key.
    const renamed = await call('PUT', `${BASE}/${made.id}`, owner, form({ name: 'Weekly', apiKey: '' }));
    assert.deepEqual([renamed.statusCode, renamed.json().data.name], [200, 'Weekly']);
    const switched = await call(
      'PUT',
      `${BASE}/${made.id}`,
      owner,
      form({ apiUser: 'someone_else', apiKey: '' }),
    );
    assert.deepEqual([switched.statusCode, switched.json().fields[0].field], [400, 'apiKey']);

    const listed = await call('GET', `${BASE}?name=week`, owner);
    assert.deepEqual(
      listed.json().data.list.map((s: { name: string }) => s.name),
      ['Weekly'],
    );
  });

  it('keeps subscriptions to their account (404) and changes to those who may change them (403)', async () => {
    const made = await create({ name: 'Private' });
    for (const [method, url, payload] of [
      ['GET', `${BASE}/${made.id}`, undefined],
      ['PUT', `${BASE}/${made.id}`, form({ apiKey: '' })],
      ['DELETE', `${BASE}/${made.id}`, undefined],
    ] as const) {
      const response = await call(method, url, other, payload);
      assert.deepEqual([response.statusCode, response.json().code], [404, 'SUBSCRIPTION_NOT_FOUND'], method);
    }
    assert.equal((await call('GET', BASE, other)).json().data.total, 0);

    const reader = await joinedMember(t, owner, 'subs_reader', {
      type: 'custom',
      levels: { [P.EMAIL_SEND]: 'read' },
    });
    assert.equal((await call('GET', `${BASE}/${made.id}`, reader)).statusCode, 200);
    assert.equal((await call('POST', BASE, reader, form())).statusCode, 403);
    assert.equal((await call('PUT', `${BASE}/${made.id}`, reader, form({ apiKey: '' }))).statusCode, 403);
    assert.equal((await call('DELETE', `${BASE}/${made.id}`, reader)).statusCode, 403);
    const texter = await joinedMember(t, owner, 'subs_texter', {
      type: 'custom',
      levels: { [P.SMS_SEND]: 'full' },
    });
    assert.equal((await call('GET', BASE, texter)).statusCode, 403);
  });

  const submit = async (publicId: string, email: string, lang = 'en') => {
    const { captchaId, captchaCode } = await solvedCaptcha(t.core, 'subInvite');
    return t.app.inject({
      method: 'POST',
      url: '/v3/access/subInvite/subscribe',
      headers: { 'accept-language': lang },
      payload: { id: publicId, email, name: 'Ann', captchaId, code: captchaCode },
    });
  };
  const members = async () =>
    (await t.core.addressLists.members(owner.ctx, { listId, offset: 0, limit: 100 })).list.map(
      (m) => m.address,
    );

  it('adds an address at once with confirmation off, behind an image code', async () => {
    const made = await create({ name: 'Instant' });
    const page = await t.app.inject({ url: `/v3/access/subInvite/page?id=${made.publicId}` });
    assert.deepEqual(page.json().data, {
      available: true,
      name: 'Instant',
      logoUrl: 'https://example.com/logo.png',
      displayMode: 'embedded',
      themeColor: '#aa3300',
    });
    const noCode = await t.app.inject({
      method: 'POST',
      url: '/v3/access/subInvite/subscribe',
      payload: { id: made.publicId, email: 'ann@example.org', captchaId: 'x', code: 'nope' },
    });
    assert.deepEqual([noCode.statusCode, noCode.json().code], [400, 'CAPTCHA_INVALID']);
    const badEmail = await submit(made.publicId, 'ann@', 'zh-cn');
    assert.deepEqual([badEmail.statusCode, badEmail.json().fields[0].message], [400, '邮箱格式错误']);

    const done = await submit(made.publicId, 'Ann@Example.org');
    assert.deepEqual([done.statusCode, done.json().data], [200, { status: 'subscribed' }]);
    assert.ok((await members()).includes('ann@example.org'));
    // Again: still one member, no error.
    assert.equal((await submit(made.publicId, 'ann@example.org')).statusCode, 200);
  });

  it('refuses blocked addresses and sends unsubscribed ones through confirmation even with it off', async () => {
    const made = await create({ name: 'Careful' });
    await t.core.suppressionLists.add(owner.ctx, 'user_defined', ['blocked@example.org']);
    const blocked = await submit(made.publicId, 'blocked@example.org', 'zh-cn');
    assert.deepEqual([blocked.statusCode, blocked.json().message], [400, '订阅失败']);
    assert.ok(!(await members()).includes('blocked@example.org'));

    await t.core.suppression.recordUnsubscribe(owner.ctx, 'gone@example.org', {});
    const gone = await submit(made.publicId, 'gone@example.org');
    // Not added: a confirmation mail is asked for (none can leave here: no MX in this test, so it waits).
    assert.deepEqual([gone.statusCode, gone.json().data], [200, { status: 'pending' }]);
    assert.ok(!(await members()).includes('gone@example.org'));
  });

  it('disables a deleted subscription: its page, form and snippet say it is no longer available', async () => {
    const made = await create({ name: 'Short lived', displayMode: 'popup' });
    const script = await t.app.inject({
      url: `/subscribe/embed.js?id=${made.publicId}`,
      headers: { 'accept-language': 'en' },
    });
    assert.equal(script.headers['content-type'], 'application/javascript; charset=utf-8');
    assert.match(script.body, /"mode":"popup"/);
    assert.match(script.body, /"available":true/);
    // The sample page /preview asks for any mode; a mode it does not know leaves the saved one.
    const asked = async (mode: string) =>
      (await t.app.inject({ url: `/subscribe/embed.js?id=${made.publicId}&mode=${mode}` })).body;
    assert.match(await asked('topBar'), /"mode":"topBar"/);
    assert.match(await asked('sideways'), /"mode":"popup"/);

    const removed = await call('DELETE', `${BASE}/${made.id}`, owner);
    assert.equal(removed.statusCode, 204);
    assert.equal((await call('GET', `${BASE}/${made.id}`, owner)).statusCode, 404);
    assert.equal((await call('DELETE', `${BASE}/${made.id}`, owner)).statusCode, 404);
    const page = await t.app.inject({ url: `/v3/access/subInvite/page?id=${made.publicId}` });
    assert.equal(page.json().data.available, false);
    const late = await submit(made.publicId, 'late@example.org', 'zh-cn');
    assert.deepEqual([late.statusCode, late.json().message], [410, '该订阅已停用']);
    const dead = await t.app.inject({
      url: `/subscribe/embed.js?id=${made.publicId}`,
      headers: { 'accept-language': 'en' },
    });
    assert.match(dead.body, /"available":false/);
    assert.match(dead.body, /This subscription is no longer available/);
  });

  it('lets any site frame the subscription page, and no other page', async () => {
    const framed = await t.app.inject({ url: '/subscriptionInvite?id=x', headers: { accept: 'text/html' } });
    assert.match(String(framed.headers['content-security-policy']), /frame-ancestors \*/);
    assert.equal(framed.headers['x-frame-options'], undefined);
    const login = await t.app.inject({ url: '/login', headers: { accept: 'text/html' } });
    assert.match(String(login.headers['content-security-policy']), /frame-ancestors 'none'/);
    assert.equal(login.headers['x-frame-options'], 'DENY');
  });
});
