import { AppError, type OpenAndClickItem, TRACK_QUERY_MAX_DAYS } from '@herald/shared';
import type { Apiv2Area } from './apiv2.plugin.ts';
import { dataRange, idListParam, listParam, paging } from './apiv2-data-range.ts';
import { sendCloudTime } from './apiv2-time.ts';
import { OPENANDCLICK_LIST } from './openandclick.params.ts';

/**
 * `openandclick/list` (reference §8; SendCloud email_v2/open_or_click.md): days | startDate/endDate
 * | email, trackType 1 open / 2 click, apiUserList, labelId, start, limit. With `email` the time
 * range is not needed (SendCloud ignores it): the address's whole history within the six months
 * Herald keeps queryable. Answers dataList[{email, trackType, url, apiUser, currTime, isMachine}],
 * total, count; `isMachine` (Herald's) marks hits of proxies, scanners and prefetches.
 */
const TRACK_TYPES = { '1': 'open', '2': 'click' } as const;
const CODES = { open: 1, click: 2 } as const;

function invalid(field: string): AppError {
  return new AppError('COMMON_VALIDATION_FAILED', {}, [{ field, message: 'invalid' }]);
}

export const openandclickApiv2: Apiv2Area = (action, core) => {
  const tracks = core.emailTracks;

  action('openandclick/list', OPENANDCLICK_LIST, async ({ caller, params }) => {
    const fields = params.fields;
    const { start, limit } = paging(fields);
    const email = fields.email?.trim().toLowerCase() || undefined;
    const range = email ? null : dataRange(fields);
    if (!email && !range) throw invalid('days');
    const now = Date.now();
    const { from, to } = range ?? { from: now - (TRACK_QUERY_MAX_DAYS - 1) * 86_400_000, to: now };
    let trackType: 'open' | 'click' | undefined;
    if (fields.trackType) {
      trackType = TRACK_TYPES[fields.trackType as keyof typeof TRACK_TYPES];
      if (!trackType) throw invalid('trackType');
    }
    const names = listParam(fields.apiUserList);
    const apiUserIds = names.length ? await tracks.apiUserIdsByName(caller, names) : undefined;
    if (names.length && apiUserIds?.length === 0) throw new AppError('API_USER_NOT_FOUND');
    const labelIds = idListParam(fields.labelId ?? fields.labelIdList, 'labelId');
    const { rows, total } = await tracks.query(
      caller,
      { from, to, email, trackType, apiUserIds, labelIds },
      start,
      limit,
    );
    const dataList = rows.map(
      (r): OpenAndClickItem => ({
        email: r.email,
        trackType: CODES[r.trackType],
        url: r.url ?? '',
        apiUser: r.apiUser,
        currTime: sendCloudTime(r.at),
        isMachine: r.bot,
      }),
    );
    return {
      dataList,
      total,
      count: rows.length,
    };
  });
};
