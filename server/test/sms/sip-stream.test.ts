import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SipStream } from '../../src/sms/carriers/sip-message.ts';

/** SIP over TCP (RFC 3261 §18.3): messages framed by Content-Length, however the bytes arrive. */
describe('SIP messages on a TCP stream', () => {
  const ok = 'SIP/2.0 200 OK\r\nCall-ID: a\r\nContent-Length: 4\r\n\r\nv=0\n';
  const ringing = 'SIP/2.0 180 Ringing\r\ni: b\r\nl: 0\r\n\r\n';

  it('frames two messages in one chunk, and one split across chunks at any byte', () => {
    assert.deepEqual(
      new SipStream().push(Buffer.from(ok + ringing)).map(String),
      [ok, ringing],
      'the compact l: counts too',
    );
    const whole = Buffer.from(ok);
    for (let cut = 1; cut < whole.length; cut++) {
      const stream = new SipStream();
      assert.deepEqual(stream.push(whole.subarray(0, cut)), []);
      assert.deepEqual(stream.push(whole.subarray(cut)).map(String), [ok]);
    }
  });

  it('skips the CRLF keep-alives between messages', () => {
    assert.deepEqual(new SipStream().push(Buffer.from(`\r\n\r\n${ok}\r\n${ringing}`)).map(String), [
      ok,
      ringing,
    ]);
  });

  it('refuses a stream it cannot frame: no Content-Length, or a message far too large', () => {
    assert.throws(
      () => new SipStream().push(Buffer.from('SIP/2.0 200 OK\r\nCall-ID: a\r\n\r\n')),
      /Content-Length/,
    );
    assert.throws(
      () => new SipStream().push(Buffer.from('SIP/2.0 200 OK\r\nContent-Length: 9999999\r\n\r\n')),
      /too large/,
    );
  });
});
