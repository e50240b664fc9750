import { PERMISSIONS } from '@herald/shared/permissions';
import { SMS_SIGN_STATUSES, type SmsSignStatus } from '@herald/shared/schemas/sms-sign.schema';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { deleteSmsSign, fetchSmsSigns, type SmsSignView } from '../../api/sms-signs.api.ts';
import { Can } from '../../components/Can.tsx';
import { formatDateTime } from '../../components/format-time.ts';

export const SIGN_ADD_PATH = '/s_sendRelative/sign/add';
const SEND = PERMISSIONS.SMS_SEND;
const PAGE_SIZE = 20;
const STATUS_COLOR: Record<SmsSignStatus, string> = {
  reviewing: 'processing',
  passed: 'success',
  rejected: 'error',
};

/** A signature's review state (under review, passed, rejected) as a coloured tag. */
export function SmsSignStatusTag({ status }: { status: SmsSignStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOR[status]} className="sms-sign-status" data-status={status}>
      {t(`smsSigns.status.${status}`)}
    </Tag>
  );
}

/**
 * SMS signatures (console-spec §2 /s_sendRelative/sign): the account's signatures with their
 * review state and, for a rejected one, the operator's reason; filtered by state, edited (which
 * sends a signature back to review) or deleted after a confirmation. With none yet, the empty
 * state says what to do next.
 */
export default function SmsSignsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [status, setStatus] = useState<SmsSignStatus | 'all'>('all');
  const [pageNum, setPageNum] = useState(1);
  const query = { status: status === 'all' ? undefined : status, pageNum, pageSize: PAGE_SIZE };
  const list = useQuery({
    queryKey: ['smsSigns', query],
    queryFn: () => fetchSmsSigns(query),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: deleteSmsSign,
    onSettled: () => queries.invalidateQueries({ queryKey: ['smsSigns'] }),
  });

  if (list.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const add = (
    <Can code={SEND} level="full">
      <Button type="primary" className="sms-sign-add" onClick={() => navigate(SIGN_ADD_PATH)}>
        {t('smsSigns.add')}
      </Button>
    </Can>
  );
  const empty =
    status === 'all' ? (
      <Empty description={t('smsSigns.empty')} className="sms-signs-empty">
        {add}
      </Empty>
    ) : (
      <Empty description={t('smsSigns.emptyFiltered')} />
    );

  return (
    <Card className="sms-signs-page">
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('smsSigns.title')}
        </Typography.Title>
        {add}
      </Flex>
      <Typography.Paragraph type="secondary">{t('smsSigns.intro')}</Typography.Paragraph>
      <Segmented<SmsSignStatus | 'all'>
        value={status}
        onChange={(value) => {
          setStatus(value);
          setPageNum(1);
        }}
        options={[
          { value: 'all', label: t('smsSigns.all') },
          ...SMS_SIGN_STATUSES.map((s) => ({ value: s, label: t(`smsSigns.status.${s}`) })),
        ]}
        style={{ marginBottom: 16 }}
        className="sms-signs-filter"
      />
      <Table<SmsSignView>
        rowKey="id"
        className="sms-signs-table"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        scroll={{ x: true }}
        onRow={(row) => ({ 'data-sign-name': row.name }) as React.HTMLAttributes<HTMLElement>}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          onChange: setPageNum,
          showSizeChanger: false,
          hideOnSinglePage: true,
        }}
        locale={{ emptyText: empty }}
        columns={[
          {
            title: t('smsSigns.name'),
            render: (_, row) => <Typography.Text strong>{row.name}</Typography.Text>,
          },
          { title: t('smsSigns.type'), render: (_, row) => t(`smsSigns.types.${row.signType}`) },
          {
            title: t('smsSigns.source'),
            render: (_, row) => (
              <Flex vertical>
                <span>{t(`smsSigns.sources.${row.source}`)}</span>
                {row.thirdParty && (
                  <Typography.Text type="secondary">{t('smsSigns.thirdPartyShort')}</Typography.Text>
                )}
              </Flex>
            ),
          },
          {
            title: t('smsSigns.statusLabel'),
            render: (_, row) => (
              <Flex vertical gap={4} align="start">
                <SmsSignStatusTag status={row.status} />
                {row.status === 'rejected' && row.rejectReason && (
                  <Typography.Text type="danger" className="sms-sign-reason">
                    {t('smsSigns.rejectReason', { reason: row.rejectReason })}
                  </Typography.Text>
                )}
              </Flex>
            ),
          },
          {
            title: t('smsSigns.updatedAt'),
            render: (_, row) => <span className="nowrap">{formatDateTime(row.updatedAt)}</span>,
          },
          {
            title: t('smsSigns.actions'),
            render: (_, row) => (
              <Can code={SEND} level="full" fallback="—">
                <Space size={0}>
                  <Button
                    type="link"
                    className="sms-sign-edit"
                    onClick={() => navigate(`${SIGN_ADD_PATH}?id=${row.id}`)}
                  >
                    {row.status === 'rejected' ? t('smsSigns.editResubmit') : t('smsSigns.edit')}
                  </Button>
                  <Popconfirm
                    title={t('smsSigns.deleteConfirm', { name: row.name })}
                    okText={t('smsSigns.delete')}
                    cancelText={t('smsSigns.cancel')}
                    okButtonProps={{ danger: true, className: 'sms-sign-delete-ok' }}
                    onConfirm={() => remove.mutateAsync(row.id)}
                  >
                    <Button type="link" danger className="sms-sign-delete">
                      {t('smsSigns.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              </Can>
            ),
          },
        ]}
      />
    </Card>
  );
}
