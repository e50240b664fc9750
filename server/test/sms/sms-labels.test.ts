import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS as P } from '@herald/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, migrateBefore, type TestDatabase, testDialect } from '../helpers/database.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { type SmsReady, smsapi, smsReadyAccount } from './sms-fixtures.ts';

const BASE = '/v3/api/sms/smsLabels';
const TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * SMS labels (issue 20): the console's `/sms/smsLabels`, the SMS API's `label/*` and the labelId
 * of SMS sends, beside email labels in one table but never seen by the other channel's calls.
 */
describe(`SMS labels on ${testDialect}`, () => {
  let t: TestApp;
  let call: ReturnType<typeof injector>;
  let owner: SignedIn;
  let other: SignedIn;
  let ready: SmsReady;

  before(async () => {
    t = await buildTestApp();
    call = injector(t);
    owner = await createOwner(t, 'smslabel_owner');
    other = await createOwner(t, 'smslabel_other');
    ready = await smsReadyAccount(t, owner.ctx.accountId, 'smslabel_user');
  });
  after(() => t?.close());

  const create = async (who: SignedIn, name: string, base = BASE) => {
    const res = await call('POST', base, who, { name });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data as { id: number; name: string };
  };

  it('adds, lists, searches, renames and deletes SMS labels in the console', async () => {
    const otp = await create(owner, 'otp-login');
    await create(owner, 'marketing');
    const names = async (query = '') =>
      (await call('GET', `${BASE}${query}`, owner)).json().data.map((l: { name: string }) => l.name);
    assert.deepEqual(await names(), ['marketing', 'otp-login']);
    assert.deepEqual(await names('?query=OTP'), ['otp-login']);
    const combobox = (await call('GET', `${BASE}/combobox`, owner)).json().data;
    assert.deepEqual(combobox[1], { value: otp.id, label: 'otp-login' });

    const renamed = await call('PATCH', `${BASE}/${otp.id}`, owner, { name: 'otp' });
    assert.equal(renamed.json().data.name, 'otp');
    assert.equal((await call('GET', `${BASE}/${otp.id}`, owner)).json().data.name, 'otp');

    const taken = await call('POST', BASE, owner, { name: 'marketing' }, 'zh-cn');
    assert.deepEqual(
      [taken.statusCode, taken.json().code, taken.json().error],
      [422, 'SMS_LABEL_NAME_TAKEN', '短信标签名称已存在'],
    );
    const empty = await call('POST', BASE, owner, { name: '  ' });
    assert.equal(empty.statusCode, 400);
    assert.equal(empty.json().fields[0].message, 'Enter a label name');

    assert.equal((await call('DELETE', `${BASE}/${otp.id}`, owner)).statusCode, 204);
    const gone = await call('GET', `${BASE}/${otp.id}`, owner);
    assert.deepEqual([gone.statusCode, gone.json().error], [404, 'The SMS label does not exist']);
  });

  it('keeps email and SMS labels apart: same names allowed, neither channel sees the other', async () => {
    const sms = await create(owner, 'shared-name');
    const email = await create(owner, 'shared-name', '/v3/api/config/labels');
    const emailNames = (await call('GET', '/v3/api/config/labels', owner)).json().data;
    assert.deepEqual(
      emailNames.map((l: { name: string }) => l.name),
      ['shared-name'],
    );
    assert.ok(!(await call('GET', BASE, owner)).json().data.some((l: { id: number }) => l.id === email.id));
    assert.equal((await call('GET', `${BASE}/${email.id}`, owner)).statusCode, 404);
    assert.equal((await call('DELETE', `${BASE}/${email.id}`, owner)).statusCode, 404);
    assert.equal((await call('GET', `/v3/api/config/labels/${sms.id}`, owner)).statusCode, 404);
    assert.equal(
      (await call('PATCH', `/v3/api/config/labels/${sms.id}`, owner, { name: 'x' })).statusCode,
      404,
    );
  });

  it("another account's SMS label is a 404, and the code 19 is needed", async () => {
    const mine = await create(owner, 'private-sms');
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'stolen' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(method, `${BASE}/${mine.id}`, other, body);
      assert.equal(res.statusCode, 404, method);
    }
    assert.equal(await create(other, 'private-sms').then((l) => l.name), 'private-sms');

    const reader = await joinedMember(t, owner, 'smslabel_reader', {
      type: 'custom',
      levels: { [P.SMS_SETTINGS]: 'read' },
    });
    assert.equal((await call('GET', BASE, reader)).statusCode, 200);
    assert.equal((await call('POST', BASE, reader, { name: 'nope' })).statusCode, 403);
    assert.equal((await call('DELETE', `${BASE}/${mine.id}`, reader)).statusCode, 403);
    const emailOnly = await joinedMember(t, owner, 'smslabel_mailer', {
      type: 'custom',
      levels: { [P.EMAIL_SETTINGS]: 'full' },
    });
    assert.equal((await call('GET', BASE, emailOnly)).statusCode, 403);
    assert.equal((await call('GET', '/v3/api/config/labels', emailOnly)).statusCode, 200);
  });

  it('smsapi/label/* saves, lists, gets, updates and deletes, signed like the other SMS calls', async () => {
    const saved = await smsapi(t, 'label/save', ready, { labelName: 'api-sms' });
    assert.equal(saved.body.statusCode, 200, saved.body.message);
    const label = saved.body.info.data as Record<string, string | number>;
    assert.equal(label.labelName, 'api-sms');
    for (const field of ['createTime', 'updateTime', 'gmtCreated', 'gmtModified']) {
      assert.match(String(label[field]), TIME, field);
    }
    const labelId = String(label.labelId);

    const dup = await smsapi(t, 'label/save', ready, { labelName: 'api-sms' }, 'zh-cn');
    assert.deepEqual(
      [dup.body.result, dup.body.statusCode, dup.body.message],
      [false, 492, '短信标签名称已存在'],
    );
    const tooLong = await smsapi(t, 'label/save', ready, { labelName: 'x'.repeat(256) });
    assert.deepEqual(
      [tooLong.body.statusCode, tooLong.body.message],
      [493, 'A label name has 1 to 255 characters'],
    );
    assert.equal((await smsapi(t, 'label/save', ready, {})).body.statusCode, 493);

    const got = await smsapi(t, 'label/get', ready, { labelId });
    assert.equal((got.body.info.data as { labelName: string }).labelName, 'api-sms');
    const listed = await smsapi(t, 'label/list', ready, { labelName: 'API-', start: '0', limit: '10' });
    assert.deepEqual([listed.body.info.total, listed.body.info.count], [1, 1]);
    const all = await smsapi(t, 'label/list', ready, { limit: '1' });
    assert.equal(all.body.info.count, 1);
    assert.ok(Number(all.body.info.total) > 1);

    const updated = await smsapi(t, 'label/update', ready, { labelId, labelName: 'api-sms-2' });
    assert.equal((updated.body.info.data as { labelName: string }).labelName, 'api-sms-2');
    assert.equal((await call('GET', `${BASE}/${labelId}`, owner)).json().data.name, 'api-sms-2');

    const emailLabel = await create(owner, 'mail-only', '/v3/api/config/labels');
    const foreign = await create(other, 'foreign-sms');
    for (const id of [String(emailLabel.id), String(foreign.id), 'abc']) {
      const res = await smsapi(t, 'label/get', ready, { labelId: id }, 'zh-cn');
      assert.deepEqual(
        [res.body.result, res.body.statusCode, res.body.message],
        [false, 491, '短信标签不存在'],
        id,
      );
    }
    assert.equal((await smsapi(t, 'label/delete', ready, {})).body.statusCode, 491);

    const wrongKey = await smsapi(t, 'label/list', { smsUser: ready.smsUser, smsKey: 'not-the-key' }, {});
    assert.equal(wrongKey.body.statusCode, 422);

    const deleted = await smsapi(t, 'label/delete', ready, { labelId });
    assert.deepEqual([deleted.body.statusCode, deleted.body.info.count], [200, 1]);
    assert.equal((await smsapi(t, 'label/get', ready, { labelId })).body.statusCode, 491);
  });

  it('sends with one of the account’s SMS labels, refuses any other labelId, and shows the label on the status list', async () => {
    const label = await create(owner, 'verify-codes');
    const emailLabel = await create(owner, 'mail-label', '/v3/api/config/labels');
    const foreign = await create(other, 'their-sms');
    const send = (labelId: string, lang = 'en') =>
      smsapi(
        t,
        'send',
        ready,
        { templateId: String(ready.templateId), phone: '13800138990', vars: '{"code":"2468"}', labelId },
        lang,
      );

    for (const labelId of [String(emailLabel.id), String(foreign.id), '999999', 'x1']) {
      const refused = await send(labelId, 'zh-cn');
      assert.deepEqual(
        [refused.body.result, refused.body.statusCode, refused.body.message],
        [false, 491, '短信标签不存在'],
        labelId,
      );
    }
    const code = await smsapi(t, 'sendcode', ready, {
      phone: '13800138991',
      code: '1234',
      signId: String(ready.signId),
      labelId: String(emailLabel.id),
    });
    assert.equal(code.body.statusCode, 491, 'sendcode checks the label too');

    const sent = await send(String(label.id));
    assert.equal(sent.body.statusCode, 200, sent.body.message);
    const [smsId] = sent.body.info.smsIds as string[];
    const row = await t.core.database.db
      .selectFrom('sms_messages')
      .select('label_id')
      .where('sms_id', '=', smsId ?? '')
      .executeTakeFirstOrThrow();
    assert.equal(Number(row.label_id), label.id);
    assert.equal((await send('')).body.statusCode, 200, 'no label is fine');

    const now = Date.now();
    const status = async (query = '') =>
      (
        await call(
          'GET',
          `/v3/api/sms/smsStatus?startTime=${now - 3600_000}&endTime=${now + 3600_000}${query}`,
          owner,
        )
      ).json();
    const labelled = await status(`&labelId=${label.id}`);
    assert.equal(labelled.total, 1);
    assert.deepEqual(
      [labelled.data[0].smsId, labelled.data[0].labelId, labelled.data[0].labelName],
      [smsId, label.id, 'verify-codes'],
    );
    assert.ok((await status()).total >= 2, 'without the filter every SMS of the period');
    assert.equal((await status('&labelId=abc')).total, undefined, 'a bad filter is refused');

    await call('DELETE', `${BASE}/${label.id}`, owner);
    const after = await status(`&labelId=${label.id}`);
    assert.deepEqual([after.data[0].labelId, after.data[0].labelName], [label.id, null]);
  });
});

