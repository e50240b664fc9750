import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Flex, Result, Space, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { fetchTemplate } from '../../api/templates.api.ts';
import { TemplateFrame } from './TemplateFrame.tsx';
import { TemplateStatusTag } from './TemplateStatusTag.tsx';

const LIST_PATH = '/sendRelative/template';

/**
 * A template's preview (console-spec §2 /sendRelative/template/preview?id=): its subject and
 * variables, and its HTML exactly as stored, rendered in a sandboxed frame.
 */
export default function TemplatePreviewPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const template = useQuery({
    queryKey: ['template', id],
    queryFn: () => fetchTemplate(id as number),
    enabled: id !== null,
  });

  if (id === null) return <Result status="404" title={t('templates.notFound')} />;
  if (template.isError) return <Result status="warning" title={t('templates.loadFailed')} />;
  if (template.isPending) return <Spin style={{ display: 'block', margin: 48 }} />;
  const tpl = template.data;

  return (
    <Card className="template-preview-page">
      <Flex justify="space-between" align="center" style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('templates.previewTitle')}: {tpl.name}
        </Typography.Title>
        <Button onClick={() => navigate(LIST_PATH)}>{t('templates.back')}</Button>
      </Flex>
      <Descriptions size="small" column={2} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('templates.invokeName')}>{tpl.invokeName}</Descriptions.Item>
        <Descriptions.Item label={t('templates.status')}>
          <Space>
            <TemplateStatusTag status={tpl.status} />
            {tpl.status === 'rejected' && tpl.rejectReason && (
              <Typography.Text type="danger">
                {t('templates.rejectReason', { reason: tpl.rejectReason })}
              </Typography.Text>
            )}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('templates.subject')}>
          <span data-testid="template-preview-subject">{tpl.subject}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('templates.templateType')}>
          {t(`templates.type.${tpl.templateType}`)}
        </Descriptions.Item>
        <Descriptions.Item label={t('templates.variablesFound')} span={2}>
          {tpl.variables.length === 0
            ? t('templates.variablesNone')
            : tpl.variables.map((name) => <Tag key={name}>%{name}%</Tag>)}
        </Descriptions.Item>
      </Descriptions>
      <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('templates.previewSandboxNote')} />
      <TemplateFrame html={tpl.html} title={tpl.name} />
    </Card>
  );
}
