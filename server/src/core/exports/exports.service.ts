import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import {
  AppError,
  beijingClock,
  EXPORT_CHANNEL_OF,
  EXPORT_KEEP_DAYS,
  EXPORT_RUNNING_MAX,
  type ExportChannel,
  type ExportCreateInput,
  type ExportListQuery,
  type ExportStatus,
  type ExportType,
  type ExportView,
  exportTypesOf,
  type Lang,
  resolveLang,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import { QUEUES } from '../../queue/names.ts';
import type { QueueBackend } from '../../queue/queue.ts';
import type { Caller, UserCaller } from '../context.ts';
import { BOM, csvLine } from './csv.ts';
import { sourceOf } from './export-types.ts';
import * as repo from './exports.repo.ts';

export const EXPORT_JOB = 'exports.run';
export interface ExportJobPayload {
  id: number;
}

const DAY_MS = 86_400_000;
const GONE: Partial<Record<ExportStatus, 'EXPORT_EXPIRED' | 'EXPORT_VOIDED' | 'EXPORT_DELETED'>> = {
  expired: 'EXPORT_EXPIRED',
  voided: 'EXPORT_VOIDED',
  deleted: 'EXPORT_DELETED',
};

export interface ExportsDeps {
  database: Database;
  queue: QueueBackend;
  /** Files live under `<dataDir>/exports/<accountId>/`; api and worker roles must share it. */
  dataDir: string;
  logger: Logger;
  now?: () => number;
  /** Rows read per query (and per progress update). */
  pageSize?: number;
}

/**
 * Offline exports (`/data/dataExportOfflines`). Asking for one records it as `exporting` and
 * queues a job; the job streams the rows a page at a time into a gzip'd UTF-8 CSV under the data
 * directory, updating the progress as it goes, and marks it `using` (ready) with an expiry 7 days
 * on, or `failed` with a reason. Downloading marks it `used`; the periodic task deletes expired
 * files. Every change the user makes (void, delete, retry) and every step of the job is a
 * conditional transition, so a void during a run stops the run instead of being overwritten.
 *
 * Each channel's offline screen (email under code 11, SMS under code 17) sees and acts on its own
 * types only (`channel`): the other channel's exports are not found there.
 */
export class ExportsService {
  private readonly deps: ExportsDeps;
  private readonly now: () => number;
  private readonly pageSize: number;

  constructor(deps: ExportsDeps) {
    this.deps = deps;
    this.now = deps.now ?? Date.now;
    this.pageSize = deps.pageSize ?? 1000;
  }

  async create(
    ctx: UserCaller,
    input: ExportCreateInput,
    lang: Lang,
    channel: ExportChannel = 'email',
  ): Promise<ExportView> {
    const { database } = this.deps;
    if (EXPORT_CHANNEL_OF[input.type] !== channel) {
      throw new AppError('COMMON_VALIDATION_FAILED', {}, [{ field: 'type', message: 'exportTypeInvalid' }]);
    }
    if ((await repo.count(database, ctx.accountId, ['exporting'])) >= EXPORT_RUNNING_MAX) {
      throw new AppError('EXPORT_TOO_MANY_RUNNING', { max: EXPORT_RUNNING_MAX });
    }
    const { type, ...filter } = input;
    const now = this.now();
    const id = await repo.insert(database, {
      account_id: ctx.accountId,
      user_id: ctx.userId,
      type,
      filter: JSON.stringify(filter),
      start_time: input.startTime,
      end_time: input.endTime,
      lang,
      status: 'exporting',
      file_path: null,
      file_size: null,
      error: null,
      created_at: now,
      updated_at: now,
      finished_at: null,
      expires_at: null,
      downloaded_at: null,
    });
    await this.enqueue(id);
    return this.get(ctx, id, channel);
  }

  async list(
    { accountId }: Caller,
    q: ExportListQuery,
    channel: ExportChannel = 'email',
  ): Promise<{ rows: ExportView[]; total: number }> {
    const { database } = this.deps;
    const types = exportTypesOf(channel);
    const [rows, total] = await Promise.all([
      repo.list(database, accountId, types, { offset: (q.page - 1) * q.pageSize, limit: q.pageSize }),
      repo.count(database, accountId, undefined, types),
    ]);
    return { rows: rows.map(view), total };
  }

  async get({ accountId }: Caller, id: number, channel: ExportChannel = 'email'): Promise<ExportView> {
    return view(await this.row(accountId, id, channel));
  }

  /**
   * The file of a ready export, marked used. Refused when the account hides exports (403), while
   * it runs or after it failed (409), and once it is gone (410); a file past its keeping time is
   * expired here even if the periodic task has not come round yet. `verify` runs once the file is
   * known to be there (the download verification: no code is asked for a file that cannot be had).
   */
  async download(
    { accountId }: Caller,
    id: number,
    verify?: () => Promise<void>,
    channel: ExportChannel = 'email',
  ): Promise<{ file: string; name: string; size: number }> {
    const { database } = this.deps;
    if (await repo.hideExport(database, accountId)) throw new AppError('EXPORT_DOWNLOAD_HIDDEN');
    const row = await this.row(accountId, id, channel);
    const gone = GONE[row.status];
    if (gone) throw new AppError(gone);
    if (row.status === 'exporting')
      throw new AppError('EXPORT_NOT_READY', { progress: Number(row.progress) });
    if (row.status === 'failed') throw new AppError('EXPORT_FAILED', { reason: row.error ?? '' });
    const file = row.file_path ? path.join(this.deps.dataDir, row.file_path) : null;
    const now = this.now();
    if (!file || !fs.existsSync(file) || (row.expires_at !== null && Number(row.expires_at) <= now)) {
      await this.expireOne(Number(row.id), row.file_path);
      throw new AppError('EXPORT_EXPIRED');
    }
    await verify?.();
    await repo.transition(database, Number(row.id), ['using', 'used'], {
      status: 'used',
      downloaded_at: now,
      updated_at: now,
    });
    const day = beijingClock(Number(row.created_at)).toISOString().slice(0, 10);
    return { file, name: `${row.type}-${row.id}-${day}.csv.gz`, size: Number(row.file_size ?? 0) };
  }

  /** Marks an export invalid: a running one stops, a ready one's file is deleted. */
  async invalidate({ accountId }: Caller, id: number, channel: ExportChannel = 'email'): Promise<ExportView> {
    const row = await this.row(accountId, id, channel);
    const voided = await repo.transition(
      this.deps.database,
      Number(row.id),
      ['exporting', 'failed', 'using', 'used'],
      { status: 'voided', updated_at: this.now() },
    );
    if (!voided) throw new AppError('EXPORT_NOT_VOIDABLE');
    await this.removeFile(row.file_path);
    return this.get({ accountId }, id, channel);
  }

  async retry({ accountId }: Caller, id: number, channel: ExportChannel = 'email'): Promise<ExportView> {
    const row = await this.row(accountId, id, channel);
    const now = this.now();
    const retried = await repo.transition(this.deps.database, Number(row.id), ['failed'], {
      status: 'exporting',
      progress: 0,
      row_count: 0,
      error: null,
      finished_at: null,
      updated_at: now,
    });
    if (!retried) throw new AppError('EXPORT_NOT_RETRYABLE');
    await this.enqueue(Number(row.id));
    return this.get({ accountId }, id, channel);
  }

  async remove({ accountId }: Caller, id: number, channel: ExportChannel = 'email'): Promise<void> {
    const row = await this.row(accountId, id, channel);
    const removed = await repo.transition(
      this.deps.database,
      Number(row.id),
      ['exporting', 'failed', 'using', 'used', 'expired', 'voided'],
      { status: 'deleted', updated_at: this.now() },
    );
    if (!removed) throw new AppError('EXPORT_NOT_FOUND');
    await this.removeFile(row.file_path);
  }

  /**
   * The job: writes the file and marks the export ready, or failed with a reason. A run whose
   * export was voided or deleted meanwhile stops and leaves nothing behind. An abort (the worker
   * is shutting down) is rethrown so the queue hands the job to another worker, which starts over.
   */
  async run(id: number, signal?: AbortSignal): Promise<void> {
    const { database, logger } = this.deps;
    const row = await repo.findById(database, id);
    if (row?.status !== 'exporting') return;
    const relative = path.join(
      'exports',
      String(row.account_id),
      `${id}-${randomBytes(6).toString('hex')}.csv.gz`,
    );
    const file = path.join(this.deps.dataDir, relative);
    try {
      const written = await this.write(row, file, signal);
      if (written === null) return void (await this.removeFile(relative));
      const now = this.now();
      const done = await repo.transition(database, id, ['exporting'], {
        status: 'using',
        progress: 100,
        row_count: written,
        file_path: relative,
        file_size: fs.statSync(file).size,
        finished_at: now,
        expires_at: now + EXPORT_KEEP_DAYS * DAY_MS,
        updated_at: now,
      });
      if (!done) await this.removeFile(relative);
    } catch (error) {
      await this.removeFile(relative);
      if (signal?.aborted) throw error;
      logger.warn({ err: error, exportId: id }, 'offline export failed');
      await repo.transition(database, id, ['exporting'], {
        status: 'failed',
        error: reasonOf(error),
        finished_at: this.now(),
        updated_at: this.now(),
      });
    }
  }

  /** Deletes the files of exports past their keeping time; returns how many expired. */
  async expire(limit = 500): Promise<number> {
    const due = await repo.dueToExpire(this.deps.database, this.now(), limit);
    for (const row of due) await this.expireOne(Number(row.id), row.file_path);
    return due.length;
  }

  /** `/systemParam/hideDeliveryDownloadButton`: whether the account hides delivery downloads. */
  hideExport({ accountId }: Caller): Promise<boolean> {
    return repo.hideExport(this.deps.database, accountId);
  }

  /** Sets the flag (an operator's decision; no console screen sets it yet). */
  setHideExport({ accountId }: Caller, hidden: boolean): Promise<void> {
    return repo.setHideExport(this.deps.database, accountId, hidden, this.now());
  }

  /** Streams header and rows through gzip into the file; null when the export stopped being wanted. */
  private async write(row: repo.ExportRow, file: string, signal?: AbortSignal): Promise<number | null> {
    const { database } = this.deps;
    const id = Number(row.id);
    const type = row.type as ExportType;
    const source = sourceOf(type);
    const filter = { type, ...JSON.parse(row.filter) } as ExportCreateInput;
    const accountId = Number(row.account_id);
    const total = await source.count(database, accountId, filter);
    let written = 0;
    let stopped = false;
    const now = this.now;
    const pageSize = this.pageSize;
    const startedAt = now();
    async function* lines() {
      yield BOM + csvLine(source.header[resolveLang(row.lang)]);
      for await (const page of source.pages(database, accountId, filter, pageSize, startedAt)) {
        yield page.map(csvLine).join('');
        written += page.length;
        const progress = Math.min(99, Math.floor((written / Math.max(total, 1)) * 100));
        const live = await repo.transition(database, id, ['exporting'], {
          progress,
          row_count: written,
          updated_at: now(),
        });
        if (!live) {
          stopped = true;
          return;
        }
      }
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await pipeline(Readable.from(lines()), createGzip(), fs.createWriteStream(file), { signal });
    return stopped ? null : written;
  }

  private async row(accountId: number, id: number, channel: ExportChannel): Promise<repo.ExportRow> {
    const row = await repo.find(this.deps.database, accountId, id);
    if (!row || EXPORT_CHANNEL_OF[row.type as ExportType] !== channel) throw new AppError('EXPORT_NOT_FOUND');
    return row;
  }

  private async expireOne(id: number, relative: string | null): Promise<void> {
    await repo.transition(this.deps.database, id, ['using', 'used'], {
      status: 'expired',
      updated_at: this.now(),
    });
    await this.removeFile(relative);
  }

  private async removeFile(relative: string | null): Promise<void> {
    if (!relative) return;
    // Best effort: a file that cannot be removed must not turn a recorded outcome into a crash.
    await fs.promises.rm(path.join(this.deps.dataDir, relative), { force: true }).catch((error: unknown) => {
      this.deps.logger.warn({ err: error }, 'could not remove an export file');
    });
  }

  private async enqueue(id: number): Promise<void> {
    // The export itself records failure; the queue only retries a run cut short by a shutdown.
    await this.deps.queue.enqueue<ExportJobPayload>(
      QUEUES.system,
      EXPORT_JOB,
      { id },
      {
        dedupeKey: `export:${id}`,
        maxAttempts: 3,
      },
    );
  }
}

/** A reason the user can read: the error's own text for Herald's errors, the errno for file errors. */
function reasonOf(error: unknown): string {
  if (error instanceof AppError) return error.message;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return `file or database error (${code})`;
  return 'internal error';
}

function num(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}

function view(r: repo.ExportRow): ExportView {
  return {
    id: Number(r.id),
    type: r.type,
    status: r.status,
    progress: Number(r.progress),
    rows: Number(r.row_count),
    fileSize: num(r.file_size),
    filter: JSON.parse(r.filter) as Record<string, unknown>,
    startTime: Number(r.start_time),
    endTime: Number(r.end_time),
    error: r.error,
    requestedBy: r.requested_by ?? null,
    createdAt: Number(r.created_at),
    finishedAt: num(r.finished_at),
    expiresAt: num(r.expires_at),
    downloadedAt: num(r.downloaded_at),
  };
}
