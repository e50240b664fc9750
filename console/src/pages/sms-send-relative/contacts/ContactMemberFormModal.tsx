import {
  SMS_CONTACT_NAME_MAX,
  SMS_CONTACT_VARS_MAX,
  smsContactNameSchema,
  smsContactPhoneSchema,
  smsContactVarNameSchema,
  smsContactVarValueSchema,
} from '@herald/shared/schemas/sms-contact.schema';
import { Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import {
  addContactMember,
  type SmsContactMemberView,
  updateContactMember,
} from '../../../api/sms-contacts.api.ts';
import { showFormError, zodRule } from '../../../components/form-rules.ts';
import { MemberVarsField } from '../../../components/list-import/MemberVarsField.tsx';
import { useFormSave } from '../../../components/use-form-save.ts';
import { httpEffects } from '../../../infra/http/http-effects.ts';
import { HttpError } from '../../../infra/http/http-errors.ts';
import { SUCCESS_TOAST_SECONDS } from '../../../infra/http/http-exceptions.ts';

interface Values {
  phone: string;
  name: string;
  vars: { name: string; value: string }[];
}

/**
 * Adds a number to a list (`member` = 'new') or edits one: the number, a name and up to 10
 * variables as name/value pairs, each field checked by the shared schema. A number already in the
 * list is shown on the phone field.
 */
export function ContactMemberFormModal({
  listId,
  member,
  onClose,
  onSaved,
}: {
  listId: number;
  member: SmsContactMemberView | 'new' | null;
  onClose: () => void;
  onSaved: () => unknown;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();

  useEffect(() => {
    if (!member) return;
    form.setFieldsValue(
      member === 'new'
        ? { phone: '', name: '', vars: [] }
        : {
            phone: member.phone,
            name: member.name,
            vars: Object.entries(member.vars).map(([name, value]) => ({ name, value })),
          },
    );
  }, [member, form]);

  const { submit, saving } = useFormSave(
    async (values: Values) => {
      if (!member) return;
      const input = {
        phone: values.phone,
        name: values.name ?? '',
        vars: Object.fromEntries((values.vars ?? []).map((v) => [v.name.trim(), v.value])),
      };
      if (member === 'new') await addContactMember(listId, input);
      else {
        await updateContactMember(member.id, input);
        httpEffects().toast('success', t('http.operationSucceeded'), SUCCESS_TOAST_SECONDS);
      }
      await onSaved();
    },
    (error) => {
      if (error instanceof HttpError && error.code === 'SMS_CONTACT_MEMBER_EXISTS') {
        form.setFields([{ name: 'phone', errors: [error.message] }]);
      } else showFormError(form, error);
    },
  );

  return (
    <Modal
      open={member !== null}
      title={member === 'new' ? t('smsContacts.addMemberTitle') : t('smsContacts.editMemberTitle')}
      className="contact-member-form-modal"
      okText={t('smsContacts.save')}
      cancelText={t('smsContacts.cancel')}
      okButtonProps={{ loading: saving, className: 'contact-member-save' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="phone"
          label={t('smsContacts.phone')}
          extra={t('smsContacts.phoneHint')}
          rules={[zodRule(smsContactPhoneSchema)]}
        >
          <Input name="contactPhone" autoFocus />
        </Form.Item>
        <Form.Item name="name" label={t('smsContacts.memberName')} rules={[zodRule(smsContactNameSchema)]}>
          <Input name="contactName" maxLength={SMS_CONTACT_NAME_MAX} />
        </Form.Item>
        <MemberVarsField
          label={t('smsContacts.vars')}
          max={SMS_CONTACT_VARS_MAX}
          nameSchema={smsContactVarNameSchema}
          valueSchema={smsContactVarValueSchema}
          texts={{
            varName: t('smsContacts.varName'),
            varValue: t('smsContacts.varValue'),
            addVar: t('smsContacts.addVar'),
            removeVar: t('smsContacts.removeVar'),
          }}
        />
      </Form>
    </Modal>
  );
}
