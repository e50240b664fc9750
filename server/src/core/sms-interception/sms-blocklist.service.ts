import {
  AppError,
  SMS_IMPORT_MAX_LINES,
  type SmsBlockView,
  type SmsImportInput,
  type SmsImportResult,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { BOM, csvLine, timeText } from '../exports/csv.ts';
import { readImportFile } from './sms-import-file.ts';
import * as repo from './sms-interception.repo.ts';
import { listPhone } from './sms-interception.service.ts';

const DAY = 24 * 3600_000;
/** The global list is the platform's: its rows belong to no account. */
const GLOBAL = 0;

/**
 * The operator's hand on the platform's global interception list (`/admin/smsBlocklist`, the
 * CLI's `sms:blocklist*`): numbers every account's SMS is stopped for with 410 before any carrier
 * (`SmsInterceptionService.check`). Carrier results fill the same rows with their own expiries;
 * what the operator adds is kept for good or for the days given, and a later carrier result does
 * not shorten it. Numbers are read as the account lists read them (E.164, mainland by default).
 */
export class SmsBlocklistService {
  private readonly database: Database;
  private readonly now: () => number;

  constructor(database: Database, now: () => number = Date.now) {
    this.database = database;
    this.now = now;
  }

  async list(q: { search?: string; page: number; pageSize: number }) {
    const { rows, total } = await repo.searchEntries(
      this.database,
      GLOBAL,
      'block',
      { digits: q.search || undefined, offset: (q.page - 1) * q.pageSize, limit: q.pageSize },
      this.now(),
    );
    return { list: rows.map(view), total };
  }

  /** Puts numbers on the list (again, if there already: the reason and expiry are the new ones). */
  async add(phones: string[], entry: { reason?: string; days?: number }): Promise<{ added: number }> {
    const normal = phones.map((phone) => {
      const e164 = listPhone(phone);
      if (!e164) throw new AppError('SMS_PHONE_INVALID', { phone: phone.slice(0, 40) });
      return e164;
    });
    const now = this.now();
    const values = {
      reason: entry.reason || null,
      source: 'manual',
      expires_at: entry.days ? now + entry.days * DAY : null,
    };
    let added = 0;
    for (const phone of new Set(normal)) {
      const existing = await repo.findEntry(this.database, GLOBAL, 'block', phone);
      if (existing) {
        const live = existing.expires_at === null || Number(existing.expires_at) > now;
        await repo.renewEntry(this.database, Number(existing.id), {
          ...values,
          ...(live ? {} : { created_at: now }),
        });
        if (!live) added += 1;
      } else {
        await repo.insertEntry(this.database, {
          account_id: GLOBAL,
          kind: 'block',
          phone,
          ...values,
          created_at: now,
        });
        added += 1;
      }
    }
    return { added };
  }

  async remove(id: number): Promise<void> {
    if (!(await repo.deleteEntry(this.database, GLOBAL, 'block', id)))
      throw new AppError('SMS_BLOCK_NOT_FOUND');
  }

  /** Takes a number off the list (the CLI's `sms:blocklist-remove`); answers its normal form. */
  async removePhone(phone: string): Promise<string> {
    const e164 = listPhone(phone);
    if (!e164) throw new AppError('SMS_PHONE_INVALID', { phone: phone.slice(0, 40) });
    const found = await repo.findEntry(this.database, GLOBAL, 'block', e164);
    const live = found && (found.expires_at === null || Number(found.expires_at) > this.now());
    if (found) await repo.deleteEntry(this.database, GLOBAL, 'block', Number(found.id));
    if (!live) throw new AppError('SMS_BLOCK_NOT_FOUND');
    return e164;
  }

  /** Imports a txt or csv file of numbers, all or nothing, kept for good (sms-import-file.ts). */
  async importFile(file: SmsImportInput): Promise<SmsImportResult> {
    const read = readImportFile(file, listPhone, { headerWithoutDigits: true });
    if (read.values.length === 0) throw new AppError('SMS_IMPORT_EMPTY', { invalid: read.invalid });
    const written = await repo.importEntries(this.database, GLOBAL, 'block', read.values, {
      reason: file.reason || null,
      now: this.now(),
    });
    const { values: _values, ...counts } = read;
    return { ...counts, ...written };
  }

  /** The live list as CSV (as many entries as one import takes), with a BOM for spreadsheets. */
  async exportCsv(): Promise<string> {
    const rows = await repo.exportEntries(this.database, GLOBAL, 'block', this.now(), SMS_IMPORT_MAX_LINES);
    const lines = rows.map((r) =>
      csvLine([r.phone, r.reason, r.source, timeText(r.created_at), timeText(r.expires_at)]),
    );
    return BOM + csvLine(['phone', 'reason', 'source', 'created_at', 'expires_at']) + lines.join('');
  }
}

function view(r: {
  id: number;
  phone: string;
  reason: string | null;
  source: string;
  expires_at: number | null;
  created_at: number;
}): SmsBlockView {
  return {
    id: Number(r.id),
    phone: r.phone,
    reason: r.reason,
    source: r.source,
    expiresAt: r.expires_at === null ? null : Number(r.expires_at),
    createdAt: Number(r.created_at),
  };
}
