import { SMS_SENDER_RULES } from '@herald/shared/schemas/sms-price.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Table,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  fetchAdminSmsPrices,
  removeAdminSmsPrice,
  type SmsPriceView,
  type SmsSenderRule,
  saveAdminSmsPrice,
} from '../../../api/admin-sms-prices.api.ts';
import { fetchSmsCountries } from '../../../api/sms-prices.api.ts';
import { showFormError } from '../../../components/form-rules.ts';

interface PriceForm {
  country: string;
  price: number;
  senderRule: SmsSenderRule;
  senderId?: string;
}

/**
 * International SMS prices, per country: the price of one part and the sender id the country takes
 * (what the public price query shows and international SMS are sent with). Setting a country again
 * replaces its row; removing one asks first.
 */
export function SmsPricesCard() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh-cn';
  const queries = useQueryClient();
  const [form] = Form.useForm<PriceForm>();
  const [editing, setEditing] = useState(false);
  const prices = useQuery({ queryKey: ['adminSmsPrices', lang], queryFn: fetchAdminSmsPrices });
  const countries = useQuery({
    queryKey: ['smsCountries', lang],
    queryFn: () => fetchSmsCountries(lang),
    enabled: editing,
  });
  const reload = () => queries.invalidateQueries({ queryKey: ['adminSmsPrices'] });
  const save = useMutation({
    mutationFn: (v: PriceForm) =>
      saveAdminSmsPrice({
        country: v.country,
        priceMilli: Math.round(v.price * 1000),
        senderRule: v.senderRule,
        senderId: v.senderId?.trim() || null,
      }),
    onSuccess: async () => {
      setEditing(false);
      form.resetFields();
      await reload();
    },
    onError: (error) => showFormError(form, error),
  });
  const remove = useMutation({ mutationFn: removeAdminSmsPrice, onSettled: reload });
  const open = (row?: SmsPriceView) => {
    form.setFieldsValue(
      row
        ? {
            country: row.country,
            price: (row.priceMilli ?? 0) / 1000,
            senderRule: row.senderRule ?? 'any',
            senderId: row.senderId ?? '',
          }
        : { senderRule: 'any' },
    );
    setEditing(true);
  };

  return (
    <Card
      className="admin-sms-prices"
      title={t('adminSmsCarriers.prices.title')}
      extra={
        <Button type="primary" className="admin-sms-price-add" onClick={() => open()}>
          {t('adminSmsCarriers.prices.add')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('adminSmsCarriers.prices.intro')}</Typography.Paragraph>
      <Table<SmsPriceView>
        rowKey="country"
        className="admin-sms-prices-table"
        loading={prices.isFetching}
        dataSource={prices.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description={t('adminSmsCarriers.prices.empty')} /> }}
        columns={[
          {
            title: t('adminSmsCarriers.prices.country'),
            render: (_, p) => `${p.name} (${p.country}) ${p.dialCode}`,
          },
          {
            title: t('adminSmsCarriers.prices.price'),
            render: (_, p) => t('adminSmsCarriers.prices.perPart', { price: p.price }),
          },
          {
            title: t('adminSmsCarriers.prices.sender'),
            render: (_, p) =>
              `${t(`adminSmsCarriers.prices.rules.${p.senderRule ?? 'any'}`)}${p.senderId ? ` · ${p.senderId}` : ''}`,
          },
          {
            title: '',
            render: (_, p) => (
              <>
                <Button type="link" className="admin-sms-price-edit" onClick={() => open(p)}>
                  {t('adminSmsCarriers.prices.edit')}
                </Button>
                <Popconfirm
                  title={t('adminSmsCarriers.prices.removeConfirm', { country: p.name })}
                  onConfirm={() => remove.mutateAsync(p.country)}
                  okButtonProps={{ className: 'admin-sms-price-remove-ok' }}
                >
                  <Button type="link" danger className="admin-sms-price-remove">
                    {t('adminSmsCarriers.prices.remove')}
                  </Button>
                </Popconfirm>
              </>
            ),
          },
        ]}
      />
      <Modal
        open={editing}
        title={t('adminSmsCarriers.prices.add')}
        onCancel={() => setEditing(false)}
        onOk={() => form.submit()}
        confirmLoading={save.isPending}
        okButtonProps={{ className: 'admin-sms-price-save' }}
        forceRender
      >
        <Form<PriceForm> form={form} layout="vertical" onFinish={(v) => save.mutate(v)}>
          <Form.Item
            name="country"
            label={t('adminSmsCarriers.prices.country')}
            rules={[{ required: true, message: t('adminSmsCarriers.prices.countryRequired') }]}
          >
            <Select
              showSearch
              className="admin-sms-price-country"
              optionFilterProp="label"
              loading={countries.isPending}
              options={(countries.data ?? []).map((c) => ({
                value: c.country,
                label: `${c.name} ${c.dialCode}`,
              }))}
            />
          </Form.Item>
          <Form.Item
            name="price"
            label={t('adminSmsCarriers.prices.priceYuan')}
            rules={[{ required: true, message: t('adminSmsCarriers.prices.priceRequired') }]}
          >
            <InputNumber className="admin-sms-price-value" min={0} max={1000} step={0.001} precision={3} />
          </Form.Item>
          <Form.Item name="senderRule" label={t('adminSmsCarriers.prices.sender')}>
            <Select
              options={SMS_SENDER_RULES.map((r) => ({
                value: r,
                label: t(`adminSmsCarriers.prices.rules.${r}`),
              }))}
            />
          </Form.Item>
          <Form.Item
            name="senderId"
            label={t('adminSmsCarriers.prices.senderId')}
            extra={t('adminSmsCarriers.prices.senderIdHint')}
          >
            <Input maxLength={11} className="admin-sms-price-sender-id" />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
