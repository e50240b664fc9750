import type { ErrorDefinition } from './error-definition.ts';

/** International SMS prices (the price query and the operator's CLI). */
export const SMS_PRICE_ERRORS = {
  SMS_COUNTRY_UNKNOWN: {
    status: 400,
    'zh-cn': '未知的国家或地区：{country}',
    en: 'Unknown country or region: {country}',
  },
  SMS_SENDER_ID_REQUIRED: {
    status: 400,
    'zh-cn': '该国家要求字母发送方ID，请同时设置发送方ID',
    en: 'A country that takes alphanumeric senders needs a sender id',
  },
} as const satisfies Record<string, ErrorDefinition>;
