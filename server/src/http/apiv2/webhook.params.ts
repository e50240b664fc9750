import { SENDCLOUD_EVENT_CODES, webhookUrlSchema } from '@herald/shared';
import { z } from 'zod';
import { type ActionDocs, doc, params, t, text } from './apiv2-docs.ts';

/** webhook/* (email_v2/webhook): named by url and categoryName; event is a comma list of codes. */
const CODES = Object.entries(SENDCLOUD_EVENT_CODES)
  .map(([kind, code]) => `${code} ${kind}`)
  .join(', ');
const url = doc(webhookUrlSchema, t('接收地址，http 或 https', 'Receiving URL, http or https'), {
  required: 'WEBHOOK_URL_REQUIRED',
  invalid: 'WEBHOOK_URL_INVALID',
  codes: ['WEBHOOK_NOT_FOUND'],
});
const categoryName = text(
  t('API_USER 名称，或 all（整个账号）', 'An API_USER name, or all (the whole account)'),
  {
    codes: ['WEBHOOK_CATEGORY_INVALID'],
  },
);
const event = (required: boolean) =>
  text(t(`事件代码，逗号分隔：${CODES}`, `Event codes, comma-separated: ${CODES}`), {
    ...(required ? { required: 'WEBHOOK_EVENT_REQUIRED' as const } : {}),
    codes: ['WEBHOOK_EVENT_INVALID'],
  });

const WEBHOOK = z.object({
  url: z.string(),
  categoryName: z.string(),
  event: z.string(),
  eventName: z.string(),
  status: z.string(),
  gmtCreated: z.string(),
  gmtUpdated: z.string(),
});
const COUNT = z.object({ count: z.number() });

export const WEBHOOK_LIST: ActionDocs = {
  summary: t('查询 webhook', 'List webhooks'),
  params: params({ url: text(t('接收地址', 'Receiving URL')), categoryName, event: event(false) }),
  info: z.object({ dataList: z.array(WEBHOOK), count: z.number() }),
};
export const WEBHOOK_ADD: ActionDocs = {
  summary: t('添加 webhook', 'Add a webhook'),
  description: t('添加时会探测接收地址。', 'The URL is probed when added.'),
  params: params({ url, categoryName, event: event(true) }),
  info: z.object({ data: WEBHOOK }),
  errors: ['WEBHOOK_URL_REFUSED', 'WEBHOOK_URL_TEST_FAILED', 'WEBHOOK_URL_EXISTS', 'WEBHOOK_LIMIT_REACHED'],
};
export const WEBHOOK_UPDATE: ActionDocs = {
  summary: t('修改 webhook', 'Update a webhook'),
  description: t(
    '每次只修改 newCategoryName、newUrl、newEvent 之一。',
    'Changes exactly one of newCategoryName, newUrl, newEvent.',
  ),
  params: params({
    url: text(t('接收地址', 'Receiving URL'), {
      required: 'WEBHOOK_URL_REQUIRED',
      codes: ['WEBHOOK_URL_INVALID', 'WEBHOOK_NOT_FOUND'],
    }),
    categoryName,
    newCategoryName: text(t('新的 API_USER 名称或 all', 'New API_USER name or all'), {
      codes: ['WEBHOOK_UPDATE_ONE'],
    }),
    newUrl: text(t('新的接收地址', 'New receiving URL'), {
      codes: ['WEBHOOK_UPDATE_ONE', 'WEBHOOK_URL_INVALID'],
    }),
    newEvent: text(t('新的事件代码，逗号分隔', 'New event codes, comma-separated'), {
      codes: ['WEBHOOK_UPDATE_ONE', 'WEBHOOK_EVENT_INVALID'],
    }),
  }),
  info: COUNT,
  errors: ['WEBHOOK_URL_TEST_FAILED', 'WEBHOOK_URL_EXISTS'],
};
export const WEBHOOK_DELETE: ActionDocs = {
  summary: t('删除 webhook', 'Delete a webhook'),
  params: params({ url, categoryName }),
  info: COUNT,
};
