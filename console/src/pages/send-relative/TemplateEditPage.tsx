import type { TemplateFormValues } from '@herald/shared/schemas/template.schema';
import { Alert, Button, Card, Flex, Form, Input, Result, Space, Spin, Tabs, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import Editor, {
  BtnBold,
  BtnBulletList,
  BtnClearFormatting,
  BtnItalic,
  BtnLink,
  BtnNumberedList,
  BtnRedo,
  BtnStrikeThrough,
  BtnUnderline,
  BtnUndo,
  Separator,
  Toolbar,
} from 'react-simple-wysiwyg';
import { TemplateFormFields, TemplateVariablesHint } from './TemplateFormFields.tsx';
import { EMPTY_TEMPLATE, LIST_PATH, useTemplateEditing } from './template-editing.ts';

const VISUAL_EDIT_PATH = '/sendRelative/template/shanTemplateOpt';

/** The content field: a contenteditable rich-text editor and the raw HTML, two views of one value. */
function HtmlInput({ value = '', onChange }: { value?: string; onChange?: (html: string) => void }) {
  const { t } = useTranslation();
  return (
    <Tabs
      items={[
        {
          key: 'rich',
          label: t('templates.richText'),
          children: (
            <div data-testid="template-rich-editor">
              <Editor
                value={value}
                onChange={(event) => onChange?.(event.target.value)}
                containerProps={{ style: { minHeight: 320, resize: 'vertical' } }}
              >
                {/* The editor's own toolbar, its button names in the console's language. */}
                <Toolbar>
                  <BtnUndo title={t('templates.rte.undo')} />
                  <BtnRedo title={t('templates.rte.redo')} />
                  <Separator />
                  <BtnBold title={t('templates.rte.bold')} />
                  <BtnItalic title={t('templates.rte.italic')} />
                  <BtnUnderline title={t('templates.rte.underline')} />
                  <BtnStrikeThrough title={t('templates.rte.strikeThrough')} />
                  <Separator />
                  <BtnNumberedList title={t('templates.rte.numberedList')} />
                  <BtnBulletList title={t('templates.rte.bulletList')} />
                  <Separator />
                  <BtnLink title={t('templates.rte.link')} />
                  <BtnClearFormatting title={t('templates.rte.clearFormatting')} />
                </Toolbar>
              </Editor>
            </div>
          ),
        },
        {
          key: 'source',
          label: t('templates.htmlSource'),
          children: (
            <Input.TextArea
              value={value}
              onChange={(event) => onChange?.(event.target.value)}
              rows={14}
              spellCheck={false}
              style={{ fontFamily: 'monospace' }}
              data-testid="template-html-source"
            />
          ),
        },
      ]}
    />
  );
}

/**
 * The rich-text template editor (console-spec §2 /sendRelative/template/templateOpt): a new
 * template, or `?id=` to edit one. Saving a passed or rejected template returns it to "not
 * submitted"; a template under review cannot be changed until its review is cancelled.
 */
export default function TemplateEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<TemplateFormValues>();
  const { id, template, save, submit } = useTemplateEditing(form, 'richtext');
  const subject = Form.useWatch('subject', form);
  const html = Form.useWatch('html', form);

  useEffect(() => {
    const tpl = template.data;
    if (tpl)
      form.setFieldsValue({
        name: tpl.name,
        invokeName: tpl.invokeName,
        templateType: tpl.templateType,
        subject: tpl.subject,
        summary: tpl.summary ?? '',
        html: tpl.html,
      });
  }, [template.data, form]);

  if (id !== null && template.isError) return <Result status="warning" title={t('templates.loadFailed')} />;
  if (id !== null && template.isPending) return <Spin style={{ display: 'block', margin: 48 }} />;
  const tpl = template.data;
  const reviewing = tpl?.status === 'reviewing';

  return (
    <Card className="template-edit-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t(id === null ? 'templates.createTitle' : 'templates.editTitle')}
      </Typography.Title>
      {tpl?.editor === 'dragdrop' && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={<Link to={`${VISUAL_EDIT_PATH}?id=${tpl.id}`}>{t('templates.openVisualEditor')}</Link>}
        />
      )}
      {reviewing && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t('templates.reviewingWarning')} />
      )}
      {(tpl?.status === 'passed' || tpl?.status === 'rejected') && (
        <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('templates.editWarning')} />
      )}
      <Form form={form} layout="vertical" initialValues={EMPTY_TEMPLATE} disabled={reviewing}>
        <TemplateFormFields />
        <TemplateVariablesHint subject={subject} html={html} />
        <Form.Item name="html" label={t('templates.content')}>
          <HtmlInput />
        </Form.Item>
        <Flex justify="flex-end">
          <Space>
            <Button disabled={false} onClick={() => navigate(LIST_PATH)}>
              {t('templates.back')}
            </Button>
            <Button loading={save.isPending} onClick={() => submit({}, false)} data-testid="template-save">
              {t('templates.save')}
            </Button>
            <Button
              type="primary"
              loading={save.isPending}
              onClick={() => submit({}, true)}
              data-testid="template-save-submit"
            >
              {t('templates.saveAndSubmit')}
            </Button>
          </Space>
        </Flex>
      </Form>
    </Card>
  );
}
