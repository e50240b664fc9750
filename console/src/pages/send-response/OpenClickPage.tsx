import { PERMISSIONS } from '@herald/shared/permissions';
import { TRACK_QUERY_MAX_MS, TRACK_TYPES, type TrackType } from '@herald/shared/schemas/tracking.schema';
import { validationMessage } from '@herald/shared/validation';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Flex, Form, Input, Result, Select, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchApiUsers } from '../../api/api-users.api.ts';
import { fetchLabelOptions } from '../../api/labels.api.ts';
import {
  type EmailTracksFilter,
  type EmailTrackView,
  exportEmailTracks,
  fetchEmailTracks,
} from '../../api/tracking.api.ts';
import { Can } from '../../components/Can.tsx';
import { useSessionStore } from '../../stores/session.store.ts';
import { dayRange, dayString, when } from './email-status/email-status-time.ts';

interface FilterForm {
  email?: string;
  trackType?: TrackType;
  apiUserId?: number;
  labelId?: number;
  start: string;
  end: string;
}

const PAGE_SIZE = 20;
const DAY_MS = 86_400_000;

/**
 * Opens and clicks (console-spec §2 /sendResponse/openClick): each open or click with its time,
 * address, link, API_USER, the client's IP, browser and system, and whether a machine (an image
 * proxy, a scanner) made it; filtered by date (up to six months back), address, type, API_USER
 * and label; exported as CSV.
 */
export default function OpenClickPage() {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<FilterForm>();
  const today = dayString(Date.now());
  const initial: FilterForm = { start: dayString(Date.now() - 6 * DAY_MS), end: today };
  const [filter, setFilter] = useState<FilterForm>(initial);
  const [page, setPage] = useState(1);
  const [rangeError, setRangeError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const hideExport = useSessionStore((state) => state.hideExport);

  const query: EmailTracksFilter = useMemo(
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
  const apiUsers = useQuery({ queryKey: ['apiUsers', 'list'], queryFn: fetchApiUsers });
  const labels = useQuery({ queryKey: ['labels', 'options'], queryFn: fetchLabelOptions });

  const search = (values: FilterForm) => {
    const { startTime, endTime } = dayRange(values.start, values.end);
    const error =
      endTime < startTime
        ? 'trackRangeOrder'
        : startTime < Date.now() - TRACK_QUERY_MAX_MS
          ? 'trackRangeTooLong'
          : null;
    setRangeError(error);
    if (error) return;
    setPage(1);
    setFilter(values);
  };

  const download = async () => {
    setExporting(true);
    try {
      await exportEmailTracks(query);
    } catch {
      // The client has shown the server's message.
    } finally {
      setExporting(false);
    }
  };

  const client = (name: string | null, version: string | null) =>
    name ? `${name}${version ? ` ${version}` : ''}` : '—';

  return (
    <Card className="open-click-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('tracking.openClickTitle')}
      </Typography.Title>
      <Form
        form={form}
        layout="inline"
        initialValues={initial}
        onFinish={search}
        className="open-click-filters"
      >
        <Form.Item name="email" label={t('tracking.email')}>
          <Input allowClear name="email" style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="trackType" label={t('tracking.trackType')}>
          <Select
            allowClear
            className="open-click-type"
            style={{ width: 120 }}
            placeholder={t('tracking.all')}
            options={TRACK_TYPES.map((type) => ({ value: type, label: t(`tracking.types.${type}`) }))}
          />
        </Form.Item>
        <Form.Item name="apiUserId" label="API_USER">
          <Select
            allowClear
            style={{ width: 160 }}
            placeholder={t('tracking.all')}
            options={(apiUsers.data ?? []).map((u) => ({ value: u.id, label: u.name }))}
          />
        </Form.Item>
        <Form.Item name="labelId" label={t('tracking.label')}>
          <Select
            allowClear
            style={{ width: 140 }}
            placeholder={t('tracking.all')}
            options={labels.data ?? []}
          />
        </Form.Item>
        <Form.Item label={t('tracking.time')} required>
          <Flex gap={4} align="center">
            <Form.Item name="start" noStyle rules={[{ required: true }]}>
              <Input type="date" name="start" max={today} style={{ width: 150 }} />
            </Form.Item>
            –
            <Form.Item name="end" noStyle rules={[{ required: true }]}>
              <Input type="date" name="end" max={today} style={{ width: 150 }} />
            </Form.Item>
          </Flex>
        </Form.Item>
        <Form.Item>
          <Flex gap="small">
            <Button type="primary" htmlType="submit" className="open-click-search">
              {t('tracking.search')}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                setRangeError(null);
                search(initial);
              }}
            >
              {t('tracking.reset')}
            </Button>
            {!hideExport && (
              <Can code={PERMISSIONS.EMAIL_RESPONSE} level="full">
                <Button className="open-click-export" loading={exporting} onClick={download}>
                  {t('tracking.exportCsv')}
                </Button>
              </Can>
            )}
          </Flex>
        </Form.Item>
      </Form>
      {rangeError && (
        <Alert
          type="error"
          showIcon
          className="open-click-range-error"
          style={{ marginTop: 12 }}
          title={validationMessage(rangeError, i18n.language === 'en' ? 'en' : 'zh-cn')}
        />
      )}
      {rows.isError ? (
        <Result status="warning" title={t('common.loadFailed')} />
      ) : (
        <Table<EmailTrackView>
          rowKey="id"
          className="open-click-table"
          style={{ marginTop: 16 }}
          loading={rows.isFetching}
          dataSource={rows.data?.data ?? []}
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: rows.data?.total ?? 0,
            showSizeChanger: false,
            hideOnSinglePage: true,
            onChange: setPage,
          }}
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
                    <Tag color="default" className="open-click-bot">
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
      )}
    </Card>
  );
}
