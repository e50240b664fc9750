import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashApiKey } from '../../src/core/api-users/api-keys.repo.ts';
import { injector, verifySession } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, type SignedIn } from '../helpers/members.ts';

/**
 * SMS_USERs through the console API: the name rule and the limit of five in both languages, the
 * SMS_KEY shown once and stored only hashed, the reset behind the identity verification with the
 * old key working through its grace period, and another account's SMS_USER a 404.
 */
describe('SMS_USERs', () => {
  let t: TestApp;
  let owner: SignedIn;
  let other: SignedIn;
  let call: ReturnType<typeof injector>;

  before(async () => {
    t = await buildTestApp();
    call = injector(t);
    owner = await createOwner(t, 'smsu_owner');
    other = await createOwner(t, 'smsu_other');
  });
  after(() => t?.close());

  const create = (who: SignedIn, body: object, lang = 'en') =>
    call('POST', '/v3/api/sms/smsUsers', who, body, lang);

  it('creates an SMS_USER with its key shown once and stored hashed', async () => {
    const res = await create(owner, { name: 'shop_sms' });
    assert.equal(res.statusCode, 201, res.body);
    const { smsUser, smsKey } = res.json().data;
    assert.match(smsKey, /^[A-Za-z0-9_-]{43}$/);
    assert.deepEqual([smsUser.name, smsUser.cType, smsUser.keys.length], ['shop_sms', 'normal', 1]);
    assert.equal(smsUser.keys[0].hint, smsKey.slice(-4));

    const rows = await t.core.database.db.selectFrom('sms_keys').select(['key_hash']).execute();
    assert.ok(rows.some((r) => r.key_hash === hashApiKey(smsKey)));
    assert.ok(!rows.some((r) => r.key_hash.includes(smsKey)), 'never the key itself');

    const listed = await call('GET', '/v3/api/sms/smsUsers', owner);
    assert.ok(!listed.body.includes(smsKey), 'the list never shows the key');
    assert.deepEqual(
      listed.json().data.map((u: { name: string }) => u.name),
      ['shop_sms'],
    );
    assert.deepEqual(await t.core.smsUsers.authenticate('shop_sms', smsKey), {
      id: smsUser.id,
      accountId: owner.ctx.accountId,
      name: 'shop_sms',
      cType: 'normal',
    });
    assert.equal(await t.core.smsUsers.authenticate('shop_sms', 'wrong'), null);
  });

  it('refuses a bad name in the caller language, a taken name, and a sixth SMS_USER', async () => {
    const zh = await create(owner, { name: 'ab' }, 'zh-cn');
    assert.equal(zh.statusCode, 400);
    assert.equal(zh.json().fields[0].message, 'SMS_USER为4-20位字母、数字或下划线');
    const en = await create(owner, { name: '短信用户名' });
    assert.equal(en.json().fields[0].message, 'The SMS_USER must be 4-20 letters, digits or underscores');

    const taken = await create(other, { name: 'shop_sms' });
    assert.equal(taken.statusCode, 422);
    assert.equal(taken.json().code, 'SMS_USER_NAME_TAKEN');

    for (const name of ['shop_sms2', 'shop_sms3', 'shop_sms4', 'shop_test']) {
      const res = await create(owner, { name, cType: name === 'shop_test' ? 'test' : 'normal' });
      assert.equal(res.statusCode, 201, res.body);
    }
    const sixth = await create(owner, { name: 'shop_sms6' }, 'zh-cn');
    assert.equal(sixth.statusCode, 422);
    assert.equal(sixth.json().error, '最多添加5个SMS_USER');
  });

  it('resets a key after the identity verification; the old one works through its grace period', async () => {
    const created = (await create(other, { name: 'other_sms' })).json().data;
    const id: number = created.smsUser.id;
    const unverified = await call('POST', '/v3/api/sms/smsKeys', other, {
      smsUserId: id,
      expiresInMinutes: 15,
    });
    assert.equal(unverified.statusCode, 403);
    assert.equal(unverified.json().code, 'VERIFY_REQUIRED');

    await verifySession(t, other, 'smsu_other@example.com');
    const bad = await call(
      'POST',
      '/v3/api/sms/smsKeys',
      other,
      { smsUserId: id, expiresInMinutes: 20 },
      'zh-cn',
    );
    assert.equal(bad.json().fields[0].message, '请选择旧SMS_KEY的有效期：15、30、45或60分钟');

    const reset = await call('POST', '/v3/api/sms/smsKeys', other, { smsUserId: id, expiresInMinutes: 15 });
    assert.equal(reset.statusCode, 201, reset.body);
    const { smsKey, oldKeyExpiresAt } = reset.json().data;
    assert.notEqual(smsKey, created.smsKey);
    assert.ok(oldKeyExpiresAt > Date.now() + 14 * 60_000);
    assert.ok(await t.core.smsUsers.authenticate('other_sms', created.smsKey), 'old key in grace');
    assert.ok(await t.core.smsUsers.authenticate('other_sms', smsKey), 'new key');
    assert.equal(reset.json().data.smsUser.keys.length, 2);
  });

  it("answers another account's SMS_USER with 404", async () => {
    const mine = (await call('GET', '/v3/api/sms/smsUsers', owner)).json().data[0];
    const res = await call('GET', `/v3/api/sms/smsUsers/${mine.id}`, other);
    assert.equal(res.statusCode, 404);
    const reset = await call('POST', '/v3/api/sms/smsKeys', other, {
      smsUserId: mine.id,
      expiresInMinutes: 15,
    });
    assert.equal(reset.statusCode, 404);
  });
});
