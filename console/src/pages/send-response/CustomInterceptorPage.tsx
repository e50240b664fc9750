import { PERMISSIONS } from '@herald/shared/permissions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Flex, Popconfirm, Result, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteRule, fetchRules, type InterceptRuleView } from '../../api/suppression.api.ts';
import { Can } from '../../components/Can.tsx';
import { formatDateTime } from '../../components/format-time.ts';
import { InterceptRuleModal } from './suppression/InterceptRuleModal.tsx';

/**
 * Custom interception (console-spec §2 /sendResponse/customeInterceptor): rules that stop mail to
 * an address, a domain (and its subdomains) or addresses containing a keyword, for one API_USER
 * or all; stopped mail is recorded invalid, "in blacklist".
 */
export default function CustomInterceptorPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [adding, setAdding] = useState(false);
  const rules = useQuery({ queryKey: ['interceptRules'], queryFn: fetchRules });
  const refresh = () => queries.invalidateQueries({ queryKey: ['interceptRules'] });
  const remove = useMutation({ mutationFn: deleteRule, onSettled: refresh });
  const R = PERMISSIONS.EMAIL_RESPONSE;

  if (rules.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  return (
    <Card className="custom-interceptor-page">
      <Flex justify="space-between" align="center" style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('suppression.interceptTitle')}
        </Typography.Title>
        <Can code={R} level="full">
          <Button type="primary" className="intercept-rule-add" onClick={() => setAdding(true)}>
            {t('suppression.ruleAdd')}
          </Button>
        </Can>
      </Flex>
      <Table<InterceptRuleView>
        rowKey="id"
        className="intercept-rules-table"
        loading={rules.isPending}
        dataSource={rules.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description={t('suppression.empty')} /> }}
        columns={[
          {
            title: t('suppression.ruleType'),
            render: (_, r) => <Tag>{t(`suppression.ruleTypes.${r.type}`)}</Tag>,
          },
          { title: t('suppression.ruleValue'), dataIndex: 'value' },
          { title: t('suppression.ruleScope'), render: (_, r) => r.apiUser ?? t('suppression.scopeAll') },
          { title: t('suppression.ruleNote'), render: (_, r) => r.note ?? '—' },
          { title: t('suppression.createdAt'), render: (_, r) => formatDateTime(r.createdAt) },
          {
            title: t('suppression.actions'),
            render: (_, r) => (
              <Can code={R} level="full" fallback="—">
                <Popconfirm
                  title={t('suppression.deleteRuleConfirm', { value: r.value })}
                  okButtonProps={{ danger: true, className: 'intercept-delete-ok' }}
                  onConfirm={() => remove.mutateAsync(r.id)}
                >
                  <Button type="link" danger className="intercept-rule-delete">
                    {t('suppression.delete')}
                  </Button>
                </Popconfirm>
              </Can>
            ),
          },
        ]}
      />
      <InterceptRuleModal
        open={adding}
        onClose={() => setAdding(false)}
        onSaved={async () => {
          setAdding(false);
          await refresh();
        }}
      />
    </Card>
  );
}
