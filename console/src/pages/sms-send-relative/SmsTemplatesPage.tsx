import { PERMISSIONS } from '@herald/shared/permissions';
import {
  SMS_TEMPLATE_KINDS,
  SMS_TEMPLATE_STATUSES,
  SMS_TEMPLATE_TYPES,
  type SmsTemplateKind,
  type SmsTemplateStatus,
  type SmsTemplateType,
  type SmsTemplateView,
} from '@herald/shared/schemas/sms-template.schema';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Empty,
  Flex,
  Input,
  Popconfirm,
  Result,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { deleteSmsTemplate, fetchSmsTemplates, submitSmsTemplate } from '../../api/sms-templates.api.ts';
import { Can } from '../../components/Can.tsx';
import { formatDateTime } from '../../components/format-time.ts';
import { toastSuccess } from '../send-relative/template-toast.ts';
import { SmsTemplateStatusTag } from './SmsTemplateStatusTag.tsx';
import { COUNT_TEST_PATH, EDIT_PATHS, formatBytes, PREVIEW_PATH } from './sms-template-paths.ts';

const SEND = PERMISSIONS.SMS_SEND;
const PAGE_SIZE = 20;

function isKind(value: string | null): value is SmsTemplateKind {
  return (SMS_TEMPLATE_KINDS as readonly string[]).includes(value ?? '');
}

/**
 * SMS templates (console-spec §2 /s_sendRelative/template): the account's SMS, voice and MMS
 * templates under one tab each, filtered by state, type and name, with their review state (and a
 * rejection's reason). Each can be previewed, submitted for review, edited (back to unsubmitted)
 * or deleted after a confirmation; with none yet, the empty state leads to creating one.
 */
