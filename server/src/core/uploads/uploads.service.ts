import { AppError, SMS_UPLOAD_MAX_BYTES, type SmsUploadPurpose, type SmsUploadView } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Caller } from '../context.ts';
import { kindOfName, sniffFileKind } from './file-kind.ts';
import * as repo from './uploads.repo.ts';

/** Unattached uploads older than this are deleted on the account's next upload. */
const ABANDONED_AFTER_MS = 24 * 3600_000;

export interface StoredFile {
  name: string;
  contentType: string;
  content: Buffer;
}

/**
 * Files a customer uploads for SMS compliance (product-spec §5 "Upload: images", "filing image
 * jpg, png or pdf"): png, jpg/jpeg or pdf, 2 MB at most, non-empty. The kind is read from the
 * file's first bytes and must agree with its name's extension; the stored content type is the
 * one the bytes show, so a file is always served as what it is. A file is uploaded first and a
 * signature or filing then names it by id (`attach`): until then it is the uploader's alone, and
 * abandoned ones go after a day.
 */
export class UploadsService {
  private readonly database: Database;
  private readonly now: () => number;

  constructor(database: Database, now: () => number = Date.now) {
    this.database = database;
    this.now = now;
  }

  async store(
    { accountId }: Caller,
    purpose: SmsUploadPurpose,
    file: { name: string; content: Buffer },
  ): Promise<SmsUploadView> {
    const name = cleanName(file.name);
    if (file.content.length === 0) throw new AppError('SMS_UPLOAD_EMPTY');
    if (file.content.length > SMS_UPLOAD_MAX_BYTES)
      throw new AppError('SMS_UPLOAD_TOO_LARGE', { max: '2 MB' });
    const claimed = kindOfName(name);
    if (!claimed) throw new AppError('SMS_UPLOAD_FORMAT');
    const actual = sniffFileKind(file.content);
    if (actual !== claimed) throw new AppError('SMS_UPLOAD_INVALID');
    const now = this.now();
    await repo.deleteUnattached(this.database, accountId, now - ABANDONED_AFTER_MS);
    const id = await repo.insertUpload(
      this.database,
      accountId,
      { purpose, name, content_type: actual, content: file.content },
      now,
    );
    return { id, name, contentType: actual, size: file.content.length };
  }

  /** The account's own file, for its previews. */
  async open({ accountId }: Caller, id: number): Promise<StoredFile> {
    return this.read(accountId, id);
  }

  /** Any account's file: the operators' review (the HTTP guard admits operators only). */
  async openForReview(id: number): Promise<StoredFile> {
    return this.read(null, id);
  }

  private async read(accountId: number | null, id: number): Promise<StoredFile> {
    const row = await repo.readContent(this.database, accountId, id);
    if (!row) throw new AppError('SMS_UPLOAD_NOT_FOUND');
    return { name: row.name, contentType: row.content_type, content: row.content };
  }
}

/** The views of these files, by id. */
export async function uploadViews(
  database: Database,
  accountId: number | null,
  ids: number[],
): Promise<Map<number, SmsUploadView>> {
  const rows = await repo.findUploads(database, accountId, [...new Set(ids)]);
  return new Map(rows.map((r) => [r.id, toUploadView(r)]));
}

export function toUploadView(row: repo.UploadRow): SmsUploadView {
  return { id: row.id, name: row.name, contentType: row.content_type, size: row.size };
}

/**
 * Checks that every id is a file of the account uploaded for `purpose` and free, or already held
 * by `owner`; `field` names the form field a bad one is reported on. Returns the rows by id.
 */
export async function requireUploads(
  database: Database,
  accountId: number,
  purpose: SmsUploadPurpose,
  owner: string | null,
  ids: number[],
): Promise<Map<number, repo.UploadRow>> {
  const unique = [...new Set(ids)];
  const rows = await repo.findUploads(database, accountId, unique);
  const usable = rows.filter(
    (r) => r.purpose === purpose && (r.attached_to === null || r.attached_to === owner),
  );
  if (usable.length !== unique.length) throw new AppError('SMS_UPLOAD_NOT_FOUND');
  return new Map(usable.map((r) => [r.id, r]));
}

/** Makes `owner` hold exactly these files; files it held before and no longer names are deleted. */
export function attachUploads(database: Database, accountId: number, owner: string, ids: number[]) {
  return repo.attachUploads(database, accountId, owner, [...new Set(ids)]);
}

export function deleteAttachedUploads(database: Database, accountId: number, owner: string) {
  return repo.deleteAttached(database, accountId, owner);
}

/** A file name as stored and shown: its last path part, without control characters, `max` at most. */
export function cleanName(raw: string, max = 100): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return ([...clean].length > max ? [...clean].slice(-max).join('') : clean) || 'file';
}
