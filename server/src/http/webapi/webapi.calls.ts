import { AppError, type Lang } from '@herald/shared';
import type { Core } from '../../compose.ts';
import type { KeyCaller } from '../../core/context.ts';
import { bounceFilter } from '../apiv2/bounce.apiv2.ts';

/** What one v1 call works with: its caller, its parameters in v2 spelling, and the v2 actions. */
export interface V1Call {
  caller: KeyCaller;
  fields: Record<string, string>;
  lang: Lang;
  core: Core;
  /** Runs a v2 action's handler with these parameters (plus overrides); answers its `info`. */
  v2: (path: string, overrides?: Record<string, string>) => Promise<Record<string, unknown>>;
}

/** A v1 call's answer, without `message` (the plugin adds "success"). */
type V1Handler = (call: V1Call) => Promise<Record<string, unknown>>;

/** v1 names whose v2 spelling is not their camelCase (send_email.md, template_do.md, user_info.md). */
export const RENAMED: Record<string, string> = {
  fromname: 'fromName',
  replyto: 'replyTo',
  x_smtpapi: 'xsmtpapi',
  substitution_vars: 'xsmtpapi',
  label: 'labelId',
  use_maillist: 'useAddressList',
  template_invoke_name: 'templateInvokeName',
  invoke_name: 'invokeName',
  email_type: 'templateType',
  api_user_type: 'emailType',
  domain_type: 'type',
  mail_list_addr: 'address',
  member_addr: 'members',
};

/** v1 parameters Herald accepts and has no use for: the mail is stored whole either way. */
const IGNORED = new Set(['gzip_compress']);

/** `api_user` → `apiUser`, `start_date` → `startDate`, and the names v1 spells its own way. */
export function v1Fields(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (IGNORED.has(name)) continue;
    const v2 = RENAMED[name] ?? name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    out[v2] = value;
  }
  return out;
}

type Row = Record<string, unknown>;
const rows = (info: Row, key = 'dataList') => (info[key] as Row[] | undefined) ?? [];

/** An address list as v1 shows it (list_do.md). */
const v1List = (r: Row) => ({
  create_at: r.gmtCreated,
  modify_at: r.gmtUpdated,
  address: r.address,
  members_count: r.memberCount,
  description: r.description,
  name: r.name,
});

/** A member as v1 shows it: its variables as an object with `%name%` keys. */
const v1Member = (r: Row) => {
  const vars = r.vars ? (JSON.parse(String(r.vars)) as Record<string, string>) : {};
  return {
    create_at: r.gmtCreated,
    modify_at: r.gmtUpdated,
    address: r.member,
    name: r.name,
    subscribed: 'true',
    vars: Object.fromEntries(Object.entries(vars).map(([name, value]) => [`%${name}%`, value])),
  };
};

/** The one list with this alias, as v2's `addresslist/list` finds it. */
async function listByAddress(v2: V1Call['v2'], address: string): Promise<Row> {
  const found = rows(await v2('addresslist/list', { address, start: '0', limit: '1' }))[0];
  if (!found) throw new AppError('ADDRESS_LIST_NOT_FOUND');
  return found;
}

const label = (r: Row) => ({ labelId: r.labelId, labelName: r.labelName });

/** SendCloud's v1 statistics names: `request`, and the percentages in snake case. */
function v1Figures(r: Row, asText: boolean): Row {
  const out: Row = {};
  for (const [name, value] of Object.entries(r)) {
    if (name === 'requestNum') out.request = asText ? String(value) : value;
    else if (name.endsWith('Percent')) out[`${name.slice(0, -'Percent'.length)}_percent`] = value;
    else if (name.endsWith('Num')) out[name] = asText ? String(value) : value;
    else out[name] = value;
  }
  return out;
}

function stats(path: string): V1Handler {
  return async ({ v2 }) => {
    const info = await v2(path);
    if (info.data) return { stats: v1Figures(info.data as Row, true) };
    return { stats: rows(info).map((r) => v1Figures(r, false)) };
  };
}

