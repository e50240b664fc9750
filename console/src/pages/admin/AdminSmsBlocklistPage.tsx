import { smsBlocklistAddSchema } from '@herald/shared/schemas/sms-interception.schema';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Result,
  Space,
  Table,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  addToSmsBlocklist,
  fetchSmsBlocklist,
  removeFromSmsBlocklist,
  SMS_BLOCKLIST_PAGE_SIZE,
  SMS_BLOCKLIST_QUERY,
  type SmsBlockView,
} from '../../api/admin-sms-blocklist.api.ts';
import { showFormError, zodRule } from '../../components/form-rules.ts';
import { formatDateTime } from '../../components/format-time.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';
import { SmsListFileActions } from '../sms-send-response/SmsListFileActions.tsx';

interface Values {
  phones: string;
  reason?: string;
  days?: number | null;
}

/**
 * The platform's global SMS interception list (/admin/smsBlocklist, issue 20): every account's
 * SMS to these numbers stops with 410 before any carrier. Carrier results add numbers with their
 * own expiries; here the operator searches by digits, adds numbers for good or for some days,
 * removes one after a confirmation, imports a file and exports the list: the same service as the
 * CLI's `sms:blocklist*` commands.
 */
export default function AdminSmsBlocklistPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const entries = useQuery({
    queryKey: [...SMS_BLOCKLIST_QUERY, search, page],
    queryFn: () => fetchSmsBlocklist(search, page),
    placeholderData: keepPreviousData,
  });
  const reload = () => queries.invalidateQueries({ queryKey: SMS_BLOCKLIST_QUERY });
  const { submit, saving } = useFormSave(
    async (values: Values) => {
      const { added } = await addToSmsBlocklist({
        phones: values.phones,
        reason: values.reason?.trim() || undefined,
        days: values.days ?? undefined,
      });
      form.resetFields();
      httpEffects().toast('success', t('adminSmsBlocklist.added', { count: added }), SUCCESS_TOAST_SECONDS);
      await reload();
    },
    (error) => showFormError(form, error),
  );
  const remove = useMutation({ mutationFn: removeFromSmsBlocklist, onSettled: reload });

  if (entries.isError) return <Result status="warning" title={t('adminSmsBlocklist.loadFailed')} />;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} className="admin-sms-blocklist-page">
      <Card>
        <Flex justify="space-between" align="center" gap={16} wrap>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('adminSmsBlocklist.title')}
          </Typography.Title>
          <SmsListFileActions kind="global" onImported={reload} />
        </Flex>
        <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
          {t('adminSmsBlocklist.intro')}
        </Typography.Paragraph>
        <Form<Values> form={form} layout="inline" onFinish={submit} className="admin-blocklist-form">
          <Form.Item name="phones" rules={[zodRule(smsBlocklistAddSchema.shape.phones)]}>
            <Input
              placeholder={t('adminSmsBlocklist.phones')}
              className="admin-blocklist-phones"
              style={{ width: 260 }}
            />
          </Form.Item>
          <Form.Item name="reason">
            <Input
              placeholder={t('adminSmsBlocklist.reason')}
              maxLength={200}
              className="admin-blocklist-reason"
            />
          </Form.Item>
          <Form.Item name="days" rules={[zodRule(smsBlocklistAddSchema.shape.days)]}>
            <InputNumber
              min={1}
              precision={0}
              placeholder={t('adminSmsBlocklist.days')}
              className="admin-blocklist-days"
              style={{ width: 160 }}
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={saving} className="admin-blocklist-add">
            {t('adminSmsBlocklist.add')}
          </Button>
        </Form>
      </Card>
      <Card>
        <Input.Search
          allowClear
          placeholder={t('adminSmsBlocklist.search')}
          className="admin-blocklist-search"
          style={{ maxWidth: 320, marginBottom: 16 }}
          onSearch={(value) => {
            setSearch(value.replace(/[\s+]/g, ''));
            setPage(1);
          }}
        />
        <Table<SmsBlockView>
          rowKey="id"
          className="admin-blocklist-table"
          loading={entries.isFetching}
          dataSource={entries.data?.data ?? []}
          scroll={{ x: 'max-content' }}
          pagination={{
            current: page,
            pageSize: SMS_BLOCKLIST_PAGE_SIZE,
            total: entries.data?.total ?? 0,
            hideOnSinglePage: true,
            onChange: setPage,
          }}
          locale={{ emptyText: <Empty description={t('adminSmsBlocklist.empty')} /> }}
          columns={[
            { title: t('adminSmsBlocklist.phone'), dataIndex: 'phone' },
            { title: t('adminSmsBlocklist.reason'), render: (_, e) => e.reason ?? '—' },
            {
              title: t('adminSmsBlocklist.source'),
              render: (_, e) => t(`adminSmsBlocklist.sources.${e.source}`, { defaultValue: e.source }),
            },
            { title: t('adminSmsBlocklist.createdAt'), render: (_, e) => formatDateTime(e.createdAt) },
            {
              title: t('adminSmsBlocklist.expiresAt'),
              render: (_, e) => (e.expiresAt ? formatDateTime(e.expiresAt) : t('adminSmsBlocklist.forever')),
            },
            {
              title: t('adminSmsBlocklist.actions'),
              render: (_, e) => (
                <Popconfirm
                  title={t('adminSmsBlocklist.deleteConfirm', { phone: e.phone })}
                  okText={t('adminSmsBlocklist.delete')}
                  cancelText={t('adminSmsBlocklist.cancel')}
                  okButtonProps={{ className: 'admin-blocklist-delete-ok' }}
                  onConfirm={() => remove.mutate(e.id)}
                >
                  <Button type="link" danger className="admin-blocklist-delete">
                    {t('adminSmsBlocklist.delete')}
                  </Button>
                </Popconfirm>
              ),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
