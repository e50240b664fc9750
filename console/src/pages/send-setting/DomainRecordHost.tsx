import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DomainRecordView } from '../../api/domains.api.ts';

/**
 * A record's name as DNS providers' consoles ask for it ("主机记录", relative to the zone, `@` at
 * its apex) with the full name beside it, each with its own copy button: the prefix for consoles
 * that add the zone themselves, the full name for those that take it whole.
 */
export function DomainRecordHost({ record }: { record: Pick<DomainRecordView, 'host' | 'hostPrefix'> }) {
  const { t } = useTranslation();
  const copyable = (text: string) => ({ text, tooltips: [t('domains.copy'), t('domains.copied')] });
  return (
    <Space orientation="vertical" size={2} className="record-host-cell">
      <Typography.Text
        code
        copyable={copyable(record.hostPrefix)}
        style={{ wordBreak: 'break-all' }}
        className="record-host-prefix"
      >
        {record.hostPrefix}
      </Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12, wordBreak: 'break-all' }}>
        {t('domains.fullName')}:{' '}
        <Typography.Text
          type="secondary"
          copyable={copyable(record.host)}
          style={{ fontSize: 12 }}
          className="record-host"
        >
          {record.host}
        </Typography.Text>
      </Typography.Text>
    </Space>
  );
}
