import { PERMISSIONS } from '@herald/shared/permissions';
import { SMS_CONTENT_VIEW_DAYS } from '@herald/shared/schemas/sms-content-view.schema';
import { checkSpan } from '@herald/shared/schemas/suppression.schema';
import { SMS_STATUS_CODES, SMS_STATUSES, type SmsStatus } from '@herald/shared/sms-status';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Flex, Form, Input, Select, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { smsLabels } from '../../api/labels.api.ts';
import { fetchSmsStatus, type SmsStatusFilter, type SmsStatusRow } from '../../api/sms-messages.api.ts';
import { Can } from '../../components/Can.tsx';
import { useSessionStore } from '../../stores/session.store.ts';
import { dayRange, when } from '../send-response/email-status/email-status-time.ts';
import { createExport } from '../send-response/offline/offline-exports.api.ts';
import {
  type DayRangeFilter,
  PAGE_SIZE,
  ResponseTable,
  useResponseSearch,
} from '../send-response/search/ResponseSearch.tsx';

interface FilterForm extends DayRangeFilter {
  phone?: string;
  smsId?: string;
  status?: SmsStatus;
  labelId?: number;
}

const COLORS: Record<SmsStatus, string> = {
  requesting: 'processing',
  waiting: 'gold',
  delivered: 'success',
  send_failed: 'error',
  processing_failed: 'volcano',
};

function spanError(start: string, end: string): string | null {
  let message: string | null = null;
  checkSpan(dayRange(start, end), { addIssue: (issue) => (message = issue.message) });
  return message;
}

/**
 * SMS status (console-spec §2 /s_sendResponse/smsStatus): each SMS of a period of at most a month
 * with its state, SendCloud status code and reason, filtered by number, smsId and state.
 */
