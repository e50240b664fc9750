import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Tooltip } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { fetchUnreadCount } from '../../api/messages.api.ts';
import { useMessageStore } from '../../stores/message.store.ts';

/** The message centre bell with the unread count (console-spec §3); shown only to holders of code 7. */
export function MessageBadge() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const totalCount = useMessageStore((state) => state.totalCount);

  useEffect(() => {
    fetchUnreadCount()
      .then((count) => useMessageStore.getState().setTotalCount(count))
      .catch(() => {});
  }, []);

  return (
    <Tooltip title={totalCount ? t('shell.unreadMessages', { count: totalCount }) : t('shell.messages')}>
      <Badge count={totalCount} size="small" offset={[-4, 4]}>
        <Button
          type="text"
          shape="circle"
          icon={<BellOutlined />}
          aria-label={t('shell.messages')}
          onClick={() => void navigate('/accountSetting/messageCenter')}
          data-testid="message-badge"
        />
      </Badge>
    </Tooltip>
  );
}
