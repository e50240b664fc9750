import {
  AppError,
  parseMobile,
  SMS_BLOCK_KINDS,
  SMS_IMPORT_MAX_LINES,
  type SmsBlockKind,
  type SmsBlockView,
  type SmsImportInput,
  type SmsImportResult,
  type SmsKeywordView,
  smsKeywordSchema,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { CarrierFailure, InterceptionItem, SmsInterception } from '../../sms/ports.ts';
import type { Caller } from '../context.ts';
import { BOM, csvLine, timeText } from '../exports/csv.ts';
import { type ReadImport, readImportFile } from './sms-import-file.ts';
import * as repo from './sms-interception.repo.ts';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const KEYWORD_CACHE_MS = 5_000;

/**
 * What a carrier's final failure does to the number (reference §11 "interception list"): an empty
 * number is kept off every account's SMS for 30 days, a suspended, faulty or out-of-area one for an
 * hour; a user blacklist or blocked content keeps it off this account's SMS for an hour. Other
 * failures (busy, no answer, powered off, other) block nothing.
 */
const CARRIER_BLOCKS: Record<number, { global: boolean; ms: number }> = {
  500: { global: true, ms: 30 * DAY },
  510: { global: true, ms: HOUR },
  520: { global: false, ms: HOUR },
  550: { global: false, ms: HOUR },
  560: { global: true, ms: HOUR },
  570: { global: true, ms: HOUR },
};

/**
 * SMS interception (`/s_sendResponse/interceptor`, `unsubscribe`; product-spec §8 processing
 * failures): numbers on the platform's global list (410) or the account's own (420), unsubscribed
 * numbers (430), and the account's filtered keywords (440). The SMS channel asks through the
 * `SmsInterception` port before each batch is submitted and reports carrier failures after, which
 * fill the lists with the expiries above. Expired entries are ignored and cleared on the next add.
 */
export class SmsInterceptionService implements SmsInterception {
  private readonly database: Database;
  private readonly now: () => number;
  private readonly keywordCache = new Map<number, { words: string[]; until: number }>();

  constructor(database: Database, now: () => number = Date.now) {
    this.database = database;
    this.now = now;
  }

  async check(items: InterceptionItem[]): Promise<Map<number, { statusCode: number; reason: string }>> {
    const verdicts = new Map<number, { statusCode: number; reason: string }>();
    if (items.length === 0) return verdicts;
    const now = this.now();
    const rows = await repo.liveEntriesOf(this.database, [...new Set(items.map((i) => i.phone))], now);
    for (const item of items) {
      const hits = rows.filter(
        (r) =>
          r.phone === item.phone && (Number(r.account_id) === 0 || Number(r.account_id) === item.accountId),
      );
      const global = hits.find((r) => Number(r.account_id) === 0 && r.kind === 'block');
      const local = hits.find((r) => Number(r.account_id) !== 0 && r.kind === 'block');
      const unsubscribed = hits.find((r) => r.kind === 'unsubscribe');
      if (global)
        verdicts.set(item.id, { statusCode: 410, reason: global.reason ?? 'global interception list' });
      else if (local)
        verdicts.set(item.id, { statusCode: 420, reason: local.reason ?? 'local interception list' });
      else if (unsubscribed) verdicts.set(item.id, { statusCode: 430, reason: 'unsubscribed' });
      else {
        const words = await this.keywords(item.accountId, now);
        const word = words.find((w) => item.content.includes(w));
        if (word) verdicts.set(item.id, { statusCode: 440, reason: `keyword: ${word}` });
      }
    }
    return verdicts;
  }

  async carrierFailed(failures: CarrierFailure[]): Promise<void> {
    for (const f of failures) {
      const rule = CARRIER_BLOCKS[f.statusCode];
      if (!rule) continue;
      await this.upsert(
        rule.global ? 0 : f.accountId,
        'block',
        f.phone,
        `carrier ${f.statusCode}`,
        'carrier',
        f.at + rule.ms,
      );
    }
  }

  async list(
    { accountId }: Caller,
    kind: SmsBlockKind,
    q: { phone?: string; page: number; pageSize: number },
  ) {
    const phone = q.phone ? (parseMobile(q.phone)?.e164 ?? q.phone) : undefined;
    const { rows, total } = await repo.listEntries(
      this.database,
      accountId,
      kind,
      { phone, offset: (q.page - 1) * q.pageSize, limit: q.pageSize },
      this.now(),
    );
    const list: SmsBlockView[] = rows.map((r) => ({
      id: Number(r.id),
      phone: r.phone,
      reason: r.reason,
      source: r.source,
      expiresAt: r.expires_at === null ? null : Number(r.expires_at),
      createdAt: Number(r.created_at),
    }));
    return { list, total };
  }

  /** Adds numbers to the account's list; answers how many were new. */
  async add(
    { accountId }: Caller,
    kind: SmsBlockKind,
    phones: string[],
    reason: string | undefined,
  ): Promise<{ added: number }> {
    if (!SMS_BLOCK_KINDS.includes(kind)) throw new AppError('COMMON_VALIDATION_FAILED');
    let added = 0;
    for (const phone of phones) {
      const e164 = listPhone(phone);
      if (!e164) throw new AppError('SMS_PHONE_INVALID', { phone: phone.slice(0, 40) });
      if (await this.upsert(accountId, kind, e164, reason ?? null, 'manual', null)) added += 1;
    }
    return { added };
  }

  /** Imports a txt or csv file of numbers into the list, all or nothing (sms-import-file.ts). */
  async importFile(
    { accountId }: Caller,
    kind: SmsBlockKind,
    file: SmsImportInput,
  ): Promise<SmsImportResult> {
    const read = nonEmpty(readImportFile(file, listPhone, { headerWithoutDigits: true }));
    const written = await repo.importEntries(this.database, accountId, kind, read.values, {
      reason: file.reason || null,
      now: this.now(),
    });
    return answer(read, written);
  }

  /** The list as CSV (as many entries as one import takes), with a BOM for spreadsheet programs. */
  async exportCsv({ accountId }: Caller, kind: SmsBlockKind): Promise<string> {
    const rows = await repo.exportEntries(this.database, accountId, kind, this.now(), SMS_IMPORT_MAX_LINES);
    const lines = rows.map((r) =>
      csvLine([r.phone, r.reason, r.source, timeText(r.created_at), timeText(r.expires_at)]),
    );
    return BOM + csvLine(['phone', 'reason', 'source', 'created_at', 'expires_at']) + lines.join('');
  }

  async importKeywords({ accountId }: Caller, file: SmsImportInput): Promise<SmsImportResult> {
    const read = nonEmpty(readImportFile(file, keywordOf));
    const written = await repo.importKeywords(this.database, accountId, read.values, this.now());
    this.keywordCache.delete(accountId);
    return answer(read, written);
  }

  async exportKeywordsCsv(caller: Caller): Promise<string> {
    const rows = await this.listKeywords(caller);
    const lines = rows.map((r) => csvLine([r.keyword, timeText(r.createdAt)]));
    return BOM + csvLine(['keyword', 'created_at']) + lines.join('');
  }

  async remove({ accountId }: Caller, kind: SmsBlockKind, id: number): Promise<void> {
    if (!(await repo.deleteEntry(this.database, accountId, kind, id)))
      throw new AppError('SMS_BLOCK_NOT_FOUND');
  }

  async listKeywords({ accountId }: Caller): Promise<SmsKeywordView[]> {
    const rows = await repo.listKeywords(this.database, accountId);
    return rows.map((r) => ({ id: Number(r.id), keyword: r.keyword, createdAt: Number(r.created_at) }));
  }

  async addKeyword({ accountId }: Caller, keyword: string): Promise<SmsKeywordView[]> {
    await repo.insertKeyword(this.database, accountId, keyword, this.now());
    this.keywordCache.delete(accountId);
    return this.listKeywords({ accountId });
  }

  async removeKeyword({ accountId }: Caller, id: number): Promise<void> {
    if (!(await repo.deleteKeyword(this.database, accountId, id))) throw new AppError('SMS_BLOCK_NOT_FOUND');
    this.keywordCache.delete(accountId);
  }

  private async keywords(accountId: number, now: number): Promise<string[]> {
    const hit = this.keywordCache.get(accountId);
    if (hit && hit.until > now) return hit.words;
    const rows = await repo.listKeywords(this.database, accountId);
    const words = rows.map((r) => r.keyword);
    if (this.keywordCache.size > 10_000) this.keywordCache.clear();
    this.keywordCache.set(accountId, { words, until: now + KEYWORD_CACHE_MS });
    return words;
  }

  /** Puts a number on a list (an expired entry of it is renewed); answers whether it is new. */
  private async upsert(
    accountId: number,
    kind: SmsBlockKind,
    phone: string,
    reason: string | null,
    source: string,
    expiresAt: number | null,
  ): Promise<boolean> {
    const now = this.now();
    const existing = await repo.findEntry(this.database, accountId, kind, phone);
    if (existing) {
      const live = existing.expires_at === null || Number(existing.expires_at) > now;
      // A carrier result never shortens a live entry (an operator's number kept off for good).
      const longer = existing.expires_at === null || Number(existing.expires_at) >= (expiresAt ?? Infinity);
      if (live && source === 'carrier' && longer) return false;
      await repo.renewEntry(this.database, Number(existing.id), {
        reason,
        source,
        expires_at: expiresAt,
        ...(live ? {} : { created_at: now }),
      });
      return !live;
    }
    await repo.insertEntry(this.database, {
      account_id: accountId,
      kind,
      phone,
      reason,
      source,
      expires_at: expiresAt,
      created_at: now,
    });
    return true;
  }
}

/** A number as the lists keep it (E.164): one without `+` or `00` is read as a mainland number. */
export function listPhone(phone: string): string | null {
  const text = phone.trim();
  return parseMobile(text, text.startsWith('+') || text.startsWith('00') ? undefined : 'CN')?.e164 ?? null;
}

function keywordOf(cell: string): string | null {
  const parsed = smsKeywordSchema.shape.keyword.safeParse(cell);
  return parsed.success ? parsed.data : null;
}

/** A file with nothing to import is refused, so an import always changes the list or says why not. */
function nonEmpty(read: ReadImport): ReadImport {
  if (read.values.length === 0) throw new AppError('SMS_IMPORT_EMPTY', { invalid: read.invalid });
  return read;
}

function answer(read: ReadImport, written: { imported: number; existing: number }): SmsImportResult {
  const { values: _values, ...counts } = read;
  return { ...counts, ...written };
}
