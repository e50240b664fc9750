import {
  SMS_CONTACT_DESCRIPTION_MAX,
  SMS_CONTACT_LIST_NAME_MAX,
  type SmsContactListInput,
  smsContactListInputSchema,
  smsContactListNameSchema,
} from '@herald/shared/schemas/sms-contact.schema';
import { Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import {
  createContactList,
  type SmsContactListView,
  updateContactList,
} from '../../../api/sms-contacts.api.ts';
import { checkWithSchema, showFormError, zodRule } from '../../../components/form-rules.ts';
import { useFormSave } from '../../../components/use-form-save.ts';
import { httpEffects } from '../../../infra/http/http-effects.ts';
import { HttpError } from '../../../infra/http/http-errors.ts';
import { SUCCESS_TOAST_SECONDS } from '../../../infra/http/http-exceptions.ts';

/**
 * Creates a contact list (`list` = 'new') or renames one and changes its description; the fields
 * are checked by the shared schema, and a name the account has already is shown on the field.
 */
export function ContactListFormModal({
  list,
  onClose,
  onSaved,
}: {
  list: SmsContactListView | 'new' | null;
  onClose: () => void;
  onSaved: (saved: SmsContactListView) => unknown;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SmsContactListInput>();

  useEffect(() => {
    if (!list) return;
    form.setFieldsValue(list === 'new' ? { name: '', description: '' } : list);
  }, [list, form]);

  const { submit, saving } = useFormSave(
    async (values: SmsContactListInput) => {
      if (!list || !checkWithSchema(form, smsContactListInputSchema, values)) return;
      const saved =
        list === 'new' ? await createContactList(values) : await updateContactList(list.id, values);
      // A creation answers 201, which the client toasts; a change answers 200.
      if (list !== 'new') httpEffects().toast('success', t('http.operationSucceeded'), SUCCESS_TOAST_SECONDS);
      await onSaved(saved);
    },
    (error) => {
      if (error instanceof HttpError && error.code === 'SMS_CONTACT_LIST_NAME_TAKEN') {
        form.setFields([{ name: 'name', errors: [error.message] }]);
      } else showFormError(form, error);
    },
  );

  return (
    <Modal
      open={list !== null}
      title={list === 'new' ? t('smsContacts.addTitle') : t('smsContacts.editTitle')}
      className="contact-list-form-modal"
      okText={t('smsContacts.save')}
      cancelText={t('smsContacts.cancel')}
      okButtonProps={{ loading: saving, className: 'contact-list-save' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item name="name" label={t('smsContacts.name')} rules={[zodRule(smsContactListNameSchema)]}>
          <Input name="contactListName" maxLength={SMS_CONTACT_LIST_NAME_MAX} autoFocus />
        </Form.Item>
        <Form.Item name="description" label={t('smsContacts.description')}>
          <Input.TextArea name="contactListDescription" maxLength={SMS_CONTACT_DESCRIPTION_MAX} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
