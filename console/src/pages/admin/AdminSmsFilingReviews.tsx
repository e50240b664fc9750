import { SMS_FILING_STATUSES, type SmsFilingStatus } from '@herald/shared/schemas/sms-filing.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Flex, Popconfirm, Result, Segmented, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  disableFiling,
  fetchFilingReviews,
  passFiling,
  type SmsFilingReviewView,
} from '../../api/sms-signs.api.ts';
import { formatDateTime } from '../../components/format-time.ts';
import { toastSuccess } from '../send-relative/template-toast.ts';
import { SmsFilingStatusTag } from '../sms-send-relative/SmsGuaranteePage.tsx';
import { Files, type Rejecting } from './SmsReviewParts.tsx';

/** The filings tab of /admin/smsReview: approve, reject with a reason, disable an approved one. */
export function FilingReviews({ onReject }: { onReject: (target: Rejecting) => void }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [status, setStatus] = useState<SmsFilingStatus>('reviewing');
  const list = useQuery({
    queryKey: ['admin-sms-filings', status],
    queryFn: () => fetchFilingReviews(status),
  });
  const refresh = () => queries.invalidateQueries({ queryKey: ['admin-sms-filings'] });
  const pass = useMutation({
    mutationFn: passFiling,
    onSuccess: () => toastSuccess(t('smsSigns.review.passed')),
    onSettled: refresh,
  });
  const disable = useMutation({
    mutationFn: disableFiling,
    onSuccess: () => toastSuccess(t('smsFiling.review.disabled')),
    onSettled: refresh,
  });
  if (list.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  return (
    <>
      <Segmented<SmsFilingStatus>
        value={status}
        onChange={setStatus}
        options={SMS_FILING_STATUSES.map((s) => ({ value: s, label: t(`smsFiling.status.${s}`) }))}
        style={{ marginBottom: 16 }}
      />
      <Table<SmsFilingReviewView>
        rowKey="id"
        className="review-filings-table"
        loading={list.isPending}
        dataSource={list.data ?? []}
        pagination={false}
        scroll={{ x: true }}
        onRow={(row) => ({ 'data-account-name': row.accountName }) as React.HTMLAttributes<HTMLElement>}
        locale={{ emptyText: <Empty description={t('smsSigns.review.empty')} /> }}
        columns={[
          { title: t('smsSigns.review.account'), dataIndex: 'accountName' },
          { title: t('smsFiling.handlerName'), dataIndex: 'handlerName' },
          {
            title: t('smsFiling.handlerIdNumber'),
            render: (_, row) => <Typography.Text copyable>{row.handlerIdNumber}</Typography.Text>,
          },
          { title: t('smsFiling.commitment'), render: (_, row) => <Files files={[row.commitmentFile]} /> },
          {
            title: t('smsSigns.updatedAt'),
            render: (_, row) => <span className="nowrap">{formatDateTime(row.updatedAt)}</span>,
          },
          {
            title: t('smsSigns.actions'),
            render: (_, row) => {
              if (row.status === 'reviewing') {
                return (
                  <Space size={0}>
                    <Popconfirm
                      title={t('smsFiling.review.passConfirm', { account: row.accountName })}
                      okButtonProps={{ className: 'review-pass-ok' }}
                      onConfirm={() => pass.mutateAsync(row.id)}
                    >
                      <Button type="link" className="review-pass">
                        {t('smsSigns.review.pass')}
                      </Button>
                    </Popconfirm>
                    <Button
                      type="link"
                      danger
                      className="review-reject"
                      onClick={() => onReject({ kind: 'filing', id: row.id, label: row.accountName })}
                    >
                      {t('smsSigns.review.reject')}
                    </Button>
                  </Space>
                );
              }
              return (
                <Flex vertical align="start" gap={4}>
                  <SmsFilingStatusTag status={row.status} />
                  {row.rejectReason && <Typography.Text type="secondary">{row.rejectReason}</Typography.Text>}
                  {row.status === 'passed' && (
                    <Popconfirm
                      title={t('smsFiling.review.disableConfirm', { account: row.accountName })}
                      okButtonProps={{ danger: true, className: 'review-disable-ok' }}
                      onConfirm={() => disable.mutateAsync(row.id)}
                    >
                      <Button type="link" danger size="small" className="review-disable">
                        {t('smsFiling.review.disable')}
                      </Button>
                    </Popconfirm>
                  )}
                </Flex>
              );
            },
          },
        ]}
      />
    </>
  );
}
