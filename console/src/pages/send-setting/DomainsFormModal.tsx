import { domainNameSchema } from '@herald/shared/schemas/domain.schema';
import { Alert, Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { applyFieldErrors, zodRule } from '../../components/form-rules.ts';
import { useFormSave } from '../../components/use-form-save.ts';

/** Adds a domain, or renames one (`initialName`); the name rule is the shared schema's. */
export function DomainsFormModal({
  open,
  initialName,
  onSubmit,
  onClose,
}: {
  open: boolean;
  initialName?: string;
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();

  useEffect(() => {
    if (open) form.setFieldsValue({ name: initialName ?? '' });
  }, [open, initialName, form]);

  const { submit, saving } = useFormSave(
    async () => {
      const { name } = await form.validateFields();
      await onSubmit(domainNameSchema.parse(name));
      onClose();
    },
    (error) => {
      applyFieldErrors(form, error);
    },
  );

  return (
    <Modal
      open={open}
      title={initialName ? t('domains.renameTitle', { name: initialName }) : t('domains.addTitle')}
      okText={t('domains.save')}
      cancelText={t('domains.cancel')}
      confirmLoading={saving}
      onOk={() => submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ className: 'domain-form-submit' }}
    >
      {!initialName && (
        <Alert type="info" showIcon title={t('domains.addHint')} style={{ marginBottom: 16 }} />
      )}
      <Form form={form} layout="vertical" onFinish={() => submit()}>
        <Form.Item name="name" label={t('domains.name')} rules={[zodRule(domainNameSchema)]}>
          <Input name="name" placeholder={t('domains.namePlaceholder')} maxLength={250} autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
