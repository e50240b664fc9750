import type { Lang } from '@herald/shared';
import type { Apiv2Area } from './apiv2.plugin.ts';
import { sendCloudTime } from './apiv2-time.ts';
import { USERINFO_GET } from './userinfo.params.ts';

const ACCOUNT_TYPES: Record<Lang, Record<'free' | 'paid', string>> = {
  'zh-cn': { free: '免费用户', paid: '付费用户' },
  en: { free: 'free', paid: 'paid' },
};

/**
 * `userinfo/get` (user_info.md). Balances are in yuan; `avaliableBalance` repeats
 * `availableBalance` because SendCloud's own sample spells it so and clients read either.
 * `quota` is -1 for a paid account without a daily cap of its own. Reputation is not scored yet:
 * every account reports 100.
 */
export const userinfoApiv2: Apiv2Area = (action, core) => {
  action('userinfo/get', USERINFO_GET, async ({ caller, request }) => {
    const a = await core.apiUsers.accountSummary(caller);
    const balance = a.balanceFen / 100;
    return {
      availableBalance: balance,
      avaliableBalance: balance,
      balance,
      email: a.email,
      phone: a.phone ?? '',
      quota: a.quota ?? -1,
      todayUsedQuota: a.todayUsedQuota,
      regTime: sendCloudTime(a.createdAt)?.slice(0, 10),
      reputation: 100,
      userName: a.userName,
      accountType: ACCOUNT_TYPES[request.lang][a.plan],
      websiteAuthStatus: false,
      businessAuthStatus: false,
    };
  });
};
