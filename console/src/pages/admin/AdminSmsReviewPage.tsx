import { SMS_SIGN_STATUSES, type SmsSignStatus } from '@herald/shared/schemas/sms-sign.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Empty,
  Flex,
  Popconfirm,
  Result,
  Segmented,
  Space,
  Table,
  Tabs,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchSignReviews, passSign, type SmsSignReviewView } from '../../api/sms-signs.api.ts';
import { formatDateTime } from '../../components/format-time.ts';
import { toastSuccess } from '../send-relative/template-toast.ts';
import { SmsSignStatusTag } from '../sms-send-relative/SmsSignsPage.tsx';
import { FilingReviews } from './AdminSmsFilingReviews.tsx';
import { Files, type Rejecting, RejectModal } from './SmsReviewParts.tsx';

/** The signatures tab: pass, or reject with a reason. */
function SignReviews({ onReject }: { onReject: (target: Rejecting) => void }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [status, setStatus] = useState<SmsSignStatus>('reviewing');
  const list = useQuery({ queryKey: ['admin-sms-signs', status], queryFn: () => fetchSignReviews(status) });
  const pass = useMutation({
    mutationFn: passSign,
    onSuccess: () => toastSuccess(t('smsSigns.review.passed')),
    onSettled: () => queries.invalidateQueries({ queryKey: ['admin-sms-signs'] }),
  });
  if (list.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  return (
    <>
      <Segmented<SmsSignStatus>
        value={status}
        onChange={setStatus}
        options={SMS_SIGN_STATUSES.map((s) => ({ value: s, label: t(`smsSigns.status.${s}`) }))}
        style={{ marginBottom: 16 }}
      />
      <Table<SmsSignReviewView>
        rowKey="id"
        className="review-signs-table"
        loading={list.isPending}
        dataSource={list.data ?? []}
        pagination={false}
        scroll={{ x: true }}
        onRow={(row) => ({ 'data-sign-name': row.name }) as React.HTMLAttributes<HTMLElement>}
        locale={{ emptyText: <Empty description={t('smsSigns.review.empty')} /> }}
        columns={[
          { title: t('smsSigns.review.account'), dataIndex: 'accountName' },
          {
            title: t('smsSigns.name'),
            render: (_, row) => (
              <Flex vertical>
                <Typography.Text strong>{row.name}</Typography.Text>
                <Typography.Text type="secondary">
                  {t(`smsSigns.types.${row.signType}`)} · {t(`smsSigns.sources.${row.source}`)}
                </Typography.Text>
              </Flex>
            ),
          },
          {
            title: t('smsSigns.thirdParty'),
            render: (_, row) =>
              row.thirdParty ? (
                <Flex vertical className="review-third-party">
                  <span>{row.legalPersonName}</span>
                  <Typography.Text copyable>{row.legalPersonIdNumber}</Typography.Text>
                  <Typography.Text type="secondary">{t(`smsSigns.idSides.${row.idSide}`)}</Typography.Text>
                </Flex>
              ) : (
                t('smsSigns.review.noThirdParty')
              ),
          },
          {
            title: t('smsSigns.review.files'),
            render: (_, row) => <Files files={[row.licenseFile, row.idFile, ...row.attachments]} />,
          },
          {
            title: t('smsSigns.updatedAt'),
            render: (_, row) => <span className="nowrap">{formatDateTime(row.updatedAt)}</span>,
          },
          {
            title: t('smsSigns.actions'),
            render: (_, row) =>
              row.status === 'reviewing' ? (
                <Space size={0}>
                  <Popconfirm
                    title={t('smsSigns.review.passConfirm', { name: row.name, account: row.accountName })}
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
                    onClick={() => onReject({ kind: 'sign', id: row.id, label: row.name })}
                  >
                    {t('smsSigns.review.reject')}
                  </Button>
                </Space>
              ) : (
                <Flex vertical align="start" gap={4}>
                  <SmsSignStatusTag status={row.status} />
                  {row.rejectReason && <Typography.Text type="secondary">{row.rejectReason}</Typography.Text>}
                </Flex>
              ),
          },
        ]}
      />
    </>
  );
}

/**
 * The operators' review of SMS signatures and filings (/admin/smsReview, outside console-spec §2):
 * every account's signatures or filings in a state, with the account, every field (ID numbers in
 * full) and the uploaded files; pass, reject with a required reason, disable an approved filing.
 */
export default function AdminSmsReviewPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [rejecting, setRejecting] = useState<Rejecting | null>(null);
  return (
    <Card className="admin-sms-review-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('smsSigns.review.title')}
      </Typography.Title>
      <Tabs
        items={[
          {
            key: 'signs',
            label: t('smsSigns.review.signsTab'),
            children: <SignReviews onReject={setRejecting} />,
          },
          {
            key: 'filings',
            label: t('smsSigns.review.filingsTab'),
            children: <FilingReviews onReject={setRejecting} />,
          },
        ]}
      />
      <RejectModal
        target={rejecting}
        onClose={(done) => {
          if (done && rejecting) {
            void queries.invalidateQueries({
              queryKey: [rejecting.kind === 'sign' ? 'admin-sms-signs' : 'admin-sms-filings'],
            });
          }
          setRejecting(null);
        }}
      />
    </Card>
  );
}
