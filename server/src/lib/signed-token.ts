import { createHash, timingSafeEqual } from 'node:crypto';
import { hmac } from './hmac.ts';

/**
 * Self-contained signed tokens for URLs (unsubscribe links, open pixels, click redirects): a list
 * of fields as base64url JSON, a dot, and a truncated HMAC-SHA256 of it with a key of its own
 * purpose derived from the platform secret. Nothing is stored: a token names what it is about,
 * and a changed field breaks the signature.
 */
export function purposeKey(purpose: string, secretKey: Buffer): Buffer {
  return createHash('sha256').update(`herald-${purpose}\0`).update(secretKey).digest();
}

export function signFields(fields: unknown[], key: Buffer): string {
  const body = Buffer.from(JSON.stringify(fields)).toString('base64url');
  return `${body}.${mac(body, key)}`;
}

/** The fields of a token signed with `key`; null when it is malformed or its signature is wrong. */
export function verifiedFields(token: string, key: Buffer): unknown[] | null {
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

function mac(body: string, key: Buffer): string {
  return hmac('sha256', key).update(body).digest('base64url').slice(0, 22);
}
