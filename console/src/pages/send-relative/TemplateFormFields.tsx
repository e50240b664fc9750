import {
  TEMPLATE_TYPES,
  templateInvokeNameSchema,
  templateNameSchema,
  templateVariables,
  utf8Bytes,
} from '@herald/shared/schemas/template.schema';
import { Alert, Form, Input, Radio, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../components/form-rules.ts';

/**
 * The fields both template editors share (name, invoke name, type, subject, summary), checked by
 * the shared schema's rules; the content editor differs and is the caller's.
 */
export function TemplateFormFields() {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const summary = Form.useWatch('summary', form) as string | undefined;
  return (
    <>
      <Form.Item name="name" label={t('templates.name')} rules={[zodRule(templateNameSchema)]}>
        <Input maxLength={64} data-testid="template-name" />
      </Form.Item>
      <Form.Item
        name="invokeName"
        label={t('templates.invokeName')}
        rules={[zodRule(templateInvokeNameSchema)]}
      >
        <Input maxLength={128} data-testid="template-invoke-name" />
      </Form.Item>
      <Form.Item name="templateType" label={t('templates.templateType')}>
        <Radio.Group>
          {TEMPLATE_TYPES.map((type) => (
            <Radio key={type} value={type} data-testid={`template-type-${type}`}>
              {t(`templates.type.${type}`)}
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      <Form.Item name="subject" label={t('templates.subject')}>
        <Input maxLength={255} data-testid="template-subject" />
      </Form.Item>
      <Form.Item
        name="summary"
        label={t('templates.summary')}
        extra={t('templates.summaryHelp', { bytes: utf8Bytes(summary ?? '') })}
      >
        <Input.TextArea rows={2} data-testid="template-summary" />
      </Form.Item>
    </>
  );
}

/** The `%variable%` hint under a content editor, with the variables the template uses so far. */
export function TemplateVariablesHint({ subject, html }: { subject?: string; html?: string }) {
  const { t } = useTranslation();
  const variables = templateVariables(subject, html);
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 16 }}
      title={t('templates.variablesHint')}
      description={
        <Space wrap size={4} data-testid="template-variables">
          <Typography.Text type="secondary">{t('templates.variablesFound')}</Typography.Text>
          {variables.length === 0 ? (
            <Typography.Text type="secondary">{t('templates.variablesNone')}</Typography.Text>
          ) : (
            variables.map((name) => <Tag key={name}>%{name}%</Tag>)
          )}
        </Space>
      }
    />
  );
}
