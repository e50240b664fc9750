import { PERMISSIONS } from '@herald/shared/permissions';
import { API_USER_MAX, type ApiKeyGraceMinutes } from '@herald/shared/schemas/api-user.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Flex, Popconfirm, Result, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type ApiUserView, deleteApiUser, fetchApiUsers, resetApiKey } from '../../api/api-users.api.ts';
import { Can } from '../../components/Can.tsx';
import { formatDateTime } from '../../components/format-time.ts';
import { useCan } from '../../components/use-can.ts';
import { useSensitiveAction } from '../../components/use-sensitive-action.tsx';
import { ApiKeyModal } from './api-users/ApiKeyModal.tsx';
import { DefaultSenders } from './api-users/DefaultSenders.tsx';
import { ResetKeyModal } from './api-users/ResetKeyModal.tsx';
import { TrackingSwitches } from './api-users/TrackingSwitches.tsx';

const OPTION_PATH = '/sendSetting/apiuser/option';
const when = (time: number) => formatDateTime(time);

/** API_USERs (console-spec §2 /sendSetting/apiuser): list, keys, tracking, default senders. */
export default function ApiUsersPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const canChange = useCan(PERMISSIONS.EMAIL_SETTINGS, 'full');
  const apiUsers = useQuery({ queryKey: ['apiUsers'], queryFn: fetchApiUsers });
  const refresh = () => queries.invalidateQueries({ queryKey: ['apiUsers'] });
  const remove = useMutation({ mutationFn: deleteApiUser, onSettled: refresh });
  const { run, holder } = useSensitiveAction();
  const [resetting, setResetting] = useState<ApiUserView | null>(null);
  const [issued, setIssued] = useState<{ name: string; apiKey: string; oldKeyExpiresAt?: number } | null>(
    null,
  );

  const reset = async (minutes: ApiKeyGraceMinutes) => {
    if (!resetting) return;
    const result = await run(() => resetApiKey(resetting.id, minutes), { successToast: false });
    if (!result) return;
    setResetting(null);
    setIssued({ name: result.apiUser.name, apiKey: result.apiKey, oldKeyExpiresAt: result.oldKeyExpiresAt });
    await refresh();
  };

  if (apiUsers.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const list = apiUsers.data ?? [];
  const full = list.length >= API_USER_MAX;
  const create = (
    <Button
      type="primary"
      disabled={full}
      title={full ? t('apiUsers.full') : undefined}
      onClick={() => navigate(OPTION_PATH)}
      className="api-user-add"
    >
      {t('apiUsers.add')}
    </Button>
  );

  return (
    <Card className="api-users-page">
      <Flex justify="space-between" align="center" style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('apiUsers.title')}{' '}
          <Typography.Text type="secondary" className="api-users-count">
            {t('apiUsers.count', { count: list.length, max: API_USER_MAX })}
          </Typography.Text>
        </Typography.Title>
        <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full">
          {create}
        </Can>
      </Flex>
      {list.length > 0 && <DefaultSenders apiUsers={list} editable={canChange} />}
      <Table<ApiUserView>
        rowKey="id"
        className="api-users-table"
        loading={apiUsers.isPending}
        dataSource={list}
        pagination={false}
        scroll={{ x: true }}
        locale={{
          emptyText: (
            <Empty description={t('apiUsers.empty')}>
              <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full">
                {create}
              </Can>
            </Empty>
          ),
        }}
        columns={[
          {
            title: t('apiUsers.name'),
            render: (_, u) => (
              <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
                {u.name}
              </Typography.Text>
            ),
          },
          {
            title: t('apiUsers.emailType'),
            render: (_, u) => (
              <Space size={4}>
                <Tag color={u.emailType === 'trigger' ? 'blue' : 'purple'}>
                  {u.emailType === 'trigger' ? t('apiUsers.typeTrigger') : t('apiUsers.typeBatch')}
                </Tag>
                {u.cType === 'test' && <Tag>{t('apiUsers.typeTest')}</Tag>}
              </Space>
            ),
          },
          {
            title: t('apiUsers.domain'),
            render: (_, u) => <span className="nowrap">{u.domainName ?? '—'}</span>,
          },
          {
            title: t('apiUsers.label'),
            render: (_, u) => <span className="nowrap">{u.labelName ?? '—'}</span>,
          },
          {
            title: t('apiUsers.tracking'),
            render: (_, u) => <TrackingSwitches apiUser={u} editable={canChange} onSaved={refresh} />,
          },
          {
            title: t('apiUsers.apiKey'),
            render: (_, u) => (
              <Space direction="vertical" size={0} className="api-user-keys">
                {u.keys.map((k) =>
                  k.expiresAt === null ? (
                    <Typography.Text key={`${k.hint}-${k.createdAt}`} code style={{ whiteSpace: 'nowrap' }}>
                      {t('apiUsers.keyHint', { hint: k.hint })}
                    </Typography.Text>
                  ) : (
                    <Typography.Text key={`${k.hint}-${k.createdAt}`} type="secondary" className="nowrap">
                      {t('apiUsers.oldKeyUntil', { hint: k.hint, time: when(k.expiresAt) })}
                    </Typography.Text>
                  ),
                )}
              </Space>
            ),
          },
          {
            title: t('apiUsers.createdAt'),
            render: (_, u) => <span className="nowrap">{when(u.createdAt)}</span>,
          },
          {
            title: t('apiUsers.actions'),
            render: (_, u) => (
              <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full" fallback="—">
                <Space size={0}>
                  <Button type="link" onClick={() => navigate(`${OPTION_PATH}?id=${u.id}`)}>
                    {t('apiUsers.edit')}
                  </Button>
                  <Button type="link" className="api-user-reset" onClick={() => setResetting(u)}>
                    {t('apiUsers.resetKey')}
                  </Button>
                  <Popconfirm
                    title={t('apiUsers.deleteConfirm', { name: u.name })}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => remove.mutateAsync(u.id)}
                  >
                    <Button type="link" danger className="api-user-delete">
                      {t('apiUsers.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              </Can>
            ),
          },
        ]}
      />
      <ResetKeyModal name={resetting?.name ?? null} onReset={reset} onCancel={() => setResetting(null)} />
      <ApiKeyModal issued={issued} onClose={() => setIssued(null)} />
      {holder}
    </Card>
  );
}
