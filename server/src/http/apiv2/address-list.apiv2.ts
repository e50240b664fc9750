import {
  ADDRESS_MEMBERS_PER_CALL_MAX,
  type AddressListView,
  type AddressMemberView,
  AppError,
  addressListDescriptionSchema,
  addressListNameSchema,
  addressMemberVarsSchema,
  bareVarName,
  memberAddressOf,
} from '@herald/shared';
import type { KeyCaller } from '../../core/context.ts';
import * as D from './address-list.params.ts';
import type { Apiv2Area } from './apiv2.plugin.ts';
import { sendCloudTime } from './apiv2-time.ts';

const LIMIT_MAX = 100;

export function describeList(list: AddressListView) {
  return {
    address: list.address,
    name: list.name,
    description: list.description,
    memberCount: list.memberCount,
    gmtCreated: sendCloudTime(list.createdAt),
    gmtUpdated: sendCloudTime(list.updatedAt),
  };
}

export function describeMember(member: AddressMemberView, listAddress: string) {
  return {
    address: listAddress,
    member: member.address,
    name: member.name,
    vars: Object.keys(member.vars).length > 0 ? JSON.stringify(member.vars) : '',
    gmtCreated: sendCloudTime(member.createdAt),
    gmtUpdated: sendCloudTime(member.updatedAt),
  };
}

function whole(value: string | undefined, fallback: number, max: number): number {
  const n = Number(value);
  return value === undefined || value === '' || !Number.isInteger(n) || n < 0 ? fallback : Math.min(n, max);
}

const split = (value: string | undefined) =>
  (value ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean);

/** `members`: `;`-separated, at least one, at most 1,000, each an address (lower-cased). */
export function memberList(value: string | undefined): string[] {
  const list = split(value);
  if (list.length === 0) throw new AppError('ADDRESS_MEMBER_REQUIRED');
  if (list.length > ADDRESS_MEMBERS_PER_CALL_MAX) {
    throw new AppError('ADDRESS_MEMBER_TOO_MANY', { max: ADDRESS_MEMBERS_PER_CALL_MAX });
  }
  return list.map((entry) => {
    const address = memberAddressOf(entry);
    if (!address) throw new AppError('ADDRESS_MEMBER_INVALID', { address: entry.slice(0, 254) });
    return address;
  });
}

/**
 * One member's `vars`: a JSON object (v1's samples quote it with single quotes and name keys
 * `%money%`); values of any JSON kind are kept as text.
 */
