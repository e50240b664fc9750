import { createHmac, createSecretKey, type Hmac, type KeyObject } from 'node:crypto';

/**
 * createHmac with a secret turned into a KeyObject once. Node vets a raw Buffer or string key on
 * every createHmac (about 14 µs); a KeyObject skips that (about 2 µs). The delivery engine takes
 * several HMACs per message (VERP tag, unsubscribe and tracking tokens), so this shows in its
 * CPU per message. Only for long-lived secrets: each distinct string is kept for the process's life.
 */
const byBuffer = new WeakMap<Buffer, KeyObject>();
const byString = new Map<string, KeyObject>();

export function hmac(algorithm: string, secret: string | Buffer): Hmac {
  return createHmac(algorithm, keyObjectOf(secret));
}

function keyObjectOf(secret: string | Buffer): KeyObject {
  if (typeof secret === 'string') {
    let key = byString.get(secret);
    if (!key) {
      key = createSecretKey(Buffer.from(secret, 'utf8'));
      if (byString.size < 1000) byString.set(secret, key);
    }
    return key;
  }
  let key = byBuffer.get(secret);
  if (!key) {
    key = createSecretKey(secret);
    byBuffer.set(secret, key);
  }
  return key;
}
