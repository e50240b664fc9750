import {
  SMS_ROUTE_KINDS,
  type SmsRouteKind,
  smsRouteInputSchema,
} from '@herald/shared/schemas/sms-carrier.schema';
import { useQueryClient } from '@tanstack/react-query';
import { Form, Input, InputNumber, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { addSmsRoute, SMS_CARRIERS_QUERY, type SmsCarrierView } from '../../../api/admin-sms-carriers.api.ts';
import { showFormError, zodRule } from '../../../components/form-rules.ts';
import { useFormSave } from '../../../components/use-form-save.ts';
import { kindKey } from './sms-route-kinds.ts';

interface Values {
  carrier: string;
  country: string;
  prefix?: string;
  kind: SmsRouteKind;
  priority: number | null;
}

const rules = smsRouteInputSchema.shape;

/** Adds a route: which numbers (country or `*`, national prefix, kind) go to which carrier, and in what order. */
export function SmsRouteFormModal({
  open,
  carriers,
  onClose,
}: {
  open: boolean;
  carriers: SmsCarrierView[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [form] = Form.useForm<Values>();
  const { submit, saving } = useFormSave(
    async (values: Values) => {
      await addSmsRoute(values.carrier, {
        country: values.country,
        prefix: values.prefix ?? '',
        kind: values.kind,
        priority: values.priority ?? 0,
      });
      await queries.invalidateQueries({ queryKey: SMS_CARRIERS_QUERY });
      onClose();
    },
    (error) => showFormError(form, error),
  );

  return (
    <Modal
      open={open}
      title={t('adminSmsCarriers.routeTitle')}
      className="admin-route-modal"
      okText={t('adminSmsCarriers.save')}
      cancelText={t('adminSmsCarriers.cancel')}
      okButtonProps={{ className: 'admin-route-save' }}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        preserve={false}
        onFinish={submit}
        initialValues={{ carrier: carriers[0]?.name, kind: '*', priority: 0 }}
      >
        <Form.Item
          name="carrier"
          label={t('adminSmsCarriers.carrier')}
          rules={[{ required: true, message: t('adminSmsCarriers.noCarrier') }]}
        >
          <Select
            className="admin-route-carrier"
            options={carriers.map((c) => ({ value: c.name, label: c.name }))}
          />
        </Form.Item>
        <Form.Item
          name="country"
          label={t('adminSmsCarriers.country')}
          extra={t('adminSmsCarriers.countryHint')}
          rules={[zodRule(rules.country)]}
        >
          <Input maxLength={2} placeholder="CN" className="admin-route-country" />
        </Form.Item>
        <Form.Item
          name="prefix"
          label={t('adminSmsCarriers.prefix')}
          extra={t('adminSmsCarriers.prefixHint')}
          rules={[zodRule(rules.prefix)]}
        >
          <Input maxLength={15} className="admin-route-prefix" />
        </Form.Item>
        <Form.Item name="kind" label={t('adminSmsCarriers.kind')}>
          <Select
            className="admin-route-kind"
            options={SMS_ROUTE_KINDS.map((k) => ({
              value: k,
              label: t(`adminSmsCarriers.kinds.${kindKey(k)}`),
            }))}
          />
        </Form.Item>
        <Form.Item
          name="priority"
          label={t('adminSmsCarriers.priority')}
          extra={t('adminSmsCarriers.priorityHint')}
          rules={[zodRule(rules.priority)]}
        >
          <InputNumber min={0} precision={0} style={{ width: '100%' }} className="admin-route-priority" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
