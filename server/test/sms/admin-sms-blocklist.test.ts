import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import { injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { secretKeyEnv, tempDir } from '../helpers/database.ts';
import { bearer, createOwner, type SignedIn } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { operatorSession } from '../templates/template-helpers.ts';
import { type SmsReady, smsapi, smsReadyAccount } from './sms-fixtures.ts';

const cli = path.join(import.meta.dirname, '../../src/cli.ts');
const BASE = '/v3/api/admin/smsBlocklist';

/**
 * The operator's global SMS interception list (issue 20): a number the operator adds in /admin or
 * the CLI stops every account's SMS with 410 before any carrier sees it; removing it lets the next
 * one through; an import (JSON, multipart or a bare text body) counts new, listed, repeated and
 * invalid lines; the export is the list as CSV; customers are refused every call.
 */
describe('the global SMS interception list in /admin and the CLI', () => {
  let t: TestApp;
  let carrier: SmppCarrier;
  let operator: SignedIn;
  let first: SignedIn;
  let second: SignedIn;
  let firstReady: SmsReady;
  let secondReady: SmsReady;
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
    operator = await operatorSession(t);
    first = await createOwner(t, 'blocklist_first');
    second = await createOwner(t, 'blocklist_second');
    firstReady = await smsReadyAccount(t, first.ctx.accountId, 'blocklist_a');
    secondReady = await smsReadyAccount(t, second.ctx.accountId, 'blocklist_b');
    t.core.smsDelivery.start();
  });
  after(async () => {
    await t?.close();
    await carrier?.close();
  });

  const send = async (who: SmsReady, phone: string) => {
    const res = await smsapi(t, 'send', who, {
      templateId: String(who.templateId),
      phone,
      vars: JSON.stringify({ code: '8642' }),
    });
    assert.equal(res.body.statusCode, 200, res.body.message);
    return (res.body.info.smsIds as string[])[0] as string;
  };
  const settled = (smsId: string) =>
    waitFor(
      `${smsId} settled`,
      async () => {
        const row = await t.core.database.db
          .selectFrom('sms_messages')
          .select(['status', 'status_code', 'reason'])
          .where('sms_id', '=', smsId)
          .executeTakeFirstOrThrow();
        return row.status === 'requesting' || row.status === 'waiting' ? undefined : row;
      },
      { timeoutMs: 30_000 },
    );
  const seenByCarrier = (digits: string) => carrier.messages.filter((m) => m.destination === digits).length;
  const list = async (query = '') => (await call('GET', `${BASE}?pageSize=100${query}`, operator)).json();
  const importText = (payload: string, contentType: string, query = '') =>
    t.app.inject({
      method: 'POST',
      url: `${BASE}/import${query}`,
      headers: { ...bearer(operator.token), 'content-type': contentType, lang: 'en' },
      payload,
    });
  /** The operator's CLI on the test app's database. */
  const herald = (...args: string[]) => {
    const { database, dataDir } = t.core.config;
    const url = database.kind === 'sqlite' ? `sqlite:${database.file}` : database.url;
    const result = spawnSync(process.execPath, [cli, ...args], {
      env: { ...process.env, DATABASE_URL: url, HERALD_DATA_DIR: dataDir, ...secretKeyEnv() },
      encoding: 'utf8',
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  it('refuses every call to a customer (403) and to nobody (401)', async () => {
    const calls = [
      ['GET', BASE],
      ['POST', BASE],
      ['DELETE', `${BASE}/1`],
      ['POST', `${BASE}/import`],
      ['GET', `${BASE}/export`],
    ] as const;
    const body = { phones: '13800139000', filename: 'a.txt', content: '13800139000' };
    for (const [method, url] of calls) {
      assert.equal((await call(method, url, first, body)).statusCode, 403, `a customer: ${method} ${url}`);
      assert.equal((await call(method, url, null, body)).statusCode, 401, `nobody: ${method} ${url}`);
    }
    assert.equal((await list()).total, 0);
  });

  it('stops every account’s SMS to an added number with 410 before any carrier; removing it lets it through', async () => {
    const bad = await call('POST', BASE, operator, { phones: '123' });
    assert.equal(bad.statusCode, 400);
    const badDays = await call('POST', BASE, operator, { phones: '13800139001', days: 0 });
    assert.equal(badDays.statusCode, 400);
    assert.equal(badDays.json().fields[0].field, 'days');

    const added = await call('POST', BASE, operator, { phones: '138 0013 9001', reason: 'fraud reports' });
    assert.equal(added.statusCode, 201, added.body);
    assert.equal(added.json().data.added, 1);
    const row = await t.core.database.db
      .selectFrom('sms_blocks')
      .selectAll()
      .where('phone', '=', '+8613800139001')
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      [Number(row.account_id), row.kind, row.source, row.expires_at],
      [0, 'block', 'manual', null],
    );

    for (const who of [firstReady, secondReady]) {
      const stopped = await settled(await send(who, '13800139001'));
      assert.deepEqual(
        [stopped.status, stopped.status_code, stopped.reason],
        ['processing_failed', 410, 'fraud reports'],
      );
    }
    assert.equal(seenByCarrier('8613800139001'), 0, 'no carrier saw it');

    const found = await list('&search=139001');
    assert.equal(found.total, 1);
    assert.equal(found.data[0].phone, '+8613800139001');
    assert.equal((await list('&search=999999')).total, 0);
    assert.equal((await call('GET', `${BASE}?search=abc`, operator)).statusCode, 400);

    assert.equal((await call('DELETE', `${BASE}/${found.data[0].id}`, operator)).statusCode, 204);
    assert.equal((await call('DELETE', `${BASE}/${found.data[0].id}`, operator)).statusCode, 404);
    const through = await settled(await send(firstReady, '13800139001'));
    assert.equal(through.status, 'delivered');
    assert.equal(seenByCarrier('8613800139001'), 1);
  });

  it('keeps an added number for the days asked, and a carrier result does not shorten it', async () => {
    const added = await call('POST', BASE, operator, { phones: '+8613800139002', days: '7' });
    assert.equal(added.statusCode, 201, added.body);
    const entry = (await list('&search=13800139002')).data[0];
    const days = (entry.expiresAt - Date.now()) / 86_400_000;
    assert.ok(days > 6.9 && days <= 7, `expires in ${days} days`);
    await t.core.smsInterception.carrierFailed([
      { accountId: first.ctx.accountId, phone: '+8613800139002', statusCode: 510, at: Date.now() },
    ]);
    assert.equal((await list('&search=13800139002')).data[0].expiresAt, entry.expiresAt);
  });

  it('imports JSON, multipart and bare text: new, listed, repeated and invalid lines counted', async () => {
    const json = await call('POST', `${BASE}/import`, operator, {
      filename: 'numbers.csv',
      content: ['phone,note', '13800139010,a', '"13800139011",b', '13800139010', 'not a number', '12'].join(
        '\n',
      ),
      reason: 'complaints',
    });
    assert.equal(json.statusCode, 201, json.body);
    assert.deepEqual(
      { ...json.json().data, invalidLines: json.json().data.invalidLines.length },
      { lines: 5, imported: 2, existing: 0, duplicates: 1, invalid: 2, invalidLines: 2 },
    );

    const boundary = 'herald-boundary';
    const multipart = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="reason"',
      '',
      'upload',
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"; filename="more.txt"',
      'Content-Type: text/plain',
      '',
      '13800139011\n13800139012\n+8613800139012\nx',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const uploaded = await importText(multipart, `multipart/form-data; boundary=${boundary}`);
    assert.equal(uploaded.statusCode, 201, uploaded.body);
    const counted = uploaded.json().data;
    assert.deepEqual(
      [counted.lines, counted.imported, counted.existing, counted.duplicates, counted.invalid],
      [4, 1, 1, 1, 1],
    );

    const text = await importText('13800139013\r\n13800139010\r\n', 'text/plain', '?reason=bare');
    assert.equal(text.statusCode, 201, text.body);
    assert.deepEqual([text.json().data.imported, text.json().data.existing], [1, 1]);
    const csv = await importText('13800139014,x\n', 'text/csv');
    assert.equal(csv.json().data.imported, 1);

    const wrongFormat = await call('POST', `${BASE}/import`, operator, { filename: 'a.xlsx', content: '1' });
    assert.equal(wrongFormat.statusCode, 400);
    const empty = await importText('nothing here\n', 'text/plain');
    assert.equal(empty.statusCode, 400);

    const phones = (await list('&search=1380013901')).data.map((e: { phone: string }) => e.phone).sort();
    assert.deepEqual(phones, [
      '+8613800139010',
      '+8613800139011',
      '+8613800139012',
      '+8613800139013',
      '+8613800139014',
    ]);
    const stopped = await settled(await send(secondReady, '13800139013'));
    assert.deepEqual([stopped.status_code, stopped.reason], [410, 'bare']);
  });

  it('exports the live list as CSV', async () => {
    const res = await call('GET', `${BASE}/export`, operator);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    assert.match(String(res.headers['content-disposition']), /sms-global-block-list-\d{4}-\d{2}-\d{2}\.csv/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    assert.equal(lines[0], 'phone,reason,source,created_at,expires_at');
    const byPhone = new Map(lines.slice(1).map((l) => [l.split(',')[0]?.replace(/^'/, ''), l]));
    assert.equal(byPhone.size, 6);
    assert.match(byPhone.get('+8613800139012') ?? '', /,upload,import,/);
    assert.match(byPhone.get('+8613800139002') ?? '', /,,manual,/);
    assert.equal(byPhone.has('+8613800139001'), false, 'a removed number is not exported');
  });

  it('lists, adds, removes, imports and exports from the CLI', () => {
    const added = herald('sms:blocklist-add', '13800139020', '--reason', 'cli', '--days', '3');
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /added for 3 days/);
    const shown = herald('sms:blocklist', '--search', '139020');
    assert.match(shown.stdout, /\+8613800139020 +manual/);
    assert.match(shown.stdout, /^1 numbers$/m);
    const dir = tempDir('blocklist-');
    const file = path.join(dir, 'in.txt');
    fs.writeFileSync(file, '13800139021\n13800139021\nbad\n');
    const imported = herald('sms:blocklist-import', file);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /3 lines: 1 added, 0 already listed, 1 duplicates, 1 invalid/);
    const removed = herald('sms:blocklist-remove', '+86 138 0013 9020');
    assert.match(removed.stdout, /\+8613800139020 removed/);
    assert.equal(herald('sms:blocklist-remove', '13800139020').code, 2);
    const out = path.join(dir, 'out.csv');
    assert.equal(herald('sms:blocklist-export', out).code, 0);
    const exported = fs.readFileSync(out, 'utf8');
    assert.match(exported, /13800139021/);
    assert.doesNotMatch(exported, /13800139020/);
    assert.equal(herald('sms:blocklist-add', '13800139022', '--days', 'x').code, 2);
  });
});
