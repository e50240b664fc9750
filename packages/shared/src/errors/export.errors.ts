import type { ErrorDefinition } from './error-definition.ts';

/**
 * Error codes of offline exports (`/data/dataExportOfflines`, issue 7). A file that is gone
 * (expired, voided or deleted) answers 410, which the console shows (console-spec §8); the
 * account's hide-export flag refuses downloads with 403. Console-only: no SendCloud numbers.
 */
export const EXPORT_ERRORS = {
  EXPORT_NOT_FOUND: {
    status: 404,
    'zh-cn': '离线导出任务不存在',
    en: 'Offline export not found',
  },
  EXPORT_EXPIRED: {
    status: 410,
    'zh-cn': '导出文件已过期（文件保留7天），请重新导出',
    en: 'The export file has expired (files are kept 7 days); please export again',
  },
  EXPORT_VOIDED: {
    status: 410,
    'zh-cn': '该导出已被标记为无效，文件已删除',
    en: 'This export was marked invalid and its file deleted',
  },
  EXPORT_DELETED: {
    status: 410,
    'zh-cn': '该导出已被删除',
    en: 'This export was deleted',
  },
  EXPORT_NOT_READY: {
    status: 409,
    'zh-cn': '导出尚未完成（{progress}%），请稍后再下载',
    en: 'The export is not finished yet ({progress}%); please download it later',
  },
  EXPORT_FAILED: {
    status: 409,
    'zh-cn': '离线导出失败：{reason}',
    en: 'Offline export failed: {reason}',
  },
  EXPORT_NOT_RETRYABLE: {
    status: 409,
    'zh-cn': '只有导出失败的任务可以重试',
    en: 'Only a failed export can be retried',
  },
  EXPORT_NOT_VOIDABLE: {
    status: 409,
    'zh-cn': '该导出已过期或已作废，无需再标记为无效',
    en: 'This export has already expired or been voided',
  },
  EXPORT_TOO_MANY_RUNNING: {
    status: 429,
    'zh-cn': '同时进行的导出最多{max}个，请等待已有导出完成',
    en: 'At most {max} exports can run at once; please wait for one to finish',
  },
  EXPORT_DOWNLOAD_HIDDEN: {
    status: 403,
    'zh-cn': '您的账户已关闭投递数据下载',
    en: 'Downloading delivery data is turned off for this account',
  },
} as const satisfies Record<string, ErrorDefinition>;
