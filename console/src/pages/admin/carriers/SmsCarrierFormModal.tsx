import {
  SMS_CARRIER_PER_SECOND_DEFAULT,
  smsCarrierCreateSchema,
  smsCarrierUpdateSchema,
} from '@herald/shared/schemas/sms-carrier.schema';
import { useQueryClient } from '@tanstack/react-query';
import { Form, Input, InputNumber, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  createSmsCarrier,
  SMS_CARRIERS_QUERY,
  type SmsCarrierView,
  updateSmsCarrier,
} from '../../../api/admin-sms-carriers.api.ts';
import { showFormError, zodRule } from '../../../components/form-rules.ts';
import { useFormSave } from '../../../components/use-form-save.ts';
import { httpEffects } from '../../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../../infra/http/http-exceptions.ts';

interface Values {
  name: string;
  url: string;
  systemId: string;
  password?: string;
  sourceAddr?: string;
  perSecond: number | null;
}

const create = smsCarrierCreateSchema.shape;
const update = smsCarrierUpdateSchema.shape;

/**
 * Adds a carrier (`target` 'new') or edits one. The password is never shown: a new carrier needs
 * one, and an edit that leaves it empty keeps the sealed one. The name keys the carrier for the
 * CLI too, so it stays as it was.
 */
export function SmsCarrierFormModal({
  target,
  onClose,
}: {
  target: SmsCarrierView | 'new' | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [form] = Form.useForm<Values>();
  const editing = target !== null && target !== 'new' ? target : null;

  const { submit, saving } = useFormSave(
    async (values: Values) => {
      const fields = {
        url: values.url,
        systemId: values.systemId,
        password: values.password ?? '',
        sourceAddr: values.sourceAddr ?? '',
        perSecond: values.perSecond ?? undefined,
      };
      const saved = editing
        ? await updateSmsCarrier(editing.name, fields)
        : await createSmsCarrier({ ...fields, name: values.name });
      const text = editing ? 'adminSmsCarriers.saved' : 'adminSmsCarriers.added';
      httpEffects().toast('success', t(text, { name: saved.name }), SUCCESS_TOAST_SECONDS);
      await queries.invalidateQueries({ queryKey: SMS_CARRIERS_QUERY });
      onClose();
    },
    (error) => showFormError(form, error),
  );

  return (
    <Modal
      open={target !== null}
      title={
        editing ? t('adminSmsCarriers.editTitle', { name: editing.name }) : t('adminSmsCarriers.addTitle')
      }
      className="admin-carrier-modal"
      okText={t('adminSmsCarriers.save')}
      cancelText={t('adminSmsCarriers.cancel')}
      okButtonProps={{ className: 'admin-carrier-save' }}
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
        initialValues={
          editing
            ? {
                name: editing.name,
                url: editing.url,
                systemId: editing.systemId,
                sourceAddr: editing.sourceAddr,
                perSecond: editing.perSecond,
              }
            : { perSecond: SMS_CARRIER_PER_SECOND_DEFAULT }
        }
      >
        <Form.Item
          name="name"
          label={t('adminSmsCarriers.name')}
          extra={editing ? undefined : t('adminSmsCarriers.nameHint')}
          rules={editing ? [] : [zodRule(create.name)]}
        >
          <Input disabled={editing !== null} maxLength={32} className="admin-carrier-name" />
        </Form.Item>
        <Form.Item
          name="url"
          label={t('adminSmsCarriers.url')}
          extra={t('adminSmsCarriers.urlHint')}
          rules={[zodRule(update.url)]}
        >
          <Input placeholder="smpp://smsc.example.com:2775" className="admin-carrier-url" />
        </Form.Item>
        <Form.Item
          name="systemId"
          label={t('adminSmsCarriers.systemId')}
          extra={t('adminSmsCarriers.systemIdHint')}
          rules={[zodRule(update.systemId)]}
        >
          <Input maxLength={64} className="admin-carrier-system-id" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('adminSmsCarriers.password')}
          extra={t('adminSmsCarriers.passwordHint')}
          rules={[zodRule(editing ? update.password : create.password)]}
        >
          <Input.Password
            autoComplete="new-password"
            placeholder={editing ? t('adminSmsCarriers.passwordKeep') : undefined}
            className="admin-carrier-password"
          />
        </Form.Item>
        <Form.Item
          name="sourceAddr"
          label={t('adminSmsCarriers.sourceAddr')}
          extra={t('adminSmsCarriers.sourceAddrHint')}
          rules={[zodRule(update.sourceAddr)]}
        >
          <Input maxLength={21} className="admin-carrier-source" />
        </Form.Item>
        <Form.Item
          name="perSecond"
          label={t('adminSmsCarriers.perSecond')}
          extra={t('adminSmsCarriers.perSecondHint')}
          rules={[zodRule(update.perSecond)]}
        >
          <InputNumber min={0} precision={0} style={{ width: '100%' }} className="admin-carrier-per-second" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
