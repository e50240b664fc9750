import { type LabelView, labelNameSchema } from '@herald/shared/schemas/label.schema';
import { Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { LabelsApi } from '../../../api/labels.api.ts';
import { showFormError, zodRule } from '../../../components/form-rules.ts';
import { useFormSave } from '../../../components/use-form-save.ts';
import { httpEffects } from '../../../infra/http/http-effects.ts';
import { HttpError } from '../../../infra/http/http-errors.ts';
import { SUCCESS_TOAST_SECONDS } from '../../../infra/http/http-exceptions.ts';

/**
 * Adds a label (`label` = 'new') or renames one, of the channel `api` calls; the name is checked
 * by the shared schema, and a name the channel already has is shown on the field.
 */
export function LabelFormModal({
  api,
  label,
  onClose,
  onSaved,
}: {
  api: LabelsApi;
  label: LabelView | 'new' | null;
  onClose: () => void;
  onSaved: () => unknown;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();

  useEffect(() => {
    if (label) form.setFieldsValue({ name: label === 'new' ? '' : label.name });
  }, [label, form]);

  const { submit, saving } = useFormSave(
    async ({ name }: { name: string }) => {
      if (!label) return;
      if (label === 'new') await api.create(name.trim());
      else await api.rename(label.id, name.trim());
      httpEffects().toast('success', t('http.operationSucceeded'), SUCCESS_TOAST_SECONDS);
      await onSaved();
    },
    (error) => {
      if (error instanceof HttpError && error.code === api.nameTaken) {
        form.setFields([{ name: 'name', errors: [error.message] }]);
      } else showFormError(form, error);
    },
  );

  return (
    <Modal
      open={label !== null}
      title={label === 'new' ? t('labels.addTitle') : t('labels.editTitle')}
      className="label-form-modal"
      okText={t('labels.save')}
      cancelText={t('labels.cancel')}
      okButtonProps={{ loading: saving, className: 'label-save' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item name="name" label={t('labels.name')} rules={[zodRule(labelNameSchema)]}>
          <Input name="labelName" maxLength={255} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
