import type { SuppressionEntryView } from '@herald/shared';
import type { Apiv2Area } from './apiv2.plugin.ts';
import { paging } from './apiv2-data-range.ts';
import { sendCloudTime } from './apiv2-time.ts';
import { bounceFilter } from './bounce.apiv2.ts';
import { SPAMREPORTED_LIST } from './spamreported.params.ts';

/** `spamreported/list` (reference §8): days | startDate/endDate | email, start, limit. */
const describe = (row: SuppressionEntryView) => ({
  // SendCloud's sample names the address `receiver` and the time `spamReportedTime`.
  receiver: row.address,
  spamReportedTime: sendCloudTime(row.createdAt),
  email: row.address,
  domain: row.domain,
  reason: row.detail ?? row.reason,
  reportTime: sendCloudTime(row.createdAt),
  expireTime: sendCloudTime(row.expiresAt),
});

export const spamreportedApiv2: Apiv2Area = (action, core) => {
  action('spamreported/list', SPAMREPORTED_LIST, async ({ caller, params }) => {
    const { start, limit } = paging(params.fields);
    const filter = { list: 'spam' as const, ...bounceFilter(params.fields) };
    const { rows, total } = await core.suppressionLists.find(caller, filter, start, limit);
    return { dataList: rows.map(describe), total, count: rows.length };
  });
};
