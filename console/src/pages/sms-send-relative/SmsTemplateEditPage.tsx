import {
  previewSmsTemplate,
  SMS_TEMPLATE_REGIONS,
  SMS_TEMPLATE_TYPES,
  type SmsTemplateRegion,
  type SmsTemplateType,
  smsContentSchema,
  smsTemplateNameSchema,
} from '@herald/shared/schemas/sms-template.schema';
import { SMS_OPT_OUT_TEXTS, smsPlaceholders } from '@herald/shared/sms/sms-content';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  Flex,
  Form,
  Input,
  Radio,
  Result,
  Row,
  Space,
  Switch,
  Typography,
} from 'antd';
import type { RuleObject } from 'antd/es/form';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import {
  createSmsTemplate,
  fetchSmsTemplate,
  fetchSmsTemplateSigns,
  updateSmsTemplate,
} from '../../api/sms-templates.api.ts';
import { zodRule } from '../../components/form-rules.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { toastSuccess } from '../send-relative/template-toast.ts';
import { SmsCountLine } from './SmsCountLine.tsx';
import { SmsPhonePreview } from './SmsPhonePreview.tsx';
import { SmsSignSelect } from './SmsSignSelect.tsx';
import { SmsVariableFields } from './SmsVariableFields.tsx';
import { showTemplateError } from './sms-template-form.ts';
import { EDIT_PATHS, TEMPLATES_PATH } from './sms-template-paths.ts';

interface Values {
  name: string;
  smsType: SmsTemplateType;
  region: SmsTemplateRegion;
  signId?: number;
  content: string;
  variables?: Record<string, string>;
  trackLinks: boolean;
}

/**
 * An SMS template, new or with `?id=` changed (console-spec §2 template/s_templateOpt): name,
 * type, region, one of the account's signatures, the content checked by the shared rules as it
 * is typed, with the live counter (the same `countSms` the sender bills by), one example per
 * variable found in it, link tracking and a handset preview with the examples in place. Saving
 * leaves it unsubmitted; it is submitted from the list.
 */
