import type { KeyObject } from 'node:crypto';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { joinedWhenSmall } from '../../lib/joined-when-small.ts';

/**
 * RSA signing is the costliest CPU step of sending (about a millisecond per message for a
 * 2048-bit key), so it runs on a small pool of worker threads, one per core by default, instead
 * of the event loop that also drives the SMTP connections.
 *
 * A key crosses to a worker once: the first job for a key id on a worker carries its PEM, the
 * worker parses it and keeps the KeyObject under that id. Key ids must therefore change when the
 * key does (use the key row's id, not the domain). Jobs go to the worker with the fewest in flight.
 * A signing failure is a bug (a broken key, a bad selector) and rejects the job's promise.
 *
 * A message travels as its pieces. A piece on a SharedArrayBuffer (the stored copy of a message
 * submitted over SMTP, which every recipient's copy slices) crosses as a view on the same memory;
 * only the pieces a copy owns are copied to the worker, so a large message with many recipients
 * is not cloned once per signature.
 */

export interface DkimKeyRef {
  /** Stable for the life of the key; a rotated key gets a new id. */
  id: string;
  domain: string;
  selector: string;
  privateKey: KeyObject;
}

export interface DkimPoolOptions {
  /** Worker threads; os.availableParallelism() by default. */
  size?: number;
}

/** Sent to a worker (in arrays, one per turn); `key` travels only the first time this worker sees `keyId`. */
export interface SignRequest {
  id: number;
  keyId: string;
  key?: { domain: string; selector: string; pem: string };
  pieces: Uint8Array[];
  now: number;
}

export type SignReply = { id: number; header: string } | { id: number; error: string };

interface Pending {
  resolve(header: string): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  keyIds: Set<string>;
  pending: Map<number, Pending>;
  /** Requests of this event-loop turn, posted together: one message (and one wake-up) per turn. */
  outbox: SignRequest[];
}

const WORKER_URL = new URL('./dkim-worker.ts', import.meta.url);

export class DkimPool {
  private readonly slots: Slot[] = [];
  private readonly pems = new Map<string, string>();
  private nextId = 1;
  private closed = false;

  constructor(options: DkimPoolOptions = {}) {
    const size = Math.max(1, options.size ?? os.availableParallelism());
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  get size(): number {
    return this.slots.length;
  }

  /** The DKIM-Signature field (CRLF-terminated) to prepend to `message` (whole, or its pieces in order). */
  sign(
    message: Uint8Array | readonly Uint8Array[],
    key: DkimKeyRef,
    options: { now?: Date } = {},
  ): Promise<string> {
    if (this.closed) return Promise.reject(new Error('DKIM pool is closed'));
    let slot = this.slots[0] as Slot;
    for (const candidate of this.slots) if (candidate.pending.size < slot.pending.size) slot = candidate;

    const request: SignRequest = {
      id: this.nextId++,
      keyId: key.id,
      pieces: joinedWhenSmall(message instanceof Uint8Array ? [message] : message).map(transferable),
      now: (options.now ?? new Date()).getTime(),
    };
    if (!slot.keyIds.has(key.id)) {
      request.key = { domain: key.domain, selector: key.selector, pem: this.pem(key) };
      slot.keyIds.add(key.id);
    }
    return new Promise<string>((resolve, reject) => {
      slot.pending.set(request.id, { resolve, reject });
      if (slot.outbox.push(request) === 1) {
        queueMicrotask(() => {
          const batch = slot.outbox;
          slot.outbox = [];
          slot.worker.postMessage(batch);
        });
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
    for (const slot of slots) failAll(slot, new Error('DKIM pool closed before the job finished'));
  }

  private pem(key: DkimKeyRef): string {
    let pem = this.pems.get(key.id);
    if (pem === undefined) {
      pem = key.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
      this.pems.set(key.id, pem);
    }
    return pem;
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(WORKER_URL), keyIds: new Set(), pending: new Map(), outbox: [] };
    slot.worker.on('message', (replies: SignReply[]) => {
      for (const reply of replies) {
        const pending = slot.pending.get(reply.id);
        if (!pending) continue;
        slot.pending.delete(reply.id);
        if ('header' in reply) pending.resolve(reply.header);
        else pending.reject(new Error(reply.error));
      }
    });
    const replace = (err: Error) => {
      if (this.closed) return;
      const index = this.slots.indexOf(slot);
      if (index < 0) return;
      failAll(slot, err);
      this.slots[index] = this.spawn();
    };
    slot.worker.on('error', replace);
    slot.worker.on('exit', (code) => replace(new Error(`DKIM worker exited with code ${code}`)));
    return slot;
  }
}

/**
 * A piece as it should cross: shared memory as it is; a view on part of an ordinary buffer (a
 * small Buffer sits on an 8 KB slab, a slice on the whole message) copied, since postMessage
 * would clone the whole buffer under it.
 */
function transferable(piece: Uint8Array): Uint8Array {
  if (piece.buffer instanceof SharedArrayBuffer || piece.byteLength === piece.buffer.byteLength) return piece;
  return new Uint8Array(piece);
}

function failAll(slot: Slot, err: Error): void {
  for (const pending of slot.pending.values()) pending.reject(err);
  slot.pending.clear();
}
