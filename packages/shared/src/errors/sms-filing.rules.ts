import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of the SMS filing and the certification mark. */
export const SMS_FILING_RULES = {
  smsFilingCommitmentRequired: {
    'zh-cn': '请上传承诺书（jpg、png 或 pdf，一个文件）',
    en: 'Upload the commitment book (one jpg, png or pdf file)',
  },
  certificationChoice: {
    'zh-cn': '认证状态只能是未认证、个人认证或企业认证',
    en: 'The certification must be none, personal or enterprise',
  },
} as const satisfies RuleMessages;
