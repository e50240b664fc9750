import type { InterceptRuleView, SuppressionEntryView, SuppressionImportResult } from '@herald/shared';
import {
  AppError,
  type InterceptRuleInput,
  isSuppressibleAddress,
  SUPPRESSION_ADDRESSES_MAX,
  SUPPRESSION_IMPORT_EXTENSIONS,
  SUPPRESSION_IMPORT_MAX_KB,
  type SuppressionListQuery,
  splitAddresses,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { SuppressionEntryList } from '../../db/suppression-schema.ts';
import { apiUserIdsByName, findApiUser } from '../api-users/api-users.repo.ts';
import type { Caller } from '../context.ts';
import { findLabel } from '../labels/labels.repo.ts';
import * as repo from './suppression.repo.ts';
import { normaliseAddress, type SuppressionService } from './suppression.service.ts';

export interface EntryScope {
  apiUserId?: number | undefined;
  labelId?: number | undefined;
}

/** Lists a user may add to; bounce and spam entries come only from delivery outcomes and complaints. */
export type AddableList = 'unsubscribe' | 'user_defined';
/** Lists a user may delete from (spam reports expire on their own after 180 days). */
export type DeletableList = 'bounce' | 'unsubscribe' | 'user_defined';

const EXPORT_MAX = 100_000;

/**
 * The account's lists as the console (`/data/bounce|complaint|unsubscribes|block`, interception
 * rules) and SendCloud's `bounce/*`, `unsubscribe/*`, `spamreported/list` manage them. Every call
 * is scoped to the account; another account's entry is SUPPRESSION_ENTRY_NOT_FOUND.
 */
export class SuppressionListsService {
  private readonly database: Database;
  private readonly check: SuppressionService;
  private readonly now: () => number;

  constructor(database: Database, check: SuppressionService, options: { now?: () => number } = {}) {
    this.database = database;
    this.check = check;
    this.now = options.now ?? Date.now;
  }

  async list(
    { accountId }: Caller,
    list: SuppressionEntryList,
    query: SuppressionListQuery,
  ): Promise<{ rows: SuppressionEntryView[]; total: number }> {
    return this.find(
      { accountId },
      {
        list,
        email: query.email,
        from: query.startTime,
        to: query.endTime,
        apiUserIds: query.apiUserId ? [query.apiUserId] : undefined,
        labelIds: query.labelId ? [query.labelId] : undefined,
      },
      (query.page - 1) * query.pageSize,
      query.pageSize,
    );
  }

  /** A filtered page of entries that still block; the compatible API passes SendCloud's exact `email` list and API_USER names. */
  async find(
    { accountId }: Caller,
    filter: repo.EntryFilter,
    offset: number,
    limit: number,
  ): Promise<{ rows: SuppressionEntryView[]; total: number }> {
    const live = { ...filter, liveAt: filter.liveAt ?? this.now() };
    const [rows, total, names] = await Promise.all([
      repo.listEntries(this.database, accountId, live, { offset, limit }),
      repo.countEntries(this.database, accountId, live),
      repo.apiUserNames(this.database, accountId),
    ]);
    return { rows: rows.map((row) => entryView(row, names)), total };
  }

  async count({ accountId }: Caller, filter: repo.EntryFilter): Promise<number> {
    return repo.countEntries(this.database, accountId, { ...filter, liveAt: filter.liveAt ?? this.now() });
  }

  async add(
    { accountId }: Caller,
    list: AddableList,
    addresses: string[],
    scope: EntryScope = {},
    source = 'console',
  ): Promise<{ added: number }> {
    await this.checkScope(accountId, list, scope);
    const at = this.now();
    for (const address of addresses) {
      await repo.upsertEntry(this.database, {
        accountId,
        list,
        address: normaliseAddress(address),
        apiUserId: list === 'unsubscribe' ? scope.apiUserId : undefined,
        labelId: list === 'unsubscribe' ? scope.labelId : undefined,
        reason: list === 'unsubscribe' ? 'unsubscribed' : 'blacklist',
        detail: null,
        source,
        expiresAt: null,
        at,
      });
    }
    return { added: addresses.length };
  }

  /** Deletes one entry by id; a bounce entry also releases the address from the global list for this account. */
  async remove({ accountId }: Caller, list: DeletableList, id: number): Promise<void> {
    const entry = await repo.findEntry(this.database, accountId, list, id);
    if (!entry) throw new AppError('SUPPRESSION_ENTRY_NOT_FOUND');
    await this.removeAddresses({ accountId }, list, { ids: [Number(entry.id)] });
  }

  async removeAddresses(
    { accountId }: Caller,
    list: DeletableList,
    where: { ids?: number[]; addresses?: string[]; apiUserIds?: number[]; labelIds?: number[] },
  ): Promise<number> {
    const deleted = await repo.deleteEntries(this.database, accountId, list, where);
    if (list === 'bounce') {
      const at = this.now();
      for (const { address } of deleted) await repo.release(this.database, accountId, address, at);
    }
    return deleted.length;
  }

  /**
   * An upload of addresses (txt or csv, ≤ 500 KB): one entry per line, at most 200 addresses a
   * line separated by semicolons (commas and tabs of a csv tolerated). Invalid addresses are
   * skipped and reported; a line over 200 rejects the file, naming the line.
   */
  async importFile(
    { accountId }: Caller,
    list: AddableList,
    file: { filename: string; content: string },
    scope: EntryScope = {},
  ): Promise<SuppressionImportResult> {
    const extension = file.filename.toLowerCase().split('.').pop() ?? '';
    if (!(SUPPRESSION_IMPORT_EXTENSIONS as readonly string[]).includes(extension)) {
      throw new AppError('SUPPRESSION_IMPORT_FORMAT');
    }
    if (Buffer.byteLength(file.content, 'utf8') > SUPPRESSION_IMPORT_MAX_KB * 1024) {
      throw new AppError('SUPPRESSION_IMPORT_TOO_LARGE', { max: SUPPRESSION_IMPORT_MAX_KB });
    }
    const valid = new Set<string>();
    const invalid: string[] = [];
    const lines = file.content.replace(/^\uFEFF/, '').split(/\r?\n/);
    lines.forEach((line, index) => {
      const addresses = splitAddresses(line.replace(/"/g, ''));
      if (addresses.length > SUPPRESSION_ADDRESSES_MAX) {
        throw new AppError('SUPPRESSION_IMPORT_LINE_TOO_LONG', {
          line: index + 1,
          max: SUPPRESSION_ADDRESSES_MAX,
        });
      }
      for (const address of addresses) {
        if (isSuppressibleAddress(address)) valid.add(address);
        else if (index > 0 || !/^(e-?mail|address|地址|邮箱)$/i.test(address)) invalid.push(address);
      }
    });
    if (valid.size === 0 && invalid.length === 0) throw new AppError('SUPPRESSION_IMPORT_EMPTY');
    const { added } = await this.add({ accountId }, list, [...valid], scope, 'import');
    return { imported: added, invalid: invalid.slice(0, 20), invalidCount: invalid.length };
  }

  /** The list as CSV (at most 100,000 rows), with a BOM so spreadsheet programs read UTF-8. */
  async exportCsv(
    { accountId }: Caller,
    list: SuppressionEntryList,
    query: SuppressionListQuery,
  ): Promise<string> {
    const { rows } = await this.find(
      { accountId },
      {
        list,
        email: query.email,
        from: query.startTime,
        to: query.endTime,
        apiUserIds: query.apiUserId ? [query.apiUserId] : undefined,
        labelIds: query.labelId ? [query.labelId] : undefined,
      },
      0,
      EXPORT_MAX,
    );
    const header = [
      'address',
      'domain',
      'reason',
      'detail',
      'api_user',
      'label_id',
      'source',
      'created_at',
      'expires_at',
    ];
    const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());
    const lines = rows.map((r) =>
      [
        r.address,
        r.domain,
        r.reason,
        r.detail ?? '',
        r.apiUser ?? '',
        r.labelId ?? '',
        r.source,
        iso(r.createdAt),
        iso(r.expiresAt),
      ]
        .map(csvCell)
        .join(','),
    );
    return `\uFEFF${[header.join(','), ...lines].join('\r\n')}\r\n`;
  }

  async rules({ accountId }: Caller): Promise<InterceptRuleView[]> {
    const [rows, names] = await Promise.all([
      repo.listRules(this.database, accountId),
      repo.apiUserNames(this.database, accountId),
    ]);
    return rows.map((r) => ({
      id: Number(r.id),
      type: r.type,
      value: r.value,
      apiUserId: Number(r.api_user_id) || null,
      apiUser: names.get(Number(r.api_user_id)) ?? null,
      note: r.note,
      createdAt: Number(r.created_at),
    }));
  }

  async addRule({ accountId }: Caller, input: InterceptRuleInput): Promise<InterceptRuleView> {
    await this.checkScope(accountId, 'user_defined', { apiUserId: input.apiUserId });
    const id = await repo.insertRule(
      this.database,
      accountId,
      { type: input.type, value: input.value, apiUserId: input.apiUserId ?? null, note: input.note || null },
      this.now(),
    );
    if (id === null) throw new AppError('SUPPRESSION_RULE_TAKEN');
    this.check.rulesChanged({ accountId });
    const rule = (await this.rules({ accountId })).find((r) => r.id === id);
    if (!rule) throw new AppError('SUPPRESSION_RULE_NOT_FOUND');
    return rule;
  }

  async removeRule({ accountId }: Caller, id: number): Promise<void> {
    if (!(await repo.deleteRule(this.database, accountId, id)))
      throw new AppError('SUPPRESSION_RULE_NOT_FOUND');
    this.check.rulesChanged({ accountId });
  }

  async apiUserIdsByName({ accountId }: Caller, names: string[]): Promise<number[]> {
    return apiUserIdsByName(this.database, accountId, names);
  }

  private async checkScope(accountId: number, list: SuppressionEntryList, scope: EntryScope): Promise<void> {
    if (scope.apiUserId && !(await findApiUser(this.database, accountId, scope.apiUserId))) {
      throw new AppError('API_USER_NOT_FOUND');
    }
    if (
      list === 'unsubscribe' &&
      scope.labelId &&
      !(await findLabel(this.database, accountId, scope.labelId, 'email'))
    ) {
      throw new AppError('LABEL_NOT_FOUND');
    }
  }
}

function entryView(row: repo.EntryRow, names: Map<number, string>): SuppressionEntryView {
  const apiUserId = Number(row.api_user_id) || null;
  return {
    id: Number(row.id),
    list: row.list,
    address: row.address,
    domain: row.domain,
    apiUserId,
    apiUser: apiUserId ? (names.get(apiUserId) ?? null) : null,
    labelId: Number(row.label_id) || null,
    reason: row.reason,
    detail: row.detail,
    source: row.source,
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    createdAt: Number(row.created_at),
  };
}

/** A CSV cell, quoted when needed; a leading formula character is neutralised for spreadsheets. */
function csvCell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
