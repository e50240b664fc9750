import { PERMISSIONS } from '@herald/shared/permissions';
import {
  DEFAULT_UNSUBSCRIBE_PAGE,
  UNSUBSCRIBE_REASONS,
  type UnsubscribePageInput,
  unsubscribePageInputSchema,
} from '@herald/shared/schemas/unsubscribe-page.schema';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Checkbox, Col, Form, Input, Radio, Result, Row, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { checkWithSchema, showFormError } from '../../components/form-rules.ts';
import { useCan } from '../../components/use-can.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';
import { ColourField } from './unsubscribe/ColourField.tsx';
import { UnsubscribeFrame } from './unsubscribe/UnsubscribeFrame.tsx';
import {
  createUnsubscribePage,
  fetchUnsubscribePage,
  previewUnsubscribeDraft,
  updateUnsubscribePage,
} from './unsubscribe/unsubscribe-pages.api.ts';

const LIST_PATH = '/sendSetting/unsubsribeSetting';
const COLOURS = [
  'pageBackground',
  'formBackground',
  'textColor',
  'confirmBackground',
  'confirmTextColor',
  'cancelBackground',
  'cancelTextColor',
] as const;
const PREVIEW_DELAY_MS = 300;

type Values = UnsubscribePageInput;

/** Renders the draft on the server (the same HTML recipients get) shortly after each change. */
function useLivePreview(values: Values | undefined): string | undefined {
  const [html, setHtml] = useState<string>();
  const key = JSON.stringify(values ?? null);
  useEffect(() => {
    const draft = JSON.parse(key) as Values | null;
    // A half-typed colour or URL keeps the last good preview instead of flashing an error.
    if (!draft || !unsubscribePageInputSchema.safeParse({ ...draft, name: 'preview' }).success) return;
    let current = true;
    const timer = setTimeout(() => {
      previewUnsubscribeDraft(draft)
        .then((next) => current && setHtml(next))
        .catch(() => undefined);
    }, PREVIEW_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key]);
  return html;
}

/**
 * The unsubscribe page designer (console-spec §2 unsubsribeSetting/stylePage; `?id=` edits):
 * name, logo, colours, language, reasons, jump URL, checked by the shared schema, with a live
 * preview of the page as recipients will see it.
 */
export default function UnsubscribeStylePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const [form] = Form.useForm<Values>();
  const canChange = useCan(PERMISSIONS.EMAIL_SETTINGS, 'full');
  const page = useQuery({
    queryKey: ['unsubscribePages', 'one', id],
    queryFn: () => fetchUnsubscribePage(id ?? 0),
    enabled: id !== null,
    retry: false,
  });
  const values = Form.useWatch([], form) as Values | undefined;
  const html = useLivePreview(values);

  useEffect(() => {
    const p = page.data;
    if (!p) return;
    form.setFieldsValue({ ...p, logoUrl: p.logoUrl ?? '', jumpUrl: p.jumpUrl ?? '' });
  }, [page.data, form]);

  const { submit, saving } = useFormSave(
    async (input: Values) => {
      if (!checkWithSchema(form, unsubscribePageInputSchema, input)) return;
      if (id) await updateUnsubscribePage(id, input);
      else await createUnsubscribePage(input);
      await queries.invalidateQueries({ queryKey: ['unsubscribePages'] });
      httpEffects().toast('success', t('http.operationSucceeded'), SUCCESS_TOAST_SECONDS);
      navigate(LIST_PATH);
    },
    (error) => {
      showFormError(form, error);
    },
  );

  if (page.isError) {
    return (
      <Result
        status="warning"
        title={t('unsubscribePage.notFound')}
        extra={<Button onClick={() => navigate(LIST_PATH)}>{t('unsubscribePage.back')}</Button>}
      />
    );
  }
  const { name: _name, ...defaults } = DEFAULT_UNSUBSCRIBE_PAGE;
  return (
    <Card className="unsubscribe-style-page" loading={id !== null && page.isPending}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {id ? t('unsubscribePage.styleEdit') : t('unsubscribePage.styleNew')}
      </Typography.Title>
      <Row gutter={32}>
        <Col xs={24} lg={12}>
          <Form<Values>
            form={form}
            layout="vertical"
            className="unsubscribe-style-form"
            disabled={!canChange}
            initialValues={{ ...defaults, name: '', logoUrl: '', jumpUrl: '' }}
            onFinish={submit}
            onValuesChange={(changed: Partial<Values>) =>
              // Errors come from the schema on save; a field being corrected drops its old one.
              form.setFields(Object.keys(changed).map((name) => ({ name: name as keyof Values, errors: [] })))
            }
          >
            <Typography.Title level={5}>{t('unsubscribePage.content')}</Typography.Title>
            <Form.Item name="name" label={t('unsubscribePage.name')} required>
              <Input maxLength={64} />
            </Form.Item>
            <Form.Item name="logoUrl" label={t('unsubscribePage.logoUrl')}>
              <Input placeholder={t('unsubscribePage.urlPlaceholder')} />
            </Form.Item>
            <Form.Item name="language" label={t('unsubscribePage.language')} required>
              <Radio.Group
                options={[
                  { value: 'zh-cn', label: t('unsubscribePage.languageZh') },
                  { value: 'en', label: t('unsubscribePage.languageEn') },
                  { value: 'both', label: t('unsubscribePage.languageBoth') },
                ]}
              />
            </Form.Item>
            <Form.Item name="reasons" label={t('unsubscribePage.reasons')} required>
              <Checkbox.Group
                options={UNSUBSCRIBE_REASONS.map((r) => ({
                  value: r,
                  label: t(`unsubscribePage.reason_${r}`),
                }))}
              />
            </Form.Item>
            <Form.Item
              name="jumpUrl"
              label={t('unsubscribePage.jumpUrl')}
              extra={t('unsubscribePage.jumpUrlHint')}
            >
              <Input placeholder={t('unsubscribePage.urlPlaceholder')} />
            </Form.Item>
            <Typography.Title level={5}>{t('unsubscribePage.colours')}</Typography.Title>
            <Row gutter={16}>
              {COLOURS.map((field) => (
                <Col span={12} key={field}>
                  <Form.Item name={field} label={t(`unsubscribePage.${field}`)}>
                    <ColourField />
                  </Form.Item>
                </Col>
              ))}
            </Row>
            <Space>
              {canChange && (
                <Button type="primary" htmlType="submit" loading={saving} className="unsubscribe-save">
                  {t('unsubscribePage.save')}
                </Button>
              )}
              <Button disabled={false} onClick={() => navigate(LIST_PATH)}>
                {t('unsubscribePage.back')}
              </Button>
            </Space>
          </Form>
        </Col>
        <Col xs={24} lg={12}>
          <div style={{ position: 'sticky', top: 16 }}>
            <Typography.Title level={5}>{t('unsubscribePage.livePreview')}</Typography.Title>
            <UnsubscribeFrame html={html} />
          </div>
        </Col>
      </Row>
    </Card>
  );
}
