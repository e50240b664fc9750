import fs from 'node:fs';
import { TextDecoder } from 'node:util';
import { parentPort, workerData } from 'node:worker_threads';
import * as XLSX from '@e965/xlsx';
import { AppError } from '@herald/shared';
import ExcelJS from 'exceljs';
import { DelimitedText } from './delimited-text.ts';
import { batchSize, emptyBatch, ListRows, type RowBatch } from './list-rows.ts';
import { type ListKindName, ROW_RULES } from './row-rules.ts';

/**
 * The reading thread of a list import (list-file-reader.ts starts it): reads the uploaded file
 * as a stream, turns its rows into members and rejected lines (list-rows.ts, by the rules of the
 * list's kind) and posts
 * them in batches. It stays at most a few batches ahead of the writer, which asks for more as it
 * writes. A spreadsheet from a customer is untrusted: it is read here, under a heap limit, so a
 * file built to exhaust the parser's memory ends this thread and its import, not the server.
 *
 * - txt, csv: UTF-8 (with or without a BOM), or GB18030 when the start of the file is not UTF-8
 *   (what Excel on a Chinese Windows saves); records as delimited-text.ts reads them.
 * - xlsx: exceljs's streaming WorkbookReader, the first worksheet only.
 * - xls: SheetJS (the maintained @e965/xlsx build); an xls holds at most 65,536 rows a sheet, so
 *   its first sheet is read whole.
 */
export type ListFileFormat = 'text' | 'xlsx' | 'xls';

export interface ReaderInput {
  path: string;
  format: ListFileFormat;
  /** Which list's rules read the rows. */
  kind: ListKindName;
  bytesTotal: number;
  /** Rows (blank ones aside) past which the file is refused. */
  maxLines: number;
  batchRows: number;
  /** Rows sorted together before they are handed over (see Output). */
  windowRows: number;
}

export type ReaderMessage =
  | { type: 'batch'; batch: RowBatch }
  | { type: 'end'; bytesRead: number; varNames: string[] }
  | { type: 'fail'; code: string; params: Record<string, string | number>; detail?: string };

const MAX_LINE = 64 * 1024;
const SNIFF_BYTES = 64 * 1024;

const input = workerData as ReaderInput;
const port = parentPort;
if (!port) throw new Error('list-file.worker.ts runs as a worker thread');
const rules = ROW_RULES[input.kind];

// Batches posted and not yet taken: a window's worth and a few, so the next window is read and
// sorted while the writer works through the last one, and no more is held than that.
let credits = Math.ceil(input.windowRows / input.batchRows) + 3;
let wake: (() => void) | undefined;
port.on('message', () => {
  credits++;
  wake?.();
  wake = undefined;
});

/**
 * Collects rows into a window, then hands the window over sorted by key, in batches. Written in
 * file order, a batch of keys lands all over the list's unique index, so every row dirties a
 * page of its own and each commit rewrites thousands of pages; sorted, the batches of a window
 * each cover a narrow slice of the index and share its pages (a million rows: 4 s instead of 19 s
 * of writes on SQLite). The window bounds what is held: it is not the whole file.
 */
class Output {
  private window = emptyBatch();
  /** How far the file had been read when the last window was handed over. */
  private handedBytes = 0;
  private lines = 0;
  readonly rows = new ListRows(rules);

  async row(line: number, cells: readonly string[], content: () => string, bytesRead: () => number) {
    if (this.rows.take(this.window, line, cells, content)) await this.counted(bytesRead);
  }

  async tooLong(line: number, bytesRead: () => number) {
    this.rows.tooLong(this.window, line);
    await this.counted(bytesRead);
  }

  /** Hands the window over: its members by key, in batches, with its rejected lines first. */
  async flush(bytesRead: number) {
    const { members, rejected } = this.window;
    const order = rules.order(members.key);
    const count = Math.max(1, Math.ceil(order.length / input.batchRows));
    for (let k = 0; k < count; k++) {
      const batch = k === 0 ? { ...emptyBatch(), rejected } : emptyBatch();
      for (const i of order.slice(k * input.batchRows, (k + 1) * input.batchRows)) {
        batch.members.line.push(members.line[i] as number);
        batch.members.key.push(members.key[i] as string);
        batch.members.name.push(members.name[i] as string);
        batch.members.vars.push(members.vars[i] as string | null);
      }
      // The bar moves with what has been written: the window's bytes, spread over its batches.
      batch.bytesRead = Math.round(this.handedBytes + ((bytesRead - this.handedBytes) * (k + 1)) / count);
      if (batchSize(batch) > 0) await this.post(batch);
    }
    this.handedBytes = bytesRead;
    this.window = emptyBatch();
  }

