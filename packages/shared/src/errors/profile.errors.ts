import type { ErrorDefinition } from './error-definition.ts';

/** Error codes of the account details area (issue 4: sign-up SMS code, `/userInfo/edited/*`). */
export const PROFILE_ERRORS = {
  PROFILE_OWNER_ONLY: {
    status: 403,
    'zh-cn': '只有主账号可以修改账号资料',
    en: 'Only the account owner can change the account details',
  },
} as const satisfies Record<string, ErrorDefinition>;
