import {
  mmsPageProblem,
  mmsTitleSchema,
  previewSmsTemplate,
  smsTemplateNameSchema,
} from '@herald/shared/schemas/sms-template.schema';
import { smsPlaceholders } from '@herald/shared/sms/sms-content';
import {
  MMS_MAX_BYTES,
  MMS_PAGES_MAX,
  type MmsMedia,
  type MmsPage,
  mmsBytes,
} from '@herald/shared/sms/sms-mms';
import { validationMessage } from '@herald/shared/validation';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  Flex,
  Form,
  Input,
  Progress,
  Radio,
  Result,
  Row,
  Space,
  Typography,
  Upload,
} from 'antd';
import i18next from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import {
  createSmsTemplate,
  fetchSmsTemplate,
  fetchSmsTemplateSigns,
  updateSmsTemplate,
} from '../../api/sms-templates.api.ts';
import { fieldErrorsOf, zodRule } from '../../components/form-rules.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { toastSuccess } from '../send-relative/template-toast.ts';
import { SmsPhonePreview } from './SmsPhonePreview.tsx';
import { SmsSignSelect } from './SmsSignSelect.tsx';
import { SmsVariableFields } from './SmsVariableFields.tsx';
import { showTemplateError } from './sms-template-form.ts';
import { EDIT_PATHS, formatBytes, TEMPLATES_PATH } from './sms-template-paths.ts';

interface Values {
  name: string;
  smsType: 'notice' | 'marketing';
  signId?: number;
  title: string;
  variables?: Record<string, string>;
}

/** Browsers name some sound types their own way; the template keeps the standard names. */
const TYPE_ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'audio/mp3': 'audio/mpeg',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/mid': 'audio/midi',
  'audio/x-midi': 'audio/midi',
};
const BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  mp3: 'audio/mpeg',
  amr: 'audio/amr',
  mid: 'audio/midi',
  midi: 'audio/midi',
  wav: 'audio/wav',
};

async function readMedia(file: File): Promise<MmsMedia> {
  const buffer = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < buffer.length; i += 0x8000) {
    binary += String.fromCharCode(...buffer.subarray(i, i + 0x8000));
  }
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  const type =
    TYPE_ALIASES[file.type] ?? (file.type || BY_EXTENSION[extension] || 'application/octet-stream');
  return { name: file.name, type, data: btoa(binary) };
}

const lang = () => (i18next.language === 'en' ? 'en' : 'zh-cn');

/** The page being written: its text and media, and the rule it breaks once "save" was tried. */
function PageEditor({
  page,
  onChange,
  problem,
}: {
  page: MmsPage;
  onChange: (page: MmsPage) => void;
  problem: string | null;
}) {
  const { t } = useTranslation();
  const media = (field: 'image' | 'audio', accept: string, label: string) => (
    <Space>
      <Upload
        accept={accept}
        showUploadList={false}
        beforeUpload={async (file) => {
          onChange({ ...page, [field]: await readMedia(file) });
          return Upload.LIST_IGNORE;
        }}
      >
        <Button className={`mms-page-${field}`}>{label}</Button>
      </Upload>
      {page[field] ? (
        <>
          <Typography.Text>
            {page[field]?.name} ({formatBytes(Math.floor(((page[field]?.data.length ?? 0) * 3) / 4))})
          </Typography.Text>
          <Button type="link" danger onClick={() => onChange({ ...page, [field]: undefined })}>
            {t('smsTemplates.mmsRemove')}
          </Button>
        </>
      ) : null}
    </Space>
  );
  return (
    <Flex vertical gap={12} className="mms-page-editor">
      <Input.TextArea
        className="mms-page-text"
        rows={3}
        maxLength={500}
        showCount
        placeholder={t('smsTemplates.mmsPageText')}
        value={page.text ?? ''}
        onChange={(event) => onChange({ ...page, text: event.target.value })}
      />
      {media('image', '.jpg,.jpeg,.png,.gif', t('smsTemplates.mmsChooseImage'))}
      {media('audio', '.mp3,.amr,.mid,.midi,.wav', t('smsTemplates.mmsChooseAudio'))}
      {problem ? <Alert type="error" showIcon message={problem} className="mms-page-problem" /> : null}
    </Flex>
  );
}

/**
 * An MMS template, new or with `?id=` changed (console-spec §2 template/mms_templateOpt): name,
 * type, signature, title and 1-3 pages of text, image and sound. A page is saved (and checked by
 * the shared page rule) before the next is added; the size meter counts the whole MMS against
 * 100 KB as the server does. Media travel inside the template as base64.
 */
