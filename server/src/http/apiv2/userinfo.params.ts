import { z } from 'zod';
import { type ActionDocs, doc, params, t } from './apiv2-docs.ts';

export const USERINFO_GET: ActionDocs = {
  summary: t('查询账号信息', 'Get the account'),
  params: params(),
  info: z.object({
    availableBalance: doc(z.number(), t('可用余额（元）', 'Available balance (yuan)')),
    avaliableBalance: doc(
      z.number(),
      t(
        '同 availableBalance（SendCloud 示例的拼写）',
        'Same as availableBalance (the spelling of SendCloud’s sample)',
      ),
    ),
    balance: doc(z.number(), t('余额（元）', 'Balance (yuan)')),
    email: z.string(),
    phone: z.string(),
    quota: doc(z.number(), t('每日发送额度，-1 为不限', 'Daily sending quota, -1 for none')),
    todayUsedQuota: z.number(),
    regTime: doc(z.string(), t('注册日期，yyyy-MM-dd', 'Registration day, yyyy-MM-dd')),
    reputation: z.number(),
    userName: z.string(),
    accountType: z.string(),
    websiteAuthStatus: z.boolean(),
    businessAuthStatus: z.boolean(),
  }),
};