  private async post(batch: RowBatch) {
    while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
    credits--;
    port?.postMessage({ type: 'batch', batch } satisfies ReaderMessage);
  }

  private async counted(bytesRead: () => number) {
    if (++this.lines > input.maxLines) {
      throw new AppError(rules.tooManyRowsError, { max: input.maxLines });
    }
    if (batchSize(this.window) >= input.windowRows) await this.flush(bytesRead());
  }
}

async function readText(out: Output): Promise<number> {
  const stream = fs.createReadStream(input.path, { highWaterMark: 256 * 1024 });
  const text = new DelimitedText({ maxLine: MAX_LINE });
  let decoder: TextDecoder | undefined;
  const position = () => stream.bytesRead;
  const take = async (records: ReturnType<DelimitedText['push']>) => {
    for (const record of records) {
      if (record.tooLong) await out.tooLong(record.line, position);
      else await out.row(record.line, record.cells, () => record.raw, position);
    }
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    decoder ??= decoderFor(chunk);
    await take(text.push(decoder.decode(chunk, { stream: true })));
  }
  if (decoder) await take(text.push(decoder.decode()));
  await take(text.end());
  return stream.bytesRead;
}

/** UTF-8 unless the file's start is not valid UTF-8: then the Chinese national encoding. */
function decoderFor(first: Buffer): TextDecoder {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(first.subarray(0, SNIFF_BYTES), { stream: true });
    return new TextDecoder('utf-8');
  } catch {
    return new TextDecoder('gb18030');
  }
}

async function readXlsx(out: Output): Promise<number> {
  const stream = fs.createReadStream(input.path);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(stream, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  const position = () => stream.bytesRead;
  try {
    for await (const worksheet of reader) {
      for await (const row of worksheet) {
        const values = row.values as unknown[];
        const cells = Array.from({ length: Math.max(values.length - 1, 0) }, (_, i) =>
          cellText(values[i + 1]),
        );
        await out.row(row.number, cells, () => joined(cells), position);
      }
      break;
    }
  } finally {
    stream.destroy();
  }
  return input.bytesTotal;
}

async function readXls(out: Output): Promise<number> {
  const workbook = XLSX.read(await fs.promises.readFile(input.path), {
    type: 'buffer',
    dense: true,
    sheets: 0,
    cellFormula: false,
    cellHTML: false,
    cellText: false,
    cellDates: false,
    sheetRows: input.maxLines + 2,
  });
  const name = workbook.SheetNames[0];
  const sheet = name === undefined ? undefined : workbook.Sheets[name];
  if (!sheet) return 0;
  const first = sheet['!ref'] ? XLSX.utils.decode_range(sheet['!ref']).s.r : 0;
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, {
    header: 1,
    raw: true,
    blankrows: true,
    defval: '',
  });
  const size = input.bytesTotal;
  for (const [i, values] of rows.entries()) {
    const cells = values.map(cellText);
    await out.row(
      first + i + 1,
      cells,
      () => joined(cells),
      () => Math.round((size * i) / rows.length),
    );
  }
  return size;
}

/** A spreadsheet row as the error report shows it: its cells up to the last one filled, comma-joined. */
function joined(cells: readonly string[]): string {
  let end = cells.length;
  while (end > 0 && (cells[end - 1] as string).trim() === '') end--;
  return cells.slice(0, end).join(',');
}

/** A cell as text: numbers as digits (a phone typed as a number), formulas by their result. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    const cell = value as {
      richText?: { text: string }[];
      text?: unknown;
      result?: unknown;
      error?: unknown;
    };
    if (Array.isArray(cell.richText)) return cell.richText.map((run) => run.text).join('');
    if ('result' in cell) return cellText(cell.result);
    if (typeof cell.text === 'string') return cell.text;
  }
  return '';
}

const READERS: Record<ListFileFormat, (out: Output) => Promise<number>> = {
  text: readText,
  xlsx: readXlsx,
  xls: readXls,
};

const out = new Output();
try {
  const bytesRead = await READERS[input.format](out);
  await out.flush(bytesRead);
  port.postMessage({ type: 'end', bytesRead, varNames: out.rows.usedNames() } satisfies ReaderMessage);
} catch (error) {
  const known = error instanceof AppError ? error : new AppError(rules.unreadableError);
  port.postMessage({
    type: 'fail',
    code: known.code,
    params: known.params as Record<string, string | number>,
    // What the parser said of a file it could not read, for the server's log (never the user's).
    ...(known === error ? {} : { detail: String((error as Error)?.message ?? error).slice(0, 500) }),
  } satisfies ReaderMessage);
}
