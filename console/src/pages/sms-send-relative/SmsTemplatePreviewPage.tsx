import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Descriptions, Result, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { fetchSmsTemplate, fetchSmsTemplatePreview } from '../../api/sms-templates.api.ts';
import { formatDateTime } from '../../components/format-time.ts';
import { SmsCountLine } from './SmsCountLine.tsx';
import { SmsPhonePreview } from './SmsPhonePreview.tsx';
import { SmsTemplateStatusTag } from './SmsTemplateStatusTag.tsx';
import { TEMPLATES_PATH } from './sms-template-paths.ts';

/**
 * One template as the handset shows it (console-spec §2 template/s_preview?id=): its details and
 * review state, and the text with its signature and variable examples in place, counted as the
 * carrier bills it (an MMS with its pages).
 */
export default function SmsTemplatePreviewPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const template = useQuery({
    queryKey: ['smsTemplates', 'one', id],
    queryFn: () => fetchSmsTemplate(id as number),
    enabled: id !== null,
    retry: false,
  });
  const preview = useQuery({
    queryKey: ['smsTemplates', 'preview', id],
    queryFn: () => fetchSmsTemplatePreview(id as number),
    enabled: id !== null,
    retry: false,
  });
  const back = <Button onClick={() => navigate(TEMPLATES_PATH)}>{t('smsTemplates.back')}</Button>;
  if (id === null || template.isError || preview.isError) {
    return <Result status="404" title={t('smsTemplates.previewNotFound')} extra={back} />;
  }
  const tpl = template.data;
  return (
    <Card className="sms-template-preview-page" loading={template.isPending || preview.isPending}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('smsTemplates.previewTitle')}
      </Typography.Title>
      {tpl && preview.data ? (
        <Row gutter={32}>
          <Col xs={24} lg={14}>
            <Descriptions bordered size="small" column={1}>
              <Descriptions.Item label={t('smsTemplates.name')}>{tpl.name}</Descriptions.Item>
              <Descriptions.Item label={t('smsTemplates.id')}>{tpl.id}</Descriptions.Item>
              <Descriptions.Item label={t('smsTemplates.type')}>
                {t(`smsTemplates.kinds.${tpl.kind}`)} · {t(`smsTemplates.types.${tpl.smsType}`)}
                {tpl.kind === 'sms' ? ` · ${t(`smsTemplates.regions.${tpl.region}`)}` : ''}
              </Descriptions.Item>
              <Descriptions.Item label={t('smsTemplates.sign')}>{tpl.signName ?? '—'}</Descriptions.Item>
              <Descriptions.Item label={t('smsTemplates.content')}>
                <span style={{ whiteSpace: 'pre-wrap' }}>{tpl.content}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('smsTemplates.statusLabel')}>
                <SmsTemplateStatusTag status={tpl.status} reason={tpl.rejectReason} />
              </Descriptions.Item>
              <Descriptions.Item label={t('smsTemplates.updatedAt')}>
                {formatDateTime(tpl.updatedAt)}
              </Descriptions.Item>
            </Descriptions>
            <div style={{ marginTop: 16 }}>{back}</div>
          </Col>
          <Col xs={24} lg={10}>
            <Typography.Paragraph type="secondary">{t('smsTemplates.previewExamples')}</Typography.Paragraph>
            <SmsPhonePreview text={preview.data.text} pages={preview.data.pages} />
            {preview.data.count ? (
              <div style={{ marginTop: 8 }}>
                <SmsCountLine count={preview.data.count} />
              </div>
            ) : null}
          </Col>
        </Row>
      ) : null}
    </Card>
  );
}
