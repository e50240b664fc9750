import type { SuppressionEntryView } from '@herald/shared';
import { isSuppressibleAddress } from '@herald/shared';
import type { Apiv2Area } from './apiv2.plugin.ts';
import { dataRange, listParam, paging } from './apiv2-data-range.ts';
import { sendCloudTime } from './apiv2-time.ts';
import { BOUNCE_COUNT, BOUNCE_DELETE, BOUNCE_LIST } from './bounce.params.ts';

/** `bounce/list|count|delete` (reference §8): days | startDate/endDate | email, start, limit. */
export function bounceFilter(fields: Record<string, string>) {
  const range = dataRange(fields);
  const addresses = listParam(fields.email).map((a) => a.toLowerCase());
  return { from: range?.from, to: range?.to, addresses: addresses.length ? addresses : undefined };
}

const describe = (row: SuppressionEntryView) => ({
  email: row.address,
  reason: row.detail ?? row.reason,
  bounceTime: sendCloudTime(row.createdAt),
  domain: row.domain,
});

export const bounceApiv2: Apiv2Area = (action, core) => {
  const lists = core.suppressionLists;

  action('bounce/list', BOUNCE_LIST, async ({ caller, params }) => {
    const { start, limit } = paging(params.fields);
    const filter = { list: 'bounce' as const, ...bounceFilter(params.fields) };
    const { rows, total } = await lists.find(caller, filter, start, limit);
    return { dataList: rows.map(describe), total, count: rows.length };
  });

  action('bounce/count', BOUNCE_COUNT, async ({ caller, params }) => ({
    count: await lists.count(caller, { list: 'bounce', ...bounceFilter(params.fields) }),
  }));

  /** Deletes the named addresses (`email`, `;`-separated); without one, every entry of the range. */
  action('bounce/delete', BOUNCE_DELETE, async ({ caller, params }) => {
    const filter = bounceFilter(params.fields);
    const addresses = filter.addresses?.filter(isSuppressibleAddress);
    if (addresses) return { count: await lists.removeAddresses(caller, 'bounce', { addresses }) };
    const { rows } = await lists.find(caller, { list: 'bounce', ...filter }, 0, 100_000);
    const ids = rows.map((r) => r.id);
    return { count: await lists.removeAddresses(caller, 'bounce', { ids }) };
  });
};
