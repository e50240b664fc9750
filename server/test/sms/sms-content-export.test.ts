import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { PERMISSIONS as P } from '@herald/shared';
import { ExportsService } from '../../src/core/exports/exports.service.ts';
import { QUEUES } from '../../src/queue/names.ts';
import { JOBS } from '../../src/worker/registry.ts';
import { type Inject, injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { type SmsReady, smsapi, smsReadyAccount } from './sms-fixtures.ts';

const DAY = 86_400_000;
const SETTING = '/v3/api/sms/smsContent';
const EXPORTS = '/v3/api/sms/dataExportOfflines';
const TEXT = (code: string) => `【赫耳墨斯】您的验证码是${code}，5分钟内有效。`;

interface StatusRow {
  smsId: string;
  phone: string;
  content: string | null;
}

/**
 * SMS content view and SMS status exports through the console API: a free account is refused
 * (in both languages), a paid one sees the text of its SMS of the last 45 days only while the
 * switch is on (the server leaves it out otherwise), another account sees none of it; an SMS
 * status export is written by a real worker on the real queue, holds the rows with the text under
 * the same rule, and lives on the SMS offline screen only.
 */
describe('SMS content view and status exports', () => {
  let t: TestApp;
  let call: Inject;
  let owner: SignedIn;
  let other: SignedIn;
  let ready: SmsReady;
  let otherReady: SmsReady;
  /** Sent now, by phone's last four digits. */
  const smsIds: Record<string, string> = {};

  const send = async (who: SmsReady, phone: string, code: string) => {
    const res = await smsapi(t, 'send', who, {
      templateId: String(who.templateId),
      phone,
      vars: JSON.stringify({ code }),
    });
    assert.equal(res.body.statusCode, 200, res.body.message);
    return (res.body.info.smsIds as string[])[0] as string;
  };
  const age = (smsId: string, days: number) =>
    t.core.database.db
      .updateTable('sms_messages')
      .set({ requested_at: Date.now() - days * DAY })
      .where('sms_id', '=', smsId)
      .execute();
  const setPlan = (accountId: number, plan: 'free' | 'paid') =>
    t.core.database.db.updateTable('accounts').set({ plan }).where('id', '=', accountId).execute();
  const statuses = async (who: SignedIn, fromDays: number, toDays: number) => {
    const now = Date.now();
    const res = await call(
      'GET',
      `/v3/api/sms/smsStatus?startTime=${now - fromDays * DAY}&endTime=${now - toDays * DAY + 60_000}&pageSize=100`,
      who,
    );
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as StatusRow[];
  };
  const contents = (rows: StatusRow[]) => Object.fromEntries(rows.map((r) => [r.phone.slice(-4), r.content]));
  const turn = (enabled: boolean, who = owner, lang = 'en') => call('PUT', SETTING, who, { enabled }, lang);

  before(async () => {
    t = await buildTestApp();
    call = injector(t);
    owner = await createOwner(t, 'smsview_owner');
    other = await createOwner(t, 'smsview_other');
    ready = await smsReadyAccount(t, owner.ctx.accountId, 'smsview_user');
    otherReady = await smsReadyAccount(t, other.ctx.accountId, 'smsview_oth');
    smsIds['0001'] = await send(ready, '13800170001', '1001');
    smsIds['0002'] = await send(ready, '13800170002', '1002');
    smsIds['0040'] = await send(ready, '13800170040', '4040');
    smsIds['0050'] = await send(ready, '13800170050', '5050');
    await age(smsIds['0040'], 40);
    await age(smsIds['0050'], 50);
    await send(otherReady, '13800179999', '9999');
    t.core.queue.work(QUEUES.system, async (job, signal) => {
      const definition = JOBS.find((j) => j.name === job.name);
      await definition?.handle(t.core, job.payload, signal);
    });
  });
  after(() => t?.close());

  it('refuses a free account in its language and never sends it the text', async () => {
    assert.deepEqual((await call('GET', SETTING, owner)).json().data, {
      enabled: false,
      paid: false,
      days: 45,
    });
    const zh = await turn(true, owner, 'zh-cn');
    assert.equal(zh.statusCode, 403);
    assert.equal(zh.json().code, 'SMS_CONTENT_VIEW_PAID_ONLY');
    assert.equal(zh.json().message, '该功能仅对付费用户开放');
    assert.equal((await turn(true)).json().message, 'The function is open only to paid users');
    assert.equal((await turn(false)).statusCode, 200, 'turning it off is always allowed');
    const bad = await call('PUT', SETTING, owner, { enabled: 'yes' });
    assert.equal(bad.statusCode, 400);

    const rows = await statuses(owner, 1, 0);
    assert.equal(rows.length, 2);
    assert.ok(
      rows.every((r) => r.content === null),
      JSON.stringify(rows),
    );
  });

  it('shows a paid account the text of its last 45 days only while the switch is on', async () => {
    await setPlan(owner.ctx.accountId, 'paid');
    assert.deepEqual((await call('GET', SETTING, owner)).json().data, {
      enabled: false,
      paid: true,
      days: 45,
    });
    assert.deepEqual(contents(await statuses(owner, 1, 0)), { '0001': null, '0002': null }, 'off: no text');

    const on = await turn(true);
    assert.equal(on.statusCode, 200, on.body);
    assert.deepEqual(on.json().data, { enabled: true, paid: true, days: 45 });
    assert.deepEqual(contents(await statuses(owner, 1, 0)), { '0001': TEXT('1001'), '0002': TEXT('1002') });
    // 40 days back is inside the 45; 50 is not, whatever the switch says.
    assert.deepEqual(contents(await statuses(owner, 55, 25)), { '0040': TEXT('4040'), '0050': null });

    await turn(false);
    assert.deepEqual(contents(await statuses(owner, 55, 25)), { '0040': null, '0050': null });
    await turn(true);
  });

  it('hides the text again when the account is no longer paid, keeping the switch', async () => {
    await setPlan(owner.ctx.accountId, 'free');
    try {
      assert.deepEqual((await call('GET', SETTING, owner)).json().data, {
        enabled: true,
        paid: false,
        days: 45,
      });
      assert.deepEqual(contents(await statuses(owner, 1, 0)), { '0001': null, '0002': null });
    } finally {
      await setPlan(owner.ctx.accountId, 'paid');
    }
  });

  it('is the account’s own: another account’s switch and SMS stay apart; code 19 sets it', async () => {
    assert.deepEqual((await call('GET', SETTING, other)).json().data, {
      enabled: false,
      paid: false,
      days: 45,
    });
    const theirs = await statuses(other, 1, 0);
    assert.deepEqual(contents(theirs), { '9999': null }, 'only its own SMS, and no text while off');

    const reader = await joinedMember(t, owner, 'smsview_reader', {
      type: 'custom',
      levels: { [P.SMS_RESPONSE]: 'full' },
    });
    assert.equal((await call('GET', SETTING, reader)).statusCode, 403);
    assert.equal((await turn(false, reader)).statusCode, 403);
    assert.deepEqual(
      contents(await statuses(reader, 1, 0)),
      { '0001': TEXT('1001'), '0002': TEXT('1002') },
      'a teammate reading statuses sees what the account’s switch allows',
    );
  });

  describe('SMS status exports', () => {
    interface ExportRow {
      id: number;
      type: string;
      status: string;
      rows: number;
    }
    const listed = async (who = owner, base = EXPORTS) =>
      (await call('GET', base, who)).json() as { data: ExportRow[]; total: number };
    const waitReady = (id: number) =>
      waitFor(`export ${id} ready`, async () => {
        const row = (await listed()).data.find((r) => r.id === id);
        return row?.status === 'using' ? row : undefined;
      });
    const create = async (body: object, who = owner, lang = 'en') => {
      const res = await call('POST', EXPORTS, who, body, lang);
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data as ExportRow;
    };
    const csv = async (id: number, who = owner) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `${EXPORTS}/download/${id}`,
        headers: { authorization: `Bearer ${who.token}`, lang: 'en' },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-disposition']), /filename="smsStatus-\d+-[\d-]+\.csv\.gz"/);
      return gunzipSync(res.rawPayload)
        .toString('utf8')
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');
    };
    const range = (fromDays: number, toDays: number) => ({
      startTime: Date.now() - fromDays * DAY,
      endTime: Date.now() - toDays * DAY + 60_000,
    });

    it('writes the status rows with the text the content view allows', async () => {
      const created = await create({ type: 'smsStatus', ...range(1, 0) });
      assert.equal(created.type, 'smsStatus');
      const done = await waitReady(created.id);
      assert.equal(done.rows, 2);
      const [header, ...lines] = await csv(created.id);
      assert.equal(
        header,
        'SMS ID,Phone,Status,Status code,Reason,Content,Parts,SMS_USER,Template,Label ID,Request time,Update time',
      );
      assert.deepEqual(lines.map((l) => l.split(',')[0]).sort(), [smsIds['0001'], smsIds['0002']].sort());
      const first = lines.find((l) => l.startsWith(smsIds['0001'] as string)) ?? '';
      assert.ok(first.includes(`,'+8613800170001,`), first);
      assert.ok(first.includes(`,${TEXT('1001')},1,smsview_user,`), first);

      const old = await create({ type: 'smsStatus', ...range(55, 25) }, owner, 'zh-cn');
      await waitReady(old.id);
      const [zhHeader, ...oldLines] = await csv(old.id);
      assert.match(zhHeader ?? '', /^短信ID,手机号,状态,/);
      const cells = (id: string) => oldLines.find((l) => l.startsWith(id))?.split(',') ?? [];
      assert.equal(cells(smsIds['0040'] as string)[5], TEXT('4040'));
      assert.equal(cells(smsIds['0050'] as string)[5], '', 'older than 45 days: no text');

      await turn(false);
      try {
        const off = await create({ type: 'smsStatus', phone: '13800170002', ...range(1, 0) });
        await waitReady(off.id);
        const offLines = (await csv(off.id)).slice(1);
        assert.equal(offLines.length, 1, 'the phone filter, as the status screen reads it');
        assert.equal(offLines[0]?.split(',')[5], '', 'switch off: no text');
      } finally {
        await turn(true);
      }
    });

    it('pages through SMS requested at the same moment without losing or repeating any', async () => {
      const at = Date.now() - 1000;
      await t.core.database.db
        .updateTable('sms_messages')
        .set({ requested_at: at })
        .where('sms_id', 'in', [smsIds['0001'] as string, smsIds['0002'] as string])
        .execute();
      await age(smsIds['0040'] as string, 0.5);
      const small = new ExportsService({
        database: t.core.database,
        queue: t.core.queue,
        dataDir: t.core.config.dataDir,
        logger: t.core.logger,
        pageSize: 1,
      });
      // The queue is paused so that this one-row-a-page run, not the worker, writes the file.
      await t.core.queue.pause(QUEUES.system);
      let created: ExportRow;
      try {
        created = await create({ type: 'smsStatus', ...range(1, 0) });
        await small.run(created.id);
      } finally {
        await t.core.queue.resume(QUEUES.system);
      }
      assert.equal((await waitReady(created.id)).rows, 3);
      const ids = (await csv(created.id)).slice(1).map((l) => l.split(',')[0]);
      // Newest first as the screen lists them; the two of one moment by id, newest first.
      assert.deepEqual(ids, [smsIds['0002'], smsIds['0001'], smsIds['0040']]);
    });

    it('keeps SMS and email exports on their own screens, under their own codes', async () => {
      const sms = (await listed()).data;
      assert.ok(sms.length > 0);
      assert.ok(sms.every((r) => r.type === 'smsStatus'));
      const email = await listed(owner, '/v3/api/data/dataExportOfflines');
      assert.equal(email.total, 0, 'the email offline screen lists no SMS export');
      const id = sms[0]?.id as number;
      assert.equal(
        (await call('POST', `/v3/api/data/dataExportOfflines/invalid/${id}`, owner)).statusCode,
        404,
      );
      const wrongPath = await call('POST', '/v3/api/data/dataExportOfflines', owner, {
        type: 'smsStatus',
        ...range(1, 0),
      });
      assert.equal(wrongPath.statusCode, 400);
      const wrongType = await call('POST', EXPORTS, owner, { type: 'emailStatus', ...range(1, 0) });
      assert.equal(wrongType.statusCode, 400);
      const tooLong = await call('POST', EXPORTS, owner, { type: 'smsStatus', ...range(40, 0) });
      assert.equal(tooLong.statusCode, 400);

      const reader = await joinedMember(t, owner, 'smsexp_reader', {
        type: 'custom',
        levels: { [P.SMS_RESPONSE]: 'full' },
      });
      assert.equal((await call('GET', EXPORTS, reader)).statusCode, 200);
      assert.equal((await call('GET', '/v3/api/data/dataExportOfflines', reader)).statusCode, 403);
    });

    it('is the account’s own, and can be marked invalid', async () => {
      const id = (await listed()).data[0]?.id as number;
      assert.equal((await listed(other)).total, 0);
      const theirs = await t.app.inject({
        method: 'GET',
        url: `${EXPORTS}/download/${id}`,
        headers: { authorization: `Bearer ${other.token}` },
      });
      assert.equal(theirs.statusCode, 404);
      assert.equal((await call('POST', `${EXPORTS}/invalid/${id}`, other)).statusCode, 404);

      const voided = await call('POST', `${EXPORTS}/invalid/${id}`, owner);
      assert.equal(voided.statusCode, 200, voided.body);
      assert.equal(voided.json().data.status, 'voided');
      const gone = await t.app.inject({
        method: 'GET',
        url: `${EXPORTS}/download/${id}`,
        headers: { authorization: `Bearer ${owner.token}` },
      });
      assert.equal(gone.statusCode, 410);

      const mine = await create({ type: 'smsStatus', ...range(1, 0) }, other);
      await waitFor('the other account’s export', async () => {
        const row = (await listed(other)).data.find((r) => r.id === mine.id);
        return row?.status === 'using' ? row : undefined;
      });
      const lines = (await csv(mine.id, other)).slice(1);
      assert.equal(lines.length, 1, 'only its own SMS');
      assert.match(lines[0] ?? '', /13800179999/);
    });
  });
});
