import { trackDomainInputSchema } from '@herald/shared/schemas/tracking.schema';
import { Alert, Checkbox, Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { TrackDomainView } from '../../../api/tracking.api.ts';
import { applyFieldErrors, zodRule } from '../../../components/form-rules.ts';
import { useFormSave } from '../../../components/use-form-save.ts';

interface Values {
  name: string;
  open: boolean;
  click: boolean;
  unsubscribe: boolean;
}

const nameRule = zodRule(trackDomainInputSchema.shape.name);

/** Adds a tracking domain, or edits one (`domain`): its name (checked by the shared rule) and switches. */
export function TrackDomainModal({
  open,
  domain,
  onSubmit,
  onClose,
}: {
  open: boolean;
  domain?: TrackDomainView;
  onSubmit: (values: Values) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();

  useEffect(() => {
    if (open)
      form.setFieldsValue({
        name: domain?.name ?? '',
        open: domain?.open ?? true,
        click: domain?.click ?? true,
        unsubscribe: domain?.unsubscribe ?? true,
      });
  }, [open, domain, form]);

  const { submit, saving } = useFormSave(
    async () => {
      const values = await form.validateFields();
      await onSubmit(trackDomainInputSchema.parse(values));
      onClose();
    },
    (error) => {
      applyFieldErrors(form, error);
    },
  );

  return (
    <Modal
      open={open}
      title={domain ? t('tracking.editTitle', { name: domain.name }) : t('tracking.addTitle')}
      okText={t('tracking.save')}
      cancelText={t('tracking.cancel')}
      confirmLoading={saving}
      onOk={() => submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ className: 'track-domain-form-submit' }}
    >
      <Alert type="info" showIcon title={t('tracking.addHint')} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" onFinish={() => submit()}>
        <Form.Item name="name" label={t('tracking.name')} rules={[nameRule]}>
          <Input name="name" placeholder="track.example.com" maxLength={250} autoComplete="off" />
        </Form.Item>
        <Form.Item name="open" valuePropName="checked" noStyle>
          <Checkbox className="track-switch-open">{t('tracking.open')}</Checkbox>
        </Form.Item>
        <Form.Item name="click" valuePropName="checked" noStyle>
          <Checkbox className="track-switch-click">{t('tracking.click')}</Checkbox>
        </Form.Item>
        <Form.Item name="unsubscribe" valuePropName="checked" noStyle>
          <Checkbox className="track-switch-unsubscribe">{t('tracking.unsubscribe')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}
