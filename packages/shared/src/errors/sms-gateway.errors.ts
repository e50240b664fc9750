import type { ErrorDefinition } from './error-definition.ts';

/** Gateway user codes: CMPP_USERs and SMPP system ids (product-spec §3, §5). */
export const SMS_GATEWAY_ERRORS = {
  SMS_GATEWAY_USER_NAME_TAKEN: {
    status: 422,
    'zh-cn': '该账号已存在',
    en: 'This login already exists',
  },
  SMS_GATEWAY_USER_LIMIT: {
    status: 422,
    'zh-cn': '最多添加{max}个CMPP/SMPP账号',
    en: 'At most {max} CMPP/SMPP logins per account',
  },
  SMS_GATEWAY_USER_NOT_FOUND: {
    status: 404,
    'zh-cn': 'CMPP/SMPP账号不存在',
    en: 'CMPP/SMPP login not found',
  },
  SMS_GATEWAY_SIGN_MISSING: {
    status: 422,
    'zh-cn': '短信内容须以【签名】开头或结尾',
    en: 'The SMS must begin or end with its 【signature】',
  },
  SMS_GATEWAY_TEMPLATE_UNMATCHED: {
    status: 422,
    'zh-cn': '短信内容与已审核通过的模板不符',
    en: 'The SMS matches none of the passed templates of its signature',
  },
} as const satisfies Record<string, ErrorDefinition>;
