import { PERMISSIONS } from '@herald/shared/permissions';
import { type SmsBlockKind, smsBlockAddSchema } from '@herald/shared/schemas/sms-interception.schema';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Form, Input, Modal, Popconfirm, Result, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  addSmsBlocks,
  fetchSmsBlocks,
  removeSmsBlock,
  type SmsBlockView,
} from '../../api/sms-interception.api.ts';
import { Can } from '../../components/Can.tsx';
import { showFormError, zodRule } from '../../components/form-rules.ts';
import { formatDateTime } from '../../components/format-time.ts';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';
import { SmsListFileActions } from './SmsListFileActions.tsx';

interface Values {
  phones: string;
  reason?: string;
}

/**
 * One interception list of the account (blocked or unsubscribed numbers): a page of entries
 * with where each came from and until when it holds, adding numbers (the shared rule checks the
 * form), importing a file and exporting the list as CSV, and removing one after a confirmation.
 */
export function SmsBlockList({ kind }: { kind: SmsBlockKind }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const entries = useQuery({
    queryKey: ['smsBlocks', kind, page],
    queryFn: () => fetchSmsBlocks(kind, page),
    placeholderData: keepPreviousData,
  });
  const reload = () => queries.invalidateQueries({ queryKey: ['smsBlocks', kind] });
  const add = useMutation({
    mutationFn: (values: Values) => addSmsBlocks(kind, values),
    onSuccess: async (result) => {
      setAdding(false);
      form.resetFields();
      httpEffects().toast(
        'success',
        t('smsSend.blockAddedCount', { count: result.added }),
        SUCCESS_TOAST_SECONDS,
      );
      await reload();
    },
    onError: (error) => showFormError(form, error),
  });
  const remove = useMutation({ mutationFn: (id: number) => removeSmsBlock(kind, id), onSuccess: reload });

  if (entries.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const addButton = (
    <Can code={PERMISSIONS.SMS_RESPONSE} level="full">
      <Button type="primary" className="sms-block-add" onClick={() => setAdding(true)}>
        {t('smsSend.blockAdd')}
      </Button>
    </Can>
  );
  return (
    <Card className={`sms-blocks-${kind}`}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {t(`smsSend.blocks.${kind}.title`)}
        </Typography.Title>
        <Space>
          <SmsListFileActions kind={kind} onImported={reload} />
          {addButton}
        </Space>
      </Space>
      <Typography.Paragraph type="secondary">{t(`smsSend.blocks.${kind}.intro`)}</Typography.Paragraph>
      <Table<SmsBlockView>
        rowKey="id"
        className="sms-blocks-table"
        loading={entries.isFetching}
        dataSource={entries.data?.data ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: page,
          pageSize: 20,
          total: entries.data?.total ?? 0,
          hideOnSinglePage: true,
          onChange: setPage,
        }}
        locale={{ emptyText: <Empty description={t('smsSend.blockEmpty')}>{addButton}</Empty> }}
        columns={[
          { title: t('smsSend.blockPhone'), dataIndex: 'phone' },
          { title: t('smsSend.blockReason'), render: (_, e) => e.reason ?? '—' },
          {
            title: t('smsSend.blockSource'),
            render: (_, e) => t(`smsSend.sources.${e.source}`, { defaultValue: e.source }),
          },
          { title: t('smsSend.blockAdded'), render: (_, e) => formatDateTime(e.createdAt) },
          {
            title: t('smsSend.blockExpires'),
            render: (_, e) => (e.expiresAt ? formatDateTime(e.expiresAt) : t('smsSend.blockForever')),
          },
          {
            title: '',
            render: (_, e) => (
              <Can code={PERMISSIONS.SMS_RESPONSE} level="full">
                <Popconfirm title={t('smsSend.blockDeleteConfirm')} onConfirm={() => remove.mutate(e.id)}>
                  <Button type="link" danger className="sms-block-delete">
                    {t('smsSend.blockDelete')}
                  </Button>
                </Popconfirm>
              </Can>
            ),
          },
        ]}
      />
      <Modal
        open={adding}
        title={t('smsSend.blockAddTitle')}
        onCancel={() => setAdding(false)}
        onOk={() => form.submit()}
        okText={t('smsSend.hookSave')}
        cancelText={t('smsSend.hookCancel')}
        confirmLoading={add.isPending}
        okButtonProps={{ className: 'sms-block-save' }}
        className="sms-block-modal"
        forceRender
      >
        <Form<Values> form={form} layout="vertical" onFinish={(values) => add.mutate(values)}>
          <Form.Item
            name="phones"
            label={t('smsSend.blockPhones')}
            extra={t('smsSend.blockPhonesHint')}
            rules={[zodRule(smsBlockAddSchema.shape.phones)]}
          >
            <Input.TextArea rows={4} className="sms-block-phones" />
          </Form.Item>
          <Form.Item name="reason" label={t('smsSend.blockReason')}>
            <Input maxLength={200} className="sms-block-reason" />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
