import { AppError } from '@herald/shared';
import type { EmailStatusView } from '../../core/email-status/email-status.service.ts';
import type { Apiv2Area } from './apiv2.plugin.ts';
import { idListParam, listParam, monthRange, paging } from './apiv2-data-range.ts';
import { sendCloudTime } from './apiv2-time.ts';

/**
 * `data/emailStatus` (reference §8): email, emailIds (`;`), labelId, days | startDate/endDate
 * (at most one month), apiUserList, start, limit → info{total, voListSize, voList}. Status is
 * Aurora's number (1 delivered, 4 invalid, 5 soft bounce, 18 sending) with its sub-status; the
 * send log is a list of {time, event, subStatus, message}, the request first.
 */
function describe(row: EmailStatusView) {
  return {
    emailId: row.emailId,
    messageId: row.messageId,
    status: row.statusCode,
    subStatus: row.subStatus,
    reason: row.reason,
    apiUser: row.apiUser,
    recipients: row.recipient,
    requestTime: sendCloudTime(row.requestTime),
    modifiedTime: sendCloudTime(row.modifiedTime),
    sendLog: row.sendLog.map((entry) => ({
      time: sendCloudTime(entry.at),
      event: entry.event,
      subStatus: entry.subStatus,
      message: entry.reply ?? entry.reason ?? (entry.event === 'request' ? 'request accepted' : ''),
    })),
  };
}

export const emailStatusApiv2: Apiv2Area = (action, core) => {
  action('data/emailStatus', async ({ caller, params }) => {
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
    return { total, voListSize: rows.length, voList: rows.map(describe) };
  });
};
