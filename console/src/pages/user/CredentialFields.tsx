import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { FormField } from './FormField.tsx';
import { TextInput } from './TextInput.tsx';

/** The part of a schema form that the credential fields read and write. */
export interface CredentialForm {
  values: { username: string; password: string };
  errors: Record<string, string | undefined>;
  errorOf(field: string): string | undefined;
  set(field: 'username' | 'password', value: string): void;
}

/** User name (or email) and password, as the login and WeChat-bind forms ask for them. */
export function CredentialFields({ form }: { form: CredentialForm }) {
  const { t } = useTranslation();
  return (
    <>
      <FormField label={t('auth.userNameOrEmail')} htmlFor="username" error={form.errorOf('username')}>
        <TextInput
          id="username"
          autoComplete="username"
          prefix={<UserOutlined />}
          placeholder={t('auth.userNameOrEmailPlaceholder')}
          value={form.values.username}
          invalid={Boolean(form.errors.username)}
          onChange={(value) => form.set('username', value)}
        />
      </FormField>
      <FormField label={t('auth.password')} htmlFor="password" error={form.errorOf('password')}>
        <TextInput
          password
          id="password"
          autoComplete="current-password"
          prefix={<LockOutlined />}
          placeholder={t('auth.passwordPlaceholder')}
          value={form.values.password}
          invalid={Boolean(form.errors.password)}
          onChange={(value) => form.set('password', value)}
        />
      </FormField>
    </>
  );
}
