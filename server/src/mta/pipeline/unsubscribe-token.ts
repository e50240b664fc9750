import { createHash, timingSafeEqual } from 'node:crypto';
import { hmac } from '../../core/security/hmac.ts';

/**
 * The one-click unsubscribe link of batch mail (RFC 8058): `${publicUrl}/unsubscribe/<token>`,
 * where the token names the account, the recipient row and the address, and is signed with a key
 * derived from the platform secret so nobody can unsubscribe someone else by editing a URL. The
 * endpoint that reads it (and records the unsubscribe through the suppression service) belongs
 * to the tracking issue; it calls verifyUnsubscribeToken with the same key.
 */
export interface UnsubscribeClaim {
  accountId: number;
  recipientId: number;
  email: string;
}

export function unsubscribeKey(secretKey: Buffer): Buffer {
  return createHash('sha256').update('herald-unsubscribe\0').update(secretKey).digest();
}

export function unsubscribeToken(claim: UnsubscribeClaim, key: Buffer): string {
  const body = Buffer.from(JSON.stringify([claim.accountId, claim.recipientId, claim.email])).toString(
    'base64url',
  );
  return `${body}.${mac(body, key)}`;
}

export function verifyUnsubscribeToken(token: string, key: Buffer): UnsubscribeClaim | null {
  const [body, given, ...rest] = token.split('.');
  if (!body || !given || rest.length > 0) return null;
  const expected = mac(body, key);
  if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected)))
    return null;
  try {
    const [accountId, recipientId, email] = JSON.parse(
      Buffer.from(body, 'base64url').toString('utf8'),
    ) as unknown[];
    if (typeof accountId !== 'number' || typeof recipientId !== 'number' || typeof email !== 'string')
      return null;
    return { accountId, recipientId, email };
  } catch {
    return null;
  }
}

export function unsubscribeUrl(publicUrl: string, claim: UnsubscribeClaim, key: Buffer): string {
  return `${publicUrl}/unsubscribe/${unsubscribeToken(claim, key)}`;
}

function mac(body: string, key: Buffer): string {
  return hmac('sha256', key).update(body).digest('base64url').slice(0, 22);
}
