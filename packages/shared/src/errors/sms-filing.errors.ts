import type { ErrorDefinition } from './error-definition.ts';

/** SMS filing codes (product-spec §4, §6). */
export const SMS_FILING_ERRORS = {
  SMS_FILING_NOT_FOUND: {
    status: 404,
    'zh-cn': '短信备案不存在',
    en: 'SMS filing not found',
  },
  SMS_FILING_REVIEWING: {
    status: 409,
    'zh-cn': '短信备案审核中，请等待审核结果',
    en: 'The SMS filing is under review; please wait for the result',
  },
  SMS_FILING_PASSED: {
    status: 409,
    'zh-cn': '短信备案已通过，无需重新提交',
    en: 'The SMS filing is approved already; there is nothing to resubmit',
  },
  SMS_FILING_DISABLED: {
    status: 409,
    'zh-cn': '短信备案已停用，请联系客服',
    en: 'The SMS filing is disabled; please contact support',
  },
  SMS_FILING_REVIEW_NOT_PENDING: {
    status: 409,
    'zh-cn': '该短信备案不在审核中，请刷新后再试',
    en: 'This SMS filing is not awaiting review; refresh and try again',
  },
  SMS_FILING_NOT_PASSED: {
    status: 409,
    'zh-cn': '只能停用已通过的短信备案',
    en: 'Only an approved SMS filing can be disabled',
  },
} as const satisfies Record<string, ErrorDefinition>;
