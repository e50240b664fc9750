import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import smpp, { type Pdu, type PduOptions, type Session } from 'smpp';
import { type SmppCarrier, startSmppCarrier } from '../src/smpp-carrier.ts';

type Command =
  | 'bind_transceiver'
  | 'bind_transmitter'
  | 'bind_receiver'
  | 'submit_sm'
  | 'enquire_link'
  | 'unbind';

/** Sends one command and resolves with the carrier's response PDU. */
const call = (session: Session, command: Command, options: PduOptions = {}): Promise<Pdu> =>
  new Promise((resolve, reject) => {
    if (!session[command](options, resolve)) reject(new Error(`${command}: socket not writable`));
  });

/** Connects a client that acknowledges and collects every deliver_sm. */
async function connectClient(carrier: SmppCarrier): Promise<{ session: Session; delivered: Pdu[] }> {
  const session = smpp.connect({ url: `smpp://${carrier.host}:${carrier.port}` });
  const delivered: Pdu[] = [];
  session.on('error', () => {});
  session.on('deliver_sm', (pdu: Pdu) => {
    delivered.push(pdu);
    session.send(pdu.response());
  });
  await new Promise<void>((resolve) => session.once('connect', () => resolve()));
  return { session, delivered };
}

const waitFor = async (check: () => boolean, timeoutMs = 2000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

const receiptText = (pdu: Pdu): string => {
  const sm = pdu.short_message;
  return sm && typeof sm === 'object' && 'message' in sm && typeof sm.message === 'string' ? sm.message : '';
};

describe('smpp-carrier', () => {
  let carrier: SmppCarrier;
  const clients: Session[] = [];
  const client = async () => {
    const c = await connectClient(carrier);
    clients.push(c.session);
    return c;
  };
  const bound = async () => {
    const c = await client();
    const resp = await call(c.session, 'bind_transceiver', { system_id: 'herald', password: 'secret' });
    assert.equal(resp.command_status, 0);
    return c;
  };

  before(async () => {
    carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 20 });
  });
  after(() => carrier.close());
  beforeEach(() => carrier.clear());
  afterEach(() => {
    for (const s of clients.splice(0)) s.destroy();
  });

  it('binds with good credentials and refuses a bad password with ESME_RBINDFAIL', async () => {
    const { session } = await client();
    const bad = await call(session, 'bind_transceiver', { system_id: 'herald', password: 'wrong' });
    assert.equal(bad.command_status, smpp.errors.ESME_RBINDFAIL);
    await bound();
    await waitFor(() => carrier.sessions === 1);
  });

  it('accepts a GSM submit, records it and sends a DELIVRD receipt', async () => {
    const { session, delivered } = await bound();
    const resp = await call(session, 'submit_sm', {
      source_addr: 'Herald',
      destination_addr: '+4915112345678',
      data_coding: 0,
      registered_delivery: 1,
      short_message: 'Your code is 123456',
    });
    assert.equal(resp.command_status, 0);
    const messageId = resp.message_id;
    assert.equal(typeof messageId, 'string');
    const [sms] = await carrier.waitForMessages(1, 2000);
    assert.equal(sms?.systemId, 'herald');
    assert.equal(sms?.source, 'Herald');
    assert.equal(sms?.destination, '+4915112345678');
    assert.equal(sms?.dataCoding, 0);
    assert.equal(sms?.text, 'Your code is 123456');
    assert.equal(sms?.messageId, messageId);
    assert.equal(sms?.registeredDelivery, 1);
    assert.equal(sms?.udh, undefined);

    await waitFor(() => delivered.length === 1);
    const receipt = delivered[0]!;
    assert.equal(receipt.esm_class, 0x04);
    assert.equal(receipt.receipted_message_id, messageId);
    assert.equal(receipt.message_state, 2);
    assert.equal(receipt.source_addr, '+4915112345678');
    assert.equal(receipt.destination_addr, 'Herald');
    assert.match(
      receiptText(receipt),
      new RegExp(
        `^id:${messageId} sub:001 dlvr:001 submit date:\\d{10} done date:\\d{10} stat:DELIVRD err:000 text:Your code is 123456$`,
      ),
    );
  });

  it('decodes UCS-2 text and concatenation UDH', async () => {
    const { session } = await bound();
    const udh = Buffer.from([0x05, 0x00, 0x03, 0x2a, 0x02, 0x01]);
    await call(session, 'submit_sm', {
      destination_addr: '8613800138000',
      data_coding: 8,
      short_message: { udh, message: '【Herald】您的验证码是123456' },
    });
    const [sms] = await carrier.waitForMessages(1, 2000);
    assert.equal(sms?.dataCoding, 8);
    assert.equal(sms?.text, '【Herald】您的验证码是123456');
    assert.equal((sms?.esmClass ?? 0) & 0x40, 0x40);
    assert.deepEqual(sms?.udh, { ref: 0x2a, total: 2, seq: 1 });
  });

  it('answers scripted command_status and failure receipts per destination', async () => {
    const { session, delivered } = await bound();
    carrier.script('+15550001', { reject: 0x58 });
    carrier.script('15550002', { receipt: 'UNDELIV', err: '013' });
    carrier.script('15550003', { noReceipt: true });
    const rejected = await call(session, 'submit_sm', { destination_addr: '15550001', short_message: 'x' });
    assert.equal(rejected.command_status, smpp.errors.ESME_RTHROTTLED);
    await call(session, 'submit_sm', {
      destination_addr: '15550002',
      registered_delivery: 1,
      short_message: 'y',
    });
    await call(session, 'submit_sm', {
      destination_addr: '15550003',
      registered_delivery: 1,
      short_message: 'z',
    });
    assert.equal(carrier.messages.length, 2);
    await waitFor(() => delivered.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(delivered.length, 1);
    assert.match(receiptText(delivered[0]!), /dlvr:000 .* stat:UNDELIV err:013 text:y$/);
    assert.equal(delivered[0]!.message_state, 5);
  });

  it('refuses submits before bind and answers enquire_link', async () => {
    const { session } = await client();
    const early = await call(session, 'submit_sm', { destination_addr: '1', short_message: 'x' });
    assert.equal(early.command_status, smpp.errors.ESME_RINVBNDSTS);
    const link = await call(session, 'enquire_link');
    assert.equal(link.command, 'enquire_link_resp');
  });

  it('keeps receipts across dropAll() and delivers them when the client binds again', async () => {
    carrier.scriptDefault({ receiptDelayMs: 150 });
    const first = await bound();
    const resp = await call(first.session, 'submit_sm', {
      destination_addr: '1',
      registered_delivery: 1,
      short_message: 'hi',
    });
    carrier.dropAll();
    await waitFor(() => carrier.sessions === 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = await bound();
    await waitFor(() => second.delivered.length === 1);
    assert.equal(second.delivered[0]!.receipted_message_id, resp.message_id);
    assert.equal(first.delivered.length, 0);
  });

  it('unbinds cleanly', async () => {
    const { session } = await bound();
    await waitFor(() => carrier.sessions === 1);
    const resp = await call(session, 'unbind');
    assert.equal(resp.command, 'unbind_resp');
    await waitFor(() => carrier.sessions === 0);
  });

  it('rejects waitForMessages on timeout', async () => {
    await assert.rejects(
      carrier.waitForMessages(1, 50),
      /smpp-carrier: expected 1 message\(s\) within 50ms, got 0/,
    );
  });
});
