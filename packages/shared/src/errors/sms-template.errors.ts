import type { ErrorDefinition } from './error-definition.ts';

/**
 * Codes of SMS, voice and MMS templates (product-spec §4, §5). Not found and not passed are the
 * SMS API's 431 and 432 (`SMS_TEMPLATE_NOT_FOUND`, `SMS_TEMPLATE_NOT_PASSED` in sms-api.errors.ts).
 */
export const SMS_TEMPLATE_ERRORS = {
  SMS_TEMPLATE_ALREADY_REVIEWING: {
    status: 409,
    'zh-cn': '模板正在审核中，请勿重复提交',
    en: 'The template is already under review',
  },
  SMS_TEMPLATE_ALREADY_PASSED: {
    status: 409,
    'zh-cn': '模板已审核通过，无需再次提交',
    en: 'The template has already passed review',
  },
  SMS_TEMPLATE_REVIEW_NOT_PENDING: {
    status: 409,
    'zh-cn': '该模板不在待审核状态',
    en: 'The template is not awaiting review',
  },
  SMS_TEMPLATE_SIGN_NOT_FOUND: {
    status: 400,
    'zh-cn': '所选签名不存在',
    en: 'The chosen signature does not exist',
  },
  SMS_TEMPLATE_SIGN_REGION: {
    status: 400,
    'zh-cn': '签名类型与模板的发送地区不一致',
    en: 'The signature is not of the template region (domestic or international)',
  },
  SMS_TEMPLATE_SIGN_NOT_PASSED: {
    status: 409,
    'zh-cn': '签名“{name}”尚未审核通过，请在签名通过后再提交模板审核',
    en: 'The signature "{name}" has not passed review yet; submit the template once it has',
  },
} as const satisfies Record<string, ErrorDefinition>;
