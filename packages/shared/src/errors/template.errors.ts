import type { ErrorDefinition } from './error-definition.ts';

/**
 * Error codes of email templates and their review (issue 5). SendCloud documents the range
 * 40201–40229 for template calls but publishes only a few numbers: 40219 (more than 50 templates)
 * and 40229 (cancelling a review that was never submitted). The other numbers are Herald's picks
 * inside that range. A send naming a missing or unapproved template answers 40823 / 40824.
 */
export const TEMPLATE_ERRORS = {
  TEMPLATE_NOT_FOUND: {
    status: 404,
    sendCloud: 40208,
    'zh-cn': '邮件模板不存在',
    en: 'The email template does not exist',
  },
  TEMPLATE_INVOKE_NAME_TAKEN: {
    status: 400,
    sendCloud: 40213,
    'zh-cn': '调用名称已存在',
    en: 'invokeName is already existed',
  },
  TEMPLATE_LIMIT_REACHED: {
    status: 400,
    sendCloud: 40219,
    'zh-cn': '模板个数最多为{max}个',
    en: 'At most {max} templates per account',
  },
  TEMPLATE_UNDER_REVIEW: {
    status: 400,
    sendCloud: 40221,
    'zh-cn': '模板正在审核中，请先撤销审核再修改',
    en: 'The template is under review; cancel the review before changing it',
  },
  TEMPLATE_ALREADY_PASSED: {
    status: 400,
    sendCloud: 40222,
    'zh-cn': '模板已审核通过，无需再次提交',
    en: 'The template has already passed review',
  },
  TEMPLATE_NOT_REVIEWING: {
    status: 400,
    sendCloud: 40229,
    'zh-cn': '模板还未提交审核, 无法撤销审核',
    en: 'The template is not under review, so its review cannot be cancelled',
  },
  TEMPLATE_REVIEW_NOT_PENDING: {
    status: 409,
    'zh-cn': '该模板不在待审核状态',
    en: 'This template is not awaiting review',
  },
  TEMPLATE_SEND_MISSING: {
    status: 404,
    sendCloud: 40823,
    'zh-cn': '邮件模板不存在',
    en: 'The email template does not exist',
  },
  TEMPLATE_SEND_NOT_APPROVED: {
    status: 400,
    sendCloud: 40824,
    'zh-cn': '邮件模板未审核通过',
    en: 'The email template has not passed review',
  },
  TEMPLATE_OPERATOR_ONLY: {
    status: 403,
    'zh-cn': '仅平台运营人员可以访问',
    en: 'Only platform operators may do this',
  },
} as const satisfies Record<string, ErrorDefinition>;
