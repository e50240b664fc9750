import { Worker } from 'node:worker_threads';
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

  constructor(file: string) {
    this.file = file;
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
