import { createHmac } from 'node:crypto';

/**
 * Short codes of SMS links: the link's id in base 62 followed by two signature characters (an
 * HMAC of the id), so a code is as short as the id allows, never collides, and a guessed or
 * mistyped one is refused before any database read.
 */
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

function base62(n: number): string {
  let out = '';
  let rest = n;
  do {
    out = ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out;
}

function signature(key: Buffer, id: number): string {
  const mac = createHmac('sha256', key).update(String(id)).digest();
  const value = (mac.readUInt16BE(0) % (62 * 62)) as number;
  return (ALPHABET[Math.floor(value / 62)] as string) + (ALPHABET[value % 62] as string);
}

export function shortCode(key: Buffer, id: number): string {
  return base62(id) + signature(key, id);
}

/** The link id a code names, or undefined when it is not one of ours. */
export function linkIdOf(key: Buffer, code: string): number | undefined {
  if (!/^[0-9a-zA-Z]{3,12}$/.test(code)) return undefined;
  let id = 0;
  for (const char of code.slice(0, -2)) id = id * 62 + ALPHABET.indexOf(char);
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  return signature(key, id) === code.slice(-2) ? id : undefined;
}
