import { PERMISSIONS } from '@herald/shared/permissions';
import {
  SUBSCRIPTION_DISPLAY_MODES,
  type SubscriptionDisplayMode,
} from '@herald/shared/schemas/subscription.schema';
import { Button, Card, Descriptions, Flex, Radio, Result, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { inviteUrlOf, snippetOf } from '../../api/subscriptions.api.ts';
import { Can } from '../../components/Can.tsx';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';
import { useSubscription } from './subscriptions/use-subscription.ts';

const BARS: readonly SubscriptionDisplayMode[] = ['bottomBar', 'topBar'];

/**
 * A subscription's code (console-spec §2 /sendRelative/subscription/config?id=): the snippet to
 * paste into the customer's site with a copy button, the public page's link, and a look at the
 * form in each display mode, here and on the sample page /preview.
 */
export default function SubscriptionConfigPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id, subscription } = useSubscription();
  const [mode, setMode] = useState<SubscriptionDisplayMode | null>(null);

  if (id === null || subscription.isError)
    return <Result status="warning" title={t('subscriptions.loadFailed')} />;
  if (subscription.isPending) return <Spin style={{ display: 'block', margin: 48 }} />;
  const sub = subscription.data;
  const shown = mode ?? sub.displayMode;
  const snippet = snippetOf(sub.publicId);
  const copy = async () => {
    await navigator.clipboard.writeText(snippet);
    httpEffects().toast('success', t('subscriptions.copied'), SUCCESS_TOAST_SECONDS);
  };

  return (
    <Card className="subscription-config-page">
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('subscriptions.configTitle', { name: sub.name })}
        </Typography.Title>
        <Space>
          <Button onClick={() => navigate('/sendRelative/subscription')}>{t('subscriptions.back')}</Button>
          <Can code={PERMISSIONS.EMAIL_SEND} level="full">
            <Button onClick={() => navigate(`/sendRelative/subscription/edit?id=${sub.id}`)}>
              {t('subscriptions.editSettings')}
            </Button>
          </Can>
        </Space>
      </Flex>
      <Descriptions column={1} bordered size="small" style={{ marginBottom: 24 }}>
        <Descriptions.Item label={t('subscriptions.snippet')}>
          <Typography.Paragraph type="secondary">{t('subscriptions.snippetHint')}</Typography.Paragraph>
          <pre className="subscription-snippet" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {snippet}
          </pre>
          <Button type="primary" className="subscription-copy" onClick={() => void copy()}>
            {t('subscriptions.copy')}
          </Button>
        </Descriptions.Item>
        <Descriptions.Item label={t('subscriptions.publicLink')}>
          <Typography.Paragraph type="secondary">{t('subscriptions.publicLinkHint')}</Typography.Paragraph>
          <Typography.Link
            className="subscription-public-link"
            href={inviteUrlOf(sub.publicId)}
            target="_blank"
            rel="noopener"
            copyable
          >
            {inviteUrlOf(sub.publicId)}
          </Typography.Link>
        </Descriptions.Item>
      </Descriptions>
      <Typography.Title level={5}>{t('subscriptions.previewModes')}</Typography.Title>
      <Typography.Paragraph type="secondary">
        {t('subscriptions.previewModesHint', { mode: t(`subscribe.mode.${sub.displayMode}`) })}
      </Typography.Paragraph>
      <Flex gap={16} wrap align="center" style={{ marginBottom: 16 }}>
        <Radio.Group
          className="subscription-preview-mode"
          optionType="button"
          value={shown}
          onChange={(event) => setMode(event.target.value as SubscriptionDisplayMode)}
          options={SUBSCRIPTION_DISPLAY_MODES.map((m) => ({ value: m, label: t(`subscribe.mode.${m}`) }))}
        />
        <Typography.Link
          className="subscription-open-preview"
          href={`/preview?id=${encodeURIComponent(sub.publicId)}&mode=${shown}`}
          target="_blank"
          rel="noopener"
        >
          {t('subscriptions.openPreview')}
        </Typography.Link>
      </Flex>
      <iframe
        key={shown}
        className="subscription-preview-frame"
        title={sub.name}
        src={inviteUrlOf(sub.publicId, shown)}
        style={{
          border: '1px solid #f0f0f0',
          borderTop: BARS.includes(shown) ? `3px solid ${sub.themeColor}` : undefined,
          width: '100%',
          maxWidth: BARS.includes(shown) ? undefined : 480,
          height: BARS.includes(shown) ? 96 : 460,
          display: 'block',
        }}
      />
    </Card>
  );
}
