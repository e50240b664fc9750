import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS as P } from '@herald/shared';
import { type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import { injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { type SmsReady, smsapi, smsReadyAccount } from './sms-fixtures.ts';

/**
 * Importing and exporting SMS interception lists (issue 20): a txt or csv file of numbers, one a
 * line or in the first column, read as adding reads them; invalid and repeated lines counted and
 * answered; a file over 100,000 lines, of another format or with nothing valid refused with
 * nothing written; the list as CSV, a download (verification, no visitors); keywords the same way.
 */
describe('SMS interception import and export', () => {
  let t: TestApp;
  let carrier: SmppCarrier;
  let owner: SignedIn;
  let other: SignedIn;
  let ready: SmsReady;
  let call: ReturnType<typeof injector>;

  before(async () => {
    carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 5 });
    t = await buildTestApp();
    call = injector(t);
    await t.core.smsCarriers.save({
      name: 'c',
      url: `smpp://127.0.0.1:${carrier.port}`,
      systemId: 'herald',
      password: 'secret',
    });
    await t.core.smsCarriers.addRoute({ carrier: 'c', country: 'CN' });
    owner = await createOwner(t, 'smsimp_owner');
    other = await createOwner(t, 'smsimp_other');
    ready = await smsReadyAccount(t, owner.ctx.accountId, 'smsimp_user');
    t.core.smsDelivery.start();
  });
  after(async () => {
    await t?.close();
    await carrier?.close();
  });

  const total = async (path: string, who: SignedIn = owner) =>
    (await call('GET', `/v3/api/sms/${path}?pageSize=100`, who)).json().total as number;
  const csvLines = (body: string) =>
    body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');

  it('imports a csv file: new, already listed, repeated and invalid lines counted; the numbers are blocked', async () => {
    await call('POST', '/v3/api/sms/interceptor', owner, { phones: '13800138001' });
    const content = [
      'phone,name',
      '13800138001,Li',
      '"13800138002",Wang',
      '13800138002',
      '+8613800138003',
      '+1 415 555 2671',
      '12345',
      'hello',
      '',
      "'+8613800138004",
    ].join('\r\n');
    const res = await call('POST', '/v3/api/sms/interceptor/import', owner, {
      filename: 'numbers.CSV',
      content: `\uFEFF${content}`,
      reason: 'bulk',
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json().data, {
      lines: 8,
      imported: 4,
      existing: 1,
      duplicates: 1,
      invalid: 2,
      invalidLines: [
        { line: 7, text: '12345' },
        { line: 8, text: 'hello' },
      ],
    });
    const list = (await call('GET', '/v3/api/sms/interceptor?pageSize=100', owner)).json();
    assert.equal(list.total, 5);
    assert.deepEqual(
      list.data
        .map((e: { phone: string; reason: string; source: string }) => [e.phone, e.reason, e.source])
        .sort(),
      [
        ['+14155552671', 'bulk', 'import'],
        ['+8613800138001', 'bulk', 'import'],
        ['+8613800138002', 'bulk', 'import'],
        ['+8613800138003', 'bulk', 'import'],
        ['+8613800138004', 'bulk', 'import'],
      ],
    );
    assert.equal(await total('interceptor', other), 0, 'another account’s list is its own');

    const sent = await smsapi(t, 'send', ready, {
      templateId: String(ready.templateId),
      phone: '13800138003',
      vars: '{"code":"1234"}',
    });
    const smsId = (sent.body.info.smsIds as string[])[0] as string;
    const row = await waitFor('intercepted', async () => {
      const r = await t.core.database.db
        .selectFrom('sms_messages')
        .select(['status', 'status_code'])
        .where('sms_id', '=', smsId)
        .executeTakeFirstOrThrow();
      return r.status === 'processing_failed' ? r : undefined;
    });
    assert.equal(row.status_code, 420);
  });

  it('takes 100,000 lines, refuses one more, another format or nothing valid, writing nothing', async () => {
    const numbers = (n: number) => Array.from({ length: n }, (_, i) => `139${String(i).padStart(8, '0')}`);
    const tooMany = await call(
      'POST',
      '/v3/api/sms/unsubscribes/import',
      owner,
      { filename: 'big.txt', content: numbers(100_001).join('\n') },
      'zh-cn',
    );
    assert.equal(tooMany.statusCode, 400);
    assert.equal(tooMany.json().code, 'SMS_IMPORT_TOO_MANY_LINES');
    assert.equal(
      tooMany.json().error,
      '文件有100001行，每个文件最多100000行，请拆分后再导入；本次未导入任何内容',
    );
    assert.equal(await total('unsubscribes'), 0, 'nothing was written');

    const format = await call('POST', '/v3/api/sms/unsubscribes/import', owner, {
      filename: 'numbers.xlsx',
      content: '13800138001',
    });
    assert.deepEqual([format.statusCode, format.json().code], [400, 'SMS_IMPORT_FORMAT']);
    const nothing = await call('POST', '/v3/api/sms/unsubscribes/import', owner, {
      filename: 'numbers.txt',
      content: 'phone\nabc\n123\n',
    });
    assert.equal(nothing.statusCode, 400);
    assert.equal(
      nothing.json().error,
      'Nothing in the file can be imported (2 invalid lines); nothing was imported',
    );
    const noFile = await call('POST', '/v3/api/sms/unsubscribes/import', owner, { content: '1' });
    assert.equal(noFile.statusCode, 400);
    assert.equal(noFile.json().fields[0].field, 'filename');
    assert.equal(await total('unsubscribes'), 0);

    const full = await call('POST', '/v3/api/sms/unsubscribes/import', owner, {
      filename: 'big.txt',
      content: numbers(100_000).join('\n'),
    });
    assert.equal(full.statusCode, 201, full.body);
    assert.deepEqual(
      [full.json().data.lines, full.json().data.imported, full.json().data.invalid],
      [100_000, 100_000, 0],
    );
    assert.equal(await total('unsubscribes'), 100_000);
    const exported = await call('GET', '/v3/api/sms/unsubscribes/export', owner);
    assert.equal(csvLines(exported.body).length, 100_001);
  });

  it('exports the list as CSV that imports again; a download, with verification and not for visitors', async () => {
    const res = await call('GET', '/v3/api/sms/interceptor/export', owner);
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /text\/csv/);
    assert.match(
      String(res.headers['content-disposition']),
      /attachment; filename="sms-block-list-\d{4}-\d\d-\d\d\.csv"/,
    );
    assert.ok(res.body.startsWith('\uFEFF'));
    const lines = csvLines(res.body);
    assert.equal(lines[0], 'phone,reason,source,created_at,expires_at');
    assert.equal(lines.length, 6);
    assert.match(lines[1] ?? '', /^'\+8613800138001,bulk,import,\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,$/);

    const again = await call('POST', '/v3/api/sms/interceptor/import', owner, {
      filename: 'sms-block-list.csv',
      content: res.body,
    });
    assert.deepEqual(
      [
        again.json().data.lines,
        again.json().data.imported,
        again.json().data.existing,
        again.json().data.invalid,
      ],
      [5, 0, 5, 0],
    );
    assert.deepEqual(csvLines((await call('GET', '/v3/api/sms/interceptor/export', other)).body), [
      'phone,reason,source,created_at,expires_at',
    ]);

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
    const unverified = await call('GET', '/v3/api/sms/interceptor/export', owner);
    assert.deepEqual([unverified.statusCode, unverified.json().code], [403, 'VERIFY_DOWNLOAD_REQUIRED']);
    await t.core.database.db
      .updateTable('user_security_settings')
      .set({ download_verify: 0 })
      .where('user_id', '=', owner.ctx.userId)
      .execute();

    const reader = await joinedMember(t, owner, 'smsimp_reader', {
      type: 'custom',
      levels: { [P.SMS_RESPONSE]: 'read' },
    });
    assert.equal((await call('GET', '/v3/api/sms/interceptor', reader)).statusCode, 200);
    assert.equal((await call('GET', '/v3/api/sms/interceptor/export', reader)).statusCode, 403);
    const readerImport = await call('POST', '/v3/api/sms/interceptor/import', reader, {
      filename: 'a.txt',
      content: '13800138009',
    });
    assert.equal(readerImport.statusCode, 403);
  });

  it('imports and exports the keyword filter the same way', async () => {
    const long = '很长的关键字'.repeat(6);
    const res = await call('POST', '/v3/api/sms/keywords/import', owner, {
      filename: 'words.txt',
      content: `关键字\n贷款\n贷款\n${long}\n发票\n`,
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(
      [res.json().data.imported, res.json().data.duplicates, res.json().data.invalid],
      [2, 1, 1],
    );
    const exported = await call('GET', '/v3/api/sms/keywords/export', owner);
    const lines = csvLines(exported.body);
    assert.equal(lines[0], 'keyword,created_at');
    assert.deepEqual(
      lines.slice(1).map((l) => l.split(',')[0]),
      ['贷款', '发票'],
    );
    const again = await call('POST', '/v3/api/sms/keywords/import', owner, {
      filename: 'words.csv',
      content: exported.body,
    });
    assert.deepEqual([again.json().data.imported, again.json().data.existing], [0, 2]);
    assert.equal((await call('GET', '/v3/api/sms/keywords', other)).json().data.length, 0);
  });
});