export default function MmsTemplateEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const [form] = Form.useForm<Values>();
  const [pages, setPages] = useState<MmsPage[]>([]);
  const [editing, setEditing] = useState<number | 'new' | null>(id === null ? 'new' : null);
  const [draft, setDraft] = useState<MmsPage>({});
  const [pageProblem, setPageProblem] = useState<string | null>(null);
  const [formProblem, setFormProblem] = useState<string | null>(null);
  const existing = useQuery({
    queryKey: ['smsTemplates', 'one', id],
    queryFn: () => fetchSmsTemplate(id as number),
    enabled: id !== null,
  });
  const signs = useQuery({ queryKey: ['smsTemplates', 'signs'], queryFn: fetchSmsTemplateSigns });
  const template = existing.data;
  const title = Form.useWatch('title', form) ?? '';
  const signId = Form.useWatch('signId', form);
  const variables = Form.useWatch('variables', form) ?? {};

  useEffect(() => {
    if (!template) return;
    if (template.kind !== 'mms') {
      navigate(`${EDIT_PATHS[template.kind]}?id=${template.id}`, { replace: true });
      return;
    }
    form.setFieldsValue({
      name: template.name,
      smsType: template.smsType === 'marketing' ? 'marketing' : 'notice',
      signId: template.signId ?? undefined,
      title: template.content,
      variables: template.variables,
    });
    setPages(template.pages ?? []);
    setEditing(null);
  }, [template, form, navigate]);

  const shown =
    editing === null
      ? pages
      : editing === 'new'
        ? [...pages, draft]
        : pages.map((page, index) => (index === editing ? draft : page));
  const bytes = mmsBytes(title, shown);
  const names = [
    ...new Set(
      [title, ...shown.map((page) => page.text ?? '')].flatMap((text) => smsPlaceholders(text).names),
    ),
  ];
  const signName = signs.data?.find((s) => s.id === signId)?.name ?? null;
  const preview = previewSmsTemplate({
    kind: 'mms',
    region: 'domestic',
    content: title,
    variables,
    signName,
    pages: shown,
  });

  const savePage = () => {
    const problem = mmsPageProblem(draft);
    if (problem) {
      setPageProblem(validationMessage(problem.rule, lang()));
      return;
    }
    setPages(shown);
    setEditing(null);
    setDraft({});
    setPageProblem(null);
    setFormProblem(null);
  };

  const { submit, saving } = useFormSave(
    async (values: Values) => {
      const input = {
        kind: 'mms' as const,
        name: values.name,
        smsType: values.smsType,
        signId: values.signId as number,
        title: values.title,
        pages,
        variables: Object.fromEntries(names.map((name) => [name, values.variables?.[name] ?? ''])),
      };
      if (id === null) await createSmsTemplate(input);
      else await updateSmsTemplate(id, input);
      await queries.invalidateQueries({ queryKey: ['smsTemplates'] });
      toastSuccess(t('smsTemplates.saved'));
      navigate(`${TEMPLATES_PATH}?kind=mms`);
    },
    (error) => {
      showTemplateError(form, error);
      const pageError = fieldErrorsOf(error).find((f) => f.field.startsWith('pages'));
      if (pageError) setFormProblem(validationMessage(pageError.message, lang()));
    },
  );

  if (existing.isError) return <Result status="warning" title={t('smsTemplates.loadFailed')} />;

  return (
    <Card className="mms-template-edit-page" loading={id !== null && existing.isPending}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t(id === null ? 'smsTemplates.mmsAddTitle' : 'smsTemplates.mmsEditTitle')}
      </Typography.Title>
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('smsTemplates.mmsHint')} />
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
            initialValues={{ smsType: 'notice', title: '' }}
            onFinish={(values) => {
              if (editing !== null) {
                setFormProblem(t('smsTemplates.mmsSaveFirst'));
                return;
              }
              if (pages.length === 0) {
                setFormProblem(t('smsTemplates.mmsNoPages'));
                return;
              }
              if (bytes >= MMS_MAX_BYTES) {
                setFormProblem(validationMessage('smsMmsSize', lang()));
                return;
              }
              setFormProblem(null);
              submit(values);
            }}
          >
            <Form.Item
              name="name"
              label={t('smsTemplates.name')}
              extra={t('smsTemplates.nameHint')}
              rules={[zodRule(smsTemplateNameSchema)]}
            >
              <Input className="mms-template-name" maxLength={64} />
            </Form.Item>
            <Form.Item name="smsType" label={t('smsTemplates.type')}>
              <Radio.Group>
                <Radio.Button value="notice">{t('smsTemplates.types.notice')}</Radio.Button>
                <Radio.Button value="marketing">{t('smsTemplates.types.marketing')}</Radio.Button>
              </Radio.Group>
            </Form.Item>
            <Form.Item
              name="signId"
              label={t('smsTemplates.sign')}
              extra={t('smsTemplates.signHint')}
              rules={[{ required: true, message: t('smsTemplates.signPlaceholder') }]}
            >
              <SmsSignSelect region="domestic" />
            </Form.Item>
            <Form.Item name="title" label={t('smsTemplates.mmsTitle')} rules={[zodRule(mmsTitleSchema)]}>
              <Input className="mms-template-title" maxLength={40} />
            </Form.Item>
            <Form.Item label={t('smsTemplates.mmsPages')}>
              <Flex vertical gap={12}>
                {pages.map((page, index) =>
                  editing === index ? null : (
                    <Card
                      // biome-ignore lint/suspicious/noArrayIndexKey: a page is known by its place
                      key={index}
                      size="small"
                      className="mms-page-saved"
                      title={t('smsTemplates.mmsPage', { n: index + 1 })}
                      extra={
                        editing === null ? (
                          <Space size={0}>
                            <Button
                              type="link"
                              onClick={() => {
                                setDraft(page);
                                setEditing(index);
                              }}
                            >
                              {t('smsTemplates.mmsEditPage')}
                            </Button>
                            <Button
                              type="link"
                              danger
                              onClick={() => setPages(pages.filter((_, i) => i !== index))}
                            >
                              {t('smsTemplates.mmsDeletePage')}
                            </Button>
                          </Space>
                        ) : null
                      }
                    >
                      <Typography.Text>
                        {[
                          page.text,
                          page.image && `${t('smsTemplates.mmsImage')}: ${page.image.name}`,
                          page.audio && `${t('smsTemplates.mmsAudio')}: ${page.audio.name}`,
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      </Typography.Text>
                    </Card>
                  ),
                )}
                {editing !== null ? (
                  <Card
                    size="small"
                    title={t('smsTemplates.mmsPage', {
                      n: editing === 'new' ? pages.length + 1 : editing + 1,
                    })}
                  >
                    <PageEditor page={draft} onChange={setDraft} problem={pageProblem} />
                    <Button style={{ marginTop: 12 }} className="mms-page-save" onClick={savePage}>
                      {t('smsTemplates.mmsSavePage')}
                    </Button>
                  </Card>
                ) : null}
                <Button
                  className="mms-page-add"
                  disabled={editing !== null || pages.length >= MMS_PAGES_MAX}
                  title={
                    editing !== null
                      ? t('smsTemplates.mmsSaveFirst')
                      : pages.length >= MMS_PAGES_MAX
                        ? t('smsTemplates.mmsMaxPages')
                        : undefined
                  }
                  onClick={() => {
                    setDraft({});
                    setEditing('new');
                  }}
                >
                  {t('smsTemplates.mmsAddPage')}
                </Button>
                <div className="mms-size-meter" data-bytes={bytes}>
                  <Typography.Text type={bytes >= MMS_MAX_BYTES ? 'danger' : 'secondary'}>
                    {t('smsTemplates.mmsSize', { size: formatBytes(bytes) })}
                  </Typography.Text>
                  <Progress
                    percent={Math.min(100, Math.round((bytes / MMS_MAX_BYTES) * 100))}
                    status={bytes >= MMS_MAX_BYTES ? 'exception' : 'normal'}
                    showInfo={false}
                  />
                </div>
              </Flex>
            </Form.Item>
            <Form.Item label={t('smsTemplates.variables')}>
              <SmsVariableFields names={names} />
            </Form.Item>
            {formProblem ? (
              <Alert
                type="error"
                showIcon
                message={formProblem}
                style={{ marginBottom: 16 }}
                className="mms-problem"
              />
            ) : null}
            <Space>
              <Button type="primary" htmlType="submit" loading={saving} className="mms-template-save">
                {t('smsTemplates.save')}
              </Button>
              <Button onClick={() => navigate(`${TEMPLATES_PATH}?kind=mms`)}>{t('smsTemplates.back')}</Button>
            </Space>
          </Form>
        </Col>
        <Col xs={24} lg={10}>
          <SmsPhonePreview text={preview.text} pages={preview.pages} />
        </Col>
      </Row>
    </Card>
  );
}
