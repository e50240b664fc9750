import {
  ADDRESS_MEMBER_NAME_MAX,
  ADDRESS_MEMBER_VARS_MAX,
  addressMemberAddressSchema,
  addressMemberNameSchema,
  addressMemberVarNameSchema,
  addressMemberVarValueSchema,
} from '@herald/shared/schemas/address-list.schema';
import { Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type AddressMemberView,
  addAddressMember,
  updateAddressMember,
} from '../../../api/address-lists.api.ts';
import { showFormError, zodRule } from '../../../components/form-rules.ts';
import { MemberVarsField } from '../../../components/list-import/MemberVarsField.tsx';
import { useFormSave } from '../../../components/use-form-save.ts';
import { httpEffects } from '../../../infra/http/http-effects.ts';
import { HttpError } from '../../../infra/http/http-errors.ts';
import { SUCCESS_TOAST_SECONDS } from '../../../infra/http/http-exceptions.ts';

interface Values {
  address: string;
  name: string;
  vars: { name: string; value: string }[];
}

/**
 * Adds an address to a list (`member` = 'new') or edits one: the address, a name and up to 10
 * variables, each field checked by the shared schema. An address the list has is shown on its field.
 */
export function AddressMemberFormModal({
  listId,
  member,
  onClose,
  onSaved,
}: {
  listId: number;
  member: AddressMemberView | 'new' | null;
  onClose: () => void;
  onSaved: () => unknown;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();

  useEffect(() => {
    if (!member) return;
    form.setFieldsValue(
      member === 'new'
        ? { address: '', name: '', vars: [] }
        : {
            address: member.address,
            name: member.name,
            vars: Object.entries(member.vars).map(([name, value]) => ({ name, value })),
          },
    );
  }, [member, form]);

  const { submit, saving } = useFormSave(
    async (values: Values) => {
      if (!member) return;
      const input = {
        address: values.address,
        name: values.name ?? '',
        vars: Object.fromEntries((values.vars ?? []).map((v) => [v.name.trim(), v.value])),
      };
      if (member === 'new') await addAddressMember(listId, input);
      else {
        await updateAddressMember(member.id, input);
        httpEffects().toast('success', t('http.operationSucceeded'), SUCCESS_TOAST_SECONDS);
      }
      await onSaved();
    },
    (error) => {
      if (error instanceof HttpError && error.code === 'ADDRESS_MEMBER_EXISTS') {
        form.setFields([{ name: 'address', errors: [error.message] }]);
      } else showFormError(form, error);
    },
  );

  return (
    <Modal
      open={member !== null}
      title={member === 'new' ? t('addressLists.addMemberTitle') : t('addressLists.editMemberTitle')}
      className="address-member-form-modal"
      okText={t('addressLists.save')}
      cancelText={t('addressLists.cancel')}
      okButtonProps={{ loading: saving, className: 'address-member-save' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="address"
          label={t('addressLists.memberAddress')}
          rules={[zodRule(addressMemberAddressSchema)]}
        >
          <Input name="memberAddress" autoFocus />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('addressLists.memberName')}
          rules={[zodRule(addressMemberNameSchema)]}
        >
          <Input name="memberName" maxLength={ADDRESS_MEMBER_NAME_MAX} />
        </Form.Item>
        <MemberVarsField
          label={t('addressLists.vars')}
          max={ADDRESS_MEMBER_VARS_MAX}
          nameSchema={addressMemberVarNameSchema}
          valueSchema={addressMemberVarValueSchema}
          texts={{
            varName: t('addressLists.varName'),
            varValue: t('addressLists.varValue'),
            addVar: t('addressLists.addVar'),
            removeVar: t('addressLists.removeVar'),
          }}
        />
      </Form>
    </Modal>
  );
}
