import { PERMISSIONS } from '@herald/shared/permissions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Flex, Popconfirm, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { cancelDkimRotation, type DomainView, fetchDkimConfig, rotateDkim } from '../../api/domains.api.ts';
import { Can } from '../../components/Can.tsx';
import { DomainRecordError } from './DomainRecordError.tsx';
import { DomainRecordHost } from './DomainRecordHost.tsx';
import { RecordStatusTag } from './DomainsStatusTags.tsx';

/**
 * The DKIM key of a domain (`/config/domainConfigs/safeDkim`): its size and selector, a rotation
 * to a new key, and while one is under way the new record to publish beside the current one.
 */
export function DomainsDkimRotation({ domain }: { domain: DomainView }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const dkim = useQuery({ queryKey: ['domain-dkim', domain.id], queryFn: () => fetchDkimConfig(domain.id) });
  const refresh = async () => {
    await queries.invalidateQueries({ queryKey: ['domain', domain.id] });
    await queries.invalidateQueries({ queryKey: ['domain-dkim', domain.id] });
  };
  const rotate = useMutation({ mutationFn: () => rotateDkim(domain.id), onSuccess: refresh });
  const cancel = useMutation({ mutationFn: () => cancelDkimRotation(domain.id), onSuccess: refresh });
  const next = domain.pendingDkim;
  const copy = (text: string) => ({ text, tooltips: [t('domains.copy'), t('domains.copied')] });

  return (
    <div style={{ marginTop: 16 }} className="domain-dkim-key">
      <Flex justify="space-between" align="center" wrap gap="small">
        <Typography.Text type="secondary">
          {dkim.data ? t('domains.dkimKey', { bits: dkim.data.bits, selector: dkim.data.selector }) : null}
        </Typography.Text>
        <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full">
          <Popconfirm title={t('domains.rotateConfirm')} onConfirm={() => rotate.mutateAsync()}>
            <Button loading={rotate.isPending} className="domain-dkim-rotate">
              {t('domains.rotate')}
            </Button>
          </Popconfirm>
        </Can>
      </Flex>
      {next && (
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 16 }}
          className="domain-dkim-next"
          title={t('domains.rotationTitle')}
          description={
            <Space orientation="vertical" style={{ width: '100%' }}>
              <Typography.Text>{t('domains.rotationHint')}</Typography.Text>
              <Space align="start">
                <Typography.Text>{t('domains.host')}:</Typography.Text>
                <DomainRecordHost record={next} />
              </Space>
              <Typography.Text>
                {t('domains.value')} (TXT):{' '}
                <Typography.Text
                  code
                  copyable={copy(next.value)}
                  style={{ wordBreak: 'break-all' }}
                  className="record-value"
                >
                  {next.value}
                </Typography.Text>
              </Typography.Text>
              <Space>
                <RecordStatusTag status={next.status} />
                <DomainRecordError record={next} />
              </Space>
              <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full">
                <Popconfirm title={t('domains.rotationCancelConfirm')} onConfirm={() => cancel.mutateAsync()}>
                  <Button size="small" className="domain-dkim-cancel">
                    {t('domains.rotationCancel')}
                  </Button>
                </Popconfirm>
              </Can>
            </Space>
          }
        />
      )}
    </div>
  );
}