export default function SmsTemplateEditPage() {
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
  const signs = useQuery({ queryKey: ['smsTemplates', 'signs'], queryFn: fetchSmsTemplateSigns });
  const template = existing.data;
  const content = Form.useWatch('content', form) ?? '';
  const region = Form.useWatch('region', form) ?? 'domestic';
  const smsType = Form.useWatch('smsType', form) ?? 'code';
  const signId = Form.useWatch('signId', form);
  const variables = Form.useWatch('variables', form) ?? {};
  const names = smsPlaceholders(content).names;
  const signName = signs.data?.find((s) => s.id === signId)?.name ?? null;
  const preview = previewSmsTemplate({ kind: 'sms', region, content, variables, signName });

  useEffect(() => {
    if (!template) return;
    if (template.kind !== 'sms') {
      navigate(`${EDIT_PATHS[template.kind]}?id=${template.id}`, { replace: true });
      return;
    }
    form.setFieldsValue({
      name: template.name,
      smsType: template.smsType,
      region: template.region,
      signId: template.signId ?? undefined,
      content: template.content,
      variables: template.variables,
      trackLinks: template.trackLinks,
    });
  }, [template, form, navigate]);

  const { submit, saving } = useFormSave(
    async (values: Values) => {
      const input = {
        kind: 'sms' as const,
        name: values.name,
        smsType: values.smsType,
        region: values.region,
        signId: values.signId as number,
        content: values.content,
        variables: Object.fromEntries(names.map((name) => [name, values.variables?.[name] ?? ''])),
        trackLinks: values.trackLinks,
      };
      if (id === null) await createSmsTemplate(input);
      else await updateSmsTemplate(id, input);
      await queries.invalidateQueries({ queryKey: ['smsTemplates'] });
      toastSuccess(t('smsTemplates.saved'));
      navigate(`${TEMPLATES_PATH}?kind=sms`);
    },
    (error) => showTemplateError(form, error),
  );

  if (existing.isError) return <Result status="warning" title={t('smsTemplates.loadFailed')} />;
  const contentRule = ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) =>
    zodRule(smsContentSchema((getFieldValue('smsType') as SmsTemplateType) ?? 'code')) as RuleObject;
  const optOut = region === 'international' ? SMS_OPT_OUT_TEXTS[1] : SMS_OPT_OUT_TEXTS[0];

  return (
    <Card className="sms-template-edit-page" loading={id !== null && existing.isPending}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t(id === null ? 'smsTemplates.smsAddTitle' : 'smsTemplates.smsEditTitle')}
      </Typography.Title>
      {template?.status === 'rejected' && template.rejectReason ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          message={t('smsTemplates.rejectedHint', { reason: template.rejectReason })}
        />
      ) : template ? (
        <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('smsTemplates.editHint')} />
      ) : null}
      <Row gutter={32}>
        <Col xs={24} lg={14}>
          <Form<Values>
            form={form}
            layout="vertical"
            initialValues={{ smsType: 'code', region: 'domestic', content: '', trackLinks: false }}
            onFinish={submit}
            onValuesChange={(changed) => {
              if ('smsType' in changed && form.isFieldTouched('content'))
                void form.validateFields(['content']);
              if ('region' in changed) form.setFieldValue('signId', undefined);
            }}
          >
            <Form.Item
              name="name"
              label={t('smsTemplates.name')}
              extra={t('smsTemplates.nameHint')}
              rules={[zodRule(smsTemplateNameSchema)]}
            >
              <Input className="sms-template-name" maxLength={64} />
            </Form.Item>
            <Form.Item name="smsType" label={t('smsTemplates.type')}>
              <Radio.Group className="sms-template-type">
                {SMS_TEMPLATE_TYPES.map((type) => (
                  <Radio.Button key={type} value={type}>
                    {t(`smsTemplates.types.${type}`)}
                  </Radio.Button>
                ))}
              </Radio.Group>
            </Form.Item>
            <Form.Item name="region" label={t('smsTemplates.region')}>
              <Radio.Group className="sms-template-region">
                {SMS_TEMPLATE_REGIONS.map((r) => (
                  <Radio.Button key={r} value={r}>
                    {t(`smsTemplates.regions.${r}`)}
                  </Radio.Button>
                ))}
              </Radio.Group>
            </Form.Item>
            <Form.Item
              name="signId"
              label={t('smsTemplates.sign')}
              extra={t('smsTemplates.signHint')}
              rules={[{ required: true, message: t('smsTemplates.signPlaceholder') }]}
            >
              <SmsSignSelect region={region} />
            </Form.Item>
            <Form.Item
              name="content"
              label={t('smsTemplates.content')}
              extra={
                <Flex vertical gap={4} style={{ marginTop: 4 }}>
                  <SmsCountLine
                    count={
                      preview.count ?? { text: '', characters: 0, parts: 0, encoding: 'gsm7', perPart: 160 }
                    }
                  />
                  <span>{t('smsTemplates.contentHint')}</span>
                  {smsType === 'marketing' ? <span>{t('smsTemplates.marketingHint')}</span> : null}
                </Flex>
              }
              rules={[contentRule]}
            >
              <Input.TextArea
                className="sms-template-content"
                rows={5}
                maxLength={500}
                showCount
                placeholder={t('smsTemplates.contentPlaceholder')}
              />
            </Form.Item>
            {smsType === 'marketing' && !content.endsWith(optOut) ? (
              <Button
                size="small"
                className="sms-template-opt-out"
                style={{ marginTop: -8, marginBottom: 16 }}
                onClick={() => {
                  form.setFieldValue('content', `${content}${optOut}`);
                  void form.validateFields(['content']);
                }}
              >
                {t('smsTemplates.insertOptOut')}
              </Button>
            ) : null}
            <Form.Item label={t('smsTemplates.variables')} className="sms-template-variables">
              <SmsVariableFields names={names} />
            </Form.Item>
            <Form.Item
              name="trackLinks"
              label={t('smsTemplates.trackLinks')}
              extra={t('smsTemplates.trackLinksHint')}
              valuePropName="checked"
            >
              <Switch className="sms-template-track" />
            </Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" loading={saving} className="sms-template-save">
                {t('smsTemplates.save')}
              </Button>
              <Button onClick={() => navigate(`${TEMPLATES_PATH}?kind=sms`)}>{t('smsTemplates.back')}</Button>
            </Space>
          </Form>
        </Col>
        <Col xs={24} lg={10}>
          <SmsPhonePreview text={preview.text} />
        </Col>
      </Row>
    </Card>
  );
}