describe(`0037-sms-labels on ${testDialect}`, () => {
  let testDb: TestDatabase;
  let database: Database;
  before(async () => {
    testDb = await createTestDatabase({ migrate: false });
    database = testDb.open();
  });
  after(async () => {
    await database.close();
    await testDb.drop();
  });

  it('keeps every email label, its id and what refers to it, and lets SMS take the same names', async () => {
    await migrateBefore(database, '0037-sms-labels');
    const old = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const now = Date.now();
    const account = await old
      .insertInto('accounts')
      .values({ username: 'legacy_labels', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const label = (name: string) =>
      old
        .insertInto('labels')
        .values({ account_id: account.id, name, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
    const kept = await label('weekly');
    const removed = await label('to-delete');
    await old.deleteFrom('labels').where('id', '=', removed.id).execute();
    await old
      .insertInto('api_users')
      .values({
        account_id: account.id,
        name: 'legacy_api_user',
        email_type: 'batch',
        label_id: kept.id,
        created_at: now,
        updated_at: now,
      })
      .execute();

    const applied = await migrateToLatest(database);
    assert.equal(applied[0], '0037-sms-labels');
    const rows = await database.db.selectFrom('labels').select(['id', 'name', 'channel']).execute();
    assert.deepEqual(rows, [{ id: kept.id, name: 'weekly', channel: 'email' }]);
    const apiUser = await database.db.selectFrom('api_users').select('label_id').executeTakeFirstOrThrow();
    assert.equal(apiUser.label_id, kept.id, 'the API_USER keeps its label');

    const sms = await database.db
      .insertInto('labels')
      .values({
        account_id: Number(account.id),
        channel: 'sms',
        name: 'weekly',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    assert.ok(Number(sms.id) > Number(removed.id), 'a deleted label’s id is not handed out again');
    await assert.rejects(
      database.db
        .insertInto('labels')
        .values({
          account_id: Number(account.id),
          channel: 'sms',
          name: 'weekly',
          created_at: now,
          updated_at: now,
        })
        .execute(),
    );
    await database.db.deleteFrom('accounts').where('id', '=', Number(account.id)).execute();
    assert.equal((await database.db.selectFrom('labels').selectAll().execute()).length, 0, 'still cascades');
  });
});
