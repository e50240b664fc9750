import {
  ADDRESS_LIST_DESCRIPTION_MAX,
  ADDRESS_LIST_NAME_MAX,
  ADDRESS_LIST_PREFIX_MAX,
  type AddressListInput,
  addressListInputSchema,
  addressListNameSchema,
  addressListPrefixSchema,
} from '@herald/shared/schemas/address-list.schema';
import { Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type AddressListView,
  createAddressList,
  updateAddressList,
} from '../../../api/address-lists.api.ts';
import { checkWithSchema, showFormError, zodRule } from '../../../components/form-rules.ts';
import { useFormSave } from '../../../components/use-form-save.ts';
import { httpEffects } from '../../../infra/http/http-effects.ts';
import { HttpError } from '../../../infra/http/http-errors.ts';
import { SUCCESS_TOAST_SECONDS } from '../../../infra/http/http-exceptions.ts';

/**
 * Creates an address list (`list` = 'new') or changes one: its name, its alias's prefix (the
 * platform's list domain after the @) and its description, checked by the shared schema; an alias
 * taken already is shown on its field.
 */
export function AddressListFormModal({
  list,
  domain,
  onClose,
  onSaved,
}: {
  list: AddressListView | 'new' | null;
  domain: string;
  onClose: () => void;
  onSaved: (saved: AddressListView) => unknown;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AddressListInput>();

  useEffect(() => {
    if (!list) return;
    form.setFieldsValue(
      list === 'new'
        ? { name: '', prefix: '', description: '' }
        : { name: list.name, prefix: list.address.split('@')[0] ?? '', description: list.description },
    );
  }, [list, form]);

  const { submit, saving } = useFormSave(
    async (values: AddressListInput) => {
      if (!list || !checkWithSchema(form, addressListInputSchema, values)) return;
      const saved =
        list === 'new' ? await createAddressList(values) : await updateAddressList(list.id, values);
      // A creation answers 201, which the client toasts; a change answers 200.
      if (list !== 'new') httpEffects().toast('success', t('http.operationSucceeded'), SUCCESS_TOAST_SECONDS);
      await onSaved(saved);
    },
    (error) => {
      if (error instanceof HttpError && error.code === 'ADDRESS_LIST_ADDRESS_TAKEN') {
        form.setFields([{ name: 'prefix', errors: [error.message] }]);
      } else showFormError(form, error);
    },
  );

  return (
    <Modal
      open={list !== null}
      title={list === 'new' ? t('addressLists.addTitle') : t('addressLists.editTitle')}
      className="address-list-form-modal"
      okText={t('addressLists.save')}
      cancelText={t('addressLists.cancel')}
      okButtonProps={{ loading: saving, className: 'address-list-save' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item name="name" label={t('addressLists.name')} rules={[zodRule(addressListNameSchema)]}>
          <Input name="addressListName" maxLength={ADDRESS_LIST_NAME_MAX} autoFocus />
        </Form.Item>
        <Form.Item
          name="prefix"
          label={t('addressLists.address')}
          extra={t('addressLists.prefixHint')}
          rules={[zodRule(addressListPrefixSchema)]}
        >
          <Input name="addressListPrefix" maxLength={ADDRESS_LIST_PREFIX_MAX} addonAfter={`@${domain}`} />
        </Form.Item>
        <Form.Item name="description" label={t('addressLists.description')}>
          <Input.TextArea name="addressListDescription" maxLength={ADDRESS_LIST_DESCRIPTION_MAX} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
