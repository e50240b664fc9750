import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import type { DeliveryOp } from './sqlite-delivery.worker.ts';

/**
 * The main-thread handle of the delivery writer thread (sqlite-delivery.worker.ts): posts one
 * operation, resolves with its result once committed. A thread that dies fails what it held and
 * is started again for the next operation.
 */
export class SqliteDeliveryStore {
  private readonly file: string;
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 0;
  private marker:
    | { db: SQLite.Database; mark: (owner: string, ids: number[], now: number) => number[] }
    | undefined;

  constructor(file: string) {
    this.file = file;
  }

  /**
   * The exactly-once mark, committed on THIS thread, synchronously: the caller writes its final
   * dots in the microtasks right after, so between the mark being durable and the dots reaching
   * the kernel no event-loop turn can pass (a round trip to the writer thread would leave one,
   * and a process killed inside it would leave rows marked whose dot was never written: lost).
   */
  markDotSentNow(owner: string, ids: number[], now: number): number[] {
    if (!this.marker) {
      const db = new SQLite(this.file);
      db.pragma('busy_timeout = 10000');
      // As the writer thread's outcome commits: durable once in the WAL (a killed process keeps
      // it); an fsync here would stall the event loop for each batch of final dots. A mark lost
      // to a power cut costs at worst one repeated delivery, never a lost one.
      db.pragma('synchronous = NORMAL');
      const dot = db.prepare(
        "UPDATE message_recipients SET dot_sent_at = ? WHERE id = ? AND lease_owner = ? AND status = 'sending'",
      );
      const mark = db.transaction((o: string, list: number[], at: number) =>
        list.filter((id) => dot.run(at, id, o).changes > 0),
      );
      this.marker = { db, mark: (o, list, at) => mark.immediate(o, list, at) };
    }
    return this.marker.mark(owner, ids, now);
  }

  run<T>(body: DeliveryOp): Promise<T> {
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
