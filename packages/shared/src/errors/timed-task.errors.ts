import type { ErrorDefinition } from './error-definition.ts';

/**
 * Timed tasks (issue 21; console `/sendRelative/timedTask*`, calls `/task/taskTemplates`). The
 * texts of the time and file rules are product-spec §8's.
 */
export const TIMED_TASK_ERRORS = {
  TIMED_TASK_NOT_FOUND: {
    status: 404,
    'zh-cn': '定时任务不存在',
    en: 'The timed task does not exist',
  },
  TIMED_TASK_TIME_PAST: {
    status: 400,
    'zh-cn': '计划时间不能早于当前时间',
    en: 'Planned time cannot be before the current time',
  },
  TIMED_TASK_NOT_CHANGEABLE: {
    status: 409,
    'zh-cn': '任务已开始，不能再修改或取消',
    en: 'The task has started and can no longer be changed or cancelled',
  },
  TIMED_TASK_NOT_DELETABLE: {
    status: 409,
    'zh-cn': '任务的邮件正在发送，发送结束后才能删除',
    en: 'The task’s mail is being sent: delete it once the sending has ended',
  },
  TIMED_TASK_API_USER: {
    status: 422,
    'zh-cn': '请选择本账号的批量 API_USER',
    en: 'Choose a batch API_USER of this account',
  },
  TIMED_TASK_TEMPLATE_NOT_FOUND: {
    status: 422,
    'zh-cn': '所选模板不存在',
    en: 'The chosen template does not exist',
  },
  TIMED_TASK_FILE_MISSING: {
    status: 400,
    'zh-cn': '请选择要上传的文件',
    en: 'Choose a file to upload',
  },
  TIMED_TASK_FILE_EMPTY: {
    status: 400,
    'zh-cn': '上传文件为空',
    en: 'Uploaded file is empty',
  },
  TIMED_TASK_FILE_TYPE: {
    status: 400,
    'zh-cn': '文件格式错误：不允许上传 js、com、exe、sh、cs 文件',
    en: 'The file format is wrong: js, com, exe, sh and cs files are not allowed',
  },
  TIMED_TASK_FILES_TOO_MANY: {
    status: 400,
    'zh-cn': '附件最多{max}个',
    en: 'At most {max} attachments',
  },
  TIMED_TASK_FILES_TOO_LARGE: {
    status: 400,
    'zh-cn': '文件总大小不能超过50M',
    en: 'The total file size should not exceed 50M',
  },
  TIMED_TASK_FILE_NOT_FOUND: {
    status: 404,
    'zh-cn': '附件不存在，请重新上传',
    en: 'The attachment does not exist: upload it again',
  },
} as const satisfies Record<string, ErrorDefinition>;
