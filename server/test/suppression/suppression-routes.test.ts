import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS as P } from '@herald/shared';
import { type Inject, injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';

/**
 * The lists through the console API (`/data/bounce|complaint|unsubscribes|block`, rules): add,
 * list, delete, import, export; rules of product-spec §5 in both languages; tenancy, permission
 * codes, and visitors who may look but not download.
 */
describe('suppression lists (console)', () => {
  let t: TestApp;
  let call: Inject;
  let owner: SignedIn;
  let other: SignedIn;
  let visitor: SignedIn;
  let sender: SignedIn;

  before(async () => {
    t = await buildTestApp();
    call = injector(t);
    owner = await createOwner(t, 'supp_owner');
    other = await createOwner(t, 'supp_other');
    visitor = await joinedMember(t, owner, 'supp_visitor', { type: 'visitor' });
    sender = await joinedMember(t, owner, 'supp_sender', {
      type: 'custom',
      levels: { [P.EMAIL_SEND]: 'full' },
    });
  });
  after(() => t?.close());

  const rows = async (path: string, who: SignedIn, query = '') =>
    (await call('GET', `/v3/api/data/${path}${query}`, who)).json() as {
      data: { id: number; address: string; apiUserId: number | null; labelId: number | null }[];
      total: number;
    };

  it('adds addresses to the block list, lists, searches, pages and deletes them', async () => {
    const res = await call('POST', '/v3/api/data/block', owner, {
      addresses: 'one@example.org; Two@Example.org;three@example.org',
    });
    assert.equal(res.statusCode, 201);
    assert.deepEqual(res.json().data, { added: 3 });
    const all = await rows('block', owner);
    assert.equal(all.total, 3);
    assert.deepEqual(all.data.map((r) => r.address).sort(), [
      'one@example.org',
      'three@example.org',
      'two@example.org',
    ]);
    assert.deepEqual(
      (await rows('block', owner, '?email=two')).data.map((r) => r.address),
      ['two@example.org'],
    );
    const page = await rows('block', owner, '?page=2&pageSize=2');
    assert.equal(page.data.length, 1);
    assert.equal(page.total, 3);

    const two = all.data.find((r) => r.address === 'two@example.org');
    assert.equal((await call('DELETE', `/v3/api/data/block/${two?.id}`, owner)).statusCode, 204);
    assert.equal((await rows('block', owner)).total, 2);
    assert.equal((await call('DELETE', `/v3/api/data/block/${two?.id}`, owner)).statusCode, 404);
  });

  it('checks an entry: required, at most 200 addresses, valid formats, in both languages', async () => {
    const cases = [
      ['', 'en', 'Enter addresses, separated by semicolons'],
      [' ; ', 'zh-cn', '请输入邮件地址，多个以分号分隔'],
      [
        Array.from({ length: 201 }, (_, i) => `a${i}@example.org`).join(';'),
        'en',
        'At most 200 addresses per entry, separated by semicolons',
      ],
      [
        Array.from({ length: 201 }, (_, i) => `a${i}@example.org`).join(';'),
        'zh-cn',
        '每条最多200个地址，以分号分隔',
      ],
      ['good@example.org;not-an-address', 'en', 'Invalid email format: check every address'],
    ] as const;
    for (const [addresses, lang, message] of cases) {
      const res = await call('POST', '/v3/api/data/unsubscribes', owner, { addresses }, lang);
      assert.equal(res.statusCode, 400, addresses.slice(0, 20));
      assert.equal(res.json().fields?.[0]?.message, message);
    }
    const ok = await call('POST', '/v3/api/data/unsubscribes', owner, {
      addresses: Array.from({ length: 200 }, (_, i) => `u${i}@example.org`).join(';'),
    });
    assert.equal(ok.statusCode, 201);
    assert.equal((await rows('unsubscribes', owner)).total, 200);
  });

  it('scopes an unsubscribe to an API_USER or label of the account only', async () => {
    const label = (await call('POST', '/v3/api/config/labels', owner, { name: 'promo' })).json().data;
    const res = await call('POST', '/v3/api/data/unsubscribes', owner, {
      addresses: 'scoped@example.org',
      labelId: label.id,
    });
    assert.equal(res.statusCode, 201);
    const listed = await rows('unsubscribes', owner, `?labelId=${label.id}`);
    assert.deepEqual(
      listed.data.map((r) => [r.address, r.labelId]),
      [['scoped@example.org', label.id]],
    );
    const foreign = await call('POST', '/v3/api/data/unsubscribes', other, {
      addresses: 'x@example.org',
      labelId: label.id,
    });
    assert.equal(foreign.statusCode, 404);
  });

  it('imports a txt or csv file, skipping bad addresses and rejecting other formats, empty files and long lines', async () => {
    const content = 'email\nimp1@example.org;imp2@example.org\n"imp3@example.org",broken\n\n';
    const res = await call('POST', '/v3/api/data/block/import', owner, { filename: 'list.csv', content });
    assert.equal(res.statusCode, 201);
    assert.deepEqual(res.json().data, { imported: 3, invalid: ['broken'], invalidCount: 1 });
    assert.equal((await rows('block', owner, '?email=imp')).total, 3);

    const xls = await call(
      'POST',
      '/v3/api/data/block/import',
      owner,
      { filename: 'list.xls', content: 'a@b.org' },
      'zh-cn',
    );
    assert.equal(xls.statusCode, 400);
    assert.equal(xls.json().error, '文件格式错误，请上传 txt 或 csv 文件');
    const empty = await call('POST', '/v3/api/data/block/import', owner, {
      filename: 'list.txt',
      content: '\n\n',
    });
    assert.equal(empty.json().error, 'Uploaded file is empty');
    const long = Array.from({ length: 201 }, (_, i) => `l${i}@example.org`).join(';');
    const tooLong = await call('POST', '/v3/api/data/block/import', owner, {
      filename: 'l.txt',
      content: `a@example.org\n${long}`,
    });
    assert.equal(tooLong.statusCode, 400);
    assert.equal(
      tooLong.json().error,
      'Line 2 has more than 200 addresses (at most 200 per entry, separated by semicolons)',
    );
  });

  it('exports a list as CSV, but not to a visitor', async () => {
    await call('POST', '/v3/api/data/block', owner, { addresses: 'export-me@example.org' });
    const res = await call('GET', '/v3/api/data/block/export?email=export-me', owner);
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /text\/csv/);
    assert.match(
      String(res.headers['content-disposition']),
      /attachment; filename="block-list-\d{4}-\d\d-\d\d\.csv"/,
    );
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    assert.equal(lines[0], 'address,domain,reason,detail,api_user,label_id,source,created_at,expires_at');
    assert.match(lines[1] ?? '', /^export-me@example\.org,example\.org,blacklist,,,,console,\d{4}-/);
    assert.equal(lines.length, 2);

    // With download verification switched on, the export asks for it like every other download.
    await t.core.database.db
      .insertInto('user_security_settings')
      .values({
        user_id: owner.ctx.userId,
        account_id: owner.ctx.accountId,
        download_verify: 1,
        totp_secret: null,
        totp_bound_at: null,
        updated_at: Date.now(),
      })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ download_verify: 1 }))
      .execute();
    const unverified = await call('GET', '/v3/api/data/block/export', owner);
    assert.equal(unverified.statusCode, 403);
    assert.equal(unverified.json().code, 'VERIFY_DOWNLOAD_REQUIRED');
    await t.core.database.db
      .updateTable('user_security_settings')
      .set({ download_verify: 0 })
      .where('user_id', '=', owner.ctx.userId)
      .execute();

    assert.equal((await call('GET', '/v3/api/data/block', visitor)).statusCode, 200, 'a visitor may look');
    const denied = await call('GET', '/v3/api/data/block/export', visitor);
    assert.equal(denied.statusCode, 403);
    assert.equal(
      (await call('POST', '/v3/api/data/block', visitor, { addresses: 'v@example.org' })).statusCode,
      403,
    );
  });

  it('keeps each account to its own entries and needs code 11', async () => {
    const mine = (await rows('block', owner)).data[0];
    assert.ok(mine);
    assert.equal((await rows('block', other)).total, 0);
    assert.equal((await call('DELETE', `/v3/api/data/block/${mine.id}`, other)).statusCode, 404);
    assert.equal(
      (await call('DELETE', `/v3/api/data/unsubscribes/${mine.id}`, owner)).statusCode,
      404,
      'another list',
    );
    for (const path of ['bounce', 'complaint', 'unsubscribes', 'block', 'block/rules']) {
      assert.equal((await call('GET', `/v3/api/data/${path}`, sender)).statusCode, 403, path);
    }
    assert.equal(
      (await call('GET', '/v3/api/data/emailStatus?startTime=0&endTime=1', sender)).statusCode,
      403,
    );
    assert.equal(
      (await call('DELETE', '/v3/api/data/complaint/1', owner)).statusCode,
      404,
      'spam reports cannot be deleted',
    );
    assert.equal(
      (await call('POST', '/v3/api/data/bounce', owner, { addresses: 'a@b.org' })).statusCode,
      404,
      'nor bounces added',
    );
  });

  it('manages interception rules: add, duplicate, validation, delete, tenancy', async () => {
    const add = await call('POST', '/v3/api/data/block/rules', owner, {
      type: 'domain',
      value: '@Rival.example',
      note: 'competitor',
    });
    assert.equal(add.statusCode, 201);
    const rule = add.json().data;
    assert.deepEqual(
      [rule.type, rule.value, rule.apiUserId, rule.note],
      ['domain', 'rival.example', null, 'competitor'],
    );
    const dup = await call('POST', '/v3/api/data/block/rules', owner, {
      type: 'domain',
      value: 'rival.example',
    });
    assert.equal(dup.statusCode, 422);
    assert.equal(dup.json().error, 'The same interception rule already exists');
    const bad = await call(
      'POST',
      '/v3/api/data/block/rules',
      owner,
      { type: 'domain', value: 'not a domain' },
      'zh-cn',
    );
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().fields?.[0]?.message, /规则内容格式错误/);
    const badType = await call('POST', '/v3/api/data/block/rules', owner, { type: 'regex', value: '.*' });
    assert.equal(badType.json().fields?.[0]?.message, 'A rule type is address, domain or keyword');
    assert.equal((await call('GET', '/v3/api/data/block/rules', owner)).json().data.length, 1);
    assert.equal((await call('GET', '/v3/api/data/block/rules', other)).json().data.length, 0);
    assert.equal((await call('DELETE', `/v3/api/data/block/rules/${rule.id}`, other)).statusCode, 404);
    assert.equal((await call('DELETE', `/v3/api/data/block/rules/${rule.id}`, owner)).statusCode, 204);
    assert.equal((await call('GET', '/v3/api/data/block/rules', owner)).json().data.length, 0);
  });
});
