import { smsVarExampleSchema } from '@herald/shared/schemas/sms-template.schema';
import { Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../components/form-rules.ts';

/** One example input per variable found in the text, named `variables.<name>` as the server reports it. */
export function SmsVariableFields({ names }: { names: string[] }) {
  const { t } = useTranslation();
  if (names.length === 0) {
    return <Typography.Text type="secondary">{t('smsTemplates.variablesNone')}</Typography.Text>;
  }
  return (
    <>
      {names.map((name) => (
        <Form.Item
          key={name}
          name={['variables', name]}
          label={t('smsTemplates.variableExample', { name })}
          rules={[zodRule(smsVarExampleSchema)]}
        >
          <Input className={`sms-template-var sms-template-var-${name}`} maxLength={32} />
        </Form.Item>
      ))}
    </>
  );
}
