import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS as P, UNSUBSCRIBE_PAGES_MAX } from '@herald/shared';
import { type Inject, injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { joinedMember } from '../helpers/members.ts';
import { createQueueAccount, type QueueAccount } from '../queues/queue-fixtures.ts';

/**
 * The unsubscribe page designer through the console API (`/config/unsubscribePage`,
 * `/config/unsubscribeConfig`): every rule with its message in both languages, unique names,
 * the page limit, previews, the choice of page, tenancy and permissions.
 */
describe('unsubscribe page designer', () => {
  let t: TestApp;
  let call: Inject;
  let a: QueueAccount;
  let b: QueueAccount;

  before(async () => {
    t = await buildTestApp();
    call = injector(t);
    a = await createQueueAccount(t, 'unsub_a');
    b = await createQueueAccount(t, 'unsub_b');
  });
  after(() => t.close());

  const PAGE = '/v3/api/config/unsubscribePage';
  const design = (over: object = {}) => ({
    name: 'Spring',
    logoUrl: '',
    pageBackground: '#ffffff',
    formBackground: '#f0f0f0',
    textColor: '#333',
    confirmBackground: '#1677ff',
    confirmTextColor: '#ffffff',
    cancelBackground: '#ffffff',
    cancelTextColor: '#000000',
    language: 'en',
    reasons: ['not_wanted'],
    jumpUrl: '',
    ...over,
  });
  const expectRule = async (over: object, field: string, en: string, zh: string) => {
    for (const [lang, message] of [
      ['en', en],
      ['zh-cn', zh],
    ] as const) {
      const res = await call('POST', PAGE, a.owner, design(over), lang);
      assert.equal(res.statusCode, 400, `${JSON.stringify(over)}: ${res.body}`);
      const got = (res.json() as { fields?: { field: string; message: string }[] }).fields?.[0];
      assert.deepEqual({ field: got?.field, message: got?.message }, { field, message });
    }
  };

  it('checks every field of a design, in both languages', async () => {
    await expectRule({ name: '  ' }, 'name', 'Enter the page name', '请输入页面名称');
    await expectRule(
      { name: 'x'.repeat(65) },
      'name',
      'The page name has at most 64 characters',
      '页面名称最多64个字符',
    );
    await expectRule(
      { textColor: 'red' },
      'textColor',
      'Colours are #rgb or #rrggbb, e.g. #1677ff',
      '颜色格式为 #rgb 或 #rrggbb，例如 #1677ff',
    );
    await expectRule(
      { confirmBackground: '#12345' },
      'confirmBackground',
      'Colours are #rgb or #rrggbb, e.g. #1677ff',
      '颜色格式为 #rgb 或 #rrggbb，例如 #1677ff',
    );
    await expectRule(
      { logoUrl: 'ftp://cdn.example.com/logo.png' },
      'logoUrl',
      'The logo URL must begin with http:// or https://',
      'Logo 地址必须以 http:// 或 https:// 开头',
    );
    await expectRule(
      { jumpUrl: 'javascript:alert(1)' },
      'jumpUrl',
      'The jump URL must begin with http:// or https://',
      '跳转地址必须以 http:// 或 https:// 开头',
    );
    await expectRule(
      { language: 'fr' },
      'language',
      'Choose the page language: Chinese, English or both',
      '请选择页面语言：中文、英文或中英文',
    );
    await expectRule(
      { reasons: [] },
      'reasons',
      'Choose at least one unsubscribe reason',
      '请至少选择一个退订原因',
    );
    await expectRule(
      { reasons: ['bored'] },
      'reasons.0',
      'Choose at least one unsubscribe reason',
      '请至少选择一个退订原因',
    );
  });

  it('adds, lists, edits, previews and deletes designs; names are unique; at most 10', async () => {
    const created = await call(
      'POST',
      PAGE,
      a.owner,
      design({ logoUrl: 'https://cdn.example.com/l.png', reasons: ['fraud', 'spam', 'spam'] }),
    );
    assert.equal(created.statusCode, 201, created.body);
    const page = created.json().data;
    assert.deepEqual(page.reasons, ['spam', 'fraud']);
    assert.equal(page.textColor, '#333');
    assert.equal(page.jumpUrl, null);

    const taken = await call('POST', PAGE, a.owner, design(), 'zh-cn');
    assert.equal(taken.statusCode, 422);
    assert.equal(taken.json().error, '退订页面名称已存在');

    const edited = await call(
      'PATCH',
      `${PAGE}/${page.id}`,
      a.owner,
      design({ name: 'Summer', language: 'both', logoUrl: 'https://cdn.example.com/l.png' }),
    );
    assert.equal(edited.statusCode, 200, edited.body);
    assert.equal(edited.json().data.name, 'Summer');
    const list = (await call('GET', PAGE, a.owner)).json().data;
    assert.deepEqual(
      list.pages.map((p: { name: string }) => p.name),
      ['Summer'],
    );
    assert.equal(list.max, UNSUBSCRIBE_PAGES_MAX);

    const preview = await call('GET', `${PAGE}/${page.id}/preview`, a.owner);
    assert.equal(preview.statusCode, 200);
    assert.match(preview.json().data.html, /确认退订 \/ Unsubscribe/);
    assert.match(preview.json().data.html, /src="https:\/\/cdn\.example\.com\/l\.png"/);
    const draft = await call('POST', `${PAGE}/preview`, a.owner, design({ name: '', language: 'zh-cn' }));
    assert.equal(draft.statusCode, 200, draft.body);
    assert.match(draft.json().data.html, /确认退订/);

    for (let i = 1; i < UNSUBSCRIBE_PAGES_MAX; i++) {
      assert.equal((await call('POST', PAGE, a.owner, design({ name: `Page ${i}` }))).statusCode, 201);
    }
    const over = await call('POST', PAGE, a.owner, design({ name: 'One too many' }));
    assert.equal(over.statusCode, 400);
    assert.equal(over.json().error, 'At most 10 unsubscribe pages');

    const deleted = await call('DELETE', `${PAGE}/${page.id}`, a.owner);
    assert.equal(deleted.statusCode, 204);
    assert.equal((await call('GET', `${PAGE}/${page.id}`, a.owner)).statusCode, 404);
  });

  it('chooses the page in use for the account and per API_USER; deleting it falls back', async () => {
    const page = (await call('POST', PAGE, b.owner, design({ name: 'Chosen' }))).json().data;
    const other = (await call('POST', PAGE, b.owner, design({ name: 'For the API_USER' }))).json().data;
    const config = '/v3/api/config/unsubscribeConfig';
    assert.deepEqual((await call('GET', config, b.owner)).json().data, { pageId: null, apiUsers: [] });
    assert.equal((await call('PUT', config, b.owner, { pageId: page.id })).statusCode, 200);
    const set = await call('PUT', config, b.owner, { pageId: other.id, apiUserId: b.apiUserId });
    assert.deepEqual(set.json().data, {
      pageId: page.id,
      apiUsers: [{ apiUserId: b.apiUserId, pageId: other.id }],
    });
    assert.equal(
      (await t.core.unsubscribePages.designFor({ accountId: b.accountId }, b.apiUserId)).name,
      'For the API_USER',
    );
    assert.equal((await t.core.unsubscribePages.designFor({ accountId: b.accountId }, null)).name, 'Chosen');
    assert.equal(
      (await call('PUT', config, b.owner, { pageId: other.id, apiUserId: a.apiUserId })).statusCode,
      404,
    );

    await call('DELETE', `${PAGE}/${other.id}`, b.owner);
    assert.deepEqual((await call('GET', config, b.owner)).json().data, { pageId: page.id, apiUsers: [] });
    assert.equal((await call('PUT', config, b.owner, { pageId: null })).statusCode, 200);
    assert.equal((await t.core.unsubscribePages.designFor({ accountId: b.accountId }, null)).name, 'Default');
  });

  it("keeps another account's pages out of reach; view-only members cannot change them", async () => {
    const theirs = (await call('POST', PAGE, b.owner, design({ name: 'Private' }))).json().data;
    for (const [method, url, body] of [
      ['GET', `${PAGE}/${theirs.id}`, undefined],
      ['GET', `${PAGE}/${theirs.id}/preview`, undefined],
      ['PATCH', `${PAGE}/${theirs.id}`, design({ name: 'Stolen' })],
      ['DELETE', `${PAGE}/${theirs.id}`, undefined],
      ['PUT', '/v3/api/config/unsubscribeConfig', { pageId: theirs.id }],
    ] as const) {
      const res = await call(method, url, a.owner, body);
      assert.equal(res.statusCode, 404, `${method} ${url}`);
      assert.equal(res.json().error, 'Unsubscribe page not found');
    }
    const mine = (await call('GET', PAGE, a.owner)).json().data.pages;
    assert.ok(!mine.some((p: { name: string }) => p.name === 'Private'));

    const sender = await joinedMember(t, a.owner, 'unsub_sendonly', {
      type: 'custom',
      levels: { [P.EMAIL_SEND]: 'full' },
    });
    assert.equal((await call('GET', PAGE, sender)).statusCode, 403);
    const reader = await joinedMember(t, a.owner, 'unsub_reader', {
      type: 'custom',
      levels: { [P.EMAIL_SETTINGS]: 'read' },
    });
    assert.equal((await call('GET', PAGE, reader)).statusCode, 200);
    assert.equal((await call('POST', `${PAGE}/preview`, reader, design())).statusCode, 200);
    assert.equal((await call('POST', PAGE, reader, design({ name: 'Nope' }))).statusCode, 403);
    assert.equal(
      (await call('PUT', '/v3/api/config/unsubscribeConfig', reader, { pageId: null })).statusCode,
      403,
    );
  });
});
