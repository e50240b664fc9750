import { TRACK_QUERY_MAX_MS, TRACK_TYPES, type TrackType } from '@herald/shared/schemas/tracking.schema';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Empty, Flex, Form, Select, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type EmailTracksParams,
  type EmailTrackView,
  exportEmailTracks,
  fetchEmailTracks,
} from '../../api/tracking.api.ts';
import { dayRange, when } from './email-status/email-status-time.ts';
import {
  type DayRangeFilter,
  PAGE_SIZE,
  ResponseFilters,
  ResponseTable,
  useResponseSearch,
} from './search/ResponseSearch.tsx';

interface FilterForm extends DayRangeFilter {
  trackType?: TrackType;
}

/** Not before the start, and not further back than tracks are kept. */
function rangeRule(start: string, end: string): string | null {
  const { startTime, endTime } = dayRange(start, end);
  return endTime < startTime
    ? 'trackRangeOrder'
    : startTime < Date.now() - TRACK_QUERY_MAX_MS
      ? 'trackRangeTooLong'
      : null;
}

/**
 * Opens and clicks (console-spec §2 /sendResponse/openClick): each open or click with its time,
 * address, link, API_USER, the client's IP, browser and system, and whether a machine (an image
 * proxy, a scanner) made it; filtered by date (up to six months back), address, type, API_USER
 * and label; exported as CSV.
 */
export default function OpenClickPage() {
  const { t } = useTranslation();
  const search = useResponseSearch<FilterForm>(rangeRule);
  const { filter, page } = search;

  const query: EmailTracksParams = useMemo(
    () => ({
      ...(filter.email ? { email: filter.email.trim() } : {}),
      ...(filter.trackType ? { trackType: filter.trackType } : {}),
      ...(filter.apiUserId ? { apiUserId: filter.apiUserId } : {}),
      ...(filter.labelId ? { labelId: filter.labelId } : {}),
      ...dayRange(filter.start, filter.end),
    }),
    [filter],
  );
  const rows = useQuery({
    queryKey: ['emailTracks', query, page],
    queryFn: () => fetchEmailTracks({ ...query, page, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });

  const client = (name: string | null, version: string | null) =>
    name ? `${name}${version ? ` ${version}` : ''}` : '—';

  return (
    <Card className="open-click-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('tracking.openClickTitle')}
      </Typography.Title>
      <ResponseFilters
        search={search}
        area="tracking"
        prefix="open-click"
        afterEmail={
          <Form.Item name="trackType" label={t('tracking.trackType')}>
            <Select
              allowClear
              className="open-click-type"
              style={{ width: 120 }}
              placeholder={t('tracking.all')}
              options={TRACK_TYPES.map((type) => ({ value: type, label: t(`tracking.types.${type}`) }))}
            />
          </Form.Item>
        }
        exportLabel={t('tracking.exportCsv')}
        onExport={() => exportEmailTracks(query)}
      />
      <ResponseTable<EmailTrackView>
        rows={rows}
        page={page}
        onPage={search.setPage}
        className="open-click-table"
        locale={{ emptyText: <Empty description={t('tracking.openClickEmpty')} /> }}
        scroll={{ x: 1200 }}
        columns={[
          { title: t('tracking.time'), render: (_, r) => when(r.at) },
          {
            title: t('tracking.trackType'),
            render: (_, r) => (
              <Tag color={r.trackType === 'open' ? 'blue' : 'purple'}>
                {t(`tracking.types.${r.trackType}`)}
              </Tag>
            ),
          },
          { title: t('tracking.email'), dataIndex: 'email' },
          { title: t('tracking.url'), render: (_, r) => r.url ?? '—', ellipsis: true },
          { title: 'API_USER', render: (_, r) => r.apiUser ?? '—' },
          { title: 'IP', render: (_, r) => r.ip ?? '—' },
          { title: t('tracking.browser'), render: (_, r) => client(r.explorerName, r.explorerVer) },
          { title: t('tracking.os'), render: (_, r) => client(r.oSName, r.oSVer) },
          {
            title: t('tracking.visitor'),
            render: (_, r) => (
              <Flex gap={4} wrap>
                {r.bot ? (
                  <Tag color="default" className="open-click-bot" title={t('tracking.botHint')}>
                    {t('tracking.bot')}
                  </Tag>
                ) : (
                  <Tag color="green">{t('tracking.person')}</Tag>
                )}
                {r.first && <Tag color="gold">{t('tracking.first')}</Tag>}
              </Flex>
            ),
          },
        ]}
      />
    </Card>
  );
}
