import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import {
  type ClaimedRecipient,
  type DeliveryStore,
  normalizeClaimed,
  type OutcomeRecord,
} from './delivery-store.ts';
import type { DeliveryOp } from './sqlite-delivery.worker.ts';

/** How long a dot mark keeps trying for the write lock before its dots are withheld. */
const MARK_PATIENCE_MS = 10_000;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

interface Marker {
  db: SQLite.Database;
  mark(owner: string, ids: number[], now: number): number[];
  unmark(owner: string, ids: number[]): void;
}

/**
 * The delivery store on the embedded SQLite file (delivery-store.ts has the contract). Its writes
 * run on the delivery writer thread (sqlite-delivery.worker.ts): this handle posts one operation
 * and resolves with its result once committed. A thread that dies fails what it held and is
 * started again for the next operation. The dot mark alone commits on this thread (see
 * markDotSent).
 */
export class SqliteDeliveryStore implements DeliveryStore {
  private readonly file: string;
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 0;
  private marker: Marker | undefined;

  constructor(file: string) {
    this.file = file;
  }

  async claim(owner: string, limit: number, now: number, leaseMs: number): Promise<ClaimedRecipient[]> {
    const rows = await this.run<ClaimedRecipient[]>({ op: 'claim', owner, limit, now, leaseMs });
    return rows.map(normalizeClaimed);
  }

  renew(owner: string, ids: number[], now: number, leaseMs: number): Promise<number> {
    if (ids.length === 0) return Promise.resolve(0);
    return this.run<number>({ op: 'renew', owner, ids, now, leaseMs });
  }

  async releaseOne(owner: string, id: number): Promise<void> {
    await this.run({ op: 'releaseOne', owner, id });
  }

  async releaseIds(owner: string, ids: number[]): Promise<void> {
    await this.run({ op: 'releaseIds', owner, ids });
  }

  async release(owner: string): Promise<void> {
    await this.run({ op: 'release', owner });
  }

  writeOutcomes(records: OutcomeRecord[]): Promise<boolean[]> {
    return this.run<boolean[]>({ op: 'outcomes', records });
  }

  /**
   * The exactly-once mark, committed on THIS thread, synchronously, and the dots written right
   * after it, so no event-loop turn passes between a durable mark and its dot. A dot the kernel
   * had no room for has its mark taken back at once, in the same call.
   *
   * The mark never waits for the write lock with the event loop stopped: while the writer thread
   * holds it (a claim or an outcome batch), the attempt fails at once and is made again a moment
   * later, and the loop meanwhile renders, signs and reads for every other connection. SQLite's
   * own busy wait would freeze the whole process for 1, 2, 5, 10… ms each time.
   */
  markDotSent(
    owner: string,
    ids: number[],
    now: number,
    writeDots: (marked: Set<number>) => Set<number>,
  ): Promise<Set<number>> {
    const started = Date.now();
    return new Promise((resolve, reject) => {
      const attempt = () => {
        try {
          resolve(this.markNow(owner, ids, now, writeDots));
        } catch (error) {
          if (isBusy(error) && Date.now() - started < MARK_PATIENCE_MS) setTimeout(attempt, 1);
          else reject(error);
        }
      };
      attempt();
    });
  }

  private markNow(
    owner: string,
    ids: number[],
    now: number,
    writeDots: (marked: Set<number>) => Set<number>,
  ): Set<number> {
    const marker = this.openMarker();
    const marked = marker.mark(owner, ids, now);
    const written = writeDots(new Set(marked));
    const unwritten = marked.filter((id) => !written.has(id));
    // Rare (a full socket buffer), and it must not be skipped: this one waits for the lock.
    if (unwritten.length > 0) marker.unmark(owner, unwritten);
    return written;
  }

  private openMarker(): Marker {
    if (!this.marker) {
      const db = new SQLite(this.file);
      // Busy: fail at once, and markDotSent tries again (see there).
      db.pragma('busy_timeout = 0');
      // As the writer thread's outcome commits: durable once in the WAL (a killed process keeps
      // it); an fsync here would stall the event loop for each batch of final dots. A mark lost
      // to a power cut costs at worst one repeated delivery, never a lost one.
      db.pragma('synchronous = NORMAL');
      // No checkpoint on this connection: SQLite runs one inside COMMIT after the commit is
      // durable, and its fsyncs (milliseconds) would sit between a durable mark and its dots,
      // where a kill loses the message. The writer thread's connection checkpoints instead.
      db.pragma('wal_autocheckpoint = 0');
      const dot = db.prepare(
        "UPDATE message_recipients SET dot_sent_at = ?, dot_owner = lease_owner WHERE id = ? AND lease_owner = ? AND status = 'sending'",
      );
      const mark = db.transaction((o: string, list: number[], at: number) =>
        list.filter((id) => dot.run(at, id, o).changes > 0),
      );
      const undo = db.prepare(
        "UPDATE message_recipients SET dot_sent_at = NULL, dot_owner = NULL WHERE id = ? AND lease_owner = ? AND status = 'sending'",
      );
      const unmark = db.transaction((o: string, list: number[]) => {
        for (const id of list) undo.run(id, o);
      });
      this.marker = {
        db,
        mark: (o, list, at) => mark.immediate(o, list, at),
        unmark: (o, list) => {
          db.pragma(`busy_timeout = ${MARK_PATIENCE_MS}`);
          try {
            unmark.immediate(o, list);
          } finally {
            db.pragma('busy_timeout = 0');
          }
        },
      };
    }
    return this.marker;
  }

  private run<T>(body: DeliveryOp): Promise<T> {
    const worker = this.start();
    const id = ++this.nextId;
    worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ id, body });
    });
  }

  async close(): Promise<void> {
    this.marker?.db.close();
    this.marker = undefined;
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./sqlite-delivery.worker.ts', import.meta.url), {
      workerData: { file: this.file },
    });
    this.worker = worker;
    worker.unref();
    worker.on('message', (message: { id: number; result?: unknown; failure?: string }) => {
      const waiting = this.waiting.get(message.id);
      if (!waiting) return;
      this.waiting.delete(message.id);
      if (message.failure !== undefined)
        waiting.reject(new Error(`delivery write failed: ${message.failure}`));
      else waiting.resolve(message.result);
      if (this.waiting.size === 0) worker.unref();
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.waiting.values()) waiting.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the delivery writer thread exited (${code})`)));
    return worker;
  }
}
