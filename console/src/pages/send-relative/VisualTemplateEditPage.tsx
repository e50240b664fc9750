import { type Lang, resolveLang } from '@herald/shared/lang';
import type { TemplateFormValues } from '@herald/shared/schemas/template.schema';
import { Alert, Button, Card, Flex, Form, Result, Space, Spin, Typography } from 'antd';
import type { Editor as GrapesEditor } from 'grapesjs';
import type { TFunction } from 'i18next';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { TemplateFormFields, TemplateVariablesHint } from './TemplateFormFields.tsx';
import { EMPTY_TEMPLATE, LIST_PATH, useTemplateEditing } from './template-editing.ts';

/** A local stand-in for the preset's sample images, which point at a public placeholder service. */
const LOCAL_IMAGE =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='250' height='150'%3E%3Crect width='100%25' height='100%25' fill='%2378c5d6'/%3E%3C/svg%3E";

/**
 * grapesjs with its newsletter preset, entirely from the bundle: no CDN (the icon font it would
 * fetch is turned off, sample images are replaced by a local one), no telemetry, no browser
 * storage. It is imported only when this screen mounts, so no other page carries it.
 */
async function startGrapes(
  container: HTMLElement,
  start: { design?: string | null; html: string },
  lang: Lang,
  translate: TFunction,
) {
  const [{ default: grapesjs }, { default: newsletter }, { default: zh }] = await Promise.all([
    import('grapesjs'),
    import('grapesjs-preset-newsletter'),
    import('grapesjs/locale/zh'),
    import('grapesjs/dist/css/grapes.min.css'),
  ]);
  const editor = grapesjs.init({
    container,
    height: '640px',
    fromElement: false,
    telemetry: false,
    cssIcons: '',
    storageManager: false,
    assetManager: { upload: false },
    // The editor's own panels, buttons and trait names in the console's language.
    i18n: { locale: GRAPES_LOCALE[lang], localeFallback: 'en', detectLocale: false, messages: { zh } },
    plugins: [
      (e: GrapesEditor) =>
        presetOf(newsletter)(e, {
          modalTitleImport: translate('templates.visualImportTitle'),
          modalTitleExport: translate('templates.visualExportTitle'),
          modalBtnImport: translate('templates.visualImportButton'),
        }),
    ],
    ...(start.design ? { projectData: JSON.parse(start.design) } : { components: start.html }),
  });
  for (const block of editor.Blocks.getAll().models) {
    englishLabels.set(block.getId(), String(block.get('label') ?? ''));
    const content = block.get('content');
    const text = typeof content === 'string' ? content : JSON.stringify(content);
    if (!text?.includes('via.placeholder.com')) continue;
    const local = text.replace(/https?:\/\/via\.placeholder\.com[^"'\s)\\]*/g, LOCAL_IMAGE);
    block.set('content', typeof content === 'string' ? local : JSON.parse(local));
  }
  nameBlocks(editor, lang);
  return editor;
}

/** The preset's plugin function: its CommonJS build arrives wrapped in `default` once more. */
function presetOf<T>(module: T): T {
  return typeof module === 'function' ? module : (module as unknown as { default: T }).default;
}

const GRAPES_LOCALE: Record<Lang, string> = { 'zh-cn': 'zh', en: 'en' };

/** Each preset block's own (English) label, by block id, to name it again in either language. */
const englishLabels = new Map<string, string>();

/**
 * The newsletter preset's block names (English text after each block's icon) in the console's
 * language: grapesjs's own locale has no names for the preset's blocks.
 */
const BLOCK_NAMES_ZH: Record<string, string> = {
  '1 Section': '单栏',
  '1/2 Section': '两栏',
  '1/3 Section': '三栏',
  '3/7 Section': '3:7 两栏',
  'Text Section': '文本段落',
  'Link Block': '链接块',
  'Grid Items': '网格项',
  'List Items': '列表项',
  Button: '按钮',
  Divider: '分隔线',
  Text: '文本',
  Image: '图片',
  Quote: '引用',
  Link: '链接',
};

function nameBlocks(editor: GrapesEditor, lang: Lang): void {
  for (const block of editor.Blocks.getAll().models) {
    const english = englishLabels.get(block.getId()) ?? String(block.get('label') ?? '');
    const label =
      lang === 'en'
        ? english
        : english.replace(/([^<>]+)(\s*(?:<\/[a-z]+>\s*)*)$/i, (whole, text: string, tail: string) => {
            const name = BLOCK_NAMES_ZH[text.trim()];
            return name ? `${name}${tail}` : whole;
          });
    block.set('label', label);
  }
  editor.Blocks.render(editor.Blocks.getAll().models);
}

/** A language switch while the editor is open: its panels and block names follow, the work stays. */
function relocale(editor: GrapesEditor, lang: Lang): void {
  editor.I18n.setLocale(GRAPES_LOCALE[lang]);
  nameBlocks(editor, lang);
}

/** The email's HTML with the CSS inlined (what mailboxes understand), via the preset's command. */
function exportHtml(editor: GrapesEditor): string {
  const inlined = editor.runCommand('gjs-get-inlined-html') as unknown;
  return typeof inlined === 'string' && inlined.trim()
    ? inlined
    : `${editor.getHtml()}<style>${editor.getCss() ?? ''}</style>`;
}

/**
 * The drag-and-drop template editor (console-spec §2 /sendRelative/template/shanTemplateOpt):
 * the design (grapesjs project JSON) is saved with the template so it can be edited again, and
 * the inlined HTML is what is sent.
 */
export default function VisualTemplateEditPage() {
  const { t, i18n } = useTranslation();
  const lang = resolveLang(i18n.language);
  const navigate = useNavigate();
  const [form] = Form.useForm<TemplateFormValues>();
  const { id, template, save, submit } = useTemplateEditing(form, 'dragdrop');
  const canvas = useRef<HTMLDivElement>(null);
  const editor = useRef<GrapesEditor | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [empty, setEmpty] = useState(false);
  const subject = Form.useWatch('subject', form);
  const ready = id === null || template.isSuccess;

  // The canvas starts once per template: a background refetch or a language change must not wipe
  // the user's work, so the effect reads the loaded template through a ref and keys on the id.
  const latest = useRef({ template: template.data, t, lang });
  latest.current = { template: template.data, t, lang };
  // biome-ignore lint/correctness/useExhaustiveDependencies: started once per template id (see above)
  useEffect(() => {
    if (!ready || !canvas.current) return;
    const { template: tpl, t: translate } = latest.current;
    if (tpl)
      form.setFieldsValue({
        name: tpl.name,
        invokeName: tpl.invokeName,
        templateType: tpl.templateType,
        subject: tpl.subject,
        summary: tpl.summary ?? '',
      });
    const starter = `<table style="width:100%;font-family:Arial,sans-serif"><tr><td style="padding:24px"><h1>${translate('templates.visualStarterTitle')}</h1><p>${translate('templates.visualStarterBody')}</p></td></tr></table>`;
    let cancelled = false;
    startGrapes(
      canvas.current,
      { design: tpl?.design, html: tpl?.html ?? starter },
      latest.current.lang,
      translate,
    )
      .then((created) => {
        if (cancelled) created.destroy();
        else {
          editor.current = created;
          setState('ready');
        }
      })
      .catch((error: unknown) => {
        console.error('the drag-and-drop editor did not start', error);
        setState('failed');
      });
    return () => {
      cancelled = true;
      editor.current?.destroy();
      editor.current = null;
    };
  }, [ready, id]);

  useEffect(() => {
    if (editor.current && state === 'ready') relocale(editor.current, lang);
  }, [lang, state]);

  if (id !== null && template.isError) return <Result status="warning" title={t('templates.loadFailed')} />;
  if (!ready) return <Spin style={{ display: 'block', margin: 48 }} />;
  const reviewing = template.data?.status === 'reviewing';

  const onSave = (andSubmit: boolean) => {
    const current = editor.current;
    if (!current) return;
    const html = exportHtml(current);
    const isEmpty = current.getComponents().length === 0;
    setEmpty(isEmpty);
    if (isEmpty) return;
    void submit({ html, design: JSON.stringify(current.getProjectData()) }, andSubmit);
  };

  return (
    <Card className="visual-template-edit-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('templates.visualTitle')}
      </Typography.Title>
      {reviewing && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t('templates.reviewingWarning')} />
      )}
      {(template.data?.status === 'passed' || template.data?.status === 'rejected') && (
        <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('templates.editWarning')} />
      )}
      <Form form={form} layout="vertical" initialValues={EMPTY_TEMPLATE} disabled={reviewing}>
        <TemplateFormFields />
        <TemplateVariablesHint subject={subject} html={template.data?.html} />
      </Form>
      {state === 'loading' && (
        <Spin tip={t('templates.visualLoading')} style={{ display: 'block', margin: 24 }} />
      )}
      {state === 'failed' && <Alert type="error" showIcon title={t('templates.visualFailed')} />}
      {empty && (
        <Alert type="error" showIcon style={{ marginBottom: 8 }} title={t('templates.visualEmpty')} />
      )}
      <div
        ref={canvas}
        data-testid="grapes-container"
        style={{ border: '1px solid #e5e6eb', minHeight: 640 }}
      />
      <Flex justify="flex-end" style={{ marginTop: 16 }}>
        <Space>
          <Button onClick={() => navigate(LIST_PATH)}>{t('templates.back')}</Button>
          <Button
            loading={save.isPending}
            disabled={state !== 'ready' || reviewing}
            onClick={() => onSave(false)}
            data-testid="template-save"
          >
            {t('templates.save')}
          </Button>
          <Button
            type="primary"
            loading={save.isPending}
            disabled={state !== 'ready' || reviewing}
            onClick={() => onSave(true)}
            data-testid="template-save-submit"
          >
            {t('templates.saveAndSubmit')}
          </Button>
        </Space>
      </Flex>
    </Card>
  );
}
