import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import {
  type SipTrunk,
  type SipTrunkCall,
  type SmppCarrier,
  startSipTrunk,
  startSmppCarrier,
} from '@herald/test-peers';
import { createSmsTemplate } from '../fixtures/sms-factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { type SmsReady, smsapi, smsReadyAccount } from './sms-fixtures.ts';

/**
 * Voice verification codes as phone calls (issue 20): /smsapi/sendVoice and a voice template reach
 * a loopback SIP trunk as a call, past its digest challenge; the trunk hears the recorded prompts
 * (lead-in, the digits, a pause, the digits again) as G.711 µ-law RTP, and the call's outcome is
 * the message's status: delivered, busy (530), no answer (540, the call cancelled), rejected. A
 * trunk that answers 503 fails over to the next SIP carrier; a voice code routed only to an SMPP
 * carrier fails and is never sent as text. A carrier URL with transport=tcp places its calls over
 * one TCP connection to the trunk instead of UDP.
 */
describe('voice codes over a SIP trunk', () => {
  let t: TestApp;
  let trunk: SipTrunk;
  let trunkDown: SipTrunk;
  let smpp: SmppCarrier;
  let ready: SmsReady;

  before(async () => {
    trunk = await startSipTrunk({ username: 'herald-voice', password: 'trunk-secret' });
    trunkDown = await startSipTrunk({ refuseAll: 503 });
    smpp = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 10 });
    t = await buildTestApp();
    const carriers = t.core.smsCarriers;
    await carriers.save({
      name: 'voice',
      url: `sip://127.0.0.1:${trunk.port}?from=4008001234&ringSeconds=2`,
      systemId: 'herald-voice',
      password: 'trunk-secret',
      sourceAddr: '',
    });
    await carriers.save({
      name: 'voice_down',
      url: `sip://127.0.0.1:${trunkDown.port}`,
      systemId: 'herald-voice',
      password: 'trunk-secret',
      sourceAddr: '',
    });
    await carriers.save({
      name: 'cmcc',
      url: `smpp://127.0.0.1:${smpp.port}`,
      systemId: 'herald',
      password: 'secret',
      sourceAddr: '10690001',
    });
    await carriers.save({
      name: 'voice_tcp',
      url: `sip://127.0.0.1:${trunk.port}?from=4008005678&ringSeconds=2&transport=tcp`,
      systemId: 'herald-voice',
      password: 'trunk-secret',
      sourceAddr: '',
    });
    await carriers.addRoute({ carrier: 'voice', country: 'CN', prefix: '138', kind: 'voice' });
    await carriers.addRoute({ carrier: 'voice_tcp', country: 'CN', prefix: '139', kind: 'voice' });
    await carriers.addRoute({ carrier: 'voice_down', country: 'CN', prefix: '137', kind: 'voice' });
    await carriers.addRoute({ carrier: 'voice', country: 'CN', prefix: '137', kind: 'voice', priority: 1 });
    await carriers.addRoute({ carrier: 'cmcc', country: 'CN', prefix: '136', kind: '*' });
    ready = await smsReadyAccount(t, (await createOwner(t, 'voice_owner')).ctx.accountId, 'voice_user');
    t.core.smsDelivery.start();
  });
  after(async () => {
    await t?.close();
    await trunk?.close();
    await trunkDown?.close();
    await smpp?.close();
  });

  const statusOf = async (smsId: string) => {
    const res = await smsapi(t, 'status/query', ready, { smsIds: smsId, days: '1' });
    return (
      res.body.info.voList as { statusCode: number; status: string; statusText: string; sendLog: string }[]
    )[0];
  };
  const sendVoice = async (phone: string, code: string) => {
    const res = await smsapi(t, 'sendVoice', ready, { phone, code });
    assert.equal(res.body.statusCode, 200, res.body.message);
    return (res.body.info.smsIds as string[])[0] as string;
  };
  const settled = (smsId: string) =>
    waitFor('the call outcome', async () => {
      const status = await statusOf(smsId);
      return status && status.status !== 'Sending' && status.statusCode !== 200 ? status : undefined;
    });
  const callTo = (peer: SipTrunk, number: string) =>
    waitFor(`a call to ${number}`, () => peer.calls.find((c) => c.number === number));

  it('reads a sendVoice code out in a call: lead-in, 4 8 2 6, a pause, 4 8 2 6; delivered', async () => {
    const smsId = await sendVoice('13800138000', '4826');
    const call = await callTo(trunk, '8613800138000');
    assert.ok(call.challenged, 'the trunk challenged the INVITE');
    assert.ok(call.authorized, 'and Herald answered with the right MD5 digest');
    assert.equal(call.caller, '4008001234', 'the calling number of the carrier URL');
    assert.equal(call.transport, 'udp');
    await waitFor('the hang-up', () => call.hungUp, { timeoutMs: 20_000 });
    assertHeard(call, 'zh-cn', '4826');
    await waitFor('delivered', async () => (await statusOf(smsId))?.status === 'Delivered');
    const row = await t.core.database.db
      .selectFrom('sms_messages')
      .select(['status', 'voice_code', 'content'])
      .where('sms_id', '=', smsId)
      .executeTakeFirstOrThrow();
    assert.deepEqual([row.status, row.voice_code], ['delivered', '4826']);
    assert.equal(smpp.messages.length, 0, 'no text went anywhere');
  });

  it('reads a voice template written in English with the English prompts', async () => {
    const templateId = await createSmsTemplate(t.core.database, ready.accountId, {
      name: 'voice_en',
      smsType: 'code',
      content: 'Your verification code is %code%.',
      variables: { code: '1234' },
      signId: ready.signId,
    });
    await t.core.database.db
      .updateTable('sms_templates')
      .set({ kind: 'voice' })
      .where('id', '=', templateId)
      .execute();
    const res = await smsapi(t, 'send', ready, {
      templateId: String(templateId),
      msgType: '3',
      phone: '13800138001',
      vars: JSON.stringify({ code: '3907' }),
    });
    assert.equal(res.body.statusCode, 200, res.body.message);
    const call = await callTo(trunk, '8613800138001');
    await waitFor('the hang-up', () => call.hungUp, { timeoutMs: 20_000 });
    assertHeard(call, 'en', '3907');
  });

  it('fails a busy number with 530 and an unanswered call with 540 after cancelling it', async () => {
    trunk.script('8613811138111', { kind: 'busy' });
    trunk.script('8613822138222', { kind: 'no-answer' });
    const busyId = await sendVoice('13811138111', '1111');
    const silentId = await sendVoice('13822138222', '2222');
    const busy = await settled(busyId);
    assert.deepEqual([busy.statusCode, busy.status, busy.statusText], [530, 'Send failed', 'Busy']);
    assert.match(busy.sendLog, /SIP 486/);
    const silent = await settled(silentId);
    assert.deepEqual([silent.statusCode, silent.statusText], [540, 'No answer']);
    const unanswered = await callTo(trunk, '8613822138222');
    assert.ok(unanswered.cancelled, 'the ringing call was cancelled');
    assert.equal(unanswered.finalStatus, 487);
    assert.ok(unanswered.acked, 'the 487 was acknowledged');
  });

  it('records a rejected number (404) as rejected', async () => {
    trunk.script('8613833138333', { kind: 'reject', status: 404 });
    const status = await settled(await sendVoice('13833138333', '3333'));
    assert.equal(status.statusCode, 550);
    assert.match(status.sendLog, /REJECTD.*SIP 404/);
  });

  it('fails over from a trunk answering 503 to the next SIP carrier', async () => {
    const smsId = await sendVoice('13700137000', '5050');
    const refused = await callTo(trunkDown, '8613700137000');
    assert.equal(refused.finalStatus, 503);
    const call = await callTo(trunk, '8613700137000');
    await waitFor('the hang-up', () => call.hungUp, { timeoutMs: 20_000 });
    assertHeard(call, 'zh-cn', '5050');
    await waitFor('delivered', async () => (await statusOf(smsId))?.status === 'Delivered');
  });

  it('places calls over TCP when the carrier URL says transport=tcp: answered and heard, or cancelled', async () => {
    trunk.script('8613911139111', { kind: 'no-answer' });
    const invitesBefore = trunk.invites;
    const smsId = await sendVoice('13900139000', '7070');
    const silentId = await sendVoice('13911139111', '7171');
    const call = await callTo(trunk, '8613900139000');
    assert.deepEqual(
      [call.transport, call.challenged, call.authorized, call.caller],
      ['tcp', true, true, '4008005678'],
    );
    await waitFor('the hang-up', () => call.hungUp, { timeoutMs: 20_000 });
    assertHeard(call, 'zh-cn', '7070');
    await waitFor('delivered', async () => (await statusOf(smsId))?.status === 'Delivered');
    const silent = await settled(silentId);
    assert.equal(silent.statusCode, 540);
    const unanswered = await callTo(trunk, '8613911139111');
    assert.deepEqual(
      [unanswered.transport, unanswered.cancelled, unanswered.finalStatus, unanswered.acked],
      ['tcp', true, 487, true],
    );
    assert.equal(
      trunk.invites - invitesBefore,
      4,
      'each INVITE sent once and once more with its digest, never again over TCP',
    );
  });

  it('never sends a voice code as text: routed only to SMPP, it fails', async () => {
    const status = await settled(await sendVoice('13600136000', '6060'));
    assert.equal(status.statusCode, 590);
    assert.match(status.sendLog, /cmcc: cannot carry voice/);
    assert.equal(smpp.messages.length, 0);
    assert.equal(trunk.calls.filter((c) => c.number === '8613600136000').length, 0);
  });
});

