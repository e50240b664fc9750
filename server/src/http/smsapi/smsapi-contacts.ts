import {
  AppError,
  parseMobile,
  type SmsContactListView,
  type SmsContactMemberView,
  smsContactListNameSchema,
  smsContactMemberInputSchema,
} from '@herald/shared';
import { ZodError } from 'zod';
import { paging } from '../apiv2/apiv2-data-range.ts';
import { sendCloudTime } from '../apiv2/domain.apiv2.ts';
import { ok } from '../apiv2/envelope.ts';
import {
  SMS_CONTACT_LIST_DELETE,
  SMS_CONTACT_LIST_LIST,
  SMS_CONTACT_LIST_SAVE,
  SMS_CONTACT_LIST_UPDATE,
  SMS_CONTACT_MEMBER_ADD,
  SMS_CONTACT_MEMBER_DELETE,
  SMS_CONTACT_MEMBER_LIST,
  SMS_CONTACT_MEMBER_UPDATE,
} from './smsapi.params.ts';
import type { SmsapiActionEntry } from './smsapi.types.ts';

/**
 * Contact lists over the SMS API (reference §11: `smsContactList/list|save|update|delete` and the
 * list members calls, here `smsContactListMember/list|add|update|delete`): the console's contact
 * services on the signing SMS_USER's account. The parameters are validated already
 * (smsapi.params.ts); `start`/`limit` page as every SendCloud list call does.
 */
function describeList(list: SmsContactListView) {
  return {
    contactListId: list.id,
    contactListName: list.name,
    description: list.description,
    memberCount: list.memberCount,
    varNames: list.varNames,
    importing: list.importing,
    createTime: sendCloudTime(list.createdAt),
    updateTime: sendCloudTime(list.updatedAt),
  };
}

function describeMember(member: SmsContactMemberView) {
  return {
    phone: member.phone,
    name: member.name,
    vars: member.vars,
    createTime: sendCloudTime(member.createdAt),
  };
}

const listIdOf = (fields: Record<string, string>) => Number(fields.contactListId);

/** start/limit (0–100, default 100), SendCloud's paging. */
function page(fields: Record<string, string>) {
  const { start, limit } = paging(fields);
  return { offset: start, limit };
}

/** A member's phone, name and vars as the console's form takes them; vars must be a JSON object. */
function memberInput(fields: Record<string, string>, current?: SmsContactMemberView) {
  let vars: unknown = current?.vars ?? {};
  if (fields.vars !== undefined && fields.vars.trim() !== '') {
    try {
      vars = JSON.parse(fields.vars);
    } catch {
      throw new AppError('SMS_CONTACT_VARS_INVALID');
    }
  }
  try {
    return smsContactMemberInputSchema.parse({
      phone: fields.phone ?? '',
      name: fields.name ?? current?.name ?? '',
      vars,
    });
  } catch (error) {
    if (!(error instanceof ZodError)) throw error;
    const field = String(error.issues[0]?.path[0] ?? '');
    throw new AppError(
      field === 'phone'
        ? 'SMS_PHONE_INVALID'
        : field === 'vars'
          ? 'SMS_CONTACT_VARS_INVALID'
          : 'COMMON_VALIDATION_FAILED',
    );
  }
}

function e164(phone: string | undefined): string {
  const parsed = parseMobile(phone ?? '');
  if (!parsed) throw new AppError('SMS_PHONE_INVALID');
  return parsed.e164;
}

export const SMS_CONTACT_ACTIONS: readonly SmsapiActionEntry[] = [
  {
    path: 'smscontactlist/list',
    docs: SMS_CONTACT_LIST_LIST,
    action: async ({ smsUser, fields, request }, core) => {
      const { list, total } = await core.smsContacts.lists(
        { accountId: smsUser.accountId },
        { name: fields.contactListName || undefined, ...page(fields) },
      );
      return ok(request.lang, { total, count: list.length, dataList: list.map(describeList) });
    },
  },
  {
    path: 'smscontactlist/save',
    docs: SMS_CONTACT_LIST_SAVE,
    action: async ({ smsUser, fields, request }, core) =>
      ok(request.lang, {
        data: describeList(
          await core.smsContacts.createList(
            { accountId: smsUser.accountId },
            {
              name: smsContactListNameSchema.parse(fields.contactListName),
              description: fields.description ?? '',
            },
          ),
        ),
      }),
  },
  {
    path: 'smscontactlist/update',
    docs: SMS_CONTACT_LIST_UPDATE,
    action: async ({ smsUser, fields, request }, core) => {
      const caller = { accountId: smsUser.accountId };
      const current = await core.smsContacts.getList(caller, listIdOf(fields));
      const updated = await core.smsContacts.updateList(caller, current.id, {
        name: smsContactListNameSchema.parse(fields.contactListName),
        description: fields.description ?? current.description,
      });
      return ok(request.lang, { data: describeList(updated) });
    },
  },
  {
    path: 'smscontactlist/delete',
    docs: SMS_CONTACT_LIST_DELETE,
    action: async ({ smsUser, fields, request }, core) => {
      await core.smsContacts.removeList({ accountId: smsUser.accountId }, listIdOf(fields));
      return ok(request.lang, { count: 1 });
    },
  },
  {
    path: 'smscontactlistmember/list',
    docs: SMS_CONTACT_MEMBER_LIST,
    action: async ({ smsUser, fields, request }, core) => {
      const { list, total } = await core.smsContacts.members(
        { accountId: smsUser.accountId },
        { listId: listIdOf(fields), query: fields.query || undefined, ...page(fields) },
      );
      return ok(request.lang, { total, count: list.length, dataList: list.map(describeMember) });
    },
  },
  {
    path: 'smscontactlistmember/add',
    docs: SMS_CONTACT_MEMBER_ADD,
    action: async ({ smsUser, fields, request }, core) =>
      ok(request.lang, {
        data: describeMember(
          await core.smsContacts.addMember(
            { accountId: smsUser.accountId },
            listIdOf(fields),
            memberInput(fields),
          ),
        ),
      }),
  },
  {
    path: 'smscontactlistmember/update',
    docs: SMS_CONTACT_MEMBER_UPDATE,
    action: async ({ smsUser, fields, request }, core) => {
      const caller = { accountId: smsUser.accountId };
      const current = await core.smsContacts.findMemberByPhone(caller, listIdOf(fields), e164(fields.phone));
      const updated = await core.smsContacts.updateMember(caller, current.id, memberInput(fields, current));
      return ok(request.lang, { data: describeMember(updated) });
    },
  },
  {
    path: 'smscontactlistmember/delete',
    docs: SMS_CONTACT_MEMBER_DELETE,
    action: async ({ smsUser, fields, request }, core) => {
      const caller = { accountId: smsUser.accountId };
      const member = await core.smsContacts.findMemberByPhone(caller, listIdOf(fields), e164(fields.phone));
      await core.smsContacts.removeMember(caller, member.id);
      return ok(request.lang, { count: 1 });
    },
  },
];
