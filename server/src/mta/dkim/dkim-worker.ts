import { createPrivateKey, type KeyObject } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import type { SignReply, SignRequest } from './dkim-pool.ts';
import { dkimSign } from './dkim-sign.ts';

/** One signing thread of the DKIM pool: parses each key once, then signs with it by key id. */
const keys = new Map<string, { domain: string; selector: string; privateKey: KeyObject }>();

parentPort?.on('message', (request: SignRequest) => {
  let reply: SignReply;
  try {
    if (request.key) {
      const { domain, selector, pem } = request.key;
      keys.set(request.keyId, { domain, selector, privateKey: createPrivateKey(pem) });
    }
    const signer = keys.get(request.keyId);
    if (!signer) throw new Error(`DKIM key ${request.keyId} was never sent to this worker`);
    const header = dkimSign(
      Buffer.from(request.message.buffer, request.message.byteOffset, request.message.byteLength),
      signer,
      { now: new Date(request.now) },
    );
    reply = { id: request.id, header };
  } catch (err) {
    reply = { id: request.id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(reply);
});
