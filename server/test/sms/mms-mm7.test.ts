import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { MmsPage } from '@herald/shared';
import { type Mm7Relay, type SmppCarrier, startMm7Relay, startSmppCarrier } from '@herald/test-peers';
import { createSmsTemplate } from '../fixtures/sms-factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { type SmsReady, smsapi, smsReadyAccount } from './sms-fixtures.ts';

/**
 * MMS (msgType 1) reaches carriers over MM7 (issue 20): an MMS template's title and pages go to
 * the relay as a SOAP SubmitReq with the MMS attached, the relay's delivery report settles the
 * message, a refusal fails it or fails over, and an MMS never goes to an SMPP carrier as text.
 */

/** A 1×1 PNG: its bytes must arrive at the relay exactly. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
/** An AMR file's magic and a few frame bytes. */
const AMR = Buffer.concat([
  Buffer.from('#!AMR\n'),
  Buffer.from([0x3c, 0x48, 0xf5, 0x1f, 0x96, 0x66, 0x79, 0xe1]),
]);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('MMS over MM7', () => {
  let t: TestApp;
  let first: Mm7Relay;
  let second: Mm7Relay;
  let smpp: SmppCarrier;
  let ready: SmsReady;
  let templateId: number;

  before(async () => {
    // Both carriers take their reports on one port: their credentials tell them apart.
    const reports = await freePort();
    first = await startMm7Relay({
      accounts: { herald_vasp: 'relay-one' },
      reportUrl: `http://127.0.0.1:${reports}/reports`,
      reportCredentials: { user: 'herald_vasp', password: 'relay-one' },
      reportDelayMs: 10,
    });
    second = await startMm7Relay({
      accounts: { herald_vasp: 'relay-two' },
      reportUrl: `http://127.0.0.1:${reports}/reports`,
      reportCredentials: { user: 'herald_vasp', password: 'relay-two' },
      reportDelayMs: 10,
    });
    smpp = await startSmppCarrier({ accounts: { herald: 'sms' }, receiptDelayMs: 5 });
    t = await buildTestApp();
    const carriers = t.core.smsCarriers;
    const mm7 = (relay: Mm7Relay, reportPort: number) =>
      `mm7://127.0.0.1:${relay.port}/mm7?vaspId=901234&vasId=106900&serviceCode=HERALDMMS&version=5.3.0&reportHost=127.0.0.1&reportPort=${reportPort}`;
    await carriers.save({
      name: 'mms-one',
      url: mm7(first, reports),
      systemId: 'herald_vasp',
      password: 'relay-one',
      sourceAddr: '10690001',
    });
    await carriers.save({
      name: 'mms-two',
      url: mm7(second, reports),
      systemId: 'herald_vasp',
      password: 'relay-two',
      sourceAddr: '10690001',
    });
    await carriers.save({
      name: 'sms-only',
      url: `smpp://127.0.0.1:${smpp.port}`,
      systemId: 'herald',
      password: 'sms',
      sourceAddr: '10690002',
    });
    await carriers.addRoute({ carrier: 'mms-one', country: 'CN', prefix: '138', kind: 'mms', priority: 0 });
    await carriers.addRoute({ carrier: 'mms-two', country: 'CN', prefix: '138', kind: 'mms', priority: 1 });
    await carriers.addRoute({ carrier: 'sms-only', country: 'CN', prefix: '137', priority: 0 });
    ready = await smsReadyAccount(t, (await createOwner(t, 'mms_owner')).ctx.accountId, 'mms_user');
    templateId = await passedMmsTemplate(t, ready);
    t.core.smsDelivery.start();
  });
  after(async () => {
    await t?.close();
    await first?.close();
    await second?.close();
    await smpp?.close();
  });

  const send = async (phone: string) => {
    const res = await smsapi(t, 'send', ready, {
      templateId: String(templateId),
      phone,
      msgType: '1',
      vars: JSON.stringify({ name: '王小明', day: '周六' }),
    });
    assert.equal(res.body.statusCode, 200, res.body.message);
    return (res.body.info.smsIds as string[])[0] as string;
  };
  const row = (smsId: string) =>
    t.core.database.db
      .selectFrom('sms_messages')
      .selectAll()
      .where('sms_id', '=', smsId)
      .executeTakeFirstOrThrow();
  const statusOf = async (smsId: string) => {
    const res = await smsapi(t, 'status/query', ready, { smsIds: smsId, days: '1' });
    return (res.body.info.voList as { smsId: string; statusCode: number; status: string }[])[0];
  };
  const to = (relay: Mm7Relay, number: string) => relay.messages.find((m) => m.recipients.includes(number));

  it('sends the title, the filled page texts and the media bytes, and the Retrieved report delivers it', async () => {
    const smsId = await send('13800138001');
    const mms = await waitFor('the MMS at the relay', () => to(first, '8613800138001'));
    assert.equal(mms.user, 'herald_vasp');
    assert.deepEqual(
      [mms.vaspId, mms.vasId, mms.serviceCode, mms.version],
      ['901234', '106900', 'HERALDMMS', '5.3.0'],
    );
    assert.equal(mms.sender, `10690001${ready.accountId}`);
    assert.equal(mms.subject, '【赫耳墨斯】王小明的周末特惠');
    assert.equal(mms.deliveryReport, true);
    assert.deepEqual(mms.texts, ['王小明，周六全场八折。', '到店出示此彩信 & 领取<礼品>']);
    const image = mms.parts.find((p) => p.contentType === 'image/png');
    assert.ok(image, 'an image part');
    assert.ok(image.body.equals(PNG), 'the image bytes arrive unchanged');
    const audio = mms.parts.find((p) => p.contentType === 'audio/amr');
    assert.ok(audio?.body.equals(AMR), 'the sound bytes arrive unchanged');
    assert.match(mms.smil, new RegExp(`src="cid:${image.contentId}"`), 'the SMIL shows the image');
    assert.equal(second.messages.length, 0);

    await waitFor(
      'delivered on the status query',
      async () => (await statusOf(smsId))?.status === 'Delivered',
    );
    const done = await row(smsId);
    assert.deepEqual([done.status, done.status_code], ['delivered', 200]);
    const [report] = await first.waitForReports(1);
    assert.deepEqual(
      [report?.httpStatus, report?.statusCode],
      [200, 1000],
      'Herald answered DeliveryReportRsp 1000',
    );
  });

  it('fails on an Expired or Rejected report with the mapped status code', async () => {
    first.script('8613800138002', { report: 'Expired' });
    first.script('8613800138003', { report: 'Rejected' });
    const expired = await send('13800138002');
    const rejected = await send('13800138003');
    await waitFor('both settled', async () =>
      (await Promise.all([row(expired), row(rejected)])).every((r) => r.status === 'send_failed'),
    );
    assert.equal((await row(expired)).status_code, 580);
    assert.equal((await row(rejected)).status_code, 550);
    assert.equal((await statusOf(expired))?.statusCode, 580);
  });

  it('fails an MMS the relay refuses with a 2xxx status, without failing over', async () => {
    first.script('8613800138004', { status: 2002, statusText: 'Address Error' });
    const refused = await send('13800138004');
    await waitFor('send failed', async () => (await row(refused)).status === 'send_failed');
    const failed = await row(refused);
    assert.equal(failed.status_code, 590);
    assert.match(failed.reason ?? '', /mms-one: MM7 2002 Address Error/);
    assert.equal(to(second, '8613800138004'), undefined);
  });

  it("fails an MMS the relay answers with a client SOAP Fault, with the fault's text", async () => {
    first.script('8613800138007', { fault: { code: 'Client', text: 'Operation restricted' }, status: 2001 });
    const refused = await send('13800138007');
    await waitFor('send failed', async () => (await row(refused)).status === 'send_failed');
    assert.match((await row(refused)).reason ?? '', /mms-one: SOAP Fault Operation restricted \(2001/);
    assert.equal(to(second, '8613800138007'), undefined);
  });

  it("takes a report only with the carrier's credentials: a forged one is answered 401 and changes nothing", async () => {
    first.script('8613800138007', { noReport: true });
    const smsId = await send('13800138007');
    const mms = await waitFor('the MMS at the relay', () => to(first, '8613800138007'));
    await waitFor('submitted, awaiting its report', async () => (await row(smsId)).status === 'waiting');
    try {
      first.setReportCredentials(null);
      const bare = await first.report(mms.messageId, '8613800138007', 'Retrieved');
      first.setReportCredentials({ user: 'herald_vasp', password: 'not-the-password' });
      const wrong = await first.report(mms.messageId, '8613800138007', 'Retrieved');
      assert.deepEqual([bare.httpStatus, wrong.httpStatus], [401, 401]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal((await row(smsId)).status, 'waiting', 'neither report was taken');
    } finally {
      first.setReportCredentials({ user: 'herald_vasp', password: 'relay-one' });
    }
    const genuine = await first.report(mms.messageId, '8613800138007', 'Retrieved');
    assert.deepEqual([genuine.httpStatus, genuine.statusCode], [200, 1000]);
    await waitFor('delivered', async () => (await row(smsId)).status === 'delivered');
  });

  it('fails over to the next MM7 carrier when the relay answers HTTP 500', async () => {
    first.script('8613800138005', { httpStatus: 500 });
    const smsId = await send('13800138005');
    await waitFor('the second relay', () => to(second, '8613800138005'));
    await waitFor('delivered through the second', async () => (await row(smsId)).status === 'delivered');
    const carrierIds = await t.core.smsCarriers.list();
    assert.equal(Number((await row(smsId)).carrier_id), carrierIds.find((c) => c.name === 'mms-two')?.id);
    assert.equal(to(first, '8613800138005'), undefined);
    const [report] = (await second.waitForReports(1)).filter((r) => r.recipient === '8613800138005');
    assert.deepEqual(
      [report?.httpStatus, report?.statusCode],
      [200, 1000],
      "the second relay's report, on the port the first's use, reached its own carrier",
    );
  });

  it('never sends an MMS as text to a carrier that cannot carry one', async () => {
    const smsId = await send('13700137006');
    await waitFor('refused', async () => (await row(smsId)).status === 'send_failed');
    const failed = await row(smsId);
    assert.equal(failed.status_code, 590);
    assert.match(failed.reason ?? '', /sms-only: cannot carry MMS/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(smpp.messages.length, 0, 'nothing reached the SMPP carrier');
  });
});

/** A passed MMS template with a variable in its title and its first page, written as the template screens leave it. */
async function passedMmsTemplate(t: TestApp, ready: SmsReady): Promise<number> {
  const pages: MmsPage[] = [
    {
      text: '%name%，%day%全场八折。',
      image: { name: 'sale.png', type: 'image/png', data: PNG.toString('base64') },
    },
    {
      text: '到店出示此彩信 & 领取<礼品>',
      audio: { name: 'hi.amr', type: 'audio/amr', data: AMR.toString('base64') },
    },
  ];
  return createSmsTemplate(t.core.database, ready.accountId, {
    name: 'mms_weekend',
    kind: 'mms',
    smsType: 'marketing',
    content: '%name%的周末特惠',
    variables: { name: '张三', day: '周日' },
    pages,
    signId: ready.signId,
  });
}
