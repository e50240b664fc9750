import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of gateway users (CMPP_USERs and SMPP system ids), used by their shared schema. */
export const SMS_GATEWAY_RULES = {
  smsGatewayCmppName: {
    'zh-cn': 'CMPP_USER为6位字母或数字',
    en: 'A CMPP_USER is exactly 6 letters or digits',
  },
  smsGatewaySmppName: {
    'zh-cn': 'SMPP system_id为1-15位可见字符，不含空格',
    en: 'An SMPP system_id is 1-15 visible characters without spaces',
  },
  smsGatewayIpFormat: {
    'zh-cn': 'IP格式错误：每行填写一个IP、IP段（如 1.2.3.4-1.2.3.9）或CIDR（如 1.2.3.0/24）',
    en: 'Invalid address: one IP, range (e.g. 1.2.3.4-1.2.3.9) or CIDR (e.g. 1.2.3.0/24) per line',
  },
  smsGatewayIpTooMany: {
    'zh-cn': '最多填写20个允许的IP',
    en: 'At most 20 allowed addresses',
  },
  smsGatewayWindow: {
    'zh-cn': '窗口为1-256之间的整数',
    en: 'The window is a whole number from 1 to 256',
  },
  smsGatewayPerSecond: {
    'zh-cn': '每秒条数为1-10000之间的整数',
    en: 'Messages per second is a whole number from 1 to 10000',
  },
} as const satisfies RuleMessages;
