import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseReceipt } from '../../src/sms/carriers/smpp-receipt.ts';
import { describeReceipt } from '../../src/sms/ports.ts';
import { concatenationUdh, isGsm7, splitSms } from '../../src/sms/sms-parts.ts';

describe('SMS encoding and parts (product-spec §9)', () => {
  it('uses GSM 7-bit when every character is in the alphabet or its extension, else UCS-2', () => {
    assert.equal(isGsm7('Your code is 123456. {ok} €5 @home'), true);
    assert.equal(splitSms('Your code is 123456').dataCoding, 0);
    assert.equal(splitSms('您的验证码是123456').dataCoding, 8);
    assert.equal(splitSms('emoji 🙂').dataCoding, 8);
  });

  it('keeps 160 GSM characters in one message and cuts longer text into 153-character parts', () => {
    assert.deepEqual(splitSms('a'.repeat(160)).parts, ['a'.repeat(160)]);
    const long = splitSms('b'.repeat(161));
    assert.deepEqual(
      long.parts.map((p) => p.length),
      [153, 8],
    );
    assert.equal(long.parts.join(''), 'b'.repeat(161));
  });

  it('counts extension characters as two septets and never splits one', () => {
    assert.deepEqual(splitSms('{'.repeat(80)).parts, ['{'.repeat(80)]);
    const split = splitSms(`${'x'.repeat(152)}{${'y'.repeat(10)}`);
    assert.deepEqual(split.parts, ['x'.repeat(152), `{${'y'.repeat(10)}`]);
  });

  it('keeps 70 UCS-2 characters in one message and cuts longer text into 67-character parts', () => {
    assert.deepEqual(splitSms('验'.repeat(70)).parts, ['验'.repeat(70)]);
    assert.deepEqual(
      splitSms('验'.repeat(71)).parts.map((p) => p.length),
      [67, 4],
    );
    const emoji = splitSms(`${'验'.repeat(66)}🙂🙂🙂`);
    assert.deepEqual(emoji.parts, ['验'.repeat(66), '🙂🙂🙂'], 'a surrogate pair stays whole');
  });

  it('builds the 8-bit-reference concatenation header', () => {
    assert.deepEqual([...concatenationUdh(0x2a, 3, 2)], [0x05, 0x00, 0x03, 0x2a, 3, 2]);
  });
});

describe('delivery receipts', () => {
  it('reads id, stat and err from the Appendix B text, preferring receipted_message_id', () => {
    const text =
      'id:abc123 sub:001 dlvr:001 submit date:2405011200 done date:2405011201 stat:DELIVRD err:000 text:Hi';
    assert.deepEqual(parseReceipt(text), {
      messageId: 'abc123',
      stat: 'DELIVRD',
      err: '000',
      delivered: true,
      final: true,
    });
    const failed = parseReceipt(text.replace('DELIVRD', 'UNDELIV').replace('err:000', 'err:013'), 'xyz');
    assert.equal(failed?.messageId, 'xyz');
    assert.equal(failed?.delivered, false);
    assert.equal(describeReceipt(failed!), 'UNDELIV (err 013)');
    assert.equal(parseReceipt('id:1 stat:ENROUTE')?.final, false);
    assert.equal(parseReceipt('hello'), undefined);
  });
});
