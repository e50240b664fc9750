import { checkSpan, EMAIL_STATUSES, type EmailStatus } from '@herald/shared/schemas/suppression.schema';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Form, Input, Select, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type EmailStatusFilter, type EmailStatusRow, fetchEmailStatus } from '../../api/email-status.api.ts';
import { EmailStatusDrawer } from './email-status/EmailStatusDrawer.tsx';
import { EmailStatusTag, useReasonText } from './email-status/EmailStatusTag.tsx';
import { dayRange, when } from './email-status/email-status-time.ts';
import { createExport } from './offline/offline-exports.api.ts';
import {
  type DayRangeFilter,
  PAGE_SIZE,
  ResponseFilters,
  ResponseTable,
  useResponseSearch,
} from './search/ResponseSearch.tsx';

interface FilterForm extends DayRangeFilter {
  emailId?: string;
  status?: EmailStatus;
}

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
  const { t } = useTranslation();
  const reasonText = useReasonText();
  const search = useResponseSearch<FilterForm>(spanError);
  const { filter, page } = search;
  const [open, setOpen] = useState<EmailStatusRow | null>(null);
  const navigate = useNavigate();

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
  // The whole filtered result as a file, written in the background (/sendResponse/offline).
  const exportOffline = async () => {
    const { page: _page, pageSize: _size, ...filters } = query;
    await createExport({ type: 'emailStatus', ...filters });
    navigate('/sendResponse/offline');
  };

  return (
    <Card className="email-status-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('emailStatus.title')}
      </Typography.Title>
      <ResponseFilters
        search={search}
        area="emailStatus"
        prefix="email-status"
        afterEmail={
          <Form.Item name="emailId" label={t('emailStatus.emailId')}>
            <Input allowClear name="emailId" style={{ width: 200 }} />
          </Form.Item>
        }
        afterLabel={
          <Form.Item name="status" label={t('emailStatus.status')}>
            <Select
              allowClear
              style={{ width: 130 }}
              placeholder={t('emailStatus.all')}
              options={EMAIL_STATUSES.map((s) => ({ value: s, label: t(`emailStatus.statuses.${s}`) }))}
            />
          </Form.Item>
        }
        exportLabel={t('exports.exportOffline')}
        onExport={exportOffline}
      />
      <ResponseTable<EmailStatusRow>
        rows={rows}
        page={page}
        onPage={search.setPage}
        className="email-status-table"
        onRow={(row) => ({ onClick: () => setOpen(row), style: { cursor: 'pointer' } })}
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
      <EmailStatusDrawer row={open} onClose={() => setOpen(null)} />
    </Card>
  );
}