export default function SmsTemplatesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [params, setParams] = useSearchParams();
  const kindParam = params.get('kind');
  const kind: SmsTemplateKind = isKind(kindParam) ? kindParam : 'sms';
  const [status, setStatus] = useState<SmsTemplateStatus>();
  const [smsType, setSmsType] = useState<SmsTemplateType>();
  const [name, setName] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const filter = { kind, status, smsType, name: name || undefined, pageNum, pageSize: PAGE_SIZE };
  const list = useQuery({
    queryKey: ['smsTemplates', 'list', filter],
    queryFn: () => fetchSmsTemplates(filter),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queries.invalidateQueries({ queryKey: ['smsTemplates', 'list'] });
  const submit = useMutation({
    mutationFn: submitSmsTemplate,
    onSuccess: () => toastSuccess(t('smsTemplates.submitted')),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: deleteSmsTemplate,
    onSuccess: () => toastSuccess(t('smsTemplates.deleted')),
    onSettled: refresh,
  });

  if (list.isError) return <Result status="warning" title={t('smsTemplates.loadFailed')} />;
  const filtered = status !== undefined || smsType !== undefined || name !== '';
  const addButton = (which: SmsTemplateKind, primary: boolean) => (
    <Button
      type={primary ? 'primary' : 'default'}
      className={`sms-template-add-${which}`}
      onClick={() => navigate(EDIT_PATHS[which])}
    >
      {t(`smsTemplates.add.${which}`)}
    </Button>
  );
  const resetPage = () => setPageNum(1);

  return (
    <Card className="sms-templates-page">
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 8 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('smsTemplates.title')}
        </Typography.Title>
        <Space wrap>
          <Can code={SEND} level="full">
            {SMS_TEMPLATE_KINDS.map((which) => (
              <span key={which}>{addButton(which, which === kind)}</span>
            ))}
          </Can>
          <Button className="sms-template-count-test" onClick={() => navigate(COUNT_TEST_PATH)}>
            {t('smsTemplates.countTest')}
          </Button>
        </Space>
      </Flex>
      <Typography.Paragraph type="secondary">{t('smsTemplates.intro')}</Typography.Paragraph>
      <Tabs
        activeKey={kind}
        onChange={(key) => {
          setParams({ kind: key }, { replace: true });
          resetPage();
        }}
        items={SMS_TEMPLATE_KINDS.map((which) => ({ key: which, label: t(`smsTemplates.kinds.${which}`) }))}
      />
      <Space wrap style={{ marginBottom: 16 }}>
        <Select<SmsTemplateStatus>
          allowClear
          className="sms-template-filter-status"
          style={{ width: 160 }}
          placeholder={t('smsTemplates.statusFilter')}
          value={status}
          onChange={(value) => {
            setStatus(value);
            resetPage();
          }}
          options={SMS_TEMPLATE_STATUSES.map((s) => ({ value: s, label: t(`smsTemplates.status.${s}`) }))}
        />
        {kind !== 'voice' ? (
          <Select<SmsTemplateType>
            allowClear
            style={{ width: 160 }}
            placeholder={t('smsTemplates.typeFilter')}
            value={smsType}
            onChange={(value) => {
              setSmsType(value);
              resetPage();
            }}
            options={SMS_TEMPLATE_TYPES.filter((type) => kind === 'sms' || type !== 'code').map((type) => ({
              value: type,
              label: t(`smsTemplates.types.${type}`),
            }))}
          />
        ) : null}
        <Input.Search
          allowClear
          className="sms-template-search"
          placeholder={t('smsTemplates.searchName')}
          style={{ width: 240 }}
          onSearch={(value) => {
            setName(value.trim());
            resetPage();
          }}
        />
      </Space>
      <Table<SmsTemplateView>
        rowKey="id"
        className="sms-templates-table"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        scroll={{ x: true }}
        onRow={(row) => ({ 'data-template-name': row.name }) as React.HTMLAttributes<HTMLElement>}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          onChange: setPageNum,
          showSizeChanger: false,
          hideOnSinglePage: true,
        }}
        locale={{
          emptyText: filtered ? (
            <Empty description={t('smsTemplates.emptyFiltered')} />
          ) : (
            <Empty description={t(`smsTemplates.empty.${kind}`)} className="sms-templates-empty">
              <Can code={SEND} level="full">
                {addButton(kind, true)}
              </Can>
            </Empty>
          ),
        }}
        columns={[
          {
            title: t('smsTemplates.name'),
            render: (_, row) => (
              <Flex vertical>
                <Typography.Text strong>{row.name}</Typography.Text>
                <Typography.Text type="secondary">
                  {t('smsTemplates.id')}: {row.id}
                </Typography.Text>
              </Flex>
            ),
          },
          {
            title: t('smsTemplates.type'),
            render: (_, row) => (
              <Space size={4} wrap>
                <Tag>{t(`smsTemplates.types.${row.smsType}`)}</Tag>
                {row.kind === 'sms' ? <Tag>{t(`smsTemplates.regions.${row.region}`)}</Tag> : null}
              </Space>
            ),
          },
          {
            title: t('smsTemplates.content'),
            width: 360,
            render: (_, row) => (
              <Typography.Paragraph
                ellipsis={{ rows: 2 }}
                style={{ margin: 0 }}
                className="sms-template-content"
              >
                {row.mms
                  ? t('smsTemplates.mmsSummary', {
                      title: row.content,
                      pages: row.mms.pageCount,
                      size: formatBytes(row.mms.bytes),
                    })
                  : row.content}
              </Typography.Paragraph>
            ),
          },
          { title: t('smsTemplates.sign'), render: (_, row) => row.signName ?? '—' },
          {
            title: t('smsTemplates.statusLabel'),
            render: (_, row) => <SmsTemplateStatusTag status={row.status} reason={row.rejectReason} />,
          },
          {
            title: t('smsTemplates.updatedAt'),
            render: (_, row) => <span className="nowrap">{formatDateTime(row.updatedAt)}</span>,
          },
          {
            title: t('smsTemplates.actions'),
            render: (_, row) => (
              <Space size={0} wrap>
                <Button
                  type="link"
                  className="sms-template-preview"
                  onClick={() => navigate(`${PREVIEW_PATH}?id=${row.id}`)}
                >
                  {t('smsTemplates.preview')}
                </Button>
                <Can code={SEND} level="full">
                  {row.status === 'unsubmitted' || row.status === 'rejected' ? (
                    <Popconfirm
                      title={t('smsTemplates.submitConfirm', { name: row.name })}
                      okText={t('smsTemplates.submit')}
                      cancelText={t('smsTemplates.cancel')}
                      okButtonProps={{ className: 'sms-template-submit-ok' }}
                      onConfirm={() => submit.mutateAsync(row.id)}
                    >
                      <Button type="link" className="sms-template-submit">
                        {t('smsTemplates.submit')}
                      </Button>
                    </Popconfirm>
                  ) : null}
                  <Button
                    type="link"
                    className="sms-template-edit"
                    onClick={() => navigate(`${EDIT_PATHS[row.kind]}?id=${row.id}`)}
                  >
                    {t('smsTemplates.edit')}
                  </Button>
                  <Popconfirm
                    title={t('smsTemplates.deleteConfirm', { name: row.name })}
                    okText={t('smsTemplates.delete')}
                    cancelText={t('smsTemplates.cancel')}
                    okButtonProps={{ danger: true, className: 'sms-template-delete-ok' }}
                    onConfirm={() => remove.mutateAsync(row.id)}
                  >
                    <Button type="link" danger className="sms-template-delete">
                      {t('smsTemplates.delete')}
                    </Button>
                  </Popconfirm>
                </Can>
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
