import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';

/**
 * The independent verifier the DKIM tests check against: mailauth's dkimVerify (MIT), given
 * the public key through its resolver option as the TXT record a domain would publish.
 */
const require = createRequire(import.meta.url);
const { dkimVerify } = require('mailauth/lib/dkim/verify') as {
  dkimVerify(
    message: Buffer,
    options: { resolver: (name: string, type: string) => Promise<string[][]> },
  ): Promise<{ results: { status: { result: string; comment?: string } }[] }>;
};

export interface TestKey {
  privateKey: KeyObject;
  txt: string;
}

export function makeKey(): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const p = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  return { privateKey, txt: `v=DKIM1; k=rsa; p=${p}` };
}

/** `pass`, `fail` or `neutral` (with mailauth's comment), from the first signature found. */
export async function verify(
  message: Buffer,
  records: Record<string, string>,
): Promise<{ result: string; comment?: string }> {
  const { results } = await dkimVerify(message, {
    resolver: async (name, type) => {
      const txt = records[name];
      if (type !== 'TXT' || txt === undefined) {
        throw Object.assign(new Error(`no ${type} record for ${name}`), { code: 'ENOTFOUND' });
      }
      return [[txt]];
    },
  });
  const first = results[0];
  if (!first) return { result: 'none' };
  return first.status;
}
