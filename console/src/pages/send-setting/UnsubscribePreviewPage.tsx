import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { HttpError } from '../../infra/http/http-errors.ts';
import { UnsubscribeFrame } from './unsubscribe/UnsubscribeFrame.tsx';
import { fetchUnsubscribePreview } from './unsubscribe/unsubscribe-pages.api.ts';

const LIST_PATH = '/sendSetting/unsubsribeSetting';

/** A saved unsubscribe page as recipients see it (console-spec §2 unsubsribeSetting/preview/{id}). */
export default function UnsubscribePreviewPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().id) || 0;
  const preview = useQuery({
    queryKey: ['unsubscribePages', 'preview', id],
    queryFn: () => fetchUnsubscribePreview(id),
    retry: false,
  });
  const back = (
    <Button className="unsubscribe-back" onClick={() => navigate(LIST_PATH)}>
      {t('unsubscribePage.back')}
    </Button>
  );

  if (preview.isError) {
    const missing = preview.error instanceof HttpError && preview.error.status === 404;
    return (
      <Result
        status={missing ? '404' : 'warning'}
        title={missing ? t('unsubscribePage.notFound') : t('common.loadFailed')}
        extra={back}
      />
    );
  }
  return (
    <Card className="unsubscribe-preview-page">
      <Flex justify="space-between" align="center" style={{ marginBottom: 8 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('unsubscribePage.previewTitle', { name: preview.data?.name ?? '' })}
        </Typography.Title>
        {back}
      </Flex>
      <Typography.Paragraph type="secondary">{t('unsubscribePage.previewNote')}</Typography.Paragraph>
      <UnsubscribeFrame html={preview.data?.html} height={640} />
    </Card>
  );
}
