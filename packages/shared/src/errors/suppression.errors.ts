import type { ErrorDefinition } from './error-definition.ts';

/**
 * Error codes of the suppression lists, custom interception rules and email status (issue 6).
 * SendCloud documents no numbers for its data calls' failures, so these answer /apiv2 with the
 * nearest general code (400 or 404, see envelope.ts).
 */
export const SUPPRESSION_ERRORS = {
  SUPPRESSION_ENTRY_NOT_FOUND: {
    status: 404,
    'zh-cn': '该地址不在列表中',
    en: 'The address is not on the list',
  },
  SUPPRESSION_RULE_NOT_FOUND: {
    status: 404,
    'zh-cn': '拦截规则不存在',
    en: 'Interception rule not found',
  },
  SUPPRESSION_RULE_TAKEN: {
    status: 422,
    'zh-cn': '相同的拦截规则已存在',
    en: 'The same interception rule already exists',
  },
  SUPPRESSION_IMPORT_EMPTY: {
    status: 400,
    'zh-cn': '上传文件为空',
    en: 'Uploaded file is empty',
  },
  SUPPRESSION_IMPORT_FORMAT: {
    status: 400,
    'zh-cn': '文件格式错误，请上传 txt 或 csv 文件',
    en: 'The file format is wrong: upload a txt or csv file',
  },
  SUPPRESSION_IMPORT_TOO_LARGE: {
    status: 400,
    'zh-cn': '文件超出大小，最大 {max} KB',
    en: 'Files exceed size, up to {max} KB',
  },
  SUPPRESSION_IMPORT_LINE_TOO_LONG: {
    status: 400,
    'zh-cn': '第{line}行超过{max}个地址（每条最多{max}个，以分号分隔）',
    en: 'Line {line} has more than {max} addresses (at most {max} per entry, separated by semicolons)',
  },
  EMAIL_STATUS_SPAN_TOO_LONG: {
    status: 400,
    'zh-cn': '查询时间跨度不能超过一个月',
    en: 'Query time span cannot exceed one month',
  },
  EMAIL_STATUS_NOT_FOUND: {
    status: 404,
    'zh-cn': '邮件不存在',
    en: 'Email not found',
  },
} as const satisfies Record<string, ErrorDefinition>;
