import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import QRCode from 'qrcode';

/**
 * Time-based one-time passwords (RFC 6238) for the Google-authenticator binding: HMAC-SHA-1,
 * six digits, 30-second steps, as every authenticator app expects. The secret is 160 random bits
 * in base32 (RFC 4648, no padding). A code is accepted for one step either side of now, and never
 * for a step at or before the last one the caller recorded, so a code seen once cannot be replayed.
 */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_ISSUER = 'Herald';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32, ignoring case, spaces and padding (apps show secrets in groups). */
export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, '');
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`invalid base32 character "${char}"`);
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

export function generateTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The step a moment (ms since the epoch) falls in. */
export function totpStep(timeMs: number): number {
  return Math.floor(timeMs / 1000 / TOTP_STEP_SECONDS);
}

/** RFC 4226 HOTP of a counter, truncated to `digits`. */
export function hotp(key: Buffer, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = (mac[mac.length - 1] as number) & 0xf;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

export function totpCode(secret: string, timeMs: number, digits = TOTP_DIGITS): string {
  return hotp(base32Decode(secret), totpStep(timeMs), digits);
}

/**
 * The step the code matches within `window` steps of `timeMs`, or null. Pass the step returned
 * by the last successful check as `lastUsedStep` and store the new one: steps at or before it
 * are refused. Every candidate is compared, in constant time, whether or not one already matched.
 */
export function verifyTotp(
  secret: string,
  code: string,
  timeMs: number,
  window = 1,
  lastUsedStep: number | null = null,
): number | null {
  const given = Buffer.from(code.trim().padEnd(TOTP_DIGITS, ' ').slice(0, 16), 'utf8');
  const key = base32Decode(secret);
  const now = totpStep(timeMs);
  let matched: number | null = null;
  for (let step = now - window; step <= now + window; step++) {
    if (step < 0) continue;
    const expected = Buffer.from(hotp(key, step), 'utf8');
    const same = expected.length === given.length && timingSafeEqual(expected, given);
    if (same && matched === null && (lastUsedStep === null || step > lastUsedStep)) matched = step;
  }
  return matched;
}

/** The otpauth:// URI authenticator apps scan (Key Uri Format). */
export function otpauthUri(account: string, secret: string, issuer = TOTP_ISSUER): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const params = new URLSearchParams({
    secret,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}

/** A PNG data URL of the URI's QR code, for the binding screen. */
export function totpQrDataUrl(uri: string): Promise<string> {
  return QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 200 });
}
