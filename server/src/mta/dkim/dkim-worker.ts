import { createPrivateKey, type KeyObject } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import type { SignReply, SignRequest } from './dkim-pool.ts';
import { dkimSign } from './dkim-sign.ts';

/** One signing thread of the DKIM pool: parses each key once, then signs with it by key id. */
const keys = new Map<string, { domain: string; selector: string; privateKey: KeyObject }>();

/** A turn's requests arrive together and are answered together (one message each way). */
parentPort?.on('message', (requests: SignRequest[]) => {
  parentPort?.postMessage(requests.map(signOne));
});

function signOne(request: SignRequest): SignReply {
  try {
    if (request.key) {
      const { domain, selector, pem } = request.key;
      keys.set(request.keyId, { domain, selector, privateKey: createPrivateKey(pem) });
    }
    const signer = keys.get(request.keyId);
    if (!signer) throw new Error(`DKIM key ${request.keyId} was never sent to this worker`);
    const header = dkimSign(request.pieces, signer, { now: new Date(request.now) });
    return { id: request.id, header };
  } catch (err) {
    return { id: request.id, error: err instanceof Error ? err.message : String(err) };
  }
}