async function labelByName(v2: V1Call['v2'], name: string): Promise<Row> {
  const found = rows(await v2('label/list', { query: name, start: '0', limit: '100' })).find(
    (r) => r.labelName === name,
  );
  if (!found) throw new AppError('LABEL_NOT_FOUND');
  return found;
}

const unsubscribeEntry = (r: Row) => ({
  email: r.email,
  domain: r.domain,
  labelId: r.labelId ?? 0,
  apiUser: r.apiUser ?? '',
  create_at: r.unsubscribeTime,
});

/** A v1 send's answer: its emailIds when asked for, or a list send's task ids (use_maillist). */
function v1SendAnswer(fields: Record<string, string>, info: Row): Row {
  if (info.maillistTaskId) return { maillist_task_id: info.maillistTaskId };
  return fields.respEmailId === 'true' ? { email_id_list: info.emailIdList } : {};
}

/** Every v1 call of reference §13 (sources/email/*.md), by lower-case `module.action`. */
export const V1_CALLS: Record<string, V1Handler> = {
  'mail.send': async ({ fields, v2 }) => v1SendAnswer(fields, await v2('mail/send')),
  'mail.send_template': async ({ fields, v2 }) => v1SendAnswer(fields, await v2('mail/sendtemplate')),

  /** Lists and members (list_do.md): v1 names a list by `address` (or `mail_list_addr`), its members' names by `name`. */
  'list.get': async ({ v2 }) => {
    const info = await v2('addresslist/list', { address: '' });
    return { count: info.count, lists: rows(info).map(v1List) };
  },
  'list.create': async ({ v2 }) => ({ list: v1List((await v2('addresslist/add')).data as Row) }),
  'list.update': async ({ fields, v2 }) => {
    await v2('addresslist/update');
    const now = await listByAddress(v2, fields.toAddress?.trim() || fields.address || '');
    const { modify_at, address, name, members_count } = v1List(now);
    return { list: { modify_at, address, name, members_count } };
  },
  'list.delete': async ({ v2 }) => ({ del_count: (await v2('addresslist/delete')).count }),
  'list_member.get': async ({ fields, v2 }) => {
    const info = fields.members?.trim() ? await v2('addressmember/get') : await v2('addressmember/list');
    return { total_count: info.total ?? info.count, members: rows(info).map(v1Member) };
  },
  'list_member.add': async ({ fields, v2 }) => ({
    total_counts: (await v2('addressmember/add', { names: fields.name ?? '' })).count,
  }),
  /** Answers what v1 documents: the list's member count after the change. */
  'list_member.update': async ({ fields, v2 }) => {
    await v2('addressmember/update', { names: fields.name ?? '' });
    return { total_counts: (await listByAddress(v2, fields.address ?? '')).memberCount };
  },
  'list_member.delete': async ({ v2 }) => ({ del_count: (await v2('addressmember/delete')).count }),

  'bounces.get': async ({ v2 }) => ({
    bounces: rows(await v2('bounce/list')).map((r) => ({
      email: r.email,
      reason: r.reason,
      create_at: r.bounceTime,
    })),
  }),
  'bounces.delete': async ({ v2 }) => ({ del_count: (await v2('bounce/delete')).count }),
  'bounces.count': async ({ v2 }) => ({ count: (await v2('bounce/count')).count }),

  'label.list': async ({ v2 }) => {
    const info = await v2('label/list');
    return { list: rows(info).map(label), totalCount: info.total };
  },
  'label.get': async ({ fields, v2 }) => {
    if (!fields.labelId && fields.labelName) return { label: label(await labelByName(v2, fields.labelName)) };
    return { label: label((await v2('label/get')).data as Row) };
  },
  'label.create': async ({ v2 }) => ({ label: label((await v2('label/add')).data as Row) }),
  'label.update': async ({ v2 }) => ({ updateCount: (await v2('label/update')).count }),
  'label.delete': async ({ v2 }) => ({ deleteCount: (await v2('label/delete')).count }),

  /** Herald's queues are per API_USER and sending domain; a paused one is `isStop`. */
  'queuestatus.get': async ({ caller, core }) => {
    const { queues } = await core.queues.list(caller);
    const now = Date.now();
    return {
      queueStatus: queues.map((q) => {
        const until = Math.max(0, ...q.pauses.map((p) => p.recoverAt ?? 0));
        return {
          apiUser: q.apiUserName,
          domain: q.domain,
          isStop: q.paused,
          reason: '',
          timeout: q.paused && until > now ? Math.ceil((until - now) / 1000) : null,
          unRequestNum: Math.max(0, q.in - q.out),
        };
      }),
    };
  },

  'spamreported.get': async ({ v2 }) => ({
    // v1's own sample names this list `bounces`.
    bounces: rows(await v2('spamreported/list')).map((r) => ({
      email: r.email,
      reason: r.reason,
      create_at: r.reportTime,
    })),
  }),

  'stats.get': stats('statday/list'),
  'statshour.get': stats('stathour/list'),
  'invalidstat.get': async ({ v2 }) => {
    const info = await v2('invalidstat/list');
    return { stats: info.data ?? rows(info) };
  },

  'template.get': async ({ v2 }) => {
    const list = rows(await v2('template/list'));
    const templateList = [];
    for (const t of list) {
      const full = (await v2('template/get', { invokeName: String(t.invokeName) })).data as Row;
      templateList.push({
        invoke_name: full.invokeName,
        name: full.name,
        html: full.html,
        subject: full.subject,
        email_type: full.templateType,
        is_verify: full.templateStat,
        gmt_created: full.gmtCreated,
        gmt_modified: full.gmtModified,
      });
    }
    return { templateList };
  },
  'template.add': async ({ v2 }) => {
    await v2('template/add');
    return { addCount: 1 };
  },
  'template.update': async ({ v2 }) => ({ updateCount: (await v2('template/update')).count }),
  'template.delete': async ({ v2 }) => ({ delCount: (await v2('template/delete')).count }),

  'unsubscribes.get': async ({ v2 }) => ({
    unsubscribes: rows(await v2('unsubscribe/list')).map(unsubscribeEntry),
  }),
  'unsubscribes.add': async ({ fields, v2 }) => {
    await v2('unsubscribe/add');
    const listed = rows(await v2('unsubscribe/list', { email: fields.email ?? '', days: '', startDate: '' }));
    return { unsubscribes: listed.map(unsubscribeEntry) };
  },
  /** With `email`, those addresses; without, every entry of the date range (unsubscribe_do.md). */
  'unsubscribes.delete': async ({ caller, fields, core, v2 }) => {
    if (fields.email?.trim()) return { del_count: (await v2('unsubscribe/delete')).count };
    const filter = bounceFilter(fields);
    if (filter.from === undefined) {
      throw new AppError('COMMON_VALIDATION_FAILED', {}, [{ field: 'start_date', message: 'required' }]);
    }
    const lists = core.suppressionLists;
    const { rows: found } = await lists.find(caller, { list: 'unsubscribe', ...filter }, 0, 100_000);
    return { del_count: await lists.removeAddresses(caller, 'unsubscribe', { ids: found.map((r) => r.id) }) };
  },

  'userinfo.get': async ({ v2 }) => {
    const u = await v2('userinfo/get');
    return {
      userinfo: {
        quota: u.quota,
        usedQuota: u.todayUsedQuota,
        reputation: u.reputation,
        balance: u.balance,
        availableBalance: u.availableBalance,
        userName: u.userName,
        accountType: u.accountType,
        regTime: u.regTime,
      },
    };
  },
  'apiuser.list': async ({ v2 }) => ({
    apiUserList: { apiUser: rows(await v2('apiuser/list')).map((r) => r.name) },
  }),
  /** Herald's domains are all SendCloud's "normal" kind: domain_type=0 (test) finds none. */
  'domain.list': async ({ caller, fields, core }) => {
    const type = fields.type?.trim();
    if (type && type !== '0' && type !== '1') {
      throw new AppError('COMMON_VALIDATION_FAILED', {}, [{ field: 'domain_type', message: 'invalid' }]);
    }
    const found = type === '0' ? [] : await core.domains.rows(caller);
    return { domainList: found.map((d) => ({ name: d.name, id: Number(d.id) })) };
  },
};
