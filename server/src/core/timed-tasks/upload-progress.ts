import type { TimedTaskUploadProgress } from '@herald/shared';

/** How long a finished upload's figures stay to be asked for. */
const KEEP_MS = 60_000;
const MAX_ENTRIES = 10_000;

/**
 * The bytes of attachment uploads received so far, by the key the console made for each upload
 * (`/task/taskTemplates/upload/progress?key=`). Kept in the memory of the process receiving the
 * upload, per account, so a key is nobody else's to read; a finished upload is forgotten a minute
 * later.
 */
export class UploadProgress {
  private readonly entries = new Map<string, TimedTaskUploadProgress & { at: number }>();

  start(accountId: number, key: string, total: number): void {
    this.sweep();
    this.entries.set(`${accountId}:${key}`, { received: 0, total, done: false, at: Date.now() });
  }

  add(accountId: number, key: string, bytes: number): void {
    const entry = this.entries.get(`${accountId}:${key}`);
    if (entry) entry.received += bytes;
  }

  finish(accountId: number, key: string): void {
    const entry = this.entries.get(`${accountId}:${key}`);
    if (entry) Object.assign(entry, { done: true, at: Date.now() });
  }

  get(accountId: number, key: string): TimedTaskUploadProgress {
    const entry = this.entries.get(`${accountId}:${key}`);
    return entry
      ? { received: entry.received, total: entry.total, done: entry.done }
      : { received: 0, total: 0, done: false };
  }

  private sweep(): void {
    const cutoff = Date.now() - KEEP_MS;
    for (const [key, entry] of this.entries) {
      if ((entry.done && entry.at < cutoff) || entry.at < cutoff - 3600_000) this.entries.delete(key);
    }
    if (this.entries.size > MAX_ENTRIES) this.entries.clear();
  }
}
