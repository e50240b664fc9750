import type { RuleMessages } from './error-definition.ts';

/**
 * Field-rule messages of email address lists and their members: the form's and the API's, and
 * the reasons an import gives for each line it could not take (its error report).
 */
export const ADDRESS_LIST_RULES = {
  addressListName: {
    'zh-cn': '请输入列表名称，最多64个字符',
    en: 'Enter a list name of at most 64 characters',
  },
  addressListDescription: {
    'zh-cn': '描述最多200个字符',
    en: 'The description has at most 200 characters',
  },
  addressListPrefix: {
    'zh-cn': '别称地址前缀为1-48位字母、数字或下划线',
    en: 'The alias prefix is 1-48 letters, digits or underscores',
  },
  addressMemberAddress: { 'zh-cn': '邮件地址格式错误', en: 'Invalid email format' },
  addressMemberName: { 'zh-cn': '姓名最多64个字符', en: 'A name has at most 64 characters' },
  addressMemberVarName: {
    'zh-cn': '变量名为1-32位字母、数字、下划线、点或连字符',
    en: 'A variable name is 1-32 letters, digits, underscores, dots or hyphens',
  },
  addressMemberVarValue: {
    'zh-cn': '变量值最多1000个字符',
    en: 'A variable value has at most 1000 characters',
  },
  addressMemberVarsTooMany: { 'zh-cn': '最多10个自定义变量', en: 'At most 10 custom variables' },
  addressMemberDuplicateInFile: {
    'zh-cn': '文件中地址重复',
    en: 'The address appears earlier in the file',
  },
  addressMemberAlreadyInList: { 'zh-cn': '地址已在列表中', en: 'The address is already in the list' },
} as const satisfies RuleMessages;
