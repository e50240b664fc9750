import { PERMISSIONS } from '@herald/shared/permissions';
import { TRACK_DOMAIN_MAX } from '@herald/shared/schemas/tracking.schema';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Flex, Result, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  addTrackDomain,
  fetchTrackDomains,
  type TrackDomainView,
  updateTrackDomain,
} from '../../api/tracking.api.ts';
import { Can } from '../../components/Can.tsx';
import { SslCertificatesCard } from './track/SslCertificatesCard.tsx';
import { TrackDomainModal } from './track/TrackDomainModal.tsx';
import { TrackDomainsTable } from './track/TrackDomainsTable.tsx';

/**
 * Tracking settings (console-spec §2 /sendSetting/track): custom tracking domains (at most five;
 * each a CNAME to the platform's tracking host, checked on demand; a verified one can be the
 * default host of open and click links) and the HTTPS certificates that serve them.
 */
export default function TrackPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [modal, setModal] = useState<{ open: boolean; domain?: TrackDomainView }>({ open: false });
  const domains = useQuery({ queryKey: ['trackDomains'], queryFn: fetchTrackDomains });
  const refresh = () => queries.invalidateQueries({ queryKey: ['trackDomains'] });

  if (domains.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const list = domains.data ?? [];
  const full = list.length >= TRACK_DOMAIN_MAX;

  const save = async (values: { name: string; open: boolean; click: boolean; unsubscribe: boolean }) => {
    if (modal.domain) await updateTrackDomain(modal.domain.id, values);
    else await addTrackDomain(values);
    await refresh();
  };

  return (
    <div className="track-page">
      <Card>
        <Flex justify="space-between" align="center" style={{ marginBottom: 8 }}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('tracking.title')}{' '}
            <Typography.Text type="secondary" className="track-domains-count">
              {t('tracking.count', { count: list.length, max: TRACK_DOMAIN_MAX })}
            </Typography.Text>
          </Typography.Title>
          <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full">
            <Button
              type="primary"
              className="track-domains-add"
              disabled={full}
              title={full ? t('tracking.full', { max: TRACK_DOMAIN_MAX }) : undefined}
              onClick={() => setModal({ open: true })}
            >
              {t('tracking.add')}
            </Button>
          </Can>
        </Flex>
        <Typography.Paragraph type="secondary">{t('tracking.intro')}</Typography.Paragraph>
        <TrackDomainsTable
          domains={list}
          loading={domains.isPending}
          onEdit={(domain) => setModal({ open: true, domain })}
          onChanged={refresh}
        />
      </Card>
      <SslCertificatesCard domains={list} onChanged={refresh} />
      <TrackDomainModal
        open={modal.open}
        {...(modal.domain ? { domain: modal.domain } : {})}
        onSubmit={save}
        onClose={() => setModal({ open: false })}
      />
    </div>
  );
}
