import { PERMISSIONS } from '@herald/shared/permissions';
import { checkSpan, EMAIL_STATUSES, type EmailStatus } from '@herald/shared/schemas/suppression.schema';
import { validationMessage } from '@herald/shared/validation';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Flex, Form, Input, Result, Select, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { fetchApiUsers } from '../../api/api-users.api.ts';
import { type EmailStatusFilter, type EmailStatusRow, fetchEmailStatus } from '../../api/email-status.api.ts';
import { fetchLabelOptions } from '../../api/labels.api.ts';
import { Can } from '../../components/Can.tsx';
import { useSessionStore } from '../../stores/session.store.ts';
import { EmailStatusDrawer } from './email-status/EmailStatusDrawer.tsx';
import { EmailStatusTag, useReasonText } from './email-status/EmailStatusTag.tsx';
import { dayRange, dayString, when } from './email-status/email-status-time.ts';
import { createExport } from './offline/offline-exports.api.ts';

interface FilterForm {
  email?: string;
  emailId?: string;
  apiUserId?: number;
  labelId?: number;
  status?: EmailStatus;
  start: string;
  end: string;
}

const PAGE_SIZE = 20;

/** The span rule of the shared schema, checked before asking (product-spec §5: at most one month). */
function spanError(start: string, end: string): string | null {
  let message: string | null = null;
  checkSpan(dayRange(start, end), { addIssue: (issue) => (message = issue.message) });
  return message;
}

/**
 * Email status (console-spec §2 /sendResponse/emailStatus): each recipient's status, reason and
 * sub-status over at most one month, filtered by address, emailId, API_USER, label and status;
 * a row opens its send log.
 */
export default function EmailStatusPage() {
  const { t, i18n } = useTranslation();
  const reasonText = useReasonText();
  const [form] = Form.useForm<FilterForm>();
  const today = dayString(Date.now());
  const initial: FilterForm = { start: dayString(Date.now() - 6 * 86_400_000), end: today };
  const [filter, setFilter] = useState<FilterForm>(initial);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<EmailStatusRow | null>(null);
  const [rangeError, setRangeError] = useState<string | null>(null);
  const navigate = useNavigate();
  const hideExport = useSessionStore((state) => state.hideExport);
  const [exporting, setExporting] = useState(false);
  // The whole filtered result as a file, written in the background (/sendResponse/offline).
  const exportOffline = async () => {
    const { page: _page, pageSize: _size, ...filters } = query;
    setExporting(true);
    try {
      await createExport({ type: 'emailStatus', ...filters });
      navigate('/sendResponse/offline');
    } catch {
      // The client has shown the server's message.
    } finally {
      setExporting(false);
    }
  };

  const query: EmailStatusFilter = useMemo(
    () => ({
      ...(filter.email ? { email: filter.email.trim() } : {}),
      ...(filter.emailId ? { emailId: filter.emailId.trim() } : {}),
      ...(filter.apiUserId ? { apiUserId: filter.apiUserId } : {}),
      ...(filter.labelId ? { labelId: filter.labelId } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      ...dayRange(filter.start, filter.end),
      page,
      pageSize: PAGE_SIZE,
    }),
    [filter, page],
  );
  const rows = useQuery({
    queryKey: ['emailStatus', query],
    queryFn: () => fetchEmailStatus(query),
    placeholderData: keepPreviousData,
  });
  const apiUsers = useQuery({ queryKey: ['apiUsers', 'list'], queryFn: fetchApiUsers });
  const labels = useQuery({ queryKey: ['labels', 'options'], queryFn: fetchLabelOptions });

  const search = (values: FilterForm) => {
    const error = spanError(values.start, values.end);
    setRangeError(error);
    if (error) return;
    setPage(1);
    setFilter(values);
  };

  return (
    <Card className="email-status-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('emailStatus.title')}
      </Typography.Title>
      <Form
        form={form}
        layout="inline"
        initialValues={initial}
        onFinish={search}
        className="email-status-filters"
      >
        <Form.Item name="email" label={t('emailStatus.email')}>
          <Input allowClear name="email" style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="emailId" label={t('emailStatus.emailId')}>
          <Input allowClear name="emailId" style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="apiUserId" label={t('emailStatus.apiUser')}>
          <Select
            allowClear
            style={{ width: 160 }}
            placeholder={t('emailStatus.all')}
            options={(apiUsers.data ?? []).map((u) => ({ value: u.id, label: u.name }))}
          />
        </Form.Item>
        <Form.Item name="labelId" label={t('emailStatus.label')}>
          <Select
            allowClear
            style={{ width: 140 }}
            placeholder={t('emailStatus.all')}
            options={labels.data ?? []}
          />
        </Form.Item>
        <Form.Item name="status" label={t('emailStatus.status')}>
          <Select
            allowClear
            style={{ width: 130 }}
            placeholder={t('emailStatus.all')}
            options={EMAIL_STATUSES.map((s) => ({ value: s, label: t(`emailStatus.statuses.${s}`) }))}
          />
        </Form.Item>
        <Form.Item label={t('emailStatus.time')} required>
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
            <Button type="primary" htmlType="submit" className="email-status-search">
              {t('emailStatus.search')}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                setRangeError(null);
                search(initial);
              }}
            >
              {t('emailStatus.reset')}
            </Button>
            {!hideExport && (
              <Can code={PERMISSIONS.EMAIL_RESPONSE} level="full">
                <Button className="email-status-export" loading={exporting} onClick={exportOffline}>
                  {t('exports.exportOffline')}
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
          className="email-status-range-error"
          style={{ marginTop: 12 }}
          title={validationMessage(rangeError, i18n.language === 'en' ? 'en' : 'zh-cn')}
        />
      )}
      {rows.isError ? (
        <Result status="warning" title={t('common.loadFailed')} />
      ) : (
        <Table<EmailStatusRow>
          rowKey="id"
          className="email-status-table"
          style={{ marginTop: 16 }}
          loading={rows.isFetching}
          dataSource={rows.data?.data ?? []}
          onRow={(row) => ({ onClick: () => setOpen(row), style: { cursor: 'pointer' } })}
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: rows.data?.total ?? 0,
            showSizeChanger: false,
            hideOnSinglePage: true,
            onChange: setPage,
          }}
          locale={{ emptyText: <Empty description={t('emailStatus.empty')} /> }}
          scroll={{ x: 1000 }}
          columns={[
            { title: t('emailStatus.email'), dataIndex: 'recipient' },
            { title: t('emailStatus.status'), render: (_, r) => <EmailStatusTag status={r.status} /> },
            {
              title: t('emailStatus.reason'),
              render: (_, r) => (
                <>
                  {reasonText(r.reason)}
                  {r.subStatus ? <Tag style={{ marginInlineStart: 8 }}>{r.subStatus}</Tag> : null}
                </>
              ),
            },
            { title: t('emailStatus.subject'), dataIndex: 'subject', ellipsis: true },
            { title: t('emailStatus.apiUser'), render: (_, r) => r.apiUser ?? '—' },
            { title: t('emailStatus.requestTime'), render: (_, r) => when(r.requestTime) },
            { title: t('emailStatus.modifiedTime'), render: (_, r) => when(r.modifiedTime) },
            {
              title: t('emailStatus.details'),
              render: (_, r) => (
                <Button type="link" className="email-status-open" onClick={() => setOpen(r)}>
                  {t('emailStatus.details')}
                </Button>
              ),
            },
          ]}
        />
      )}
      <EmailStatusDrawer row={open} onClose={() => setOpen(null)} />
    </Card>
  );
}
