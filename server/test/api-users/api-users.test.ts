import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS as P } from '@herald/shared';
import { hashApiKey } from '../../src/core/api-users/api-user-auth.ts';
import { createDomain } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { apiv2, type Inject, injector, verifySession } from './fixtures.ts';

/**
 * API_USERs through the console API as a user meets them: the rules of product-spec §5 with
 * their messages in both languages, the key shown once and stored only as a hash, the reset's
 * grace period, default senders, tenancy and the permission code 13.
 */
describe('API_USERs (console API)', () => {
  let t: TestApp;
  let call: Inject;
  let owner: SignedIn;
  let other: SignedIn;
  let domainId: number;
  let usableId: number;
  let unverifiedId: number;
  let otherDomainId: number;

  before(async () => {
    t = await buildTestApp();
    call = injector(t);
    owner = await createOwner(t, 'apiu_owner');
    other = await createOwner(t, 'apiu_other');
    domainId = (
      await createDomain(t.core.database, owner.ctx.accountId, {
        name: 'mail.acme.example',
        status: 'verified',
      })
    ).id;
    usableId = (
      await createDomain(t.core.database, owner.ctx.accountId, {
        name: 'usable.acme.example',
        status: 'usable',
      })
    ).id;
    unverifiedId = (
      await createDomain(t.core.database, owner.ctx.accountId, {
        name: 'new.acme.example',
        status: 'unverified',
      })
    ).id;
    otherDomainId = (
      await createDomain(t.core.database, other.ctx.accountId, {
        name: 'mail.other.example',
        status: 'verified',
      })
    ).id;
  });
  after(() => t.close());

  const create = (who: SignedIn, body: Record<string, unknown>, lang = 'en') =>
    call('POST', '/v3/api/config/categories', who, { emailType: 'trigger', domainId, ...body }, lang);
  const errorOf = (res: { json(): unknown }) =>
    res.json() as { code: string; error: string; fields?: { field: string; message: string }[] };

  it('creates an API_USER, shows its key once and keeps only its SHA-256', async () => {
    const res = await create(owner, { name: 'acme_trigger' });
    assert.equal(res.statusCode, 201);
    const { apiUser, apiKey } = res.json().data;
    assert.match(apiKey, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(apiUser.name, 'acme_trigger');
    assert.equal(apiUser.emailType, 'trigger');
    assert.equal(apiUser.domainName, 'mail.acme.example');
    assert.deepEqual(
      [apiUser.openTracking, apiUser.clickTracking, apiUser.unsubscribeTracking],
      [true, true, true],
    );
    assert.equal(apiUser.keys[0].hint, apiKey.slice(-4));

    const rows = await t.core.database.db
      .selectFrom('api_keys')
      .selectAll()
      .where('api_user_id', '=', apiUser.id)
      .execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.key_hash, hashApiKey(apiKey));
    assert.ok(!JSON.stringify(rows).includes(apiKey), 'the key itself is not stored');

    for (const url of ['/v3/api/config/categories', `/v3/api/config/categories/${apiUser.id}`]) {
      const shown = await call('GET', url, owner);
      assert.equal(shown.statusCode, 200);
      assert.ok(shown.body.includes('acme_trigger'));
      assert.ok(!shown.body.includes(apiKey), `${url} does not show the key again`);
    }

    const info = await apiv2(t, 'userinfo/get', { apiUser: 'acme_trigger', apiKey });
    assert.equal(info.result, true);
    assert.equal(info.info.userName, 'apiu_owner');
  });

  it('checks the name rule and the platform-wide uniqueness, in both languages', async () => {
    for (const [name, lang, message] of [
      ['abcde', 'en', /6-64 letters, digits, underscores, at signs, hyphens or dots/],
      ['has space!', 'zh-cn', /API_USER为6-64位字母、数字、下划线、@、中划线或点/],
      ['x'.repeat(65), 'en', /6-64/],
    ] as const) {
      const res = await create(owner, { name }, lang);
      assert.equal(res.statusCode, 400, name);
      const field = errorOf(res).fields?.find((f) => f.field === 'name');
      assert.match(field?.message ?? '', message);
    }
    const okNames = await create(owner, { name: 'dev.team-1@acme_x' });
    assert.equal(okNames.statusCode, 201);

    const taken = await create(other, { name: 'acme_trigger', domainId: otherDomainId });
    assert.equal(taken.statusCode, 422);
    assert.equal(errorOf(taken).error, 'API_USER already exists');
    const takenZh = await create(other, { name: 'acme_trigger', domainId: otherDomainId }, 'zh-cn');
    assert.equal(errorOf(takenZh).error, 'API_USER已存在');

    const check = async (name: string) =>
      (await call('GET', `/v3/api/config/categories/check?name=${name}`, other)).json().data.available;
    assert.equal(await check('acme_trigger'), false);
    assert.equal(await check('still_free_name'), true);
    assert.equal((await call('GET', '/v3/api/config/categories/check?name=bad', other)).statusCode, 400);
  });

  it('binds only a usable or verified domain of the account', async () => {
    const unverified = await create(owner, { name: 'acme_unverified', domainId: unverifiedId });
    assert.equal(unverified.statusCode, 422);
    assert.equal(
      errorOf(unverified).error,
      'The sending domain is not verified and cannot be bound to an API_USER',
    );
    const zh = await create(owner, { name: 'acme_unverified', domainId: unverifiedId }, 'zh-cn');
    assert.equal(errorOf(zh).error, '发信域名未通过验证，不能绑定API_USER');

    const foreign = await create(owner, { name: 'acme_foreign', domainId: otherDomainId });
    assert.equal(foreign.statusCode, 422);
    assert.equal(errorOf(foreign).error, 'The sending domain does not exist');

    const missing = await create(owner, { name: 'acme_nodomain', domainId: '' });
    assert.equal(missing.statusCode, 400);
    assert.equal(errorOf(missing).fields?.[0]?.message, 'Choose a sending domain');

    const usable = await create(owner, { name: 'acme_usable', domainId: usableId, emailType: 'batch' });
    assert.equal(usable.statusCode, 201);

    const domains = (await call('GET', '/v3/api/config/categories/domains', owner)).json().data;
    assert.deepEqual(
      domains.map((d: { name: string }) => d.name),
      ['mail.acme.example', 'usable.acme.example'],
    );
  });

  it('refuses a type other than trigger or batch', async () => {
    const res = await create(owner, { name: 'acme_badtype', emailType: 'marketing' }, 'zh-cn');
    assert.equal(res.statusCode, 400);
    assert.equal(errorOf(res).fields?.[0]?.message, '请选择API_USER类型：触发或批量');
  });

  it('keeps subscription tracking on for free accounts, not for paid ones', async () => {
    const free = await create(other, {
      name: 'other_nounsub',
      domainId: otherDomainId,
      unsubscribeTracking: false,
    });
    assert.equal(free.statusCode, 422);
    assert.equal(errorOf(free).error, 'Free users cannot deselect Subscribe Tracking');
    const freeZh = await create(
      other,
      { name: 'other_nounsub', domainId: otherDomainId, unsubscribeTracking: false },
      'zh-cn',
    );
    assert.equal(errorOf(freeZh).error, '免费用户不能取消订阅追踪');

    await t.core.database.db
      .updateTable('accounts')
      .set({ plan: 'paid' })
      .where('id', '=', other.ctx.accountId)
      .execute();
    const paid = await create(other, {
      name: 'other_nounsub',
      domainId: otherDomainId,
      unsubscribeTracking: false,
      openTracking: false,
    });
    assert.equal(paid.statusCode, 201);
    assert.equal(paid.json().data.apiUser.unsubscribeTracking, false);
    assert.equal(paid.json().data.apiUser.openTracking, false);
    await t.core.database.db
      .updateTable('accounts')
      .set({ plan: 'free' })
      .where('id', '=', other.ctx.accountId)
      .execute();

    const id = paid.json().data.apiUser.id;
    const edit = await call('PATCH', `/v3/api/config/categories/${id}`, other, {
      domainId: otherDomainId,
      unsubscribeTracking: false,
    });
    assert.equal(edit.statusCode, 422, 'once free again, the switch cannot stay off through an edit');
  });

  it('edits the domain, label and tracking switches', async () => {
    const created = (await create(owner, { name: 'acme_edit' })).json().data.apiUser;
    const label = (await call('POST', '/v3/api/config/labels', owner, { name: 'edit-label' })).json().data;
    const res = await call('PATCH', `/v3/api/config/categories/${created.id}`, owner, {
      domainId: usableId,
      labelId: label.id,
      clickTracking: false,
    });
    assert.equal(res.statusCode, 200);
    const updated = res.json().data;
    assert.equal(updated.domainName, 'usable.acme.example');
    assert.equal(updated.labelName, 'edit-label');
    assert.equal(updated.clickTracking, false);
    assert.equal(updated.name, 'acme_edit');

    const badLabel = await call('PATCH', `/v3/api/config/categories/${created.id}`, owner, {
      domainId,
      labelId: 999999,
    });
    assert.equal(badLabel.statusCode, 422);
    assert.equal(errorOf(badLabel).error, 'The label does not exist');
    const toUnverified = await call('PATCH', `/v3/api/config/categories/${created.id}`, owner, {
      domainId: unverifiedId,
    });
    assert.equal(toUnverified.statusCode, 422);
  });

  it('allows at most 10 API_USERs per account', async () => {
    const limited = await createOwner(t, 'apiu_limited');
    const d = (await createDomain(t.core.database, limited.ctx.accountId, { name: 'mail.limited.example' }))
      .id;
    for (let i = 0; i < 10; i++) {
      const res = await create(limited, { name: `limited_${i}`, domainId: d });
      assert.equal(res.statusCode, 201, res.body);
    }
    const eleventh = await create(limited, { name: 'limited_10', domainId: d });
    assert.equal(eleventh.statusCode, 422);
    assert.equal(errorOf(eleventh).error, 'At most 10 API_USERs per account');
    const zh = await create(limited, { name: 'limited_10', domainId: d }, 'zh-cn');
    assert.equal(errorOf(zh).error, '最多添加10个API_USER');
  });

  it('keeps a default trigger and batch sender; the trigger sender cannot be the batch sender', async () => {
    const team = await createOwner(t, 'apiu_senders');
    const d = (await createDomain(t.core.database, team.ctx.accountId, { name: 'mail.senders.example' })).id;
    const trigger = (await create(team, { name: 'senders_trigger', domainId: d })).json().data.apiUser;
    const trigger2 = (await create(team, { name: 'senders_trigger2', domainId: d })).json().data.apiUser;
    const batch = (await create(team, { name: 'senders_batch', domainId: d, emailType: 'batch' })).json().data
      .apiUser;

    const get = async (kind: string) =>
      (await call('GET', `/v3/api/config/categories/${kind}`, team)).json().data;
    assert.equal(
      (await get('triggerSender')).name,
      'senders_trigger',
      'the first of each type becomes the default',
    );
    assert.equal((await get('batchSender')).name, 'senders_batch');

    const same = await call('PUT', '/v3/api/config/categories/batchSender', team, { apiUserId: trigger.id });
    assert.equal(same.statusCode, 422);
    assert.equal(errorOf(same).error, 'The trigger sender cannot equal the batch sender');
    const sameZh = await call(
      'PUT',
      '/v3/api/config/categories/batchSender',
      team,
      { apiUserId: trigger.id },
      'zh-cn',
    );
    assert.equal(errorOf(sameZh).error, '触发发信API_USER不能与批量发信API_USER相同');

    const wrongType = await call('PUT', '/v3/api/config/categories/batchSender', team, {
      apiUserId: trigger2.id,
    });
    assert.equal(wrongType.statusCode, 422);
    assert.equal(errorOf(wrongType).error, 'The chosen API_USER is not of this sending type');

    const set = await call('PUT', '/v3/api/config/categories/triggerSender', team, {
      apiUserId: trigger2.id,
    });
    assert.equal(set.statusCode, 200);
    assert.equal((await get('triggerSender')).name, 'senders_trigger2');

    assert.equal((await call('DELETE', `/v3/api/config/categories/${trigger2.id}`, team)).statusCode, 204);
    assert.equal(await get('triggerSender'), null, 'deleting the default sender clears the slot');
    assert.equal((await get('batchSender')).id, batch.id);
  });

  it('resets a key: the old one works beside the new one until the chosen expiry, then fails', async () => {
    const created = (await create(owner, { name: 'acme_reset' })).json().data;
    const oldKey: string = created.apiKey;
    const id: number = created.apiUser.id;
    assert.equal((await apiv2(t, 'userinfo/get', { apiUser: 'acme_reset', apiKey: oldKey })).result, true);

    const unverified = await call('POST', '/v3/api/config/apikeys', owner, {
      apiUserId: id,
      expiresInMinutes: 30,
    });
    assert.equal(unverified.statusCode, 403, 'a reset needs the sensitive-operation verification');
    assert.equal(errorOf(unverified).code, 'VERIFY_REQUIRED');

    await verifySession(t, owner, 'apiu_owner@example.com');
    const badChoice = await call(
      'POST',
      '/v3/api/config/apikeys',
      owner,
      { apiUserId: id, expiresInMinutes: 20 },
      'zh-cn',
    );
    assert.equal(badChoice.statusCode, 400);
    assert.equal(errorOf(badChoice).fields?.[0]?.message, '请选择旧API_KEY的有效期：15、30、45或60分钟');

    const before = Date.now();
    const reset = await call('POST', '/v3/api/config/apikeys', owner, {
      apiUserId: id,
      expiresInMinutes: 30,
    });
    assert.equal(reset.statusCode, 201);
    const { apiKey: newKey, oldKeyExpiresAt } = reset.json().data;
    assert.notEqual(newKey, oldKey);
    assert.ok(oldKeyExpiresAt >= before + 30 * 60_000 && oldKeyExpiresAt <= Date.now() + 30 * 60_000);

    assert.equal(
      (await apiv2(t, 'userinfo/get', { apiUser: 'acme_reset', apiKey: oldKey })).result,
      true,
      'old key in grace',
    );
    assert.equal(
      (await apiv2(t, 'userinfo/get', { apiUser: 'acme_reset', apiKey: newKey })).result,
      true,
      'new key',
    );

    const keys = (await call('GET', `/v3/api/config/categories/${id}`, owner)).json().data.keys;
    assert.deepEqual(
      keys.map((k: { hint: string; expiresAt: number | null }) => [k.hint, k.expiresAt]),
      [
        [newKey.slice(-4), null],
        [oldKey.slice(-4), oldKeyExpiresAt],
      ],
    );

    // The grace period ends: the old row's expiry is moved into the past.
    await t.core.database.db
      .updateTable('api_keys')
      .set({ expires_at: Date.now() - 1000 })
      .where('key_hash', '=', hashApiKey(oldKey))
      .execute();
    t.core.apiUserAuth.forget('acme_reset');
    const expired = await apiv2(t, 'userinfo/get', { apiUser: 'acme_reset', apiKey: oldKey });
    assert.equal(expired.result, false);
    assert.equal(expired.statusCode, 40005);
    assert.equal((await apiv2(t, 'userinfo/get', { apiUser: 'acme_reset', apiKey: newKey })).result, true);
  });

  it('a deleted API_USER no longer authenticates', async () => {
    const created = (await create(owner, { name: 'acme_delete' })).json().data;
    assert.equal(
      (await apiv2(t, 'userinfo/get', { apiUser: 'acme_delete', apiKey: created.apiKey })).result,
      true,
    );
    assert.equal(
      (await call('DELETE', `/v3/api/config/categories/${created.apiUser.id}`, owner)).statusCode,
      204,
    );
    const after = await apiv2(t, 'userinfo/get', { apiUser: 'acme_delete', apiKey: created.apiKey });
    assert.equal(after.statusCode, 40005);
    assert.equal(
      (await call('GET', `/v3/api/config/categories/${created.apiUser.id}`, owner)).statusCode,
      404,
    );
  });

  it("another account's API_USER is a 404 for every call", async () => {
    const mine = (await create(owner, { name: 'acme_private' })).json().data.apiUser;
    await verifySession(t, other, 'apiu_other@example.com');
    for (const [method, url, body] of [
      ['GET', `/v3/api/config/categories/${mine.id}`, undefined],
      ['PATCH', `/v3/api/config/categories/${mine.id}`, { domainId: otherDomainId }],
      ['DELETE', `/v3/api/config/categories/${mine.id}`, undefined],
      ['POST', '/v3/api/config/apikeys', { apiUserId: mine.id, expiresInMinutes: 15 }],
      ['PUT', '/v3/api/config/categories/triggerSender', { apiUserId: mine.id }],
    ] as const) {
      const res = await call(method, url, other, body);
      assert.equal(res.statusCode, 404, `${method} ${url}`);
      assert.equal(errorOf(res).error, 'API_USER not found');
    }
    const list = (await call('GET', '/v3/api/config/categories', other)).json().data;
    assert.ok(!list.some((u: { name: string }) => u.name === 'acme_private'));
    assert.equal((await call('GET', `/v3/api/config/categories/${mine.id}`, owner)).statusCode, 200);
  });

  it('needs the email settings code (13)', async () => {
    const member = await joinedMember(t, owner, 'apiu_member', {
      type: 'custom',
      levels: { [P.EMAIL_DATA]: 'full' },
    });
    for (const [method, url] of [
      ['GET', '/v3/api/config/categories'],
      ['POST', '/v3/api/config/categories'],
      ['POST', '/v3/api/config/apikeys'],
      ['GET', '/v3/api/config/labels'],
    ] as const) {
      const res = await call(method, url, member, method === 'POST' ? { name: 'member_try' } : undefined);
      assert.equal(res.statusCode, 403, `${method} ${url}`);
    }
    const allowed = await joinedMember(t, owner, 'apiu_member13', {
      type: 'custom',
      levels: { [P.EMAIL_SETTINGS]: 'full' },
    });
    assert.equal((await call('GET', '/v3/api/config/categories', allowed)).statusCode, 200);
  });
});
