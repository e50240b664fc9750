import { PERMISSIONS } from '@herald/shared/permissions';
import type { UnsubscribePageView } from '@herald/shared/schemas/unsubscribe-page.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Flex, Popconfirm, Result, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Can } from '../../components/Can.tsx';
import { formatDateTime } from '../../components/format-time.ts';
import {
  deleteUnsubscribePage,
  fetchUnsubscribeConfig,
  fetchUnsubscribePages,
  setUnsubscribeConfig,
} from './unsubscribe/unsubscribe-pages.api.ts';

const BASE = '/sendSetting/unsubsribeSetting';
const when = (time: number) => formatDateTime(time);

/**
 * The account's unsubscribe pages (console-spec §2 /sendSetting/unsubsribeSetting): which one is
 * in use (or the built-in page), new/edit on the style screen, preview, delete with confirmation.
 */
export default function UnsubscribeSettingPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const pages = useQuery({ queryKey: ['unsubscribePages', 'list'], queryFn: fetchUnsubscribePages });
  const config = useQuery({ queryKey: ['unsubscribePages', 'config'], queryFn: fetchUnsubscribeConfig });
  const refresh = () => queries.invalidateQueries({ queryKey: ['unsubscribePages'] });
  const remove = useMutation({ mutationFn: deleteUnsubscribePage, onSettled: refresh });
  const choose = useMutation({ mutationFn: setUnsubscribeConfig, onSettled: refresh });

  if (pages.isError || config.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const inUse = config.data?.pageId ?? null;
  const max = pages.data?.max ?? 0;
  const full = (pages.data?.pages.length ?? 0) >= max;
  const languageText = (p: UnsubscribePageView) =>
    t(
      p.language === 'en'
        ? 'unsubscribePage.languageEn'
        : p.language === 'zh-cn'
          ? 'unsubscribePage.languageZh'
          : 'unsubscribePage.languageBoth',
    );

  return (
    <Card className="unsubscribe-setting-page">
      <Flex justify="space-between" align="center" gap="middle" wrap style={{ marginBottom: 8 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('unsubscribePage.title')}
        </Typography.Title>
        <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full">
          <Space>
            <Button
              className="unsubscribe-use-builtin"
              disabled={inUse === null || !config.data}
              loading={choose.isPending && choose.variables === null}
              onClick={() => choose.mutate(null)}
            >
              {t('unsubscribePage.useBuiltIn')}
            </Button>
            <Tooltip title={full ? t('unsubscribePage.limitReached', { max }) : undefined}>
              <Button
                type="primary"
                className="unsubscribe-add"
                disabled={!pages.data || full}
                onClick={() => navigate(`${BASE}/stylePage`)}
              >
                {t('unsubscribePage.add')}
              </Button>
            </Tooltip>
          </Space>
        </Can>
      </Flex>
      <Typography.Paragraph type="secondary">{t('unsubscribePage.intro', { max })}</Typography.Paragraph>
      {config.data && inUse === null && (
        <Typography.Paragraph className="unsubscribe-builtin-in-use">
          <Tag color="green">{t('unsubscribePage.inUse')}</Tag> {t('unsubscribePage.builtIn')}
        </Typography.Paragraph>
      )}
      <Table<UnsubscribePageView>
        rowKey="id"
        className="unsubscribe-pages-table"
        loading={pages.isPending || config.isPending}
        dataSource={pages.data?.pages ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description={t('unsubscribePage.empty')} /> }}
        columns={[
          {
            title: t('unsubscribePage.name'),
            render: (_, p) => (
              <Space>
                {p.name}
                {p.id === inUse && <Tag color="green">{t('unsubscribePage.inUse')}</Tag>}
              </Space>
            ),
          },
          { title: t('unsubscribePage.language'), render: (_, p) => languageText(p) },
          {
            title: t('unsubscribePage.reasons'),
            render: (_, p) => p.reasons.map((r) => t(`unsubscribePage.reason_${r}`)).join(', '),
          },
          { title: t('unsubscribePage.updatedAt'), render: (_, p) => when(p.updatedAt) },
          {
            title: t('unsubscribePage.actions'),
            render: (_, p) => (
              <Space size={0} wrap>
                <Button
                  type="link"
                  className="unsubscribe-preview"
                  onClick={() => navigate(`${BASE}/preview/${p.id}`)}
                >
                  {t('unsubscribePage.preview')}
                </Button>
                <Can code={PERMISSIONS.EMAIL_SETTINGS} level="full">
                  <Button
                    type="link"
                    className="unsubscribe-use"
                    disabled={p.id === inUse}
                    loading={choose.isPending && choose.variables === p.id}
                    onClick={() => choose.mutate(p.id)}
                  >
                    {t('unsubscribePage.use')}
                  </Button>
                  <Button
                    type="link"
                    className="unsubscribe-edit"
                    onClick={() => navigate(`${BASE}/stylePage?id=${p.id}`)}
                  >
                    {t('unsubscribePage.edit')}
                  </Button>
                  <Popconfirm
                    title={t('unsubscribePage.deleteConfirm', { name: p.name })}
                    description={p.id === inUse ? t('unsubscribePage.deleteInUse') : undefined}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => remove.mutateAsync(p.id)}
                  >
                    <Button type="link" danger className="unsubscribe-delete">
                      {t('unsubscribePage.delete')}
                    </Button>
                  </Popconfirm>
                </Can>
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
