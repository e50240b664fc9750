import { changePasswordSchema, passwordSchema } from '@herald/shared/schemas/account.schema';
import { Button, Card, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { changePassword } from '../../api/security.api.ts';
import { applyFieldErrors, checkWithSchema, zodRule } from '../../components/form-rules.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';

interface Values {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** The change-password form of the account info screen, checked by the server's own schema. */
export function ChangePasswordCard() {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();

  const { submit, saving } = useFormSave(
    async (values: Values) => {
      if (!checkWithSchema(form, changePasswordSchema, values)) return;
      await changePassword(values);
      form.resetFields();
      httpEffects().toast('success', t('security.passwordChanged'), SUCCESS_TOAST_SECONDS);
    },
    (error) => {
      applyFieldErrors(form, error);
    },
  );

  return (
    <Card title={t('security.passwordTitle')} className="change-password-card">
      <Form form={form} layout="vertical" onFinish={submit} style={{ maxWidth: 400 }}>
        <Form.Item
          name="oldPassword"
          label={t('security.oldPassword')}
          rules={[{ required: true, message: ' ' }]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item name="newPassword" label={t('security.newPassword')} rules={[zodRule(passwordSchema)]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="confirmPassword" label={t('security.confirmPassword')}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('security.changePassword')}
        </Button>
      </Form>
    </Card>
  );
}
