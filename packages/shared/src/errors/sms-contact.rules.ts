import type { RuleMessages } from './error-definition.ts';

/**
 * Field-rule messages of contact lists and members: the form's and the API's, and the reasons
 * an import gives for each line it could not take (its error report).
 */
export const SMS_CONTACT_RULES = {
  smsContactListName: {
    'zh-cn': '请输入列表名称，最多64个字符',
    en: 'Enter a list name of at most 64 characters',
  },
  smsContactDescription: {
    'zh-cn': '描述最多200个字符',
    en: 'The description has at most 200 characters',
  },
  smsContactName: { 'zh-cn': '姓名最多64个字符', en: 'A name has at most 64 characters' },
  smsContactPhone: {
    'zh-cn': '手机号格式错误（国际号码请带国家码，如+1）',
    en: 'Invalid mobile number (international numbers need their country code, e.g. +1)',
  },
  smsContactVarName: {
    'zh-cn': '变量名为1-32位字母、数字或下划线',
    en: 'A variable name is 1-32 letters, digits or underscores',
  },
  smsContactVarValue: {
    'zh-cn': '变量值最多32个字符，且不能含链接',
    en: 'A variable value has at most 32 characters and no link',
  },
  smsContactVarsTooMany: { 'zh-cn': '最多10个自定义变量', en: 'At most 10 custom variables' },
  smsContactDuplicateInFile: { 'zh-cn': '文件中号码重复', en: 'The number appears earlier in the file' },
  smsContactAlreadyInList: { 'zh-cn': '号码已在列表中', en: 'The number is already in the list' },
  /** Any list's import (list-rows.ts): a line longer than the reader keeps. */
  listImportLineTooLong: { 'zh-cn': '该行过长', en: 'The line is too long' },
} as const satisfies RuleMessages;
