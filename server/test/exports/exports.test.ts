import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { ExportsService } from '../../src/core/exports/exports.service.ts';
import { QUEUES } from '../../src/queue/names.ts';
import { JOBS } from '../../src/worker/registry.ts';
import { type Inject, injector } from '../api-users/fixtures.ts';
import { createSender, type Sender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { listen, postForm } from '../send/send-client.ts';

const DAY = 86_400_000;
const BASE = '/v3/api/data/dataExportOfflines';

interface ExportRow {
  id: number;
  status: string;
  progress: number;
  rows: number;
  fileSize: number | null;
  error: string | null;
  expiresAt: number | null;
  downloadedAt: number | null;
}

/**
 * Offline exports end to end: mail accepted through the real mail/send path, an export asked for
 * through the console API, run by a real worker on the real queue through the job registry, the
 * gzip'd CSV downloaded and read back row by row; then failure and retry, voiding, expiry after 7
 * days on an injected clock, the hide-export flag, download verification and tenancy.
 */
describe('offline exports', () => {
  let t: TestApp;
  let call: Inject;
  let owner: SignedIn;
  let other: SignedIn;
  let f: Sender;
  let emailIds: string[];
  const range = () => ({ startTime: Date.now() - DAY, endTime: Date.now() + 60_000 });

  before(async () => {
    t = await buildTestApp();
    call = injector(t);
    const base = await listen(t);
    owner = await createOwner(t, 'exp_owner');
    other = await createOwner(t, 'exp_other');
    f = await createSender(t.core.database, { accountId: owner.ctx.accountId, plan: 'paid' });
    emailIds = [];
    // Several recipients of one mail share their accept time: the paging must not lose or repeat them.
    for (const [to, subject] of [
      ['a1@example.org;a2@example.org;a3@example.org;a4@example.org;a5@example.org', '你好, "world"'],
      ['b1@example.org;b2@example.org', '=SUM(A1) second'],
    ] as const) {
      const sent = await postForm(base, 'mail/send', {
        apiUser: f.apiUser,
        apiKey: f.apiKey,
        from: `news@${f.domain}`,
        to,
        subject,
        html: '<p>Hi</p>',
      });
      assert.equal(sent.result, true, sent.message);
      emailIds.push(...(sent.info.emailIdList ?? []));
    }
    // A real worker on the system queue, dispatching by the registry as the worker role does.
    t.core.queue.work(QUEUES.system, async (job, signal) => {
      const definition = JOBS.find((j) => j.name === job.name);
      await definition?.handle(t.core, job.payload, signal);
    });
  });
  after(() => t?.close());

  const listed = async (who = owner) =>
    (await call('GET', BASE, who)).json() as { data: ExportRow[]; total: number };
  const exportOf = async (id: number, who = owner) => (await listed(who)).data.find((r) => r.id === id);
  const waitStatus = (id: number, status: string) =>
    waitFor(`export ${id} ${status}`, async () => {
      const row = await exportOf(id);
      return row?.status === status ? row : undefined;
    });
  const create = async (body: object, who = owner, lang = 'en') => {
    const res = await call('POST', BASE, who, body, lang);
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data as ExportRow;
  };
  const download = (id: number, who = owner, lang = 'en') =>
    t.app.inject({
      method: 'GET',
      url: `${BASE}/download/${id}`,
      headers: { authorization: `Bearer ${who.token}`, lang },
    });
  const csvOf = (body: Buffer) => gunzipSync(body).toString('utf8');
  const parse = (text: string) =>
    text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');

  it('exports the email status to a gzip CSV with a BOM, shows progress 100 and marks it used once downloaded', async () => {
    const created = await create({ type: 'emailStatus', ...range() });
    assert.equal(created.status, 'exporting');
    const ready = await waitStatus(created.id, 'using');
    assert.equal(ready.progress, 100);
    assert.equal(ready.rows, 7);
    assert.ok(ready.expiresAt && Math.abs(ready.expiresAt - (Date.now() + 7 * DAY)) < 60_000, 'kept 7 days');

    const res = await download(created.id);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'application/gzip');
    assert.match(
      String(res.headers['content-disposition']),
      /attachment; filename="emailStatus-\d+-[\d-]+\.csv\.gz"/,
    );
    assert.equal(res.rawPayload.length, ready.fileSize);
    const text = csvOf(res.rawPayload);
    assert.ok(text.startsWith('\uFEFF'), 'UTF-8 BOM for Excel');
    const [header, ...lines] = parse(text);
    assert.equal(header?.split(',')[0], 'Email ID');
    assert.deepEqual(lines.map((l) => l.split(',')[0]).sort(), [...emailIds].sort());
    assert.ok(
      lines.some((l) => l.includes('"你好, ""world"""')),
      'quoted Chinese subject',
    );
    assert.ok(
      lines.some((l) => l.includes("'=SUM(A1) second")),
      'formula neutralised',
    );
    assert.ok(
      lines.every((l) => l.includes(',requested,18,')),
      'status and SendCloud code',
    );

    const used = await exportOf(created.id);
    assert.equal(used?.status, 'used');
    assert.ok(used?.downloadedAt);
    assert.equal((await download(created.id)).statusCode, 200, 'still downloadable after the first time');
  });

  it('pages through ties of accept time without losing or repeating rows, and applies the filters', async () => {
    const small = new ExportsService({
      database: t.core.database,
      queue: t.core.queue,
      dataDir: t.core.config.dataDir,
      logger: t.core.logger,
      pageSize: 2,
    });
    const created = await create({ type: 'emailStatus', ...range() });
    await small.run(created.id);
    const done = await exportOf(created.id);
    assert.equal(done?.status, 'using');
    const lines = parse(csvOf((await download(created.id)).rawPayload)).slice(1);
    assert.deepEqual(lines.map((l) => l.split(',')[0]).sort(), [...emailIds].sort());

    const one = await create({ type: 'emailStatus', email: 'B2@example.org', ...range() }, owner, 'zh-cn');
    await waitStatus(one.id, 'using');
    const filtered = parse(csvOf((await download(one.id)).rawPayload));
    assert.equal(filtered[0]?.split(',')[0], '邮件ID', 'header in the language it was asked in');
    assert.equal(filtered.length, 2);
    assert.match(filtered[1] ?? '', /b2@example\.org/);
  });

  it('exports opens and clicks from the mail event log', async () => {
    const recipient = await t.core.database.db
      .selectFrom('message_recipients')
      .select('id')
      .where('email_id', '=', emailIds[0] ?? '')
      .executeTakeFirstOrThrow();
    const at = Date.now();
    await t.core.mailEvents.append([
      { recipientId: Number(recipient.id), kind: 'open', at, data: { ip: '203.0.113.9', first: true } },
      {
        recipientId: Number(recipient.id),
        kind: 'click',
        at: at + 1,
        data: { url: 'https://shop.example/x', first: true },
      },
    ]);
    const created = await create({ type: 'openClick', ...range() });
    const ready = await waitStatus(created.id, 'using');
    assert.equal(ready.rows, 2);
    const [header, ...lines] = parse(csvOf((await download(created.id)).rawPayload));
    assert.equal(header, 'Time,Event,Email ID,Recipient,Link,IP,Browser,OS,Bot,First');
    assert.match(lines[0] ?? '', /,open,.*a1@example\.org,,203\.0\.113\.9,/);
    assert.match(lines[1] ?? '', /,click,.*https:\/\/shop\.example\/x/);
  });

  it('marks a run that cannot write its file failed with a reason, and a retry completes it', async () => {
    // A file where the account's export folder should be: the run cannot create its file.
    const folder = path.join(t.core.config.dataDir, 'exports', String(other.ctx.accountId));
    fs.mkdirSync(path.dirname(folder), { recursive: true });
    fs.writeFileSync(folder, 'in the way');
    const created = await create({ type: 'emailStatus', ...range() }, other);
    const failed = await waitFor('failed export', async () => {
      const row = await exportOf(created.id, other);
      return row?.status === 'failed' ? row : undefined;
    });
    assert.match(failed.error ?? '', /file or database error \(E[A-Z]+\)/);
    const refused = await download(created.id, other);
    assert.equal(refused.statusCode, 409);
    assert.match(refused.json().message, /^Offline export failed: /);
    assert.equal((await call('POST', `${BASE}/retry/${created.id + 1000}`, other)).statusCode, 404);

    fs.rmSync(folder);
    const retried = await call('POST', `${BASE}/retry/${created.id}`, other);
    assert.equal(retried.statusCode, 200, retried.body);
    assert.equal(retried.json().data.status, 'exporting');
    const ready = await waitFor('retried export', async () => {
      const row = await exportOf(created.id, other);
      return row?.status === 'using' ? row : undefined;
    });
    assert.equal(ready.rows, 0, 'the other account has no mail of its own');
    assert.equal(ready.error, null);
    assert.equal(
      (await call('POST', `${BASE}/retry/${created.id}`, other)).statusCode,
      409,
      'only failed ones',
    );
  });

  it('expires files after 7 days: the file is deleted and a download answers 410', async () => {
    const created = await create({ type: 'emailStatus', ...range() });
    await waitStatus(created.id, 'using');
    const row = await t.core.database.db
      .selectFrom('data_export_offlines')
      .select('file_path')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    const file = path.join(t.core.config.dataDir, row.file_path ?? '');
    assert.ok(fs.existsSync(file));
    const at = (days: number) =>
      new ExportsService({
        database: t.core.database,
        queue: t.core.queue,
        dataDir: t.core.config.dataDir,
        logger: t.core.logger,
        now: () => Date.now() + days * DAY,
      });
    await at(6.9).expire();
    assert.equal((await exportOf(created.id))?.status, 'using', 'kept until 7 days');
    assert.ok((await at(7.1).expire()) >= 1);
    assert.equal((await exportOf(created.id))?.status, 'expired');
    assert.equal(fs.existsSync(file), false, 'file deleted');
    const res = await download(created.id);
    assert.equal(res.statusCode, 410);
    assert.equal(
      res.json().message,
      'The export file has expired (files are kept 7 days); please export again',
    );
    const zh = await download(created.id, owner, 'zh-cn');
    assert.equal(zh.json().message, '导出文件已过期（文件保留7天），请重新导出');
  });

  it('voids an export: its file is deleted and a download answers 410; deleting hides it', async () => {
    const created = await create({ type: 'emailStatus', ...range() });
    await waitStatus(created.id, 'using');
    const voided = await call('POST', `${BASE}/invalid/${created.id}`, owner);
    assert.equal(voided.statusCode, 200, voided.body);
    assert.equal(voided.json().data.status, 'voided');
    const res = await download(created.id);
    assert.equal(res.statusCode, 410);
    assert.equal(res.json().message, 'This export was marked invalid and its file deleted');
    assert.equal((await call('POST', `${BASE}/invalid/${created.id}`, owner)).statusCode, 409);

    assert.equal((await call('DELETE', `${BASE}/${created.id}`, owner)).statusCode, 204);
    assert.equal(await exportOf(created.id), undefined, 'no longer listed');
    assert.equal((await download(created.id)).statusCode, 410);
    assert.equal((await call('DELETE', `${BASE}/${created.id}`, owner)).statusCode, 404);
  });

  it('honours the hide-export flag: the console reads it and downloads are refused with 403', async () => {
    const flag = async () =>
      (await call('GET', '/v3/api/systemParam/hideDeliveryDownloadButton', owner)).json().data;
    assert.equal(await flag(), false, 'off by default');
    const created = await create({ type: 'emailStatus', ...range() });
    await waitStatus(created.id, 'using');
    await t.core.exports.setHideExport(owner.ctx, true);
    try {
      assert.equal(await flag(), true);
      const res = await download(created.id);
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().message, 'Downloading delivery data is turned off for this account');
      assert.equal((await exportOf(created.id))?.status, 'using', 'not marked used');
    } finally {
      await t.core.exports.setHideExport(owner.ctx, false);
    }
  });

  it('asks for download verification when the user turned it on', async () => {
    const mailedCode = async (after: number) =>
      waitFor('a mailed code', async () => {
        const rows = await t.core.database.db
          .selectFrom('system_messages')
          .select(['id', 'body'])
          .where('recipient', '=', 'exp_owner@example.com')
          .where('id', '>', after)
          .orderBy('id', 'desc')
          .execute();
        return /(?<!\d)(\d{6})(?!\d)/.exec(rows[0]?.body ?? '')?.[1];
      });
    const lastMail = async () =>
      Number(
        (
          await t.core.database.db
            .selectFrom('system_messages')
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirst()
        )?.id ?? 0,
      );
    const verify = async (path: 'sys' | 'download') => {
      const before = await lastMail();
      await t.core.database.db
        .updateTable('verification_codes')
        .set((eb) => ({ created_at: eb('created_at', '-', 61_000) }))
        .execute();
      const sent = await call('POST', '/v3/api/verify/sendEmailCode', owner);
      assert.equal(sent.statusCode, 200, sent.body);
      const res = await call('POST', `/v3/api/verify/${path}`, owner, {
        way: 'email',
        code: await mailedCode(before),
      });
      assert.equal(res.statusCode, 200, res.body);
    };

    const created = await create({ type: 'emailStatus', ...range() });
    await waitStatus(created.id, 'using');
    await verify('sys');
    const on = await call('POST', '/v3/api/user/config/verifyConfig/edited/download', owner, {
      enabled: 'true',
    });
    assert.equal(on.statusCode, 200, on.body);

    const refused = await download(created.id);
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().code, 'VERIFY_DOWNLOAD_REQUIRED');
    assert.equal((await exportOf(created.id))?.status, 'using');
    await verify('download');
    assert.equal((await download(created.id)).statusCode, 200);
  });

  it('keeps exports to their account, checks the input and refuses view-only callers', async () => {
    const mine = await create({ type: 'emailStatus', ...range() });
    assert.equal((await download(mine.id, other)).statusCode, 404);
    assert.equal((await call('POST', `${BASE}/invalid/${mine.id}`, other)).statusCode, 404);
    assert.equal((await call('DELETE', `${BASE}/${mine.id}`, other)).statusCode, 404);
    assert.equal(
      (await listed(other)).data.some((r) => r.id === mine.id),
      false,
    );

    const badType = await call('POST', BASE, owner, { type: 'nothing', ...range() });
    assert.equal(badType.statusCode, 400);
    const tooLong = await call('POST', BASE, owner, { type: 'emailStatus', startTime: 0, endTime: 40 * DAY });
    assert.equal(tooLong.statusCode, 400);

    const visitor = await joinedMember(t, owner, 'exp_visitor', { type: 'visitor' });
    assert.equal((await call('GET', BASE, visitor)).statusCode, 200);
    assert.equal((await download(mine.id, visitor)).statusCode, 403);
  });
});
