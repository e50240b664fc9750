import type { ErrorDefinition, RuleMessages } from './error-definition.ts';

/** Error codes of API_USERs, their keys and labels (issue 5). */
export const API_USER_ERRORS = {
  API_AUTH_FAILED: {
    status: 401,
    sendCloud: 40005,
    'zh-cn': '认证失败',
    en: 'Authentication failed',
  },
} as const satisfies Record<string, ErrorDefinition>;

/** Field-rule messages of API_USERs and labels, used by their shared schemas. */
export const API_USER_RULES = {} as const satisfies RuleMessages;