function varsOf(text: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    try {
      parsed = JSON.parse(text.replace(/'/g, '"'));
    } catch {
      throw new AppError('ADDRESS_MEMBER_VARS_INVALID');
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new AppError('ADDRESS_MEMBER_VARS_INVALID');
  const vars = Object.fromEntries(
    Object.entries(parsed).map(([name, value]) => [
      bareVarName(name),
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
  const checked = addressMemberVarsSchema.safeParse(vars);
  if (!checked.success) throw new AppError('ADDRESS_MEMBER_VARS_INVALID');
  return checked.data;
}

/**
 * The members of an add or update with their `names` and `vars` (each `;`-separated and aligned
 * with `members`; a `;` between two objects splits vars, one inside a value does not).
 */
export function memberInputs(fields: Record<string, string>, nameField = 'names') {
  const addresses = memberList(fields.members);
  const names = fields[nameField]?.trim() ? fields[nameField].split(';').map((n) => n.trim()) : undefined;
  const vars = fields.vars?.trim() ? fields.vars.trim().split(/(?<=\})\s*;\s*(?=\{)/) : undefined;
  if (names && names.length !== addresses.length) {
    throw new AppError('ADDRESS_MEMBER_VARS_MISMATCH', { field: nameField });
  }
  if (vars && vars.length !== addresses.length)
    throw new AppError('ADDRESS_MEMBER_VARS_MISMATCH', { field: 'vars' });
  return addresses.map((address, i) => ({
    address,
    name: names ? (names[i] as string).slice(0, 64) : undefined,
    vars: vars ? varsOf(vars[i] as string) : undefined,
  }));
}

function listName(value: string | undefined): string {
  const parsed = addressListNameSchema.safeParse(value ?? '');
  if (!parsed.success) throw new AppError('ADDRESS_LIST_NAME_INVALID');
  return parsed.data;
}

const description = (value: string | undefined) => addressListDescriptionSchema.parse(value ?? '');

/**
 * `addresslist/list|add|update|delete` and `addressmember/list|get|add|update|delete`
 * (email_v2/list_do.md) on the calling API_USER's account; v1's `list.*` and `list_member.*` run
 * these handlers too (webapi.calls.ts). `mail/taskinfo` answers a list send's progress.
 */
export const addressListApiv2: Apiv2Area = (action, core) => {
  const lists = core.addressLists;
  const listOf = async (caller: KeyCaller, address: string | undefined) =>
    lists.findByAddress(caller, address ?? '');

  action('mail/taskinfo', D.MAIL_TASKINFO, async ({ caller, params, request }) => {
    const id = (params.fields.maillistTaskId ?? '').trim();
    if (!/^\d{1,15}$/.test(id)) throw new AppError('MAIL_LIST_TASK_NOT_FOUND');
    const task = await core.mailListTasks.info(caller, Number(id), request.lang);
    const { createdAt, updatedAt, ...rest } = task;
    return { data: { ...rest, gmtCreated: sendCloudTime(createdAt), gmtUpdated: sendCloudTime(updatedAt) } };
  });

  action('addresslist/list', D.ADDRESSLIST_LIST, async ({ caller, params }) => {
    const f = params.fields;
    await lists.requirePaid(caller);
    const addresses = split(f.address);
    const page = await lists.lists(caller, {
      addresses: addresses.length > 0 ? addresses : undefined,
      offset: whole(f.start, 0, Number.MAX_SAFE_INTEGER),
      limit: whole(f.limit, LIMIT_MAX, LIMIT_MAX),
    });
    return { dataList: page.list.map(describeList), total: page.total, count: page.list.length };
  });

  action('addresslist/add', D.ADDRESSLIST_ADD, async ({ caller, params }) => {
    const f = params.fields;
    await lists.requirePaid(caller);
    const prefix = lists.prefixOf(f.address ?? '');
    const created = await lists.createList(caller, {
      name: listName(f.name),
      description: description(f.desc ?? f.description),
      prefix,
    });
    return { data: describeList(created) };
  });

  action('addresslist/update', D.ADDRESSLIST_UPDATE, async ({ caller, params }) => {
    const f = params.fields;
    const list = await listOf(caller, f.address);
    const newAddress = (f.newAddress ?? f.toAddress)?.trim();
    const desc = f.desc ?? f.description;
    if (!newAddress && !f.name?.trim() && desc === undefined) throw new AppError('ADDRESS_LIST_UPDATE_EMPTY');
    await lists.updateList(caller, list.id, {
      ...(newAddress ? { prefix: lists.prefixOf(newAddress) } : {}),
      ...(f.name?.trim() ? { name: listName(f.name) } : {}),
      ...(desc !== undefined ? { description: description(desc) } : {}),
    });
    return { count: 1 };
  });

  action('addresslist/delete', D.ADDRESSLIST_DELETE, async ({ caller, params }) => {
    const list = await listOf(caller, params.fields.address);
    await lists.removeList(caller, list.id);
    return { count: 1 };
  });

  action('addressmember/list', D.ADDRESSMEMBER_LIST, async ({ caller, params }) => {
    const f = params.fields;
    const list = await listOf(caller, f.address);
    const page = await lists.members(caller, {
      listId: list.id,
      offset: whole(f.start, 0, Number.MAX_SAFE_INTEGER),
      limit: whole(f.limit, LIMIT_MAX, LIMIT_MAX),
    });
    return {
      dataList: page.list.map((m) => describeMember(m, list.address)),
      total: page.total,
      count: page.list.length,
    };
  });

  action('addressmember/get', D.ADDRESSMEMBER_GET, async ({ caller, params }) => {
    const list = await listOf(caller, params.fields.address);
    const found = await lists.membersByAddress(caller, list.id, memberList(params.fields.members));
    return { dataList: found.map((m) => describeMember(m, list.address)), count: found.length };
  });

  action('addressmember/add', D.ADDRESSMEMBER_ADD, async ({ caller, params }) => {
    const f = params.fields;
    const list = await listOf(caller, f.address);
    const inputs = memberInputs(f).map((m) => ({
      address: m.address,
      name: m.name ?? '',
      vars: m.vars ?? {},
    }));
    const upsert = f.upsert === 'true' || f.upsert === '1';
    const { added, updated } = await lists.addMembers(caller, list.id, inputs, { upsert });
    return { count: added.length + updated.length };
  });

  action('addressmember/update', D.ADDRESSMEMBER_UPDATE, async ({ caller, params }) => {
    const list = await listOf(caller, params.fields.address);
    const changed = await lists.updateMembersByAddress(caller, list.id, memberInputs(params.fields));
    return { count: changed.length };
  });

  action('addressmember/delete', D.ADDRESSMEMBER_DELETE, async ({ caller, params }) => {
    const list = await listOf(caller, params.fields.address);
    return { count: await lists.removeMembersByAddress(caller, list.id, memberList(params.fields.members)) };
  });
};
