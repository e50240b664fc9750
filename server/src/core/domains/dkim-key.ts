import { createPrivateKey, generateKeyPair, type KeyObject, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import type { SecretBox } from '../../lib/secret-box.ts';

/**
 * One DKIM key pair per sending domain (RFC 6376, RFC 8301: RSA of at least 1024 bits; 2048 is
 * what receivers expect today). The public half is published as the p= tag (base64 of the DER
 * SubjectPublicKeyInfo); the private half is PKCS#8 PEM, sealed with the secret box and bound to
 * the account, so a sealed key copied onto another account's row does not open there.
 */
export const DKIM_KEY_BITS = 2048;

const generate = promisify(generateKeyPair);

export interface DkimKeyMaterial {
  selector: string;
  publicKey: string;
  privateKeySealed: string;
}

/** A fresh selector per key, so a rotation can publish the new key beside the old one. */
export function newSelector(): string {
  return `hd${randomBytes(4).toString('hex')}`;
}

export async function createDkimKey(secretBox: SecretBox, accountId: number): Promise<DkimKeyMaterial> {
  const { publicKey, privateKey } = await generate('rsa', {
    modulusLength: DKIM_KEY_BITS,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return {
    selector: newSelector(),
    publicKey: publicKey.toString('base64'),
    privateKeySealed: secretBox.seal(privateKey, sealContext(accountId)),
  };
}

function sealContext(accountId: number): string {
  return `sending_domains.dkim:${accountId}`;
}

/** The TXT value of the DKIM record: `v=DKIM1; k=rsa; p=<base64>`. */
export function dkimRecordValue(publicKey: string): string {
  return `v=DKIM1; k=rsa; p=${publicKey}`;
}

export interface DkimSigningKey {
  domain: string;
  selector: string;
  privateKey: KeyObject;
}

/** What the DKIM signer needs from a domain row: unsealed and parsed, ready for crypto.sign. */
export function loadDkimKey(
  secretBox: SecretBox,
  row: { account_id: number; name: string; dkim_selector: string; dkim_private_key_sealed: string },
): DkimSigningKey {
  const pem = secretBox.open(row.dkim_private_key_sealed, sealContext(Number(row.account_id)));
  return { domain: row.name, selector: row.dkim_selector, privateKey: createPrivateKey(pem) };
}
