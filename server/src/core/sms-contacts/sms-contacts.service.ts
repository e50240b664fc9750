import { setImmediate as yieldToLoop } from 'node:timers/promises';
import {
  AppError,
  type Lang,
  parseMobile,
  SMS_CONTACT_LIST_MAX_MEMBERS,
  type SmsContactListsPage,
  type SmsContactListValues,
  type SmsContactListView,
  type SmsContactMembersPage,
  type SmsContactMemberValues,
  type SmsContactMemberView,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { QUEUES } from '../../queue/names.ts';
import type { QueueBackend } from '../../queue/queue.ts';
import type { Caller } from '../context.ts';
import { BOM, csvLine } from '../exports/csv.ts';
import { mergeVarNames } from '../list-imports/list-imports.service.ts';
import * as repo from './sms-contacts.repo.ts';

export const PURGE_LIST_JOB = 'sms-contacts.purge-list';
export interface PurgeListPayload {
  listId: number;
}

/** Which rows of a list a page shows: the console pages by number, the SMS API by start and limit. */
export interface ListWindow {
  offset: number;
  limit: number;
}

/** The window of a console page (pageNum from 1). */
export const pageWindow = (q: { pageNum: number; pageSize: number }): ListWindow => ({
  offset: (q.pageNum - 1) * q.pageSize,
  limit: q.pageSize,
});

export interface SmsContactsDeps {
  database: Database;
  queue: QueueBackend;
  now?: () => number;
  /** Members a list may hold (product-spec §9); lowered by tests. */
  maxMembers?: number;
}

const PURGE_BATCH = 5000;
const EXPORT_PAGE = 5000;
const YEAR_MS = 365 * 86_400_000;
const EXPORT_HEADER: Record<Lang, [string, string]> = { 'zh-cn': ['手机号', '姓名'], en: ['Phone', 'Name'] };

export function listView(row: repo.ListRow): SmsContactListView {
  return {
    id: Number(row.id),
    name: row.name,
    description: row.description,
    memberCount: Number(row.member_count),
    varNames: JSON.parse(row.var_names) as string[],
    importing: row.pending_import_id !== null,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}

export function memberView(row: repo.MemberRow): SmsContactMemberView {
  return {
    id: Number(row.id),
    listId: Number(row.list_id),
    phone: row.phone,
    name: row.name,
    vars: row.vars ? (JSON.parse(row.vars) as Record<string, string>) : {},
    createdAt: Number(row.created_at),
  };
}

/**
 * SMS contact lists and their members (console `/sms/smsContactlists`,
 * `/sms/smsContactlistMembers`; SMS API `smsContactList/*`, `smsContactListMember/*`). A list's
 * name is unique in the account; another account's list or member is not found. A number is in
 * a list once; the list's count is changed with its rows, in one transaction; a list has at most
 * `maxMembers`. While an import runs on a list (sms-contact-imports.service.ts) the list takes no
 * other change. Deleting a list removes its row at once and purges its members in a job.
 */
export class SmsContactsService {
  private readonly database: Database;
  private readonly queue: QueueBackend;
  private readonly now: () => number;
  readonly maxMembers: number;

  constructor(deps: SmsContactsDeps) {
    this.database = deps.database;
    this.queue = deps.queue;
    this.now = deps.now ?? Date.now;
    this.maxMembers = deps.maxMembers ?? SMS_CONTACT_LIST_MAX_MEMBERS;
  }

  async lists(
    { accountId }: Caller,
    query: ListWindow & { name?: string | undefined },
  ): Promise<SmsContactListsPage> {
    const { rows, total } = await repo.listLists(this.database, accountId, query);
    return { list: rows.map(listView), total };
  }

  async getList({ accountId }: Caller, id: number): Promise<SmsContactListView> {
    return listView(await this.listRow(accountId, id));
  }

  /** A list by its name (the SMS API names lists so). */
  async findByName({ accountId }: Caller, name: string): Promise<SmsContactListView> {
    const row = await repo.findListByName(this.database, accountId, name);
    if (!row) throw new AppError('SMS_CONTACT_LIST_NOT_FOUND');
    return listView(row);
  }

  async createList({ accountId }: Caller, input: SmsContactListValues): Promise<SmsContactListView> {
    await this.ensureFree(accountId, input.name);
    try {
      const id = await repo.insertList(this.database, accountId, input, this.now());
      return this.getList({ accountId }, id);
    } catch (error) {
      await this.ensureFree(accountId, input.name);
      throw error;
    }
  }

  async updateList(
    { accountId }: Caller,
    id: number,
    input: SmsContactListValues,
  ): Promise<SmsContactListView> {
    const current = await this.listRow(accountId, id);
    if (current.name !== input.name) await this.ensureFree(accountId, input.name, id);
    try {
      await repo.updateList(this.database, accountId, id, input, this.now());
    } catch (error) {
      await this.ensureFree(accountId, input.name, id);
      throw error;
    }
    return this.getList({ accountId }, id);
  }

  async removeList({ accountId }: Caller, id: number): Promise<void> {
    const list = await this.listRow(accountId, id);
    if (list.pending_import_id !== null) throw new AppError('SMS_CONTACT_LIST_BUSY');
    if (!(await repo.deleteList(this.database, accountId, id))) {
      const still = await repo.findList(this.database, accountId, id);
      throw new AppError(still ? 'SMS_CONTACT_LIST_BUSY' : 'SMS_CONTACT_LIST_NOT_FOUND');
    }
    if (Number(list.member_count) > 0) {
      await this.queue.enqueue(QUEUES.system, PURGE_LIST_JOB, { listId: id } satisfies PurgeListPayload, {
        dedupeKey: `${PURGE_LIST_JOB}:${id}`,
      });
    }
  }

  /** The job after a deletion: the list's members, a batch at a time (its row is gone already). */
  async purgeList(listId: number, signal?: AbortSignal): Promise<number> {
    let purged = 0;
    for (;;) {
      signal?.throwIfAborted();
      const deleted = await repo.purgeMembers(this.database, listId, PURGE_BATCH);
      purged += deleted;
      if (deleted < PURGE_BATCH) return purged;
      await yieldToLoop();
    }
  }

  /** A task sent to the list (the SMS task slice calls this). */
  async markUsed({ accountId }: Caller, id: number): Promise<void> {
    await repo.markListUsed(this.database, accountId, id, this.now());
  }

  /** Lists with no members left alone for a year (product-spec §9). */
  async cleanIdle(): Promise<number> {
    return repo.deleteIdleEmptyLists(this.database, this.now() - YEAR_MS);
  }

  async members(
    { accountId }: Caller,
    query: ListWindow & { listId: number; query?: string | undefined },
  ): Promise<SmsContactMembersPage> {
    const list = await this.listRow(accountId, query.listId);
    const { rows, total } = await repo.listMembers(this.database, list, query);
    return { list: rows.map(memberView), total };
  }

  async getMember({ accountId }: Caller, id: number): Promise<SmsContactMemberView> {
    const row = await repo.findMember(this.database, accountId, id);
    if (!row) throw new AppError('SMS_CONTACT_MEMBER_NOT_FOUND');
    return memberView(row);
  }

  /** The member of the list with this number (the SMS API finds members so). */
  async findMemberByPhone(
    { accountId }: Caller,
    listId: number,
    phone: string,
  ): Promise<SmsContactMemberView> {
    const list = await this.listRow(accountId, listId);
    const row = await repo.findMemberByPhone(this.database, list, phone);
    if (!row) throw new AppError('SMS_CONTACT_MEMBER_NOT_FOUND');
    return memberView(row);
  }

  async addMember(
    { accountId }: Caller,
    listId: number,
    input: SmsContactMemberValues,
  ): Promise<SmsContactMemberView> {
    const list = await this.listRow(accountId, listId);
    const values = memberValues(input);
    const result = await repo.insertMember(this.database, listId, values, {
      max: this.maxMembers,
      varNames: mergeVarNames(list.var_names, Object.keys(input.vars)),
      now: this.now(),
    });
    if (typeof result !== 'number') throw await this.refusal(accountId, listId, result, values.phone);
    return this.getMember({ accountId }, result);
  }

  async updateMember(
    { accountId }: Caller,
    id: number,
    input: SmsContactMemberValues,
  ): Promise<SmsContactMemberView> {
    const member = await this.getMember({ accountId }, id);
    const list = await this.listRow(accountId, member.listId);
    const values = memberValues(input);
    const result = await repo.updateMember(this.database, member.listId, id, values, {
      varNames: mergeVarNames(list.var_names, Object.keys(input.vars)),
      now: this.now(),
    });
    if (result !== true) throw await this.refusal(accountId, member.listId, result, values.phone);
    return this.getMember({ accountId }, id);
  }

  async removeMember({ accountId }: Caller, id: number): Promise<void> {
    const member = await this.getMember({ accountId }, id);
    const result = await repo.deleteMember(this.database, member.listId, id, this.now());
    if (result !== true) throw await this.refusal(accountId, member.listId, result, member.phone);
  }

  /**
   * The list's members as CSV, produced a page at a time as the reader takes them: phone, name,
   * then one column per variable name the list has seen, under a header row (so an export can be
   * imported again). A BOM first, for Excel.
   */
  async exportMembers(
    { accountId }: Caller,
    listId: number,
    lang: Lang,
  ): Promise<{ name: string; lines: AsyncIterable<string> }> {
    const list = await this.listRow(accountId, listId);
    const varNames = JSON.parse(list.var_names) as string[];
    const database = this.database;
    async function* lines(): AsyncGenerator<string> {
      yield BOM + csvLine([...EXPORT_HEADER[lang], ...varNames]);
      let after = '';
      for (;;) {
        const rows = await repo.membersAfter(database, list, after, EXPORT_PAGE);
        if (rows.length === 0) return;
        yield rows
          .map((row) => {
            const vars = row.vars ? (JSON.parse(row.vars) as Record<string, string>) : {};
            // The number as it is: digits after a plus cannot be a harmful formula, and an export
            // must import again as it was (csvLine would mark it as text with a quote).
            return `${row.phone},${csvLine([row.name, ...varNames.map((name) => vars[name] ?? '')])}`;
          })
          .join('');
        after = (rows[rows.length - 1] as repo.MemberRow).phone;
      }
    }
    return { name: `contacts-${list.id}.csv`, lines: lines() };
  }

  private async listRow(accountId: number, id: number): Promise<repo.ListRow> {
    const row = await repo.findList(this.database, accountId, id);
    if (!row) throw new AppError('SMS_CONTACT_LIST_NOT_FOUND');
    return row;
  }

  /** Names the error of a refused member change by what the list looks like now. */
  private async refusal(
    accountId: number,
    listId: number,
    reason: repo.MemberRefusal,
    phone: string,
  ): Promise<AppError> {
    if (reason === 'exists') return new AppError('SMS_CONTACT_MEMBER_EXISTS', { phone });
    if (reason === 'gone') return new AppError('SMS_CONTACT_MEMBER_NOT_FOUND');
    const list = await repo.findList(this.database, accountId, listId);
    if (!list) return new AppError('SMS_CONTACT_LIST_NOT_FOUND');
    if (list.pending_import_id !== null) return new AppError('SMS_CONTACT_LIST_BUSY');
    return new AppError('SMS_CONTACT_LIST_FULL', { max: this.maxMembers });
  }

  /** Two creations racing for one name: the unique index decides, this names the loser's error. */
  private async ensureFree(accountId: number, name: string, self?: number): Promise<void> {
    const taken = await repo.findListByName(this.database, accountId, name);
    if (taken && Number(taken.id) !== self) throw new AppError('SMS_CONTACT_LIST_NAME_TAKEN');
  }
}

/** The stored shape: E.164 (the schema has checked it parses), JSON variables or null. */
function memberValues(input: SmsContactMemberValues): repo.MemberValues {
  const phone = parseMobileE164(input.phone);
  return {
    phone,
    name: input.name,
    vars: Object.keys(input.vars).length > 0 ? JSON.stringify(input.vars) : null,
  };
}

function parseMobileE164(phone: string): string {
  const parsed = parseMobile(phone);
  if (!parsed) throw new AppError('SMS_PHONE_INVALID');
  return parsed.e164;
}
