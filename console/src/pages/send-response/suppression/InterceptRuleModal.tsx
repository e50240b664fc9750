import {
  INTERCEPT_RULE_TYPES,
  type InterceptRuleType,
  interceptRuleInputSchema,
} from '@herald/shared/schemas/suppression.schema';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchApiUsers } from '../../../api/api-users.api.ts';
import { addRule } from '../../../api/suppression.api.ts';
import { checkWithSchema, showFormError } from '../../../components/form-rules.ts';
import { useFormSave } from '../../../components/use-form-save.ts';
import { httpEffects } from '../../../infra/http/http-effects.ts';
import { HttpError } from '../../../infra/http/http-errors.ts';
import { SUCCESS_TOAST_SECONDS } from '../../../infra/http/http-exceptions.ts';

interface Values {
  type: InterceptRuleType;
  value: string;
  apiUserId?: number;
  note?: string;
}

/** Adds a custom interception rule; checked with the shared schema before it is sent. */
export function InterceptRuleModal({
  open,
  onClose,
  onSaved,
}: {
  open: boolean;
  onClose: () => void;
  onSaved: () => unknown;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const apiUsers = useQuery({ queryKey: ['apiUsers', 'list'], queryFn: fetchApiUsers, enabled: open });

  const { submit, saving } = useFormSave(
    async (values: Values) => {
      if (!checkWithSchema(form, interceptRuleInputSchema, values)) return;
      await addRule(values);
      httpEffects().toast('success', t('http.operationSucceeded'), SUCCESS_TOAST_SECONDS);
      form.resetFields();
      await onSaved();
    },
    (error) => {
      if (error instanceof HttpError && error.code === 'SUPPRESSION_RULE_TAKEN') {
        form.setFields([{ name: 'value', errors: [error.message] }]);
      } else showFormError(form, error);
    },
  );

  return (
    <Modal
      open={open}
      title={t('suppression.ruleAdd')}
      className="intercept-rule-modal"
      okText={t('suppression.save')}
      cancelText={t('suppression.cancel')}
      okButtonProps={{ loading: saving, className: 'intercept-rule-save' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ type: 'domain' }}>
        <Form.Item name="type" label={t('suppression.ruleType')}>
          <Select
            options={INTERCEPT_RULE_TYPES.map((v) => ({ value: v, label: t(`suppression.ruleTypes.${v}`) }))}
          />
        </Form.Item>
        <Form.Item name="value" label={t('suppression.ruleValue')} extra={t('suppression.ruleHint')}>
          <Input name="ruleValue" maxLength={254} />
        </Form.Item>
        <Form.Item name="apiUserId" label={t('suppression.ruleScope')}>
          <Select
            allowClear
            placeholder={t('suppression.scopeAll')}
            options={(apiUsers.data ?? []).map((u) => ({ value: u.id, label: u.name }))}
          />
        </Form.Item>
        <Form.Item name="note" label={t('suppression.ruleNote')}>
          <Input name="ruleNote" maxLength={255} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
