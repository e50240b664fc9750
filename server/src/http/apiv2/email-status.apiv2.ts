import { AppError, type EmailStatus, type Lang } from '@herald/shared';
import type { EmailStatusView } from '../../core/email-status/email-status.service.ts';
import type { Apiv2Area } from './apiv2.plugin.ts';
import { idListParam, listParam, monthRange, paging } from './apiv2-data-range.ts';
import { sendCloudTime } from './apiv2-time.ts';
import { DATA_EMAILSTATUS } from './email-status.params.ts';

/**
 * `data/emailStatus` (reference §8, deliver_response.md): email, emailIds (`;`), labelId, days |
 * startDate/endDate (at most one month), apiUserList, start, limit → info{total, voListSize,
 * voList}, in the value types of SendCloud's own sample: `total` a string, `status` the status in
 * words ("投递成功"), `sendLog` the last line of the send log as text. Herald adds what that sample
 * lacks under names of its own: Aurora's numeric status (`statusNum`: 1 delivered, 4 invalid,
 * 5 soft bounce, 18 sending) with its sub-status, and every step of the log (`sendLogs`).
 */
const STATUS_WORDS: Record<Lang, Record<EmailStatus, string>> = {
  'zh-cn': {
    requested: '请求成功',
    sending: '发送中',
    deferred: '发送中',
    held: '发送中',
    delivered: '投递成功',
    soft_bounce: '软退信',
    invalid: '无效邮件',
    deleted: '已删除',
  },
  en: {
    requested: 'requested',
    sending: 'sending',
    deferred: 'sending',
    held: 'sending',
    delivered: 'delivered',
    soft_bounce: 'soft bounce',
    invalid: 'invalid',
    deleted: 'deleted',
  },
};

function logLine(entry: EmailStatusView['sendLog'][number]): string {
  if (entry.event === 'request') return 'request accepted';
  if (entry.event === 'delivered' && !entry.reply) return 'successfully delivered';
  return entry.reply ?? entry.reason ?? entry.event;
}

function describe(row: EmailStatusView, lang: Lang) {
  const last = row.sendLog[row.sendLog.length - 1];
  return {
    emailId: row.emailId,
    messageId: row.messageId,
    status: STATUS_WORDS[lang][row.status],
    statusNum: row.statusCode,
    subStatus: row.subStatus,
    reason: row.reason,
    apiUser: row.apiUser ?? '',
    recipients: row.recipient,
    requestTime: sendCloudTime(row.requestTime),
    modifiedTime: sendCloudTime(row.modifiedTime),
    sendLog: last ? logLine(last) : '',
    sendLogs: row.sendLog.map((entry) => ({
      time: sendCloudTime(entry.at),
      event: entry.event,
      subStatus: entry.subStatus,
      message: logLine(entry),
    })),
  };
}

export const emailStatusApiv2: Apiv2Area = (action, core) => {
  action('data/emailStatus', DATA_EMAILSTATUS, async ({ caller, params, request }) => {
    const f = params.fields;
    const range = monthRange(f);
    const { start, limit } = paging(f);
    const names = listParam(f.apiUserList);
    const apiUserIds = names.length ? await core.emailStatus.apiUserIdsByName(caller, names) : undefined;
    if (apiUserIds && apiUserIds.length === 0) throw new AppError('API_USER_NOT_FOUND');
    const email = f.email?.trim();
    const { rows, total } = await core.emailStatus.find(
      caller,
      {
        ...range,
        emails: email ? [...new Set([email, email.toLowerCase()])] : undefined,
        emailIds: listParam(f.emailIds),
        labelIds: idListParam(f.labelId, 'labelId'),
        apiUserIds,
      },
      start,
      limit,
    );
    return {
      total: String(total),
      voListSize: rows.length,
      voList: rows.map((row) => describe(row, request.lang)),
    };
  });
};
