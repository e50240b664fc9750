import { PERMISSIONS } from '@herald/shared/permissions';
import { monitorConfigInputSchema } from '@herald/shared/schemas/statistics.schema';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Result,
  Table,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Can } from '../../components/Can.tsx';
import { checkWithSchema, showFormError } from '../../components/form-rules.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';
import { rate } from './stat-view.tsx';
import {
  createMonitorConfig,
  deleteMonitorConfig,
  fetchMonitorConfigs,
  type MonitorConfigView,
  updateMonitorConfig,
} from './statistics.api.ts';

type Values = {
  recipientDomain?: string;
  minDeliveredRate?: number | null;
  maxInvalidRate?: number | null;
  minOpenRate?: number | null;
};
const RATES = ['minDeliveredRate', 'maxInvalidRate', 'minOpenRate'] as const;

/** Monitor thresholds (`/data/monitor/monitorConfig`): per receiving domain, added, edited and deleted. */
export default function MonitorConfigPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [editing, setEditing] = useState<MonitorConfigView | 'new' | null>(null);
  const configs = useQuery({ queryKey: ['stat', 'monitorConfigs'], queryFn: fetchMonitorConfigs });
  const refresh = () => queries.invalidateQueries({ queryKey: ['stat'] });

  const open = (config: MonitorConfigView | 'new') => {
    form.resetFields();
    if (config !== 'new') form.setFieldsValue(config);
    setEditing(config);
  };
  const { submit, saving } = useFormSave(
    async () => {
      const values = { recipientDomain: '', ...form.getFieldsValue(true) } as Values;
      if (!checkWithSchema(form, monitorConfigInputSchema, values)) return;
      if (editing && editing !== 'new') await updateMonitorConfig(editing.id, values);
      else await createMonitorConfig(values);
      httpEffects().toast('success', t('http.operationSucceeded'), SUCCESS_TOAST_SECONDS);
      setEditing(null);
      await refresh();
    },
    (error) => {
      showFormError(form, error);
    },
  );
  const remove = async (config: MonitorConfigView) => {
    await deleteMonitorConfig(config.id);
    await refresh();
  };

  if (configs.isError) return <Result status="warning" title={t('statistics.loadFailed')} />;
  return (
    <Card
      title={t('statistics.monitorConfig.title')}
      className="monitor-config-page"
      extra={
        <Flex gap="small">
          <Button onClick={() => navigate('/data/monitor')}>{t('statistics.monitorConfig.back')}</Button>
          <Can code={PERMISSIONS.EMAIL_DATA} level="full">
            <Button type="primary" onClick={() => open('new')}>
              {t('statistics.monitorConfig.add')}
            </Button>
          </Can>
        </Flex>
      }
    >
      <Typography.Paragraph type="secondary">{t('statistics.monitorConfig.intro')}</Typography.Paragraph>
      <Table<MonitorConfigView>
        className="monitor-config-table"
        rowKey="id"
        size="small"
        loading={configs.isLoading}
        pagination={false}
        dataSource={configs.data ?? []}
        locale={{ emptyText: <Empty description={t('statistics.monitorConfig.empty')} /> }}
        columns={[
          {
            key: 'domain',
            dataIndex: 'recipientDomain',
            title: t('statistics.monitorConfig.recipientDomain'),
          },
          ...RATES.map((k) => ({
            key: k,
            dataIndex: k,
            title: t(`statistics.monitorConfig.${k}`),
            render: (v: number | null) => (v === null ? '—' : rate(v)),
          })),
          {
            key: 'actions',
            title: t('statistics.monitorConfig.actions'),
            render: (_, config) => (
              <Can code={PERMISSIONS.EMAIL_DATA} level="full">
                <Flex gap="small">
                  <Button size="small" onClick={() => open(config)}>
                    {t('statistics.monitorConfig.edit')}
                  </Button>
                  <Popconfirm
                    title={t('statistics.monitorConfig.deleteConfirm', { domain: config.recipientDomain })}
                    onConfirm={() => remove(config)}
                  >
                    <Button size="small" danger>
                      {t('statistics.monitorConfig.delete')}
                    </Button>
                  </Popconfirm>
                </Flex>
              </Can>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== null}
        title={t(editing === 'new' ? 'statistics.monitorConfig.add' : 'statistics.monitorConfig.edit')}
        okText={t('statistics.monitorConfig.save')}
        cancelText={t('statistics.monitorConfig.cancel')}
        confirmLoading={saving}
        onOk={() => void submit()}
        onCancel={() => setEditing(null)}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item name="recipientDomain" label={t('statistics.monitorConfig.recipientDomain')}>
            <Input placeholder={t('statistics.filters.domainPlaceholder')} />
          </Form.Item>
          {RATES.map((k) => (
            <Form.Item key={k} name={k} label={t(`statistics.monitorConfig.${k}`)}>
              <InputNumber min={0} max={100} step={0.5} style={{ width: '100%' }} />
            </Form.Item>
          ))}
        </Form>
      </Modal>
    </Card>
  );
}
