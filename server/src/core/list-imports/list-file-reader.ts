import { Worker } from 'node:worker_threads';
import { AppError, type ErrorCode } from '@herald/shared';
import type { ListFileFormat, ReaderInput, ReaderMessage } from './list-file.worker.ts';
import type { RowBatch } from './list-rows.ts';
import { ROW_RULES } from './row-rules.ts';

export type { ListFileFormat };

/** Rows per batch: one write statement each (6 parameters a row, well under SQLite's 32,766). */
const BATCH_ROWS = 1000;
/** Batches sorted together (the reading thread's window): 100,000 rows by default. */
const WINDOW_BATCHES = 100;
/** The reading thread's heap: far above what a well-formed 100 MB file needs, far below the server's. */
const HEAP_MB = 768;

export interface FileEnd {
  bytesRead: number;
  /** The variable names the file gave its members. */
  varNames: string[];
}

/**
 * The batches of a list file, read on a thread of their own (list-file.worker.ts): parsing
 * and key checks run beside the writes instead of between them, and a hostile file can only
 * exhaust that thread. Each batch taken asks the thread for one more; leaving the loop early ends
 * the thread. A failure of the thread (a broken file, its heap limit) ends the loop with an
 * AppError; the generator's return value says how the file ended.
 */
export async function* readListFile(
  input: Omit<ReaderInput, 'batchRows' | 'windowRows'> & { batchRows?: number | undefined },
): AsyncGenerator<RowBatch, FileEnd> {
  const worker = new Worker(new URL('./list-file.worker.ts', import.meta.url), {
    workerData: {
      ...input,
      batchRows: input.batchRows ?? BATCH_ROWS,
      windowRows: (input.batchRows ?? BATCH_ROWS) * WINDOW_BATCHES,
    } satisfies ReaderInput,
    resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
  });
  const queue: (ReaderMessage | { type: 'crash'; error: Error })[] = [];
  let wake: (() => void) | undefined;
  const push = (message: (typeof queue)[number]) => {
    queue.push(message);
    wake?.();
    wake = undefined;
  };
  worker.on('message', (message: ReaderMessage) => push(message));
  worker.on('error', (error) => push({ type: 'crash', error }));
  worker.on('exit', (code) =>
    push({ type: 'crash', error: new Error(`the reading thread exited (${code})`) }),
  );
  try {
    for (;;) {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const message = queue.shift() as (typeof queue)[number];
      if (message.type === 'batch') {
        yield message.batch;
        worker.postMessage('more');
      } else if (message.type === 'end') {
        return { bytesRead: message.bytesRead, varNames: message.varNames };
      } else if (message.type === 'fail') {
        const error = new AppError(message.code as ErrorCode, message.params);
        throw message.detail ? Object.assign(error, { cause: new Error(message.detail) }) : error;
      } else {
        throw Object.assign(new AppError(ROW_RULES[input.kind].unreadableError), { cause: message.error });
      }
    }
  } finally {
    worker.removeAllListeners();
    await worker.terminate();
  }
}

/** How a file is read, told by its first bytes: a zip is xlsx, an OLE2 container xls, anything else text. */
export function formatOf(head: Buffer, extension: string): ListFileFormat | null {
  const zip = head.length >= 4 && head.readUInt32LE(0) === 0x04034b50;
  const ole = head.length >= 8 && head.subarray(0, 8).equals(OLE2_MAGIC);
  if (extension === 'xlsx') return zip ? 'xlsx' : null;
  if (extension === 'xls') return ole ? 'xls' : zip ? 'xlsx' : null;
  return zip || ole ? null : 'text';
}

const OLE2_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
