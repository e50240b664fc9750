import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import QRCode from 'qrcode';
import {
  base32Decode,
  base32Encode,
  generateTotpSecret,
  otpauthUri,
  totpCode,
  totpQrDataUrl,
  totpStep,
  verifyTotp,
} from '../../src/core/auth/totp.ts';

/** RFC 6238 appendix B, SHA-1 rows: seed '12345678901234567890', 8-digit codes. */
const SEED = base32Encode(Buffer.from('12345678901234567890', 'ascii'));
const VECTORS: [seconds: number, code: string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  it('encodes the RFC seed in base32 and back', () => {
    assert.equal(SEED, 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    assert.equal(base32Decode(SEED).toString('ascii'), '12345678901234567890');
    assert.equal(
      base32Decode('gezd gnbv-gy3t qojq gezd gnbv gy3t qojq===').toString('ascii'),
      '12345678901234567890',
    );
    assert.throws(() => base32Decode('GEZD1'), /invalid base32/);
  });

  it('matches the appendix B test vectors (8 digits and the 6-digit codes apps show)', () => {
    for (const [seconds, code] of VECTORS) {
      assert.equal(totpCode(SEED, seconds * 1000, 8), code, `T=${seconds}`);
      assert.equal(totpCode(SEED, seconds * 1000), code.slice(2), `T=${seconds} (6 digits)`);
    }
  });

  it('generates 160-bit base32 secrets, different each time', () => {
    const a = generateTotpSecret();
    const b = generateTotpSecret();
    assert.match(a, /^[A-Z2-7]{32}$/);
    assert.equal(base32Decode(a).length, 20);
    assert.notEqual(a, b);
  });

  it('accepts the current step and one either side, and nothing further', () => {
    const now = 1234567890_000;
    const step = totpStep(now);
    const at = (offset: number) => totpCode(SEED, now + offset * 30_000);
    assert.equal(verifyTotp(SEED, at(0), now), step);
    assert.equal(verifyTotp(SEED, at(-1), now), step - 1);
    assert.equal(verifyTotp(SEED, at(1), now), step + 1);
    assert.equal(verifyTotp(SEED, at(-2), now), null);
    assert.equal(verifyTotp(SEED, at(2), now), null);
    assert.equal(verifyTotp(SEED, at(-2), now, 2), step - 2);
    assert.equal(verifyTotp(SEED, at(1), now, 0), null);
  });

  it('refuses a code of a step at or before the last one used (no replay)', () => {
    const now = 1111111111_000;
    const code = totpCode(SEED, now);
    const used = verifyTotp(SEED, code, now);
    assert.notEqual(used, null);
    assert.equal(verifyTotp(SEED, code, now + 1000, 1, used), null, 'same code again');
    const earlier = totpCode(SEED, now - 30_000);
    assert.equal(verifyTotp(SEED, earlier, now, 1, used), null, 'an older step after a newer one');
    const next = totpCode(SEED, now + 30_000);
    assert.equal(verifyTotp(SEED, next, now + 30_000, 1, used), (used as number) + 1);
  });

  it('rejects wrong, short, long and non-numeric codes', () => {
    const now = 59_000;
    assert.equal(verifyTotp(SEED, '000000', now), null);
    assert.equal(verifyTotp(SEED, '28708', now), null);
    assert.equal(verifyTotp(SEED, '2870822', now), null);
    assert.equal(verifyTotp(SEED, 'abcdef', now), null);
    assert.equal(verifyTotp(SEED, ' 287082 ', now), totpStep(now), 'surrounding spaces are ignored');
  });

  it('builds the otpauth URI apps scan, and its QR code as a PNG data URL', async () => {
    const secret = generateTotpSecret();
    const uri = otpauthUri('ada@example.com', secret);
    const url = new URL(uri);
    assert.equal(url.protocol, 'otpauth:');
    assert.equal(url.host, 'totp');
    assert.equal(decodeURIComponent(url.pathname), '/Herald:ada@example.com');
    assert.equal(url.searchParams.get('secret'), secret);
    assert.equal(url.searchParams.get('issuer'), 'Herald');
    assert.equal(url.searchParams.get('algorithm'), 'SHA1');
    assert.equal(url.searchParams.get('digits'), '6');
    assert.equal(url.searchParams.get('period'), '30');

    const dataUrl = await totpQrDataUrl(uri);
    assert.match(dataUrl, /^data:image\/png;base64,/);
    const png = Buffer.from(dataUrl.slice('data:image/png;base64,'.length), 'base64');
    assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')]);
    const segments = QRCode.create(uri, { errorCorrectionLevel: 'M' }).segments;
    const text = segments
      .map(({ data }: { data: unknown }) =>
        typeof data === 'string' ? data : Buffer.from(data as Uint8Array).toString('utf8'),
      )
      .join('');
    assert.equal(text, uri, 'the QR code carries the URI');
  });
});
