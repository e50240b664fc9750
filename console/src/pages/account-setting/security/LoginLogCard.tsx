import type { LoginLogView } from '@herald/shared/schemas/security-settings.schema';
import { Card, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../components/format-time.ts';

/** The user's recent logins: when, from where, with what, and how it ended. */
export function LoginLogCard({ logs, loading }: { logs: LoginLogView[]; loading: boolean }) {
  const { t } = useTranslation();
  return (
    <Card title={t('security.logTitle')} className="login-log-card">
      <Table<LoginLogView>
        rowKey={(row) => `${row.time}-${row.ip}`}
        size="small"
        loading={loading}
        dataSource={logs}
        pagination={{ pageSize: 10 }}
        locale={{ emptyText: t('common.noData') }}
        columns={[
          {
            title: t('security.logTime'),
            dataIndex: 'time',
            render: (v: number) => formatDateTime(v),
          },
          { title: t('security.logIp'), dataIndex: 'ip' },
          { title: t('security.logUserAgent'), dataIndex: 'userAgent', ellipsis: true },
          { title: t('security.logResult'), dataIndex: 'result' },
        ]}
      />
    </Card>
  );
}
