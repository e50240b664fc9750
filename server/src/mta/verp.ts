import { timingSafeEqual } from 'node:crypto';
import { hmac } from '../lib/hmac.ts';

/**
 * VERP return paths: every recipient's copy is sent with MAIL FROM
 * `b-<recipient id in base 36>-<tag>@<bounce domain>`, so a bounce that arrives later names the
 * recipient row it is about. The tag is the first 40 bits of an HMAC-SHA256 over the id, keyed
 * with a platform secret, so a forged bounce cannot mark arbitrary recipients as bounced.
 *
 * Everything is lower-case letters and digits: some servers lower-case the local part of the
 * address they bounce to, so decoding ignores case.
 */

export interface VerpOptions {
  /** Secret the tag is keyed with (e.g. derived from HERALD_SECRET_KEY). */
  secret: string | Buffer;
  /** The platform's bounce domain, e.g. `bounce.herald.example`. */
  bounceDomain: string;
}

export type VerpDecoded =
  | { kind: 'recipient'; recipientId: number }
  | { kind: 'invalid'; reason: 'not a VERP address' | 'other domain' | 'bad tag' };

const PREFIX = 'b-';
const TAG_BYTES = 5;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const LOCAL_PART = /^b-([0-9a-z]{1,11})-([a-z2-7]{8})$/;

export function encodeVerp(recipientId: number, options: VerpOptions): string {
  if (!Number.isSafeInteger(recipientId) || recipientId < 0) {
    throw new RangeError(`VERP recipient id must be a non-negative safe integer: ${recipientId}`);
  }
  const id36 = recipientId.toString(36);
  return `${PREFIX}${id36}-${tag(id36, options.secret)}@${options.bounceDomain.toLowerCase()}`;
}

/** Reads a VERP address (with or without angle brackets), checking its domain and tag. */
export function decodeVerp(address: string, options: VerpOptions): VerpDecoded {
  const bare = address
    .trim()
    .replace(/^<(.*)>$/, '$1')
    .toLowerCase();
  const at = bare.lastIndexOf('@');
  if (at <= 0) return { kind: 'invalid', reason: 'not a VERP address' };
  const match = LOCAL_PART.exec(bare.slice(0, at));
  if (!match) return { kind: 'invalid', reason: 'not a VERP address' };
  if (bare.slice(at + 1) !== options.bounceDomain.toLowerCase().replace(/\.$/, '')) {
    return { kind: 'invalid', reason: 'other domain' };
  }
  const [, id36 = '', given = ''] = match;
  const expected = tag(id36, options.secret);
  if (!timingSafeEqual(Buffer.from(given), Buffer.from(expected)))
    return { kind: 'invalid', reason: 'bad tag' };
  const recipientId = Number.parseInt(id36, 36);
  // Only the canonical spelling (no leading zeros) was ever issued.
  if (!Number.isSafeInteger(recipientId) || recipientId.toString(36) !== id36) {
    return { kind: 'invalid', reason: 'not a VERP address' };
  }
  return { kind: 'recipient', recipientId };
}

function tag(id36: string, secret: string | Buffer): string {
  const digest = hmac('sha256', secret).update(`herald-verp:${id36}`).digest();
  let bits = 0;
  let value = 0;
  let out = '';
  for (let i = 0; i < TAG_BYTES; i++) {
    value = (value << 8) | (digest[i] as number);
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += BASE32[(value >> bits) & 31];
    }
    value &= (1 << bits) - 1;
  }
  return out;
}
