import { purposeKey, signFields, verifiedFields } from './signed-token.ts';

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
  return purposeKey('tracking', secretKey);
}

export function openToken(claim: OpenClaim, key: Buffer): string {
  return signFields([claim.accountId, claim.recipientId], key);
}

export function clickToken(claim: ClickClaim, key: Buffer): string {
  return signFields([claim.accountId, claim.recipientId, claim.url], key);
}

export function verifyOpenToken(token: string, key: Buffer): OpenClaim | null {
  const fields = verifiedFields(token, key);
  if (fields?.length !== 2) return null;
  const [accountId, recipientId] = fields;
  if (!isId(accountId) || !isId(recipientId)) return null;
  return { accountId, recipientId };
}

export function verifyClickToken(token: string, key: Buffer): ClickClaim | null {
  const fields = verifiedFields(token, key);
  if (fields?.length !== 3) return null;
  const [accountId, recipientId, url] = fields;
  if (!isId(accountId) || !isId(recipientId) || typeof url !== 'string' || !/^https?:\/\//i.test(url))
    return null;
  return { accountId, recipientId, url };
}

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
