import { Worker } from 'node:worker_threads';
import { AppError } from '@herald/shared';
import type { MessageWriter } from './message-writer.ts';
import type { AcceptResult, PreparedMessage } from './send.types.ts';
import type { WriterResult } from './sqlite-message-writer.worker.ts';

interface Waiting {
  resolve(results: (AcceptResult | Error)[]): void;
  reject(error: Error): void;
}

/**
 * The message writer on the embedded SQLite file (message-writer.ts has the contract): the
 * main-thread handle of the writer thread (sqlite-message-writer.worker.ts). Posts a batch,
 * resolves with one result per item once the batch is durable. A thread that dies fails the
 * batches it held and is started again for the next one.
 */
export class SqliteMessageWriter implements MessageWriter {
  private readonly file: string;
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;

  constructor(file: string) {
    this.file = file;
  }

  write(items: PreparedMessage[]): Promise<(AcceptResult | Error)[]> {
    const worker = this.start();
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, items });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./sqlite-message-writer.worker.ts', import.meta.url), {
      workerData: { file: this.file },
    });
    this.worker = worker;
    worker.on('message', (message: { id: number; results?: WriterResult[]; failure?: string }) => {
      const waiting = this.waiting.get(message.id);
      if (!waiting) return;
      this.waiting.delete(message.id);
      if (message.failure !== undefined || !message.results) {
        waiting.reject(new Error(`message write failed: ${message.failure}`));
        return;
      }
      waiting.resolve(
        message.results.map((r) => ('ok' in r ? r.ok : new AppError(r.error.code, r.error.params))),
      );
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.waiting.values()) waiting.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the message writer thread exited (${code})`)));
    return worker;
  }
}
