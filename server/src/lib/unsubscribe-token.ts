import { purposeKey, signFields, verifiedFields } from './signed-token.ts';

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
  return purposeKey('unsubscribe', secretKey);
}

export function unsubscribeToken(claim: UnsubscribeClaim, key: Buffer): string {
  return signFields([claim.accountId, claim.recipientId, claim.email], key);
}

export function verifyUnsubscribeToken(token: string, key: Buffer): UnsubscribeClaim | null {
  const fields = verifiedFields(token, key);
  if (!fields) return null;
  const [accountId, recipientId, email] = fields;
  if (typeof accountId !== 'number' || typeof recipientId !== 'number' || typeof email !== 'string')
    return null;
  return { accountId, recipientId, email };
}

export function unsubscribeUrl(publicUrl: string, claim: UnsubscribeClaim, key: Buffer): string {
  return `${publicUrl}/unsubscribe/${unsubscribeToken(claim, key)}`;
}
