import { setImmediate as yieldToLoop } from 'node:timers/promises';
import {
  ADDRESS_LIST_MAX_MEMBERS,
  ADDRESS_LIST_PREFIX,
  type AddressListsPage,
  type AddressListValues,
  type AddressListView,
  type AddressMembersPage,
  type AddressMemberValues,
  type AddressMemberView,
  AppError,
  type Lang,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { QUEUES } from '../../queue/names.ts';
import type { QueueBackend } from '../../queue/queue.ts';
import { findPlan } from '../api-users/api-users.repo.ts';
import type { Caller } from '../context.ts';
import { BOM, csvLine } from '../exports/csv.ts';
import * as lists from '../list-imports/list-imports.repo.ts';
import { mergeVarNames } from '../list-imports/list-imports.service.ts';
import * as repo from './address-lists.repo.ts';

export const PURGE_ADDRESS_LIST_JOB = 'address-lists.purge-list';
export interface PurgeAddressListPayload {
  listId: number;
}

export interface AddressListsDeps {
  database: Database;
  queue: QueueBackend;
  /** The platform's list domain: every alias is `<prefix>@<domain>`. */
  domain: string;
  now?: () => number;
  /** Members a list may hold (product-spec §9); lowered by tests. */
  maxMembers?: number;
}

/** Which rows a page shows: the console pages by number, the SendCloud API by start and limit. */
export interface ListWindow {
  offset: number;
  limit: number;
}

const PURGE_BATCH = 5000;
const EXPORT_PAGE = 5000;
const YEAR_MS = 365 * 86_400_000;
const EXPORT_HEADER: Record<Lang, [string, string]> = {
  'zh-cn': ['邮件地址', '姓名'],
  en: ['Address', 'Name'],
};

/** Address lists are open to paid accounts only (product-spec §6); the imports' guard too. */
export async function requirePaidAccount(database: Database, accountId: number): Promise<void> {
  if ((await findPlan(database, accountId)) !== 'paid') throw new AppError('ADDRESS_LIST_PAID_ONLY');
}

const varsOf = (json: string | null) => (json ? (JSON.parse(json) as Record<string, string>) : {});

/** The stored shape of a member: its address lower-cased (the schema has checked it), JSON variables or null. */
export function memberValues(input: AddressMemberValues): repo.MemberValues {
  return {
    address: input.address.trim().toLowerCase(),
    name: input.name,
    vars: Object.keys(input.vars).length > 0 ? JSON.stringify(input.vars) : null,
  };
}

/**
 * Email address lists and their members (console `/mail/mailingLists`, `/mail/maillistSubInfos`;
 * SendCloud `addresslist/*`, `addressmember/*`, v1 `list.*`, `list_member.*`). Paid accounts
 * only (product-spec §6): a free one is refused before anything else. A list is called by its
 * alias `<prefix>@<list domain>`, unique on the platform; another account's list or member is
 * not found. An address is in a list once; the count changes with the rows, in one transaction;
 * a list has at most `maxMembers`. While an import runs on a list (address-list-imports.service.ts)
 * the list takes no other change. Deleting a list removes its row at once and purges its members
 * in a job.
 */
export class AddressListsService {
  private readonly database: Database;
  private readonly queue: QueueBackend;
  private readonly now: () => number;
  readonly domain: string;
  readonly maxMembers: number;

  constructor(deps: AddressListsDeps) {
    this.database = deps.database;
    this.queue = deps.queue;
    this.domain = deps.domain.toLowerCase();
    this.now = deps.now ?? Date.now;
    this.maxMembers = deps.maxMembers ?? ADDRESS_LIST_MAX_MEMBERS;
  }

  async requirePaid({ accountId }: Caller): Promise<void> {
    await requirePaidAccount(this.database, accountId);
  }

  /** `<prefix>@<list domain>` */
  aliasOf(prefix: string): string {
    return `${prefix}@${this.domain}`;
  }

  /** The prefix of an alias on the list domain, lower-cased; refused when it is not one. */
  prefixOf(address: string): string {
    const at = address.trim().lastIndexOf('@');
    const prefix = address.trim().slice(0, at);
    if (
      at < 0 ||
      address
        .trim()
        .slice(at + 1)
        .toLowerCase() !== this.domain ||
      !ADDRESS_LIST_PREFIX.test(prefix)
    ) {
      throw new AppError('ADDRESS_LIST_ADDRESS_INVALID', { domain: this.domain });
    }
    return prefix.toLowerCase();
  }

  view(row: repo.ListRow): AddressListView {
    return {
      id: Number(row.id),
      name: row.name,
      description: row.description,
      address: this.aliasOf(row.prefix),
      memberCount: Number(row.member_count),
      varNames: JSON.parse(row.var_names) as string[],
      importing: row.pending_import_id !== null,
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
      lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    };
  }

  /** A page of lists; a free account gets none, and is told why (`paid: false`). */
  async lists(
    { accountId }: Caller,
    query: ListWindow & { name?: string | undefined; addresses?: string[] | undefined },
  ): Promise<AddressListsPage> {
    const paid = (await findPlan(this.database, accountId)) === 'paid';
    if (!paid) return { list: [], total: 0, domain: this.domain, paid };
    const prefixes = query.addresses?.map((address) => this.prefixOf(address));
    const { rows, total } = await repo.listLists(this.database, accountId, { ...query, prefixes });
    return { list: rows.map((row) => this.view(row)), total, domain: this.domain, paid };
  }

  async getList({ accountId }: Caller, id: number): Promise<AddressListView> {
    return this.view(await this.listRow({ accountId }, id));
  }

  /** A list by its alias (the SendCloud API calls lists so). */
  async findByAddress({ accountId }: Caller, address: string): Promise<AddressListView> {
    return this.view(await this.listByAddress({ accountId }, address));
  }

  async createList({ accountId }: Caller, input: AddressListValues): Promise<AddressListView> {
    await this.requirePaid({ accountId });
    const prefix = input.prefix.toLowerCase();
    await this.ensureFree(prefix);
    const values = { name: input.name, description: input.description, prefix };
    try {
      return this.getList({ accountId }, await repo.insertList(this.database, accountId, values, this.now()));
    } catch (error) {
      await this.ensureFree(prefix);
      throw error;
    }
  }

  /** Changes what is given of the name, the description and the alias's prefix. */
  async updateList(
    { accountId }: Caller,
    id: number,
    input: Partial<AddressListValues>,
  ): Promise<AddressListView> {
    const current = await this.listRow({ accountId }, id);
    const prefix = input.prefix?.toLowerCase() ?? current.prefix;
    if (prefix !== current.prefix) await this.ensureFree(prefix, id);
    const values = {
      name: input.name ?? current.name,
      description: input.description ?? current.description,
      prefix,
    };
    try {
      await repo.updateList(this.database, accountId, id, values, this.now());
    } catch (error) {
      await this.ensureFree(prefix, id);
      throw error;
    }
    return this.getList({ accountId }, id);
  }

  async removeList({ accountId }: Caller, id: number): Promise<void> {
    const list = await this.listRow({ accountId }, id);
    if (list.pending_import_id !== null) throw new AppError('ADDRESS_LIST_BUSY');
    if (!(await repo.deleteList(this.database, accountId, id))) {
      const still = await repo.findList(this.database, accountId, id);
      throw new AppError(still ? 'ADDRESS_LIST_BUSY' : 'ADDRESS_LIST_NOT_FOUND');
    }
    if (Number(list.member_count) > 0) {
      await this.queue.enqueue(
        QUEUES.system,
        PURGE_ADDRESS_LIST_JOB,
        { listId: id } satisfies PurgeAddressListPayload,
        { dedupeKey: `${PURGE_ADDRESS_LIST_JOB}:${id}` },
      );
    }
  }

  /** The job after a deletion: the list's members, a batch at a time (its row is gone already). */
  async purgeList(listId: number, signal?: AbortSignal): Promise<number> {
    let purged = 0;
    for (;;) {
      signal?.throwIfAborted();
      const deleted = await lists.purgeMembers(this.database, repo.ADDRESS_LIST_TABLES, listId, PURGE_BATCH);
      purged += deleted;
      if (deleted < PURGE_BATCH) return purged;
      await yieldToLoop();
    }
  }

  /** A task sent to the list (list sending calls this). */
  async markUsed({ accountId }: Caller, id: number): Promise<void> {
    await lists.markListUsed(this.database, repo.ADDRESS_LIST_TABLES, accountId, id, this.now());
  }

  /** Lists with no members left alone for a year (product-spec §9). */
  async cleanIdle(): Promise<number> {
    return lists.deleteIdleEmptyLists(this.database, repo.ADDRESS_LIST_TABLES, this.now() - YEAR_MS);
  }

  async members(
    { accountId }: Caller,
    query: ListWindow & { listId: number; query?: string | undefined },
  ): Promise<AddressMembersPage> {
    const list = await this.listRow({ accountId }, query.listId);
    const { rows, total } = await repo.listMembers(this.database, list, query);
    return { list: rows.map(memberView), total };
  }

  async getMember({ accountId }: Caller, id: number): Promise<AddressMemberView> {
    await this.requirePaid({ accountId });
    const row = await repo.findMember(this.database, accountId, id);
    if (!row) throw new AppError('ADDRESS_MEMBER_NOT_FOUND');
    return memberView(row);
  }

  /** The list's members with these addresses (lower-cased), in address order. */
  async membersByAddress(
    { accountId }: Caller,
    listId: number,
    addresses: string[],
  ): Promise<AddressMemberView[]> {
    const list = await this.listRow({ accountId }, listId);
    return (await repo.findMembersByAddress(this.database, list, addresses)).map(memberView);
  }

  /** One new member (the console): an address the list has is refused. */
  async addMember(
    { accountId }: Caller,
    listId: number,
    input: AddressMemberValues,
  ): Promise<AddressMemberView> {
    const values = memberValues(input);
    const { added } = await this.addMembers({ accountId }, listId, [input], { upsert: false });
    if (added.length === 0) throw new AppError('ADDRESS_MEMBER_EXISTS', { address: values.address });
    const [member] = await this.membersByAddress({ accountId }, listId, [values.address]);
    return member as AddressMemberView;
  }

  /** New members (the API, at most 1,000 a call): those the list has are skipped, or changed with `upsert`. */
  async addMembers(
    { accountId }: Caller,
    listId: number,
    inputs: AddressMemberValues[],
    options: { upsert: boolean },
  ): Promise<{ added: string[]; updated: string[] }> {
    const list = await this.listRow({ accountId }, listId);
    const byAddress = new Map(inputs.map((input) => [memberValues(input).address, memberValues(input)]));
    const result = await repo.addMembers(this.database, listId, [...byAddress.values()], {
      max: this.maxMembers,
      varNames: mergeVarNames(
        list.var_names,
        inputs.flatMap((input) => Object.keys(input.vars)),
      ),
      upsert: options.upsert,
      now: this.now(),
    });
    if (typeof result === 'string') throw this.refusal(result);
    return result;
  }

  async updateMember(
    { accountId }: Caller,
    id: number,
    input: AddressMemberValues,
  ): Promise<AddressMemberView> {
    const member = await this.getMember({ accountId }, id);
    const list = await this.listRow({ accountId }, member.listId);
    const values = memberValues(input);
    const result = await repo.updateMember(this.database, member.listId, id, values, {
      varNames: mergeVarNames(list.var_names, Object.keys(input.vars)),
      now: this.now(),
    });
    if (result !== true) throw this.refusal(result, values.address);
    return this.getMember({ accountId }, id);
  }

  /** Changes members found by address (the API); answers the addresses changed. */
  async updateMembersByAddress(
    { accountId }: Caller,
    listId: number,
    changes: { address: string; name?: string | undefined; vars?: Record<string, string> | undefined }[],
  ): Promise<string[]> {
    const list = await this.listRow({ accountId }, listId);
    const result = await repo.updateMembersByAddress(
      this.database,
      listId,
      changes.map(({ address, name, vars }) => ({
        address: address.trim().toLowerCase(),
        name,
        vars: vars === undefined ? undefined : Object.keys(vars).length > 0 ? JSON.stringify(vars) : null,
      })),
      {
        varNames: mergeVarNames(
          list.var_names,
          changes.flatMap((c) => Object.keys(c.vars ?? {})),
        ),
        now: this.now(),
      },
    );
    if (typeof result === 'string') throw this.refusal(result);
    return result;
  }

  async removeMember({ accountId }: Caller, id: number): Promise<void> {
    const member = await this.getMember({ accountId }, id);
    const result = await repo.deleteMembers(this.database, member.listId, { ids: [id] }, this.now());
    if (typeof result === 'string') throw this.refusal(result);
  }

  /** Deletes the list's members with these addresses (the API); answers how many went. */
  async removeMembersByAddress({ accountId }: Caller, listId: number, addresses: string[]): Promise<number> {
    await this.listRow({ accountId }, listId);
    const lower = addresses.map((address) => address.trim().toLowerCase());
    const result = await repo.deleteMembers(this.database, listId, { addresses: lower }, this.now());
    if (typeof result === 'string') throw this.refusal(result);
    return result;
  }

  /**
   * The list's members as CSV, produced a page at a time as the reader takes them: address,
   * name, then one column per variable name the list has seen, under a header row (so an export
   * can be imported again). A BOM first, for Excel.
   */
  async exportMembers(
    { accountId }: Caller,
    listId: number,
    lang: Lang,
  ): Promise<{ name: string; lines: AsyncIterable<string> }> {
    const list = await this.listRow({ accountId }, listId);
    const varNames = JSON.parse(list.var_names) as string[];
    const database = this.database;
    async function* lines(): AsyncGenerator<string> {
      yield BOM + csvLine([...EXPORT_HEADER[lang], ...varNames]);
      let after = '';
      for (;;) {
        const rows = await repo.membersAfter(database, list, after, EXPORT_PAGE);
        if (rows.length === 0) return;
        yield rows
          .map((row) =>
            csvLine([row.address, row.name, ...varNames.map((name) => varsOf(row.vars)[name] ?? '')]),
          )
          .join('');
        after = (rows[rows.length - 1] as repo.MemberRow).address;
      }
    }
    return { name: `address-list-${list.id}.csv`, lines: lines() };
  }

  /** The list, if the account is paid and owns it (the imports' lookup too). */
  async listRow({ accountId }: Caller, id: number): Promise<repo.ListRow> {
    await this.requirePaid({ accountId });
    const row = await repo.findList(this.database, accountId, id);
    if (!row) throw new AppError('ADDRESS_LIST_NOT_FOUND');
    return row;
  }

  /** The account's list with this alias. */
  async listByAddress({ accountId }: Caller, address: string): Promise<repo.ListRow> {
    await this.requirePaid({ accountId });
    const row = await repo.findListByPrefix(this.database, accountId, this.prefixOf(address));
    if (!row) throw new AppError('ADDRESS_LIST_NOT_FOUND');
    return row;
  }

  private refusal(reason: repo.MemberRefusal, address = ''): AppError {
    if (reason === 'exists') return new AppError('ADDRESS_MEMBER_EXISTS', { address });
    if (reason === 'busy') return new AppError('ADDRESS_LIST_BUSY');
    return new AppError('ADDRESS_LIST_FULL', { max: this.maxMembers });
  }

  /** An alias is the platform's: taken by any account, it cannot be had again. */
  private async ensureFree(prefix: string, self?: number): Promise<void> {
    if (await repo.prefixTaken(this.database, prefix, self)) throw new AppError('ADDRESS_LIST_ADDRESS_TAKEN');
  }
}

export function memberView(row: repo.MemberRow): AddressMemberView {
  return {
    id: Number(row.id),
    listId: Number(row.list_id),
    address: row.address,
    name: row.name,
    vars: varsOf(row.vars),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at ?? row.created_at),
  };
}
