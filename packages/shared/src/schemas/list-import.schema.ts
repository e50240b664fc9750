import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';

/**
 * File imports into a list of members, whatever the list holds (SMS contact lists' phones,
 * email address lists' addresses): txt, csv, xls and xlsx files of up to 100 MB (product-spec §5
 * "Upload: lists"), followed by their progress, all or nothing.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const LIST_IMPORT_MAX_BYTES = 100 * 1024 * 1024;
export const LIST_IMPORT_EXTENSIONS = ['txt', 'csv', 'xls', 'xlsx'] as const;
export type ListImportExtension = (typeof LIST_IMPORT_EXTENSIONS)[number];

/**
 * queued (uploaded, waiting for a worker) → running → done; or failed, or cancelling →
 * cancelled. Only `done` changes the list; every other end leaves it as it was.
 */
export const LIST_IMPORT_STATUSES = [
  'queued',
  'running',
  'cancelling',
  'done',
  'failed',
  'cancelled',
] as const;
export type ListImportStatus = (typeof LIST_IMPORT_STATUSES)[number];
export const LIST_IMPORT_ENDED: readonly ListImportStatus[] = ['done', 'failed', 'cancelled'];

const id = z.coerce.number(rule('invalid')).int(rule('invalid')).positive(rule('invalid'));
export const listImportIdSchema = id;

/** The progress call: one import by its id, or the newest of a list (the screen opened mid-import). */
export const listImportQuerySchema = z
  .object({ importId: id.optional(), listId: id.optional() })
  .refine((q) => q.importId !== undefined || q.listId !== undefined, rule('required'));

export interface ListImportView {
  id: number;
  listId: number;
  fileName: string;
  status: ListImportStatus;
  /** Bytes of the file read so far, of its size: the progress bar. */
  bytesRead: number;
  bytesTotal: number;
  /** Lines read (the header and blank lines not counted). */
  rows: number;
  added: number;
  /** Members already in the file or in the list. */
  duplicates: number;
  invalid: number;
  /** Why it failed, in the caller's language; null unless failed. */
  error: string | null;
  errorCode: string | null;
  /** Some lines were not taken: their report can be downloaded. */
  hasReport: boolean;
  createdAt: number;
  finishedAt: number | null;
}
