import { API_USER_NAME_PATTERN } from '@herald/shared';
import { z } from 'zod';
import { type ActionDocs, doc, params, t, text } from './apiv2-docs.ts';

/** apiuser/* (apiuser_do.md): emailType 0 trigger / 1 batch, cType 0 test / 1 normal. */
const API_USER = z.object({
  name: z.string(),
  cType: z.string(),
  emailType: z.string(),
  domainName: z.string(),
  neteaseSender: z.string(),
  click: z.number(),
  open: z.number(),
  unsubscribe: z.number(),
});
const flag = (description: ReturnType<typeof t>) => text(description);

export const APIUSER_LIST: ActionDocs = {
  summary: t('查询 API_USER 列表', 'List API_USERs'),
  params: params({
    emailType: doc(z.enum(['0', '1']).optional(), t('0 触发，1 批量', '0 trigger, 1 batch'), {
      invalid: 'API_USER_EMAIL_TYPE_INVALID',
    }),
    cType: text(t('0 测试，1 非测试', '0 test, 1 normal')),
    domainName: text(t('发信域名', 'Sending domain')),
  }),
  info: z.object({ count: z.number(), dataList: z.array(API_USER) }),
};
export const APIUSER_ADD: ActionDocs = {
  summary: t('添加 API_USER', 'Add an API_USER'),
  description: t(
    '新 API_USER 的 API_KEY（nameKey）只在此回答中出现一次。',
    'The new API_USER’s key (nameKey) is in this answer only.',
  ),
  params: params({
    name: doc(
      z.string().trim().regex(API_USER_NAME_PATTERN, 'invalid'),
      t('名称，6–64 个字符：字母、数字、_ @ . -', 'Name, 6–64 characters: letters, digits, _ @ . -'),
      {
        required: 'API_USER_NAME_INVALID',
        invalid: 'API_USER_NAME_INVALID',
        codes: ['API_USER_NAME_TAKEN'],
      },
    ),
    emailType: doc(z.enum(['0', '1']), t('0 触发，1 批量', '0 trigger, 1 batch'), {
      required: 'API_USER_EMAIL_TYPE_INVALID',
      invalid: 'API_USER_EMAIL_TYPE_INVALID',
    }),
    domainName: text(t('发信域名', 'Sending domain'), {
      required: true,
      codes: ['API_USER_DOMAIN_NOT_FOUND', 'API_USER_DOMAIN_UNVERIFIED'],
    }),
    open: flag(t('打开跟踪：1（默认）或 0', 'Open tracking: 1 (default) or 0')),
    click: flag(t('点击跟踪：1（默认）或 0', 'Click tracking: 1 (default) or 0')),
    unsubscribe: flag(t('取消订阅跟踪：1（默认）或 0', 'Unsubscribe tracking: 1 (default) or 0')),
  }),
  info: z.object({ total: z.number(), data: API_USER.extend({ domain: z.string(), nameKey: z.string() }) }),
  errors: ['API_USER_LIMIT'],
};
