import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import {
  AppError,
  type ErrorCode,
  formatMessage,
  isAppError,
  type Lang,
  LIST_IMPORT_ENDED,
  LIST_IMPORT_EXTENSIONS,
  LIST_IMPORT_MAX_BYTES,
  type ListImportView,
  resolveLang,
  type ValidationKey,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import { QUEUES } from '../../queue/names.ts';
import type { QueueBackend } from '../../queue/queue.ts';
import type { Caller } from '../context.ts';
import { ImportReport } from './import-report.ts';
import { type FileEnd, formatOf, readListFile } from './list-file-reader.ts';
import * as imports from './list-imports.repo.ts';
import type { RowBatch } from './list-rows.ts';
import { type ListKindName, ROW_RULES } from './row-rules.ts';

export interface ImportJobPayload {
  id: number;
}

/** What the import needs of a list: whether an import runs on it, its count and its variable names. */
export interface ImportedList {
  pending_import_id: number | null;
  member_count: number;
  var_names: string;
}

/** What sets one kind of list's imports apart: its tables, rows, job, directory and error codes. */
export interface ListImportKind {
  kind: ListKindName;
  tables: imports.ListTables;
  /** The system queue's job that runs an import. */
  job: string;
  /** Uploads and reports live under `<dataDir>/<directory>/<accountId>/`. */
  directory: string;
  /** Members a list may hold (product-spec §9). */
  maxMembers: number;
  findList(database: Database, accountId: number, listId: number): Promise<ImportedList | undefined>;
  /** Refuses an account the lists are not open to (address lists: paid only) before any import call. */
  guard?(database: Database, accountId: number): Promise<void>;
  /** The report's reason for a key the list holds already. */
  alreadyInList: ValidationKey;
  errors: Record<
    | 'listNotFound'
    | 'listBusy'
    | 'listFull'
    | 'importNotFound'
    | 'format'
    | 'empty'
    | 'tooLarge'
    | 'unreadable'
    | 'tooManyRows'
    | 'finished'
    | 'noReport',
    ErrorCode
  >;
}

export interface ListImportsDeps {
  database: Database;
  queue: QueueBackend;
  /** Uploads and reports live under the data directory; api and worker roles share it. */
  dataDir: string;
  logger: Logger;
  now?: () => number;
  /** Members a list may hold; lowered by tests. */
  maxMembers?: number;
  /** Rows per write: small enough that the accept paths never wait long for the database. */
  batchRows?: number;
}

/** The list's variable names with `more` added after them, each once, in first-seen order. */
export function mergeVarNames(current: string, more: Iterable<string>): string {
  const names = JSON.parse(current) as string[];
  for (const name of more) if (!names.includes(name)) names.push(name);
  return JSON.stringify(names);
}

/** Runs of one import: one interrupted by a crash starts over; a file that keeps killing its run fails. */
const MAX_ATTEMPTS = 3;
const PROGRESS_EVERY_MS = 250;
const DELETE_BATCH = 5000;
const KEEP_MS = 7 * 86_400_000;
const MAX_SIZE_TEXT = '100 MB';

class Cancelled extends Error {}

interface Counts extends imports.ImportCounts {}

/**
 * Imports of txt, csv, xls and xlsx files into a list (an SMS contact list, an email address
 * list: `ListImportKind` says which), all or nothing.
 *
 * The upload is streamed to a file under the data directory (never held in memory), recorded as
 * the list's pending import and handed to the system queue. The job reads the file on a thread of
 * its own (contact-file-reader.ts) and writes its members in batches, each its own short
 * statement, under the import's id: invisible to every read of the list until the import commits
 * in one small transaction (count added, pending mark cleared). A failure, a cancel, or a file
 * past the list's cap deletes what the run wrote, in batches, and the list is exactly as before.
 * A run interrupted by a crash or a shutdown comes back with its job: it deletes what the last
 * run wrote and starts over. Progress (bytes read of the file's size, and the counts) is saved
 * as it goes for the console's progress bar; lines not taken go to an error report.
 */
export class ListImportsService {
  private readonly deps: ListImportsDeps;
  private readonly kind: ListImportKind;
  private readonly tables: imports.ListTables;
  private readonly now: () => number;
  readonly maxMembers: number;

  constructor(deps: ListImportsDeps, kind: ListImportKind) {
    this.deps = deps;
    this.kind = kind;
    this.tables = kind.tables;
    this.now = deps.now ?? Date.now;
    this.maxMembers = deps.maxMembers ?? kind.maxMembers;
  }

  /** Lines a file may have: a full list's worth of members and as many lines not taken. */
  get maxLines(): number {
    return this.maxMembers * 2;
  }

  async start(
    { accountId }: Caller,
    input: { listId: number; fileName: string; content: Readable; lang: Lang },
  ): Promise<ListImportView> {
    const { database } = this.deps;
    await this.kind.guard?.(database, accountId);
    const list = await this.kind.findList(database, accountId, input.listId);
    const extension = path.extname(input.fileName).slice(1).toLowerCase();
    const { errors } = this.kind;
    const refusal = !list
      ? errors.listNotFound
      : list.pending_import_id !== null
        ? errors.listBusy
        : !(LIST_IMPORT_EXTENSIONS as readonly string[]).includes(extension)
          ? errors.format
          : null;
    if (refusal) {
      input.content.resume();
      throw new AppError(refusal);
    }
    const file = path.join(this.directory(accountId), `${randomBytes(12).toString('hex')}.${extension}`);
    const { size, head } = await this.receive(input.content, file);
    const format = formatOf(head, extension);
    const problem = size === 0 ? errors.empty : format === null ? errors.format : null;
    const now = this.now();
    const id = problem
      ? null
      : await imports.createImport(database, this.tables, {
          account_id: accountId,
          list_id: input.listId,
          file_name: path.basename(input.fileName).slice(0, 255),
          format: format as string,
          file_path: file,
          lang: input.lang,
          bytes_total: size,
          created_at: now,
        });
    if (id === null) {
      await fs.promises.rm(file, { force: true });
      throw new AppError(problem ?? errors.listBusy);
    }
    await this.deps.queue.enqueue(QUEUES.system, this.kind.job, { id } satisfies ImportJobPayload, {
      dedupeKey: `${this.kind.job}:${id}`,
    });
    return this.view(await this.row(accountId, id), input.lang);
  }

  /** One import, or the list's newest (null when it never had one). */
  async progress(
    { accountId }: Caller,
    query: { importId?: number | undefined; listId?: number | undefined },
    lang: Lang,
  ): Promise<ListImportView | null> {
    const { database } = this.deps;
    if (query.importId !== undefined) return this.view(await this.row(accountId, query.importId), lang);
    const listId = query.listId as number;
    await this.kind.guard?.(database, accountId);
    if (!(await this.kind.findList(database, accountId, listId)))
      throw new AppError(this.kind.errors.listNotFound);
    const row = await imports.latestImport(database, this.tables, accountId, listId);
    return row ? this.view(row, lang) : null;
  }

  /** Stops an import: one still queued ends at once, a running one at its next batch. */
  async cancel({ accountId }: Caller, id: number, lang: Lang): Promise<ListImportView> {
    const { database } = this.deps;
    const row = await this.row(accountId, id);
    if (!(await imports.cancelQueued(database, this.tables, accountId, id, this.now()))) {
      if (!(await imports.requestCancel(database, this.tables, accountId, id, this.now()))) {
        if (row.status !== 'cancelling') throw new AppError(this.kind.errors.finished);
      }
    }
    return this.view(await this.row(accountId, id), lang);
  }

  /** The error report's file, when the import has one. */
  async report({ accountId }: Caller, id: number): Promise<{ file: string; name: string }> {
    const row = await this.row(accountId, id);
    const file = row.report_path;
    if (!file || !LIST_IMPORT_ENDED.includes(row.status) || !fs.existsSync(file)) {
      throw new AppError(this.kind.errors.noReport);
    }
    return { file, name: `import-errors-${row.id}.csv` };
  }

  /** The job: one run of the import, to its commit or its roll-back. */
  async run(id: number, signal: AbortSignal): Promise<void> {
    const row = await imports.findImport(this.deps.database, this.tables, id);
    if (!row) return;
    try {
      await this.runOnce(row, signal);
    } finally {
      // The upload is read once: whatever the end, it goes (a shutdown keeps it for the next run).
      if (!signal.aborted) await fs.promises.rm(row.file_path, { force: true });
    }
  }

  private async runOnce(row: imports.ImportRow, signal: AbortSignal): Promise<void> {
    const { database } = this.deps;
    if (LIST_IMPORT_ENDED.includes(row.status)) return;
    if (row.status === 'cancelling') return this.rollBack(row, 'cancelled', null, null);
    if (row.attempts >= MAX_ATTEMPTS) {
      return this.rollBack(row, 'failed', this.kind.errors.unreadable, null);
    }
    await this.deleteWritten(row.id);
    if (!(await imports.startRun(database, this.tables, row.id, this.now()))) {
      const now = await imports.findImport(database, this.tables, row.id);
      if (now?.status === 'cancelling') await this.rollBack(now, 'cancelled', null, null);
      return;
    }
    const counts: Counts = { bytesRead: 0, lines: 0, added: 0, duplicates: 0, invalid: 0 };
    const report = new ImportReport(this.reportPath(row), resolveLang(row.lang));
    try {
      const list = await this.kind.findList(database, row.account_id, row.list_id);
      if (!list) throw new AppError(this.kind.errors.listNotFound);
      const end = await this.load(row, Number(list.member_count), counts, report, signal);
      await this.closeReport(row, report);
      const committed = await imports.commitImport(database, this.tables, row, counts, {
        max: this.maxMembers,
        varNames: mergeVarNames(list.var_names, end.varNames),
        now: this.now(),
      });
      if (!committed) await this.rollBack(row, 'cancelled', null, counts);
    } catch (error) {
      // A shutdown hands the job back to the queue: the next run deletes these rows and starts over.
      if (signal.aborted) {
        await report.close().catch(() => {});
        throw error;
      }
      await this.closeReport(row, report).catch(() => {});
      if (error instanceof Cancelled) return this.rollBack(row, 'cancelled', null, counts);
      if (!isAppError(error) || error.code === this.kind.errors.unreadable) {
        const cause = (error as Error).cause;
        this.deps.logger.warn(
          { err: error, cause: String(cause ?? ''), importId: row.id },
          'list import failed',
        );
      }
      const code: ErrorCode = isAppError(error) ? error.code : this.kind.errors.unreadable;
      await this.rollBack(row, 'failed', code, counts);
    }
  }

  /** The periodic task: ended imports are kept 7 days, then their report and their row go. */
  async expire(): Promise<number> {
    const { database } = this.deps;
    const old = await imports.endedBefore(database, this.tables, this.now() - KEEP_MS, 500);
    for (const row of old) {
      for (const file of [row.report_path, row.file_path])
        if (file) await fs.promises.rm(file, { force: true });
      await imports.deleteImport(database, this.tables, row.id);
    }
    return old.length;
  }

  /** Reads the file's batches and writes them; the lines and the reasons of what it could not take. */
  private async load(
    row: imports.ImportRow,
    committed: number,
    counts: Counts,
    report: ImportReport,
    signal: AbortSignal,
  ): Promise<FileEnd> {
    const reader = readListFile({
      kind: this.kind.kind,
      path: row.file_path,
      format: row.format as 'text',
      bytesTotal: Number(row.bytes_total),
      maxLines: this.maxLines,
      batchRows: this.deps.batchRows,
    });
    let saved = this.now();
    try {
      for (;;) {
        const next = await reader.next();
        if (next.done) return next.value;
        signal.throwIfAborted();
        await this.write(row, next.value, counts, report);
        if (committed + counts.added > this.maxMembers) {
          throw new AppError(this.kind.errors.listFull, { max: this.maxMembers });
        }
        if (this.now() - saved >= PROGRESS_EVERY_MS) {
          saved = this.now();
          if (!(await imports.saveProgress(this.deps.database, this.tables, row.id, counts, saved)))
            throw new Cancelled();
        }
        // Let the rest of the process (the accept path, the queue's lease renewals) run between batches.
        await yieldToLoop();
      }
    } finally {
      await reader.return({ bytesRead: 0, varNames: [] });
    }
  }

  private async write(row: imports.ImportRow, batch: RowBatch, counts: Counts, report: ImportReport) {
    const { members, rejected } = batch;
    const written = await imports.insertImportedMembers(
      this.deps.database,
      this.tables,
      row.list_id,
      row.id,
      members,
      this.now(),
    );
    counts.added += written.size;
    counts.bytesRead = batch.bytesRead;
    counts.lines += members.line.length + rejected.line.length;
    const lines: { line: number; content: string; reason: ValidationKey }[] = [];
    if (written.size < members.key.length) {
      const reason = this.kind.alreadyInList;
      for (const [i, key] of members.key.entries()) {
        if (written.has(key)) continue;
        counts.duplicates++;
        lines.push({ line: members.line[i] as number, content: key, reason });
      }
    }
    const { duplicateInFile } = ROW_RULES[this.kind.kind].reasons;
    for (const [i, reason] of rejected.reason.entries()) {
      if (reason === duplicateInFile) counts.duplicates++;
      else counts.invalid++;
      lines.push({ line: rejected.line[i] as number, content: rejected.content[i] as string, reason });
    }
    lines.sort((a, b) => a.line - b.line);
    for (const { line, content, reason } of lines) await report.add(line, content, reason);
  }

  private async closeReport(row: imports.ImportRow, report: ImportReport): Promise<void> {
    await report.close();
    if (report.written)
      await imports.setReportPath(this.deps.database, this.tables, row.id, this.reportPath(row));
  }

  /** Deletes what the import wrote, a batch at a time, then ends it: the list is as it was before. */
  private async rollBack(
    row: imports.ImportRow,
    status: 'failed' | 'cancelled',
    code: ErrorCode | null,
    counts: Counts | null,
  ): Promise<void> {
    await this.deleteWritten(row.id);
    await imports.endWithoutChange(this.deps.database, this.tables, row, status, code, counts, this.now());
  }

  private async deleteWritten(importId: number): Promise<void> {
    while ((await imports.deleteImportedBatch(this.deps.database, this.tables, importId, DELETE_BATCH)) > 0) {
      await yieldToLoop();
    }
  }

  /** Receives the upload onto disk, refusing it past 100 MB; its size and first bytes. */
  private async receive(content: Readable, file: string): Promise<{ size: number; head: Buffer }> {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    let size = 0;
    let head = Buffer.alloc(0);
    const { tooLarge } = this.kind.errors;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (head.length < 8) head = Buffer.concat([head, chunk.subarray(0, 8)]).subarray(0, 8);
        if (size > LIST_IMPORT_MAX_BYTES) done(new AppError(tooLarge, { max: MAX_SIZE_TEXT }));
        else done(null, chunk);
      },
    });
    try {
      await pipeline(content, count, fs.createWriteStream(file));
    } catch (error) {
      await fs.promises.rm(file, { force: true });
      throw error;
    }
    return { size, head };
  }

  private directory(accountId: number): string {
    return path.join(this.deps.dataDir, this.kind.directory, String(accountId));
  }

  private reportPath(row: imports.ImportRow): string {
    return path.join(this.directory(row.account_id), `import-${row.id}-errors.csv`);
  }

  private async row(accountId: number, id: number): Promise<imports.ImportRow> {
    await this.kind.guard?.(this.deps.database, accountId);
    const row = await imports.findAccountImport(this.deps.database, this.tables, accountId, id);
    if (!row) throw new AppError(this.kind.errors.importNotFound);
    return row;
  }

  private view(row: imports.ImportRow, lang: Lang): ListImportView {
    const code = row.error_code as ErrorCode | null;
    return {
      id: Number(row.id),
      listId: Number(row.list_id),
      fileName: row.file_name,
      status: row.status,
      bytesRead: row.status === 'done' ? Number(row.bytes_total) : Number(row.bytes_read),
      bytesTotal: Number(row.bytes_total),
      rows: Number(row.lines_read),
      added: Number(row.added),
      duplicates: Number(row.duplicates),
      invalid: Number(row.invalid),
      error: code
        ? formatMessage(code, lang, {
            max: code === this.kind.errors.tooManyRows ? this.maxLines : this.maxMembers,
          })
        : null,
      errorCode: code,
      hasReport: row.report_path !== null && LIST_IMPORT_ENDED.includes(row.status),
      createdAt: Number(row.created_at),
      finishedAt: row.finished_at === null ? null : Number(row.finished_at),
    };
  }
}
