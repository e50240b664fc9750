import { AppError, BEIJING_OFFSET_MS, beijingClock, type Lang, type SmsTaskView } from '@herald/shared';
import { sendCloudTime } from '../apiv2/domain.apiv2.ts';
import { ok } from '../apiv2/envelope.ts';
import { SMS_TASK_QUERY, SMS_TASK_SEND } from './smsapi.params.ts';
import type { SmsapiActionEntry } from './smsapi.types.ts';

/**
 * SMS tasks over the SMS API (reference §11): `sendContactListTask` names its lists by name and
 * its time as Beijing `yyyy-MM-dd HH:mm:ss`; `queryContactListTask` answers the same shape. Both
 * run the console's task service on the signing SMS_USER's account.
 */
const STATUS_TEXT: Record<SmsTaskView['status'], Record<Lang, string>> = {
  waiting: { 'zh-cn': '等待发送', en: 'Waiting' },
  sending: { 'zh-cn': '发送中', en: 'Sending' },
  finished: { 'zh-cn': '已完成', en: 'Finished' },
  failed: { 'zh-cn': '失败', en: 'Failed' },
  cancelled: { 'zh-cn': '已取消', en: 'Cancelled' },
};

function describeTask(task: SmsTaskView, lang: Lang) {
  return {
    taskId: task.id,
    contactListName: task.contactLists.map((l) => l.name).join(','),
    taskName: task.name,
    senderName: task.signName,
    templateId: task.templateId,
    labelId: task.labelId,
    memberCount: task.memberTotal,
    status: task.status,
    statusDesc: STATUS_TEXT[task.status][lang],
    sentCount: task.queued,
    deliveredCount: task.delivered,
    failedCount: task.failed,
    skippedCount: task.skipped,
    executeTime: sendCloudTime(task.sendAt),
    createTime: sendCloudTime(task.createdAt),
    endTime: task.endedAt === null ? null : sendCloudTime(task.endedAt),
  };
}

/** `yyyy-MM-dd HH:mm:ss` in Beijing time (UTC+8, no summer time) as epoch ms. */
export function beijingTime(text: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text.trim());
  if (!match) throw new AppError('SMS_TASK_TIME_INVALID');
  const [y, mo, d, h, mi, s] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s) - BEIJING_OFFSET_MS;
  const check = beijingClock(ms);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) {
    throw new AppError('SMS_TASK_TIME_INVALID');
  }
  return ms;
}

export const SMS_TASK_ACTIONS: readonly SmsapiActionEntry[] = [
  {
    path: 'sendcontactlisttask',
    docs: SMS_TASK_SEND,
    action: async ({ smsUser, fields, request }, core) => {
      const caller = { accountId: smsUser.accountId };
      const names = (fields.contactListName ?? '')
        .split(/[,;]/)
        .map((n) => n.trim())
        .filter(Boolean);
      if (names.length === 0 || names.length > 5) throw new AppError('SMS_TASK_LISTS_INVALID', { max: 5 });
      const lists = [];
      for (const name of new Set(names)) lists.push(await core.smsContacts.findByName(caller, name));
      const executeTime = fields.executeTime?.trim();
      const task = await core.smsTasks.create(
        caller,
        {
          name: (fields.taskName ?? '').trim(),
          templateId: Number(fields.templateId),
          contactListIds: lists.map((l) => l.id),
          labelId: fields.labelId ? Number(fields.labelId) : undefined,
          signName: fields.senderName?.trim() || undefined,
          scheduled: Boolean(executeTime),
          sendAt: executeTime ? beijingTime(executeTime) : undefined,
        },
        'api',
        request.lang,
      );
      return ok(request.lang, describeTask(task, request.lang));
    },
  },
  {
    path: 'querycontactlisttask',
    docs: SMS_TASK_QUERY,
    action: async ({ smsUser, fields, request }, core) =>
      ok(
        request.lang,
        describeTask(
          await core.smsTasks.get({ accountId: smsUser.accountId }, Number(fields.taskId), request.lang),
          request.lang,
        ),
      ),
  },
];
