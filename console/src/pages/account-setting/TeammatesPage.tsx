import { MEMBER_MAX } from '@herald/shared/limits';
import { PERMISSIONS } from '@herald/shared/permissions';
import type { MemberView } from '@herald/shared/schemas/member.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Flex, Popconfirm, Result, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { deleteMember, fetchMembers, resendInvite } from '../../api/members.api.ts';
import { Can } from '../../components/Can.tsx';
import { formatDateTime } from '../../components/format-time.ts';
import { MemberTypeText } from './teammates/MemberTypeText.tsx';

const OPTION_PATH = '/accountSetting/teammates/option';
const when = (time: number | null) => (time === null ? null : formatDateTime(time));

/** Teammates (console-spec §2 /accountSetting/teammates): the account's members and their state. */
export default function TeammatesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const members = useQuery({ queryKey: ['members'], queryFn: fetchMembers });
  const refresh = () => queries.invalidateQueries({ queryKey: ['members'] });
  const remove = useMutation({ mutationFn: deleteMember, onSettled: refresh });
  const resend = useMutation({ mutationFn: resendInvite });

  if (members.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const list = members.data ?? [];
  const full = list.length >= MEMBER_MAX;

  return (
    <Card className="teammates-page">
      <Flex justify="space-between" align="center" style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('members.title')}{' '}
          <Typography.Text type="secondary" className="teammates-count">
            {t('members.count', { count: list.length, max: MEMBER_MAX })}
          </Typography.Text>
        </Typography.Title>
        <Can code={PERMISSIONS.TEAMMATES} level="full">
          <Button
            type="primary"
            disabled={full}
            title={full ? t('members.full') : undefined}
            onClick={() => navigate(OPTION_PATH)}
            className="teammates-add"
          >
            {t('members.add')}
          </Button>
        </Can>
      </Flex>
      <Table<MemberView>
        rowKey="userId"
        loading={members.isPending}
        dataSource={list}
        pagination={false}
        locale={{ emptyText: <Empty description={t('members.empty')} /> }}
        columns={[
          { title: t('members.name'), render: (_, m) => m.name ?? m.userName ?? '—' },
          { title: t('members.email'), dataIndex: 'email' },
          { title: t('members.type'), render: (_, m) => <MemberTypeText type={m.type} /> },
          {
            title: t('members.state'),
            render: (_, m) =>
              m.state === 'joined' ? (
                <Tag color="success">{t('members.stateJoined')}</Tag>
              ) : (
                <Tag color="warning">{t('members.stateToActivate')}</Tag>
              ),
          },
          { title: t('members.createdAt'), render: (_, m) => when(m.createdAt) },
          { title: t('members.lastLoginAt'), render: (_, m) => when(m.lastLoginAt) ?? t('members.never') },
          {
            title: t('members.actions'),
            render: (_, m) => (
              <Can code={PERMISSIONS.TEAMMATES} level="full" fallback="—">
                <Space size={0}>
                  {m.state === 'toActivate' && (
                    <Popconfirm
                      title={t('members.resendConfirm', { email: m.email })}
                      onConfirm={() => resend.mutateAsync(m.userId)}
                    >
                      <Button type="link">{t('members.resend')}</Button>
                    </Popconfirm>
                  )}
                  <Button type="link" onClick={() => navigate(`${OPTION_PATH}?userId=${m.userId}`)}>
                    {t('members.edit')}
                  </Button>
                  <Popconfirm
                    title={t('members.deleteConfirm', { email: m.email })}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => remove.mutateAsync(m.userId)}
                  >
                    <Button type="link" danger>
                      {t('members.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              </Can>
            ),
          },
        ]}
      />
    </Card>
  );
}
