import { INVALID_STAT_REASONS } from '@herald/shared';
import type { Apiv2Area } from './apiv2.plugin.ts';
import { isAggregate, statFilter } from './stat.apiv2.ts';
import { INVALIDSTAT_LIST } from './stat.params.ts';

/**
 * `invalidstat/list` (reference §8): invalid mail by reason (SendCloud's names, `ubsubscribe`
 * and `espUnvaliable` spelled as SendCloud does) per day × API_USER × label × receiving domain,
 * or one object of totals with `aggregate=1`. Parameters as statday/list.
 */
export const invalidstatApiv2: Apiv2Area = (action, core) => {
  const stats = core.statistics;

  action('invalidstat/list', INVALIDSTAT_LIST, async ({ caller, params }) => {
    const filter = await statFilter(core, caller.accountId, params.fields);
    const aggregate = isAggregate(params.fields);
    const rows = await stats.apiRows(caller, filter, { invalid: true, aggregate });
    if (aggregate) {
      const zero = Object.fromEntries(INVALID_STAT_REASONS.map((r) => [r.key, 0]));
      return { data: { ...zero, ...rows[0]?.reasons } };
    }
    const dataList = rows
      .filter((r) => r.counters.invalid > 0)
      .map((r) => ({
        sendDate: r.day,
        apiUser: r.apiUser,
        labelId: r.labelId ?? 0,
        labelName: r.labelName || null,
        domain: r.domain,
        ...r.reasons,
        // SendCloud's field list says spamEmails, its sample spamEmail: both are given.
        spamEmail: r.reasons.spamEmails ?? 0,
      }));
    return { dataList, count: dataList.length };
  });
};
