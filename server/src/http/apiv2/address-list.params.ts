import { z } from 'zod';
import { type ActionDocs, doc, PAGING, params, t, text } from './apiv2-docs.ts';

/** addresslist/* and addressmember/* (email_v2/list_do.md); paid accounts only (40820 otherwise). */
// Required, but checked by the handler after the paid check: a free account hears 40820 first.
const address = doc(
  z.string().optional(),
  t(
    '地址列表的别称地址，如 news@maillist.example.com',
    'The list’s alias address, e.g. news@maillist.example.com',
  ),
  { required: 'ADDRESS_LIST_NOT_FOUND', codes: ['ADDRESS_LIST_NOT_FOUND', 'ADDRESS_LIST_ADDRESS_INVALID'] },
);
const members = doc(
  z.string().optional(),
  t('成员地址，多个用 ; 分隔，每次最多 1000 个', 'Member addresses, `;`-separated, at most 1,000 a call'),
  { required: 'ADDRESS_MEMBER_REQUIRED', codes: ['ADDRESS_MEMBER_INVALID', 'ADDRESS_MEMBER_TOO_MANY'] },
);
const vars = text(
  t(
    '替换变量，与 members 一一对应，每个为 JSON 对象如 {"money":"1000"}，多个用 ; 分隔',
    'Variables aligned with members, each a JSON object such as {"money":"1000"}, `;`-separated',
  ),
  { codes: ['ADDRESS_MEMBER_VARS_INVALID', 'ADDRESS_MEMBER_VARS_MISMATCH'] },
);
const names = text(
  t('成员姓名，与 members 一一对应，多个用 ; 分隔', 'Member names aligned with members, `;`-separated'),
  {
    codes: ['ADDRESS_MEMBER_VARS_MISMATCH'],
  },
);

const LIST = doc(
  z.object({
    address: z.string(),
    name: z.string(),
    description: z.string(),
    memberCount: z.number(),
    gmtCreated: z.string(),
    gmtUpdated: z.string(),
  }),
  t('地址列表；时间为 yyyy-MM-dd HH:mm:ss', 'An address list; times are yyyy-MM-dd HH:mm:ss'),
);
const MEMBER = doc(
  z.object({
    address: z.string(),
    member: z.string(),
    name: z.string(),
    vars: z.string(),
    gmtCreated: z.string(),
    gmtUpdated: z.string(),
  }),
  t('列表成员；vars 为 JSON 文本，无变量时为空', 'A list member; vars is JSON text, empty when none'),
);
const COUNT = z.object({ count: z.number() });
const ERRORS: ActionDocs['errors'] = ['ADDRESS_LIST_PAID_ONLY', 'ADDRESS_LIST_BUSY'];

export const ADDRESSLIST_LIST: ActionDocs = {
  summary: t('查询地址列表', 'List address lists'),
  params: params({
    address: text(t('别称地址，多个用 ; 分隔', 'Alias addresses, `;`-separated')),
    ...PAGING,
  }),
  info: z.object({ dataList: z.array(LIST), total: z.number(), count: z.number() }),
  errors: ERRORS,
};
export const ADDRESSLIST_ADD: ActionDocs = {
  summary: t('创建地址列表', 'Create an address list'),
  params: params({
    address: doc(
      z.string(),
      t('别称地址：前缀为字母、数字或下划线', 'The alias: a prefix of letters, digits or underscores'),
      {
        required: 'ADDRESS_LIST_ADDRESS_INVALID',
        codes: ['ADDRESS_LIST_ADDRESS_INVALID', 'ADDRESS_LIST_ADDRESS_TAKEN'],
      },
    ),
    name: doc(z.string(), t('列表名称，1–64 个字符', 'List name, 1–64 characters'), {
      required: 'ADDRESS_LIST_NAME_INVALID',
    }),
    desc: text(t('描述，最多 200 个字符', 'Description, at most 200 characters')),
  }),
  info: z.object({ data: LIST }),
  errors: ERRORS,
};
export const ADDRESSLIST_UPDATE: ActionDocs = {
  summary: t('修改地址列表', 'Change an address list'),
  params: params({
    address,
    newAddress: text(t('新的别称地址', 'The new alias address'), { codes: ['ADDRESS_LIST_ADDRESS_TAKEN'] }),
    name: text(t('新的列表名称', 'The new list name')),
    desc: text(t('新的描述', 'The new description')),
  }),
  info: COUNT,
  errors: [...ERRORS, 'ADDRESS_LIST_UPDATE_EMPTY'],
};
export const ADDRESSLIST_DELETE: ActionDocs = {
  summary: t('删除地址列表（及其成员）', 'Delete an address list (and its members)'),
  params: params({ address }),
  info: COUNT,
  errors: ERRORS,
};
export const ADDRESSMEMBER_LIST: ActionDocs = {
  summary: t('查询列表成员', 'List the members of a list'),
  params: params({ address, ...PAGING }),
  info: z.object({ dataList: z.array(MEMBER), total: z.number(), count: z.number() }),
  errors: ERRORS,
};
export const ADDRESSMEMBER_GET: ActionDocs = {
  summary: t('按地址查询列表成员', 'Get members of a list by address'),
  params: params({ address, members }),
  info: z.object({ dataList: z.array(MEMBER), count: z.number() }),
  errors: ERRORS,
};
export const ADDRESSMEMBER_ADD: ActionDocs = {
  summary: t('添加列表成员（已有的地址跳过）', 'Add members to a list (addresses it has are skipped)'),
  params: params({ address, members, names, vars }),
  info: COUNT,
  errors: [...ERRORS, 'ADDRESS_LIST_FULL'],
};
export const ADDRESSMEMBER_UPDATE: ActionDocs = {
  summary: t('修改列表成员的姓名与变量', 'Change the names and variables of members'),
  params: params({ address, members, names, vars }),
  info: COUNT,
  errors: ERRORS,
};
export const ADDRESSMEMBER_DELETE: ActionDocs = {
  summary: t('删除列表成员', 'Delete members of a list'),
  params: params({ address, members }),
  info: COUNT,
  errors: ERRORS,
};

/** List sends come later: until then `mail/taskinfo` has no task to tell of and says so (40820). */
export const MAIL_TASKINFO: ActionDocs = {
  summary: t('mail/taskinfo 地址列表任务的进度', 'mail/taskinfo: the progress of a list send'),
  description: t(
    '地址列表发送（useAddressList=true）返回的 maillistTaskId 对应任务的状态与进度：成员数、已写入、投递中、送达、无效（其中退订与黑名单）、软退信。',
    'The state and progress of a task a list send (useAddressList=true) answered with: members, written, waiting, delivered, invalid (unsubscribed and blocked among them), soft bounces.',
  ),
  params: params({
    maillistTaskId: doc(z.string().optional(), t('地址列表任务 ID', 'The list task id'), {
      required: 'MAIL_LIST_TASK_NOT_FOUND',
      codes: ['MAIL_LIST_TASK_NOT_FOUND'],
    }),
  }),
  info: z.object({
    data: z.object({
      maillistTaskId: z.number(),
      apiUser: z.string(),
      addressList: z.string(),
      memberCount: z.number(),
      gmtCreated: z.string(),
      gmtUpdated: z.string(),
      status: z.enum(['waiting', 'sending', 'finished', 'failed']),
      queued: z.number(),
      waiting: z.number(),
      delivered: z.number(),
      invalid: z.number(),
      unsubscribed: z.number(),
      blocked: z.number(),
      softBounce: z.number(),
      error: z.string().nullable(),
    }),
  }),
  errors: ['MAIL_LIST_TASK_NOT_FOUND'],
};
