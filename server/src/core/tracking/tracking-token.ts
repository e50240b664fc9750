import { createHash, createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

/**
 * The tokens in open-pixel and click URLs: they name the account, the recipient row and, for a
 * click, the original link, signed with a key derived from the platform secret (as the
 * unsubscribe token is), so a URL cannot be edited to count an open for someone else or to
 * redirect anywhere. Self-contained: a hit needs no look-up to find where a click goes.
 */
export interface OpenClaim {
  accountId: number;
  recipientId: number;
}

export interface ClickClaim extends OpenClaim {
  url: string;
}

export function trackingKey(secretKey: Buffer): Buffer {
  return createHash('sha256').update('herald-tracking\0').update(secretKey).digest();
}

export function openToken(claim: OpenClaim, key: Buffer): string {
  return sign([claim.accountId, claim.recipientId], key);
}

export function clickToken(claim: ClickClaim, key: Buffer): string {
  return sign([claim.accountId, claim.recipientId, claim.url], key);
}

export function verifyOpenToken(token: string, key: Buffer): OpenClaim | null {
  const fields = verify(token, key);
  if (fields?.length !== 2) return null;
  const [accountId, recipientId] = fields;
  if (!isId(accountId) || !isId(recipientId)) return null;
  return { accountId, recipientId };
}

export function verifyClickToken(token: string, key: Buffer): ClickClaim | null {
  const fields = verify(token, key);
  if (fields?.length !== 3) return null;
  const [accountId, recipientId, url] = fields;
  if (!isId(accountId) || !isId(recipientId) || typeof url !== 'string' || !/^https?:\/\//i.test(url))
    return null;
  return { accountId, recipientId, url };
}

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

function sign(fields: unknown[], key: Buffer): string {
  const body = Buffer.from(JSON.stringify(fields)).toString('base64url');
  return `${body}.${mac(body, key)}`;
}

function verify(token: string, key: Buffer): unknown[] | null {
  const [body, given, ...rest] = token.split('.');
  if (!body || !given || rest.length > 0) return null;
  const expected = mac(body, key);
  if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected)))
    return null;
  try {
    const fields: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    return Array.isArray(fields) ? fields : null;
  } catch {
    return null;
  }
}

// A KeyObject makes each HMAC several times cheaper than a raw key (one per link per recipient).
const keyObjects = new WeakMap<Buffer, KeyObject>();

function mac(body: string, key: Buffer): string {
  let keyObject = keyObjects.get(key);
  if (!keyObject) {
    keyObject = createSecretKey(key);
    keyObjects.set(key, keyObject);
  }
  return createHmac('sha256', keyObject).update(body).digest('base64url').slice(0, 22);
}
