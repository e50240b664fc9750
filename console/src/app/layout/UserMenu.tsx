import { LogoutOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { type Lang, resolveLang } from '@herald/shared/lang';
import { Avatar, Dropdown, type MenuProps, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LOGIN_PATH } from '../../routes/routes.ts';
import { changeLang } from '../../stores/i18n.ts';
import { useSessionStore } from '../../stores/session.store.ts';
import { logout } from '../session/logout.ts';
import styles from './BackendLayout.module.css';

/**
 * The user's menu: who is logged in, account info, security, logout; on a phone it also holds
 * the language choice, which has no room in the header there.
 */
export function UserMenu({ withLanguage = false }: { withLanguage?: boolean }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const userInfo = useSessionStore((state) => state.userInfo);
  const device = useSessionStore((state) => state.device);
  const name = userInfo?.userName ?? '';
  const { token } = theme.useToken();

  const items: MenuProps['items'] = [
    {
      key: 'who',
      disabled: true,
      label: (
        <div className={styles.userCard}>
          <strong>{name}</strong>
          <span>
            {userInfo?.accountType === 'member' ? t('shell.accountMember') : t('shell.accountMain')}
          </span>
        </div>
      ),
    },
    { type: 'divider' },
    { key: '/accountSetting/info', icon: <UserOutlined />, label: t('shell.accountInfo') },
    { key: '/accountSetting/security', icon: <SafetyOutlined />, label: t('shell.security') },
    ...(withLanguage
      ? [
          { type: 'divider' as const },
          {
            key: 'lang',
            label: t('shell.language'),
            children: [
              { key: 'lang:zh-cn', label: t('common.langZhCn') },
              { key: 'lang:en', label: t('common.langEn') },
            ],
          },
        ]
      : []),
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: t('shell.logout'), danger: true },
  ];

  const onClick: MenuProps['onClick'] = async ({ key }) => {
    if (key === 'logout') {
      await logout();
      void navigate(LOGIN_PATH);
    } else if (key.startsWith('lang:')) {
      void changeLang(key.slice(5) as Lang);
    } else {
      void navigate(key);
    }
  };

  return (
    <Dropdown
      menu={{ items, onClick, selectedKeys: [`lang:${resolveLang(i18n.language)}`] }}
      trigger={['click']}
      placement="bottomRight"
    >
      <button type="button" className={styles.userButton} data-testid="user-menu">
        <Avatar size={30} className={styles.avatar} style={{ background: token.colorPrimary }}>
          {name.slice(0, 1).toUpperCase() || <UserOutlined />}
        </Avatar>
        {device === 'desktop' && <span className={styles.userName}>{name}</span>}
      </button>
    </Dropdown>
  );
}
