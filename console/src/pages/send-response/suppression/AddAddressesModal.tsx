import { addressEntrySchema } from '@herald/shared/schemas/suppression.schema';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchApiUsers } from '../../../api/api-users.api.ts';
import { fetchLabelOptions } from '../../../api/labels.api.ts';
import { addEntries } from '../../../api/suppression.api.ts';
import { showFormError, zodRule } from '../../../components/form-rules.ts';
import { useFormSave } from '../../../components/use-form-save.ts';
import { httpEffects } from '../../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../../infra/http/http-exceptions.ts';

interface Values {
  addresses: string;
  apiUserId?: number;
  labelId?: number;
}

/** Adds addresses (≤ 200, `;`-separated) to the block list or, optionally scoped, to the unsubscribes. */
export function AddAddressesModal({
  path,
  open,
  onClose,
  onSaved,
}: {
  path: 'unsubscribes' | 'block';
  open: boolean;
  onClose: () => void;
  onSaved: () => unknown;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const scoped = path === 'unsubscribes';
  const apiUsers = useQuery({
    queryKey: ['apiUsers', 'list'],
    queryFn: fetchApiUsers,
    enabled: open && scoped,
  });
  const labels = useQuery({
    queryKey: ['labels', 'options'],
    queryFn: fetchLabelOptions,
    enabled: open && scoped,
  });

  const { submit, saving } = useFormSave(
    async (values: Values) => {
      const { added } = await addEntries(path, values);
      httpEffects().toast('success', t('suppression.added', { count: added }), SUCCESS_TOAST_SECONDS);
      form.resetFields();
      await onSaved();
    },
    (error) => {
      showFormError(form, error);
    },
  );

  return (
    <Modal
      open={open}
      title={t('suppression.addTitle')}
      className="suppression-add-modal"
      okText={t('suppression.save')}
      cancelText={t('suppression.cancel')}
      okButtonProps={{ loading: saving, className: 'suppression-save' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="addresses"
          label={t('suppression.addresses')}
          extra={t('suppression.addressesHint')}
          rules={[zodRule(addressEntrySchema)]}
        >
          <Input.TextArea name="addresses" rows={4} autoFocus />
        </Form.Item>
        {scoped && (
          <>
            <Form.Item name="apiUserId" label={t('suppression.apiUser')}>
              <Select
                allowClear
                placeholder={t('suppression.scopeAll')}
                options={(apiUsers.data ?? []).map((u) => ({ value: u.id, label: u.name }))}
              />
            </Form.Item>
            <Form.Item name="labelId" label={t('suppression.label')}>
              <Select allowClear placeholder={t('suppression.scopeAll')} options={labels.data ?? []} />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}
