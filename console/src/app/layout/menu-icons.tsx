import {
  ApiOutlined,
  BarChartOutlined,
  CrownOutlined,
  DashboardOutlined,
  InboxOutlined,
  SendOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { MenuIcon } from '../../routes/route-types.ts';

/** The route table names icons; the shell draws them. */
export const menuIcons: Record<MenuIcon | 'api', ReactNode> = {
  dashboard: <DashboardOutlined />,
  data: <BarChartOutlined />,
  response: <InboxOutlined />,
  send: <SendOutlined />,
  settings: <SettingOutlined />,
  plus: <CrownOutlined />,
  account: <UserOutlined />,
  api: <ApiOutlined />,
};
