import { ExportOutlined } from '@ant-design/icons';
import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCurrentRoute } from '../../routes/current-route.ts';
import { buildMenu, type MenuNode } from '../../routes/menu.ts';
import { routeByPath } from '../../routes/routes.ts';
import { useSessionStore } from '../../stores/session.store.ts';
import { API_DOCS_URL } from '../shell-config.ts';
import { menuIcons } from './menu-icons.tsx';

type MenuItem = NonNullable<MenuProps['items']>[number];

/**
 * The sidebar menu of the current product (email or SMS), built from the route table and the
 * user's permission codes. An editor or detail screen highlights the list it belongs to.
 */
export function SidebarMenu({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const theme = useSessionStore((state) => state.theme);
  const permissions = useSessionStore((state) => state.permissions);
  const route = useCurrentRoute();
  const nodes = useMemo(() => buildMenu(theme, permissions, API_DOCS_URL), [theme, permissions]);

  const selected = [route?.path, ...(route?.parents ?? [])].find((path) => path && routeByPath(path)?.menu);
  const currentGroup = route?.group;
  const [openKeys, setOpenKeys] = useState<string[]>(currentGroup ? [currentGroup] : []);
  // A collapsed sidebar shows submenus as pop-ups, which must start closed.
  const [popupKeys, setPopupKeys] = useState<string[]>([]);
  useEffect(() => {
    if (currentGroup) setOpenKeys((keys) => (keys.includes(currentGroup) ? keys : [...keys, currentGroup]));
  }, [currentGroup]);

  const toItem = (node: MenuNode): MenuItem => {
    switch (node.kind) {
      case 'item':
        return {
          key: node.path,
          icon: node.icon ? menuIcons[node.icon] : undefined,
          label: t(node.titleKey),
        };
      case 'group':
        return {
          key: node.id,
          icon: node.icon ? menuIcons[node.icon] : undefined,
          label: t(node.titleKey),
          children: node.children.map(toItem),
        };
      case 'link':
        return {
          key: `link:${node.href}`,
          icon: menuIcons.api,
          label: (
            <a href={node.href} target="_blank" rel="noopener noreferrer">
              {t(node.titleKey)} <ExportOutlined style={{ fontSize: 11, opacity: 0.7 }} />
            </a>
          ),
        };
    }
  };

  return (
    <Menu
      mode="inline"
      theme="dark"
      items={nodes.map(toItem)}
      selectedKeys={selected ? [selected] : []}
      openKeys={collapsed ? popupKeys : openKeys}
      onOpenChange={(keys) => (collapsed ? setPopupKeys : setOpenKeys)(keys as string[])}
      onClick={({ key }) => {
        if (String(key).startsWith('link:')) return;
        void navigate(String(key));
        onNavigate?.();
      }}
      data-testid="sidebar-menu"
      className="app-sidebar-menu"
    />
  );
}
