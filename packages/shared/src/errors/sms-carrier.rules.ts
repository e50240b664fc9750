import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of SMS carriers and routes (/admin/smsCarriers), used by their shared schema. */
export const SMS_CARRIER_RULES = {
  smsCarrierName: {
    'zh-cn': '通道名称为1-32位字母、数字、下划线、点或横线',
    en: 'The carrier name must be 1-32 letters, digits, underscores, dots or hyphens',
  },
  smsCarrierUrl: {
    'zh-cn':
      '地址应为 smpp://主机:端口、cmpp://主机:端口 、彩信的 mm7://主机:端口/路径（HTTPS 为 mm7s://）或语音的 sip://主机:端口，可带参数（如 ?version=3.0），不含用户名和密码',
    en: 'The address must be smpp://host:port, cmpp://host:port or, for MMS, mm7://host:port/path (mm7s:// for HTTPS) or, for voice, sip://host:port, optionally with a query (e.g. ?version=3.0), without a user name or password',
  },
  smsCarrierConnections: {
    'zh-cn': '连接数（connections）应为1-16的整数',
    en: 'connections must be a whole number from 1 to 16',
  },
  smsRouteCountry: {
    'zh-cn': '国家代码应为两位字母（ISO 3166）或*',
    en: 'The country must be two letters (ISO 3166) or *',
  },
  smsRoutePrefix: {
    'zh-cn': '号段前缀应为最多15位数字',
    en: 'The prefix must be at most 15 digits',
  },
} as const satisfies RuleMessages;
