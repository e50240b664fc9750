import { formatMessage } from '@herald/shared/errors';
import { PERMISSIONS } from '@herald/shared/permissions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, Result, Space, Spin, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { type DomainRecordView, fetchDomain, verifyDomain } from '../../api/domains.api.ts';
import { Can } from '../../components/Can.tsx';
import { HttpError } from '../../infra/http/http-errors.ts';
import { currentLang } from '../../stores/i18n.ts';
import { DomainRecordError } from './DomainRecordError.tsx';
import { DomainRecordHost } from './DomainRecordHost.tsx';
import { DomainsDkimRotation } from './DomainsDkimRotation.tsx';
import { DomainStatusTag, RECORD_KIND_KEYS, RecordStatusTag } from './DomainsStatusTags.tsx';

const copyable = (text: string, t: (key: 'domains.copy' | 'domains.copied') => string) => ({
  text,
  tooltips: [t('domains.copy'), t('domains.copied')],
});

/**
 * One domain's DNS records (console-spec §2 /sendSetting/domain/domainConfig?domainId=): what to
 * publish with copy buttons, and per record the state, the value found and the problem, as the
 * last check left them. "Verify now" queries DNS at once.
 */
export default function DomainConfigPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [search] = useSearchParams();
  const id = Number(search.get('domainId'));
  const valid = Number.isInteger(id) && id > 0;
  const domain = useQuery({
    queryKey: ['domain', id],
    queryFn: () => fetchDomain(id),
    enabled: valid,
    retry: false,
  });
  const verify = useMutation({
    mutationFn: () => verifyDomain(id),
    onSuccess: (data) => {
      queries.setQueryData(['domain', id], data);
      void queries.invalidateQueries({ queryKey: ['domains'] });
      void queries.invalidateQueries({ queryKey: ['domain-dkim', id] });
    },
  });
  const back = () => navigate('/sendSetting/domain');

  const missing = !valid || (domain.error instanceof HttpError && domain.error.status === 404);
  if (missing) {
    return (
      <Result
        status="404"
        title={t('domains.notFound')}
        extra={<Button onClick={back}>{t('domains.back')}</Button>}
      />
    );
  }
  if (domain.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  if (domain.isPending) return <Spin style={{ display: 'block', margin: 48 }} />;
  const d = domain.data;

  return (
    <Card className="domain-config-page">
      <Flex justify="space-between" align="center" wrap gap="small" style={{ marginBottom: 16 }}>
        <Space>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('domains.configTitle', { name: d.name })}
          </Typography.Title>
          <DomainStatusTag status={d.status} />
        </Space>
        <Space>
          <Button onClick={back}>{t('domains.back')}</Button>
          <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full">
            <Button
              type="primary"
              loading={verify.isPending}
              onClick={() => verify.mutate()}
              className="domain-verify-now"
            >
              {t('domains.verify')}
            </Button>
          </Can>
        </Space>
      </Flex>
      <Alert
        type="info"
        showIcon
        title={t('domains.configHint')}
        description={
          <span className="domain-zone-hint">
            {t('domains.zoneHint', { zone: d.records[0]?.zone ?? d.name })}
          </span>
        }
        style={{ marginBottom: 16 }}
      />
      <Table<DomainRecordView>
        rowKey="kind"
        dataSource={d.records}
        pagination={false}
        rowClassName={(r) => `domain-record domain-record-${r.kind}`}
        columns={[
          {
            title: t('domains.kind'),
            width: 110,
            render: (_, r) => (
              <Space orientation="vertical" size={0}>
                <Typography.Text strong>{t(RECORD_KIND_KEYS[r.kind])}</Typography.Text>
                <Tag>{r.required ? t('domains.required') : t('domains.optional')}</Tag>
              </Space>
            ),
          },
          {
            title: t('domains.type'),
            width: 90,
            render: (_, r) => (
              <Space orientation="vertical" size={0}>
                {r.type}
                {r.priority !== undefined && (
                  <Typography.Text type="secondary">
                    {t('domains.priority', { priority: r.priority })}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          {
            title: t('domains.host'),
            width: '22%',
            render: (_, r) => <DomainRecordHost record={r} />,
          },
          {
            title: t('domains.value'),
            width: '34%',
            render: (_, r) =>
              r.missingSetting ? (
                // The platform's name for this record is not configured: a placeholder, not a value to copy.
                <Space orientation="vertical" size={0} className="record-value-unset">
                  <Typography.Text code style={{ wordBreak: 'break-all' }} className="record-value">
                    {r.value}
                  </Typography.Text>
                  <Typography.Text type="warning" className="record-unset">
                    {formatMessage('DOMAIN_PLATFORM_HOST_UNSET', currentLang(), {
                      setting: r.missingSetting,
                    })}
                  </Typography.Text>
                </Space>
              ) : (
                <Typography.Text
                  code
                  copyable={copyable(r.value, t)}
                  style={{ wordBreak: 'break-all' }}
                  className="record-value"
                >
                  {r.value}
                </Typography.Text>
              ),
          },
          {
            title: t('domains.status'),
            render: (_, r) => (
              <Space orientation="vertical" size={4} className="record-state">
                <RecordStatusTag status={r.status} />
                {r.found && (
                  <Typography.Paragraph
                    type="secondary"
                    ellipsis={{ rows: 2, tooltip: r.found }}
                    style={{ wordBreak: 'break-all', margin: 0 }}
                    className="record-found"
                  >
                    {t('domains.found')}: {r.found}
                  </Typography.Paragraph>
                )}
                <DomainRecordError record={r} />
              </Space>
            ),
          },
        ]}
      />
      <DomainsDkimRotation domain={d} />
    </Card>
  );
}
