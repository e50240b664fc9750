import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiv2, type Inject, injector } from '../api-users/fixtures.ts';
import { createDomain } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, type SignedIn } from '../helpers/members.ts';

/** Labels through the console API (`/config/labels`) and SendCloud's `label/*`. */
describe('labels', () => {
  let t: TestApp;
  let call: Inject;
  let owner: SignedIn;
  let other: SignedIn;
  let creds: { apiUser: string; apiKey: string };

  before(async () => {
    t = await buildTestApp();
    call = injector(t);
    owner = await createOwner(t, 'labels_owner');
    other = await createOwner(t, 'labels_other');
    const domainId = (
      await createDomain(t.core.database, owner.ctx.accountId, { name: 'mail.labels.example' })
    ).id;
    const res = await call('POST', '/v3/api/config/categories', owner, {
      name: 'labels_sender',
      emailType: 'batch',
      domainId,
    });
    creds = { apiUser: 'labels_sender', apiKey: res.json().data.apiKey };
  });
  after(() => t.close());

  const errorOf = (res: { json(): unknown }) =>
    res.json() as { error: string; fields?: { field: string; message: string }[] };

  it('creates, lists, renames and deletes a label', async () => {
    const created = await call('POST', '/v3/api/config/labels', owner, { name: 'newsletter' });
    assert.equal(created.statusCode, 201);
    const label = created.json().data;
    assert.equal(label.name, 'newsletter');

    const list = (await call('GET', '/v3/api/config/labels', owner)).json().data;
    assert.deepEqual(
      list.map((l: { name: string }) => l.name),
      ['newsletter'],
    );
    const combobox = (await call('GET', '/v3/api/config/labels/combobox', owner)).json().data;
    assert.deepEqual(combobox, [{ value: label.id, label: 'newsletter' }]);

    const renamed = await call('PATCH', `/v3/api/config/labels/${label.id}`, owner, { name: 'weekly' });
    assert.equal(renamed.statusCode, 200);
    assert.equal(renamed.json().data.name, 'weekly');

    assert.equal((await call('DELETE', `/v3/api/config/labels/${label.id}`, owner)).statusCode, 204);
    assert.equal((await call('GET', `/v3/api/config/labels/${label.id}`, owner)).statusCode, 404);
  });

  it('requires a name of at most 255 characters, unique in the account, in both languages', async () => {
    for (const [name, lang, message] of [
      ['', 'en', 'Enter a label name'],
      ['   ', 'zh-cn', '请输入标签名称'],
      ['x'.repeat(256), 'en', 'A label name has at most 255 characters'],
      ['x'.repeat(256), 'zh-cn', '标签名称最多255个字符'],
    ] as const) {
      const res = await call('POST', '/v3/api/config/labels', owner, { name }, lang);
      assert.equal(res.statusCode, 400);
      assert.equal(errorOf(res).fields?.[0]?.message, message);
    }
    assert.equal(
      (await call('POST', '/v3/api/config/labels', owner, { name: 'x'.repeat(255) })).statusCode,
      201,
    );

    assert.equal((await call('POST', '/v3/api/config/labels', owner, { name: 'promo' })).statusCode, 201);
    const dup = await call('POST', '/v3/api/config/labels', owner, { name: 'promo' });
    assert.equal(dup.statusCode, 422);
    assert.equal(errorOf(dup).error, 'The label name already exists');
    const dupZh = await call('POST', '/v3/api/config/labels', owner, { name: 'promo' }, 'zh-cn');
    assert.equal(errorOf(dupZh).error, '标签名称已存在');
    const b = (await call('POST', '/v3/api/config/labels', owner, { name: 'promo-b' })).json().data;
    const renameDup = await call('PATCH', `/v3/api/config/labels/${b.id}`, owner, { name: 'promo' });
    assert.equal(renameDup.statusCode, 422);

    assert.equal(
      (await call('POST', '/v3/api/config/labels', other, { name: 'promo' })).statusCode,
      201,
      'another account may use the same name',
    );
  });

  it("another account's label is a 404", async () => {
    const mine = (await call('POST', '/v3/api/config/labels', owner, { name: 'private' })).json().data;
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'stolen' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(method, `/v3/api/config/labels/${mine.id}`, other, body);
      assert.equal(res.statusCode, 404, method);
      assert.equal(errorOf(res).error, 'Label not found');
    }
    const theirs = (await call('GET', '/v3/api/config/labels', other)).json().data;
    assert.ok(!theirs.some((l: { name: string }) => l.name === 'private'));
  });

  it('label/* over the SendCloud-compatible API', async () => {
    const added = await apiv2(t, 'label/add', { ...creds, labelName: 'api-label' });
    assert.equal(added.result, true, added.message);
    const { labelId, labelName, gmtCreated, gmtModified } = added.info.data;
    assert.equal(labelName, 'api-label');
    assert.match(gmtCreated, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.match(gmtModified, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const dup = await apiv2(t, 'label/add', { ...creds, labelName: 'api-label' }, 'zh-cn');
    assert.deepEqual([dup.result, dup.statusCode, dup.message], [false, 40111, '标签名称已存在']);

    const got = await apiv2(t, 'label/get', { ...creds, labelId: String(labelId) });
    assert.equal(got.info.data.labelName, 'api-label');

    const listed = await apiv2(t, 'label/list', { ...creds, query: 'API-lab', start: '0', limit: '10' });
    assert.equal(listed.info.count, 1);
    assert.equal(listed.info.dataList[0].labelId, labelId);
    const page = await apiv2(t, 'label/list', { ...creds, start: '1', limit: '1' });
    assert.equal(page.info.count, 1);
    assert.ok(page.info.total >= 2);

    const updated = await apiv2(t, 'label/update', {
      ...creds,
      labelId: String(labelId),
      labelName: 'api-renamed',
    });
    assert.deepEqual([updated.result, updated.info.count], [true, 1]);
    assert.equal(
      (await call('GET', `/v3/api/config/labels/${labelId}`, owner)).json().data.name,
      'api-renamed',
    );

    const empty = await apiv2(t, 'label/add', { ...creds, labelName: '' });
    assert.equal(empty.result, false);
    assert.equal(empty.statusCode, 400);

    const foreign = (await call('POST', '/v3/api/config/labels', other, { name: 'foreign' })).json().data;
    const notMine = await apiv2(t, 'label/get', { ...creds, labelId: String(foreign.id) });
    assert.deepEqual([notMine.result, notMine.statusCode], [false, 404]);

    const deleted = await apiv2(t, 'label/delete', { ...creds, labelId: String(labelId) });
    assert.deepEqual([deleted.result, deleted.info.count], [true, 1]);
    assert.equal((await apiv2(t, 'label/get', { ...creds, labelId: String(labelId) })).statusCode, 404);
  });
});
