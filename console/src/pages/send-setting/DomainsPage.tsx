import { PERMISSIONS } from '@herald/shared/permissions';
import { DOMAIN_MAX } from '@herald/shared/schemas/domain.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Flex, Popconfirm, Result, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  addDomain,
  type DomainView,
  deleteDomain,
  fetchDomains,
  renameDomain,
  verifyDomain,
} from '../../api/domains.api.ts';
import { Can } from '../../components/Can.tsx';
import { formatDateTime } from '../../components/format-time.ts';
import { DomainsFormModal } from './DomainsFormModal.tsx';
import { DomainStatusTag, RecordTags } from './DomainsStatusTags.tsx';

export const DOMAIN_CONFIG_PATH = '/sendSetting/domain/domainConfig';
const PAGE_SIZE = 10;
const when = (time: number | null) => (time === null ? null : formatDateTime(time));

/**
 * Sending domains (console-spec §2 /sendSetting/domain): each domain with its status and one tag
 * per DNS record; add, rename (only while no record passed), verify now, delete with confirmation.
 */
export default function DomainsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [page, setPage] = useState(1);
  const [form, setForm] = useState<{ open: boolean; domain?: DomainView }>({ open: false });
  const domains = useQuery({ queryKey: ['domains', page], queryFn: () => fetchDomains(page, PAGE_SIZE) });
  const refresh = () => queries.invalidateQueries({ queryKey: ['domains'] });
  const remove = useMutation({ mutationFn: deleteDomain, onSettled: refresh });
  const verify = useMutation({ mutationFn: verifyDomain, onSettled: refresh });

  if (domains.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const list = domains.data?.list ?? [];
  const total = domains.data?.total ?? 0;
  const full = total >= DOMAIN_MAX;

  const save = async (name: string) => {
    if (form.domain) await renameDomain(form.domain.id, name);
    else {
      const added = await addDomain(name);
      navigate(`${DOMAIN_CONFIG_PATH}?domainId=${added.id}`);
    }
    await refresh();
  };

  return (
    <Card className="domains-page">
      <Flex justify="space-between" align="center" style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('domains.title')}{' '}
          <Typography.Text type="secondary" className="domains-count">
            {t('domains.count', { count: total, max: DOMAIN_MAX })}
          </Typography.Text>
        </Typography.Title>
        <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full">
          <Button
            type="primary"
            disabled={full}
            title={full ? t('domains.full', { max: DOMAIN_MAX }) : undefined}
            onClick={() => setForm({ open: true })}
            className="domains-add"
          >
            {t('domains.add')}
          </Button>
        </Can>
      </Flex>
      <Table<DomainView>
        rowKey="id"
        loading={domains.isPending}
        dataSource={list}
        pagination={
          total > PAGE_SIZE ? { current: page, pageSize: PAGE_SIZE, total, onChange: setPage } : false
        }
        locale={{ emptyText: <Empty description={t('domains.empty')} /> }}
        columns={[
          {
            title: t('domains.name'),
            render: (_, d) => (
              <Typography.Link onClick={() => navigate(`${DOMAIN_CONFIG_PATH}?domainId=${d.id}`)}>
                {d.name}
              </Typography.Link>
            ),
          },
          { title: t('domains.status'), render: (_, d) => <DomainStatusTag status={d.status} /> },
          { title: t('domains.records'), render: (_, d) => <RecordTags records={d.records} /> },
          { title: t('domains.checkedAt'), render: (_, d) => when(d.checkedAt) ?? t('domains.never') },
          { title: t('domains.createdAt'), render: (_, d) => when(d.createdAt) },
          {
            title: t('domains.actions'),
            render: (_, d) => {
              const locked = d.records.some((r) => r.status === 'ok');
              return (
                <Space size={0} wrap>
                  <Button type="link" onClick={() => navigate(`${DOMAIN_CONFIG_PATH}?domainId=${d.id}`)}>
                    {t('domains.configure')}
                  </Button>
                  <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full">
                    <Button
                      type="link"
                      loading={verify.isPending && verify.variables === d.id}
                      onClick={() => verify.mutate(d.id)}
                      className="domain-verify"
                    >
                      {t('domains.verify')}
                    </Button>
                    <Button
                      type="link"
                      disabled={locked}
                      title={locked ? t('domains.renameLocked') : undefined}
                      onClick={() => setForm({ open: true, domain: d })}
                    >
                      {t('domains.rename')}
                    </Button>
                    <Popconfirm
                      title={t('domains.deleteConfirm', { name: d.name })}
                      okButtonProps={{ danger: true }}
                      onConfirm={() => remove.mutateAsync(d.id)}
                    >
                      <Button type="link" danger className="domain-delete">
                        {t('domains.delete')}
                      </Button>
                    </Popconfirm>
                  </Can>
                </Space>
              );
            },
          },
        ]}
      />
      <DomainsFormModal
        open={form.open}
        {...(form.domain ? { initialName: form.domain.name } : {})}
        onSubmit={save}
        onClose={() => setForm({ open: false })}
      />
    </Card>
  );
}
