import type { SuppressionEntryView } from '@herald/shared';
import { AppError, addressEntrySchema } from '@herald/shared';
import type { Apiv2Area } from './apiv2.plugin.ts';
import { idListParam, listParam, paging } from './apiv2-data-range.ts';
import { sendCloudTime } from './apiv2-time.ts';
import { bounceFilter } from './bounce.apiv2.ts';
import { UNSUBSCRIBE_ADD, UNSUBSCRIBE_DELETE, UNSUBSCRIBE_LIST } from './unsubscribe.params.ts';

/**
 * `unsubscribe/list|add|delete` (reference §8): days | startDate/endDate | email, apiUserList,
 * labelIdList. An entry may be scoped to one API_USER and/or label: add takes the first name of
 * `apiUserList` and the first id of `labelIdList` (or `labelId`); none means the whole account.
 */
const describe = (row: SuppressionEntryView) => ({
  email: row.address,
  domain: row.domain,
  // SendCloud answers 0 and the empty name for an entry of the whole account.
  labelId: row.labelId ?? 0,
  apiUser: row.apiUser ?? '',
  unsubscribeTime: sendCloudTime(row.createdAt),
});

export const unsubscribeApiv2: Apiv2Area = (action, core) => {
  const lists = core.suppressionLists;

  async function scopeOf(accountId: number, fields: Record<string, string>) {
    const names = listParam(fields.apiUserList);
    const apiUserIds = names.length ? await lists.apiUserIdsByName({ accountId }, names) : [];
    if (names.length && apiUserIds.length === 0) throw new AppError('API_USER_NOT_FOUND');
    const labelIds = idListParam(fields.labelIdList ?? fields.labelId, 'labelIdList');
    return { apiUserIds, labelIds };
  }

  action('unsubscribe/list', UNSUBSCRIBE_LIST, async ({ caller, params }) => {
    const { start, limit } = paging(params.fields);
    const scope = await scopeOf(caller.accountId, params.fields);
    const filter = { list: 'unsubscribe' as const, ...bounceFilter(params.fields), ...scope };
    const { rows, total } = await lists.find(caller, filter, start, limit);
    return { dataList: rows.map(describe), total, count: rows.length };
  });

  action('unsubscribe/add', UNSUBSCRIBE_ADD, async ({ caller, params }) => {
    const addresses = addressEntrySchema.parse(params.fields.email ?? '');
    const scope = await scopeOf(caller.accountId, params.fields);
    const { added } = await lists.add(
      caller,
      'unsubscribe',
      addresses,
      { apiUserId: scope.apiUserIds[0], labelId: scope.labelIds[0] },
      'apiv2',
    );
    return { count: added };
  });

  action('unsubscribe/delete', UNSUBSCRIBE_DELETE, async ({ caller, params }) => {
    const addresses = addressEntrySchema.parse(params.fields.email ?? '');
    const scope = await scopeOf(caller.accountId, params.fields);
    return { count: await lists.removeAddresses(caller, 'unsubscribe', { addresses, ...scope }) };
  });
};