export default function SmsStatusPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh-cn';
  const search = useResponseSearch<FilterForm>(spanError);
  const { filter, page } = search;
  const query: SmsStatusFilter = useMemo(
    () => ({
      ...(filter.phone ? { phone: filter.phone.trim() } : {}),
      ...(filter.smsId ? { smsId: filter.smsId.trim() } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.labelId ? { labelId: filter.labelId } : {}),
      ...dayRange(filter.start, filter.end),
      page,
      pageSize: PAGE_SIZE,
    }),
    [filter, page],
  );
  const rows = useQuery({
    queryKey: ['smsStatus', query],
    queryFn: () => fetchSmsStatus(query),
    placeholderData: keepPreviousData,
  });
  const labels = useQuery({ queryKey: [smsLabels.key, 'options'], queryFn: smsLabels.options });
  const codeText = (code: number) =>
    SMS_STATUS_CODES[code as keyof typeof SMS_STATUS_CODES]?.[lang] ?? String(code);
  const navigate = useNavigate();
  const hideExport = useSessionStore((state) => state.hideExport);
  const [exporting, setExporting] = useState(false);
  // The whole filtered result as a file, written in the background (/s_sendResponse/offline).
  const exportOffline = async () => {
    const { page: _page, pageSize: _size, ...filters } = query;
    setExporting(true);
    try {
      await createExport({ type: 'smsStatus', ...filters });
      navigate('/s_sendResponse/offline');
    } catch {
      // The client has shown the server's message.
    } finally {
      setExporting(false);
    }
  };

  return (
    <Card className="sms-status-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('smsSend.statusTitle')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('smsSend.statusIntro')}</Typography.Paragraph>
      <Form
        form={search.form}
        layout="inline"
        initialValues={search.initial}
        onFinish={search.search}
        className="sms-status-filters"
      >
        <Form.Item name="phone" label={t('smsSend.phone')}>
          <Input allowClear name="phone" style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="smsId" label={t('smsSend.smsId')}>
          <Input allowClear name="smsId" style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="status" label={t('smsSend.status')}>
          <Select
            allowClear
            style={{ width: 150 }}
            placeholder={t('smsSend.all')}
            options={SMS_STATUSES.map((s) => ({ value: s, label: t(`smsSend.statuses.${s}`) }))}
          />
        </Form.Item>
        <Form.Item name="labelId" label={t('smsSend.label')}>
          <Select
            allowClear
            className="sms-status-label"
            style={{ width: 160 }}
            placeholder={t('smsSend.all')}
            options={labels.data ?? []}
          />
        </Form.Item>
        <Form.Item label={t('smsSend.from')} required>
          <Flex gap={4} align="center">
            <Form.Item name="start" noStyle rules={[{ required: true }]}>
              <Input type="date" name="start" max={search.today} style={{ width: 150 }} />
            </Form.Item>
            –
            <Form.Item name="end" noStyle rules={[{ required: true }]}>
              <Input type="date" name="end" max={search.today} style={{ width: 150 }} />
            </Form.Item>
          </Flex>
        </Form.Item>
        <Form.Item>
          <Flex gap="small">
            <Button type="primary" htmlType="submit" className="sms-status-search">
              {t('smsSend.search')}
            </Button>
            {!hideExport && (
              <Can code={PERMISSIONS.SMS_RESPONSE} level="full">
                <Button className="sms-status-export" loading={exporting} onClick={exportOffline}>
                  {t('exports.exportOffline')}
                </Button>
              </Can>
            )}
          </Flex>
        </Form.Item>
      </Form>
      {search.rangeError && (
        <Alert type="error" showIcon style={{ marginTop: 12 }} title={t('smsSend.spanTooLong')} />
      )}
      <ResponseTable<SmsStatusRow>
        rows={rows}
        rowKey="smsId"
        page={page}
        onPage={search.setPage}
        className="sms-status-table"
        scroll={{ x: 1500 }}
        locale={{
          emptyText: (
            <Empty description={t('smsSend.statusEmpty')}>
              <Link to="/s_sendRelative/test">{t('smsSend.statusEmptyAction')}</Link>
            </Empty>
          ),
        }}
        columns={[
          { title: t('smsSend.phone'), dataIndex: 'phone', width: 150 },
          {
            title: t('smsSend.status'),
            width: 140,
            render: (_, r) => (
              <Tag color={COLORS[r.status]} className={`sms-status-${r.status}`}>
                {t(`smsSend.statuses.${r.status}`)}
              </Tag>
            ),
          },
          {
            title: t('smsSend.reason'),
            width: 220,
            render: (_, r) =>
              r.status === 'delivered' || r.status === 'requesting' || r.status === 'waiting'
                ? '—'
                : `${r.statusCode} ${codeText(r.statusCode)}${r.reason ? ` (${r.reason})` : ''}`,
          },
          {
            title: t('smsSend.content'),
            width: 300,
            ellipsis: true,
            // The server sends the text only while the account's content view allows it.
            render: (_, r) =>
              r.content ?? (
                <Tooltip title={t('smsContent.notShownHint', { days: SMS_CONTENT_VIEW_DAYS })}>
                  <Typography.Text type="secondary" className="sms-content-hidden">
                    {t('smsContent.notShown')}
                  </Typography.Text>
                </Tooltip>
              ),
          },
          { title: t('smsSend.parts'), dataIndex: 'parts', width: 80 },
          { title: 'SMS_USER', render: (_, r) => r.smsUser ?? '—', width: 130 },
          {
            title: t('smsSend.label'),
            width: 130,
            // A deleted label leaves its id on the SMS, without a name.
            render: (_, r) => r.labelName ?? (r.labelId === null ? '—' : `#${r.labelId}`),
          },
          { title: t('smsSend.requestTime'), render: (_, r) => when(r.requestedAt), width: 170 },
          { title: t('smsSend.updateTime'), render: (_, r) => when(r.updatedAt), width: 170 },
        ]}
      />
    </Card>
  );
}
