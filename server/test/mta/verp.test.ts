import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeVerp, encodeVerp } from '../../src/mta/verp.ts';

const options = { secret: 'test-secret-0123456789', bounceDomain: 'Bounce.Herald.Example' };

describe('VERP return path', () => {
  it('encodes the id in base 36 with an 8-character tag on the bounce domain', () => {
    const address = encodeVerp(123456789, options);
    assert.match(address, /^b-21i3v9-[a-z2-7]{8}@bounce\.herald\.example$/);
    assert.equal(encodeVerp(123456789, options), address, 'deterministic');
  });

  it('decodes what it encodes, for small and large ids', () => {
    for (const id of [0, 1, 35, 36, 1_000_000, 2 ** 40 + 7, Number.MAX_SAFE_INTEGER]) {
      assert.deepEqual(decodeVerp(encodeVerp(id, options), options), { kind: 'recipient', recipientId: id });
    }
  });

  it('ignores case, angle brackets and surrounding space', () => {
    const address = encodeVerp(987654, options);
    assert.deepEqual(decodeVerp(` <${address.toUpperCase()}> `, options), {
      kind: 'recipient',
      recipientId: 987654,
    });
  });

  it('rejects a changed id, a changed tag, or another secret', () => {
    const address = encodeVerp(1000, options);
    const [local = '', domain] = address.split('@');
    const [, id36, tag = ''] = local.split('-');
    const otherId = `b-${(1001).toString(36)}-${tag}@${domain}`;
    assert.deepEqual(decodeVerp(otherId, options), { kind: 'invalid', reason: 'bad tag' });
    const flipped = `b-${id36}-${tag.slice(0, 7)}${tag[7] === 'a' ? 'b' : 'a'}@${domain}`;
    assert.deepEqual(decodeVerp(flipped, options), { kind: 'invalid', reason: 'bad tag' });
    assert.deepEqual(decodeVerp(address, { ...options, secret: 'another secret' }), {
      kind: 'invalid',
      reason: 'bad tag',
    });
  });

  it('rejects another domain and addresses that are not VERP', () => {
    const address = encodeVerp(42, options);
    assert.deepEqual(decodeVerp(address.replace('@bounce.', '@mail.'), options), {
      kind: 'invalid',
      reason: 'other domain',
    });
    for (const other of [
      'postmaster@bounce.herald.example',
      'b-1-short@bounce.herald.example',
      '',
      'no-at-sign',
    ]) {
      assert.deepEqual(decodeVerp(other, options), { kind: 'invalid', reason: 'not a VERP address' });
    }
  });

  it('rejects a non-canonical id spelling even with a valid-looking tag', () => {
    const address = encodeVerp(42, options);
    assert.equal(decodeVerp(address.replace('b-16-', 'b-016-'), options).kind, 'invalid');
  });

  it('refuses ids it could not round-trip (a bug in the caller)', () => {
    assert.throws(() => encodeVerp(-1, options), RangeError);
    assert.throws(() => encodeVerp(1.5, options), RangeError);
    assert.throws(() => encodeVerp(2 ** 60, options), RangeError);
  });

  it('accepts a Buffer secret', () => {
    const bufferOptions = {
      secret: Buffer.from('0123456789abcdef0123456789abcdef'),
      bounceDomain: 'b.example',
    };
    assert.deepEqual(decodeVerp(encodeVerp(7, bufferOptions), bufferOptions), {
      kind: 'recipient',
      recipientId: 7,
    });
  });
});
