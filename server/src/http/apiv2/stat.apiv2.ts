import { AppError, addDays, type StatCounters, statRates, zeroCounters } from '@herald/shared';
import type { Core } from '../../compose.ts';
import type { RollupFilter } from '../../core/statistics/statistics.repo.ts';
import type { Apiv2Area } from './apiv2.plugin.ts';
import { idListParam, listParam } from './apiv2-data-range.ts';
import { STATDAY_LIST, STATHOUR_LIST } from './stat.params.ts';

/**
 * `statday/list` and `stathour/list` (reference §8): figures per day (statday: × API_USER ×
 * label × receiving domain; stathour: × hour × API_USER × label), or one object of totals with
 * `aggregate=1`. Dates: `days` (1 = today) or `startDate`/`endDate`, Asia/Shanghai days, at most
 * 6 months back (hours: a week); `apiUserList`, `labelIdList`, `domainList` filter.
 */
export async function statFilter(
  core: Core,
  accountId: number,
  fields: Record<string, string>,
  hourly = false,
): Promise<RollupFilter> {
  const stats = core.statistics;
  const today = stats.today();
  let range = { from: fields.startDate || today, to: fields.endDate || fields.startDate || today };
  if (fields.days) {
    const days = Number(fields.days);
    if (!Number.isInteger(days) || days < 1) {
      throw new AppError('COMMON_VALIDATION_FAILED', {}, [{ field: 'days', message: 'invalid' }]);
    }
    range = { from: addDays(today, 1 - days), to: today };
  }
  const q = stats.parseQuery({ ...range, groupBy: hourly ? 'hour' : 'day' });
  const names = listParam(fields.apiUserList);
  const apiUserIds = names.length ? await stats.apiUserIds({ accountId }, names) : undefined;
  return {
    from: q.from,
    to: q.to,
    // A named API_USER of another account matches nothing rather than everything.
    apiUserIds: apiUserIds && apiUserIds.length === 0 ? [-1] : apiUserIds,
    labelIds: idListParam(fields.labelIdList, 'labelIdList'),
    domains: listParam(fields.domainList).map((d) => d.toLowerCase()),
  };
}

export const isAggregate = (fields: Record<string, string>) =>
  fields.aggregate === '1' || fields.aggregate === 'true';

/** SendCloud's figure names and percentages. */
export function sendCloudFigures(c: StatCounters) {
  const r = statRates(c);
  return {
    requestNum: c.requested,
    deliveredNum: c.delivered,
    clickNum: c.clicked,
    openNum: c.opened,
    bounceNum: c.softBounced,
    spamReportedNum: c.spamReported,
    unsubscribeNum: c.unsubscribed,
    uniqueOpensNum: c.uniqueOpened,
    uniqueClicksNum: c.uniqueClicked,
    invalidEmailsNum: c.invalid,
    deliveredPercent: r.deliveredRate,
    clickPercent: r.clickRate,
    openPercent: r.openRate,
    bouncePercent: r.softBounceRate,
    spamReportedPercent: r.spamReportedRate,
    unsubscribePercent: r.unsubscribeRate,
    uniqueOpensPercent: r.uniqueOpenRate,
    uniqueClicksPercent: r.uniqueClickRate,
    invalidEmailsPercent: r.invalidRate,
  };
}

/**
 * The totals as SendCloud's own sample of `aggregate=1` shows them (stats_do.md): under
 * `dataList`, the counts as strings, and also under the sample's shorter names
 * (`uniqueOpenNum`, `uniqueClickNum`, `invalidEmailNum`). Herald's `data` keeps numbers.
 */
export function sendCloudTotals(
  figures: ReturnType<typeof sendCloudFigures>,
): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(figures))
    out[name] = name.endsWith('Num') ? String(value) : value;
  out.uniqueOpenNum = String(figures.uniqueOpensNum);
  out.uniqueClickNum = String(figures.uniqueClicksNum);
  out.invalidEmailNum = String(figures.invalidEmailsNum);
  return out;
}

export const statApiv2: Apiv2Area = (action, core) => {
  const stats = core.statistics;

  for (const [path, hourly] of [
    ['statday/list', false],
    ['stathour/list', true],
  ] as const) {
    action(path, hourly ? STATHOUR_LIST : STATDAY_LIST, async ({ caller, params }) => {
      const filter = await statFilter(core, caller.accountId, params.fields, hourly);
      if (hourly) filter.domains = undefined;
      const aggregate = isAggregate(params.fields);
      const rows = await stats.apiRows(caller, filter, { hourly, aggregate });
      if (aggregate) {
        const data = sendCloudFigures(rows[0]?.counters ?? zeroCounters());
        return { data, dataList: sendCloudTotals(data) };
      }
      const dataList = rows.map((r) => ({
        sendDate: r.day,
        ...(hourly ? { sendHour: r.hour } : {}),
        apiUser: r.apiUser,
        labelId: r.labelId ?? 0,
        labelName: r.labelName || null,
        ...(hourly ? {} : { domain: r.domain }),
        ...sendCloudFigures(r.counters),
      }));
      return { dataList, count: dataList.length };
    });
  }
};