const PROMPTS = new URL('../../assets/voice/', import.meta.url);
const prompt = (language: string, name: string) => readFileSync(new URL(`${language}/${name}.ul`, PROMPTS));

/**
 * The call's RTP as a listener hears it: 20 ms packets of PCMU, in order, paced in real time, and
 * their payload exactly the lead-in and the digits twice, with µ-law silence (0xFF) between.
 */
function assertHeard(call: SipTrunkCall, language: string, code: string): void {
  const { packets } = call;
  assert.ok(packets.length > 0, 'RTP arrived');
  assert.ok(
    packets.every((p) => p.payloadType === 0 && p.payload.length === 160),
    'PCMU, 160 samples each',
  );
  assert.ok(packets[0]?.marker, 'the first packet is marked');
  for (let i = 1; i < packets.length; i++) {
    const [previous, packet] = [packets[i - 1], packets[i]] as [(typeof packets)[0], (typeof packets)[0]];
    assert.equal(packet.sequence, (previous.sequence + 1) & 0xffff);
    assert.equal(packet.timestamp, (previous.timestamp + 160) >>> 0);
  }
  const elapsed = (packets.at(-1)?.receivedAt ?? 0) - (packets[0]?.receivedAt ?? 0);
  assert.ok(elapsed >= (packets.length - 1) * 20 * 0.9, `paced at 20 ms (took ${Math.round(elapsed)} ms)`);

  const digits = code.split('').map((d) => prompt(language, d));
  const expected = [prompt(language, 'lead-in'), ...digits, ...digits];
  const audio = call.audio;
  let at = 0;
  for (const [i, recorded] of expected.entries()) {
    const pauseStart = at;
    while (audio[at] === 0xff) at++;
    if (i > 0) assert.ok(at - pauseStart >= 160, `a pause before prompt ${i}`);
    assert.ok(audio.subarray(at, at + recorded.length).equals(recorded), `prompt ${i} heard as recorded`);
    at += recorded.length;
  }
  assert.ok(
    audio.subarray(at).every((b) => b === 0xff),
    'nothing but silence after the second reading',
  );
}
