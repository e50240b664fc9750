import { timingSafeEqual } from 'node:crypto';

/**
 * Whether a secret someone presents is the one held, compared in constant time (the time taken
 * says nothing about how many leading bytes matched). A value of another length is simply not
 * the secret; timingSafeEqual alone would throw on it.
 */
export function sameSecret(given: string | Buffer | undefined, held: string | Buffer): boolean {
  const a = Buffer.isBuffer(given) ? given : Buffer.from(given ?? '');
  const b = Buffer.isBuffer(held) ? held : Buffer.from(held);
  return a.length === b.length && timingSafeEqual(a, b);
}
