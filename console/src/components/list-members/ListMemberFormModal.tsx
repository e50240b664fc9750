import { Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { HttpError } from '../../infra/http/http-errors.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';
import { showFormError, zodRule } from '../form-rules.ts';
import { MemberVarsField } from '../list-import/MemberVarsField.tsx';
import { useFormSave } from '../use-form-save.ts';
import type { ListBase, ListScreenKind, MemberBase, MemberInput } from './list-kind.ts';

/** The key's field is named as the kind names it, so the server's field errors land on it. */
interface Values {
  name: string;
  vars: { name: string; value: string }[];
  [key: string]: unknown;
}

/**
 * Adds a member to a list (`member` = 'new') or edits one: its key (a number, an address), a
 * name and up to 10 variables as name/value pairs, each field checked by the kind's shared
 * schema. A key the list has already is shown on its field.
 */
export function ListMemberFormModal<
  L extends ListBase,
  K extends string,
  M extends MemberBase & Record<K, string>,
>({
  kind,
  listId,
  member,
  onClose,
  onSaved,
}: {
  kind: ListScreenKind<L, K, M>;
  listId: number;
  member: M | 'new' | null;
  onClose: () => void;
  onSaved: () => unknown;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const { area, schemas } = kind;

  useEffect(() => {
    if (!member) return;
    form.setFieldsValue(
      member === 'new'
        ? { [kind.memberKey]: '', name: '', vars: [] }
        : {
            [kind.memberKey]: member[kind.memberKey],
            name: member.name,
            vars: Object.entries(member.vars).map(([name, value]) => ({ name, value })),
          },
    );
  }, [member, form, kind.memberKey]);

  const { submit, saving } = useFormSave(
    async (values: Values) => {
      if (!member) return;
      const input = {
        [kind.memberKey]: values[kind.memberKey],
        name: values.name ?? '',
        vars: Object.fromEntries((values.vars ?? []).map((v) => [v.name.trim(), v.value])),
      } as MemberInput<K>;
      if (member === 'new') await kind.api.addMember(listId, input);
      else {
        await kind.api.updateMember(member.id, input);
        httpEffects().toast('success', t('http.operationSucceeded'), SUCCESS_TOAST_SECONDS);
      }
      await onSaved();
    },
    (error) => {
      if (error instanceof HttpError && error.code === kind.memberExists) {
        form.setFields([{ name: kind.memberKey, errors: [error.message] }]);
      } else showFormError(form, error);
    },
  );

  return (
    <Modal
      open={member !== null}
      title={member === 'new' ? t(`${area}.addMemberTitle`) : t(`${area}.editMemberTitle`)}
      className="list-member-form-modal"
      okText={t(`${area}.save`)}
      cancelText={t(`${area}.cancel`)}
      okButtonProps={{ loading: saving, className: 'list-member-save' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name={kind.memberKey as string}
          label={t(`${area}.memberKey`)}
          extra={t(`${area}.memberKeyHint`)}
          rules={[zodRule(schemas.key)]}
        >
          <Input name="memberKey" autoFocus />
        </Form.Item>
        <Form.Item name="name" label={t(`${area}.memberName`)} rules={[zodRule(schemas.name)]}>
          <Input name="memberName" maxLength={schemas.nameMax} />
        </Form.Item>
        <MemberVarsField
          label={t(`${area}.vars`)}
          max={schemas.varsMax}
          nameSchema={schemas.varName}
          valueSchema={schemas.varValue}
          texts={{
            varName: t(`${area}.varName`),
            varValue: t(`${area}.varValue`),
            addVar: t(`${area}.addVar`),
            removeVar: t(`${area}.removeVar`),
          }}
        />
      </Form>
    </Modal>
  );
}
