import type { ErrorDefinition } from './error-definition.ts';

/**
 * Error codes of the email data centre (issue 7): statistics, the receiving-domain monitor's
 * thresholds. SendCloud documents no codes for these, so none carries a `sendCloud` number.
 */
export const STATISTICS_ERRORS = {
  STAT_MONITOR_CONFIG_NOT_FOUND: {
    status: 404,
    'zh-cn': '监控配置不存在',
    en: 'Monitor setting not found',
  },
  STAT_MONITOR_CONFIG_DUPLICATE: {
    status: 422,
    'zh-cn': '已为收件域名 {name} 设置过监控阈值',
    en: 'A monitor threshold for {name} exists already',
  },
  STAT_MONITOR_CONFIG_LIMIT: {
    status: 400,
    'zh-cn': '最多设置 {max} 个收件域名的监控阈值',
    en: 'At most {max} receiving domains can be monitored',
  },
} as const satisfies Record<string, ErrorDefinition>;
