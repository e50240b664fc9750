import {
  previewSmsTemplate,
  smsTemplateNameSchema,
  VOICE_CODE_VARIABLE,
  voiceCodeExampleSchema,
  voiceContentSchema,
} from '@herald/shared/schemas/sms-template.schema';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Form, Input, Result, Row, Space, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { createSmsTemplate, fetchSmsTemplate, updateSmsTemplate } from '../../api/sms-templates.api.ts';
import { fieldErrorsOf, zodRule } from '../../components/form-rules.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { toastSuccess } from '../send-relative/template-toast.ts';
import { SmsPhonePreview } from './SmsPhonePreview.tsx';
import { SmsSignSelect } from './SmsSignSelect.tsx';
import { showTemplateError } from './sms-template-form.ts';
import { EDIT_PATHS, TEMPLATES_PATH } from './sms-template-paths.ts';

interface Values {
  name: string;
  signId?: number | null;
  content: string;
  code: string;
}

/**
 * A voice template, new or with `?id=` changed (console-spec §2 template/voice_templateOpt): a
 * verification code of 4-6 digits read out over the phone. Its text holds %code% exactly once;
 * the example code fills the preview of what is read out. A signature is optional.
 */
export default function VoiceTemplateEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const [form] = Form.useForm<Values>();
  const existing = useQuery({
    queryKey: ['smsTemplates', 'one', id],
    queryFn: () => fetchSmsTemplate(id as number),
    enabled: id !== null,
  });
  const template = existing.data;
  const content = Form.useWatch('content', form) ?? '';
  const code = Form.useWatch('code', form) ?? '';
  const preview = previewSmsTemplate({
    kind: 'voice',
    region: 'domestic',
    content,
    variables: { [VOICE_CODE_VARIABLE]: code.split('').join(' ') },
    signName: null,
  });

  useEffect(() => {
    if (!template) return;
    if (template.kind !== 'voice') {
      navigate(`${EDIT_PATHS[template.kind]}?id=${template.id}`, { replace: true });
      return;
    }
    form.setFieldsValue({
      name: template.name,
      signId: template.signId,
      content: template.content,
      code: template.variables[VOICE_CODE_VARIABLE] ?? '',
    });
  }, [template, form, navigate]);

  const { submit, saving } = useFormSave(
    async (values: Values) => {
      const input = {
        kind: 'voice' as const,
        name: values.name,
        signId: values.signId ?? null,
        content: values.content,
        variables: { [VOICE_CODE_VARIABLE]: values.code },
      };
      if (id === null) await createSmsTemplate(input);
      else await updateSmsTemplate(id, input);
      await queries.invalidateQueries({ queryKey: ['smsTemplates'] });
      toastSuccess(t('smsTemplates.saved'));
      navigate(`${TEMPLATES_PATH}?kind=voice`);
    },
    (error) => {
      showTemplateError(form, error);
      // The server names the example `variables.code`; this form calls it `code`.
      const codeError = fieldErrorsOf(error).find((f) => f.field === `variables.${VOICE_CODE_VARIABLE}`);
      if (codeError) form.setFields([{ name: 'code', errors: [codeError.message] }]);
    },
  );

  if (existing.isError) return <Result status="warning" title={t('smsTemplates.loadFailed')} />;

  return (
    <Card className="voice-template-edit-page" loading={id !== null && existing.isPending}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t(id === null ? 'smsTemplates.voiceAddTitle' : 'smsTemplates.voiceEditTitle')}
      </Typography.Title>
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('smsTemplates.voiceHint')} />
      {template?.status === 'rejected' && template.rejectReason ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          message={t('smsTemplates.rejectedHint', { reason: template.rejectReason })}
        />
      ) : null}
      <Row gutter={32}>
        <Col xs={24} lg={14}>
          <Form<Values>
            form={form}
            layout="vertical"
            initialValues={{ content: t('smsTemplates.voiceContentDefault'), code: '123456', signId: null }}
            onFinish={submit}
          >
            <Form.Item
              name="name"
              label={t('smsTemplates.name')}
              extra={t('smsTemplates.nameHint')}
              rules={[zodRule(smsTemplateNameSchema)]}
            >
              <Input className="voice-template-name" maxLength={64} />
            </Form.Item>
            <Form.Item name="signId" label={t('smsTemplates.sign')}>
              <SmsSignSelect region="domestic" optional />
            </Form.Item>
            <Form.Item name="content" label={t('smsTemplates.content')} rules={[zodRule(voiceContentSchema)]}>
              <Input.TextArea className="voice-template-content" rows={4} maxLength={500} showCount />
            </Form.Item>
            <Form.Item
              name="code"
              label={t('smsTemplates.voiceCodeExample')}
              rules={[zodRule(voiceCodeExampleSchema)]}
            >
              <Input className="voice-template-code" maxLength={6} style={{ width: 160 }} />
            </Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" loading={saving} className="voice-template-save">
                {t('smsTemplates.save')}
              </Button>
              <Button onClick={() => navigate(`${TEMPLATES_PATH}?kind=voice`)}>
                {t('smsTemplates.back')}
              </Button>
            </Space>
          </Form>
        </Col>
        <Col xs={24} lg={10}>
          <Typography.Text type="secondary">{t('smsTemplates.voiceReadOut')}</Typography.Text>
          <SmsPhonePreview text={preview.text} />
        </Col>
      </Row>
    </Card>
  );
}
