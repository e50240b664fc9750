import {
  SUBSCRIPTION_DISPLAY_MODES,
  type SubscriptionDisplayMode,
} from '@herald/shared/schemas/subscription.schema';
import { useQuery } from '@tanstack/react-query';
import { Radio, Spin, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { embedScriptUrlOf, fetchPublicSubscription } from '../../api/subscriptions.api.ts';

/** What the snippet's script puts on the page outside the place it stands (bars, the pop-up). */
const PAGE_WIDE = '.herald-subscription-bar, .herald-subscription-popup';

const isMode = (value: string | null): value is SubscriptionDisplayMode =>
  (SUBSCRIPTION_DISPLAY_MODES as readonly (string | null)[]).includes(value);

/**
 * The subscription preview (console-spec §2 /preview?id=&mode=): a sample page of the customer's
 * site running the real snippet (/subscribe/embed.js) in the chosen display mode, any of the five
 * switchable here, with the subscription's theme colour; without `mode`, the subscription's own.
 */
export default function SubscriptionPreviewPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const id = params.get('id') ?? '';
  const asked = params.get('mode');
  const page = useQuery({
    queryKey: ['subscription-page', id],
    queryFn: () => fetchPublicSubscription(id),
    enabled: id !== '' && !isMode(asked),
    retry: false,
  });
  const mode: SubscriptionDisplayMode | null = isMode(asked)
    ? asked
    : id === '' || page.isError
      ? 'embedded'
      : (page.data?.displayMode ?? null);
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const place = host.current;
    if (!place || mode === null) return;
    const script = document.createElement('script');
    script.src = embedScriptUrlOf(id, mode);
    script.async = true;
    place.appendChild(script);
    return () => {
      place.replaceChildren();
      for (const node of Array.from(document.querySelectorAll(PAGE_WIDE))) node.remove();
    };
  }, [id, mode]);

  return (
    <div className="subscription-preview-page" style={{ minHeight: '100vh', background: '#f5f5f5' }}>
      <header style={{ background: '#fff', padding: '16px 32px', borderBottom: '1px solid #e8e8e8' }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('subscribe.previewHost')}
        </Typography.Title>
        <Typography.Text type="secondary">{t('subscribe.previewTitle')}</Typography.Text>
      </header>
      <main style={{ maxWidth: 880, margin: '0 auto', padding: '24px 32px 160px' }}>
        <div style={{ marginBottom: 24 }}>
          <Typography.Text strong style={{ marginRight: 12 }}>
            {t('subscribe.previewMode')}
          </Typography.Text>
          <Radio.Group
            className="subscription-preview-modes"
            optionType="button"
            value={mode}
            onChange={(event) =>
              setParams((current) => {
                const next = new URLSearchParams(current);
                next.set('mode', event.target.value as string);
                return next;
              })
            }
            options={SUBSCRIPTION_DISPLAY_MODES.map((m) => ({ value: m, label: t(`subscribe.mode.${m}`) }))}
          />
        </div>
        <Typography.Paragraph>{t('subscribe.previewSample')}</Typography.Paragraph>
        <Typography.Paragraph type="secondary">{t('subscribe.previewHostText')}</Typography.Paragraph>
        {mode === null && <Spin />}
        <div ref={host} className="subscription-preview-host" data-mode={mode ?? ''} />
      </main>
    </div>
  );
}
