import type { Lang } from '@herald/shared/lang';
import type { MenuPermission, UserBalance, UserInfo } from '@herald/shared/schemas/account.schema';
import { create } from 'zustand';
import { COOKIE, readCookie } from '../infra/storage/cookies.ts';
import { LOCAL_KEY, readLocal } from '../infra/storage/local-store.ts';
import type { RouteTheme } from '../routes/route-types.ts';

export type { UserInfo };

/** Who the header greets: taken from the user info, not a call of its own. */
export type MemberUserInfo = Pick<UserInfo, 'userName'>;

export type DeviceType = 'desktop' | 'mobile';

export interface SessionState {
  /** The login this state belongs to (the `loginId` cookie); the credential itself is httpOnly. */
  loginId: string | null;
  userInfo: UserInfo | null;
  memberUserInfo: MemberUserInfo | null;
  userBalance: UserBalance | null;
  userFullMes: Record<string, unknown> | null;
  securityInfo: Record<string, unknown> | null;
  userContactInfo: Record<string, unknown> | null;
  verificationWay: string | null;
  menus: readonly MenuPermission[];
  permissions: readonly number[] | null;
  /** Hide data download buttons; hidden unless the server says otherwise (§8). */
  hideExport: boolean;
  theme: RouteTheme;
  lang: Lang;
  sidebarOpen: boolean;
  device: DeviceType;
  loading: boolean;
}

export interface SessionActions {
  patch(partial: Partial<SessionState>): void;
  setPermissions(menus: readonly MenuPermission[]): void;
  /** Forgets everything tied to the logged-in user; keeps the look (theme, language, sidebar). */
  clearUser(): void;
}

const userFields = {
  loginId: null,
  userInfo: null,
  memberUserInfo: null,
  userBalance: null,
  userFullMes: null,
  securityInfo: null,
  userContactInfo: null,
  verificationWay: null,
  menus: [],
  permissions: null,
  hideExport: true,
  loading: false,
} satisfies Partial<SessionState>;

export const useSessionStore = create<SessionState & SessionActions>()((set) => ({
  ...userFields,
  loginId: readCookie(COOKIE.loginId),
  theme: readLocal(LOCAL_KEY.theme) === 'sms' ? 'sms' : 'email',
  lang: 'zh-cn',
  sidebarOpen: readCookie(COOKIE.sidebar) !== '0',
  device: 'desktop',
  patch: (partial) => set(partial),
  setPermissions: (menus) => set({ menus, permissions: [...new Set(menus.map((menu) => menu.code))] }),
  clearUser: () => set(userFields),
}));

export const sessionState = () => useSessionStore.getState();
