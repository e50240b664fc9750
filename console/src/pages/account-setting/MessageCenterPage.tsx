import { SITE_MESSAGE_CATEGORIES } from '@herald/shared/schemas/site-message.schema';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Card, Empty, Flex, List, Result, Segmented, Select, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { fetchMessages, markMessagesRead, type SiteMessageCategory } from '../../api/messages.api.ts';
import { formatDateTime } from '../../components/format-time.ts';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';
import { useMessageStore } from '../../stores/message.store.ts';

const PAGE_SIZE = 10;
const TEMPLATES_PATH = '/sendRelative/template';
const SETTINGS_PATH = '/accountSetting/messageCenter/setMessage';

/**
 * The message centre (console-spec §2 `accountSetting/messageCenter`, code 7; calls
 * `/userMessages`): the account's messages newest first, worded by the server in the reader's
 * language, unread ones marked; filters by read state and kind; each message marks read on its
 * own or all at once, and links to the screen where the account acts on it. The header badge
 * follows the unread count every call answers.
 */
export default function MessageCenterPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [pageNum, setPageNum] = useState(1);
  const [unread, setUnread] = useState(false);
  const [category, setCategory] = useState<SiteMessageCategory | undefined>(undefined);
  const setTotalCount = useMessageStore((s) => s.setTotalCount);

  const messages = useQuery({
    queryKey: ['siteMessages', pageNum, unread, category],
    queryFn: async () => {
      const page = await fetchMessages({ pageNum, pageSize: PAGE_SIZE, unread, category });
      setTotalCount(page.totalCount);
      return page;
    },
    placeholderData: keepPreviousData,
  });
  const read = useMutation({
    mutationFn: markMessagesRead,
    onSuccess: (totalCount, which) => {
      setTotalCount(totalCount);
      if ('all' in which) httpEffects().toast('success', t('messages.allRead'), SUCCESS_TOAST_SECONDS);
    },
    onSettled: () => queries.invalidateQueries({ queryKey: ['siteMessages'] }),
  });

  if (messages.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const page = messages.data;
  const unreadCount = page?.totalCount ?? 0;

  return (
    <Card
      title={t('messages.title')}
      className="message-center-page"
      extra={
        <Link to={SETTINGS_PATH} className="messages-settings-link">
          {t('messages.settingsLink')}
        </Link>
      }
    >
      <Typography.Paragraph type="secondary">{t('messages.intro')}</Typography.Paragraph>
      <Flex gap={12} wrap align="center" style={{ marginBottom: 16 }}>
        <Segmented
          className="messages-read-filter"
          value={unread ? 'unread' : 'all'}
          onChange={(value) => {
            setUnread(value === 'unread');
            setPageNum(1);
          }}
          options={[
            { value: 'all', label: t('messages.filterAll') },
            {
              value: 'unread',
              label: unreadCount
                ? `${t('messages.filterUnread')} (${unreadCount})`
                : t('messages.filterUnread'),
            },
          ]}
        />
        <Select
          className="messages-category"
          style={{ width: 160 }}
          value={category ?? 'all'}
          onChange={(value: string) => {
            setCategory(value === 'all' ? undefined : (value as SiteMessageCategory));
            setPageNum(1);
          }}
          options={[
            { value: 'all', label: t('messages.categoryAll') },
            ...SITE_MESSAGE_CATEGORIES.map((c) => ({ value: c, label: t(`messages.category_${c}`) })),
          ]}
        />
        <Typography.Text type="secondary" className="messages-total">
          {t('messages.total', { count: page?.total ?? 0, unread: unreadCount })}
        </Typography.Text>
        <Button
          className="messages-read-all"
          disabled={unreadCount === 0}
          loading={read.isPending && read.variables !== undefined && 'all' in read.variables}
          onClick={() => read.mutate({ all: true })}
          style={{ marginLeft: 'auto' }}
        >
          {t('messages.markAllRead')}
        </Button>
      </Flex>
      <List
        className="messages-list"
        loading={messages.isPending}
        dataSource={page?.list ?? []}
        locale={{
          emptyText: (
            <Empty description={unread ? t('messages.emptyUnread') : t('messages.emptyTitle')}>
              {!unread && (
                <Flex vertical align="center" gap={8}>
                  <Typography.Text type="secondary">{t('messages.emptyHint')}</Typography.Text>
                  <Link to={TEMPLATES_PATH}>
                    <Button type="primary">{t('messages.emptyAction')}</Button>
                  </Link>
                </Flex>
              )}
            </Empty>
          ),
        }}
        pagination={
          (page?.total ?? 0) > PAGE_SIZE
            ? { current: pageNum, pageSize: PAGE_SIZE, total: page?.total ?? 0, onChange: setPageNum }
            : false
        }
        renderItem={(message) => (
          <List.Item
            className={`messages-item${message.read ? '' : ' messages-item-unread'}`}
            actions={[
              <Link key="view" to={message.link} className="messages-view">
                {t('messages.view')}
              </Link>,
              ...(message.read
                ? []
                : [
                    <Button
                      key="read"
                      type="link"
                      size="small"
                      className="messages-mark-read"
                      onClick={() => read.mutate({ ids: [message.id] })}
                    >
                      {t('messages.markRead')}
                    </Button>,
                  ]),
            ]}
          >
            <List.Item.Meta
              title={
                <Flex gap={8} align="center">
                  {!message.read && <Badge status="processing" />}
                  <Typography.Text strong={!message.read} className="messages-title">
                    {message.title}
                  </Typography.Text>
                  <Tag>{t(`messages.category_${message.category}`)}</Tag>
                  {!message.read && <Tag color="blue">{t('messages.unreadTag')}</Tag>}
                </Flex>
              }
              description={
                <Flex vertical gap={4}>
                  <Typography.Text className="messages-content">{message.content}</Typography.Text>
                  <Typography.Text type="secondary">{formatDateTime(message.createdAt)}</Typography.Text>
                </Flex>
              }
            />
          </List.Item>
        )}
      />
    </Card>
  );
}
